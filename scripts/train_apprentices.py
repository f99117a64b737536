#!/usr/bin/env python
"""Train the shipped apprentices: one `tourney train` per game and player count the study covers,
then copy each run's best.toml into the game's folder as ``apprentice-<N>p.toml`` (what the bare
strategy name ``apprentice`` plays; its ``[table]`` names the shipped table it was trained on).

The budget is the same for every configuration: ``tourney train``'s defaults (6 rounds, 2,000
evaluation deals per seating; a round's labels cost the same search: 30,000 at twice the search's
playing budget, Colleagues 3,750 at 16 times it, Partners 1,500 at 40 times it: the game's
``label_scale``), written out here so
the shipped weights stay reproducible if those change; a configuration
whose run directory already holds a finished run is resumed (nothing is redone), so the script
can be stopped and started again. Re-running it with the same options gives the same weights.
Weights that change change the apprentice's seeded games, which ``tests/test_digests.py`` holds:
record them again in the same commit (``python scripts/digests.py --update``).

Usage: python scripts/train_apprentices.py [--only companeros-4] [--out runs/apprentice]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

#: (game, players): every player count the standard studies cover
CONFIGS = [("companeros", 3), ("companeros", 4), ("companeros", 5), ("companeros", 6), ("cardavia", 4),
           ("colleagues", 2), ("colleagues", 3), ("colleagues", 4), ("colleagues", 5), ("partners", 4)]
SEED = 41  # the number: one seed for every shipped training run


#: the checkout this script is in: the weights are shipped there
REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="GAME-N (repeatable); default every configuration")
    ap.add_argument("--out", default="runs/apprentice", help="where the training runs go")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--positions", type=int, default=None, help="labels per round (default: the game's)")
    ap.add_argument("--eval-deals", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    from tourney_sim.strategies.common import shipped_path
    configs = [c for c in CONFIGS if not args.only or f"{c[0]}-{c[1]}" in args.only]
    for game, players in configs:
        out = Path(args.out) / f"{game}-{players}p"
        command = [sys.executable, "-m", "tourney_sim", "train", game, "--players", str(players),
                   "--seed", str(SEED), "--rounds", str(args.rounds), "--eval-deals", str(args.eval_deals),
                   "--out", str(out), "--quiet"]
        if args.positions:
            command += ["--positions", str(args.positions)]
        if args.workers:
            command += ["--workers", str(args.workers)]
        if (out / "_train.json").exists():
            command.append("--resume")
        start = time.perf_counter()
        done = subprocess.run(command)
        if done.returncode != 0:
            sys.exit(f"{game} at {players} players: tourney train failed ({done.returncode})")
        folder = REPO / "simulate" / "games" / game
        shutil.copyfile(out / "best.toml", shipped_path(folder, players))
        print(f"{game} at {players} players: {time.perf_counter() - start:.0f} s -> "
              f"{shipped_path(folder, players)}", flush=True)
    print("new shipped weights play new games: record their digests in the same commit with "
          "`python scripts/digests.py --update` (tests/test_digests.py checks the apprentice's)")


if __name__ == "__main__":
    main()
