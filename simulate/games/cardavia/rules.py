"""Cardavia (4 players, teams {0,2} and {1,3}), the Brescian scopa "Cicera": the rules kernel.

Rules: ``shared/rules/cardavia.md`` (decisions CA-1..CA-6) over the Danish rulebook
``shared/seeds/cardavia-da.txt``. Choices made here where both are silent:

- Cards are numbered rank-major: ``card = (rank - 1) * 4 + suit`` with rank 1 (Asso) .. 10, 11
  (Fante), 12 (Cavallo), 13 (Re) and suit 0 swords (spade), 1 cups (coppe), 2 coins (denari),
  3 clubs (bastoni). So the numerals are the cards 0..39 (value ``(card >> 2) + 1``), the courts
  40..51, and a list of cards sorted by id is sorted by value. La Mata (2 of swords) is card 4,
  the 10 of coins card 38, the Fante of cups card 41.
- The deal: the 52 ids are shuffled with the chance stream (``seeding.shuffle``); ``deck[0:4]``
  go face up to the table, then seat p receives ``deck[4 + 12p : 16 + 12p]``.
- CA-1: seats play 0, 1, 2, 3, 0, ...; seat 0 starts; teams are seat & 1. A deal is 48 turns,
  one card per turn.
- CA-6, the match (rule option ``match_deals`` = K, 1..20, default 1: one deal is the game): the
  K deals are played in one game. Deal k (0-based, ``H_DEAL_NO``) is started by seat k mod 4 (so
  dealt by seat (3 + k) mod 4) and dealt from a new shuffle that continues the same chance stream
  (deal 0 is exactly the one-deal game's deal). Each deal is played and scored as below, on its
  own: its records (``TEAM_STATS``, ``TEAM_SCORE``, the table, ``CARD_PUB``, ``H_TURN``,
  ``H_LAST_PLACED``, ``H_LAST_CAPTURER``) start afresh, so a Picada never reaches back into the
  previous deal and the last capture of a deal claims only that deal's table. At the end of each
  deal its columns and total are added to ``MATCH_STATS`` / ``MATCH_SCORE``; the result is the
  match's (higher match total wins, equal totals draw; every column summed over the deals).
- The components (``components.toml`` beside this file, declared by ``COMPONENTS``; the rule
  option ``components``): the points of each bonus and prize and the Napula rule's values, packed
  into params by ``make_params`` and copied by ``init`` into the public block ``POINTS``. The
  bonus columns count bonuses (CA-4), a deal's total counts each times its points; the prize
  columns hold points. Napula: the unbroken run of swords from the Asso scores ``per_card`` a
  card once it holds ``run`` cards (the rulebook: 1 a card from Asso-2-3). The defaults are the
  rulebook's values, so the default game plays exactly as before.
- Two thirds (``leader_at_two_thirds``), as Compañeros takes two thirds of a match's rounds: the
  lead is taken after 32 * K of the match's 48 * K turns (32 of 48 for one deal), on the match
  points so far: the totals of the finished deals plus the bonuses of the deal in progress (its
  prizes come at its end). When 32 * K ends a deal (K a multiple of 3) that deal's prizes count.
- Rules version: CA-6 adds an option and leaves the default (K = 1) game exactly as it was (every
  game of every seed plays and scores the same, ``tests/test_params.py`` checks the rows), so
  ``RULES_VERSION`` stays 1: a dataset records its options, one recorded before the option
  existed replays with the default, and a K > 1 dataset says ``match_deals`` in its manifest.
- A move is ``(card << 52) | captured``: the hand card played, and the bit mask of the *card ids*
  it captures from the table (``captured == 0`` is "place only"). Ids are below 52 and the card
  is below 64, so a code is below 2**58. For one played card the codes ascend with the mask, and
  codes of a higher card are all larger, so ``legal_moves`` writes the hand in id order, each
  card's place move first, then its captures in ascending mask order.
- Legal captures of a played card: a court takes exactly one table card of its rank (one move per
  such card); a numeral of value v takes any set of one or more table *numerals* whose values
  add up to v (one card of the same rank, or a sum of two or more: CA-2, every distinct set is a
  move). With ``single_match_forced`` a numeral that could take a single card of its rank has
  only those single captures (and place). Placing is always legal (the rulebook's "Place-only").
- Bonuses of one capture (all that apply add up): Scua when the table is empty afterwards (not on
  the 48th turn if ``last_sweep_scores`` is false), Picada when the previous turn was a placement
  and the capture is exactly that card (necessarily by same rank), Simili when every captured card
  has the played card's suit (so only sums can be Simili), Quadriglia when at least three table
  cards are captured. The first turn of the deal has no previous turn, so no Picada.
- End (after turn 48): the table goes to the team that captured last, without bonus, or stays
  unclaimed if nobody captured (CA-3). Prizes: most cards 2, most swords 1 (a tie gives nobody the
  points), La Mata 1, 10 of coins 1, Fante of cups 1 (unclaimed cards score for nobody). Napula:
  the team that holds the swords Asso, 2 and 3 scores the length of its run of swords from the
  Asso upwards, up to the 10, or through Fante, Cavallo, Re with ``napula_beyond_10``.
- Result: both partners get the team's match total and the team's rank (1 for the winning team,
  2 for the losing team, 1 for both on a draw), and the team's values in every result column
  (summed over the deals of a match).
- Replay text (``describe_move``): with K > 1 the last play of each deal also tells the deal's
  end: where the table went, the deal's points, the match score and who starts the next deal
  (``move_to_json`` adds the same as ``end_of_deal``, and as ``end_of_game`` on the last play of a
  one-deal game); ``describe_state`` writes the complete position (``notation.py``).

Determinization (``determinize(public, private, state, rng)``, for the search player). In
Cardavia the only hidden things are the other three hands: every played card lies face up on the
table or in a team's pile (``CARD_PUB``), nothing is passed or drawn, and each deal of a match is
a new shuffle of all 52 cards, so the finished deals (public: ``MATCH_SCORE``, ``MATCH_STATS``)
say nothing of the current hands. The seat to move (``H_TO_MOVE``) knows its own hand (its
private view) and each other hand's size, 12 less the turns that seat has had in this deal
(from ``H_TURN`` and ``H_DEAL_STARTER``). ``determinize`` copies the public part and the mover's
private part, and deals the hidden cards (those with ``PUB_HAND`` outside the mover's hand)
uniformly at random among the other hands with exactly those sizes: the hidden cards are listed
ascending, a list of seat labels (one per free slot) is shuffled by Fisher-Yates with
``seeding.below`` on ``rng``, and card k goes to the seat of label k, so every hand comes out
sorted. It reads nothing but the two views (so the real hidden cards cannot leak), allocates
nothing (the state's scratch part holds the lists and is zeroed afterwards, so the sample
depends on the views and ``rng`` alone), and makes n - 1 draws for n hidden cards.
The sample's future deals of a match come from the chance stream ``apply_move`` is given. No
view field was added: who played which card tells nothing the uniform deal must respect (no
suit to follow, no card passed), and the hand sizes follow from the turn.

Bound on the number of legal moves (``MOVES_BOUND``). At turn t the mover holds h = 12 - t // 4
cards and the table holds at most 4 + t <= 55 - 4h cards (4 dealt, each turn adds at most one).
A hand card has one place move plus its captures: a court at most 3 (the other cards of its
rank), a numeral of value v at most best(k, v), the largest number of subsets with value sum v
of any k table numerals, k = min(55 - 4h, 40). best(k, v) comes from enumerating all 5**10
count vectors of the ten numeral values (``tests/test_cardavia.py`` recomputes it). A hand holds
at most four cards of a value, so the moves number at most h + the h largest of {best(k, v) four
times for each v, 3 twelve times}; the maximum over h = 1..12 is 9748 (at h = 8, k = 23).
``legal_moves`` uses the moves buffer past that bound as scratch (``BUCKETS``: the capture sets
by sum, bucket r holding at most ``BUCKET_CAP[r]``, best(40, r) for a numeral sum, 4 for a court
rank), so ``MAX_MOVES`` is larger than the bound.

Seat compensation (issue 42; the rules have none): the component ``compensation.points``
[team 0, team 1] are points a team starts the match with, komi-style: ``MATCH_SCORE`` starts
there (so the ``score`` column, the result and the leader at two thirds count them, and every
strategy sees them). All 0 in the shipped game, which is then the rules' game exactly.

State layout (int32, ``STATE_SIZE`` long). It is declared once, as ``LAYOUT`` below: each offset
is a module constant made from it (find where a name is declared with ``grep -n '"CARD_PUB"'
rules.py``), and this table is generated from it when the module is loaded::
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros
from numba.extending import intrinsic

from ... import kernel
from ...kernel import popcount, remove_sorted
from ...seeding import below, shuffle
from ..components import Components, Value
from ..layout import Layout, Params

NAME = "cardavia"
#: bumped whenever the behaviour of the rules (and so any result) changes
RULES_VERSION = 1  # unchanged by CA-6: see the module docstring
PLAYERS = 4
N_CARDS = 52
N_NUMERALS = 40
HAND_SIZE = 12
TABLE_START = 4
TURNS = PLAYERS * HAND_SIZE
SWORDS, CUPS, COINS, CLUBS = 0, 1, 2, 3
FANTE, CAVALLO, RE = 11, 12, 13
MATA = 4  # 2 of swords
TEN_OF_COINS = 9 * 4 + COINS  # 38
FANTE_OF_CUPS = 10 * 4 + CUPS  # 41

PUB_HAND, PUB_TABLE, PUB_TAKEN = 0, 1, 2  # PUB_TAKEN + team

MOVE_SHIFT = 52
MASK52 = (1 << 52) - 1
SPLIT = 26  # H_TABLE_LO holds ids 0..25, H_TABLE_HI ids 26..51

# result columns = team statistics, in SPEC.columns order
(STAT_CARDS, STAT_SWORDS, STAT_SCUA, STAT_PICADA, STAT_SIMILI, STAT_QUADRIGLIA, STAT_MOST_CARDS,
 STAT_MOST_SWORDS, STAT_MATA, STAT_TEN_OF_COINS, STAT_FANTE_OF_CUPS, STAT_NAPULA) = range(12)
#: the team ahead on match points after two thirds of the match's turns (its first seat, 0 or
#: 1; -1 if level), for the decisiveness analysis: how often the leader at two thirds wins
STAT_LEADER = 12
LEADER_TURN = 32  # two thirds of a deal's 48 turns; of a match of K deals: LEADER_TURN * K
N_STATS = 13
#: most deals in a match (CA-6)
MAX_MATCH_DEALS = 20
#: the component table's values (components.toml), in the order of the public block POINTS: the
#: points of each bonus and prize (entry k - STAT_SCUA for the statistic k = STAT_SCUA ..
#: STAT_FANTE_OF_CUPS), then the Napula rule's
POINT_KEYS = ("bonuses.scua", "bonuses.picada", "bonuses.simili", "bonuses.quadriglia",
              "prizes.most_cards", "prizes.most_swords", "prizes.mata", "prizes.ten_of_coins",
              "prizes.fante_of_cups", "napula.per_card", "napula.run")
PT_NAPULA_PER_CARD, PT_NAPULA_RUN = 9, 10
N_POINTS = len(POINT_KEYS)

#: what S_DEALT counts (kernel.py): each card, by id (rank-major), named as the notation names it
SUIT_NAMES = ("swords", "cups", "coins", "clubs")
RANK_NAMES = ("", "Asso", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Fante", "Cavallo", "Re")
DEALT_KINDS = tuple(f"{RANK_NAMES[rank]} of {suit}" for rank in range(1, 14) for suit in SUIT_NAMES)

# ---- state layout: declared once (see simulate/games/layout.py); the table ends the docstring
LAYOUT = Layout(
    public=[
        ("H_PLAYERS", 1, "4"),
        ("H_TO_MOVE", 1, "seat to play, -1 once over"),
        ("H_TURN", 1, "turns of this deal played, 0..48"),
        ("H_SINGLE_FORCED", 1, "rule option single_match_forced (0/1)"),
        ("H_LAST_SWEEP", 1, "rule option last_sweep_scores (0/1)"),
        ("H_NAPULA10", 1, "rule option napula_beyond_10 (0/1)"),
        ("H_LAST_PLACED", 1, "card placed on the previous turn of this deal, -1 if that turn "
                             "captured (or none yet)"),
        ("H_LAST_CAPTURER", 1, "team that captured last in this deal, -1 if nobody has"),
        ("H_TABLE_N", 1, "cards on the table"),
        ("H_TABLE_NUMERALS", 1, "numerals among them"),
        ("H_TABLE_LO", 1, "the table as a card mask: ids 0..25 (bit id)"),
        ("H_TABLE_HI", 1, "the table as a card mask: ids 26..51 (bit id - 26)"),
        ("TEAM_STATS", (2, N_STATS), "per team (team * N_STATS + STAT_*), this deal's result "
                                     "columns: cards and swords taken (during play: captured so "
                                     "far), bonus counts, the prize points (0 until the deal's end) "
                                     "and Napula points; the STAT_LEADER slot is the match's (see "
                                     "MATCH_STATS)"),
        ("TEAM_SCORE", 2, "this deal's team totals (0 until its end)"),
        ("TABLE", N_CARDS, "the table's card ids ascending (-1 beyond H_TABLE_N)"),
        ("CARD_PUB", N_CARDS, "public place of each card in this deal: PUB_HAND (in some hand, "
                              "hidden), PUB_TABLE, PUB_TAKEN + team"),
        "CA-6, appended (so the offsets above are those of the one-deal game):",
        ("H_MATCH_DEALS", 1, "K, deals in the match"),
        ("H_DEAL_NO", 1, "this deal, 0..K-1"),
        ("H_DEAL_STARTER", 1, "seat that started this deal (H_DEAL_NO mod 4)"),
        ("MATCH_SCORE", 2, "the match score: each team's total over the finished deals (0 until "
                           "the first deal ends; at the end the result). The match points so far "
                           "are MATCH_SCORE plus this deal's bonuses (TEAM_STATS scua..quadriglia, "
                           "each times its POINTS)."),
        ("MATCH_STATS", (2, N_STATS), "the result columns summed over the finished deals (same "
                                      "order as TEAM_STATS); STAT_LEADER: the leader at two thirds "
                                      "of the match, -1 until it is taken (or if level)"),
        "The component table in force (components.toml), appended:",
        ("POINTS", N_POINTS, "points per Scua, Picada, Simili, Quadriglia; for most cards, most "
                             "swords, La Mata, the 10 of coins, the Fante of cups (entry k - "
                             "STAT_SCUA for TEAM_STATS entry k); per card of a Napula run "
                             "(PT_NAPULA_PER_CARD); the cards from the Asso a run needs "
                             "(PT_NAPULA_RUN)"),
        "Seat compensation (components.toml [compensation], issue 42), appended:",
        ("COMPENSATION", 2, "points each team starts the match with (MATCH_SCORE starts there; 0: none)"),
    ],
    private=[
        ("PV_SIZE", 1, "hand size"),
        ("PV_HAND", HAND_SIZE, "the hand's card ids ascending (-1 beyond the size)"),
    ],
    seats=PLAYERS,
    scratch=[
        ("SCR_COUNT", N_CARDS, "init: the deck, then fill counters; legal_moves: how many sets "
                               "bucket r holds (r <= 13; see BUCKET_START); determinize: the "
                               "hidden cards"),
        ("SCR_OWNER", N_CARDS, "init: where each card is dealt (index into DEST); determinize: the "
                               "seat labels"),
        ("S_DEALT", (PLAYERS, N_CARDS), "cards dealt to each seat over the match's deals, per card id "
                                        "(DEALT_KINDS)"),
    ],
)
LAYOUT.install(globals())  # H_PLAYERS = 0, ..., STATE_SIZE, public_view, private_view, the table
#: the views' pieces above and these constants are published for strategies (tourney_sim.views):
#: bumped whenever any of them changes
VIEWS_VERSION = 3  # 2: the POINTS block (the component table in force); 3: COMPENSATION
STRATEGY_CONSTANTS = {
    "PLAYERS": "seats; teams are seat & 1",
    "N_CARDS": "cards: card id = (rank - 1) * 4 + suit, rank 1..13, suit 0 swords, 1 cups, 2 coins, "
               "3 clubs",
    "N_NUMERALS": "the numerals are the card ids below this (value (card >> 2) + 1), the courts the rest",
    "HAND_SIZE": "cards dealt to each hand",
    "TURNS": "turns of a deal (one card each)",
    "MATA": "card id of La Mata (2 of swords)",
    "TEN_OF_COINS": "card id of the 10 of coins",
    "FANTE_OF_CUPS": "card id of the Fante of cups",
    "PUB_HAND": "CARD_PUB: the card is in some hand (hidden)",
    "PUB_TABLE": "CARD_PUB: on the table",
    "PUB_TAKEN": "CARD_PUB: PUB_TAKEN + team, in that team's pile",
    "MOVE_SHIFT": "a move is (card << MOVE_SHIFT) | captured: the card played and the mask of the "
                  "card ids it captures (0: placed)",
    "MASK52": "move & MASK52 is the mask of captured card ids",
    "N_STATS": "entries per team in TEAM_STATS and MATCH_STATS (team * N_STATS + STAT_*)",
    "STAT_CARDS": "TEAM_STATS / MATCH_STATS entry: cards taken",
    "STAT_SWORDS": "entry: swords taken",
    "STAT_SCUA": "entry: Scua bonuses",
    "STAT_PICADA": "entry: Picada bonuses",
    "STAT_SIMILI": "entry: Simili bonuses",
    "STAT_QUADRIGLIA": "entry: Quadriglia bonuses",
    "STAT_MOST_CARDS": "entry: points for most cards (at the deal's end)",
    "STAT_MOST_SWORDS": "entry: points for most swords (at the deal's end)",
    "STAT_MATA": "entry: the point for La Mata (at the deal's end)",
    "STAT_TEN_OF_COINS": "entry: the point for the 10 of coins (at the deal's end)",
    "STAT_FANTE_OF_CUPS": "entry: the point for the Fante of cups (at the deal's end)",
    "STAT_NAPULA": "entry: Napula points (at the deal's end)",
    "STAT_LEADER": "MATCH_STATS entry: the team leading at two thirds of the match (-1 until taken "
                   "or if level)",
    "PT_NAPULA_PER_CARD": "POINTS entry: points per card of a Napula run",
    "PT_NAPULA_RUN": "POINTS entry: the cards from the Asso of swords a Napula run needs to score",
}

#: most legal moves at one decision (the bound is proved in the module docstring)
MOVES_BOUND = 9748
#: legal_moves' buckets: most sets of table numerals with value sum r (r = 0..10: the empty set,
#: then best(40, r), all 40 numerals on the table; recomputed in the tests), then most table
#: courts of rank r (r = 11..13)
BUCKET_CAP = (1, 4, 10, 24, 51, 100, 190, 344, 601, 1024, 1702, 4, 4, 4)
LIST_BOUND = sum(BUCKET_CAP)  # 4051 + 12
BUCKETS = MOVES_BOUND + 3  # legal_moves copies 3 bucket entries unconditionally past the last move
#: where bucket r starts in the moves buffer
BUCKET_START = np.array([BUCKETS + sum(BUCKET_CAP[:r]) for r in range(RE + 1)], np.int64)
#: the moves buffer: the legal moves, then legal_moves' buckets (read up to 3 entries past the end)
MAX_MOVES = BUCKETS + LIST_BOUND + 3
NUMERAL_MASK = np.int64((1 << N_NUMERALS) - 1)
SWORD_MASK = np.int64(sum(1 << (4 * r) for r in range(13)))  # bits of the swords; << suit: a suit
#: the deal: deck position -> 0..3 (that seat) or 4 (the table); DEST[k]: where it is written
DEAL_TO = np.array([PLAYERS] * TABLE_START + [p for p in range(PLAYERS) for _ in range(HAND_SIZE)],
                   np.int32)
DEST = np.array([PRIVATE + p * PRIVATE_SIZE + 1 for p in range(PLAYERS)] + [TABLE], np.int32)
#: decisions in one deal (one card a turn); a match of K deals has TURNS * K (the kernel's cap,
#: ``play_chunk``), MAX_DECISIONS is that of the longest match
DECISIONS_PER_DEAL = TURNS
MAX_DECISIONS = DECISIONS_PER_DEAL * MAX_MATCH_DEALS


def rank_of(card):
    return (card >> 2) + 1


def suit_of(card):
    return card & 3


def card_of(rank, suit):
    return (rank - 1) * 4 + suit


card_of_nb = njit(cache=True, inline="always")(card_of)


# ----------------------------------------------------------------------------- kernel
@intrinsic
def cttz(typingctx, x):
    """Index of the lowest set bit of a nonzero integer (LLVM cttz: one instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return x(x), codegen


@njit(cache=True, inline="always")
def _table_bit_set(state, card):
    if card < SPLIT:
        state[H_TABLE_LO] |= 1 << card
    else:
        state[H_TABLE_HI] |= 1 << (card - SPLIT)


@njit(cache=True, inline="always")
def table_mask(public):
    """The table as an int64 card mask (bit c set when card c lies on the table)."""
    return np.int64(public[H_TABLE_LO]) | (np.int64(public[H_TABLE_HI]) << SPLIT)


@njit(cache=True, _nrt=False)
def init(state, params, chance):
    state[:] = 0
    state[H_PLAYERS] = PLAYERS
    copy_params(state, params)  # the rule options and the component table (PARAMS)
    for team in range(2):  # nobody leads before the two-thirds turn is reached
        state[TEAM_STATS + team * N_STATS + STAT_LEADER] = -1
        state[MATCH_STATS + team * N_STATS + STAT_LEADER] = -1
        state[MATCH_SCORE + team] = state[COMPENSATION + team]  # the points a team starts with
    _deal(state, chance)


@njit(cache=True, _nrt=False)
def _deal(state, chance):
    """Deal ``H_DEAL_NO`` of the match (CA-6; deal 0 is the one-deal game's): a new shuffle from
    the chance stream, and this deal's records started afresh (the match's are kept)."""
    for c in range(N_CARDS):
        state[SCRATCH + c] = c
        state[TABLE + c] = -1
        state[CARD_PUB + c] = PUB_HAND
    shuffle(chance, state, SCRATCH, N_CARDS)
    # deck position i goes to the table (i < 4) or to seat (i - 4) // 12; writing each card's
    # destination first and then walking the cards in id order fills the table and the hands
    # already sorted
    for i in range(N_CARDS):
        state[SCR_OWNER + state[SCRATCH + i]] = DEAL_TO[i]
    for p in range(PLAYERS):
        state[PRIVATE + p * PRIVATE_SIZE] = HAND_SIZE
    fill = SCRATCH  # reuse the deck's first five slots as fill counters (the deck is spent)
    for k in range(PLAYERS + 1):
        state[fill + k] = DEST[k]
    for c in range(N_CARDS):
        o = state[SCR_OWNER + c]
        state[state[fill + o]] = c
        state[fill + o] += 1
    for p in range(PLAYERS):
        for i in range(HAND_SIZE):
            state[S_DEALT + p * N_CARDS + state[PRIVATE + p * PRIVATE_SIZE + 1 + i]] += 1
    state[H_TABLE_LO] = 0
    state[H_TABLE_HI] = 0
    numerals = 0
    for i in range(TABLE_START):
        c = state[TABLE + i]
        state[CARD_PUB + c] = PUB_TABLE
        _table_bit_set(state, c)
        numerals += c < N_NUMERALS
    state[H_TABLE_NUMERALS] = numerals
    state[H_TABLE_N] = TABLE_START
    state[H_TURN] = 0
    state[H_LAST_PLACED] = -1  # no Picada on the deal's first turn, whatever ended the last one
    state[H_LAST_CAPTURER] = -1
    for team in range(2):
        for k in range(STAT_LEADER):  # this deal's columns; the leader slot is the match's
            state[TEAM_STATS + team * N_STATS + k] = 0
        state[TEAM_SCORE + team] = 0
    starter = state[H_DEAL_NO] & 3  # CA-6: deal k is started by seat k mod 4 (CA-1: deal 0, seat 0)
    state[H_DEAL_STARTER] = starter
    state[H_TO_MOVE] = starter


@njit(cache=True, inline="always")
def to_move(state):
    return state[H_TO_MOVE]


@njit(cache=True, inline="always")
def legal_moves(state, moves):
    """Write the legal moves ascending; ``moves[BUCKETS:]`` serves as scratch (see MAX_MOVES).

    1. Bucket every set of table numerals by its value sum, up to ``vmax`` (the highest numeral
       in hand): bucket 0 holds the empty set; each table numeral, in id order (value v), is added
       to every set of every bucket s <= vmax - v, the result appended to bucket s + v. Buckets
       are taken highest first, so each is read before this numeral's sets reach it, and every
       new set holds the highest id yet: each bucket stays in ascending mask order. Then each
       court on the table goes to the bucket of its rank. Bucket r holds the captures of a card
       of rank r (same-rank singles and sums for numerals, the singles for courts). The C
       reference builds its buckets the same way (depth first); building them directly instead
       of listing the sets and counting-sorting them by sum made this function 1.7x faster.
    2. For each hand card (ascending): its place move, then its bucket. Buckets are short, so
       three entries are copied unconditionally (the count decides how many stay): this loop
       then has no data-dependent branch in the common case.
    """
    seat = state[H_TO_MOVE]
    if seat < 0:
        return 0
    base = PRIVATE + seat * PRIVATE_SIZE
    size = state[base]
    j = size - 1
    while j >= 0 and state[base + 1 + j] >= N_NUMERALS:
        j -= 1
    vmax = (state[base + 1 + j] >> 2) + 1 if j >= 0 else 0
    tn = state[H_TABLE_N]
    k = state[H_TABLE_NUMERALS]
    for r in range(1, RE + 1):
        state[SCR_COUNT + r] = 0
    state[SCR_COUNT] = 1
    moves[BUCKETS] = 0  # bucket 0: the empty set
    filled = np.int64(1)  # bit s: bucket s holds a set
    for i in range(k):
        x = state[TABLE + i]
        v = (x >> 2) + 1
        if v > vmax:
            break
        bit = np.int64(1) << x
        sources = filled & ((np.int64(1) << (vmax - v + 1)) - 1)
        while sources != 0:
            s = 63 - leading_zeros(sources)
            sources ^= np.int64(1) << s
            t = s + v
            count = state[SCR_COUNT + s]
            have = state[SCR_COUNT + t]
            src = BUCKET_START[s]
            dst = BUCKET_START[t] + have
            for e in range(count):
                moves[dst + e] = moves[src + e] | bit
            state[SCR_COUNT + t] = have + count
            filled |= np.int64(1) << t
    for i in range(k, tn):
        x = state[TABLE + i]
        r = (x >> 2) + 1
        have = state[SCR_COUNT + r]
        moves[BUCKET_START[r] + have] = np.int64(1) << x
        state[SCR_COUNT + r] = have + 1
    if state[H_SINGLE_FORCED] != 0:
        return _emit_forced(state, moves, base, size)
    n = 0
    for j in range(size):
        c = state[base + 1 + j]
        r = (c >> 2) + 1
        code = np.int64(c) << MOVE_SHIFT
        lo = BUCKET_START[r]
        cnt = state[SCR_COUNT + r]
        moves[n] = code
        moves[n + 1] = moves[lo] | code
        moves[n + 2] = moves[lo + 1] | code
        moves[n + 3] = moves[lo + 2] | code
        if cnt > 3:
            for q in range(3, cnt):
                moves[n + 1 + q] = moves[lo + q] | code
        n += 1 + cnt
    return n


@njit(cache=True, _nrt=False)
def _emit_forced(state, moves, base, size):
    """Step 3 with ``single_match_forced`` (CA-5): a card that can take a single card of its
    rank keeps only those single captures (one-bit masks) from its bucket."""
    n = 0
    for j in range(size):
        c = state[base + 1 + j]
        r = (c >> 2) + 1
        code = np.int64(c) << MOVE_SHIFT
        moves[n] = code
        n += 1
        single = False
        for s in range(4):
            if state[CARD_PUB + 4 * (r - 1) + s] == PUB_TABLE:
                single = True
        for q in range(BUCKET_START[r], BUCKET_START[r] + state[SCR_COUNT + r]):
            m = moves[q]
            if single and (m & (m - 1)) != 0:
                continue  # a sum while a single card of the rank lies there
            moves[n] = m | code
            n += 1
    return n


@njit(cache=True, _nrt=False)
def determinize(public, private, state, rng):
    """Fill ``state`` with a complete state that the seat to move cannot tell from the real one
    (see "Determinization" in the module docstring); returns the number of hidden cards drawn,
    or -1 if the views contradict each other (then ``state`` is unusable).

    ``public`` is ``public_view`` of the real state, ``private`` the ``private_view`` of the seat
    to move (``public[H_TO_MOVE]``); ``state`` (STATE_SIZE, not aliasing either view) is
    overwritten entirely (its scratch part is the work space, left zeroed); ``rng`` (xoshiro256**,
    uint64[4]) is the only source of randomness: ``n - 1`` draws for ``n`` hidden cards. Past the
    end of the game (``H_TO_MOVE`` -1) every hand is empty and it returns 0.
    """
    for i in range(PUBLIC_SIZE):
        state[i] = public[i]
    seat = public[H_TO_MOVE]
    turn = public[H_TURN]
    starter = public[H_DEAL_STARTER]
    mine = np.int64(0)  # the seat's own hand as a card mask
    if seat >= 0:
        for j in range(1, 1 + private[0]):
            mine |= np.int64(1) << private[j]
    # the hidden cards, ascending: in some hand (CARD_PUB) but not in the seat's own
    pool = SCRATCH
    n = 0
    for c in range(N_CARDS):
        if public[CARD_PUB + c] == PUB_HAND and ((mine >> c) & 1) == 0:
            state[pool + n] = c
            n += 1
    # the other hands' sizes (12 less the turns each has had in this deal), as n seat labels
    labels = SCR_OWNER
    m = 0
    for p in range(PLAYERS):
        base = PRIVATE + p * PRIVATE_SIZE
        if p == seat:
            for j in range(PRIVATE_SIZE):
                state[base + j] = private[j]
            continue
        o = (p - starter) & 3  # the seat's place in this deal's order
        size = HAND_SIZE - ((turn - o + 3) >> 2)
        for j in range(size):
            state[labels + m + j] = p
        m += size
        state[base] = 0  # the fill count until the hand is dealt
        for j in range(1, PRIVATE_SIZE):
            state[base + j] = -1
    if m != n:
        return -1
    # a uniform arrangement of the labels deals the hidden cards uniformly (Fisher-Yates)
    for j in range(n - 1, 0, -1):
        i = below(rng, j + 1)
        t = state[labels + j]
        state[labels + j] = state[labels + i]
        state[labels + i] = t
    # hidden card k (ascending) goes to the seat of label k, so every hand comes out sorted
    for k in range(n):
        base = PRIVATE + state[labels + k] * PRIVATE_SIZE
        f = state[base] + 1
        state[base + f] = state[pool + k]
        state[base] = f
    state[SCRATCH:] = 0  # the work space cleared: the sample is a function of the views and rng
    return n


@njit(cache=True, inline="always")
def _take(state, team, c):
    """Card ``c`` goes to ``team``'s pile."""
    state[CARD_PUB + c] = PUB_TAKEN + team
    st = TEAM_STATS + team * N_STATS
    state[st + STAT_CARDS] += 1
    if (c & 3) == SWORDS:
        state[st + STAT_SWORDS] += 1


@njit(cache=True, inline="always")
def _owner(state, c):
    """Team holding card ``c`` at the end, or -1 (unclaimed)."""
    where = state[CARD_PUB + c]
    return where - PUB_TAKEN if where >= PUB_TAKEN else -1


@njit(cache=True, _nrt=False)
def _end_deal(state, chance):
    """Score the deal (rule 5) into TEAM_STATS / TEAM_SCORE, add it to the match, then deal the
    next deal of the match (CA-6) or end the game."""
    team = state[H_LAST_CAPTURER]
    n = state[H_TABLE_N]
    if team >= 0:  # CA-3: without any capture the table stays unclaimed
        for i in range(n):
            _take(state, team, state[TABLE + i])
            state[TABLE + i] = -1
        state[H_TABLE_N] = 0
        state[H_TABLE_NUMERALS] = 0
        state[H_TABLE_LO] = 0
        state[H_TABLE_HI] = 0
    s0 = TEAM_STATS
    s1 = TEAM_STATS + N_STATS
    pts = POINTS - STAT_SCUA  # pts + k: the points of statistic k (the component table)
    if state[s0 + STAT_CARDS] > state[s1 + STAT_CARDS]:
        state[s0 + STAT_MOST_CARDS] = state[pts + STAT_MOST_CARDS]
    elif state[s1 + STAT_CARDS] > state[s0 + STAT_CARDS]:
        state[s1 + STAT_MOST_CARDS] = state[pts + STAT_MOST_CARDS]
    if state[s0 + STAT_SWORDS] > state[s1 + STAT_SWORDS]:
        state[s0 + STAT_MOST_SWORDS] = state[pts + STAT_MOST_SWORDS]
    elif state[s1 + STAT_SWORDS] > state[s0 + STAT_SWORDS]:
        state[s1 + STAT_MOST_SWORDS] = state[pts + STAT_MOST_SWORDS]
    t = _owner(state, MATA)
    if t >= 0:
        state[TEAM_STATS + t * N_STATS + STAT_MATA] = state[pts + STAT_MATA]
    t = _owner(state, TEN_OF_COINS)
    if t >= 0:
        state[TEAM_STATS + t * N_STATS + STAT_TEN_OF_COINS] = state[pts + STAT_TEN_OF_COINS]
    t = _owner(state, FANTE_OF_CUPS)
    if t >= 0:
        state[TEAM_STATS + t * N_STATS + STAT_FANTE_OF_CUPS] = state[pts + STAT_FANTE_OF_CUPS]
    t = _owner(state, card_of_nb(1, SWORDS))
    if t >= 0:  # Napula: the unbroken run of swords from the Asso, if it is long enough
        top = RE if state[H_NAPULA10] != 0 else 10
        run = 1
        while run < top and _owner(state, card_of_nb(run + 1, SWORDS)) == t:
            run += 1
        if run >= state[POINTS + PT_NAPULA_RUN]:
            state[TEAM_STATS + t * N_STATS + STAT_NAPULA] = run * state[POINTS + PT_NAPULA_PER_CARD]
    for team in range(2):
        st = TEAM_STATS + team * N_STATS
        total = 0
        for k in range(STAT_SCUA, STAT_QUADRIGLIA + 1):  # bonus counts, times their points
            total += state[st + k] * state[pts + k]
        for k in range(STAT_MOST_CARDS, STAT_NAPULA + 1):  # prize points
            total += state[st + k]
        state[TEAM_SCORE + team] = total
        # CA-6: the deal's columns and total add up over the match
        mt = MATCH_STATS + team * N_STATS
        for k in range(STAT_LEADER):
            state[mt + k] += state[st + k]
        state[MATCH_SCORE + team] += total
    if state[H_DEAL_NO] + 1 < state[H_MATCH_DEALS]:
        state[H_DEAL_NO] += 1
        _deal(state, chance)
    else:
        state[H_TO_MOVE] = -1


@njit(cache=True, _nrt=False)
def _take_lead(state):
    """Record the team ahead on match points at two thirds of the match: the finished deals'
    totals plus the bonuses of the deal in progress (prizes come at a deal's end)."""
    lead = state[MATCH_SCORE] - state[MATCH_SCORE + 1]
    for k in range(STAT_SCUA, STAT_QUADRIGLIA + 1):
        lead += (state[TEAM_STATS + k] - state[TEAM_STATS + N_STATS + k]) * state[POINTS - STAT_SCUA + k]
    leader = 0 if lead > 0 else (1 if lead < 0 else -1)
    for team in range(2):
        state[TEAM_STATS + team * N_STATS + STAT_LEADER] = leader
        state[MATCH_STATS + team * N_STATS + STAT_LEADER] = leader


@njit(cache=True, inline="always")
def apply_move(state, move, chance):
    seat = state[H_TO_MOVE]
    team = seat & 1
    card = np.int32(move >> MOVE_SHIFT)
    mask = move & MASK52
    base = PRIVATE + seat * PRIVATE_SIZE
    state[base] = remove_sorted(state, base + 1, state[base], card)
    n = state[H_TABLE_N]
    if mask == 0:
        # place: insert into the sorted table
        j = n
        while j > 0 and state[TABLE + j - 1] > card:
            state[TABLE + j] = state[TABLE + j - 1]
            j -= 1
        state[TABLE + j] = card
        state[H_TABLE_N] = n + 1
        if card < N_NUMERALS:
            state[H_TABLE_NUMERALS] += 1
        _table_bit_set(state, card)
        state[CARD_PUB + card] = PUB_TABLE
        state[H_LAST_PLACED] = card
    else:
        # capture: keep the table cards not in the mask (in order), then file the captured ones
        st = TEAM_STATS + team * N_STATS
        w = 0
        for i in range(n):
            c = state[TABLE + i]
            state[TABLE + w] = c
            w += 1 - ((mask >> c) & 1)
        for i in range(w, n):
            state[TABLE + i] = -1
        state[H_TABLE_N] = w
        state[H_TABLE_NUMERALS] -= popcount(mask & NUMERAL_MASK)
        state[H_TABLE_LO] &= ~np.int32(mask & ((1 << SPLIT) - 1))
        state[H_TABLE_HI] &= ~np.int32(mask >> SPLIT)
        taken = mask | (np.int64(1) << card)
        m = taken
        while m != 0:
            state[CARD_PUB + cttz(m)] = PUB_TAKEN + team
            m &= m - 1
        captured = popcount(mask)
        state[st + STAT_CARDS] += captured + 1
        state[st + STAT_SWORDS] += popcount(taken & SWORD_MASK)
        if w == 0 and (state[H_LAST_SWEEP] != 0 or state[H_TURN] != TURNS - 1):
            state[st + STAT_SCUA] += 1
        last = state[H_LAST_PLACED]
        if last >= 0 and mask == (np.int64(1) << last):
            state[st + STAT_PICADA] += 1
        if (mask & ~(SWORD_MASK << (card & 3))) == 0:
            state[st + STAT_SIMILI] += 1
        if captured >= 3:
            state[st + STAT_QUADRIGLIA] += 1
        state[H_LAST_PLACED] = -1
        state[H_LAST_CAPTURER] = team
    turn = state[H_TURN] + 1
    state[H_TURN] = turn
    if turn == TURNS:
        _end_deal(state, chance)  # and the next deal of a match
    else:
        seat += 1
        state[H_TO_MOVE] = 0 if seat == PLAYERS else seat
    # two thirds of the match: turn LEADER_TURN * K of its 48 * K (after the deal's scoring and
    # the next deal when that turn ends a deal)
    if state[H_DEAL_NO] * TURNS + state[H_TURN] == LEADER_TURN * state[H_MATCH_DEALS]:
        _take_lead(state)


@njit(cache=True, _nrt=False)
def result(state, score, rank, extra):
    """The match's: totals and columns summed over its deals (one deal: that deal's)."""
    s0 = state[MATCH_SCORE]
    s1 = state[MATCH_SCORE + 1]
    for p in range(PLAYERS):
        team = p & 1
        score[p] = state[MATCH_SCORE + team]
        mine, theirs = (s0, s1) if team == 0 else (s1, s0)
        rank[p] = 2 if theirs > mine else 1
        st = MATCH_STATS + team * N_STATS
        for k in range(N_STATS):
            extra[p, k] = state[st + k]


RULES = kernel.rules_module(__name__)  # this module, as the kernel loop and the search take it


@njit(cache=True)
def play_chunk(params, chunk):  # kernel.play_games with this game's cap on decisions
    return kernel.play_games(RULES, DECISIONS_PER_DEAL * params[P_MATCH_DEALS], params, chunk)


# ----------------------------------------------------------------------------- rule parameters
COMPONENTS = Components(NAME, Path(__file__).with_name("components.toml"), values=[
    Value("bonuses.scua", 0, 9, "points per Scua (a capture that empties the table)", reach=2),
    Value("bonuses.picada", 0, 9, "points per Picada (taking the card the previous player placed)", reach=2),
    Value("bonuses.simili", 0, 9, "points per Simili (played and captured cards all of one suit)", reach=2),
    Value("bonuses.quadriglia", 0, 9, "points per Quadriglia (a capture of three or more cards)", reach=2),
    Value("prizes.most_cards", 0, 9, "points for taking more cards than the other team", reach=2),
    Value("prizes.most_swords", 0, 9, "points for taking more swords than the other team", reach=2),
    Value("prizes.mata", 0, 9, "points for taking La Mata (the 2 of swords)", reach=2),
    Value("prizes.ten_of_coins", 0, 9, "points for taking the 10 of coins", reach=2),
    Value("prizes.fante_of_cups", 0, 9, "points for taking the Fante of cups", reach=2),
    Value("napula.per_card", 0, 9, "points per card of a Napula run", reach=2),
    Value("napula.run", 1, 10, "cards from the Asso of swords a run needs to score", reach=2),
    Value("compensation.points", 0, 9, "points each team starts the match with (seat compensation)", length=2,
          names=("team0", "team1"), reach=5, compensation=True),
], nearest={  # the cards that carry a prize of their own: that prize one point lower
    "2 of swords": ("prizes.mata", -1), "10 of coins": ("prizes.ten_of_coins", -1),
    "Fante of cups": ("prizes.fante_of_cups", -1)})


def point_values(table: dict) -> list[int]:
    """The component table's values in POINT_KEYS order (params, the POINTS block)."""
    return [table[group][name] for group, name in (key.split(".") for key in POINT_KEYS)]


#: the kernel's params, declared once (simulate/games/layout.py): what ``make_params`` packs and
#: ``init`` copies into the state (``copy_params``); match_deals defaults to the rulebook's one
#: deal for callers that name only the CA-5 options
PARAMS = Params(LAYOUT, [
    ("P_PLAYERS", 1, None, lambda c: c.players, "n players (always PLAYERS)"),
    ("P_SINGLE_FORCED", 1, "H_SINGLE_FORCED", lambda c: int(bool(c.options["single_match_forced"])),
     "rule option single_match_forced (0/1)"),
    ("P_LAST_SWEEP", 1, "H_LAST_SWEEP", lambda c: int(bool(c.options["last_sweep_scores"])),
     "rule option last_sweep_scores (0/1)"),
    ("P_NAPULA10", 1, "H_NAPULA10", lambda c: int(bool(c.options["napula_beyond_10"])),
     "rule option napula_beyond_10 (0/1)"),
    ("P_MATCH_DEALS", 1, "H_MATCH_DEALS", lambda c: int(c.options.get("match_deals", 1)),
     "rule option match_deals (CA-6); play_chunk's cap on decisions"),
    ("P_POINTS", N_POINTS, "POINTS", lambda c: point_values(c.table), "the component table (POINT_KEYS order)"),
    ("P_COMPENSATION", 2, "COMPENSATION", lambda c: list(c.table["compensation"]["points"]),
     "the seat compensation: points each team starts with"),
], components=COMPONENTS, complete=True)  # a table recorded before a key was added: its default
PARAMS.install(globals())  # P_PLAYERS = 0, ..., PARAMS_SIZE, make_params, copy_params
