"""Partners (4 players, teams {0,2} and {1,3}): the rules kernel.

Rules: ``shared/rules/partners.md`` (decisions PA-1..PA-12) over the rulebook
``shared/seeds/partners.txt``. The board (PA-1) and the deck (PA-2) are data: the component
table (``components.toml`` beside this file, declared by ``COMPONENTS``; the rule option
``components``) is packed into ``params`` by :func:`make_params` and copied into the public state
by ``init``; the kernel reads it from there, so a variant board or deck is a change of table.
``BOARD_SECTION``/``BOARD_HOUSE`` and ``KIND_EFFECTS``/``DECK_COUNTS`` are the defaults' tables.

Geometry. Seat p plays colour p. Every piece of colour c is described by its *track code* ``t``
relative to its colour: ``0`` its own start space, ``1 .. RING`` the numbered spaces counted from
the first space after its start (``RING = 4 * SECTION`` = 56; ``t = RING`` is the space just
before its own start, the house entrance), ``RING + h`` house space h (1..HOUSE), and
``OUTSIDE`` (127) off the board. Absolute numbered space of a ring piece:
``a = (t - 1 + SECTION * c) mod RING``. The start space of colour c + d (d = 1..3) lies between
track codes ``SECTION * d`` and ``SECTION * d + 1``; a move *passes* it when its path crosses
that gap (no piece ever lands on a start space by moving: start spaces never count as steps).
Pieces of one colour are interchangeable, so each colour's four track codes are kept ascending.

Choices made here where the rules are silent (see also the report of the issue):

- Deal order: the seat after the dealer gets the first 4 cards of the pile, the next seat the
  next 4, and so on. Seat 3 deals first (PA-10); a dealer deals 3 times (48 of the 56 cards,
  PA-12), then the next seat deals from all 56 cards reshuffled with the chance stream.
- The exchange (PA-8, PA-9) is four sequential decisions starting after the dealer; a given card
  leaves the giver's hand into the giver's private ``given`` slot and reaches the partner only
  when all four have chosen, so the second chooser of a pair never sees the first one's card.
  Every deal's play starts with the seat after the dealer and goes by seat, skipping empty hands.
- A player with no usable card has exactly one legal move, ``MOVE_DISCARD`` (discard the hand);
  it stays a decision so traces show it.
- Landing on a single piece of another colour (partner included) knocks it out; landing on two or
  more pieces of one other colour knocks the moving piece out (counted as suffered by its colour,
  given by nobody). Passing never knocks out.
- PA-3 bounce (``house_overshoot=bounce``): the piece walks to the furthest house space it can
  reach without passing a piece (the entrance space if house space 1 is taken) and walks the rest
  back, onto the ring if need be (passing start spaces on the way back counts as passing).
  A bounce may end on the space it started from. Each sub-move of a 7 is a forward move and
  bounces the same way.
- PA-5, the 7: sub-moves over the mover's own pieces in play (start, ring or house) using all 7
  steps, each piece once. If no such split exists, the own pieces take as many steps as they can
  (the most any legal own sequence uses) and the partner's pieces the rest, but only if that own
  part brings all four own pieces home (the issue: "the rest to the partner when one's own pieces
  finish"); otherwise the 7 is not usable. A player whose pieces are all home splits the 7 over
  the partner's pieces only. With the shipped 4 house spaces "as many as they can" changes
  nothing: four pieces home fill the house, so every own part that brings them home takes the
  same steps. With a larger house (``board.house`` 5..8) own pieces already home may still move
  further in, and this project keeps the reading above (issue 38): the own part takes as many
  steps as it can before the rest goes to the partner, never fewer to hand the partner more.
  Why: PA-5 sends to the partner only "the steps left over" once one's own part is done, and
  makes a 7 that one's own pieces "cannot absorb" unusable, so the 7 is one's own card first; the
  rulebook's "as soon as one has got one's pieces into the house, one helps the other" describes
  the cards after that, not a choice to stop short inside one card; and it is the one reading
  under which the 7 of a 4-space house and of a larger one follow the same rule.
- PA-11 for single-piece moves (rules version 2, issue 38): the moves of one card that leave the
  same board are one move, the smallest code. With the shipped table this happens when the Ace's
  1 and 14 both land on protected pairs (the mover is knocked out either way); with other tables
  also when two step counts of one card bounce to the same house or ring space, or when pieces
  bounce back to where they stood. Version 1 listed one move per step count and piece there
  (both engines), so a random or search player could pick among what the rules call one move:
  games of version 1 with such a position play differently now, hence the new version.
- Every card moves a piece less than one lap of the ring (issue 38): ``playable`` refuses a table
  whose forward, forward_alt or back steps reach ``4 x board.section``. PA-4 allows no second lap,
  and a whole lap is not a move of the game: a back move of exactly one lap leaves the board as it
  was, one further would pass the piece's own start space and its own spot again, and a bounce
  can walk back past its own start space only after a forward move of a lap or more (the walk
  back is at most ``steps - free house spaces`` long, so it ends on the ring after the own start
  when every move is shorter than a lap). Before this rule the two engines read such tables
  differently. The shipped table (ring 56, longest move 14) is far from it.
- A player with all 4 pieces home plays every card for the partner's pieces (PA's last rule):
  Start puts a partner's piece on the partner's start, -4 moves a partner's piece, and so on.
- Score: the winning team 1, the other 0; a game stopped at the deal cap (PA-7) gives everyone 0
  and rank 1 and is flagged ``truncated``.
- Result columns: ``deals`` dealt; ``pieces_home`` of the seat's colour; ``knockouts_given``
  (pieces of other colours the seat's cards knocked out, partner's included);
  ``knockouts_suffered`` (the seat's colour knocked out, by anyone or by landing on a pair);
  ``swaps`` (Swap cards the seat played); ``truncated`` (1 if the game hit the deal cap);
  ``leader_at_two_thirds`` (the same in every row): the team leading after deal
  ``ceil(2 * deals / 3)`` (the first deal by which two thirds of the game's deals are played),
  as its first seat (0 or 1), -1 if level. Truncated games get a value too.
- The lead (for ``leader_at_two_thirds``): teams are compared on progress, first the pieces in
  the houses of the team's two colours, then the total distance of its 8 pieces (the sum of
  their track codes: outside and the start space 0, a numbered space 1..RING steps from its own
  start, house space h RING + h); the team ahead on both in that order leads. It is taken at the
  end of every deal (when the last hand is empty, or when a team wins in the middle of a deal)
  into ``LEAD_HIST``.

Move codes (int64; the kind of the card in bits 58..61; legal moves are written ascending)::

    single piece  kind<<58 | steps<<7 | t            t = track code of the piece moved (of the
                                                     mover's colour: the partner's once all
                                                     own pieces are home); steps 1 or 14 for the
                                                     Ace, 4 for -4 (backwards by its kind)
    start a piece kind<<58 | 0<<7 | 127              Start, 8 or 13 used to enter a piece
    swap          kind<<58 | a<<7 | b                a < b absolute numbered spaces (0..RING-1)
    swap, no-op   kind<<58                           two pieces of one colour (PA-11): one move
    7 split       kind<<58 | n_own<<55 | comp<<49 | p1<<42 | p2<<35 | ... | p7
                  the sub-moves in the chosen order: p_i the track code (at the start of the
                  move) of the i-th piece moved, own colour for i <= n_own, the partner's after;
                  comp packs the steps: the cut points c (cumulative steps after each sub-move
                  but the last) are the zero bits of comp, bit 6 - c; comp = 63 for one piece
                  moving 7. Codes order the step sequences lexicographically. Splits with the
                  same outcome (every piece's final place) are one move: the smallest code.
    give a card   MOVE_GIVE + kind                   exchange (PA-8): the lowest card of that kind
    discard       MOVE_DISCARD                       no card usable: discard the whole hand

Card kinds (``kind``): 0 Start, 1 Ace (1/14), 2, 3, 4 (the -4), 5, 6, 7 (split), 8, 9, 10,
11 Swap, 12, 13. Cards are numbered ``0 .. N_CARDS-1`` in kind order (default: card // 4 =
kind); a hand holds card ids ascending and a move uses the lowest card of its kind.

Determinization (the search's sampler, issue 12): ``determinize(public, private, state, rng)``
fills ``state`` with a complete state consistent with what the seat to move knows from its
views, every hidden part drawn uniformly from what is still possible with ``rng`` only:

- Known and copied: the public part (board, hand sizes, pile size, which cards were played or
  discarded since the last reshuffle: ``CARD_PUB``), the seat's own private part. The card the
  seat gave its partner (``PV_GIVEN``) stays in the partner's hand while ``CARD_PUB`` shows it
  unplayed (cards are unique, so the giver can tell whether the partner has played it); the card
  it received is in its own hand or played. The partner's exchange slots are the mirror of its own.
- Drawn: the unseen cards (not in ``CARD_PUB``, not the seat's hand, not its held given card)
  are shuffled uniformly (one Fisher-Yates over them) and split, in seat order after the seat,
  over the other hands (their public sizes), in the exchange the cards set aside by the seats
  that gave before this one, and the pile (its order too: the next deals of this dealer come
  from it). So each hidden card lands in each place in proportion to its free slots. The
  already dealt part of the deck (``DECK[0, S_DECK_POS)``) holds every other card ascending.
- In play, the opponents' exchange (the card q received from its partner, its ``PV_RECEIVED``
  and the partner's ``PV_GIVEN``) is one of the 4 cards q held after the exchange: with
  probability size/4 a uniform card of q's drawn hand, else a uniform card among those played
  or discarded since the reshuffle (who played which card is not in the views; the kernel
  never reads these slots after the exchange and no heuristic reads another seat's slots).
- Not drawn: the work tables, the hash table and the deal history ``LEAD_HIST`` are zeroed
  (the history only feeds the ``leader_at_two_thirds`` result column, not the score).

Seat compensation (issue 42): Partners declares no compensation lever. It is a race home with
no score to hand a seat a head start in, and its teams are even today (docs/design/partners.md:
within ±0.9 pp at the strong level); a lever would be a start position or a card, a change of
the rules rather than of a number.

State layout (int32, ``STATE_SIZE`` long). It is declared once, as ``LAYOUT`` below: each offset
is a module constant made from it (find where a name is declared with ``grep -n '"PIECE"'
rules.py``), and this table is generated from it when the module is loaded::
"""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
from numba import njit

