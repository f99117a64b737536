"""The report's numbers, computed from loaded configurations (:mod:`tourney_sim.simulate.stats.load`) with numpy and
scipy, vectorised (no Python loop over rows or games; loops run over seats, strategies or pairs).

Definitions (the report's "how to read" text says the same):

- a *seat-game* is one seat in one game; a strategy holding two seats of a game counts two;
- *win* is ``rank == 1`` (a shared first place is a win for each), as in the datasets;
- a *unit* for seat balance is a player seat, or a team in team games (seats 0, 2 v 1, 3);
- the *balance figure* is ``1 - (largest - smallest unit win rate)``: 1 is perfectly even;
- a *deal* is (seed, game index) under the same rules: the statistical unit of every interval.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tourney_sim.simulate.games import GAME_MODULES, get_game
from tourney_sim.simulate.games.spec import team_of, team_seats

from . import intervals
from .load import DECISIVENESS_COLUMN, Config

if TYPE_CHECKING:  # pandas is imported by the functions that make tables (0.4 s: not at start-up)
    import pandas as pd

RATING_SAMPLE = 10_000


# ----------------------------------------------------------------------------- helpers
def tables_per_deal(cfg: Config) -> np.ndarray:
    return np.bincount(cfg.deal, minlength=cfg.deals).astype(float)


def per_deal_sum(cfg: Config, values: np.ndarray) -> np.ndarray:
    """Sum ``values`` ([T] or [T, k]) over the games of each deal: [D] or [D, k]."""
    values = np.asarray(values)
    if values.ndim == 1:
        return np.bincount(cfg.deal, weights=values.astype(float), minlength=cfg.deals)
    out = np.empty((cfg.deals, values.shape[1]))
    for j in range(values.shape[1]):
        out[:, j] = np.bincount(cfg.deal, weights=values[:, j].astype(float), minlength=cfg.deals)
    return out


def units(cfg: Config) -> tuple[list[str], np.ndarray]:
    """Names and [T, U] wins of the balance units: player seats, or the two teams."""
    if cfg.team_game:
        names = []
        for t, seats in enumerate(team_seats(cfg.players)):
            names.append(f"team {t} (seats {', '.join(map(str, seats))})")
        return names, cfg.win[:, [0, 1]]
    return [f"seat {s}" for s in range(cfg.players)], cfg.win[:, :cfg.players]


def start_unit(cfg: Config) -> np.ndarray:
    start = cfg.start.astype(np.int64)
    return team_of(start, cfg.team_game)


def player_strategy_ids(cfg: Config) -> list[int]:
    present = np.flatnonzero(np.bincount(cfg.strat[:, :cfg.players].reshape(-1).astype(np.intp),
                                         minlength=len(cfg.names)))
    return [int(k) for k in present if cfg.is_player[k]]


def strategy_counts(cfg: Config) -> tuple[np.ndarray, np.ndarray]:
    """[T, K] seats held and wins of each strategy id in each game (player seats only)."""
    k = len(cfg.names)
    t = cfg.tables
    cnt = np.zeros((t, k), np.int8)
    wins = np.zeros((t, k), np.int8)
    rows = np.arange(t)
    for s in range(cfg.players):
        col = cfg.strat[:, s]
        cnt[rows, col] += 1
        wins[rows, col] += cfg.win[:, s]
    return cnt, wins


def present_ids(codes) -> np.ndarray:
    """The distinct strategy ids in ``codes`` (small non-negative ints), ascending; a bincount is
    much faster than np.unique on millions of rows."""
    return np.flatnonzero(np.bincount(np.asarray(codes).reshape(-1).astype(np.intp)))


def _quantiles(x, qs=(5, 25, 50, 75, 95)) -> dict:
    x = np.asarray(x)
    if len(x) == 0:
        return {f"p{q}": math.nan for q in qs}
    values = np.percentile(x, qs)
    return {f"p{q}": float(v) for q, v in zip(qs, values)}


# ----------------------------------------------------------------------------- strategies
def strategy_table(cfg: Config) -> pd.DataFrame:
    """Per strategy (non-player seats such as a Grey Entity included, marked): seat-games, wins,
    win rate with a 95% interval (deal-clustered Wilson), mean score and mean rank."""
    import pandas as pd
    k = len(cfg.names)
    s_all = cfg.seats
    flat = cfg.strat.reshape(-1).astype(np.int64)
    deal_rep = np.repeat(cfg.deal, s_all)
    idx = deal_rep * k + flat
    size = cfg.deals * k
    m = np.bincount(idx, minlength=size).reshape(cfg.deals, k).astype(float)
    y = np.bincount(idx, weights=cfg.win.reshape(-1), minlength=size).reshape(cfg.deals, k)
    del idx, deal_rep
    p, low, high, n, n_eff = intervals.clustered_proportion(y, m)
    score_sum = np.bincount(flat, weights=cfg.score.reshape(-1), minlength=k)
    rank_sum = np.bincount(flat, weights=cfg.rank.reshape(-1), minlength=k)
    rows = []
    for j in range(k):
        if n[j] == 0:
            continue
        rows.append({"strategy": cfg.names[j], "player": bool(cfg.is_player[j]),
                     "seat_games": int(n[j]), "wins": int(y[:, j].sum()), "win_rate": p[j],
                     "ci_low": low[j], "ci_high": high[j], "mean_score": score_sum[j] / n[j],
                     "mean_rank": rank_sum[j] / n[j]})
    return pd.DataFrame(rows).set_index("strategy")


def score_table(cfg: Config) -> pd.DataFrame:
    """Score distribution per strategy (player seats): mean, standard deviation, quantiles."""
    import pandas as pd
    rows = []
    flat_s = cfg.strat.reshape(-1)
    flat_v = cfg.score.reshape(-1)
    for j in present_ids(flat_s):
        x = flat_v[flat_s == j]
        rows.append({"strategy": cfg.names[j], "mean": float(x.mean()), "sd": float(x.std()),
                     **_quantiles(x)})
    return pd.DataFrame(rows).set_index("strategy")


def fit_ratings(cfg: Config, sample: int = RATING_SAMPLE, seed: int = 0) -> tuple[pd.DataFrame, dict]:
    """openskill Plackett-Luce ratings fitted on finishing orders.

    Fitting every game one by one is too slow for millions of games, so the fit uses a uniform
    random sample of at most ``sample`` games (seeded: the report is reproducible), in random
    order, with tau = 0 (no drift: the games are exchangeable). Each seat is one participant
    (teams in team games; non-player seats take part under their own name); a strategy holding
    several seats of a game is rated through copies and moves by the mean of their updates.
    Returns the table (mu, sigma, ordinal = mu - 3 sigma) and a description of the fit.
    """
    import pandas as pd
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    rng = np.random.default_rng(seed)
    t = cfg.tables
    n = min(int(sample), t)
    chosen = rng.permutation(rng.choice(t, size=n, replace=False)) if n < t else rng.permutation(t)
    strat = cfg.strat[chosen].tolist()
    rank = cfg.rank[chosen].tolist()
    if cfg.team_game:
        groups = team_seats(cfg.players)
        groups += [[s] for s in range(cfg.players, cfg.seats)]
    else:
        groups = [[s] for s in range(cfg.seats)]
    mu = {j: model.mu for j in range(len(cfg.names))}
    sigma = {j: model.sigma for j in range(len(cfg.names))}
    played = {j: 0 for j in range(len(cfg.names))}
    for ids, rk in zip(strat, rank):
        teams = [[model.rating(mu=mu[ids[s]], sigma=sigma[ids[s]]) for s in g] for g in groups]
        new = model.rate(teams, ranks=[rk[g[0]] for g in groups])
        moved: dict[int, list] = {}
        for g, team in zip(groups, new):
            for s, r in zip(g, team):
                moved.setdefault(ids[s], []).append(r)
        for j, rs in moved.items():
            mu[j] += sum(r.mu for r in rs) / len(rs) - mu[j]
            sigma[j] = sum(r.sigma for r in rs) / len(rs)
            played[j] += 1
    rows = [{"strategy": cfg.names[j], "mu": mu[j], "sigma": sigma[j], "ordinal": mu[j] - 3 * sigma[j],
             "games_rated": played[j]} for j in range(len(cfg.names)) if played[j]]
    info = {"games": n, "of": t, "sample_cap": int(sample), "seed": seed, "model": "PlackettLuce",
            "tau": 0.0}
    return pd.DataFrame(rows).set_index("strategy"), info


# ----------------------------------------------------------------------------- pairwise
def pair_differences(cfg: Config, a: int, b: int, counts=None):
    """Win-rate differences of strategy ids ``a`` and ``b`` over the games where both sit at the
    table: per game, a's wins over a's seats minus b's wins over b's seats; per deal, the mean of
    those over the deal's games. Returns (per-deal differences, per-game differences, games)."""
    cnt, wins = counts if counts is not None else strategy_counts(cfg)
    mask = (cnt[:, a] > 0) & (cnt[:, b] > 0)
    if not mask.any():
        return np.zeros(0), np.zeros(0), 0
    deal = cfg.deal[mask]
    per_game = (wins[mask, a] / cnt[mask, a]) - (wins[mask, b] / cnt[mask, b])
    total = np.bincount(deal, weights=per_game, minlength=cfg.deals)
    games = np.bincount(deal, minlength=cfg.deals)
    has = games > 0
    per_deal = total[has] / games[has]
    return per_deal, per_game, int(mask.sum())


