#!/usr/bin/env python
"""The component effects (simulate/stats/components.py) measured by simulation, and their cost.

1. Coverage: over many synthetic datasets with a known truth (``tests/support/synthetic.py``: a deck
   dealt out whole, a win chance linear in what a seat or team holds), how often each kind's 95%
   interval holds its truth, and in how many datasets the family (one Holm over the kinds) made
   a false finding (a kind whose truth is 0 called an effect, or an effect of the wrong sign): a
   valid method covers 95% or more and keeps the false findings at 5% or fewer, within the
   binomial noise of the replicates.
2. Small samples (issue 39): 40 kinds dealt one copy each, at the deals quick studies use (40,
   100, 300; and 1,000, 2,000): the share of null datasets with a false finding, and the power to
   find a planted kind (Swap), before (the normal approximation with Holm at every size) and
   after (``components.estimate``'s default: a permutation test below 50 deals per kind, "too
   few deals" below 20), with their binomial standard errors.
3. Cost: a synthetic dataset of ``--games`` games (default 1,000,000) with ``--kinds`` kinds
   (default 40) in parts of 10,000 games, analysed in a fresh process: seconds and the peak RSS
   (``ru_maxrss``) above the interpreter's own after imports.

    python scripts/bench_components.py                 # all three, Markdown tables
    python scripts/bench_components.py --reps 0 --games 0 --small-reps 1000   # the small-sample table alone
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tourney_sim.simulate.stats import components

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/support
from tests.support import synthetic as sy  # noqa: E402

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


SMALL_HEADER = ["units", "deals", "planted", "replicates", "before: datasets with a false finding",
                "after", "before: Swap found", "after", "after: tested by"]


def _share(k: int, n: int) -> str:
    p = k / n
    return f"{100 * p:.1f}% ± {100 * math.sqrt(max(p * (1 - p), 1e-9) / n):.1f}"


def small_sample_rows(reps: int) -> list[list[str]]:
    """False findings with nothing planted, and the power to find a planted Swap card (its other
    kinds' truths are -1/40 of its effect: a finding among them counts as false only with the wrong
    sign), before and after, at the small deal counts of quick studies."""
    rows = []
    kinds = [f"card {i}" for i in range(39)] + ["Swap"]
    plans = [(sy.Game(players=4), "4 seats", deals, {}) for deals in (40, 100, 300, 1000, 2000)]
    plans += [(sy.Game(players=4, team_game=True), "2 teams", deals, {}) for deals in (40, 100, 300)]
    plans += [(sy.Game(players=4), "4 seats", deals, {"Swap": effect})
              for deals, effect in ((100, 0.15), (300, 0.15), (300, 0.10), (1000, 0.06), (2000, 0.06), (5000, 0.06))]
    for game, name, deals, effects in plans:
        deck = sy.Deck(kinds, [1] * 40, effects)
        truth = sy.dealt_truth(game, deck)
        n = reps if not effects else max(100, reps // 3)
        false = {"normal": 0, "auto": 0}
        found = {"normal": 0, "auto": 0}
        used = set()
        t = time.perf_counter()
        for r in range(n):
            seed = deals * 1_000_003 + 7_919 * round(1000 * sum(effects.values())) + 250_000 * game.team_game + r
            res = sy.play_dealt(game, deck, deals, seed=seed)
            members = sy.unit_members(game)
            x = np.stack([res["dealt"][:, m, :].sum(axis=1) for m in members], axis=1)
            w = res["win"][:, [m[0] for m in members]]
            for method in false:
                e = components.estimate(components.arrays_blocks(x, w), kinds, len(members),
                                        "team" if game.team_game else "seat", method=method)
                if method == "auto":
                    used.add(e.method)
                f = e.found()
                false[method] += any(abs(truth[k.kind]) < 1e-12 or (k.effect > 0) != (truth[k.kind] > 0) for k in f)
                found[method] += any(k.kind == "Swap" and k.effect > 0 for k in f)
        planted = ", ".join(f"{k} {100 * v:+.0f} pp" for k, v in effects.items()) or "nothing"
        row = [name, f"{deals:,}", planted, f"{n:,}", _share(false["normal"], n), _share(false["auto"], n),
               _share(found["normal"], n) if effects else "", _share(found["auto"], n) if effects else "",
               ", ".join(sorted(used)) + f" ({time.perf_counter() - t:.0f} s)"]
        rows.append(row)
        print("| " + " | ".join(row) + " |", flush=True)
    return rows


CHILD = """
import json, resource, sys, time
from tourney_sim.simulate.stats import components
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
    ap.add_argument("--small-reps", type=int, default=1000, help="replicates per small-sample row (0: none)")
    a = ap.parse_args()
    if a.reps:
        print("| " + " | ".join(HEADER) + " |")
        print("|" + "---|" * len(HEADER))
        coverage_rows(a.reps)
    if a.small_reps:
        print("\n| " + " | ".join(SMALL_HEADER) + " |")
        print("|" + "---|" * len(SMALL_HEADER))
        small_sample_rows(a.small_reps)
    if a.games:
        r = cost(a.games, a.kinds)
        print(f"\ncost: {r['games']:,} games x {r['kinds']} kinds: {r['seconds']:.1f} s, peak RSS "
              f"{r['peak_mb']:.0f} MB above the interpreter's; {r['top']}")


if __name__ == "__main__":
    main()
