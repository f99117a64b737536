"""The reports' statistics against known values and planted truths.

Synthetic duplicate tournaments (``tourney_sim.reports.synthetic``) plant strategy strengths, seat and
first-player advantages and deal luck shared by every seating of a deal; the report must find
planted effects, keep its false positive rate near the nominal 5% on fair data, and its paired
intervals must beat unpaired ones on duplicate data. Sequential stopping is checked by
simulation: early and right on planted differences, errors within alpha on none.
"""
import math

import numpy as np
import pytest
from scipy import stats as sps

from tourney_sim.reports import analysis
from tourney_sim.reports import stats
from tourney_sim.reports import synthetic as sy
from tourney_sim.reports.sequential import Sequential

GAME3 = sy.Game(players=3)
SEATINGS3 = sy.all_seatings(["a", "b"], 3)  # 6 seatings: every deal played 6 times


# ----------------------------------------------------------------------------- known values
@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (57, 200), (499, 1000),
                                 (1, 100000), (123456, 1000000)])
def test_wilson_equals_scipy(k, n):
    low, high = stats.wilson(k, n)
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert low == pytest.approx(ci.low, abs=1e-12) and high == pytest.approx(ci.high, abs=1e-12)
    assert stats.wilson_scipy(k, n) == pytest.approx((ci.low, ci.high), abs=1e-15)


def test_clustered_proportion_is_wilson_for_independent_games():
    rng = np.random.default_rng(1)
    y = (rng.random(5000) < 0.3).astype(float)
    p, low, high, n, n_eff = stats.clustered_proportion(y, np.ones_like(y))
    assert n == n_eff == 5000
    assert (low, high) == pytest.approx(stats.wilson_scipy(int(y.sum()), 5000), abs=1e-12)


def test_holm_and_paired_mean():
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    x = np.random.default_rng(2).normal(0.1, 1, 500)
    t = stats.paired_mean(x)
    ref = sps.ttest_1samp(x, 0)
    assert t.p_value == pytest.approx(ref.pvalue) and t.estimate == pytest.approx(x.mean())
    assert (t.low, t.high) == pytest.approx(tuple(ref.confidence_interval(0.95)))
    assert stats.paired_mean(np.zeros(10))[:4] == (0.0, 0.0, 0.0, 1.0)


def test_hotelling_two_groups_is_paired_t():
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (400, 2))
    x[:, 1] += 0.1
    f, p, dof = stats.equal_means(x)
    assert dof == 1
    assert p == pytest.approx(sps.ttest_1samp(x[:, 1] - x[:, 0], 0).pvalue)


# ----------------------------------------------------------------------------- planted effects
def test_planted_seat_advantage_is_found():
    cfg = sy.config(sy.Game(players=4), sy.all_seatings(["a", "b"], 4), {"a": 0.2}, 1500, seed=5,
                    seat_bias=[0.35, 0, 0, 0], luck=1.0)
    s = analysis.seat_analysis(cfg)
    rates = s["units"]["win_rate"]
    assert rates.idxmax() == "seat 0"
    assert s["equal_p"] < 1e-6
    assert s["balance_high"] < 0.97  # the interval excludes a fair game
    assert s["first_excess_low"] > 0  # seat 0 is the first player here: its advantage shows


def test_planted_first_player_advantage_is_found_when_the_start_varies():
    cfg = sy.config(GAME3, SEATINGS3, {}, 2000, seed=6, first_bias=0.4, varying_start=True, luck=0.5)
    s = analysis.seat_analysis(cfg)
    assert len(s["start_counts"]) == 3
    assert s["first_p"] < 1e-6 and s["first_excess"] > 0.03
    assert s["equal_p"] > 1e-3  # the start seat rotates with the deal: no seat is favoured as such


def test_planted_strength_gap_is_found():
    cfg = sy.config(GAME3, SEATINGS3, {"a": 0.25}, 1500, seed=7, luck=1.0)
    pw = analysis.pairwise_table(cfg)
    row = pw.iloc[0]
    assert (row.a, row.b) == ("a", "b") and row["diff"] > 0 and row.significant
    table = analysis.strategy_table(cfg)
    assert table.loc["a", "ci_low"] > table.loc["b", "ci_high"]
    ratings, info = analysis.fit_ratings(cfg, sample=3000)
    assert ratings.loc["a", "mu"] - ratings.loc["b", "mu"] > ratings.loc["a", "sigma"] + ratings.loc["b", "sigma"]
    assert info["games"] == 3000 and info["of"] == cfg.tables


