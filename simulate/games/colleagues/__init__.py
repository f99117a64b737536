"""Colleagues, in one folder.

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
    COMPONENTS, make_params, MAX_DECISIONS, MAX_MOVES, MAX_PLAYERS, MIN_PLAYERS, NAME, RULES_VERSION, STATE_SIZE,
)


SPEC = GameSpec(
    name=NAME,
    title="Colleagues",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version=RULES_VERSION,
    team_game=False,
    options=(
        RuleOption("grey_dismissal", "choice", "exclude",
                   "2 players (CL-11): exclude = the Grey Entity is left out of the dismissal "
                   "comparison; shield = nobody is dismissed when it holds the highest Reprimand total",
                   choices=("exclude", "shield")),
    ),
    columns=(
        ("work_total", "sum of the Work card values taken"),
        ("overtime_total", "sum of the Overtime card values taken"),
        ("reprimand_total", "sum of the Reprimand card values taken"),
        ("tokens_left", "Coffee tokens held at the end (1 point off each)"),
        ("dismissed", "1 if dismissed (highest Reprimand total, CL-5/CL-11)"),
        ("work_cards", "number of Work cards taken"),
        ("reprimand_cards", "number of Reprimand cards taken"),
        ("overtime_cards", "number of Overtime cards taken"),
        ("leader_at_two_thirds", "seat alone in first place (dismissal, then score) after week 2 "
                                 "of 3, the Grey Entity included; -1 if shared"),
    ),
    state_size=STATE_SIZE,
    max_moves=MAX_MOVES,
    max_decisions=MAX_DECISIONS,
    module_name=rules.__name__,
    make_params=make_params,
    extra_seats=lambda n: ("grey-entity",) if n == 2 else (),
    better="low",
    default_players=4,
    study_players={"grey_dismissal": (2,)},  # CL-11: the Grey Entity sits only at 2 players
    search_scale=0.4,
    label_scale=16,  # tourney train: a decision of ~20 moves needs ~80 play-outs a move to be told apart
    components=COMPONENTS,  # CL-1: card values and icons, the token mix (the `components` rule option)
)
