"""A third-party package registers strategies through the `tourney.strategies` entry point."""
import pyarrow.parquet as pq

from .plugin_site import tourney


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


def test_plugin_declares_parameters_the_same_way(plugin_site, tmp_path):
    r = tourney(plugin_site, "strategies", "companeros", "--params")
    assert r.returncode == 0, r.stderr
    assert "lowest=0.5 (a number from 0 to 1): chance of playing the lowest move" in r.stdout
    out = tmp_path / "run"
    r = tourney(plugin_site, "run", "companeros", "--games", 300, "--strategy", "sometimes-lowest:lowest=1",
                "--strategy", "sometimes-lowest", "--out", out, "--workers", 2, "--quiet")
    assert r.returncode == 0, r.stderr
    table = pq.read_table(out, columns=["strategy"]).to_pandas()
    assert table["strategy"].value_counts().to_dict() == {"sometimes-lowest:lowest=1": 600, "sometimes-lowest": 600}
    r = tourney(plugin_site, "run", "companeros", "--strategy", "sometimes-lowest:lowest=2", "--out", tmp_path / "x")
    assert r.returncode == 2 and r.stderr.strip() == ("error: strategy sometimes-lowest: parameter lowest expects "
                                                       "a number from 0 to 1, got '2'")
