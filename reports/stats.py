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


# ----------------------------------------------------------------------------- paired means
class MeanTest(tuple):
    """(estimate, low, high, p_value, n) of a mean with a t interval."""

    __slots__ = ()

    def __new__(cls, estimate, low, high, p_value, n):
        return super().__new__(cls, (float(estimate), float(low), float(high), float(p_value), int(n)))

    estimate = property(lambda self: self[0])
    low = property(lambda self: self[1])
    high = property(lambda self: self[2])
    p_value = property(lambda self: self[3])
    n = property(lambda self: self[4])


def paired_mean(x, level: float = 0.95) -> MeanTest:
    """Mean of per-deal differences ``x`` with its t interval and two-sided p-value against 0
    (``scipy.stats.ttest_1samp``). Constant data give a zero-width interval (p = 1 at 0)."""
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
