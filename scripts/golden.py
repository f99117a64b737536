#!/usr/bin/env python
"""Write the golden games that ``tests/contract/test_golden.py`` checks (OpenSpiel's "playthroughs").

Run it only when a change of play is deliberate (a rules version bump, a built-in strategy's new
play), in the same commit, and say why in the commit message:

    python scripts/golden.py --update     # rewrites tests/golden/*.json
    python scripts/golden.py              # only shows which games differ

Each file names its game, players, options, seed, seating and game index, and the test plays it
again from that alone; the list below only says which games are written: a few games of every
game and every rule option value (``tests/contract/test_golden.py`` checks that coverage), the
legal moves listed in the first case of each game.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tourney_sim.simulate.matchup import make_matchup

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/support
from tests.support.recorded import golden_text  # noqa: E402

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

#: (name, game, players, strategies, rule options, seed, games, with legal moves)
CASES = [
    ("companeros-3p", "companeros", 3, ["greedy", "random"], [], 11, 2, True),
    ("companeros-4p-match2", "companeros", 4, ["greedy", "random"], ["match_games=2"], 12, 2, False),
    ("companeros-6p", "companeros", 6, ["greedy", "random"], [], 13, 2, False),
    ("cardavia", "cardavia", 4, ["guard", "random"], [], 21, 2, True),
    ("cardavia-single-match-forced", "cardavia", 4, ["guard", "random"], ["single_match_forced=true"], 22, 2, False),
    ("cardavia-no-last-sweep", "cardavia", 4, ["guard", "random"], ["last_sweep_scores=false"], 23, 2, False),
    ("cardavia-napula-beyond-10", "cardavia", 4, ["guard", "random"], ["napula_beyond_10=true"], 24, 2, False),
    ("cardavia-match2", "cardavia", 4, ["guard", "random"], ["match_deals=2"], 25, 1, False),
    ("colleagues-2p", "colleagues", 2, ["dodger", "random"], [], 31, 2, True),
    ("colleagues-2p-shield", "colleagues", 2, ["dodger", "random"], ["grey_dismissal=shield"], 32, 2, False),
    ("colleagues-4p", "colleagues", 4, ["dodger", "random"], [], 33, 2, False),
    ("partners", "partners", 4, ["guardian", "random"], [], 41, 1, True),
    ("partners-bounce", "partners", 4, ["guardian", "random"], ["house_overshoot=bounce"], 42, 1, False),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", action="store_true", help="write the new golden games")
    args = ap.parse_args()
    GOLDEN.mkdir(exist_ok=True)
    wanted = set()
    for name, game, players, strategies, rules, seed, games, legal in CASES:
        m = make_matchup(game, players, strategies, rules=rules, seed=seed)
        for index in range(games):
            path = GOLDEN / f"{name}-g{index}.json"
            wanted.add(path)
            text = golden_text(m, index, legal)
            old = path.read_text() if path.exists() else None
            print(f"{path.name}: {'same' if old == text else 'CHANGED' if old else 'new'}", flush=True)
            if args.update and old != text:
                path.write_text(text)
    for stale in sorted(set(GOLDEN.glob("*.json")) - wanted):
        print(f"{stale.name}: no longer a golden game" + (" (removed)" if args.update else ""))
        if args.update:
            stale.unlink()


if __name__ == "__main__":
    main()