def test_false_positive_rates_near_nominal_on_fair_games():
    """Fair games (equal strategies, no seat bias) with strong deal luck shared by the seatings
    of a deal: the seat test, the first-player test and the pairwise test each reject about 5%
    of the time. (Treating the 6 games of a deal as independent would reject far more often.)"""
    reps = 300
    rejects = {"seats": 0, "first": 0, "pair": 0, "naive_seats": 0}
    for r in range(reps):
        cfg = sy.config(GAME3, SEATINGS3, {}, 250, seed=1000 + r, luck=1.5, varying_start=True)
        names, wd, gd = analysis.unit_deal_rates(cfg)
        _, p, _ = stats.equal_means(wd / gd[:, None])
        rejects["seats"] += p < 0.05
        _, w = analysis.units(cfg)
        # the naive test: every game independent (chi-square on per-seat wins)
        rejects["naive_seats"] += sps.chisquare(w.sum(axis=0)).pvalue < 0.05
        first = analysis._first_excess_per_deal(cfg)
        rejects["first"] += stats.paired_mean(first).p_value < 0.05
        per_deal, _, _ = analysis.pair_differences(cfg, 0, 1)
        rejects["pair"] += stats.paired_mean(per_deal).p_value < 0.05
    for key in ("seats", "first", "pair"):
        rate = rejects[key] / reps
        assert 0.015 <= rate <= 0.095, (key, rate)
    assert rejects["naive_seats"] / reps > 0.3  # why the deal must be the unit


def test_interval_coverage_under_deal_luck():
    """The deal-clustered Wilson interval of a seat's win rate keeps its 95% coverage when every
    deal is replayed in all seatings (plain Wilson on games would not)."""
    big = sy.config(GAME3, SEATINGS3, {}, 20000, seed=4999, luck=1.5)
    truth = big.win[:, :3].mean()  # every seat alike by symmetry (shared first places included)
    reps, covered, naive = 300, 0, 0
    for r in range(reps):
        cfg = sy.config(GAME3, SEATINGS3, {}, 150, seed=5000 + r, luck=1.5)
        _, wd, gd = analysis.unit_deal_rates(cfg)
        p, low, high, n, _ = stats.clustered_proportion(wd[:, 1], gd)
        covered += low <= truth <= high
        lo, hi = stats.wilson_scipy(int(wd[:, 1].sum()), int(n))
        naive += lo <= truth <= hi
    assert covered / reps >= 0.92
    assert naive / reps < 0.8


def test_paired_intervals_are_narrower_on_duplicate_data():
    """With deal luck the paired (per-deal) interval is much narrower than the unpaired one (every
    game its own deal); without deal luck they agree: the gain is the duplicate format's."""
    cfg = sy.config(GAME3, SEATINGS3, {"a": 0.1}, 1000, seed=8, luck=2.5)
    row = analysis.pairwise_table(cfg).iloc[0]
    assert (row.ci_high - row.ci_low) < 0.8 * (row.unpaired_high - row.unpaired_low)
    assert row.ci_low <= row["diff"] <= row.ci_high
    cfg = sy.config(GAME3, SEATINGS3, {"a": 0.1}, 1000, seed=8, luck=0.0)
    row = analysis.pairwise_table(cfg).iloc[0]
    assert (row.ci_high - row.ci_low) == pytest.approx(row.unpaired_high - row.unpaired_low, rel=0.1)


def test_team_game_and_lowest_score_wins():
    game = sy.Game(players=4, team_game=True, better="low")
    cfg = sy.config(game, [["a", "b", "a", "b"], ["b", "a", "b", "a"]], {"a": 0.3}, 1500, seed=9, luck=1.0)
    assert (cfg.win[:, 0] == cfg.win[:, 2]).all()
    table = analysis.strategy_table(cfg)
    assert table.loc["a", "win_rate"] > table.loc["b", "win_rate"]
    assert table.loc["a", "mean_score"] < table.loc["b", "mean_score"]  # lower is better
    s = analysis.seat_analysis(cfg)
    assert list(s["units"].index) == ["team 0 (seats 0, 2)", "team 1 (seats 1, 3)"]
    assert s["equal_p"] > 1e-3
    assert analysis.pairwise_table(cfg).iloc[0].significant


# ----------------------------------------------------------------------------- sequential
def _monitor(mean, n_batch, batches, alpha, reps, rng):
    """Vectorised: per-deal values in [-1, 1] (+-1 with the given mean on half the deals, 0 on the
    others: no winner between the two), the betting confidence sequence tuned to the cap looked
    at after every batch; returns (first batch each rep decides or -1, the decision sign there)."""
    n = n_batch * batches
    p_pos = (1 + 2 * mean) / 2
    x = np.where(rng.random((reps, n)) < p_pos, 1.0, -1.0) * (rng.random((reps, n)) < 0.5)
    looks = [n_batch * (b + 1) for b in range(batches)]
    out = stats.anytime_rejects(x, alpha, n, [0.0], looks)[..., 0]  # [reps, looks]: 0 excluded
    first = np.where(out.any(axis=1), out.argmax(axis=1), -1)
    running = np.cumsum(x, axis=1)[:, np.array(looks) - 1]
    sign = np.sign(running[np.arange(reps), np.maximum(first, 0)]) * (first >= 0)
    return first, sign


