"""Partners, in one folder.

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
    DECISIONS_PER_DEAL, make_params, MAX_DEALS, MAX_MOVES, NAME, OVERSHOOT_CHOICES, RULES_VERSION,
    STATE_SIZE,
)


SPEC = GameSpec(
    name=NAME,
    title="Partners",
    min_players=4,
    max_players=4,
    rules_version=RULES_VERSION,
    team_game=True,
    options=(
        RuleOption("house_overshoot", "choice", "illegal",
                   "PA-3: a move past the last free house space is illegal, or bounces back",
                   choices=OVERSHOOT_CHOICES),
    ),
    columns=(
        ("deals", "deals dealt in the game"),
        ("pieces_home", "pieces of the seat's colour in its house at the end"),
        ("knockouts_given", "pieces of other colours the seat's cards knocked out"),
        ("knockouts_suffered", "pieces of the seat's colour knocked out"),
        ("swaps", "Swap cards the seat played"),
        ("truncated", "1 if the game hit the deal cap (PA-7) and counts as a draw"),
        ("leader_at_two_thirds", "team ahead on progress (pieces home, then distance) after deal "
                                 "ceil(2/3 of the deals) (its first seat, 0 or 1; -1 if level)"),
    ),
    state_size=STATE_SIZE,
    max_moves=MAX_MOVES,
    max_decisions=DECISIONS_PER_DEAL * MAX_DEALS,
    module_name=rules.__name__,
    make_params=make_params,
    search_scale=0.5,
    label_scale=40,  # tourney train: 40-iteration decisions told apart need ~400 paired play-outs a move
    components=rules.COMPONENTS,
)