def pairwise_table(cfg: Config) -> pd.DataFrame:
    """Each pair of player strategies: the paired win-rate difference (a minus b) over the deals
    where they met, its 95% score interval and p-value (per-deal differences), Holm-adjusted
    p-values over the pairs, and for contrast the interval an unpaired analysis would give
    (every game its own deal)."""
    import pandas as pd
    ids = player_strategy_ids(cfg)
    counts = strategy_counts(cfg)
    rows = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            per_deal, per_game, games = pair_differences(cfg, a, b, counts)
            if games == 0:
                continue
            paired = intervals.paired_mean(per_deal, bounds=intervals.DIFFERENCE)
            unpaired = intervals.paired_mean(per_game, bounds=intervals.DIFFERENCE)
            rows.append({"a": cfg.names[a], "b": cfg.names[b], "games": games, "deals": paired.n,
                         "diff": paired.estimate, "ci_low": paired.low, "ci_high": paired.high,
                         "p_value": paired.p_value, "unpaired_low": unpaired.low,
                         "unpaired_high": unpaired.high})
    df = pd.DataFrame(rows, columns=["a", "b", "games", "deals", "diff", "ci_low", "ci_high", "p_value",
                                     "unpaired_low", "unpaired_high"])
    df["p_holm"] = intervals.holm(df["p_value"].to_numpy()) if len(df) else []
    df["significant"] = df["p_holm"] < 0.05
    return df


