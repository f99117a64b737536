"""The statistics of the reports, each a thin layer over scipy.stats (or openskill), vectorised.

The unit of independence is the *deal*: game *i* of seed *S* under the same rules. A plain run
plays each deal once; a duplicate tournament plays each deal in every seating of a matchup, so
the games of one deal are correlated (the same cards) and are never counted as independent.
Every interval and test below takes per-deal values (or per-deal sums) for that reason:

- :func:`wilson` is the Wilson score interval (scipy's ``binomtest(...).proportion_ci(method=
  "wilson")``, vectorised; the tests check it against scipy) with a continuity correction of a
  tenth of a deal (:data:`CONTINUITY`) and, toward 0 and 1, never narrower than the exact
  one-sided bound (:func:`edge_bound`): at least 93% coverage at every n >= 30 and every p;
- :func:`clustered_proportion` is a proportion over seats whose deals may hold several of its
  seats: Wilson on the Kish effective sample size (the binomial variance over the deal-clustered
  variance). When every deal holds at most one of its seats it *is* :func:`wilson`'s interval;
- :func:`mean_interval` (and :func:`paired_mean` given ``bounds``) is the score interval of the
  mean of bounded per-deal values (a difference of win rates is in [-1, 1]): Wilson's on wins,
  Tango's on paired -1/0/+1 differences, honest at every sample size and never of zero width,
  with the same continuity correction and exact bound toward the ends of the range;
  :func:`paired_mean` without bounds is the t interval, for unbounded values (game lengths);
- :func:`equal_means` is Hotelling's T-squared test that several per-deal means are equal (all
  seats equal), with scipy's F distribution;
- :func:`balance_interval` is the balance figure's interval, from simultaneous score intervals
  of the pairwise seat differences (:func:`largest_gap`); :func:`balance_gain_interval` the
  balance a rule option gains on the same deals, from simultaneous intervals of the pairwise
  differences under each rule set and of their paired changes (:func:`gain_bounds`);
- :func:`anytime_interval` is the betting confidence sequence (an anytime-valid interval, in
  finite samples) of Waudby-Smith and Ramdas, "Estimating means of bounded random variables by
  betting" (2023), tuned to the tournament's cap, used by ``--until-decided``;
- :func:`deals_to_settle` (power: the deals that would settle a question either way) and
  :func:`equivalent` (two one-sided tests: equal within a margin);
- :func:`holm` is Holm's step-down adjustment of several p-values (family-wise 5%);
- :func:`paired_summary` is a tuning run's confirmation: two settings' per-deal results compared
  deal by deal (t interval and t-test).
"""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)


# ----------------------------------------------------------------------------- proportions
#: the continuity correction of the score intervals, in deals: the score test's |count - n m| is
#: taken this much smaller (Yates' and Newcombe's full correction is 1/2). With the exact bound
#: toward an edge (:func:`edge_bound`) it is what keeps the coverage at or above 93% at every
#: n >= 30 and every p (measured exactly: ``scripts/bench_coverage.py --exact``, ``docs/analysis.md``)
CONTINUITY = 0.1


#: the exact bound toward an end of the range is taken when at most this many deals are away from
#: that end: at 95% it reaches past the score interval's end for 8 at most (0/1 and -1/0/+1 values,
#: any n), and for none from 21 on
EDGE_DEALS = 20
_SERIES = 240  # terms of the incomplete beta function's series (it converges within ~150 here)
_BISECTIONS = 64


def _betainc(x, a, b, log_front):
    """The regularised incomplete beta function I_x(a, b) (arrays of one shape; ``log_front`` is
    ``-log(a B(a, b))``), from the series of positive terms ``I_x(a, b) = x^a (1 - x)^b / (a B(a,
    b)) * sum_j (a + b)_j / (a + 1)_j x^j`` (Abramowitz & Stegun 26.5.4 with 15.1.1), or from
    ``1 - I_{1-x}(b, a)`` above ``(a + 1) / (a + b + 2)``, where that one converges faster."""
    flip = x > (a + 1) / (a + b + 2)
    u, p, q = np.where(flip, 1 - x, x), np.where(flip, b, a), np.where(flip, a, b)
    front = np.where(flip, log_front + np.log(a) - np.log(b), log_front)  # -log(q B) for the flipped one
    j = np.arange(_SERIES - 1)[:, None]
    ratio = (p + q + j) / (p + 1 + j) * u
    terms = np.cumprod(np.vstack([np.ones((1, len(u))), ratio]), axis=0).sum(axis=0)
    with np.errstate(divide="ignore"):
        value = np.exp(p * np.log(u) + q * np.log1p(-u) + front) * terms
    return np.where(flip, 1 - value, value)


def _binomial_lower(k, n, alpha: float) -> np.ndarray:
    """Clopper-Pearson's one-sided lower bound at ``1 - alpha`` for ``k`` successes in ``n`` trials
    (1-D arrays, ``0 < k <= EDGE_DEALS``, both may be real): the p at which ``P(Bin(n, p) >= k) =
    alpha``, scipy's ``beta.ppf(alpha, k, n - k + 1)``, by bisection on :func:`_betainc`. NumPy
    only: the run summary (``reports/summary.py``) does not import scipy.stats."""
    a, b = k, n - k + 1
    lgamma = np.frompyfunc(math.lgamma, 1, 1)
    with np.errstate(divide="ignore", invalid="ignore"):  # log Gamma(a + b) - log Gamma(b), Stirling's for large b
        stirling = (b - 0.5) * np.log1p(a / b) + a * np.log(b + a) - a + 1 / (12 * (b + a)) - 1 / (12 * b)
    rise = np.where(b > 1e3, stirling, (lgamma(a + b) - lgamma(b)).astype(float))
    log_front = -(np.log(a) + lgamma(a).astype(float) - rise)
    low, high = np.full_like(a, math.log(1e-300)), np.zeros_like(a)  # on log p: relative precision
    for _ in range(_BISECTIONS):
        mid = (low + high) / 2
        above = _betainc(np.exp(mid), a, b, log_front) > alpha  # the tail at mid already exceeds alpha
        low, high = np.where(above, low, mid), np.where(above, mid, high)
    return np.exp((low + high) / 2)


