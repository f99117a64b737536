"""Colleagues pieces more than one test module uses: the state invariant the random games and the
determinizations keep, and changing what a seat cannot see (no peeking)."""
import numpy as np
from numba import njit

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.colleagues import rules as cl
from tourney_sim.simulate.seeding import PyStream
from tourney_sim.simulate.stepper import KernelGame

from .. import harness

SPEC = get_game("colleagues")
def priv(seat):
    return cl.PRIVATE + seat * cl.PRIVATE_SIZE


@njit
def invariant(state):
    n = state[cl.H_PLAYERS]
    grey = state[cl.H_GREY]
    over = state[cl.H_STAGE] == cl.STAGE_OVER
    seen = np.zeros(cl.N_COMMIT, np.int64)
    kinds = np.zeros(cl.N_KINDS, np.int64)
    for p in range(n):
        b = cl.PRIVATE + p * cl.PRIVATE_SIZE
        hn = state[b + cl.P_HAND_N]
        for j in range(hn):
            seen[state[b + cl.P_HAND + j]] += 1
            if j > 0 and state[b + cl.P_HAND + j] <= state[b + cl.P_HAND + j - 1]:
                return 10  # hands sorted
        for j in range(hn, cl.HAND):
            if state[b + cl.P_HAND + j] != -1:
                return 11
        played = 0
        held = 0
        for k in range(cl.N_KINDS):
            if state[b + cl.P_TOK + k] < 0:
                return 12
            kinds[k] += state[b + cl.P_TOK + k]
            held += state[b + cl.P_TOK + k]
        if held != state[cl.TOKENS_HELD + p]:
            return 13
        for c in range(cl.COLS):
            card = state[b + cl.P_CARD + c]
            cell = p * cl.COLS + c
            pub = state[cl.ROW_CARD + cell]
            ntok = 0
            for k in range(3):
                t = state[b + cl.P_PLUS + cl.COLS * k + c]
                kinds[k] += t
                ntok += t
                shown = state[cl.ROW_PLUS + cl.ROW_KIND_STRIDE * k + cell]
                if pub >= 0 and shown != t:
                    return 14  # tokens on a face-up card are public
                if pub == cl.FACE_DOWN and shown != 0:
                    return 15  # ... and on a face-down card only as a count
            if state[cl.ROW_NTOK + cell] != ntok:
                return 16
            if card < 0:
                if pub != cl.EMPTY or ntok != 0:
                    return 17
            else:
                seen[card] += 1
                played += 1
                if pub != card and pub != cl.FACE_DOWN:
                    return 18
                if pub == cl.FACE_DOWN and c == cl.OT_COL:
                    return 19  # CL-13: Overtime cards face up
        if not over and hn + played != cl.HAND:
            return 20
        if over and hn + played != 0:
            return 21
    hidden = 0
    if grey >= 0:
        for d in range(cl.DAYS):
            g = state[cl.S_GREY + d]
            pub = state[cl.ROW_CARD + grey * cl.COLS + d]
            if g >= 0:
                seen[g] += 1
                if pub == cl.FACE_DOWN:
                    hidden += 1
                elif pub != g:
                    return 22
            elif pub != cl.EMPTY:
                return 23
        if state[cl.OT_CARDS + grey] != 0:
            return 24  # never Overtime
        held = 0
        for k in range(cl.N_KINDS):
            kinds[k] += state[cl.S_GREY_TOK + k]
            held += state[cl.S_GREY_TOK + k]
        if held != state[cl.TOKENS_HELD + grey]:
            return 25
    if hidden != state[cl.H_GREY_HIDDEN]:
        return 26
    for i in range(state[cl.H_DECK_LEFT]):
        seen[state[cl.S_DECK + i]] += 1
    for i in range(state[cl.S_DISCARD_N]):
        seen[state[cl.S_DISCARD + i]] += 1
    for c in range(cl.N_COMMIT):
        if seen[c] != 1:
            return 1  # 60 Commitment cards, each in exactly one place
    room = 0
    for k in range(cl.N_KINDS):
        if state[cl.S_ROOM + k] < 0 or state[cl.S_SPENT + k] < 0:
            return 27
        kinds[k] += state[cl.S_ROOM + k] + state[cl.S_SPENT + k]
        room += state[cl.S_ROOM + k]
        if kinds[k] != state[cl.TOKEN_MIX + k]:
            return 2  # 31 tokens, each in exactly one place
    if room != state[cl.H_ROOM]:
        return 28
    # Work / Reprimand cards: handed out (or discarded by CL-3) exactly for the weeks resolved
    week = state[cl.H_WEEK]
    seats = state[cl.H_SEATS]
    for which in range(2):
        owner = cl.WORK_OWNER if which == 0 else cl.REPR_OWNER
        order = cl.S_WORK_ORDER if which == 0 else cl.S_REPR_ORDER
        value = cl.W_VALUE if which == 0 else cl.R_VALUE
        total = cl.WORK_TOTAL if which == 0 else cl.REPR_TOTAL
        cards = cl.WORK_CARDS if which == 0 else cl.REPR_CARDS
        sums = np.zeros(cl.SEATS, np.int64)
        counts = np.zeros(cl.SEATS, np.int64)
        for pos in range(15):
            i = state[order + pos]
            o = state[owner + i]
            if pos // cl.DAYS < week:
                if o == -1:
                    return 30
                if o >= 0:
                    if o >= seats:
                        return 31
                    sums[o] += state[value + i]
                    counts[o] += 1
            elif o != -1:
                return 32
        for s in range(cl.SEATS):
            if sums[s] != state[total + s] or counts[s] != state[cards + s]:
                return 33
    for pos in range(15):  # CL-3 discards a day's Work and Reprimand cards together
        w = state[cl.S_WORK_ORDER + pos]
        r = state[cl.S_REPR_ORDER + pos]
        if (state[cl.WORK_OWNER + w] == cl.DISCARDED) != (state[cl.REPR_OWNER + r] == cl.DISCARDED):
            return 34
    ot = np.zeros(cl.SEATS, np.int64)
    for k in range(cl.N_OT):
        o = state[cl.OT_OWNER + k]
        if k < state[cl.H_OT_NEXT]:
            if o < 0 or o >= n:
                return 35
            ot[o] += state[cl.OT_VALUE + k]
        elif o != -1:
            return 36
    for s in range(cl.SEATS):
        if ot[s] != state[cl.OT_TOTAL + s]:
            return 37
    derived = state.copy()
    cl.derive_views(derived)
    for i in range(cl.STATE_SIZE):
        if derived[i] != state[i]:
            return 38  # FACE_UP_SEEN, ROW_SHOWN, P_KNOWN kept move by move as derived afresh
    return 0


