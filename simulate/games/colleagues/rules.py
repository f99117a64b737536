"""Colleagues (2-5 players; 2 players add the Grey Entity): the rules kernel.

Rules: ``shared/rules/colleagues.md`` (decisions CL-1..CL-13) over the rulebook
``shared/seeds/colleagues.txt``. Lowest score wins. Choices made here where both are silent:

Components and numbering
- Commitment cards have ids 0..59 (card number = id + 1); their values and Coffee icons come from
  the component table (CL-1, option ``components``), by default value = number. Work cards have
  ids 0..14, Reprimand cards 0..14, Overtime cards 0..2 (pile order, top first), all looked up in
  the table. A Commitment card with k icons draws k tokens when played (k is 0 or 1 by default).
- Token kinds: 0 = +10, 1 = -10, 2 = ILLNESS, 3 = MEETING. Tokens of one kind are alike, so the
  Coffee Room is kept as four counts; a draw takes ``r = below(chance, tokens in the room)`` and
  returns the kind in whose cumulative count (kinds in that order) r falls, which is exactly a
  draw from a shuffled face-down pool. An empty room skips the draw (CL-4, no random number).

Setup and deals (all from the chance stream, in this order)
- Setup: Work ids shuffled (``seeding.shuffle``), then Reprimand ids; week w, weekday d uses
  Work ``order[5w + d]`` and Reprimand ``order[5w + d]``; only this week's cards are public (the
  piles show their top card). Then seats 0..n-1 draw 2 tokens each (3 in the 2-player game), then
  seat 0, the first player of week 1, draws 1 more.
- Each week all 60 cards are back in the deck, kept as a list starting 0..59. Drawing a card
  takes ``i = below(chance, cards left)``, the card at i, and moves the list's last card into
  slot i (a uniform draw from the shuffled deck, without shuffling all 60 every week). The first
  player draws 6 cards, then the next seat in turn order 6, ...; then the Grey Entity 5 (Monday..
  Friday). Mulligan draws come from the rest, one card per discarded position in ascending
  position order; mulligan discards are face down (hidden).

Decisions (a compound turn is split into several decisions; the move codes of one decision are
distinct from every other's, so a code says what it is). ``legal_moves`` builds its lists
branch-free and may leave junk in ``moves[n:MAX_MOVES]``:
- Monday (each player in turn order): ``MOVE_MULLIGAN + mask``, mask 0..63 over the positions of
  the 6-card hand sorted by id (bit j = the j-th lowest id): mask 0 keeps the hand and draws a
  token (skipped if the room is empty), mask > 0 discards those cards and draws as many.
- Midweek turn (5 turns; in each, every player in turn order):
  1. 2-player game only, while some Grey Entity card is face down (CL-9): ``MOVE_GREY_NONE``,
     ``MOVE_REVEAL + day`` (a face-down Grey card, revealed to everyone) or
     ``MOVE_PEEK + 4 * day + kind`` (spend a held token of that kind, look at that face-down card
     secretly; again at a card looked at before too, spending another token: rules v2). Spent
     tokens return at
     clean-up (CL-13).
  2. ``MOVE_PLAY + 16 * card + 2 * day + face``: a card of the hand on an empty weekday of the
     player's row, face 0 = up, 1 = down (spends a MEETING token). Its icons draw tokens (also
     face down: the player takes the token(s), so the count shows the card has an icon).
  3. only if the player holds a +10, -10 or ILLNESS token: ``MOVE_TOKEN_NONE`` or
     ``MOVE_TOKEN + 4 * column + kind`` (kind 0..2) on any card of the player's row this week
     (column 0..4 = Monday..Friday, 5 = Overtime). Tokens on a face-down card are public as a
     count only (CL-8).
- Friday (each player in turn order): the last card goes face up (CL-13) to the Overtime column
  automatically (no decision: it is forced), its icons draw; then decision 3 as above.
- Resolution (automatic, after the last Friday turn): Overtime, then Monday..Friday. Value =
  card value + 10 x (+10 tokens - -10 tokens); a card with any ILLNESS token does not take part.
  Ties (CL-2): the earliest in this week's turn order takes; the Grey Entity counts as first
  (CL-12). Overtime: the lowest draws 1 token and becomes first player next week, the highest
  takes the top Overtime card (a sole participant does both); nobody takes part -> first player
  and pile unchanged (CL-13). Weekday: the highest takes the Work card and draws its icons, then
  the lowest takes the Reprimand card and draws its icons (a sole participant takes both); nobody
  -> both cards discarded (CL-3, owner ``DISCARDED``).
- Clean-up: tokens on cards and spent tokens go back to the room; Commitment cards go back.
- Grey Entity peeks: a player may look at any face-down Grey Entity card, one it has already
  looked at too (CL-9: the rulebook forbids it nowhere; the token is spent all the same).
  Rules version 2 (version 1 listed no peek at a card the player had looked at).

Result (better = low): score = Work values + Overtime values - tokens held, for every result
seat (the Grey Entity is seat 2 of the 2-player game). Dismissal (CL-5, CL-11): among the real
players with the highest Reprimand total, those with the fewest Reprimand cards are dismissed;
nobody is dismissed when that highest total is exactly 0. A component table may give Reprimand
cards values of 0 or below, so every total can be below 0: the highest total is then still the
highest (-1 above -3) and is dismissed. The rules text (CL-5: "the highest Reprimand total is
dismissed"; "nobody is dismissed when the highest Reprimand total is 0") names one exception
only, a highest total of 0, the shipped game's "nobody took a Reprimand"; this project reads it
literally and does not widen it to "no total above 0". The shipped table's values are all
positive, so its games are unchanged (rules version 2 still; before this, the kernel dismissed
nobody when every total was below 0, and the reference engine dismissed the highest: issue 38).
``grey_dismissal=shield``: the same comparison with the Grey Entity in it; if it would be the one
dismissed (its total the highest, a tie going to fewer cards) or the highest total with it in is
0, nobody is; otherwise the real players it picks. Ranks: players not dismissed by (score, the Grey Entity before anyone
else on equal score (CL-9), fewer Work+Overtime cards), equal keys share a rank; dismissed players
come after all others, ordered among themselves by score alone (CL-6); their score column still
holds Work + Overtime - tokens.

Result columns: ``work_total``, ``overtime_total``, ``reprimand_total``, ``tokens_left``,
``dismissed``, ``work_cards``, ``reprimand_cards``, ``overtime_cards`` (per seat, the names say
what), and ``leader_at_two_thirds`` (the same in every row of a game): the seat that would be
alone in first place if the game ended after week 2 of the 3 (the Result ranking above, dismissal
included, applied to the totals after week 2's resolution: Work + Overtime - tokens held,
Reprimands), -1 if two or more seats would share rank 1. The Grey Entity is ranked like any seat,
so it can be that leader (seat 2 of the 2-player game). The ranking rather than the bare score:
in heuristic play about half of the seats alone on the lowest score after week 2 would be
dismissed (the low cards that dodge Work take the Reprimands).

Determinization (for the search, issue 12): ``determinize(public, private, state, rng)`` fills
``state`` with a complete state consistent with everything the seat to move knows (its views:
the public part with ``DISC_N``, its private block with ``P_DISC`` and ``P_SPENT``), drawing
everything else uniformly from what is still possible with ``rng`` only:
- Commitment cards: those whose place the seat does not know (not in its hand or row, not face
  up anywhere, not a Grey Entity card it looked at, not one it discarded this week) are dealt
  uniformly over the places hidden from it: the other hands (sizes: 6 less the cards in their
  rows), the others' face-down cards, the Grey Entity's face-down cards it has not looked at
  (2 players), the others' Monday discards (``DISC_N``) and the deck (``H_DECK_LEFT``).
  What another seat looked at (``PEEKS``) follows the Grey Entity card drawn there.
- Tokens: the kinds not accounted for (the mix less the seat's own held / placed / spent tokens,
  tokens on face-up cards, one MEETING per face-down card) are dealt uniformly over the others'
  face-down cards (``ROW_NTOK`` each; +10, -10 or ILLNESS only, so these are drawn first), the
  others' held tokens (``TOKENS_HELD``), the tokens they spent on peeks (``PEEK_N``),
  the Grey Entity's tokens; the rest is the Coffee Room (``H_ROOM``).
- Work and Reprimand cards of later weeks: shuffled (past weeks' are put in a fixed order, with
  the days CL-3 discarded first in both piles; nothing reads their order again).
- What the rules keep for the strategies: the public part's card set and shown values come with
  the public part; each other seat's known card set (``P_KNOWN``) is recomputed from its drawn
  hand, row and looks.
It returns the number of hidden Commitment cards, -1 if the views contradict each other. Cost:
one ``below`` per hidden non-deck card, per hidden token and per later Work/Reprimand card.

Seat compensation (issue 42; the rules have none): the component ``compensation.points`` (one
entry per seat, 5) are points taken off a seat's final score (lowest wins, so a head start;
below 0, a handicap added to it; ``seat_score``): the result, the ranks and the leader at two thirds count them, dismissal (which
reads Reprimands) does not. A seat nobody sits in (at 2 players seat 2 is the Grey Entity) must
hold 0. All 0 in the shipped game.

State layout (int32, ``STATE_SIZE`` long; per-seat arrays have ``SEATS`` = 5 entries, the Grey
Entity using seat 2 in the 2-player game; rows have 6 columns, index ``seat * 6 + column``; a card
set, ``FACE_UP_SEEN`` or ``P_KNOWN``, is two int32 halves: bit c of half c // 30 is card c). It is
declared once, as ``LAYOUT`` below: each offset is a module constant made from it (find where a
name is declared with ``grep -n '"ROW_CARD"' rules.py``), and this table is generated from it
when the module is loaded::
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ... import kernel
from ...kernel import borrow, remove_sorted, sort_range
from ...seeding import below, shuffle
from ..components import Components, Value
from ..layout import Layout, Params
from ..spec import RuleError

NAME = "colleagues"
#: bumped whenever the behaviour of the rules (and so any result) changes; 2: CL-9, a Grey Entity
#: card looked at before may be looked at again (2-player games only)
RULES_VERSION = 2
MIN_PLAYERS, MAX_PLAYERS = 2, 5
SEATS = 5
N_COMMIT, N_WORK, N_REPR, N_OT, N_KINDS = 60, 15, 15, 3, 4
HAND, DAYS, COLS, OT_COL, WEEKS = 6, 5, 6, 5, 3
TOKEN_STEP = 10
PLUS, MINUS, ILLNESS, MEETING = 0, 1, 2, 3
KIND_NAMES = ("+10", "-10", "ILLNESS", "MEETING")
KIND_KEYS = ("plus10", "minus10", "illness", "meeting")
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Overtime")
EMPTY, FACE_DOWN = -1, -2
DISCARDED = -2

STAGE_MONDAY, STAGE_MIDWEEK, STAGE_FRIDAY, STAGE_OVER = 0, 1, 2, 3
DEC_MULLIGAN, DEC_GREY, DEC_PLAY, DEC_TOKEN, DEC_NONE = 0, 1, 2, 3, 4

# ---- move codes (see the module docstring)
MOVE_MULLIGAN = 0  # + mask 0..63
MOVE_GREY_NONE = 100
MOVE_REVEAL = 101  # + day
MOVE_PEEK = 108  # + 4 * day + kind
MOVE_PLAY = 200  # + 16 * card + 2 * day + face
MOVE_TOKEN_NONE = 2000
MOVE_TOKEN = 2004  # + 4 * column + kind

#: what S_DEALT counts (kernel.py): Commitment cards by id (number = id + 1), then token kinds
DEALT_KINDS = (tuple(f"Commitment {c + 1}" for c in range(N_COMMIT))
               + tuple(f"token {key}" for key in KIND_KEYS))
DEALT_ROW = len(DEALT_KINDS)  # S_DEALT entries per seat
DEALT_TOKEN = N_COMMIT  # S_DEALT column of token kind 0

# ---- state layout: declared once (see simulate/games/layout.py); the table ends the docstring
#: ``leader_at_two_thirds`` is taken when this many weeks are over (two thirds of WEEKS)
LEADER_WEEKS = 2
LAYOUT = Layout(
    public=[
        ("H_PLAYERS", 1, "n"),
        ("H_GREY", 1, "the Grey Entity's seat, or -1"),
        ("H_SHIELD", 1, "grey_dismissal=shield"),
        ("H_SEATS", 1, "result seats"),
        ("H_WEEK", 1, "0..2"),
        ("H_STAGE", 1, "MONDAY/MIDWEEK/FRIDAY/OVER"),
        ("H_TURN", 1, "midweek turn 0..4"),
        ("H_POS", 1, "position of the seat to move in the turn order"),
        ("H_FIRST", 1, "first player this week"),
        ("H_TO_MOVE", 1, "seat or -1"),
        ("H_DECISION", 1, "DEC_*"),
        ("H_ROOM", 1, "tokens in the Coffee Room"),
        ("H_DECK_LEFT", 1, "cards in the deck"),
        ("H_OT_NEXT", 1, "next Overtime card (3 = pile empty)"),
        ("H_GREY_HIDDEN", 1, "face-down Grey Entity cards"),
        ("H_LEADER", 1, "seat alone in first place after week LEADER_WEEKS (``leader_at_two_thirds``), "
                        "-1 if shared or not reached yet"),
        ("HEADER", 0, "the header's end"),
        "the component table (copied from params):",
        ("C_VALUE", N_COMMIT, "Commitment card values"),
        ("C_ICONS", N_COMMIT, "Commitment card Coffee icons"),
        ("W_VALUE", N_WORK, "Work card values"),
        ("W_ICONS", N_WORK, "Work card icons"),
        ("R_VALUE", N_REPR, "Reprimand card values"),
        ("R_ICONS", N_REPR, "Reprimand card icons"),
        ("OT_VALUE", N_OT, "Overtime card values"),
        ("TOKEN_MIX", N_KINDS, "tokens of each kind in the game"),
        ("COMPENSATION", SEATS, "points taken off each seat's final score (the seat compensation, issue 42: "
                                "a head start, lowest wins; 0: none)"),
        "per seat:",
        ("TOKENS_HELD", SEATS, "tokens held"),
        ("WORK_TOTAL", SEATS, "Work values taken"),
        ("WORK_CARDS", SEATS, "Work cards taken"),
        ("REPR_TOTAL", SEATS, "Reprimand values taken"),
        ("REPR_CARDS", SEATS, "Reprimand cards taken"),
        ("OT_TOTAL", SEATS, "Overtime values taken"),
        ("OT_CARDS", SEATS, "Overtime cards taken"),
        ("PEEKS", SEATS, "bit d: this seat looked at Grey card d this week"),
        ("WEEK_WORK", DAYS, "this week's Work card id per weekday"),
        ("WEEK_REPR", DAYS, "this week's Reprimand card id per weekday"),
        ("WORK_OWNER", N_WORK, "seat holding each Work card, -1 not handed out, DISCARDED (CL-3)"),
        ("REPR_OWNER", N_REPR, "the same for each Reprimand card"),
        ("OT_OWNER", N_OT, "the same for each Overtime card"),
        ("ROW_CARD", (SEATS, COLS), "card id face up, EMPTY, or FACE_DOWN"),
        ("ROW_PLUS", (SEATS, COLS), "+10 tokens on face-up cards (0 on face-down ones)"),
        ("ROW_MINUS", (SEATS, COLS), "-10 tokens, the same"),
        ("ROW_ILL", (SEATS, COLS), "ILLNESS tokens, the same"),
        ("ROW_NTOK", (SEATS, COLS), "tokens on the card (also on face-down cards)"),
        "appended for the determinization:",
        ("DISC_N", SEATS, "Commitment cards each seat discarded at this week's Monday briefing "
                          "(a mulligan is seen by everyone)"),
        ("PEEK_N", SEATS, "tokens each seat spent on Grey Entity peeks this week (a look at a card "
                          "looked at before spends one too, CL-9; everyone sees the token go)"),
        "kept by the rules for the strategies, derived from the above (``derive_views``):",
        ("FACE_UP_SEEN", 2, "the Commitment cards face up in any row, a card set"),
        ("ROW_SHOWN", (SEATS, COLS), "what everyone sees of each cell: the value of a face-up card "
                                     "with its tokens (C_VALUE + 10 x (plus - minus)), SHOWN_ILL for "
                                     "one with an ILLNESS token, SHOWN_HIDDEN for a face-down card "
                                     "or an empty cell"),
    ],
    private=[
        ("P_HAND_N", 1, "cards in the hand"),
        ("P_HAND", HAND, "the hand's ids ascending (-1 beyond)"),
        ("P_TOK", N_KINDS, "tokens held per kind"),
        ("P_CARD", COLS, "own row (ids, -1 empty, face-down cards too)"),
        ("P_PLUS", COLS, "+10 tokens on the own row's cards"),
        ("P_MINUS", COLS, "-10 tokens, the same"),
        ("P_ILL", COLS, "ILLNESS tokens, the same"),
        ("P_SEEN", DAYS, "Grey card looked at per weekday (-1)"),
        "appended for the determinization, this week's memory of the seat:",
        ("P_DISC", HAND, "cards this seat discarded at the Monday briefing, ascending (-1 beyond)"),
        ("P_SPENT", N_KINDS, "tokens this seat spent on Grey Entity peeks, per kind"),
        "kept by the rules for the strategies:",
        ("P_KNOWN", 2, "the card set of the seat's hand, its row (face-down cards too) and the "
                       "Grey Entity cards it looked at"),
    ],
    seats=MAX_PLAYERS,  # real players only
    scratch=[
        ("S_DECK", N_COMMIT, "the deck (the H_DECK_LEFT cards left first)"),
        ("S_DISCARD_N", 1, "Monday discards this week"),
        ("S_DISCARD", N_COMMIT, "the Monday discards"),
        ("S_WORK_ORDER", N_WORK, "the Work pile's order (setup shuffle)"),
        ("S_REPR_ORDER", N_REPR, "the Reprimand pile's order"),
        ("S_GREY", DAYS, "the Grey Entity's cards per weekday"),
        ("S_ROOM", N_KINDS, "tokens in the Coffee Room per kind"),
        ("S_SPENT", N_KINDS, "tokens spent on peeks this week, per kind (back at clean-up)"),
        ("S_GREY_TOK", N_KINDS, "the Grey Entity's tokens per kind"),
        ("S_DEALT", (SEATS, DEALT_ROW), "what each result seat was dealt (DEALT_KINDS): "
                                                 "Commitment cards by id (the weeks' hands, mulligan "
                                                 "draws, the Grey Entity's cards), then tokens drawn "
                                                 "by kind"),
    ],
)
LAYOUT.install(globals())  # H_PLAYERS = 0, ..., STATE_SIZE, public_view, private_view, the table
#: the views' pieces above and these constants are published for strategies (tourney_sim.views):
#: bumped whenever any of them changes
VIEWS_VERSION = 2  # 2: COMPENSATION (the seat compensation, in the component table)
STRATEGY_CONSTANTS = {
    "MAX_PLAYERS": "players at most (private blocks)",
    "SEATS": "result seats the per-seat pieces have room for (players and the Grey Entity)",
    "N_COMMIT": "Commitment cards (ids 0..N_COMMIT-1, values in C_VALUE)",
    "N_WORK": "Work cards", "N_REPR": "Reprimand cards", "N_OT": "Overtime cards",
    "N_KINDS": "token kinds: PLUS, MINUS, ILLNESS, MEETING",
    "PLUS": "token kind +10", "MINUS": "token kind -10", "ILLNESS": "token kind ILLNESS",
    "MEETING": "token kind MEETING (spent to play a card face down)",
    "TOKEN_STEP": "what a +10 or -10 token adds to a card's value",
    "HAND": "cards in a Monday hand", "DAYS": "weekdays (Monday..Friday)",
    "COLS": "columns of a row: the weekdays, then Overtime", "OT_COL": "the Overtime column",
    "WEEKS": "weeks in a game",
    "EMPTY": "ROW_CARD: an empty cell", "FACE_DOWN": "ROW_CARD: a face-down card",
    "DISCARDED": "WORK_OWNER / REPR_OWNER / OT_OWNER: the card was discarded (CL-3)",
    "SHOWN_HIDDEN": "ROW_SHOWN: a face-down card or an empty cell",
    "SHOWN_ILL": "ROW_SHOWN: a face-up card with an ILLNESS token",
    "HALF": "a card set (FACE_UP_SEEN, P_KNOWN) is two entries: bit c of the first for card c < HALF, "
            "bit c - HALF of the second for the others",
    "STAGE_MONDAY": "H_STAGE: the Monday briefing", "STAGE_MIDWEEK": "H_STAGE: the midweek turns",
    "STAGE_FRIDAY": "H_STAGE: Friday", "STAGE_OVER": "H_STAGE: the game is over",
    "DEC_MULLIGAN": "H_DECISION: Monday, keep or discard (moves MOVE_MULLIGAN + mask)",
    "DEC_GREY": "H_DECISION: reveal or peek at a Grey Entity card (2 players)",
    "DEC_PLAY": "H_DECISION: play a card (moves MOVE_PLAY + ...)",
    "DEC_TOKEN": "H_DECISION: place a token (moves MOVE_TOKEN + ..., or MOVE_TOKEN_NONE)",
    "MOVE_MULLIGAN": "move MOVE_MULLIGAN + mask: discard the hand's cards of mask (bit j: the j-th "
                     "lowest id; 0 keeps the hand)",
    "MOVE_GREY_NONE": "move: neither reveal nor peek",
    "MOVE_REVEAL": "move MOVE_REVEAL + day: reveal that face-down Grey Entity card",
    "MOVE_PEEK": "move MOVE_PEEK + 4 * day + kind: spend a token of kind, look at that Grey card",
    "MOVE_PLAY": "move MOVE_PLAY + 16 * card + 2 * day + face: play card on that weekday, face 0 up, "
                 "1 down",
    "MOVE_TOKEN_NONE": "move: place no token",
    "MOVE_TOKEN": "move MOVE_TOKEN + 4 * column + kind: place a token of kind (0..2) on the own "
                  "row's card in column",
}
TABLE_SIZE = COMPENSATION + SEATS - C_VALUE  # the component table's length
ROW_KIND_STRIDE = SEATS * COLS  # ROW_PLUS + kind * stride is the row of that kind
#: ROW_SHOWN of a face-down or empty cell, and of a face-up card out of the comparison (ILLNESS);
#: every value a card can show is above both (the component limits keep values far from them)
SHOWN_HIDDEN, SHOWN_ILL = -(1 << 30), -(1 << 30) + 1
#: a card set (FACE_UP_SEEN, P_KNOWN) is two int32 halves: cards 0..29, then cards 30..59
HALF = 30

#: most legal moves at one decision: the 64 Monday choices (a first play has 6 x 5 x 2 = 60)
MAX_MOVES = 64
#: per week and player: Monday, 5 x (Grey Entity, play, token), the Friday token
MAX_DECISIONS = WEEKS * MAX_PLAYERS * (1 + 3 * DAYS + 1)


# ----------------------------------------------------------------------------- kernel helpers
@njit(cache=True, inline="always")
def seat_at(state, pos):
    """The seat at position ``pos`` of this week's turn order (CL-7)."""
    s = state[H_FIRST] + pos
    n = state[H_PLAYERS]
    if s >= n:
        s -= n
    return s


