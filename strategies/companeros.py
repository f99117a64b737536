"""Built-in Compañeros strategies.

Every heuristic takes the richest colour when its turn to take comes (by default it never
passes); they differ in which card they play. Observation layout:
``tourney_sim.simulate.games.companeros.rules`` (``public`` holds the public state part at the same
offsets; ``private`` is ``[hand size, hand cards ascending, -1...]``).

Parameters (``NAME:key=value``; the defaults play as the heuristics always did): every heuristic
takes ``min_take`` (when nobody has taken yet this round, so that taking makes it start the next
round, it passes unless the richest colour is worth at least this; 0 = always take); ``follower``
adds ``otherwise`` (the card it plays when it leads or holds no card of the leading colour:
``highest`` or ``lowest``); ``greedy`` adds ``max_card`` (the highest card value it spends to
become a taker, 10 = any) and ``max_position`` (the latest place in the taking order worth a card,
5 = any).
"""
import numpy as np
from numba import njit

from tourney_sim.simulate import search
from tourney_sim.simulate.policy import guided_choice
from tourney_sim.simulate.games.companeros import features
from tourney_sim.simulate.games.companeros import rules as co
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE

from . import Param, Strategy
from .common import apprentice, guide_of, random_move, rollout_policies, search_for_table

# The defaults of the parameters (see the *_PARAMS declarations below); the compiled code reads
# the values from its ``params`` array only.
MIN_TAKE = 0  # every colour present is worth at least 1: always take
MAX_CARD = co.VALUES  # greedy spends any card to become a taker
MAX_POSITION = co.MAX_PLAYERS - 1  # ... for any place in the taking order


@njit(cache=True, inline="always")
def take_or_pass(public, moves, n_moves, min_take):
    """Index of the take move of the colour with the largest display sum (first on ties); or of
    the pass (the last move) when nobody has taken this round yet, so that taking would make me
    start the next round, and that colour is worth less than ``min_take``."""
    best, best_sum = 0, -1
    for i in range(n_moves):
        m = moves[i]
        if m != co.MOVE_PASS:
            s = public[co.DISPLAY_SUM + m - co.MOVE_TAKE]
            if s > best_sum:
                best, best_sum = i, s
    # without a branch on whether someone took already (it is hard to predict)
    passing = (public[co.H_FIRST_TAKER] < 0) & (best_sum < min_take)
    return n_moves - 1 if passing else best  # MOVE_PASS is the last legal move


@njit(cache=True, inline="always")
def highest_card(moves, n_moves, colour):
    """Index of the highest-value card among the moves (of ``colour`` if >= 0), or -1."""
    best, best_value = -1, 0
    for i in range(n_moves):
        c = moves[i]
        if colour >= 0 and c // co.VALUES != colour:
            continue
        v = c % co.VALUES + 1
        if v > best_value:
            best, best_value = i, v
    return best


@njit(cache=True, inline="always")
def extreme_card(moves, n_moves, flip):
    """Index of the highest-value card among the moves (the first of its value); of the
    lowest-value one if ``flip`` is :data:`FLIP_LOWEST`."""
    best, best_key = 0, 0
    for i in range(n_moves):
        key = (moves[i] % co.VALUES + 1) ^ flip  # branch-free
        if key > best_key:
            best, best_key = i, key
    return best


# ----------------------------------------------------------------------------- the parameters
def _min_take():
    return Param.int("min_take", MIN_TAKE, 0, 30,
                     "when taking would make it start the next round (nobody took yet), pass "
                     "unless the richest colour is worth at least this (0: always take)")


HIGH_PARAMS = (_min_take(),)
H_MIN_TAKE = 0

FOLLOWER_PARAMS = (
    _min_take(),
    Param.choice("otherwise", "highest", ("highest", "lowest"),
                 "the card it plays when it leads or holds no card of the leading colour"),
)
F_MIN_TAKE, F_OTHERWISE = 0, 1
#: ``otherwise`` arrives as 0 (highest) or 1 (lowest); times this it is the key flip of
#: :func:`extreme_card`: value ^ 15 == 15 - value for the values 1..10, reversing their order
FLIP_LOWEST = 15

