"""Colleagues determinization (issue 12), the scenarios of this game: the memory the views gained
for it (``DISC_N``, ``P_DISC``, ``P_SPENT``, kept in the game's invariant) and where each hidden
card and token lands (chi-squared). What every game's determinization promises (a sample the seat
may believe, the game's invariant, reading only the views and its stream) is
tests/contract/test_hidden.py."""

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from tourney_sim.simulate.games.colleagues import rules as cl
from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.seeding import seed_stream
from tourney_sim.simulate.stepper import KernelGame

from . import harness


SPEC = get_game("colleagues")
DET_STREAM = 2000  # the determinization's own stream



def params_of(players, options):
    return cl.make_params(players, SPEC.resolve_options([f"{k}={v}" for k, v in options.items()]))


# ------------------------------------------------------------------ the views' memory
def test_memory_fields_follow_mulligans_and_peeks():
    """The kernel keeps ``DISC_N``, ``P_DISC`` and ``P_SPENT``: a 2-player week with a mulligan
    and a peek, then all reset at clean-up."""
    k = KernelGame(SPEC, params_of(2, {}), 5, 0)
    seat = k.to_move()
    hand = [int(c) for c in k.state[cl.PRIVATE + seat * cl.PRIVATE_SIZE + cl.P_HAND:][:6]]
    k.apply(cl.MOVE_MULLIGAN + 0b100101)  # discards positions 0, 2, 5
    b = cl.PRIVATE + seat * cl.PRIVATE_SIZE
    assert k.state[cl.DISC_N + seat] == 3
    assert k.state[b + cl.P_DISC:b + cl.P_DISC + 6].tolist() == [hand[0], hand[2], hand[5], -1, -1, -1]
    k.apply(cl.MOVE_MULLIGAN)  # the other keeps
    assert k.state[cl.DISC_N + 1 - seat] == 0
    seat = k.to_move()
    b = cl.PRIVATE + seat * cl.PRIVATE_SIZE
    kinds = [kd for kd in range(4) if k.state[b + cl.P_TOK + kd] > 0]
    k.apply(cl.MOVE_PEEK + 4 * 3 + kinds[0])
    assert k.state[b + cl.P_SPENT + kinds[0]] == 1 and k.state[b + cl.P_SEEN + 3] >= 0
    pick = np.random.default_rng(0)
    while k.state[cl.H_WEEK] == 0:
        moves = k.legal_moves()
        k.apply(int(moves[pick.integers(len(moves))]))
    for p in range(2):
        b = cl.PRIVATE + p * cl.PRIVATE_SIZE
        assert (k.state[b + cl.P_DISC:b + cl.P_DISC + 6] == -1).all()
        assert (k.state[b + cl.P_SPENT:b + cl.P_SPENT + 4] == 0).all()
    assert (k.state[cl.DISC_N:cl.DISC_N + cl.SEATS] == 0).all()


# ------------------------------------------------------------------ 2. uniformity
#: places a hidden card can be in: 0..4 hand of seat p, 5..9 Monday discards of seat p,
#: 10 the deck, 11 + cell a face-down row card (cell = seat * 6 + column), 41 + day a Grey card
N_PLACES = 46
DECK = 10


@njit
def _places_of(state, where):
    """where[card] = the place of every Commitment card in ``state``."""
    n = state[cl.H_PLAYERS]
    for i in range(cl.N_COMMIT):
        where[i] = -1
    for p in range(n):
        b = cl.PRIVATE + p * cl.PRIVATE_SIZE
        for j in range(state[b + cl.P_HAND_N]):
            where[state[b + cl.P_HAND + j]] = p
        for j in range(state[cl.DISC_N + p]):
            where[state[b + cl.P_DISC + j]] = 5 + p
        for c in range(cl.COLS):
            if state[b + cl.P_CARD + c] >= 0:
                where[state[b + cl.P_CARD + c]] = 11 + p * cl.COLS + c
    for i in range(state[cl.H_DECK_LEFT]):
        where[state[cl.S_DECK + i]] = DECK
    for d in range(cl.DAYS):
        if state[cl.S_GREY + d] >= 0:
            where[state[cl.S_GREY + d]] = 41 + d


