"""Colleagues pieces more than one test module uses: the state invariant the random games and the
determinizations keep (the views' memory of discards, peeks and spent tokens included), and what a
determinization keeps of the real state (the contract's ``invariant`` and ``sample_check``)."""
import numpy as np
from numba import njit

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.colleagues import notation as cl_text
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
    return memory_invariant(state)


@njit
def memory_invariant(state):
    """The fields added for the determinization agree with the rest of the state: each seat's
    ``P_DISC`` (ascending, ``DISC_N`` of them) are discard-pile cards and together make it up,
    ``P_SPENT`` counts the tokens spent on peeks (``PEEK_N``, at least one per ``PEEKS`` bit: a
    card may be looked at again, CL-9) and is part of ``S_SPENT``, what a seat looked at is the
    Grey Entity card there. 0 if all hold, else a code."""
    n = state[cl.H_PLAYERS]
    total = 0
    spent = np.zeros(cl.N_KINDS, np.int64)
    for p in range(n):
        b = cl.PRIVATE + p * cl.PRIVATE_SIZE
        dn = state[cl.DISC_N + p]
        if dn < 0 or dn > cl.HAND:
            return 40
        for j in range(cl.HAND):
            card = state[b + cl.P_DISC + j]
            if (j < dn) != (card >= 0):
                return 41
            if j < dn:
                if j > 0 and card <= state[b + cl.P_DISC + j - 1]:
                    return 42
                found = False
                for i in range(state[cl.S_DISCARD_N]):
                    found |= state[cl.S_DISCARD + i] == card
                if not found:
                    return 43
        total += dn
        peeks = 0
        for d in range(cl.DAYS):
            bit = (state[cl.PEEKS + p] >> d) & 1
            peeks += bit
            seen = state[b + cl.P_SEEN + d]
            if bit != (seen >= 0) or (bit and seen != state[cl.S_GREY + d]):
                return 44
        used = 0
        for k in range(cl.N_KINDS):
            used += state[b + cl.P_SPENT + k]
            spent[k] += state[b + cl.P_SPENT + k]
        if used != state[cl.PEEK_N + p] or used < peeks:
            return 45
    if total != state[cl.S_DISCARD_N]:
        return 46
    for p in range(n):  # the MEETING tokens of face-down cards are spent too
        for c in range(cl.COLS):
            spent[cl.MEETING] += state[cl.ROW_CARD + p * cl.COLS + c] == cl.FACE_DOWN
    for k in range(cl.N_KINDS):
        if spent[k] != state[cl.S_SPENT + k]:
            return 47
    return 0


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


@njit
def sample_check(real, sample, seat):
    """0: what a Colleagues determinization keeps beyond the views (the memory of discards, peeks
    and spent tokens) is part of ``invariant``."""
    return 0


def not_position(state):
    """True at the indices of ``state`` that are not part of its position (the kernel's work space,
    ``notation.scratch_mask``)."""
    return cl_text.scratch_mask(state)


def dealt_by_chance(kind, outcome):
    """(seat, DEALT_KINDS name) of everything a chance event gives a seat: the week's hands and
    the Grey Entity's cards (seat 2), a mulligan's cards, drawn tokens (the Work and Reprimand
    piles' shuffle gives nobody anything)."""
    if kind == "deal":
        grey = [(2, f"Commitment {n}") for n in outcome.get("grey_entity", ())]
        return [(s, f"Commitment {n}") for s, hand in enumerate(outcome["hands"]) for n in hand] + grey
    if kind == "draw":
        return [(outcome["seat"], f"Commitment {n}") for n in outcome["cards"]]
    if kind == "token":
        return [(outcome["seat"], f"token {cl.KIND_KEYS[cl.KIND_NAMES.index(t)]}") for t in outcome["tokens"]]
    return []