from ... import kernel
from ...seeding import below, shuffle
from ..components import Components, Value
from ..layout import Layout, Params

NAME = "partners"
#: bumped whenever the behaviour of the rules (and so any result) changes
RULES_VERSION = 2  # 2: PA-11 for single-piece moves (see the module docstring)
N_PLAYERS = 4
PIECES = 4
HAND_SIZE = 4

# ----------------------------------------------------------------------------- PA-1: the board
MAX_SECTION = 20
MAX_HOUSE = 8
MAX_RING = 4 * MAX_SECTION
OUTSIDE = 127

# ----------------------------------------------------------------------------- PA-2: the deck
K_START, K_ACE, K_2, K_3, K_MINUS4, K_5, K_6, K_7, K_8, K_9, K_10, K_SWAP, K_12, K_13 = range(14)
KIND_NAMES = ("Start", "Ace", "2", "3", "-4", "5", "6", "7", "8", "9", "10", "Swap", "12", "13")
N_KINDS = 14
#: what S_DEALT counts (kernel.py): cards by kind
DEALT_KINDS = KIND_NAMES
E_FWD, E_FWD2, E_START, E_BACK, E_SPLIT, E_SWAP = range(6)
N_EFFECTS = 6
EFFECT_KEYS = ("forward", "forward_alt", "start", "back", "split", "swap")  # components.toml [effects]
DEALS_PER_DEALER = 3
MAX_DEALS = 500  # PA-7
#: the deal history (LEAD_HIST): 2 bits per deal, 15 deals per int32 word (the sign bit unused)
LEADS_PER_WORD = 15
HIST_WORDS = (MAX_DEALS + LEADS_PER_WORD - 1) // LEADS_PER_WORD
MAX_CARDS = 64
MAX_SPLIT = 7  # the split kind's steps must fit the 6-bit comp field
MAX_STEPS = 63  # forward / back steps must fit the move code's 6-bit steps field


# ----------------------------------------------------------------------------- components (PA-1, PA-2)
def kind_problem(name: str, row) -> str | None:
    """Why a kind's effect row (E_FWD .. E_SWAP) is not one the kernel plays, or None: a kind
    belongs to one family (forward and/or start, back, split, swap), and its forward_alt, when
    given, differs from its forward steps."""
    families = ((row[E_FWD] > 0 or row[E_FWD2] > 0 or row[E_START] > 0) + (row[E_BACK] > 0)
                + (row[E_SPLIT] > 0) + (row[E_SWAP] > 0))
    if families > 1:
        return (f"the {name} card mixes effects of {families} families; a kind either moves forward "
                f"and/or starts a piece, or moves back, or splits, or swaps")
    if row[E_FWD2] > 0 and row[E_FWD2] == row[E_FWD]:
        return f"the {name} card's forward_alt repeats its forward steps ({row[E_FWD]}); set it to 0"
    if row[E_SPLIT] > MAX_SPLIT:
        return f"the {name} card's split must be at most {MAX_SPLIT}, got {row[E_SPLIT]}"
    return None


def _playable(table: dict, n_players: int) -> str | None:
    """Why a component table cannot make a playable game, or None: the deck holds from 48 cards
    (a dealer's three deals) to 64; each kind's effects belong to one family; and every card moves
    a piece less than one lap of the ring (forward, forward_alt and back steps below
    4 x board.section: a move of a whole lap is not a move of the game, see the module's docs)."""
    counts = table["deck"]["counts"]
    n_cards = sum(counts)
    least = N_PLAYERS * HAND_SIZE * DEALS_PER_DEALER
    if not least <= n_cards <= MAX_CARDS:
        return (f"deck.counts: the deck holds {n_cards} cards; it must hold from {least} (a dealer's "
                f"{DEALS_PER_DEALER} deals of {HAND_SIZE} cards to {N_PLAYERS} seats) to {MAX_CARDS}")
    effects = table["effects"]
    for k, name in enumerate(KIND_NAMES):
        why = kind_problem(name, [effects[key][k] for key in EFFECT_KEYS])
        if why:
            return f"effects: {why}"
    section = table["board"]["section"]
    ring = N_PLAYERS * section
    for key, how in (("forward", "forward"), ("forward_alt", "forward"), ("back", "back")):
        for k, name in enumerate(KIND_NAMES):
            steps = effects[key][k]
            if steps >= ring:
                return (f"effects.{key}: the {name} card moves {steps} spaces {how}, a whole lap of the "
                        f"{ring}-space ring or more ({N_PLAYERS} x board.section {section}); every move "
                        f"must be shorter than one lap (at most {ring - 1})")
    return None


COMPONENTS = Components(NAME, Path(__file__).with_name("components.toml"), values=[
    Value("deck.counts", 0, 16, "copies of each card kind in the deck", length=N_KINDS, names=KIND_NAMES, reach=2),
    Value("effects.forward", 0, MAX_STEPS, "steps one piece moves forward", length=N_KINDS,
          names=KIND_NAMES, reach=3, keep_zero=True),
    Value("effects.forward_alt", 0, MAX_STEPS, "the other number of forward steps the card offers",
          length=N_KINDS, names=KIND_NAMES, reach=3, keep_zero=True),
    Value("effects.start", 0, 1, "1: the card may start a piece", length=N_KINDS, names=KIND_NAMES,
          designable=False),
    Value("effects.back", 0, MAX_STEPS, "steps one piece moves backward", length=N_KINDS,
          names=KIND_NAMES, reach=3, keep_zero=True),
    Value("effects.split", 0, MAX_SPLIT, "steps shared out over the mover's pieces", length=N_KINDS,
          names=KIND_NAMES, reach=3, keep_zero=True),
    Value("effects.swap", 0, 1, "1: the card swaps two pieces", length=N_KINDS, names=KIND_NAMES,
          designable=False),
    Value("board.section", 4, MAX_SECTION, "numbered spaces in each colour's section", reach=2),
    Value("board.house", PIECES, MAX_HOUSE, "house spaces of each colour", reach=1),
], playable=_playable, nearest={kind: (f"deck.counts[{kind}]", -1) for kind in KIND_NAMES})  # one fewer copy
#: the defaults as the kernel's tables (components.toml is their one source)
BOARD_SECTION = COMPONENTS.defaults["board"]["section"]
BOARD_HOUSE = COMPONENTS.defaults["board"]["house"]
DECK_COUNTS = np.array(COMPONENTS.defaults["deck"]["counts"], dtype=np.int32)


def kind_effects(table: dict) -> np.ndarray:
    """The [N_KINDS, N_EFFECTS] effect table of a component table (columns E_FWD .. E_SWAP)."""
    return np.array([table["effects"][key] for key in EFFECT_KEYS], dtype=np.int32).T.copy()


KIND_EFFECTS = kind_effects(COMPONENTS.defaults)

PHASE_EXCHANGE, PHASE_PLAY, PHASE_OVER = 0, 1, 2
CP_UNSEEN, CP_PLAYED, CP_DISCARDED, CP_NONE = 0, 1, 2, -1
KIND_SHIFT = 58
MOVE_GIVE = np.int64(14) << np.int64(KIND_SHIFT)
MOVE_DISCARD = np.int64(15) << np.int64(KIND_SHIFT)

