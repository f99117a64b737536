#!/usr/bin/env python
"""The component effects (reports/components.py) measured by simulation, and their cost.

1. Coverage: over many synthetic datasets with a known truth (``reports/synthetic.py``: a deck
   dealt out whole, a win chance linear in what a seat or team holds), how often each kind's 95%
   interval holds its truth, and in how many datasets the family (one Holm over the kinds) made
   a false finding (a kind whose truth is 0 called an effect, or an effect of the wrong sign): a
   valid method covers 95% or more and keeps the false findings at 5% or fewer, within the
   binomial noise of the replicates.
2. Cost: a synthetic dataset of ``--games`` games (default 1,000,000) with ``--kinds`` kinds
   (default 40) in parts of 10,000 games, analysed in a fresh process: seconds and the peak RSS
   (``ru_maxrss``) above the interpreter's own after imports.

    python scripts/bench_components.py                 # both, a Markdown table
    python scripts/bench_components.py --reps 100 --games 0   # a quick look, no cost run
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tourney_sim.reports import synthetic as sy

HEADER = ["family", "scenario", "deals", "replicates", "covered", "mean width", "note"]


def coverage_rows(reps: int) -> list[list[str]]:
    kinds = [f"card {i}" for i in range(12)]
    rows = []
    for game, name in ((sy.Game(players=4), "4 seats"), (sy.Game(players=4, team_game=True), "2 teams"),
                       (sy.Game(players=3), "3 seats")):
        for effects in ({}, {"card 0": 0.04, "card 5": -0.03}):
            for deals in (500, 5000):
                deck = sy.Deck(kinds, [2] * 12 if game.players != 3 else [3] * 12, effects)
                t = time.perf_counter()
                c = sy.dealt_effects_coverage(game, deck, deals, reps, seed=deals + len(effects))
                row = c.row()
                row[1] = f"{name}, {row[1]}"
                row[-1] += f" ({time.perf_counter() - t:.0f} s)"
                rows.append(row)
                print("| " + " | ".join(row) + " |", flush=True)
    return rows


CHILD = """
import json, resource, sys, time
from tourney_sim.reports import components
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
e = components.dataset_effects(sys.argv[1])
print(json.dumps({"seconds": time.perf_counter() - t, "games": e.games, "kinds": len(e.kinds),
                  "peak_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024,
                  "top": e.sentence(e.ranked()[0])}))
"""


def cost(games: int, kinds: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        deck = sy.Deck([f"card {i}" for i in range(kinds - 1)] + ["Swap"], [1] * kinds, {"Swap": 0.02})
        t = time.perf_counter()
        sy.write_dealt_dataset(Path(tmp) / "d", sy.Game(players=4), deck, games, parts=max(1, games // 10_000))
        written = time.perf_counter() - t
        out = subprocess.run([sys.executable, "-c", CHILD, str(Path(tmp) / "d")], capture_output=True, text=True,
                             check=True)
        res = json.loads(out.stdout)
        res["write_seconds"] = written
        return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000, help="replicates per coverage scenario")
    ap.add_argument("--games", type=int, default=1_000_000, help="games of the cost run (0: none)")
    ap.add_argument("--kinds", type=int, default=40)
    a = ap.parse_args()
    if a.reps:
        print("| " + " | ".join(HEADER) + " |")
        print("|" + "---|" * len(HEADER))
        coverage_rows(a.reps)
    if a.games:
        r = cost(a.games, a.kinds)
        print(f"\ncost: {r['games']:,} games x {r['kinds']} kinds: {r['seconds']:.1f} s, peak RSS "
              f"{r['peak_mb']:.0f} MB above the interpreter's; {r['top']}")


if __name__ == "__main__":
    main()
