"""Synthetic results datasets with known truths, for testing the reports' statistics and for the
reporting benchmark: planted strategy strengths, seat and first-player advantages, deal luck
shared by every seating of a deal (as in a duplicate tournament), draws, team games, lowest-score
wins, non-player seats and game columns. Written in exactly the format of ``tourney run``
(Parquet parts and ``_manifest.json``), or handed over in memory as a :class:`~tourney_sim.simulate.stats.load.Config`.

The model: in game g (deal d) seat s gets the utility
``strength[strategy] + seat_bias[s] + first_bias*(s == start) + luck[d, s] + noise * Gumbel``
(``luck`` is drawn once per deal and seat, so every seating of a deal shares it); competitors
(seats, or teams by their members' mean utility) finish in utility order (Plackett-Luce), the
score is a rounded affine function of the utility, and with probability ``draw`` the runner-up
is given the winner's score (a shared first place).
"""
from __future__ import annotations

import json
import math
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from tourney_sim.simulate.results import FORMAT, write_manifest


@dataclass
class Game:
    name: str = "synthetic"
    players: int = 4
    team_game: bool = False
    better: str = "high"
    extra_seats: tuple = ()
    rules_version: int = 1
    options: dict = field(default_factory=dict)
    columns: dict = field(default_factory=dict)  # name -> description (values from ``column_fn``)

    @property
    def seats(self) -> int:
        return self.players + len(self.extra_seats)


def play(game: Game, seating: list[str], strength: dict, n_games: int, *, seed: int = 0,
         first_game: int = 0, seat_bias=None, first_bias: float = 0.0, luck: float = 0.0,
         noise: float = 1.0, draw: float = 0.0, varying_start: bool = False, column_fn=None) -> dict:
    """Results of games ``first_game ..`` of one fixed seating (strategy name per player seat).

    Everything about deal *i* (luck, start seat, noise seeds) depends only on (seed, i); the
    table noise also on the seating, so different seatings of a deal differ only by their luck.
    """
    n, s_all = game.players, game.seats
    names = list(dict.fromkeys(seating)) + list(game.extra_seats)
    idx = np.arange(first_game, first_game + n_games)
    deal_rng = np.random.default_rng([seed, 7])
    # per-deal luck and start seat, drawn for the whole range up to the last game (by index)
    span = first_game + n_games
    luck_all = deal_rng.normal(0, 1, (span, s_all)) * luck
    start_all = deal_rng.integers(0, n, span) if varying_start else np.zeros(span, np.int64)
    lk, start = luck_all[idx], start_all[idx]
    table_rng = np.random.default_rng([seed, 11, zlib.crc32("-".join(seating).encode()), first_game])
    strat = np.array([names.index(x) for x in seating] + [names.index(x) for x in game.extra_seats], np.int16)
    strat = np.tile(strat, (n_games, 1))
    base = np.array([strength.get(names[j], 0.0) for j in strat[0]])
    bias = np.zeros(s_all) if seat_bias is None else np.resize(np.asarray(seat_bias, float), s_all)
    u = base + bias + lk + noise * table_rng.gumbel(0, 1, (n_games, s_all))
    u[np.arange(n_games), start] += first_bias
    if game.team_game:
        team_u = np.stack([u[:, 0:n:2].mean(axis=1), u[:, 1:n:2].mean(axis=1)], axis=1)
        comp_u = team_u
    else:
        comp_u = u
    comp_score = np.rint(20 + 5 * comp_u).astype(np.int32)
    if game.better == "low":
        comp_score = np.rint(20 - 5 * comp_u).astype(np.int32)
    if draw > 0:
        tie = table_rng.random(n_games) < draw
        order = np.argsort(-comp_u, axis=1)
        rows = np.flatnonzero(tie)
        comp_score[rows, order[rows, 1]] = comp_score[rows, order[rows, 0]]
    better_score = comp_score if game.better == "high" else -comp_score
    comp_rank = 1 + (better_score[:, None, :] > better_score[:, :, None]).sum(axis=2)
    if game.team_game:
        team = np.arange(s_all) % 2
        score, rank = comp_score[:, team], comp_rank[:, team]
    else:
        score, rank = comp_score, comp_rank
    out = {"names": names, "strat": strat, "score": score.astype(np.int32), "rank": rank.astype(np.int8),
           "win": rank == 1, "start": start.astype(np.int8),
           "decisions": (40 + table_rng.integers(0, 40, n_games)).astype(np.int32),
           "game_index": idx.astype(np.int64), "extra": {}}
    if column_fn is not None:
        out["extra"] = {k: np.asarray(v, np.int32) for k, v in column_fn(out, u, table_rng).items()}
    return out