# ---- state layout: declared once (see simulate/games/layout.py); the table ends the docstring
MAX_VARIANTS = 16  # own variants of a mixed 7 the work area holds
MAX_ENTRIES = 1024  # outcomes of one 7 the hash table holds
HSIZE = 2048  # hash table slots
LAYOUT = Layout(
    public=[
        ("H_PLAYERS", 1, "4"),
        ("H_OVERSHOOT", 1, "0 illegal / 1 bounce"),
        ("H_MAX_DEALS", 1, "the deal cap (PA-7)"),
        ("H_DEALS_PER_DEALER", 1, "3"),
        ("H_SECTION", 1, "14"),
        ("H_HOUSE", 1, "4"),
        ("H_RING", 1, "56"),
        ("H_N_CARDS", 1, "56"),
        ("H_PHASE", 1, "PHASE_EXCHANGE / PHASE_PLAY / PHASE_OVER"),
        ("H_TO_MOVE", 1, "seat or -1"),
        ("H_DEALER", 1, "the dealer's seat"),
        ("H_DEALS", 1, "deals dealt so far"),
        ("H_DEALER_DEALS", 1, "deals by this dealer"),
        ("H_EXCHANGED", 1, "gives in this deal's exchange"),
        ("H_PILE", 1, "cards in the pile"),
        ("H_WINNER", 1, "team or -1"),
        ("H_TRUNCATED", 1, "1 if the game hit the deal cap"),
        ("HAND_COUNT", N_PLAYERS, "cards in each hand"),
        ("HOME", PIECES, "pieces in the house, per colour"),
        ("OUT", PIECES, "pieces outside, per colour"),
        ("START_CNT", PIECES, "pieces on the start space, per colour"),
        ("HOUSE_MASK", PIECES, "bit h-1 = house space h taken, per colour"),
        ("KO_GIVEN", N_PLAYERS, "knockouts given, per seat"),
        ("KO_SUFFERED", N_PLAYERS, "knockouts suffered, per colour"),
        ("SWAPS", N_PLAYERS, "Swap cards played, per seat"),
        ("PIECE", (N_PLAYERS, PIECES), "track codes, colour c at PIECE + 4c, ascending (OUTSIDE last)"),
        ("RING_COL", MAX_RING, "colour on each absolute numbered space or -1"),
        ("RING_CNT", MAX_RING, "pieces there"),
        ("KIND_TABLE", (N_KINDS, N_EFFECTS), "effects per kind: forward, forward alt, start, back, "
                                             "split, swap"),
        ("CARD_KIND", MAX_CARDS, "kind of each card id"),
        ("CARD_PUB", MAX_CARDS, "CP_UNSEEN (a hand or the pile), CP_PLAYED, CP_DISCARDED (face up), "
                                "CP_NONE beyond the deck"),
    ],
    private=[
        ("PV_SIZE", 1, "hand size"),
        ("PV_HAND", HAND_SIZE, "hand card ids ascending (-1 beyond)"),
        ("PV_GIVEN", 1, "the card p gave this deal (-1)"),
        ("PV_RECEIVED", 1, "the card p received"),
        (None, 1, "unused"),
    ],
    seats=N_PLAYERS,
    scratch=[
        ("S_DECK_POS", 1, "cards of DECK dealt"),
        ("DECK", MAX_CARDS, "the shuffled deck"),
        ("S_DEALT", (N_PLAYERS, N_KINDS), "cards dealt to each seat over the game's deals, per kind "
                                          "(DEALT_KINDS)"),
        "the 7-split work area:",
        ("W_T", PIECES, "track code per piece slot"),
        ("W_LIM", PIECES, "most steps statically possible"),
        ("W_CAT", (PIECES, 8), "category of (slot, steps)"),
        ("W_FIN", (PIECES, 8), "final track code of a ring move (after landing)"),
        ("W_SUB_I", 8, "sub-moves of the current candidate: slot"),
        ("W_SUB_S", 8, "steps"),
        ("W_ORD", 8, "order / sort keys"),
        ("W_FINALS", PIECES, "final track codes of the phase colour"),
        ("W_SEQ_S", 8, "full sequence: steps"),
        ("W_SEQ_P", 8, "full sequence: positions"),
        ("V_N", 1, "number of own variants (mixed 7)"),
        ("V_KEY", MAX_VARIANTS, "packed own finals"),
        ("V_LEN", MAX_VARIANTS, "sequence length"),
        ("V_CODE_HI", MAX_VARIANTS, "comparable prefix code, high 31 bits"),
        ("V_CODE_LO", MAX_VARIANTS, "low 31 bits"),
        ("V_S", (MAX_VARIANTS, 8), "steps"),
        ("V_P", (MAX_VARIANTS, 8), "positions"),
        ("PRE_N", 1, "prefix length"),
        ("PRE_S", 8, "prefix (own part of a mixed 7): steps"),
        ("PRE_P", 8, "positions"),
        ("SW_A", 16, "swappable pieces: space"),
        ("SW_C", 16, "colour"),
        ("S_N_ENTRIES", 1, "outcomes of this 7 so far"),
        ("S_OVERFLOW", 1, "1: a 7 had more than MAX_ENTRIES outcomes (never seen)"),
        ("EK_LO", MAX_ENTRIES, "outcome key of each entry, low"),
        ("EK_HI", MAX_ENTRIES, "high"),
        "not shown to a strategy either, but game state (a position holds it as ``leads``):",
        ("LEAD_HIST", HIST_WORDS, "the leading team at the end of each deal, 2 bits a deal: deal d "
                                  "(1-based) at word (d - 1) // 15, bits 2 * ((d - 1) % 15) and up; "
                                  "the code is leader + 1 (0 level or not played yet, 1 team 0, 2 "
                                  "team 1)"),
        ("ZERO_END", 0, "init zeroes [0, ZERO_END); the hash table keeps its stamps"),
        ("S_STAMP", 1, "the hash table's current stamp"),
        ("HT_STAMP", HSIZE, "stamp of each slot (a slot of an older stamp is free)"),
        ("HT_IDX", HSIZE, "entry of each slot"),
    ],
)
LAYOUT.install(globals())  # H_PLAYERS = 0, ..., STATE_SIZE, public_view, private_view, the table
#: the views' pieces above and these constants are published for strategies (tourney_sim.views):
#: bumped whenever any of them changes
VIEWS_VERSION = 1
STRATEGY_CONSTANTS = {
    "N_PLAYERS": "seats; seat p plays colour p, teams {0, 2} and {1, 3}",
    "PIECES": "pieces per colour", "HAND_SIZE": "cards dealt to each hand",
    "OUTSIDE": "PIECE track code of a piece off the board (0 its start space, 1..H_RING the "
               "numbered spaces from it, H_RING + h house space h)",
    "MAX_RING": "entries of RING_COL and RING_CNT", "MAX_CARDS": "entries of CARD_KIND and CARD_PUB",
    "N_KINDS": "card kinds", "K_START": "card kind Start", "K_ACE": "kind Ace (1 or 14)",
    "K_2": "kind 2", "K_3": "kind 3", "K_MINUS4": "kind -4 (backwards)", "K_5": "kind 5", "K_6": "kind 6",
    "K_7": "kind 7 (split)", "K_8": "kind 8", "K_9": "kind 9", "K_10": "kind 10", "K_SWAP": "kind Swap",
    "K_12": "kind 12", "K_13": "kind 13",
    "N_EFFECTS": "KIND_TABLE entries per kind (KIND_TABLE + kind * N_EFFECTS + E_*)",
    "E_FWD": "KIND_TABLE: forward steps", "E_FWD2": "KIND_TABLE: alternative forward steps",
    "E_START": "KIND_TABLE: 1 if the kind starts a piece", "E_BACK": "KIND_TABLE: backward steps",
    "E_SPLIT": "KIND_TABLE: steps split over pieces (the 7)", "E_SWAP": "KIND_TABLE: 1 if it swaps",
    "PHASE_EXCHANGE": "H_PHASE: the exchange (moves MOVE_GIVE + kind)", "PHASE_PLAY": "H_PHASE: play",
    "PHASE_OVER": "H_PHASE: the game is over",
    "CP_UNSEEN": "CARD_PUB: in a hand or the pile", "CP_PLAYED": "CARD_PUB: played",
    "CP_DISCARDED": "CARD_PUB: discarded face up", "CP_NONE": "CARD_PUB: beyond the deck",
    "KIND_SHIFT": "a move's card kind is move >> KIND_SHIFT (a card move: kind << KIND_SHIFT | steps "
                  "<< 7 | track code, see the rules)",
    "MOVE_GIVE": "move MOVE_GIVE + kind: give the partner the lowest card of that kind",
    "MOVE_DISCARD": "move: no card usable, discard the hand",
}

#: most legal moves at one decision: splits, swaps (<= 1 + C(16, 2)) and single moves
MAX_MOVES = MAX_ENTRIES + 256
#: per deal at most 4 gives and 16 plays (a discard empties a hand)
DECISIONS_PER_DEAL = 4 + 4 * HAND_SIZE

