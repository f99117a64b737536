"""Cardavia's determinization for the search player (issue 12): ``ca.determinize`` samples a
complete state from the views of the seat to move. Consistency (100,800 positions of random
games, one-deal games and matches of K deals, with and without the CA-5 options), uniformity
(chi-squared per hidden card and over whole deals) and no leak (the other hands permuted, the
same sample), and its speed."""
import itertools
import math
import time

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from tourney_sim.simulate.games.cardavia import rules as ca
from tourney_sim.simulate.games.cardavia import notation as ca_text
from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.seeding import PyStream, below, new_stream, seed_stream
from tourney_sim.simulate.stepper import KernelGame

from .support.cardavia import invariant, params_of, redeal_other_hands

SPEC = get_game("cardavia")
PICK_STREAM = 1000  # the real game's random moves
DET_STREAM = 2000  # the determinizations
PLAYOUT_STREAM = 3000  # the sampled states' random play-outs (their moves; their chance is 4000)
SAMPLES = 20_000
P_MIN = 0.001


# ------------------------------------------------------------------ 1. consistency
@njit
def random_step(state, moves, pick, chance):
    """Play one uniformly random legal move; False if there was none. (One call site for the
    inlined legal_moves / apply_move: compiling them twice would double the test's compile time.)"""
    n = ca.legal_moves(state, moves)
    if n <= 0:
        return False
    ca.apply_move(state, moves[below(pick, n)], chance)
    return True


@njit
def consistency_run(params, seed, n_games, totals):
    """At every decision of ``n_games`` random games: determinize from the mover's views, check
    the sample (views, to_move, invariant, hidden-card count), play it on to the end with random
    moves and a fresh chance stream, checking the invariant at its end. ``totals``: positions,
    positions whose sample differs from the real hands, hidden cards drawn, play-out moves.
    Returns (game, step, code) of the first failure or (-1, 0, 0)."""
    state = np.zeros(ca.STATE_SIZE, np.int32)
    sample = np.full(ca.STATE_SIZE, -7, np.int32)  # garbage: determinize must overwrite it all
    moves = np.zeros(ca.MAX_MOVES, np.int64)
    chance = np.zeros(4, np.uint64)
    pick = np.zeros(4, np.uint64)
    rng = np.zeros(4, np.uint64)
    play_pick = np.zeros(4, np.uint64)
    play_chance = np.zeros(4, np.uint64)
    max_steps = ca.DECISIONS_PER_DEAL * params[ca.P_MATCH_DEALS]
    for g in range(n_games):
        seed_stream(chance, seed, g, 0)
        seed_stream(pick, seed, g, PICK_STREAM)
        seed_stream(rng, seed, g, DET_STREAM)
        ca.init(state, params, chance)
        step = 0
        while ca.to_move(state) >= 0:
            seat = ca.to_move(state)
            hidden = ca.determinize(ca.public_view(state), ca.private_view(state, seat), sample, rng)
            if hidden < 0:
                return g, step, 1
            pub, spub = ca.public_view(state), ca.public_view(sample)
            for i in range(ca.PUBLIC_SIZE):
                if pub[i] != spub[i]:
                    return g, step, 2
            priv, spriv = ca.private_view(state, seat), ca.private_view(sample, seat)
            for i in range(ca.PRIVATE_SIZE):
                if priv[i] != spriv[i]:
                    return g, step, 3
            if ca.to_move(sample) != seat:
                return g, step, 4
            code = invariant(sample)
            if code != 0:
                return g, step, 100 + code
            real_hidden = 0
            differs = False
            for p in range(4):
                if p != seat:
                    base = ca.PRIVATE + p * ca.PRIVATE_SIZE
                    real_hidden += state[base]
                    for j in range(ca.PRIVATE_SIZE):
                        differs |= state[base + j] != sample[base + j]
            if hidden != real_hidden:
                return g, step, 5
            totals[0] += 1
            totals[1] += differs
            totals[2] += hidden
            # play the sample on to its end
            seed_stream(play_pick, seed, g * 1000 + step, PLAYOUT_STREAM)
            seed_stream(play_chance, seed, g * 1000 + step, PLAYOUT_STREAM + 1000)
            played = 0
            while ca.to_move(sample) >= 0:
                if not random_step(sample, moves, play_pick, play_chance):
                    return g, step, 6
                played += 1
                if step + played > max_steps:
                    return g, step, 7
            if step + played != max_steps:
                return g, step, 8
            code = invariant(sample)
            if code != 0:
                return g, step, 200 + code
            totals[3] += played
            # the real game goes on
            if not random_step(state, moves, pick, chance):
                return g, step, 10
            step += 1
        if step != max_steps:
            return g, step, 9
    return -1, 0, 0


