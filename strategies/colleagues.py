"""Built-in Colleagues strategies.

Observation layout: ``tourney_sim.simulate.games.colleagues`` (``public`` holds the public state part at the
same offsets; ``private`` is the deciding seat's block: ``P_HAND_N``, ``P_HAND``, ``P_TOK``,
``P_CARD``/``P_PLUS``/``P_MINUS``/``P_ILL`` (its own row, face-down cards included), ``P_SEEN``).
The decision to take is ``public[H_DECISION]``; the seat deciding is ``public[H_TO_MOVE]``.

The heuristics share one estimate, :func:`day_cost`: what a card of value v is expected to cost
on a column, given what the seat can see. Every other card that will take part on that day is
either known (face up, a revealed or secretly seen Grey Entity card) or unknown (face down, or
not played yet); an unknown card is taken to be a uniform draw from the cards this seat has not
seen. Then P(take the Work card) = [every known card below v] x P(unknown below v)^unknowns,
likewise for the Reprimand card, and the cost is P(Work) x (Work value - its icons) +
P(Reprimand) x (reprimand_weight x Reprimand value - its icons); on the Overtime column the
highest takes the top Overtime card and the lowest gains a token (-1).

Parameters (``NAME:key=value``; defaults are the constants below): every heuristic takes
``reprimand_weight`` (the weight in the cost above, 1.5); ``dodger`` adds ``token_threshold`` (the
saving a token must beat, 1); ``dumper`` adds ``extreme_from`` (a card this many cards or more
from the median value is extreme, 20) and ``mulligan_min`` (mulligan only with at least this many
extreme cards, 2); ``hider`` adds ``extreme_from`` (hide extreme cards, 20).
"""
import numpy as np
from numba import njit

from tourney_sim.simulate import search
from tourney_sim.simulate.games import colleagues as cl
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE
from tourney_sim.simulate.seeding import below

from . import Param, Strategy
from .common import random_move

# The defaults of the parameters (see the *_PARAMS declarations below); the compiled code reads
# the values from its ``params`` array only.
#: a Reprimand point weighs this much against a Work point (dismissal ranks a player last)
REPRIMAND_WEIGHT = 1.5
#: a token spent costs its -1 at the end; spend one only to save more than this
TOKEN_THRESHOLD = 1.0
#: a card this many cards or more from the median value is extreme (the outer third of values)
EXTREME_FROM = 20
#: dumper mulligans only when it holds at least this many extreme cards
MULLIGAN_MIN = 2
NONE_KNOWN_HIGH = -(1 << 30)
NONE_KNOWN_LOW = 1 << 30


@njit(cache=True, inline="always")
def seen_mask(public, private):
    """Bit c set for every Commitment card the seat can see (hand, rows, Grey cards it knows)."""
    mask = np.int64(0)
    for j in range(private[cl.P_HAND_N]):
        mask |= np.int64(1) << private[cl.P_HAND + j]
    for c in range(cl.COLS):
        if private[cl.P_CARD + c] >= 0:
            mask |= np.int64(1) << private[cl.P_CARD + c]
    for i in range(cl.SEATS * cl.COLS):
        if public[cl.ROW_CARD + i] >= 0:
            mask |= np.int64(1) << public[cl.ROW_CARD + i]
    for d in range(cl.DAYS):
        if private[cl.P_SEEN + d] >= 0:
            mask |= np.int64(1) << private[cl.P_SEEN + d]
    return mask


@njit(cache=True, inline="always")
def unseen_values(public, seen, buf):
    """Write the values of the cards the seat has not seen to ``buf``, ascending; their count."""
    count = 0
    for c in range(cl.N_COMMIT):
        if (seen >> c) & 1:
            continue
        x = public[cl.C_VALUE + c]
        j = count  # insertion: linear for the default table, whose values ascend with the id
        while j > 0 and buf[j - 1] > x:
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = x
        count += 1
    return count


