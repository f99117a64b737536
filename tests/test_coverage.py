"""Each interval family of the reports holds the truth at least 95% of the time, by simulation: a
small version of ``scripts/bench_coverage.py`` (whose full figures are in ``docs/analysis.md``);
near 0 and 1, at least 93% at every n >= 30, exactly (binomial and trinomial sums, at the end).

Seeds are fixed; each check allows 1.5 points below 95% and three binomial standard deviations of
its replicates on top, so a valid method cannot fail it by chance, while the intervals the issue
found wrong (t intervals and the asymptotic sequence at win rates near 1, the bootstrap balance
figure at a tie) fall far below it.
"""
import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

from tourney_sim.simulate.stats import intervals as stats

from .support import synthetic as sy


def floor(reps: int, level: float = 0.95) -> float:
    return level - 0.015 - 3 * math.sqrt(level * (1 - level) / reps)


@pytest.mark.parametrize("probs,deals", [([1, 1, 1], 300), ([1, 1], 60), ([0.02, 0.49, 0.49], 300)])
def test_seat_win_rate_intervals_cover(probs, deals):
    c = sy.seat_rate_coverage(probs, deals, 600, np.random.default_rng(1))
    assert c.covered >= floor(600), c


@pytest.mark.parametrize("p_win,p_loss,deals", [(0.99, 0.0, 300), (0.98, 0.0, 60), (1.0, 0.0, 300),
                                                (0.99, 0.01, 300), (0.02, 0.0, 300), (0.3, 0.25, 300)])
def test_paired_difference_intervals_cover_near_0_and_1(p_win, p_loss, deals):
    c = sy.paired_coverage(p_win, p_loss, deals, 300, np.random.default_rng(2))
    assert c.covered >= floor(300), c
    assert c.width > 0


def test_the_t_interval_it_replaced_does_not():
    c = sy.paired_coverage(0.99, 0.0, 300, 300, np.random.default_rng(3), method="t")
    assert c.covered < 0.85


@pytest.mark.parametrize("probs,deals", [([1, 1, 1], 300), ([1, 1], 1200), ([0.34, 0.33, 0.33], 2000)])
def test_balance_figure_interval_covers_near_a_tie(probs, deals):
    c = sy.balance_coverage(probs, deals, 200, np.random.default_rng(4))
    assert c.covered >= floor(200), c
    assert c.note == "estimate inside: all"


@pytest.mark.parametrize("cap,first", [(60, 20), (300, 50), (1200, 100)])
@pytest.mark.parametrize("p_win,p_loss", [(0.99, 0.0), (0.98, 0.0), (0.55, 0.45), (0.3, 0.3)])
def test_sequential_questions_cover_at_the_stop(cap, first, p_win, p_loss):
    """The study's look schedule (simulate/study.py's budgets), stopped once decided."""
    assert sy.look_schedule(cap, first)[-1] == cap
    c = sy.sequential_coverage(p_win, p_loss, cap, first, 300, np.random.default_rng(5), widths=10)
    assert c.covered >= floor(300), c


def test_the_sequence_spends_the_alpha_it_is_given():
    """A study passes its per-question level: a smaller alpha gives a wider sequence that errs
    no more often than that level on a null question."""
    x = sy.paired_outcomes(0.3, 0.3, 300, 1000, np.random.default_rng(6))
    looks = sy.look_schedule(300, 50)
    for alpha in (0.05, 0.005):
        wrong = stats.anytime_rejects(x, alpha, 300, [0.0], looks)[:, -1, 0].mean()
        assert wrong <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / 1000)
    wide = stats.anytime_interval(x[0], 0.005, 300)
    narrow = stats.anytime_interval(x[0], 0.05, 300)
    assert wide.low < narrow.low and narrow.high < wide.high


def test_gain_bounds_are_the_extremes_over_what_the_intervals_allow():
    """The balance gained's bounds are the smallest and largest of max|x| - max|x + y| over the box
    (x: the default's pair gaps, y: their changes, x + y inside the option's gap intervals): no
    point of a fine grid of the box lies outside them, and the grid comes within a step of each."""
    rng = np.random.default_rng(8)
    for pairs, steps in ((1, 201), (2, 25)):
        for _ in range(40):
            box = [sorted(rng.uniform(-1, 1, 2) * rng.choice([1, 0.2])) for _ in range(3 * pairs)]
            gaps, changes, option = box[:pairs], box[pairs:2 * pairs], box[2 * pairs:]
            axes = [np.linspace(lo, hi, steps) for lo, hi in gaps + changes]
            grid = np.meshgrid(*axes, indexing="ij")
            x, z = np.stack(grid[:pairs]), np.stack(grid[:pairs]) + np.stack(grid[pairs:])
            allowed = np.all([(z[k] >= option[k][0]) & (z[k] <= option[k][1]) for k in range(pairs)], axis=0)
            if allowed.sum() < 20:
                continue
            gain = (np.abs(x).max(axis=0) - np.abs(z).max(axis=0))[allowed]
            low, high = stats.gain_bounds(gaps, changes, option)
            assert low - 1e-9 <= gain.min() and gain.max() <= high + 1e-9
            step = 2 * max(hi - lo for lo, hi in gaps + changes) / (steps - 1)
            assert gain.min() - low <= 2 * step and high - gain.max() <= 2 * step


