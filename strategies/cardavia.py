"""Built-in Cardavia strategies.

Observation layout: ``tourney_sim.simulate.games.cardavia.rules`` (``public`` holds the public state part at the same
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

Parameters (``NAME:key=value``; the defaults are the constants below, swords' own in brackets):
every heuristic takes ``card_worth`` (one card towards most cards, 0.08), ``prize_worth`` (a prize
card, 1), ``place_penalty`` (the share of a placed card's worth given away, 0.5),
``sword_weight`` (a sword's extra worth, 0.15 [0.4]) and ``low_sword_bonus`` (more for the swords
Asso, 2, 3, 0 [0.8]); guard and swords add ``threat_weight`` (how much of the next opponent's
expected score is subtracted, 1; 0 plays as capture-max) and ``exposure`` (the share of the worth
of prize cards and low swords left lying counted as lost, 0.3). The capture bonuses (Scua,
Picada, Simili, Quadriglia: 1 point each by default) are the rules' points, not parameters: read
from the component table in force (the public block ``POINTS``).
"""
import numpy as np
from numba import njit

from tourney_sim.simulate import search
from tourney_sim.simulate.policy import guided_choice
from tourney_sim.simulate.games.cardavia import features
from tourney_sim.simulate.games.cardavia import rules as ca
from tourney_sim.simulate.games.cardavia.features import p_holds  # one chance computation, the features'
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE, popcount

from . import Param, Strategy
from .common import apprentice, guide_of, random_move, rollout_policies, search_for_table

SWORD_MASK = ca.SWORD_MASK
PRIZE_MASK = np.int64((1 << ca.MATA) | (1 << ca.TEN_OF_COINS) | (1 << ca.FANTE_OF_CUPS))
LOW_SWORDS = np.int64((1 << 0) | (1 << 4) | (1 << 8))  # Asso, 2, 3 of swords
BONUS_POINTS = ca.POINTS - ca.STAT_SCUA  # public[BONUS_POINTS + STAT_k]: the points of bonus k
# The defaults of the parameters (see the *_PARAMS declarations below); the compiled code reads
# the values from its ``params`` array only.
CARD_WORTH = 0.08  # one card of 52 towards the 2 points of most cards
PRIZE_WORTH = 1.0  # a prize card (La Mata, 10 of coins, Fante of cups)
PLACE_PENALTY = 0.5  # placing a card gives this share of its worth away
EXPOSURE = 0.3  # share of the worth of prize cards and low swords left lying counted as lost
THREAT_WEIGHT = 1.0  # the next opponent's expected score counts this much against a move
SWORD_WEIGHT = 0.15  # a sword's extra worth (capture-max, guard)
SWORDS_SWORD_WEIGHT = 0.4  # ... for swords
LOW_SWORD_BONUS = 0.0  # extra worth of the swords Asso, 2, 3 (capture-max, guard)
SWORDS_LOW_SWORD_BONUS = 0.8  # ... for swords


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
def card_worth(card, card_w, prize_w, sword_weight, low_sword_bonus):
    """What a card is worth to the team that ends up with it (prize card, sword, card count)."""
    bit = np.int64(1) << card
    w = card_w
    if bit & PRIZE_MASK:
        w += prize_w
    if bit & SWORD_MASK:
        w += sword_weight
        if bit & LOW_SWORDS:
            w += low_sword_bonus
    return w


@njit(cache=True, inline="always")
def mask_worth(m, card_w, prize_w, sword_weight, low_sword_bonus):
    return (card_w * popcount(m) + prize_w * popcount(m & PRIZE_MASK)
            + sword_weight * popcount(m & SWORD_MASK) + low_sword_bonus * popcount(m & LOW_SWORDS))