@njit(cache=True, inline="always")
def count_below(buf, count, v):
    """How many of the ascending ``buf[:count]`` are < v (binary search)."""
    lo, hi = 0, count
    while lo < hi:
        mid = (lo + hi) >> 1
        if buf[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def unseen_fractions(buf, count, v):
    """(fraction of unseen cards below v, fraction above v)."""
    if count == 0:
        return 0.5, 0.5
    return (count_below(buf, count, v) / count,
            (count - count_below(buf, count, v + 1)) / count)


@njit(cache=True, inline="always")
def ipow(x, k):
    out = 1.0
    for _ in range(k):
        out *= x
    return out


@njit(cache=True, inline="always")
def others_on(public, private, me, col):
    """(lowest known value, highest known value, number of unknown cards) of the other cards that
    will take part in column ``col`` (ILL cards left out)."""
    n = public[cl.H_PLAYERS]
    lo, hi, unknown = NONE_KNOWN_LOW, NONE_KNOWN_HIGH, 0
    for s in range(n):
        if s == me:
            continue
        cell = s * cl.COLS + col
        card = public[cl.ROW_CARD + cell]
        if card >= 0:
            if public[cl.ROW_ILL + cell] > 0:
                continue
            v = public[cl.C_VALUE + card] + cl.TOKEN_STEP * (
                public[cl.ROW_PLUS + cell] - public[cl.ROW_MINUS + cell])
            lo = min(lo, v)
            hi = max(hi, v)
        else:
            unknown += 1
    grey = public[cl.H_GREY]
    if grey >= 0 and col < cl.DAYS:
        card = public[cl.ROW_CARD + grey * cl.COLS + col]
        if card < 0:
            card = private[cl.P_SEEN + col]
        if card >= 0:
            v = public[cl.C_VALUE + card]
            lo = min(lo, v)
            hi = max(hi, v)
        else:
            unknown += 1
    return lo, hi, unknown


@njit(cache=True, inline="always")
def column_stakes(public, col, reprimand_weight):
    """(cost of taking the top, cost of taking the bottom) of column ``col``."""
    if col == cl.OT_COL:
        k = public[cl.H_OT_NEXT]
        top = public[cl.OT_VALUE + k] if k < cl.N_OT else 0
        return float(top), -1.0
    w = public[cl.WEEK_WORK + col]
    r = public[cl.WEEK_REPR + col]
    return (float(public[cl.W_VALUE + w] - public[cl.W_ICONS + w]),
            reprimand_weight * public[cl.R_VALUE + r] - public[cl.R_ICONS + r])


# What a heuristic looks at, gathered once per decision into one float64 array ("view"):
# [0, count) the values of the cards the seat has not seen, ascending; then per column
# (VIEW_COLS + 5 * column): lowest / highest known other value, unknown others, cost of the top,
# cost of the bottom.
VIEW_COLS = cl.N_COMMIT
VIEW_SIZE = VIEW_COLS + 5 * cl.COLS


@njit(cache=True, inline="always")
def look(public, private, view, reprimand_weight):
    """Fill ``view`` (float64[VIEW_SIZE]); returns the number of unseen cards."""
    count = unseen_values(public, seen_mask(public, private), view)
    me = public[cl.H_TO_MOVE]
    for col in range(cl.COLS):
        lo, hi, unknown = others_on(public, private, me, col)
        top, bottom = column_stakes(public, col, reprimand_weight)
        b = VIEW_COLS + 5 * col
        view[b] = lo
        view[b + 1] = hi
        view[b + 2] = unknown
        view[b + 3] = top
        view[b + 4] = bottom
    return count


@njit(cache=True, inline="always")
def cost_given(view, col, v, below, above):
    """:func:`day_cost` with the unseen fractions below / above v already counted."""
    b = VIEW_COLS + 5 * col
    unknown = int(view[b + 2])
    p_top = ipow(below, unknown) if view[b + 1] < v else 0.0
    p_bottom = ipow(above, unknown) if view[b] > v else 0.0
    return p_top * view[b + 3] + p_bottom * view[b + 4]


@njit(cache=True, inline="always")
def day_cost(view, count, col, v):
    """Expected cost of a card of value ``v`` in column ``col`` (see the module docstring),
    from a filled :func:`look` view."""
    below, above = unseen_fractions(view, count, v)
    return cost_given(view, col, v, below, above)


@njit(cache=True, inline="always")
def own_value(public, private, col):
    return public[cl.C_VALUE + private[cl.P_CARD + col]] + cl.TOKEN_STEP * (
        private[cl.P_PLUS + col] - private[cl.P_MINUS + col])


@njit(cache=True, inline="always")
def reserved_card(public, private):
    """The card kept back for Overtime: the lowest-valued card of the hand (the lowest Overtime
    card gains a token and the first seat), or -1 when one card is left."""
    if private[cl.P_HAND_N] <= 1:
        return -1
    best = private[cl.P_HAND]
    for j in range(1, private[cl.P_HAND_N]):
        c = private[cl.P_HAND + j]
        if public[cl.C_VALUE + c] < public[cl.C_VALUE + best]:
            best = c
    return best


@njit(cache=True, inline="always")
def play_parts(move):
    rel = move - cl.MOVE_PLAY
    return rel >> 4, (rel >> 1) & 7, rel & 1


@njit(cache=True, inline="always")
def cheapest_play(public, private, moves, n_moves, only_card, reprimand_weight):
    """Index of the face-up play with the least expected cost (of ``only_card`` if >= 0), never
    the card reserved for Overtime while another card can go."""
    view = np.empty(VIEW_SIZE, np.float64)
    count = look(public, private, view, reprimand_weight)
    keep = reserved_card(public, private)
    best, best_cost = -1, 1e18
    counted, below, above = -1, 0.5, 0.5
    for i in range(n_moves):
        card, day, face = play_parts(moves[i])
        if face == 1 or card == keep or (only_card >= 0 and card != only_card):
            continue
        v = public[cl.C_VALUE + card]
        if card != counted:  # the moves come card by card: count the unseen cards once a card
            below, above = unseen_fractions(view, count, v)
            counted = card
        cost = cost_given(view, day, v, below, above)
        if cost < best_cost:
            best, best_cost = i, cost
    return best if best >= 0 else 0


@njit(cache=True, inline="always")
def first_reveal(moves, n_moves):
    """Index of the first 'reveal a Grey Entity card' move, else of 'leave them'."""
    for i in range(n_moves):
        if cl.MOVE_REVEAL <= moves[i] < cl.MOVE_PEEK:
            return i
    return 0


@njit(cache=True, inline="always")
def keep_index(moves, n_moves):
    return 0  # MOVE_MULLIGAN + 0: keep the hand and draw a token (the lowest code)


@njit(cache=True, inline="always")
def token_none_index(moves, n_moves):
    return 0  # MOVE_TOKEN_NONE is the lowest token code


# ----------------------------------------------------------------------------- the parameters
def _reprimand_weight():
    return Param.real("reprimand_weight", REPRIMAND_WEIGHT, 0.0, 6.0,
                      "a Reprimand point weighs this many Work points (dismissal ranks last)")


def _extreme_from():
    return Param.int("extreme_from", EXTREME_FROM, 0, 30,
                     "a card at least this many cards from the median value is extreme "
                     "(30: none with the default deck)")


MIDDLE_PARAMS = (_reprimand_weight(),)
M_REPRIMAND_WEIGHT = 0

DODGER_PARAMS = (
    _reprimand_weight(),
    Param.real("token_threshold", TOKEN_THRESHOLD, 0.0, 4.0,
               "spend a +10/-10/ILLNESS token only when it lowers the card's expected cost by "
               "more than this (a token held is worth 1 point)"),
)
D_REPRIMAND_WEIGHT, D_TOKEN_THRESHOLD = 0, 1

DUMPER_PARAMS = (
    _reprimand_weight(),
    _extreme_from(),
    Param.int("mulligan_min", MULLIGAN_MIN, 1, 6,
              "mulligan (the extreme cards) only when the hand holds at least this many"),
)
U_REPRIMAND_WEIGHT, U_EXTREME_FROM, U_MULLIGAN_MIN = 0, 1, 2

HIDER_PARAMS = (_reprimand_weight(), _extreme_from())
H_REPRIMAND_WEIGHT, H_EXTREME_FROM = 0, 1


# ----------------------------------------------------------------------------- the strategies
@njit(STRATEGY_SIGNATURE, cache=True)
def middle(public, private, moves, n_moves, rng, params):
    """Play each card where it is least likely to be the top or the bottom of what is shown;
    keep the lowest for Overtime; keep the hand on Monday (a token); hoard tokens; reveal the
    Grey Entity's cards (free information)."""
    reprimand_weight = params[M_REPRIMAND_WEIGHT]
    decision = public[cl.H_DECISION]
    if decision == cl.DEC_PLAY:
        return cheapest_play(public, private, moves, n_moves, -1, reprimand_weight)
    if decision == cl.DEC_GREY:
        return first_reveal(moves, n_moves)
    if decision == cl.DEC_MULLIGAN:
        return keep_index(moves, n_moves)
    return token_none_index(moves, n_moves)


@njit(STRATEGY_SIGNATURE, cache=True)
def dodger(public, private, moves, n_moves, rng, params):
    """Plays like ``middle``; spends a +10, -10 or ILLNESS token on one of its cards when that
    lowers the card's expected cost by more than ``token_threshold`` (a token is worth 1 point)."""
    reprimand_weight = params[D_REPRIMAND_WEIGHT]
    token_threshold = params[D_TOKEN_THRESHOLD]
    decision = public[cl.H_DECISION]
    if decision == cl.DEC_PLAY:
        return cheapest_play(public, private, moves, n_moves, -1, reprimand_weight)
    if decision == cl.DEC_TOKEN:
        view = np.empty(VIEW_SIZE, np.float64)
        count = look(public, private, view, reprimand_weight)
        best, best_gain = 0, token_threshold
        counted, now, up, down = -1, 0.0, 0.0, 0.0
        for i in range(1, n_moves):
            rel = moves[i] - cl.MOVE_TOKEN
            col, kind = rel >> 2, rel & 3
            if private[cl.P_ILL + col] > 0:
                continue  # already out of the comparison
            if col != counted:  # the moves come column by column: cost each column once
                v = own_value(public, private, col)
                now = day_cost(view, count, col, v)
                up = day_cost(view, count, col, v + cl.TOKEN_STEP)
                down = day_cost(view, count, col, v - cl.TOKEN_STEP)
                counted = col
            if kind == cl.ILLNESS:
                after = 0.0
            elif kind == cl.PLUS:
                after = up
            else:
                after = down
            if now - after > best_gain:
                best, best_gain = i, now - after
        return best
    if decision == cl.DEC_MULLIGAN:
        return keep_index(moves, n_moves)
    return 0  # Grey Entity: leave it alone


@njit(cache=True, inline="always")
def extremeness(public, card):
    """Distance of a card's value from the middle of all Commitment values, in cards: how many
    cards lie between it and the median (0 = middle)."""
    v = public[cl.C_VALUE + card]
    below, above = 0, 0
    for c in range(cl.N_COMMIT):
        x = public[cl.C_VALUE + c]
        if x < v:
            below += 1
        elif x > v:
            above += 1
    return abs(below - above) // 2


@njit(STRATEGY_SIGNATURE, cache=True)
def dumper(public, private, moves, n_moves, rng, params):
    """Mulligans its extreme cards toward middle ones; plays its most extreme card first, on the
    day where it is cheapest (a day already lost to someone further out); hoards tokens."""
    reprimand_weight = params[U_REPRIMAND_WEIGHT]
    extreme_from = np.int64(params[U_EXTREME_FROM])
    mulligan_min = np.int64(params[U_MULLIGAN_MIN])
    decision = public[cl.H_DECISION]
    if decision == cl.DEC_MULLIGAN:
        mask, count = 0, 0
        for j in range(private[cl.P_HAND_N]):
            if extremeness(public, private[cl.P_HAND + j]) >= extreme_from:
                mask |= 1 << j
                count += 1
        if count >= mulligan_min:
            return mask  # move code MOVE_MULLIGAN + mask sits at index mask
        return keep_index(moves, n_moves)
    if decision == cl.DEC_PLAY:
        keep = reserved_card(public, private)
        target, far = -1, -1
        for j in range(private[cl.P_HAND_N]):
            c = private[cl.P_HAND + j]
            if c == keep:
                continue
            e = extremeness(public, c)
            if e > far:
                target, far = c, e
        return cheapest_play(public, private, moves, n_moves, target, reprimand_weight)
    return 0  # no token, leave the Grey Entity alone


@njit(STRATEGY_SIGNATURE, cache=True)
def hider(public, private, moves, n_moves, rng, params):
    """Plays like ``middle``, but plays a card face down (MEETING) when it is likely to end at
    the top or bottom of its day (at least ``extreme_from`` cards from the median value), so the
    others cannot steer clear of it; hoards other tokens."""
    reprimand_weight = params[H_REPRIMAND_WEIGHT]
    extreme_from = np.int64(params[H_EXTREME_FROM])
    decision = public[cl.H_DECISION]
    if decision == cl.DEC_PLAY:
        i = cheapest_play(public, private, moves, n_moves, -1, reprimand_weight)
        card, day, face = play_parts(moves[i])
        if private[cl.P_TOK + cl.MEETING] > 0 and day < cl.DAYS:
            if extremeness(public, card) >= extreme_from:
                down = moves[i] + 1
                for j in range(i + 1, n_moves):
                    if moves[j] == down:
                        return j
        return i
    if decision == cl.DEC_MULLIGAN:
        return keep_index(moves, n_moves)
    return 0


ROLLOUT_POLICIES = ("random", "middle", "dodger", "dumper", "hider")
ROLLOUT_ROWS = search.policy_defaults((MIDDLE_PARAMS, DODGER_PARAMS, DUMPER_PARAMS, HIDER_PARAMS))
ISMCTS_PARAMS = search.search_params(ROLLOUT_POLICIES, iterations=200, rollout="dodger", score_weight=0.0,
                                     score_scale=6.0)  # rank only: a dismissed seat ranks last, see docs/search.md


@njit(cache=True, inline="always")
def rollout(policy, public, private, moves, n_moves, rng, rows):
    """One play-out decision of the search: random, or a heuristic at its default setting."""
    if policy == 1:
        return middle(public, private, moves, n_moves, rng, rows[1])
    if policy == 2:
        return dodger(public, private, moves, n_moves, rng, rows[2])
    if policy == 3:
        return dumper(public, private, moves, n_moves, rng, rows[3])
    if policy == 4:
        return hider(public, private, moves, n_moves, rng, rows[4])
    return below(rng, n_moves)


@njit(STRATEGY_SIGNATURE, cache=True)
def ismcts(public, private, moves, n_moves, rng, params):
    return search.ismcts(cl.determinize, cl.to_move, cl.legal_moves, cl.apply_move, cl.result,
                         cl.public_view, cl.private_view, rollout, ROLLOUT_ROWS, search.no_evaluation,
                         cl.STATE_SIZE, cl.MAX_MOVES, True, public, private, moves, n_moves, rng, params)


STRATEGIES = [
    Strategy("colleagues", "random", "uniformly random legal move", random_move),
    Strategy("colleagues", "middle",
             "plays each card where it is least likely to be top or bottom of what is shown, "
             "keeps its lowest for Overtime, keeps the Monday hand, hoards tokens", middle,
             params=MIDDLE_PARAMS),
    Strategy("colleagues", "dodger",
             "plays like middle and spends +10/-10/ILLNESS to dodge the top or bottom of a day "
             "when that saves more than the token's point", dodger, params=DODGER_PARAMS),
    Strategy("colleagues", "dumper",
             "mulligans extreme cards toward the middle, dumps its most extreme card first where "
             "it is cheapest (days already lost)", dumper, params=DUMPER_PARAMS),
    Strategy("colleagues", "hider",
             "plays like middle but hides extreme cards face down with MEETING", hider,
             params=HIDER_PARAMS),
    Strategy("colleagues", "ismcts",
             "information-set Monte Carlo tree search over sampled hands, face-down cards and tokens "
             "(experimental: see docs/search.md); budget in iterations", ismcts, params=ISMCTS_PARAMS),
]
