"""The balance a rule option gains: its paired interval in the study's "what to change" table and
the verdict (which calls an option fairer only when that interval agrees with the seat test);
`tourney summary` of a study prints its verdict; a study records the command it is, not how it was
run (no --overwrite / --resume)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from tourney_sim.reports import render
from tourney_sim.reports.study_report import build, rule_rows, verdict
from tourney_sim.simulate.stats import analysis
from tourney_sim.simulate.stats.studies import StudyData, questions

from .support import synthetic

ROOT = Path(__file__).resolve().parent.parent
GAME = synthetic.Game(players=4)
KW = dict(luck=0.7, draw=0.1, varying_start=True)


def fix_study(seed: int = 3, deals: int = 3000) -> StudyData:
    """Seat 0 wins more often under heuristic play; the option ``even=true`` removes it (the same
    deals' luck, other table noise)."""
    data = StudyData("synthetic", "Synthetic", {"heuristic": "h"})
    data.levels[(4, "heuristic")] = synthetic.config(GAME, [["h"] * 4], {}, deals, seed=seed,
                                                     seat_bias=[0.4, 0, 0, 0], **KW)
    data.rules[(4, "heuristic", "even=true")] = synthetic.config(GAME, [["h2"] * 4], {}, deals, seed=seed, **KW)
    data.manifest = {"levels": ["heuristic"], "stages": [], "seed": seed}
    return data


def test_an_option_that_changes_nothing_gets_a_narrow_paired_gain_interval():
    """The same games under both rule sets: the gain is 0, and its paired interval is a few pp
    wide at 500 deals (the unpaired one it replaced was about ±17 pp there)."""
    base = synthetic.config(GAME, [["h"] * 4], {}, 500, seed=1, **KW)
    same = synthetic.config(GAME, [["h"] * 4], {}, 500, seed=1, **KW)
    same.label = "same rules"
    seats = {id(c): analysis.seat_analysis(c) for c in (base, same)}
    cmp = analysis.compare_variants([base, same], seats)[0]["comparisons"][0]
    assert cmp["balance_diff"] == 0
    assert cmp["balance_diff_low"] < 0 < cmp["balance_diff_high"]
    assert cmp["balance_diff_high"] - cmp["balance_diff_low"] < 0.08, cmp


def test_an_option_that_fixes_a_gap_is_fairer_in_the_table_and_the_verdict_alike():
    data = fix_study()
    family = questions(data)
    (row,) = rule_rows(data, family)
    assert row.gain_low > 0 and row.shown() == "fairer" and row.verdict().startswith("fairer")
    said = " ".join(build(data, family).terminal)
    assert "even=true makes it fairer: balance figure" in said and "gained +" in said
    md = render.to_markdown(build(data, family))
    change = md.split("## What to change")[1].split("## ")[0]
    assert f"{100 * row.gain:+.1f} [{100 * row.gain_low:+.1f}, {100 * row.gain_high:+.1f}]" in change


def test_fairer_is_not_claimed_when_the_gain_interval_holds_0():
    """The seat test finds the option moves seat 0 towards even, but (here forced) the balance
    gained is not shown: the verdict and the table say both, and neither calls it fairer."""
    data = fix_study()
    family = questions(data)
    (row,) = rule_rows(data, family)
    assert row.moved() is not None and row.direction() == "towards"
    row.gain_low = -0.01
    assert row.shown() == "" and not row.verdict().startswith("fairer")
    assert "(towards even), but the balance figure is not shown to change (" in row.verdict()
    seats = {key: analysis.seat_analysis(cfg) for key, cfg in data.levels.items()}
    said = " ".join(verdict(data, family, 4, [row], seats))
    assert "makes it fairer" not in said
    assert "No rule option tried is shown to make it fairer; even=true moves seat 0's" in said
    assert "towards even, but the balance figure is not shown to change" in said


def _tourney(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "tourney_sim", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def test_summary_of_a_study_prints_its_verdict_and_the_command_leaves_out_overwrite(tmp_path):
    out = tmp_path / "s"
    study = ["study", "companeros", "--players", "3", "--levels", "random", "--budget", "quick", "--out", str(out)]
    for extra in (["--overwrite"], ["--overwrite"], ["--resume"]):
        p = _tourney(*study, *extra, "--quiet")
        assert p.returncode == 0, p.stderr[-2000:]
    man = json.loads((out / "_study.json").read_text())
    # the command as recorded: the absolute --out relative to where it ran (no machine's path)
    assert man["command"] == "tourney " + " ".join(study[:-1] + [os.path.relpath(out, ROOT), "--quiet"])
    assert len(man["resumed"]) == 1  # the --resume, listed apart
    p = _tourney("summary", str(out))
    assert p.returncode == 0, p.stderr
    assert "verdict\n  3 players: Only random play was studied" in p.stdout, p.stdout
    assert "findings among" in p.stdout and str(out / "report.html") in p.stdout
    # an unfinished study: one line saying how to continue it
    man["status"] = "interrupted"
    (out / "_study.json").write_text(json.dumps(man))
    p = _tourney("summary", str(out))
    assert p.returncode == 2 and "is not finished" in p.stderr and len(p.stderr.strip().splitlines()) == 1
