"""Cardavia's determinization for the search player (issue 12), the scenarios of this game: where
each hidden card lands (chi-squared per hidden card and over whole deals). What every game's
determinization promises (a sample the seat may believe, the game's invariant, reading only the
views and its stream) is tests/contract/test_hidden.py."""
import itertools
import math

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from tourney_sim.simulate.games.cardavia import rules as ca
from tourney_sim.simulate.games.cardavia import notation as ca_text
from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.seeding import PyStream, seed_stream
from tourney_sim.simulate.stepper import KernelGame

from .support.cardavia import params_of

SPEC = get_game("cardavia")
PICK_STREAM = 1000  # the real game's random moves
DET_STREAM = 2000  # the determinizations
SAMPLES = 20_000
P_MIN = 0.001


# ------------------------------------------------------------------ 2. uniformity
@njit
def placement_counts(public, private, seed, samples, counts):
    """counts[card, seat] += how often ``card`` lands in ``seat``'s hand over ``samples``
    determinizations (stream (seed, 0, DET_STREAM))."""
    sample = np.zeros(ca.STATE_SIZE, np.int32)
    rng = np.zeros(4, np.uint64)
    seed_stream(rng, seed, 0, DET_STREAM)
    for _ in range(samples):
        ca.determinize(public, private, sample, rng)
        for p in range(4):
            base = ca.PRIVATE + p * ca.PRIVATE_SIZE
            for j in range(sample[base]):
                counts[sample[base + 1 + j], p] += 1


def position(options, seed, game, turns):
    """The state of seeded random game ``game`` after ``turns`` random moves."""
    k = KernelGame(SPEC, params_of(**options), seed, game)
    pick = PyStream(seed, game, PICK_STREAM)
    for _ in range(turns):
        moves = k.legal_moves()
        k.apply(moves[pick.below(len(moves))])
    return k.state.copy()


def hand(state, p):
    base = ca.PRIVATE + p * ca.PRIVATE_SIZE
    return [int(c) for c in state[base + 1:base + 1 + state[base]]]


#: (options, turns played): the start of a deal (3 x 12 free slots), late in a deal (slots
#: 1, 2, 2) and the second deal of a match of three (started by seat 1; slots 8, 7, 7)
UNIFORMITY_POSITIONS = [({}, 0), ({}, 41), ({"match_deals": 3}, 48 + 18)]


@pytest.mark.parametrize("options,turns", UNIFORMITY_POSITIONS, ids=["deal-start", "turn-41", "match3-deal2"])
def test_uniformity_each_hidden_card_per_hand_chi_squared(options, turns):
    """Each hidden card lands in each other hand with frequency proportional to that hand's
    size (the free slots there; Cardavia has no deck: every card is dealt), chi-squared p > 0.001
    per card; visible cards never move."""
    state = position(options, 21, 3, turns)
    seat = ca.to_move(state)
    others = [p for p in range(4) if p != seat]
    sizes = np.array([state[ca.PRIVATE + p * ca.PRIVATE_SIZE] for p in others], np.float64)
    hidden = sorted(c for p in others for c in hand(state, p))
    # not vacuous: hidden cards, and at least two places with free slots
    assert len(hidden) >= 5 and (sizes > 0).sum() >= 2
    counts = np.zeros((ca.N_CARDS, 4), np.int64)
    placement_counts(ca.public_view(state), ca.private_view(state, seat), np.uint64(5), SAMPLES, counts)
    for c in range(ca.N_CARDS):
        if c in hidden:
            observed = counts[c, others]
            assert observed.sum() == SAMPLES and counts[c, seat] == 0
            expected = SAMPLES * sizes / sizes.sum()
            p = chisquare(observed, expected).pvalue
            assert p > P_MIN, (ca_text.card_name(c), observed.tolist(), expected.tolist(), p)
        elif c in hand(state, seat):
            assert counts[c, seat] == SAMPLES and counts[c, others].sum() == 0
        else:
            assert counts[c].sum() == 0  # on the table or taken: in no hand


@njit
def deal_counts(public, private, seat, seed, samples, hidden_ids, counts):
    """counts[code] += 1 for each sample, code = the base-4 number of the seats that hidden card
    i (``hidden_ids[i]``) went to."""
    sample = np.zeros(ca.STATE_SIZE, np.int32)
    rng = np.zeros(4, np.uint64)
    seed_stream(rng, seed, 0, DET_STREAM)
    where = np.zeros(ca.N_CARDS, np.int64)
    for _ in range(samples):
        ca.determinize(public, private, sample, rng)
        for p in range(4):
            if p != seat:
                base = ca.PRIVATE + p * ca.PRIVATE_SIZE
                for j in range(sample[base]):
                    where[sample[base + 1 + j]] = p
        code = 0
        for i in range(hidden_ids.size):
            code = code * 4 + where[hidden_ids[i]]
        counts[code] += 1


def test_uniformity_whole_deals_chi_squared():
    """Late in a deal (5 hidden cards in hands of 1, 2 and 2): all 30 possible deals of the hidden
    cards are drawn equally often (chi-squared over the joint outcome, p > 0.001), and no other."""
    state = position({}, 21, 3, 41)
    seat = ca.to_move(state)
    others = [p for p in range(4) if p != seat]
    sizes = [len(hand(state, p)) for p in others]
    hidden = np.array(sorted(c for p in others for c in hand(state, p)), np.int64)
    assert sorted(sizes) == [1, 2, 2]
    n_deals = math.factorial(len(hidden)) // math.prod(math.factorial(s) for s in sizes)
    assert n_deals == 30
    counts = np.zeros(4 ** len(hidden), np.int64)
    deal_counts(ca.public_view(state), ca.private_view(state, seat), seat, np.uint64(6), SAMPLES, hidden, counts)
    possible = set()
    for seats in itertools.product(others, repeat=len(hidden)):
        if all(seats.count(p) == s for p, s in zip(others, sizes)):
            possible.add(sum(s * 4 ** (len(hidden) - 1 - i) for i, s in enumerate(seats)))
    assert len(possible) == n_deals
    assert {int(c) for c in np.flatnonzero(counts)} <= possible
    observed = counts[sorted(possible)]
    p = chisquare(observed, np.full(n_deals, SAMPLES / n_deals)).pvalue
    assert p > P_MIN, (observed.tolist(), p)
