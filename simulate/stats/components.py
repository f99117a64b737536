"""Each component's effect on winning, from what every seat was dealt (the ``dealt`` column).

A dataset that records the column holds, per row (game, result seat), the counts of each kind of
component the seat was dealt or drew over the whole game, in the manifest's ``dealt_kinds``
order. For each kind this module estimates **the effect on a unit's win rate of being dealt one
more of it** (a unit is a player seat, or a team in team games: the team's counts are its
members' sums, its win the team's win), with:

- a *linear probability regression* of win (0/1) on the unit's dealt counts with unit (seat or
  team) fixed effects, ``win = a_unit + sum_k b_k x_k + e``, fitted by least squares;
- the reported effect of kind ``k`` is the contrast ``theta_k = b_k - sum_j s_j b_j`` (``s_j``
  the share of kind ``j`` among everything the units were dealt): **holding one more copy of k in
  place of the average replacement card**. When every unit holds a fixed number of cards the
  ``b_k`` alone are not identified (they sum to the hand size, which the unit effects absorb);
  the contrast always is;
- standard errors *clustered by deal* (the sandwich estimator with the CR1 small-sample factor):
  the units of one deal are not independent (a card one seat holds another does not), and in a
  tournament every seating of a deal shares its cards;
- 95% intervals, one family over the kinds estimated, and each kind's outcome in the study's
  words: a **finding** (family-adjusted p below 0.05, and not negligible), **negligible** (the
  interval at the family's level lies inside +-1 pp), or **not settled**; below
  :data:`MIN_DEALS` deals no kind is tested (**too few deals**), nor a kind whose every result
  the regression fits exactly (so few deals for the kinds that nothing is left to judge it by).

How the family is tested depends on the deals. Below :data:`PERMUTATION_PER_KIND` (50) deals
per kind tested, by **permutation** (:func:`_permutation`): the shuffle deals at random, so with
no kind mattering the deals' results are exchangeable among deals (of one shape) whatever was
dealt; the results are shuffled among the deals :data:`PERMUTATIONS` times, the clustered t
statistics recomputed, and each kind's family-adjusted p is Westfall and Young's step-down max-t
p-value (1993): a family-wise error of at most 5% when nothing matters, exact at any number of
deals; the intervals use the shuffles' critical values (95%: the 95% quantile of every kind's
|t|; the family's: the 95% quantile of the largest). The normal approximation with Holm's
adjustment it replaces made a false finding in 20% of null datasets of 40 kinds at 40 deals,
9.8% at 100 and 7.3% at 300 (two teams: 99.6%, 30% and 8.4%; ``scripts/bench_components.py``):
with about as many parameters as deals the clustered t statistics have tails far heavier than
the normal's, and Holm reads them at 3.2 standard errors; by permutation 5.0%, 4.6% and 5.1%.
From 50 deals per kind on (thousands of deals, where the two agree: 3.9% each at 2,000 deals of
40 kinds), normal intervals and one **Holm** family.

Why it is unbiased here: the shuffle deals at random, independently of the seat and of the
strategies, so the dealt counts are randomised; the regression's contrast is then a causal
effect (the best linear summary of it when the effect of a second copy differs from the first's),
with no selection of the kind 17lands' figures for Magic carry (players choose their decks). It
includes what holding the copy means for the others: a copy one unit holds is one the opponents
do not.

Beside it, for familiarity, the figures 17lands reports for Magic cards, here per kind and unit:
the *win rate when dealt* (at least one copy; the "GIH WR" analogue) and the *improvement when
dealt* (IWD: the win rate when dealt minus when not). They are plain comparisons (no seat
adjustment, no interval): a kind dealt to several seats at once, or in large numbers, has an IWD
that mixes its effect with what comes with it.

Memory is bounded: the counts are read part by part in blocks of deals (every seating of a deal
in the same block), twice (the fit, then the clustered variance), never as one matrix; a run of
1,000,000 games of 40 kinds needs under 200 MB here (scripts/bench_components.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from tourney_sim.simulate.games.spec import team_seats
from tourney_sim.simulate.results import DatasetError, part_files

from . import intervals
from .findings import ALPHA, NEGLIGIBLE_PP
from .load import Config

DEALT_COLUMN = "dealt"
KINDS_FIELD = "dealt_kinds"
#: rows (units x games) of one block: a few copies of 8 bytes per kind and row (~60 MB at 40 kinds)
BLOCK_ROWS = 50_000
#: a kind's status: estimated, or why it gets no effect
ESTIMATED = "estimated"
NEVER_DEALT = "never dealt"
NO_VARIATION = "no variation"  # every unit always holds the same number (within each seat)
NOT_SEPARABLE = "not separable"  # always dealt together with other kinds: their effects cannot be told apart
TOO_FEW = "too few deals"
OUTCOMES = ("finding", "negligible", "not settled", TOO_FEW)
#: fewer deals than this: the kinds are estimated but not tested ("too few deals")
MIN_DEALS = 20
#: the study's paired checks: the kinds with the largest effects that get one (and its report's list of them)
COMPONENT_CHECKS = 3
#: the family is tested by permutation below this many deals per kind tested (the normal
#: approximation held at 25 per kind: scripts/bench_components.py), and never beyond
#: PERMUTATION_DEALS deals (the blocks are kept in memory)
PERMUTATION_PER_KIND = 50
PERMUTATION_DEALS = 5_000
PERMUTATIONS = 999
PERMUTATION_SEED = 39  # a fixed seed: the same data give the same p-values
PERMUTATION = "permutation"
NORMAL = "normal"


@dataclass
class KindEffect:
    """One kind: how often it was dealt, its effect with intervals and outcome, or why none."""

    kind: str
    held: float  # mean count per unit and game
    dealt_share: float  # share of unit-games holding at least one
    status: str = ESTIMATED  # or NEVER_DEALT, NO_VARIATION, NOT_SEPARABLE
    effect: float = math.nan  # theta_k (a probability difference: 0.061 is 6.1 pp)
    se: float = math.nan
    low: float = math.nan  # 95%
    high: float = math.nan
    p_value: float = math.nan
    p_holm: float = math.nan  # family-adjusted (Holm, or the permutation's step-down max-t)
    adj_low: float = math.nan  # at the family's level (Bonferroni, or the permutation's max-t)
    adj_high: float = math.nan
    outcome: str = ""  # finding | negligible | not settled | too few deals ("" when not estimated)
    win_dealt: float = math.nan  # 17lands' GIH WR analogue
    win_not: float = math.nan
    iwd: float = math.nan  # improvement when dealt: win_dealt - win_not
    versus: str = "an average card"  # what one more of it replaces (see _solve)

    @property
    def estimated(self) -> bool:
        return self.status == ESTIMATED


@dataclass
class ComponentEffects:
    """Every kind of one configuration, and what the estimates rest on."""

    kinds: list[KindEffect]
    unit: str  # "seat" | "team"
    rows: int  # unit-games
    games: int
    deals: int  # clusters
    family_size: int
    notes: list[str] = field(default_factory=list)
    method: str = NORMAL  # how the family was tested: NORMAL (Holm), PERMUTATION, or TOO_FEW (not tested)

    def estimated(self) -> list[KindEffect]:
        return [k for k in self.kinds if k.estimated]

    def ranked(self) -> list[KindEffect]:
        """The estimated kinds, largest effect (either sign) first."""
        return sorted(self.estimated(), key=lambda k: -abs(k.effect))

    def largest(self, n: int = 3) -> list[KindEffect]:
        return self.ranked()[:n]

    def found(self) -> list[KindEffect]:
        return [k for k in self.ranked() if k.outcome == "finding"]

    def not_estimated(self) -> list[KindEffect]:
        return [k for k in self.kinds if not k.estimated]

    def sentence(self, k: KindEffect) -> str:
        """"Holding the Swap card raises a seat's win rate by 6.1 pp, 95% [5.2, 7.0]"."""
        who = "a team's" if self.unit == "team" else "a seat's"
        if not k.estimated:
            return f"{k.kind}: {k.status}"
        verb = "raises" if k.effect >= 0 else "lowers"
        sign = 1 if k.effect >= 0 else -1
        low, high = sorted((sign * k.low, sign * k.high))
        return (f"Holding one more {k.kind} (in place of {k.versus}) {verb} {who} win rate by "
                f"{100 * abs(k.effect):.1f} pp, 95% [{100 * low:.1f}, {100 * high:.1f}]")


# ----------------------------------------------------------------------------- the estimator
class _Fit:
    """Sufficient statistics of the regression, accumulated block by block: pass 1 the normal
    equations and the descriptive counts, pass 2 (given the fit) the clustered meat."""

    def __init__(self, n_kinds: int, n_units: int):
        self.k, self.u = n_kinds, n_units
        p = n_kinds + n_units
        self.xtx = np.zeros((p, p))
        self.xty = np.zeros(p)
        self.n = 0
        self.units_n = np.zeros(n_units)
        self.sx_unit = np.zeros((n_units, n_kinds))
        self.sxx_unit = np.zeros((n_units, n_kinds))
        self.dealt_n = np.zeros(n_kinds)
        self.dealt_wins = np.zeros(n_kinds)
        self.wins = 0.0
        self.clusters = 0
        self.meat = np.zeros((p, p))

    def design(self, x: np.ndarray, unit: np.ndarray) -> np.ndarray:
        d = np.zeros((len(x), self.k + self.u))
        d[:, :self.k] = x
        d[np.arange(len(x)), self.k + unit] = 1.0
        return d

    def add(self, x: np.ndarray, y: np.ndarray, unit: np.ndarray, cluster: np.ndarray) -> None:
        d = self.design(x, unit)
        self.xtx += d.T @ d
        self.xty += d.T @ y
        self.n += len(y)
        self.units_n += np.bincount(unit, minlength=self.u)
        for u in range(self.u):
            xu = x[unit == u]
            self.sx_unit[u] += xu.sum(axis=0)
            self.sxx_unit[u] += (xu * xu).sum(axis=0)
        has = x > 0
        self.dealt_n += has.sum(axis=0)
        self.dealt_wins += (has * y[:, None]).sum(axis=0)
        self.wins += float(y.sum())
        self.clusters += len(np.unique(cluster))

    def add_meat(self, x, y, unit, cluster, beta: np.ndarray) -> None:
        d = self.design(x, unit)
        score = d * (y - d @ beta)[:, None]
        _, dense = np.unique(cluster, return_inverse=True)
        per = np.stack([np.bincount(dense, weights=score[:, j]) for j in range(score.shape[1])], axis=1)
        self.meat += per.T @ per


def _status(fit: _Fit) -> list[str]:
    total = fit.sx_unit.sum(axis=0)
    within = (fit.sxx_unit - fit.sx_unit ** 2 / np.maximum(fit.units_n, 1)[:, None]).sum(axis=0)
    return [NEVER_DEALT if t == 0 else NO_VARIATION if w <= 1e-9 * max(1.0, t) else ESTIMATED
            for t, w in zip(total, within)]


def _solve(fit: _Fit, status: list[str], kinds: list[str]):
    """The least-squares fit on the kinds with variation and the unit effects: (the kinds used,
    the design's columns used, beta over every column, the pseudo-inverse of X'X on the columns
    used, each used kind's contrast over those columns, whether each contrast is estimable, and
    what each contrast's one more copy replaces).

    The contrast is one more of the kind in place of the average card (share-weighted over every
    kind). When a group of kinds always adds up to the same count per unit (a hand of fixed
    size: Colleagues' 15 Commitment cards a week beside its token draws, whose number varies),
    only differences inside the group are estimable: the kind is then measured against the
    average kind of its own group, the kinds named with the same first word ("Commitment")."""
    used = [j for j, s in enumerate(status) if s == ESTIMATED]
    cols = used + [fit.k + u for u in range(fit.u)]
    a = fit.xtx[np.ix_(cols, cols)]
    inv = np.linalg.pinv(a, rcond=1e-10, hermitian=True)
    b = inv @ fit.xty[cols]
    beta = np.zeros(fit.k + fit.u)
    beta[cols] = b
    held = fit.sx_unit.sum(axis=0)[used]

    def contrast(i: int, pool: list[int]) -> np.ndarray:
        c = np.zeros(len(cols))
        total = held[pool].sum()
        if total > 0:
            c[pool] = -held[pool] / total
        c[i] += 1.0
        return c

    def is_estimable(c: np.ndarray) -> bool:  # an estimable contrast lies in the row space: unchanged
        return bool(np.abs(c @ inv @ a - c).max() < 1e-6)

    contrasts = np.zeros((len(used), len(cols)))
    estimable = np.zeros(len(used), bool)
    versus = ["an average card"] * len(used)
    group = [kinds[j].split(" ", 1)[0] for j in used]
    for i in range(len(used)):
        contrasts[i] = contrast(i, list(range(len(used))))
        estimable[i] = is_estimable(contrasts[i])
        if not estimable[i]:
            pool = [t for t in range(len(used)) if group[t] == group[i]]
            c = contrast(i, pool)
            if len(pool) > 1 and is_estimable(c):
                contrasts[i], estimable[i], versus[i] = c, True, f"an average {group[i]}"
    return used, cols, beta, inv, contrasts, estimable, versus


def estimate(blocks, kinds: list[str], n_units: int, unit_word: str, alpha: float = ALPHA,
             method: str = "auto", permutations: int = PERMUTATIONS) -> ComponentEffects:
    """The effects from ``blocks``, a callable returning a fresh iterator of blocks
    ``(x [rows, kinds], win [rows], unit [rows], cluster [rows])`` (every row of a cluster in one
    block); it is iterated twice.

    ``method``: ``"auto"`` tests the family by permutation below :data:`PERMUTATION_PER_KIND`
    deals per kind tested (at most :data:`PERMUTATION_DEALS` deals) and with normal intervals and
    Holm beyond; ``"permutation"`` or ``"normal"`` force one (the benchmark compares them). Below
    :data:`MIN_DEALS` deals no kind is tested."""
    fit = _Fit(len(kinds), n_units)
    kept = [] if method != NORMAL else None  # the blocks, for the permutation test
    for x, y, unit, cluster in blocks():
        fit.add(x.astype(float), y.astype(float), unit, cluster)
        if kept is not None:
            kept.append((x, y, unit, cluster))
            if method == "auto" and fit.clusters > PERMUTATION_DEALS:
                kept = None
    if fit.n == 0:
        raise DatasetError("no games to estimate component effects from")
    status = _status(fit)
    used, cols, beta, inv, contrasts, estimable, versus = _solve(fit, status, kinds)
    if used:
        for x, y, unit, cluster in blocks():
            fit.add_meat(x.astype(float), y.astype(float), unit, cluster, beta)
    g, n, rank = fit.clusters, fit.n, np.linalg.matrix_rank(fit.xtx[np.ix_(cols, cols)], hermitian=True)
    cr1 = g / max(g - 1, 1) * (n - 1) / max(n - rank, 1)
    cov = cr1 * inv @ fit.meat[np.ix_(cols, cols)] @ inv
    theta = contrasts @ beta[cols]
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", contrasts, cov, contrasts), 0))
    held = fit.sx_unit.sum(axis=0) / n
    share = fit.dealt_n / n
    out = []
    for j, kind in enumerate(kinds):
        wd = fit.dealt_wins[j] / fit.dealt_n[j] if fit.dealt_n[j] else math.nan
        wn = (fit.wins - fit.dealt_wins[j]) / (n - fit.dealt_n[j]) if n > fit.dealt_n[j] else math.nan
        out.append(KindEffect(kind, float(held[j]), float(share[j]), status[j], win_dealt=wd, win_not=wn,
                              iwd=wd - wn))
    tested, rows, exact = [], [], []
    for i, j in enumerate(used):
        k = out[j]
        if not estimable[i]:
            k.status = NOT_SEPARABLE
            continue
        k.effect, k.se, k.versus = float(theta[i]), float(se[i]), versus[i]
        if not se[i] > 0:  # the regression fits every result exactly: nothing left to judge it by
            k.outcome = TOO_FEW
            exact.append(k)
            continue
        tested.append(k)
        rows.append(i)
    m = len(tested)
    # too few deals: below the minimum, or none of the kinds varied can be told apart (as many
    # parameters as deals: Partners' two teams hold complementary hands, so a deal is one row)
    if g < MIN_DEALS or (used and not m and (exact or g <= len(used) + n_units)):
        for k in tested:
            k.outcome = TOO_FEW
        return ComponentEffects(out, unit_word, n, n // n_units, g, 0, method=TOO_FEW)
    if m and kept is not None and (method == PERMUTATION or g < PERMUTATION_PER_KIND * m):
        t, shuffled = _permutation(kept, fit, cols, inv, contrasts[rows], cr1, permutations)
        p_raw, p_adj, c95, c_family = _max_t(t, shuffled, alpha)
        for k, pr, pa in zip(tested, p_raw, p_adj):
            k.low, k.high = k.effect - c95 * k.se, k.effect + c95 * k.se
            k.adj_low, k.adj_high = k.effect - c_family * k.se, k.effect + c_family * k.se
            k.p_value, k.p_holm = float(pr), float(pa)
            k.outcome = outcome(k, alpha)
        return ComponentEffects(out, unit_word, n, n // n_units, g, m, method=PERMUTATION)
    z = NormalDist().inv_cdf(1 - alpha / 2)
    for k in tested:
        k.low, k.high = k.effect - z * k.se, k.effect + z * k.se
        k.p_value = float(2 * NormalDist().cdf(-abs(k.effect) / k.se))
    if m:
        zf = NormalDist().inv_cdf(1 - alpha / (2 * m))
        for k, p in zip(tested, intervals.holm([k.p_value for k in tested])):
            k.p_holm = float(p)
            k.adj_low, k.adj_high = k.effect - zf * k.se, k.effect + zf * k.se
            k.outcome = outcome(k, alpha)
    return ComponentEffects(out, unit_word, n, n // n_units, g, m, method=NORMAL)


def _permutation(kept, fit: _Fit, cols: list[int], inv: np.ndarray, contrasts: np.ndarray, cr1: float,
                 permutations: int, batch: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """The kinds' clustered t statistics (as :func:`estimate` computes them) on the data and on
    ``permutations`` shuffles of the deals' results: (t [kinds], t [permutations, kinds]).

    A deal's results (every row of its cluster, in unit order) move together to another deal of
    the same number of rows; what each deal dealt stays. With no kind mattering the results are
    independent of what was dealt and the deals are independent and alike, so every shuffle is as
    likely as the data: the test is exact (given the fixed seed's shuffles, a Monte Carlo test:
    ``(1 + #{shuffled >= observed}) / (permutations + 1)`` is a valid p-value)."""
    x = np.concatenate([b[0] for b in kept]).astype(float)
    y = np.concatenate([b[1] for b in kept]).astype(float)
    unit = np.concatenate([b[2] for b in kept])
    cluster = np.concatenate([b[3] for b in kept])
    _, dense, size = np.unique(cluster, return_inverse=True, return_counts=True)
    order = np.lexsort((np.arange(len(y)), unit, dense, size[dense]))  # by deal size, deal, unit
    x, y, unit, dense = x[order], y[order], unit[order], dense[order]
    d = fit.design(x, unit)[:, cols]
    a = contrasts @ inv @ d.T  # [kinds, rows]: theta = a @ y
    q = d @ inv  # fitted values: q @ (d.T @ y)
    groups = []  # (first row, deals, rows per deal, pair weights) of each run of deals of one size
    start = 0
    while start < len(y):
        s = int(size[dense[start]])
        end = start
        while end < len(y) and size[dense[end]] == s:
            end += s
        deals = (end - start) // s
        ag = a[:, start:end].reshape(len(a), deals, s)
        # the clustered variance sum_g (a_g . e_g)^2 as sum over pairs of rows (u, v) of a deal:
        # (a_gu a_gv) @ (e_gu e_gv), one matrix product per pair (few rows per deal) ...
        pairs = ([(u, v, (1.0 if u == v else 2.0) * ag[:, :, u] * ag[:, :, v]) for u in range(s) for v in range(u, s)]
                 if s <= 8 else None)  # ... or one small product per deal (many)
        groups.append((start, deals, s, ag, pairs))
        start = end

    def t_stats(yy: np.ndarray) -> np.ndarray:  # yy [rows, B] -> t [B, kinds]
        theta = a @ yy
        e = yy - q @ (d.T @ yy)
        var = np.zeros_like(theta)
        for first, deals, s, ag, pairs in groups:
            eg = e[first:first + deals * s].reshape(deals, s, -1)  # [deals, s, B]
            if pairs is not None:
                for u, v, w in pairs:
                    var += w @ (eg[:, u, :] * eg[:, v, :])
            else:
                var += (np.matmul(ag.transpose(1, 0, 2), eg) ** 2).sum(axis=0)
        var *= cr1
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(var > 0, theta / np.sqrt(var), np.where(np.abs(theta) > 1e-12, np.inf, 0.0))
        return t.T

    observed = t_stats(y[:, None])[0]
    rng = np.random.default_rng(PERMUTATION_SEED)
    shuffled = np.empty((permutations, len(a)))
    for b0 in range(0, permutations, batch):
        nb = min(batch, permutations - b0)
        idx = np.empty((len(y), nb), np.int64)
        for first, deals, s, _, _ in groups:
            order = rng.permuted(np.tile(np.arange(deals), (nb, 1)), axis=1)  # [nb, deals]
            src = first + s * order[:, :, None] + np.arange(s)  # [nb, deals, s]
            idx[first:first + deals * s] = src.reshape(nb, -1).T
        shuffled[b0:b0 + nb] = t_stats(y[idx])
    return observed, shuffled


def _max_t(t: np.ndarray, shuffled: np.ndarray, alpha: float):
    """From the observed t [kinds] and the shuffles' [B, kinds]: each kind's p-value, its
    family-adjusted p (Westfall and Young's step-down max-t: the share of shuffles whose largest
    |t| among the kinds ranked at or below it reaches its |t|, made monotone), and the critical
    values of a 95% interval (every kind's |t| pooled) and of the family's (the largest |t|)."""
    obs, sh = np.abs(t), np.abs(shuffled)
    b = len(sh)
    p_raw = (1 + (sh >= obs).sum(axis=0)) / (b + 1)
    rank = np.argsort(-obs, kind="stable")
    tail_max = np.maximum.accumulate(sh[:, rank][:, ::-1], axis=1)[:, ::-1]
    p_sorted = np.maximum.accumulate((1 + (tail_max >= obs[rank]).sum(axis=0)) / (b + 1))
    p_adj = np.empty_like(p_sorted)
    p_adj[rank] = np.minimum(p_sorted, 1.0)
    c95 = float(np.quantile(sh, 0.95, method="higher"))
    c_family = float(np.quantile(sh.max(axis=1), 1 - alpha, method="higher"))
    return p_raw, p_adj, c95, c_family


def outcome(k: KindEffect, alpha: float = ALPHA) -> str:
    """finding | negligible | not settled (see the module's docstring; "too few deals" is set
    by :func:`estimate`, untested)."""
    if -NEGLIGIBLE_PP < k.adj_low and k.adj_high < NEGLIGIBLE_PP:
        return "negligible"
    return "finding" if k.p_holm < alpha else "not settled"


# ----------------------------------------------------------------------------- datasets
def dealt_kinds(cfg: Config) -> list[str] | None:
    """The kinds the configuration's datasets count, or None when any of them has no ``dealt``
    column (or they disagree)."""
    kinds = [s.manifest.get(KINDS_FIELD) for s in cfg.sources]
    if not kinds or any(k is None for k in kinds) or any(k != kinds[0] for k in kinds):
        return None
    if DEALT_COLUMN not in _schema_names(cfg.sources[0].path):
        return None
    return list(kinds[0])


def _schema_names(path) -> set:
    import pyarrow.parquet as pq

    files = part_files(path)
    return set(pq.read_schema(files[0]).names) if files else set()


def units_of(cfg: Config) -> tuple[str, int, list[list[int]]]:
    """("seat" | "team", units, the player seats of each unit)."""
    if cfg.team_game:
        return "team", 2, team_seats(cfg.players)
    return "seat", cfg.players, [[s] for s in range(cfg.players)]


def _dealt_matrix(column, n_kinds: int, where) -> np.ndarray:
    """A ``list<uint16>`` column as a [rows, kinds] array (every list of ``n_kinds`` counts)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    col = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    lengths = pc.list_value_length(col).to_numpy(zero_copy_only=False)
    if len(lengths) and (lengths.min() != n_kinds or lengths.max() != n_kinds):
        raise DatasetError(f"{where}: the {DEALT_COLUMN} column holds lists of {lengths.min()} to "
                           f"{lengths.max()} counts, but its manifest names {n_kinds} {KINDS_FIELD}")
    return pc.list_flatten(col).to_numpy(zero_copy_only=False).reshape(-1, n_kinds)


def _part_ranges(cfg: Config) -> list[tuple[int, object, int, int]]:
    """(source index, part file, first game, last game) of every part, from the files' own
    statistics of the ``game`` column (or the part read once, if they have none)."""
    import pyarrow.parquet as pq

    out = []
    for i, src in enumerate(cfg.sources):
        for f in part_files(src.path):
            meta = pq.ParquetFile(f).metadata
            col = meta.schema.names.index("game")
            lo, hi = math.inf, -math.inf
            for r in range(meta.num_row_groups):
                st = meta.row_group(r).column(col).statistics
                if st is None or not st.has_min_max:
                    g = pq.read_table(f, columns=["game"]).column(0).to_numpy()
                    lo, hi = int(g.min()), int(g.max())
                    break
                lo, hi = min(lo, st.min), max(hi, st.max)
            if meta.num_rows:
                out.append((i, f, int(lo), int(hi)))
    return out


def _blocks(cfg: Config, kinds: list[str], rows_per_block: int = BLOCK_ROWS):
    """A callable yielding (x, win, unit, cluster) blocks of whole deals: the parts sorted by
    their first game and cut where no part spans the cut, so every seating's copy of a deal
    (same seed and game index, another dataset of the configuration) falls in one block."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    _, n_units, members = units_of(cfg)
    seats = cfg.players + len(cfg.extra_seats)
    seeds = sorted({int(s.manifest["seed"]) for s in cfg.sources})
    parts = sorted(_part_ranges(cfg), key=lambda t: (t[2], t[3]))
    groups, current, reach, rows = [], [], -1, 0
    for part in parts:
        if current and part[2] > reach and rows >= rows_per_block:
            groups.append(current)
            current, rows = [], 0
        current.append(part)
        reach = max(reach, part[3])
        rows += (part[3] - part[2] + 1) * n_units
    if current:
        groups.append(current)

    def iterate():
        for group in groups:
            xs, ys, us, cs = [], [], [], []
            for i, f, _, _ in group:
                src = cfg.sources[i]
                try:
                    t = pq.read_table(f, columns=["game", "seat", "win", DEALT_COLUMN])
                except (pa.ArrowException, OSError, KeyError) as exc:
                    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    raise DatasetError(f"{f}: cannot read its {DEALT_COLUMN} column: {first}") from None
                game = t.column("game").to_numpy()
                seat = t.column("seat").to_numpy()
                order = np.lexsort((seat, game))
                dealt = _dealt_matrix(t.column(DEALT_COLUMN), len(kinds), src.path)[order]
                win = t.column("win").to_numpy(zero_copy_only=False)[order]
                game = game[order]
                if len(game) % seats:
                    raise DatasetError(f"{f}: {len(game)} rows is not a whole number of games of {seats} seats")
                g = len(game) // seats
                dealt = dealt.reshape(g, seats, len(kinds))
                win = win.reshape(g, seats)
                x = np.stack([dealt[:, m, :].sum(axis=1) for m in members], axis=1)  # [g, units, kinds]
                w = np.stack([win[:, m[0]] for m in members], axis=1)
                key = game.reshape(g, seats)[:, 0].astype(np.int64) * len(seeds) + seeds.index(int(src.manifest["seed"]))
                xs.append(x.reshape(-1, len(kinds)))
                ys.append(w.reshape(-1))
                us.append(np.tile(np.arange(n_units), g))
                cs.append(np.repeat(key, n_units))
            yield np.concatenate(xs), np.concatenate(ys), np.concatenate(us), np.concatenate(cs)

    return iterate


def component_effects(cfg: Config, rows_per_block: int = BLOCK_ROWS) -> ComponentEffects | None:
    """The configuration's component effects, or None when its datasets do not record what was
    dealt. Reads its datasets' files itself (only ``sources``, ``players``, ``extra_seats`` and
    ``team_game`` of ``cfg`` are used: the loaded rows are not needed)."""
    kinds = dealt_kinds(cfg)
    if kinds is None:
        return None
    unit_word, n_units, _ = units_of(cfg)
    return estimate(_blocks(cfg, kinds, rows_per_block), kinds, n_units, unit_word)


def arrays_blocks(x: np.ndarray, win: np.ndarray, cluster: np.ndarray | None = None, block_games: int = 50_000):
    """Blocks from in-memory arrays ``x`` [games, units, kinds] and ``win`` [games, units] (each
    game its own deal unless ``cluster`` [games] says otherwise; a deal's games adjacent)."""
    g, n_units, k = x.shape
    cluster = np.arange(g) if cluster is None else np.asarray(cluster)

    def iterate():
        a = 0
        while a < g:
            b = min(g, a + block_games)
            while b < g and cluster[b] == cluster[b - 1]:
                b += 1
            yield (x[a:b].reshape(-1, k), win[a:b].reshape(-1), np.tile(np.arange(n_units), b - a),
                   np.repeat(cluster[a:b], n_units))
            a = b

    return iterate


def dataset_effects(path) -> ComponentEffects | None:
    """The component effects of one dataset directory, straight from its files (no rows loaded
    beyond the blocks)."""
    from .load import discover

    sources = discover([path])
    m = sources[0].manifest
    cfg = Config(game=m["game"], players=int(m["players"]), rules_version=int(m["rules_version"]),
                 options=m["options"], team_game=bool(m["team_game"]), better=m["better"],
                 extra_seats=list(m["extra_seats"]), columns=dict(m["columns"]), sources=sources, names=[],
                 is_player=None)
    return component_effects(cfg)


def largest_kinds(path, n: int = COMPONENT_CHECKS) -> list[str]:
    """The ``n`` kinds with the largest effects (either sign) in a dataset, largest first; [] when
    it does not record what was dealt (the study's paired checks)."""
    e = dataset_effects(path)
    return [] if e is None else [k.kind for k in e.largest(n)]


def largest_components(dataset_dir) -> list[str]:
    """The component kinds whose nearest change the study checks (its stage 6): the
    :data:`COMPONENT_CHECKS` kinds with the largest effects on winning in a levels stage's dataset,
    largest first; [] when it does not record what was dealt. What
    :func:`tourney_sim.simulate.study.run_study` asks (``largest_components``)."""
    return largest_kinds(dataset_dir, COMPONENT_CHECKS)
