"""Cardavia pieces more than one test module uses: cards, moves and states built by hand, the state
invariant the random games and the determinizations keep, and what a determinization keeps of the
real state (the contract's ``invariant`` and ``sample_check``)."""
import numpy as np
from numba import njit

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.cardavia import notation as ca_text
from tourney_sim.simulate.games.cardavia import reference as ref
from tourney_sim.simulate.games.cardavia import rules as ca
from tourney_sim.simulate.seeding import PyStream, new_stream

SPEC = get_game("cardavia")
STATS = [name for name, _ in SPEC.columns]
DEFAULTS = {"single_match_forced": False, "last_sweep_scores": True, "napula_beyond_10": False,
            "match_deals": 1}


SW, CU, CO, CL = range(4)  # swords (spade), cups (coppe), coins (denari), clubs (bastoni)


FANTE, CAVALLO, RE = 11, 12, 13


def card(rank, suit):
    return (rank - 1) * 4 + suit


def mv(played, *taken):
    """Move code: play ``played``, capture ``taken`` (nothing: place it)."""
    mask = 0
    for t in taken:
        mask |= 1 << t
    return (played << 52) | mask


def params_of(**options):
    return ca.make_params(4, dict(DEFAULTS, **options))


def build_state(hands, table, piles=((), ()), to_move=0, turn=0, last_placed=-1, last_capturer=-1,
                deal_no=0, **options):
    """A kernel state with the given hands, table and team piles, in deal ``deal_no`` of the
    match (CA-6: pass match_deals=K; the finished deals scored nothing). Cards listed nowhere
    are elsewhere (``PUB_HAND``: out of this scenario, in no hand and no pile)."""
    state = np.zeros(ca.STATE_SIZE, np.int32)
    ca.init(state, params_of(**options), new_stream(0, 0, 0))
    state[ca.H_DEAL_NO] = deal_no
    state[ca.H_DEAL_STARTER] = deal_no % 4
    state[ca.CARD_PUB:ca.CARD_PUB + 52] = ca.PUB_HAND
    state[ca.TABLE:ca.TABLE + 52] = -1
    table = sorted(table)
    state[ca.TABLE:ca.TABLE + len(table)] = table
    state[ca.H_TABLE_N] = len(table)
    state[ca.H_TABLE_NUMERALS] = sum(1 for c in table if c < 40)
    mask = sum(1 << c for c in table)
    state[ca.H_TABLE_LO] = mask & ((1 << 26) - 1)
    state[ca.H_TABLE_HI] = mask >> 26
    for c in table:
        state[ca.CARD_PUB + c] = ca.PUB_TABLE
    state[ca.TEAM_STATS:ca.TEAM_SCORE + 2] = 0
    for team in range(2):  # no leader recorded (a constructed state skips turn LEADER_TURN)
        state[ca.TEAM_STATS + team * ca.N_STATS + ca.STAT_LEADER] = -1
    for team, pile in enumerate(piles):
        for c in pile:
            state[ca.CARD_PUB + c] = ca.PUB_TAKEN + team
            state[ca.TEAM_STATS + team * ca.N_STATS + ca.STAT_CARDS] += 1
            state[ca.TEAM_STATS + team * ca.N_STATS + ca.STAT_SWORDS] += c % 4 == SW
    for p in range(4):
        hand = sorted(hands[p]) if p < len(hands) else []
        base = ca.PRIVATE + p * ca.PRIVATE_SIZE
        state[base:base + ca.PRIVATE_SIZE] = -1
        state[base] = len(hand)
        state[base + 1:base + 1 + len(hand)] = hand
    state[ca.H_TO_MOVE] = to_move
    state[ca.H_TURN] = turn
    state[ca.H_LAST_PLACED] = last_placed
    state[ca.H_LAST_CAPTURER] = last_capturer
    all_cards = [c for h in hands for c in h] + list(table) + [c for p in piles for c in p]
    assert len(all_cards) == len(set(all_cards)), "a card listed twice"
    return state


