"""The public API (tourney_sim's top level, docs/api.md): the documented example runs as written,
and the functions make the same datasets as the command line."""
import re
import sys
import types
from pathlib import Path

import pandas as pd
import pytest

import tourney_sim as tourney
from tourney_sim.simulate.results import DatasetError
from tourney_sim.strategies import StrategyError

from .support.cli import invoke

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def doc_examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_docs_api_example_runs(tmp_path, monkeypatch):
    blocks = doc_examples()
    assert len(blocks) >= 2
    monkeypatch.chdir(tmp_path)
    # the examples run as one module, as a user's file would: numba's disk cache (the strategy
    # example says cache=True, and the kernels compiled for it are cached too) finds the module
    # by name when it loads them again; exec'd into a bare dict they record no module at all
    module = types.ModuleType("tourney_docs_api_example")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    namespace = module.__dict__
    for code in blocks:
        exec(compile(code, str(DOC), "exec"), namespace)
    assert (tmp_path / "runs" / "api-demo.png").stat().st_size > 1000
    fig = namespace["fig"]  # the saved plot shows its axis labels whole, none cut at an edge
    renderer = fig.canvas.get_renderer()
    for label in (fig.axes[0].xaxis.label, fig.axes[0].yaxis.label):
        box = label.get_window_extent(renderer)
        assert fig.bbox.x0 <= box.x0 and fig.bbox.y0 <= box.y0 and box.x1 <= fig.bbox.x1 and box.y1 <= fig.bbox.y1
    assert (tmp_path / "runs" / "api-tournament.html").read_text().lstrip().startswith("<!DOCTYPE html>")
    by = namespace["by"]
    assert set(by.index.get_level_values("strategy")) == {"greedy", "random"}
    assert (by["low"] <= by["win_rate"]).all() and (by["win_rate"] <= by["high"]).all()


def test_public_names_are_exactly_the_documented_ones():
    documented = set()
    for cell in re.findall(r"^\| (`[^|]*)\|", DOC.read_text(encoding="utf-8"), re.M):
        documented |= set(re.findall(r"`(\w+)", cell))
    assert set(tourney.__all__) == documented
    for name in tourney.__all__:
        assert getattr(tourney, name) is not None


def test_run_matches_the_cli_byte_for_byte(tmp_path):
    r = tourney.run("cardavia", ["guard", "random"], games=600, seed=3, out=tmp_path / "api", workers=1,
                    chunk_size=200)
    r_cli = invoke("run", "cardavia", "--games", "600", "--seed", "3", "--strategy", "guard",
                   "--strategy", "random", "--out", tmp_path / "cli", "--workers", "1",
                   "--chunk-size", "200", "--quiet")
    assert r_cli.exit_code == 0, r_cli.output
    for part in sorted((tmp_path / "cli").glob("part-*.parquet")):
        assert (r.path / part.name).read_bytes() == part.read_bytes()
    df = tourney.load(r.path)
    assert len(df) == 600 * 4 and df.attrs["manifest"]["game"] == "cardavia"
    summary = r.summary.tables["strategy"]
    assert summary.loc["guard", "games"] == (df.strategy == "guard").sum()
    assert summary.loc["guard", "win_rate"] == pytest.approx(df[df.strategy == "guard"].win.mean())


def test_load_a_tournament_has_every_seating(tmp_path):
    t = tourney.tournament("companeros", ["high", "random"], players=3, games=50, seed=2, out=tmp_path / "t",
                           workers=1)
    df = tourney.load(t.path)
    assert df["dataset"].nunique() == len(df.attrs["tournament"]["datasets"])
    assert len(df) == 50 * 3 * df["dataset"].nunique()
    assert isinstance(t.summary.tables["strategy"], pd.DataFrame)
    md = tourney.report(t.path)
    assert md.startswith("#")


def test_bad_input_raises_one_line_errors(tmp_path):
    with pytest.raises(StrategyError, match="unknown strategy 'nope'"):
        tourney.run("companeros", ["nope"], games=10, out=tmp_path / "x")
    assert not (tmp_path / "x").exists()
    with pytest.raises(DatasetError, match="does not exist"):
        tourney.load(tmp_path / "missing")
    with pytest.raises(ValueError, match="unknown game"):
        tourney.strategies("chess")


def test_defaults_are_the_commands(tmp_path, monkeypatch):
    """The API chooses what the command chooses when an option is left out: the output directory
    (api.DEFAULT_OUT) and a run's strategies (the game's built-ins, one per seat), so a run without
    them makes the same dataset either way; `summary` prints what the command prints."""
    monkeypatch.chdir(tmp_path)
    r = tourney.run("partners", games=40, workers=1)
    assert r.path == Path("runs/partners-4p-seed0") and r.games_played == 40 and r.notes == []
    first = {p.name: p.read_bytes() for p in r.path.glob("part-*.parquet")}
    cli = invoke("run", "partners", "--games", 40, "--workers", 1, "--overwrite")
    assert cli.exit_code == 0, cli.output
    assert {p.name: p.read_bytes() for p in r.path.glob("part-*.parquet")} == first
    assert tourney.summary(r.path).text in cli.output and r.summary.text == tourney.summary(r.path).text
    assert list(r.summary.tables["seat"].index) == [0, 1, 2, 3]
    assert tourney.verify(r.path).ok


def test_a_tournament_report_and_its_summary_share_one_analysis(tmp_path):
    t = tourney.tournament("companeros", ["high", "random"], players=3, games=30, seed=2, out=tmp_path / "t",
                           workers=1)
    md = t.report()
    html = Path(t.report(tmp_path / "r.html"))
    assert md == tourney.report(t.path) and html.read_text().lstrip().startswith("<!DOCTYPE html>")
    assert t.summary.text == tourney.report_text(t.path)
    with pytest.raises(tourney.TourneyError, match="cannot write report"):
        t.report(tmp_path / "missing" / "r.html")


def test_the_commands_checks_are_the_apis(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for call, message in [(lambda: tourney.run("companeros", games=0), "--games must be a positive number, got 0"),
                          (lambda: tourney.run("companeros", workers=0), "--workers must be at least 1, got 0"),
                          (lambda: tourney.sweep("companeros", [], ["greedy", "random"]), "give the rule to vary"),
                          (lambda: tourney.tune("companeros", "greedy", ["random"], trials=0), "--trials and --deals"),
                          (lambda: tourney.study("companeros", players=["3,x"]), "--players takes player counts"),
                          (lambda: tourney.bench("companeros", repeats=0), "--games and --repeats must be positive")]:
        with pytest.raises(tourney.TourneyError, match=message) as caught:
            call()
        assert caught.value.exit_code == 2
    assert not (tmp_path / "runs").exists()
