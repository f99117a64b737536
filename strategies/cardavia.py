"""Built-in Cardavia strategies.

Observation layout: ``simulate.games.cardavia`` (``public`` holds the public state part at the same
offsets; ``private`` is ``[hand size, hand cards ascending]``). A move is
``(card << 52) | mask of the captured card ids``; ``mask == 0`` places the card.

The heuristics share one evaluation, :func:`move_value`, an estimate in points of what a move
gains for the team, and differ in what they count:

- ``capture-max`` counts what a capture earns at once: its bonuses (Scua, Picada, Simili,
  Quadriglia), the prize cards taken (La Mata, 10 of coins, Fante of cups) and a little for each
  card and sword towards the majorities; with nothing to take it places its least useful card.
- ``guard`` is capture-max that also subtracts what the next player, an opponent, can expect to
  score from the table it leaves: a Scua when what is left is one card or numerals summing to at
  most 10, a Picada on the card it places, the prize cards left lying there; each weighted by the
  chance that the opponent holds a card of the needed rank (from the cards still unseen).
- ``swords`` is guard with an eye on the long prizes: swords count much more (most swords, and
  the Napula run from the Asso, whose Asso-2-3 are worth the most), and prize cards and swords
  are the last cards it places.
"""
import numpy as np
from numba import njit

from simulate.games import cardavia as ca
from simulate.kernel import STRATEGY_SIGNATURE, popcount

from . import Strategy
from .common import random_move

COURT_MASK = np.int64(((1 << 52) - 1) ^ ((1 << 40) - 1))  # card ids 40..51
SWORD_MASK = np.int64(sum(1 << (4 * r) for r in range(13)))
PRIZE_MASK = np.int64((1 << ca.MATA) | (1 << ca.TEN_OF_COINS) | (1 << ca.FANTE_OF_CUPS))
LOW_SWORDS = np.int64((1 << 0) | (1 << 4) | (1 << 8))  # Asso, 2, 3 of swords


@njit(cache=True, inline="always")
def unseen_of_rank(public, private, rank):
    """Cards of ``rank`` (1..13) that may be in another hand: not on the table, not taken,
    not in my hand."""
    u = 0
    for s in range(4):
        if public[ca.CARD_PUB + 4 * (rank - 1) + s] == ca.PUB_HAND:
            u += 1
    for j in range(private[0]):
        if (private[1 + j] >> 2) + 1 == rank:
            u -= 1
    return u


@njit(cache=True, inline="always")
def p_holds(u, hand, unseen):
    """Chance that a hand of ``hand`` cards drawn from ``unseen`` cards holds at least one of
    ``u`` given ones."""
    if u <= 0 or hand <= 0:
        return 0.0
    none = 1.0
    for i in range(hand):
        if unseen - i <= 0:
            return 1.0
        none *= (unseen - u - i) / (unseen - i)
        if none <= 0.0:
            return 1.0
    return 1.0 - none


@njit(cache=True, inline="always")
def card_worth(card, sword_weight, low_sword_bonus):
    """What a card is worth to the team that ends up with it (prize card, sword, card count)."""
    w = 0.08
    if (np.int64(1) << card) & PRIZE_MASK:
        w += 1.0
    if (card & 3) == ca.SWORDS:
        w += sword_weight
        if (np.int64(1) << card) & LOW_SWORDS:
            w += low_sword_bonus
    return w


@njit(cache=True, inline="always")
def mask_worth(m, sword_weight, low_sword_bonus):
    w = 0.0
    while m != 0:
        low = m & -m
        c = 0
        while (low >> c) != 1:
            c += 1
        w += card_worth(c, sword_weight, low_sword_bonus)
        m ^= low
    return w