GREEDY_PARAMS = (
    _min_take(),
    Param.int("max_card", MAX_CARD, 1, co.VALUES,
              "the highest card value it spends to become a taker (10: any); else dumps its lowest"),
    Param.int("max_position", MAX_POSITION, 0, co.MAX_PLAYERS - 1,
              "the latest place in the taking order (0 = first) worth a card; else dumps its lowest"),
)
G_MIN_TAKE, G_MAX_CARD, G_MAX_POSITION = 0, 1, 2


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def play_high(public, private, moves, n_moves, rng, params):
    # the heuristics compile with _nrt=False: they own no array, so numba emits no reference
    # counting for the arrays their inlined helpers are handed (with the runtime, every call paid
    # NRT_incref/NRT_decref calls, -20%, unless the parameters were read before any branch)
    min_take = np.int64(params[H_MIN_TAKE])
    if public[co.H_PHASE] == co.PHASE_TAKE:
        return take_or_pass(public, moves, n_moves, min_take)
    return highest_card(moves, n_moves, -1)


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def follower(public, private, moves, n_moves, rng, params):
    min_take = np.int64(params[F_MIN_TAKE])
    flip = FLIP_LOWEST * np.int64(params[F_OTHERWISE])
    if public[co.H_PHASE] == co.PHASE_TAKE:
        return take_or_pass(public, moves, n_moves, min_take)
    lead_colour, lead_value = -1, 0
    for colour in range(public[co.H_COLOURS]):
        v = public[co.PLAYED_SUM + colour]
        if v > lead_value:
            lead_colour, lead_value = colour, v
    if lead_colour >= 0:
        i = highest_card(moves, n_moves, lead_colour)
        if i >= 0:
            return i
    return extreme_card(moves, n_moves, flip)


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def greedy(public, private, moves, n_moves, rng, params):
    min_take = np.int64(params[G_MIN_TAKE])
    max_card = np.int64(params[G_MAX_CARD])
    max_position = np.int64(params[G_MAX_POSITION])
    if public[co.H_PHASE] == co.PHASE_TAKE:
        return take_or_pass(public, moves, n_moves, min_take)
    # I am the next seat after the starter that has not played yet
    me = (public[co.H_STARTER] + public[co.H_N_PLAYED]) % public[co.H_PLAYERS]
    best, best_pos, best_value = -1, 99, 99
    lowest, lowest_value = 0, 99
    for i in range(n_moves):
        c = moves[i]
        v = c % co.VALUES + 1
        if v < lowest_value:
            lowest, lowest_value = i, v
        pos = co.taker_position(public, me, c)
        if (pos >= 0 and v <= max_card and pos <= max_position
                and (pos < best_pos or (pos == best_pos and v < best_value))):
            best, best_pos, best_value = i, pos, v
    if best >= 0:
        return best
    return lowest


# the heuristics, each also a rollout policy of the search (declared here once)
HEURISTICS = [
    Strategy("companeros", "high", "plays its highest card to take first; takes the richest colour",
             play_high, params=HIGH_PARAMS),
    Strategy("companeros", "follower",
             "joins the colour leading this round with its highest card of it; takes the richest colour",
             follower, params=FOLLOWER_PARAMS),
    Strategy("companeros", "greedy",
             "plays the cheapest card that makes it a taker now, else dumps its lowest; takes the richest colour",
             greedy, params=GREEDY_PARAMS),
]
# random, the heuristics at their defaults, then their shipped tuned settings (NAME-tuned)
# the apprentice (issue 41): its features and the choice of its guide, the strong heuristic
GUIDE = guide_of(HEURISTICS, "greedy")
GUIDE_ROW = GUIDE.param_row()


@njit(STRATEGY_SIGNATURE, cache=True)
def apprentice_move(public, private, moves, n_moves, rng, params):
    return guided_choice(features.move_features, features.N_FEATURES, greedy, GUIDE_ROW,
                         public, private, moves, n_moves, rng, params)


APPRENTICE = apprentice("companeros", apprentice_move, GUIDE)  # also a play-out policy of the search
ROLLOUT_POLICIES, ROLLOUT_ROWS, rollout = rollout_policies(HEURISTICS, APPRENTICE)
# 150 iterations: a 2,000-deal tournament against greedy at 6 players (--seatings field) fits in
# 15 minutes on 2 cores; halving measured no stronger than paired here (docs/search.md)
ISMCTS_PARAMS = search.search_params(ROLLOUT_POLICIES, iterations=150, rollout="greedy", score_scale=20.0,
                                     root="paired")


@njit(cache=True)  # compiled with STRATEGY_SIGNATURE when first resolved: kernel.ready
def ismcts(public, private, moves, n_moves, rng, params):
    return search.ismcts(co, rollout, ROLLOUT_ROWS, search.no_evaluation, search.no_stages, False,
                         public, private, moves, n_moves, rng, params, search.NO_VALUES)


@njit(cache=True)  # what the search found: tourney train's value labels
def ismcts_values(public, private, moves, n_moves, rng, params, values):
    return search.ismcts(co, rollout, ROLLOUT_ROWS, search.no_evaluation, search.no_stages, False,
                         public, private, moves, n_moves, rng, params, values)


STRATEGIES = [
    Strategy("companeros", "random", "uniformly random legal move (passes sometimes)", random_move),
    *HEURISTICS,
    Strategy("companeros", "ismcts",
             "information-set Monte Carlo tree search over sampled deals of the unseen cards "
             "(experimental: see docs/search.md); budget in iterations", ismcts, params=ISMCTS_PARAMS,
             for_table=search_for_table),
    APPRENTICE,
]