@njit(cache=True, _nrt=False)
def _draw(state, chance, seat, count):
    """``seat`` (a player or the Grey Entity) draws ``count`` tokens; CL-4: none left, no draw."""
    for _ in range(count):
        total = state[H_ROOM]
        if total == 0:
            return
        r = below(chance, total)
        kind = 0
        while r >= state[S_ROOM + kind]:
            r -= state[S_ROOM + kind]
            kind += 1
        state[S_ROOM + kind] -= 1
        state[H_ROOM] = total - 1
        if seat == state[H_GREY]:
            state[S_GREY_TOK + kind] += 1
        else:
            state[PRIVATE + seat * PRIVATE_SIZE + P_TOK + kind] += 1
        state[TOKENS_HELD + seat] += 1
        state[S_DEALT + seat * DEALT_ROW + DEALT_TOKEN + kind] += 1


@njit(cache=True, inline="always")
def _placeable(state, base):
    """Does the player (private block at ``base``) hold a +10, -10 or ILLNESS token?"""
    return state[base + P_TOK + PLUS] + state[base + P_TOK + MINUS] + state[base + P_TOK + ILLNESS] > 0


@njit(cache=True, inline="always")
def _add_card(state, at, card, present=1):
    """Put Commitment card ``card`` into the card set at ``at`` (FACE_UP_SEEN or P_KNOWN), if
    ``present`` (0 or 1: branch-free for callers that decide at run time)."""
    upper = np.int32(card >= HALF)
    state[at + upper] |= present << (card - HALF * upper)


