#!/usr/bin/env python
"""Where an apprentice decision's time goes (issue 41): nanoseconds per decision of the game's
features alone, of the whole apprentice decision (features, its guide's choice, the scoring) and
of the guide alone, each in a compiled loop over the same recorded decisions (those of uniformly
random games with a choice, seeded), the median of ``--repeats`` passes, measured in turn. A
benchmark, never a test. The apprentice plays the weights shipped for the player count.

With ``--hidden UNITS``, also the features scored by a network of one hidden layer of that many
units (ReLU, random weights: what the scoring of a nonlinear apprentice would cost, the
features' own time subtracted), beside the linear score's share of the apprentice's time.

Usage: python scripts/bench_features.py companeros --players 4 [--decisions 30000] [--repeats 7]
       [--hidden 16]
"""
from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time

import numpy as np
from numba import njit

from tourney_sim.strategies import BUILTIN_MODULES
from tourney_sim.strategies.common import GUIDES, shipped_tables
from tourney_sim.testing import Configuration, play_to_decisions


def recorded(config: Configuration, decisions: int, seed: int):
    """Public views, private views, move lists (padded) and move counts of the decisions with a choice."""
    m = config.spec.module
    pubs, privs, moves, counts = [], [], [], []
    for _, k in play_to_decisions(config, seed, decisions):
        legal = np.array(k.legal_moves(), np.int64)
        if len(legal) < 2:
            continue
        seat = k.to_move()
        pubs.append(m.public_view(k.state).copy())
        privs.append(m.private_view(k.state, seat).copy())
        padded = np.zeros(config.spec.max_moves, np.int64)
        padded[:len(legal)] = legal
        moves.append(padded)
        counts.append(len(legal))
    return np.array(pubs), np.array(privs), np.array(moves), np.array(counts, np.int64)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--decisions", type=int, default=30_000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--hidden", type=int, default=0, help="also time a one-hidden-layer score of this many units")
    args = ap.parse_args()
    from tourney_sim.simulate.games import game_names
    if args.game not in game_names():
        sys.exit(f"error: no game {args.game!r} (games: {', '.join(game_names())})")
    config = Configuration(args.game, args.players)
    if not 1 <= args.decisions <= 1_000_000 or args.repeats < 1:
        sys.exit("error: --decisions must be from 1 to 1,000,000 and --repeats at least 1")
    if not 0 <= args.hidden <= 1024:
        sys.exit("error: --hidden must be from 0 (no network) to 1,024 units")
    features = importlib.import_module(f"tourney_sim.simulate.games.{args.game}.features")
    strategies = importlib.import_module(BUILTIN_MODULES[args.game])
    shipped = shipped_tables(strategies.APPRENTICE)
    if args.players not in shipped:
        sys.exit(f"error: {args.game} ships apprentice weights for {', '.join(map(str, sorted(shipped)))} players, "
                 f"not {args.players}")
    apprentice = shipped[args.players]
    guide = GUIDES[args.game]
    P, Q, M, N = recorded(config, args.decisions, args.seed)
    move_features, width = features.move_features, features.N_FEATURES

    @njit
    def features_only(P, Q, M, N):
        out = np.empty((M.shape[1], width))
        total = 0.0
        for i in range(P.shape[0]):
            move_features(P[i], Q[i], M[i], N[i], out)
            total += out[0, 0]
        return total

    def deciding(fn):
        @njit
        def loop(P, Q, M, N, row):
            rng = np.zeros(4, np.uint64)
            rng[0] = 1
            total = 0
            for i in range(P.shape[0]):
                total += fn(P[i], Q[i], M[i], N[i], rng, row)
            return total
        return loop

    @njit
    def network(P, Q, M, N, W1, b1, w2):
        out = np.empty((M.shape[1], width))
        total = 0
        for i in range(P.shape[0]):
            move_features(P[i], Q[i], M[i], N[i], out)
            best, pick = -np.inf, 0
            for k in range(N[i]):
                score = 0.0
                for j in range(W1.shape[0]):
                    a = b1[j]
                    for c in range(width):
                        a += W1[j, c] * out[k, c]
                    if a > 0.0:
                        score += w2[j] * a
                if score > best:
                    best, pick = score, k
            total += pick
        return total

    runs = {"features": lambda: features_only(P, Q, M, N)}
    if args.hidden:
        rng = np.random.default_rng(args.seed)
        W1, b1, w2 = rng.standard_normal((args.hidden, width)), rng.standard_normal(args.hidden), rng.standard_normal(args.hidden)
        runs["network"] = lambda: network(P, Q, M, N, W1, b1, w2)
    for name, s in (("apprentice", apprentice), ("guide", guide)):
        loop, row = deciding(s.fn), s.param_row()
        runs[name] = (lambda loop=loop, row=row: loop(P, Q, M, N, row))
    seconds = {name: [] for name in runs}
    for run in runs.values():
        run()  # compile
    for _ in range(args.repeats):
        for name, run in runs.items():
            t = time.perf_counter()
            run()
            seconds[name].append(time.perf_counter() - t)
    ns = {name: 1e9 * statistics.median(s) / len(N) for name, s in seconds.items()}
    print(f"{args.game} at {args.players} players: {len(N):,} decisions with a choice, "
          f"{N.mean():.1f} legal moves on average")
    print(f"  features {ns['features']:.0f} ns, apprentice decision {ns['apprentice']:.0f} ns "
          f"(guide {guide.label} {ns['guide']:.0f} ns; the rest, scoring and copying, "
          f"{ns['apprentice'] - ns['features'] - ns['guide']:.0f} ns)")
    if args.hidden:
        print(f"  a network of one hidden layer of {args.hidden} units: {ns['network'] - ns['features']:.0f} ns "
              f"to score the moves' features ({ns['network']:.0f} ns with the features, no guide)")


if __name__ == "__main__":
    main()
