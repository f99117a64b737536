"""The study's adaptive stage (issue 29): runs from a first game (the deals after a first pass, on
the same seed), the stage's loop (it stops when its questions are settled, keeps going when not,
never beyond its cap), the two-stage reading's error rate under a null, the control variate
(unbiased, and it removes the variance the heuristic level explains), and a study interrupted
inside the adaptive stage resuming to the same report, and the stage asking for no deals its cap
cannot settle (futility)."""
from __future__ import annotations

import json
import os
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app
from tourney_sim.simulate.stats import adaptive, findings, intervals as stats
from tourney_sim.simulate.stats.studies import (OpenQuestions, StudyData, adaptive_counts, on_deals, primary_size,
                                             questions)
from tourney_sim.simulate import study
from tourney_sim.simulate.results import read_table

from .support import synthetic

runner = CliRunner()


def frame(path):
    return read_table(path).to_pandas().sort_values(["game", "seat"]).reset_index(drop=True)


# ----------------------------------------------------------------------------- --first-game
def test_a_run_from_a_first_game_plays_the_deals_after_those_of_a_shorter_run(tmp_path):
    base = ["run", "companeros", "--players", "3", "--strategy", "greedy", "--strategy", "random", "--seed", "5",
            "--quiet"]
    r = runner.invoke(app, base + ["--games", "30", "--out", str(tmp_path / "all")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, base + ["--games", "10", "--first-game", "20", "--chunk-size", "4",
                                   "--out", str(tmp_path / "later")])
    assert r.exit_code == 0, r.output
    later, everything = frame(tmp_path / "later"), frame(tmp_path / "all")
    assert sorted(later.game.unique()) == list(range(20, 30))
    pd.testing.assert_frame_equal(later, everything[everything.game >= 20].reset_index(drop=True))
    man = json.loads((tmp_path / "later" / "_manifest.json").read_text())
    assert man["first_game"] == 20 and man["games"] == 10
    assert json.loads((tmp_path / "all" / "_manifest.json").read_text())["first_game"] == 0
    # verify sees the run's own range; replay knows which games it holds
    r = runner.invoke(app, ["verify", str(tmp_path / "later")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["replay", str(tmp_path / "later"), "--game", "25"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["replay", str(tmp_path / "later"), "--game", "5"])
    assert r.exit_code == 2 and "games 20 to 29" in r.output
    # a resume must ask for the same games
    r = runner.invoke(app, base + ["--games", "10", "--first-game", "21", "--resume", "--out", str(tmp_path / "later")])
    assert r.exit_code == 2 and "first_game" in r.output
    r = runner.invoke(app, base + ["--games", "10", "--first-game", "-1", "--out", str(tmp_path / "neg")])
    assert r.exit_code == 2 and "--first-game must be 0 or more" in r.output and not (tmp_path / "neg").exists()


# ----------------------------------------------------------------------------- the design
def test_the_design_never_plays_past_the_heuristic_levels_deals_and_records_its_batches():
    for name, b in study.BUDGETS.items():
        for game in ("cardavia", "colleagues", "companeros", "cardavia"):
            d = study.adaptive_design(game, b, list(study.LEVELS))
            assert d["first_pass"] + d["cap"] == d["reference_start"]
            assert d["reference_per_deal"] >= 1, (name, game, d)
            assert d["reference_start"] + d["reference_per_deal"] * d["cap"] <= b.level_deals["heuristic"]
            assert 0 < d["batch"] <= d["cap"]
    assert study.adaptive_design("cardavia", study.BUDGETS["standard"], ["random", "heuristic"]) is None
    no_cv = study.adaptive_design("cardavia", study.BUDGETS["standard"], ["random", "search"])
    assert no_cv["reference_per_deal"] == 0
    s = study.adaptive_stage(study.adaptive_design("cardavia", study.BUDGETS["standard"], list(study.LEVELS)),
                             4, "ismcts", 3000, 4)
    assert (s.id, s.first_game, s.deals) == ("adaptive/4p-search-4", 4000, 1000)
    assert "--first-game 4000 " in s.command("cardavia", 0, Path("o"))


# ----------------------------------------------------------------------------- the stage's loop
GAME = synthetic.Game(players=4, team_game=True)
DESIGN = {"first_pass": 100, "cap": 600, "batch": 200, "reference_start": 700, "reference_per_deal": 2}


def synthetic_study(seed: int, bias, played: int) -> StudyData:
    """Heuristic and search play on the same deals (their luck shared), the search level's first
    pass and ``played`` adaptive deals; ``bias`` a planted team advantage under search play."""
    kw = dict(seed=seed, luck=1.5)
    data = StudyData("synthetic", "Synthetic", {"heuristic": "h", "search": "s"})
    data.levels[(4, "heuristic")] = synthetic.config(GAME, [["h"] * 4], {}, 2000, **kw)
    stream = synthetic.config(GAME, [["s"] * 4], {}, DESIGN["first_pass"] + played, seat_bias=bias, **kw)
    data.levels[(4, "search")] = on_deals(stream, np.arange(DESIGN["first_pass"]))
    if played:
        data.streams[4] = stream
    data.manifest = {"levels": ["heuristic", "search"], "stages": [], "seed": seed, "adaptive": dict(DESIGN)}
    return data


def run_stage(seed: int, bias) -> tuple[list, dict]:
    """The study's own loop (simulate.study._adaptive_stage) with synthetic batches: what it
    played, and its manifest."""
    played = []
    manifest = {"game": "synthetic", "seed": seed, "stages": []}
    stages: list = []

    def play(i, s):
        played.append((s.first_game, s.deals))
        s.status = "complete"
        return True

    def still_open(p):
        data = synthetic_study(seed, bias, sum(n for _, n in played))
        size = primary_size(data)
        return [q.subject for q in questions(data).questions if q.level == "search" and q.section == "seats"
                and not adaptive.settled(q, size)]

    assert study._adaptive_stage(DESIGN, [4], "s", stages, manifest, Path("out"), {}, play, still_open,
                                 lambda text: None, False)
    return played, manifest


def test_the_stage_stops_when_its_questions_are_settled_and_keeps_going_when_not():
    # a planted team advantage of about 50 pp under search play: settled by the first pass
    played, _ = run_stage(1, [0, 1.5, 0, 1.5])
    assert played == []
    # about 13 pp: open after the first pass's 100 deals, settled within the cap
    played, manifest = run_stage(3, [0, 0.3, 0, 0.3])
    assert 1 <= len(played) < 3, played
    assert [first for first, _ in played] == [100 + 200 * k for k in range(len(played))]
    assert [s["id"] for s in manifest["stages"]] == [f"adaptive/4p-search-{k + 1}" for k in range(len(played))]
    # no advantage: 700 deals can show neither an effect nor one within +-2 pp, so it plays to the cap
    played, _ = run_stage(3, None)
    assert sum(n for _, n in played) == DESIGN["cap"] and len(played) == 3


def test_a_question_the_stage_settles_is_settled_in_the_report():
    data = synthetic_study(3, [0, 0.3, 0, 0.3], 400)
    family = questions(data)
    size = primary_size(data)
    assert size == 2  # the heuristic level's team question and the search level's
    q = next(q for q in family.questions if q.level == "search")
    assert adaptive.settled(q, size) and q.outcome == "finding" and q.two_stage is not None
    assert q.low <= q.estimate <= q.high and q.deals == 500 and q.first_pass_deals == 100
    assert "sequential 95%" in q.sentence()
    counts = adaptive_counts(data, family)
    assert counts["settled"] == 1 and counts["deals_played"] == {4: 400} and counts["questions"] == 1
    assert 0 <= counts["settled_first_pass"] <= 1
    out = json.loads(json.dumps(q.to_dict()))
    assert out["cv_beta"] == pytest.approx(q.cv_beta) and "two_stage" not in out


def test_the_two_stage_reading_keeps_its_error_rate_under_a_null():
    """No effect: the chance that the stage (first pass at half the level, then the sequence at
    every look) ever calls an effect stays below alpha, simulated on the stage's look schedule."""
    rng = np.random.default_rng(0)
    reps, alpha, w = 400, 0.05, findings.FIRST_PASS_SHARE
    n0, cap, batch = 100, 300, 100
    looks = list(range(n0, n0 + cap + 1, batch))
    x = rng.choice([-1.0, 0.0, 1.0], size=(reps, n0 + cap), p=[0.3, 0.4, 0.3])  # a team contrast, mean 0
    first = np.array([stats.mean_interval(r[:n0]).p_value <= w * alpha for r in x])
    seq = stats.anytime_rejects(x, (1 - w) * alpha, n0 + cap, [0.0], looks)[..., 0].any(axis=-1)
    wrong = (first | seq).mean()
    assert wrong <= alpha, wrong
    # and the same two-stage p-value as the questions compute
    two = findings.TwoStage(x[0, :n0], x[0], n0 + cap, stats.DIFFERENCE, (1 - w) * alpha)
    assert (two.p_value() <= alpha) == bool(first[0] or stats.anytime_rejects(
        x[:1], (1 - w) * alpha, n0 + cap, [0.0], [n0 + cap])[0, 0])


# ----------------------------------------------------------------------------- the control variate
def test_the_control_variate_is_unbiased_and_removes_the_variance_the_heuristic_level_explains():
    rng = np.random.default_rng(1)
    mu_x, mu_y, rho, n0, n, k = 0.1, -0.05, 0.7, 500, 2000, 3
    estimates, plain, removed = [], [], []
    for _ in range(300):
        def draw(size):
            common = rng.normal(0, 1, size)
            x = np.clip(mu_x + 0.3 * common, -1, 1)
            y = np.clip(mu_y + 0.3 * (rho * common + math.sqrt(1 - rho ** 2) * rng.normal(0, 1, size)), -1, 1)
            return x, y
        x0, y0 = draw(n0)  # the first pass: beta from it alone
        x, y = draw(n)  # the new deals
        reference = draw(n * k)[0].reshape(n, k).mean(axis=1)  # the heuristic level's other deals
        beta = adaptive.cv_beta(y0, x0, k)
        v = adaptive.cv_stream(y, x, reference, beta)
        estimates.append(v.mean())
        plain.append(y.mean())
        removed.append(adaptive.variance_removed(y, v))
    se = np.std(estimates) / math.sqrt(len(estimates))
    assert abs(np.mean(estimates) - mu_y) < 4 * se  # unbiased (clipping at 3.5 SDs moves the mean by nothing)
    # rho^2 k / (k + 1) of the variance removed, and the estimates that much less spread
    assert np.mean(removed) == pytest.approx(rho ** 2 * k / (k + 1), abs=0.04)
    assert np.var(estimates) < 0.7 * np.var(plain)
    # uncorrelated: nothing to remove, and (almost) nothing lost
    x0, y0 = rng.normal(0, 0.3, n0), rng.normal(0, 0.3, n0)
    assert adaptive.cv_beta(y0, x0, k) == 0  # a correlation the first pass cannot tell from noise: unused
    assert adaptive.cv_beta(y0, np.zeros(n0), k) == 0 and adaptive.cv_beta(y0, x0, 0) == 0


def test_in_a_study_the_control_variate_uses_the_heuristic_result_of_the_same_deal():
    data = synthetic_study(4, None, 600)
    q = next(q for q in questions(data).questions if q.level == "search")
    assert math.isfinite(q.cv_reduction) and q.cv_reduction > 0.1 and q.cv_beta > 0  # shared deal luck
    lo, hi = adaptive.stream_bounds(DESIGN["reference_per_deal"])
    assert lo <= q.values.min() and q.values.max() <= hi
    # the first pass's deals enter the stream as they are; the new deals adjusted
    y = findings.seat_values(data.streams[4])[0][4]
    assert np.array_equal(q.values[:100], y[:100]) and not np.array_equal(q.values[100:], y[100:])


# ----------------------------------------------------------------------------- resume
TINY = study.Budget("quick", {"random": 100, "heuristic": 600, "search": 20}, {"heuristic": 100, "search": 0},
                    20, 20, 10, 1.0, "seconds", adaptive_deals=200, adaptive_batch=20)


class Interrupting(OpenQuestions):  # the study's open_questions, Ctrl-C at its second look
    """The stage's decision, with Ctrl-C after its first batch (a kill inside the adaptive stage)."""

    def __call__(self, out, manifest, players):
        if any(s["section"] == "adaptive" and s["status"] == "complete" for s in manifest["stages"]):
            raise KeyboardInterrupt
        return super().__call__(out, manifest, players)


@pytest.mark.slow
def test_a_study_interrupted_inside_the_adaptive_stage_resumes_to_the_same_report(tmp_path, monkeypatch):
    from tourney_sim.reports import study_report  # noqa: F401  (registers the study's report)
    monkeypatch.setitem(study.BUDGETS, "quick", TINY)
    kw = dict(budget="quick", levels=["heuristic", "search"], seed=1, workers=1, progress=False)
    ref = study.run_study("cardavia", tmp_path / "ref", **kw)
    batches = [s for s in ref.manifest["stages"] if s["section"] == "adaptive"]
    assert [s["first_game"] for s in batches] == [20, 40], batches  # open after its first pass and its first batch
    with monkeypatch.context() as m:
        m.setattr(study, "open_questions", Interrupting())
        cut = study.run_study("cardavia", tmp_path / "cut", **kw)
    assert cut.interrupted and not (tmp_path / "cut" / "report.md").exists()
    man = json.loads((tmp_path / "cut" / "_study.json").read_text())
    assert [s["id"] for s in man["stages"] if s["section"] == "adaptive"] == ["adaptive/4p-search-1"]
    again = study.run_study("cardavia", tmp_path / "cut", resume=True, **kw)
    assert not again.interrupted
    assert (tmp_path / "cut" / "findings.json").read_text() == (tmp_path / "ref" / "findings.json").read_text()
    def apart_from(run):  # each report quotes its stages' --out, relative to where the study ran (here)
        return (run / "report.md").read_text().replace(os.path.relpath(run), "OUT").replace(str(run), "OUT")
    assert apart_from(tmp_path / "cut") == apart_from(tmp_path / "ref")
    f = json.loads((tmp_path / "ref" / "findings.json").read_text())
    assert f["adaptive"]["deals_played"] == {"4": 40} and f["adaptive"]["questions"] == 1


def test_the_stage_asks_for_no_deals_its_cap_cannot_settle_and_says_so(tmp_path, monkeypatch):
    """Futility: after a first pass whose team question would need some 2,000 more search deals at
    its own estimate, a cap of 40 cannot settle it, so the stage plays none, says so on the
    terminal, and the report and findings.json say where it stopped and what it would need."""
    from tourney_sim.reports import study_report  # noqa: F401  (registers the study's report)
    monkeypatch.setitem(study.BUDGETS, "quick", replace(TINY, adaptive_deals=40))
    said = []
    done = study.run_study("cardavia", tmp_path / "s", budget="quick", levels=["heuristic", "search"], seed=3,
                           workers=1, progress=True, echo=said.append)
    assert not [s for s in done.manifest["stages"] if s["section"] == "adaptive"]
    (stop,) = [line for line in said if line.startswith("adaptive stage, 4 players: stops after 0 more deals")]
    assert "beyond the 40 left in its cap" in stop
    f = json.loads((tmp_path / "s" / "findings.json").read_text())["adaptive"]
    (needs,) = f["stopped"]["4"]["needs"].values()
    assert f["stopped"]["4"]["left"] == 40 and needs > 40 and f["open"]
    assert "it stopped after 0 deals with 40 left in its cap" in (tmp_path / "s" / "report.md").read_text()
