#!/usr/bin/env python
"""Scaling: games/s of `tourney run` with 1 and 2 workers on the built-in runner, and with the
Dask backend on a local cluster of 2 worker processes (the same cores), for every game.

Each game plays its built-in strategies (the list fills the table), default player count, the
same number of games and the same chunk size on every backend. A run is timed as a whole
``tourney_sim.simulate.runner.run`` call — everything a user waits for once the kernels are compiled and,
for Dask, once the cluster is up (`dask scheduler` / `dask worker` are started once, not per
run): planning, the workers' playing, Parquet encoding, writing and checksumming every part, the
manifest. The three set-ups are measured in turns (1 worker, 2 workers, Dask, then again) so
that a noisy neighbour hurts them alike; medians of --repeats turns are reported, with the ratio
2 workers / 1 worker and Dask / built-in 2 workers. Every Dask dataset is checked to have the
same part checksums as the built-in runner's.

The number of games per game is calibrated (unless --games is given) so that a 2-worker run
takes about --seconds.

Usage: python scripts/bench_scale.py [--games N] [--seconds 8] [--repeats 3] [--only GAME]
       [--json FILE]
Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import logging
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from tourney_sim.simulate.games import game_names, get_game  # noqa: E402
from tourney_sim.simulate.matchup import make_matchup, play_block  # noqa: E402
from tourney_sim.simulate.runner import default_chunk, run  # noqa: E402
from tourney_sim.strategies import heuristics  # noqa: E402


def matchup(game: str):
    spec = get_game(game)
    n = spec.default_players
    return make_matchup(game, n, heuristics(game)[:n], seed=1)


def timed(m, games, out, chunk, **kw) -> tuple[float, list]:
    t = time.perf_counter()
    report = run(m, games, out, chunk_size=chunk, overwrite=True, progress=False, **kw)
    wall = time.perf_counter() - t
    sums = [p["sha256"] for p in report.manifest["parts"]]
    shutil.rmtree(out, ignore_errors=True)
    return games / wall, sums


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=None, help="games per run (default: calibrated)")
    ap.add_argument("--seconds", type=float, default=8.0, help="target length of a 2-worker run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", action="append", default=None, help="a game (repeatable; default: all)")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()

    import distributed

    scratch = Path(tempfile.mkdtemp(prefix="tourney-scale-"))
    rows = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        address = cluster.scheduler_address
        for game in args.only or game_names():
            m = matchup(game)
            # warm-up: compile here, and load the kernels in the forked and the Dask workers
            run(m, 4000, scratch / "warm", workers=2, chunk_size=1000, overwrite=True, progress=False)
            run(m, 4000, scratch / "warm", scheduler=address, chunk_size=1000, overwrite=True, progress=False)
            games = args.games
            if games is None:  # the kernel's speed on one core, times two cores, times --seconds
                t = time.perf_counter()
                play_block(m, 0, 20_000)
                rate = 20_000 / (time.perf_counter() - t)
                games = max(20_000, int(2 * rate * args.seconds) // 20_000 * 20_000)
            chunk = default_chunk(games, 2)
            rates = {"1 worker": [], "2 workers": [], "dask 2 workers": []}
            for _ in range(args.repeats):
                r1, sums = timed(m, games, scratch / "b1", chunk, workers=1)
                r2, sums2 = timed(m, games, scratch / "b2", chunk, workers=2)
                rd, sums_d = timed(m, games, scratch / "d2", chunk, scheduler=address)
                if not (sums == sums2 == sums_d):
                    raise SystemExit(f"{game}: the backends wrote different parts")
                rates["1 worker"].append(r1)
                rates["2 workers"].append(r2)
                rates["dask 2 workers"].append(rd)
            med = {k: statistics.median(v) for k, v in rates.items()}
            row = {"game": game, "players": m.n_players, "strategies": [s.name for s in m.strategies],
                   "games": games, "chunk_size": chunk, "median_games_per_s": {k: round(v) for k, v in med.items()},
                   "all_games_per_s": {k: [round(x) for x in v] for k, v in rates.items()},
                   "speedup_2_vs_1": round(med["2 workers"] / med["1 worker"], 2),
                   "dask_vs_builtin": round(med["dask 2 workers"] / med["2 workers"], 3)}
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    shutil.rmtree(scratch, ignore_errors=True)

    print("| game | players | games per run | 1 worker (games/s) | 2 workers | 2 / 1 | Dask, 2 workers | "
          "Dask / built-in |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        g = r["median_games_per_s"]
        print(f"| {r['game']} | {r['players']} | {r['games']:,} | {g['1 worker']:,} | {g['2 workers']:,} | "
              f"{r['speedup_2_vs_1']:.2f}x | {g['dask 2 workers']:,} | {r['dask_vs_builtin']:.1%} |")
    if args.json:
        args.json.write_text(json.dumps({"repeats": args.repeats, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