# categories of a (piece, steps) sub-move
CAT_BAD, CAT_RING, CAT_HOUSE = 0, 1, 2
# actions of the phase enumeration
ACT_INSERT, ACT_CHECK, ACT_HOME = 0, 1, 2


def _perm_table():
    rows, offsets = [], []
    for k in range(5):
        offsets.append(len(rows))
        for p in itertools.permutations(range(k)):
            rows.append(list(p) + [0] * (4 - k))
    offsets.append(len(rows))
    return np.array(rows, dtype=np.int64), np.array(offsets, dtype=np.int64)


PERMS, PERM_OFF = _perm_table()


# ----------------------------------------------------------------------------- board helpers
@njit(cache=True, inline="always")
def abs_space(st, c, t):
    """Absolute numbered space (0..RING-1) of colour c's ring track code t (1..RING)."""
    a = t - 1 + st[H_SECTION] * c
    if a >= st[H_RING]:
        a -= st[H_RING]
    return a


@njit(cache=True, inline="always")
def track_of(st, c, a):
    """Track code of absolute numbered space a for colour c."""
    t = a - st[H_SECTION] * c
    if t < 0:
        t += st[H_RING]
    return t + 1


@njit(cache=True, inline="always")
def swap_side(st, move, side):
    """One of the two pieces a Swap ``move`` exchanges (side 0: the piece on the space in bits
    7-13, side 1: the one in bits 0-6): its colour, its space, the space it goes to, and its track
    code before and after. (A Swap with both spaces 0 changes nothing: the caller checks.)"""
    a = np.int64((move >> np.int64(7)) & np.int64(127))
    b = np.int64(move & np.int64(127))
    x = a if side == 0 else b
    y = b if side == 0 else a
    q = st[RING_COL + x]
    return q, x, y, track_of(st, q, x), track_of(st, q, y)


@njit(cache=True, inline="always")
def crosses(st, c, lo, hi):
    """Does a path of colour c between track codes lo < hi (start/ring, either direction) pass
    the start space of another colour that holds a piece? (Own start: passed freely.)"""
    sec = st[H_SECTION]
    b = sec
    for d in range(1, 4):
        if lo <= b and b < hi and st[START_CNT + ((c + d) & 3)] > 0:
            return True
        b += sec
    return False


@njit(cache=True, inline="always")
def fwd_dest(st, c, t, s, mask):
    """Where colour c's piece at track t lands moving s forward with house mask ``mask``, or -1
    if the move is illegal (start blocks, house exactness and passing, PA-3/PA-4)."""
    ring = st[H_RING]
    t1 = t + s
    if t > ring:  # in the house: only further in, exactly, passing nobody; never bounces
        if t1 > ring + st[H_HOUSE]:
            return -1
        span = ((1 << (t1 - ring)) - 1) & ~((1 << (t - ring)) - 1)
        if mask & span:
            return -1
        return t1
    if t1 <= ring:
        if crosses(st, c, t, t1):
            return -1
        return t1
    if crosses(st, c, t, ring):
        return -1
    h = t1 - ring
    if h <= st[H_HOUSE] and (mask & ((1 << h) - 1)) == 0:
        return t1
    if st[H_OVERSHOOT] == 0:
        return -1
    free = 0
    while free < st[H_HOUSE] and ((mask >> free) & 1) == 0:
        free += 1
    final = 2 * (ring + free) - t1
    if final > ring:
        return final
    if final < 1 or crosses(st, c, final, ring):
        return -1
    return final


@njit(cache=True, inline="always")
def back_dest(st, c, t, s):
    """Where colour c's piece at track t (start or ring) lands moving s backwards, or -1.
    The own start space does not count as a step and is passed freely: from it, the first step
    backwards reaches the house entrance (PA: -4 from the start)."""
    ring = st[H_RING]
    if t > ring:
        return -1
    t0 = t if t > 0 else 1
    t1 = t0 - s
    if t1 >= 1:
        if crosses(st, c, t1, t0):
            return -1
        return t1
    t1 += ring
    if t1 < 1 or crosses(st, c, 1, t0) or crosses(st, c, t1, ring):
        return -1
    return t1


@njit(cache=True, inline="always")
def landing(st, c, d):
    """Final track code of colour c's piece landing on track d: OUTSIDE if d is a numbered
    space holding two or more pieces of one other colour, else d."""
    if d >= 1 and d <= st[H_RING]:
        a = abs_space(st, c, d)
        q = st[RING_COL + a]
        if q >= 0 and q != c and st[RING_CNT + a] >= 2:
            return OUTSIDE
    return d


@njit(cache=True, inline="always")
def _lift(st, c, t):
    """Take one piece of colour c at track t off the occupancy tables."""
    ring = st[H_RING]
    if t == OUTSIDE:
        st[OUT + c] -= 1
    elif t == 0:
        st[START_CNT + c] -= 1
    elif t <= ring:
        a = abs_space(st, c, t)
        st[RING_CNT + a] -= 1
        if st[RING_CNT + a] == 0:
            st[RING_COL + a] = -1
    else:
        st[HOUSE_MASK + c] &= ~(1 << (t - ring - 1))
        st[HOME + c] -= 1


@njit(cache=True, inline="always")
def _drop(st, c, t):
    """Put one piece of colour c at track t on the occupancy tables."""
    ring = st[H_RING]
    if t == OUTSIDE:
        st[OUT + c] += 1
    elif t == 0:
        st[START_CNT + c] += 1
    elif t <= ring:
        a = abs_space(st, c, t)
        st[RING_CNT + a] += 1
        st[RING_COL + a] = c
    else:
        st[HOUSE_MASK + c] |= 1 << (t - ring - 1)
        st[HOME + c] += 1


@njit(cache=True, inline="always")
def _sort_colour(st, c):
    base = PIECE + 4 * c
    for i in range(base + 1, base + 4):
        v = st[i]
        j = i - 1
        while j >= base and st[j] > v:
            st[j + 1] = st[j]
            j -= 1
        st[j + 1] = v


@njit(cache=True, _nrt=False)
def _move_to(st, c, i, d, seat):
    """Move piece slot i of colour c to track d (a legal destination), applying the landing
    rule: a single piece of another colour there is knocked out, two or more knock the mover out.
    Slots are not re-sorted here."""
    t = st[PIECE + 4 * c + i]
    _lift(st, c, t)
    if d >= 1 and d <= st[H_RING]:
        a = abs_space(st, c, d)
        q = st[RING_COL + a]
        if q >= 0 and q != c:
            if st[RING_CNT + a] == 1:
                tq = track_of(st, q, a)
                for j in range(4):
                    if st[PIECE + 4 * q + j] == tq:
                        st[PIECE + 4 * q + j] = OUTSIDE
                        break
                _lift(st, q, tq)
                _drop(st, q, OUTSIDE)
                st[KO_GIVEN + seat] += 1
                st[KO_SUFFERED + q] += 1
            else:
                d = OUTSIDE
                st[KO_SUFFERED + c] += 1
    st[PIECE + 4 * c + i] = d
    _drop(st, c, d)


@njit(cache=True, inline="always")
def mover_colour(st, seat):
    """The colour a seat's cards move: its own, or its partner's once its 4 pieces are home."""
    if st[HOME + seat] == PIECES:
        return seat ^ 2
    return seat


# ----------------------------------------------------------------------------- 7 enumeration
@njit(cache=True, inline="always")
def _ht_insert(st, moves, n0, klo, khi, code):
    """Record outcome (klo, khi) reached by ``code``: new outcomes append to moves[n0 + e];
    a known outcome keeps the smaller code (PA-11)."""
    h = ((np.int64(klo) * np.int64(0x9E3779B1)) ^ (np.int64(khi) * np.int64(0x85EBCA77))) >> 7
    h = h & (HSIZE - 1)
    stamp = st[S_STAMP]
    while True:
        if st[HT_STAMP + h] != stamp:
            e = st[S_N_ENTRIES]
            if e >= MAX_ENTRIES:  # legal_moves reports it: never a silently shortened list
                st[S_OVERFLOW] = 1
                return
            st[HT_STAMP + h] = stamp
            st[HT_IDX + h] = e
            st[EK_LO + e] = klo
            st[EK_HI + e] = khi
            moves[n0 + e] = code
            st[S_N_ENTRIES] = e + 1
            return
        e = st[HT_IDX + h]
        if st[EK_LO + e] == klo and st[EK_HI + e] == khi:
            if code < moves[n0 + e]:
                moves[n0 + e] = code
            return
        h = (h + 1) & (HSIZE - 1)


