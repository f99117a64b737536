"""Ctrl-C stops a run cleanly: whole parts kept and readable, the manifest says interrupted."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from .support.interrupts import stderr_problems, stress, summary

ROOT = Path(__file__).resolve().parent.parent


def test_ctrl_c_keeps_whole_parts(tmp_path):
    out = tmp_path / "run"
    inherited = signal.getsignal(signal.SIGINT)
    # Ctrl-C as from a terminal: whatever the test process does with SIGINT, the run starts with
    # the default (a process started with SIGINT ignored, as `&` in a script does, ignores Ctrl-C)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tourney_sim", "run", "companeros", "--games", "200000000", "--chunk-size",
         "20000", "--workers", "2", "--out", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.time() + 120
        while time.time() < deadline and len(list(out.glob("part-*.parquet"))) < 2:
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:  # never leave a 200-million-game run behind
            proc.kill()
            proc.communicate()
            raise AssertionError(f"the run did not stop on SIGINT (the test process's SIGINT handler: "
                                 f"{inherited!r})")
    assert proc.returncode == 130, stderr
    assert "interrupted:" in stderr and "Traceback" not in stderr
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    parts = sorted(out.glob("part-*.parquet"))
    assert len(parts) >= 2 and not list(out.glob(".*tmp"))
    recorded = {p["file"] for p in manifest["parts"]}
    assert {p.name for p in parts} == recorded
    for p in parts:  # every kept part is whole: readable, every game with all its seats
        t = pq.read_table(p, columns=["game"]).to_pandas()
        assert len(t) == 20000 * 4 and t["game"].nunique() == 20000


@pytest.mark.slow
def test_ctrl_c_at_random_moments_under_load_exits_130_quietly_and_resumes(tmp_path):
    """Issue 40: a run (2 workers), a tournament, a study and a design run, each sent Ctrl-C (to its
    process group) at seeded random moments beside a CPU busy loop, from start-up to near the end:
    exit 130 with one "interrupted" line and no traceback, no temporary file left, and --resume
    ends with the uninterrupted data (tests/support/interrupts.py; scripts/stress_interrupt.py
    plays 50+ moments; ``TOURNEY_STRESS_MOMENTS=3`` here plays 3 per kind)."""
    seed = 40  # fixed: the moments are the same on every run (where they land still depends on the load)
    moments = int(os.environ.get("TOURNEY_STRESS_MOMENTS", "1"))
    trials = stress(["run", "tournament", "study", "design"], moments, seed, tmp_path, echo=lambda s: None)
    failed = [f"{t.line()}\n{t.stderr[-3000:]}" for t in trials if not t.ok]
    assert not failed, f"seed {seed}: {summary(trials)}\n" + "\n".join(failed)


def test_the_harness_fails_a_traceback_a_wrong_exit_code_and_a_missing_line():
    """The checks the stress harness applies to a trial's stderr can fail."""
    assert stderr_problems("interrupted: 3 of 9 games kept\n", interrupted=True) == []
    assert stderr_problems("bar 10%\rbar 20%\ninterrupted: kept\n", interrupted=True) == []
    assert stderr_problems("Traceback (most recent call last):\nKeyboardInterrupt\n", interrupted=True)
    assert stderr_problems("Exception ignored in: <function _python_exit>\ninterrupted: x\n", interrupted=True)
    assert stderr_problems("\n", interrupted=True)  # exit 130 without its line (Typer's silent Exit(130))
