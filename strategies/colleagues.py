"""Built-in Colleagues strategies.

Observation layout: ``tourney_sim.simulate.games.colleagues.rules`` (``public`` holds the public state part at the
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
from tourney_sim.simulate.policy import guided_choice
from tourney_sim.simulate.games.colleagues import features
from tourney_sim.simulate.games.colleagues import rules as cl
from tourney_sim.simulate.games.colleagues.features import (  # shared with the features
    NONE_HIGH as NONE_KNOWN_HIGH, NONE_LOW as NONE_KNOWN_LOW, default_values, ipow, others_on, stakes,
    unseen_fractions)
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE, popcount

from . import Param, Strategy
from .common import apprentice, guide_of, random_move, rollout_policies, search_for_table

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


# Speed (these heuristics also play the search's rollouts, thousands of decisions per real one):
# nothing here allocates, sorts or loops over the 60 cards per candidate move. The seat's view of
# a decision is a 60-bit mask of the cards it has not seen, from the card sets the rules keep
# (``FACE_UP_SEEN``, ``P_KNOWN``: four loads instead of a pass over hand and rows); with the default
# values (card c worth c + 1, checked once per decision) "how many unseen cards are worth less than
# v" is a popcount of that mask below v - 1, with any other table one pass over the 60 cards. Each
# column is summarised once per decision from what the rules keep of each cell (``ROW_SHOWN``: one
# load a seat instead of five), branch-free, and every cost is the same arithmetic, in the same
# order, as the formula in the module docstring, so every choice stays the same. The
# strategies compile with ``_nrt=False``: they own no array, and without the runtime numba emits
# no reference counting for the arrays the inlined helpers are handed (a call per helper and
# array, inside the loops too).
ALL_COMMIT = (1 << cl.N_COMMIT) - 1


@njit(cache=True, inline="always")
def seen_mask(public, private):
    """Bit c set for every Commitment card the seat can see (hand, rows, Grey cards it knows):
    the card sets the rules keep (``FACE_UP_SEEN``, ``P_KNOWN``)."""
    low = np.int64(public[cl.FACE_UP_SEEN] | private[cl.P_KNOWN])
    high = np.int64(public[cl.FACE_UP_SEEN + 1] | private[cl.P_KNOWN + 1])
    return low | (high << cl.HALF)


@njit(cache=True, inline="always")
def ipow_flat(x, k):
    """ipow(x, k), the same products, without a data-dependent branch for k <= 4 (the most
    unknown cards a column can have)."""
    p1 = 1.0 * x
    p2 = p1 * x
    p3 = p2 * x
    p4 = p3 * x
    out = 1.0 if k <= 0 else p1
    out = out if k <= 1 else p2
    out = out if k <= 2 else p3
    out = out if k <= 3 else p4
    if k > 4:
        out = ipow(x, k)
    return out


@njit(cache=True, inline="always")
def pick(day, x0, x1, x2, x3, x4):
    """(x0, x1, x2, x3, x4)[day] as conditional moves (a tuple indexed at run time branches)."""
    out = x0 if day == 0 else x1
    out = out if day <= 1 else x2
    out = out if day <= 2 else x3
    return out if day <= 3 else x4


@njit(cache=True, inline="always")
def column_stakes(public, col, reprimand_weight):
    """(cost of taking the top, cost of taking the bottom) of column ``col``: its values less the
    tokens they draw (the features' :func:`features.stakes`); Overtime's bottom draws a token."""
    top, top_icons, bottom, bottom_tokens = stakes(public, col)
    return top - top_icons, reprimand_weight * bottom - bottom_tokens


@njit(cache=True, inline="always")
def column_view(public, private, me, col, reprimand_weight, needed):
    """What a heuristic needs of column ``col``: (lowest / highest known other value, unknown
    others, cost of the top, cost of the bottom); placeholders when not ``needed``."""
    if not needed:
        return np.int64(NONE_KNOWN_LOW), np.int64(NONE_KNOWN_HIGH), np.int64(0), 0.0, 0.0
    lo, hi, unknown = others_on(public, private, me, col)
    top, bottom = column_stakes(public, col, reprimand_weight)
    return lo, hi, unknown, top, bottom


@njit(cache=True, inline="always")
def cost_given(lo, hi, unknown, top, bottom, v, below, above):
    """:func:`day_cost` of a column summarised by :func:`column_view`, with the unseen fractions
    below / above v already counted."""
    p_top = ipow_flat(below, unknown)
    p_bottom = ipow_flat(above, unknown)
    p_top = p_top if hi < v else 0.0
    p_bottom = p_bottom if lo > v else 0.0
    return p_top * top + p_bottom * bottom


@njit(cache=True, inline="always")
def day_cost(public, private, col, v, reprimand_weight):
    """Expected cost of a card of value ``v`` in column ``col`` (see the module docstring) for
    the seat to move: the reference the strategies follow (they share the counts and the column
    summaries between candidate moves, with the same arithmetic)."""
    unseen = ~seen_mask(public, private) & ALL_COMMIT
    below, above = unseen_fractions(public, unseen, popcount(unseen), default_values(public), v)
    lo, hi, unknown, top, bottom = column_view(public, private, public[cl.H_TO_MOVE], col,
                                               reprimand_weight, True)
    return cost_given(lo, hi, unknown, top, bottom, v, below, above)


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
    unseen = ~seen_mask(public, private) & ALL_COMMIT
    count = popcount(unseen)
    default = default_values(public)
    me = public[cl.H_TO_MOVE]
    # the weekdays still empty in the seat's row (the only ones a play can go to)
    l0, h0, u0, t0, b0 = column_view(public, private, me, 0, reprimand_weight, private[cl.P_CARD + 0] < 0)
    l1, h1, u1, t1, b1 = column_view(public, private, me, 1, reprimand_weight, private[cl.P_CARD + 1] < 0)
    l2, h2, u2, t2, b2 = column_view(public, private, me, 2, reprimand_weight, private[cl.P_CARD + 2] < 0)
    l3, h3, u3, t3, b3 = column_view(public, private, me, 3, reprimand_weight, private[cl.P_CARD + 3] < 0)
    l4, h4, u4, t4, b4 = column_view(public, private, me, 4, reprimand_weight, private[cl.P_CARD + 4] < 0)
    keep = reserved_card(public, private)
    best, best_cost = -1, 1e18
    counted, below, above = -1, 0.5, 0.5
    for i in range(n_moves):
        card, day, face = play_parts(moves[i])
        if face == 1 or card == keep or (only_card >= 0 and card != only_card):
            continue
        v = public[cl.C_VALUE + card]
        if card != counted:  # the moves come card by card: count the unseen cards once a card
            below, above = unseen_fractions(public, unseen, count, default, v)
            counted = card
        cost = cost_given(pick(day, l0, l1, l2, l3, l4), pick(day, h0, h1, h2, h3, h4),
                          pick(day, u0, u1, u2, u3, u4), pick(day, t0, t1, t2, t3, t4),
                          pick(day, b0, b1, b2, b3, b4), v, below, above)
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
@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
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


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def dodger(public, private, moves, n_moves, rng, params):
    """Plays like ``middle``; spends a +10, -10 or ILLNESS token on one of its cards when that
    lowers the card's expected cost by more than ``token_threshold`` (a token is worth 1 point)."""
    reprimand_weight = params[D_REPRIMAND_WEIGHT]
    token_threshold = params[D_TOKEN_THRESHOLD]
    decision = public[cl.H_DECISION]
    if decision == cl.DEC_PLAY:
        return cheapest_play(public, private, moves, n_moves, -1, reprimand_weight)
    if decision == cl.DEC_TOKEN:
        me = public[cl.H_TO_MOVE]
        unseen = ~seen_mask(public, private) & ALL_COMMIT
        count = popcount(unseen)
        default = default_values(public)
        best, best_gain = 0, token_threshold
        counted, hopeless, now, up, down = -1, False, 0.0, 0.0, 0.0
        for i in range(1, n_moves):
            rel = moves[i] - cl.MOVE_TOKEN
            col, kind = rel >> 2, rel & 3
            if private[cl.P_ILL + col] > 0:
                continue  # already out of the comparison
            if col != counted:  # the moves come column by column: cost each column once
                counted = col
                v = own_value(public, private, col)
                lo, hi, unknown, top, bottom = column_view(public, private, me, col,
                                                           reprimand_weight, True)
                below, above = unseen_fractions(public, unseen, count, default, v)
                now = cost_given(lo, hi, unknown, top, bottom, v, below, above)
                # no token can save more than now - (least possible cost): when that is not
                # above the best saving so far, none of this column's moves is taken (exact in
                # floating point too: every cost is >= min(top, 0) + min(bottom, 0), rounded)
                hopeless = now - (min(top, 0.0) + min(bottom, 0.0)) <= best_gain
                if hopeless:
                    continue
                below, above = unseen_fractions(public, unseen, count, default, v + cl.TOKEN_STEP)
                up = cost_given(lo, hi, unknown, top, bottom, v + cl.TOKEN_STEP, below, above)
                below, above = unseen_fractions(public, unseen, count, default, v - cl.TOKEN_STEP)
                down = cost_given(lo, hi, unknown, top, bottom, v - cl.TOKEN_STEP, below, above)
            elif hopeless:
                continue
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
def extremeness(public, card, default):
    """Distance of a card's value from the middle of all Commitment values, in cards: how many
    cards lie between it and the median (0 = middle). ``default``: :func:`default_values`."""
    if default:  # card c is worth c + 1: c cards below it, 59 - c above
        return abs(card - (cl.N_COMMIT - 1 - card)) // 2
    v = public[cl.C_VALUE + card]
    below, above = 0, 0
    for c in range(cl.N_COMMIT):
        x = public[cl.C_VALUE + c]
        below += x < v
        above += x > v
    return abs(below - above) // 2


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def dumper(public, private, moves, n_moves, rng, params):
    """Mulligans its extreme cards toward middle ones; plays its most extreme card first, on the
    day where it is cheapest (a day already lost to someone further out); hoards tokens."""
    reprimand_weight = params[U_REPRIMAND_WEIGHT]
    extreme_from = np.int64(params[U_EXTREME_FROM])
    mulligan_min = np.int64(params[U_MULLIGAN_MIN])
    decision = public[cl.H_DECISION]
    if decision == cl.DEC_MULLIGAN:
        default = default_values(public)
        mask, count = 0, 0
        for j in range(private[cl.P_HAND_N]):
            if extremeness(public, private[cl.P_HAND + j], default) >= extreme_from:
                mask |= 1 << j
                count += 1
        if count >= mulligan_min:
            return mask  # move code MOVE_MULLIGAN + mask sits at index mask
        return keep_index(moves, n_moves)
    if decision == cl.DEC_PLAY:
        default = default_values(public)
        keep = reserved_card(public, private)
        target, far = -1, -1
        for j in range(private[cl.P_HAND_N]):
            c = private[cl.P_HAND + j]
            if c == keep:
                continue
            e = extremeness(public, c, default)
            if e > far:
                target, far = c, e
        return cheapest_play(public, private, moves, n_moves, target, reprimand_weight)
    return 0  # no token, leave the Grey Entity alone


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
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
            if extremeness(public, card, default_values(public)) >= extreme_from:
                down = moves[i] + 1
                for j in range(i + 1, n_moves):
                    if moves[j] == down:
                        return j
        return i
    if decision == cl.DEC_MULLIGAN:
        return keep_index(moves, n_moves)
    return 0


# the heuristics, each also a rollout policy of the search (declared here once)
HEURISTICS = [
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
]
# random, the heuristics at their defaults, then their shipped tuned settings (NAME-tuned)
# the apprentice (issue 41): its features and the choice of its guide, the strong heuristic
GUIDE = guide_of(HEURISTICS, "dodger")
GUIDE_ROW = GUIDE.param_row()


@njit(STRATEGY_SIGNATURE, cache=True)
def apprentice_move(public, private, moves, n_moves, rng, params):
    return guided_choice(features.move_features, features.N_FEATURES, dodger, GUIDE_ROW,
                         public, private, moves, n_moves, rng, params)


APPRENTICE = apprentice("colleagues", apprentice_move, GUIDE)  # also a play-out policy of the search
ROLLOUT_POLICIES, ROLLOUT_ROWS, rollout = rollout_policies(HEURISTICS, APPRENTICE)
# rank only: a dismissed seat ranks last; play-outs to the end of the week, among dodger's 8
# favourite moves, leaving dodger's own only on a clear lead (docs/search.md)
ISMCTS_PARAMS = search.search_params(ROLLOUT_POLICIES, iterations=100, rollout="dodger", score_weight=0.0,
                                     score_scale=6.0, candidates=8, margin=1.0, horizon=1, stages="weeks")


@njit(cache=True)  # compiled with STRATEGY_SIGNATURE when first resolved: kernel.ready
def ismcts(public, private, moves, n_moves, rng, params):
    return search.ismcts(cl, rollout, ROLLOUT_ROWS, search.no_evaluation, cl.weeks_over, True,
                         public, private, moves, n_moves, rng, params, search.NO_VALUES)


@njit(cache=True)  # what the search found: tourney train's value labels
def ismcts_values(public, private, moves, n_moves, rng, params, values):
    return search.ismcts(cl, rollout, ROLLOUT_ROWS, search.no_evaluation, cl.weeks_over, True,
                         public, private, moves, n_moves, rng, params, values)


STRATEGIES = [
    Strategy("colleagues", "random", "uniformly random legal move", random_move),
    *HEURISTICS,
    Strategy("colleagues", "ismcts",
             "information-set Monte Carlo tree search over sampled hands, face-down cards and tokens "
             "(experimental: see docs/search.md); budget in iterations", ismcts, params=ISMCTS_PARAMS,
             for_table=search_for_table),
    APPRENTICE,
]