def to_table(game: Game, r: dict) -> pa.Table:
    g, s = r["strat"].shape
    cols = {
        "game": pa.array(np.repeat(r["game_index"], s)),
        "seat": pa.array(np.tile(np.arange(s, dtype=np.int8), g)),
        "strategy": pa.DictionaryArray.from_arrays(pa.array(r["strat"].reshape(-1).astype(np.int8)),
                                                   pa.array(r["names"], pa.string())),
        "team": pa.array(np.tile(np.array([x % 2 if game.team_game and x < game.players else x
                                           for x in range(s)], np.int8), g)),
        "score": pa.array(r["score"].reshape(-1)),
        "rank": pa.array(r["rank"].reshape(-1)),
        "win": pa.array(r["win"].reshape(-1)),
        "start_seat": pa.array(np.repeat(r["start"], s)),
        "decisions": pa.array(np.repeat(r["decisions"], s)),
    }
    for name in game.columns:
        cols[name] = pa.array(r["extra"][name].reshape(-1))
    return pa.table(cols)


def manifest(game: Game, seating: list[str], seed: int, games: int, **extra) -> dict:
    m = {
        "format": FORMAT, "tool": "tourney", "tool_version": "synthetic", "game": game.name,
        "rules_version": game.rules_version, "players": game.players, "options": game.options,
        "seed": seed, "games": games, "seats": list(seating), "rotate": False,
        "strategies": [{"name": x, "description": "synthetic", "origin": "synthetic"}
                       for x in dict.fromkeys(seating)],
        "extra_seats": list(game.extra_seats), "columns": dict(game.columns), "better": game.better,
        "team_game": game.team_game, "chunk_size": games, "command": "synthetic",
        "created": "2000-01-01T00:00:00+00:00", "status": "complete", "parts": [], "games_done": games,
    }
    m.update(extra)
    return m


