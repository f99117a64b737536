#!/usr/bin/env python
"""What the pluggable interface costs: the generic kernel against a direct loop over the same
Compañeros rules functions with the random choice written inline (no legal-move list handed to a
strategy, no call through a function pointer). Both play the same seeded games with random
moves; the figure to quote is the ratio, measured side by side in one process (never run as a
test).

Usage: python scripts/bench_interface.py [--players 4] [--games 200000] [--repeats 5]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


from numba import njit  # noqa: E402

from tourney_sim.simulate.games.companeros import rules as co  # noqa: E402
from tourney_sim.simulate.kernel import borrow, keep_alive  # noqa: E402
from tourney_sim.simulate.matchup import make_matchup, play_block  # noqa: E402
from tourney_sim.simulate.seeding import below, seed_stream  # noqa: E402


@njit
def direct_loop(seed, n_games, n_players):
    """Games 0..n_games-1 of the run with ``seed``, every seat choosing uniformly at random from
    its own stream (the same streams and draws as the ``random`` strategy in the kernel)."""
    # borrowed views as in kernel.play_games, their owners kept alive until the loop is done
    state_owner = np.zeros(co.STATE_SIZE, np.int32)
    moves_owner = np.zeros(co.MAX_MOVES, np.int64)
    chance_owner = np.zeros(4, np.uint64)
    seat_rng_owner = np.zeros((6, 4), np.uint64)
    state, moves = borrow(state_owner), borrow(moves_owner)
    chance, seat_rng = borrow(chance_owner), borrow(seat_rng_owner)
    params = np.array([n_players, 1], np.int32)
    checksum = 0
    for g in range(n_games):
        seed_stream(chance, seed, g, 0)
        for s in range(n_players):
            seed_stream(seat_rng[s], seed, g, 1 + s)
        co.init(state, params, chance)
        seat = co.to_move(state)
        while seat >= 0:
            n = co.legal_moves(state, moves)
            co.apply_move(state, moves[below(seat_rng[seat], n)], chance)
            seat = co.to_move(state)
        for p in range(n_players):
            checksum = checksum * 31 + state[co.SCORE + p]
    keep_alive(state_owner)
    keep_alive(moves_owner)
    keep_alive(chance_owner)
    keep_alive(seat_rng_owner)
    return checksum


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    m = make_matchup("companeros", args.players, ["random"], seed=1)
    # the same games: the direct loop's scores are the kernel's
    block = play_block(m, 0, 1000)
    check = 0
    for row in block.score:
        for p in range(args.players):
            check = check * 31 + int(row[p])
    assert direct_loop(np.uint64(1), 1000, args.players) == np.int64(np.uint64(check % 2**64)), \
        "the direct loop and the kernel disagree"
    direct, kernel = [], []
    for _ in range(args.repeats):
        t = time.perf_counter()
        direct_loop(np.uint64(1), args.games, args.players)
        direct.append(args.games / (time.perf_counter() - t))
        t = time.perf_counter()
        play_block(m, 0, args.games)
        kernel.append(args.games / (time.perf_counter() - t))
    d, k = statistics.median(direct), statistics.median(kernel)
    print(f"companeros, {args.players} players, random, {args.games:,} games x {args.repeats} (median)")
    print(f"  direct loop over the rules   {d:>10,.0f} games/s")
    print(f"  generic kernel (strategies)  {k:>10,.0f} games/s")
    print(f"  direct / kernel              {d / k:>10.2f}x")


if __name__ == "__main__":
    main()
