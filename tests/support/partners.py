"""Partners pieces more than one test module uses: the state invariant the random games and the
determinizations keep, and what a determinization keeps of the real state (PA-8, PA-9; the
contract's ``invariant`` and ``sample_check``)."""
import numpy as np
from numba import njit

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.partners import notation as pa_text
from tourney_sim.simulate.games.partners import rules as pa

SPEC = get_game("partners")
@njit
def invariant(state):
    ring = state[pa.H_RING]
    n_cards = state[pa.H_N_CARDS]
    seen = np.zeros(pa.MAX_CARDS, np.int64)
    for p in range(4):
        base = pa.PRIVATE + p * pa.PRIVATE_SIZE
        if state[base] != state[pa.HAND_COUNT + p]:
            return 1
        for j in range(state[base]):
            seen[state[base + 1 + j]] += 1
        if state[pa.H_PHASE] == pa.PHASE_EXCHANGE and state[base + pa.PV_GIVEN] >= 0:
            seen[state[base + pa.PV_GIVEN]] += 1  # given, not yet delivered
    for i in range(state[pa.S_DECK_POS], n_cards):
        seen[state[pa.DECK + i]] += 1
    pile = n_cards - state[pa.S_DECK_POS]
    if pile != state[pa.H_PILE]:
        return 2
    for c in range(n_cards):
        if state[pa.CARD_PUB + c] != pa.CP_UNSEEN:
            seen[c] += 1
        if seen[c] != 1:
            return 3  # every card in exactly one place
    cnt = np.zeros(pa.MAX_RING, np.int64)
    col = np.full(pa.MAX_RING, -1, np.int64)
    for c in range(4):
        out = 0
        start = 0
        home = 0
        mask = 0
        for i in range(4):
            t = state[pa.PIECE + 4 * c + i]
            if i > 0 and t < state[pa.PIECE + 4 * c + i - 1]:
                return 4  # kept ascending
            if t == pa.OUTSIDE:
                out += 1
            elif t == 0:
                start += 1
            elif t <= ring:
                a = (t - 1 + state[pa.H_SECTION] * c) % ring
                if col[a] >= 0 and col[a] != c:
                    return 5  # no two colours on one space
                col[a] = c
                cnt[a] += 1
            elif t <= ring + state[pa.H_HOUSE]:
                home += 1
                if mask & (1 << (t - ring - 1)):
                    return 6  # a house space holds one piece
                mask |= 1 << (t - ring - 1)
            else:
                return 7
        if out != state[pa.OUT + c] or start != state[pa.START_CNT + c] or home != state[pa.HOME + c] \
                or mask != state[pa.HOUSE_MASK + c]:
            return 8  # 16 pieces, each in exactly one place
    for a in range(ring):
        if cnt[a] != state[pa.RING_CNT + a] or col[a] != state[pa.RING_COL + a]:
            return 9
    return 0


@njit
def _in_hand(state, p, card):
    base = pa.PRIVATE + p * pa.PRIVATE_SIZE
    for j in range(state[base]):
        if state[base + pa.PV_HAND + j] == card:
            return True
    return False


@njit
def sample_check(real, sample, seat):
    """0, or an error code: what a determinization ``sample`` of ``real`` for ``seat`` keeps
    beyond the views (PA-9): the pile position, the card given to the partner with the partner
    while unplayed, every exchange slot's card from the partner, held or played, the seats that
    already gave in the exchange, every hand's size, and ``seat``'s own hand."""
    if sample[pa.S_DECK_POS] != real[pa.S_DECK_POS]:
        return 4
    mine = pa.PRIVATE + seat * pa.PRIVATE_SIZE
    partner = seat ^ 2
    pb = pa.PRIVATE + partner * pa.PRIVATE_SIZE
    if real[pa.H_PHASE] == pa.PHASE_PLAY:
        given = real[mine + pa.PV_GIVEN]
        if real[pa.CARD_PUB + given] == pa.CP_UNSEEN and not _in_hand(sample, partner, given):
            return 5  # the card given to the partner stays with the partner while unplayed
        if sample[pb + pa.PV_RECEIVED] != given or sample[pb + pa.PV_GIVEN] != real[mine + pa.PV_RECEIVED]:
            return 6
        for q in range(4):  # every exchange slot: q's card came from q ^ 2, held or played
            r = sample[pa.PRIVATE + q * pa.PRIVATE_SIZE + pa.PV_RECEIVED]
            if r < 0 or sample[pa.PRIVATE + (q ^ 2) * pa.PRIVATE_SIZE + pa.PV_GIVEN] != r:
                return 7
            if sample[pa.CARD_PUB + r] == pa.CP_UNSEEN and not _in_hand(sample, q, r):
                return 8
    else:
        for q in range(4):
            b = pa.PRIVATE + q * pa.PRIVATE_SIZE
            if (sample[b + pa.PV_GIVEN] >= 0) != (real[b + pa.PV_GIVEN] >= 0) or sample[b + pa.PV_RECEIVED] != -1:
                return 9  # the seats that already gave, as in the real exchange
    for p in range(4):
        base = pa.PRIVATE + p * pa.PRIVATE_SIZE
        if sample[base] != real[base]:
            return 10
        for i in range(1, 1 + pa.HAND_SIZE):
            if p == seat and sample[base + i] != real[base + i]:
                return 11
    return 0


def not_position(state):
    """True at the indices of ``state`` that are not part of its position (the dealt part of the
    deck and the work tables, ``notation.scratch_mask``)."""
    return pa_text.scratch_mask(state)


def dealt_by_chance(kind, outcome):
    """(seat, DEALT_KINDS name) of every card a chance event deals a seat: each deal's hands, a
    card by its kind (``"Swap#3"`` is a Swap)."""
    if kind != "deal":
        return []
    return [(s, card.partition("#")[0]) for s, hand in enumerate(outcome["hands"]) for card in hand]
