"""Cardavia: the apprentice's features of a legal move (what the move takes, what it gives away,
what it leaves exposed to the next player, an opponent, and where the majorities stand). Read
only from the deciding seat's views.

The apprentice (issue 41) scores a legal move by the dot product of a learned weight vector with
the move's feature vector and plays the best-scoring move. :func:`move_features` takes exactly
what a strategy sees (``public``, ``private``, ``moves``, ``n_moves``: see ``kernel.py``), so it
cannot peek. The deciding seat is ``public[H_TO_MOVE]``, its team ``seat & 1``.

A move is ``(card << MOVE_SHIFT) | captured`` (``captured == 0``: the card is placed). What a move
*gains* is the cards it brings to my team's pile: a capture the captured cards and the played card;
on the deal's last turn (the 48th, ``H_TURN`` 47) also what the rules then hand over, the table
left to the team that captured last (me, if I capture; else whoever did, with my placed card).
What it *loses* is what goes to the other team so (a placement on the last turn when they
captured last). The material features count gains minus losses. "Unseen" cards are those in some
hand (``CARD_PUB == PUB_HAND``) but not in mine; the chance that the next player (an opponent)
holds a card of a rank is hypergeometric over them (its hand size follows from the turn). Points of
the bonuses and prizes are the component table's (the public block ``POINTS``).

- ``place``: 1 if the card is placed (captures nothing), else 0.
- ``cards``: cards gained - lost, / 8, clipped to [-1, 1]; 0 once the most-cards prize is decided
  (one team ahead by more than the cards not yet taken).
- ``swords``: swords gained - lost, / 4, clipped; 0 once the most-swords prize is decided.
- ``low_swords``: the swords Asso, 2, 3 (the Napula run's core) gained - lost, / 3.
- ``prizes``: the prize points of La Mata, the 10 of coins and the Fante of cups gained - lost,
  / 3, clipped to [-1, 1].
- ``bonus``: the capture's bonus points (Scua, Picada, Simili, Quadriglia, each at its points)
  / 4 (1 with the default points when all four apply).
- ``sweep``: 1 if the capture empties the table (the next player must place), even where no Scua
  scores (the last turn without ``last_sweep_scores``).
- ``capture_late``: for a capture, the share of the deal's turns already played (turn / 47): the
  last capture claims the table at the deal's end.
- ``place_prize``: 1 if the placed card is a prize card (La Mata, 10 of coins, Fante of cups).
- ``place_sword``: 1 if the placed card is a sword.
- ``place_value``: the placed card's value / 10 if a numeral, 0 if a court.
- ``place_court``: 1 if the placed card is a court (only a card of its rank takes it).
- ``own_match``: 1 if the placed card's rank is also in the rest of my hand (I could take it
  back myself).
- ``sweep_threat``: the chance that the next player can sweep the table I leave: one card left,
  or only numerals summing to at most 10 (then the chance it holds the rank that takes them all);
  0 on the last turn or when I sweep.
- ``picada_threat``: for a placement, the chance that the next player holds a card of its rank
  (a Picada for them); 0 for a capture or on the last turn.
- ``exposed_risk``: over the prize cards and the swords Asso, 2, 3 I leave on the table, the sum
  of the chances that the next player holds a card of their rank, / 2, clipped to 1; 0 on the
  last turn.
- ``rest_cards``: the cards left on the table after the move / 10, clipped to 1.
- ``capture_threat``: the chance that the next player holds a card that captures anything from
  the table I leave (a rank some set of the numerals left adds up to, or the rank of a court
  left); 0 on the last turn or when I sweep.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...kernel import popcount
from .rules import (CARD_PUB, FANTE_OF_CUPS, H_DEAL_STARTER, H_LAST_CAPTURER, H_LAST_PLACED,
                    H_LAST_SWEEP, H_TABLE_N, H_TABLE_NUMERALS, H_TO_MOVE, H_TURN, HAND_SIZE, MASK52,
                    MATA, MOVE_SHIFT, N_CARDS, N_NUMERALS, N_STATS, PLAYERS, POINTS, PUB_HAND,
                    STAT_CARDS, STAT_FANTE_OF_CUPS, STAT_MATA, STAT_PICADA, STAT_QUADRIGLIA,
                    STAT_SCUA, STAT_SIMILI, STAT_SWORDS, STAT_TEN_OF_COINS, SWORD_MASK, TABLE,
                    TEAM_STATS, TEN_OF_COINS, TURNS, cttz, table_mask)

FEATURES = (
    ("place", "1 if the card is placed (captures nothing); {0, 1}"),
    ("cards", "cards gained - lost / 8, clipped; 0 once most cards is decided; [-1, 1]"),
    ("swords", "swords gained - lost / 4, clipped; 0 once most swords is decided; [-1, 1]"),
    ("low_swords", "swords Asso, 2, 3 (Napula) gained - lost / 3; [-1, 1]"),
    ("prizes", "prize points (Mata, 10 of coins, Fante of cups) gained - lost / 3, clipped; [-1, 1]"),
    ("bonus", "the capture's bonus points (Scua, Picada, Simili, Quadriglia) / 4; [0, 1] at the default points"),
    ("sweep", "1 if the capture empties the table; {0, 1}"),
    ("capture_late", "for a capture, turn / 47 (the last capture claims the table); [0, 1]"),
    ("place_prize", "1 if the placed card is a prize card; {0, 1}"),
    ("place_sword", "1 if the placed card is a sword; {0, 1}"),
    ("place_value", "the placed card's value / 10 if a numeral, 0 if a court; [0, 1]"),
    ("place_court", "1 if the placed card is a court; {0, 1}"),
    ("own_match", "1 if I still hold another card of the placed card's rank; {0, 1}"),
    ("sweep_threat", "chance the next player (an opponent) can sweep the table I leave; [0, 1]"),
    ("picada_threat", "for a placement, chance the next player holds its rank (a Picada); [0, 1]"),
    ("exposed_risk", "prize cards and low swords left on the table: sum of chances the next player holds "
                     "their rank / 2, clipped; [0, 1]"),
    ("rest_cards", "cards left on the table after the move / 10, clipped; [0, 1]"),
    ("capture_threat", "chance the next player holds a card that captures something from the table I leave; [0, 1]"),
)
N_FEATURES = len(FEATURES)
(F_PLACE, F_CARDS, F_SWORDS, F_LOW_SWORDS, F_PRIZES, F_BONUS, F_SWEEP, F_CAPTURE_LATE,
 F_PLACE_PRIZE, F_PLACE_SWORD, F_PLACE_VALUE, F_PLACE_COURT, F_OWN_MATCH, F_SWEEP_THREAT,
 F_PICADA_THREAT, F_EXPOSED_RISK, F_REST_CARDS, F_CAPTURE_THREAT) = range(N_FEATURES)

PRIZE_MASK = np.int64((1 << MATA) | (1 << TEN_OF_COINS) | (1 << FANTE_OF_CUPS))
LOW_SWORDS = np.int64((1 << 0) | (1 << 4) | (1 << 8))  # Asso, 2, 3 of swords
EXPOSED = PRIZE_MASK | LOW_SWORDS
NUMERAL_MASK = np.int64((1 << N_NUMERALS) - 1)
SUMS_MASK = np.int64((1 << 11) - 1)  # the numeral sums 0..10 (bit s)
BONUS_POINTS = POINTS - STAT_SCUA  # public[BONUS_POINTS + STAT_k]: the points of statistic k


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
def _prize_points(public, m):
    """The prize points of the prize cards in mask ``m``."""
    return (((m >> MATA) & 1) * public[BONUS_POINTS + STAT_MATA]
            + ((m >> TEN_OF_COINS) & 1) * public[BONUS_POINTS + STAT_TEN_OF_COINS]
            + ((m >> FANTE_OF_CUPS) & 1) * public[BONUS_POINTS + STAT_FANTE_OF_CUPS])


@njit(cache=True, inline="always")
def _clip(x):
    return max(-1.0, min(1.0, x))


@njit(cache=True, _nrt=False)
def move_features(public, private, moves, n_moves, out):
    """out[k, j] (float64, out has shape (>= n_moves, >= N_FEATURES)): feature j of legal move
    moves[k], k < n_moves (see the module docstring). Only ``out[:n_moves, :N_FEATURES]`` is
    written; nothing is allocated."""
    seat = public[H_TO_MOVE]
    team = seat & 1
    turn = public[H_TURN]
    last_play = turn == TURNS - 1
    table = table_mask(public)
    table_n = public[H_TABLE_N]
    table_sum = 0
    for i in range(public[H_TABLE_NUMERALS]):
        table_sum += (public[TABLE + i] >> 2) + 1
    table_courts = table_n - public[H_TABLE_NUMERALS]
    last_placed = public[H_LAST_PLACED]
    last_capturer = public[H_LAST_CAPTURER]
    sweep_scores = public[H_LAST_SWEEP] != 0 or not last_play
    # the majorities still open: no team ahead by more than the cards (swords) not yet taken
    mine = TEAM_STATS + team * N_STATS
    theirs = TEAM_STATS + (1 - team) * N_STATS
    cards_gap = public[mine + STAT_CARDS] - public[theirs + STAT_CARDS]
    cards_free = N_CARDS - public[mine + STAT_CARDS] - public[theirs + STAT_CARDS]
    cards_open = abs(cards_gap) <= cards_free
    swords_gap = public[mine + STAT_SWORDS] - public[theirs + STAT_SWORDS]
    swords_free = 13 - public[mine + STAT_SWORDS] - public[theirs + STAT_SWORDS]
    swords_open = abs(swords_gap) <= swords_free
    # my hand, as a count per rank (3 bits per rank r at bits 3r..3r+2) and the unseen cards so
    hand = np.int64(0)
    for j in range(private[0]):
        hand += np.int64(1) << (3 * ((private[1 + j] >> 2) + 1))
    unseen = np.int64(0)
    for c in range(N_CARDS):
        if public[CARD_PUB + c] == PUB_HAND:
            unseen += np.int64(1) << (3 * ((c >> 2) + 1))
    unseen -= hand
    # the chance that the next player holds one of u cards (u = 1..4) of a rank
    p1 = p2 = p3 = p4 = 0.0
    opp_hand = pool = 0
    if not last_play:
        nxt = seat + 1 if seat + 1 < PLAYERS else 0
        done = turn + 1  # turns of this deal played once I have played
        nxt_order = (nxt - public[H_DEAL_STARTER]) & 3
        opp_hand = HAND_SIZE - (done - nxt_order + 3) // 4
        pool = TURNS - done - (private[0] - 1)  # cards in the other three hands
        p1 = p_holds(1, opp_hand, pool)
        p2 = p_holds(2, opp_hand, pool)
        p3 = p_holds(3, opp_hand, pool)
        p4 = p_holds(4, opp_hand, pool)
    late = turn / (TURNS - 1)
    for k in range(n_moves):
        for j in range(N_FEATURES):
            out[k, j] = 0.0
        move = moves[k]
        card = np.int32(move >> MOVE_SHIFT)
        rank = (card >> 2) + 1
        bit = np.int64(1) << card
        mask = move & MASK52
        gained = np.int64(0)
        lost = np.int64(0)
        if mask != 0:
            taken = popcount(mask)
            rest = table & ~mask
            rest_n = table_n - taken
            gained = mask | bit
            if last_play:
                gained |= rest  # the last capture claims the table
            bonus = 0
            if rest_n == 0:
                out[k, F_SWEEP] = 1.0
                if sweep_scores:
                    bonus += public[BONUS_POINTS + STAT_SCUA]
            if last_placed >= 0 and mask == (np.int64(1) << last_placed):
                bonus += public[BONUS_POINTS + STAT_PICADA]
            if (mask & ~(SWORD_MASK << (card & 3))) == 0:
                bonus += public[BONUS_POINTS + STAT_SIMILI]
            if taken >= 3:
                bonus += public[BONUS_POINTS + STAT_QUADRIGLIA]
            out[k, F_BONUS] = bonus / 4.0
            out[k, F_CAPTURE_LATE] = late
            if card < N_NUMERALS:
                rest_sum = table_sum - rank
                rest_courts = table_courts
            else:
                rest_sum = table_sum
                rest_courts = table_courts - 1
        else:
            rest = table | bit
            rest_n = table_n + 1
            if last_play:  # the table goes to the team that captured last
                if last_capturer == team:
                    gained = rest
                elif last_capturer >= 0:
                    lost = rest
            out[k, F_PLACE] = 1.0
            out[k, F_PLACE_PRIZE] = 1.0 if bit & PRIZE_MASK else 0.0
            out[k, F_PLACE_SWORD] = 1.0 if bit & SWORD_MASK else 0.0
            if card < N_NUMERALS:
                out[k, F_PLACE_VALUE] = rank / 10.0
                rest_sum = table_sum + rank
                rest_courts = table_courts
            else:
                out[k, F_PLACE_COURT] = 1.0
                rest_sum = table_sum
                rest_courts = table_courts + 1
            out[k, F_OWN_MATCH] = 1.0 if ((hand >> (3 * rank)) & 7) >= 2 else 0.0
        if cards_open:
            out[k, F_CARDS] = _clip((popcount(gained) - popcount(lost)) / 8.0)
        if swords_open:
            out[k, F_SWORDS] = _clip((popcount(gained & SWORD_MASK) - popcount(lost & SWORD_MASK)) / 4.0)
        out[k, F_LOW_SWORDS] = (popcount(gained & LOW_SWORDS) - popcount(lost & LOW_SWORDS)) / 3.0
        out[k, F_PRIZES] = _clip((_prize_points(public, gained) - _prize_points(public, lost)) / 3.0)
        out[k, F_REST_CARDS] = min(1.0, rest_n / 10.0)
        if last_play or rest_n == 0:
            continue
        # what the next player, an opponent, may do with the table I leave
        sweep_rank = 0
        if rest_n == 1:
            sweep_rank = (cttz(rest) >> 2) + 1
        elif rest_courts == 0 and rest_sum <= 10:
            sweep_rank = rest_sum
        if sweep_rank > 0:
            u = (unseen >> (3 * sweep_rank)) & 7
            out[k, F_SWEEP_THREAT] = p1 if u == 1 else p2 if u == 2 else p3 if u == 3 else p4 if u == 4 else 0.0
        if mask == 0:
            u = (unseen >> (3 * rank)) & 7
            out[k, F_PICADA_THREAT] = p1 if u == 1 else p2 if u == 2 else p3 if u == 3 else p4 if u == 4 else 0.0
        exposed = rest & EXPOSED
        risk = 0.0
        while exposed != 0:
            c = cttz(exposed)
            exposed &= exposed - 1
            u = (unseen >> (3 * ((c >> 2) + 1))) & 7
            risk += p1 if u == 1 else p2 if u == 2 else p3 if u == 3 else p4 if u == 4 else 0.0
        out[k, F_EXPOSED_RISK] = min(1.0, 0.5 * risk)
        # the ranks that capture something from what I leave: a numeral sum (bit s of ``sums``:
        # some set of the numerals left adds up to s <= 10), or a court of a rank left lying
        sums = np.int64(1)
        numerals = rest & NUMERAL_MASK
        while numerals != 0:
            c = cttz(numerals)
            numerals &= numerals - 1
            sums |= (sums << ((c >> 2) + 1)) & SUMS_MASK
        courts = rest >> N_NUMERALS
        u = 0
        for r in range(1, 11):
            u += ((sums >> r) & 1) * ((unseen >> (3 * r)) & 7)
        for r in range(11, 14):
            u += (((courts >> (4 * (r - 11))) & 15) != 0) * ((unseen >> (3 * r)) & 7)
        out[k, F_CAPTURE_THREAT] = p_holds(u, opp_hand, pool)