@njit(cache=True, inline="always")
def move_value(public, move, table, table_n, table_sum, table_courts, last_play,
               guard, unseen, p1, p2, p3, p4, card_w, prize_w, place_penalty, exposure,
               threat_weight, sword_weight, low_sword_bonus):
    """Estimated points the move gains for my team (see the module docstring). ``unseen`` is
    :func:`unseen_counts`; ``p1..p4`` the chance that the next player holds one of 1..4 cards;
    the rest are the parameters (module docstring)."""
    card = np.int32(move >> ca.MOVE_SHIFT)
    mask = move & ca.MASK52
    value = 0.0
    if mask != 0:
        taken = popcount(mask)
        if taken == table_n and (public[ca.H_LAST_SWEEP] != 0 or not last_play):
            value += public[BONUS_POINTS + ca.STAT_SCUA]  # Scua
        last = public[ca.H_LAST_PLACED]
        if last >= 0 and mask == (np.int64(1) << last):
            value += public[BONUS_POINTS + ca.STAT_PICADA]  # Picada
        if (mask & ~(SWORD_MASK << (card & 3))) == 0:
            value += public[BONUS_POINTS + ca.STAT_SIMILI]  # Simili
        if taken >= 3:
            value += public[BONUS_POINTS + ca.STAT_QUADRIGLIA]  # Quadriglia
        value += mask_worth(mask, card_w, prize_w, sword_weight, low_sword_bonus)
        value += card_worth(card, card_w, prize_w, sword_weight, low_sword_bonus)
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
        value -= place_penalty * card_worth(card, card_w, prize_w, sword_weight, low_sword_bonus)
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
        threat += p * (1.0 + mask_worth(rest, card_w, prize_w, sword_weight, low_sword_bonus))
    if mask == 0:
        # a Picada on the card I place (by the rank's other unseen cards)
        u = (unseen >> (3 * ((card >> 2) + 1))) & 7
        p = p1 if u == 1 else p2 if u == 2 else p3 if u == 3 else p4 if u == 4 else 0.0
        threat += p * (1.0 + card_worth(card, card_w, prize_w, sword_weight, low_sword_bonus))
    # prize cards and low swords left lying are at risk from anyone
    exposed = rest & (PRIZE_MASK | LOW_SWORDS)
    if exposed != 0 and sweep_rank == 0:
        threat += exposure * mask_worth(exposed, card_w, prize_w, sword_weight, low_sword_bonus)
    return value - threat_weight * threat


@njit(cache=True, inline="always")
def best_move(public, private, moves, n_moves, guard, card_w, prize_w, place_penalty, exposure,
              threat_weight, sword_weight, low_sword_bonus):
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
        done = turn + 1  # turns played this deal once I have played
        # the next seat's place in this deal's turn order (the starter moves on in a match, CA-6)
        nxt_order = (nxt - public[ca.H_DEAL_STARTER]) & 3
        opp_hand = ca.HAND_SIZE - (done - nxt_order + 3) // 4
        pool = ca.TURNS - done - (private[0] - 1)  # cards in the other three hands
        p1 = p_holds(1, opp_hand, pool)
        p2 = p_holds(2, opp_hand, pool)
        p3 = p_holds(3, opp_hand, pool)
        p4 = p_holds(4, opp_hand, pool)
    best = 0
    best_value = -1e9
    for i in range(n_moves):
        v = move_value(public, moves[i], table, table_n, table_sum, table_courts, last_play,
                       guard, unseen, p1, p2, p3, p4, card_w, prize_w, place_penalty, exposure,
                       threat_weight, sword_weight, low_sword_bonus)
        if v > best_value:
            best, best_value = i, v
    return best


# ----------------------------------------------------------------------------- the parameters
def _common(sword_weight, low_sword_bonus):
    return (
        Param.real("card_worth", CARD_WORTH, 0.0, 0.4,
                   "points one card is worth towards the 2 of most cards"),
        Param.real("prize_worth", PRIZE_WORTH, 0.0, 3.0,
                   "points a prize card (La Mata, 10 of coins, Fante of cups) is worth"),
        Param.real("place_penalty", PLACE_PENALTY, 0.0, 1.0,
                   "share of a placed card's worth counted as given away"),
        Param.real("sword_weight", sword_weight, 0.0, 2.0,
                   "extra points a sword is worth (most swords, Napula)"),
        Param.real("low_sword_bonus", low_sword_bonus, 0.0, 3.0,
                   "more extra points for the swords Asso, 2 and 3 (the Napula run)"),
    )


def _threat():
    return (
        Param.real("threat_weight", THREAT_WEIGHT, 0.0, 3.0,
                   "weight of what the next opponent can expect to score (0: play as capture-max)"),
        Param.real("exposure", EXPOSURE, 0.0, 1.0,
                   "share of the worth of prize cards and low swords left lying counted as lost"),
    )