def hide(state, seat, rng):
    """Change everything ``seat`` may not see (CL-8): the other hands, face-down cards of others,
    Grey Entity cards it has not seen, the deck and discards; the kinds of tokens others hold,
    the room, spent tokens, the Grey Entity's tokens and tokens on others' face-down cards; the
    Work / Reprimand cards of later weeks."""
    n = int(state[cl.H_PLAYERS])
    grey = int(state[cl.H_GREY])
    mine = priv(seat)
    slots = []
    for p in range(n):
        if p == seat:
            continue
        b = priv(p)
        slots += [b + cl.P_HAND + j for j in range(state[b + cl.P_HAND_N])]
        slots += [b + cl.P_CARD + c for c in range(6) if state[cl.ROW_CARD + p * 6 + c] == cl.FACE_DOWN]
    if grey >= 0:
        slots += [cl.S_GREY + d for d in range(5)
                  if state[cl.ROW_CARD + grey * 6 + d] == cl.FACE_DOWN and state[mine + cl.P_SEEN + d] < 0]
    slots += [cl.S_DECK + i for i in range(state[cl.H_DECK_LEFT])]
    slots += [cl.S_DISCARD + i for i in range(state[cl.S_DISCARD_N])]
    cards = [int(state[i]) for i in slots]
    rng.shuffle(cards)
    for i, c in zip(slots, cards):
        state[i] = c
    for p in range(n):
        b = priv(p)
        if p != seat:
            hn = state[b + cl.P_HAND_N]
            state[b + cl.P_HAND:b + cl.P_HAND + hn] = sorted(state[b + cl.P_HAND:b + cl.P_HAND + hn])
            for d in range(5):  # what they saw of the Grey Entity follows its cards
                if state[b + cl.P_SEEN + d] >= 0:
                    state[b + cl.P_SEEN + d] = state[cl.S_GREY + d]
    # token kinds among hidden holders (counts per holder kept)
    holders = [cl.S_ROOM, cl.S_SPENT] + ([cl.S_GREY_TOK] if grey >= 0 else [])
    holders += [priv(p) + cl.P_TOK for p in range(n) if p != seat]
    pool = []
    for h in holders:
        for k in range(4):
            pool += [k] * int(state[h + k])
    rng.shuffle(pool)
    for h in holders:
        count = int(sum(state[h:h + 4]))
        state[h:h + 4] = 0
        for k in pool[:count]:
            state[h + k] += 1
        pool = pool[count:]
    # tokens on others' face-down cards: kinds shuffled among those cards
    cells = []
    for p in range(n):
        if p == seat:
            continue
        for c in range(6):
            if state[cl.ROW_CARD + p * 6 + c] == cl.FACE_DOWN:
                cells.append((priv(p), c))
    kinds = [k for b, c in cells for k in range(3) for _ in range(state[b + cl.P_PLUS + 6 * k + c])]
    rng.shuffle(kinds)
    for b, c in cells:
        count = sum(int(state[b + cl.P_PLUS + 6 * k + c]) for k in range(3))
        for k in range(3):
            state[b + cl.P_PLUS + 6 * k + c] = 0
        for k in kinds[:count]:
            state[b + cl.P_PLUS + 6 * k + c] += 1
        kinds = kinds[count:]
    # later weeks' Work and Reprimand cards
    later = 5 * (int(state[cl.H_WEEK]) + 1)
    for order in (cl.S_WORK_ORDER, cl.S_REPR_ORDER):
        rest = [int(x) for x in state[order + later:order + 15]]
        rng.shuffle(rest)
        state[order + later:order + 15] = rest
    return state


