"""Ctrl-C at random moments under CPU load, for every kind of job (issue 40, item 5).

Each kind (run on 2 workers, tournament, study, design run; small sizes) is played once
uninterrupted, then started again and again beside a CPU busy loop and sent SIGINT (to its process
group, as a terminal's Ctrl-C) at a seeded random moment, from start-up to near its end. Every
trial must exit 130 (or 0 when it finished first) with one "interrupted: ..." line and no
traceback, leave no temporary file, and resume (--resume) to the uninterrupted data.

    python scripts/stress_interrupt.py                      # 4 kinds x 13 moments = 52
    python scripts/stress_interrupt.py --kinds run,study --moments 20 --seed 3

Prints one line per trial and a summary; exits 1 on any failure (its stderr shown).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.interrupts import KINDS, stress, summary  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    ap.add_argument("--moments", type=int, default=13, help="random moments per kind (default 13: 52 in all)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the moments")
    ap.add_argument("--workdir", type=Path, default=None, help="where the jobs are written (default: a temporary "
                    "directory, removed at the end; a failed trial's directory is kept there)")
    args = ap.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        ap.error(f"unknown kind(s) {', '.join(unknown)}: use {', '.join(KINDS)}")
    if not kinds or args.moments < 1:
        ap.error("--kinds must name at least one kind and --moments must be at least 1")
    t = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="stress-interrupt-") as tmp:
        workdir = args.workdir or Path(tmp)
        trials = stress(kinds, args.moments, args.seed, workdir, echo=lambda s: print(s, flush=True))
    print(f"{summary(trials)} in {time.perf_counter() - t:.0f} s (seed {args.seed})")
    return 1 if any(not tr.ok for tr in trials) else 0


if __name__ == "__main__":
    sys.exit(main())