#: (options, games): 900 * 48 + 300 * 48 + 300 * 96 + 60 * 240 = 100,800 positions
CONSISTENCY_RUNS = [
    ({}, 900),
    # (not napula_beyond_10: test_cardavia's invariant scores the Napula run only up to the 10)
    ({"single_match_forced": True, "last_sweep_scores": False}, 300),
    ({"match_deals": 2}, 300),
    ({"match_deals": 5, "single_match_forced": True}, 60),  # deals started by seats 0, 1, 2, 3, 0
]


def test_consistency_runs_cover_100k_positions():
    total = sum(games * ca.TURNS * options.get("match_deals", 1) for options, games in CONSISTENCY_RUNS)
    assert total >= 100_000


@pytest.mark.parametrize("options,games", CONSISTENCY_RUNS,
                         ids=["default", "ca5-options", "match2", "match5-forced"])
@pytest.mark.slow
def test_consistency_views_invariant_to_move_and_playout(options, games):
    """At every decision of seeded random games the sample shows the mover exactly its views,
    satisfies the game's invariant, has the same seat to move, and plays on to the match's end."""
    totals = np.zeros(4, np.int64)
    t0 = time.perf_counter()
    failure = consistency_run(params_of(**options), np.uint64(12), games, totals)
    elapsed = time.perf_counter() - t0
    assert failure == (-1, 0, 0)
    positions = games * ca.TURNS * options.get("match_deals", 1)
    assert totals[0] == positions
    # not vacuous: hidden cards were drawn and the samples mostly differ from the real hands
    # (they can only agree when at most one hidden card is left... or by chance)
    assert totals[2] > 10 * positions
    assert totals[1] > 0.85 * positions
    print(f"\n{options}: {positions} positions, {totals[2] / positions:.1f} hidden cards each, "
          f"{totals[3]} play-out moves, {elapsed:.1f} s")


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


# ------------------------------------------------------------------ 3. no leak
@pytest.mark.parametrize("deals,games", [(1, 30), (3, 8)])
def test_no_leak_permuted_hidden_hands_give_the_same_sample(deals, games):
    """At every decision of random games: the other hands redealt among themselves (the
    no-peeking ``hide`` of tests/test_cardavia.py), determinizing with the same stream gives
    exactly the same state (all of it, scratch included) and leaves the stream in the same place,
    whatever the output array held before (the real state, the permuted one, garbage)."""
    changed = 0
    for g in range(games):
        k = KernelGame(SPEC, params_of(match_deals=deals), 8, g)
        pick = PyStream(8, g, PICK_STREAM)
        step = 0
        while (seat := k.to_move()) >= 0:
            other = redeal_other_hands(k.state.copy(), seat, pick)
            assert np.array_equal(ca.public_view(other), ca.public_view(k.state))
            assert np.array_equal(ca.private_view(other, seat), ca.private_view(k.state, seat))
            changed += not np.array_equal(other, k.state)
            samples, rngs = [], []
            for real, out in ((k.state, k.state.copy()), (other, other.copy()),
                              (other, np.full(ca.STATE_SIZE, 99, np.int32))):
                rng = new_stream(8, g, DET_STREAM + step)
                assert ca.determinize(ca.public_view(real), ca.private_view(real, seat), out, rng) >= 0
                samples.append(out)
                rngs.append(rng)
            for s, r in zip(samples[1:], rngs[1:]):
                assert np.array_equal(s, samples[0])
                assert np.array_equal(r, rngs[0])
            moves = k.legal_moves()
            k.apply(moves[pick.below(len(moves))])
            step += 1
    assert changed > 0.8 * games * deals * ca.TURNS  # the hidden hands really were permuted