@njit(cache=True, inline="always")
def move_value(public, private, move, table, table_n, table_sum, table_courts,
               guard, sword_weight, low_sword_bonus):
    """Estimated points the move gains for my team (see the module docstring)."""
    card = np.int32(move >> ca.MOVE_SHIFT)
    mask = move & ca.MASK52
    turn = public[ca.H_TURN]
    last_play = turn == ca.TURNS - 1
    value = 0.0
    if mask != 0:
        taken = popcount(mask)
        if taken == table_n and (public[ca.H_LAST_SWEEP] != 0 or not last_play):
            value += 1.0  # Scua
        last = public[ca.H_LAST_PLACED]
        if last >= 0 and mask == (np.int64(1) << last):
            value += 1.0  # Picada
        suit_bits = np.int64(0x1111111111111) << (card & 3)
        if (mask & ~suit_bits) == 0:
            value += 1.0  # Simili
        if taken >= 3:
            value += 1.0  # Quadriglia
        value += mask_worth(mask, sword_weight, low_sword_bonus)
        value += card_worth(card, sword_weight, low_sword_bonus)
        rest = table & ~mask
        rest_n = table_n - taken
        if card < ca.N_NUMERALS:
            rest_sum = table_sum - ((card >> 2) + 1)
            rest_courts = table_courts
        else:
            rest_sum = table_sum
            rest_courts = table_courts - 1
    else:
        # placing gives the card away to whoever takes it next
        value -= 0.5 * card_worth(card, sword_weight, low_sword_bonus)
        rest = table | (np.int64(1) << card)
        rest_n = table_n + 1
        if card < ca.N_NUMERALS:
            rest_sum = table_sum + (card >> 2) + 1
            rest_courts = table_courts
        else:
            rest_sum = table_sum
            rest_courts = table_courts + 1
    if guard == 0 or last_play or rest_n == 0:
        return value
    # what the next player (an opponent) may score from the table I leave
    seat = public[ca.H_TO_MOVE]
    nxt = seat + 1
    if nxt == ca.PLAYERS:
        nxt = 0
    played_after = turn + 1  # turns done once I have played
    opp_hand = ca.HAND_SIZE - (played_after - nxt + 3) // 4
    unseen = ca.TURNS - played_after - (private[0] - 1)  # cards in the other three hands
    sweep_rank = 0
    if rest_n == 1:
        c = 0
        while (rest >> c) != 1:
            c += 1
        sweep_rank = (c >> 2) + 1
    elif rest_courts == 0 and rest_sum <= 10:
        sweep_rank = rest_sum
    threat = 0.0
    if sweep_rank > 0:
        p = p_holds(unseen_of_rank(public, private, sweep_rank), opp_hand, unseen)
        threat += p * (1.0 + mask_worth(rest, sword_weight, low_sword_bonus))
    if mask == 0:
        # Picada on the card I place (the rank's other unseen cards)
        p = p_holds(unseen_of_rank(public, private, (card >> 2) + 1), opp_hand, unseen)
        threat += p * (1.0 + card_worth(card, sword_weight, low_sword_bonus))
    # prize cards and low swords left lying are at risk from anyone
    exposed = rest & (PRIZE_MASK | LOW_SWORDS)
    if exposed != 0 and sweep_rank == 0:
        threat += 0.3 * mask_worth(exposed, sword_weight, low_sword_bonus)
    return value - threat


@njit(cache=True, inline="always")
def best_move(public, private, moves, n_moves, guard, sword_weight, low_sword_bonus):
    table = ca.table_mask(public)
    table_n = public[ca.H_TABLE_N]
    table_sum = 0
    table_courts = 0
    for i in range(table_n):
        c = public[ca.TABLE + i]
        if c < ca.N_NUMERALS:
            table_sum += (c >> 2) + 1
        else:
            table_courts += 1
    best = 0
    best_value = -1e9
    for i in range(n_moves):
        v = move_value(public, private, moves[i], table, table_n, table_sum, table_courts,
                       guard, sword_weight, low_sword_bonus)
        if v > best_value:
            best, best_value = i, v
    return best


@njit(STRATEGY_SIGNATURE, cache=True)
def capture_max(public, private, moves, n_moves, rng):
    return best_move(public, private, moves, n_moves, 0, 0.15, 0.0)


@njit(STRATEGY_SIGNATURE, cache=True)
def guard(public, private, moves, n_moves, rng):
    return best_move(public, private, moves, n_moves, 1, 0.15, 0.0)


@njit(STRATEGY_SIGNATURE, cache=True)
def swords(public, private, moves, n_moves, rng):
    return best_move(public, private, moves, n_moves, 1, 0.4, 0.8)


STRATEGIES = [
    Strategy("cardavia", "random", "uniformly random legal move (places often, captures sometimes)",
             random_move),
    Strategy("cardavia", "capture-max",
             "takes the capture worth most now (bonuses, prize cards, cards, swords); else places "
             "its least useful card", capture_max),
    Strategy("cardavia", "guard",
             "capture-max minus what the next opponent can expect to score: sweepable table, "
             "Picada on the placed card, exposed prize cards", guard),
    Strategy("cardavia", "swords",
             "guard that prizes swords and the Napula run (Asso-2-3 most) and places them last",
             swords),
]
