"""Built-in Partners strategies.

Every heuristic scores each legal move by the change it makes to the board (decoded from the
move code, PA-11) and plays the best; they differ in what they value. In the exchange (PA-8)
each gives the card it values least for itself, except ``teamwork``, which gives the card
its partner can use best. They read only the public view (board, tables, seat to move) and
their own private view (hand); layouts in ``tourney_sim.simulate.games.partners.rules``.

Piece values: outside ``outside_value`` (-20), the start space 0, a numbered space its track
code (1..56 steps from the start), a house space 56 + ``home_bonus`` (24) + h.

Parameters (issue 11; every heuristic declares the same twelve, with its own defaults):
``knock_weight``, ``team_knock_weight``, ``danger_weight``, ``pair_bonus``, ``swap_harm_weight``,
``lead_weight`` (the weights of the move evaluation, also used to value cards in the exchange),
``outside_value``, ``home_bonus`` (piece values), ``start_block`` (danger charged for leaving the
own start space), ``threat_reach`` (how far an opponent piece is taken to reach),
``idle_swap_cost`` (a Swap that changes nothing) and ``swap_card_value`` (a Swap card's worth
when choosing the card to give).
"""
import numpy as np
from numba import njit

from tourney_sim.simulate import search
from tourney_sim.simulate.policy import guided_choice
from tourney_sim.simulate.games.partners import features
from tourney_sim.simulate.games.partners import rules as pa
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE

from . import Param, Strategy
from .common import apprentice, guide_of, random_move, rollout_policies, search_for_table

NO_USE = -1000.0  # sentinel: a card kind with no use now

# positions in the params array (the same layout for every heuristic)
P_KNOCK = 0
P_TEAM_KNOCK = 1
P_DANGER = 2
P_PAIR = 3
P_SWAP_HARM = 4
P_LEAD = 5
P_OUTSIDE = 6
P_HOME_BONUS = 7
P_START_BLOCK = 8
P_THREAT_REACH = 9
P_IDLE_SWAP = 10
P_SWAP_CARD = 11


def heuristic_params(knock, team_knock, danger, pair, swap_harm, lead, outside=-20, home_bonus=24,
                     start_block=8.0, threat_reach=13, idle_swap=0.5, swap_card=2.0):
    """The parameters of a heuristic, in the order of the P_* positions, with its defaults."""
    return (
        Param.real("knock_weight", knock, 0.0, 6.0,
                   "bonus for knocking an opponent out, times the value the piece loses"),
        Param.real("team_knock_weight", team_knock, 0.0, 5.0,
                   "penalty for knocking a team mate out, times the value the piece loses"),
        Param.real("danger_weight", danger, 0.0, 2.0,
                   "penalty for leaving a piece where an opponent can land, times its value "
                   "(and bonus for moving one away)"),
        Param.real("pair_bonus", pair, 0.0, 30.0,
                   "bonus for joining an own piece (a protected pair)"),
        Param.real("swap_harm_weight", swap_harm, 0.0, 4.0,
                   "weight of what a Swap takes from opponents' pieces"),
        Param.real("lead_weight", lead, 0.0, 0.5,
                   "preference for moving the piece furthest ahead, times its value"),
        Param.int("outside_value", outside, -100, 0,
                  "value of a piece outside the board (the start space is 0, a numbered space "
                  "its steps from the start)"),
        Param.int("home_bonus", home_bonus, 0, 100,
                  "extra value of a piece in the house"),
        Param.real("start_block", start_block, 0.0, 40.0,
                   "danger charged for leaving the own start space, times danger_weight"),
        Param.int("threat_reach", threat_reach, 1, 20,
                  "steps an opponent piece is taken to reach with one card"),
        Param.real("idle_swap_cost", idle_swap, 0.0, 5.0,
                   "penalty for a Swap that changes nothing"),
        Param.real("swap_card_value", swap_card, 0.0, 30.0,
                   "worth of a Swap card when choosing the card to give"),
    )


