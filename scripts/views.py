#!/usr/bin/env python
"""Record the published views of every game (``tourney_sim.views``) that ``tests/test_views.py`` checks.

A plug-in compiled against a game's views reads its state at their offsets, so they change only
on purpose: change the layout or ``STRATEGY_CONSTANTS``, bump the game's ``VIEWS_VERSION`` (its
rules.py), then, in the same commit:

    python scripts/views.py --update    # rewrites tests/data/views/<game>.json and docs/views.md
    python scripts/views.py             # only shows which games differ

A game whose views changed while its ``VIEWS_VERSION`` did not is refused. Run with
``TOURNEY_GAME_PATH=tests/toy`` to record the toy game's snapshot too (docs/views.md shows the
shipped games only).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tourney_sim import views
from tourney_sim.simulate.games import GAME_PATH, game_names, get_game

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "data" / "views"
DOC = ROOT / "docs" / "views.md"
DOC_HEAD = """# The published views, per game

What a strategy reads, game by game: generated from each game's layout by `python scripts/views.py
--update` (`tests/test_views.py` checks that it is current). How to use them: `docs/api.md`,
"Reading the state".
"""


def snapshot_text(game: str) -> str:
    """The snapshot as JSON text, one piece or constant a line (so a diff shows what changed)."""
    snap = views.snapshot(game)
    lines = []
    for key, value in snap.items():
        if isinstance(value, dict):
            inner = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items()]
            lines.append(f"  {json.dumps(key)}: {{\n" + ",\n".join(inner) + "\n  }")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def shipped_games() -> list[str]:
    """The games of the package itself (not of ``TOURNEY_GAME_PATH``)."""
    return [g for g in game_names()
            if not any(Path(get_game(g).module.__file__).is_relative_to(d) for d in GAME_PATH)]


def doc_text() -> str:
    return DOC_HEAD + "".join("\n" + views.markdown(g) for g in shipped_games())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", action="store_true", help="write the snapshots and docs/views.md")
    args = ap.parse_args()
    refused = False
    for game in game_names():
        path = SNAPSHOTS / f"{game}.json"
        new = snapshot_text(game)
        old = path.read_text() if path.exists() else None
        if old == new:
            continue
        version = views.snapshot(game)["views_version"]
        if old is not None and json.loads(old)["views_version"] == version:
            print(f"{game}: its views changed but VIEWS_VERSION is still {version}: bump it in "
                  f"{get_game(game).module.__file__}")
            refused = True
            continue
        print(f"{game}: {'new snapshot' if old is None else 'changed'} (views version {version})")
        if args.update:
            SNAPSHOTS.mkdir(parents=True, exist_ok=True)
            path.write_text(new)
    doc = doc_text()
    if not DOC.exists() or DOC.read_text() != doc:
        print(f"{DOC.relative_to(ROOT)}: out of date")
        if args.update and not refused:
            DOC.write_text(doc)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
