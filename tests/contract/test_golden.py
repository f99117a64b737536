"""Golden games (OpenSpiel's "playthroughs"): complete traces of a few games of every game and
every rule option value, stored in ``tests/golden/`` and written by ``scripts/golden.py``, found
here by their files (each names its game, seating, options, seed and game index).

The kernel must still play each of them byte for byte, and the reference engine (``tourney
check``) must accept it. A deliberate change of rules or of a built-in strategy's play rewrites
them (``python scripts/golden.py --update``) in the same commit as the rules version bump.
"""
from __future__ import annotations

import pytest

from tourney_sim.simulate.check import check_trace, load_trace
from tourney_sim.simulate.games import game_names, get_game

from ..support.recorded import golden_replayed
from .configurations import changed_values
from ..goldens import first_with_legal_moves, golden_files, read

GOLDEN_FILES = golden_files()


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=[p.stem for p in GOLDEN_FILES])
def test_kernel_still_plays_the_golden_game_byte_for_byte(path):
    stored = path.read_text()
    assert golden_replayed(read(path)) == stored, (
        f"{path.name} is no longer the golden game; if the change is deliberate, "
        f"run scripts/golden.py --update in the commit that bumps the rules version")


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=[p.stem for p in GOLDEN_FILES])
def test_reference_engine_accepts_the_golden_game(path):
    trace = load_trace(path)
    report = check_trace(trace)
    assert report.ok, report.message
    assert report.decisions == sum("seat" in e for e in trace["history"])
    assert report.chance_events == sum("chance" in e for e in trace["history"]) > 0


@pytest.mark.parametrize("game", game_names())
def test_every_game_and_option_value_has_golden_games(game):
    """Golden games of the game, one of them listing the legal moves, and one for every value of
    every rule option other than its default."""
    traces = [read(path) for path in GOLDEN_FILES]
    played = [t["options"] for t in traces if t["game"] == game]
    assert played, f"no golden game of {game}: add a case to scripts/golden.py"
    assert game in first_with_legal_moves(), game
    for option in get_game(game).options:
        for value in changed_values(option):
            assert any(options[option.name] == value for options in played), (game, option.name, value)
