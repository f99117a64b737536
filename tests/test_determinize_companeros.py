"""Compañeros determinization (issue 12): ``companeros.determinize`` samples a complete state
from the views of the seat to move. Tests: consistency with the views and the invariants over
random play (3, 4 and 6 players, single games and CO-5 matches), uniformity of where each hidden
card lands (chi-squared), and no leak of the real hidden cards into the sample."""
import time

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from tourney_sim.simulate.games.companeros import rules as co
from tourney_sim.simulate.games.companeros import notation as co_text
from tourney_sim.simulate.seeding import new_stream, seed_stream
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.simulate.games import get_game

from . import harness
from .support.companeros import invariant, redeal_other_hands

SPEC = get_game("companeros")
PICK_STREAM = 1000  # choosing the real game's random moves
DET_STREAM = 2000  # the determinization's own stream
PLAYOUT_STREAM = 3000  # random moves and future deals of the played-on sample

#: (players, match_games) covered by the consistency and no-leak tests
CONFIGS = [(3, 1), (4, 1), (6, 1), (3, 2), (4, 3), (6, 2)]


def params_of(players, match_games):
    return co.make_params(players, {"match_games": match_games})


# ------------------------------------------------------------------ 1. consistency
@njit
def match_invariant(state, buf):
    """The game's invariant, in any game of a CO-5 match: ``invariant`` ties SCORE and
    CARDS_TAKEN to this game's taken masks, which holds in the first game only (points
    accumulate over the match), so those two are checked on a copy with this game's share."""
    if state[co.H_MATCH_GAMES] == 1:
        return invariant(state)
    buf[:] = state
    n = state[co.H_PLAYERS]
    for p in range(n):
        points = 0
        taken = 0
        for colour in range(n):
            mask = state[co.TAKEN_MASK + p * co.MAX_PLAYERS + colour]
            for v in range(co.VALUES):
                if mask >> v & 1:
                    points += v + 1
                    taken += 1
        if points > state[co.SCORE + p] or taken > state[co.CARDS_TAKEN + p]:
            return 8  # this game's takings are part of the match totals
        buf[co.SCORE + p] = points
        buf[co.CARDS_TAKEN + p] = taken
    return invariant(buf)


_random_step = harness.random_stepper(co)
_views_agree = harness.view_checker(co)


@njit
def _check_sample(real, sample, seat, buf):
    """0 if ``sample`` agrees with ``real`` in everything ``seat`` knows and is a valid state;
    -1 if it is valid and equals ``real`` exactly (nothing drawn differently); else a code."""
    n = real[co.H_PLAYERS]
    code = _views_agree(real, sample, seat)
    if code != 0:
        return code
    code = match_invariant(sample, buf)
    if code != 0:
        return code
    differs = False
    for p in range(co.MAX_PLAYERS):
        base = co.PRIVATE + p * co.PRIVATE_SIZE
        if sample[base] != real[base]:
            return 104  # every hand keeps its size
        for i in range(1, co.PRIVATE_SIZE):
            if sample[base + i] != real[base + i]:
                if p == seat or p >= n:
                    return 105  # only the other seats' hands are drawn
                differs = True
    return 0 if differs else -1


@njit
def _consistency(real, params, seed, g, out):
    """Game ``g`` played at random from its deal ``real``; at every decision determinize from
    the mover's views and check the sample (``_check_sample``: views and to_move equal,
    invariant, hand sizes, nothing but the other hands drawn), then play the sample to its end
    with random moves and a fresh chance stream. ``out`` accumulates [positions, samples
    differing from the real hands, playout decisions, hidden cards drawn]. Returns (step, code)
    of the first failure or (-1, 0). (The deal is made from Python, so that this function does
    not inline ``init`` again: compiling is most of this test's time.)"""
    sample = np.zeros(co.STATE_SIZE, np.int32)
    buf = np.zeros(co.STATE_SIZE, np.int32)
    moves = np.zeros(co.MAX_MOVES, np.int64)
    chance = np.zeros(4, np.uint64)
    pick = np.zeros(4, np.uint64)
    det = np.zeros(4, np.uint64)
    play_chance = np.zeros(4, np.uint64)
    play_pick = np.zeros(4, np.uint64)
    limit = co.MAX_DECISIONS_PER_GAME * params[co.P_MATCH_GAMES]
    seed_stream(chance, seed, g, 1)  # the real game's later deals (CO-5)
    seed_stream(pick, seed, g, PICK_STREAM)
    seed_stream(det, seed, g, DET_STREAM)
    seed_stream(play_chance, seed, g, PLAYOUT_STREAM)
    seed_stream(play_pick, seed, g, PLAYOUT_STREAM + 1)
    step = 0
    while co.to_move(real) >= 0:
        seat = co.to_move(real)
        hidden = co.determinize(co.public_view(real), co.private_view(real, seat), sample, det)
        if hidden < 0:
            return step, 100
        code = _check_sample(real, sample, seat, buf)
        if code > 0:
            return step, code
        out[0] += 1
        out[1] += code == 0
        out[3] += hidden
        steps = 0  # play the sample on to its end
        while co.to_move(sample) >= 0:
            if _random_step(sample, moves, play_pick, play_chance) == 0:
                return step, 106
            steps += 1
            if steps > limit:
                return step, 107
        out[2] += steps
        code = match_invariant(sample, buf)
        if code != 0:
            return step, 200 + code
        _random_step(real, moves, pick, chance)  # the real game moves on
        step += 1
    return -1, 0


