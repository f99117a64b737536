"""The Dask backend on a real `dask.distributed` cluster of worker processes: the same rows as the
built-in runner, a worker killed mid-run costs only its unfinished chunks, clean errors."""
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import distributed  # a dependency of tourney: if it is missing this fails, it never skips
import pandas as pd
import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app
from tourney_sim.simulate.matchup import make_matchup
from tourney_sim.simulate.results import read_manifest, read_table
from tourney_sim.simulate.runner import run
from tourney_sim.simulate.verify import verify

from .plugin_site import tourney

HERE = Path(__file__).parent
ROOT = HERE.parent
PART_KEYS = ("file", "first_game", "games", "rows", "bytes", "sha256")


def parts(path):
    return [{k: p[k] for k in PART_KEYS} for p in read_manifest(path)["parts"]]


def frame(path):
    return read_table(path).to_pandas().sort_values(["game", "seat"]).reset_index(drop=True)


def reference(out, game, *args):
    """The built-in runner's dataset, made by `tourney run` in a fresh process (as a user would;
    it also keeps the reference independent of whatever this test process has compiled)."""
    r = subprocess.run([sys.executable, "-m", "tourney_sim", "run", game, "--out", str(out), "--quiet",
                        *map(str, args)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR) as c:
        yield c


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as c:
        yield c


@pytest.mark.slow
def test_dask_gives_the_rows_of_the_local_runner(tmp_path, cluster):
    # settings (a shipped tuned one, a parameter set) are rebuilt from their labels on the workers
    m = make_matchup("companeros", 4, ["greedy-tuned", "random", "high:min_take=4"], seed=21)
    reference(tmp_path / "local", "companeros", "--players", 4, "--strategy", "greedy-tuned", "--strategy",
              "random", "--strategy", "high:min_take=4", "--seed", 21, "--games", 12000, "--chunk-size", 1000,
              "--workers", 2)
    report = run(m, 12000, tmp_path / "dask", chunk_size=1000, progress=False,
                 scheduler=cluster.scheduler_address)
    assert report.manifest["status"] == "complete"
    assert parts(tmp_path / "dask") == parts(tmp_path / "local")  # the same bytes, part by part
    pd.testing.assert_frame_equal(frame(tmp_path / "dask"), frame(tmp_path / "local"))
    assert verify(tmp_path / "dask").ok


@pytest.mark.slow
def test_a_design_run_on_the_cluster_is_the_local_one(tmp_path, cluster):
    """Every trial and confirmation of `tourney design` played on Dask: the same trials, front and
    report as on the local runner."""
    from tourney_sim import api
    small = dict(players=3, vary=["rule", "deal.hand"], trials=4, deals=200, skill_deals=50, designs=1,
                 confirm_deals=200, search_deals=4, strong_labels=20, strong_deals=200, seed=5)
    local = api.design("companeros", out=tmp_path / "local", workers=1, **small)
    dask = api.design("companeros", out=tmp_path / "dask", scheduler=cluster.scheduler_address, **small)
    assert [h["objectives"] for h in dask.manifest["history"]] == [h["objectives"] for h in local.manifest["history"]]
    assert dask.manifest["front"] == local.manifest["front"]
    assert ((tmp_path / "dask" / "report.md").read_text().replace(str(tmp_path / "dask"), "OUT")
            == (tmp_path / "local" / "report.md").read_text().replace(str(tmp_path / "local"), "OUT"))


@pytest.mark.slow
def test_resume_across_backends(tmp_path, cluster):
    """Half a run on the built-in runner, finished on the cluster: still the same dataset."""
    m = make_matchup("companeros", 5, ["random", "high"], seed=2, rotate=False)
    args = ("--players", 5, "--strategy", "random", "--strategy", "high", "--no-rotate", "--seed", 2,
            "--games", 4000, "--chunk-size", 500, "--workers", 1)
    reference(tmp_path / "ref", "companeros", *args)
    out = reference(tmp_path / "mixed", "companeros", *args)
    man = read_manifest(out)
    for p in man["parts"][3:]:
        (out / p["file"]).unlink()
    report = run(m, 4000, out, progress=False, resume=True, scheduler=cluster.scheduler_address)
    assert report.games_played == 2500
    assert parts(out) == parts(tmp_path / "ref")


@pytest.mark.slow
def test_worker_killed_mid_run_costs_only_its_unfinished_chunks(tmp_path, cluster, client):
    m = make_matchup("companeros", 4, ["greedy", "random"], seed=8)
    games, chunk = 480_000, 40_000  # chunks long enough (~0.3 s) to be caught while playing
    reference(tmp_path / "ref", "companeros", "--players", 4, "--strategy", "greedy", "--strategy", "random",
              "--seed", 8, "--games", games, "--chunk-size", chunk, "--workers", 2)
    out = tmp_path / "dask"
    before_pids = client.run(os.getpid)
    killed = {}

    def killer():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(list(out.glob("part-*.parquet"))) < 3:
            time.sleep(0.01)
        pids = client.run(os.getpid)
        while time.monotonic() < deadline:
            processing = client.processing()  # one snapshot: the tasks and the worker go together
            busy = [w for w, keys in processing.items() if keys and w in pids]
            if busy:
                killed["finished"] = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
                                      for p in out.glob("part-*.parquet")}
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed["tasks"] = list(processing[busy[0]])
                killed["pid"] = pids[busy[0]]
                return
            time.sleep(0.01)

    thread = threading.Thread(target=killer)
    thread.start()
    report = run(m, games, out, chunk_size=chunk, progress=False, scheduler=cluster.scheduler_address)
    thread.join()
    assert killed.get("pid") in before_pids.values(), "no worker was killed while playing"
    assert killed["tasks"], "the killed worker was playing a chunk"
    assert report.manifest["status"] == "complete"
    assert verify(out).ok
    assert parts(out) == parts(tmp_path / "ref")  # nothing lost, nothing twice, the same bytes
    for name, (inode, mtime) in killed["finished"].items():  # finished parts were not played again
        st = (out / name).stat()
        assert (st.st_ino, st.st_mtime_ns) == (inode, mtime), name
    # the nanny replaced the killed worker
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(client.run(os.getpid)) < 2:
        time.sleep(0.2)
    assert killed["pid"] not in client.run(os.getpid).values()