@njit(cache=True, inline="always")
def _seq_code(kind, n_own, total, st, base_s, base_p, n):
    """The code of a split whose sub-moves are steps st[base_s + j], pieces st[base_p + j]."""
    comp = 0
    for c in range(1, total):
        comp |= 1 << (6 - c)
    cum = 0
    for j in range(n - 1):
        cum += st[base_s + j]
        comp &= ~(1 << (6 - cum))
    code = (np.int64(kind) << np.int64(KIND_SHIFT)) | (np.int64(n_own) << np.int64(55)) \
        | (np.int64(comp) << np.int64(49))
    for j in range(n):
        code |= np.int64(st[base_p + j]) << np.int64(42 - 7 * j)
    return code


@njit(cache=True, inline="always")
def _pack4(st, base):
    """Sort st[base:base+4] ascending in place and pack it into 28 bits."""
    for i in range(base + 1, base + 4):
        v = st[i]
        j = i - 1
        while j >= base and st[j] > v:
            st[j + 1] = st[j]
            j -= 1
        st[j + 1] = v
    return st[base] | (st[base + 1] << 7) | (st[base + 2] << 14) | (st[base + 3] << 21)


@njit("int64(int32[::1], int64[::1], int64, int64, int64, int64, int64, boolean, int64, int64, int64, boolean)", cache=True, _nrt=False)
def _candidate(st, moves, n0, kind, colour, grand_total, act, own_part, tag, k, row, use_perm):
    """Try one ordered split of the phase colour. Sub-move j moves slot W_SUB_I[x] by
    W_SUB_S[x] steps, x = W_ORD[j] (or PERMS[row, j] when ``use_perm``). Ring sub-moves were
    checked statically; house sub-moves are checked here in order against the evolving house.
    Returns 1 if legal (and then checks / records it as ``act`` says), else 0."""
    ring = st[H_RING]
    mask = st[HOUSE_MASK + colour]
    for i in range(4):
        st[W_FINALS + i] = st[W_T + i]
    pre = st[PRE_N]
    for j in range(k):
        if use_perm:
            x = PERMS[row, j]
        else:
            x = st[W_ORD + j]
        i = st[W_SUB_I + x]
        s = st[W_SUB_S + x]
        t = st[W_T + i]
        if st[W_CAT + 8 * i + s] == CAT_RING:
            st[W_FINALS + i] = st[W_FIN + 8 * i + s]
        else:
            d = fwd_dest(st, colour, t, s, mask)
            if d < 0:
                return 0
            if t > ring:
                mask &= ~(1 << (t - ring - 1))
            if d > ring:
                mask |= 1 << (d - ring - 1)
            st[W_FINALS + i] = landing(st, colour, d)
        st[W_SEQ_S + pre + j] = s
        st[W_SEQ_P + pre + j] = t
    if act == ACT_CHECK:
        return 1
    key = _pack4(st, W_FINALS)
    if act == ACT_HOME:
        for i in range(4):
            if st[W_FINALS + i] <= ring or st[W_FINALS + i] == OUTSIDE:
                return 1  # legal, but does not bring every own piece home
        code = _seq_code(0, k, grand_total, st, W_SEQ_S, W_SEQ_P, k)
        hi = np.int32(code >> np.int64(31))
        lo = np.int32(code & np.int64(0x7FFFFFFF))
        nv = st[V_N]
        v = nv
        for u in range(nv):
            if st[V_KEY + u] == key:
                v = u
                break
        if v == nv:
            if nv >= MAX_VARIANTS:
                return 1
            st[V_N] = nv + 1
            st[V_KEY + v] = key
        elif hi > st[V_CODE_HI + v] or (hi == st[V_CODE_HI + v] and lo >= st[V_CODE_LO + v]):
            return 1
        st[V_CODE_HI + v] = hi
        st[V_CODE_LO + v] = lo
        st[V_LEN + v] = k
        for j in range(k):
            st[V_S + 8 * v + j] = st[W_SEQ_S + j]
            st[V_P + 8 * v + j] = st[W_SEQ_P + j]
        return 1
    n_all = pre + k
    n_own = n_all if own_part else pre
    code = _seq_code(kind, n_own, grand_total, st, W_SEQ_S, W_SEQ_P, n_all)
    _ht_insert(st, moves, n0, key, tag, code)
    return 1


@njit("int64(int32[::1], int64[::1], int64, int64, int64, int64, int64, boolean, int64)", cache=True, _nrt=False)
def _enum_phase(st, moves, n0, kind, colour, total, act, own_part, tag):
    """Every split of ``total`` steps over ``colour``'s pieces in play, each moved at most once,
    after the prefix PRE_* (the own part of a mixed 7). Enumerates step assignments per piece
    slot; ring sub-moves commute (start blocks, pairs and the landing rule do not change during
    one colour's sub-moves), so with at most one house sub-move every order is legal with one
    outcome and the smallest code sorts the sub-moves by (steps, piece); with two or more house
    sub-moves every order is tried. Returns how many legal splits were found (ACT_CHECK: 0/1)."""
    ring = st[H_RING]
    pre = st[PRE_N]
    grand = total
    for j in range(pre):
        st[W_SEQ_S + j] = st[PRE_S + j]
        st[W_SEQ_P + j] = st[PRE_P + j]
        grand += st[PRE_S + j]
    last = ring + st[H_HOUSE]
    bounce = st[H_OVERSHOOT]
    for i in range(4):
        t = st[PIECE + 4 * colour + i]
        st[W_T + i] = t
        lim = 0
        if t != OUTSIDE:
            for s in range(1, total + 1):
                if t > ring:
                    if t + s > last:
                        break
                    st[W_CAT + 8 * i + s] = CAT_HOUSE
                elif t + s <= ring:
                    if crosses(st, colour, t, t + s):
                        break
                    st[W_CAT + 8 * i + s] = CAT_RING
                    st[W_FIN + 8 * i + s] = landing(st, colour, t + s)
                else:
                    if crosses(st, colour, t, ring) or (bounce == 0 and t + s > last):
                        break
                    st[W_CAT + 8 * i + s] = CAT_HOUSE
                lim = s
        st[W_LIM + i] = lim
    t0, t1, t2, t3 = st[W_T], st[W_T + 1], st[W_T + 2], st[W_T + 3]
    l0, l1, l2, l3 = st[W_LIM], st[W_LIM + 1], st[W_LIM + 2], st[W_LIM + 3]
    found = 0
    for s0 in range(l0 + 1):
        for s1 in range(l1 + 1):
            if s0 + s1 > total or (t1 == t0 and s1 > s0):
                break
            for s2 in range(l2 + 1):
                s3 = total - s0 - s1 - s2
                if s3 < 0 or (t2 == t1 and s2 > s1):
                    break
                if s3 > l3 or (t3 == t2 and s3 > s2):
                    continue
                k = 0
                h = 0
                for i in range(4):
                    s = s0 if i == 0 else (s1 if i == 1 else (s2 if i == 2 else s3))
                    if s > 0:
                        st[W_SUB_I + k] = i
                        st[W_SUB_S + k] = s
                        if st[W_CAT + 8 * i + s] == CAT_HOUSE:
                            h += 1
                        k += 1
                if h <= 1:
                    # order by (steps, track): the lexicographically smallest code
                    for j in range(k):
                        x = j
                        key = st[W_SUB_S + x] * 256 + st[W_T + st[W_SUB_I + x]]
                        y = j - 1
                        while y >= 0:
                            z = st[W_ORD + y]
                            if st[W_SUB_S + z] * 256 + st[W_T + st[W_SUB_I + z]] <= key:
                                break
                            st[W_ORD + y + 1] = z
                            y -= 1
                        st[W_ORD + y + 1] = x
                    found += _candidate(st, moves, n0, kind, colour, grand, act, own_part, tag,
                                        k, 0, False)
                else:
                    for row in range(PERM_OFF[k], PERM_OFF[k + 1]):
                        found += _candidate(st, moves, n0, kind, colour, grand, act, own_part,
                                            tag, k, row, True)
                if act == ACT_CHECK and found > 0:
                    return 1
    return found


