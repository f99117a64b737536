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