@njit(cache=True, inline="always")
def _show(state, cell):
    """Bring ROW_SHOWN of ``cell`` up to date with its card and tokens (see the layout)."""
    card = state[ROW_CARD + cell]
    shown = SHOWN_HIDDEN
    if card >= 0:
        shown = SHOWN_ILL
        if state[ROW_ILL + cell] <= 0:
            shown = state[C_VALUE + card] + TOKEN_STEP * (state[ROW_PLUS + cell] - state[ROW_MINUS + cell])
    state[ROW_SHOWN + cell] = shown


@njit(cache=True, inline="always")
def _set_cards(state, at, bits):
    """Store the card set ``bits`` (bit c: card c, an int64) at ``at`` as its two halves."""
    state[at] = bits & ((1 << HALF) - 1)
    state[at + 1] = bits >> HALF


@njit(cache=True, inline="always")
def _know(state, base):
    """Set P_KNOWN of the private block at ``base`` from its hand, row and looks."""
    bits = np.int64(0)
    for j in range(state[base + P_HAND_N]):
        bits |= np.int64(1) << state[base + P_HAND + j]
    for c in range(COLS):  # branch-free: an empty (-1) cell sets no bit
        card = np.int64(state[base + P_CARD + c])
        bits |= np.int64(card >= 0) << (card & 63)
    for d in range(DAYS):
        card = np.int64(state[base + P_SEEN + d])
        bits |= np.int64(card >= 0) << (card & 63)
    _set_cards(state, base + P_KNOWN, bits)