def edge_bound(n, off, distance, alpha: float):
    """The exact one-sided lower confidence bound, at level ``1 - alpha``, of the mean distance of a
    per-deal value from one end of its range (in units of the range), when ``off`` of ``n`` deals
    are away from that end with total ``distance``: Clopper-Pearson's one-sided bound on the share
    of deals away from it, ``beta.ppf(alpha, off, n - off + 1)``, times their mean distance
    ``distance / off`` (1 for 0/1 outcomes, where it is the binomial bound itself). 0 when ``off``
    is 0; NaN (not taken) when more than :data:`EDGE_DEALS` (20) deals are away. Arrays allowed;
    ``n`` and ``off`` may be real (an effective sample size).

    The score intervals take it as their end toward that end of the range when it reaches further
    (never narrower than it): Brown, Cai & DasGupta's (2001) modified Wilson interval, with the
    exact binomial bound in place of their Poisson one and at up to 20 deals instead of 1-3. At
    95% it reaches further than Wilson's end only for the 8 or fewer counts nearest an edge, where
    Wilson's end is too close: one success in n trials puts Wilson's lower end at 0.18 / n, the
    exact one-sided bound at 0.05 / n, so a true rate of 0.1 / n was missed 16% of the time (84%
    coverage)."""
    n, off, distance = np.broadcast_arrays(*(np.asarray(v, float) for v in (n, off, distance)))
    out = np.where(off > 0, np.nan, 0.0)
    near = (off > 0) & (off <= EDGE_DEALS)
    if near.any():
        pairs, where = np.unique(np.c_[off[near], n[near]], axis=0, return_inverse=True)
        share = _binomial_lower(pairs[:, 0], pairs[:, 1], alpha)[where.reshape(-1)]
        out[near] = distance[near] / off[near] * share
    return out[()]


def wilson(wins, n, level: float = 0.95, correction: float = CONTINUITY, edge: bool = True):
    """The reports' interval of a proportion, ``wins`` successes in ``n`` trials (arrays allowed,
    ``n`` may be a real effective sample size): Wilson's score interval with a continuity correction
    of ``correction`` (:data:`CONTINUITY`: each end is Wilson's at ``wins -+ correction``), and,
    with ``edge``, never narrower toward 0 or 1 than the exact one-sided bound at ``1 - level``
    (:func:`edge_bound`). Its coverage is at least 93% at every n from 30 to 2,000 and every p
    (exactly: a binomial sum; plain Wilson's falls to 84% near 0 and 1). ``correction=0,
    edge=False``: the plain Wilson interval, equal to scipy's ``binomtest(k, n).proportion_ci(
    level, method="wilson")`` for integers. ``n == 0`` gives ``(nan, nan)``."""
    wins = np.asarray(wins, float)
    n = np.asarray(n, float)
    z = NormalDist().inv_cdf(0.5 + level / 2)

    def plain(k):
        with np.errstate(invalid="ignore", divide="ignore"):
            p = k / n
            denom = 1 + z * z / n
            center = (p + z * z / (2 * n)) / denom
            half = z / denom * np.sqrt(np.maximum(p * (1 - p), 0) / n + z * z / (4 * n * n))
            return np.clip(center - half, 0, 1), np.clip(center + half, 0, 1)

    low = plain(np.clip(wins - correction, 0, None))[0]
    high = plain(np.minimum(wins + correction, n))[1]
    low, high = np.where(wins <= 0, 0.0, low), np.where(wins >= n, 1.0, high)
    if edge:  # fmin, fmax: NaN (more than EDGE_DEALS away) leaves the end as it is
        alpha = 1 - level
        low = np.fmin(low, edge_bound(n, wins, wins, alpha))
        high = np.fmax(high, 1 - edge_bound(n, n - wins, n - wins, alpha))
    empty = ~(n > 0)
    return np.where(empty, np.nan, low)[()], np.where(empty, np.nan, high)[()]  # scalars for scalars


def clustered_proportion(y, m, level: float = 0.95):
    """Proportion ``sum(y) / sum(m)`` of successes ``y`` out of ``m`` trials per deal (1-D arrays
    over deals, or 2-D [deal, group] for several proportions at once).

    Returns ``(p, low, high, n, n_eff)``: the interval is Wilson's on the effective sample size
    ``n_eff = p(1-p) / var``, where ``var`` is the deal-clustered (linearisation) variance of the
    ratio, ``sum((y - p m)^2) / sum(m)^2``. Games on independent deals give ``n_eff == n`` (so
    :func:`wilson`'s interval on the counts); several seats of one deal moving together (duplicate deals, or a
    strategy holding several seats) give a smaller or larger ``n_eff`` as the data say.
    """
    y = np.asarray(y, float)
    m = np.asarray(m, float)
    n = m.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = y.sum(axis=0) / n
        var = ((y - p * m) ** 2).sum(axis=0) / (n * n)
        n_eff = np.where(var > 0, p * (1 - p) / var, n)
        # each deal holding at most one trial: exactly the binomial case
        single = (m <= 1).all(axis=0)
        n_eff = np.where(single, n, n_eff)
    low, high = wilson(p * n_eff, n_eff, level)
    return p, low, high, n, n_eff


# ----------------------------------------------------------------------------- bounded means
class MeanTest(tuple):
    """(estimate, low, high, p_value, n) of a mean with its interval and two-sided p against 0."""

    __slots__ = ()

    def __new__(cls, estimate, low, high, p_value, n):
        return super().__new__(cls, (float(estimate), float(low), float(high), float(p_value), int(n)))

    estimate = property(lambda self: self[0])
    low = property(lambda self: self[1])
    high = property(lambda self: self[2])
    p_value = property(lambda self: self[3])
    n = property(lambda self: self[4])


#: the range of a per-deal difference of two win rates (each in [0, 1])
DIFFERENCE = (-1.0, 1.0)


def _atoms(x, bounds):
    """Distinct values of ``x`` and their counts (the bounds, unseen, enter in
    :func:`_null_variance`), after checking that every value lies within ``bounds``."""
    lo, hi = bounds
    v, c = np.unique(np.round(np.asarray(x, float), 12), return_counts=True)
    if v[0] < lo - 1e-9 or v[-1] > hi + 1e-9:
        raise ValueError(f"per-deal values in [{v[0]:g}, {v[-1]:g}] exceed the bounds [{lo:g}, {hi:g}]")
    return v, c.astype(float)