@njit("int64(int32[::1], int64[::1], int64, int64, int64)", cache=True, _nrt=False)
def _gen_split(st, moves, n0, kind, seat):
    """Append the distinct 7 splits (PA-5, PA-11) to moves[n0:], ascending; returns the new n."""
    total = st[KIND_TABLE + kind * N_EFFECTS + E_SPLIT]
    stamp = st[S_STAMP] + 1
    if stamp >= 1 << 30:
        for h in range(HSIZE):
            st[HT_STAMP + h] = 0
        stamp = 1
    st[S_STAMP] = stamp
    st[S_N_ENTRIES] = 0
    st[S_OVERFLOW] = 0
    st[PRE_N] = 0
    own = seat
    partner = seat ^ 2
    if st[HOME + own] == PIECES:
        _enum_phase(st, moves, n0, kind, partner, total, ACT_INSERT, False, 0)
    else:
        _enum_phase(st, moves, n0, kind, own, total, ACT_INSERT, True, 0)
        # the partner may take steps only if all own pieces can be home after fewer than
        # ``total`` steps: none outside or on the start, ring pieces near the house
        can_finish = True
        for i in range(4):
            t = st[PIECE + 4 * own + i]
            if t == OUTSIDE or t < st[H_RING] + 2 - total:
                can_finish = False
        if st[S_N_ENTRIES] == 0 and can_finish:
            most = 0
            for tot in range(total - 1, 0, -1):
                if _enum_phase(st, moves, n0, kind, own, tot, ACT_CHECK, True, 0) > 0:
                    most = tot
                    break
            if most > 0:
                st[V_N] = 0
                _enum_phase(st, moves, n0, kind, own, most, ACT_HOME, True, 0)
                nv = st[V_N]
                if nv > 0:
                    ring = st[H_RING]
                    for i in range(4):  # every own piece ends in the house: off the ring
                        t = st[PIECE + 4 * own + i]
                        if t >= 1 and t <= ring:
                            _lift(st, own, t)
                    for v in range(nv):
                        st[PRE_N] = st[V_LEN + v]
                        for j in range(st[V_LEN + v]):
                            st[PRE_S + j] = st[V_S + 8 * v + j]
                            st[PRE_P + j] = st[V_P + 8 * v + j]
                        _enum_phase(st, moves, n0, kind, partner, total - most, ACT_INSERT,
                                    False, v + 1)
                    st[PRE_N] = 0
                    for i in range(4):
                        t = st[PIECE + 4 * own + i]
                        if t >= 1 and t <= ring:
                            _drop(st, own, t)
    if st[S_OVERFLOW]:
        return -1
    n = st[S_N_ENTRIES]
    for i in range(n0 + 1, n0 + n):
        v = moves[i]
        j = i - 1
        while j >= n0 and moves[j] > v:
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = v
    return n0 + n


@njit(cache=True, inline="always")
def _gen_kind(st, moves, n, kind, seat, m):
    """Append the legal moves of one card kind for the seat (moving colour m); returns new n."""
    kb = KIND_TABLE + kind * N_EFFECTS
    kc = np.int64(kind) << np.int64(KIND_SHIFT)
    ring = st[H_RING]
    if st[kb + E_SPLIT] > 0:
        return _gen_split(st, moves, n, kind, seat)
    if st[kb + E_SWAP] > 0:
        # swappable: alone on a numbered space (not start, house, or a protected pair)
        cnt = 0
        seen = 0
        null = False
        for a in range(ring):
            if st[RING_CNT + a] == 1:
                q = st[RING_COL + a]
                if (seen >> q) & 1:
                    null = True
                seen |= 1 << q
                st[SW_A + cnt] = a
                st[SW_C + cnt] = q
                cnt += 1
        if null:
            moves[n] = kc
            n += 1
        for x in range(cnt):
            ax = st[SW_A + x]
            qx = st[SW_C + x]
            for y in range(x + 1, cnt):
                if st[SW_C + y] != qx:
                    moves[n] = kc | (np.int64(ax) << np.int64(7)) | np.int64(st[SW_A + y])
                    n += 1
        return n
    if st[kb + E_BACK] > 0:
        v = st[kb + E_BACK]
        prev = -1
        for i in range(4):
            t = st[PIECE + 4 * m + i]
            if t > ring:
                break
            if t == prev:
                continue
            prev = t
            if back_dest(st, m, t, v) >= 0:
                moves[n] = kc | (np.int64(v) << np.int64(7)) | np.int64(t)
                n += 1
        return n
    if st[kb + E_START] > 0 and st[OUT + m] > 0:
        moves[n] = kc | np.int64(OUTSIDE)
        n += 1
    f1 = st[kb + E_FWD]
    f2 = st[kb + E_FWD2]
    if f2 > 0 and f2 < f1:
        f1, f2 = f2, f1
    mask = st[HOUSE_MASK + m]
    unchanged = False  # a move that leaves the board as it was is listed (PA-11: one move)
    for r in range(2):
        v = f1 if r == 0 else f2
        if v <= 0:
            continue
        prev = -1
        for i in range(4):
            t = st[PIECE + 4 * m + i]
            if t == OUTSIDE:
                break
            if t == prev:
                continue
            prev = t
            d = fwd_dest(st, m, t, v, mask)
            if d < 0:
                continue
            # PA-11: moves of one card that leave the same board are one move, the smallest code
            # (codes ascend: f1 before f2, pieces by track). Only two cases can meet: the piece
            # ends where it stood (a bounce back), whichever piece and steps; or the same piece
            # lands alike with f1 and f2 (both onto a protected pair, or one bounce space).
            e = landing(st, m, d)
            if e == t:
                if unchanged:
                    continue
                unchanged = True
            elif r == 1 and f1 > 0:
                d1 = fwd_dest(st, m, t, f1, mask)
                if d1 >= 0 and landing(st, m, d1) == e:
                    continue
            moves[n] = kc | (np.int64(v) << np.int64(7)) | np.int64(t)
            n += 1
    return n


# ----------------------------------------------------------------------------- deals
@njit(cache=True, _nrt=False)
def _reshuffle(st, chance):
    n = st[H_N_CARDS]
    for c in range(n):
        st[DECK + c] = c
        st[CARD_PUB + c] = CP_UNSEEN
    shuffle(chance, st, DECK, n)
    st[S_DECK_POS] = 0
    st[H_PILE] = n
    st[H_DEALER_DEALS] = 0


@njit(cache=True, _nrt=False)
def _deal(st, chance):
    """The next deal: a new dealer and a reshuffled full deck after 3 deals (PA-10, PA-12)."""
    if st[H_DEALER_DEALS] >= st[H_DEALS_PER_DEALER]:
        st[H_DEALER] = (st[H_DEALER] + 1) & 3
        _reshuffle(st, chance)
    dealer = st[H_DEALER]
    pos = st[S_DECK_POS]
    for j in range(4):
        p = (dealer + 1 + j) & 3
        base = PRIVATE + p * PRIVATE_SIZE
        for x in range(HAND_SIZE):
            st[base + PV_HAND + x] = st[DECK + pos + HAND_SIZE * j + x]
            st[S_DEALT + p * N_KINDS + st[CARD_KIND + st[base + PV_HAND + x]]] += 1
        for i in range(base + PV_HAND + 1, base + PV_HAND + HAND_SIZE):
            v = st[i]
            y = i - 1
            while y >= base + PV_HAND and st[y] > v:
                st[y + 1] = st[y]
                y -= 1
            st[y + 1] = v
        st[base + PV_SIZE] = HAND_SIZE
        st[base + PV_GIVEN] = -1
        st[base + PV_RECEIVED] = -1
        st[HAND_COUNT + p] = HAND_SIZE
    st[S_DECK_POS] = pos + 4 * HAND_SIZE
    st[H_PILE] -= 4 * HAND_SIZE
    st[H_DEALS] += 1
    st[H_DEALER_DEALS] += 1
    st[H_PHASE] = PHASE_EXCHANGE
    st[H_EXCHANGED] = 0
    st[H_TO_MOVE] = (dealer + 1) & 3


# ----------------------------------------------------------------------------- kernel
@njit(cache=True, _nrt=False)
def init(state, params, chance):
    for i in range(ZERO_END):
        state[i] = 0
    copy_params(state, params)  # the options, the deal cap and the component table (PARAMS)
    state[H_RING] = 4 * state[H_SECTION]
    state[H_WINNER] = -1
    for c in range(4):
        state[OUT + c] = PIECES
        for i in range(PIECES):
            state[PIECE + 4 * c + i] = OUTSIDE
    for a in range(MAX_RING):
        state[RING_COL + a] = -1
    for c in range(MAX_CARDS):
        state[CARD_PUB + c] = CP_UNSEEN if c < state[H_N_CARDS] else CP_NONE
    for p in range(4):
        base = PRIVATE + p * PRIVATE_SIZE
        for j in range(1, PRIVATE_SIZE):
            state[base + j] = -1
    state[H_DEALER] = 3  # PA-10: seat 3 deals first, seat 0 plays first
    _reshuffle(state, chance)
    _deal(state, chance)


@njit(cache=True, inline="always")
def to_move(state):
    return state[H_TO_MOVE]


@njit(cache=True, inline="always")
def legal_moves(state, moves):
    phase = state[H_PHASE]
    if phase == PHASE_OVER:
        return 0
    seat = state[H_TO_MOVE]
    base = PRIVATE + seat * PRIVATE_SIZE
    size = state[base + PV_SIZE]
    n = 0
    last = -1
    if phase == PHASE_EXCHANGE:
        for j in range(size):
            k = state[CARD_KIND + state[base + PV_HAND + j]]
            if k != last:
                moves[n] = MOVE_GIVE + k
                n += 1
                last = k
        return n
    m = mover_colour(state, seat)
    for j in range(size):
        k = state[CARD_KIND + state[base + PV_HAND + j]]
        if k != last:
            last = k
            n = _gen_kind(state, moves, n, k, seat, m)
            if n < 0:
                return -1  # more distinct 7 outcomes than MAX_ENTRIES (see kernel.ERR_MOVE_LIMIT)
    if n == 0:
        moves[0] = MOVE_DISCARD
        n = 1
    return n


