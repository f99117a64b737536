"""The statistics of the reports, each a thin layer over scipy.stats (or openskill), vectorised.

The unit of independence is the *deal*: game *i* of seed *S* under the same rules. A plain run
plays each deal once; a duplicate tournament plays each deal in every seating of a matchup, so
the games of one deal are correlated (the same cards) and are never counted as independent.
Every interval and test below takes per-deal values (or per-deal sums) for that reason:

- :func:`wilson` is the Wilson score interval (scipy's ``binomtest(...).proportion_ci(method=
  "wilson")``, vectorised; the tests check it against scipy);
- :func:`clustered_proportion` is a proportion over seats whose deals may hold several of its
  seats: Wilson on the Kish effective sample size (the binomial variance over the deal-clustered
  variance). When every deal holds at most one of its seats it *is* the plain Wilson interval;
- :func:`paired_mean` is the one-sample t-test / t interval of per-deal differences
  (``scipy.stats.ttest_1samp``): the paired comparison;
- :func:`equal_means` is Hotelling's T-squared test that several per-deal means are equal (all
  seats equal), with scipy's F distribution;
- :func:`block_bootstrap` is ``scipy.stats.bootstrap`` (percentile) over blocks of deals, for
  statistics that are not means (the balance figure, and its paired difference between rule
  variants);
- :func:`confidence_sequence` is the asymptotic confidence sequence (an anytime-valid interval)
  of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas, "Time-uniform central limit theory and
  asymptotic confidence sequences" (2021), used by ``--until-decided``;
- :func:`holm` is Holm's step-down adjustment of several p-values (family-wise 5%).
"""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)


# ----------------------------------------------------------------------------- proportions
def wilson(wins, n, level: float = 0.95):
    """Wilson score interval of ``wins`` successes in ``n`` trials (arrays allowed, ``n`` may be
    a real effective sample size). Equal to scipy's ``binomtest(k, n).proportion_ci(level,
    method="wilson")`` for integers. ``n == 0`` gives ``(nan, nan)``."""
    wins = np.asarray(wins, float)
    n = np.asarray(n, float)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = wins / n
        denom = 1 + z * z / n
        center = (p + z * z / (2 * n)) / denom
        half = z / denom * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low, high = np.clip(center - half, 0, 1), np.clip(center + half, 0, 1)
    return low, high


