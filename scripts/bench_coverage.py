"""How often each of the reports' 95% intervals holds the truth, measured by simulation.

Every interval family the reports and studies print, on per-deal outcomes drawn with a known
truth (Bernoulli and multinomial outcomes are enough: the intervals only see per-deal values):

- seat win rates (deal-clustered Wilson), at 1/3, 1/2 and near 0;
- paired win-rate differences (the score interval), with win rates near 1 (0.98, 0.99, 1.0) and
  near 0, and in the middle; the t interval it replaced, for contrast;
- the balance figure near and at a tie (simultaneous pairwise intervals);
- the balance figure a rule option gains, paired on the same deals: near a tie under both rule
  sets, an option that fixes a gap (two teams, with draws), one that changes nothing, a 4-seat
  game; the unpaired interval it replaced, for contrast (``--family gain`` runs these alone);
- sequential questions (the betting confidence sequence tuned to the cap) under the study's look
  schedule at caps 60 / 300 / 1,200, stopped once decided; the asymptotic sequence it replaced,
  for contrast;
- with ``--real``: the balance figure on real Compañeros 3-player random play, in disjoint
  replicates of a big run whose pooled figure stands in for the truth.

    python scripts/bench_coverage.py --real          # a Markdown table
    python scripts/bench_coverage.py --reps 100      # a quick look
    python scripts/bench_coverage.py --family gain   # the balance gained alone
    python scripts/bench_coverage.py --exact         # exact coverage, no simulation (below)

``--reps`` (default 1,000) is the replicates of the slowest families (the balance figure, the
real data); paired differences and sequential questions get twice as many, seat win rates (one
vectorised call) twenty times as many, plus their exact coverage (a binomial sum).

A valid method covers at 95% or more (within the binomial noise of the replicates, about
0.7 points at 1,000); the table gives the width too, the price of over-covering.

``--exact`` measures coverage with no simulation at all, as sums over every outcome, for the
reports' intervals and the plain ones they replaced (``correction=0, edge=False``):

- a proportion (a seat win rate on independent deals; two teams without draws): the *infimum*
  over every p in (0, 1) of the coverage at every n from 30 to 2,000 (a binomial sum; the
  coverage is smooth and unimodal between the ends of the intervals, so its infimum is one of
  the one-sided limits at an end, all of which are evaluated);
- a paired difference (-1/0/+1 per deal: Tango's interval; two teams with draws): the minimum
  over a grid of (p_win, p_loss), :func:`trinomial_grid`, refined beside every interval end near
  its lowest points (:func:`trinomial_lowest`), at 100 deal counts from 30 to 2,000 (a trinomial
  sum, every outcome's interval computed by :func:`tango_table`, which is checked against
  ``stats.mean_interval`` first);
- the balance figure of 2, 3 and 4 units: the minimum over a grid of win chances (one winner per
  deal), summed over every multinomial outcome.

``--nmax`` lowers the largest deal count (a quick look: ``--nmax 300``).
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path
from statistics import NormalDist

import numpy as np

from tourney_sim.simulate.stats import intervals as stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/support
from tests.support import synthetic as sy  # noqa: E402

# the study budgets' sequential tournaments: (cap, first batch), simulate/study.py's BUDGETS
SCHEDULES = [(60, 20), (300, 50), (1200, 100)]


def old_asymptotic_cs(x, alpha: float, looks, margin: float = 0.02, t_opt: int = 5000):
    """The replaced interval, for contrast: the asymptotic confidence sequence with the sample SD
    plugged in, tuned to 5,000 deals. Returns (missed the truth at the stop, deals at the stop)."""
    a = alpha / 2
    rho2 = (2 * math.log(1 / a) + math.log(1 + 2 * math.log(1 / a))) / t_opt
    reps = x.shape[0]
    stopped = np.full(reps, -1)
    for k, n in enumerate(looks):
        mean = x[:, :n].mean(axis=1)
        sd = x[:, :n].std(axis=1, ddof=1)
        r = sd * np.sqrt(2 * (n * rho2 + 1) / (n * n * rho2) * np.log(np.sqrt(n * rho2 + 1) / a))
        low, high = mean - r, mean + r
        decided = (low > 0) | (high < 0) | ((low > -margin) & (high < margin))
        stopped[(stopped < 0) & decided] = k
    stopped[stopped < 0] = len(looks) - 1
    return stopped


def old_sequential_coverage(p_win, p_loss, cap, first_batch, reps, rng, alpha=0.05) -> sy.Coverage:
    x = sy.paired_outcomes(p_win, p_loss, cap, reps, rng)
    truth = p_win - p_loss
    looks = sy.look_schedule(cap, first_batch)
    a = alpha / 2
    rho2 = (2 * math.log(1 / a) + math.log(1 + 2 * math.log(1 / a))) / 5000
    stop = old_asymptotic_cs(x, alpha, looks)
    at = np.array(looks)[stop]
    covered, widths = 0, []
    for i in range(reps):
        n = at[i]
        mean, sd = x[i, :n].mean(), x[i, :n].std(ddof=1)
        r = sd * math.sqrt(2 * (n * rho2 + 1) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1) / a))
        covered += mean - r <= truth <= mean + r
        widths.append(2 * r)
    return sy.Coverage("sequential", f"+1 {p_win:g}, -1 {p_loss:g} (mean {truth:+.3g}), alpha {alpha:g} "
                       "[old asymptotic CS]", cap, reps, covered / reps, float(np.mean(widths)),
                       f"stopped at {at.mean():.0f} deals on average")


def simulated(reps: int, seed: int) -> list[sy.Coverage]:
    rng = np.random.default_rng(seed)
    out = []
    for probs in ([1, 1, 1], [1, 1], [0.02, 0.49, 0.49]):
        for deals in (60, 300, 1200):
            out.append(sy.seat_rate_coverage(probs, deals, 20 * reps, rng))  # vectorised: cheap
    for p_win, p_loss in ((0.98, 0.0), (0.99, 0.0), (1.0, 0.0), (0.99, 0.01), (0.02, 0.0), (0.3, 0.25)):
        for deals in (60, 300, 1200):
            out.append(sy.paired_coverage(p_win, p_loss, deals, 2 * reps, rng))
    out.append(sy.paired_coverage(0.99, 0.0, 300, 2 * reps, rng, method="t"))
    out.append(sy.paired_coverage(0.98, 0.0, 60, 2 * reps, rng, method="t"))
    for probs, deals in (([1, 1, 1], 300), ([1, 1, 1], 2000), ([1, 1], 1200), ([1, 1, 1, 1], 300),
                         ([0.34, 0.33, 0.33], 2000), ([0.505, 0.495], 5000)):
        out.append(sy.balance_coverage(probs, deals, reps, rng))
    out += gain_family(reps, rng)
    for cap, first in SCHEDULES:
        for p_win, p_loss in ((0.98, 0.0), (0.99, 0.0), (1.0, 0.0), (0.55, 0.45), (0.3, 0.3)):
            out.append(sy.sequential_coverage(p_win, p_loss, cap, first, 2 * reps, rng))
        out.append(sy.sequential_coverage(0.55, 0.45, cap, first, 2 * reps, rng, alpha=0.005))
    for cap, first in SCHEDULES:
        out.append(old_sequential_coverage(0.99, 0.0, cap, first, 2 * reps, rng))
    return out


#: the balance gained: (what, default's chances, option's, chance a deal plays out the same, draws
#: under each, deal counts); each unit's chance of winning alone, normalised
GAIN_SCENARIOS = [
    ("a tie under both", [1, 1, 1], [1, 1, 1], 0.8, (0.0, 0.0), (50, 500)),
    ("near a tie under both", [0.34, 0.33, 0.33], [0.33, 0.34, 0.33], 0.8, (0.0, 0.0), (500,)),
    ("fixes a gap, 2 teams", [0.28, 0.72], [0.5, 0.5], 0.3, (0.04, 0.03), (50, 500, 2000)),
    ("changes nothing", [0.4, 0.3, 0.3], [0.4, 0.3, 0.3], 1.0, (0.0, 0.0), (500,)),
    ("4 seats, narrows a gap", [0.3, 0.25, 0.25, 0.2], [0.26, 0.25, 0.25, 0.24], 0.7, (0.0, 0.0), (500,)),
    ("widens a gap, 2 teams", [0.5, 0.5], [0.45, 0.55], 0.6, (0.05, 0.05), (500,)),
]


def gain_family(reps: int, rng, show=None) -> list[sy.Coverage]:
    """Every scenario of the balance gained (``show``: called with each row as it is done)."""
    rows = []
    for what, pd, po, same, shared, counts in GAIN_SCENARIOS:
        for deals in counts:
            rows.append(sy.gain_coverage(pd, po, same, deals, reps, rng, shared=shared, what=what))
            if show:
                show(rows[-1])
    return rows


def real_balance(reps: int, deals: int = 1000, seed: int = 11) -> sy.Coverage:
    """Compañeros, 3 players, everyone random: ``reps`` disjoint blocks of ``deals`` deals of one
    run; the pooled balance figure stands in for the truth."""
    from tourney_sim import api
    from tourney_sim.simulate.stats import analysis, load
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        api.run("companeros", ["random"], players=3, games=reps * deals, seed=seed, out=out, workers=1,
                progress=False)
        (cfg,) = load.load([out])
        names, wd, gd = analysis.unit_deal_rates(cfg)
    rates = wd / gd[:, None]
    p = rates.mean(axis=0)
    truth = 1 - (p.max() - p.min())
    covered, widths = 0, []
    for r in range(reps):
        block = rates[r * deals:(r + 1) * deals]
        low, high = stats.balance_interval(block)
        covered += low <= truth <= high
        widths.append(high - low)
    return sy.Coverage("balance figure", f"real: Compañeros 3 players, random (pooled balance {truth:.4f})",
                       deals, reps, covered / reps, float(np.mean(widths)))


def table(rows: list[sy.Coverage]) -> str:
    head = ["family", "truth", "deals (cap)", "replicates", "covered", "mean width", "note"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r.row()) + " |" for r in rows]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- exact coverage
def binomial_infimum(low, high, n: int) -> tuple[float, float]:
    """The infimum over p in (0, 1) of the coverage of the intervals ``[low[k], high[k]]`` (k
    successes of n, both ends nondecreasing in k), and a p where it is approached.

    Between two consecutive interval ends the set of k covering p is a fixed run a..b and
    ``P(a <= K <= b)`` has derivative ``n (pmf(a-1; n-1, p) - pmf(b; n-1, p))``, positive then
    negative: the coverage is unimodal there, so its infimum is a one-sided limit at an end.
    Each end e is evaluated at ``e (1 -+ 1e-9)``, just outside it on either side."""
    from scipy.stats import binom

    assert (np.diff(low) >= -1e-12).all() and (np.diff(high) >= -1e-12).all(), "ends not monotone in k"
    ends = np.unique(np.r_[low, high])
    ends = ends[(ends > 0) & (ends < 1)]
    p = np.r_[ends * (1 - 1e-9), ends * (1 + 1e-9), 1e-12, 1 - 1e-12]
    p = p[(p > 0) & (p < 1)]
    first = np.searchsorted(high, p, side="left")  # the first k whose interval reaches up to p
    last = np.searchsorted(low, p, side="right") - 1  # the last k whose interval starts below p
    cov = np.where(last >= first, binom.cdf(last, n, p) - binom.cdf(first - 1, n, p), 0.0)
    i = int(np.argmin(cov))
    return float(cov[i]), float(p[i])


def binomial_coverage(low, high, n: int, p) -> np.ndarray:
    """The exact coverage at each p (array) of the intervals ``[low[k], high[k]]``, k = 0..n."""
    from scipy.stats import binom
    p = np.asarray(p, float)
    k = np.arange(n + 1)
    inside = (low[None, :] <= p[:, None]) & (p[:, None] <= high[None, :])
    return (binom.pmf(k[None, :], n, p[:, None]) * inside).sum(axis=1)


def tango_table(n: int, level: float = 0.95, correction: float = stats.CONTINUITY, edge: bool = True,
                steps: int = 48) -> tuple[np.ndarray, np.ndarray]:
    """``stats.mean_interval`` of every outcome of n deals valued -1/0/+1 on [-1, 1], vectorised:
    [w, l] arrays of the low and high ends (w deals at +1, l at -1, the rest 0; NaN where
    w + l > n). Tango's (1998) closed-form restricted maximum-likelihood estimate under "the mean
    is d" gives the score test's variance ``2 p_loss + d (1 - d)``; each end is found by bisection
    (``steps`` halvings), then the continuity correction and ``stats.edge_bound`` as in
    ``mean_interval``. :func:`check_tango` compares it with ``mean_interval``."""
    z2 = NormalDist().inv_cdf(0.5 + level / 2) ** 2
    grid_w, grid_l = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    ok = grid_w + grid_l <= n
    w, l = grid_w[ok].astype(float), grid_l[ok].astype(float)
    mean = (w - l) / n

    def accepted(d):
        b = -w - l + (2 * n - w + l) * d
        q = (-b + np.sqrt(np.maximum(b * b + 8 * n * l * d * (1 - d), 0))) / (4 * n)  # p_loss under d
        var = 2 * q + d * (1 - d)
        dev = np.maximum(np.abs(n * (mean - d)) - 2 * correction, 0)  # the range is 2
        return dev * dev <= z2 * n * var

    lo_out, lo_in = np.full_like(mean, -1.0), mean.copy()  # rejected (or -1), accepted
    hi_in, hi_out = mean.copy(), np.ones_like(mean)
    for _ in range(steps):
        mid = (lo_out + lo_in) / 2
        a = accepted(mid)
        lo_out, lo_in = np.where(a, lo_out, mid), np.where(a, mid, lo_in)
        mid = (hi_in + hi_out) / 2
        a = accepted(mid)
        hi_in, hi_out = np.where(a, mid, hi_in), np.where(a, hi_out, mid)
    low = np.where(accepted(np.full_like(mean, -1 + 1e-12)), -1.0, lo_out)
    high = np.where(accepted(np.full_like(mean, 1 - 1e-12)), 1.0, hi_out)
    if edge:
        t = n - w - l
        alpha = 1 - level
        # NaN (more than stats.EDGE_DEALS deals away from that end): not taken
        high = np.fmax(high, 1 - 2 * stats.edge_bound(n, n - w, t / 2 + l, alpha))  # deals below +1
        low = np.fmin(low, -1 + 2 * stats.edge_bound(n, n - l, t / 2 + w, alpha))  # deals above -1
    low, high = np.minimum(low, mean), np.maximum(high, mean)
    out_low, out_high = np.full((n + 1, n + 1), np.nan), np.full((n + 1, n + 1), np.nan)
    out_low[grid_w[ok], grid_l[ok]], out_high[grid_w[ok], grid_l[ok]] = low, high
    return out_low, out_high


def check_tango(n: int, outcomes: int | None = None, level: float = 0.95, seed: int = 0, **kw) -> float:
    """The largest difference between :func:`tango_table` and ``stats.mean_interval`` over every
    outcome of n deals (or ``outcomes`` of them drawn at random, near the edges half the time)."""
    low, high = tango_table(n, level, **kw)
    pairs = [(w, l) for w in range(n + 1) for l in range(n + 1 - w)]
    if outcomes is not None:
        rng = np.random.default_rng(seed)
        picks = []
        for _ in range(outcomes):
            w, l = pairs[rng.integers(len(pairs))]
            if rng.random() < 0.5:  # near an edge: few deals off +1 (or off -1)
                l, w = (int(rng.integers(0, 3)), n - int(rng.integers(0, 6)))
                w = max(0, min(w, n - l))
                if rng.random() < 0.5:
                    w, l = l, w
            picks.append((w, l))
        pairs = picks
    worst = 0.0
    for w, l in pairs:
        x = np.r_[np.ones(w), -np.ones(l), np.zeros(n - w - l)]
        t = stats.mean_interval(x, level, stats.DIFFERENCE, **kw)
        gap = max(abs(t.low - low[w, l]), abs(t.high - high[w, l]))
        worst = max(worst, gap if math.isfinite(gap) else math.inf)
    return worst


def trinomial_coverage(n: int, low, high, p_win, p_loss, tail: float = 1e-13) -> np.ndarray:
    """The exact coverage of the [w, l] tables of ends (:func:`tango_table`) at each (p_win,
    p_loss): a sum over the losses l (binomial, those outside a ``tail`` of 1e-13 on either side
    left out) of the chance that the wins, binomial given l, fall in the run of w whose interval
    holds ``p_win - p_loss`` (the ends are nondecreasing in w)."""
    from scipy.stats import binom
    p_win, p_loss = np.asarray(p_win, float), np.asarray(p_loss, float)
    truth = p_win - p_loss
    out = np.zeros(len(p_win))
    for q in np.unique(p_loss):
        sel = p_loss == q
        given = np.where(q < 1, p_win[sel] / (1 - q), 0.0)
        if q == 0:
            ls = [0]
        else:
            ls = range(int(max(binom.ppf(tail, n, q) - 1, 0)), int(min(binom.isf(tail, n, q) + 1, n)) + 1)
        total = np.zeros(sel.sum())
        for l in ls:
            rest = n - l
            first = np.searchsorted(high[:rest + 1, l], truth[sel] - 1e-12, side="left")
            last = np.searchsorted(low[:rest + 1, l], truth[sel] + 1e-12, side="right") - 1
            inner = binom.cdf(last, rest, given) - binom.cdf(first - 1, rest, given)
            total += binom.pmf(l, n, q) * np.where(last >= first, inner, 0.0)
        out[sel] = total
    return out


def trinomial_lowest(n: int, low, high, p_win, p_loss, worst: int = 10, window: float = 0.003):
    """The coverage on the grid (:func:`trinomial_coverage`), and its lowest point after a
    refinement: around each of the ``worst`` lowest grid points, the coverage just beside (1e-9)
    every interval end within ``window`` of its truth on the same p_loss, where the coverage jumps
    down. Returns (coverage on the grid, (lowest, p_win, p_loss))."""
    cov = trinomial_coverage(n, low, high, p_win, p_loss)
    ends = np.unique(np.r_[low[np.isfinite(low)], high[np.isfinite(high)]])
    pw, pl = [np.zeros(0)], [np.zeros(0)]
    for i in np.argsort(cov)[:worst]:
        near = ends[np.abs(ends - (p_win[i] - p_loss[i])) <= window]
        w = np.r_[near - 1e-9, near + 1e-9] + p_loss[i]
        w = w[(w >= 0) & (w <= 1 - p_loss[i])]
        pw.append(w)
        pl.append(np.full(len(w), p_loss[i]))
    pw, pl = np.concatenate([p_win] + pw), np.concatenate([p_loss] + pl)
    every = np.r_[cov, trinomial_coverage(n, low, high, pw[len(cov):], pl[len(cov):])]
    i = int(np.argmin(every))
    return cov, (float(every[i]), float(pw[i]), float(pl[i]))


def trinomial_grid() -> tuple[np.ndarray, np.ndarray]:
    """(p_win, p_loss) points: p_loss in 0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1,
    0.2, 0.3, 0.4, 0.5 and, for each, p_win = (1 - p_loss) u for u on a step of 0.001 from 0 to 1
    plus 1e-4, 2e-4, 5e-4, 0.001, 0.002, 0.003, 0.005, 0.007, 0.01, 0.015, 0.02 from either end
    (u = 1: no ties, the binomial case). By symmetry (swap the players) this covers p_loss >
    p_win too."""
    near = np.array([1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 3e-3, 5e-3, 7e-3, 0.01, 0.015, 0.02])
    u = np.unique(np.r_[np.linspace(0, 1, 1001), near, 1 - near])
    losses = (0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
    return np.concatenate([(1 - q) * u for q in losses]), np.repeat(losses, len(u)).astype(float)


def compositions(n: int, parts: int) -> np.ndarray:
    """Every way of splitting n deals among ``parts`` units: [outcomes, parts] counts."""
    if parts == 1:
        return np.array([[n]])
    rows = [np.c_[np.full(len(rest), k), rest] for k in range(n + 1) for rest in [compositions(n - k, parts - 1)]]
    return np.concatenate(rows)


def balance_exact(n: int, chances, tables: dict, counts: np.ndarray) -> np.ndarray:
    """The exact coverage of ``stats.balance_interval`` for units that each win a deal alone with
    ``chances`` ([points, units]): every multinomial outcome ``counts`` [outcomes, units]; each
    pair's difference is -1/0/+1 per deal, so its interval is ``tables[...]`` (Tango's at the
    Bonferroni level) at (wins of the first, wins of the second)."""
    from scipy.stats import multinomial
    u = counts.shape[1]
    low_gap, high_gap = np.zeros(len(counts)), np.zeros(len(counts))
    low, high = tables
    for i in range(u):
        for j in range(i + 1, u):
            lo, hi = low[counts[:, i], counts[:, j]], high[counts[:, i], counts[:, j]]
            low_gap = np.maximum(low_gap, np.where((lo <= 0) & (0 <= hi), 0.0, np.minimum(abs(lo), abs(hi))))
            high_gap = np.maximum(high_gap, np.maximum(abs(lo), abs(hi)))
    out = []
    for p in np.atleast_2d(chances):
        truth = 1 - (p.max() - p.min())
        inside = (1 - high_gap <= truth + 1e-12) & (truth - 1e-12 <= 1 - low_gap)
        out.append(float(multinomial.pmf(counts, n, p) @ inside))
    return np.array(out)


def balance_points(units: int, step: float) -> np.ndarray:
    """Win chances of ``units`` units on a lattice of ``step`` (sorted, largest first: the
    coverage does not depend on the order), plus points near the edges of the simplex."""
    k = int(round(1 / step))
    pts = [c[::-1] for c in compositions(k, units) if (np.diff(c[::-1]) <= 0).all()]
    pts = np.array(pts, float) / k
    edges = []
    for top in (0.9, 0.95, 0.98, 0.99, 0.995, 0.999):
        rest = 1 - top
        for split in ((1.0,) if units == 2 else (0.5, 0.8, 1.0)):
            p = np.zeros(units)
            p[0], p[1] = top, rest * split
            if units > 2:
                p[2:] = rest * (1 - split) / (units - 2)
            edges.append(p)
    for low in (0.001, 0.005, 0.01, 0.02):  # one unit nearly never wins, the others even
        edges.append(np.r_[np.full(units - 1, (1 - low) / (units - 1)), low])
    return np.concatenate([pts, np.array(edges)])


EXACT_NS = list(range(30, 101)) + list(range(110, 301, 10)) + [400, 500, 600, 700, 800, 900, 1000, 1500, 2000]
BANDS = [(30, 49), (50, 99), (100, 299), (300, 999), (1000, 2000)]


def exact(nmax: int = 2000, show=print) -> dict:
    """Every exact measurement above; prints Markdown tables (``show``) and returns the minima."""
    from scipy.stats import binom
    results = {}
    # --- proportions: infimum over every p, every n
    show("### A proportion (Wilson's interval): exact infimum over every p in (0, 1)\n")
    show("| deals | plain Wilson: lowest (at) | reports' interval: lowest (at) | mean over p | width at p = 0.5 |")
    show("|---|---|---|---|---|")
    p_mid = np.linspace(0.001, 0.999, 999)
    for a, b in BANDS:
        if a > nmax:
            break
        rows = {"old": [], "new": []}
        means, widths = [], []
        for n in range(a, min(b, nmax) + 1):
            k = np.arange(n + 1)
            for key, kw in (("old", dict(correction=0, edge=False)), ("new", {})):
                low, high = stats.wilson(k, n, **kw)
                rows[key].append(binomial_infimum(low, high, n) + (n,))
            if n in (a, 60, 300, 1200) or n == min(b, nmax):
                low, high = stats.wilson(k, n)
                means.append(binomial_coverage(low, high, n, p_mid).mean())
                plain = stats.wilson(k, n, correction=0, edge=False)
                pmf = binom.pmf(k, n, 0.5)
                widths.append(pmf @ (high - low) / (pmf @ (plain[1] - plain[0])) - 1)
        old, new = min(rows["old"]), min(rows["new"])
        results[("proportion", a)] = (old[0], new[0])
        show(f"| {a:,}-{min(b, nmax):,} | {100 * old[0]:.2f}% (n {old[2]}, p {old[1]:.4g}) | "
             f"{100 * new[0]:.2f}% (n {new[2]}, p {new[1]:.4g}) | {100 * min(means):.1f}-{100 * max(means):.1f}% | "
             f"+{100 * min(widths):.1f} to +{100 * max(widths):.1f}% |")
    # --- paired differences: a grid of (p_win, p_loss), every outcome
    worst = check_tango(30)
    worst = max(worst, check_tango(min(300, nmax), outcomes=200), check_tango(60, correction=0, edge=False))
    assert worst < 1e-5, f"tango_table differs from stats.mean_interval by {worst:g}"
    show(f"\n### A paired difference (-1/0/+1 per deal, Tango's interval): exact, minimum over "
         f"{len(trinomial_grid()[0]):,} (p_win, p_loss)\n")
    show(f"(the vectorised interval agrees with `stats.mean_interval` to {worst:.1e})\n")
    show("| deals | plain Tango: lowest (at p_win, p_loss) | reports' interval: lowest (at) | "
         "median over the grid | width at +1 0.3, -1 0.25 |")
    show("|---|---|---|---|---|")
    pw, pl = trinomial_grid()
    from scipy.stats import multinomial
    for a, b in BANDS:
        ns = [n for n in EXACT_NS if a <= n <= min(b, nmax)]
        if not ns:
            break
        worst = {"old": (2.0,), "new": (2.0,)}
        medians, widths = [], []
        for n in ns:
            ends = {}
            for key, kw in (("old", dict(correction=0, edge=False)), ("new", {})):
                low, high = ends[key] = tango_table(n, **kw)
                cov, (lowest, at_win, at_loss) = trinomial_lowest(n, low, high, pw, pl)
                worst[key] = min(worst[key], (lowest, n, at_win, at_loss))
                if key == "new" and n in (ns[0], 60, 300, 1000, ns[-1]):
                    medians.append(float(np.median(cov)))
                    gw, gl = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
                    ok = gw + gl <= n
                    pmf = multinomial.pmf(np.c_[gw[ok], gl[ok], n - gw[ok] - gl[ok]], n, [0.3, 0.25, 0.45])
                    old_low, old_high = ends["old"]
                    widths.append(pmf @ (high - low)[ok] / (pmf @ (old_high - old_low)[ok]) - 1)
        results[("paired", a)] = (worst["old"][0], worst["new"][0])
        o, w = worst["old"], worst["new"]
        show(f"| {ns[0]:,}-{ns[-1]:,} ({len(ns)} counts) | {100 * o[0]:.2f}% (n {o[1]}, {o[2]:.4g}, {o[3]:.4g}) | "
             f"{100 * w[0]:.2f}% (n {w[1]}, {w[2]:.4g}, {w[3]:.4g}) | "
             f"{100 * min(medians):.1f}-{100 * max(medians):.1f}% | "
             f"+{100 * min(widths):.1f} to +{100 * max(widths):.1f}% |")
    # --- the balance figure of 2, 3 and 4 units
    show("\n### The balance figure: exact, minimum over a grid of win chances (one winner per deal)\n")
    show("| units | deals | points | plain intervals: lowest (at) | reports' intervals: lowest (at) |")
    show("|---|---|---|---|---|")
    for units, ns, step in ((2, (30, 50, 60, 100, 300, 1000), 0.002), (3, (30, 50, 60, 100, 300), 0.02),
                            (4, (30, 50, 100), 0.05)):
        pairs = units * (units - 1) // 2
        points = balance_points(units, step)
        for n in ns:
            if n > nmax:
                continue
            counts = compositions(n, units)
            line = []
            for kw in (dict(correction=0, edge=False), {}):
                tables = tango_table(n, 1 - 0.05 / pairs, **kw)
                cov = balance_exact(n, points, tables, counts)
                i = int(np.argmin(cov))
                line.append((float(cov[i]), points[i]))
            results[("balance", units, n)] = (line[0][0], line[1][0])
            at = [", ".join(f"{x:.3g}" for x in p) for _, p in line]
            show(f"| {units} | {n:,} | {len(points):,} | {100 * line[0][0]:.2f}% ({at[0]}) | "
                 f"{100 * line[1][0]:.2f}% ({at[1]}) |")
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=1000, help="replicates of the balance figure's scenarios "
                    "(default 1,000; the other families get more)")
    ap.add_argument("--seed", type=int, default=2029)
    ap.add_argument("--real", action="store_true", help="also the balance figure on real Compañeros play")
    ap.add_argument("--family", choices=["all", "gain"], default="all",
                    help="every family (default) or only the balance gained by a rule option")
    ap.add_argument("--exact", action="store_true", help="exact coverage (binomial, trinomial and "
                    "multinomial sums) at every n from 30 to --nmax, no simulation")
    ap.add_argument("--nmax", type=int, default=2000, help="--exact: the largest number of deals (default 2,000)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.exact:
        exact(args.nmax)
        print(f"\n{time.perf_counter() - t0:.0f} s", file=sys.stderr)
        return 0
    if args.family == "gain":
        rows = gain_family(args.reps, np.random.default_rng(args.seed),
                           show=lambda r: print("| " + " | ".join(r.row()) + " |", file=sys.stderr, flush=True))
    else:
        rows = simulated(args.reps, args.seed)
    if args.real:
        rows.append(real_balance(min(args.reps, 300)))
    print(table(rows))
    print(f"\n{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
