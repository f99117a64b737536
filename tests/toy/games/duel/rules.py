"""Duel (2 players), a toy game: the rules kernel.

Nine cards valued 1..9 are shuffled; each seat gets 3, 3 stay hidden. Three tricks: the leader
plays a card, the other seat plays one; the higher card wins the trick and scores the sum of
both; the winner leads the next trick; seat 0 leads the first. Higher total wins, equal totals
share rank 1. A move is the value of the card played. The result column ``tricks`` counts the
tricks a seat won.

Determinization: the hidden part is the other seat's hand, a uniformly random draw of its public
size from the cards neither in the seat's hand nor played.

State layout (int32, ``STATE_SIZE`` long), declared once as ``LAYOUT``::
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ... import kernel
from ...kernel import rank_descending
from ...seeding import below, shuffle
from ..layout import Layout

NAME = "duel"
RULES_VERSION = 1
MIN_PLAYERS = MAX_PLAYERS = 2
CARDS = 9
HAND_SIZE = 3
TRICKS = 3
#: what S_DEALT counts (simulate/kernel.py): each card, by value (a card is its value)
DEALT_KINDS = tuple(str(v) for v in range(1, CARDS + 1))

LAYOUT = Layout(
    public=[
        ("H_PLAYERS", 1, "n players (2)"),
        ("H_TRICK", 1, "trick being played, 0..2 (3 once over)"),
        ("H_LEADER", 1, "seat leading this trick"),
        ("H_TO_MOVE", 1, "the seat to decide now, -1 once the game is over"),
        ("H_LED", 1, "card led this trick, 0 if none yet"),
        ("H_PLAYED_MASK", 1, "cards played so far (bit v: card v)"),
        ("SCORE", MAX_PLAYERS, "points per seat"),
        ("TRICKS_WON", MAX_PLAYERS, "tricks won per seat"),
    ],
    private=[
        ("PV_SIZE", 1, "hand size h"),
        ("PV_HAND", HAND_SIZE, "the hand's cards ascending, then -1"),
    ],
    seats=MAX_PLAYERS,
    scratch=[
        ("S_DECK", CARDS, "the deck while dealing; the unseen cards while determinizing"),
        ("S_DEALT", (MAX_PLAYERS, CARDS), "cards dealt to each seat, per card (DEALT_KINDS)"),
    ],
)
LAYOUT.install(globals())  # H_PLAYERS = 0, ..., STATE_SIZE, public_view, private_view, the table
#: published for strategies with the views' pieces (tourney_sim.views.duel); bumped on any change
VIEWS_VERSION = 1
STRATEGY_CONSTANTS = {"CARDS": "cards, valued 1..CARDS (a move is the value of the card played)",
                      "HAND_SIZE": "cards dealt to each hand", "TRICKS": "tricks in a game"}

MAX_MOVES = HAND_SIZE
MAX_DECISIONS = 2 * TRICKS


@njit(cache=True, inline="always")
def init(state, params, chance):
    for i in range(STATE_SIZE):
        state[i] = 0
    state[H_PLAYERS] = params[0]
    for c in range(CARDS):
        state[S_DECK + c] = c + 1
    shuffle(chance, state, S_DECK, CARDS)
    for p in range(MAX_PLAYERS):
        base = PRIVATE + p * PRIVATE_SIZE
        state[base + PV_SIZE] = HAND_SIZE
        for i in range(HAND_SIZE):
            state[base + PV_HAND + i] = state[S_DECK + p * HAND_SIZE + i]
            state[S_DEALT + p * CARDS + state[base + PV_HAND + i] - 1] += 1
        kernel.sort_range(state, base + PV_HAND, HAND_SIZE)
    state[H_TO_MOVE] = 0


@njit(cache=True, inline="always")
def to_move(state):
    return state[H_TO_MOVE]


@njit(cache=True, inline="always")
def legal_moves(state, moves):
    seat = state[H_TO_MOVE]
    if seat < 0:
        return 0
    base = PRIVATE + seat * PRIVATE_SIZE
    n = state[base + PV_SIZE]
    for i in range(n):
        moves[i] = state[base + PV_HAND + i]
    return n


@njit(cache=True, inline="always")
def apply_move(state, move, chance):
    seat = state[H_TO_MOVE]
    base = PRIVATE + seat * PRIVATE_SIZE
    state[base + PV_SIZE] = kernel.remove_sorted(state, base + PV_HAND, state[base + PV_SIZE], move)
    state[H_PLAYED_MASK] |= 1 << move
    if state[H_LED] == 0:
        state[H_LED] = move
        state[H_TO_MOVE] = 1 - seat
        return
    led = state[H_LED]
    winner = state[H_LEADER] if led > move else seat
    state[SCORE + winner] += led + move
    state[TRICKS_WON + winner] += 1
    state[H_LED] = 0
    state[H_LEADER] = winner
    state[H_TRICK] += 1
    state[H_TO_MOVE] = winner if state[H_TRICK] < TRICKS else -1


@njit(cache=True, inline="always")
def result(state, score, rank, extra):
    for p in range(MAX_PLAYERS):
        score[p] = state[SCORE + p]
        extra[p, 0] = state[TRICKS_WON + p]
    rank_descending(score, MAX_PLAYERS, rank)


@njit(cache=True, _nrt=False)
def determinize(public, private, state, rng):
    """A complete state consistent with the views of the seat to move: the public part and its
    hand as given, the other hand a uniformly random draw of the unseen cards; scratch zeroed.
    Returns the number of unseen cards drawn from, or -1 if the views are inconsistent."""
    seat = public[H_TO_MOVE]
    for i in range(PUBLIC_SIZE):
        state[i] = public[i]
    gone = public[H_PLAYED_MASK]
    for i in range(private[PV_SIZE]):
        gone |= 1 << private[PV_HAND + i]
    k = 0
    for c in range(1, CARDS + 1):
        if not (gone >> c) & 1:
            state[S_DECK + k] = c
            k += 1
    other = 1 - seat
    size = HAND_SIZE - public[H_TRICK] - (public[H_LED] != 0 and public[H_LEADER] == other)
    if seat < 0 or size > k:
        return -1
    for i in range(size):  # partial Fisher-Yates
        j = i + below(rng, k - i)
        tmp = state[S_DECK + i]
        state[S_DECK + i] = state[S_DECK + j]
        state[S_DECK + j] = tmp
    ob = PRIVATE + other * PRIVATE_SIZE
    sb = PRIVATE + seat * PRIVATE_SIZE
    for i in range(PRIVATE_SIZE):
        state[sb + i] = private[i]
    state[ob + PV_SIZE] = size
    for i in range(HAND_SIZE):
        state[ob + PV_HAND + i] = state[S_DECK + i] if i < size else -1
    kernel.sort_range(state, ob + PV_HAND, size)
    for i in range(SCRATCH, STATE_SIZE):
        state[i] = 0
    return k


RULES = kernel.rules_module(__name__)


@njit(cache=True)
def play_chunk(params, chunk):
    return kernel.play_games(RULES, MAX_DECISIONS, params, chunk)


def make_params(n_players: int, options: dict) -> np.ndarray:
    return np.array([n_players], dtype=np.int32)
