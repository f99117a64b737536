"""Built-in Cardavia strategies.

Observation layout: ``tourney_sim.simulate.games.cardavia`` (``public`` holds the public state part at the same
offsets; ``private`` is ``[hand size, hand cards ascending]``). A move is
``(card << 52) | mask of the captured card ids``; ``mask == 0`` places the card.

The heuristics share one evaluation, :func:`move_value`, an estimate in points of what a move
gains for the team, and differ in what they count:

- ``capture-max`` counts what a capture earns at once: its bonuses (Scua, Picada, Simili,
  Quadriglia), the prize cards taken (La Mata, 10 of coins, Fante of cups) and a little for each
  card and sword towards the majorities; with nothing to take it places its least useful card
  (placing a card is counted as giving half its worth away).
- ``guard`` is capture-max that also subtracts what the next player, an opponent, can expect to
  score from the table it leaves: a Scua when what is left is one card or numerals summing to at
  most 10, a Picada on the card it places, the prize cards left lying there; each weighted by the
  chance that the opponent holds a card of the needed rank (from the cards still unseen: neither
  on the table, nor taken, nor in its own hand).
- ``swords`` is guard with an eye on the long prizes: swords count much more (most swords, and
  the Napula run from the Asso, whose Asso-2-3 are worth the most), so it takes them first and
  places them last.
"""
import numpy as np
from numba import njit

from tourney_sim.simulate.games import cardavia as ca
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE, popcount

from . import Strategy
from .common import random_move

SWORD_MASK = ca.SWORD_MASK
PRIZE_MASK = np.int64((1 << ca.MATA) | (1 << ca.TEN_OF_COINS) | (1 << ca.FANTE_OF_CUPS))
LOW_SWORDS = np.int64((1 << 0) | (1 << 4) | (1 << 8))  # Asso, 2, 3 of swords
CARD_WORTH = 0.08  # one card of 52 towards the 2 points of most cards


@njit(cache=True, inline="always")
def unseen_counts(public, private):
    """Per rank, the cards that may be in another hand (not on the table, not taken, not in my
    hand), packed 3 bits per rank: rank r (1..13) at bits 3r..3r+2."""
    packed = np.int64(0)
    for c in range(ca.N_CARDS):
        if public[ca.CARD_PUB + c] == ca.PUB_HAND:
            packed += np.int64(1) << (3 * ((c >> 2) + 1))
    for j in range(private[0]):
        packed -= np.int64(1) << (3 * ((private[1 + j] >> 2) + 1))
    return packed


@njit(cache=True, inline="always")
def p_holds(u, hand, unseen):
    """Chance that a hand of ``hand`` cards drawn from ``unseen`` cards holds at least one of
    ``u`` given ones."""
    if u <= 0 or hand <= 0:
        return 0.0
    none = 1.0
    for i in range(hand):
        if unseen - u - i <= 0:
            return 1.0
        none *= (unseen - u - i) / (unseen - i)
    return 1.0 - none


@njit(cache=True, inline="always")
def card_worth(card, sword_weight, low_sword_bonus):
    """What a card is worth to the team that ends up with it (prize card, sword, card count)."""
    bit = np.int64(1) << card
    w = CARD_WORTH
    if bit & PRIZE_MASK:
        w += 1.0
    if bit & SWORD_MASK:
        w += sword_weight
        if bit & LOW_SWORDS:
            w += low_sword_bonus
    return w


@njit(cache=True, inline="always")
def mask_worth(m, sword_weight, low_sword_bonus):
    return (CARD_WORTH * popcount(m) + popcount(m & PRIZE_MASK)
            + sword_weight * popcount(m & SWORD_MASK) + low_sword_bonus * popcount(m & LOW_SWORDS))


@njit(cache=True, inline="always")
def move_value(public, move, table, table_n, table_sum, table_courts, last_play,
               guard, unseen, p1, p2, p3, p4, sword_weight, low_sword_bonus):
    """Estimated points the move gains for my team (see the module docstring). ``unseen`` is
    :func:`unseen_counts`; ``p1..p4`` the chance that the next player holds one of 1..4 cards."""
    card = np.int32(move >> ca.MOVE_SHIFT)
    mask = move & ca.MASK52
    value = 0.0
    if mask != 0:
        taken = popcount(mask)
        if taken == table_n and (public[ca.H_LAST_SWEEP] != 0 or not last_play):
            value += 1.0  # Scua
        last = public[ca.H_LAST_PLACED]
        if last >= 0 and mask == (np.int64(1) << last):
            value += 1.0  # Picada
        if (mask & ~(SWORD_MASK << (card & 3))) == 0:
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
    sweep_rank = 0
    if rest_n == 1:
        sweep_rank = (ca.cttz(rest) >> 2) + 1
    elif rest_courts == 0 and rest_sum <= 10:
        sweep_rank = rest_sum
    threat = 0.0
    if sweep_rank > 0:
        u = (unseen >> (3 * sweep_rank)) & 7
        p = p1 if u == 1 else p2 if u == 2 else p3 if u == 3 else p4 if u == 4 else 0.0
        threat += p * (1.0 + mask_worth(rest, sword_weight, low_sword_bonus))
    if mask == 0:
        # a Picada on the card I place (by the rank's other unseen cards)
        u = (unseen >> (3 * ((card >> 2) + 1))) & 7
        p = p1 if u == 1 else p2 if u == 2 else p3 if u == 3 else p4 if u == 4 else 0.0
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
    for i in range(public[ca.H_TABLE_NUMERALS]):
        table_sum += (public[ca.TABLE + i] >> 2) + 1
    table_courts = table_n - public[ca.H_TABLE_NUMERALS]
    turn = public[ca.H_TURN]
    last_play = turn == ca.TURNS - 1
    unseen = np.int64(0)
    p1 = p2 = p3 = p4 = 0.0
    if guard != 0 and not last_play:
        unseen = unseen_counts(public, private)
        seat = public[ca.H_TO_MOVE]
        nxt = seat + 1 if seat + 1 < ca.PLAYERS else 0
        done = turn + 1  # turns played once I have played
        opp_hand = ca.HAND_SIZE - (done - nxt + 3) // 4
        pool = ca.TURNS - done - (private[0] - 1)  # cards in the other three hands
        p1 = p_holds(1, opp_hand, pool)
        p2 = p_holds(2, opp_hand, pool)
        p3 = p_holds(3, opp_hand, pool)
        p4 = p_holds(4, opp_hand, pool)
    best = 0
    best_value = -1e9
    for i in range(n_moves):
        v = move_value(public, moves[i], table, table_n, table_sum, table_courts, last_play,
                       guard, unseen, p1, p2, p3, p4, sword_weight, low_sword_bonus)
        if v > best_value:
            best, best_value = i, v
    return best


@njit(STRATEGY_SIGNATURE, cache=True)
def capture_max(public, private, moves, n_moves, rng, params):
    return best_move(public, private, moves, n_moves, 0, 0.15, 0.0)


@njit(STRATEGY_SIGNATURE, cache=True)
def guard(public, private, moves, n_moves, rng, params):
    return best_move(public, private, moves, n_moves, 1, 0.15, 0.0)


@njit(STRATEGY_SIGNATURE, cache=True)
def swords(public, private, moves, n_moves, rng, params):
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