def _null_variance(v, c, m, bounds):
    """The variance, under the null hypothesis "the mean is m" (``m`` an array strictly inside the
    bounds), of the restricted maximum-likelihood distribution on the support ``v`` plus the two
    bounds (counts ``c``; the empirical-likelihood dual, Owen 2001, ch. 2 and 3.14). Mass the
    observed values cannot carry goes to the bound on the far side: with every deal at +1 and
    m < 1 it is ``(1 + m)(1 - m)``, Tango's (1998) restricted estimate."""
    lo, hi = bounds
    n = c.sum()
    m = np.asarray(m, float)[:, None]
    d = v[None, :] - m  # [M, K]
    # the dual variable eta solves g(eta) = sum c d / (n + eta d) = 0, g decreasing on
    # [-n / (hi - m), n / (m - lo)]; beyond an end the far bound takes the missing mass
    a, b = -n / (hi - m[:, 0]), n / (m[:, 0] - lo)
    for _ in range(_DUAL_STEPS):
        mid = (a + b) / 2
        with np.errstate(divide="ignore", invalid="ignore"):
            up = np.nansum(c * d / (n + mid[:, None] * d), axis=1) > 0
        a, b = np.where(up, mid, a), np.where(up, b, mid)
    eta = (a + b) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.minimum(np.where(c > 0, c / np.maximum(n + eta[:, None] * d, 1e-300), 0.0), 1.0)
    left = np.clip(1 - p.sum(axis=1), 0, 1)  # the far bound's mass (0 at an interior root)
    far = np.where(eta >= 0, lo, hi) - m[:, 0]
    return (p * d * d).sum(axis=1) + left * far * far


_DUAL_STEPS = 36  # bisection steps for the dual variable: 2^-36 of its range
_GRID_PASSES = (64, 32, 32, 32)  # inverting a test: a grid, then finer ones at each end


def _accepted_ends(rejected, start: float) -> tuple[float, float] | None:
    """The ends of the set of means ``u`` in [0, 1] that a test does not reject (an interval; the
    test ``rejected(u)`` takes an array): a grid over [0, 1], denser near ``start`` (where the set
    is expected: it may be narrower than the grid's step), then finer grids between the last
    candidate accepted and the first rejected at each end, each end rounded outwards (the interval
    can only be wider than the exact set), to 1 / (64 * 32^3) of the range or better. None if no
    candidate is accepted."""
    first = _GRID_PASSES[0]
    eps = 1e-12
    local = start + np.linspace(-1, 1, 33) / first
    grid = np.unique(np.clip(np.r_[eps, (np.arange(first) + 0.5) / first, local, 1 - eps], eps, 1 - eps))
    keep = ~rejected(grid)
    if not keep.any():
        return None
    k_low, k_high = int(np.argmax(keep)), len(grid) - 1 - int(np.argmax(keep[::-1]))
    # [accepted, rejected] at each end; None: the set reaches that end of the range
    spans = [[grid[k_low], grid[k_low - 1]] if k_low > 0 else None,
             [grid[k_high], grid[k_high + 1]] if k_high < len(grid) - 1 else None]
    for points in _GRID_PASSES[1:]:
        live = [e for e in (0, 1) if spans[e] is not None]
        if not live:
            break
        fine = {e: np.linspace(spans[e][0], spans[e][1], points + 1)[1:] for e in live}
        out = rejected(np.concatenate([fine[e] for e in live])).reshape(len(live), points)
        for row, e in zip(out, live):  # the last candidate, the span's rejected end, is rejected
            j = int(np.argmax(row))
            spans[e] = [fine[e][j - 1] if j else spans[e][0], fine[e][j]]
    return (0.0 if spans[0] is None else float(spans[0][1]),
            1.0 if spans[1] is None else float(spans[1][1]))


