"""Duel's test support (found by the contract beside tests/toy/games/): its state invariant."""
import numpy as np
from numba import njit

from tourney_sim.simulate.games.duel import rules as du


@njit
def invariant(state):
    """0, or an error code: each card 1..9 in at most one hand or played, hands ascending and
    of the size the tricks so far leave, the scores the points of the tricks won."""
    seen = np.int64(state[du.H_PLAYED_MASK])
    if seen & 1:
        return 1  # no card 0
    trick = state[du.H_TRICK]
    for p in range(du.MAX_PLAYERS):
        base = du.PRIVATE + p * du.PRIVATE_SIZE
        size = state[base + du.PV_SIZE]
        led = state[du.H_LED] != 0 and state[du.H_LEADER] == p
        if size != du.HAND_SIZE - trick - led:
            return 2
        for i in range(du.HAND_SIZE):
            c = state[base + du.PV_HAND + i]
            if i >= size:
                if c != -1:
                    return 3
                continue
            if not 1 <= c <= du.CARDS or (i > 0 and c <= state[base + du.PV_HAND + i - 1]):
                return 4
            if (seen >> c) & 1:
                return 5  # a card in two places
            seen |= np.int64(1) << c
    played = 0
    for c in range(1, du.CARDS + 1):
        played += (state[du.H_PLAYED_MASK] >> c) & 1
    if played != 2 * trick + (state[du.H_LED] != 0):
        return 6
    if state[du.TRICKS_WON] + state[du.TRICKS_WON + 1] != trick:
        return 7
    if state[du.H_TO_MOVE] < 0 and trick != du.TRICKS:
        return 8
    return 0


@njit
def sample_check(real, sample, seat):
    """0, or an error code: a determinization ``sample`` keeps the other hand's size."""
    for p in range(du.MAX_PLAYERS):
        if sample[du.PRIVATE + p * du.PRIVATE_SIZE + du.PV_SIZE] != real[du.PRIVATE + p * du.PRIVATE_SIZE + du.PV_SIZE]:
            return 1
    return 0


def not_position(state):
    """True at the indices of ``state`` that are not part of its position: the scratch area (the
    deck while dealing)."""
    mask = np.zeros(len(state), bool)
    mask[du.SCRATCH:] = True
    return mask


def dealt_by_chance(kind, outcome):
    """(seat, DEALT_KINDS name) of every card the deal gives a seat (the hidden three: nobody)."""
    return [(s, str(v)) for s, hand in enumerate(outcome["hands"]) for v in hand] if kind == "deal" else []
