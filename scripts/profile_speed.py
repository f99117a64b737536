#!/usr/bin/env python
"""Where the time of a random-play run goes, game by game, next to the C reference (issue 15).

For each game (the configurations of ``bench_c.py``), on one core, in one process, alternating
``--rounds`` times and taking medians:

- **C**: the reference simulator of ``../shared/perf-ref/`` (built in a temporary directory),
  microseconds per game, and the random choices it makes per game;
- **deal**: seeding the game's streams and dealing (``init``), nothing played;
- **rules**: a direct loop over the game's rules functions with the random choice written inline
  (``moves[below(rng, n)]``: the same draws as the ``random`` strategy, so the same games; the
  script checks the decision counts against the kernel), minus the deal;
- **interface**: the generic kernel (``play_block``: legal-move list handed to a strategy called
  through a function pointer, the checks, the result rows) minus the direct loop;
- **Parquet**: turning the kernel's block into the run's Arrow table and zstd Parquet bytes
  (``results.block_table`` + ``results.encode_part``), per game;
- **start-up**: the wall time of ``tourney run GAME --games 100 --workers 1`` (imports, numba's
  cache load, the manifest), a fixed cost per run;
- **end to end**: ``tourney run GAME --strategy random --workers 1`` with the run's games (as
  ``bench_c.py``), and **runner**: what it takes beyond start-up, kernel and Parquet (splitting
  into chunks, checksums, writing files, the manifest), per game.

Then what the issue's targets leave for the kernel: end to end at 0.6 of C must play the run's
games in ``games / (0.6 C)`` seconds, of which start-up and Parquet take their share; the kernel
gets the rest. When that is less than C's own time per game, the end-to-end target needs a kernel
faster than C. And per built-in heuristic (taken in turn within each round): games/s, its games/s
over random play's (the median of the rounds' ratios), decisions per game, and its own time per
decision (its microseconds per decision less random play's: an estimate, the games differ).

Never run as a test (timing). Usage:
    python scripts/profile_speed.py [--rounds 3] [--only colleagues] [--heuristics]
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from tourney_sim.simulate import results
from tourney_sim.simulate.kernel import borrow, keep_alive
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.seeding import below, seed_stream
from tourney_sim.strategies import heuristics

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_c import (add_reference_arguments, c_output, end_to_end, games_per_s,  # noqa: E402
                     references, selected)

#: random choices per game the C programs make where they do not print it (Compañeros takes
#: greedily: 9 rounds of 4 plays)
C_CHOICES = {"companeros": 36.0}


def direct_loop(module, max_moves: int):
    """A compiled loop over ``module``'s rules with the random choice inline (not cached: it is
    built per game). ``play`` False stops after the deal. Returns the decisions made."""
    init, to_move, legal_moves, apply_move = (module.init, module.to_move, module.legal_moves,
                                              module.apply_move)
    state_size = module.STATE_SIZE

    @njit
    def loop(params, n_players, seed, n_games, play):
        # borrowed views as in kernel.play_games, the owners kept alive until the loop is done
        state_owner = np.zeros(state_size, np.int32)
        moves_owner = np.zeros(max_moves, np.int64)
        chance_owner = np.zeros(4, np.uint64)
        rng_owner = np.zeros((8, 4), np.uint64)
        state, moves = borrow(state_owner), borrow(moves_owner)
        chance, seat_rng = borrow(chance_owner), borrow(rng_owner)
        decisions = 0
        for g in range(n_games):
            seed_stream(chance, seed, g, 0)
            for s in range(n_players):
                seed_stream(seat_rng[s], seed, g, 1 + s)
            init(state, params, chance)
            if not play:
                decisions += state[0]  # a use of the state, so the deal is not optimised away
                continue
            seat = to_move(state)
            while seat >= 0:
                n = legal_moves(state, moves)
                apply_move(state, moves[below(seat_rng[seat], n)], chance)
                decisions += 1
                seat = to_move(state)
        keep_alive(state_owner)
        keep_alive(moves_owner)
        keep_alive(chance_owner)
        keep_alive(rng_owner)
        return decisions

    return loop


def c_run(d: Path, cmd: list[str], seed: int) -> tuple[float, float | None]:
    """(games/s, random choices per game or None) of one C run."""
    out = c_output(d, cmd, seed)
    choices = re.search(r"nontrivial/game=([0-9.]+)", out) or re.search(r"decisions/game=([0-9.]+)", out)
    return games_per_s(out), (float(choices.group(1)) if choices else None)


def timed(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def startup(game: str, players: int, cpu: int, out: Path) -> float:
    """Seconds of a 100-game ``tourney run`` (bench_c's end-to-end command): the start-up."""
    return 100 / end_to_end(game, players, 100, cpu, out)


def profile_game(d: Path, tmp: Path, label: str, game: str, players: int, games: int, cmd: list[str],
                 rounds: int, cpu: int) -> dict:
    m = make_matchup(game, players, ["random"], seed=1)
    module = m.spec.module
    loop = direct_loop(module, m.spec.max_moves)
    n = max(games // 4, 1000)
    block = play_block(m, 0, 1000)
    made = loop(m.params, m.n_players, np.uint64(1), 1000, True)
    if made != int(block.decisions.sum()):
        sys.exit(f"error: {game}: the direct loop made {made} decisions, the kernel "
                 f"{int(block.decisions.sum())}: they do not play the same games")
    loop(m.params, m.n_players, np.uint64(1), 10, False)
    startup(game, players, cpu, tmp / "warm")
    meta = {"game": game}
    c, c_choices, deal, direct, kernel, parquet, start, e2e = [], [], [], [], [], [], [], []
    for r in range(rounds):
        rate, choices = c_run(d, cmd, r + 1)
        c.append(1e6 / rate)
        c_choices.append(choices)
        deal.append(1e6 * timed(loop, m.params, m.n_players, np.uint64(1), n, False) / n)
        direct.append(1e6 * timed(loop, m.params, m.n_players, np.uint64(1), n, True) / n)
        t = time.perf_counter()
        block = play_block(m, 0, n)
        kernel.append(1e6 * (time.perf_counter() - t) / n)
        t = time.perf_counter()
        results.encode_part(results.block_table(m, block, meta))
        parquet.append(1e6 * (time.perf_counter() - t) / n)
        start.append(startup(game, players, cpu, tmp / "start"))
        e2e.append(1e6 / end_to_end(game, players, games, cpu, tmp / "run"))
    med = statistics.median
    row = {"config": label, "game": game, "games": games, "c_us": med(c),
           "c_choices": c_choices[0] if c_choices[0] is not None else C_CHOICES.get(game),
           "decisions": float(block.decisions.mean()), "deal_us": med(deal),
           "rules_us": med(direct) - med(deal), "interface_us": med(kernel) - med(direct),
           "kernel_us": med(kernel), "parquet_us": med(parquet), "startup_s": med(start),
           "end_to_end_us": med(e2e)}
    row["runner_us"] = (row["end_to_end_us"] - row["kernel_us"] - row["parquet_us"]
                        - row["startup_s"] * 1e6 / games)
    # end to end at 0.6 of C: games / (0.6 * C games/s) seconds for the whole run
    budget = games * row["c_us"] / 0.6 * 1e-6
    row["kernel_budget_us"] = ((budget - row["startup_s"]) * 1e6 / games - row["parquet_us"]
                               - row["runner_us"])
    return row


def profile_heuristics(game: str, players: int, games: int, rounds: int) -> list[dict]:
    """Every built-in heuristic's games/s (kernel, every seat playing it), the strategies taken in
    turn within each round so that the machine's drift falls on all of them alike."""
    names = heuristics(game)  # random first
    matchups = [make_matchup(game, players, [name], seed=1) for name in names]
    for m in matchups:
        play_block(m, 0, 20)
    rates = {name: [] for name in names}
    decisions = {}
    for r in range(rounds):
        for name, m in zip(names, matchups):
            t = time.perf_counter()
            block = play_block(m, r * games, games)
            rates[name].append(games / (time.perf_counter() - t))
            decisions[name] = float(block.decisions.mean())
    rows = []
    for name in names:
        rate = statistics.median(rates[name])
        rows.append({"strategy": name, "games_per_s": rate, "decisions": decisions[name],
                     "us_per_decision": 1e6 / rate / decisions[name],
                     "of_random": statistics.median([a / b for a, b in zip(rates[name], rates[names[0]])])})
    base = rows[0]["us_per_decision"]
    for row in rows:
        row["own_ns_per_decision"] = 1000 * (row["us_per_decision"] - base)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_reference_arguments(ap)
    ap.add_argument("--heuristics", action="store_true",
                    help="also time every built-in heuristic against random play")
    args = ap.parse_args()
    rows = []
    with references(args) as (d, tmp):
        for label, game, players, games, cmd in selected(args.only):
            rows.append(profile_game(d, tmp, label, game, players, games, cmd, args.rounds,
                                     args.cpu))
            print(f"{label}: done", file=sys.stderr, flush=True)
    print("Microseconds per game, medians of", args.rounds, "alternating rounds, one core:\n")
    print("| game | C | deal | rules + random choice | interface | kernel | Parquet | runner "
          "| start-up (s) | end to end | choices a game C / tourney | kernel budget for 0.6 end to end |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        choices = f"{r['c_choices']:.0f}" if r["c_choices"] is not None else "?"
        print(f"| {r['config']} | {r['c_us']:.2f} | {r['deal_us']:.2f} | {r['rules_us']:.2f} | "
              f"{r['interface_us']:.2f} | {r['kernel_us']:.2f} | {r['parquet_us']:.2f} | "
              f"{r['runner_us']:.2f} | {r['startup_s']:.2f} | {r['end_to_end_us']:.2f} | "
              f"{choices} / {r['decisions']:.0f} | {r['kernel_budget_us']:.2f} |")
    print("\nRatios to C (C time / tourney time): rules + deal alone, kernel, and what the kernel "
          "would need for 0.6 end to end:\n")
    for r in rows:
        need = r["c_us"] / r["kernel_budget_us"] if r["kernel_budget_us"] > 0 else float("inf")
        print(f"- {r['config']}: rules and deal {r['c_us'] / (r['deal_us'] + r['rules_us']):.2f}, "
              f"kernel {r['c_us'] / r['kernel_us']:.2f}, end to end {r['c_us'] / r['end_to_end_us']:.2f}; "
              f"the kernel would need {need:.2f}")
    if args.heuristics:
        for label, game, players, games, cmd in selected(args.only):
            if label.endswith("2p"):
                continue
            print(f"\n{label}: heuristics against random play (kernel, {max(games // 20, 1000):,} games x "
                  f"{args.rounds})\n")
            print("| strategy | games/s | of random | decisions a game | µs a decision | own ns a decision |")
            print("|---|---:|---:|---:|---:|---:|")
            for h in profile_heuristics(game, players, max(games // 20, 1000), args.rounds):
                print(f"| {h['strategy']} | {h['games_per_s']:,.0f} | {h['of_random']:.2f} | "
                      f"{h['decisions']:.0f} | {h['us_per_decision']:.3f} | {h['own_ns_per_decision']:.0f} |")


if __name__ == "__main__":
    main()
