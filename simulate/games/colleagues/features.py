"""Colleagues: the apprentice's features of a legal move (what the move costs or saves in Work,
Reprimand and tokens, what it risks, what it leaves hidden, the score and dismissal race, ...).
Read only from the deciding seat's views.

The apprentice (issue 41) scores a legal move as the dot product of a weight vector with the
move's feature vector and plays the best; the weights are fitted to the search's choices. So the
features are what a good player weighs, each on a scale of about [-1, 1] or [0, 1], and each
varies between the moves of one decision (a feature constant over a decision is useless: the
fit is shift-invariant). Every decision gets its own features (a feature is 0 where it does not
apply), the four kinds of decision share the ones that mean the same thing (``work``, ``repr``,
``tokens``, ``spend``).

The day estimate (as the heuristics', ``strategies/colleagues.py``): on a column, every other card
that will take part is known (face up, a Grey Entity card revealed or looked at) or unknown (face
down or not played yet), an unknown one taken as a uniform draw from the cards the seat has not
seen. A card of value v takes the top (Work card; Overtime: the top Overtime card) with
P = [every known card below v] x (unseen share below v)^unknowns, the bottom (Reprimand card;
Overtime: the lowest draws a token) likewise.

================= ==================================================================================
``work``          expected Work (Overtime card on the Overtime column) points the move adds to my
                  score: a play, P(top) x Work value of its day; a token, the change it makes on its
                  column. / the largest Work or Overtime value (bad: lowest score wins). [-1, 1]
``repr``          expected Reprimand points it adds, the same way, / the largest Reprimand value.
                  [-1, 1]
``repr_race``     ``repr`` x dismissal pressure: 0.5 when my Reprimand total equals the highest
                  other player's, 1 when it is 2 Reprimand cards' worth above, 0 when as far below.
                  [-1, 1]
``work_race``     ``work`` x closeness of the score race: 1 when my score equals the best other
                  seat's, 0 when 4 largest Work cards apart or more. [-1, 1]
``tokens``        expected tokens it draws from the icons of the Work / Reprimand cards it takes
                  (and the token of the lowest Overtime card): P x icons, change for a token; / the
                  most icons on a Work or Reprimand card. [-1, 1]
``card_icons``    play: tokens the played card's Coffee icons draw / the most on a card. [0, 1]
``spend``         tokens the move spends: a face-down play (MEETING), a placed token, a peek. [0, 1]
``spend_late``    ``spend`` x how far the game is (week and turn, 0 first Monday .. 1 last Friday):
                  a token held for later is worth less as the game ends. [0, 1]
``unknown``       play or token: share of the other cards of its column still unknown (later players
                  can react; the estimate is less sure). [0, 1]
``low_played``    play: the card is the hand's lowest, with other cards left (the heuristics keep it
                  for Overtime, whose lowest card draws a token and leads next week). [0, 1]
``later_work``    play: the card's expected Work/Overtime points (as ``work``) on the other columns
                  still open in my row (the Overtime column included), averaged: what keeping the
                  card for later costs; with ``work``, where it is cheapest. [-1, 1]
``later_repr``    the same for Reprimand points. [-1, 1]
``down_extreme``  play face down x how far the card's value is from the middle of all values (0 the
                  median, 1 the lowest or highest card): hiding a card likely to end top or bottom.
                  [0, 1]
``grey_reveal``   Grey Entity decision (2 players): reveal a card to everyone. [0, 1]
``grey_peek``     Grey Entity decision: spend a token to look at a card secretly. [0, 1]
``grey_open``     reveal or peek at a Grey card of a day my row has no card on yet (the news helps
                  my own play). [0, 1]
``grey_known``    reveal or peek at a Grey card I already know. [0, 1]
``grey_stakes``   reveal or peek: (Work + Reprimand value) of that day / (largest of each). [0, 1]
``mull_keep``     Monday: keep the hand (and draw a token). [0, 1]
``mull_count``    Monday: cards discarded / 6. [0, 1]
``mull_low``      Monday: sum over the discarded cards of (how far below the middle its value is,
                  0..1) less the same expected of a card drawn from the unseen ones, / 6. [-1, 1]
``mull_high``     the same above the middle. [-1, 1]
``mull_icons``    Monday: icons of the discarded cards less those expected of the draws, / (6 x the
                  most on a card). [-1, 1]
================= ==================================================================================

Cost: no allocation; one pass over the legal moves: per card in hand a popcount for the unseen
shares (default values) and the estimate on each open column, per move a pass over the seats.
"""
import numpy as np
from numba import njit