def ref_from(state, game=0):
    """The reference engine in the same position as a kernel state made by build_state; its
    chance stream is fresh stream (0, game, 0), as in :func:`play` (for the next deal of a match)."""
    p = state[ca.H_PLAYERS:ca.H_PLAYERS + 1].tolist() + [state[ca.H_SINGLE_FORCED],
                                                         state[ca.H_LAST_SWEEP], state[ca.H_NAPULA10],
                                                         state[ca.H_MATCH_DEALS]]
    p += state[ca.POINTS:ca.POINTS + ca.N_POINTS].tolist()  # the component table in force
    g = ref.Game(p, PyStream(0, 0, 0))
    g.chance = PyStream(0, game, 0)
    g.deal_no = int(state[ca.H_DEAL_NO])
    g.match_turn = g.deal_no * ca.TURNS + int(state[ca.H_TURN])
    g.match_points = [int(x) for x in state[ca.MATCH_SCORE:ca.MATCH_SCORE + 2]]
    for t in range(2):
        base = ca.MATCH_STATS + t * ca.N_STATS
        g.match_columns[t] = dict(zip(ref.COLUMNS, state[base:base + ca.STAT_LEADER].tolist()))
    g.leader = int(state[ca.MATCH_STATS + ca.STAT_LEADER])
    for t in range(2):  # this deal's bonuses so far
        base = ca.TEAM_STATS + t * ca.N_STATS
        g.bonuses[t] = {name: int(state[base + STATS.index(name)]) for name in g.bonuses[t]}
    g.hands = [[ref.Card.of(int(c)) for c in state[b + 1:b + 1 + state[b]]]
               for b in (ca.PRIVATE + s * ca.PRIVATE_SIZE for s in range(4))]
    g.table = [ref.Card.of(int(c)) for c in state[ca.TABLE:ca.TABLE + state[ca.H_TABLE_N]]]
    g.piles = [[ref.Card.of(c) for c in range(52) if state[ca.CARD_PUB + c] == ca.PUB_TAKEN + t]
               for t in range(2)]
    g.seat = int(state[ca.H_TO_MOVE])
    g.turn = int(state[ca.H_TURN])
    last = int(state[ca.H_LAST_PLACED])
    g.placed_last_turn = ref.Card.of(last) if last >= 0 else None
    cap = int(state[ca.H_LAST_CAPTURER])
    g.last_capturer = cap if cap >= 0 else None
    return g


def last_turn_state(hand3, table, piles, last_capturer, **options):
    """Turn 47 of 48: seat 3 holds its last card, everyone else has played out."""
    return build_state([[], [], [], hand3], table, piles, to_move=3, turn=47,
                       last_capturer=last_capturer, **options)


@njit
def invariant(state):
    """0, or an error code: every card in exactly one place, the public records consistent,
    at the end of a deal the team totals equal bonuses + prizes + Napula as recorded, and the
    match records (CA-6) consistent with the deals."""
    turn = state[ca.H_TURN]
    deal = state[ca.H_DEAL_NO]
    starter = state[ca.H_DEAL_STARTER]
    k = state[ca.H_MATCH_DEALS]
    if not (0 <= deal < k) or starter != deal % 4:
        return 80  # deal k of the match is started by seat k mod 4
    code = match_invariant(state)
    if code != 0:
        return code
    one = np.int64(1)
    seen = np.int64(0)  # card mask of every place visited so far
    for p in range(4):
        base = ca.PRIVATE + p * ca.PRIVATE_SIZE
        size = state[base]
        o = (p - starter) % 4  # the seat's place in this deal's order
        played = (turn - o + 3) // 4 if turn > o else 0
        if size != ca.HAND_SIZE - played:
            return 10  # one card a turn, in seat order
        for j in range(size):
            c = state[base + 1 + j]
            if j > 0 and c <= state[base + j]:
                return 11
            if state[ca.CARD_PUB + c] != ca.PUB_HAND:
                return 12
            if seen & (one << c):
                return 1
            seen |= one << c
        for j in range(size, ca.HAND_SIZE):
            if state[base + 1 + j] != -1:
                return 13
    tn = state[ca.H_TABLE_N]
    numerals = 0
    table = np.int64(0)
    for i in range(tn):
        c = state[ca.TABLE + i]
        if i > 0 and c <= state[ca.TABLE + i - 1]:
            return 20
        if state[ca.CARD_PUB + c] != ca.PUB_TABLE:
            return 21
        table |= one << c
        numerals += c < 40
    for i in range(tn, 52):
        if state[ca.TABLE + i] != -1:
            return 22
    if numerals != state[ca.H_TABLE_NUMERALS] or table != ca.table_mask(state):
        return 23
    if seen & table:
        return 1
    seen |= table
    c0 = c1 = s0 = s1 = 0
    for c in range(52):
        where = state[ca.CARD_PUB + c]
        if where >= ca.PUB_TAKEN:
            if seen & (one << c):
                return 1
            seen |= one << c
            if where == ca.PUB_TAKEN:
                c0 += 1
                s0 += c % 4 == 0
            else:
                c1 += 1
                s1 += c % 4 == 0
    if seen != (one << 52) - 1:
        return 2  # every card in some place
    st0 = ca.TEAM_STATS
    st1 = ca.TEAM_STATS + ca.N_STATS
    if (state[st0 + ca.STAT_CARDS] != c0 or state[st0 + ca.STAT_SWORDS] != s0
            or state[st1 + ca.STAT_CARDS] != c1 or state[st1 + ca.STAT_SWORDS] != s1):
        return 30
    if state[ca.H_TO_MOVE] >= 0:
        if turn >= 48 or state[ca.H_TO_MOVE] != (starter + turn) % 4:
            return 40
        if state[ca.TEAM_SCORE] != 0 or state[ca.TEAM_SCORE + 1] != 0:
            return 41
        return 0
    # the end: 48 turns of the match's last deal, the table claimed unless nobody captured,
    # prizes recomputed here
    if turn != 48 or deal != k - 1:
        return 50
    if state[ca.H_LAST_CAPTURER] >= 0 and tn != 0:
        return 51
    if state[ca.H_LAST_CAPTURER] < 0 and (tn != 52 or c0 + c1 != 0):
        return 52
    for t in range(2):
        st = ca.TEAM_STATS + t * ca.N_STATS
        mine_c, other_c = (c0, c1) if t == 0 else (c1, c0)
        mine_s, other_s = (s0, s1) if t == 0 else (s1, s0)
        if state[st + ca.STAT_MOST_CARDS] != (2 if mine_c > other_c else 0):
            return 60
        if state[st + ca.STAT_MOST_SWORDS] != (1 if mine_s > other_s else 0):
            return 61
        if state[st + ca.STAT_MATA] != (state[ca.CARD_PUB + 4] == ca.PUB_TAKEN + t):
            return 62
        if state[st + ca.STAT_TEN_OF_COINS] != (state[ca.CARD_PUB + 38] == ca.PUB_TAKEN + t):
            return 63
        if state[st + ca.STAT_FANTE_OF_CUPS] != (state[ca.CARD_PUB + 41] == ca.PUB_TAKEN + t):
            return 64
        run = 0
        longest = RE if state[ca.H_NAPULA10] != 0 else 10  # CA-5: the run goes on through the courts
        while run < longest and state[ca.CARD_PUB + 4 * run] == ca.PUB_TAKEN + t:
            run += 1
        if state[st + ca.STAT_NAPULA] != (run if run >= 3 else 0):
            return 65
        total = 0
        for k in range(ca.STAT_SCUA, ca.STAT_NAPULA + 1):
            total += state[st + k]
        if state[ca.TEAM_SCORE + t] != total:
            return 70  # team points = bonuses + prizes + Napula as recorded
    return 0


