"""Partners: the apprentice's features of a legal move (what the move gains, risks, gives the
partner, the team race; in the exchange, the card's use to the partner against its use to me).
Read only from the deciding seat's views.

The apprentice (issue 41) scores a legal move as the dot product of a weight vector with the
move's feature vector and plays the best; the weights are fitted to the search's choices. The
features are what the heuristics of ``strategies/partners.py`` weigh, decomposed so that their
move values are linear in them (race's exactly, hunter's up to its exchange), plus what they
leave out (the real chance of being hit, the threats a move makes, the race position). Each
varies between the moves of one decision; a feature that does not apply to a move is 0.

Play: a move is read from its code (PA-11) on the current board; a 7 is its sub-moves each
counted on the current board, as the heuristics do. "Steps" of a piece: 0 outside or on its
start space, its track code 1..RING on the ring, RING + h in house space h. Counts of pieces are
nearly always 0 or 1 (a 7 may make up to seven sub-moves over both colours of the team; the
bounds say so).

The threat to a ring space (``risk``): each opponent piece that can reach the space with one
card next turn (a piece or a start-space piece up to 16 spaces behind, forward; up to 8 ahead,
backwards; start blocks and house entrances respected) hits it with probability
1 - (1 - f)^h: f the share of the cards this seat has not seen (``CARD_PUB`` unseen, not in its
hand, not the card it gave its partner) that move exactly that far, h the cards in the hands
that move that colour. The threat is 1 - the product of the misses.

======================== ===========================================================================
``progress``             steps gained by my team's pieces (the moved ones, a team mate knocked out,
                         a Swap's own side) / RING, clipped. [-1, 1]
``enter``                pieces put on the start space from outside. [0, 1]
``house``                pieces reaching the house. [0, 7]
``lost``                 my team's pieces sent outside (a team mate knocked out, the mover on a
                         pair). [0, 7]
``knock``                opponent pieces knocked out. [0, 7]
``knock_steps``          their steps / RING (what the opponents lose). [0, 7]
``risk``                 threat at the moved pieces' new spaces less at their old ones. [-7, 7]
``risk_steps``           the same, each weighted by the piece's steps / RING (what could be lost).
                         [-7, 7]
``pair``                 moved pieces joining an own piece (a protected pair). [0, 7]
``leave_start``          pieces leaving the own start space (the start block given up). [0, 7]
``lead``                 steps of the moved pieces before the move / (RING + HOUSE) (race: the
                         furthest piece first). [0, 7]
``swap_opp``             steps a Swap gives the opponent's piece / RING (negative: what it takes).
                         [-1, 1]
``idle_swap``            a Swap that changes nothing. [0, 1]
``in_house``             moved pieces that were in the house already (a safe move further in).
                         [0, 7]
``hunt``                 (single opponent pieces up to 14 spaces ahead of the moved pieces, after
                         less before) / 4: the targets the move sets up. [-1, 1]
``behind_knock``         ``knock_steps`` x how far my team is behind in the race (1 - ``ahead``,
                         where ahead = 0.5 + (my team's steps - theirs) / (4 RING), clipped to
                         [0, 1]). [0, 7]
``ahead_risk``           ``risk_steps`` x ahead. [-7, 7]
``give_use_me``          exchange: the best value the card kind has for me now (race's
                         ``kind_value``: steps gained, +20 entering a piece, +24 reaching the house,
                         a team mate knocked out costs its steps + 20) / (2 RING); 0 if unusable or
                         a Swap. [-1, 1]
``give_usable_me``       exchange: I could play that kind now (a Swap: always). [0, 1]
``give_use_partner``     the same for my partner's pieces. [-1, 1]
``give_usable_partner``  the same. [0, 1]
``give_swap``            exchange: the card is a Swap. [0, 1]
``give_dup``             exchange: other cards of that kind in my hand / 3. [0, 1]
``card_start``           play: the card could put a piece on the start space (Start, 8, 13), it
                         moves steps instead, and pieces of mine are outside. [0, 1]
``card_swap``            play: the card is a Swap. [0, 1]
``kept_finish``          play: moved pieces that one of the cards I keep could then bring exactly
                         onto a free house space (the window below), after the move less before.
                         [-7, 7]
``give_finish_me``       exchange: the card could bring one of my pieces exactly onto a free house
                         space. [0, 1]
``give_finish_partner``  exchange: the same for my partner's pieces. [0, 1]
``kept_start``           play: I keep a card that puts a piece on the start space and pieces of mine
                         stay outside after the move. [0, 1]
======================== ===========================================================================
The last six are the hand's plan, what the search's play-outs see and a move's effect does not:
which card a move spends and what the cards kept can still do. A piece's *window* is the forward
distances that land it exactly on a free house space it can reach (house spaces before the
first taken one; from inside the house, those further in): with the default house of 4 and no
bounce (PA-3), the end of the race is exact counting. A card's distances are its forward steps
(both, for the Ace) and, for the 7, any of 1..7. Start blocks on the way are not checked.
(After my four pieces are home I move my partner's: "me" is then the partner's colour, as the
rules' ``mover_colour``.)

Cost: no allocation; per decision one pass over the cards (what is unseen), then per moved piece
two scans of at most 24 spaces for the threat and 28 for the targets.
"""
import numpy as np
from numba import njit