@njit
def _where_things_land(real, seed, samples, counts, tokens):
    """counts[card, place]: how often each card lands in each place; tokens[holder, kind]: how
    many tokens of each kind land with each holder (0..4 seat p held, 5 Grey Entity, 6 room,
    7 spent, 8 on face-down cards) over ``samples`` determinizations from the mover's views."""
    n = real[cl.H_PLAYERS]
    seat = cl.to_move(real)
    rng = np.zeros(4, np.uint64)
    seed_stream(rng, seed, 0, DET_STREAM)
    sample = np.zeros(cl.STATE_SIZE, np.int32)
    where = np.zeros(cl.N_COMMIT, np.int64)
    for _ in range(samples):
        if cl.determinize(cl.public_view(real), cl.private_view(real, seat), sample, rng) < 0:
            return False
        _places_of(sample, where)
        for c in range(cl.N_COMMIT):
            counts[c, where[c]] += 1
        for k in range(cl.N_KINDS):
            for p in range(n):
                b = cl.PRIVATE + p * cl.PRIVATE_SIZE
                tokens[p, k] += sample[b + cl.P_TOK + k]
                if k < 3:
                    for c in range(cl.COLS):
                        if sample[cl.ROW_CARD + p * cl.COLS + c] == cl.FACE_DOWN:
                            tokens[8, k] += sample[b + cl.P_PLUS + cl.COLS * k + c]
            tokens[5, k] += sample[cl.S_GREY_TOK + k]
            tokens[6, k] += sample[cl.S_ROOM + k]
            tokens[7, k] += sample[cl.S_SPENT + k]
    return True


def position(players, seed, game, steps, options=None):
    """The real state after ``steps`` random decisions of seeded game ``game``."""
    return harness.random_position(SPEC, params_of(players, options or {}), seed, game, steps)


def hidden_places(state):
    """{place: free slots} of the places hidden from the seat to move, and its hidden cards."""
    seat = int(cl.to_move(state))
    where = np.zeros(cl.N_COMMIT, np.int64)
    _places_of(state, where)
    b = cl.PRIVATE + seat * cl.PRIVATE_SIZE
    grey = int(state[cl.H_GREY])
    places = {}
    cards = []
    for c in range(cl.N_COMMIT):
        w = int(where[c])
        mine = w in (seat, 5 + seat) or 11 + seat * 6 <= w < 17 + seat * 6
        if w >= 11 and w < 41:
            mine |= state[cl.ROW_CARD + w - 11] >= 0  # face up
        if w >= 41:
            mine |= state[cl.ROW_CARD + grey * 6 + w - 41] >= 0 or state[b + cl.P_SEEN + w - 41] >= 0
        if w >= 0 and not mine:
            places[w] = places.get(w, 0) + 1
            cards.append(c)
    return places, cards


def _find(players, game, steps, want):
    """The first position at or after ``steps`` decisions that satisfies ``want``, in seeded
    random game ``game`` or the next ones."""
    for g in range(game, game + 50):
        k = KernelGame(SPEC, params_of(players, {}), 41, g)
        pick = np.random.default_rng(g)
        step = 0
        while k.to_move() >= 0:
            if step >= steps and want(k.state):
                return k.state
            moves = k.legal_moves()
            k.apply(int(moves[pick.integers(len(moves))]))
            step += 1
    raise AssertionError("no such position")


def _monday_after_discards(s):
    return s[cl.H_STAGE] == cl.STAGE_MONDAY and s[cl.DISC_N:cl.DISC_N + 5].sum() > 0 and \
        s[cl.DISC_N + cl.to_move(s)] == 0


def _grey_with_peeks_and_face_down(s):
    seat = cl.to_move(s)
    other = 1 - seat
    return (s[cl.H_STAGE] == cl.STAGE_MIDWEEK and s[cl.PEEKS + seat] != 0 and s[cl.PEEKS + other] != 0
            and (s[cl.ROW_CARD + other * 6:cl.ROW_CARD + other * 6 + 5] == cl.FACE_DOWN).any()
            and s[cl.H_GREY_HIDDEN] >= 2)


def _midweek_face_down_tokens(s):
    seat = cl.to_move(s)
    cells = [i for i in range(s[cl.H_PLAYERS] * 6) if i // 6 != seat
             and s[cl.ROW_CARD + i] == cl.FACE_DOWN and s[cl.ROW_NTOK + i] > 0]
    return s[cl.H_STAGE] == cl.STAGE_MIDWEEK and len(cells) > 0


FINDERS = {
    "3p-monday": (3, 3, 0, _monday_after_discards),
    "2p-grey": (2, 11, 10, _grey_with_peeks_and_face_down),
    "4p-midweek": (4, 7, 12, _midweek_face_down_tokens),
    "2p-midweek": (2, 4, 8, _midweek_face_down_tokens),
}


