"""Built-in Partners strategies.

Every heuristic scores each legal move by the change it makes to the board (decoded from the
move code, PA-11) and plays the best; they differ in what they value. In the exchange (PA-8)
each gives the card it values least for itself, except ``teamwork``, which gives the card
its partner can use best. They read only the public view (board, tables, seat to move) and
their own private view (hand); layouts in ``tourney_sim.simulate.games.partners``.

Piece values: outside -20, the start space 0, a numbered space its track code (1..56 steps
from the start), a house space 56 + 24 + h.
"""
from numba import njit

from tourney_sim.simulate.games import partners as pa
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE

from . import Strategy
from .common import random_move

V_OUT = -20
HOME_BONUS = 24
NO_USE = -1000.0


@njit(cache=True, inline="always")
def pval(t, ring):
    """Value of a piece at track code t."""
    if t == pa.OUTSIDE:
        return V_OUT
    if t > ring:
        return ring + HOME_BONUS + t - ring
    return t


@njit(cache=True)
def threatened(public, c, d):
    """Could an opponent of colour c land on colour c's ring track d with one card (1..13)?"""
    ring = public[pa.H_RING]
    if d < 1 or d > ring:
        return False
    a = pa.abs_space(public, c, d)
    for k in range(1, 14):
        b = a - k
        if b < 0:
            b += ring
        q = public[pa.RING_COL + b]
        if q >= 0 and (q & 1) != (c & 1):
            return True
    sec = public[pa.H_SECTION]
    for q in ((c + 1) & 3, (c + 3) & 3):
        if public[pa.START_CNT + q] > 0:
            dist = a - q * sec
            if dist < 0:
                dist += ring
            if dist < 13:
                return True
    return False


@njit(cache=True)
def piece_delta(public, c, t, d, knock_w, team_w, danger_w, pair_w):
    """Value of moving colour c's piece (of the mover's team) from track t to d, landing rule
    included: knocking an opponent (knock_w) or a team mate (team_w) out, ending threatened
    (danger_w), joining an own piece (a protected pair, pair_w)."""
    ring = public[pa.H_RING]
    fin = pa.landing(public, c, d)
    val = float(pval(fin, ring) - pval(t, ring))
    if fin >= 1 and fin <= ring:
        a = pa.abs_space(public, c, fin)
        q = public[pa.RING_COL + a]
        if q >= 0 and q != c:
            loss = pval(pa.track_of(public, q, a), ring) - V_OUT
            if (q & 1) == (c & 1):
                val -= team_w * loss
            else:
                val += knock_w * loss
        elif q == c and pair_w != 0.0 and fin != t:
            val += pair_w
    if danger_w != 0.0:
        if fin >= 1 and fin <= ring and threatened(public, c, fin):
            val -= danger_w * (pval(fin, ring) - V_OUT)
        if t >= 1 and t <= ring and threatened(public, c, t):
            val += danger_w * (pval(t, ring) - V_OUT)
        if t == 0 and fin != 0:
            val -= danger_w * 8.0  # giving up the start block
    return val


@njit(cache=True)
def move_value(public, move, knock_w, team_w, danger_w, pair_w, opp_w, advance_w):
    """Score of a play move for the seat to move (see piece_delta); opp_w weighs what a Swap
    does to opponents' pieces; advance_w favours moving the piece furthest ahead."""
    seat = public[pa.H_TO_MOVE]
    if move == pa.MOVE_DISCARD:
        return 0.0
    ring = public[pa.H_RING]
    kind = move >> 58
    kb = pa.KIND_TABLE + kind * pa.N_EFFECTS
    m = pa.mover_colour(public, seat)
    if public[kb + pa.E_SWAP] > 0:
        if (move & 0x3FFF) == 0:
            return -0.5
        a = (move >> 7) & 127
        b = move & 127
        val = 0.0
        for side in range(2):
            x = a if side == 0 else b
            y = b if side == 0 else a
            q = public[pa.RING_COL + x]
            told = pa.track_of(public, q, x)
            tnew = pa.track_of(public, q, y)
            dv = pval(tnew, ring) - pval(told, ring)
            if (q & 1) == (seat & 1):
                val += dv
                if danger_w != 0.0 and threatened(public, q, tnew):
                    val -= danger_w * (pval(tnew, ring) - V_OUT)
            else:
                val -= opp_w * dv
        return val
    if public[kb + pa.E_SPLIT] > 0:
        total = public[kb + pa.E_SPLIT]
        n_own = (move >> 55) & 7
        comp = (move >> 49) & 63
        prev = 0
        j = 0
        val = 0.0
        for cut in range(1, total + 1):
            if cut == total or ((comp >> (6 - cut)) & 1) == 0:
                s = cut - prev
                prev = cut
                t = (move >> (42 - 7 * j)) & 127
                c = seat if j < n_own else seat ^ 2
                d = pa.fwd_dest(public, c, t, s, public[pa.HOUSE_MASK + c])
                if d < 0:  # legal only after an earlier sub-move cleared the way
                    d = t + s
                val += piece_delta(public, c, t, d, knock_w, team_w, danger_w, pair_w)
                val += advance_w * pval(t, ring)
                j += 1
        return val
    v = (move >> 7) & 63
    t = move & 127
    if t == pa.OUTSIDE:
        val = float(-V_OUT)
        if danger_w != 0.0:
            val += danger_w * 8.0
        return val
    if public[kb + pa.E_BACK] > 0:
        d = pa.back_dest(public, m, t, v)
    else:
        d = pa.fwd_dest(public, m, t, v, public[pa.HOUSE_MASK + m])
    return piece_delta(public, m, t, d, knock_w, team_w, danger_w, pair_w) + advance_w * pval(t, ring)