from ...kernel import stack_empty


from . import rules as pa

FEATURES = (
    ("progress", "steps gained by my team's pieces (moved, knocked team mate, Swap) / ring; [-1, 1]"),
    ("enter", "pieces put onto the start space; [0, 1]"),
    ("house", "pieces reaching the house; [0, 7], nearly always 0/1"),
    ("lost", "my team's pieces sent outside (team mate knocked, mover on a pair); [0, 7]"),
    ("knock", "opponent pieces knocked out; [0, 7]"),
    ("knock_steps", "steps of the knocked-out opponent pieces / ring; [0, 7]"),
    ("risk", "threat (chance an opponent hits it next turn) at the new spaces less the old; [-7, 7]"),
    ("risk_steps", "the same, weighted by each piece's steps / ring; [-7, 7]"),
    ("pair", "moved pieces joining an own piece (protected pair); [0, 7]"),
    ("leave_start", "pieces leaving the own start space; [0, 7]"),
    ("lead", "steps of the moved pieces before the move / (ring + house); [0, 7]"),
    ("swap_opp", "steps a Swap gives the opponent's piece / ring; [-1, 1]"),
    ("idle_swap", "a Swap that changes nothing; [0, 1]"),
    ("in_house", "moved pieces that were in the house already; [0, 7]"),
    ("hunt", "(single opponent pieces <= 14 ahead of the moved pieces, after - before) / 4; [-1, 1]"),
    ("behind_knock", "knock_steps x (1 - ahead), ahead = 0.5 + team step lead / (4 ring); [0, 7]"),
    ("ahead_risk", "risk_steps x ahead; [-7, 7]"),
    ("give_use_me", "exchange: best value of the kind for me now / (2 ring), 0 unusable; [-1, 1]"),
    ("give_usable_me", "exchange: I could play the kind now (Swap: always); [0, 1]"),
    ("give_use_partner", "exchange: the same for my partner; [-1, 1]"),
    ("give_usable_partner", "exchange: my partner could play it now; [0, 1]"),
    ("give_swap", "exchange: the card is a Swap; [0, 1]"),
    ("give_dup", "exchange: other cards of the kind in my hand / 3; [0, 1]"),
    ("card_start", "a card that could start a piece, spent on steps while I have pieces outside; [0, 1]"),
    ("card_swap", "the card is a Swap; [0, 1]"),
    ("kept_finish", "moved pieces a kept card then brings exactly into a free house space, after less before; [-7, 7]"),
    ("give_finish_me", "exchange: the card would bring a piece of mine exactly into a free house space; [0, 1]"),
    ("give_finish_partner", "exchange: the same for my partner's pieces; [0, 1]"),
    ("kept_start", "I keep a card that starts a piece while pieces of mine stay outside; [0, 1]"),
)
N_FEATURES = len(FEATURES)
(F_PROGRESS, F_ENTER, F_HOUSE, F_LOST, F_KNOCK, F_KNOCK_STEPS, F_RISK, F_RISK_STEPS, F_PAIR,
 F_LEAVE_START, F_LEAD, F_SWAP_OPP, F_IDLE_SWAP, F_IN_HOUSE, F_HUNT, F_BEHIND_KNOCK, F_AHEAD_RISK,
 F_GIVE_USE_ME, F_GIVE_USABLE_ME, F_GIVE_USE_PARTNER, F_GIVE_USABLE_PARTNER, F_GIVE_SWAP,
 F_GIVE_DUP, F_CARD_START, F_CARD_SWAP, F_KEPT_FINISH,
 F_GIVE_FINISH_ME, F_GIVE_FINISH_PARTNER, F_KEPT_START) = range(N_FEATURES)

