"""--resume: a run SIGKILLed at any moment continues where it stopped and ends with exactly the
dataset an uninterrupted run gives; a resume with other parameters is refused."""
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app
from tourney_sim.simulate.matchup import make_matchup
from tourney_sim.simulate.results import OutputError, read_manifest, read_table
from tourney_sim.simulate.runner import ResumeError, run
from tourney_sim.simulate.verify import verify

ROOT = Path(__file__).resolve().parent.parent
PART_KEYS = ("file", "first_game", "games", "rows", "bytes", "sha256")
RUN_ARGS = ["run", "companeros", "--players", "4", "--games", "40000", "--chunk-size", "1000",
            "--seed", "11", "--strategy", "greedy", "--strategy", "random", "--workers", "2", "--quiet"]


def frame(path):
    return read_table(path).to_pandas().sort_values(["game", "seat"]).reset_index(drop=True)


def parts(path):
    return [{k: p[k] for k in PART_KEYS} for p in read_manifest(path)["parts"]]


def tourney(out, *extra):
    """Start `python -m tourney_sim run ...` in its own process group (so a kill takes its workers)."""
    return subprocess.Popen([sys.executable, "-m", "tourney_sim", *RUN_ARGS, "--out", str(out), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


@pytest.mark.slow
def test_sigkill_at_random_moments_then_resume_gives_the_uninterrupted_dataset(tmp_path):
    ref = tmp_path / "ref"
    t = time.perf_counter()
    p = tourney(ref)
    first_part = _wait_for_parts(p, ref, 0)
    _, err = p.communicate(timeout=300)
    duration = time.perf_counter() - t
    playing = duration - (first_part - t)  # from the first part written to the end
    assert p.returncode == 0, err

    seed = int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    out = tmp_path / "killed"
    history = []
    for attempt in range(5):
        p = tourney(out, *(["--resume"] if attempt else []))
        if attempt in (0, 3):  # anywhere from start-up (compiling, first manifest) to the end
            at = rng.uniform(0.0, 1.0) * duration
        else:  # while parts are being written: after a random number of new parts, plus a jitter
            known = len(list(out.glob("part-*")))
            _wait_for_parts(p, out, known + rng.randrange(max(1, 40 - known)))
            at = rng.uniform(0.0, 0.05) * playing
        try:
            p.wait(timeout=at)
            history.append(f"finished before {at:.2f} s")
        except subprocess.TimeoutExpired:
            if attempt == 2:  # the main process alone: its workers must not play on as orphans
                os.kill(p.pid, signal.SIGKILL)
                p.wait()
                deadline = time.monotonic() + 5
                while _group_alive(p.pid) and time.monotonic() < deadline:
                    time.sleep(0.05)
                orphans = _group_alive(p.pid)
                if orphans:
                    os.killpg(p.pid, signal.SIGKILL)
                assert not orphans, "worker processes outlived the killed run"
            else:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            history.append(f"killed at {at:.2f} s with {len(list(out.glob('part-*')))} parts on disk")
        p.communicate()
    why = f"random seed {seed}: {history} (uninterrupted run {duration:.2f} s)"
    print(why)
    p = tourney(out, "--resume")
    _, err = p.communicate(timeout=300)
    assert p.returncode == 0, f"{err}\n{why}"

    verdict = verify(out)
    assert verdict.ok, f"{verdict.problems}\n{why}"
    assert parts(out) == parts(ref), why  # byte for byte: the same checksums, part by part
    pd.testing.assert_frame_equal(frame(out), frame(ref))
    assert not list(out.glob(".*tmp")), why
    man = read_manifest(out)
    assert man["status"] == "complete" and man["games_done"] == 40000
    assert man["command"].startswith("tourney run companeros")  # the first command is kept
    assert man["resumed"] and all("--resume" in r["command"] for r in man["resumed"])


def _wait_for_parts(p, out, known):
    """Wait until more than ``known`` parts are on disk (or the process ended); the time then."""
    while p.poll() is None and len(list(out.glob("part-*"))) <= known:
        time.sleep(0.01)
    return time.perf_counter()


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


@pytest.fixture(scope="module")
def matchup():
    return make_matchup("companeros", 4, ["greedy", "random", "high"], seed=5)


@pytest.fixture(scope="module")
def reference(tmp_path_factory, matchup):
    out = tmp_path_factory.mktemp("ref") / "d"
    run(matchup, 9000, out, workers=1, chunk_size=1000, progress=False)
    return out


def test_killed_between_part_and_manifest_and_with_debris(tmp_path, matchup, reference):
    """The states a SIGKILL can leave, built by hand: parts on disk the manifest does not list
    yet, a part truncated or corrupted by something else, temporary files of both kinds."""
    out = tmp_path / "d"
    import shutil
    shutil.copytree(reference, out)
    man = read_manifest(out)
    full = man["parts"]
    man["status"] = "running"
    man["parts"] = full[:3]  # parts 3.. were written, but the manifest was not updated yet
    man["games_done"] = 3000
    (out / "_manifest.json").write_text(json.dumps(man))
    (out / "part-000004.parquet").write_bytes((out / "part-000004.parquet").read_bytes()[:3000])
    (out / "part-000001.parquet").write_bytes(b"garbage" * 100)  # listed, but its bytes changed
    (out / "part-000008.parquet").unlink()
    (out / ".part-000008.parquet.123-abcdef01.tmp").write_bytes(b"half a part")
    (out / "._manifest.json.123.tmp").write_text("{")

    report = run(matchup, 9000, out, workers=1, chunk_size=None, progress=False, resume=True)
    assert report.resumed and report.games_played == 3000  # parts 1, 4 and 8 played again
    assert "6 of 9 parts kept" in report.notes[0] and "4 finished but not yet recorded" in report.notes[0]
    assert any("part-000004.parquet" in n and "deleted" in n for n in report.notes)
    assert verify(out).ok
    assert parts(out) == parts(reference)
    assert not list(out.glob(".*tmp"))


def test_resume_refuses_other_parameters_and_writes_nothing(tmp_path, matchup):
    out = tmp_path / "d"
    run(matchup, 3000, out, workers=1, chunk_size=1000, progress=False)
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    other_seed = make_matchup("companeros", 4, ["greedy", "random", "high"], seed=6)
    with pytest.raises(ResumeError, match=r"started with different parameters: seed 5 \(now 6\)"):
        run(other_seed, 3000, out, workers=1, progress=False, resume=True)
    with pytest.raises(ResumeError, match=r"games 3000 \(now 4000\)"):
        run(matchup, 4000, out, workers=1, progress=False, resume=True)
    with pytest.raises(ResumeError, match=r"chunk_size 1000 \(now 500\)"):
        run(matchup, 3000, out, workers=1, chunk_size=500, progress=False, resume=True)
    other_seats = make_matchup("companeros", 4, ["random", "greedy"], seed=5)
    with pytest.raises(ResumeError, match="seats"):
        run(other_seats, 3000, out, workers=1, progress=False, resume=True)
    with pytest.raises(OutputError, match="cannot be used together"):
        run(matchup, 3000, out, workers=1, progress=False, resume=True, overwrite=True)
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before

    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("keep")
    with pytest.raises(ResumeError, match="not a tourney dataset"):
        run(matchup, 3000, stranger, workers=1, progress=False, resume=True)
    assert [p.name for p in stranger.iterdir()] == ["notes.txt"]


def test_resume_cli_messages(tmp_path):
    runner = CliRunner()
    out = tmp_path / "d"
    args = ["run", "companeros", "--games", "2000", "--chunk-size", "1000", "--workers", "1", "--out", str(out)]
    # nothing to resume yet: --resume simply starts
    r = runner.invoke(app, args + ["--quiet", "--resume"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, args + ["--seed", "3", "--resume"])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot resume") and "seed 0 (now 3)" in lines[0]
    r = runner.invoke(app, args + ["--resume", "--overwrite"])
    assert r.exit_code == 2 and "cannot be used together" in r.output
    # a finished run resumed: nothing to play, the summary again
    r = runner.invoke(app, args + ["--resume"])
    assert r.exit_code == 0 and "resuming: 2 of 2 parts kept" in r.output and "0 games in" in r.output


def test_run_killed_at_its_very_start_resumes_from_nothing(tmp_path, matchup, reference):
    out = tmp_path / "d"
    out.mkdir()
    (out / "._manifest.json.99.tmp").write_text('{"format"')  # killed while writing the first manifest
    run(matchup, 9000, out, workers=1, chunk_size=1000, progress=False, resume=True)
    assert parts(out) == parts(reference)
