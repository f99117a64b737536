"""Compañeros determinization (issue 12), the scenarios of this game: where each hidden card lands
(chi-squared), and every split of a late hand equally likely. What every game's determinization
promises (a sample the seat may believe, the game's invariant, reading only the views and its
stream) is tests/contract/test_hidden.py."""

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from tourney_sim.simulate.games.companeros import rules as co
from tourney_sim.simulate.games.companeros import notation as co_text
from tourney_sim.simulate.seeding import seed_stream
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.simulate.games import get_game

from . import harness


SPEC = get_game("companeros")
DET_STREAM = 2000  # the determinization's own stream



def params_of(players, match_games):
    return co.make_params(players, {"match_games": match_games})


# ------------------------------------------------------------------ 2. uniformity
def position(players, match_games, seed, game, steps):
    """The real state after ``steps`` random decisions of seeded game ``game``."""
    return harness.random_position(SPEC, params_of(players, match_games), seed, game, steps)


@njit
def _where_cards_land(real, seed, samples, counts):
    """counts[card, seat]: how often each card lands in each seat's hand over ``samples``
    determinizations from the mover's views."""
    n = real[co.H_PLAYERS]
    seat = co.to_move(real)
    rng = np.zeros(4, np.uint64)
    seed_stream(rng, seed, 0, DET_STREAM)
    sample = np.zeros(co.STATE_SIZE, np.int32)
    for _ in range(samples):
        co.determinize(co.public_view(real), co.private_view(real, seat), sample, rng)
        for p in range(n):
            base = co.PRIVATE + p * co.PRIVATE_SIZE
            for i in range(sample[base]):
                counts[sample[base + 1 + i], p] += 1


def hidden_cards_and_places(state):
    seat = co.to_move(state)
    n = int(state[co.H_PLAYERS])
    places = [p for p in range(n) if p != seat]
    cards = sorted(c for p in places for c in co_text.hand_cards(state, p))
    sizes = {p: int(state[co.PRIVATE + p * co.PRIVATE_SIZE]) for p in places}
    return cards, places, sizes


# (players, match_games, game, steps): 4 and 6 players mid-round, so that hand sizes differ
# (the places are the other hands; Compañeros has no deck), and 3 players in the second game of
# a CO-5 match
UNIFORM_POSITIONS = [(4, 1, 3, 14), (6, 1, 5, 40), (3, 2, 1, 60), (4, 1, 8, 1)]


@pytest.mark.parametrize("players,match_games,game,steps", UNIFORM_POSITIONS)
def test_determinize_each_hidden_card_lands_in_proportion_to_free_slots(players, match_games, game, steps):
    real = position(players, match_games, 41, game, steps)
    assert real[co.H_GAME_NO] == match_games - 1
    cards, places, sizes = hidden_cards_and_places(real)
    # not vacuous: hidden cards, at least two places, and (where chosen so) unequal sizes
    assert len(cards) >= 10 and len(places) >= 2
    samples = 20_000
    counts = np.zeros((co.MAX_CARDS, co.MAX_PLAYERS), np.int64)
    _where_cards_land(real, np.uint64(7), samples, counts)
    total = sum(sizes.values())
    expected = np.array([samples * sizes[p] / total for p in places])
    worst = 1.0
    for c in cards:
        observed = counts[c, places]
        assert observed.sum() == samples  # the card is always in some other seat's hand
        p_value = chisquare(observed, expected).pvalue
        worst = min(worst, p_value)
        assert p_value > 0.001, (c, observed, expected, p_value)
    # nothing else moves: the seat's own cards stay in its hand, no other card is drawn
    seat = co.to_move(real)
    for c in co_text.hand_cards(real, seat):
        assert counts[c, seat] == samples
    assert counts.sum() == samples * (total + len(co_text.hand_cards(real, seat)))
    print(f"\n  {players}p: {len(cards)} hidden cards over seats {sizes}, smallest p = {worst:.4f}")


@njit
def _hands_of(real, seed, samples, seat_a, keys):
    """keys[i]: the hand of ``seat_a`` in sample i, as a set of card ids (bit set)."""
    seat = co.to_move(real)
    rng = np.zeros(4, np.uint64)
    seed_stream(rng, seed, 0, DET_STREAM)
    sample = np.zeros(co.STATE_SIZE, np.int32)
    base = co.PRIVATE + seat_a * co.PRIVATE_SIZE
    for s in range(samples):
        co.determinize(co.public_view(real), co.private_view(real, seat), sample, rng)
        key = np.int64(0)
        for i in range(sample[base]):
            key |= np.int64(1) << sample[base + 1 + i]
        keys[s] = key


def test_determinize_every_split_of_a_late_hand_is_equally_likely():
    """Late in a 3-player game the two other hands share a few cards: every way to split them
    (with the hand sizes) must come up equally often, a joint test beyond single cards."""
    # play on until the seat to move sees 5..6 hidden cards split over two hands
    k = KernelGame(SPEC, params_of(3, 1), 41, 2)
    pick = np.random.default_rng(3)
    while True:
        cards, places, sizes = hidden_cards_and_places(k.state)
        if len(cards) <= 5 and k.state[co.H_PHASE] == co.PHASE_PLAY and len(set(sizes.values())) == 2:
            break
        moves = k.legal_moves()
        k.apply(int(moves[pick.integers(len(moves))]))
    real = k.state
    from math import comb
    a = places[0]
    splits = comb(len(cards), sizes[a])
    assert splits >= 5
    samples = 20_000
    keys = np.zeros(samples, np.int64)
    _hands_of(real, np.uint64(9), samples, a, keys)
    observed = np.unique(keys, return_counts=True)[1]
    assert observed.size == splits and observed.sum() == samples
    p_value = chisquare(observed).pvalue
    print(f"\n  {len(cards)} hidden cards, sizes {sizes}: {splits} splits, p = {p_value:.4f}")
    assert p_value > 0.001, observed
