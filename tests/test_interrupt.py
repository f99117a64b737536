"""Ctrl-C stops a run cleanly: whole parts kept and readable, the manifest says interrupted."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

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