@pytest.mark.slow
def test_illegal_move_on_a_local_dask_cluster_names_strategy_seat_game(plugin_site, tmp_path):
    out = tmp_path / "x"
    r = tourney(plugin_site, "run", "companeros", "--games", 3000, "--chunk-size", 1000, "--strategy",
                "random", "--strategy", "cheater", "--out", out, "--scheduler", "local", "--workers", 2,
                "--quiet")
    assert r.returncode == 1, r.stderr
    assert "strategy 'cheater' returned move index" in r.stderr and "replay" in r.stderr
    assert "game 0, seat 1" in r.stderr and "Traceback" not in r.stderr
    man = read_manifest(out)
    assert man["status"] == "failed" and "cheater" in man["error"]
    assert not verify(out).ok


def test_plugin_missing_on_the_workers_is_refused_before_writing(plugin_site, tmp_path, cluster):
    out = tmp_path / "x"
    r = tourney(plugin_site, "run", "companeros", "--games", 100, "--strategy", "lowest-first",
                "--out", out, "--scheduler", cluster.scheduler_address, "--quiet")
    assert r.returncode == 2, r.stderr
    assert "error: the Dask workers cannot play this matchup: unknown strategy 'lowest-first'" in r.stderr
    assert "Traceback" not in r.stderr and not out.exists()


def test_scheduler_errors_are_one_line_and_write_nothing(tmp_path, monkeypatch):
    import socket

    import tourney_sim.simulate.backends as backends
    cli = CliRunner()
    out = tmp_path / "o"
    for bad in ["tcp://", "http://host:8786", "tcp://host:99999", "two words", ""]:
        r = cli.invoke(app, ["run", "companeros", "--games", "10", "--out", str(out), "--scheduler", bad])
        assert r.exit_code == 2, (bad, r.output)
        assert r.output.startswith("error: --scheduler") and len(r.output.strip().splitlines()) == 1
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", 2.0)
    r = cli.invoke(app, ["run", "companeros", "--games", "10", "--out", str(out),
                         "--scheduler", f"tcp://127.0.0.1:{port}"])
    assert r.exit_code == 2, r.output
    assert r.output.startswith(f"error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}")
    assert not out.exists()
