"""Compañeros (3-6 players): the rules kernel.

Rules: ``shared/rules/companeros.md`` (decisions CO-1..CO-6) over the rulebook. Choices made
here where both are silent:

- Cards are numbered ``card = colour * 10 + (rank - 1)``: colours 0..n-1, ranks 1..10; a card's
  victory points are its rank's value in the component table (``CARD_VALUE``; by default the rank).
- The components (``components.toml`` beside this file, declared by ``COMPONENTS``; the rule option
  ``components``): colours = n + ``deck.extra_colours``, the values of the ranks (``deck.values``,
  rising, so rank order is value order), the opening display d = n + ``deal.extra_display`` and
  the hand size h = ``deal.hand`` (rounds per game). The rules file's game: n colours, values
  1..10, d = n, h = 9. ``make_params`` refuses a table that cannot be dealt (one line).
- The deal: the 10 x colours card ids are shuffled with the chance stream (``seeding.shuffle``);
  the first d form the display, then seat p receives the next h (``deck[d + hp : d + hp + h]``);
  the rest (none by default) stay undealt, unseen by anyone.
- A decision is either *play a card* (move code = card id) or, during trick scoring, *take a
  colour* (``MOVE_TAKE + colour``, for each colour present in the display) or *pass*
  (``MOVE_PASS``). Taking is a decision of the taker's strategy (CO-2), so a player whose turn in
  the order comes is asked even when only one colour lies there.
- CO-5 multi-game match: a new game of the match is dealt from the same chance stream; its
  starter is the leader on match points, ties going to the earliest leader in the seat order of
  the previous game's first round (that game's starter first). The match total is the score.
- Result columns: ``cards_taken`` (display cards taken over the match) and
  ``rounds_first_taker`` (rounds in which the seat was the first to take, so starts the next),
  and ``leader_at_two_thirds``: the seat alone in the lead on match points once
  ``(2 * rounds * games) // 3`` rounds of the match are played, -1 if shared. A match of one
  round (``deal.hand`` 1, one game) has that point before its first round, where nobody leads:
  -1 (issue 38: the kernel reported seat 0, the reference engine -1).

Every card of the game is in exactly one place: a hand, the display mask, ``PLAYED`` or a
taken mask. Masks make taking a colour two mask operations (no scan over cards).

Determinization (for the search player, issue 12): :func:`determinize` fills a complete state
from the views of the seat to move (``public[H_TO_MOVE]``). The only hidden information in
Compañeros is the other seats' hands: every card not in a hand lies face up (the display masks,
``PLAYED``, the taken masks), so the cards still in the other hands are exactly the cards of the
game in none of those places and not in the seat's own hand (with a component table that leaves
cards undealt, those too: ``H_COLOURS * VALUES - H_DISPLAY_START - n * H_HAND_SIZE`` of them).
Their sizes are public: seat p holds ``H_HAND_SIZE - H_ROUND - (PLAYED[p] >= 0)`` cards. The
function draws a uniformly random split of those cards over the other hands with those sizes (a
partial Fisher-Yates shuffle over ``seeding.below``, the seats filled in seat order), which is
what the seat knows under a uniform deal: a card a seat played earlier tells nothing about which
of the unseen cards it still holds.
Nothing else is hidden: later games of a CO-5 match are dealt from the chance stream that
``apply_move`` is given. The public part and the seat's own hand are copied as they are; the
private parts of unused seats and the scratch area are zeroed, so the sampled state depends on
nothing but the two views and ``rng``.

Speed (measured with ``scripts/bench.py``; the hot paths avoid unpredictable branches, which
cost more here than arithmetic): legal plays are the hand list copied with a fixed count;
playing a card closes the gap branch-free; trick scoring places each seat by counting the seats
ahead of it and finds the cut from a bit set of shared colour values. Together 1.8x faster
than per-colour mask loops and an insertion sort.

Seat compensation (issue 42; the rules have none): the component ``compensation.points`` (one
entry per seat, 6) are victory points a seat starts the match with: ``SCORE`` starts there, so
the result, the next game's starter in a match (CO-5) and the leader at two thirds count them. A
seat beyond the player count must hold 0. All 0 in the shipped game.

State layout (int32, ``STATE_SIZE`` long; seats and colours padded to 6). Sets of cards of one
colour are 10-bit masks: bit ``value - 1`` stands for the card of that value. It is declared once,
as ``LAYOUT`` below: each offset is a module constant made from it (find where a name is declared
with ``grep -n '"SCORE"' rules.py``), and this table is generated from it when the module is
loaded::
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ... import kernel
from ...kernel import popcount, rank_descending
from ...seeding import below, shuffle
from ..components import Components, Value
from ..layout import Layout, Params

NAME = "companeros"
#: bumped whenever the behaviour of the rules (and so any result) changes
RULES_VERSION = 1
MIN_PLAYERS, MAX_PLAYERS = 3, 6
VALUES = 10
HAND_SIZE = 9  # most cards a hand holds (the component table's deal.hand: 1..9)
ROUNDS = 9  # most rounds of a game (one per card of a hand)
MAX_CARDS = MAX_PLAYERS * VALUES
MAX_MATCH_GAMES = 100
#: most victory points the cards one colour gets in one round may be worth: trick scoring keeps
#: colour values as bits of an int64 (a component table whose cards could exceed it is refused)
MAX_COLOUR_VALUE = 62

PHASE_PLAY, PHASE_TAKE, PHASE_OVER = 0, 1, 2
MOVE_TAKE = 64  # MOVE_TAKE + colour: take every display card of that colour
MOVE_PASS = 127  # take nothing

# ---- state layout: declared once (see simulate/games/layout.py); the table ends the docstring
LAYOUT = Layout(
    public=[
        ("H_PLAYERS", 1, "n players"),
        ("H_MATCH_GAMES", 1, "games in the match (CO-5)"),
        ("H_GAME_NO", 1, "game of the match, 0.."),
        ("H_ROUND", 1, "round of this game, 0..8"),
        ("H_PHASE", 1, "PHASE_PLAY/TAKE/OVER"),
        ("H_STARTER", 1, "seat starting this round"),
        ("H_N_PLAYED", 1, "cards played this round"),
        ("H_TAKE_POS", 1, "index of the taker to decide"),
        ("H_N_TAKERS", 1, "eligible takers"),
        ("H_FIRST_TAKER", 1, "first seat that took, or -1"),
        ("H_GAME_STARTER", 1, "starter of this game's first round"),
        ("H_TO_MOVE", 1, "the seat to decide now, -1 once the game is over"),
        ("H_DISPLAY_CARDS", 1, "number of cards in the display"),
        ("H_LEADER_2_3", 1, "seat alone in the lead on match points after two thirds of the "
                            "match's rounds (-1: shared lead), for the decisiveness analysis"),
        ("H_COLOURS", 1, "colours in play (the component table: players + deck.extra_colours)"),
        ("H_HAND_SIZE", 1, "cards dealt to each hand, so rounds per game (deal.hand)"),
        ("PLAYED", MAX_PLAYERS, "card played this round by each seat, -1 if none yet"),
        ("TAKE_ORDER", MAX_PLAYERS, "eligible takers, in order of trick scoring"),
        ("SCORE", MAX_PLAYERS, "match points per seat"),
        ("CARDS_TAKEN", MAX_PLAYERS, "cards taken per seat"),
        ("FIRST_TAKES", MAX_PLAYERS, "rounds as first taker per seat"),
        ("DISPLAY_SUM", MAX_PLAYERS, "sum of display values per colour"),
        ("DISPLAY_MASK", MAX_PLAYERS, "display cards per colour (mask)"),
        ("PLAYED_SUM", MAX_PLAYERS, "colour value of this round's played cards per colour (CO-6)"),
        ("PLAYED_MASK", MAX_PLAYERS, "this round's played cards per colour (mask)"),
        ("TAKEN_MASK", (MAX_PLAYERS, MAX_PLAYERS), "cards taken in this game, per seat then colour "
                                                   "(mask)"),
        "The component table in force (components.toml), appended:",
        ("H_DISPLAY_START", 1, "cards laid out as the display at each deal (players + "
                               "deal.extra_display)"),
        ("CARD_VALUE", VALUES, "the victory points of the card of each rank 1..VALUES of a colour, "
                               "rising (deck.values): CARD_VALUE + card % VALUES"),
        "Seat compensation (components.toml [compensation], issue 42), appended:",
        ("COMPENSATION", MAX_PLAYERS, "victory points each seat starts the match with (SCORE starts there; 0: "
                                      "none)"),
    ],
    private=[
        ("PV_SIZE", 1, "hand size h"),
        ("PV_HAND", HAND_SIZE, "the hand's card ids ascending (h of them), then -1"),
    ],
    seats=MAX_PLAYERS,
    scratch=[
        (None, MAX_CARDS, "the deck while dealing, sort keys while scoring a trick"),
        ("S_DEALT", (MAX_PLAYERS, MAX_CARDS), "cards dealt to each seat over the match, per card id "
                                              "(DEALT_KINDS)"),
    ],
)
LAYOUT.install(globals())  # H_PLAYERS = 0, ..., STATE_SIZE, public_view, private_view, the table
#: the views' pieces above and these constants are published for strategies (tourney_sim.views):
#: bumped whenever any of them changes
VIEWS_VERSION = 3  # 2: H_COLOURS, H_HAND_SIZE, H_DISPLAY_START, CARD_VALUE (the component table); 3: COMPENSATION
STRATEGY_CONSTANTS = {
    "MAX_PLAYERS": "seats the views have room for (per-seat pieces hold this many entries)",
    "VALUES": "cards per colour: card id = colour * VALUES + rank - 1 (rank 1..10; its victory points "
              "are CARD_VALUE[rank - 1], by default the rank)",
    "HAND_SIZE": "most cards a hand holds (the cards dealt are H_HAND_SIZE)",
    "PHASE_PLAY": "H_PHASE: the seat to move plays a card (move = the card id)",
    "PHASE_TAKE": "H_PHASE: the seat to move takes a colour of the display or passes",
    "PHASE_OVER": "H_PHASE: the game is over",
    "MOVE_TAKE": "move MOVE_TAKE + colour: take every display card of that colour",
    "MOVE_PASS": "move: take nothing (always legal when taking: the last legal move)",
}

#: most legal moves at one decision: a full hand, or every colour plus pass
MAX_MOVES = max(HAND_SIZE, MAX_PLAYERS + 1)
#: most decisions in one game of a match: per round n plays and at most n take decisions
MAX_DECISIONS_PER_GAME = ROUNDS * 2 * MAX_PLAYERS

#: what S_DEALT counts (kernel.py): each card, by id, named as the notation names it
COLOUR_NAMES = ("red", "yellow", "green", "blue", "purple", "orange")
DEALT_KINDS = tuple(f"{colour} {value}" for colour in COLOUR_NAMES for value in range(1, VALUES + 1))


def colour_of(card):
    return card // VALUES


def value_of(card):
    return card % VALUES + 1


colour_of_nb = njit(cache=True, inline="always")(colour_of)
value_of_nb = njit(cache=True, inline="always")(value_of)


# ----------------------------------------------------------------------------- kernel
@njit(cache=True, _nrt=False)
def _deal(state, chance):
    """Deal a fresh game of the match: shuffle, lay the display, deal the hands (the component
    table's sizes; cards beyond them stay undealt, unseen).

    Compiled on its own, not inlined (issue 40): once its loops ran to sizes read from the state,
    LLVM vectorised them (AVX-512, a scatter for the -1 padding) and kept their vector constants
    in registers across the whole game loop, to be spilled and reloaded around every strategy
    call (vector registers do not survive a call): 11 reloads a decision, the kernel 0.9x. Called
    once a game, it costs one call there instead.
    """
    n = state[H_PLAYERS]
    n_cards = state[H_COLOURS] * VALUES
    shown = state[H_DISPLAY_START]
    size = state[H_HAND_SIZE]
    for c in range(n_cards):
        state[SCRATCH + c] = c
    shuffle(chance, state, SCRATCH, n_cards)
    for k in range(MAX_PLAYERS):
        state[DISPLAY_SUM + k] = 0
        state[DISPLAY_MASK + k] = 0
        state[PLAYED_SUM + k] = 0
        state[PLAYED_MASK + k] = 0
        state[PLAYED + k] = -1
    for k in range(MAX_PLAYERS * MAX_PLAYERS):
        state[TAKEN_MASK + k] = 0
    for i in range(shown):
        c = state[SCRATCH + i]
        state[DISPLAY_SUM + c // VALUES] += state[CARD_VALUE + c % VALUES]
        state[DISPLAY_MASK + c // VALUES] |= 1 << (c % VALUES)
    state[H_DISPLAY_CARDS] = shown
    for p in range(n):
        base = PRIVATE + p * PRIVATE_SIZE
        state[base] = size
        cards = np.int64(0)  # the hand as a set of card ids, listed ascending below
        for j in range(shown + size * p, shown + size * (p + 1)):
            cards |= np.int64(1) << state[SCRATCH + j]
            state[S_DEALT + p * MAX_CARDS + state[SCRATCH + j]] += 1
        for i in range(size):
            state[base + 1 + i] = trailing_zeros(cards)
            cards &= cards - 1
        for i in range(size, HAND_SIZE):  # -1 beyond a hand smaller than HAND_SIZE
            state[base + 1 + i] = -1
    state[H_ROUND] = 0
    state[H_PHASE] = PHASE_PLAY
    state[H_N_PLAYED] = 0
    state[H_GAME_STARTER] = state[H_STARTER]
    state[H_TO_MOVE] = state[H_STARTER]


@njit(cache=True, inline="always")
def init(state, params, chance):
    for i in range(STATE_SIZE):
        state[i] = 0
    copy_params(state, params)  # the player count, match_games and the component table (PARAMS)
    for p in range(MAX_PLAYERS):  # the points a seat starts with (the seat compensation)
        state[SCORE + p] = state[COMPENSATION + p]
    state[H_STARTER] = 0  # CO-1: seat 0 is the oldest player
    _deal(state, chance)


@njit(cache=True, inline="always")
def to_move(state):
    return state[H_TO_MOVE]


@njit(cache=True, inline="always")
def legal_moves(state, moves):
    n = state[H_PLAYERS]
    if state[H_PHASE] == PHASE_PLAY:
        base = PRIVATE + state[H_TO_MOVE] * PRIVATE_SIZE
        for i in range(HAND_SIZE):  # a fixed count: no branch to mispredict
            moves[i] = state[base + 1 + i]
        return state[base]
    if state[H_PHASE] == PHASE_TAKE:
        k = 0
        for colour in range(MAX_PLAYERS):  # branch-free: write every colour, keep those present
            moves[k] = MOVE_TAKE + colour
            k += state[DISPLAY_MASK + colour] != 0
        moves[k] = MOVE_PASS
        return k + 1
    return 0


@njit(cache=True, inline="always")
def _score_trick(state):
    """Trick scoring (CO-6) once every seat has played: write the takers, in order, to
    ``TAKE_ORDER`` and return how many there are.

    Seats stand by (colour value, card value) descending; the walk stops at the first colour
    value two colours share, so the takers are the seats whose colour value is above the
    highest shared one. Branch-free: each seat's place is the number of seats ahead of it.
    """
    n = state[H_PLAYERS]
    for p in range(n):  # sort keys (colour value, card rank, seat), kept in the scratch area (the
        # ranks of a colour rise with its values: rank order is value order); & 63: see apply_move
        c = state[PLAYED + p] & 63
        state[SCRATCH + p] = ((state[PLAYED_SUM + c // VALUES] * 16) + c % VALUES + 1) * 8 + p
    for p in range(n):
        key = state[SCRATCH + p]
        place = 0
        for q in range(n):
            place += state[SCRATCH + q] > key
        state[TAKE_ORDER + place] = p
    seen = np.int64(0)  # bit v: some colour has colour value v (v <= 45)
    shared = np.int64(1)  # bit v: two colours have colour value v; bit 0 stands for "none"
    for colour in range(state[H_COLOURS]):
        bit = np.int64(state[PLAYED_SUM + colour] > 0) << state[PLAYED_SUM + colour]
        shared |= seen & bit
        seen |= bit
    highest_shared = 63 - leading_zeros(shared)
    takers = 0
    for p in range(n):
        takers += state[SCRATCH + p] >> 7 > highest_shared
    return takers


@njit(cache=True, inline="always")
def taker_position(public, seat, card):
    """Where ``seat``, the seat to play, would stand among the takers if it played ``card``
    now: its index in the trick-scoring order (0 = first to take), or -1 if it would be cut
    off (CO-6). The same answer as :func:`_score_trick` would give once the others have
    played no more cards, without a work array (strategies ask it for every card of a hand).
    """
    my_colour = card // VALUES
    my_value = public[CARD_VALUE + card % VALUES]
    mine = public[PLAYED_SUM + my_colour] + my_value
    # one branch-free pass over the colours (a strategy asks this for every card of a hand)
    seen = np.int64(0)  # bit v: a colour of value v >= mine (v <= 45)
    shared = np.int64(0)  # bit v: two such colours
    position = 0  # cards ahead of mine: of richer colours, and higher ones of my colour
    for colour in range(public[H_COLOURS]):
        other = colour != my_colour
        v = public[PLAYED_SUM + colour] + (0 if other else my_value)
        seen, shared, position = taker_step(public, colour, other, v, mine, seen, shared, position)
    return taker_place(public, card, shared, position)


@njit(cache=True, inline="always")
def taker_step(public, colour, other, v, mine, seen, shared, position):
    """One colour of :func:`taker_position`'s pass (colour value ``v``, mine ``mine``): the colour
    values seen at or above mine, those shared, the cards ahead of mine so far. Code that walks
    the colours for a reason of its own (the apprentice's features) takes this step in its walk."""
    bit = np.int64(v >= mine) << v
    shared |= seen & bit
    seen |= bit
    position += (other & (v > mine)) * popcount(public[PLAYED_MASK + colour])
    return seen, shared, position


@njit(cache=True, inline="always")
def taker_place(public, card, shared, position):
    """:func:`taker_position` from its pass over every colour (:func:`taker_step`)."""
    position += popcount(public[PLAYED_MASK + card // VALUES] >> (card % VALUES + 1))  # ranks above mine
    return position if shared == 0 else -1  # shared: the walk stops before reaching me


@njit(cache=True, inline="always")
def _end_round(state, chance):
    n = state[H_PLAYERS]
    for p in range(n):
        state[PLAYED + p] = -1
    for colour in range(MAX_PLAYERS):  # the played cards join the display
        state[DISPLAY_MASK + colour] |= state[PLAYED_MASK + colour]
        state[DISPLAY_SUM + colour] += state[PLAYED_SUM + colour]
        state[PLAYED_MASK + colour] = 0
        state[PLAYED_SUM + colour] = 0
    state[H_DISPLAY_CARDS] += n
    first = state[H_FIRST_TAKER]
    if first >= 0:
        state[H_STARTER] = first
        state[FIRST_TAKES + first] += 1
    state[H_N_PLAYED] = 0
    state[H_ROUND] += 1
    state[H_PHASE] = PHASE_PLAY
    state[H_TO_MOVE] = state[H_STARTER]
    rounds = state[H_HAND_SIZE]  # one card of each hand a round
    # the match's rounds done == (2 * rounds * games) // 3, two thirds (without a division)
    gap = 2 * rounds * state[H_MATCH_GAMES] - 3 * (state[H_GAME_NO] * rounds + state[H_ROUND])
    if 0 <= gap <= 2:
        leader = 0
        for p in range(1, n):
            if state[SCORE + p] > state[SCORE + leader]:
                leader = p
        for p in range(n):
            if p != leader and state[SCORE + p] == state[SCORE + leader]:
                leader = -1
                break
        state[H_LEADER_2_3] = leader
    if state[H_ROUND] < rounds:
        return
    state[H_GAME_NO] += 1
    if state[H_GAME_NO] >= state[H_MATCH_GAMES]:
        state[H_PHASE] = PHASE_OVER
        state[H_TO_MOVE] = -1
        return
    # CO-5: the leader on match points starts the next game; ties: earliest in the previous
    # game's order (starting from that game's first starter).
    prev = state[H_GAME_STARTER]
    best = -1
    for i in range(n):
        p = (prev + i) % n
        if best < 0 or state[SCORE + p] > state[SCORE + best]:
            best = p
    state[H_STARTER] = best
    _deal(state, chance)


@njit(cache=True, inline="always")
def _next_taker(state, chance):
    """Hand the decision to the next eligible taker, or end the round when none is left or the
    display is empty (CO-2)."""
    if state[H_DISPLAY_CARDS] == 0 or state[H_TAKE_POS] >= state[H_N_TAKERS]:
        _end_round(state, chance)
    else:
        state[H_TO_MOVE] = state[TAKE_ORDER + state[H_TAKE_POS]]


@njit(cache=True, inline="always")
def apply_move(state, move, chance):
    # The masks here and in _score_trick change no legal call (seats are 0..5, move codes 0..127,
    # cards 0..59): they tell LLVM that these indices are not negative, so it drops numba's
    # negative-index wraparound (a compare and a select on every state access they index) and the
    # sign fix-ups of // and %. Issue 40: the kernel 1.1x.
    move = move & 127
    n = state[H_PLAYERS]
    seat = state[H_TO_MOVE] & 7
    if state[H_PHASE] == PHASE_PLAY:
        base = PRIVATE + seat * PRIVATE_SIZE + 1
        for i in range(HAND_SIZE - 1):  # close the gap, branch-free (-1 padding stays put)
            here = state[base + i]
            state[base + i] = state[base + i + 1] if here >= move else here
        state[base + HAND_SIZE - 1] = -1
        state[base - 1] -= 1
        state[PLAYED + seat] = move
        state[PLAYED_SUM + move // VALUES] += state[CARD_VALUE + move % VALUES]
        state[PLAYED_MASK + move // VALUES] |= 1 << (move % VALUES)
        state[H_N_PLAYED] += 1
        if state[H_N_PLAYED] < n:
            seat += 1
            state[H_TO_MOVE] = 0 if seat == n else seat
            return
        state[H_N_TAKERS] = _score_trick(state)
        state[H_TAKE_POS] = 0
        state[H_FIRST_TAKER] = -1
        state[H_PHASE] = PHASE_TAKE
        _next_taker(state, chance)
        return
    # PHASE_TAKE
    if move != MOVE_PASS:
        colour = (move - MOVE_TAKE) & 7
        mask = state[DISPLAY_MASK + colour]
        count = popcount(mask)
        state[TAKEN_MASK + seat * MAX_PLAYERS + colour] |= mask
        state[CARDS_TAKEN + seat] += count
        state[SCORE + seat] += state[DISPLAY_SUM + colour]
        state[H_DISPLAY_CARDS] -= count
        state[DISPLAY_SUM + colour] = 0
        state[DISPLAY_MASK + colour] = 0
        if state[H_FIRST_TAKER] < 0:
            state[H_FIRST_TAKER] = seat
    state[H_TAKE_POS] += 1
    _next_taker(state, chance)


@njit(cache=True, inline="always")
def result(state, score, rank, extra):
    n = state[H_PLAYERS]
    leader = state[H_LEADER_2_3]
    if 2 * state[H_HAND_SIZE] * state[H_MATCH_GAMES] < 3:
        # a match of one round (deal.hand 1, one game): its two-thirds point, (2 * 1 * 1) // 3 = 0
        # rounds, is before the first round, where nobody leads (issue 38: the kernel gave 0)
        leader = -1
    for p in range(n):
        score[p] = state[SCORE + p]
        extra[p, 0] = state[CARDS_TAKEN + p]
        extra[p, 1] = state[FIRST_TAKES + p]
        extra[p, 2] = leader
    rank_descending(score, n, rank)


@njit(cache=True, _nrt=False)
def determinize(public, private, state, rng):
    """Fill ``state`` (STATE_SIZE) with a complete game state consistent with what the seat to
    move knows, given its views ``public`` (PUBLIC_SIZE) and ``private`` (PRIVATE_SIZE): the
    public part and that seat's hand as given, the other hands a uniformly random split of the
    cards nobody has seen, each hand its public size (ascending, -1 padded). Draws from ``rng``
    (uint64[4], advanced) only; allocates nothing (the scratch area of ``state`` holds the unseen
    cards while drawing, and is zeroed after). ``state`` may be the very array the views are
    slices of. Returns the number of hidden cards drawn, or -1 if the views are inconsistent
    (the unseen cards do not fill the other hands exactly).
    """
    n = public[H_PLAYERS]
    seat = public[H_TO_MOVE]
    for i in range(PUBLIC_SIZE):
        state[i] = public[i]
    own = np.int64(0)  # the seat's own hand as a set of card ids
    if seat >= 0:
        for i in range(private[0]):
            own |= np.int64(1) << private[1 + i]
    # the unseen cards, ascending, into the scratch area
    k = 0
    full = (1 << VALUES) - 1
    for colour in range(public[H_COLOURS]):
        gone = public[DISPLAY_MASK + colour] | public[PLAYED_MASK + colour]
        for p in range(n):
            gone |= public[TAKEN_MASK + p * MAX_PLAYERS + colour]
        free = np.int64(full & ~gone) & ~((own >> (colour * VALUES)) & full)
        while free != 0:
            state[SCRATCH + k] = colour * VALUES + trailing_zeros(free)
            k += 1
            free &= free - 1
    # public hand sizes of the other seats; the last of them is the one left undrawn
    needed = 0
    last = 0
    base_size = public[H_HAND_SIZE] - public[H_ROUND]
    for p in range(n):
        if p != seat:
            size = base_size - (public[PLAYED + p] >= 0)
            needed += size
            last = size
    undealt = public[H_COLOURS] * VALUES - public[H_DISPLAY_START] - n * public[H_HAND_SIZE]
    if needed + undealt != k:
        return -1
    # partial Fisher-Yates: positions [0, draws) get a uniform draw without replacement (the
    # last hand takes the rest when every card is dealt; else the undealt cards are the rest)
    draws = k - last if undealt == 0 else needed
    for i in range(draws):
        j = i + below(rng, k - i)
        tmp = state[SCRATCH + i]
        state[SCRATCH + i] = state[SCRATCH + j]
        state[SCRATCH + j] = tmp
    pos = 0
    for p in range(MAX_PLAYERS):
        base = PRIVATE + p * PRIVATE_SIZE
        if p >= n:
            for i in range(PRIVATE_SIZE):
                state[base + i] = 0
        elif p == seat:
            for i in range(PRIVATE_SIZE):
                state[base + i] = private[i]
        else:
            size = base_size - (public[PLAYED + p] >= 0)
            cards = np.int64(0)
            for i in range(pos, pos + size):
                cards |= np.int64(1) << state[SCRATCH + i]
            pos += size
            state[base] = size
            for i in range(HAND_SIZE):
                if i < size:
                    state[base + 1 + i] = trailing_zeros(cards)
                    cards &= cards - 1
                else:
                    state[base + 1 + i] = -1
    for i in range(SCRATCH, STATE_SIZE):
        state[i] = 0
    return k


RULES = kernel.rules_module(__name__)  # this module, as the kernel loop and the search take it


@njit(cache=True)
def play_chunk(params, chunk):  # kernel.play_games with this game's cap on decisions
    return kernel.play_games(RULES, MAX_DECISIONS_PER_GAME * params[P_MATCH_GAMES], params, chunk)


# ----------------------------------------------------------------------------- rule parameters
def _playable(table: dict, n_players: int) -> str | None:
    """Why a component table cannot make a playable game of ``n_players``, or None."""
    colours = n_players + table["deck"]["extra_colours"]
    if not 1 <= colours <= MAX_PLAYERS:
        return (f"deck.extra_colours: {n_players} players with {table['deck']['extra_colours']:+d} make "
                f"{colours} colours; there are 1 to {MAX_PLAYERS}")
    values = table["deck"]["values"]
    if any(a >= b for a, b in zip(values, values[1:])):
        return f"deck.values must rise strictly (CO-3: the ranks of a colour never tie), got {values}"
    richest = sum(sorted(values)[-n_players:])
    if richest > MAX_COLOUR_VALUE:
        return (f"deck.values: {n_players} cards of one colour can be worth {richest} in one round; "
                f"at most {MAX_COLOUR_VALUE}")
    display = n_players + table["deal"]["extra_display"]
    hand = table["deal"]["hand"]
    if display < 0:
        return f"deal.extra_display: {n_players} players with {table['deal']['extra_display']} make a display of {display} cards"
    if display + n_players * hand > colours * VALUES:
        return (f"the deck of {colours} colours ({colours * VALUES} cards) is too small to deal a display "
                f"of {display} and {n_players} hands of {hand}")
    extra = [s for s in range(n_players, MAX_PLAYERS) if table["compensation"]["points"][s]]
    if extra:
        return (f"compensation.points[seat{extra[0]}]: there is no seat {extra[0]} at {n_players} players, so it must "
                f"be 0")
    return None


COMPONENTS = Components(NAME, Path(__file__).with_name("components.toml"), values=[
    Value("deck.extra_colours", -2, MAX_PLAYERS - MIN_PLAYERS,
          "colours in play beyond one per player (CO setup: 0)", reach=1),
    Value("deck.values", 1, MAX_COLOUR_VALUE, "victory points of the card of each rank of a colour, rising",
          length=VALUES, rising=True, reach=3),
    Value("deal.extra_display", -MIN_PLAYERS, 2 * VALUES,
          "cards of the opening display beyond one per player (the rules: 0)", reach=2),
    Value("deal.hand", 1, HAND_SIZE, "cards dealt to each hand, so rounds per game", reach=1),
    Value("compensation.points", 0, 20, "victory points each seat starts the match with (seat compensation)",
          length=MAX_PLAYERS, names=tuple(f"seat{s}" for s in range(MAX_PLAYERS)), reach=5, compensation=True),
], playable=_playable)


#: the kernel's params, declared once (simulate/games/layout.py): what ``make_params`` packs and
#: ``init`` copies into the state (``copy_params``)
PARAMS = Params(LAYOUT, [
    ("P_PLAYERS", 1, "H_PLAYERS", lambda c: c.players, "n players"),
    ("P_MATCH_GAMES", 1, "H_MATCH_GAMES", lambda c: c.options["match_games"], "rule option match_games"),
    ("P_COLOURS", 1, "H_COLOURS", lambda c: c.players + c.table["deck"]["extra_colours"], "colours in play"),
    ("P_HAND_SIZE", 1, "H_HAND_SIZE", lambda c: c.table["deal"]["hand"], "cards dealt to each hand"),
    ("P_DISPLAY", 1, "H_DISPLAY_START", lambda c: c.players + c.table["deal"]["extra_display"],
     "cards of the opening display"),
    ("P_VALUES", VALUES, "CARD_VALUE", lambda c: c.table["deck"]["values"], "the ranks' victory points"),
    ("P_COMPENSATION", MAX_PLAYERS, "COMPENSATION", lambda c: c.table["compensation"]["points"],
     "the seat compensation: victory points each seat starts with"),
], components=COMPONENTS, complete=True)  # a table recorded before a key was added: its default
PARAMS.install(globals())  # P_PLAYERS = 0, ..., PARAMS_SIZE, make_params, copy_params