@njit(cache=True, _nrt=False)
def derive_views(state):
    """Recompute what the rules keep for the strategies (FACE_UP_SEEN, ROW_SHOWN, P_KNOWN) from
    the rest of the state: for states built outside the rules (positions, tests). The rules
    keep them up to date move by move; the tests check both agree."""
    _set_cards(state, FACE_UP_SEEN, 0)
    for cell in range(SEATS * COLS):
        _show(state, cell)
        if state[ROW_CARD + cell] >= 0:
            _add_card(state, FACE_UP_SEEN, state[ROW_CARD + cell])
    for p in range(MAX_PLAYERS):
        _know(state, PRIVATE + p * PRIVATE_SIZE)


@njit(cache=True, inline="always")
def _deal_card(state, chance, seat):
    """Draw a uniformly random card from the deck (see the module docstring) for ``seat`` (a
    player or the Grey Entity)."""
    left = state[H_DECK_LEFT]
    i = S_DECK + below(chance, left)
    card = state[i]
    state[i] = state[S_DECK + left - 1]
    state[H_DECK_LEFT] = left - 1
    state[S_DEALT + seat * DEALT_ROW + card] += 1
    return card


@njit(cache=True, inline="always")
def _gather_deck(state):
    """Every Commitment card back in the deck (the list 0..59), the discard pile empty."""
    for c in range(N_COMMIT):
        state[S_DECK + c] = c
    state[H_DECK_LEFT] = N_COMMIT
    state[S_DISCARD_N] = 0


@njit(cache=True, _nrt=False)
def _start_week(state, chance):
    n = state[H_PLAYERS]
    for pos in range(n):
        seat = seat_at(state, pos)
        base = PRIVATE + seat * PRIVATE_SIZE
        state[base + P_HAND_N] = HAND
        bits = np.int64(0)
        for j in range(HAND):
            card = _deal_card(state, chance, seat)
            state[base + P_HAND + j] = card
            bits |= np.int64(1) << card
        sort_range(state, base + P_HAND, HAND)
        _set_cards(state, base + P_KNOWN, bits)  # the hand is all the seat knows of the week
    grey = state[H_GREY]
    if grey >= 0:
        for d in range(DAYS):
            state[S_GREY + d] = _deal_card(state, chance, grey)
            state[ROW_CARD + grey * COLS + d] = FACE_DOWN
        state[H_GREY_HIDDEN] = DAYS
    week = state[H_WEEK]
    for d in range(DAYS):
        state[WEEK_WORK + d] = state[S_WORK_ORDER + DAYS * week + d]
        state[WEEK_REPR + d] = state[S_REPR_ORDER + DAYS * week + d]
    state[H_STAGE] = STAGE_MONDAY
    state[H_TURN] = 0
    state[H_POS] = 0
    state[H_DECISION] = DEC_MULLIGAN
    state[H_TO_MOVE] = state[H_FIRST]


@njit(cache=True, _nrt=False)
def init(state, params, chance):
    state[:] = 0
    copy_params(state, params)  # the player count, grey_dismissal and the component table (PARAMS)
    n = state[H_PLAYERS]
    state[H_GREY] = 2 if n == 2 else -1
    state[H_SEATS] = 3 if n == 2 else n
    state[H_LEADER] = -1
    room = 0
    for k in range(N_KINDS):
        state[S_ROOM + k] = state[TOKEN_MIX + k]
        room += state[TOKEN_MIX + k]
    state[H_ROOM] = room
    for i in range(N_WORK):
        state[WORK_OWNER + i] = -1
        state[S_WORK_ORDER + i] = i
    for i in range(N_REPR):
        state[REPR_OWNER + i] = -1
        state[S_REPR_ORDER + i] = i
    for i in range(N_OT):
        state[OT_OWNER + i] = -1
    for d in range(DAYS):
        state[S_GREY + d] = -1
    for i in range(SEATS * COLS):
        state[ROW_CARD + i] = EMPTY
        state[ROW_SHOWN + i] = SHOWN_HIDDEN
    for p in range(MAX_PLAYERS):
        base = PRIVATE + p * PRIVATE_SIZE
        for j in range(HAND):
            state[base + P_HAND + j] = -1
        for c in range(COLS):
            state[base + P_CARD + c] = -1
        for d in range(DAYS):
            state[base + P_SEEN + d] = -1
        for j in range(HAND):
            state[base + P_DISC + j] = -1
    shuffle(chance, state, S_WORK_ORDER, N_WORK)
    shuffle(chance, state, S_REPR_ORDER, N_REPR)
    start = 3 if n == 2 else 2
    for s in range(n):
        _draw(state, chance, s, start)
    _draw(state, chance, 0, 1)  # the first player's extra token
    state[H_FIRST] = 0
    state[H_WEEK] = 0
    _gather_deck(state)
    _start_week(state, chance)


@njit(cache=True, inline="always")
def to_move(state):
    return state[H_TO_MOVE]