def write_dataset(out: Path, game: Game, seating: list[str], strength: dict, n_games: int, *,
                  seed: int = 0, parts: int = 1, **kw) -> Path:
    """A dataset directory of one seating, in ``parts`` Parquet parts."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    bounds = np.linspace(0, n_games, parts + 1).astype(int)
    m = manifest(game, seating, seed, n_games)
    for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
        r = play(game, seating, strength, int(b - a), seed=seed, first_game=int(a), **kw)
        pq.write_table(to_table(game, r), out / f"part-{i:06d}.parquet")
        m["parts"].append({"file": f"part-{i:06d}.parquet", "first_game": int(a), "games": int(b - a)})
    write_manifest(out, m)
    return out


def all_seatings(names: list[str], players: int) -> list[list[str]]:
    """Every distinct arrangement of the strategies over the seats (each appears at least once
    when there are enough seats; a simple duplicate design for tests)."""
    from itertools import permutations, product
    if len(names) <= players:
        pool = set()
        for combo in product(names, repeat=players):
            if set(combo) == set(names):
                pool.add(combo)
        return [list(x) for x in sorted(pool)]
    return [list(x) for x in permutations(names, players)]


def write_tournament(out: Path, game: Game, names: list[str], strength: dict, n_deals: int, *,
                     seed: int = 0, seatings=None, variant: str | None = None, **kw) -> Path:
    """A duplicate tournament directory: every seating plays deals 0..n_deals-1 (same luck)."""
    out = Path(out)
    seatings = seatings or all_seatings(names, game.players)
    entries = []
    for seating in seatings:
        d = "-".join(seating)
        write_dataset(out / d, game, seating, strength, n_deals, seed=seed, **kw)
        entries.append({"dir": d, "seats": seating, "matchup": "synthetic", "variant": variant})
    t = {"format": "tourney-tournament/1", "tool_version": "synthetic", "game": game.name,
         "players": game.players, "strategies": names, "seed": seed, "games": n_deals,
         "datasets": entries, "command": "synthetic", "status": "complete"}
    (out / "_tournament.json").write_text(json.dumps(t, indent=1))
    return out


def write_sequential_tournament(out: Path, game: Game, names: list[str], strength: dict, cap: int, stop, *,
                                first_batch: int = 1000, seed: int = 0, seatings=None, **kw) -> dict:
    """A duplicate tournament played as ``tourney tournament --until-decided`` plays it: batches
    of deals (``simulate.tournament.plan_batches``: ``first_batch``, then half of what is done,
    up to ``cap``), each batch one part of every seating, written and handed to the stopping rule
    ``stop`` (a :class:`~tourney_sim.simulate.stats.sequential.Sequential`) as the tournament hands it
    the new parts, until it is decided or the cap is reached. Writes ``_tournament.json`` with its
    ``until_decided`` record as the tournament does, and returns that record."""
    out = Path(out)
    seatings = seatings or all_seatings(names, game.players)
    looks = look_schedule(cap, first_batch)
    dirs, manifests, entries = [], [], []
    for seating in seatings:
        d = out / "-".join(seating)
        d.mkdir(parents=True, exist_ok=True)
        dirs.append(d)
        manifests.append(manifest(game, seating, seed, cap, chunk_size=first_batch))
        entries.append({"dir": d.name, "seats": list(seating), "matchup": "synthetic", "variant": None})
    done, stopped = 0, "cap"
    for k, upto in enumerate(looks):
        new_files = {}
        for d, m, seating in zip(dirs, manifests, seatings):
            r = play(game, seating, strength, upto - done, seed=seed, first_game=done, **kw)
            name = f"part-{k:06d}.parquet"
            pq.write_table(to_table(game, r), d / name)
            m["parts"].append({"file": name, "first_game": done, "games": upto - done})
            m["games_done"] = upto
            write_manifest(d, m)
            new_files[d.resolve()] = [d / name]
        done = upto
        stop.add_datasets([(d, m, None) for d, m in zip(dirs, manifests)], new_files)
        if stop.decided:
            stopped = "decided"
            break
    record = {**stop.summary(), "stopped": stopped, "cap": cap}
    t = {"format": "tourney-tournament/1", "tool_version": "synthetic", "kind": "tournament", "game": game.name,
         "players": game.players, "strategies": list(names), "seed": seed, "games": cap, "datasets": entries,
         "command": "synthetic", "created": "2000-01-01T00:00:00+00:00", "status": "complete",
         "sequential": {"alpha": stop.alpha, "margin": stop.margin, "first_batch": first_batch},
         "deals_played": done, "until_decided": record}
    (out / "_tournament.json").write_text(json.dumps(t, indent=1))
    return record


def config(game: Game, seatings: list[list[str]], strength: dict, n_deals: int, *, seed: int = 0, **kw):
    """The same games as :func:`write_tournament`, straight into a loaded Config (no files):
    for statistics tests repeated hundreds of times."""
    from tourney_sim.simulate.stats.load import Config, Source, _assign_deals

    names: list[str] = []
    results = []
    for seating in seatings:
        r = play(game, seating, strength, n_deals, seed=seed, **kw)
        for x in r["names"]:
            if x not in names:
                names.append(x)
        mapping = np.array([names.index(x) for x in r["names"]], np.int16)
        r["strat"] = mapping[r["strat"]]
        results.append(r)
    cat = lambda k: np.concatenate([r[k] for r in results])  # noqa: E731
    cfg = Config(game=game.name, players=game.players, rules_version=game.rules_version,
                 options=game.options, team_game=game.team_game, better=game.better,
                 extra_seats=list(game.extra_seats), columns=dict(game.columns),
                 sources=[Source(Path(f"mem/{i}"), manifest(game, s, seed, n_deals)) for i, s in enumerate(seatings)],
                 names=names, is_player=np.array([x not in game.extra_seats for x in names]),
                 strat=cat("strat"), win=cat("win"), rank=cat("rank"), score=cat("score"), start=cat("start"),
                 decisions=cat("decisions"), game_index=cat("game_index"),
                 seed=np.full(sum(len(r["start"]) for r in results), seed, np.uint64),
                 source=np.concatenate([np.full(len(r["start"]), i, np.int16) for i, r in enumerate(results)]),
                 extra={c: np.concatenate([r["extra"][c] for r in results]) for c in game.columns},
                 label=f"{game.players} players")
    _assign_deals(cfg)
    return cfg


# ----------------------------------------------------------------------------- interval coverage
# Simulated per-deal outcomes with a known truth, for measuring how often each of the reports'
# intervals holds it (``scripts/bench_coverage.py``, ``tests/test_coverage.py``). Bernoulli and
# multinomial outcomes are enough: every interval sees only per-deal values.
@dataclass
class Coverage:
    family: str  # seat win rate | paired difference | balance figure | sequential
    scenario: str  # the truth, in words
    deals: int  # per replicate (sequential: the cap)
    reps: int
    covered: float  # share of replicates whose interval holds the truth
    width: float  # mean width of the interval
    note: str = ""  # e.g. the sequential questions' mean deals at the stop

    def row(self) -> list[str]:
        return [self.family, self.scenario, f"{self.deals:,}", f"{self.reps:,}", f"{100 * self.covered:.1f}%",
                f"{self.width:.4f}", self.note]


def winners(probs, deals: int, reps: int, rng) -> np.ndarray:
    """[reps, deals] index of the unit that wins each deal (one game per deal), with ``probs``."""
    return rng.choice(len(probs), size=(reps, deals), p=np.asarray(probs, float) / np.sum(probs))


def seat_rate_coverage(probs, deals: int, reps: int, rng, level: float = 0.95) -> Coverage:
    """Unit 0's win rate (deal-clustered Wilson, :func:`stats.clustered_proportion`)."""
    from tourney_sim.simulate.stats import intervals as stats
    y = (winners(probs, deals, reps, rng) == 0).astype(float).T  # [deals, reps]
    truth = probs[0] / np.sum(probs)
    _, low, high, _, _ = stats.clustered_proportion(y, np.ones_like(y), level)
    return Coverage("seat win rate", f"win rate {truth:.3g}", deals, reps,
                    float(np.mean((low <= truth) & (truth <= high))), float(np.mean(high - low)),
                    f"exact (binomial sum): {100 * wilson_coverage(truth, deals, level):.1f}%")


