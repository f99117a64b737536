"""Partners pieces more than one test module uses: the state invariant the random games and the
determinizations keep, and changing the cards a seat cannot see (no peeking)."""
import numpy as np
from numba import njit

from tourney_sim.simulate.games import get_game
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


def hide_cards(state, seat, rng):
    """Redeal every card the seat cannot see: other hands, pending given cards, the pile."""
    pool, slots = [], []
    for p in range(4):
        if p == seat:
            continue
        base = pa.PRIVATE + p * pa.PRIVATE_SIZE
        for j in range(state[base]):
            slots.append(base + 1 + j)
        if state[pa.H_PHASE] == pa.PHASE_EXCHANGE and state[base + pa.PV_GIVEN] >= 0:
            slots.append(base + pa.PV_GIVEN)
    for i in range(state[pa.S_DECK_POS], state[pa.H_N_CARDS]):
        slots.append(pa.DECK + i)
    pool = [int(state[s]) for s in slots]
    rng.shuffle(pool)
    for s, c in zip(slots, pool):
        state[s] = c
    for p in range(4):
        if p != seat:
            base = pa.PRIVATE + p * pa.PRIVATE_SIZE
            state[base + 1:base + 1 + state[base]] = sorted(state[base + 1:base + 1 + state[base]])
    return state