# ----------------------------------------------------------------------------- seats
def unit_deal_rates(cfg: Config) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(unit names, [D, U] wins summed over each deal's games, [D] games per deal)."""
    names, w = units(cfg)
    return names, per_deal_sum(cfg, w), tables_per_deal(cfg)


def balance_of(wins, games, axis_units=0):
    """1 - (max - min) unit win rate from win sums [U, ...] and game counts [...]."""
    p = wins / games
    return 1 - (p.max(axis=axis_units) - p.min(axis=axis_units))


def seat_analysis(cfg: Config) -> dict:
    import pandas as pd
    names, w = units(cfg)
    wd, gd = per_deal_sum(cfg, w), tables_per_deal(cfg)
    p, low, high, n, _ = intervals.clustered_proportion(wd, np.repeat(gd[:, None], len(names), axis=1))
    table = pd.DataFrame({"unit": names, "games": n.astype(int), "wins": wd.sum(axis=0).astype(int),
                          "win_rate": p, "ci_low": low, "ci_high": high}).set_index("unit")
    rates = wd / gd[:, None]
    f, p_equal, dof = intervals.equal_means(rates)
    bal = float(balance_of(p, 1.0))
    bal_low, bal_high = _balance_interval(rates, bal)
    # first player: the unit that made the game's first decision, against the average unit
    su = start_unit(cfg)
    rows = np.arange(cfg.tables)
    first_win = w[rows, su].astype(float)
    first = per_deal_sum(cfg, first_win)
    fp, flow, fhigh, _, _ = intervals.clustered_proportion(first, gd)
    excess = per_deal_sum(cfg, first_win - w.mean(axis=1)) / gd
    ft = intervals.paired_mean(excess, bounds=intervals.DIFFERENCE)
    start_counts = np.bincount(cfg.start.astype(np.int64), minlength=cfg.players)
    # are strategies spread evenly over the seats (else seat effects mix with strategy effects)?
    k = len(cfg.names)
    spread = np.stack([np.bincount(cfg.strat[:, s].astype(np.int64), minlength=k)
                       for s in range(cfg.players)])  # [seat, strategy]
    present = spread.sum(axis=0) > 0
    sp = spread[:, present].astype(float)
    unbalanced = bool(((sp.max(axis=0) - sp.min(axis=0)) > 0.01 * sp.mean(axis=0) + 1).any())
    return {"units": table, "equal_F": f, "equal_p": p_equal, "equal_dof": dof,
            "balance": bal, "balance_low": bal_low, "balance_high": bal_high,
            "largest_gap": 1 - bal,
            "first_rate": float(fp), "first_low": float(flow), "first_high": float(fhigh),
            "first_excess": ft.estimate, "first_excess_low": ft.low, "first_excess_high": ft.high,
            "first_p": ft.p_value, "average_rate": float(w.mean()),
            "start_counts": {int(s): int(c) for s, c in enumerate(start_counts) if c},
            "unbalanced_seating": unbalanced,
            "seat_strategy": pd.DataFrame(spread[:, present], index=[f"seat {s}" for s in range(cfg.players)],
                                          columns=[cfg.names[j] for j in np.flatnonzero(present)])}


# ----------------------------------------------------------------------------- game shape
def competitor_columns(cfg: Config) -> list[int]:
    """Result columns that compete for first place: one per team, or every result seat."""
    return [0, 1] if cfg.team_game else list(range(cfg.seats))


def draws(cfg: Config) -> np.ndarray:
    """[T] whether first place was shared (between teams, or seats)."""
    return (cfg.rank[:, competitor_columns(cfg)] == 1).sum(axis=1) > 1


def winning_margins(cfg: Config) -> np.ndarray:
    """[T] the first competitor's score lead over the second."""
    comp = competitor_columns(cfg)
    sc = cfg.score[:, comp].astype(np.int64)
    if cfg.better == "low":
        sc = -sc
    top2 = np.partition(sc, len(comp) - 2, axis=1)[:, -2:]
    return np.abs(top2[:, 1] - top2[:, 0])


def leader_won(cfg: Config) -> tuple[np.ndarray, np.ndarray] | None:
    """([T] whether the leader at two thirds won, [T] whether there was one), or None when the
    game does not record it. A Grey Entity (a non-player seat) can lead."""
    if DECISIVENESS_COLUMN not in cfg.extra:
        return None
    leader = cfg.extra[DECISIVENESS_COLUMN][:, 0].astype(np.int64)
    valid = (leader >= 0) & (leader < cfg.seats)
    won = np.zeros(cfg.tables)
    rows = np.flatnonzero(valid)
    won[rows] = cfg.win[rows, leader[rows]]
    return won, valid


def shape_analysis(cfg: Config) -> dict:
    gd = tables_per_deal(cfg)
    draw = draws(cfg)
    dp, dlow, dhigh, _, _ = intervals.clustered_proportion(per_deal_sum(cfg, draw), gd)
    margin = winning_margins(cfg)
    out = {"games": cfg.tables, "deals": cfg.deals, "draws": int(draw.sum()), "draw_rate": float(dp),
           "draw_low": float(dlow), "draw_high": float(dhigh),
           "margin_mean": float(margin.mean()), "margin": _quantiles(margin),
           "margin_zero": float((margin == 0).mean()),
           "length_mean": float(cfg.decisions.mean()), "length": _quantiles(cfg.decisions),
           "length_min": int(cfg.decisions.min()), "length_max": int(cfg.decisions.max()),
           "scores": score_table(cfg), "decisiveness": None}
    led = leader_won(cfg)
    if led is not None:
        lw, valid = led
        if valid.any():
            yp = per_deal_sum(cfg, lw)
            mp = per_deal_sum(cfg, valid.astype(float))
            has = mp > 0
            lp, llow, lhigh, _, _ = intervals.clustered_proportion(yp[has], mp[has])
            out["decisiveness"] = {"rate": float(lp), "low": float(llow), "high": float(lhigh),
                                   "games": int(valid.sum()), "no_leader": int((~valid).sum())}
        else:
            out["decisiveness"] = {"rate": math.nan, "low": math.nan, "high": math.nan, "games": 0,
                                   "no_leader": int(cfg.tables)}
    return out


def column_analysis(cfg: Config) -> list[dict]:
    """The game's own columns, each summarised by what it is: a 0/1 flag (rates), a per-game
    value (e.g. deals to finish: its distribution), a team value or a per-seat count (means by
    seat and by strategy); the columns a game declares as points (its spec's ``points``) also as
    a share of all points."""
    import pandas as pd
    spec = get_game(cfg.game) if cfg.game in GAME_MODULES else None  # synthetic data: no spec
    gd = tables_per_deal(cfg)
    seat_names = [f"seat {s}" for s in range(cfg.players)] + list(cfg.extra_seats)
    out = []
    k = len(cfg.names)
    for name, desc in cfg.columns.items():
        if name == DECISIVENESS_COLUMN:
            continue
        x = cfg.extra[name]
        xp = x[:, :cfg.players]
        flag = bool(x.min() >= 0 and x.max() <= 1)
        per_game = bool((xp == xp[:, :1]).all())
        per_team = bool(cfg.team_game and not per_game
                        and all((xp[:, s] == xp[:, s % 2]).all() for s in range(cfg.players)))
        entry = {"name": name, "description": desc, "flag": flag,
                 "scope": "game" if per_game else ("team" if per_team else "seat")}
        if per_game:
            v = xp[:, 0]
            if flag:
                p, low, high, _, _ = intervals.clustered_proportion(per_deal_sum(cfg, v), gd)
                entry.update(rate=float(p), low=float(low), high=float(high), count=int(v.sum()))
            else:
                entry.update(mean=float(v.mean()), max=int(v.max()), min=int(v.min()), **_quantiles(v))
                entry["values"] = v
        else:
            # by seat (non-player seats too) and by strategy, over seat-games
            seat_vals = x.astype(float)
            ds = per_deal_sum(cfg, seat_vals)
            if flag:
                p, low, high, _, _ = intervals.clustered_proportion(ds, np.repeat(gd[:, None], cfg.seats, axis=1))
                entry["by_seat"] = pd.DataFrame({"rate": p, "ci_low": low, "ci_high": high},
                                                index=seat_names[:cfg.seats])
            else:
                entry["by_seat"] = pd.DataFrame({"mean": seat_vals.mean(axis=0)}, index=seat_names[:cfg.seats])
            flat = cfg.strat.reshape(-1).astype(np.int64)
            vals = seat_vals.reshape(-1)
            idx = np.repeat(cfg.deal, cfg.seats) * k + flat
            m = np.bincount(idx, minlength=cfg.deals * k).reshape(cfg.deals, k).astype(float)
            y = np.bincount(idx, weights=vals, minlength=cfg.deals * k).reshape(cfg.deals, k)
            del idx
            present = np.flatnonzero(m.sum(axis=0) > 0)
            if flag:
                p, low, high, _, _ = intervals.clustered_proportion(y[:, present], m[:, present])
                entry["by_strategy"] = pd.DataFrame({"rate": p, "ci_low": low, "ci_high": high},
                                                    index=[cfg.names[j] for j in present])
            else:
                entry["by_strategy"] = pd.DataFrame({"mean": y[:, present].sum(axis=0) / m[:, present].sum(axis=0)},
                                                    index=[cfg.names[j] for j in present])
            entry["mean"] = float(xp.mean())
        out.append(entry)
    points = [c for c in (spec.points if spec else ()) if c in cfg.columns]
    if points:
        comp = competitor_columns(cfg)
        total = float(cfg.score[:, comp].astype(np.int64).sum())
        parts = {c: float(cfg.extra[c][:, comp].astype(np.int64).sum()) for c in points}
        whole = bool((sum(cfg.extra[c][:, comp].astype(np.int64) for c in points)
                      == cfg.score[:, comp]).all())
        per = cfg.tables * len(comp)  # team-games (seat-games): each competitor's points
        out.append({"name": "_points", "points": {c: {"per_game": v / per,
                                                       "share": v / total if total else math.nan}
                                                   for c, v in parts.items()},
                    "whole_score": whole, "per": "team" if cfg.team_game else "seat",
                    "title": spec.points_title})
    return out


# ----------------------------------------------------------------------------- rule variants
def common_deals(a: Config, b: Config):
    """Indices (into each configuration's deals) of the deals both played: same seed and game."""
    seeds = np.unique(np.concatenate([a.deal_seed, b.deal_seed]))
    span = int(max(a.deal_game.max(), b.deal_game.max())) + 1
    ka = np.searchsorted(seeds, a.deal_seed).astype(np.int64) * span + a.deal_game
    kb = np.searchsorted(seeds, b.deal_seed).astype(np.int64) * span + b.deal_game
    _, ia, ib = np.intersect1d(ka, kb, assume_unique=True, return_indices=True)
    return ia, ib


def _balance_interval(rates, estimate: float, level: float = 0.95) -> tuple[float, float]:
    """The balance figure's interval (:func:`intervals.balance_interval`), widened if need be to hold
    ``estimate`` (computed on win sums, it can differ from the per-deal rates' when deals hold
    different numbers of games): the estimate is always inside its interval."""
    low, high = intervals.balance_interval(rates, level)
    return min(low, estimate), max(high, estimate)


def balance_gain(wins_a, games_a, wins_b, games_b, level: float = 0.95) -> tuple[float, float, float]:
    """(gain, low, high): the balance figure under rules b minus that under rules a, positive =
    fairer, from per-deal unit wins [D, U] and games [D] of the same deals under each, with the
    paired interval of :func:`intervals.balance_gain_interval` (simultaneous intervals of every pair of
    units' gap under each rule set and of its change, deal by deal). The gain is the one of the
    two balance figures (win sums), and the interval is widened if need be to hold it (the
    per-deal rates' mean differs from it only when deals hold different numbers of games)."""
    gain = float(balance_of(wins_b.sum(axis=0), games_b.sum()) - balance_of(wins_a.sum(axis=0), games_a.sum()))
    t = intervals.balance_gain_interval(wins_a / games_a[:, None], wins_b / games_b[:, None], level)
    return gain, min(t.low, gain), max(t.high, gain)


def compare_variants(configs: list[Config], seats: dict) -> list[dict]:
    """For each player count with several rule variants: each variant against the first, on the
    deals both played: the balance figure gained (:func:`balance_gain`, a paired interval),
    per-unit win-rate differences and first-player advantage difference (paired score intervals
    over deals)."""
    out = []
    by_players: dict[int, list[Config]] = {}
    for c in configs:
        by_players.setdefault(c.players, []).append(c)
    for players, group in sorted(by_players.items()):
        if len(group) < 2:
            continue
        base = group[0]
        rows = []
        names, wa_all = units(base)
        wa_deal, ga_deal = per_deal_sum(base, wa_all), tables_per_deal(base)
        for other in group[1:]:
            _, wb_all = units(other)
            wb_deal, gb_deal = per_deal_sum(other, wb_all), tables_per_deal(other)
            ia, ib = common_deals(base, other)
            row = {"variant": other.label, "common_deals": len(ia)}
            if len(ia) >= 2:
                ra = wa_deal[ia] / ga_deal[ia][:, None]
                rb = wb_deal[ib] / gb_deal[ib][:, None]
                row.update(zip(("balance_diff", "balance_diff_low", "balance_diff_high"),
                               balance_gain(wa_deal[ia], ga_deal[ia], wb_deal[ib], gb_deal[ib])))
                row["units"] = []
                for u, uname in enumerate(names):
                    t = intervals.paired_mean(rb[:, u] - ra[:, u], bounds=intervals.DIFFERENCE)
                    row["units"].append({"unit": uname, "diff": t.estimate, "low": t.low, "high": t.high,
                                         "p_value": t.p_value})
                fa = _first_excess_per_deal(base)[ia]
                fb = _first_excess_per_deal(other)[ib]
                t = intervals.paired_mean(fb - fa, bounds=(-2.0, 2.0))  # each in [-1, 1]
                row.update(first_diff=t.estimate, first_diff_low=t.low, first_diff_high=t.high,
                           first_diff_p=t.p_value)
            rows.append(row)
        out.append({"players": players, "baseline": base.label,
                    "variants": [{"label": c.label, "options": c.options, "rules_version": c.rules_version,
                                  "deals": c.deals, "games": c.tables, **{k: seats[id(c)][k] for k in (
                                      "balance", "balance_low", "balance_high", "first_rate", "first_low",
                                      "first_high", "equal_p")},
                                  "units": seats[id(c)]["units"]} for c in group],
                    "comparisons": rows})
    return out


def _first_excess_per_deal(cfg: Config) -> np.ndarray:
    _, w = units(cfg)
    su = start_unit(cfg)
    first_win = w[np.arange(cfg.tables), su].astype(float)
    return per_deal_sum(cfg, first_win - w.mean(axis=1)) / tables_per_deal(cfg)


# ----------------------------------------------------------------------------- everything
@dataclass
class ConfigReport:
    cfg: Config
    strategies: pd.DataFrame
    ratings: pd.DataFrame
    rating_info: dict
    pairwise: pd.DataFrame
    seats: dict
    shape: dict
    columns: list


def analyse(configs: list[Config], rating_sample: int = RATING_SAMPLE) -> tuple[list[ConfigReport], list[dict]]:
    reports = []
    seats = {}
    for cfg in configs:
        ratings, info = fit_ratings(cfg, rating_sample)
        seat = seat_analysis(cfg)
        seats[id(cfg)] = seat
        reports.append(ConfigReport(cfg, strategy_table(cfg), ratings, info, pairwise_table(cfg), seat,
                                    shape_analysis(cfg), column_analysis(cfg)))
    return reports, compare_variants(configs, seats)