RACE_PARAMS = heuristic_params(knock=0.0, team_knock=1.0, danger=0.0, pair=0.0, swap_harm=0.0, lead=0.05)
HUNTER_PARAMS = heuristic_params(knock=2.0, team_knock=1.0, danger=0.0, pair=0.0, swap_harm=1.0, lead=0.0)
GUARDIAN_PARAMS = heuristic_params(knock=0.5, team_knock=1.0, danger=0.5, pair=6.0, swap_harm=0.5, lead=0.0)
TEAMWORK_PARAMS = heuristic_params(knock=1.0, team_knock=1.0, danger=0.0, pair=0.0, swap_harm=1.0, lead=0.0)


@njit(cache=True, inline="always")
def pval(t, ring, v_out, home_bonus):
    """Value of a piece at track code t."""
    if t == pa.OUTSIDE:
        return v_out
    if t > ring:
        return ring + home_bonus + t - ring
    return t


@njit(cache=True, _nrt=False)
def threatened(public, c, d, reach):
    """Could an opponent of colour c land on colour c's ring track d with one card moving
    1..reach steps?"""
    ring = public[pa.H_RING]
    if d < 1 or d > ring:
        return False
    a = pa.abs_space(public, c, d)
    for k in range(1, reach + 1):
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
            if dist < reach:
                return True
    return False


@njit(cache=True, _nrt=False)
def piece_delta(public, c, t, d, knock_w, team_w, danger_w, pair_w, v_out, home_bonus,
                start_block, reach):
    """Value of moving colour c's piece (of the mover's team) from track t to d, landing rule
    included: knocking an opponent (knock_w) or a team mate (team_w) out, ending threatened
    (danger_w), joining an own piece (a protected pair, pair_w), leaving the own start space
    (danger_w * start_block)."""
    ring = public[pa.H_RING]
    fin = pa.landing(public, c, d)
    val = float(pval(fin, ring, v_out, home_bonus) - pval(t, ring, v_out, home_bonus))
    if fin >= 1 and fin <= ring:
        a = pa.abs_space(public, c, fin)
        q = public[pa.RING_COL + a]
        if q >= 0 and q != c:
            loss = pval(pa.track_of(public, q, a), ring, v_out, home_bonus) - v_out
            if (q & 1) == (c & 1):
                val -= team_w * loss
            else:
                val += knock_w * loss
        elif q == c and pair_w != 0.0 and fin != t:
            val += pair_w
    if danger_w != 0.0:
        if fin >= 1 and fin <= ring and threatened(public, c, fin, reach):
            val -= danger_w * (pval(fin, ring, v_out, home_bonus) - v_out)
        if t >= 1 and t <= ring and threatened(public, c, t, reach):
            val += danger_w * (pval(t, ring, v_out, home_bonus) - v_out)
        if t == 0 and fin != 0:
            val -= danger_w * start_block  # giving up the start block
    return val


@njit(cache=True, _nrt=False)
def move_value(public, move, knock_w, team_w, danger_w, pair_w, opp_w, advance_w, v_out,
               home_bonus, start_block, reach, idle_swap):
    """Score of a play move for the seat to move (see piece_delta); opp_w weighs what a Swap
    does to opponents' pieces; advance_w favours moving the piece furthest ahead; a Swap that
    changes nothing scores -idle_swap."""
    seat = public[pa.H_TO_MOVE]
    if move == pa.MOVE_DISCARD:
        return 0.0
    ring = public[pa.H_RING]
    kind = move >> 58
    kb = pa.KIND_TABLE + kind * pa.N_EFFECTS
    m = pa.mover_colour(public, seat)
    if public[kb + pa.E_SWAP] > 0:
        if (move & 0x3FFF) == 0:
            return -idle_swap
        val = 0.0
        for side in range(2):
            q, _, _, told, tnew = pa.swap_side(public, move, side)
            dv = pval(tnew, ring, v_out, home_bonus) - pval(told, ring, v_out, home_bonus)
            if (q & 1) == (seat & 1):
                val += dv
                if danger_w != 0.0 and threatened(public, q, tnew, reach):
                    val -= danger_w * (pval(tnew, ring, v_out, home_bonus) - v_out)
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
                val += piece_delta(public, c, t, d, knock_w, team_w, danger_w, pair_w, v_out,
                                   home_bonus, start_block, reach)
                val += advance_w * pval(t, ring, v_out, home_bonus)
                j += 1
        return val
    v = (move >> 7) & 63
    t = move & 127
    if t == pa.OUTSIDE:
        val = float(-v_out)
        if danger_w != 0.0:
            val += danger_w * start_block
        return val
    if public[kb + pa.E_BACK] > 0:
        d = pa.back_dest(public, m, t, v)
    else:
        d = pa.fwd_dest(public, m, t, v, public[pa.HOUSE_MASK + m])
    return piece_delta(public, m, t, d, knock_w, team_w, danger_w, pair_w, v_out, home_bonus,
                       start_block, reach) + advance_w * pval(t, ring, v_out, home_bonus)