@pytest.mark.slow
def test_confidence_sequence_error_rate_within_alpha_under_no_difference():
    rng = np.random.default_rng(10)
    first, _ = _monitor(0.0, 100, 30, 0.05, 2000, rng)
    errors = (first >= 0).mean()  # ever excluding the true value 0, at any of the 30 looks
    assert errors <= 0.05
    # a fixed-sample 95% interval looked at after every batch would be wrong far more often
    rng = np.random.default_rng(10)
    x = np.where(rng.random((2000, 3000)) < 0.5, 1.0, -1.0) * (rng.random((2000, 3000)) < 0.5)
    n = np.arange(100, 3001, 100)
    means = np.cumsum(x, axis=1)[:, n - 1] / n
    assert (np.abs(means) > 1.96 * np.sqrt(0.5 / n)).any(axis=1).mean() > 0.15


def test_confidence_sequence_stops_early_with_the_right_answer():
    rng = np.random.default_rng(11)
    first, sign = _monitor(0.1, 100, 30, 0.05, 500, rng)
    assert (first >= 0).all() and (sign == 1).all()
    # the mean difference is 0.05 (half the deals have no winner between the two): a fixed
    # 80%-power test at 5% needs about 1,600 deals; the sequence usually stops before its cap
    assert np.median(first) <= 20 and (first < 29).mean() > 0.8


def test_all_wins_no_longer_stop_with_a_zero_width_interval():
    """Issue 29: a player winning every one of 50 deals gave [+100, +100] pp and p = 0; when the
    true chance of winning a deal is 0.99 the final interval missed it 62% of the time."""
    t = stats.anytime_interval(np.ones(50), 0.05, cap=300)
    assert t.high == 1.0 and 0.7 < t.low < 0.95 and 0 < t.p_value < 0.05
    assert stats.cs_radius(300, 0.0, 0.05) == 0  # the planning radius: sd only, not an interval
    rng = np.random.default_rng(12)
    x = np.where(rng.random((1000, 300)) < 0.99, 1.0, 0.0)  # +1 on 99% of deals, else a tie
    looks = [50, 100, 150, 225, 300]
    missed = stats.anytime_rejects(x, 0.05, 300, [0.99], looks)[..., -1, 0]  # ever excluded 0.99
    assert missed.mean() <= 0.05


def test_sequential_tournament_question_on_synthetic_batches():
    seq = Sequential("strength", alpha=0.05, margin=0.03)
    for batch in range(30):
        seq.add([_batch(GAME3, SEATINGS3, {"a": 0.3}, batch)])
        if seq.decided:
            break
    assert seq.decided and batch < 5
    (row,) = seq.results()
    assert row["decision"] == "positive" and row["text"] == "a is stronger than b"
    # no difference: settles as equal within the margin, never as a wrong winner
    seq = Sequential("strength", alpha=0.05, margin=0.03)
    for batch in range(60):
        seq.add([_batch(GAME3, SEATINGS3, {}, batch)])
        if seq.decided:
            break
    (row,) = seq.results()
    assert row["decision"] in ("equivalent", None)
    assert row["low"] < 0 < row["high"]


def test_sequential_sweep_question_finds_the_fairer_variant():
    seq = Sequential("balance", alpha=0.05, margin=0.02)
    for batch in range(40):
        fair = _batch(GAME3, SEATINGS3, {}, batch, label="fair")
        biased = _batch(GAME3, SEATINGS3, {}, batch, label="biased", seat_bias=[0.5, 0, 0])
        seq.add([fair, biased])
        if seq.decided:
            break
    assert seq.decided
    (row,) = seq.results()
    assert row["text"] == "fair is fairer than biased"


def _batch(game, seatings, strength, batch, label="3 players", **kw):
    """Deals batch*400 .. batch*400+399 of a synthetic tournament, as one configuration."""
    cfg = sy.config(game, seatings, strength, 400, seed=12345 + batch, luck=1.0, **kw)
    cfg.label = label
    return cfg