@pytest.mark.parametrize("probs_default,probs_option,same,shared,deals", [
    ([1, 1, 1], [1, 1, 1], 0.8, (0, 0), 50),  # a tie under both, few deals
    ([0.34, 0.33, 0.33], [0.33, 0.34, 0.33], 0.8, (0, 0), 500),  # near a tie under both
    ([0.28, 0.72], [0.5, 0.5], 0.3, (0.04, 0.03), 500),  # fixes a gap, 2 teams with draws
    ([0.4, 0.3, 0.3], [0.4, 0.3, 0.3], 1.0, (0, 0), 500),  # changes nothing
    ([0.3, 0.25, 0.25, 0.2], [0.26, 0.25, 0.25, 0.24], 0.7, (0, 0), 300),  # 4 seats
])
def test_balance_gained_interval_covers(probs_default, probs_option, same, shared, deals):
    c = sy.gain_coverage(probs_default, probs_option, same, deals, 100, np.random.default_rng(9), shared=shared,
                         contrast=0)
    assert c.covered >= floor(100), c
    assert c.note == "estimate inside: all"


def test_the_paired_gain_is_far_narrower_than_the_unpaired_one_when_an_option_changes_little():
    c = sy.gain_coverage([0.4, 0.3, 0.3], [0.4, 0.3, 0.3], 1.0, 500, 20, np.random.default_rng(10))
    old_width = float(c.note.split("width ")[1])  # the unpaired interval's, on the same replicates
    assert c.width < 0.08 and old_width > 0.3, c


