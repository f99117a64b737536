"""The statistics layer's registry of measures (simulate/stats/measures.py) and what the
orchestration asks of the layer by direct import: each measure registered once with its range,
direction, words and unit; the design's objectives, targets and ranges, tune's objectives and the
study's rule questions read from it; tune's paired summary and per-deal result the layer's; the
functions the study and the design ask for, with the signatures they call."""
from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

from tourney_sim.simulate.stats import components, designs, intervals, measures, sequential, studies
from tourney_sim.simulate.stats.measures import MEASURES, Measure, names, ranges, register, study_measures


def test_each_measure_is_registered_once_in_the_order_the_commands_list_them():
    assert list(MEASURES) == ["balance", "skill", "length", "decisiveness", "draws", "win", "margin"]
    assert names("design") == ("balance", "skill", "length", "decisiveness", "draws")
    assert names("tune") == ("win", "margin")
    assert names("study") == ("length", "decisiveness", "draws")
    with pytest.raises(ValueError, match="registered twice"):
        register(MEASURES["draws"])
    with pytest.raises(ValueError, match="not one of"):
        register(Measure("odd", len, 0, 1, "sideways", "odd", "share"))
    assert "odd" not in MEASURES


def test_the_design_defaults_directions_and_ranges_come_from_the_registry():
    assert measures.DESIGN_OBJECTIVES == ("balance", "skill")
    assert measures.DESIGN_TARGETS == ("skill>=75%", "decisiveness=10%", "draws=2pp")
    # a game that records no leader at two thirds gets no decisiveness target by default
    assert measures.design_targets(["leader_at_two_thirds", "points"]) == measures.DESIGN_TARGETS
    assert measures.design_targets(["points"]) == ("skill>=75%", "draws=2pp")
    assert measures.DESIGN_COLUMNS == ("leader_at_two_thirds",)
    assert {n: MEASURES[n].maximise for n in names("design")} == {
        "balance": True, "skill": True, "length": False, "decisiveness": True, "draws": False}
    assert ranges("design") == {"balance": (0.0, 1.0), "skill": (-1.0, 1.0), "length": (0.0, math.inf),
                                "decisiveness": (0.0, 1.0), "draws": (0.0, 1.0)}
    assert MEASURES["length"].direction == "target"  # a design keeps it close to today's


def test_the_orchestration_constants_agree_with_the_registry():
    """While simulate/design.py and tune.py keep constants of their own, they say what the
    registry says (once they read it, this holds trivially)."""
    from tourney_sim.simulate import design, tune
    assert tuple(design.MEASURES) == names("design")
    assert {k: v for k, v in design.MAXIMISE.items() if k != "disruption"} == {
        n: MEASURES[n].maximise for n in names("design")}
    assert design.MEASURE_RANGE == ranges("design")
    assert tuple(design.DEFAULT_OBJECTIVES) == measures.DESIGN_OBJECTIVES
    assert tuple(design.DEFAULT_TARGETS) == measures.DESIGN_TARGETS
    assert tuple(tune.OBJECTIVES) == names("tune")


def test_a_paired_change_lies_where_the_range_says():
    assert MEASURES["skill"].change_bounds() == intervals.CHANGE
    assert MEASURES["draws"].change_bounds() == intervals.DIFFERENCE
    assert MEASURES["decisiveness"].change_bounds() == intervals.DIFFERENCE
    assert MEASURES["length"].change_bounds() is None
    assert MEASURES["skill"].range == intervals.DIFFERENCE


def test_the_study_asks_about_draws_decisiveness_and_length_in_its_own_words():
    asked = [(m.name, m.question, m.wording, m.change_unit) for m in study_measures()]
    assert asked == [("draws", "draw rate", "the share of shared first places", "pp"),
                     ("decisiveness", "decisiveness", "how often the leader at two thirds wins", "pp"),
                     ("length", "length", "game length", "decisions")]


def test_the_words_of_a_value():
    assert MEASURES["draws"].text(0.0412) == "4.1%"
    assert MEASURES["decisiveness"].text(None) == "n/a"
    assert MEASURES["length"].text(52.34) == "52.3 decisions"
    assert MEASURES["balance"].text(0.93412) == "0.934"
    assert MEASURES["decisiveness"].said == "the leader at two thirds wins"
    assert (MEASURES["win"].wording, MEASURES["margin"].wording) == ("win rate", "score margin")


