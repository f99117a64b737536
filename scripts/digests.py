#!/usr/bin/env python
"""Record the rows of the seeded runs that ``tests/test_digests.py`` checks (never run in CI).

Run it only when a change of results is deliberate (a rules version bump, a strategy's new
default), in the same commit, and say why in the commit message:

    python scripts/digests.py --update     # rewrites tests/data/digests.json and dealt_digests.json
    python scripts/digests.py --add        # records only the cases a table lacks (a new case, a new
                                           # table), never changing a recorded digest
    python scripts/digests.py              # only shows which cases differ
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/support
from tests.support.recorded import case_digest, digest_cases  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
#: the digests of the columns every dataset has, and of the ``dealt`` column (recorded apart, after)
DIGESTS, DEALT_DIGESTS = DATA / "digests.json", DATA / "dealt_digests.json"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", action="store_true", help="write the new digests")
    ap.add_argument("--add", action="store_true", help="record the cases a table lacks, keep every recorded one")
    args = ap.parse_args()
    files = (DIGESTS, DEALT_DIGESTS)
    old = [json.loads(f.read_text()) if f.exists() else {} for f in files]
    new = [{}, {}]
    with tempfile.TemporaryDirectory() as tmp:
        for name, game, players, seats, games, rules in digest_cases():
            digests = case_digest(game, players, seats, games, rules, Path(tmp) / name)
            for was, now, digest, what in zip(old, new, digests, ("rows", "dealt")):
                now[name] = digest
                print(f"{name} {what}: {'same' if was.get(name) == digest else 'CHANGED' if name in was else 'new'}",
                      flush=True)
    for f, was, now in zip(files, old, new):
        if args.add:
            now = {**now, **was}
        if (args.update or args.add) and now != was:
            f.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
            print(f"wrote {f}")


if __name__ == "__main__":
    main()