#: the piece values of race's exchange (``kind_value``): outside, the house bonus
USE_OUTSIDE = -20
USE_HOME_BONUS = 24
NO_USE = -1000.0
#: the farthest a threat is looked for: forward (opponent pieces behind), backwards (ahead)
REACH_FWD = 16
REACH_BACK = 8
#: how far ahead a moved piece's targets are counted
HUNT_REACH = 14
FIELD = 7  # bits per distance in the packed counts
FIELD_MASK = (1 << FIELD) - 1
HAND_CELLS = 8  # the per-decision work arrays of the hand (at most pa.HAND_SIZE cards)
assert pa.HAND_SIZE <= HAND_CELLS


@njit(cache=True, inline="always")
def _steps(t):
    """A piece's steps from its start: 0 outside or on the start space, the track code else."""
    return 0 if t == pa.OUTSIDE else t


@njit(cache=True, inline="always")
def _pack_add(lo, hi, d):
    """Add one card reaching distance d (1..16) to the packed counts (lo: 1..8, hi: 9..16)."""
    if d >= 1 and d <= 8:
        lo += np.int64(1) << np.int64(FIELD * (d - 1))
    elif d >= 9 and d <= 16:
        hi += np.int64(1) << np.int64(FIELD * (d - 9))
    return lo, hi


@njit(cache=True, inline="always")
def _pack_get(lo, hi, d):
    if d <= 8:
        return (lo >> np.int64(FIELD * (d - 1))) & FIELD_MASK
    return (hi >> np.int64(FIELD * (d - 9))) & FIELD_MASK


@njit(cache=True, inline="always")
def _hit(count, unseen, h):
    """Chance that h cards drawn from ``unseen`` hold one of ``count`` fitting cards."""
    if count <= 0 or h <= 0 or unseen <= 0:
        return 0.0
    miss = 1.0 - count / unseen
    out = 1.0
    for _ in range(h):
        out *= miss
    return 1.0 - out


@njit(cache=True, _nrt=False)
def _threat(public, team, a, f_lo, f_hi, b_lo, unseen, h0, h1):
    """Chance that an opponent of ``team`` lands on absolute ring space ``a`` next turn (see the
    module docstring); h0 / h1: the cards that move colour team ^ 1 / team ^ 3's pieces."""
    ring = public[pa.H_RING]
    sec = public[pa.H_SECTION]
    miss = 1.0
    excluded = 0  # colours whose pieces further back cannot come (their own house is before)
    for k in range(1, REACH_FWD + 1):
        gap = a - k + 1  # the space whose start gap is crossed from distance k on
        if gap < 0:
            gap += ring
        if gap % sec == 0:
            x = gap // sec
            if public[pa.START_CNT + x] > 0:
                if (x & 1) != team:  # an opponent's start piece: k steps from its start
                    miss *= 1.0 - _hit(_pack_get(f_lo, f_hi, k), unseen, h0 if x == (team ^ 1) else h1)
                break  # a start block: nobody further back passes
            excluded |= 1 << x
        b = a - k
        if b < 0:
            b += ring
        q = public[pa.RING_COL + b]
        if q >= 0 and (q & 1) != team and ((excluded >> q) & 1) == 0:
            miss *= 1.0 - _hit(_pack_get(f_lo, f_hi, k), unseen, h0 if q == (team ^ 1) else h1)
    if b_lo != 0:
        only = -1  # after a start block, only that start's own colour passes (backwards)
        for k in range(1, REACH_BACK + 1):
            f = a + k
            if f >= ring:
                f -= ring
            count = (b_lo >> np.int64(FIELD * (k - 1))) & FIELD_MASK
            if f % sec == 0:
                x = f // sec
                if public[pa.START_CNT + x] > 0:
                    if (x & 1) != team and (only < 0 or only == x):
                        miss *= 1.0 - _hit(count, unseen, h0 if x == (team ^ 1) else h1)
                    if only >= 0 and only != x:
                        break
                    only = x
            q = public[pa.RING_COL + f]
            if q >= 0 and (q & 1) != team and (only < 0 or only == q):
                miss *= 1.0 - _hit(count, unseen, h0 if q == (team ^ 1) else h1)
    return 1.0 - miss


