"""Determinizations per second, every game (the search calls ``determinize`` once per iteration).

    python scripts/bench_determinize.py [--calls 300000] [--repeats 5]

For each game, positions reached by seeded random play (the first decision, and the one after
ten random decisions), then a compiled loop of ``determinize`` calls on the deciding seat's
views; medians of ``--repeats`` timed runs, one core. Speed is measured here, never in tests.
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from numba import njit

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.seeding import PyStream, new_stream
from tourney_sim.simulate.stepper import KernelGame

CONFIGS = [("companeros", 4), ("companeros", 6), ("cardavia", 4), ("colleagues", 2), ("colleagues", 4),
           ("partners", 4)]


@njit
def many(determinize, public, private, sample, rng, n):
    total = 0
    for _ in range(n):
        total += determinize(public, private, sample, rng)
    return total


def position(game: str, players: int, steps: int) -> KernelGame:
    spec = get_game(game)
    k = KernelGame(spec, spec.make_params(players, spec.resolve_options([])), 1, 0)
    pick = PyStream(1, 0, 1000)
    for _ in range(steps):
        if k.to_move() < 0:
            break
        moves = k.legal_moves()
        k.apply(moves[pick.below(len(moves))])
    return k


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=300_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"{'game':<12}{'players':>8}{'decision':>10}{'hidden':>8}{'determinizations/s':>22}")
    for game, players in CONFIGS:
        spec = get_game(game)
        m = spec.module
        for steps in (0, 10):
            k = position(game, players, steps)
            seat = k.to_move()
            if seat < 0:
                continue
            public, private = m.public_view(k.state), m.private_view(k.state, seat)
            sample = np.zeros(spec.state_size, np.int32)
            rng = new_stream(1, 0, 5)
            hidden = many(m.determinize, public, private, sample, rng, 1)  # compile
            rates = []
            for _ in range(args.repeats):
                t = time.perf_counter()
                many(m.determinize, public, private, sample, rng, args.calls)
                rates.append(args.calls / (time.perf_counter() - t))
            print(f"{game:<12}{players:>8}{steps:>10}{hidden:>8}{statistics.median(rates):>22,.0f}", flush=True)


if __name__ == "__main__":
    main()
