"""A third-party package registers strategies through the `tourney.strategies` entry point."""
import ast
import importlib
import sys
from pathlib import Path

import pyarrow.parquet as pq

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.stepper import KernelGame

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



def test_plugin_reading_the_views_plays_in_a_run(plugin_site, tmp_path):
    """``richest`` (which reads the state through ``tourney_sim.views``) plays through the entry
    point at compiled speed, and reads well enough to beat random play clearly."""
    out = tmp_path / "run"
    r = tourney(plugin_site, "run", "companeros", "--players", 4, "--games", 2000, "--seed", 3, "--strategy", "richest",
                "--strategy", "random", "--out", out, "--workers", 2, "--quiet")
    assert r.returncode == 0, r.stderr
    table = pq.read_table(out, columns=["strategy", "win"]).to_pandas()
    wins = table.groupby("strategy", observed=True)["win"].mean()
    assert table["strategy"].value_counts().to_dict() == {"richest": 4000, "random": 4000}
    assert wins["richest"] > wins["random"] + 0.1, wins


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


DEMO = Path(__file__).parent / "plugin_demo"


def test_plugin_reads_the_state_only_through_the_published_views():
    """The demo's source imports numba, numpy, ``tourney_sim`` and ``tourney_sim.views`` only, and
    reaches no internal module (``tourney_sim.simulate``, ``.strategies``, ...) by attribute or by
    name either."""
    internal = {"simulate", "strategies", "reports", "cli", "api", "command"}
    sources = sorted(DEMO.rglob("*.py"))
    assert sources
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text())):
            where = (path.name, getattr(node, "lineno", None))
            if isinstance(node, ast.Import):
                modules, names = [a.name for a in node.names], []
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules, names = [node.module], [a.name for a in node.names]
            else:
                modules, names = [], []
            for module in modules:
                root = module.split(".")[0]
                assert root in {"numba", "numpy"} or module.split(".")[:2] in (
                    ["tourney_sim"], ["tourney_sim", "views"]), (where, module)
            assert not internal & set(names), (where, names)
            if isinstance(node, ast.Attribute):
                assert node.attr not in internal, (where, node.attr)
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not any(f"tourney_sim.{m}" in node.value for m in internal), (where, node.value)


def test_plugin_reads_the_views_right():
    """``richest`` reads the display's worth from the public view and its hand from the private
    view through ``tourney_sim.views.companeros``: at every decision of whole games it takes the
    colour worth most and plays its card of highest value, as the game's notation spells them."""
    sys.path.insert(0, str(DEMO))
    try:
        demo = importlib.import_module("tourney_plugin_demo")
    finally:
        sys.path.remove(str(DEMO))
    spec = get_game("companeros")
    takes = plays = 0
    for n_players in (3, 6):
        params = spec.make_params(n_players, spec.resolve_options([]))
        for game in range(5):
            k = KernelGame(spec, params, 11, game)
            while k.to_move() >= 0:
                spelled = [spec.move_to_json(k.state, m) for m in k.legal_moves()]
                move = k.choose(demo.richest)
                chosen = spec.move_to_json(k.state, move)
                if spelled[0]["action"] == "take":
                    takes += 1
                    best = max((m for m in spelled if m["action"] == "take"), key=lambda m: m["points"])
                else:
                    plays += 1
                    best = max(spelled, key=lambda m: m["card"]["value"])
                assert chosen == best, (n_players, game, spelled, chosen)
                k.apply(move)
    assert takes > 50 and plays > 200, (takes, plays)
