#!/usr/bin/env python
"""Benchmarks behind the speed figures of docs/speed.md (never run as tests).

For one game it measures, as medians of --repeats runs, all in one process run so that the
ratios compare like with like on a shared, noisy machine:

- end to end to Parquet on one core (the process pinned to one CPU, one worker): games/s per
  built-in strategy (every seat playing it);
- the same run with 1 and with 2 workers (not pinned), and their ratio;
- the compiled kernel alone vs the pure-Python reference engine on the same seeded games, with
  uniformly random moves: games/s of each and the ratio;
- compile time: `tourney run` in a fresh process with an empty numba cache, then again with the
  cache filled (the start-up a user sees on every later run);
- Compañeros only: end to end `random` on one core against the direct numba loop of
  `scripts/profile_speed.py` (the rules with the random choice inline), run after run in turn,
  as a ratio. The machines' speed drifts by
  a third within minutes; a ratio of two measurements taken side by side does not.

Usage: python scripts/bench.py --game companeros [--players 4] [--games 1000000] [--repeats 3]
Prints a Markdown table; --json FILE also writes the figures.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from tourney_sim.simulate.matchup import make_matchup, play_block  # noqa: E402
from tourney_sim.simulate.runner import run  # noqa: E402
from tourney_sim.simulate.seeding import PyStream  # noqa: E402
from tourney_sim.strategies import heuristics  # noqa: E402


def median_rate(fn, games, repeats):
    rates = []
    for r in range(repeats):
        t = time.perf_counter()
        fn(r)
        rates.append(games / (time.perf_counter() - t))
    return statistics.median(rates), rates


def end_to_end(m, games, workers, repeats, tmp):
    def once(r):
        run(m, games, Path(tmp) / f"w{workers}-{r}", workers=workers, overwrite=True, progress=False)
    return median_rate(once, games, repeats)


def reference_rate(game, m, games):
    ref = importlib.import_module(f"tourney_sim.simulate.games.{game}.reference")
    t = time.perf_counter()
    for g in range(games):
        r = ref.Game(m.params, PyStream(1, g, 0))
        pick = PyStream(1, g, 1000)
        while r.to_move() >= 0:
            moves = r.legal_moves()
            r.apply(moves[pick.below(len(moves))])
    return games / (time.perf_counter() - t)


def start_up(game, players, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "tourney_sim", "run", game, "--games", "1000", "--workers", "1",
               "--quiet", "--overwrite", "--out", out]
        if players:
            cmd += ["--players", str(players)]
        t = time.perf_counter()
        subprocess.run(cmd, check=True, env=env, cwd=ROOT)
        return time.perf_counter() - t


def side_by_side(games, pairs):
    """Median over ``pairs`` of (end to end random, one core) / (direct numba loop, one core),
    the two measured one right after the other."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import numpy as np
    from profile_speed import direct_loop

    m = make_matchup("companeros", 4, ["random"], seed=1)
    loop = direct_loop(m.spec.module, m.spec.max_moves)
    loop(m.params, 4, np.uint64(1), 100, True)
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[0]})
    e2e, direct, ratios = [], [], []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(pairs):
                t = time.perf_counter()
                run(m, games, Path(tmp) / "pair", workers=1, overwrite=True, progress=False)
                e2e.append(games / (time.perf_counter() - t))
                t = time.perf_counter()
                loop(m.params, 4, np.uint64(1), games, True)
                direct.append(games / (time.perf_counter() - t))
                ratios.append(e2e[-1] / direct[-1])
    finally:
        os.sched_setaffinity(0, set(cpus))
    return statistics.median(e2e), statistics.median(direct), statistics.median(ratios)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="companeros")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=1_000_000, help="games per end-to-end run")
    ap.add_argument("--reference-games", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    game = args.game
    figures = {"game": game, "players": args.players, "games": args.games, "repeats": args.repeats}

    with tempfile.TemporaryDirectory() as cache:
        figures["cold_start_s"] = start_up(game, args.players, cache)  # compiles everything
        figures["cached_start_s"] = start_up(game, args.players, cache)

    names = heuristics(game)
    with tempfile.TemporaryDirectory() as tmp:
        one_core = {}
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[0]})
        try:
            for name in names:
                m = make_matchup(game, args.players, [name], seed=1)
                play_block(m, 0, 10)
                one_core[name] = end_to_end(m, args.games, 1, args.repeats, tmp)[0]
        finally:
            os.sched_setaffinity(0, set(cpus))
        figures["one_core_games_per_s"] = one_core
        m = make_matchup(game, args.players, ["random"], seed=1)
        w1 = end_to_end(m, args.games, 1, args.repeats, tmp)[0]
        w2 = end_to_end(m, args.games, 2, args.repeats, tmp)[0]
        figures["workers"] = {"1": w1, "2": w2, "ratio": w2 / w1}

    m = make_matchup(game, args.players, ["random"], seed=1)
    n_ref = args.reference_games
    kernel_rate = median_rate(lambda r: play_block(m, 0, n_ref * 50), n_ref * 50, args.repeats)[0]
    ref_rate = reference_rate(game, m, n_ref)
    figures["kernel_random_games_per_s"] = kernel_rate
    figures["reference_games_per_s"] = ref_rate
    figures["kernel_over_reference"] = kernel_rate / ref_rate

    print(f"### {game} ({m.n_players} players): {args.games:,} games a run, median of {args.repeats}\n")
    print("| measure | figure |\n|---|---:|")
    for name, rate in one_core.items():
        print(f"| end to end to Parquet, one core, `{name}` | {rate:,.0f} games/s |")
    print(f"| end to end, `random`, 1 worker | {w1:,.0f} games/s |")
    print(f"| end to end, `random`, 2 workers | {w2:,.0f} games/s ({w2 / w1:.2f}x) |")
    print(f"| kernel alone, `random` | {kernel_rate:,.0f} games/s |")
    print(f"| reference engine (pure Python), random | {ref_rate:,.0f} games/s |")
    print(f"| kernel / reference | {kernel_rate / ref_rate:,.0f}x |")
    print(f"| first run, cold compile (`tourney run`, 1,000 games) | {figures['cold_start_s']:.1f} s |")
    print(f"| later runs, cached (`tourney run`, 1,000 games) | {figures['cached_start_s']:.1f} s |")
    if game == "companeros" and (args.players or 4) == 4:
        e2e, direct, ratio = side_by_side(args.games, max(args.repeats, 5))
        figures["side_by_side"] = {"end_to_end": e2e, "direct_loop": direct, "ratio": ratio}
        print(f"| end to end `random` / direct numba loop, one core, in turn ({max(args.repeats, 5)} pairs) "
              f"| {ratio:.2f} (median; {e2e:,.0f} v {direct:,.0f} games/s) |")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