def wilson_coverage(p: float, n: int, level: float = 0.95) -> float:
    """The exact coverage of Wilson's interval for n independent trials of chance p (a sum over
    the binomial distribution, no simulation noise): it oscillates around ``level`` with n and p."""
    from scipy.stats import binom

    from tourney_sim.simulate.stats import intervals as stats
    k = np.arange(n + 1)
    low, high = stats.wilson(k, n, level)
    return float(binom.pmf(k, n, p) @ ((low <= p) & (p <= high)))


def paired_outcomes(p_win: float, p_loss: float, deals: int, reps: int, rng) -> np.ndarray:
    """[reps, deals] per-deal differences a - b of two players' wins: +1 with ``p_win`` (a wins, b
    does not), -1 with ``p_loss``, else 0 (both or neither)."""
    u = rng.random((reps, deals))
    return np.where(u < p_win, 1.0, np.where(u < p_win + p_loss, -1.0, 0.0))


def paired_coverage(p_win: float, p_loss: float, deals: int, reps: int, rng, level: float = 0.95,
                    method: str = "score") -> Coverage:
    """A paired win-rate difference (:func:`stats.paired_mean` on [-1, 1]; ``method="t"``: the t
    interval it replaced, for contrast)."""
    from tourney_sim.simulate.stats import intervals as stats
    x = paired_outcomes(p_win, p_loss, deals, reps, rng)
    truth = p_win - p_loss
    bounds = stats.DIFFERENCE if method == "score" else None
    ends = np.array([stats.paired_mean(row, level, bounds)[1:3] for row in x])
    ok = (ends[:, 0] <= truth + 1e-12) & (truth - 1e-12 <= ends[:, 1])
    return Coverage("paired difference", f"+1 {p_win:g}, -1 {p_loss:g} (mean {truth:+.3g})"
                    + (" [t interval]" if method == "t" else ""), deals, reps, float(ok.mean()),
                    float(np.mean(ends[:, 1] - ends[:, 0])))