@njit(cache=True, _nrt=False)
def _take_card(st, seat, kind):
    """Remove the lowest card of ``kind`` from the seat's hand; returns its id."""
    base = PRIVATE + seat * PRIVATE_SIZE
    size = st[base + PV_SIZE]
    j = 0
    while st[CARD_KIND + st[base + PV_HAND + j]] != kind:
        j += 1
    card = st[base + PV_HAND + j]
    for x in range(j, size - 1):
        st[base + PV_HAND + x] = st[base + PV_HAND + x + 1]
    st[base + PV_HAND + size - 1] = -1
    st[base + PV_SIZE] = size - 1
    st[HAND_COUNT + seat] -= 1
    return card


@njit(cache=True, _nrt=False)
def _apply_split(st, move, kind, seat):
    total = st[KIND_TABLE + kind * N_EFFECTS + E_SPLIT]
    n_own = np.int64((move >> np.int64(55)) & np.int64(7))
    comp = np.int64((move >> np.int64(49)) & np.int64(63))
    n = 0
    prev = 0
    for c in range(1, total):
        if ((comp >> (6 - c)) & 1) == 0:
            st[W_SUB_S + n] = c - prev
            prev = c
            n += 1
    st[W_SUB_S + n] = total - prev
    n += 1
    chosen_own = 0
    chosen_partner = 0
    for j in range(n):
        p = np.int64((move >> np.int64(42 - 7 * j)) & np.int64(127))
        c = seat if j < n_own else seat ^ 2
        for i in range(4):
            if st[PIECE + 4 * c + i] == p:
                bit = 1 << i
                if j < n_own:
                    if chosen_own & bit:
                        continue
                    chosen_own |= bit
                else:
                    if chosen_partner & bit:
                        continue
                    chosen_partner |= bit
                st[W_SUB_I + j] = i
                break
    for j in range(n):
        c = seat if j < n_own else seat ^ 2
        i = st[W_SUB_I + j]
        d = fwd_dest(st, c, st[PIECE + 4 * c + i], st[W_SUB_S + j], st[HOUSE_MASK + c])
        _move_to(st, c, i, d, seat)


@njit(cache=True, _nrt=False)
def _play(st, move, kind, seat):
    m = mover_colour(st, seat)
    kb = KIND_TABLE + kind * N_EFFECTS
    if st[kb + E_SPLIT] > 0:
        _apply_split(st, move, kind, seat)
    elif st[kb + E_SWAP] > 0:
        st[SWAPS + seat] += 1
        if (move & np.int64(0x3FFF)) != 0:
            qa, a, b, ta, ta_new = swap_side(st, move, 0)
            qb, _, _, tb, tb_new = swap_side(st, move, 1)
            for i in range(4):
                if st[PIECE + 4 * qa + i] == ta:
                    st[PIECE + 4 * qa + i] = ta_new
                    break
            for i in range(4):
                if st[PIECE + 4 * qb + i] == tb:
                    st[PIECE + 4 * qb + i] = tb_new
                    break
            st[RING_COL + a] = qb
            st[RING_COL + b] = qa
    else:
        v = np.int64((move >> np.int64(7)) & np.int64(63))
        t = np.int64(move & np.int64(127))
        i = 0
        while st[PIECE + 4 * m + i] != t:
            i += 1
        if t == OUTSIDE:
            d = 0
        elif st[kb + E_BACK] > 0:
            d = back_dest(st, m, t, v)
        else:
            d = fwd_dest(st, m, t, v, st[HOUSE_MASK + m])
        _move_to(st, m, i, d, seat)
    for c in range(4):
        _sort_colour(st, c)
    if st[HOME + m] == PIECES and st[HOME + (m ^ 2)] == PIECES:
        st[H_WINNER] = m & 1
        st[H_PHASE] = PHASE_OVER
        st[H_TO_MOVE] = -1


@njit(cache=True, _nrt=False)
def _give(st, move):
    seat = st[H_TO_MOVE]
    kind = np.int64(move - MOVE_GIVE)
    card = _take_card(st, seat, kind)
    st[PRIVATE + seat * PRIVATE_SIZE + PV_GIVEN] = card
    st[H_EXCHANGED] += 1
    dealer = st[H_DEALER]
    if st[H_EXCHANGED] < 4:
        st[H_TO_MOVE] = (dealer + 1 + st[H_EXCHANGED]) & 3
        return
    for p in range(4):  # both pairs at once: each card reaches the partner now
        base = PRIVATE + p * PRIVATE_SIZE
        c = st[PRIVATE + (p ^ 2) * PRIVATE_SIZE + PV_GIVEN]
        size = st[base + PV_SIZE]
        j = base + PV_HAND + size - 1
        while j >= base + PV_HAND and st[j] > c:
            st[j + 1] = st[j]
            j -= 1
        st[j + 1] = c
        st[base + PV_SIZE] = size + 1
        st[base + PV_RECEIVED] = c
        st[HAND_COUNT + p] += 1
    st[H_PHASE] = PHASE_PLAY
    st[H_TO_MOVE] = (dealer + 1) & 3


@njit(cache=True, inline="always")
def team_progress(st, team):
    """(pieces in the houses, total track distance) of the team's two colours."""
    home = st[HOME + team] + st[HOME + team + 2]
    dist = 0
    for i in range(4):
        for c in (team, team + 2):
            t = st[PIECE + 4 * c + i]
            if t != OUTSIDE:
                dist += t
    return home, dist


@njit(cache=True, _nrt=False)
def leading_team(st):
    """The team ahead on progress (pieces home, then distance), -1 if level."""
    home0, dist0 = team_progress(st, 0)
    home1, dist1 = team_progress(st, 1)
    if home0 != home1:
        return 0 if home0 > home1 else 1
    if dist0 != dist1:
        return 0 if dist0 > dist1 else 1
    return -1


@njit(cache=True, _nrt=False)
def _record_lead(st):
    """Write the leading team into the deal history (LEAD_HIST) for the deal being played."""
    d = st[H_DEALS] - 1
    w = LEAD_HIST + d // LEADS_PER_WORD
    shift = 2 * (d % LEADS_PER_WORD)
    st[w] = (st[w] & ~(3 << shift)) | ((leading_team(st) + 1) << shift)


