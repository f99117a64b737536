"""Built-in Compañeros strategies.

Every heuristic takes the richest colour when its turn to take comes (never passes); they differ
in which card they play. Observation layout: ``tourney_sim.simulate.games.companeros`` (``public`` holds the
public state part at the same offsets; ``private`` is ``[hand size, hand cards ascending, -1...]``).
"""
from numba import njit

from tourney_sim.simulate.games import companeros as co
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE

from . import Strategy
from .common import random_move


@njit(cache=True, inline="always")
def take_richest(public, moves, n_moves):
    """Index of the take move of the colour with the largest display sum (first on ties)."""
    best, best_sum = 0, -1
    for i in range(n_moves):
        m = moves[i]
        if m != co.MOVE_PASS:
            s = public[co.DISPLAY_SUM + m - co.MOVE_TAKE]
            if s > best_sum:
                best, best_sum = i, s
    return best


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


@njit(STRATEGY_SIGNATURE, cache=True)
def play_high(public, private, moves, n_moves, rng, params):
    if public[co.H_PHASE] == co.PHASE_TAKE:
        return take_richest(public, moves, n_moves)
    return highest_card(moves, n_moves, -1)


@njit(STRATEGY_SIGNATURE, cache=True)
def follower(public, private, moves, n_moves, rng, params):
    if public[co.H_PHASE] == co.PHASE_TAKE:
        return take_richest(public, moves, n_moves)
    n = public[co.H_PLAYERS]
    lead_colour, lead_value = -1, 0
    for colour in range(n):
        v = public[co.PLAYED_SUM + colour]
        if v > lead_value:
            lead_colour, lead_value = colour, v
    if lead_colour >= 0:
        i = highest_card(moves, n_moves, lead_colour)
        if i >= 0:
            return i
    return highest_card(moves, n_moves, -1)


@njit(STRATEGY_SIGNATURE, cache=True)
def greedy(public, private, moves, n_moves, rng, params):
    if public[co.H_PHASE] == co.PHASE_TAKE:
        return take_richest(public, moves, n_moves)
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
        if pos >= 0 and (pos < best_pos or (pos == best_pos and v < best_value)):
            best, best_pos, best_value = i, pos, v
    if best >= 0:
        return best
    return lowest


STRATEGIES = [
    Strategy("companeros", "random", "uniformly random legal move (passes sometimes)", random_move),
    Strategy("companeros", "high", "plays its highest card to take first; takes the richest colour",
             play_high),
    Strategy("companeros", "follower",
             "joins the colour leading this round with its highest card of it; takes the richest colour",
             follower),
    Strategy("companeros", "greedy",
             "plays the cheapest card that makes it a taker now, else dumps its lowest; takes the richest colour",
             greedy),
]