def balance_coverage(probs, deals: int, reps: int, rng, level: float = 0.95) -> Coverage:
    """The balance figure's interval (:func:`stats.balance_interval`) for units winning a deal with
    ``probs`` (a tie: all equal)."""
    from tourney_sim.simulate.stats import intervals as stats
    probs = np.asarray(probs, float) / np.sum(probs)
    truth = 1 - (probs.max() - probs.min())
    w = winners(probs, deals, reps, rng)
    covered, widths, inside = 0, [], 0
    for row in w:
        rates = (row[:, None] == np.arange(len(probs))).astype(float)
        low, high = stats.balance_interval(rates, level)
        p = rates.mean(axis=0)
        est = 1 - (p.max() - p.min())
        covered += low - 1e-12 <= truth <= high + 1e-12
        inside += low - 1e-12 <= est <= high + 1e-12
        widths.append(high - low)
    note = "estimate inside: all" if inside == reps else f"estimate inside {inside}/{reps}"
    return Coverage("balance figure", f"seat rates {', '.join(f'{p:.3g}' for p in probs)} (balance {truth:.3g})",
                    deals, reps, covered / reps, float(np.mean(widths)), note)


def look_schedule(cap: int, first_batch: int) -> list[int]:
    """Deals done at each look of ``--until-decided`` (``simulate.tournament.plan_batches``)."""
    from tourney_sim.simulate.tournament import plan_batches
    return [first + size for (_, first, size), in plan_batches(cap, cap, True, first_batch)]


def sequential_coverage(p_win: float, p_loss: float, cap: int, first_batch: int, reps: int, rng,
                        alpha: float = 0.05, margin: float = 0.02, widths: int = 100) -> Coverage:
    """A ``--until-decided`` question (:func:`stats.anytime_interval` tuned to ``cap``, looked at
    on the study's schedule, stopped once decided: 0 excluded, or +-margin both excluded): does
    the interval at the stop hold the truth? Width measured on the first ``widths`` replicates."""
    from tourney_sim.simulate.stats import intervals as stats
    x = paired_outcomes(p_win, p_loss, cap, reps, rng)
    truth = p_win - p_loss
    looks = look_schedule(cap, first_batch)
    rej = stats.anytime_rejects(x, alpha, cap, [truth, 0.0, -margin, margin], looks)  # [reps, L, 4]
    decided = rej[..., 1] | (rej[..., 2] & rej[..., 3])
    stop = np.where(decided.any(axis=1), decided.argmax(axis=1), len(looks) - 1)
    missed = rej[np.arange(reps), stop, 0]
    at = np.array(looks)[stop]
    w = [stats.anytime_interval(x[i, :at[i]], alpha, cap) for i in range(min(widths, reps))]
    return Coverage("sequential", f"+1 {p_win:g}, -1 {p_loss:g} (mean {truth:+.3g}), alpha {alpha:g}", cap, reps,
                    float(1 - missed.mean()), float(np.mean([t.high - t.low for t in w])),
                    f"stopped at {at.mean():.0f} deals on average, decided {decided.any(axis=1).mean():.0%}")


def paired_unit_rates(probs_default, probs_option, same: float, deals: int, reps: int, rng,
                      shared: tuple = (0.0, 0.0)) -> tuple[np.ndarray, np.ndarray]:
    """Per-deal unit win rates of the same deals under two rule sets: [reps, deals, units] each.
    Under each, one unit wins a deal alone with ``probs_*`` (normalised to 1 - ``shared[k]``) and
    every unit shares first place with chance ``shared[k]`` (a draw: each wins, as in the
    datasets); the two rule sets give a deal the same draw of luck with chance ``same``, else
    independent ones (``same = 1`` with equal probabilities: an option that changes nothing)."""
    def rates(probs, draw, u):
        p = np.asarray(probs, float)
        cut = np.cumsum(np.r_[p / p.sum() * (1 - draw), draw])
        k = np.minimum(np.searchsorted(cut, u, side="right"), len(p))  # len(p): a shared first place
        return (k[..., None] == np.arange(len(p))) | (k[..., None] == len(p))

    u = rng.random((reps, deals))
    v = np.where(rng.random((reps, deals)) < same, u, rng.random((reps, deals)))
    return rates(probs_default, shared[0], u).astype(float), rates(probs_option, shared[1], v).astype(float)