@njit
def match_invariant(state):
    """CA-6, what the state alone says of the match: its score is the sum of its summed columns,
    no more cards than the finished deals hold, the leader taken exactly from two thirds of the
    match on, and at the end the last deal inside the match's sums (equal to them for K = 1)."""
    k = state[ca.H_MATCH_DEALS]
    over = state[ca.H_TO_MOVE] < 0
    finished = state[ca.H_DEAL_NO] + (1 if over else 0)
    cards = 0
    for t in range(2):
        mt = ca.MATCH_STATS + t * ca.N_STATS
        total = 0
        for c in range(ca.STAT_SCUA, ca.STAT_NAPULA + 1):
            total += state[mt + c]
        if state[ca.MATCH_SCORE + t] != total:
            return 81
        cards += state[mt + ca.STAT_CARDS]
        if state[mt + ca.STAT_MOST_CARDS] % 2 != 0 or state[mt + ca.STAT_MOST_CARDS] > 2 * finished:
            return 82
        for c in (ca.STAT_MOST_SWORDS, ca.STAT_MATA, ca.STAT_TEN_OF_COINS, ca.STAT_FANTE_OF_CUPS):
            if state[mt + c] > finished:
                return 82
        if state[mt + ca.STAT_LEADER] != state[ca.TEAM_STATS + t * ca.N_STATS + ca.STAT_LEADER]:
            return 83
    if cards > 52 * finished:
        return 84
    match_turn = state[ca.H_DEAL_NO] * 48 + state[ca.H_TURN]
    if match_turn < ca.LEADER_TURN * k and state[ca.MATCH_STATS + ca.STAT_LEADER] != -1:
        return 85  # no leader before two thirds of the match
    if over:
        for t in range(2):
            mt = ca.MATCH_STATS + t * ca.N_STATS
            st = ca.TEAM_STATS + t * ca.N_STATS
            for c in range(ca.STAT_LEADER):
                if state[mt + c] < state[st + c] or (k == 1 and state[mt + c] != state[st + c]):
                    return 86
            if state[ca.MATCH_SCORE + t] < state[ca.TEAM_SCORE + t]:
                return 86
    return 0


@njit
def sample_check(real, sample, seat):
    """0, or an error code: a determinization ``sample`` of ``real`` for ``seat`` keeps every
    hand's size (so draws as many hidden cards as the other hands hold) and ``seat``'s hand."""
    for p in range(4):
        base = ca.PRIVATE + p * ca.PRIVATE_SIZE
        if sample[base] != real[base]:
            return 4
        for j in range(1, ca.PRIVATE_SIZE):
            if p == seat and sample[base + j] != real[base + j]:
                return 5
    return 0


def not_position(state):
    """True at the indices of ``state`` that are not part of its position (``SCRATCH_FIELDS``)."""
    mask = np.zeros(len(state), bool)
    for _name, start, stop in ca_text.SCRATCH_FIELDS:
        mask[start:stop] = True
    return mask


def dealt_by_chance(kind, outcome):
    """(seat, DEALT_KINDS name) of every card a chance event deals a seat: each deal's hands (the
    four table cards are dealt to nobody)."""
    if kind != "deal":
        return []
    return [(s, f"{c['rank']} of {c['suit']}") for s, hand in enumerate(outcome["hands"]) for c in hand]
