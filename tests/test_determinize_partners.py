"""Partners determinization (issue 12), the scenarios of this game: where each hidden card lands
(chi-squared: the other hands, the cards set aside in the exchange, the pile, and the pile's top
card). What every game's determinization promises (a sample the seat may believe, the game's
invariant and PA-8's card given to the partner staying in the partner's hand while unplayed, in
``tests/support/partners.py``'s ``sample_check``; reading only the views and its stream) is
tests/contract/test_hidden.py."""

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.partners import rules as pa
from tourney_sim.simulate.seeding import seed_stream
from tourney_sim.simulate.stepper import KernelGame


SPEC = get_game("partners")
DET_STREAM = 2000  # the determinization's own stream
N_PLACES = 9  # 0..3 a seat's hand, 4..7 a seat's card set aside in the exchange, 8 the pile


def params_of(overshoot):
    return pa.make_params(4, {"house_overshoot": overshoot})


# ------------------------------------------------------------------ 2. uniformity
def find_position(overshoot, seed, game, wanted, skip=0):
    """The real state of seeded random game ``game`` at the ``skip``-th decision where
    ``wanted(state)`` holds."""
    k = KernelGame(SPEC, params_of(overshoot), seed, game)
    pick = np.random.default_rng(seed * 1000 + game)
    while k.to_move() >= 0:
        if wanted(k.state):
            if skip == 0:
                return k.state.copy()
            skip -= 1
        moves = k.legal_moves()
        k.apply(int(moves[pick.integers(len(moves))]))
    raise AssertionError("no such position")


def hidden_places(state):
    """(hidden cards, {place: free slots}) for the seat to move, places as in ``N_PLACES``."""
    seat = pa.to_move(state)
    mine = pa.PRIVATE + seat * pa.PRIVATE_SIZE
    held = -1
    if state[pa.H_PHASE] == pa.PHASE_PLAY and state[pa.CARD_PUB + state[mine + pa.PV_GIVEN]] == pa.CP_UNSEEN:
        held = int(state[mine + pa.PV_GIVEN])
    own = set(int(c) for c in state[mine + 1:mine + 1 + state[mine]])
    n = int(state[pa.H_N_CARDS])
    cards = [c for c in range(n) if state[pa.CARD_PUB + c] == pa.CP_UNSEEN and c not in own and c != held]
    places = {}
    for p in range(4):
        if p != seat:
            places[p] = int(state[pa.HAND_COUNT + p]) - (p == seat ^ 2 and held >= 0)
            if state[pa.H_PHASE] == pa.PHASE_EXCHANGE and state[pa.PRIVATE + p * pa.PRIVATE_SIZE + pa.PV_GIVEN] >= 0:
                places[4 + p] = 1
    places[8] = int(state[pa.H_PILE])
    places = {k: v for k, v in places.items() if v > 0}
    return cards, places, held


@njit
def _where_cards_land(real, seed, samples, counts, top):
    """counts[card, place] over ``samples`` determinizations (places as in ``N_PLACES``);
    top[card]: how often the card is the pile's top (the next one dealt)."""
    seat = pa.to_move(real)
    rng = np.zeros(4, np.uint64)
    seed_stream(rng, seed, 0, DET_STREAM)
    sample = np.zeros(pa.STATE_SIZE, np.int32)
    n = real[pa.H_N_CARDS]
    for _ in range(samples):
        pa.determinize(pa.public_view(real), pa.private_view(real, seat), sample, rng)
        for p in range(4):
            base = pa.PRIVATE + p * pa.PRIVATE_SIZE
            for i in range(sample[base]):
                counts[sample[base + 1 + i], p] += 1
            if sample[pa.H_PHASE] == pa.PHASE_EXCHANGE and sample[base + pa.PV_GIVEN] >= 0:
                counts[sample[base + pa.PV_GIVEN], 4 + p] += 1
        for i in range(sample[pa.S_DECK_POS], n):
            counts[sample[pa.DECK + i], 8] += 1
        if sample[pa.S_DECK_POS] < n:
            top[sample[pa.DECK + sample[pa.S_DECK_POS]]] += 1


def play_with_held_card(state):
    """Mid-deal play where the seat's given card is still in the partner's hand."""
    if state[pa.H_PHASE] != pa.PHASE_PLAY:
        return False
    seat = pa.to_move(state)
    mine = pa.PRIVATE + seat * pa.PRIVATE_SIZE
    sizes = [state[pa.HAND_COUNT + p] for p in range(4) if p != seat]
    return (state[pa.CARD_PUB + state[mine + pa.PV_GIVEN]] == pa.CP_UNSEEN and len(set(sizes)) > 1
            and state[pa.H_PILE] > 0)


def exchange_after_two_gives(state):
    return state[pa.H_PHASE] == pa.PHASE_EXCHANGE and state[pa.H_EXCHANGED] == 2


def third_deal_play(state):
    return play_with_held_card(state) and state[pa.H_PILE] == 8


# (option, game, condition, skip)
UNIFORM_POSITIONS = [("illegal", 3, play_with_held_card, 2), ("bounce", 5, exchange_after_two_gives, 4),
                     ("illegal", 7, third_deal_play, 0), ("illegal", 2, exchange_after_two_gives, 0)]


@pytest.mark.parametrize("overshoot,game,wanted,skip", UNIFORM_POSITIONS,
                         ids=["play-held-card", "exchange-2-given", "third-deal", "first-exchange"])
def test_determinize_each_hidden_card_lands_in_proportion_to_free_slots(overshoot, game, wanted, skip):
    real = find_position(overshoot, 41, game, wanted, skip)
    seat = pa.to_move(real)
    cards, places, held = hidden_places(real)
    # not vacuous: hidden cards and several places
    assert len(cards) >= 8 and len(places) >= 3, (cards, places)
    assert sum(places.values()) == len(cards)
    samples = 20_000
    counts = np.zeros((pa.MAX_CARDS, N_PLACES), np.int64)
    top = np.zeros(pa.MAX_CARDS, np.int64)
    _where_cards_land(real, np.uint64(7), samples, counts, top)
    keys = sorted(places)
    expected = np.array([samples * places[k] / len(cards) for k in keys])
    worst = 1.0
    for c in cards:
        observed = counts[c, keys]
        assert observed.sum() == samples  # always in exactly one hidden place
        p_value = chisquare(observed, expected).pvalue
        worst = min(worst, p_value)
        assert p_value > 0.001, (c, observed, expected, p_value)
    # the pile's order: its top card is any hidden card alike
    observed = top[cards]
    assert observed.sum() == samples
    p_top = chisquare(observed).pvalue
    assert p_top > 0.001, observed
    # what the seat knows does not move: its hand, and the card it gave while the partner holds it
    mine = pa.PRIVATE + seat * pa.PRIVATE_SIZE
    for c in real[mine + 1:mine + 1 + real[mine]]:
        assert counts[c, seat] == samples
    if held >= 0:
        assert counts[held, seat ^ 2] == samples
    hidden_slots = sum(counts[c].sum() for c in cards)
    assert hidden_slots == samples * len(cards)
    print(f"\n  {len(cards)} hidden cards over places {places} (held card {held}), smallest p = "
          f"{worst:.4f}, pile top p = {p_top:.4f}")