@njit(cache=True, inline="always")
def legal_moves(state_, moves_):
    state = borrow(state_)  # see apply_move
    moves = borrow(moves_)
    decision = state[H_DECISION]
    seat = state[H_TO_MOVE]
    base = PRIVATE + seat * PRIVATE_SIZE
    k = 0
    if decision == DEC_PLAY:
        # the moves of the lowest card (branch-free), then that block shifted for each other card
        low = state[base + P_HAND]
        code = MOVE_PLAY + 16 * low
        step = 2 if state[base + P_TOK + MEETING] > 0 else 1
        for d in range(DAYS):
            moves[k] = code + 2 * d
            moves[k + 1] = code + 2 * d + 1
            k += step * (state[base + P_CARD + d] < 0)
        block = k
        for i in range(1, state[base + P_HAND_N]):
            shift = 16 * (state[base + P_HAND + i] - low)
            for j in range(block):
                moves[k + j] = moves[j] + shift
            k += block
        return k
    if decision == DEC_TOKEN:
        moves[0] = MOVE_TOKEN_NONE
        # the kinds held, ascending (branch-free: unused slots are overwritten or beyond k)
        nk = 0
        k0 = k1 = k2 = 0
        for kind in range(3):
            if state[base + P_TOK + kind] > 0:
                if nk == 0:
                    k0 = kind
                elif nk == 1:
                    k1 = kind
                else:
                    k2 = kind
                nk += 1
        k = 1
        for c in range(COLS):
            code = MOVE_TOKEN + 4 * c
            moves[k] = code + k0
            moves[k + 1] = code + k1
            moves[k + 2] = code + k2
            k += nk * (state[base + P_CARD + c] >= 0)
        return k
    if decision == DEC_MULLIGAN:
        for mask in range(64):
            moves[mask] = MOVE_MULLIGAN + mask
        return 64
    if decision == DEC_GREY:
        # branch-free like the others (a mispredicted branch per day cost ~10% in 2 players)
        grey_row = ROW_CARD + state[H_GREY] * COLS
        moves[0] = MOVE_GREY_NONE
        k = 1
        for d in range(DAYS):
            moves[k] = MOVE_REVEAL + d
            k += state[grey_row + d] == FACE_DOWN
        if state[TOKENS_HELD + seat] > 0:
            nk = 0
            k0 = k1 = k2 = k3 = 0
            for kind in range(N_KINDS):
                if state[base + P_TOK + kind] > 0:
                    if nk == 0:
                        k0 = kind
                    elif nk == 1:
                        k1 = kind
                    elif nk == 2:
                        k2 = kind
                    else:
                        k3 = kind
                    nk += 1
            for d in range(DAYS):
                code = MOVE_PEEK + 4 * d
                moves[k] = code + k0
                moves[k + 1] = code + k1
                moves[k + 2] = code + k2
                moves[k + 3] = code + k3
                k += nk * (state[grey_row + d] == FACE_DOWN)  # looked at before or not (CL-9)
        return k
    return 0


@njit(cache=True, inline="always")
def weeks_over(state):
    """Weeks finished so far (the search's ``horizon`` counts them)."""
    return state[H_WEEK]


@njit(cache=True, inline="always")
def card_value(state, base, col):
    """Value of the card in column ``col`` of the row whose private block starts at ``base``."""
    return (state[C_VALUE + state[base + P_CARD + col]]
            + TOKEN_STEP * (state[base + P_PLUS + col] - state[base + P_MINUS + col]))


@njit(cache=True, inline="always")
def _give(state, chance, owner, index, seat, value, icons, total, cards):
    state[owner + index] = seat
    state[total + seat] += state[value + index]
    state[cards + seat] += 1
    if state[icons + index] > 0:
        _draw(state, chance, seat, state[icons + index])


@njit(cache=True, _nrt=False)
def _resolve(state, chance):
    """Reveal and resolve: Overtime, then Monday..Friday (CL-2, CL-3, CL-10, CL-12, CL-13)."""
    n = state[H_PLAYERS]
    grey = state[H_GREY]
    # Overtime: real players only, in turn order (ties to the earliest)
    lo_seat, hi_seat, lo, hi = -1, -1, 0, 0
    for pos in range(n):
        s = seat_at(state, pos)
        base = PRIVATE + s * PRIVATE_SIZE
        if state[base + P_ILL + OT_COL] > 0:
            continue
        v = card_value(state, base, OT_COL)
        if lo_seat < 0 or v < lo:
            lo_seat, lo = s, v
        if hi_seat < 0 or v > hi:
            hi_seat, hi = s, v
    new_first = state[H_FIRST]
    if lo_seat >= 0:
        _draw(state, chance, lo_seat, 1)
        new_first = lo_seat
        k = state[H_OT_NEXT]
        if k < N_OT:
            state[OT_OWNER + k] = hi_seat
            state[OT_TOTAL + hi_seat] += state[OT_VALUE + k]
            state[OT_CARDS + hi_seat] += 1
            state[H_OT_NEXT] = k + 1
    # weekdays: the Grey Entity first (CL-12), then the turn order
    for d in range(DAYS):
        lo_seat, hi_seat, lo, hi = -1, -1, 0, 0
        if grey >= 0:
            lo_seat = hi_seat = grey
            lo = hi = state[C_VALUE + state[S_GREY + d]]
        for pos in range(n):
            s = seat_at(state, pos)
            base = PRIVATE + s * PRIVATE_SIZE
            if state[base + P_ILL + d] > 0:
                continue
            v = card_value(state, base, d)
            if lo_seat < 0 or v < lo:
                lo_seat, lo = s, v
            if hi_seat < 0 or v > hi:
                hi_seat, hi = s, v
        w = state[WEEK_WORK + d]
        r = state[WEEK_REPR + d]
        if hi_seat < 0:  # CL-3: every card ill
            state[WORK_OWNER + w] = DISCARDED
            state[REPR_OWNER + r] = DISCARDED
            continue
        _give(state, chance, WORK_OWNER, w, hi_seat, W_VALUE, W_ICONS, WORK_TOTAL, WORK_CARDS)
        _give(state, chance, REPR_OWNER, r, lo_seat, R_VALUE, R_ICONS, REPR_TOTAL, REPR_CARDS)
    state[H_FIRST] = new_first


@njit(cache=True, _nrt=False)
def _clean_up(state):
    n = state[H_PLAYERS]
    for s in range(n):
        base = PRIVATE + s * PRIVATE_SIZE
        for c in range(COLS):
            state[S_ROOM + PLUS] += state[base + P_PLUS + c]
            state[S_ROOM + MINUS] += state[base + P_MINUS + c]
            state[S_ROOM + ILLNESS] += state[base + P_ILL + c]
            state[base + P_CARD + c] = -1
            state[base + P_PLUS + c] = 0
            state[base + P_MINUS + c] = 0
            state[base + P_ILL + c] = 0
        for d in range(DAYS):
            state[base + P_SEEN + d] = -1
        for j in range(HAND):
            state[base + P_DISC + j] = -1
        for k in range(N_KINDS):
            state[base + P_SPENT + k] = 0
        _set_cards(state, base + P_KNOWN, 0)
    _set_cards(state, FACE_UP_SEEN, 0)
    for s in range(SEATS):
        state[PEEKS + s] = 0
        state[PEEK_N + s] = 0
        state[DISC_N + s] = 0
    for i in range(SEATS * COLS):
        state[ROW_CARD + i] = EMPTY
        state[ROW_PLUS + i] = 0
        state[ROW_MINUS + i] = 0
        state[ROW_ILL + i] = 0
        state[ROW_NTOK + i] = 0
        state[ROW_SHOWN + i] = SHOWN_HIDDEN
    room = 0
    for k in range(N_KINDS):
        state[S_ROOM + k] += state[S_SPENT + k]
        state[S_SPENT + k] = 0
        room += state[S_ROOM + k]
    state[H_ROOM] = room
    state[H_GREY_HIDDEN] = 0
    for d in range(DAYS):
        state[S_GREY + d] = -1
    _gather_deck(state)


@njit(cache=True, inline="always")
def _turn_done(state, chance):
    """The seat to move has finished its part of this stage: move on to the next decision."""
    n = state[H_PLAYERS]
    while True:
        pos = state[H_POS] + 1
        if pos == n:
            pos = 0
            stage = state[H_STAGE]
            if stage == STAGE_MONDAY:
                state[H_STAGE] = STAGE_MIDWEEK
                state[H_TURN] = 0
            elif stage == STAGE_MIDWEEK:
                if state[H_TURN] == DAYS - 1:
                    state[H_STAGE] = STAGE_FRIDAY
                else:
                    state[H_TURN] += 1
            else:
                _resolve(state, chance)
                _clean_up(state)
                state[H_WEEK] += 1
                if state[H_WEEK] == LEADER_WEEKS:
                    state[H_LEADER] = leader(state)
                if state[H_WEEK] == WEEKS:
                    state[H_STAGE] = STAGE_OVER
                    state[H_DECISION] = DEC_NONE
                    state[H_TO_MOVE] = -1
                    return
                _start_week(state, chance)
                return
        state[H_POS] = pos
        seat = seat_at(state, pos)
        state[H_TO_MOVE] = seat
        if state[H_STAGE] == STAGE_MONDAY:
            state[H_DECISION] = DEC_MULLIGAN
            return
        if state[H_STAGE] == STAGE_MIDWEEK:
            if state[H_GREY_HIDDEN] > 0:
                state[H_DECISION] = DEC_GREY
            else:
                state[H_DECISION] = DEC_PLAY
            return
        # Friday: the last card goes to the Overtime column face up (forced, CL-13)
        base = PRIVATE + seat * PRIVATE_SIZE
        card = state[base + P_HAND]
        state[base + P_HAND] = -1
        state[base + P_HAND_N] = 0
        state[base + P_CARD + OT_COL] = card
        state[ROW_CARD + seat * COLS + OT_COL] = card
        _add_card(state, FACE_UP_SEEN, card)
        _show(state, seat * COLS + OT_COL)
        if state[C_ICONS + card] > 0:
            _draw(state, chance, seat, state[C_ICONS + card])
        if _placeable(state, base):
            state[H_DECISION] = DEC_TOKEN
            return


