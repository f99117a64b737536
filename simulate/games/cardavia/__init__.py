"""Cardavia, in one folder.

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
    make_params, MAX_DECISIONS, MAX_MATCH_DEALS, MAX_MOVES, NAME, PLAYERS, RULES_VERSION, STATE_SIZE,
)


#: every column is summed over the deals of a match (CA-6)


COLUMNS = (
    ("cards_taken", "cards in the team's pile at the end (partners share the values)"),
    ("swords", "swords in the team's pile at the end"),
    ("scua", "Scua bonuses (sweeps) of the team (CA-4)"),
    ("picada", "Picada bonuses of the team (CA-4)"),
    ("simili", "Simili bonuses of the team (CA-4)"),
    ("quadriglia", "Quadriglia bonuses of the team (CA-4)"),
    ("most_cards", "points for most cards: 2 or 0 (a tie gives 0 to both; components prizes.most_cards)"),
    ("most_swords", "points for most swords: 1 or 0 (a tie gives 0 to both; prizes.most_swords)"),
    ("mata", "points for the 2 of swords (La Mata): 1 or 0 (prizes.mata)"),
    ("ten_of_coins", "points for the 10 of coins: 1 or 0 (prizes.ten_of_coins)"),
    ("fante_of_cups", "points for the Fante of cups: 1 or 0 (prizes.fante_of_cups)"),
    ("napula", "Napula points: the length of the team's sword run from the Asso, 0 without Asso-2-3 "
     "(napula.per_card per card, from napula.run cards)"),
    ("leader_at_two_thirds", "team ahead on match points after two thirds of the turns (32 of 48; 32K of "
     "48K in a match of K deals), finished deals' totals plus the bonuses so far (its first seat, 0 or 1; "
     "-1 if level)"),
)


SPEC = GameSpec(
    name=NAME,
    title="Cardavia",
    min_players=PLAYERS,
    max_players=PLAYERS,
    rules_version=RULES_VERSION,
    team_game=True,
    options=(
        RuleOption("single_match_forced", "bool", False,
                   "CA-5: a card that can take a single card of its rank may not take a sum instead "
                   "(real Cicera); default: either"),
        RuleOption("last_sweep_scores", "bool", True,
                   "CA-5: a sweep on the last play of the deal scores Scua (rulebook); false: it "
                   "does not (real Cicera)"),
        RuleOption("napula_beyond_10", "bool", False,
                   "CA-5: Fante, Cavallo and Re extend the Napula run (real Cicera); default: the "
                   "run stops at the 10"),
        RuleOption("match_deals", "int", 1,
                   "CA-6: a match of K deals, the deal passing one seat each time (deal k started "
                   "by seat k mod 4), totals added; default 1: one deal is the game",
                   low=1, high=MAX_MATCH_DEALS),
    ),
    columns=COLUMNS,
    state_size=STATE_SIZE,
    max_moves=MAX_MOVES,
    max_decisions=MAX_DECISIONS,
    module_name=rules.__name__,
    make_params=make_params,
    study_values={"match_deals": (4,)},  # CA-6: a match of four deals, each seat dealing once
    points=("scua", "picada", "simili", "quadriglia", "most_cards", "most_swords", "mata", "ten_of_coins",
            "fante_of_cups", "napula"),
    points_title="bonuses and prizes as a share of points",
    components=rules.COMPONENTS,
)
