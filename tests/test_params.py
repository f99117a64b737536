"""Strategy parameters (issue 11): declarations, settings and their notation, one compiled function
for every setting, and default settings that play exactly the games played before parameters."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numba import njit

import tourney_sim as tourney
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.strategies import Param, ParamError, Strategy, StrategyError, available, register, resolve

from .test_cli import invoke

BASELINE = Path(__file__).parent / "data" / "pre-params"


@pytest.mark.parametrize("path", sorted(BASELINE.glob("*.parquet")), ids=lambda p: p.stem)
def test_default_parameters_play_the_games_played_before_parameters(path, tmp_path):
    """tests/data/pre-params/GAME-Np.parquet: rows of a seeded run of every built-in heuristic,
    made before strategies took parameters (seed 20261201, the seats as recorded, rotating)."""
    before = pd.read_parquet(path)
    game, players = path.stem.rsplit("-", 1)
    players = int(players[:-1])
    games = int(before["game"].max()) + 1
    seats = list(before[before.game < players].sort_values(["game", "seat"]).strategy[:players])
    # the seats before rotation: game 0 has no shift
    seats = list(before[before.game == 0].sort_values("seat").strategy[:players])
    r = tourney.run(game, seats, players=players, games=games, seed=20261201, out=tmp_path / "d", workers=1)
    now = tourney.load(r.path)[before.columns]
    now["strategy"] = now["strategy"].astype(str)
    pd.testing.assert_frame_equal(now.reset_index(drop=True), before, check_dtype=False)