def gain_coverage(probs_default, probs_option, same: float, deals: int, reps: int, rng, level: float = 0.95,
                  shared: tuple = (0.0, 0.0), what: str = "", contrast: int = 200) -> Coverage:
    """The balance figure gained by a rule option (:func:`stats.balance_gain_interval`, paired on
    the same deals) for units winning with known chances under each rule set
    (:func:`paired_unit_rates`); the note gives, on the first ``contrast`` replicates, the
    unpaired interval it replaced (each rule set's balance interval at 97.5%, their difference)."""
    from tourney_sim.simulate.stats import intervals as stats

    def balance(probs, draw):
        p = np.asarray(probs, float) / np.sum(probs) * (1 - draw) + draw
        return 1 - (p.max() - p.min())

    truth = balance(probs_option, shared[1]) - balance(probs_default, shared[0])
    a, b = paired_unit_rates(probs_default, probs_option, same, deals, reps, rng, shared)
    tol = 1e-12
    covered = inside = old_covered = 0
    widths, old_widths = [], []
    for i, (ra, rb) in enumerate(zip(a, b)):
        t = stats.balance_gain_interval(ra, rb, level)
        covered += t.low - tol <= truth <= t.high + tol
        inside += t.low - tol <= t.estimate <= t.high + tol
        widths.append(t.high - t.low)
        if i >= contrast:
            continue
        low_a, high_a = stats.balance_interval(ra, 1 - (1 - level) / 2)
        low_b, high_b = stats.balance_interval(rb, 1 - (1 - level) / 2)
        old_covered += low_b - high_a - tol <= truth <= high_b - low_a + tol
        old_widths.append(high_b - low_a - (low_b - high_a))
    note = ("estimate inside: all" if inside == reps else f"estimate inside {inside}/{reps}") + \
        (f"; unpaired (replaced, first {len(old_widths):,}): {100 * old_covered / len(old_widths):.1f}%, "
         f"width {np.mean(old_widths):.4f}" if old_widths else "")
    scenario = (f"{what}: " if what else "") + \
        f"{', '.join(f'{p:.3g}' for p in probs_default)} → {', '.join(f'{p:.3g}' for p in probs_option)}" + \
        (f", draws {shared[0]:g} → {shared[1]:g}" if any(shared) else "") + \
        f", same deal {same:g} (gain {truth:+.3g})"
    return Coverage("balance gained", scenario, deals, reps, covered / reps, float(np.mean(widths)), note)


# ----------------------------------------------------------------------------- dealt components
# What each seat was dealt (the ``dealt`` column) with a planted effect of each kind on winning,
# for the component effects (:mod:`tourney_sim.simulate.stats.components`): a deck of kinds is shuffled
# and dealt out whole, and a unit (seat, or team) wins with chance
# ``1/U + sum_k effect[k] * (x[u, k] - mean over units of x[., k])``: linear in what it holds, so
# the regression's contrast has a known value (:func:`dealt_truth`).
@dataclass
class Deck:
    kinds: list[str]
    counts: list[int]  # copies of each kind; the whole deck is dealt, the same number to every seat
    effects: dict = field(default_factory=dict)  # kind -> planted effect of one more copy (0.06: 6 pp)

    @property
    def size(self) -> int:
        return int(sum(self.counts))


def deal(deck: Deck, seats: int, n_games: int, rng) -> np.ndarray:
    """[games, seats, kinds] counts: each game's shuffled deck split evenly among the seats."""
    cards = np.repeat(np.arange(len(deck.kinds)), deck.counts)
    if len(cards) % seats:
        raise ValueError(f"a deck of {len(cards)} cards does not split evenly among {seats} seats")
    order = rng.permuted(np.tile(cards, (n_games, 1)), axis=1).reshape(n_games, seats, -1)
    out = np.zeros((n_games, seats, len(deck.kinds)), np.uint16)
    for k in range(len(deck.kinds)):
        out[..., k] = (order == k).sum(axis=2)
    return out


def unit_members(game: Game) -> list[list[int]]:
    return ([[s for s in range(game.players) if s % 2 == t] for t in (0, 1)] if game.team_game
            else [[s] for s in range(game.players)])


