"""Issue 39 (items 6 and 7): what a report says is what its data say, the same every time.

- A tournament stopped by ``--until-decided`` is reported with the very test that stopped it: the
  same bets, level, cap and deals (recorded in ``_tournament.json``), so every pair's decision in
  the report is the decision that stopped the run, borderline pairs included.
- A report made twice from the same data is byte-identical, whatever the clock says in between
  (the time it states is the data's, from the manifests), for every kind of report.
- A recorded command never holds an absolute path of the machine it ran on.
"""
from __future__ import annotations

import json
import shlex
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tourney_sim.reports import render
from tourney_sim.simulate.stats import analysis, intervals as stats
from tourney_sim.simulate.stats.sequential import Sequential

from .support import synthetic
from .support.cli import invoke
from .support.clock import set_clock

WINNERS = ("positive", "negative")

# ----------------------------------------------------------------------------- 1. the stopping rule's decisions
#: planted strengths (a against b at 0; c near b) whose pairs stop near the boundary of
#: --until-decided at alpha 0.01 over three pairs, bets tuned to the cap of 3,000 deals (seeds: the
#: tournaments' own; drawn from a larger simulation where the old report disagreed most)
BORDERLINE = [(1, 0.0715, 0.0538), (4, 0.104, -0.0567), (9, 0.0763, -0.0285), (16, 0.1099, 0.0332),
              (18, 0.0632, 0.0034), (25, 0.1147, 0.0345)]
ALPHA, CAP, FIRST_BATCH = 0.01, 3000, 200


def _borderline_tournament(out: Path, seed: int, a: float, c: float) -> dict:
    stop = Sequential("strength", ALPHA, 0.02)
    return synthetic.write_sequential_tournament(out, synthetic.Game(players=2), ["a", "b", "c"],
                                                 {"a": a, "b": 0.0, "c": c}, CAP, stop,
                                                 first_batch=FIRST_BATCH, seed=seed)


def test_the_report_decides_every_borderline_pair_as_its_stopping_rule_did(tmp_path):
    """Every pair of borderline tournaments: the report's pairwise decision, significance, p-value
    and interval are the stopping rule's own, and so is its sequential section. The old report
    read these pairs with fixed-sample Holm p-values, and a recomputation with bets tuned to 0.05
    reads some of them otherwise: both disagree with the stop on this set (the test would fail)."""
    pairs = old_fixed = old_bets = 0
    for seed, a, c in BORDERLINE:
        out = tmp_path / f"t{seed}"
        record = _borderline_tournament(out, seed, a, c)
        assert record["bets"] == {"alpha": record["per_test_alpha"], "cap": CAP} and record["questions"] == 3
        assert record["looks"][-1] == record["deals"] and record["per_test_alpha"] == pytest.approx(ALPHA / 3)
        said = {frozenset(r["pair"]): r for r in record["results"]}
        report = render.build([out], rating_sample=50)
        (rep,) = report.configs
        assert rep.pairwise.attrs["sequential"]["pairs"] == 3
        fixed = analysis.pairwise_table(rep.cfg)
        counts = analysis.strategy_counts(rep.cfg)
        for _, row in rep.pairwise.iterrows():
            want = said[frozenset((row.a, row.b))]
            pairs += 1
            assert row.decision == want["text"], (seed, row.a, row.b)
            assert bool(row.significant) == (want["decision"] in WINNERS)
            assert row.p_value == want["p_value"] and row.deals == want["deals"]
            sign = 1 if want["pair"] == [row.a, row.b] else -1
            assert sorted((row.ci_low, row.ci_high)) == sorted((sign * want["low"], sign * want["high"]))
            # the old readings of the same pair
            old = fixed[(fixed.a == row.a) & (fixed.b == row.b)].iloc[0]
            old_fixed += bool(old.significant) != (want["decision"] in WINNERS)
            x = analysis.pair_differences(rep.cfg, rep.cfg.names.index(want["pair"][0]),
                                          rep.cfg.names.index(want["pair"][1]), counts)[0]
            t = stats.anytime_interval(x, record["per_test_alpha"], CAP, tune_alpha=0.05)
            old_bets += stats.decide(t.low, t.high, 0.02) != want["decision"]
        md = render.to_markdown(report)
        section = md[md.index("## Sequential testing"):]
        for r in record["results"]:
            assert f"| {r['question']} |" in section and f"| {r['text']} |" in section
        assert "the data no longer give the decisions" not in md
    assert pairs == 18
    # the old readings of the report: fixed-sample Holm disagreed on 6 of these 18 pairs, bets tuned
    # to 0.05 on 3 (those the stop decided at p 0.002-0.003, its level 0.0033: p 0.003-0.005 so)
    assert old_fixed >= 3 and old_bets >= 1, (old_fixed, old_bets)


