"""A game is one folder: Duel (``tests/toy/``: its game folder, its strategies file and, for the
contract, its test support ``support/duel.py``, nothing else) is found through ``TOURNEY_GAME_PATH``, passes the contract of ``tests/contract/`` and runs
through ``tourney games``, ``run``, ``replay``, ``check``, ``tournament`` and a quick ``study``.

Everything runs in subprocesses with the variable set, since the registry reads it once, on import.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
SHIPPED = ["cardavia", "colleagues", "companeros", "partners"]


def toy_env(**extra) -> dict:
    env = dict(os.environ, TOURNEY_GAME_PATH=str(TOY), **extra)
    return env


def tourney(*args, cwd=None, check=True) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "tourney_sim", *map(str, args)], env=toy_env(), cwd=cwd,
                       capture_output=True, text=True, timeout=900)
    if check:
        assert r.returncode == 0, (args, r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    return r


def test_without_the_variable_the_registry_sees_the_shipped_games_only():
    env = {k: v for k, v in os.environ.items() if k != "TOURNEY_GAME_PATH"}
    code = ("from tourney_sim.simulate.games import game_names; from tourney_sim.strategies import "
            "BUILTIN_MODULES; print(game_names(), sorted(BUILTIN_MODULES))")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"{SHIPPED} {SHIPPED}"


def test_a_game_folder_that_fails_to_load_is_one_error_line_and_nothing_written(tmp_path):
    broken = tmp_path / "games" / "broken"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise RuntimeError('half written')\n")
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "tourney_sim", "run", "broken", "--games", "10", "--out", str(out)],
                       env=dict(os.environ, TOURNEY_GAME_PATH=str(tmp_path)), capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.strip().splitlines() == [
        f"error: game 'broken' in {broken.resolve()} (TOURNEY_GAME_PATH) failed to load: RuntimeError: half written"]
    assert not out.exists()


def test_with_the_variable_the_registry_finds_the_toy_game_and_its_strategies():
    code = ("from tourney_sim.simulate.games import GAME_MODULES; from tourney_sim.strategies import "
            "BUILTIN_MODULES; print(GAME_MODULES['duel'], BUILTIN_MODULES['duel'])")
    r = subprocess.run([sys.executable, "-c", code], env=toy_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["tourney_sim.simulate.games.duel", "tourney_sim.strategies.duel"]
    listed = tourney("games").stdout
    assert "duel         Duel: 2 players" in listed
    assert all(game in listed for game in SHIPPED)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("toy") / "run"
    tourney("run", "duel", "--games", 200, "--seed", 5, "--workers", 1, "--quiet", "--out", out)
    return out


@pytest.mark.slow
def test_run_writes_a_dataset_whose_games_replay_and_check(run_dir, tmp_path):
    assert list(run_dir.glob("part-*.parquet"))
    manifest = json.loads((run_dir / "_manifest.json").read_text())
    assert manifest["game"] == "duel" and manifest["status"] == "complete", manifest
    trace = tourney("replay", run_dir, "--game", 3, "--format", "json").stdout
    path = tmp_path / "g.json"
    path.write_text(trace)
    assert json.loads(trace)["game"] == "duel"
    checked = tourney("check", path)
    assert "the trace follows the duel rules v1: 6 decisions, 1 chance events" in checked.stdout, checked.stdout


@pytest.mark.slow
def test_tournament_of_every_strategy(tmp_path):
    r = tourney("tournament", "duel", "--strategy", "random", "--strategy", "cheapest_win", "--strategy", "ismcts",
                "--games", 100, "--workers", 1, "--out", tmp_path / "t")
    assert "600 games (6 seatings x 100 deals)" in r.stdout, r.stdout
    for name in ("random", "cheapest_win", "ismcts"):
        assert f"\n  {name} " in r.stdout, r.stdout


@pytest.mark.slow
def test_quick_study_ends_with_its_report(tmp_path):
    out = tmp_path / "study"
    r = tourney("study", "duel", "--budget", "quick", "--workers", 1, "--quiet", "--out", out)
    assert "Duel:" in r.stdout and "findings" in r.stdout, r.stdout
    assert (out / "report.md").is_file() and (out / "report.html").is_file() and (out / "findings.json").is_file()
    # every stage records what each seat was dealt (the study's component effects read it)
    manifests = [json.loads(m.read_text()) for m in out.glob("**/_manifest.json")]
    assert manifests and all(m["dealt_kinds"] == [str(v) for v in range(1, 10)] for m in manifests)


def test_the_toy_folder_checks_itself_with_the_library():
    """The toy folder carries its own contract test (tests/toy/test_duel_contract.py: the library's
    ``tourney_sim.testing.check_game("duel")`` with the variable set), and it passes."""
    r = subprocess.run([sys.executable, "-m", "pytest", str(TOY / "test_duel_contract.py"), "-n", "0", "-p",
                        "no:cacheprovider", "-rA", "--rootdir", str(TOY)],
                       env=dict(os.environ), cwd=TOY, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "PASSED test_duel_contract.py::test_duel_passes_check_game_from_its_own_folder" in r.stdout, r.stdout[-4000:]


@pytest.mark.slow
def test_the_contract_covers_the_toy_game_and_it_passes():
    """The contract suite run with the variable set: every check of duel's configurations passes,
    its golden games (tests/toy/golden/, found beside the game's folder) among them."""
    r = subprocess.run([sys.executable, "-m", "pytest", "tests/contract", "-k", "duel", "-n", "0", "-p",
                        "no:cacheprovider", "-rA"],
                       env=toy_env(), cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    passed = [line for line in r.stdout.splitlines() if line.startswith("PASSED") and "[duel" in line]
    assert len(passed) >= 4, r.stdout[-4000:]
