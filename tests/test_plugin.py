"""A third-party package registers strategies through the `tourney.strategies` entry point."""
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(site), str(HERE / "plugin_demo")], check=True)
    return site


def tourney(site, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(HERE.parent)]))
    return subprocess.run([sys.executable, "-m", "simulate", *map(str, args)], capture_output=True,
                          text=True, env=env)


def test_plugin_is_listed_and_runs_compiled(plugin_site, tmp_path):
    r = tourney(plugin_site, "strategies", "companeros")
    assert r.returncode == 0, r.stderr
    assert "lowest-first" in r.stdout and "plug-in tourney_plugin_demo:STRATEGIES" in r.stdout
    out = tmp_path / "run"
    r = tourney(plugin_site, "run", "companeros", "--games", 4000, "--strategy", "lowest-first",
                "--strategy", "random", "--out", out, "--workers", 2, "--quiet")
    assert r.returncode == 0, r.stderr
    table = pq.read_table(out, columns=["strategy"]).to_pandas()
    assert table["strategy"].value_counts().to_dict() == {"lowest-first": 8000, "random": 8000}


def test_illegal_move_stops_the_run_naming_strategy_seat_game(plugin_site, tmp_path):
    r = tourney(plugin_site, "run", "companeros", "--games", 100, "--strategy", "cheater",
                "--out", tmp_path / "x", "--workers", 1, "--quiet")
    assert r.returncode == 1
    assert "strategy 'cheater' returned move index" in r.stderr
    assert "game 0, seat 0" in r.stderr and "Traceback" not in r.stderr