PICK_STREAM = harness.PICK_STREAM  # the tests' own stream for random moves

#: a component table unlike the defaults (values halved, more ILLNESS, icons on Work cards)
ODD_COMPONENTS = {
    "tokens": {"plus10": 2, "minus10": 2, "illness": 10, "meeting": 3},
    "work": {"icons": [2, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0]},
    "commitment": {"values": [k // 2 for k in range(60)]},
}


#: so few tokens that the Coffee Room is often empty (CL-4)
FEW_TOKENS = {"tokens": {"plus10": 2, "minus10": 2, "illness": 1, "meeting": 3}}


#: (players, options) of the games the position tests walk through
CONFIGS = [(2, {}), (3, {}), (4, {}), (5, {}), (2, {"grey_dismissal": "shield"}),
           (3, {"components": ODD_COMPONENTS}), (2, {"components": ODD_COMPONENTS})]


def walk_games(games, seed):
    """Yield the KernelGame of each decision point (and of the end) of ``games`` games over the
    configurations: even games random moves, odd ones the built-in heuristics, seated in turn."""
    heuristics = harness.heuristics("colleagues")
    for g in range(games):
        players, options = CONFIGS[g % len(CONFIGS)]
        k = KernelGame(SPEC, cl.make_params(players, options), seed, g)
        pick = PyStream(seed, g, PICK_STREAM)
        seating = [heuristics[(g + s) % len(heuristics)] for s in range(players)]
        while True:
            yield g, k
            seat = k.to_move()
            if seat < 0:
                break
            if g % 2 == 0:
                n = cl.legal_moves(k.state, k.moves)
                k.apply(k.moves[pick.below(n)])
            else:
                k.apply(k.choose(seating[seat]))
