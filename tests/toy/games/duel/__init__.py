"""Duel, a toy two-player card game that lives outside the package (found through
``TOURNEY_GAME_PATH``): proof that a game is its folder and its strategies file alone."""
from __future__ import annotations

from ..spec import GameSpec
from . import rules
from .rules import MAX_DECISIONS, MAX_MOVES, MAX_PLAYERS, MIN_PLAYERS, NAME, RULES_VERSION, STATE_SIZE

SPEC = GameSpec(
    name=NAME,
    title="Duel",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version=RULES_VERSION,
    team_game=False,
    options=(),
    columns=(("tricks", "tricks won"),),
    state_size=STATE_SIZE,
    max_moves=MAX_MOVES,
    max_decisions=MAX_DECISIONS,
    module_name=rules.__name__,
    make_params=rules.make_params,
)
