#!/usr/bin/env python
"""Record the rows of the seeded runs that ``tests/test_digests.py`` checks (never run in CI).

Run it only when a change of results is deliberate (a rules version bump, a strategy's new
default), in the same commit, and say why in the commit message:

    python scripts/digests.py --update     # rewrites tests/data/digests.json
    python scripts/digests.py              # only shows which cases differ
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from tourney_sim.simulate.testing import case_digest, digest_cases

DIGESTS = Path(__file__).resolve().parent.parent / "tests" / "data" / "digests.json"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", action="store_true", help="write the new digests")
    args = ap.parse_args()
    old = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    new = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, game, players, seats, games, rules in digest_cases():
            new[name] = case_digest(game, players, seats, games, rules, Path(tmp) / name)
            print(f"{name}: {'same' if old.get(name) == new[name] else 'CHANGED' if name in old else 'new'}",
                  flush=True)
    if args.update:
        DIGESTS.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        print(f"wrote {DIGESTS}")


if __name__ == "__main__":
    main()