@njit(cache=True, _nrt=False)
def kind_value(public, kind, c, knock_w, team_w, danger_w, pair_w, v_out, home_bonus,
               start_block, reach, swap_card):
    """Best value colour c's player could get now from a card of ``kind`` (NO_USE if none); a
    Swap card is worth swap_card."""
    kb = pa.KIND_TABLE + kind * pa.N_EFFECTS
    best = NO_USE
    if public[kb + pa.E_SWAP] > 0:
        return swap_card
    if public[kb + pa.E_START] > 0 and public[pa.OUT + c] > 0:
        best = float(-v_out)
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
                x = piece_delta(public, c, t, d, knock_w, team_w, danger_w, pair_w, v_out,
                                home_bonus, start_block, reach)
                if x > best:
                    best = x
    return best


@njit(cache=True, _nrt=False)
def give_card(public, private, moves, n_moves, for_partner, knock_w, team_w, danger_w, pair_w,
              v_out, home_bonus, start_block, reach, swap_card):
    """Index of the GIVE move: the kind least useful to me, or (for_partner) the kind whose use
    to the partner most exceeds its use to me."""
    seat = public[pa.H_TO_MOVE]
    me = pa.mover_colour(public, seat)
    partner = pa.mover_colour(public, seat ^ 2)
    best = 0
    best_score = 1e18
    for i in range(n_moves):
        kind = moves[i] - pa.MOVE_GIVE
        score = kind_value(public, kind, me, knock_w, team_w, danger_w, pair_w, v_out,
                           home_bonus, start_block, reach, swap_card)
        if for_partner:
            score -= kind_value(public, kind, partner, knock_w, team_w, danger_w, pair_w, v_out,
                                home_bonus, start_block, reach, swap_card)
        if score < best_score:
            best, best_score = i, score
    return best


@njit(cache=True, _nrt=False)
def best_move(public, moves, n_moves, knock_w, team_w, danger_w, pair_w, opp_w, advance_w, v_out,
              home_bonus, start_block, reach, idle_swap):
    best = 0
    best_score = -1e18
    for i in range(n_moves):
        score = move_value(public, moves[i], knock_w, team_w, danger_w, pair_w, opp_w, advance_w,
                           v_out, home_bonus, start_block, reach, idle_swap)
        if score > best_score:
            best, best_score = i, score
    return best


@njit(cache=True, inline="always")
def decide(public, private, moves, n_moves, params, for_partner):
    """The move of a heuristic whose settings are ``params`` (the P_* layout); ``for_partner``:
    give the card the partner can use best rather than the one least useful to me."""
    knock_w = params[P_KNOCK]
    team_w = params[P_TEAM_KNOCK]
    danger_w = params[P_DANGER]
    pair_w = params[P_PAIR]
    v_out = np.int64(params[P_OUTSIDE])
    home_bonus = np.int64(params[P_HOME_BONUS])
    start_block = params[P_START_BLOCK]
    reach = np.int64(params[P_THREAT_REACH])
    if public[pa.H_PHASE] == pa.PHASE_EXCHANGE:
        return give_card(public, private, moves, n_moves, for_partner, knock_w, team_w, danger_w,
                         pair_w, v_out, home_bonus, start_block, reach, params[P_SWAP_CARD])
    return best_move(public, moves, n_moves, knock_w, team_w, danger_w, pair_w,
                     params[P_SWAP_HARM], params[P_LEAD], v_out, home_bonus, start_block, reach,
                     params[P_IDLE_SWAP])


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def race(public, private, moves, n_moves, rng, params):
    return decide(public, private, moves, n_moves, params, False)


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def hunter(public, private, moves, n_moves, rng, params):
    return decide(public, private, moves, n_moves, params, False)


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def guardian(public, private, moves, n_moves, rng, params):
    return decide(public, private, moves, n_moves, params, False)


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def teamwork(public, private, moves, n_moves, rng, params):
    return decide(public, private, moves, n_moves, params, True)