@njit(cache=True, inline="always")
def apply_move(state_, move, chance_):
    # Borrowed views (no reference count): numba's refcount pruning cannot remove the
    # incref/decref pairs of the arguments of an inlined body with many exits; with them
    # every decision paid 8 atomic operations (legal_moves + apply_move), about 10% of the
    # game loop. The arrays are owned by the caller for the whole call.
    state = borrow(state_)
    chance = borrow(chance_)
    seat = state[H_TO_MOVE]
    base = PRIVATE + seat * PRIVATE_SIZE
    decision = state[H_DECISION]
    if decision == DEC_PLAY:
        rel = move - MOVE_PLAY
        card = rel >> 4
        day = (rel >> 1) & 7
        state[base + P_HAND_N] = remove_sorted(state, base + P_HAND, state[base + P_HAND_N], card)
        state[base + P_CARD + day] = card
        down = rel & 1  # face down: spend a MEETING token (branch-free)
        state[base + P_TOK + MEETING] -= down
        state[TOKENS_HELD + seat] -= down
        state[S_SPENT + MEETING] += down
        state[ROW_CARD + seat * COLS + day] = card + down * (FACE_DOWN - card)
        # branch-free: a face-down card is in no card set and shows SHOWN_HIDDEN (as the empty
        # cell did); a face-up one shows its value (no token on it yet)
        up = 1 - down
        _add_card(state, FACE_UP_SEEN, card, up)
        state[ROW_SHOWN + seat * COLS + day] = SHOWN_HIDDEN + up * (state[C_VALUE + card] - SHOWN_HIDDEN)
        if state[C_ICONS + card] > 0:
            _draw(state, chance, seat, state[C_ICONS + card])
        if _placeable(state, base):
            state[H_DECISION] = DEC_TOKEN
            return
    elif decision == DEC_TOKEN:
        if move != MOVE_TOKEN_NONE:
            rel = move - MOVE_TOKEN
            col = rel >> 2
            kind = rel & 3
            state[base + P_TOK + kind] -= 1
            state[TOKENS_HELD + seat] -= 1
            state[base + P_PLUS + COLS * kind + col] += 1
            cell = seat * COLS + col
            state[ROW_NTOK + cell] += 1
            state[ROW_PLUS + ROW_KIND_STRIDE * kind + cell] += state[ROW_CARD + cell] != FACE_DOWN
            _show(state, cell)
    elif decision == DEC_MULLIGAN:
        mask = move - MOVE_MULLIGAN
        if mask == 0:
            _draw(state, chance, seat, 1)
        else:
            dn0 = dn = state[S_DISCARD_N]
            bits = mask
            while bits:  # the discarded positions, lowest first (so P_DISC comes out ascending)
                j = trailing_zeros(bits)
                bits &= bits - 1
                card = state[base + P_HAND + j]
                state[S_DISCARD + dn] = card
                state[base + P_DISC + dn - dn0] = card
                dn += 1
                state[base + P_HAND + j] = _deal_card(state, chance, seat)
            state[S_DISCARD_N] = dn
            state[DISC_N + seat] = dn - dn0
            sort_range(state, base + P_HAND, HAND)
            _know(state, base)
    else:  # DEC_GREY: the seat goes on to play
        if move >= MOVE_PEEK:
            rel = move - MOVE_PEEK
            day = rel >> 2
            kind = rel & 3
            state[base + P_TOK + kind] -= 1
            state[TOKENS_HELD + seat] -= 1
            state[S_SPENT + kind] += 1
            state[base + P_SPENT + kind] += 1
            state[base + P_SEEN + day] = state[S_GREY + day]
            _add_card(state, base + P_KNOWN, state[S_GREY + day])
            state[PEEKS + seat] |= 1 << day
            state[PEEK_N + seat] += 1
        elif move >= MOVE_REVEAL:
            day = move - MOVE_REVEAL
            card = state[S_GREY + day]
            cell = state[H_GREY] * COLS + day
            state[ROW_CARD + cell] = card
            _add_card(state, FACE_UP_SEEN, card)
            state[ROW_SHOWN + cell] = state[C_VALUE + card]
            state[H_GREY_HIDDEN] -= 1
        state[H_DECISION] = DEC_PLAY
        return
    _turn_done(state, chance)


@njit(cache=True, _nrt=False)
def dismissed_mask(state):
    """Bit s set for each dismissed seat (CL-5, CL-11)."""
    n = state[H_PLAYERS]
    top, fewest = state[REPR_TOTAL], state[REPR_CARDS]
    for s in range(1, n):
        t = state[REPR_TOTAL + s]
        if t > top:
            top, fewest = t, state[REPR_CARDS + s]
        elif t == top and state[REPR_CARDS + s] < fewest:
            fewest = state[REPR_CARDS + s]
    if top == 0:
        return 0  # only a highest total of exactly 0 dismisses nobody (CL-5): a negative one does
    grey = state[H_GREY]
    if grey >= 0 and state[H_SHIELD] != 0:
        g = state[REPR_TOTAL + grey]
        if g > top or (g == top and state[REPR_CARDS + grey] <= fewest):
            return 0  # the Grey Entity holds the highest total: nobody is dismissed
    mask = 0
    for s in range(n):
        if state[REPR_TOTAL + s] == top and state[REPR_CARDS + s] == fewest:
            mask |= 1 << s
    return mask


@njit(cache=True, inline="always")
def seat_score(state, s):
    """Work + Overtime values - tokens held - the seat compensation (lower is better)."""
    return state[WORK_TOTAL + s] + state[OT_TOTAL + s] - state[TOKENS_HELD + s] - state[COMPENSATION + s]


@njit(cache=True, inline="always")
def precedes(state, out, t, s):
    """Is seat ``t`` ranked strictly ahead of seat ``s`` (``out``: ``dismissed_mask``)?

    Players not dismissed come first, by (score, the Grey Entity before anyone on equal score,
    fewer Work+Overtime cards); dismissed ones after, by score alone (CL-5, CL-6, CL-9)."""
    if t == s:
        return False
    out_t = (out >> t) & 1
    out_s = (out >> s) & 1
    if out_t != out_s:
        return out_s == 1
    score_t = seat_score(state, t)
    score_s = seat_score(state, s)
    if score_t != score_s:
        return score_t < score_s
    if out_s:
        return False
    grey = state[H_GREY]
    if t == grey:
        return True
    if s == grey:
        return False
    return state[WORK_CARDS + t] + state[OT_CARDS + t] < state[WORK_CARDS + s] + state[OT_CARDS + s]


@njit(cache=True, _nrt=False)
def leader(state):
    """The seat alone in first place if the game ended now (the result's ranking), else -1."""
    seats = state[H_SEATS]
    out = dismissed_mask(state)
    first, firsts = -1, 0
    for s in range(seats):
        ahead = False
        for t in range(seats):
            if precedes(state, out, t, s):
                ahead = True
                break
        if not ahead:
            first = s
            firsts += 1
    return first if firsts == 1 else -1