# ----------------------------------------------------------------------------- bounded intervals
def test_all_wins_give_an_honest_non_degenerate_interval():
    """300 deals all won: the old t interval was [+1, +1]; the exact one-sided bound is 0.9755."""
    t = stats.paired_mean(np.ones(300), bounds=stats.DIFFERENCE)
    exact = 2 * 0.025 ** (1 / 300) - 1
    assert t.estimate == 1.0 and t.high == 1.0
    assert 0.96 < t.low <= exact
    assert 0 < t.p_value < 1e-10
    zero = stats.paired_mean(np.zeros(300), bounds=stats.DIFFERENCE)
    assert zero.low < 0 < zero.high and zero.p_value == 1.0


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (57, 200), (1, 1000)])
def test_score_interval_on_wins_is_wilson(k, n):
    x = np.r_[np.ones(k), np.zeros(n - k)]
    t = stats.mean_interval(x, bounds=(0.0, 1.0))
    assert (t.low, t.high) == pytest.approx(stats.wilson_scipy(k, n), abs=1e-6)


def test_score_interval_is_the_t_interval_for_large_samples():
    x = np.random.default_rng(5).choice([-1, -0.5, 0, 0.5, 1], size=20000)
    t = stats.paired_mean(x, bounds=stats.DIFFERENCE)
    ref = sps.ttest_1samp(x, 0)
    assert (t.low, t.high) == pytest.approx(tuple(ref.confidence_interval(0.95)), abs=2e-4)
    assert t.p_value == pytest.approx(ref.pvalue, abs=0.01)
    with pytest.raises(ValueError, match="exceed the bounds"):
        stats.paired_mean(x * 2, bounds=stats.DIFFERENCE)


def test_deals_to_settle_uses_a_conservative_effect_and_either_way():
    # a clear effect: showing equivalence within 1 pp is impossible, a difference is near
    s = stats.deals_to_settle(0.05, 0.7, 300, 0.05 / 30, 0.01)
    assert math.isinf(s.equivalent) and s.either == s.differ
    se = 0.7 / math.sqrt(300)
    z = sps.norm.ppf(1 - 0.05 / 60) + sps.norm.ppf(0.8)
    assert s.differ == math.ceil((z * 0.7 / (0.05 - se)) ** 2 - 300)
    assert s.differ > math.ceil((z * 0.7 / 0.05) ** 2 - 300)  # not at the observed effect
    # a near-zero effect: equivalence settles it, a difference never could
    s = stats.deals_to_settle(0.0005, 0.5, 2000, 0.05 / 30, 0.01)
    assert math.isinf(s.differ) and s.either == s.equivalent
    z = sps.norm.ppf(1 - 0.05 / 30) + sps.norm.ppf(0.8)
    assert s.equivalent == math.ceil((z * 0.5 / (0.01 - 0.0005)) ** 2 - 2000)
    assert stats.deals_to_settle(0.2, 0.5, 10**6, 0.05, 0.01).differ == 0  # already enough
    # a sequential question needs more: the confidence sequence is wider than a fixed interval
    fixed = stats.deals_to_settle(0.05, 0.7, 300, 0.05 / 30, 0.01)
    anytime = stats.deals_to_settle(0.05, 0.7, 300, 0.05 / 30, 0.01, sequential=True)
    assert fixed.differ < anytime.differ < 2 * fixed.differ + 300


def test_deals_to_settle_gives_the_power_it_promises():
    """Simulated: a true effect of 0.1 (per deal +1 with 0.3, -1 with 0.2, else 0: sd 0.7) observed
    one standard error higher, as an unsettled question's would be; with the deals it names the
    score interval at alpha = 1% excludes 0 in about 80% of replicates."""
    sd, deals, alpha = 0.7, 200, 0.01
    s = stats.deals_to_settle(0.1 + sd / math.sqrt(deals), sd, deals, alpha, 0.01)
    n = deals + s.differ
    assert 500 < n < 650
    x = sy.paired_outcomes(0.3, 0.2, n, 400, np.random.default_rng(13))
    shown = np.mean([stats.mean_interval(row, level=1 - alpha).low > 0 for row in x])
    assert 0.75 <= shown <= 0.87


def test_equivalent_is_tost_on_the_interval_at_twice_alpha():
    x = np.random.default_rng(6).choice([-1.0, 0.0, 0.0, 1.0], size=40000)
    t = stats.mean_interval(x, level=1 - 2 * 0.05)
    assert stats.equivalent(t.low, t.high, 0.02)
    assert not stats.equivalent(t.low, t.high, abs(t.estimate) / 2)
    assert not stats.equivalent(math.nan, 0.0, 1.0)


def test_balance_figure_interval_holds_its_estimate_and_reaches_a_tie():
    """Issue 29: the percentile bootstrap printed "0.998 [0.986, 0.998]" for a fair game (the
    estimate outside, 1 excluded). The interval from the seat differences reaches 1 and holds it."""
    cfg = sy.config(GAME3, [["a", "a", "a"]], {}, 3000, seed=21, luck=0.0)
    s = analysis.seat_analysis(cfg)
    assert s["balance_low"] <= s["balance"] <= s["balance_high"] == 1.0
    assert s["balance"] < 1.0 and s["balance_low"] > 0.9