# ----------------------------------------------------------------------------- exact coverage
# Issue 39, item 5: plain Wilson and Tango intervals dipped to 84% near 0 and 1 (one success in
# n trials puts Wilson's lower end at 0.18 / n). The reports' intervals (a continuity correction
# of a tenth of a deal, and never narrower toward an edge than the exact one-sided bound) cover
# at least 93% at every n >= 30 and every p: measured here exactly (binomial and trinomial sums,
# no simulation noise) on a smaller grid than ``scripts/bench_coverage.py --exact``.
def _bench():
    spec = importlib.util.spec_from_file_location("bench_coverage", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = Path(__file__).resolve().parent.parent / "scripts" / "bench_coverage.py"
PLAIN = dict(correction=0, edge=False)


@pytest.fixture(scope="module")
def bench():
    return _bench()


def test_proportion_interval_covers_93_percent_at_every_p(bench):
    """The infimum over every p in (0, 1), exactly, at each n (the plain interval's is 84%)."""
    for n in list(range(30, 71)) + [99, 100, 150, 299, 368, 500, 1000, 2000]:
        k = np.arange(n + 1)
        low, high = stats.wilson(k, n)
        cov, p = bench.binomial_infimum(low, high, n)
        assert cov >= 0.93, (n, cov, p)
        plain, _ = bench.binomial_infimum(*stats.wilson(k, n, **PLAIN), n)
        assert plain < 0.85, (n, plain)


def test_binomial_infimum_is_the_minimum_over_a_fine_grid(bench):
    """The infimum found at the intervals' ends is never above the coverage anywhere on a fine
    grid of p, and a fine grid comes close to it."""
    for n in (30, 65, 120):
        k = np.arange(n + 1)
        for kw in ({}, PLAIN):
            low, high = stats.wilson(k, n, **kw)
            inf, p = bench.binomial_infimum(low, high, n)
            grid = np.r_[np.linspace(1e-5, 1 - 1e-5, 20001), np.geomspace(1e-6, 0.02, 2000)]
            cov = bench.binomial_coverage(low, high, n, grid)
            assert inf <= cov.min() + 1e-9 and cov.min() - inf < 0.01, (n, kw, inf, cov.min())


def test_the_issues_points_are_covered():
    """Two teams at 0.98 / 0.02 over 50 deals (the balance figure: the plain interval covered
    92.2%, exactly), and a win rate of 0.1 / n (one success puts plain Wilson's lower end at 0.18 / n)."""
    from scipy.stats import binom
    n, p = 50, 0.98
    k = np.arange(n + 1)
    truth = 1 - (p - (1 - p))
    ends = np.array([stats.balance_interval(np.c_[np.r_[np.ones(j), np.zeros(n - j)],
                                                  np.r_[np.zeros(j), np.ones(n - j)]]) for j in k])
    covered = binom.pmf(k, n, p) @ ((ends[:, 0] <= truth + 1e-12) & (truth - 1e-12 <= ends[:, 1]))
    assert covered >= 0.93
    for n in (30, 300):
        low, high = stats.wilson(k := np.arange(n + 1), n)
        assert binom.pmf(k, n, 0.1 / n) @ ((low <= 0.1 / n) & (0.1 / n <= high)) >= 0.94
        low, high = stats.wilson(k, n, **PLAIN)
        assert binom.pmf(k, n, 0.1 / n) @ ((low <= 0.1 / n) & (0.1 / n <= high)) < 0.91


def test_vectorised_paired_interval_is_mean_interval(bench):
    """The benchmark's vectorised Tango interval (every outcome at once) is ``mean_interval``'s,
    so the exact coverage below is the reports' interval's."""
    for n in (30, 61):
        for kw in ({}, PLAIN):
            assert bench.check_tango(n, outcomes=15, seed=n, **kw) < 1e-5


@pytest.mark.slow
def test_vectorised_paired_interval_is_mean_interval_at_every_outcome(bench):
    assert bench.check_tango(30) < 1e-5


def test_paired_interval_covers_93_percent_near_0_and_1(bench):
    """Trinomial sums over every outcome, on a grid of (p_win, p_loss) with points near the edges
    (0.999, 0.998, ... and 0.001, ...); the plain interval falls far below there."""
    pw, pl = bench.trinomial_grid()
    keep = np.isin(np.round(pl, 6), [0, 0.001, 0.01, 0.1, 0.3, 0.5])
    pw, pl = pw[keep], pl[keep]
    for n in (30, 47, 60, 100, 300):
        cov = bench.trinomial_coverage(n, *bench.tango_table(n), pw, pl)
        assert cov.min() >= 0.93, (n, cov.min(), pw[cov.argmin()], pl[cov.argmin()])
        assert 0.945 <= np.median(cov) <= 0.97  # still a 95% interval, not a conservative one
        plain = bench.trinomial_coverage(n, *bench.tango_table(n, **PLAIN), pw, pl)
        assert plain.min() < 0.91


def test_balance_figure_of_three_units_covers_near_the_edges(bench):
    """Every multinomial outcome of 3 units over 30 and 60 deals; Bonferroni over the pairs makes
    it conservative, and the correction keeps it so near the edges, where the plain one dips."""
    for n in (30, 60):
        counts = bench.compositions(n, 3)
        points = bench.balance_points(3, 0.05)
        cov = bench.balance_exact(n, points, bench.tango_table(n, 1 - 0.05 / 3), counts)
        assert cov.min() >= 0.95, (n, cov.min(), points[cov.argmin()])
    # the enumeration's intervals are stats.balance_interval's
    low_table, high_table = bench.tango_table(30, 1 - 0.05 / 3)
    for c in ([30, 0, 0], [28, 1, 1], [10, 10, 10], [12, 9, 9], [0, 29, 1]):
        rates = (np.repeat(np.arange(3), c)[:, None] == np.arange(3)).astype(float)
        ends = [(low_table[c[i], c[j]], high_table[c[i], c[j]]) for i, j in ((0, 1), (0, 2), (1, 2))]
        low_gap, high_gap = stats.largest_gap(ends)
        assert (1 - high_gap, 1 - low_gap) == pytest.approx(stats.balance_interval(rates), abs=2e-6)


def test_the_middle_is_nearly_unchanged():
    """At p = 1/2 the correction costs under 2% of width from 30 deals on (0.3% at 1,200), and
    coverage there stays about 95%."""
    from scipy.stats import binom
    for n, most in ((30, 0.02), (60, 0.015), (300, 0.007), (1200, 0.004)):
        k = np.arange(n + 1)
        low, high = stats.wilson(k, n)
        plain_low, plain_high = stats.wilson(k, n, **PLAIN)
        pmf = binom.pmf(k, n, 0.5)
        ratio = pmf @ (high - low) / (pmf @ (plain_high - plain_low))
        assert 1 < ratio < 1 + most, (n, ratio)
        assert 0.94 <= pmf @ ((low <= 0.5) & (0.5 <= high)) <= 0.97
    x = sy.paired_outcomes(0.3, 0.25, 300, 1, np.random.default_rng(20))[0]
    new, plain = stats.mean_interval(x), stats.mean_interval(x, **PLAIN)
    assert 1 < (new.high - new.low) / (plain.high - plain.low) < 1.01