@njit(cache=True, _nrt=False)
def result(state, score, rank, extra):
    seats = state[H_SEATS]
    out = dismissed_mask(state)
    for s in range(seats):
        score[s] = seat_score(state, s)
        extra[s, 0] = state[WORK_TOTAL + s]
        extra[s, 1] = state[OT_TOTAL + s]
        extra[s, 2] = state[REPR_TOTAL + s]
        extra[s, 3] = state[TOKENS_HELD + s]
        extra[s, 4] = (out >> s) & 1
        extra[s, 5] = state[WORK_CARDS + s]
        extra[s, 6] = state[REPR_CARDS + s]
        extra[s, 7] = state[OT_CARDS + s]
        extra[s, 8] = state[H_LEADER]
    for s in range(seats):
        r = 1
        for t in range(seats):
            if precedes(state, out, t, s):
                r += 1
        rank[s] = r


# ----------------------------------------------------------------------------- determinization
@njit(cache=True, inline="always")
def _det_card(state, rng, left):
    """Draw a uniformly random card of the hidden pool ``state[S_DECK:S_DECK + left]`` (the drawn
    card's slot takes the pool's last card, as ``_deal_card`` does)."""
    i = S_DECK + below(rng, left)
    card = state[i]
    state[i] = state[S_DECK + left - 1]
    return card


@njit(cache=True, inline="always")
def _det_kind(state, rng, total):
    """Draw one token out of the hidden token pool (counts per kind in ``S_ROOM``) whose first
    kinds hold ``total`` tokens: ``total`` = all of them, or those of the kinds +10, -10 and
    ILLNESS only (for a face-down card, where no MEETING token can lie)."""
    r = below(rng, total)
    kind = 0
    while r >= state[S_ROOM + kind]:
        r -= state[S_ROOM + kind]
        kind += 1
    state[S_ROOM + kind] -= 1
    return kind


@njit(cache=True, _nrt=False)
def determinize(public, private, state, rng):
    """Fill ``state`` with a complete state the seat to move cannot tell from the real one (see
    "Determinization" in the module docstring); returns the number of Commitment cards hidden
    from that seat, or -1 if the views contradict each other (then ``state`` is unusable).

    ``public`` is ``public_view`` of the real state, ``private`` the ``private_view`` of the seat
    to move (``public[H_TO_MOVE]``; past the end of the game, -1, every seat is treated as
    another's); ``state`` (STATE_SIZE) is overwritten entirely and may be the array the views
    are slices of; ``rng`` (xoshiro256**, uint64[4]) is the only source of randomness.
    """
    for i in range(PUBLIC_SIZE):
        state[i] = public[i]
    n = public[H_PLAYERS]
    grey = public[H_GREY]
    seat = public[H_TO_MOVE]
    over = public[H_STAGE] == STAGE_OVER
    one = np.int64(1)
    # ---- the Commitment cards the seat knows the place of (a 60-bit mask)
    known = np.int64(0)
    if seat >= 0:
        me = PRIVATE + seat * PRIVATE_SIZE
        for j in range(PRIVATE_SIZE):
            state[me + j] = private[j]
        for j in range(private[P_HAND_N]):
            known |= one << private[P_HAND + j]
        for c in range(COLS):
            if private[P_CARD + c] >= 0:
                known |= one << private[P_CARD + c]
        for d in range(DAYS):
            if private[P_SEEN + d] >= 0:
                known |= one << private[P_SEEN + d]
        for j in range(HAND):
            if private[P_DISC + j] >= 0:
                known |= one << private[P_DISC + j]
    for i in range(SEATS * COLS):
        if public[ROW_CARD + i] >= 0:
            known |= one << public[ROW_CARD + i]
    # the hidden cards, ascending, are the pool S_DECK[:left]; what is left of it at the end is
    # the deck (its order does not matter: the kernel draws from it at random)
    left = 0
    for c in range(N_COMMIT):
        if ((known >> c) & 1) == 0:
            state[S_DECK + left] = c
            left += 1
    hidden = left
    # the hidden places must hold exactly the hidden cards
    slots = public[H_DECK_LEFT]
    for p in range(n):
        if p == seat:
            continue
        played = 0
        for c in range(COLS):
            pub = public[ROW_CARD + p * COLS + c]
            played += pub != EMPTY
            slots += pub == FACE_DOWN
        if not over:
            slots += HAND - played
        slots += public[DISC_N + p]
    if grey >= 0:
        for d in range(DAYS):
            if public[ROW_CARD + grey * COLS + d] == FACE_DOWN and (seat < 0 or private[P_SEEN + d] < 0):
                slots += 1
    if slots != hidden:
        return -1
    # ---- the Grey Entity's cards: revealed, looked at by this seat, or drawn
    for d in range(DAYS):
        state[S_GREY + d] = -1
    if grey >= 0:
        for d in range(DAYS):
            pub = public[ROW_CARD + grey * COLS + d]
            if pub >= 0:
                state[S_GREY + d] = pub
            elif pub == FACE_DOWN:
                seen = private[P_SEEN + d] if seat >= 0 else -1
                if seen >= 0:
                    state[S_GREY + d] = seen
                else:
                    state[S_GREY + d] = _det_card(state, rng, left)
                    left -= 1
    # ---- the other seats' private blocks: face-down cards, hands, discards, what they saw
    for p in range(MAX_PLAYERS):
        if p == seat:
            continue
        b = PRIVATE + p * PRIVATE_SIZE
        for j in range(PRIVATE_SIZE):
            state[b + j] = 0
        for j in range(HAND):
            state[b + P_HAND + j] = -1
            state[b + P_DISC + j] = -1
        for c in range(COLS):
            state[b + P_CARD + c] = -1
        for d in range(DAYS):
            state[b + P_SEEN + d] = -1
        if p >= n:
            continue
        played = 0
        for c in range(COLS):
            cell = p * COLS + c
            pub = public[ROW_CARD + cell]
            if pub == EMPTY:
                continue
            played += 1
            if pub >= 0:
                state[b + P_CARD + c] = pub
                state[b + P_PLUS + c] = public[ROW_PLUS + cell]
                state[b + P_MINUS + c] = public[ROW_MINUS + cell]
                state[b + P_ILL + c] = public[ROW_ILL + cell]
            else:
                state[b + P_CARD + c] = _det_card(state, rng, left)
                left -= 1
        hn = 0 if over else HAND - played
        state[b + P_HAND_N] = hn
        for j in range(hn):
            state[b + P_HAND + j] = _det_card(state, rng, left)
            left -= 1
        sort_range(state, b + P_HAND, hn)
        dn = public[DISC_N + p]
        for j in range(dn):
            state[b + P_DISC + j] = _det_card(state, rng, left)
            left -= 1
        sort_range(state, b + P_DISC, dn)
        peeks = public[PEEKS + p]
        for d in range(DAYS):
            if (peeks >> d) & 1:
                state[b + P_SEEN + d] = state[S_GREY + d]
    for i in range(left, N_COMMIT):
        state[S_DECK + i] = -1
    # the discard pile: every seat's Monday discards, seat by seat
    dn = 0
    for p in range(n):
        b = PRIVATE + p * PRIVATE_SIZE
        for j in range(public[DISC_N + p]):
            state[S_DISCARD + dn] = state[b + P_DISC + j]
            dn += 1
    state[S_DISCARD_N] = dn
    for i in range(dn, N_COMMIT):
        state[S_DISCARD + i] = -1
    for i in range(SEATS * DEALT_ROW):  # what was dealt so far: the dataset's record, not the game's
        state[S_DEALT + i] = 0
    # ---- tokens: the hidden pool (counts per kind, in S_ROOM) is the whole mix less what the
    # seat knows the kind of: its own tokens (held, on its cards, spent on peeks), tokens on
    # face-up cards, and the MEETING paid for each face-down card
    for k in range(N_KINDS):
        state[S_ROOM + k] = public[TOKEN_MIX + k]
        state[S_SPENT + k] = 0
        state[S_GREY_TOK + k] = 0
    if seat >= 0:
        for k in range(N_KINDS):
            state[S_ROOM + k] -= private[P_TOK + k] + private[P_SPENT + k]
            state[S_SPENT + k] += private[P_SPENT + k]
        for c in range(COLS):
            state[S_ROOM + PLUS] -= private[P_PLUS + c]
            state[S_ROOM + MINUS] -= private[P_MINUS + c]
            state[S_ROOM + ILLNESS] -= private[P_ILL + c]
    faces = 0
    for p in range(n):
        for c in range(COLS):
            cell = p * COLS + c
            faces += public[ROW_CARD + cell] == FACE_DOWN
            if p != seat:
                state[S_ROOM + PLUS] -= public[ROW_PLUS + cell]
                state[S_ROOM + MINUS] -= public[ROW_MINUS + cell]
                state[S_ROOM + ILLNESS] -= public[ROW_ILL + cell]
    state[S_ROOM + MEETING] -= faces
    state[S_SPENT + MEETING] += faces
    for k in range(N_KINDS):
        if state[S_ROOM + k] < 0:
            return -1
    # tokens on others' face-down cards first (their kinds: +10, -10, ILLNESS), then what the
    # others hold and spent on peeks, the Grey Entity's tokens; the rest is the Coffee Room
    for p in range(n):
        if p == seat:
            continue
        b = PRIVATE + p * PRIVATE_SIZE
        for c in range(COLS):
            cell = p * COLS + c
            if public[ROW_CARD + cell] != FACE_DOWN:
                continue
            for _ in range(public[ROW_NTOK + cell]):
                total = state[S_ROOM + PLUS] + state[S_ROOM + MINUS] + state[S_ROOM + ILLNESS]
                if total <= 0:
                    return -1
                state[b + P_PLUS + COLS * _det_kind(state, rng, total) + c] += 1
    for p in range(n + 1):
        holder = p if p < n else grey
        if holder < 0 or holder == seat:
            continue
        b = PRIVATE + holder * PRIVATE_SIZE
        take = public[TOKENS_HELD + holder]
        peeks = public[PEEK_N + holder] if holder != grey else 0
        for t in range(take + peeks):
            total = state[S_ROOM] + state[S_ROOM + 1] + state[S_ROOM + 2] + state[S_ROOM + 3]
            if total <= 0:
                return -1
            kind = _det_kind(state, rng, total)
            if holder == grey:
                state[S_GREY_TOK + kind] += 1
            elif t < take:
                state[b + P_TOK + kind] += 1
            else:
                state[b + P_SPENT + kind] += 1
                state[S_SPENT + kind] += 1
    if state[S_ROOM] + state[S_ROOM + 1] + state[S_ROOM + 2] + state[S_ROOM + 3] != public[H_ROOM]:
        return -1
    # ---- Work and Reprimand cards: past weeks' (order immaterial: the days CL-3 discarded
    # first, in both piles, so that they stay paired), this week's, later weeks' shuffled
    week = public[H_WEEK]
    for which in range(2):
        owner = WORK_OWNER if which == 0 else REPR_OWNER
        order = S_WORK_ORDER if which == 0 else S_REPR_ORDER
        current = WEEK_WORK if which == 0 else WEEK_REPR
        pos = 0
        for i in range(N_WORK):
            if public[owner + i] == DISCARDED:
                state[order + pos] = i
                pos += 1
        for i in range(N_WORK):
            if public[owner + i] >= 0:
                state[order + pos] = i
                pos += 1
        if pos != DAYS * week:
            return -1
        if week < WEEKS:
            for d in range(DAYS):
                state[order + pos] = public[current + d]
                pos += 1
            later = pos
            for i in range(N_WORK):
                if public[owner + i] == -1:
                    this_week = False
                    for d in range(DAYS):
                        if public[current + d] == i:
                            this_week = True
                    if not this_week:
                        state[order + pos] = i
                        pos += 1
            if pos != N_WORK:
                return -1
            shuffle(rng, state, order + later, N_WORK - later)
    # what the rules keep for the other seats' strategies (the public part is copied)
    for p in range(MAX_PLAYERS):
        if p != seat:
            _know(state, PRIVATE + p * PRIVATE_SIZE)
    return hidden


