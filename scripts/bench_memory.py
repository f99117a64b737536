#!/usr/bin/env python
"""Memory stays flat with run size: peak RSS of `tourney run` for growing numbers of games.

For each size it runs (after a short warm-up run, so that no measured run compiles), in a fresh
process, ``python -m tourney_sim run GAME --games N --quiet``
(default chunking, --workers as given) and measures:

- the peak RSS of the largest single process of the run (the kernel's own high-water mark,
  ``ru_maxrss`` from wait4), and
- the peak total RSS of the whole process tree (main process + workers), sampled every 0.1 s
  with psutil;

then prints a Markdown table and the spread (largest / smallest - 1) of each measure. The
claim in docs/scaling.md is that they differ by less than 20% between 1 million and 100 million
games: the runner keeps a bounded number of chunks in flight and never holds the dataset.

Usage: python scripts/bench_memory.py [--game companeros] [--sizes 1000000,10000000,100000000]
       [--workers 2] [--out DIR (scratch, deleted after each size unless --keep)] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent


def measure(game: str, games: int, workers: int, out: Path, players: int | None) -> dict:
    cmd = [sys.executable, "-m", "tourney_sim", "run", game, "--games", str(games), "--workers", str(workers),
           "--out", str(out), "--overwrite", "--quiet"]
    if players:
        cmd += ["--players", str(players)]
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT)
    peak_total = 0
    stop = threading.Event()

    def sample():
        nonlocal peak_total
        try:
            root = psutil.Process(proc.pid)
        except psutil.NoSuchProcess:
            return
        while not stop.is_set():
            total = 0
            try:
                for p in [root] + root.children(recursive=True):
                    try:
                        total += p.memory_info().rss
                    except psutil.NoSuchProcess:
                        pass
            except psutil.NoSuchProcess:
                break
            peak_total = max(peak_total, total)
            stop.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    stop.set()
    sampler.join()
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"run of {games:,} games failed with exit code {proc.returncode}")
    man = json.loads((out / "_manifest.json").read_text())
    size = sum(p["bytes"] for p in man["parts"])
    return {"games": games, "wall_seconds": round(wall, 1), "play_seconds": man["seconds"],
            "games_per_s": round(games / man["seconds"]), "parts": len(man["parts"]),
            "dataset_mb": round(size / 1e6, 1),
            "peak_rss_largest_process_mb": round(usage.ru_maxrss / 1024, 1),  # KiB on Linux
            "peak_rss_total_mb": round(peak_total / 2**20, 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="companeros")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--sizes", default="1000000,10000000,100000000")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="scratch directory (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the datasets")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    scratch = args.out or Path(tempfile.mkdtemp(prefix="tourney-mem-"))
    rows = []
    for games in [int(s) for s in args.sizes.split(",")]:
        out = scratch / f"{args.game}-{games}"
        # warm-up: compile (or load) the kernel first, so no measured run pays for compiling
        measure(args.game, 1000, 1, scratch / "warm-up", args.players)
        row = measure(args.game, games, args.workers, out, args.players)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)
    print(f"| games | play s | games/s | parts | dataset MB | peak RSS, largest process (MB) | "
          f"peak RSS, all processes (MB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['games']:,} | {r['play_seconds']:,.0f} | {r['games_per_s']:,} | {r['parts']:,} | "
              f"{r['dataset_mb']:,} | {r['peak_rss_largest_process_mb']:,} | {r['peak_rss_total_mb']:,} |")
    for key in ("peak_rss_largest_process_mb", "peak_rss_total_mb"):
        vals = [r[key] for r in rows]
        print(f"\n{key}: spread {max(vals) / min(vals) - 1:.1%} (largest / smallest - 1)")
    if args.json:
        args.json.write_text(json.dumps({"game": args.game, "workers": args.workers, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