# the heuristics, each also a rollout policy of the search (declared here once)
HEURISTICS = [
    Strategy("partners", "race",
             "advances its pieces, the one furthest ahead first; ignores opponents; gives away "
             "the card it needs least", race, params=RACE_PARAMS),
    Strategy("partners", "hunter",
             "knocks opponents out whenever it can and swaps them back, else advances; gives "
             "away the card it needs least", hunter, params=HUNTER_PARAMS),
    Strategy("partners", "guardian",
             "advances safely: avoids spaces opponents can reach, keeps pairs and its start "
             "block; gives away the card it needs least", guardian, params=GUARDIAN_PARAMS),
    Strategy("partners", "teamwork",
             "plays for the team's progress and gives the partner the card the partner can "
             "use best", teamwork, params=TEAMWORK_PARAMS),
]
# random, the heuristics at their defaults, then their shipped tuned settings (NAME-tuned)
# the apprentice (issue 41): its features and the choice of its guide, the strong heuristic
GUIDE = guide_of(HEURISTICS, "guardian")
GUIDE_ROW = GUIDE.param_row()


@njit(STRATEGY_SIGNATURE, cache=True)
def apprentice_move(public, private, moves, n_moves, rng, params):
    return guided_choice(features.move_features, features.N_FEATURES, guardian, GUIDE_ROW,
                         public, private, moves, n_moves, rng, params)


APPRENTICE = apprentice("partners", apprentice_move, GUIDE)  # also a play-out policy of the search
ROLLOUT_POLICIES, ROLLOUT_ROWS, rollout = rollout_policies(HEURISTICS, APPRENTICE)
# 40 iterations over guardian-tuned's 4 favourite moves, leaving its choice only on a lead of one
# standard error: a 2,000-deal team-against-team tournament against guardian-tuned takes about
# 6 minutes on 2 cores (docs/search.md, "Partners against its tuned heuristic")
ISMCTS_PARAMS = search.search_params(ROLLOUT_POLICIES, iterations=40, rollout="guardian-tuned",
                                     score_weight=0.0, score_scale=60.0, depth=40, candidates=4,
                                     margin=1.0, evaluation=True)


@njit(cache=True, _nrt=False)
def evaluate(state, scale, reward):
    """The search's evaluation of a Partners position cut off before the end: the teams' race
    progress, each the sum of its eight pieces' values (the heuristics' ``pval``: 0 outside the
    board, the track code on the ring, RING + 24 + the house space in the house), as
    0.5 + (own team - other team) / (2 scale), clipped to [0, 1]."""
    ring = state[pa.H_RING]
    even = 0.0  # team 0: colours 0 and 2
    odd = 0.0
    for c in range(4):
        for i in range(pa.PIECES):
            v = pval(state[pa.PIECE + 4 * c + i], ring, 0.0, 24.0)
            if c & 1:
                odd += v
            else:
                even += v
    for p in range(4):
        lead = even - odd if p & 1 == 0 else odd - even
        reward[p] = min(1.0, max(0.0, 0.5 + lead / (2.0 * scale)))


@njit(cache=True)  # compiled with STRATEGY_SIGNATURE when first resolved: kernel.ready
def ismcts(public, private, moves, n_moves, rng, params):
    return search.ismcts(pa, rollout, ROLLOUT_ROWS, evaluate, search.no_stages, False,
                         public, private, moves, n_moves, rng, params, search.NO_VALUES)


@njit(cache=True)  # what the search found: tourney train's value labels
def ismcts_values(public, private, moves, n_moves, rng, params, values):
    return search.ismcts(pa, rollout, ROLLOUT_ROWS, evaluate, search.no_stages, False,
                         public, private, moves, n_moves, rng, params, values)


STRATEGIES = [
    Strategy("partners", "random", "uniformly random legal move and card to give", random_move),
    *HEURISTICS,
    Strategy("partners", "ismcts",
             "information-set Monte Carlo tree search over sampled hands, exchanges and piles "
             "(experimental: see docs/search.md); budget in iterations", ismcts, params=ISMCTS_PARAMS,
             for_table=search_for_table),
    APPRENTICE,
]
