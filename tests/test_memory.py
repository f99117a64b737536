"""Memory does not grow with --games (issue 30.1): a run or tournament of a trillion games plans
its chunks from their index, so it starts playing at once with a bounded resident set; a count no
dataset can hold is refused in one line before anything is written."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tourney_sim.simulate.results import MAX_PARTS
from tourney_sim.simulate.runner import MAX_CHUNK, MAX_GAMES, SizeError, chunk_plan, fit_chunk
from tourney_sim.simulate.tournament import AllParts, plan_batches

from .support.cli import invoke

TRILLION = 10 ** 12
GB = 1 << 30


def peak_rss(pid: int) -> int:
    """The process's peak resident set (VmHWM), in bytes."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc/PID/status")


def play_until_first_part(args: list, first_part, timeout: float = 600) -> tuple[int, int]:
    """Start ``tourney ARGS`` in its own process, wait for ``first_part`` to be written, then
    Ctrl-C it: (its peak resident set while planning and playing, its exit code)."""
    child = subprocess.Popen([sys.executable, "-m", "tourney_sim", *map(str, args)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + timeout
        while not first_part.exists():
            assert child.poll() is None, child.stderr.read().decode()
            assert time.monotonic() < deadline, "no part written in time"
            time.sleep(0.2)
        peak = peak_rss(child.pid)
        child.send_signal(signal.SIGINT)
        code = child.wait(120)
        return peak, code
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.slow
def test_a_trillion_game_run_starts_with_flat_memory_and_stops_cleanly(tmp_path):
    out = tmp_path / "big"
    peak, code = play_until_first_part(["run", "companeros", "--players", 4, "--strategy", "random", "--games",
                                        TRILLION, "--workers", 1, "--quiet", "--out", out],
                                       out / "part-000000.parquet")
    assert peak < GB, f"peak resident set {peak / 2**20:,.0f} MB"
    assert code == 130
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["games"] == TRILLION
    assert manifest["chunk_size"] == TRILLION // MAX_PARTS  # grown so that its parts fit a dataset


@pytest.mark.slow
def test_a_trillion_deal_tournament_starts_with_flat_memory(tmp_path):
    out = tmp_path / "t"
    first = out / "high-random-random" / "part-000000.parquet"
    peak, code = play_until_first_part(["tournament", "companeros", "--players", 3, "--strategy", "random",
                                        "--strategy", "high", "--games", TRILLION, "--workers", 1, "--quiet",
                                        "--out", out], first)
    assert peak < GB, f"peak resident set {peak / 2**20:,.0f} MB"
    assert code == 130
    assert json.loads((out / "_tournament.json").read_text())["status"] == "interrupted"


def test_the_plan_is_computed_not_stored():
    plan = chunk_plan(TRILLION, MAX_CHUNK)
    assert len(plan) == MAX_PARTS and sys.getsizeof(plan) < 100
    assert plan[0] == (0, 0, MAX_CHUNK) and plan[-1] == (MAX_PARTS - 1, TRILLION - MAX_CHUNK, MAX_CHUNK)
    assert list(chunk_plan(2500, 1000)) == [(0, 0, 1000), (1, 1000, 1000), (2, 2000, 500)]
    with pytest.raises(IndexError):
        plan[MAX_PARTS]
    # --until-decided: batches growing by half, each one part (cut at MAX_CHUNK), found by index
    batches = plan_batches(TRILLION // 10, MAX_CHUNK, sequential=True, first_batch=1000)
    parts = AllParts(batches)
    assert len(batches) < 60 and sum(len(b) for b in batches) == len(parts)
    assert [parts[i] for i in range(3)] == [(0, 0, 1000), (1, 1000, 1000), (2, 2000, 1000)]
    assert all(parts[i][0] == i for i in range(0, len(parts), 997))
    last = parts[len(parts) - 1]
    assert last[1] + last[2] == TRILLION // 10
    with pytest.raises(SizeError, match="with --until-decided, more than a dataset holds"):
        plan_batches(TRILLION, MAX_CHUNK, sequential=True, first_batch=1000)  # its batches add parts


def test_chunks_grow_to_fit_and_impossible_counts_are_refused():
    assert fit_chunk(10_000, None, 50_000) == 50_000
    assert fit_chunk(10 ** 11, None, 50_000) == 100_000  # a million parts at most
    assert fit_chunk(MAX_GAMES, None, 50_000) == MAX_CHUNK
    with pytest.raises(SizeError, match=r"^--games 1,000,000,000,001 is more than a dataset holds: at most "
                                        r"1,000,000,000,000 \(1,000,000 parts of at most 1,000,000 games\)$"):
        fit_chunk(MAX_GAMES + 1, None, 50_000)
    with pytest.raises(SizeError, match=r"^--deals 10,000,000,000 in chunks of 1,000 games makes 10,000,000 "
                                        r"parts, more than a dataset holds \(1,000,000\): give --chunk-size "
                                        r"10,000 or more \(at most 1,000,000\)$"):
        fit_chunk(10 ** 10, 1000, 50_000, "--deals")
    with pytest.raises(SizeError, match=r"^--chunk-size 2,000,000 is more games than a chunk holds in memory"):
        fit_chunk(10, 2 * MAX_CHUNK, 50_000)


@pytest.mark.parametrize("args, message", [
    (["run", "companeros", "--games", 10 ** 13],
     "error: --games 10,000,000,000,000 is more than a dataset holds: at most 1,000,000,000,000"),
    (["run", "companeros", "--games", 10 ** 10, "--chunk-size", 1000],
     "error: --games 10,000,000,000 in chunks of 1,000 games makes 10,000,000 parts"),
    (["tournament", "companeros", "--strategy", "random", "--strategy", "high", "--games", 10 ** 13],
     "error: --games 10,000,000,000,000 is more than a dataset holds"),
    (["sweep", "companeros", "--rule", "match_games=1,2", "--strategy", "random", "--strategy", "high",
      "--games", 10 ** 13], "error: --games 10,000,000,000,000 is more than a dataset holds"),
    (["tune", "companeros", "--strategy", "greedy", "--against", "random", "--deals", 10 ** 13],
     "error: --deals 10,000,000,000,000 is more than a dataset holds"),
    (["tune", "companeros", "--strategy", "greedy", "--against", "random", "--deals", 10,
      "--confirm-deals", 10 ** 13], "error: --confirm-deals 10,000,000,000,000 is more than a dataset holds"),
])
def test_a_count_no_dataset_holds_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    r = invoke(*args, "--out", out, "--quiet")
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [r.output.strip()] and r.output.startswith(message), r.output
    assert not out.exists() and os.listdir(tmp_path) == []
