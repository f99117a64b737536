#!/usr/bin/env python
"""The apprentice's figures (issue 41), per game and player count the study's search level covers.
A benchmark, never a test: every figure is measured here, with its command.

Parts (``--parts``, default all but ``table``):

- ``speed``: games per second of everyone playing the shipped ``apprentice`` and of everyone
  playing the game's tuned heuristic (its guide), alternating, ``--repeats`` times, the median of
  the per-repeat ratios (the machines are shared: ratios measured side by side): end to end (the
  whole ``tourney run`` command, Parquet written, default workers, as many games as the
  heuristic's kernel plays in about four seconds), and the kernel alone (one process, no output).
- ``strength``: on the same ``--deals`` fresh deals (seed ``--seed``), in field seatings (the
  candidate in each seat, or team, in turn; every other seat the tuned heuristic), the shipped
  apprentice, the search (``ismcts``) and the heuristic itself: each one's edge (its win rate
  minus the heuristic's own in the same seats, paired by deal, 95% interval and p), and the share
  of the search's edge the apprentice recovers (bootstrap interval over the deals).
- ``balance``: everyone playing the apprentice and everyone playing the search on the same
  ``--balance-deals`` deals: each seat's (team's) win rate, and whether the apprentice's lies
  within the search's 95% interval.
- ``rollout``: ``ismcts:rollout=apprentice`` against ``ismcts`` (its default play-outs) at the same
  iterations, each in the heuristic's field on the same deals: the paired difference of their
  win rates; and the same in the apprentice's field (every other seat the shipped apprentice):
  a search plays best when its play-outs play as its opponents do, so the two fields can
  disagree (``--rollout-fields guide`` for the first only).
- ``table``: trains an apprentice on a designed table (Cardavia ``match_deals=2``; Colleagues at 4
  players with a component change; Partners with the original rules' bounce, ``house_overshoot=bounce``), measures it against that table's heuristic as ``strength``
  does, and checks that the shipped weights are refused there.

Usage: python scripts/bench_apprentice.py [--only companeros-4] [--parts speed,strength]
       [--deals 2000] [--out docs/apprentice-bench.json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tourney_sim.simulate.backends import open_backend
from tourney_sim.simulate.games.config import GameConfig
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.stats.intervals import paired_summary
from tourney_sim.simulate.stats.measures import candidate_result
from tourney_sim.simulate.tune import Field, candidate_seatings
from tourney_sim.strategies import StrategyError, resolve
from tourney_sim.strategies.common import GUIDES

CONFIGS = [("companeros", 3), ("companeros", 4), ("companeros", 6), ("cardavia", 4), ("colleagues", 2),
           ("colleagues", 4), ("partners", 4)]
#: designed tables the apprentice is trained on (part ``table``): (game, players, rules, components)
#: (1-based addresses: overtime.values[3] is the third Overtime card, worth 4 -> 3)
TABLES = [("cardavia", 4, ["match_deals=2"], []), ("colleagues", 4, [], ["overtime.values[3]=3"]),
          ("partners", 4, ["house_overshoot=bounce"], [])]


def heuristic_of(game: str) -> str:
    resolve(game, ["random"])  # imports the game's strategies (they declare the guide)
    return GUIDES[game].label


def speed(config: GameConfig, repeats: int, games: int) -> dict:
    heuristic = heuristic_of(config.game)
    matchups = {name: make_matchup(config, [name], seed=1) for name in ("apprentice", heuristic)}
    for m in matchups.values():
        play_block(m, 0, 20)  # compile or load from the cache
    rates = {name: [] for name in matchups}
    for r in range(repeats):
        for name, m in matchups.items():
            t = time.perf_counter()
            play_block(m, (r + 1) * games, games)
            rates[name].append(games / (time.perf_counter() - t))
    ratios = [a / h for a, h in zip(rates["apprentice"], rates[heuristic])]
    kernel = {"apprentice_games_per_s": statistics.median(rates["apprentice"]),
              "heuristic_games_per_s": statistics.median(rates[heuristic]), "ratio": statistics.median(ratios),
              "ratios": ratios}
    # end to end: the command a user runs, each one in turn
    games = int(round(kernel["heuristic_games_per_s"] * 4, -3))
    seconds = {name: [] for name in matchups}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeats):
            for name in matchups:
                command = [sys.executable, "-m", "tourney_sim", "run", config.game, "--players", str(config.players),
                           "--strategy", name, "--games", str(games), "--seed", str(r), "--out", f"{tmp}/{name}",
                           "--overwrite", "--quiet"]
                t = time.perf_counter()
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
                seconds[name].append(time.perf_counter() - t)
    ends = [h / a for a, h in zip(seconds["apprentice"], seconds[heuristic])]
    return {"heuristic": heuristic, "kernel": kernel, "end_to_end": {
        "games": games, "apprentice_seconds": statistics.median(seconds["apprentice"]),
        "heuristic_seconds": statistics.median(seconds[heuristic]), "ratio": statistics.median(ends), "ratios": ends}}


#: the rollout part's search: today's search with the apprentice's play-outs
ROLLOUT_SEARCH = "ismcts:rollout=apprentice"


def field_results(config: GameConfig, names: list[str], deals: int, seed: int, backend, where: Path,
                  opponent: str | None = None) -> dict:
    """Each named strategy's result per seating and deal in the field of ``opponent`` (default the
    heuristic) on the same deals."""
    if opponent is not None:
        (s,) = resolve(config.game, [opponent], config=config)
        opponent = s.label
    field = Field(config, [opponent or heuristic_of(config.game)], seed, deals, "win",
                  candidate_seatings(config.players, config.spec.team_game))
    out = {}
    for name in names:
        (s,) = resolve(config.game, [name], config=config)
        t = time.perf_counter()
        out[name] = field.play(s, where / name.replace(":", "_").replace("=", "-"), backend)
        print(f"    {name}: {out[name].mean():.3f} in {time.perf_counter() - t:.0f} s", file=sys.stderr, flush=True)
    return out


def edge(result: np.ndarray, baseline: np.ndarray) -> dict:
    s = paired_summary(result, baseline)
    return {"edge": s["difference"], "ci": s["difference_ci"], "p": s["p_value"], "win_rate": s["best"]}


def share(app: np.ndarray, search: np.ndarray, base: np.ndarray, seed: int, n: int = 2000) -> dict:
    """The apprentice's edge over the search's, on the same deals, with a bootstrap 95% interval."""
    a, s, b = app.mean(axis=0), search.mean(axis=0), base.mean(axis=0)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(a), size=(n, len(a)))
    ratios = (a[idx] - b[idx]).mean(axis=1) / (s[idx] - b[idx]).mean(axis=1)
    return {"share": float((a - b).mean() / (s - b).mean()), "ci": [float(np.quantile(ratios, 0.025)),
                                                                     float(np.quantile(ratios, 0.975))]}


def strength(config: GameConfig, deals: int, seed: int, backend, where: Path) -> dict:
    heuristic = heuristic_of(config.game)
    r = field_results(config, [heuristic, "apprentice", "ismcts"], deals, seed, backend, where)
    base = r[heuristic]
    return {"heuristic": heuristic, "deals": deals, "seed": seed, "apprentice": edge(r["apprentice"], base),
            "search": edge(r["ismcts"], base), "recovered": share(r["apprentice"], r["ismcts"], base, seed)}


def rollout(config: GameConfig, deals: int, seed: int, backend, where: Path, fields=("guide", "apprentice"),
            search: str = ROLLOUT_SEARCH) -> dict:
    """The search with the apprentice's play-outs (or ``search``) against today's, in the guide's
    field (the keys at the top) and in the apprentice's (``apprentice_field``)."""
    out = {"deals": deals, "seed": seed, "search": search}
    for name in fields:
        r = field_results(config, [search, "ismcts"], deals, seed, backend, where / name,
                          opponent=None if name == "guide" else "apprentice")
        s = paired_summary(r[search], r["ismcts"])
        figures = {"difference": s["difference"], "ci": s["difference_ci"], "p": s["p_value"],
                   "apprentice_rollouts": s["best"], "default_rollouts": s["defaults"]}
        if name == "guide":
            out.update(figures)
        else:
            out["apprentice_field"] = figures
    return out


