"""Compañeros pieces more than one test module uses: building states by hand, the state invariant
the random games and the determinizations keep, and redealing the hands a seat cannot see (no
peeking)."""
import numpy as np
from numba import njit

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.companeros import notation as co_text
from tourney_sim.simulate.games.companeros import rules as co
from tourney_sim.simulate.seeding import new_stream

SPEC = get_game("companeros")
RED, YELLOW, GREEN, BLUE, PURPLE, ORANGE = range(6)


def card(colour, value):
    return colour * 10 + value - 1


def build_state(n, hands, display, starter=0, match_games=1):
    """A kernel state at the start of a round with the given hands and display; the remaining
    cards count as taken earlier by seat n - 1 (they are out of play)."""
    state = np.zeros(co.STATE_SIZE, np.int32)
    co.init(state, co.make_params(n, {"match_games": match_games}), new_stream(0, 0, 0))
    state[co.DISPLAY_SUM:co.DISPLAY_SUM + 6] = 0
    state[co.DISPLAY_MASK:co.DISPLAY_MASK + 6] = 0
    state[co.TAKEN_MASK:co.TAKEN_MASK + 36] = 0
    for c in display:
        state[co.DISPLAY_SUM + c // 10] += c % 10 + 1
        state[co.DISPLAY_MASK + c // 10] |= 1 << (c % 10)
    state[co.H_DISPLAY_CARDS] = len(display)
    used = set(display)
    for p, hand in enumerate(hands):
        set_hand(state, p, hand)
        used |= set(hand)
    for c in set(range(n * 10)) - used:
        state[co.TAKEN_MASK + (n - 1) * 6 + c // 10] |= 1 << (c % 10)
    state[co.H_STARTER] = state[co.H_TO_MOVE] = state[co.H_GAME_STARTER] = starter
    return state


def set_hand(state, seat, cards):
    base = co.PRIVATE + seat * co.PRIVATE_SIZE
    state[base:base + co.PRIVATE_SIZE] = -1
    state[base] = len(cards)
    state[base + 1:base + 1 + len(cards)] = sorted(cards)


def play(state, moves):
    chance = new_stream(0, 0, 0)
    for m in moves:
        buf = np.zeros(co.MAX_MOVES, np.int64)
        n = co.legal_moves(state, buf)
        assert m in buf[:n], (m, buf[:n])
        co.apply_move(state, m, chance)


def display_cards(state):
    return co_text.display_cards(state)


@njit
def invariant(state):
    n = state[co.H_PLAYERS]
    seen = np.zeros(co.MAX_CARDS, np.int64)
    points = np.zeros(co.MAX_PLAYERS, np.int64)
    taken = np.zeros(co.MAX_PLAYERS, np.int64)
    for c in range(n * co.VALUES):
        colour, bit = c // 10, 1 << (c % 10)
        for p in range(n):
            base = co.PRIVATE + p * co.PRIVATE_SIZE
            for i in range(state[base]):
                if state[base + 1 + i] == c:
                    seen[c] += 1
            if state[co.TAKEN_MASK + p * 6 + colour] & bit:
                seen[c] += 1
                points[p] += c % 10 + 1
                taken[p] += 1
            if state[co.PLAYED + p] == c:
                seen[c] += 1
        if state[co.DISPLAY_MASK + colour] & bit:
            seen[c] += 1
    for c in range(n * co.VALUES):
        if seen[c] != 1:
            return 1  # every card in exactly one place
    display = 0
    for colour in range(n):
        total = 0
        for v in range(10):
            if state[co.DISPLAY_MASK + colour] >> v & 1:
                total += v + 1
                display += 1
        if total != state[co.DISPLAY_SUM + colour]:
            return 3
    if display != state[co.H_DISPLAY_CARDS]:
        return 4
    for p in range(n):
        if state[co.SCORE + p] != points[p] or state[co.CARDS_TAKEN + p] != taken[p]:
            return 2  # points taken equal the values of the cards removed from the display
        base = co.PRIVATE + p * co.PRIVATE_SIZE
        size = state[base]
        for i in range(1, size):
            if state[base + i] >= state[base + i + 1]:
                return 5  # a hand lists its cards ascending
        for i in range(size + 1, co.PRIVATE_SIZE):
            if state[base + i] != -1:
                return 5  # ... and -1 after them
    for colour in range(co.MAX_PLAYERS):
        total = 0
        for p in range(n):
            c = state[co.PLAYED + p]
            if c >= 0 and c // 10 == colour:
                total += c % 10 + 1
        if total != state[co.PLAYED_SUM + colour]:
            return 6
        mask = 0
        for p in range(n):
            c = state[co.PLAYED + p]
            if c >= 0 and c // 10 == colour:
                mask |= 1 << (c % 10)
        if mask != state[co.PLAYED_MASK + colour]:
            return 7
    return 0


def redeal_other_hands(state, seat, rng):
    """Shuffle the cards of every hand but ``seat``'s among those hands (sizes kept)."""
    n = state[co.H_PLAYERS]
    others = [p for p in range(n) if p != seat]
    pool = [c for p in others for c in co_text.hand_cards(state, p)]
    rng.shuffle(pool)
    for p in others:
        size = state[co.PRIVATE + p * co.PRIVATE_SIZE]
        set_hand(state, p, pool[:size])
        pool = pool[size:]
    return state