@pytest.mark.slow
def test_determinize_consistent_with_views_and_invariants_over_random_play():
    games = {1: 300, 2: 160, 3: 100}
    positions = 0
    started = time.perf_counter()
    for players, match_games in CONFIGS:
        out = np.zeros(4, np.int64)
        params = params_of(players, match_games)
        for g in range(games[match_games]):
            real = np.zeros(co.STATE_SIZE, np.int32)
            co.init(real, params, new_stream(17, g, 0))
            failure = _consistency(real, params, np.uint64(17), g, out)
            assert failure == (-1, 0), (players, match_games, g, failure)
        # nearly every sample differs from the real hands (it is a draw, not a copy); positions
        # with nothing hidden (last cards) or one possible split are few
        assert out[1] > 0.75 * out[0], (players, match_games, out)
        assert out[2] > 0 and out[3] > 0
        positions += out[0]
        print(f"\n  {players}p match_games={match_games}: {out[0]} positions, {out[1]} differ, "
              f"{out[2]} playout decisions")
    print(f"  {positions} positions in {time.perf_counter() - started:.1f} s")
    assert positions >= 100_000


# ------------------------------------------------------------------ 2. uniformity
def position(players, match_games, seed, game, steps):
    """The real state after ``steps`` random decisions of seeded game ``game``."""
    k = KernelGame(SPEC, params_of(players, match_games), seed, game)
    pick = np.random.default_rng(seed * 1000 + game)
    for _ in range(steps):
        assert k.to_move() >= 0
        moves = k.legal_moves()
        k.apply(int(moves[pick.integers(len(moves))]))
    return k.state


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


# ------------------------------------------------------------------ 3. no leak
def hide(state, seat, rng):
    """The real hidden information changed: the other seats' hands redealt among themselves
    (their sizes kept) and the scratch area (the deal's deck, sort keys) scrambled."""
    other = redeal_other_hands(state.copy(), seat, rng)
    other[co.SCRATCH:] = rng.integers(-5, 60, co.STATE_SIZE - co.SCRATCH)
    return other


@pytest.mark.parametrize("players,match_games", CONFIGS)
def test_determinize_does_not_depend_on_the_real_hidden_cards(players, match_games):
    """The same views and rng seed give the same sample whatever the real hidden cards, even
    with the views given as slices of the real state (an out-of-bounds read would differ) and
    the output written over different old contents."""
    changed = 0
    positions = 0
    games = 60 // match_games
    for g in range(games):
        k = KernelGame(SPEC, params_of(players, match_games), 23, g)
        pick = np.random.default_rng(g)
        while (seat := k.to_move()) >= 0:
            other = hide(k.state, seat, pick)
            changed += not np.array_equal(other, k.state)
            samples = []
            for st, garbage in ((k.state, k.state.copy()), (other, pick.integers(-9, 99, co.STATE_SIZE))):
                out = garbage.astype(np.int32)
                rng = new_stream(5, g * 1000 + positions, DET_STREAM)
                co.determinize(co.public_view(st), co.private_view(st, seat), out, rng)
                samples.append((out, rng))
            assert np.array_equal(samples[0][0], samples[1][0])
            assert np.array_equal(samples[0][1], samples[1][1])  # the same draws were made
            positions += 1
            moves = k.legal_moves()
            k.apply(int(moves[pick.integers(len(moves))]))
    assert changed > 0.9 * positions and positions > 1000