def balance(config: GameConfig, deals: int, seed: int, backend, where: Path) -> dict:
    from tourney_sim.simulate.runner import run
    seatings = candidate_seatings(config.players, config.spec.team_game)
    rates = {}
    for name in ("apprentice", "ismcts"):
        m = make_matchup(config, [name], seed=seed, rotate=False)
        out = where / f"everyone-{name}"
        t = time.perf_counter()
        run(m, deals, out, progress=False, backend=backend, command=None)
        print(f"    everyone {name}: {time.perf_counter() - t:.0f} s", file=sys.stderr, flush=True)
        rates[name] = [candidate_result(out, config.players, list(s), deals, "win", config.spec.better) for s in seatings]
    rows = []
    for s, a, b in zip(seatings, rates["apprentice"], rates["ismcts"]):
        ci = paired_summary(b[None, :], b[None, :])["best_ci"]
        d = paired_summary(a[None, :], b[None, :])
        rows.append({"seats": list(s), "apprentice": float(a.mean()), "search": float(b.mean()), "search_ci": ci,
                     "within": bool(ci[0] <= a.mean() <= ci[1]), "difference": d["difference"],
                     "difference_ci": d["difference_ci"]})
    return {"deals": deals, "seed": seed, "seats": rows, "all_within": all(r["within"] for r in rows)}