# positions in the params array, shared by the three declarations below
P_CARD_WORTH, P_PRIZE_WORTH, P_PLACE_PENALTY, P_SWORD_WEIGHT, P_LOW_SWORD_BONUS = 0, 1, 2, 3, 4
P_THREAT_WEIGHT, P_EXPOSURE = 5, 6
CAPTURE_MAX_PARAMS = _common(SWORD_WEIGHT, LOW_SWORD_BONUS)
GUARD_PARAMS = _common(SWORD_WEIGHT, LOW_SWORD_BONUS) + _threat()
SWORDS_PARAMS = _common(SWORDS_SWORD_WEIGHT, SWORDS_LOW_SWORD_BONUS) + _threat()


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def capture_max(public, private, moves, n_moves, rng, params):
    # the heuristics compile with _nrt=False: they own no array, so numba emits no reference
    # counting for the arrays their inlined helpers are handed (with the runtime, every call paid
    # NRT_incref/NRT_decref calls unless the parameters were read before any branch)
    card_w = params[P_CARD_WORTH]
    prize_w = params[P_PRIZE_WORTH]
    place_penalty = params[P_PLACE_PENALTY]
    sword_weight = params[P_SWORD_WEIGHT]
    low_sword_bonus = params[P_LOW_SWORD_BONUS]
    return best_move(public, private, moves, n_moves, 0, card_w, prize_w, place_penalty, 0.0, 0.0,
                     sword_weight, low_sword_bonus)


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def guard(public, private, moves, n_moves, rng, params):
    card_w = params[P_CARD_WORTH]
    prize_w = params[P_PRIZE_WORTH]
    place_penalty = params[P_PLACE_PENALTY]
    sword_weight = params[P_SWORD_WEIGHT]
    low_sword_bonus = params[P_LOW_SWORD_BONUS]
    threat_weight = params[P_THREAT_WEIGHT]
    exposure = params[P_EXPOSURE]
    return best_move(public, private, moves, n_moves, threat_weight != 0.0, card_w, prize_w,
                     place_penalty, exposure, threat_weight, sword_weight, low_sword_bonus)


# the heuristics, each also a rollout policy of the search (declared here once)
HEURISTICS = [
    Strategy("cardavia", "capture-max",
             "takes the capture worth most now (bonuses, prize cards, cards, swords); else places "
             "its least useful card", capture_max, params=CAPTURE_MAX_PARAMS),
    Strategy("cardavia", "guard",
             "capture-max minus what the next opponent can expect to score: sweepable table, "
             "Picada on the placed card, exposed prize cards", guard, params=GUARD_PARAMS),
    Strategy("cardavia", "swords",
             "guard that prizes swords and the Napula run (Asso-2-3 most) and places them last",
             guard, params=SWORDS_PARAMS),  # guard's function: the swords weights are its parameters
]
# random, the heuristics at their defaults, then their shipped tuned settings (NAME-tuned)
# the apprentice (issue 41): its features and the choice of its guide, the strong heuristic
GUIDE = guide_of(HEURISTICS, "guard")
GUIDE_ROW = GUIDE.param_row()


@njit(STRATEGY_SIGNATURE, cache=True)
def apprentice_move(public, private, moves, n_moves, rng, params):
    return guided_choice(features.move_features, features.N_FEATURES, guard, GUIDE_ROW,
                         public, private, moves, n_moves, rng, params)


APPRENTICE = apprentice("cardavia", apprentice_move, GUIDE)  # also a play-out policy of the search
ROLLOUT_POLICIES, ROLLOUT_ROWS, rollout = rollout_policies(HEURISTICS, APPRENTICE)
ISMCTS_PARAMS = search.search_params(ROLLOUT_POLICIES, iterations=140, rollout="guard", score_scale=8.0)


@njit(cache=True)  # compiled with STRATEGY_SIGNATURE when first resolved: kernel.ready
def ismcts(public, private, moves, n_moves, rng, params):
    return search.ismcts(ca, rollout, ROLLOUT_ROWS, search.no_evaluation, search.no_stages, False,
                         public, private, moves, n_moves, rng, params, search.NO_VALUES)


@njit(cache=True)  # what the search found: tourney train's value labels
def ismcts_values(public, private, moves, n_moves, rng, params, values):
    return search.ismcts(ca, rollout, ROLLOUT_ROWS, search.no_evaluation, search.no_stages, False,
                         public, private, moves, n_moves, rng, params, values)


STRATEGIES = [
    Strategy("cardavia", "random", "uniformly random legal move (places often, captures sometimes)",
             random_move),
    *HEURISTICS,
    Strategy("cardavia", "ismcts",
             "information-set Monte Carlo tree search over sampled deals of the unseen cards "
             "(experimental: see docs/search.md); budget in iterations", ismcts, params=ISMCTS_PARAMS,
             for_table=search_for_table),
    APPRENTICE,
]
