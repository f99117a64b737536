#!/usr/bin/env python
"""Write the golden games that ``tests/test_golden.py`` checks (OpenSpiel's "playthroughs").

Run it only when a change of play is deliberate (a rules version bump, a built-in strategy's new
play), in the same commit, and say why in the commit message:

    python scripts/golden.py --update     # rewrites tests/golden/*.json
    python scripts/golden.py              # only shows which games differ
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_golden import GOLDEN, all_golden, golden_path, golden_text  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", action="store_true", help="write the new golden games")
    args = ap.parse_args()
    GOLDEN.mkdir(exist_ok=True)
    wanted = set()
    for case, index in all_golden():
        path = golden_path(case[0], index)
        wanted.add(path)
        text = golden_text(case, index)
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