@pytest.mark.parametrize("name", list(FINDERS))
def test_determinize_each_hidden_card_lands_in_proportion_to_free_slots(name):
    players, game, steps, want = FINDERS[name]
    real = _find(players, game, steps, want)
    places, cards = hidden_places(real)
    # not vacuous: hidden cards and at least two places (hands, deck, discards, face-down cards)
    assert len(cards) >= 10 and len(places) >= 3, places
    samples = 20_000
    counts = np.zeros((cl.N_COMMIT, N_PLACES), np.int64)
    tokens = np.zeros((9, cl.N_KINDS), np.int64)
    assert _where_things_land(real, np.uint64(100 + list(FINDERS).index(name)), samples, counts, tokens)
    # (about 200 cards are tested over the positions: at p > 0.001 each, a sampler that is exactly
    # uniform fails some seed about one time in six; the seeds are fixed)
    keys = sorted(places)
    total = sum(places.values())
    expected = np.array([samples * places[w] / total for w in keys])
    worst = 1.0
    for c in cards:
        observed = counts[c, keys]
        assert observed.sum() == samples  # always in some hidden place
        p_value = chisquare(observed, expected).pvalue
        worst = min(worst, p_value)
        assert p_value > 0.001, (c, observed, expected, p_value)
    # every card the seat knows the place of stays there
    where = np.zeros(cl.N_COMMIT, np.int64)
    _places_of(real, where)
    for c in set(range(cl.N_COMMIT)) - set(cards):
        if where[c] >= 0:
            assert counts[c, where[c]] == samples, c
    print(f"\n  {name}: {len(cards)} hidden cards over places {places}, smallest p = {worst:.4f}")


@pytest.mark.parametrize("name", list(FINDERS))
def test_determinize_each_hidden_token_kind_lands_in_proportion_to_free_slots(name):
    """The hidden tokens of each kind spread over the hidden holders (the others' held and
    peek-spent tokens, the Grey Entity, the room) in proportion to their sizes; on face-down
    cards only +10, -10, ILLNESS, in proportion to their share of the hidden pool. (The counts of
    one kind over the holders are hypergeometric, less spread than the chi-squared test's
    multinomial model: the test is conservative.)"""
    players, game, steps, want = FINDERS[name]
    real = _find(players, game, steps, want)
    seat = int(cl.to_move(real))
    n = int(real[cl.H_PLAYERS])
    grey = int(real[cl.H_GREY])
    samples = 20_000
    counts = np.zeros((cl.N_COMMIT, N_PLACES), np.int64)
    tokens = np.zeros((9, cl.N_KINDS), np.int64)
    assert _where_things_land(real, np.uint64(8), samples, counts, tokens)
    # the hidden pool: held by the others, the Grey Entity, in the room, spent on others' peeks,
    # on others' face-down cards
    sizes = {p: int(real[cl.TOKENS_HELD + p]) for p in range(n) if p != seat}
    if grey >= 0:
        sizes[5] = int(real[cl.TOKENS_HELD + grey])
    sizes[6] = int(real[cl.H_ROOM])
    peeks = sum(int(real[cl.PEEK_N + p]) for p in range(n) if p != seat)
    faces = sum(int(real[cl.ROW_NTOK + i]) for i in range(n * 6)
                if i // 6 != seat and real[cl.ROW_CARD + i] == cl.FACE_DOWN)
    b = cl.PRIVATE + seat * cl.PRIVATE_SIZE
    own_spent = real[b + cl.P_SPENT:b + cl.P_SPENT + 4].astype(np.int64)
    meetings = sum(int(real[cl.ROW_CARD + i] == cl.FACE_DOWN) for i in range(n * 6))
    known_spent = own_spent.copy()
    known_spent[cl.MEETING] += meetings
    pool = (tokens[:7].sum(axis=0) - tokens[seat] + tokens[8] + tokens[7] - samples * known_spent) / samples
    # the pool is the same in every sample
    assert np.allclose(pool, np.round(pool)) and pool.sum() == sum(sizes.values()) + peeks + faces
    hidden_total = sum(sizes.values()) + peeks
    assert hidden_total >= 5 and len([s for s in sizes.values() if s]) >= 2  # not vacuous
    worst = 1.0
    # expected for the holders without a constraint, after the face-down cards took their share
    nm = pool[:3].sum()
    rest = pool.copy()
    rest[:3] -= faces * pool[:3] / nm if nm else 0
    for k in range(cl.N_KINDS):
        keys = [h for h, s in sizes.items() if s]
        observed = [int(tokens[h, k]) for h in keys]
        expected = [samples * sizes[h] * rest[k] / hidden_total for h in keys]
        if peeks:
            keys.append(7)
            observed.append(int(tokens[7, k] - samples * known_spent[k]))
            expected.append(samples * peeks * rest[k] / hidden_total)
        if sum(observed) == 0:
            continue
        expected = np.array(expected) * sum(observed) / sum(expected)
        p_value = chisquare(observed, expected).pvalue
        worst = min(worst, p_value)
        assert p_value > 0.001, (k, keys, observed, expected, p_value)
    if faces:
        assert tokens[8, cl.MEETING] == 0
        observed = tokens[8, :3]
        expected = samples * faces * pool[:3] / nm
        keep = expected > 0
        p_value = chisquare(observed[keep], expected[keep]).pvalue
        worst = min(worst, p_value)
        assert p_value > 0.001, (observed, expected, p_value)
    print(f"\n  {name}: hidden token pool {pool.tolist()} over {sizes}, {peeks} peeks, "
          f"{faces} on face-down cards, smallest p = {worst:.4f}")