RULES = kernel.rules_module(__name__)  # this module, as the kernel loop and the search take it


@njit(cache=True)
def play_chunk(params, chunk):  # kernel.play_games with this game's cap on decisions
    return kernel.play_games(RULES, MAX_DECISIONS, params, chunk)


# ----------------------------------------------------------------------------- components (CL-1)
MAX_TOKENS = 200  # the most tokens the Coffee Room may hold in all


def _playable(table: dict, n_players: int) -> str | None:
    """At most 200 tokens in the Coffee Room in all (the state's token arrays are sized for them)."""
    total = sum(table["tokens"].values())
    if total > MAX_TOKENS:
        return f"tokens: at most {MAX_TOKENS} tokens in all, got {total}"
    extra = [s for s in range(n_players, SEATS) if table["compensation"]["points"][s]]
    if extra:
        return (f"compensation.points[seat{extra[0]}]: there is no player in seat {extra[0]} at {n_players} players "
                f"(at 2, seat 2 is the Grey Entity), so it must be 0")
    return None


#: what each key of components.toml (the defaults, documented there) may hold
COMPONENTS = Components(NAME, Path(__file__).with_name("components.toml"), values=[
    Value("commitment.values", -999, 999, "the value each Commitment card counts in a comparison, by card number",
          length=N_COMMIT, rising=True, reach=3),
    Value("commitment.icons", 0, 9, "Coffee icons on each Commitment card (tokens drawn when it is played)",
          length=N_COMMIT, reach=1),
    Value("work.values", -99, 99, "the value of each Work card", length=N_WORK, shipped=True),
    Value("work.icons", 0, 9, "Coffee icons on each Work card (tokens drawn when it is received)", length=N_WORK,
          reach=1),
    Value("reprimand.values", -99, 99, "the value of each Reprimand card", length=N_REPR, shipped=True),
    Value("reprimand.icons", 0, 9, "Coffee icons on each Reprimand card (tokens drawn when it is received)",
          length=N_REPR, reach=1),
    Value("overtime.values", -99, 99, "the Overtime cards' values, top of the pile first", length=N_OT,
          shipped=True),
    *(Value(f"tokens.{key}", 0, 99, f"{name} tokens in the Coffee Room", reach=2)
      for key, name in zip(KIND_KEYS, KIND_NAMES)),
    Value("compensation.points", -20, 20, "points taken off each seat's final score (seat compensation: lowest "
          "wins, so a head start; below 0 a handicap)", length=SEATS, names=tuple(f"seat{s}" for s in range(SEATS)),
          reach=2, compensation=True),
], playable=_playable, nearest={  # a Commitment card's value minus one, one token fewer
    **{f"Commitment {c + 1}": (f"commitment.values[{c + 1}]", -1) for c in range(N_COMMIT)},
    **{f"token {key}": (f"tokens.{key}", -1) for key in KIND_KEYS}})


def pack_components(table: dict) -> list[int]:
    """The table as the ints of the params / public block, in the public layout's order."""
    out = (list(table["commitment"]["values"]) + list(table["commitment"]["icons"])
           + list(table["work"]["values"]) + list(table["work"]["icons"])
           + list(table["reprimand"]["values"]) + list(table["reprimand"]["icons"])
           + list(table["overtime"]["values"]) + [table["tokens"][k] for k in KIND_KEYS]
           + list(table["compensation"]["points"]))
    assert len(out) == TABLE_SIZE
    return out


#: the kernel's params, declared once (simulate/games/layout.py): what ``make_params`` packs and
#: ``init`` copies into the state (``copy_params``); a partial component table is completed with
#: the defaults
PARAMS = Params(LAYOUT, [
    ("P_PLAYERS", 1, "H_PLAYERS", lambda c: c.players, "n players"),
    ("P_SHIELD", 1, "H_SHIELD", lambda c: 1 if c.options.get("grey_dismissal", "exclude") == "shield" else 0,
     "rule option grey_dismissal: 1 shield, 0 exclude"),
    ("P_TABLE", TABLE_SIZE, "C_VALUE", lambda c: pack_components(c.table),
     "the component table, in the public order (C_VALUE .. COMPENSATION)"),
], components=COMPONENTS, complete=True)
PARAMS.install(globals())  # P_PLAYERS = 0, ..., PARAMS_SIZE, make_params, copy_params


# ----------------------------------------------------------------------------- rule parameters

