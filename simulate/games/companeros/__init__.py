"""Compañeros, in one folder.

- ``rules.py``: the compiled rules: the state layout (drawn in its docstring), the kernel functions
  (init, to_move, legal_moves, apply_move, result, the views, determinize) and the rule parameters.
- ``notation.py``: the game in words and JSON (moves, positions).
- ``reference.py``: the slow, readable reference engine the kernel is tested against.

This module assembles the :class:`~tourney_sim.simulate.games.spec.GameSpec` the engine reads.
"""
from __future__ import annotations

from ..spec import GameSpec, RuleOption
from . import rules
from .rules import (
    make_params, MAX_DECISIONS_PER_GAME, MAX_MATCH_GAMES, MAX_MOVES, MAX_PLAYERS, MIN_PLAYERS, NAME,
    RULES_VERSION, STATE_SIZE,
)


SPEC = GameSpec(
    name=NAME,
    title="Compañeros",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version=RULES_VERSION,
    team_game=False,
    options=(
        RuleOption("match_games", "int", 1,
                   "games per match (CO-5): points accumulate, the leader starts the next game",
                   low=1, high=MAX_MATCH_GAMES),
    ),
    columns=(
        ("cards_taken", "display cards taken over the match"),
        ("rounds_first_taker", "rounds in which the seat took first (and so started the next)"),
        ("leader_at_two_thirds", "seat alone in the lead after two thirds of the rounds, -1 if shared"),
    ),
    state_size=STATE_SIZE,
    max_moves=MAX_MOVES,
    max_decisions=MAX_DECISIONS_PER_GAME * MAX_MATCH_GAMES,
    module_name=rules.__name__,
    make_params=make_params,
    default_players=4,
    study_values={"match_games": (2,)},  # CO-5: a match of two, the leader starting the second
    components=rules.COMPONENTS,
)
