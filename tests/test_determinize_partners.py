"""Partners determinization (issue 12): ``partners.determinize`` samples a complete state from
the views of the seat to move. Tests: consistency with the views and the invariants over random
play (both PA-3 options), uniformity of where each hidden card lands (chi-squared: the other
hands, the cards set aside in the exchange, the pile, and the pile's top card), and no leak of
the real hidden cards into the sample. The card a seat gave its partner must stay in the
partner's hand while unplayed (PA-8: the giver knows where it went)."""
import time

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.partners import rules as pa
from tourney_sim.simulate.seeding import new_stream, seed_stream
from tourney_sim.simulate.stepper import KernelGame

from . import harness
from .support.partners import invariant

SPEC = get_game("partners")
PICK_STREAM = 1000  # choosing the real game's random moves
DET_STREAM = 2000  # the determinization's own stream
PLAYOUT_STREAM = 3000  # random moves and future reshuffles of the played-on sample
N_PLACES = 9  # 0..3 a seat's hand, 4..7 a seat's card set aside in the exchange, 8 the pile


def params_of(overshoot):
    return pa.make_params(4, {"house_overshoot": overshoot})


# ------------------------------------------------------------------ 1. consistency
_random_step = harness.random_stepper(pa)
_views_agree = harness.view_checker(pa)


@njit
def _in_hand(state, p, card):
    base = pa.PRIVATE + p * pa.PRIVATE_SIZE
    for j in range(state[base]):
        if state[base + pa.PV_HAND + j] == card:
            return True
    return False


@njit
def _check_sample(real, sample, seat):
    """0 if ``sample`` agrees with ``real`` in everything ``seat`` knows and is a valid state;
    -1 if valid and every hand equals the real one (nothing drawn differently); else a code."""
    code = _views_agree(real, sample, seat)
    if code != 0:
        return code
    code = invariant(sample)
    if code != 0:
        return code
    if sample[pa.S_DECK_POS] != real[pa.S_DECK_POS]:
        return 104
    mine = pa.PRIVATE + seat * pa.PRIVATE_SIZE
    partner = seat ^ 2
    pb = pa.PRIVATE + partner * pa.PRIVATE_SIZE
    if real[pa.H_PHASE] == pa.PHASE_PLAY:
        given = real[mine + pa.PV_GIVEN]
        if real[pa.CARD_PUB + given] == pa.CP_UNSEEN and not _in_hand(sample, partner, given):
            return 105  # the card given to the partner stays with the partner while unplayed
        if sample[pb + pa.PV_RECEIVED] != given or sample[pb + pa.PV_GIVEN] != real[mine + pa.PV_RECEIVED]:
            return 106
        for q in range(4):  # every exchange slot: q's card came from q ^ 2, held or played
            r = sample[pa.PRIVATE + q * pa.PRIVATE_SIZE + pa.PV_RECEIVED]
            if r < 0 or sample[pa.PRIVATE + (q ^ 2) * pa.PRIVATE_SIZE + pa.PV_GIVEN] != r:
                return 107
            if sample[pa.CARD_PUB + r] == pa.CP_UNSEEN and not _in_hand(sample, q, r):
                return 108
    else:
        for q in range(4):
            b = pa.PRIVATE + q * pa.PRIVATE_SIZE
            if (sample[b + pa.PV_GIVEN] >= 0) != (real[b + pa.PV_GIVEN] >= 0) or sample[b + pa.PV_RECEIVED] != -1:
                return 109  # the seats that already gave, as in the real exchange
    differs = False
    for p in range(4):
        base = pa.PRIVATE + p * pa.PRIVATE_SIZE
        if sample[base] != real[base]:
            return 110
        for i in range(1, 1 + pa.HAND_SIZE):
            if sample[base + i] != real[base + i]:
                if p == seat:
                    return 111
                differs = True
    return 0 if differs else -1


@njit
def _consistency(real, seed, g, out):
    """Game ``g`` played at random from its deal ``real``; at every decision determinize from
    the mover's views and check the sample (``_check_sample``), then play the sample on to its
    end with random moves and a fresh chance stream. ``out`` accumulates [positions, samples
    whose hands differ from the real ones, playout decisions, hidden cards drawn]. Returns
    (step, code) of the first failure or (-1, 0)."""
    sample = np.zeros(pa.STATE_SIZE, np.int32)
    moves = np.zeros(pa.MAX_MOVES, np.int64)
    chance = np.zeros(4, np.uint64)
    pick = np.zeros(4, np.uint64)
    det = np.zeros(4, np.uint64)
    play_chance = np.zeros(4, np.uint64)
    play_pick = np.zeros(4, np.uint64)
    seed_stream(chance, seed, g, 1)
    seed_stream(pick, seed, g, PICK_STREAM)
    seed_stream(det, seed, g, DET_STREAM)
    seed_stream(play_chance, seed, g, PLAYOUT_STREAM)
    seed_stream(play_pick, seed, g, PLAYOUT_STREAM + 1)
    limit = SPEC_MAX_DECISIONS
    step = 0
    while pa.to_move(real) >= 0:
        seat = pa.to_move(real)
        hidden = pa.determinize(pa.public_view(real), pa.private_view(real, seat), sample, det)
        if hidden < 0:
            return step, 100
        code = _check_sample(real, sample, seat)
        if code > 0:
            return step, code
        out[0] += 1
        out[1] += code == 0
        out[3] += hidden
        steps = 0
        while pa.to_move(sample) >= 0:
            if _random_step(sample, moves, play_pick, play_chance) <= 0:
                return step, 120
            steps += 1
            if steps > limit:
                return step, 121
        out[2] += steps
        code = invariant(sample)
        if code != 0:
            return step, 200 + code
        if _random_step(real, moves, pick, chance) <= 0:
            return step, 122
        step += 1
    return -1, 0