def test_the_replay_reads_old_records_and_merged_reports_alike(tmp_path):
    """A record written before the bets and looks were recorded is replayed with what the rule did
    then (bets tuned to the per-question level and the cap); a report merging the tournament with
    another dataset replays the test from the tournament's seatings alone."""
    seed, a, c = BORDERLINE[0]
    out = tmp_path / "t"
    record = _borderline_tournament(out, seed, a, c)
    old = {k: v for k, v in record.items() if k not in ("bets", "looks", "questions")}
    old["results"] = [{k: v for k, v in r.items() if k not in ("pair", "p_value")} for r in record["results"]]
    t = json.loads((out / "_tournament.json").read_text())
    t["until_decided"] = old
    (out / "_tournament.json").write_text(json.dumps(t))
    extra = synthetic.write_dataset(tmp_path / "extra", synthetic.Game(players=2), ["a", "b"], {}, 100, seed=99)
    merged = render.build([out, extra], rating_sample=50)
    (rep,) = merged.configs  # one configuration: the tournament's deals and the extra ones
    assert "sequential" not in rep.pairwise.attrs  # not the test's data: fixed-sample, as said
    seq = merged.sequential[out]
    assert [(r["question"], r["decision"], r["low"], r["high"]) for r in seq.results()] == [
        (r["question"], r["decision"], r["low"], r["high"]) for r in record["results"]]


# ----------------------------------------------------------------------------- 2. the same report twice
BEFORE = datetime(2031, 5, 6, 7, 59, 58, tzinfo=timezone.utc)  # the second report is made a minute later,
AFTER = BEFORE + timedelta(minutes=1, seconds=3)  # across a minute boundary (and an hour's)


def _twice(monkeypatch, make) -> tuple:
    set_clock(monkeypatch, BEFORE)
    first = make()
    set_clock(monkeypatch, AFTER)
    return first, make()