@njit(cache=True, _nrt=False)
def _targets(public, c, t):
    """Single opponent pieces up to HUNT_REACH spaces ahead of colour c's piece at track t
    (start or ring; not past its house entrance nor a start block)."""
    ring = public[pa.H_RING]
    if t > ring or t == pa.OUTSIDE:
        return 0
    sec = public[pa.H_SECTION]
    p = sec * c - 1 if t == 0 else pa.abs_space(public, c, t)
    if p < 0:
        p += ring
    far = min(HUNT_REACH, ring - t)
    n = 0
    for k in range(1, far + 1):
        s = p + k
        if s >= ring:
            s -= ring
        if s % sec == 0:
            x = s // sec
            if x != c and public[pa.START_CNT + x] > 0:
                break
        if public[pa.RING_CNT + s] == 1 and (public[pa.RING_COL + s] & 1) != (c & 1):
            n += 1
    return n


@njit(cache=True, inline="always")
def _use_value(t, ring):
    """Race's piece value with the exchange's constants (outside -20, house +24)."""
    if t == pa.OUTSIDE:
        return USE_OUTSIDE
    if t > ring:
        return t + USE_HOME_BONUS
    return t


@njit(cache=True, _nrt=False)
def _kind_use(public, kind, c):
    """(best value colour c's player gets now from a card of ``kind``, usable): race's
    ``kind_value`` (knock-outs of opponents not counted, of a team mate its loss)."""
    kb = pa.KIND_TABLE + kind * pa.N_EFFECTS
    if public[kb + pa.E_SWAP] > 0:
        return 0.0, True
    ring = public[pa.H_RING]
    best = NO_USE
    if public[kb + pa.E_START] > 0 and public[pa.OUT + c] > 0:
        best = float(-USE_OUTSIDE)
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
            if d < 0:
                continue
            fin = pa.landing(public, c, d)
            x = float(_use_value(fin, ring) - _use_value(t, ring))
            if fin >= 1 and fin <= ring:
                a = pa.abs_space(public, c, fin)
                q = public[pa.RING_COL + a]
                if q >= 0 and q != c and (q & 1) == (c & 1):
                    x -= _use_value(pa.track_of(public, q, a), ring) - USE_OUTSIDE
            if x > best:
                best = x
    if best == NO_USE:
        return 0.0, False
    return best, True


@njit(cache=True, inline="always")
def _reach(public, kind):
    """The forward distances a card of ``kind`` moves one piece (bit d: d steps; the split
    kind any of 1..its total)."""
    kb = pa.KIND_TABLE + kind * pa.N_EFFECTS
    bits = np.int64(0)
    for v in (public[kb + pa.E_FWD], public[kb + pa.E_FWD2]):
        if v > 0 and v < 63:
            bits |= np.int64(1) << np.int64(v)
    for v in range(1, min(public[kb + pa.E_SPLIT], 62) + 1):
        bits |= np.int64(1) << np.int64(v)
    return bits


@njit(cache=True, inline="always")
def _window(public, c, x):
    """The forward distances that bring colour c's piece at track x exactly onto a free house
    space it can reach (bit d), 0 outside or on the start space."""
    ring = public[pa.H_RING]
    if x < 1 or x == pa.OUTSIDE:
        return np.int64(0)
    mask = public[pa.HOUSE_MASK + c]
    house = public[pa.H_HOUSE]
    if x > ring:
        h, lo = x - ring, 0
    else:
        h, lo = 0, ring - x
    bits = np.int64(0)
    for j in range(h + 1, house + 1):
        if (mask >> (j - 1)) & 1:
            break
        d = lo + j - h
        if d < 63:
            bits |= np.int64(1) << np.int64(d)
    return bits