from ...kernel import popcount, stack_empty
from . import rules as cl

FEATURES = (
    ("work", "expected Work/Overtime points the move adds to my score (play: P(top) x value; token: "
             "the change), / largest such value; [-1, 1]"),
    ("repr", "expected Reprimand points the move adds, / largest Reprimand value; [-1, 1]"),
    ("repr_race", "repr x dismissal pressure (0.5 level with the highest other total, 1 two cards "
                  "above, 0 two below); [-1, 1]"),
    ("work_race", "work x closeness of the score race (1 level with the best other seat, 0 four "
                  "Work cards apart); [-1, 1]"),
    ("tokens", "expected tokens drawn from the icons of the Work/Reprimand cards taken (and the "
               "lowest Overtime card's token), / most icons; [-1, 1]"),
    ("card_icons", "play: tokens the played card's icons draw / most icons on a card; [0, 1]"),
    ("spend", "tokens the move spends (face-down play, placed token, peek); [0, 1]"),
    ("spend_late", "spend x game progress (0 first Monday .. 1 last Friday); [0, 1]"),
    ("unknown", "play/token: share of the other cards of that column still unknown; [0, 1]"),
    ("low_played", "play: the hand's lowest card (the Overtime candidate) with others left; [0, 1]"),
    ("later_work", "play: mean expected Work/Overtime points of the card on my other open columns "
                   "(Overtime included), as work; [-1, 1]"),
    ("later_repr", "play: the same for Reprimand points; [-1, 1]"),
    ("down_extreme", "play face down x distance of the card's value from the median value, 0..1; [0, 1]"),
    ("grey_reveal", "Grey Entity: reveal a card; [0, 1]"),
    ("grey_peek", "Grey Entity: spend a token to look at a card; [0, 1]"),
    ("grey_open", "reveal/peek on a day my row is still empty on; [0, 1]"),
    ("grey_known", "reveal/peek at a Grey card I already know; [0, 1]"),
    ("grey_stakes", "reveal/peek: that day's Work + Reprimand values / the largest of each; [0, 1]"),
    ("mull_keep", "Monday: keep the hand and draw a token; [0, 1]"),
    ("mull_count", "Monday: cards discarded / 6; [0, 1]"),
    ("mull_low", "Monday: low-extremeness of the discarded cards less a fresh draw's, / 6; [-1, 1]"),
    ("mull_high", "Monday: high-extremeness of the discarded cards less a fresh draw's, / 6; [-1, 1]"),
    ("mull_icons", "Monday: icons discarded less a fresh draw's, / (6 x most icons); [-1, 1]"),
)
N_FEATURES = len(FEATURES)
(F_WORK, F_REPR, F_REPR_RACE, F_WORK_RACE, F_TOKENS, F_CARD_ICONS, F_SPEND, F_SPEND_LATE, F_UNKNOWN,
 F_LOW_PLAYED, F_LATER_WORK, F_LATER_REPR, F_DOWN_EXTREME, F_GREY_REVEAL, F_GREY_PEEK, F_GREY_OPEN,
 F_GREY_KNOWN, F_GREY_STAKES, F_MULL_KEEP, F_MULL_COUNT, F_MULL_LOW, F_MULL_HIGH,
 F_MULL_ICONS) = range(N_FEATURES)

ALL_COMMIT = (1 << cl.N_COMMIT) - 1
NONE_LOW = 1 << 30
NONE_HIGH = -(1 << 30)
COLUMN_CELLS = cl.COLS * 4  # four numbers a column, in a work array on the stack


@njit(cache=True, inline="always")
def _unseen(public, private):
    """The 60-bit mask of the Commitment cards the seat has not seen (not in its hand or row, not
    face up anywhere, not a Grey Entity card it looked at)."""
    low = np.int64(public[cl.FACE_UP_SEEN] | private[cl.P_KNOWN])
    high = np.int64(public[cl.FACE_UP_SEEN + 1] | private[cl.P_KNOWN + 1])
    return ~(low | (high << cl.HALF)) & ALL_COMMIT


