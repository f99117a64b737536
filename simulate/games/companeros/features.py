"""Compañeros: the apprentice's features of a legal move (what the card makes of me in this
round's trick scoring, what it spends, what the takers take, what the take or pass gives away).
Read only from the deciding seat's views.

The apprentice (issue 41) scores a legal move by the dot product of a learned weight vector with
the move's feature vector and plays the best-scoring move. :func:`move_features` takes exactly
what a strategy sees (``public``, ``private``, ``moves``, ``n_moves``: see ``kernel.py``), so it
cannot peek. The deciding seat is ``public[H_TO_MOVE]``.

A decision is either a *play* (move = card id) or a *take* (``MOVE_TAKE + colour`` or
``MOVE_PASS``). The play features are 0 on take moves and the take features 0 on plays: the two
kinds never compete in one decision, so each kind has weights of its own. "The takers take the
richest colour left" is every built-in heuristic's rule, and the one assumed below. A full
colour's points (``colour_points``) is the sum of the component table's values (55 by default).

Play a card (0 on take moves):

- ``card_value``: the card's victory points / the highest card's (0.1 .. 1 by default): what it
  costs (it joins the display, for whoever takes that colour next).
- ``value_x_left``: ``card_value`` times the share of this game's later rounds still to come
  ((rounds - 1 - round) / (rounds - 1)): a high card kept is worth less as the game ends.
- ``hand_rank``: the card's place in my hand by value, 0 the lowest .. 1 the highest (ties of
  value count as not lower; 0 with a single card).
- ``taker_now``: 1 if I would take, were trick scoring held over the cards played so far and
  mine (CO-6: the walk stops at a shared colour value), else 0.
- ``first_now``: 1 if I would so be the first taker (who also starts the next round).
- ``take_place``: 1 - position / (n - 1) among the takers when ``taker_now`` (first = 1), else 0.
- ``my_take``: the display points I would so take (the takers ahead of me each having taken the
  richest colour left) / ``colour_points``; 0 when I would not take.
- ``rivals_take``: the display points the other takers would so take / (2 ``colour_points``),
  clipped to 1.
- ``lead_margin``: my colour's value this round minus the best other colour's, / (the highest
  card value x the players still to play after me, at least 1), clipped to [-1, 1].
- ``overtake_share``: when ``taker_now`` and players are still to play after me: the share of
  the cards I have not seen that would lift another colour from below my colour's value to it or
  above (putting me a place back, or cutting me off), times the share of the other players still
  to play after me ((players after me) / (n - 1)); else 0.
- ``overtake_risk``: when ``taker_now`` and players are still to play after me: the chance that
  their hands hold at least one such card (hypergeometric over the cards I have not seen; it
  nears 1 early in a game, when the later hands hold most of them); else 0.
- ``safe_take``: ``my_take`` x (1 - ``overtake_risk``): the take I can count on.
- ``rivals_final``: ``rivals_take`` when I am the last to play this round (the trick is then
  settled), else 0.
- ``joins_leader``: 1 if the card's colour is (one of) the colours with the highest value
  played so far this round, else 0.
- ``colour_unseen``: cards of the card's colour I have not seen (in other hands, or undealt)
  / 10: how many could still join or contest it.
- ``value_risk``: ``card_value`` x ``overtake_risk``: a high card risked where later players
  can still overtake it.
- ``value_rank``: ``card_value`` x ``hand_rank``: a high card that is also among my highest.
- ``risk_leader``: ``overtake_risk`` x ``joins_leader``: joining the leading colour while it can
  still be overtaken.

The last three are products of the others: a linear score cannot weigh a product of its
features, and these are the products a fit over every pair leaned on most. They lift what a
linear fit holds of the search's gain over the guide from 42% to 50% on held-out decisions
(3 players: ``scripts/apprentice_ceiling.py``, docs/apprentice.md; boosted trees hold 59%).

Take a colour or pass (0 on plays):

- ``take_points``: the display points of the colour taken / ``colour_points`` (0 for pass).
- ``take_richest``: 1 if the colour taken is (one of) the richest in the display.
- ``take_cards``: the number of display cards of the colour taken / 10.
- ``pass``: 1 for the pass move.
- ``take_starts``: 1 for a take while nobody has taken yet this round and another round of this
  game follows: taking makes me the first taker, who starts (leads blind) the next round.
- ``rivals_left``: the display points the takers after me would take after this move (each the
  richest colour left) / (2 ``colour_points``), clipped to 1.
- ``refill``: the points of this round's played cards of the colour taken / ``colour_points``:
  they lie alone in that colour of the next display (0 for pass).
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from ...kernel import popcount
from .rules import (CARD_VALUE, DISPLAY_MASK, DISPLAY_SUM, H_COLOURS, H_FIRST_TAKER, H_HAND_SIZE,
                    H_N_PLAYED, H_N_TAKERS, H_PHASE, H_PLAYERS, H_ROUND, H_TAKE_POS, H_TO_MOVE,
                    MAX_PLAYERS, MOVE_PASS, MOVE_TAKE, PHASE_TAKE, PLAYED_MASK, PLAYED_SUM,
                    TAKEN_MASK, VALUES, taker_place, taker_step)

FEATURES = (
    ("card_value", "play: the card's victory points / the highest card's; [0, 1]"),
    ("value_x_left", "play: card_value x the share of this game's later rounds still to come; [0, 1]"),
    ("hand_rank", "play: the card's place in my hand by value, 0 lowest .. 1 highest; [0, 1]"),
    ("taker_now", "play: 1 if I would take were the trick scored over the cards played so far and mine; {0, 1}"),
    ("first_now", "play: 1 if I would so be the first taker (and start the next round); {0, 1}"),
    ("take_place", "play: 1 - my position / (n - 1) among the takers if I would take, else 0; [0, 1]"),
    ("my_take", "play: display points I would so take (takers ahead take the richest) / a full colour's; [0, 1]"),
    ("rivals_take", "play: display points the other takers would so take / two full colours', clipped; [0, 1]"),
    ("lead_margin", "play: my colour value - best other colour's, / (top card value x players after me), "
                    "clipped; [-1, 1]"),
    ("overtake_share", "play, if I would take: share of the unseen cards lifting another colour to mine or "
                       "above x share of the players after me; [0, 1]"),
    ("overtake_risk", "play, if I would take: chance the later players hold a card lifting another colour to "
                      "mine or above; [0, 1]"),
    ("safe_take", "play: my_take x (1 - overtake_risk), the take I can count on; [0, 1]"),
    ("rivals_final", "play: rivals_take if I am the last to play this round (settled), else 0; [0, 1]"),
    ("joins_leader", "play: 1 if the card's colour has the highest value played so far this round; {0, 1}"),
    ("colour_unseen", "play: cards of the card's colour I have not seen / 10; [0, 1]"),
    ("value_risk", "play: card_value x overtake_risk, a high card risked where it can be overtaken; [0, 1]"),
    ("value_rank", "play: card_value x hand_rank, a high card among my highest; [0, 1]"),
    ("risk_leader", "play: overtake_risk x joins_leader, joining the lead while it can be overtaken; [0, 1]"),
    ("take_points", "take: display points of the colour taken / a full colour's (0: pass); [0, 1]"),
    ("take_richest", "take: 1 if the colour taken is the richest in the display; {0, 1}"),
    ("take_cards", "take: display cards of the colour taken / 10; [0, 1]"),
    ("pass", "take: 1 for the pass move; {0, 1}"),
    ("take_starts", "take: 1 for a take that makes me the first taker, so the next round's starter; {0, 1}"),
    ("rivals_left", "take: display points the later takers would take after this move / two full colours', "
                    "clipped; [0, 1]"),
    ("refill", "take: points of this round's played cards of the colour taken / a full colour's; [0, 1]"),
)
N_FEATURES = len(FEATURES)
(F_CARD_VALUE, F_VALUE_X_LEFT, F_HAND_RANK, F_TAKER_NOW, F_FIRST_NOW, F_TAKE_PLACE, F_MY_TAKE,
 F_RIVALS_TAKE, F_LEAD_MARGIN, F_OVERTAKE_SHARE, F_OVERTAKE_RISK, F_SAFE_TAKE,
 F_RIVALS_FINAL, F_JOINS_LEADER, F_COLOUR_UNSEEN, F_VALUE_RISK, F_VALUE_RANK, F_RISK_LEADER, F_TAKE_POINTS,
 F_TAKE_RICHEST, F_TAKE_CARDS, F_PASS, F_TAKE_STARTS, F_RIVALS_LEFT, F_REFILL) = range(N_FEATURES)
#: the features of each kind of move (the others are 0 on it)
PLAY_FEATURES = tuple(range(F_CARD_VALUE, F_RISK_LEADER + 1))
TAKE_FEATURES = tuple(range(F_TAKE_POINTS, F_REFILL + 1))

FIELD = 10  # bits per entry of a packed list of per-colour numbers (a colour's points < 1024)
FIELD_MASK = (1 << FIELD) - 1
FULL = (1 << VALUES) - 1
COUNT = 4  # bits per entry of a packed list of per-rank counts (a hand holds at most 9 cards)
COUNT_MASK = (1 << COUNT) - 1
LIFT_TABLE = 64 // COUNT  # thresholds 0 .. 15 in a packed table of ranks


@njit(cache=True, inline="always")
def _entry(packed, i):
    return (packed >> (FIELD * i)) & FIELD_MASK


@njit(cache=True, inline="always")
def _top(packed, k):
    """Sum of the first ``k`` entries of a packed list (k <= MAX_PLAYERS)."""
    s = 0
    for i in range(min(k, MAX_PLAYERS)):
        s += (packed >> (FIELD * i)) & FIELD_MASK
    return s


@njit(cache=True, _nrt=False)
def move_features(public, private, moves, n_moves, out):
    """out[k, j] (float64, out has shape (>= n_moves, >= N_FEATURES)): feature j of legal move
    moves[k], k < n_moves (see the module docstring). Only ``out[:n_moves, :N_FEATURES]`` is
    written; nothing is allocated."""
    n = public[H_PLAYERS]
    colours = public[H_COLOURS]
    seat = public[H_TO_MOVE]
    top_value = public[CARD_VALUE + VALUES - 1]
    colour_points = 0
    for r in range(VALUES):
        colour_points += public[CARD_VALUE + r]
    inv_points = 1.0 / colour_points
    # the display's colour points, richest first (ties: lower colour first), packed; and each
    # colour's place in that order, packed
    ranked = np.int64(0)
    place_of = np.int64(0)
    richest = 0
    for d in range(colours):
        s = public[DISPLAY_SUM + d]
        richest = max(richest, s)
        place = 0
        for e in range(colours):
            t = public[DISPLAY_SUM + e]
            place += (t > s) | ((t == s) & (e < d))
        ranked |= np.int64(s) << (FIELD * place)
        place_of |= np.int64(place) << (FIELD * d)
    take = public[H_PHASE] == PHASE_TAKE
    # the other kind's features are 0 (each kind's are contiguous, and all written below)
    first, end = (F_CARD_VALUE, F_RISK_LEADER + 1) if take else (F_TAKE_POINTS, F_REFILL + 1)
    for k in range(n_moves):
        for j in range(first, end):
            out[k, j] = 0.0

    if take:
        after = public[H_N_TAKERS] - public[H_TAKE_POS] - 1  # takers still to choose after me
        starts = (public[H_FIRST_TAKER] < 0) & (public[H_ROUND] + 1 < public[H_HAND_SIZE])
        left_if_pass = _top(ranked, after)
        for k in range(n_moves):
            m = moves[k]
            if m == MOVE_PASS:
                out[k, F_TAKE_POINTS] = out[k, F_TAKE_RICHEST] = out[k, F_TAKE_CARDS] = 0.0
                out[k, F_TAKE_STARTS] = out[k, F_REFILL] = 0.0
                out[k, F_PASS] = 1.0
                out[k, F_RIVALS_LEFT] = min(1.0, 0.5 * inv_points * left_if_pass)
                continue
            d = m - MOVE_TAKE
            s = public[DISPLAY_SUM + d]
            place = _entry(place_of, d)
            left = _top(ranked, after) if place >= after else _top(ranked, after + 1) - s
            out[k, F_TAKE_POINTS] = s * inv_points
            out[k, F_TAKE_RICHEST] = 1.0 if s == richest else 0.0
            out[k, F_TAKE_CARDS] = popcount(public[DISPLAY_MASK + d]) / VALUES
            out[k, F_PASS] = 0.0
            out[k, F_TAKE_STARTS] = 1.0 if starts else 0.0
            out[k, F_RIVALS_LEFT] = min(1.0, 0.5 * inv_points * left)
            out[k, F_REFILL] = public[PLAYED_SUM + d] * inv_points
        return

    # ---- play a card
    # the cards I have not seen, per colour (10-bit masks, packed): not in the display, not
    # played this round, not taken this game, not in my hand; and how many of my cards lie below
    # each rank (4-bit counts, packed: a hand holds at most HAND_SIZE = 9 cards)
    size = private[0]
    own = np.int64(0)
    rank_count = np.int64(0)
    for i in range(size):
        c = private[1 + i]
        own |= np.int64(1) << (FIELD * (c // VALUES) + c % VALUES)
        rank_count += np.int64(1) << (COUNT * (c % VALUES))
    below_rank = np.int64(0)  # entry r: my cards of a rank below r
    running = 0
    for r in range(VALUES):
        below_rank |= np.int64(running) << (COUNT * r)
        running += (rank_count >> (COUNT * r)) & COUNT_MASK
    unseen = np.int64(0)
    n_unseen = 0
    for d in range(colours):
        gone = public[DISPLAY_MASK + d] | public[PLAYED_MASK + d]
        for p in range(n):
            gone |= public[TAKEN_MASK + p * MAX_PLAYERS + d]
        free = np.int64(FULL & ~gone) & ~((own >> (FIELD * d)) & FULL)
        unseen |= free << (FIELD * d)
        n_unseen += popcount(free)
    after = n - 1 - public[H_N_PLAYED]  # players still to play this round after me
    later_cards = after * (public[H_HAND_SIZE] - public[H_ROUND])  # the cards in their hands
    rounds = public[H_HAND_SIZE]
    left_share = (rounds - 1 - public[H_ROUND]) / (rounds - 1) if rounds > 1 else 0.0
    lead_value = 0
    for d in range(colours):
        lead_value = max(lead_value, public[PLAYED_SUM + d])
    # the lowest rank whose card lifts a colour by at least t, for t = 1 .. max_value (the first
    # rank whose value reaches t), packed by t when max_value fits the table (the shipped values do)
    max_value = 0
    lift_rank = np.int64(0)
    for r in range(VALUES):
        value = public[CARD_VALUE + r]
        for t in range(max_value + 1, min(value, LIFT_TABLE - 1) + 1):
            lift_rank |= np.int64(r) << (COUNT * t)
        max_value = max(max_value, value)
    small_values = max_value < LIFT_TABLE
    margin_scale = 1.0 / (top_value * max(after, 1))
    known_bad, known_none = -1, 1.0  # the last chance computed below, by its count of lifting cards
    for k in range(n_moves):
        card = moves[k]
        colour = card // VALUES
        rank = card % VALUES
        value = public[CARD_VALUE + rank]
        mine = public[PLAYED_SUM + colour] + value
        lower = (below_rank >> (COUNT * rank)) & COUNT_MASK
        # the trick as it would be scored now: colour values with my card, the cut, the takers;
        # and where I would stand among the takers (rules.taker_position, in the same pass)
        seen = np.int64(0)
        shared = np.int64(1)  # bit 0 stands for "no shared value"
        seen_mine, shared_mine, ahead = np.int64(0), np.int64(0), 0
        best_other = 0
        for d in range(colours):
            other = d != colour
            v = public[PLAYED_SUM + d] + (0 if other else value)
            bit = np.int64(v > 0) << v
            shared |= seen & bit
            seen |= bit
            seen_mine, shared_mine, ahead = taker_step(public, d, other, v, mine, seen_mine, shared_mine, ahead)
            if other:
                best_other = max(best_other, v)
        pos = taker_place(public, card, shared_mine, ahead)
        cut = 63 - leading_zeros(shared)
        takers = 0
        for d in range(colours):
            v = public[PLAYED_SUM + d] + (value if d == colour else 0)
            cards = public[PLAYED_MASK + d] | ((1 << rank) if d == colour else 0)
            takers += popcount(np.int64(cards)) if v > cut else 0
        my_take = _entry(ranked, pos) if pos >= 0 else 0
        rivals = _top(ranked, takers) - my_take
        risk = share = 0.0
        if pos >= 0 and after > 0:
            bad = 0  # unseen cards that lift another colour from below mine to mine or above
            for d in range(colours):
                below_by = mine - public[PLAYED_SUM + d]
                lifts = (d != colour) & (below_by > 0) & (below_by <= max_value)
                if small_values:  # branch-free: the rank from the table
                    r0 = (lift_rank >> (COUNT * (below_by if lifts else 0))) & COUNT_MASK
                    bad += popcount(np.int64(_entry(unseen, d)) >> r0) * lifts
                elif lifts:
                    r0 = 0
                    while r0 < VALUES and public[CARD_VALUE + r0] < below_by:
                        r0 += 1
                    bad += popcount(np.int64(_entry(unseen, d)) >> r0)
            # chance that the later hands (later_cards of the n_unseen) hold none of them
            if bad != known_bad:
                if later_cards > n_unseen - bad:
                    none = 0.0  # the later hands hold more cards than the unseen ones that do not lift
                elif bad == 0:
                    none = 1.0  # each factor below would be x / x, 1 exactly
                else:
                    none = 1.0
                    for i in range(later_cards):
                        none *= (n_unseen - bad - i) / (n_unseen - i)
                known_bad, known_none = bad, none
            risk = 1.0 - known_none
            share = bad / n_unseen * after / (n - 1) if n_unseen > 0 else 0.0
        out[k, F_CARD_VALUE] = value / top_value
        out[k, F_VALUE_X_LEFT] = value / top_value * left_share
        out[k, F_HAND_RANK] = lower / (size - 1) if size > 1 else 0.0
        out[k, F_TAKER_NOW] = 1.0 if pos >= 0 else 0.0
        out[k, F_FIRST_NOW] = 1.0 if pos == 0 else 0.0
        out[k, F_TAKE_PLACE] = 1.0 - pos / (n - 1) if pos >= 0 else 0.0
        out[k, F_MY_TAKE] = my_take * inv_points
        out[k, F_RIVALS_TAKE] = min(1.0, 0.5 * inv_points * rivals)
        out[k, F_LEAD_MARGIN] = max(-1.0, min(1.0, (mine - best_other) * margin_scale))
        out[k, F_OVERTAKE_SHARE] = share
        out[k, F_OVERTAKE_RISK] = risk
        out[k, F_SAFE_TAKE] = my_take * inv_points * (1.0 - risk)
        out[k, F_RIVALS_FINAL] = min(1.0, 0.5 * inv_points * rivals) if after == 0 else 0.0
        out[k, F_JOINS_LEADER] = 1.0 if lead_value > 0 and public[PLAYED_SUM + colour] == lead_value else 0.0
        out[k, F_COLOUR_UNSEEN] = popcount(np.int64(_entry(unseen, colour))) / VALUES
        out[k, F_VALUE_RISK] = out[k, F_CARD_VALUE] * risk
        out[k, F_VALUE_RANK] = out[k, F_CARD_VALUE] * out[k, F_HAND_RANK]
        out[k, F_RISK_LEADER] = risk * out[k, F_JOINS_LEADER]
