#!/usr/bin/env python
"""Search speed: decisions per second of `ismcts` at its default budget, per game (never a test).

For each configuration it plays --games games on one core, one process: seat 0 is the search
(its default setting, or --setting), every other seat the game's strongest heuristic. Each of
the search's decisions is timed on its own (the compiled strategy call, nothing else), so the
figures are the search's cost alone:

- ``decisions/s``: search decisions per second over all of seat 0's decisions, forced ones
  (a single legal move, answered without searching) included, as a tournament sees them;
- ``searched/s`` and ``ms/searched``: over the decisions with at least two legal moves only;
- ``moves``: the mean number of legal moves at a searched decision.

Medians over --repeats runs of the same games (the machines are shared and noisy). The first
call compiles (or loads from the cache) before timing starts.

Usage: python scripts/bench_search.py [--games 4] [--repeats 3] [--only companeros-4]
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.matchup import make_matchup
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.strategies import resolve

#: (game, players, the strongest heuristic: the search's rollout policy and its opponents)
CONFIGS = [("companeros", 3, "greedy"), ("companeros", 4, "greedy"), ("companeros", 6, "greedy"),
           ("cardavia", 4, "guard"), ("colleagues", 2, "dodger"), ("colleagues", 4, "dodger"),
           ("partners", 4, "guardian")]


def play(spec, params, search, opponent, games, first_seed):
    """(seconds in search calls, decisions, searched decisions, legal moves summed over them)."""
    spent, decisions, searched, moves = 0.0, 0, 0, 0
    for g in range(games):
        game = KernelGame(spec, params, first_seed, g)
        while game.to_move() >= 0:
            seat = game.to_move()
            if seat == 0:
                n = len(game.legal_moves())
                t = time.perf_counter()
                move = game.choose(search)
                spent += time.perf_counter() - t
                decisions += 1
                if n > 1:
                    searched += 1
                    moves += n
            else:
                move = game.choose(opponent)
            game.apply(move)
    return spent, decisions, searched, moves


def measure(game, players, heuristic, setting, games, repeats):
    spec = get_game(game)
    params = make_matchup(game, players, [heuristic]).params
    search, opponent = resolve(game, [setting, heuristic])
    play(spec, params, search, opponent, 1, 999)  # compile or load
    runs = [play(spec, params, search, opponent, games, 1) for _ in range(repeats)]
    spent = statistics.median(r[0] for r in runs)
    _, decisions, searched, moves = runs[0]
    return {"game": game, "players": players, "setting": search.label, "against": heuristic,
            "decisions": decisions, "decisions/s": decisions / spent, "searched/s": searched / spent,
            "ms/searched": 1000 * spent / max(searched, 1), "moves": moves / max(searched, 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4, help="games per timed run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--setting", default="ismcts", help="the search setting (default: its defaults)")
    ap.add_argument("--only", action="append", help="GAME-PLAYERS, e.g. companeros-4; repeatable")
    args = ap.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[0]})
    print("| game | players | setting | search decisions/s | searched/s | ms per searched | legal moves |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for game, players, heuristic in CONFIGS:
        if args.only and f"{game}-{players}" not in args.only:
            continue
        f = measure(game, players, heuristic, args.setting, args.games, args.repeats)
        print(f"| {game} | {players} | `{f['setting']}` vs {heuristic} | {f['decisions/s']:,.0f} | "
              f"{f['searched/s']:,.0f} | {f['ms/searched']:.2f} | {f['moves']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