@njit(cache=True, inline="always")
def default_values(public):
    """Whether every Commitment card c is worth c + 1 (the default component table)."""
    # in int32 throughout, the loop compiles to a few vector instructions; with c + 1 an int64
    # it stayed a scalar loop, 10x slower (45 ns a decision, a fifth of middle's)
    diff = np.int32(0)
    for c in range(cl.N_COMMIT):
        diff |= public[cl.C_VALUE + c] ^ np.int32(c + 1)
    return diff == 0


@njit(cache=True, inline="always")
def unseen_below(public, unseen, default, v):
    """How many unseen cards are worth less than v."""
    if default:
        k = min(max(np.int64(v) - 1, 0), cl.N_COMMIT)
        return popcount(unseen & ((np.int64(1) << k) - 1))
    count = 0
    for c in range(cl.N_COMMIT):
        count += ((unseen >> c) & 1) & np.int64(public[cl.C_VALUE + c] < v)
    return count


@njit(cache=True, inline="always")
def unseen_fractions(public, unseen, count, default, v):
    """(share of the unseen cards worth less than v, share worth more)."""
    if count == 0:
        return 0.5, 0.5
    return (unseen_below(public, unseen, default, v) / count,
            (count - unseen_below(public, unseen, default, v + 1)) / count)


@njit(cache=True, inline="always")
def ipow(x, k):
    out = 1.0
    for _ in range(k):
        out *= x
    return out


@njit(cache=True, inline="always")
def others_on(public, private, me, col):
    """(lowest known value, highest known value, number of unknown cards) of the other cards that
    will take part in column ``col`` (ILL cards left out; NONE_LOW / NONE_HIGH when none is
    known): the day estimate the heuristics (strategies/colleagues.py) and the features share."""
    n = public[cl.H_PLAYERS]
    lo, hi, unknown = np.int64(NONE_LOW), np.int64(NONE_HIGH), np.int64(0)
    for s in range(n):  # branch-free: the seat's own cell and ILL cards change nothing
        shown = np.int64(public[cl.ROW_SHOWN + s * cl.COLS + col])
        other = s != me
        known = other & (shown > cl.SHOWN_ILL)
        lo = min(lo, shown if known else NONE_LOW)
        hi = max(hi, shown if known else NONE_HIGH)
        unknown += np.int64(other & (shown == cl.SHOWN_HIDDEN))
    grey = public[cl.H_GREY]
    if grey >= 0 and col < cl.DAYS:
        card = public[cl.ROW_CARD + grey * cl.COLS + col]
        if card < 0:
            card = private[cl.P_SEEN + col]
        if card >= 0:
            v = np.int64(public[cl.C_VALUE + card])
            lo = min(lo, v)
            hi = max(hi, v)
        else:
            unknown += 1
    return lo, hi, unknown


@njit(cache=True, inline="always")
def _column(public, private, me, n, grey, col):
    """(lowest known other value, highest known other value, unknown other cards, other cards)
    that take part in column ``col`` (cards with ILLNESS left out)."""
    lo, hi, unknown = others_on(public, private, me, col)
    return lo, hi, unknown, np.int64(n - 1 + (grey >= 0 and col < cl.DAYS))


@njit(cache=True, inline="always")
def _chances(lo, hi, unknown, v, below, above):
    """(P(the card of value v takes the top), P(it takes the bottom))."""
    p_top = ipow(below, unknown) if hi < v else 0.0
    p_bottom = ipow(above, unknown) if lo > v else 0.0
    return p_top, p_bottom


@njit(cache=True, inline="always")
def stakes(public, col):
    """(value of the top, icons of the top, Reprimand value of the bottom, tokens of the bottom)
    of column ``col``: a weekday's Work and Reprimand cards; Overtime: the top Overtime card and
    the lowest card's token."""
    if col == cl.OT_COL:
        k = public[cl.H_OT_NEXT]
        top = public[cl.OT_VALUE + k] if k < cl.N_OT else 0
        return float(top), 0.0, 0.0, 1.0
    w = public[cl.WEEK_WORK + col]
    r = public[cl.WEEK_REPR + col]
    return (float(public[cl.W_VALUE + w]), float(public[cl.W_ICONS + w]),
            float(public[cl.R_VALUE + r]), float(public[cl.R_ICONS + r]))


@njit(cache=True, inline="always")
def _signed_extreme(public, card, default):
    """Where a card's value lies among all Commitment values: (cards below - cards above) /
    (N_COMMIT - 1), -1 the lowest, 0 the median, 1 the highest."""
    if default:
        return (2 * card - (cl.N_COMMIT - 1)) / (cl.N_COMMIT - 1)
    v = public[cl.C_VALUE + card]
    below, above = 0, 0
    for c in range(cl.N_COMMIT):
        x = public[cl.C_VALUE + c]
        below += x < v
        above += x > v
    return (below - above) / (cl.N_COMMIT - 1)