@njit(cache=True, inline="always")
def lead_after_deal(st, deal):
    """The leading team recorded at the end of deal ``deal`` (1-based), -1 if level."""
    d = deal - 1
    return ((st[LEAD_HIST + d // LEADS_PER_WORD] >> (2 * (d % LEADS_PER_WORD))) & 3) - 1


@njit(cache=True, inline="always")
def apply_move(state, move, chance):
    if state[H_PHASE] == PHASE_EXCHANGE:
        _give(state, move)
        return
    seat = state[H_TO_MOVE]
    if move == MOVE_DISCARD:
        base = PRIVATE + seat * PRIVATE_SIZE
        for j in range(state[base + PV_SIZE]):
            state[CARD_PUB + state[base + PV_HAND + j]] = CP_DISCARDED
            state[base + PV_HAND + j] = -1
        state[base + PV_SIZE] = 0
        state[HAND_COUNT + seat] = 0
    else:
        kind = np.int64(move >> np.int64(KIND_SHIFT))
        card = _take_card(state, seat, kind)
        state[CARD_PUB + card] = CP_PLAYED
        _play(state, move, kind, seat)
        if state[H_PHASE] == PHASE_OVER:
            _record_lead(state)  # won in the middle of the deal: its last lead
            return
    for i in range(1, 5):
        q = (seat + i) & 3
        if state[HAND_COUNT + q] > 0:
            state[H_TO_MOVE] = q
            return
    _record_lead(state)  # every hand is empty: the deal is over
    if state[H_DEALS] >= state[H_MAX_DEALS]:  # PA-7: the cap
        state[H_PHASE] = PHASE_OVER
        state[H_TO_MOVE] = -1
        state[H_TRUNCATED] = 1
        return
    _deal(state, chance)


@njit(cache=True, _nrt=False)
def result(state, score, rank, extra):
    winner = state[H_WINNER]
    lead = lead_after_deal(state, (2 * state[H_DEALS] + 2) // 3)  # ceil(2 * deals / 3)
    for p in range(4):
        score[p] = 1 if winner >= 0 and (p & 1) == winner else 0
        extra[p, 0] = state[H_DEALS]
        extra[p, 1] = state[HOME + p]
        extra[p, 2] = state[KO_GIVEN + p]
        extra[p, 3] = state[KO_SUFFERED + p]
        extra[p, 4] = state[SWAPS + p]
        extra[p, 5] = state[H_TRUNCATED]
        extra[p, 6] = lead
    for p in range(4):  # team ranks: 1 + teams with a higher score (partners share)
        rank[p] = 2 if score[p ^ 1] > score[p] else 1


@njit(cache=True, _nrt=False)
def determinize(public, private, state, rng):
    """Fill ``state`` (STATE_SIZE) with a complete game state consistent with what the seat to
    move (``public[H_TO_MOVE]``) knows from its views ``public`` (PUBLIC_SIZE) and ``private``
    (PRIVATE_SIZE): see "Determinization" in the module docstring. Draws from ``rng``
    (uint64[4], advanced) only; allocates nothing (the deck area of ``state`` holds the unseen
    cards while drawing). ``state`` may be the very array the views are slices of. Returns the
    number of hidden cards drawn, or -1 if no seat is to move or the views are inconsistent (the
    unseen cards do not fill the hidden places exactly)."""
    for i in range(PUBLIC_SIZE):
        state[i] = public[i]
    seat = state[H_TO_MOVE]
    if seat < 0:
        return -1
    mine = PRIVATE + seat * PRIVATE_SIZE
    for i in range(PRIVATE_SIZE):
        state[mine + i] = private[i]
    n = state[H_N_CARDS]
    phase = state[H_PHASE]
    partner = seat ^ 2
    # the card this seat gave, still in the partner's hand (PA-8: the giver knows where it is)
    held = -1
    if phase == PHASE_PLAY:
        g = state[mine + PV_GIVEN]
        if g >= 0 and state[CARD_PUB + g] == CP_UNSEEN:
            held = g
    own = np.int64(0)
    for j in range(state[mine + PV_SIZE]):
        own |= np.int64(1) << np.int64(state[mine + PV_HAND + j])
    if held >= 0:
        own |= np.int64(1) << np.int64(held)
    # the hidden places: the other hands (their public sizes, one slot less in the partner's
    # for the held card), the cards given this exchange and not delivered yet (the seats before
    # this one in the exchange order), the pile
    pending = state[H_EXCHANGED] if phase == PHASE_EXCHANGE else 0
    u = state[H_PILE] + pending - (held >= 0)
    for d in range(1, 4):
        u += state[HAND_COUNT + ((seat + d) & 3)]
    start = n - u
    if start < 0:
        return -1
    # the unseen cards ascending into DECK[start, n), every other card into DECK[0, start)
    k_known = 0
    k_pool = start
    for c in range(n):
        if state[CARD_PUB + c] == CP_UNSEEN and ((own >> np.int64(c)) & 1) == 0:
            if k_pool >= n:
                return -1
            state[DECK + k_pool] = c
            k_pool += 1
        else:
            if k_known >= start:
                return -1
            state[DECK + k_known] = c
            k_known += 1
    if k_pool != n:
        return -1
    for i in range(DECK + n, STATE_SIZE):  # work tables, deal history, hash table: as new
        state[i] = 0
    shuffle(rng, state, DECK + start, u)  # a uniform order: the pile's, and who holds what
    pos = n - state[H_PILE]
    state[S_DECK_POS] = pos  # the pile is DECK[pos, n), drawn from its start
    k = start
    dealer = state[H_DEALER]
    for d in range(1, 4):
        p = (seat + d) & 3
        base = PRIVATE + p * PRIVATE_SIZE
        size = state[HAND_COUNT + p]
        state[base + PV_SIZE] = size
        j0 = 0
        if p == partner and held >= 0:
            state[base + PV_HAND] = held
            j0 = 1
        for j in range(j0, size):
            state[base + PV_HAND + j] = state[DECK + k]
            k += 1
        for i in range(base + PV_HAND + 1, base + PV_HAND + size):  # ascending
            v = state[i]
            y = i - 1
            while y >= base + PV_HAND and state[y] > v:
                state[y + 1] = state[y]
                y -= 1
            state[y + 1] = v
        for j in range(size, HAND_SIZE):
            state[base + PV_HAND + j] = -1
        state[base + PV_GIVEN] = -1
        state[base + PV_RECEIVED] = -1
        for j in range(PV_RECEIVED + 1, PRIVATE_SIZE):
            state[base + j] = -1
        if phase == PHASE_EXCHANGE:
            if ((p - dealer - 1) & 3) < pending:  # gave before this seat: a card set aside
                state[base + PV_GIVEN] = state[DECK + k]
                k += 1
        elif phase == PHASE_PLAY and p == partner:
            state[base + PV_GIVEN] = state[mine + PV_RECEIVED]
            state[base + PV_RECEIVED] = state[mine + PV_GIVEN]
    if k != pos:
        return -1
    if phase == PHASE_PLAY:
        # the opponents' exchange: the card q received is one of the 4 cards q held after it,
        # now in q's hand or played (or discarded) since; who played which card is not in the
        # views, so a played one is drawn among all cards played or discarded so far
        gone = 0
        for c in range(n):
            gone += state[CARD_PUB + c] != CP_UNSEEN
        for q in (seat ^ 1, seat ^ 3):
            base = PRIVATE + q * PRIVATE_SIZE
            j = below(rng, HAND_SIZE)
            if j < state[base + PV_SIZE] or gone == 0:
                r = state[base + PV_HAND + min(j, state[base + PV_SIZE] - 1)]
            else:
                m = below(rng, gone)
                r = 0
                while True:
                    if state[CARD_PUB + r] != CP_UNSEEN:
                        if m == 0:
                            break
                        m -= 1
                    r += 1
            state[base + PV_RECEIVED] = r
            state[PRIVATE + (q ^ 2) * PRIVATE_SIZE + PV_GIVEN] = r
    return u



RULES = kernel.rules_module(__name__)  # this module, as the kernel loop and the search take it


@njit(cache=True)
def play_chunk(params, chunk):  # kernel.play_games with this game's cap on decisions
    return kernel.play_games(RULES, DECISIONS_PER_DEAL * params[P_MAX_DEALS], params, chunk)


# ----------------------------------------------------------------------------- rule parameters
OVERSHOOT_CHOICES = ("illegal", "bounce")

def _check_deals(c) -> None:
    """The deal cap and the deals of one dealer the kernel can play (ValueError)."""
    if not 1 <= c.extra["max_deals"] <= MAX_DEALS:
        raise ValueError(f"max_deals must be 1..{MAX_DEALS} (the deal history LEAD_HIST holds "
                         f"{MAX_DEALS} deals)")
    if sum(c.table["deck"]["counts"]) < 4 * HAND_SIZE * c.extra["deals_per_dealer"]:
        raise ValueError("deck too small for the deals of one dealer")


def _card_kinds(table: dict) -> list[int]:
    """The kind of each card id of the deck (PA-2: kinds in order, each repeated by its count),
    -1 beyond the deck's cards."""
    kinds = [k for k, count in enumerate(table["deck"]["counts"]) for _ in range(count)]
    return kinds + [-1] * (MAX_CARDS - len(kinds))


#: the kernel's params, declared once (simulate/games/layout.py): what ``make_params`` packs (the
#: player count, the options and the component table in force: the board, the deck and what each
#: kind does; PA-1, PA-2) and ``init`` copies into the state (``copy_params``). ``make_params``
#: also takes ``max_deals`` (the deal cap, PA-7) and ``deals_per_dealer``.
PARAMS = Params(LAYOUT, [
    ("P_PLAYERS", 1, "H_PLAYERS", lambda c: c.players, "n players"),
    ("P_OVERSHOOT", 1, "H_OVERSHOOT", lambda c: OVERSHOOT_CHOICES.index(c.options.get("house_overshoot", "illegal")),
     "rule option house_overshoot: 0 illegal, 1 bounce"),
    ("P_MAX_DEALS", 1, "H_MAX_DEALS", lambda c: c.extra["max_deals"], "the deal cap (PA-7); play_chunk's cap"),
    ("P_DEALS_PER_DEALER", 1, "H_DEALS_PER_DEALER", lambda c: c.extra["deals_per_dealer"], "deals per dealer"),
    ("P_SECTION", 1, "H_SECTION", lambda c: c.table["board"]["section"], "board.section"),
    ("P_HOUSE", 1, "H_HOUSE", lambda c: c.table["board"]["house"], "board.house"),
    ("P_N_CARDS", 1, "H_N_CARDS", lambda c: sum(c.table["deck"]["counts"]), "cards in the deck"),
    ("P_KIND_TABLE", N_KINDS * N_EFFECTS, "KIND_TABLE", lambda c: kind_effects(c.table),
     "what each kind does (the effects table)"),
    ("P_CARD_KIND", MAX_CARDS, "CARD_KIND", lambda c: _card_kinds(c.table), "the kind of each card id, -1 beyond"),
], components=COMPONENTS, check=_check_deals,
    extra={"max_deals": MAX_DEALS, "deals_per_dealer": DEALS_PER_DEALER})
PARAMS.install(globals())  # P_PLAYERS = 0, ..., PARAMS_SIZE, make_params, copy_params