def _files(path: Path) -> dict:
    return {p.relative_to(path): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_every_kind_of_report_is_byte_identical_made_twice_with_the_clock_moved(tmp_path, monkeypatch):
    import tourney_sim as tourney
    from tourney_sim.reports import study_report
    from tourney_sim.simulate.stats import studies
    data = tmp_path / "data"
    kinds = {
        "run": tourney.run("companeros", ["greedy", "random"], players=3, games=40, seed=1, out=data / "run",
                           workers=1).path,
        "tournament": tourney.tournament("companeros", ["greedy", "random"], players=3, games=2000, seed=2,
                                         out=data / "tournament", workers=1, until_decided=True).path,
        "sweep": tourney.sweep("companeros", ["match_games=1,2"], ["greedy", "random"], players=3, games=40,
                               seed=3, out=data / "sweep", workers=1).path,
        "tune": tourney.tune("companeros", "greedy", ["random"], trials=3, deals=30, players=3, seed=4,
                             confirm_deals=60, out=data / "tune", workers=1).path,
    }
    assert json.loads((kinds["tournament"] / "_tournament.json").read_text())["until_decided"]["stopped"] == "decided"
    for kind, path in kinds.items():
        def make(kind=kind, path=path):
            where = tmp_path / "reports" / kind
            where.mkdir(parents=True, exist_ok=True)
            tourney.report(path, out=where / "report.html")
            tourney.report(path, out=where / "report.md")
            files = _files(where)
            for f in where.rglob("*"):
                if f.is_file():
                    f.unlink()
            return files, tourney.report_text(path)
        first, second = _twice(monkeypatch, make)
        assert first[0] and first == second, kind
        assert "2031-05-06" not in str(first[0]), kind  # never the clock's time: the data's
    # the study report, made from a study's data (synthetic: a study takes minutes)
    game = synthetic.Game(players=4)
    study = studies.StudyData("synthetic", "Synthetic", {"heuristic": "h", "search": "s"})
    for level, name in (("heuristic", "h"), ("search", "s")):
        study.levels[(4, level)] = synthetic.config(game, [[name] * 4], {}, 2000, seed=5, luck=0.5)
    study.manifest = {"levels": ["heuristic", "search"], "stages": [], "seed": 5,
                      "created": "2030-01-02T03:04:05+00:00"}

    def make_study():
        r = study_report.build(study, studies.questions(study))
        return render.to_html(r), render.to_markdown(r), render.to_text(r)
    first, second = _twice(monkeypatch, make_study)
    assert first == second and "2031-05-06" not in first[0]


def test_the_report_states_when_the_data_were_made():
    manifests = [{"created": "2030-01-02T03:04:05+00:00", "finished": "2030-01-02T05:00:00+00:00"},
                 {"created": "2030-01-01T00:00:00+00:00", "resumed": [{"at": "2030-01-03T10:11:12+00:00"}]},
                 {"created": "unknown"}]
    assert render.made_when(manifests) == " from data made on 2030-01-03 10:11 UTC"
    assert render.made_when([{}]) == ""


# ----------------------------------------------------------------------------- 3. no absolute path in a command
def test_recorded_commands_hold_no_absolute_path(tmp_path, monkeypatch):
    """Every path in a recorded command is relative to the directory the command ran in (``..``
    when outside it); a relative path stays as it was typed."""
    from tourney_sim.cli._options import recorded_command
    from tourney_sim.simulate.jobdir import relative_command, shown_path
    from tourney_sim.simulate.study import BUDGETS, plan
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert shown_path(work / "runs" / "x") == "runs/x" and shown_path("runs/x") == "runs/x"
    assert shown_path(tmp_path / "elsewhere") == "../elsewhere" and shown_path("../y") == "../y"
    assert relative_command(["--out", str(tmp_path / "o"), f"--out={work}/p", f"g@{tmp_path}/best.toml",
                             f"components={work / 'c.toml'}", "x=1", "g:a=0.3"]) == [
        "--out", "../o", "--out=p", "g@../best.toml", "components=c.toml", "x=1", "g:a=0.3"]
    monkeypatch.setattr("sys.argv", ["tourney", "design", "cardavia", "--out", str(tmp_path / "designruns" / "c")])
    assert recorded_command() == "tourney design cardavia --out ../designruns/c"
    # a real run given an absolute --out records it relative to where it ran
    out = tmp_path / "runs" / "r"
    args = ["run", "companeros", "--players", "3", "--games", "20", "--workers", "1", "--quiet", "--out", str(out)]
    monkeypatch.setattr("sys.argv", ["tourney", *args])
    assert invoke(*args).exit_code == 0
    command = json.loads((out / "_manifest.json").read_text())["command"]
    assert command.endswith("--out ../runs/r") and str(tmp_path) not in command
    # a study's stage commands, the study in an absolute directory
    for stage in plan("companeros", BUDGETS["quick"], [3], ["random", "heuristic"]):
        words = shlex.split(stage.command("companeros", 0, tmp_path / "study"))
        assert words[words.index("--out") + 1] == f"../study/{stage.id}"
        assert not any(w.startswith("/") or "=/" in w or "@/" in w for w in words)


def test_committed_docs_name_no_path_of_a_machine():
    """Issue 39: recorded commands in docs/ (reports of standard studies and design runs) and the
    README show paths relative to where they ran, never a directory of the machine they ran on."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    absolute = re.compile(r"(?<![\w.])/(?:work|tmp|root|home|Users)/[\w.-]")
    found = [f"{p.relative_to(root)}:{i}" for p in [root / "README.md", *sorted((root / "docs").rglob("*"))]
             if p.suffix in (".md", ".html", ".txt", ".json") and p.is_file()
             for i, line in enumerate(p.read_text(errors="replace").splitlines(), 1) if absolute.search(line)]
    assert not found, found[:10]