@njit(cache=True, inline="always")
def _clip(x):
    return min(1.0, max(-1.0, x))


@njit(cache=True, _nrt=False)
def move_features(public, private, moves, n_moves, out):
    """out[k, j] (float64, out has shape (>= n_moves, >= N_FEATURES)): feature j of legal move
    moves[k], k < n_moves (FEATURES). Reads only the deciding seat's views."""
    for k in range(n_moves):
        for j in range(N_FEATURES):
            out[k, j] = 0.0
    if n_moves <= 0:
        return
    me = public[cl.H_TO_MOVE]
    if me < 0:
        return
    n = public[cl.H_PLAYERS]
    grey = public[cl.H_GREY]
    decision = public[cl.H_DECISION]
    # ---- the scales: the largest values of the component table
    wscale, rscale, tscale = 1.0, 1.0, 1.0
    for i in range(cl.N_WORK):
        wscale = max(wscale, abs(float(public[cl.W_VALUE + i])))
        tscale = max(tscale, float(public[cl.W_ICONS + i]))
    for i in range(cl.N_OT):
        wscale = max(wscale, abs(float(public[cl.OT_VALUE + i])))
    for i in range(cl.N_REPR):
        rscale = max(rscale, abs(float(public[cl.R_VALUE + i])))
        tscale = max(tscale, float(public[cl.R_ICONS + i]))
    ciscale = 1.0
    for c in range(cl.N_COMMIT):
        ciscale = max(ciscale, float(public[cl.C_ICONS + c]))
    # ---- the races
    mine_r = public[cl.REPR_TOTAL + me]
    top_r = -(1 << 30)
    for s in range(n):
        if s != me:
            top_r = max(top_r, public[cl.REPR_TOTAL + s])
    pressure = min(1.0, max(0.0, 0.5 + (mine_r - top_r) / (4.0 * rscale)))
    mine_s = public[cl.WORK_TOTAL + me] + public[cl.OT_TOTAL + me] - public[cl.TOKENS_HELD + me]
    best_s = 1 << 30
    for s in range(public[cl.H_SEATS]):
        if s != me:
            best_s = min(best_s, public[cl.WORK_TOTAL + s] + public[cl.OT_TOTAL + s]
                         - public[cl.TOKENS_HELD + s])
    closeness = max(0.0, 1.0 - abs(mine_s - best_s) / (4.0 * wscale))
    stage = public[cl.H_STAGE]
    step = 0  # Monday, then the midweek turns 1..5, then Friday
    if stage == cl.STAGE_MIDWEEK:
        step = 1 + public[cl.H_TURN]
    elif stage != cl.STAGE_MONDAY:
        step = cl.DAYS + 1
    progress = min(1.0, (public[cl.H_WEEK] * (cl.DAYS + 1) + step) / (cl.WEEKS * (cl.DAYS + 1)))
    unseen = _unseen(public, private)
    count = popcount(unseen)
    default = default_values(public)

    if decision == cl.DEC_PLAY:
        hand_n = private[cl.P_HAND_N]
        low_card = -1  # the hand's lowest-valued card (the first of equals), when others are left
        if hand_n > 1:
            low_card = private[cl.P_HAND]
            for j in range(1, hand_n):
                c = private[cl.P_HAND + j]
                if public[cl.C_VALUE + c] < public[cl.C_VALUE + low_card]:
                    low_card = c
        # every column's (lowest, highest known other value, unknown others, others) and stakes,
        # once a decision (each card asks them of every open column)
        column = stack_empty(COLUMN_CELLS, np.int64)  # column col's at 4 col + 0 .. 3
        staked = stack_empty(COLUMN_CELLS, np.float64)
        for col in range(cl.COLS):
            at = 4 * col
            column[at], column[at + 1], column[at + 2], column[at + 3] = _column(public, private, me, n, grey, col)
            staked[at], staked[at + 1], staked[at + 2], staked[at + 3] = stakes(public, col)
        counted, below, above, ext = -1, 0.5, 0.5, 0.0
        sum_work, sum_rep, open_cols = 0.0, 0.0, 0
        for k in range(n_moves):
            rel = moves[k] - cl.MOVE_PLAY
            card, day, face = rel >> 4, (rel >> 1) & 7, rel & 1
            if k > 0 and moves[k - 1] == moves[k] - 1 and face == 1:
                # face down after face up, the same card on the same day (the moves come so):
                # the same estimate, copied; only what the face changes is its own
                for j in range(F_SPEND):
                    out[k, j] = out[k - 1, j]
                for j in range(F_UNKNOWN, N_FEATURES):
                    out[k, j] = out[k - 1, j]
                out[k, F_SPEND] = 1.0
                out[k, F_SPEND_LATE] = progress
                out[k, F_DOWN_EXTREME] = ext
                continue
            v = public[cl.C_VALUE + card]
            if card != counted:
                below, above = unseen_fractions(public, unseen, count, default, v)
                ext = abs(_signed_extreme(public, card, default))
                counted = card
                # the card on every column still open in my row (the Overtime column too)
                sum_work, sum_rep, open_cols = 0.0, 0.0, 0
                for col in range(cl.COLS):
                    if private[cl.P_CARD + col] < 0:
                        at = 4 * col
                        p_top, p_bottom = _chances(column[at], column[at + 1], column[at + 2], v, below, above)
                        sum_work += p_top * staked[at] / wscale
                        sum_rep += p_bottom * staked[at + 2] / rscale
                        open_cols += 1
            at = 4 * day
            unknown, others = column[at + 2], column[at + 3]
            p_top, p_bottom = _chances(column[at], column[at + 1], unknown, v, below, above)
            top, top_i, bottom, bottom_i = staked[at], staked[at + 1], staked[at + 2], staked[at + 3]
            work = p_top * top / wscale  # the same arithmetic as in the sums above
            rep = p_bottom * bottom / rscale
            if open_cols > 1:
                out[k, F_LATER_WORK] = _clip((sum_work - work) / (open_cols - 1))
                out[k, F_LATER_REPR] = _clip((sum_rep - rep) / (open_cols - 1))
            out[k, F_WORK] = work
            out[k, F_REPR] = rep
            out[k, F_REPR_RACE] = rep * pressure
            out[k, F_WORK_RACE] = work * closeness
            out[k, F_TOKENS] = _clip((p_top * top_i + p_bottom * bottom_i) / tscale)
            out[k, F_CARD_ICONS] = public[cl.C_ICONS + card] / ciscale
            out[k, F_SPEND] = face
            out[k, F_SPEND_LATE] = face * progress
            out[k, F_UNKNOWN] = unknown / others if others > 0 else 0.0
            out[k, F_LOW_PLAYED] = 1.0 if card == low_card else 0.0
            out[k, F_DOWN_EXTREME] = face * ext
    elif decision == cl.DEC_TOKEN:
        counted = -1
        lo, hi, unknown, others = np.int64(NONE_LOW), np.int64(NONE_HIGH), np.int64(0), 0
        top, top_i, bottom, bottom_i = 0.0, 0.0, 0.0, 0.0
        t_now, b_now, t_up, b_up, t_down, b_down = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        ill = False
        for k in range(n_moves):
            if moves[k] == cl.MOVE_TOKEN_NONE:
                continue
            rel = moves[k] - cl.MOVE_TOKEN
            col, kind = rel >> 2, rel & 3
            if col != counted:
                counted = col
                ill = private[cl.P_ILL + col] > 0
                lo, hi, unknown, others = _column(public, private, me, n, grey, col)
                top, top_i, bottom, bottom_i = stakes(public, col)
                v = (public[cl.C_VALUE + private[cl.P_CARD + col]]
                     + cl.TOKEN_STEP * (private[cl.P_PLUS + col] - private[cl.P_MINUS + col]))
                below, above = unseen_fractions(public, unseen, count, default, v)
                t_now, b_now = _chances(lo, hi, unknown, v, below, above)
                below, above = unseen_fractions(public, unseen, count, default, v + cl.TOKEN_STEP)
                t_up, b_up = _chances(lo, hi, unknown, v + cl.TOKEN_STEP, below, above)
                below, above = unseen_fractions(public, unseen, count, default, v - cl.TOKEN_STEP)
                t_down, b_down = _chances(lo, hi, unknown, v - cl.TOKEN_STEP, below, above)
            out[k, F_SPEND] = 1.0
            out[k, F_SPEND_LATE] = progress
            out[k, F_UNKNOWN] = unknown / others if others > 0 else 0.0
            if ill:
                continue  # the card is out of the comparison already: the token changes nothing
            if kind == cl.ILLNESS:
                d_top, d_bottom = -t_now, -b_now
            elif kind == cl.PLUS:
                d_top, d_bottom = t_up - t_now, b_up - b_now
            else:
                d_top, d_bottom = t_down - t_now, b_down - b_now
            work = d_top * top / wscale
            rep = d_bottom * bottom / rscale
            out[k, F_WORK] = work
            out[k, F_REPR] = rep
            out[k, F_REPR_RACE] = rep * pressure
            out[k, F_WORK_RACE] = work * closeness
            out[k, F_TOKENS] = _clip((d_top * top_i + d_bottom * bottom_i) / tscale)
    elif decision == cl.DEC_GREY:
        for k in range(n_moves):
            m = moves[k]
            if m == cl.MOVE_GREY_NONE:
                continue
            if m >= cl.MOVE_PEEK:
                day = (m - cl.MOVE_PEEK) >> 2
                out[k, F_GREY_PEEK] = 1.0
                out[k, F_SPEND] = 1.0
                out[k, F_SPEND_LATE] = progress
            else:
                day = m - cl.MOVE_REVEAL
                out[k, F_GREY_REVEAL] = 1.0
            out[k, F_GREY_OPEN] = 1.0 if private[cl.P_CARD + day] < 0 else 0.0
            out[k, F_GREY_KNOWN] = 1.0 if private[cl.P_SEEN + day] >= 0 else 0.0
            w = public[cl.WEEK_WORK + day]
            r = public[cl.WEEK_REPR + day]
            out[k, F_GREY_STAKES] = min(1.0, (abs(public[cl.W_VALUE + w]) + abs(public[cl.R_VALUE + r]))
                                        / (wscale + rscale))
    elif decision == cl.DEC_MULLIGAN:
        # what a card drawn instead is expected to be: the mean over the unseen cards
        e_low, e_high, e_icons = 0.0, 0.0, 0.0
        if count > 0:
            for c in range(cl.N_COMMIT):
                if (unseen >> c) & 1:
                    x = _signed_extreme(public, c, default)
                    e_low += max(0.0, -x)
                    e_high += max(0.0, x)
                    e_icons += public[cl.C_ICONS + c]
            e_low /= count
            e_high /= count
            e_icons /= count
        hand_n = private[cl.P_HAND_N]
        # per hand position: what discarding that card changes (six of each, as scalars)
        l0 = l1 = l2 = l3 = l4 = l5 = 0.0
        h0 = h1 = h2 = h3 = h4 = h5 = 0.0
        i0 = i1 = i2 = i3 = i4 = i5 = 0.0
        for j in range(hand_n):
            c = private[cl.P_HAND + j]
            x = _signed_extreme(public, c, default)
            dl = max(0.0, -x) - e_low
            dh = max(0.0, x) - e_high
            di = (public[cl.C_ICONS + c] - e_icons) / ciscale
            if j == 0:
                l0, h0, i0 = dl, dh, di
            elif j == 1:
                l1, h1, i1 = dl, dh, di
            elif j == 2:
                l2, h2, i2 = dl, dh, di
            elif j == 3:
                l3, h3, i3 = dl, dh, di
            elif j == 4:
                l4, h4, i4 = dl, dh, di
            else:
                l5, h5, i5 = dl, dh, di
        for k in range(n_moves):
            mask = moves[k] - cl.MOVE_MULLIGAN
            if mask == 0:
                out[k, F_MULL_KEEP] = 1.0
                continue
            b0, b1, b2 = mask & 1, (mask >> 1) & 1, (mask >> 2) & 1
            b3, b4, b5 = (mask >> 3) & 1, (mask >> 4) & 1, (mask >> 5) & 1
            out[k, F_MULL_COUNT] = popcount(mask) / cl.HAND
            out[k, F_MULL_LOW] = (b0 * l0 + b1 * l1 + b2 * l2 + b3 * l3 + b4 * l4 + b5 * l5) / cl.HAND
            out[k, F_MULL_HIGH] = (b0 * h0 + b1 * h1 + b2 * h2 + b3 * h3 + b4 * h4 + b5 * h5) / cl.HAND
            out[k, F_MULL_ICONS] = _clip((b0 * i0 + b1 * i1 + b2 * i2 + b3 * i3 + b4 * i4 + b5 * i5)
                                         / cl.HAND)
