"""Each interval family of the reports holds the truth at least 95% of the time, by simulation: a
small version of ``scripts/bench_coverage.py`` (whose full figures are in ``docs/analysis.md``).

Seeds are fixed; each check allows 1.5 points below 95% and three binomial standard deviations of
its replicates on top, so a valid method cannot fail it by chance, while the intervals the issue
found wrong (t intervals and the asymptotic sequence at win rates near 1, the bootstrap balance
figure at a tie) fall far below it.
"""
import math

import numpy as np
import pytest

from tourney_sim.reports import stats
from tourney_sim.reports import synthetic as sy


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
