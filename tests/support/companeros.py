"""Compañeros pieces more than one test module uses: building states by hand, the state invariant
the random games and the determinizations keep (in any game of a CO-5 match), and what a
determinization keeps of the real state (the contract's ``invariant`` and ``sample_check``)."""
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
def game_invariant(state):
    """The invariant of one game (of a CO-5 match, the first: SCORE and CARDS_TAKEN are tied to
    this game's taken masks)."""
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


@njit
def invariant(state):
    """0, or an error code: ``game_invariant`` in any game of a CO-5 match. Points accumulate over
    the match, so SCORE and CARDS_TAKEN are checked on a copy holding this game's share."""
    if state[co.H_MATCH_GAMES] == 1:
        return game_invariant(state)
    buf = state.copy()
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
    return game_invariant(buf)


@njit
def sample_check(real, sample, seat):
    """0, or an error code: a determinization ``sample`` of ``real`` for ``seat`` keeps every
    hand's size and draws nothing but the other seats' hands."""
    n = real[co.H_PLAYERS]
    for p in range(co.MAX_PLAYERS):
        base = co.PRIVATE + p * co.PRIVATE_SIZE
        if sample[base] != real[base]:
            return 4  # every hand keeps its size
        for i in range(1, co.PRIVATE_SIZE):
            if sample[base + i] != real[base + i] and (p == seat or p >= n):
                return 5  # only the other seats' hands are drawn
    return 0


def not_position(state):
    """True at the indices of ``state`` that are not part of its position (``not_position_fields``:
    the scratch area, and the taking bookkeeping outside the take phase)."""
    mask = np.zeros(len(state), bool)
    for _name, start, end in co_text.not_position_fields(state):
        mask[start:end] = True
    return mask


def dealt_by_chance(kind, outcome):
    """(seat, DEALT_KINDS name) of every card a chance event deals a seat: each game's hands (the
    display is dealt to nobody)."""
    if kind != "deal":
        return []
    return [(s, f"{c['colour']} {c['value']}") for s, hand in enumerate(outcome["hands"]) for c in hand]