@njit(cache=True, inline="always")
def _clip(x, lo, hi):
    return min(hi, max(lo, x))


@njit(cache=True, _nrt=False)
def _piece(public, out, k, c, t, d, team, f_lo, f_hi, b_lo, unseen, h0, h1, kept):
    """Add to row k what moving my team's colour-c piece from track t to d (legal, before the
    landing rule) does: progress, house, lost, knock, pair, start, risk, hunt, lead."""
    ring = public[pa.H_RING]
    fin = pa.landing(public, c, d)
    progress = float(_steps(fin) - _steps(t))
    if fin == pa.OUTSIDE:
        out[k, F_LOST] += 1.0
    elif t <= ring and fin > ring:
        out[k, F_HOUSE] += 1.0
    if t == 0 and fin != 0:
        out[k, F_LEAVE_START] += 1.0
    if t > ring:
        out[k, F_IN_HOUSE] += 1.0
    out[k, F_LEAD] += _steps(t) / (ring + public[pa.H_HOUSE])
    if fin >= 1 and fin <= ring:
        a = pa.abs_space(public, c, fin)
        q = public[pa.RING_COL + a]
        if q >= 0 and q != c:  # a single piece (two would have knocked the mover out)
            tq = pa.track_of(public, q, a)
            if (q & 1) == team:
                out[k, F_LOST] += 1.0
                progress -= tq
            else:
                out[k, F_KNOCK] += 1.0
                out[k, F_KNOCK_STEPS] += tq / ring
        elif q == c and fin != t:
            out[k, F_PAIR] += 1.0
        th = _threat(public, team, a, f_lo, f_hi, b_lo, unseen, h0, h1)
        out[k, F_RISK] += th
        out[k, F_RISK_STEPS] += th * fin / ring
    if t >= 1 and t <= ring:
        th = _threat(public, team, pa.abs_space(public, c, t), f_lo, f_hi, b_lo, unseen, h0, h1)
        out[k, F_RISK] -= th
        out[k, F_RISK_STEPS] -= th * t / ring
    if kept != 0:
        if (_window(public, c, fin) & kept) != 0:
            out[k, F_KEPT_FINISH] += 1.0
        if (_window(public, c, t) & kept) != 0:
            out[k, F_KEPT_FINISH] -= 1.0
    out[k, F_PROGRESS] += progress / ring
    out[k, F_HUNT] += (_targets(public, c, fin) - _targets(public, c, t)) / 4.0


@njit(cache=True, _nrt=False)
def _swap(public, out, k, move, team, f_lo, f_hi, b_lo, unseen, h0, h1):
    """Add to row k what the Swap ``move`` of two pieces does: my team's piece's progress, risk
    and targets, the opponent's piece's steps."""
    ring = public[pa.H_RING]
    for side in range(2):
        q, x, y, told, tnew = pa.swap_side(public, move, side)
        if (q & 1) == team:
            out[k, F_PROGRESS] += (tnew - told) / ring
            th_new = _threat(public, team, y, f_lo, f_hi, b_lo, unseen, h0, h1)
            th_old = _threat(public, team, x, f_lo, f_hi, b_lo, unseen, h0, h1)
            out[k, F_RISK] += th_new - th_old
            out[k, F_RISK_STEPS] += (th_new * tnew - th_old * told) / ring
            out[k, F_HUNT] += (_targets(public, q, tnew) - _targets(public, q, told)) / 4.0
        else:
            out[k, F_SWAP_OPP] += (tnew - told) / ring