def wilson_scipy(wins: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The same interval straight from scipy (used for single counts and in the tests)."""
    from scipy import stats
    ci = stats.binomtest(int(wins), int(n)).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)


def clustered_proportion(y, m, level: float = 0.95):
    """Proportion ``sum(y) / sum(m)`` of successes ``y`` out of ``m`` trials per deal (1-D arrays
    over deals, or 2-D [deal, group] for several proportions at once).

    Returns ``(p, low, high, n, n_eff)``: the interval is Wilson's on the effective sample size
    ``n_eff = p(1-p) / var``, where ``var`` is the deal-clustered (linearisation) variance of the
    ratio, ``sum((y - p m)^2) / sum(m)^2``. Games on independent deals give ``n_eff == n`` (so
    the plain Wilson interval); several seats of one deal moving together (duplicate deals, or a
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
    """Distinct values of ``x`` and their counts, the two bounds added with count 0: the support
    of the multinomial model the score test works in."""
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
    eta_min, eta_max = -n / (hi - m[:, 0]), n / (m[:, 0] - lo)
    a, b = eta_min.copy(), eta_max.copy()
    for _ in range(80):  # g(eta) = sum c d / (n + eta d) decreases in eta: bisection
        mid = (a + b) / 2
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.nansum(c * d / (n + mid[:, None] * d), axis=1)
        up = g > 0
        a, b = np.where(up, mid, a), np.where(up, b, mid)
    eta = (a + b) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(c > 0, c / np.maximum(n + eta[:, None] * d, 1e-300), 0.0)
    p = np.minimum(p, 1.0)
    left = np.clip(1 - p.sum(axis=1), 0, 1)  # the far bound's mass (0 at an interior root)
    far = np.where(eta >= 0, lo, hi) - m[:, 0]
    return (p * d * d).sum(axis=1) + left * far * far


def _score(v, c, mean, m, bounds):
    n = c.sum()
    var = _null_variance(v, c, m, bounds)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(var > 0, n * (mean - m) ** 2 / var, np.where(np.isclose(mean, m), 0.0, np.inf))


def _score_bound(v, c, mean, bounds, z2, side):
    """The end of ``{m : score(m) <= z2}`` on one side of the mean, by refining grids."""
    lo, hi = bounds
    edge = lo if side < 0 else hi
    if abs(mean - edge) < 1e-12:
        return edge
    inner, outer = mean, edge  # the bound lies between them
    for _ in range(4):
        grid = np.linspace(inner, outer, 65)[1:]
        grid = np.clip(grid, lo + 1e-12, hi - 1e-12)
        out = _score(v, c, mean, grid, bounds) > z2
        if not out.any():
            return edge if outer == edge else outer
        k = int(np.argmax(out))
        inner, outer = (grid[k - 1] if k else inner), grid[k]
    return float(inner)


def mean_interval(x, level: float = 0.95, bounds=DIFFERENCE) -> MeanTest:
    """Mean of per-deal values ``x`` that lie in ``bounds`` (a win in [0, 1], a difference of two
    win rates in [-1, 1]) with its score interval and the score test's two-sided p-value against 0.

    The interval inverts Rao's score test of the mean in the multinomial model on the values seen
    plus the two bounds: ``n (mean - m)^2 <= z^2 V(m)``, ``V(m)`` the variance of the restricted
    maximum-likelihood distribution whose mean is m. On 0/1 data it is Wilson's interval (1927), on
    -1/0/+1 differences Tango's (1998) for paired proportions. It never has zero width: 300 deals
    that are all +1 give [+0.975, +1], where the exact one-sided bound is 0.9755, and its coverage
    is measured in ``scripts/bench_coverage.py`` (``docs/analysis.md``)."""
    x = np.asarray(x, float)
    n = len(x)
    if n == 0:
        return MeanTest(math.nan, math.nan, math.nan, math.nan, 0)
    v, c = _atoms(x, bounds)
    mean = float(x.mean())
    z2 = NormalDist().inv_cdf(0.5 + level / 2) ** 2
    low = _score_bound(v, c, mean, bounds, z2, -1)
    high = _score_bound(v, c, mean, bounds, z2, +1)
    lo, hi = bounds
    p = math.nan
    if lo < 0 < hi:
        s = float(_score(v, c, mean, np.array([0.0]), bounds)[0])
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


# ----------------------------------------------------------------------------- power, equivalence
class Settling(tuple):
    """(differ, equivalent, either): the further deals that would, at 80% power, show the effect
    differs from 0, show it lies inside +-margin, and the smaller of the two (``math.inf``: that
    way cannot succeed at any number of deals, e.g. an effect as large as the margin)."""

    __slots__ = ()

    def __new__(cls, differ, equivalent):
        return super().__new__(cls, (differ, equivalent, min(differ, equivalent)))

    differ = property(lambda self: self[0])
    equivalent = property(lambda self: self[1])
    either = property(lambda self: self[2])


def deals_to_settle(estimate: float, sd: float, deals: int, alpha: float, margin: float,
                    power: float = 0.8) -> Settling:
    """How many more deals would settle a question either way, at ``power`` (80%).

    - ``estimate``: the observed mean of the per-deal values (e.g. a win-rate difference);
    - ``sd``: their standard deviation per deal (``x.std(ddof=1)``);
    - ``deals``: the deals already played (the answer counts deals to *add*);
    - ``alpha``: the level each test of the question is run at, i.e. the family's per-question
      level (Bonferroni's ``alpha / m``, which Holm never needs to exceed), two-sided for the
      difference, one-sided for each of the two tests of equivalence;
    - ``margin``: the equivalence margin (+-margin, in the units of ``estimate``).

    The effect is taken conservatively. The observed size ``|estimate|`` is biased upwards (it
    is at least the true size on average, and more so for questions picked because they are
    unsettled), so for showing a difference it is taken one standard error closer to 0,
    ``|estimate| - sd / sqrt(deals)``; for showing equivalence that upward bias is already the
    conservative side and ``|estimate|`` is used. The normal-approximation sample sizes:

    - differs from 0 (two-sided at alpha):
      ``N = ((z[1 - alpha/2] + z[power]) * sd / effect)^2``;
    - inside +-margin (two one-sided tests at alpha, Lakens 2018):
      ``N = ((z[1 - alpha] + z[power]) * sd / (margin - |effect|))^2`` (for an effect of 0 the
      power is split over the two tests, ``z[1 - (1 - power)/2]``).

    Returns a :class:`Settling` of deals to add (0 when already enough), ``math.inf`` when a way
    cannot succeed.
    """
    if deals < 1 or not (math.isfinite(estimate) and math.isfinite(sd)) or sd <= 0:
        return Settling(math.inf, math.inf)
    nd = NormalDist()
    se = sd / math.sqrt(deals)
    z_power = nd.inv_cdf(power)
    differ_effect = abs(estimate) - se
    if differ_effect > 0:
        differ = ((nd.inv_cdf(1 - alpha / 2) + z_power) * sd / differ_effect) ** 2
    else:
        differ = math.inf
    equiv_effect = abs(estimate)
    if equiv_effect < margin:
        z_eq = nd.inv_cdf(1 - (1 - power) / 2) if equiv_effect == 0 else z_power
        equiv = ((nd.inv_cdf(1 - alpha) + z_eq) * sd / (margin - equiv_effect)) ** 2
    else:
        equiv = math.inf

    def more(n):
        return n if math.isinf(n) else max(0, math.ceil(n - deals))

    return Settling(more(differ), more(equiv))


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


# ----------------------------------------------------------------------------- bootstrap
BLOCKS = 500
RESAMPLES = 2000


def block_sums(deal_key, values, blocks: int = BLOCKS) -> np.ndarray:
    """Sum ``values`` (deals x k) into ``blocks`` blocks of deals by ``deal_key`` (the deal's
    game index and seed, so the same deal falls in the same block in every rule variant).
    Blocks of independent deals are independent, so resampling blocks is resampling deals."""
    values = np.asarray(values, float)
    b = int(min(blocks, len(deal_key))) or 1
    block = (np.asarray(deal_key, np.int64) % b).astype(np.int64)
    out = np.zeros((b, values.shape[1]))
    for j in range(values.shape[1]):
        out[:, j] = np.bincount(block, weights=values[:, j], minlength=b)
    return out


def block_bootstrap(statistic, samples, level: float = 0.95, seed: int = 0):
    """Percentile bootstrap interval of ``statistic(*samples)`` over blocks (the rows of each
    sample), resampling the same rows of every sample (paired); ``scipy.stats.bootstrap``.
    ``statistic`` receives arrays shaped (k, ..., blocks): it reduces the last axis (the blocks)
    and then the first (the k columns), keeping the middle ones (scipy's resamples)."""
    samples = [np.asarray(s, float).T for s in samples]  # k x blocks
    if samples[0].shape[-1] < 2:
        return math.nan, math.nan
    from scipy import stats
    res = stats.bootstrap(samples, statistic, paired=True, vectorized=True, axis=-1,
                          n_resamples=RESAMPLES, confidence_level=level, method="percentile",
                          random_state=np.random.default_rng(seed), batch=200)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


# ----------------------------------------------------------------------------- sequential
CS_T_OPT = 5000  # the number of deals at which the confidence sequence is tightest


def cs_radius(n, sd, alpha: float, t_opt: int = CS_T_OPT):
    """Half-width of the two-sided (1 - alpha) asymptotic confidence sequence of a mean after
    ``n`` observations with standard deviation ``sd`` (Waudby-Smith et al. 2021, the conjugate
    normal-mixture boundary, eq. for the two-sided AsympCS; ``alpha / 2`` in the boundary, the
    conservative choice, and rho tuned for ``t_opt`` observations). Valid uniformly over time:
    the chance that the true mean *ever* leaves the sequence is at most alpha (asymptotically)."""
    n = np.asarray(n, float)
    a = alpha / 2
    rho2 = (2 * math.log(1 / a) + math.log(1 + 2 * math.log(1 / a))) / t_opt
    with np.errstate(invalid="ignore", divide="ignore"):
        return sd * np.sqrt(2 * (n * rho2 + 1) / (n * n * rho2) * np.log(np.sqrt(n * rho2 + 1) / a))


class RunningMean:
    """Count, mean and variance of a stream of per-deal values, fed in batches (Chan et al.)."""

    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, x) -> None:
        x = np.asarray(x, float)
        if len(x) == 0:
            return
        nb, mb = len(x), float(x.mean())
        m2b = float(((x - mb) ** 2).sum())
        n = self.n + nb
        delta = mb - self.mean
        self.mean += delta * nb / n
        self.m2 += m2b + delta * delta * self.n * nb / n
        self.n = n

    @property
    def sd(self) -> float:
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else math.inf

    def to_dict(self) -> dict:
        return {"n": self.n, "mean": self.mean, "m2": self.m2}


def confidence_sequence(running: RunningMean, alpha: float) -> tuple[float, float]:
    """The anytime-valid interval of the running mean now."""
    if running.n < 2:
        return -math.inf, math.inf
    r = float(cs_radius(running.n, running.sd, alpha))
    return running.mean - r, running.mean + r


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
