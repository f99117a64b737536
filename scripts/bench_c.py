#!/usr/bin/env python
"""tourney against the C reference simulators (issue 15), side by side (never run as a test).

For each game it alternates, --rounds times, on one core (``taskset -c CPU``):

1. the C reference from ``../shared/perf-ref/`` (built with its Makefile in a temporary
   directory), uniformly random play, its own games/s;
2. ``tourney run GAME --strategy random --workers 1 --quiet``, the whole process (start-up,
   compile cache load, play, Parquet), timed from outside: games / wall seconds;
3. the compiled kernel alone (``play_block`` in this process, after a warm-up), games/s;

and prints the medians and the ratios to C (ratios of medians: the machines are shared and their
speed drifts, which is why the three are measured one right after the other).

Usage: python scripts/bench_c.py [--rounds 3] [--perf-ref ../shared/perf-ref] [--only cardavia]
Prints a Markdown table; --json FILE also writes the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from tourney_sim.simulate.matchup import make_matchup, play_block  # noqa: E402

#: (label, game, players, games per run, the C command line without its seed)
CONFIGS = [
    ("Compañeros 4p", "companeros", 4, 2_000_000, ["./companeros", "bench", "4", "3"]),
    ("Cardavia", "cardavia", 4, 400_000, ["./cardavia", "400000"]),
    ("Colleagues 4p", "colleagues", 4, 600_000, ["./colleagues", "600000", "SEED", "4"]),
    ("Colleagues 2p", "colleagues", 2, 600_000, ["./colleagues", "600000", "SEED", "2"]),
    ("Partners", "partners", 4, 30_000, ["./partners", "30000"]),
]


def build(perf_ref: Path, into: Path) -> Path:
    if not (perf_ref / "Makefile").exists():
        sys.exit(f"error: no C reference simulators in {perf_ref} (give --perf-ref)")
    d = into / "perf-ref"
    shutil.copytree(perf_ref, d)
    subprocess.run(["make", "-s"], cwd=d, check=True)
    return d


def c_output(d: Path, cmd: list[str], seed: int, cpu: int | None = None) -> str:
    """The output of one run of a C reference (``cmd`` with the seed filled in), pinned to ``cpu``
    if given."""
    args = [str(seed) if a == "SEED" else a for a in cmd]
    if "SEED" not in cmd:
        args.append(str(seed))
    pin = ["taskset", "-c", str(cpu)] if cpu is not None else []
    return subprocess.run(pin + args, cwd=d, check=True, capture_output=True, text=True).stdout


def c_rate(d: Path, cmd: list[str], seed: int, cpu: int | None = None) -> float:
    return games_per_s(c_output(d, cmd, seed, cpu))


def games_per_s(out: str) -> float:
    """The games/s a C reference printed (its JSON line or its ``games/s=`` field)."""
    m = re.search(r'"games_per_s"\s*:\s*([0-9.]+)', out) or re.search(r"games/s=([0-9.]+)", out)
    if not m:
        sys.exit(f"error: no games/s in a C reference's output: {out[:200]}")
    return float(m.group(1))


def add_reference_arguments(ap: argparse.ArgumentParser) -> None:
    """The options every script measuring against the C references shares."""
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--perf-ref", type=Path, default=ROOT.parent / "shared" / "perf-ref")
    ap.add_argument("--cpu", type=int, default=0, help="the core every measurement is pinned to")
    ap.add_argument("--only", action="append", help="a game name; repeatable")


@contextmanager
def references(args):
    """Pin this process to ``args.cpu`` and build the C references in a temporary directory:
    yields (their directory, the temporary directory)."""
    os.sched_setaffinity(0, {args.cpu})
    with tempfile.TemporaryDirectory() as tmp:
        yield build(args.perf_ref.resolve(), Path(tmp)), Path(tmp)


def selected(only: list[str] | None) -> list[tuple]:
    """The configurations of CONFIGS for the games in ``only`` (all without it)."""
    return [c for c in CONFIGS if not only or c[1] in only]


def end_to_end(game: str, players: int, games: int, cpu: int, out: Path) -> float:
    cmd = ["taskset", "-c", str(cpu), sys.executable, "-m", "tourney_sim", "run", game, "--players", str(players),
           "--strategy", "random", "--workers", "1", "--quiet", "--games", str(games), "--seed", "1",
           "--overwrite", "--out", str(out)]
    t = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT)
    return games / (time.perf_counter() - t)


def kernel(m, games: int) -> float:
    t = time.perf_counter()
    play_block(m, 0, games)
    return games / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_reference_arguments(ap)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = []
    with references(args) as (d, tmp):
        for label, game, players, games, cmd in selected(args.only):
            m = make_matchup(game, players, ["random"], seed=1)
            play_block(m, 0, 100)  # compile or load
            subprocess.run([sys.executable, "-m", "tourney_sim", "run", game, "--players", str(players),
                            "--strategy", "random", "--workers", "1", "--quiet", "--games", "100",
                            "--overwrite", "--out", str(tmp / "warm")], check=True, cwd=ROOT)
            c, e2e, k = [], [], []
            for r in range(args.rounds):
                c.append(c_rate(d, cmd, r + 1, args.cpu))
                e2e.append(end_to_end(game, players, games, args.cpu, tmp / "run"))
                k.append(kernel(m, games // 2))
            row = {"config": label, "games": games, "c": statistics.median(c), "end_to_end": statistics.median(e2e),
                   "kernel": statistics.median(k), "runs": {"c": c, "end_to_end": e2e, "kernel": k}}
            rows.append(row)
            print(f"{label}: C {row['c']:,.0f}, end to end {row['end_to_end']:,.0f}, kernel {row['kernel']:,.0f} "
                  f"games/s", file=sys.stderr, flush=True)
    print("| game | games per run | tourney end to end | C reference | ratio | kernel alone | kernel / C |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['config']} | {r['games']:,} | {r['end_to_end'] / 1000:,.1f}k | {r['c'] / 1000:,.1f}k | "
              f"{r['end_to_end'] / r['c']:.2f} | {r['kernel'] / 1000:,.1f}k | {r['kernel'] / r['c']:.2f} |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