@njit(cache=True, _nrt=False)
def move_features(public, private, moves, n_moves, out):
    """out[k, j] (float64, out has shape (>= n_moves, >= N_FEATURES)): feature j of legal move
    moves[k], k < n_moves (FEATURES). Reads only the deciding seat's views."""
    for k in range(n_moves):
        for j in range(N_FEATURES):
            out[k, j] = 0.0
    seat = public[pa.H_TO_MOVE]
    if n_moves <= 0 or seat < 0:
        return
    ring = public[pa.H_RING]
    team = seat & 1
    if public[pa.H_PHASE] == pa.PHASE_EXCHANGE:
        me = pa.mover_colour(public, seat)
        partner = pa.mover_colour(public, seat ^ 2)
        size = private[pa.PV_SIZE]
        win_me = np.int64(0)
        win_partner = np.int64(0)
        for i in range(pa.PIECES):
            win_me |= _window(public, me, public[pa.PIECE + 4 * me + i])
            win_partner |= _window(public, partner, public[pa.PIECE + 4 * partner + i])
        for k in range(n_moves):
            kind = moves[k] - pa.MOVE_GIVE
            reach = _reach(public, kind)
            out[k, F_GIVE_FINISH_ME] = 1.0 if (reach & win_me) != 0 else 0.0
            out[k, F_GIVE_FINISH_PARTNER] = 1.0 if (reach & win_partner) != 0 else 0.0
            use, usable = _kind_use(public, kind, me)
            out[k, F_GIVE_USE_ME] = _clip(use / (2.0 * ring), -1.0, 1.0)
            out[k, F_GIVE_USABLE_ME] = 1.0 if usable else 0.0
            use, usable = _kind_use(public, kind, partner)
            out[k, F_GIVE_USE_PARTNER] = _clip(use / (2.0 * ring), -1.0, 1.0)
            out[k, F_GIVE_USABLE_PARTNER] = 1.0 if usable else 0.0
            kb = pa.KIND_TABLE + kind * pa.N_EFFECTS
            out[k, F_GIVE_SWAP] = 1.0 if public[kb + pa.E_SWAP] > 0 else 0.0
            same = 0
            for j in range(size):
                same += public[pa.CARD_KIND + private[pa.PV_HAND + j]] == kind
            out[k, F_GIVE_DUP] = _clip((same - 1) / 3.0, 0.0, 1.0)
        return
    # ---- what the seat has not seen: per distance, the cards that move a piece exactly so far
    size = private[pa.PV_SIZE]
    given = private[pa.PV_GIVEN]
    f_lo, f_hi, b_lo = np.int64(0), np.int64(0), np.int64(0)
    unseen = 0
    for card in range(public[pa.H_N_CARDS]):
        if public[pa.CARD_PUB + card] != pa.CP_UNSEEN or card == given:
            continue
        mine = False
        for j in range(size):
            mine |= private[pa.PV_HAND + j] == card
        if mine:
            continue
        unseen += 1
        kb = pa.KIND_TABLE + public[pa.CARD_KIND + card] * pa.N_EFFECTS
        f1 = public[kb + pa.E_FWD]
        f2 = public[kb + pa.E_FWD2]
        f_lo, f_hi = _pack_add(f_lo, f_hi, f1)
        if f2 != f1:
            f_lo, f_hi = _pack_add(f_lo, f_hi, f2)
        for d in range(1, min(public[kb + pa.E_SPLIT], REACH_FWD) + 1):
            if d != f1 and d != f2:
                f_lo, f_hi = _pack_add(f_lo, f_hi, d)
        back = public[kb + pa.E_BACK]
        if back >= 1 and back <= REACH_BACK:
            b_lo += np.int64(1) << np.int64(FIELD * (back - 1))
    # the cards that move each opponent colour's pieces (its seat, and its partner once home)
    o0, o1 = team ^ 1, team ^ 3
    h0 = public[pa.HAND_COUNT + o0] + (public[pa.HAND_COUNT + o1] if public[pa.HOME + o1] == pa.PIECES else 0)
    h1 = public[pa.HAND_COUNT + o1] + (public[pa.HAND_COUNT + o0] if public[pa.HOME + o0] == pa.PIECES else 0)
    # the race: my team's steps against theirs
    lead = 0
    for c in range(4):
        for i in range(pa.PIECES):
            s = _steps(public[pa.PIECE + 4 * c + i])
            lead += s if (c & 1) == team else -s
    ahead = _clip(0.5 + lead / (4.0 * ring), 0.0, 1.0)
    m = pa.mover_colour(public, seat)
    # the hand, once a decision: each card's kind, and what the cards kept if it is spent can do
    # (the distances they move a piece; whether one starts a piece)
    hand_kind = stack_empty(HAND_CELLS, np.int64)
    kept_reach = stack_empty(HAND_CELLS, np.int64)
    kept_starts = stack_empty(HAND_CELLS, np.int64)
    for j in range(size):
        hand_kind[j] = public[pa.CARD_KIND + private[pa.PV_HAND + j]]
        kept_reach[j] = 0
        kept_starts[j] = 0
    for i in range(size):
        reach = _reach(public, hand_kind[i])
        starts = public[pa.KIND_TABLE + hand_kind[i] * pa.N_EFFECTS + pa.E_START] > 0
        for j in range(size):
            if j != i:
                kept_reach[j] |= reach
                if starts:
                    kept_starts[j] = 1
    outside = public[pa.OUT + m]
    for k in range(n_moves):
        move = moves[k]
        if move == pa.MOVE_DISCARD:
            continue
        kind = move >> np.int64(pa.KIND_SHIFT)
        kb = pa.KIND_TABLE + kind * pa.N_EFFECTS
        # the card spent (the first of its kind) and what the cards kept can do
        spent = 0
        while spent < size - 1 and hand_kind[spent] != kind:
            spent += 1
        kept = kept_reach[spent] if size > 0 else np.int64(0)
        if public[kb + pa.E_SWAP] > 0:
            out[k, F_CARD_SWAP] = 1.0
            if (move & np.int64(0x3FFF)) == 0:
                out[k, F_IDLE_SWAP] = 1.0
            else:
                _swap(public, out, k, move, team, f_lo, f_hi, b_lo, unseen, h0, h1)
        elif public[kb + pa.E_SPLIT] > 0:
            total = public[kb + pa.E_SPLIT]
            n_own = (move >> np.int64(55)) & np.int64(7)
            comp = (move >> np.int64(49)) & np.int64(63)
            prev = 0
            j = 0
            for cut in range(1, total + 1):
                if cut == total or ((comp >> (6 - cut)) & 1) == 0:
                    s = cut - prev
                    prev = cut
                    t = (move >> np.int64(42 - 7 * j)) & np.int64(127)
                    c = seat if j < n_own else seat ^ 2
                    d = pa.fwd_dest(public, c, t, s, public[pa.HOUSE_MASK + c])
                    if d < 0:  # legal only after an earlier sub-move cleared the way
                        d = t + s
                    _piece(public, out, k, c, t, d, team, f_lo, f_hi, b_lo, unseen, h0, h1, kept)
                    j += 1
        else:
            v = (move >> np.int64(7)) & np.int64(63)
            t = move & np.int64(127)
            if t == pa.OUTSIDE:
                out[k, F_ENTER] = 1.0
            else:
                if public[kb + pa.E_BACK] > 0:
                    d = pa.back_dest(public, m, t, v)
                else:
                    d = pa.fwd_dest(public, m, t, v, public[pa.HOUSE_MASK + m])
                _piece(public, out, k, m, t, d, team, f_lo, f_hi, b_lo, unseen, h0, h1, kept)
        # a start card: spent on steps while pieces wait outside; kept while they still wait
        if public[kb + pa.E_START] > 0 and out[k, F_ENTER] == 0.0 and outside > 0:
            out[k, F_CARD_START] = 1.0
        if size > 0 and kept_starts[spent] != 0 and outside - out[k, F_ENTER] > 0:
            out[k, F_KEPT_START] = 1.0
        out[k, F_PROGRESS] = _clip(out[k, F_PROGRESS], -1.0, 1.0)
        out[k, F_HUNT] = _clip(out[k, F_HUNT], -1.0, 1.0)
        out[k, F_BEHIND_KNOCK] = out[k, F_KNOCK_STEPS] * (1.0 - ahead)
        out[k, F_AHEAD_RISK] = out[k, F_RISK_STEPS] * ahead