def table(game: str, players: int, rules: list[str], components: list[str], deals: int, seed: int, backend,
          where: Path, positions: int | None, rounds: int) -> dict:
    from tourney_sim.simulate.train import TrainRequest, train
    config = GameConfig.build(game, players, rules, components)
    t = time.perf_counter()
    out = where / "train"
    train(config, out, TrainRequest(players=players, rounds=rounds, positions=positions, seed=seed), progress=False)
    seconds = time.perf_counter() - t
    try:
        resolve(game, ["apprentice"], config=config)
        refused = None
    except StrategyError as exc:
        refused = str(exc)
    heuristic = heuristic_of(game)
    r = field_results(config, [heuristic, f"apprentice@{out}"], deals, seed + 1, backend, where)
    return {"table": config.describe(), "train_seconds": seconds, "shipped_refused": refused,
            "apprentice": edge(r[f"apprentice@{out}"], r[heuristic])}


def pp(x: float) -> str:
    return f"{100 * x:+.1f}"


def markdown(results: dict) -> str:
    """The figures as the tables of docs/apprentice.md."""
    lines = []
    if any("strength" in e for k, e in results.items() if not k.startswith("table:")):
        lines += ["| configuration | guide | apprentice's edge [95%], p | search's edge [95%] | share of the search's "
                  "edge recovered [95%] | speed: games/s, apprentice / guide, end to end (kernel) |",
                  "|---|---|---|---|---|---|"]
    for key, e in results.items():
        if key.startswith("table:") or "strength" not in e:
            continue
        st, sp = e["strength"], e.get("speed")
        a, s, r = st["apprentice"], st["search"], st["recovered"]
        p = "< 0.001" if a["p"] < 0.001 else f"{a['p']:.2g}"
        speed = "" if not sp else (f"{sp['end_to_end']['ratio']:.2f} ({sp['kernel']['ratio']:.2f})"
                                   if "end_to_end" in sp else f"({sp['ratio']:.2f})")
        lines.append(f"| {key.replace('-', ', ')} players | {st['heuristic']} | {pp(a['edge'])} pp "
                     f"[{pp(a['ci'][0])}, {pp(a['ci'][1])}], p {p} | {pp(s['edge'])} pp [{pp(s['ci'][0])}, "
                     f"{pp(s['ci'][1])}] | {100 * r['share']:.0f}% [{100 * r['ci'][0]:.0f}, {100 * r['ci'][1]:.0f}] | "
                     f"{speed} |")
    if any("balance" in e for e in results.values()):
        lines += ["", "| configuration | seat (team): everyone apprentice, everyone search [95%] | all within the "
                  "search's intervals |", "|---|---|---|"]
        for key, e in results.items():
            if "balance" not in e:
                continue
            b = e["balance"]
            seats = "; ".join(f"{'+'.join(str(x) for x in row['seats'])}: {100 * row['apprentice']:.1f}%, "
                              f"{100 * row['search']:.1f}% [{100 * row['search_ci'][0]:.1f}, {100 * row['search_ci'][1]:.1f}]"
                              for row in b["seats"])
            lines.append(f"| {key.replace('-', ', ')} players | {seats} | {'yes' if b['all_within'] else 'no'} |")
    if any("rollout" in e for e in results.values()):
        lines += ["", "| configuration | ismcts:rollout=apprentice against ismcts, each in the guide's field (same "
                  "deals) [95%], p | the same in the apprentice's field |", "|---|---|---|"]

        def cell(r: dict | None, deals: int) -> str:
            if r is None or "difference" not in r:
                return "—"
            return f"{pp(r['difference'])} pp [{pp(r['ci'][0])}, {pp(r['ci'][1])}], p {r['p']:.2g} ({deals:,} deals)"

        for key, e in results.items():
            if "rollout" in e:
                r = e["rollout"]
                named = "" if r.get("search", ROLLOUT_SEARCH) == ROLLOUT_SEARCH else f" ({r['search']})"
                lines.append(f"| {key.replace('-', ', ')} players{named} | {cell(r, r['deals'])} | "
                             f"{cell(r.get('apprentice_field'), r['deals'])} |")
    tables = [(k, e) for k, e in results.items() if k.startswith("table:")]
    if tables:
        lines += ["", "| designed table | training | its apprentice's edge over the guide [95%], p | the shipped "
                  "weights there |", "|---|---|---|---|"]
        for key, e in tables:
            a = e["apprentice"]
            lines.append(f"| {e['table']} | {e['train_seconds']:.0f} s | {pp(a['edge'])} pp [{pp(a['ci'][0])}, "
                         f"{pp(a['ci'][1])}], p {a['p']:.2g} | {'refused' if e['shipped_refused'] else 'played!'} |")
    return "\n".join(lines).strip("\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="GAME-N (repeatable); default every configuration")
    ap.add_argument("--parts", default="speed,strength,balance,rollout")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--balance-deals", type=int, default=2000)
    ap.add_argument("--rollout-deals", type=int, default=1000)
    ap.add_argument("--rollout-search", default=ROLLOUT_SEARCH,
                    help="the search the rollout part plays against ismcts (e.g. ismcts:rollout=apprentice,score_scale=40)")
    ap.add_argument("--rollout-fields", default="guide,apprentice",
                    help="the fields the rollout part plays in: guide, apprentice or both (comma-separated)")
    ap.add_argument("--seed", type=int, default=4141)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--speed-games", type=int, default=20_000)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--out", default=None, help="write every figure to this JSON file (updated after each part)")
    ap.add_argument("--markdown", default=None, help="print the tables of this JSON file (an --out) and stop")
    args = ap.parse_args()
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text())))
        return
    parts = args.parts.split(",")
    fields = tuple(args.rollout_fields.split(","))
    if not fields or not set(fields) <= {"guide", "apprentice"}:
        sys.exit(f"error: --rollout-fields takes guide, apprentice or both, comma-separated; got {args.rollout_fields!r}")
    if "rollout" in parts:
        for game, players in CONFIGS:
            if args.only and f"{game}-{players}" not in args.only:
                continue
            try:
                resolve(game, [args.rollout_search], config=GameConfig.build(game, players))
            except StrategyError as exc:
                sys.exit(f"error: --rollout-search: {exc}")
    results = json.loads(Path(args.out).read_text()) if args.out and Path(args.out).exists() else {}

    def save():
        if args.out:
            Path(args.out).write_text(json.dumps(results, indent=1) + "\n")

    backend = open_backend(args.workers)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for game, players in CONFIGS:
                key = f"{game}-{players}"
                if args.only and key not in args.only:
                    continue
                config = GameConfig.build(game, players)
                entry = results.setdefault(key, {})
                for part in ("speed", "strength", "balance", "rollout"):
                    if part not in parts:
                        continue
                    print(f"{key}: {part}", file=sys.stderr, flush=True)
                    where = Path(tmp) / key / part
                    t = time.perf_counter()
                    if part == "speed":
                        entry[part] = speed(config, args.repeats, args.speed_games)
                    elif part == "strength":
                        entry[part] = strength(config, args.deals, args.seed, backend, where)
                    elif part == "balance":
                        entry[part] = balance(config, args.balance_deals, args.seed, backend, where)
                    else:
                        # a field not played this time keeps its figures from an earlier run
                        entry[part] = {**entry.get(part, {}), **rollout(config, args.rollout_deals, args.seed,
                                                                         backend, where, fields, args.rollout_search)}
                    entry[part]["seconds"] = time.perf_counter() - t
                    print(json.dumps(entry[part]), flush=True)
                    save()
            if "table" in parts:
                for game, players, rules, components in TABLES:
                    if args.only and f"{game}-{players}" not in args.only:
                        continue
                    key = f"table:{game}-{players}:{','.join(rules + components)}"
                    print(key, file=sys.stderr, flush=True)
                    results[key] = table(game, players, rules, components, args.deals, args.seed, backend,
                                         Path(tmp) / key.replace(":", "_"), positions=None, rounds=6)
                    print(json.dumps(results[key]), flush=True)
                    save()
    finally:
        backend.close()


if __name__ == "__main__":
    main()