def test_the_per_deal_values_of_a_configuration():
    """Length, draws and decisiveness per deal on two tables a deal, by hand."""
    from tourney_sim.simulate.stats.load import Config, _assign_deals

    win = np.array([[1, 0], [1, 1], [0, 1], [0, 1]], bool)  # deal 0: one win each; deal 1: a draw, then seat 1
    cfg = Config("toy", 2, 1, {}, False, "high", [], {}, [], ["a"], np.array([True]),
                 strat=np.zeros((4, 2), np.int16), win=win, rank=np.where(win, 1, 2).astype(np.int8),
                 score=np.zeros((4, 2), np.int32), start=np.zeros(4, np.int8),
                 decisions=np.array([10, 20, 30, 50], np.int32), game_index=np.array([0, 1, 0, 1]),
                 seed=np.array([5, 5, 6, 6], np.uint64), source=np.zeros(4, np.int16),
                 extra={"leader_at_two_thirds": np.array([[0, 0], [-1, -1], [1, 1], [0, 0]], np.int32)})
    _assign_deals(cfg)  # deals: (5, 0), (5, 1), (6, 0), (6, 1)
    assert list(MEASURES["length"].per_deal(cfg)) == [10, 20, 30, 50]
    assert list(MEASURES["draws"].per_deal(cfg)) == [0, 1, 0, 0]
    share, has = MEASURES["decisiveness"].per_deal(cfg)
    assert list(has) == [True, False, True, True] and list(share[has]) == [1, 1, 0]
    assert MEASURES["decisiveness"].figure(cfg) == pytest.approx(2 / 3)
    assert MEASURES["length"].figure(cfg) == 27.5 and MEASURES["draws"].figure(cfg) == 0.25
    assert list(MEASURES["skill"].per_deal(cfg, (0,))) == [1, 0, -1, -1]


def test_tunes_paired_summary_is_the_layers():
    """The paired t summary of a tuning run's confirmation (bit for bit tune's own while it keeps
    one), against scipy's t-test and t quantile."""
    from scipy import stats as sp

    from tourney_sim.simulate import tune
    rng = np.random.default_rng(7)
    for shape in ((3, 50), (2, 1), (4, 2)):
        best, base = rng.random(shape), rng.random(shape)
        got = intervals.paired_summary(best, base)
        if getattr(tune, "paired_summary", intervals.paired_summary) is not intervals.paired_summary:
            assert got == tune.paired_summary(best, base)
        d = best.mean(axis=0) - base.mean(axis=0)
        assert got["deals"] == shape[1] and got["difference"] == pytest.approx(d.mean())
        if shape[1] > 1:
            half = sp.t.ppf(0.975, shape[1] - 1) * d.std(ddof=1) / math.sqrt(shape[1])
            assert got["p_value"] == pytest.approx(sp.ttest_1samp(d, 0.0).pvalue)
            assert got["difference_ci"] == pytest.approx([d.mean() - half, d.mean() + half])
    same = rng.random((2, 30))
    assert intervals.paired_summary(same, same)["p_value"] == 1.0


def test_tunes_per_deal_result_is_the_registrys(tmp_path):
    """Tune's objectives per deal (read straight from the parts) are the candidate's win and score
    margin of the loaded configuration, exactly."""
    from tourney_sim.simulate.matchup import make_matchup
    from tourney_sim.simulate.runner import run
    from tourney_sim.simulate.stats.load import load

    out = tmp_path / "t"
    run(make_matchup("companeros", 3, ["random"], seed=4, rotate=False), 60, out, workers=1, progress=False)
    cfg = load([out])[0]
    win = cfg.win[:, [1]].mean(axis=1)
    margin = cfg.score[:, [1]].mean(axis=1) - cfg.score[:, [0, 2]].mean(axis=1)
    assert np.array_equal(MEASURES["win"].per_deal(out, 3, (1,), 60, "high"), win)
    assert np.array_equal(MEASURES["margin"].per_deal(out, 3, (1,), 60, "high"), margin)
    assert np.array_equal(MEASURES["margin"].per_deal(out, 3, (1,), 60, "low"), -margin)
    assert np.array_equal(measures.candidate_result(out, 3, [1], 60, "win", "high"), win)


def test_what_the_orchestration_asks_has_the_signatures_it_calls():
    def params(f):
        return list(inspect.signature(f).parameters)
    assert params(sequential.stopping_rule) == ["question", "alpha", "margin"]
    assert isinstance(sequential.stopping_rule("strength", 0.05, 0.02), sequential.Sequential)
    assert params(studies.open_questions) == ["out", "manifest", "players"]
    assert params(components.largest_components) == ["dataset_dir"]
    assert components.COMPONENT_CHECKS == 3
    assert params(designs.design_measure) == ["game", "players", "mirror", "skill"]
    assert params(designs.hopeless) == ["game", "players", "candidate_mirror", "today_mirror"]
    assert params(intervals.paired_summary) == ["best", "base"]


def test_the_layer_imports_nothing_heavy_at_import_time():
    """The orchestration imports the registry at start-up: no pandas, no scipy.stats."""
    import subprocess
    import sys
    code = ("import sys; import tourney_sim.simulate.stats.measures, tourney_sim.simulate.stats.sequential\n"
            "assert 'pandas' not in sys.modules, 'pandas'\nassert 'scipy.stats' not in sys.modules, 'scipy.stats'\n"
            "print('clean')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and "clean" in r.stdout, r.stdout + r.stderr