def play_dealt(game: Game, deck: Deck, n_games: int, *, seed: int = 0, first_game: int = 0) -> dict:
    """Results of games ``first_game ..`` (as :func:`play`: one strategy, ``synthetic``) with a
    ``dealt`` matrix [games, seats, kinds] and the win model above; deal i depends on (seed, i)
    alone."""
    if game.extra_seats:
        raise ValueError("the dealt model deals to player seats only")
    rng = np.random.default_rng([seed, 13, first_game])
    dealt = deal(deck, game.players, n_games, rng)
    members = unit_members(game)
    x = np.stack([dealt[:, m, :].sum(axis=1) for m in members], axis=1).astype(float)
    effect = np.array([deck.effects.get(k, 0.0) for k in deck.kinds])
    p = 1 / len(members) + ((x - x.mean(axis=1, keepdims=True)) * effect).sum(axis=2)
    if (p < 0).any() or (p > 1).any():
        raise ValueError("the planted effects make a win chance leave [0, 1]: plant smaller ones")
    u = rng.random(n_games)[:, None]
    winner = (u > np.cumsum(p, axis=1)).sum(axis=1).clip(0, len(members) - 1)
    unit_win = winner[:, None] == np.arange(len(members))
    seat_unit = np.array([next(i for i, m in enumerate(members) if s in m) for s in range(game.players)])
    win = unit_win[:, seat_unit]
    rank = np.where(win, 1, 2).astype(np.int8)
    idx = np.arange(first_game, first_game + n_games, dtype=np.int64)
    return {"names": ["synthetic"], "strat": np.zeros((n_games, game.players), np.int16),
            "score": win.astype(np.int32), "rank": rank, "win": win,
            "start": np.zeros(n_games, np.int8), "decisions": np.full(n_games, 40, np.int32),
            "game_index": idx, "extra": {}, "dealt": dealt}


def dealt_truth(game: Game, deck: Deck) -> dict:
    """The estimand of each kind under the model: its planted effect minus the share-weighted
    mean effect (holding one more copy in place of the average card)."""
    effect = np.array([deck.effects.get(k, 0.0) for k in deck.kinds])
    share = np.asarray(deck.counts, float) / deck.size
    return dict(zip(deck.kinds, effect - share @ effect))


def dealt_column(dealt: np.ndarray) -> pa.Array:
    """[games, seats, kinds] counts as the ``list<uint16>`` column (one list per row)."""
    g, s, k = dealt.shape
    offsets = pa.array(np.arange(0, g * s * k + 1, k, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(dealt.reshape(-1).astype(np.uint16)))


def write_dealt_dataset(out: Path, game: Game, deck: Deck, n_games: int, *, seed: int = 0,
                        parts: int = 1) -> Path:
    """A dataset directory (one seating of ``synthetic``) with the ``dealt`` column and the
    manifest's ``dealt_kinds``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    seating = ["synthetic"] * game.players
    m = manifest(game, seating, seed, n_games, dealt_kinds=list(deck.kinds))
    bounds = np.linspace(0, n_games, parts + 1).astype(int)
    for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
        r = play_dealt(game, deck, int(b - a), seed=seed, first_game=int(a))
        table = to_table(game, r).append_column("dealt", dealt_column(r["dealt"]))
        pq.write_table(table, out / f"part-{i:06d}.parquet")
        m["parts"].append({"file": f"part-{i:06d}.parquet", "first_game": int(a), "games": int(b - a)})
    write_manifest(out, m)
    return out


def dealt_effects_coverage(game: Game, deck: Deck, deals: int, reps: int, seed: int = 0) -> Coverage:
    """Each kind's 95% interval (:mod:`components`) against the truth, over ``reps`` datasets:
    the share of (replicate, kind) intervals that hold it; the note gives the replicates with a
    false finding: a kind whose truth is 0 called an effect, or one called an effect of the wrong
    sign (with nothing planted: the family's error rate)."""
    from tourney_sim.simulate.stats import components

    truth = dealt_truth(game, deck)
    covered, total, widths, false_any = 0, 0, [], 0
    for r in range(reps):
        res = play_dealt(game, deck, deals, seed=seed * 100_003 + r)
        members = unit_members(game)
        x = np.stack([res["dealt"][:, m, :].sum(axis=1) for m in members], axis=1)
        w = res["win"][:, [m[0] for m in members]]
        eff = components.estimate(components.arrays_blocks(x, w), deck.kinds, len(members),
                                  "team" if game.team_game else "seat")
        false = False
        for k in eff.estimated():
            covered += k.low <= truth[k.kind] <= k.high
            total += 1
            widths.append(k.high - k.low)
            false |= k.outcome == "finding" and (abs(truth[k.kind]) < 1e-12
                                                 or (k.effect > 0) != (truth[k.kind] > 0))
        false_any += false
    planted = ", ".join(f"{k} {100 * v:+.1f} pp" for k, v in deck.effects.items()) or "nothing planted"
    return Coverage("component effect", f"{len(deck.kinds)} kinds, {planted}", deals, reps,
                    covered / max(total, 1), float(np.mean(widths)) if widths else math.nan,
                    f"replicates with a false finding: {false_any}/{reps}")
