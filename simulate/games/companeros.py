"""Compañeros (3-6 players): the rules kernel.

Rules: ``shared/rules/companeros.md`` (decisions CO-1..CO-6) over the rulebook. Choices made
here where both are silent:

- Cards are numbered ``card = colour * 10 + (value - 1)``: colours 0..n-1, values 1..10.
- The deal: the 10n card ids are shuffled with the chance stream (``seeding.shuffle``); the first
  n form the display, then seat p receives the next 9 (``deck[n + 9p : n + 9p + 9]``).
- A decision is either *play a card* (move code = card id) or, during trick scoring, *take a
  colour* (``MOVE_TAKE + colour``, for each colour present in the display) or *pass*
  (``MOVE_PASS``). Taking is a decision of the taker's strategy (CO-2), so a player whose turn in
  the order comes is asked even when only one colour lies there.
- CO-5 multi-game match: a new game of the match is dealt from the same chance stream; its
  starter is the leader on match points, ties going to the earliest leader in the seat order of
  the previous game's first round (that game's starter first). The match total is the score.
- Result columns: ``cards_taken`` (display cards taken over the match) and
  ``rounds_first_taker`` (rounds in which the seat was the first to take, so starts the next).

State layout (int32, ``STATE_SIZE`` long; seats and colours padded to 6). Sets of cards of one
colour are 10-bit masks: bit ``value - 1`` stands for the card of that value::

    public part  [0, PUBLIC_SIZE)                              what every seat sees
      H_PLAYERS        n players                H_MATCH_GAMES   games in the match (CO-5)
      H_GAME_NO        game of the match, 0..   H_ROUND         round of this game, 0..8
      H_PHASE          PHASE_PLAY/TAKE/OVER     H_STARTER       seat starting this round
      H_N_PLAYED       cards played this round  H_TAKE_POS      index of the taker to decide
      H_N_TAKERS       eligible takers          H_FIRST_TAKER   first seat that took, or -1
      H_GAME_STARTER   starter of this game's first round
      H_TO_MOVE        the seat to decide now, -1 once the game is over
      H_DISPLAY_CARDS  number of cards in the display
      H_LEADER_2_3     seat alone in the lead on match points after two thirds of the match's
                       rounds (-1: shared lead), for the decisiveness analysis
      PLAYED[6]        card played this round by each seat, -1 if none yet
      TAKE_ORDER[6]    eligible takers, in order of trick scoring
      SCORE[6]         match points per seat
      CARDS_TAKEN[6]   cards taken per seat      FIRST_TAKES[6]  rounds as first taker
      DISPLAY_SUM[6]   sum of display values per colour
      DISPLAY_MASK[6]  display cards per colour (mask)
      TAKEN_MASK[6*6]  cards taken in this game, per seat then colour (mask)
    private part of seat p  [PRIVATE + p * PRIVATE_SIZE, ... + PRIVATE_SIZE)
      [0] hand size, [1 + colour] the hand's cards of that colour (mask)
    scratch [SCRATCH, STATE_SIZE): the deck while dealing (never shown to a strategy)

Every card of the game is in exactly one place: a hand mask, the display mask, ``PLAYED`` or a
taken mask. Masks make taking a colour two mask operations (no scan over cards) and keep hands
sorted for free; legal plays list a hand's bits colour by colour, so ascending.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import kernel
from numba.cpython.unsafe.numbers import trailing_zeros

from ..kernel import popcount, rank_descending
from ..seeding import shuffle
from .spec import GameSpec, RuleOption

NAME = "companeros"
#: bumped whenever the behaviour of the rules (and so any result) changes
RULES_VERSION = 1
MIN_PLAYERS, MAX_PLAYERS = 3, 6
VALUES = 10
HAND_SIZE = 9
ROUNDS = 9
MAX_CARDS = MAX_PLAYERS * VALUES
MAX_MATCH_GAMES = 100

PHASE_PLAY, PHASE_TAKE, PHASE_OVER = 0, 1, 2
MOVE_TAKE = 64  # MOVE_TAKE + colour: take every display card of that colour
MOVE_PASS = 127  # take nothing

# ---- state layout (see the module docstring)
H_PLAYERS, H_MATCH_GAMES, H_GAME_NO, H_ROUND, H_PHASE, H_STARTER = 0, 1, 2, 3, 4, 5
H_N_PLAYED, H_TAKE_POS, H_N_TAKERS, H_FIRST_TAKER, H_GAME_STARTER = 6, 7, 8, 9, 10
H_TO_MOVE, H_DISPLAY_CARDS, H_LEADER_2_3 = 11, 12, 13
PLAYED = 16
TAKE_ORDER = PLAYED + MAX_PLAYERS
SCORE = TAKE_ORDER + MAX_PLAYERS
CARDS_TAKEN = SCORE + MAX_PLAYERS
FIRST_TAKES = CARDS_TAKEN + MAX_PLAYERS
DISPLAY_SUM = FIRST_TAKES + MAX_PLAYERS
DISPLAY_MASK = DISPLAY_SUM + MAX_PLAYERS
TAKEN_MASK = DISPLAY_MASK + MAX_PLAYERS
PUBLIC_SIZE = TAKEN_MASK + MAX_PLAYERS * MAX_PLAYERS
PRIVATE = PUBLIC_SIZE
PRIVATE_SIZE = 1 + MAX_PLAYERS
SCRATCH = PRIVATE + MAX_PLAYERS * PRIVATE_SIZE
STATE_SIZE = SCRATCH + MAX_CARDS

#: most legal moves at one decision: a full hand, or every colour plus pass
MAX_MOVES = max(HAND_SIZE, MAX_PLAYERS + 1)
#: most decisions in one game of a match: per round n plays and at most n take decisions
MAX_DECISIONS_PER_GAME = ROUNDS * 2 * MAX_PLAYERS

# params: [n_players, match_games]
P_PLAYERS, P_MATCH_GAMES = 0, 1


def colour_of(card):
    return card // VALUES


def value_of(card):
    return card % VALUES + 1


colour_of_nb = njit(cache=True, inline="always")(colour_of)
value_of_nb = njit(cache=True, inline="always")(value_of)


# ----------------------------------------------------------------------------- kernel
@njit(cache=True, inline="always")
def _deal(state, chance):
    """Deal a fresh game of the match: shuffle, lay the display, deal 9 cards a seat."""
    n = state[H_PLAYERS]
    n_cards = n * VALUES
    for c in range(n_cards):
        state[SCRATCH + c] = c
    shuffle(chance, state, SCRATCH, n_cards)
    for k in range(MAX_PLAYERS):
        state[DISPLAY_SUM + k] = 0
        state[DISPLAY_MASK + k] = 0
        state[PLAYED + k] = -1
    for k in range(MAX_PLAYERS * MAX_PLAYERS):
        state[TAKEN_MASK + k] = 0
    for i in range(n):
        c = state[SCRATCH + i]
        state[DISPLAY_SUM + c // VALUES] += c % VALUES + 1
        state[DISPLAY_MASK + c // VALUES] |= 1 << (c % VALUES)
    state[H_DISPLAY_CARDS] = n
    for p in range(n):
        base = PRIVATE + p * PRIVATE_SIZE
        state[base] = HAND_SIZE
        for colour in range(MAX_PLAYERS):
            state[base + 1 + colour] = 0
        for j in range(n + HAND_SIZE * p, n + HAND_SIZE * (p + 1)):
            c = state[SCRATCH + j]
            state[base + 1 + c // VALUES] |= 1 << (c % VALUES)
    state[H_ROUND] = 0
    state[H_PHASE] = PHASE_PLAY
    state[H_N_PLAYED] = 0
    state[H_GAME_STARTER] = state[H_STARTER]
    state[H_TO_MOVE] = state[H_STARTER]


@njit(cache=True, inline="always")
def init(state, params, chance):
    for i in range(STATE_SIZE):
        state[i] = 0
    state[H_PLAYERS] = params[P_PLAYERS]
    state[H_MATCH_GAMES] = params[P_MATCH_GAMES]
    state[H_STARTER] = 0  # CO-1: seat 0 is the oldest player
    _deal(state, chance)


@njit(cache=True, inline="always")
def to_move(state):
    return state[H_TO_MOVE]


@njit(cache=True, inline="always")
def legal_moves(state, moves):
    n = state[H_PLAYERS]
    if state[H_PHASE] == PHASE_PLAY:
        base = PRIVATE + state[H_TO_MOVE] * PRIVATE_SIZE + 1
        k = 0
        for colour in range(n):
            mask = state[base + colour]
            while mask:
                moves[k] = colour * VALUES + trailing_zeros(mask)
                k += 1
                mask &= mask - 1
        return k
    if state[H_PHASE] == PHASE_TAKE:
        k = 0
        for colour in range(n):
            if state[DISPLAY_MASK + colour]:
                moves[k] = MOVE_TAKE + colour
                k += 1
        moves[k] = MOVE_PASS
        return k + 1
    return 0


@njit(cache=True, inline="always")
def public_view(state):
    return state[:PUBLIC_SIZE]


@njit(cache=True, inline="always")
def private_view(state, seat):
    base = PRIVATE + seat * PRIVATE_SIZE
    return state[base:base + PRIVATE_SIZE]


@njit(cache=True, inline="always")
def colour_value(played, base, n, colour):
    """Sum of the values played in ``colour`` (``played[base + seat]``: card or -1)."""
    total = 0
    for p in range(n):
        c = played[base + p]
        if c >= 0 and c // VALUES == colour:
            total += c % VALUES + 1
    return total


@njit(cache=True, inline="always")
def scoring_order(played, base, n, order, order_base):
    """Trick scoring: write the seats that may take, in order, to ``order[order_base:]``.

    Returns how many may take (``cut``). ``played[base + seat]`` is each seat's card or -1.
    Seats are ordered by (value of their card's colour, their card's value), both descending;
    the walk stops at the first colour value that two or more colours share (CO-6). Seats that
    have not played (-1) are ignored, so a strategy can ask where a candidate card would put it.
    ``order`` must hold ``n`` entries from ``order_base``; after the takers come the played
    seats that were cut off.
    """
    # sort seats by packed key (colour value, card value, seat) descending, without allocating
    k = 0
    for p in range(n):
        c = played[base + p]
        if c < 0:
            continue
        packed = ((colour_value(played, base, n, c // VALUES) * 16) + c % VALUES + 1) * 8 + p
        j = order_base + k - 1
        while j >= order_base and order[j] < packed:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = packed
        k += 1
    cut = k
    for i in range(order_base, order_base + k):
        v_i = order[i] >> 7
        colour_i = played[base + (order[i] & 7)] // VALUES
        for j in range(order_base, order_base + k):
            if order[j] >> 7 == v_i and played[base + (order[j] & 7)] // VALUES != colour_i:
                cut = i - order_base
                break
        if cut < k:
            break
    for i in range(order_base, order_base + k):
        order[i] = order[i] & 7
    return cut


@njit(cache=True, inline="always")
def _end_round(state, chance):
    n = state[H_PLAYERS]
    for p in range(n):
        c = state[PLAYED + p]
        state[DISPLAY_SUM + c // VALUES] += c % VALUES + 1
        state[DISPLAY_MASK + c // VALUES] |= 1 << (c % VALUES)
        state[PLAYED + p] = -1
    state[H_DISPLAY_CARDS] += n
    first = state[H_FIRST_TAKER]
    if first >= 0:
        state[H_STARTER] = first
        state[FIRST_TAKES + first] += 1
    state[H_N_PLAYED] = 0
    state[H_ROUND] += 1
    state[H_PHASE] = PHASE_PLAY
    state[H_TO_MOVE] = state[H_STARTER]
    if state[H_GAME_NO] * ROUNDS + state[H_ROUND] == (2 * ROUNDS * state[H_MATCH_GAMES]) // 3:
        leader = 0
        for p in range(1, n):
            if state[SCORE + p] > state[SCORE + leader]:
                leader = p
        for p in range(n):
            if p != leader and state[SCORE + p] == state[SCORE + leader]:
                leader = -1
                break
        state[H_LEADER_2_3] = leader
    if state[H_ROUND] < ROUNDS:
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
    n = state[H_PLAYERS]
    seat = state[H_TO_MOVE]
    if state[H_PHASE] == PHASE_PLAY:
        base = PRIVATE + seat * PRIVATE_SIZE
        state[base + 1 + move // VALUES] &= ~(1 << (move % VALUES))
        state[base] -= 1
        state[PLAYED + seat] = move
        state[H_N_PLAYED] += 1
        if state[H_N_PLAYED] < n:
            seat += 1
            state[H_TO_MOVE] = 0 if seat == n else seat
            return
        state[H_N_TAKERS] = scoring_order(state, PLAYED, n, state, TAKE_ORDER)
        state[H_TAKE_POS] = 0
        state[H_FIRST_TAKER] = -1
        state[H_PHASE] = PHASE_TAKE
        _next_taker(state, chance)
        return
    # PHASE_TAKE
    if move != MOVE_PASS:
        colour = move - MOVE_TAKE
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
    for p in range(n):
        score[p] = state[SCORE + p]
        extra[p, 0] = state[CARDS_TAKEN + p]
        extra[p, 1] = state[FIRST_TAKES + p]
        extra[p, 2] = state[H_LEADER_2_3]
    rank_descending(score, n, rank)


@njit(cache=True)
def play_chunk(params, n_players, seed, first_game, n_games, lineup, rotate, strategies,
               out_strategy, out_score, out_rank, out_extra, out_start, out_decisions, error):
    return kernel.play_games(
        init, to_move, legal_moves, public_view, private_view, apply_move, result,
        STATE_SIZE, MAX_MOVES, MAX_DECISIONS_PER_GAME * params[P_MATCH_GAMES],
        params, n_players, seed, first_game, n_games, lineup, rotate, strategies,
        out_strategy, out_score, out_rank, out_extra, out_start, out_decisions, error)


# ----------------------------------------------------------------------------- Python side
COLOUR_NAMES = ("red", "yellow", "green", "blue", "purple", "orange")


def card_name(card: int) -> str:
    return f"{COLOUR_NAMES[colour_of(card)]} {value_of(card)}"


def make_params(n_players: int, options: dict) -> np.ndarray:
    return np.array([n_players, options["match_games"]], dtype=np.int32)


def mask_cards(colour: int, mask: int) -> list[int]:
    """Card ids of ``colour`` whose bits are set in ``mask``, ascending."""
    return [colour * VALUES + v for v in range(VALUES) if mask >> v & 1]


def hand_cards(state: np.ndarray, seat: int) -> list[int]:
    base = PRIVATE + seat * PRIVATE_SIZE
    return [c for colour in range(MAX_PLAYERS) for c in mask_cards(colour, int(state[base + 1 + colour]))]


def display_cards(state: np.ndarray) -> list[int]:
    return [c for colour in range(MAX_PLAYERS) for c in mask_cards(colour, int(state[DISPLAY_MASK + colour]))]


def describe_move(state: np.ndarray, move: int) -> str:
    if move == MOVE_PASS:
        return "passes (takes nothing)"
    if move >= MOVE_TAKE:
        colour = move - MOVE_TAKE
        cards = mask_cards(colour, int(state[DISPLAY_MASK + colour]))
        total = sum(value_of(c) for c in cards)
        return f"takes {COLOUR_NAMES[colour]} ({', '.join(str(value_of(c)) for c in cards)}) = {total} points"
    return f"plays {card_name(move)}"


def move_to_json(state: np.ndarray, move: int) -> dict:
    if move == MOVE_PASS:
        return {"action": "pass"}
    if move >= MOVE_TAKE:
        return {"action": "take", "colour": COLOUR_NAMES[move - MOVE_TAKE]}
    return {"action": "play", "card": {"colour": COLOUR_NAMES[colour_of(move)], "value": value_of(move)}}


def _card_json(card: int) -> dict:
    return {"colour": COLOUR_NAMES[colour_of(card)], "value": value_of(card)}


def describe_state(state: np.ndarray) -> dict:
    """The state at a deal as the rules file names it: every hand, the display, the starter."""
    n = int(state[H_PLAYERS])
    return {"players": n, "starter": int(state[H_STARTER]),
            "hands": [[_card_json(c) for c in hand_cards(state, p)] for p in range(n)],
            "display": [_card_json(c) for c in display_cards(state)],
            "match_game": int(state[H_GAME_NO]), "match_games": int(state[H_MATCH_GAMES])}


SPEC = GameSpec(
    name=NAME,
    title="Compañeros",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version=RULES_VERSION,
    team_game=False,
    options=(
        RuleOption("match_games", "int", 1,
                   "games per match (CO-5): points accumulate, the leader starts the next game",
                   low=1, high=MAX_MATCH_GAMES),
    ),
    columns=(
        ("cards_taken", "display cards taken over the match"),
        ("rounds_first_taker", "rounds in which the seat took first (and so started the next)"),
        ("leader_at_two_thirds", "seat alone in the lead after two thirds of the rounds, -1 if shared"),
    ),
    state_size=STATE_SIZE,
    max_moves=MAX_MOVES,
    max_decisions=MAX_DECISIONS_PER_GAME * MAX_MATCH_GAMES,
    module=None,  # set below
    make_params=make_params,
    describe_move=describe_move,
    describe_state=describe_state,
    move_to_json=move_to_json,
)
object.__setattr__(SPEC, "module", __import__(__name__, fromlist=["SPEC"]))