SPEC_MAX_DECISIONS = SPEC.max_decisions


@pytest.mark.slow
@pytest.mark.parametrize("overshoot,games", [("illegal", 130), ("bounce", 110)])
def test_determinize_consistent_with_views_and_invariants_over_random_play(overshoot, games):
    out = np.zeros(4, np.int64)
    started = time.perf_counter()
    params = params_of(overshoot)
    for g in range(games):
        real = np.zeros(pa.STATE_SIZE, np.int32)
        pa.init(real, params, new_stream(17, g, 0))
        failure = _consistency(real, np.uint64(17), g, out)
        assert failure == (-1, 0), (overshoot, g, failure)
    # nearly every sample differs from the real hands (a draw, not a copy)
    assert out[1] > 0.9 * out[0], out
    assert out[2] > 0 and out[3] > 0
    print(f"\n  {overshoot}: {out[0]} positions, {out[1]} differ, {out[3] / out[0]:.1f} hidden cards "
          f"each, {out[2]} playout decisions, {time.perf_counter() - started:.1f} s")
    assert out[0] >= 50_000  # both options together: over 100,000


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


# ------------------------------------------------------------------ 3. no leak
def hide(state, seat, rng):
    """The real hidden information changed: the cards the seat cannot see permuted among the
    hidden places (other hands but the card the seat gave its partner while the partner holds
    it, the cards set aside in the exchange, the pile in any order), the opponents' exchange
    slots changed, the dealt part of the deck and the scratch area scrambled."""
    st = state.copy()
    mine = pa.PRIVATE + seat * pa.PRIVATE_SIZE
    play = st[pa.H_PHASE] == pa.PHASE_PLAY
    held = -1
    if play and st[pa.CARD_PUB + st[mine + pa.PV_GIVEN]] == pa.CP_UNSEEN:
        held = int(st[mine + pa.PV_GIVEN])
    slots = []
    for p in range(4):
        if p == seat:
            continue
        base = pa.PRIVATE + p * pa.PRIVATE_SIZE
        for j in range(st[base]):
            if st[base + 1 + j] != held:
                slots.append(base + 1 + j)
        if not play and st[base + pa.PV_GIVEN] >= 0:
            slots.append(base + pa.PV_GIVEN)
    pos = int(st[pa.S_DECK_POS])
    n = int(st[pa.H_N_CARDS])
    slots += [pa.DECK + i for i in range(pos, n)]
    pool = [int(st[s]) for s in slots]
    rng.shuffle(pool)
    for s, c in zip(slots, pool):
        st[s] = c
    for p in range(4):
        if p != seat:
            base = pa.PRIVATE + p * pa.PRIVATE_SIZE
            st[base + 1:base + 1 + st[base]] = sorted(st[base + 1:base + 1 + st[base]])
    if play:
        for q in (seat ^ 1, seat ^ 3):
            c = int(rng.integers(0, n))
            st[pa.PRIVATE + q * pa.PRIVATE_SIZE + pa.PV_RECEIVED] = c
            st[pa.PRIVATE + (q ^ 2) * pa.PRIVATE_SIZE + pa.PV_GIVEN] = c
    st[pa.DECK:pa.DECK + pos] = rng.permutation(st[pa.DECK:pa.DECK + pos])
    st[pa.DECK + n:] = rng.integers(-5, 60, pa.STATE_SIZE - pa.DECK - n)
    return st


@pytest.mark.parametrize("overshoot", ["illegal", "bounce"])
def test_determinize_does_not_depend_on_the_real_hidden_cards(overshoot):
    """The same views and rng seed give the same sample whatever the real hidden cards, even
    with the views given as slices of the real state and the output written over different
    old contents."""
    changed = 0
    positions = 0
    for g in range(6):
        k = KernelGame(SPEC, params_of(overshoot), 23, g)
        pick = np.random.default_rng(g)
        while (seat := k.to_move()) >= 0:
            other = hide(k.state, seat, pick)
            assert np.array_equal(pa.public_view(other), pa.public_view(k.state))
            assert np.array_equal(pa.private_view(other, seat), pa.private_view(k.state, seat))
            changed += not np.array_equal(other[:pa.DECK], k.state[:pa.DECK]) or \
                not np.array_equal(other[pa.DECK + k.state[pa.S_DECK_POS]:pa.DECK + 56],
                                   k.state[pa.DECK + k.state[pa.S_DECK_POS]:pa.DECK + 56])
            samples = []
            for st, garbage in ((k.state, k.state.copy()), (other, pick.integers(-9, 99, pa.STATE_SIZE))):
                out = garbage.astype(np.int32)
                rng = new_stream(5, g * 10_000 + positions, DET_STREAM)
                assert pa.determinize(pa.public_view(st), pa.private_view(st, seat), out, rng) >= 0
                samples.append((out, rng))
            assert np.array_equal(samples[0][0], samples[1][0])
            assert np.array_equal(samples[0][1], samples[1][1])  # the same draws were made
            positions += 1
            moves = k.legal_moves()
            k.apply(int(moves[pick.integers(len(moves))]))
    assert changed > 0.9 * positions and positions > 1000