@njit(cache=True)
def kind_value(public, kind, c, knock_w, team_w, danger_w, pair_w):
    """Best value colour c's player could get now from a card of ``kind`` (NO_USE if none)."""
    ring = public[pa.H_RING]
    kb = pa.KIND_TABLE + kind * pa.N_EFFECTS
    best = NO_USE
    if public[kb + pa.E_SWAP] > 0:
        return 2.0
    if public[kb + pa.E_START] > 0 and public[pa.OUT + c] > 0:
        best = float(-V_OUT)
    mask = public[pa.HOUSE_MASK + c]
    for r in range(4):
        v = public[kb + pa.E_FWD] if r == 0 else (public[kb + pa.E_FWD2] if r == 1 else (
            public[kb + pa.E_SPLIT] if r == 2 else public[kb + pa.E_BACK]))
        if v <= 0:
            continue
        for i in range(4):
            t = public[pa.PIECE + 4 * c + i]
            if t == pa.OUTSIDE:
                break
            d = pa.back_dest(public, c, t, v) if r == 3 else pa.fwd_dest(public, c, t, v, mask)
            if d >= 0:
                x = piece_delta(public, c, t, d, knock_w, team_w, danger_w, pair_w)
                if x > best:
                    best = x
    return best


@njit(cache=True)
def give_card(public, private, moves, n_moves, for_partner, knock_w, team_w, danger_w, pair_w):
    """Index of the GIVE move: the kind least useful to me, or (for_partner) the kind whose use
    to the partner most exceeds its use to me."""
    seat = public[pa.H_TO_MOVE]
    me = pa.mover_colour(public, seat)
    partner = pa.mover_colour(public, seat ^ 2)
    best = 0
    best_score = 1e18
    for i in range(n_moves):
        kind = moves[i] - pa.MOVE_GIVE
        score = kind_value(public, kind, me, knock_w, team_w, danger_w, pair_w)
        if for_partner:
            score -= kind_value(public, kind, partner, knock_w, team_w, danger_w, pair_w)
        if score < best_score:
            best, best_score = i, score
    return best


@njit(cache=True)
def best_move(public, moves, n_moves, knock_w, team_w, danger_w, pair_w, opp_w, advance_w):
    best = 0
    best_score = -1e18
    for i in range(n_moves):
        score = move_value(public, moves[i], knock_w, team_w, danger_w, pair_w, opp_w, advance_w)
        if score > best_score:
            best, best_score = i, score
    return best


@njit(STRATEGY_SIGNATURE, cache=True)
def race(public, private, moves, n_moves, rng, params):
    if public[pa.H_PHASE] == pa.PHASE_EXCHANGE:
        return give_card(public, private, moves, n_moves, False, 0.0, 1.0, 0.0, 0.0)
    return best_move(public, moves, n_moves, 0.0, 1.0, 0.0, 0.0, 0.0, 0.05)


@njit(STRATEGY_SIGNATURE, cache=True)
def hunter(public, private, moves, n_moves, rng, params):
    if public[pa.H_PHASE] == pa.PHASE_EXCHANGE:
        return give_card(public, private, moves, n_moves, False, 2.0, 1.0, 0.0, 0.0)
    return best_move(public, moves, n_moves, 2.0, 1.0, 0.0, 0.0, 1.0, 0.0)


@njit(STRATEGY_SIGNATURE, cache=True)
def guardian(public, private, moves, n_moves, rng, params):
    if public[pa.H_PHASE] == pa.PHASE_EXCHANGE:
        return give_card(public, private, moves, n_moves, False, 0.5, 1.0, 0.5, 6.0)
    return best_move(public, moves, n_moves, 0.5, 1.0, 0.5, 6.0, 0.5, 0.0)


@njit(STRATEGY_SIGNATURE, cache=True)
def teamwork(public, private, moves, n_moves, rng, params):
    if public[pa.H_PHASE] == pa.PHASE_EXCHANGE:
        return give_card(public, private, moves, n_moves, True, 1.0, 1.0, 0.0, 0.0)
    return best_move(public, moves, n_moves, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0)


STRATEGIES = [
    Strategy("partners", "random", "uniformly random legal move and card to give", random_move),
    Strategy("partners", "race",
             "advances its pieces, the one furthest ahead first; ignores opponents; gives away "
             "the card it needs least", race),
    Strategy("partners", "hunter",
             "knocks opponents out whenever it can and swaps them back, else advances; gives "
             "away the card it needs least", hunter),
    Strategy("partners", "guardian",
             "advances safely: avoids spaces opponents can reach, keeps pairs and its start "
             "block; gives away the card it needs least", guardian),
    Strategy("partners", "teamwork",
             "plays for the team's progress and gives the partner the card the partner can "
             "use best", teamwork),
]