def _score(v, c, mean, m, bounds, slack: float = 0.0):
    """Rao's score statistic of "the mean is m", its deviation ``|mean - m|`` taken ``slack``
    smaller (the continuity correction, in units of the mean; at least 0)."""
    n = c.sum()
    var = _null_variance(v, c, m, bounds)
    dev = np.maximum(np.abs(mean - m) - slack, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(var > 0, n * dev ** 2 / var, np.where((dev == 0) | np.isclose(mean, m), 0.0, np.inf))


def mean_interval(x, level: float = 0.95, bounds=DIFFERENCE, correction: float = CONTINUITY,
                  edge: bool = True) -> MeanTest:
    """Mean of per-deal values ``x`` that lie in ``bounds`` (a win in [0, 1], a difference of two
    win rates in [-1, 1]) with its score interval and the score test's two-sided p-value against 0.

    The interval inverts Rao's score test of the mean in the multinomial model on the values seen
    plus the two bounds: ``(n |mean - m| - correction (hi - lo))^2 <= z^2 n V(m)``, ``V(m)`` the
    variance of the restricted maximum-likelihood distribution whose mean is m, with the continuity
    correction :data:`CONTINUITY` (a tenth of a deal's range). With ``edge`` each end is never
    closer to the mean than the exact one-sided bound at ``1 - level`` toward that end of the range
    (:func:`edge_bound`: the deals away from it, their share bounded by Clopper-Pearson, times their
    mean distance). On 0/1 data it is :func:`wilson`; on -1/0/+1 differences Tango's (1998) score
    interval for paired proportions, so corrected. ``correction=0, edge=False``: the plain score
    interval (Wilson's, Tango's). It never has zero width: 300 deals that are all +1 give
    [+0.973, +1], where the exact one-sided bound is 0.9755. Its coverage is at least 93% at every
    n >= 30 (measured exactly, ``scripts/bench_coverage.py --exact``; ``docs/analysis.md``). The
    p-value is the corrected score test's (on -1/0/+1 values McNemar's, ``(|wins - losses| -
    0.2)^2 / (wins + losses)``): below ``1 - level`` exactly when 0 is outside the interval (the
    edge bounds, which it leaves out, move an end across 0 in no -1/0/+1 outcome of 10 to 300
    deals)."""
    x = np.asarray(x, float)
    n = len(x)
    if n == 0:
        return MeanTest(math.nan, math.nan, math.nan, math.nan, 0)
    v, c = _atoms(x, bounds)
    mean = float(x.mean())
    z2 = NormalDist().inv_cdf(0.5 + level / 2) ** 2
    lo, hi = bounds
    slack = correction * (hi - lo) / n
    start = (mean - lo) / (hi - lo)
    ends = _accepted_ends(lambda u: _score(v, c, mean, lo + (hi - lo) * u, bounds, slack) > z2, start)
    low, high = ends or (start, start)  # in units of the range; the mean is accepted
    if edge:
        y = np.clip((v - lo) / (hi - lo), 0, 1)  # the values seen, in [0, 1]
        below, above = y < 1, y > 0
        high = float(np.fmax(high, 1 - edge_bound(n, c[below].sum(), (c * (1 - y))[below].sum(), 1 - level)))
        low = float(np.fmin(low, edge_bound(n, c[above].sum(), (c * y)[above].sum(), 1 - level)))
    low, high = lo + (hi - lo) * low, lo + (hi - lo) * high
    p = math.nan
    if lo < 0 < hi:
        s = float(_score(v, c, mean, np.array([0.0]), bounds, slack)[0])
        p = math.erfc(math.sqrt(s / 2)) if math.isfinite(s) else 0.0
    return MeanTest(mean, min(low, mean), max(high, mean), p, n)


def paired_mean(x, level: float = 0.95, bounds=None) -> MeanTest:
    """Mean of per-deal differences ``x`` with its interval and two-sided p-value against 0.

    ``bounds`` (lowest, highest) possible value: the score interval of :func:`mean_interval`,
    honest at every sample size and never of zero width (use it for anything bounded: a
    difference of win rates is in :data:`DIFFERENCE`). ``bounds=None`` is for unbounded values
    (game lengths): the one-sample t interval (``scipy.stats.ttest_1samp``); constant data then
    give a zero-width interval (p = 1 at 0), as nothing bounds the spread."""
    if bounds is not None:
        return mean_interval(x, level, bounds)
    x = np.asarray(x, float)
    n = len(x)
    if n == 0:
        return MeanTest(math.nan, math.nan, math.nan, math.nan, 0)
    mean = float(x.mean())
    if n < 2 or np.all(x == x[0]):
        p = 1.0 if mean == 0 else (0.0 if n >= 2 else math.nan)
        return MeanTest(mean, mean if n >= 2 else math.nan, mean if n >= 2 else math.nan, p, n)
    from scipy import stats
    r = stats.ttest_1samp(x, 0.0)
    ci = r.confidence_interval(level)
    return MeanTest(mean, ci.low, ci.high, r.pvalue, n)


def paired_ratio_difference(num_a, den_a, num_b, den_b, level: float = 0.95, bounds=(-1.0, 1.0)) -> MeanTest:
    """``sum(num_b) / sum(den_b) - sum(num_a) / sum(den_a)``: the difference of two ratios of
    per-deal sums on the same deals (each index a deal played under both), with its interval and
    two-sided p-value against 0. Each deal's linearised contribution (the delta method:
    ``(num_b - R_b den_b) / mean(den_b) - (num_a - R_a den_a) / mean(den_a)``) carries the
    pairing, so a deal that counts under one table and not the other still counts; the interval
    is the t interval on those contributions, clipped to ``bounds``. What a design's
    decisiveness change needs: the share of games whose leader at two thirds won, where which
    games have a leader differs between the two tables, so the change is exactly the difference
    of the two figures shown."""
    num_a, den_a, num_b, den_b = (np.asarray(x, float) for x in (num_a, den_a, num_b, den_b))
    n = len(num_a)
    if n < 2 or den_a.sum() <= 0 or den_b.sum() <= 0:
        return MeanTest(math.nan, math.nan, math.nan, math.nan, n)
    ra, rb = num_a.sum() / den_a.sum(), num_b.sum() / den_b.sum()
    z = (num_b - rb * den_b) / den_b.mean() - (num_a - ra * den_a) / den_a.mean()
    estimate = float(rb - ra)
    sd = float(z.std(ddof=1))
    if sd == 0.0:
        return MeanTest(estimate, estimate, estimate, 1.0 if estimate == 0 else 0.0, n)
    from scipy import stats
    se = sd / math.sqrt(n)
    q = float(stats.t.ppf(0.5 + level / 2, n - 1))
    p = float(2 * stats.t.sf(abs(estimate) / se, n - 1))
    low, high = max(bounds[0], estimate - q * se), min(bounds[1], estimate + q * se)
    return MeanTest(estimate, low, high, p, n)


# ----------------------------------------------------------------------------- power, equivalence
class Settling(tuple):
    """(differ, equivalent, either): the further deals that would, at 80% power, show the effect
    differs from 0, show it lies inside +-margin, and settle it one way or the other (the union
    of the two tests: never more than either alone), each rounded up to two significant figures
    (:func:`round_deals`); ``math.inf``: that way cannot succeed at any number of deals (e.g.
    equivalence for an effect as large as the margin)."""

    __slots__ = ()

    def __new__(cls, differ, equivalent, either=None):
        return super().__new__(cls, (differ, equivalent, min(differ, equivalent) if either is None else either))

    differ = property(lambda self: self[0])
    equivalent = property(lambda self: self[1])
    either = property(lambda self: self[2])


#: the plan's effect is conservative: the worst for the test among the effects within this many
#: standard errors of the estimate (``scripts/bench_settle.py`` calibrates it)
SETTLE_WINDOW = 1.5  # standard errors: every true effect then settles at least 75% of the time (scripts/bench_settle.py)
_SETTLE_LIMIT = 10 ** 10  # searched up to this many more deals; beyond: math.inf


def round_deals(n: float) -> float:
    """Deals rounded *up* to two significant figures (165,164 -> 170,000; 57 -> 57): a plan is
    an estimate, and the figure should not read as exact."""
    if not math.isfinite(n) or n <= 0:
        return n if n != 0 else 0
    n = math.ceil(n - 1e-9)
    step = 10 ** max(0, len(str(n)) - 2)
    return -(-n // step) * step


def _norm_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _settle_chance(estimate: float, sd: float, deals: int, more: int, delta: float, c_differ: float,
                   c_equiv: float, margin: float) -> float:
    """The chance that ``deals + more`` deals settle a question whose first ``deals`` deals
    averaged ``estimate`` when its true effect is ``delta`` (the conditional power): the final
    mean is normal about ``(deals * estimate + more * delta) / total`` with SD
    ``sd sqrt(more) / total``, and it is *not* settled while its size lies between
    ``margin - c_equiv se`` (within: equivalent) and ``c_differ se`` (beyond: a difference),
    ``se = sd / sqrt(total)``. A test given ``math.inf`` as its critical value never settles."""
    total = deals + more
    se = sd / math.sqrt(total)
    low = max(0.0, margin - c_equiv * se) if math.isfinite(c_equiv) else 0.0
    high = c_differ * se
    if high <= low:
        return 1.0
    centre = (deals * estimate + more * delta) / total
    spread = sd * math.sqrt(more) / total
    if spread <= 0:
        return 0.0 if low < abs(centre) < high else 1.0

    def inside(t):  # P(|mean| < t)
        if t <= 0:
            return 0.0
        if math.isinf(t):
            return 1.0
        return _norm_cdf((t - centre) / spread) - _norm_cdf((-t - centre) / spread)

    return 1.0 - (inside(high) - inside(low))


def _worst_chance(estimate, sd, deals, more, c_differ, c_equiv, margin, window) -> float:
    """The smallest :func:`_settle_chance` over the effects within ``window`` standard errors of
    the estimate: at an end of that range, or where the final mean would sit at 0 or at the
    middle of the unsettled band (the candidates where the chance is smallest)."""
    se_now = sd / math.sqrt(deals)
    lo, hi = estimate - window * se_now, estimate + window * se_now
    total = deals + more
    se = sd / math.sqrt(total)
    low = max(0.0, margin - c_equiv * se) if math.isfinite(c_equiv) else 0.0
    high = c_differ * se if math.isfinite(c_differ) else low + 10 * se  # equivalence alone: the band is open upwards
    candidates = {lo, hi}
    for target in (0.0, (low + high) / 2, -(low + high) / 2):
        candidates.add(min(hi, max(lo, (target * total - deals * estimate) / more)))
    return min(_settle_chance(estimate, sd, deals, more, d, c_differ, c_equiv, margin) for d in candidates)


def _plan(estimate, sd, deals, power, c_differ, c_equiv, margin, window) -> float:
    """The fewest more deals whose worst chance (:func:`_worst_chance`) reaches ``power``: a
    scan by factors of 1.25, then bisection; ``math.inf`` beyond :data:`_SETTLE_LIMIT`."""
    def enough(m):
        return _worst_chance(estimate, sd, deals, m, c_differ, c_equiv, margin, window) >= power

    prev, m = 0, 1
    while not enough(m):
        prev, m = m, max(m + 1, int(m * 1.25))
        if m > _SETTLE_LIMIT:
            return math.inf
    while m - prev > 1:
        mid = (prev + m) // 2
        if enough(mid):
            m = mid
        else:
            prev = mid
    return m


def deals_to_settle(estimate: float, sd: float, deals: int, alpha: float, margin: float,
                    power: float = 0.8, sequential: bool = False, window: float = SETTLE_WINDOW) -> Settling:
    """How many more deals would settle a question, at ``power`` (80%), planned conservatively.

    - ``estimate``: the observed mean of the per-deal values (e.g. a win-rate difference);
    - ``sd``: their standard deviation per deal (``x.std(ddof=1)``);
    - ``deals``: the deals already played (the answer counts deals to *add*; the question is then
      tested on all of them, the deals already played included);
    - ``alpha``: the level each test of the question is run at, i.e. the family's per-question
      level (Bonferroni's ``alpha / m``, which Holm never needs to exceed), two-sided for the
      difference, one-sided for each of the two tests of equivalence;
    - ``margin``: the equivalence margin (+-margin, in the units of ``estimate``);
    - ``sequential``: the question is decided by the betting confidence sequence instead of a
      fixed-sample interval: its critical values ``sqrt(2 log(2 / alpha))`` and
      ``sqrt(2 log(1 / alpha))`` replace the normal quantiles, as in :func:`cs_radius`;
    - ``window``: how many standard errors of the estimate the plan guards against.

    With ``n = deals + N`` deals and ``se = sd / sqrt(n)``, the question is settled when the mean's
    size is at least ``z[1 - alpha/2] se`` (a difference) or at most ``margin - z[1 - alpha] se``
    (equivalence, two one-sided tests: Lakens 2018); between the two it is not. The chance of
    settling (the conditional power, given the mean of the deals already played) is normal
    arithmetic. ``N`` is the fewest deals at which that chance is at least ``power`` for **every
    effect within ``window`` (1.5) standard errors of the estimate**, not for the estimate alone:
    the observed size of an unsettled question is biased, and a count planned at it explodes
    where it nears 0 (the former "one SE closer to 0" rule gave 519,159 / 1,720,205 / 2,409,401
    deals for estimates one SE apart). Settling either way is bounded: once
    ``se < margin / (z[1 - alpha/2] + z[1 - alpha])`` the two regions meet and any mean settles
    it, so ``either`` never exceeds ``((z[1 - alpha/2] + z[1 - alpha]) sd / margin)^2 - deals``;
    between estimates one standard error apart it changes smoothly. The window is the narrowest at
    which the figure settles at least 75% of the questions it is given to, whatever their true
    effect (78-100% by simulation; one standard error gave 71%). ``differ`` and ``equivalent``
    are the same plan with one test alone. Every figure is rounded up to two significant figures
    (:func:`round_deals`); 0 when the deals already played settle it.

    Calibrated by ``scripts/bench_settle.py`` (simulated questions with known effects, planned,
    played on, tested again).
    """
    if deals < 1 or not (math.isfinite(estimate) and math.isfinite(sd)) or sd <= 0:
        return Settling(math.inf, math.inf)
    nd = NormalDist()
    if sequential:
        c_differ, c_equiv = math.sqrt(2 * math.log(2 / alpha)), math.sqrt(2 * math.log(1 / alpha))
    else:
        c_differ, c_equiv = nd.inv_cdf(1 - alpha / 2), nd.inv_cdf(1 - alpha)
    margin = max(0.0, margin) if math.isfinite(margin) else 0.0

    se = sd / math.sqrt(deals)

    def plan(cd, ce):
        if abs(estimate) >= cd * se or abs(estimate) < margin - ce * se:  # the deals played settle it
            return 0
        return round_deals(_plan(estimate, sd, deals, power, cd, ce, margin, window))

    differ = plan(c_differ, math.inf)
    equiv = plan(math.inf, c_equiv) if margin > 0 else math.inf
    either = min(plan(c_differ, c_equiv), differ, equiv)
    return Settling(differ, equiv, either)


def equivalent(low: float, high: float, margin: float) -> bool:
    """Two one-sided tests (TOST, Schuirmann 1987; Lakens 2018): is the effect inside +-``margin``?

    ``low``, ``high`` must be a two-sided interval at level ``1 - 2 * alpha`` to test at
    ``alpha`` (e.g. ``mean_interval(x, level=1 - 2 * alpha)``, or a confidence sequence's
    interval at error rate ``2 * alpha``): each one-sided test rejects at ``alpha`` exactly when
    its end of that interval lies inside the margin. True means "equal within +-margin"."""
    return bool(math.isfinite(low) and math.isfinite(high) and -margin < low and high < margin)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control over the given tests)."""
    p = np.asarray(p_values, float)
    out = np.full_like(p, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = len(q)
    if m == 0:
        return out
    order = np.argsort(q)
    adj = np.maximum.accumulate((m - np.arange(m)) * q[order])
    res = np.empty(m)
    res[order] = np.minimum(adj, 1.0)
    out[ok] = res
    return out


def equal_means(x) -> tuple[float, float, int]:
    """Hotelling's T-squared test that the columns of ``x`` (deals x groups, e.g. per-deal win
    rates of each seat) have equal means. Returns ``(F, p_value, dof)``; with two groups it is
    the paired t-test. Tests the contrasts with the first column; a singular covariance (columns
    tied by the rules, e.g. exactly one winner among two seats) uses its rank."""
    x = np.asarray(x, float)
    d, g = x.shape
    if g < 2 or d < 3:
        return math.nan, math.nan, 0
    c = x[:, 1:] - x[:, :1]
    mean = c.mean(axis=0)
    cov = np.atleast_2d(np.cov(c, rowvar=False))
    rank = int(np.linalg.matrix_rank(cov))
    if rank == 0:
        return (math.inf, 0.0, 0) if np.any(mean != 0) else (0.0, 1.0, 0)
    t2 = d * float(mean @ np.linalg.pinv(cov) @ mean)
    if d - rank < 1:
        return math.nan, math.nan, rank
    f = (d - rank) / (rank * (d - 1)) * t2
    from scipy import stats
    return f, float(stats.f.sf(f, rank, d - rank)), rank


# ----------------------------------------------------------------------------- balance figure
def largest_gap(intervals) -> tuple[float, float]:
    """An interval for the largest gap ``max |d|`` between units, from simultaneous intervals
    ``(low, high)`` of every pairwise difference d: each |d| lies in ``[0 if low <= 0 <= high
    else min(|low|, |high|), max(|low|, |high|)]``, so when every pairwise interval holds (with
    probability at least their joint level), the largest gap lies between the largest lower end
    and the largest upper end. It contains the gap of the pairwise estimates whenever each interval
    contains its estimate, and reaches 0 at a tie: no smoothness needed, unlike a bootstrap of
    ``max - min``, which is not differentiable at a tie."""
    low_gap, high_gap = 0.0, 0.0
    for low, high in intervals:
        low_gap = max(low_gap, 0.0 if low <= 0 <= high else min(abs(low), abs(high)))
        high_gap = max(high_gap, abs(low), abs(high))
    return low_gap, high_gap


def balance_interval(rates, level: float = 0.95) -> tuple[float, float]:
    """Interval of the balance figure ``1 - (largest - smallest unit win rate)`` from per-deal win
    rates ``rates`` [deals, units]: the score interval (:func:`mean_interval`) of every pairwise
    difference of units at level ``1 - (1 - level) / pairs`` (Bonferroni: simultaneous at
    ``level``), turned into one for the largest gap by :func:`largest_gap`."""
    rates = np.asarray(rates, float)
    d, u = rates.shape
    if d == 0 or u < 2:
        return math.nan, math.nan
    pairs = u * (u - 1) // 2
    each = 1 - (1 - level) / pairs
    intervals = []
    for i in range(u):
        for j in range(i + 1, u):
            t = mean_interval(rates[:, i] - rates[:, j], each)
            intervals.append((t.low, t.high))
    low_gap, high_gap = largest_gap(intervals)
    return 1 - high_gap, 1 - low_gap


#: the range of a per-deal change of a seat difference between two rule sets (each in [-1, 1])
CHANGE = (-2.0, 2.0)


def _dist0(low, high):
    """The smallest |v| over v in [low, high] (arrays allowed)."""
    return np.maximum(0.0, np.maximum(low, -np.asarray(high)))


def _kinks(lines, lo: float, hi: float) -> np.ndarray:
    """``lo``, ``hi`` and every x in between at which two of the affine functions ``a + b x``
    (``lines``: (a, b) pairs) are equal: where a function built from them by max, min and
    absolute values can bend."""
    a, b = np.array(lines, float).T
    with np.errstate(divide="ignore", invalid="ignore"):
        x = (a[None, :] - a[:, None]) / (b[:, None] - b[None, :])
    x = x[np.isfinite(x)]
    return np.concatenate([[lo, hi], x[(x >= lo) & (x <= hi)]])


def gain_bounds(gaps, changes, option_gaps=None) -> tuple[float, float]:
    """The exact smallest and largest balance gain ``max_k |x_k| - max_k |z_k|`` over every
    ``x_k`` in ``gaps[k]``, ``y_k = z_k - x_k`` in ``changes[k]`` and ``z_k`` in ``option_gaps[k]``
    (each a (low, high) pair; k runs over the unordered pairs of units): x_k is a pair's gap under
    the default rules, z_k under the option, y_k its change. ``option_gaps`` None: z_k is free.

    Both optimisations split by the pair k* that attains the first maximum (largest gain) or the
    second (smallest). Largest: ``|x_k*| - max(|z_k*|, M)``, M the largest of the other pairs' smallest
    feasible ``|z_j|`` (each other pair is free to take its own); smallest: ``max(|x_k*|, M') -
    |z_k*|``, M' the largest of the other pairs' smallest feasible ``|x_j|``. For a given x_k*,
    z_k* ranges over an interval whose ends are affine in x_k*, so the best z_k* is known; what is
    left is a piecewise-linear function of x_k* alone, which can bend only where two of its
    affine pieces meet: its extremes are among those points and the ends, all of which are
    tried. When the constraints leave no room (the intervals cannot all hold), ``option_gaps``
    are dropped: the box of ``gaps`` and ``changes`` is never empty."""
    x_lo, x_hi = np.array(gaps, float).T
    y_lo, y_hi = np.array(changes, float).T
    z_lo, z_hi = (np.array(option_gaps, float).T if option_gaps is not None
                  else (np.full_like(x_lo, -np.inf), np.full_like(x_lo, np.inf)))
    # each pair's feasible x and z
    fx_lo, fx_hi = np.maximum(x_lo, z_lo - y_hi), np.minimum(x_hi, z_hi - y_lo)
    fz_lo, fz_hi = np.maximum(z_lo, x_lo + y_lo), np.minimum(z_hi, x_hi + y_hi)
    if (fx_lo > fx_hi + 1e-12).any() or (fz_lo > fz_hi + 1e-12).any():
        return gain_bounds(gaps, changes)
    x_min, z_min = _dist0(fx_lo, fx_hi), _dist0(fz_lo, fz_hi)
    lowest, highest = math.inf, -math.inf
    for k in range(len(x_lo)):
        others = np.arange(len(x_lo)) != k
        m_z = float(z_min[others].max(initial=0.0))
        m_x = float(x_min[others].max(initial=0.0))
        zl, zh, dl, dh = z_lo[k], z_hi[k], y_lo[k], y_hi[k]
        lines = [(0, 0), (0, 1), (0, -1), (m_z, 0), (-m_z, 0), (m_x, 0), (-m_x, 0), (dl, 1), (-dl, -1),
                 (dh, 1), (-dh, -1)] + [(c, 0) for c in (zl, -zl, zh, -zh) if math.isfinite(c)]
        x = _kinks(lines, fx_lo[k], fx_hi[k])
        low_z, high_z = np.maximum(zl, x + dl), np.minimum(zh, x + dh)  # z_k* given x_k*
        highest = max(highest, float((np.abs(x) - np.maximum(_dist0(low_z, high_z), m_z)).max()))
        lowest = min(lowest, float((np.maximum(np.abs(x), m_x)
                                    - np.maximum(np.abs(low_z), np.abs(high_z))).min()))
    return lowest, highest


def balance_gain_interval(default_rates, option_rates, level: float = 0.95) -> MeanTest:
    """The balance figure gained by a rule option, paired on the same deals: ``balance(option) -
    balance(default)``, with an interval valid at every sample size and at ties.

    ``default_rates``, ``option_rates``: per-deal win rates [deals, units] of the same deals under
    each rule set. For every pair of units: the score interval (:func:`mean_interval`) of the
    pair's mean per-deal difference under the default rules and under the option (in [-1, 1]),
    and of its mean per-deal change (the option's difference minus the default's, in [-2, 2]:
    paired, so an option that changes few deals gets a narrow one), all ``3 * pairs`` at level
    ``1 - (1 - level) / (3 * pairs)`` (Bonferroni: they hold at once with probability at least
    ``level``). Whenever they do, the gain lies between the smallest and the largest gain over
    the values they allow (:func:`gain_bounds`, exact), so the interval covers with probability
    at least ``level``, at any number of deals; the estimate (the per-deal means) is among those
    values, so it is inside. Returns (estimate, low, high, nan, deals)."""
    a = np.asarray(default_rates, float)
    b = np.asarray(option_rates, float)
    d, u = a.shape
    if d == 0 or u < 2 or b.shape != a.shape:
        return MeanTest(math.nan, math.nan, math.nan, math.nan, d)
    pairs = [(i, j) for i in range(u) for j in range(i + 1, u)]
    each = 1 - (1 - level) / (3 * len(pairs))
    gaps, option_gaps, changes = [], [], []
    for i, j in pairs:
        x, z = a[:, i] - a[:, j], b[:, i] - b[:, j]
        gaps.append(mean_interval(x, each)[1:3])
        option_gaps.append(mean_interval(z, each)[1:3])
        changes.append(mean_interval(z - x, each, CHANGE)[1:3])
    pa, pb = a.mean(axis=0), b.mean(axis=0)
    estimate = float((pa.max() - pa.min()) - (pb.max() - pb.min()))
    low, high = gain_bounds(gaps, changes, option_gaps)
    return MeanTest(estimate, min(low, estimate), max(high, estimate), math.nan, d)


# ----------------------------------------------------------------------------- sequential
BET_TRUNCATION = 0.75  # c of Waudby-Smith & Ramdas: a bet never risks more than 3/4 of the capital
_CHUNK = 512  # deals per step of the capital's running product (bounds the memory)


def _plug_in(y: np.ndarray, alpha: float, cap: int) -> np.ndarray:
    """The predictable plug-in bets lambda_t of the hedged capital process (Waudby-Smith & Ramdas
    2023, eq. (26)-(27) with the fixed-horizon tuning of their Sec. 4: ``sqrt(2 log(2/alpha) /
    (cap * var_{t-1}))``): each uses only the deals before it, so any bet sequence keeps the
    capital a martingale; tuning it to ``cap`` makes the sequence narrowest there. ``y``: values
    in [0, 1], time on the last axis (several streams at once allowed)."""
    t = np.arange(1, y.shape[-1] + 1, dtype=float)
    mu = (0.5 + np.cumsum(y, axis=-1)) / (t + 1)  # regularised running mean after t deals
    var = (0.25 + np.cumsum((y - mu) ** 2, axis=-1)) / (t + 1)
    var_before = np.concatenate([np.full(y.shape[:-1] + (1,), 0.25), var[..., :-1]], axis=-1)
    return np.sqrt(2 * math.log(2 / alpha) / (cap * var_before))


def _log_capital_sup(y: np.ndarray, lam: np.ndarray, m, looks=None) -> np.ndarray:
    """log of the largest hedged capital ``(K+ + K-) / 2`` reached so far, for each candidate mean
    ``m`` (K+ bets the mean is above m, K- below; each bet truncated at 3/4 of what the capital
    can lose). Ville's inequality: under the true m, P(sup_t K_t >= 1/alpha) <= alpha.

    ``y``, ``lam``: [..., n] (time last); returns [..., M], or [..., L, M] at the deal counts
    ``looks`` (each in 1..n) when given: the sup up to each look."""
    m = np.asarray(m, float)
    lam = lam[..., None]
    lam_up = np.minimum(lam, BET_TRUNCATION / np.maximum(m, 1e-12))
    lam_down = np.minimum(lam, BET_TRUNCATION / np.maximum(1 - m, 1e-12))
    shape = y.shape[:-1] + m.shape
    log_up, log_down = np.zeros(shape), np.zeros(shape)
    best = np.full(shape, -np.inf)
    at = []
    n = y.shape[-1]
    looks = [n] if looks is None else list(looks)
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        d = y[..., start:stop, None] - m
        up = log_up[..., None, :] + np.cumsum(np.log1p(lam_up[..., start:stop, :] * d), axis=-2)
        down = log_down[..., None, :] + np.cumsum(np.log1p(-lam_down[..., start:stop, :] * d), axis=-2)
        running = np.maximum.accumulate(np.logaddexp(up, down) - math.log(2), axis=-2)
        running = np.maximum(running, best[..., None, :])
        at += [running[..., k - 1 - start, :] for k in looks if start < k <= stop]
        best, log_up, log_down = running[..., -1, :], up[..., -1, :], down[..., -1, :]
    return at[-1] if len(looks) == 1 and looks[0] == n else np.stack(at, axis=-2)


def anytime_rejects(x, alpha: float, cap: int, at, looks, bounds=DIFFERENCE) -> np.ndarray:
    """Whether the betting confidence sequence of :func:`anytime_interval` has excluded each mean
    of ``at`` by each deal count of ``looks``: [..., L, M] booleans, for streams ``x`` [..., n]
    (many simulated tournaments at once: the coverage benchmark and the tests use it)."""
    lo, hi = bounds
    y = np.clip((np.asarray(x, float) - lo) / (hi - lo), 0, 1)
    lam = _plug_in(y, alpha, cap)
    m = (np.asarray(at, float) - lo) / (hi - lo)
    return _log_capital_sup(y, lam, m, looks) >= math.log(1 / alpha)


def anytime_interval(x, alpha: float, cap: int | None = None, bounds=DIFFERENCE,
                     tune_alpha: float | None = None) -> MeanTest:
    """The betting confidence sequence of the mean of bounded per-deal values ``x`` (in the order
    they were played), now: (estimate, low, high, p_value, n).

    Waudby-Smith & Ramdas (2023), "Estimating means of bounded random variables by betting"
    (JRSS B): the hedged capital process with predictable plug-in bets, tuned to ``cap`` deals
    (the tournament's cap; default: the deals so far). The sequence is the set of means at which
    the capital has never reached ``1/alpha``, so the chance that it *ever* excludes the true mean,
    at any deal, is at most ``alpha`` in finite samples, whatever the stopping rule: stop when it
    is decided, report the interval at the stop. ``alpha`` is the level of this one question (a
    study passes its family's per-question level). Being an intersection over time it only
    narrows; the estimate is always inside it. ``p_value`` is the anytime-valid p-value of "the
    mean is 0": 1 / the largest capital reached at 0 (at most 1), so ``p_value <= alpha`` exactly
    when the sequence at ``alpha`` excludes 0. ``tune_alpha``: the level the bets are tuned to
    (default ``alpha``); a question read at several levels keeps one capital process, so its
    p-value and its intervals at every level agree."""
    x = np.asarray(x, float)
    n = len(x)
    if n == 0:
        return MeanTest(math.nan, -math.inf, math.inf, 1.0, 0)
    lo, hi = bounds
    if x.min() < lo - 1e-9 or x.max() > hi + 1e-9:
        raise ValueError(f"per-deal values in [{x.min():g}, {x.max():g}] exceed the bounds [{lo:g}, {hi:g}]")
    y = np.clip((x - lo) / (hi - lo), 0, 1)
    lam = _plug_in(y, tune_alpha or alpha, int(cap or n))
    threshold = math.log(1 / alpha)
    ends = _accepted_ends(lambda u: _log_capital_sup(y, lam, u) >= threshold, float(y.mean()))
    if ends is None:  # an empty sequence (a chance of at most alpha): the estimate alone
        ends = (float(y.mean()), float(y.mean()))
    mean = float(x.mean())
    zero = (0 - lo) / (hi - lo)
    p = math.nan
    if 0 < zero < 1:
        p = float(min(1.0, math.exp(-_log_capital_sup(y, lam, np.array([zero]))[0])))
    low, high = lo + (hi - lo) * ends[0], lo + (hi - lo) * ends[1]
    return MeanTest(mean, min(low, mean), max(high, mean), p, n)


def cs_radius(n, sd, alpha: float, t_opt=None):
    """Planning only: about how far from its mean the betting confidence sequence at ``alpha``
    reaches after ``n`` deals whose values have standard deviation ``sd``, when its bets are
    tuned to ``t_opt`` deals (default: ``n``, the narrowest it can be there). From the capital's
    second-order expansion with bets ``sqrt(2 log(2/alpha) / (t_opt sd^2))``:
    ``sd sqrt(log(2/alpha) / 2) (sqrt(t_opt) / n + 1 / sqrt(t_opt))``, which is
    ``sd sqrt(2 log(2/alpha) / n)`` at ``n = t_opt``. The interval itself is
    :func:`anytime_interval`."""
    n = np.asarray(n, float)
    t = n if t_opt is None else np.asarray(t_opt, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sd * math.sqrt(math.log(2 / alpha) / 2) * (np.sqrt(t) / n + 1 / np.sqrt(t))


class RunningMean:
    """A stream of per-deal values, fed in batches in the order they were played: their count,
    mean and standard deviation, and the values (the confidence sequence replays them)."""

    def __init__(self, cap: int | None = None, bounds=DIFFERENCE):
        self.cap = cap
        self.bounds = bounds
        self.values = np.zeros(0)

    def add(self, x) -> None:
        self.values = np.concatenate([self.values, np.asarray(x, float)])

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return float(self.values.mean()) if self.n else 0.0

    @property
    def sd(self) -> float:
        return float(self.values.std(ddof=1)) if self.n > 1 else math.inf

    def to_dict(self) -> dict:
        return {"n": self.n, "mean": self.mean, "sd": self.sd if self.n > 1 else None}


def confidence_sequence(running: RunningMean, alpha: float) -> tuple[float, float]:
    """The anytime-valid interval of the running mean now (:func:`anytime_interval`, tuned to the
    stream's cap)."""
    r = anytime_interval(running.values, alpha, running.cap, running.bounds)
    return r.low, r.high


def decide(low: float, high: float, margin: float) -> str | None:
    """What an interval for a difference settles: ``"positive"`` (above 0), ``"negative"``,
    ``"equivalent"`` (inside +-margin), or None (not yet)."""
    if low > 0:
        return "positive"
    if high < 0:
        return "negative"
    if -margin < low and high < margin:
        return "equivalent"
    return None


def paired_summary(best: np.ndarray, base: np.ndarray) -> dict:
    """Per-deal paired comparison of two float[tables, deals] results (the unit is the deal:
    its tables are averaged first). Mean difference, 95% interval (t), two-sided p-value."""
    from scipy import stats
    a, b = best.mean(axis=0), base.mean(axis=0)
    d = a - b
    n = len(d)
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    se = sd / math.sqrt(n) if n > 1 else float("nan")
    if sd == 0.0:
        p = 1.0 if mean == 0.0 else 0.0
        low = high = mean
    else:
        p = float(stats.ttest_1samp(d, 0.0).pvalue)
        q = float(stats.t.ppf(0.975, n - 1))
        low, high = mean - q * se, mean + q * se

    def ci(x):
        if n < 2 or x.std(ddof=1) == 0:
            return [float(x.mean()), float(x.mean())]
        h = float(stats.t.ppf(0.975, n - 1)) * float(x.std(ddof=1)) / math.sqrt(n)
        return [float(x.mean()) - h, float(x.mean()) + h]

    return {"deals": n, "best": float(a.mean()), "best_ci": ci(a), "defaults": float(b.mean()),
            "defaults_ci": ci(b), "difference": mean, "difference_ci": [low, high], "p_value": p}
