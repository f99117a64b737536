"""Benchmark of the report: ``tourney report`` on about 10 million result rows, wall time and peak
memory (resident set size of the report process, as the kernel counts it).

    python scripts/bench_report.py                       # 10,000,000 rows of a real tournament
    python scripts/bench_report.py --rows 2000000        # smaller
    python scripts/bench_report.py --source synthetic    # synthetic rows (no game kernel needed)

The data: a Compañeros duplicate tournament, 4 players, greedy v random (14 seatings, each deal
played 14 times, so the report pairs 14 datasets deal by deal), played once into ``--dir`` and
reused while it holds enough rows; or the same shape written by ``tests/support/synthetic.py``. The budget
(issue 6): under a minute and under 4 GB for 10 million rows.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the repository, for tests/support
SEATINGS = 14  # 4 seats, 2 strategies: 2**4 - 2
SEATS = 4


def existing_rows(directory: Path) -> int:
    try:
        t = json.loads((directory / "_tournament.json").read_text())
    except (OSError, ValueError):
        return 0
    return int(t.get("games_played", 0)) * SEATS if t.get("status") == "complete" else 0


def make_data(directory: Path, rows: int, source: str) -> None:
    deals = -(-rows // (SEATINGS * SEATS))
    if source == "companeros":
        cmd = [sys.executable, "-m", "tourney_sim", "tournament", "companeros", "--players", "4",
               "--strategy", "greedy", "--strategy", "random", "--games", str(deals), "--seed", "1",
               "--out", str(directory), "--overwrite", "--quiet"]
        print("making the data:", " ".join(cmd[2:]), flush=True)
        subprocess.run(cmd, check=True, cwd=ROOT)
    else:
        import shutil

        from tests.support import synthetic as sy
        shutil.rmtree(directory, ignore_errors=True)
        game = sy.Game("synthetic", 4, columns={"cards_taken": "cards", "leader_at_two_thirds": "leader"})

        def cols(r, u, rng):
            g, s = r["strat"].shape
            import numpy as np
            return {"cards_taken": rng.integers(0, 12, (g, s)),
                    "leader_at_two_thirds": np.repeat(np.argmax(u[:, :4], axis=1)[:, None], s, axis=1)}

        print(f"making synthetic data: {SEATINGS} seatings x {deals:,} deals", flush=True)
        sy.write_tournament(directory, game, ["greedy", "random"], {"greedy": 0.5}, deals, seed=1,
                            luck=1.0, parts=max(1, deals // 50_000), column_fn=cols)
        t = json.loads((directory / "_tournament.json").read_text())
        t["games_played"] = deals * SEATINGS
        (directory / "_tournament.json").write_text(json.dumps(t))


def measure(directory: Path, out: Path) -> tuple[float, int, int]:
    cmd = [sys.executable, "-m", "tourney_sim", "report", str(directory), "--out", str(out), "--quiet"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss * 1024, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--dir", type=Path, default=ROOT / "runs" / "bench-report")
    ap.add_argument("--source", choices=("companeros", "synthetic"), default="companeros")
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    directory = args.dir if args.source == "companeros" else args.dir.with_name(args.dir.name + "-synthetic")
    if existing_rows(directory) < args.rows:
        make_data(directory, args.rows, args.source)
    rows = existing_rows(directory)
    out = directory.with_name(directory.name + "-report.html")
    for _ in range(args.repeats):
        seconds, peak, code = measure(directory, out)
        if code != 0:
            sys.exit(f"tourney report failed with exit code {code}")
        print(f"tourney report on {rows:,} rows ({args.source}): {seconds:.1f} s, peak memory "
              f"{peak / 2**30:.2f} GiB; report {out} ({out.stat().st_size / 1024:.0f} KiB)", flush=True)


if __name__ == "__main__":
    main()
