"""Partners in words and JSON: moves, positions and chance events named as the rules file names them.

Pure Python over the state array laid out in ``rules.py`` (a move's effect is worked out on a
copy of the board with the kernel's own helpers, so the spelling is the kernel's). Seats 0..3
play the colours ``yellow``, ``red``, ``blue``, ``green``; teams are 0 (seats 0 and 2, yellow and
blue) and 1 (seats 1 and 3, red and green).

Cards
-----
A card *kind* is spelled by its name: ``Start``, ``Ace``, ``2``, ``3``, ``-4``, ``5``, ``6``, ``7``,
``8``, ``9``, ``10``, ``Swap``, ``12``, ``13``. A move names the kind it plays (copies of a kind are
the same card, PA-11; the kernel plays the lowest copy). A single card, in positions and chance
events, is its kind and its copy counted from 1: ``Ace#1`` .. ``Ace#4`` (the kernel's card ids in
order: ``Start#1`` is card 0, ``13#4`` card 55). Copies are told apart because the kernel state
tells them apart (which copy was played, which one was given).

Places
------
``{"where": "outside"}``; ``{"where": "start"}`` (the colour's own start space);
``{"where": "ring", "space": A}``, A the absolute numbered space 0..55 (colour c's section is
spaces 14c..14c+13, its start space lies just before space 14c, its house entrance is the space
just before its start space); ``{"where": "house", "space": H}``, H = 1..4 (house space 1 first).

Moves (``move_to_json``)
------------------------
A play names the kind played (``card``) and every piece it moves: its ``colour`` (the partner's
once the player's own four are home), the place it leaves (``from``), the ``steps`` (negative for
the -4; none for a start) and where it ends (``to``; ``outside`` when it lands on a protected
pair), and ``knocked_out``: the pieces its landing sends outside, each ``{"colour", "from"}`` with
the landing space (the mover itself when it lands on two pieces of one other colour); left out
when empty. A written action (``tourney check``) may leave keys out.

- start a piece (Start, 8, 13)::

    {"action": "play", "card": "Start", "colour": "blue", "from": {"where": "outside"},
     "to": {"where": "start"}}

- one piece forward or back (the Ace as 1 or 14; the -4 also from the start space)::

    {"action": "play", "card": "2", "colour": "green", "from": {"where": "start"}, "steps": 2,
     "to": {"where": "ring", "space": 43},
     "knocked_out": [{"colour": "yellow", "from": {"where": "ring", "space": 43}}]}
    {"action": "play", "card": "-4", "colour": "blue", "from": {"where": "ring", "space": 1},
     "steps": -4, "to": {"where": "ring", "space": 53}}
    {"action": "play", "card": "10", "colour": "green", "from": {"where": "ring", "space": 34},
     "steps": 10, "to": {"where": "house", "space": 3}}

- the 7: ``split``, its sub-moves in the order they are made (own pieces first, PA-5); here
  green's last piece goes home and the rest of the steps go to red, green's partner::

    {"action": "play", "card": "7", "split": [
      {"colour": "green", "from": {"where": "ring", "space": 40}, "steps": 2,
       "to": {"where": "house", "space": 1}},
      {"colour": "red", "from": {"where": "house", "space": 1}, "steps": 1,
       "to": {"where": "house", "space": 2}},
      {"colour": "red", "from": {"where": "ring", "space": 38}, "steps": 4,
       "to": {"where": "ring", "space": 42}}]}

  Orders of sub-moves with the same outcome are one move (PA-11): the spelling follows the move
  code, which keeps the lexicographically smallest order.
- Swap: the two pieces by ascending space, each ending where the other stood::

    {"action": "play", "card": "Swap", "swap": [
      {"colour": "blue", "from": {"where": "ring", "space": 19}},
      {"colour": "green", "from": {"where": "ring", "space": 38}}]}

  or ``{"action": "play", "card": "Swap", "swap": "same colour"}``: the one move swapping two
  pieces of one colour, which changes nothing (PA-11).
- give a card in the exchange (PA-8): ``{"action": "give", "card": "Start", "partner": 2}``
- no card usable: ``{"action": "discard", "cards": ["2", "9", "10", "12"]}`` (the kinds put face
  up, in hand order)

Chance events (``reference.Game`` asks its ``chance`` for them)
---------------------------------------------------------------
One kind, ``deal``, at every deal (the first as the game is set up, then whenever the last hand
of a deal is empty): the cards each seat is dealt, by seat, each hand in card order::

    {"deal": {"hands": [["Start#4", "9#1", "10#1", "12#1"], ["Ace#4", "10#3", "Swap#1", "Swap#4"],
                        ["2#3", "6#3", "12#2", "12#3"], ["Start#2", "3#4", "7#4", "12#4"]]}}

The cards come from the pile: the whole deck at the first deal of every dealer (a reshuffle,
PA-10, PA-12), else what the dealer's earlier deals left. A deal reveals what the rules reveal,
each seat its own cards; the order of the cards left in the pile is never revealed and never
needed: a trace's deals and decisions determine the game. Drawn from the chance stream, the first
deal of a dealer shuffles the whole deck (one Fisher-Yates, as the kernel does), the seat after
the dealer gets the first 4 cards, the next seat the next 4, and so on; the dealer's next deals
go on down the same order. A written deal is refused (``ChanceError``) unless it is 4 lists of 4
card spellings, no card twice, every card in the pile.

Positions (``describe_state`` / ``load_state``)
-----------------------------------------------
A position is a JSON object with the keys below. ``load_state`` takes the rule options and tables
from the rules file when they are left out; ``players``, ``teams`` and ``colours`` may be left out
too (if given they must be the constants shown); every other key is required.

======================  ====================================================================
``players``             4
``teams``               ``[[0, 2], [1, 3]]``
``colours``             ``["yellow", "red", "blue", "green"]``, the colours of seats 0..3
``house_overshoot``     PA-3 option: ``"illegal"`` (default) or ``"bounce"``
``board``               ``{"section": 14, "house": 4}``: numbered spaces per colour section
                        (4..20) and house spaces per colour (4..8) (PA-1)
``deals_per_dealer``    deals each dealer deals before the next seat reshuffles (PA-10, PA-12): 3
``max_deals``           the deal cap (PA-7), 1..500: 500
``deck``                (a variant deck only) the copies of every kind, ``{"Start": 4, ...}``:
                        16 x ``deals_per_dealer`` to 64 cards in all. Written only when the
                        deck or the effects are not the rules file's (PA-2)
``card_effects``        (a variant deck only) every kind's effects, zeros left out:
                        ``{"Start": {"start": 1}, "Ace": {"forward": 1, "forward_alt": 14},
                        "-4": {"back": 4}, "7": {"split": 7}, "8": {"forward": 8, "start": 1},
                        "Swap": {"swap": 1}, ...}``; one family per kind: forward/start, back,
                        split or swap
``deal``                deals dealt so far, this one included (1..max_deals)
``dealer``              the seat that dealt this deal: seat 3 deals first and each dealer deals
                        ``deals_per_dealer`` times, so it follows from ``deal``
``phase``               ``"exchange"`` (PA-8), ``"play"`` or ``"over"``
``to_move``             the seat to move, -1 when the game is over
``pieces``              ``{"yellow": [4 places], "red": [...], "blue": [...], "green": [...]}``
``hands``               the cards in each seat's hand, by seat (at most 4 each)
``given``               by seat: the card it gave its partner this deal, or null. In the exchange
                        the cards given wait until all four have given (the givers are the
                        seats after the dealer in turn; ``to_move`` is the next one); in play
                        the card belongs to the partner (in its hand, played or discarded)
``received``            by seat: the card its partner gave it this deal (null in the exchange)
``pile``                the cards not dealt, in the order they will be dealt (first card first)
``played``              the cards played since the last reshuffle
``discarded``           the cards discarded (face up) since the last reshuffle
``knockouts_given``     by seat: pieces of other colours its cards knocked out
``knockouts_suffered``  by seat: pieces of its colour knocked out
``swaps``               by seat: Swap cards it played
``leads``               the team ahead on progress at the end of each finished deal (0, 1, or
                        -1 level): read by the ``leader_at_two_thirds`` result column
``winner``              the winning team (0 or 1) or null
``truncated``           true when the game stopped at the deal cap (PA-7)
======================  ====================================================================

Every card of the deck is in exactly one of ``hands``, ``pile``, ``played``, ``discarded`` and (in
the exchange) ``given``; the pile holds what the dealer's deals left of the deck. ``load_state``
recomputes what the kernel derives (hand and pile counts, the deck position, pieces outside, on
the start space and home, house masks, the ring's occupancy, the card and effect tables, the
gives so far) and refuses a malformed or impossible position with :class:`PositionError` (one
line: what is wrong, what is allowed). The kernel's scratch (:data:`SCRATCH_FIELDS`,
:func:`scratch_mask`: the 7's work tables, its hash table, the dealt part of the deck) is not
part of a position.
"""
from __future__ import annotations

from array import array
from functools import lru_cache
from itertools import chain, compress, repeat
from operator import mul

import numpy as np

from ..spec import PositionError
from .rules import (
    back_dest, BOARD_HOUSE, BOARD_SECTION, CARD_KIND, CARD_PUB, CP_DISCARDED, CP_NONE, CP_PLAYED, CP_UNSEEN, DECK,
    DEALS_PER_DEALER, DECK_COUNTS, E_BACK, EFFECT_KEYS, E_SPLIT, E_SWAP, fwd_dest, kind_problem,
    H_DEALER, H_DEALER_DEALS, H_DEALS, H_DEALS_PER_DEALER, H_EXCHANGED, H_HOUSE, H_MAX_DEALS,
    H_N_CARDS, H_OVERSHOOT, H_PHASE, H_PILE, H_PLAYERS, H_RING, H_SECTION, H_TO_MOVE, H_TRUNCATED,
    H_WINNER, HAND_COUNT, HAND_SIZE, HIST_WORDS, HOME, HOUSE_MASK, KIND_EFFECTS, KIND_NAMES,
    KIND_SHIFT, KIND_TABLE, KO_GIVEN, KO_SUFFERED, LEAD_HIST, LEADS_PER_WORD, MAX_CARDS, MAX_DEALS,
    MAX_HOUSE, MAX_RING, MAX_SECTION, MOVE_DISCARD, MOVE_GIVE, N_EFFECTS, N_KINDS, OUT,
    OUTSIDE, OVERSHOOT_CHOICES, PHASE_EXCHANGE, PHASE_OVER, PHASE_PLAY, PIECE, PIECES, PRIVATE,
    PRIVATE_SIZE, PUBLIC_SIZE, PV_GIVEN, PV_HAND, PV_RECEIVED, PV_SIZE, RING_CNT, RING_COL,
    S_DECK_POS, S_STAMP, START_CNT, STATE_SIZE, SWAPS, W_T, _move_to, abs_space,
)

N_SEATS = 4
COLOUR_NAMES = ("yellow", "red", "blue", "green")  # seats 0..3: yellow+blue, red+green
TEAMS = [[0, 2], [1, 3]]
PHASE_NAMES = ("exchange", "play", "over")
#: the columns of a kind's row of the effect table (``rules.KIND_EFFECTS``), as positions name them
EFFECT_NAMES = EFFECT_KEYS  # as components.toml names them
#: the largest steps a move code can hold (its 6-bit steps field)
MAX_STEPS = 63
FIRST_DEALER = 3  # PA-10
MAX_TALLY = 2 ** 31 - 1  # an int32 count
#: the place value of each deal's 2-bit code in its LEAD_HIST word
LEAD_PLACES = [4 ** d for d in range(LEADS_PER_WORD)]

from .rules import N_PLAYERS, S_DEALT  # noqa: E402  (the dealt column's counts)
#: The kernel's scratch: regions of the state that are work space, not part of the position,
#: as (name, first index, end index). ``load_state`` leaves them as a fresh state has them
#: (zero); the kernel writes them before it reads them. The deck region ``DECK[0, MAX_CARDS)``
#: is scratch only in its dealt part ``DECK[0, S_DECK_POS)`` (the cards dealt since the last
#: reshuffle, in deal order; ``load_state`` writes every card not in the pile there, ascending);
#: its pile part ``DECK[S_DECK_POS, N_CARDS)`` is the position's ``pile``. See
#: :func:`scratch_mask`.
SCRATCH_FIELDS = (
    ("dealt part of the deck (DECK[0, S_DECK_POS))", DECK, DECK + MAX_CARDS),
    ("what each seat was dealt so far (S_DEALT, the dealt column's counts; a game loaded from a "
     "position counts from there)", S_DEALT, S_DEALT + N_PLAYERS * N_KINDS),
    ("work tables of the 7 enumeration and the Swap candidates", W_T, LEAD_HIST),
    ("hash table of the 7 enumeration", S_STAMP, STATE_SIZE),
)


def scratch_mask(state: np.ndarray) -> np.ndarray:
    """True at every index of ``state`` that is scratch (:data:`SCRATCH_FIELDS`), not position."""
    mask = np.zeros(STATE_SIZE, bool)
    for _, start, end in SCRATCH_FIELDS:
        if start == DECK:
            end = DECK + int(state[S_DECK_POS])
        mask[start:end] = True
    return mask


# ----------------------------------------------------------------------------- cards
@lru_cache(maxsize=16)
def card_names(card_kind: tuple) -> tuple:
    """The spelling of every card of a deck whose card ``c`` has kind ``card_kind[c]``: its kind
    and its copy, counted from 1 in card order (``"Ace#1"`` .. ``"Ace#4"``)."""
    copies = [0] * N_KINDS
    names = []
    for kind in card_kind:
        copies[kind] += 1
        names.append(f"{KIND_NAMES[kind]}#{copies[kind]}")
    return tuple(names)


@lru_cache(maxsize=16)
def card_ids(card_kind: tuple) -> dict:
    """The card id of every spelling of :func:`card_names`."""
    return {name: c for c, name in enumerate(card_names(card_kind))}


# ----------------------------------------------------------------------------- places
def place_json(colour: int, t: int, section: int, ring: int) -> dict:
    """The place of colour ``colour``'s piece at track code ``t`` (see the module docstring)."""
    if t == OUTSIDE:
        return {"where": "outside"}
    if t == 0:
        return {"where": "start"}
    if t <= ring:
        return {"where": "ring", "space": (t - 1 + section * colour) % ring}
    return {"where": "house", "space": t - ring}


def _place_json(state, colour, t):
    return place_json(colour, int(t), int(state[H_SECTION]), int(state[H_RING]))


def place_name(state: np.ndarray, colour: int, t: int) -> str:
    ring = int(state[H_RING])
    if t == OUTSIDE:
        return "outside"
    if t == 0:
        return "own start"
    if t <= ring:
        return f"space {int(abs_space(state, colour, t))}"
    return f"house {t - ring}"


# ----------------------------------------------------------------------------- moves
def kind_of(move: int) -> int:
    return int(move) >> KIND_SHIFT


def split_parts(move: int, total: int = 7) -> list[tuple[int, int, int]]:
    """The sub-moves of a 7 code: (side, track code, steps); side 0 own colour, 1 partner's."""
    move = int(move)
    n_own = (move >> 55) & 7
    comp = (move >> 49) & 63
    steps, prev = [], 0
    for c in range(1, total):
        if not (comp >> (6 - c)) & 1:
            steps.append(c - prev)
            prev = c
    steps.append(total - prev)
    return [(0 if j < n_own else 1, (move >> (42 - 7 * j)) & 127, s) for j, s in enumerate(steps)]


def _mover(state, seat: int) -> int:
    """The colour a seat's cards move: its own, or its partner's once its 4 pieces are home."""
    return seat ^ 2 if state[HOME + seat] == PIECES else seat


def _effects(state, move: int) -> list[dict]:
    """The pieces a (non-Swap) play moves, in order, each ``{colour, from, steps, to,
    knocked_out}``: the move made on a copy of the board with the kernel's own helpers (as
    ``rules._play`` makes it: the pieces of a 7 are picked first, then moved one after another)."""
    board = state[:PUBLIC_SIZE].copy()
    seat = int(board[H_TO_MOVE])
    kind = kind_of(move)
    eff = board[KIND_TABLE + kind * N_EFFECTS: KIND_TABLE + (kind + 1) * N_EFFECTS]
    if eff[E_SPLIT]:
        plan = []
        for side, t, steps in split_parts(move, int(eff[E_SPLIT])):
            colour = seat if side == 0 else seat ^ 2
            slot = next(i for i in range(PIECES) if board[PIECE + 4 * colour + i] == t
                        and (colour, i) not in [(c, j) for c, j, _ in plan])
            plan.append((colour, slot, steps))
    else:
        colour = _mover(board, seat)
        t = move & 127
        slot = next(i for i in range(PIECES) if board[PIECE + 4 * colour + i] == t)
        plan = [(colour, slot, None if t == OUTSIDE else int((move >> 7) & 63))]
    moved = []
    for colour, slot, steps in plan:
        t = int(board[PIECE + 4 * colour + slot])
        if steps is None:
            dest = 0
        elif eff[E_BACK]:
            dest = int(back_dest(board, colour, t, steps))
        else:
            dest = int(fwd_dest(board, colour, t, steps, board[HOUSE_MASK + colour]))
        landing = _place_json(board, colour, dest)
        before = board[PIECE:PIECE + 16].copy()
        _move_to(board, colour, slot, dest, seat)
        entry = {"colour": COLOUR_NAMES[colour], "from": _place_json(board, colour, t)}
        if steps is not None:
            entry["steps"] = -steps if eff[E_BACK] else steps
        entry["to"] = _place_json(board, colour, board[PIECE + 4 * colour + slot])
        knocked = [COLOUR_NAMES[c] for c in range(4) for i in range(PIECES)
                   if before[4 * c + i] != board[PIECE + 4 * c + i] and board[PIECE + 4 * c + i] == OUTSIDE]
        if knocked:
            entry["knocked_out"] = [{"colour": c, "from": landing} for c in knocked]
        moved.append(entry)
    return moved


def move_to_json(state: np.ndarray, move: int) -> dict:
    """The move spelled out completely (see "Moves" in the module docstring)."""
    move = int(move)
    seat = int(state[H_TO_MOVE])
    base = PRIVATE + seat * PRIVATE_SIZE
    if move == MOVE_DISCARD:
        hand = state[base + PV_HAND:base + PV_HAND + state[base + PV_SIZE]]
        return {"action": "discard", "cards": [KIND_NAMES[state[CARD_KIND + c]] for c in hand]}
    if move >= MOVE_GIVE:
        return {"action": "give", "card": KIND_NAMES[move - MOVE_GIVE], "partner": seat ^ 2}
    kind = kind_of(move)
    eff = state[KIND_TABLE + kind * N_EFFECTS: KIND_TABLE + (kind + 1) * N_EFFECTS]
    out = {"action": "play", "card": KIND_NAMES[kind]}
    if eff[E_SWAP]:
        if move & 0x3FFF == 0:
            out["swap"] = "same colour"
        else:
            out["swap"] = [{"colour": COLOUR_NAMES[state[RING_COL + a]],
                            "from": {"where": "ring", "space": a}}
                           for a in ((move >> 7) & 127, move & 127)]
        return out
    moved = _effects(state, move)
    if eff[E_SPLIT]:
        out["split"] = moved
    else:
        out.update(moved[0])
    return out


def describe_move(state: np.ndarray, move: int) -> str:
    move = int(move)
    seat = int(state[H_TO_MOVE])
    if move == MOVE_DISCARD:
        return "discards the hand (no card can be used)"
    kind = kind_of(move)
    if move >= MOVE_GIVE:
        return f"gives the partner a {KIND_NAMES[move - MOVE_GIVE]}"
    name = KIND_NAMES[kind]
    eff = state[KIND_TABLE + kind * N_EFFECTS: KIND_TABLE + (kind + 1) * N_EFFECTS]
    m = _mover(state, seat)
    if eff[E_SWAP]:
        if move & 0x3FFF == 0:
            return "plays Swap on two pieces of one colour (no change)"
        a, b = (move >> 7) & 127, move & 127
        qa, qb = int(state[RING_COL + a]), int(state[RING_COL + b])
        return f"plays Swap: {COLOUR_NAMES[qa]} on space {a} <-> {COLOUR_NAMES[qb]} on space {b}"
    if eff[E_SPLIT]:
        parts = []
        for side, t, s in split_parts(move, int(eff[E_SPLIT])):
            c = seat if side == 0 else seat ^ 2
            parts.append(f"{COLOUR_NAMES[c]} {s} from {place_name(state, c, t)}")
        return "plays 7: " + ", then ".join(parts)
    steps, t = (move >> 7) & 63, move & 127
    if t == OUTSIDE:
        return f"plays {name}: a {COLOUR_NAMES[m]} piece enters its start space"
    direction = "back" if eff[E_BACK] else "forward"
    return f"plays {name}: {COLOUR_NAMES[m]} {steps} {direction} from {place_name(state, m, t)}"


# ----------------------------------------------------------------------------- positions
@lru_cache(maxsize=16)
def _variant_tables(kind_table: tuple, card_kind: tuple) -> tuple:
    """The deck (copies per kind) and the effect table of a state as (name, value) pairs, or
    ``()`` when they are the rules file's (PA-2); cached, as a state's tables rarely change."""
    counts = [0] * N_KINDS
    for kind in card_kind:
        counts[kind] += 1
    deck = tuple((KIND_NAMES[k], counts[k]) for k in range(N_KINDS))
    effects = tuple((KIND_NAMES[k], tuple((EFFECT_NAMES[e], v) for e, v in
                                          enumerate(kind_table[k * N_EFFECTS:(k + 1) * N_EFFECTS]) if v))
                    for k in range(N_KINDS))
    if counts == DECK_COUNTS.tolist() and list(kind_table) == KIND_EFFECTS.reshape(-1).tolist():
        return ()
    return ("deck", deck), ("card_effects", effects)


def describe_state(state: np.ndarray) -> dict:
    """The complete position (see "Positions" in the module docstring): JSON-serialisable, and
    :func:`load_state` turns it back into the same kernel state (outside the scratch)."""
    s = state[:DECK + MAX_CARDS].tolist()
    n, section, ring = s[H_N_CARDS], s[H_SECTION], s[H_RING]
    kinds = tuple(s[CARD_KIND:CARD_KIND + n])
    names = card_names(kinds)
    variant = _variant_tables(tuple(s[KIND_TABLE:KIND_TABLE + N_KINDS * N_EFFECTS]), kinds)
    private = [s[PRIVATE + p * PRIVATE_SIZE:PRIVATE + (p + 1) * PRIVATE_SIZE] for p in range(N_SEATS)]
    pub = s[CARD_PUB:CARD_PUB + n]
    over = s[H_PHASE] == PHASE_OVER
    position = {
        "players": s[H_PLAYERS], "teams": [list(t) for t in TEAMS], "colours": list(COLOUR_NAMES),
        "house_overshoot": OVERSHOOT_CHOICES[s[H_OVERSHOOT]],
        "board": {"section": section, "house": s[H_HOUSE]},
        "deals_per_dealer": s[H_DEALS_PER_DEALER], "max_deals": s[H_MAX_DEALS],
        "deal": s[H_DEALS], "dealer": s[H_DEALER], "phase": PHASE_NAMES[s[H_PHASE]],
        "to_move": s[H_TO_MOVE],
        "pieces": {COLOUR_NAMES[c]: [place_json(c, t, section, ring) for t in s[PIECE + 4 * c:PIECE + 4 * c + 4]]
                   for c in range(N_SEATS)},
        "hands": [list(map(names.__getitem__, pv[PV_HAND:PV_HAND + pv[PV_SIZE]])) for pv in private],
        "given": [names[pv[PV_GIVEN]] if pv[PV_GIVEN] >= 0 else None for pv in private],
        "received": [names[pv[PV_RECEIVED]] if pv[PV_RECEIVED] >= 0 else None for pv in private],
        "pile": list(map(names.__getitem__, s[DECK + s[S_DECK_POS]:DECK + n])),
        "played": list(compress(names, map(CP_PLAYED.__eq__, pub))),
        "discarded": list(compress(names, map(CP_DISCARDED.__eq__, pub))),
        "knockouts_given": s[KO_GIVEN:KO_GIVEN + 4],
        "knockouts_suffered": s[KO_SUFFERED:KO_SUFFERED + 4],
        "swaps": s[SWAPS:SWAPS + 4],
        "leads": _leads(state, s[H_DEALS] if over else s[H_DEALS] - 1),
        "winner": None if s[H_WINNER] < 0 else s[H_WINNER],
        "truncated": bool(s[H_TRUNCATED]),
    }
    if variant:  # a variant deck: its tables (else the rules file's, PA-2)
        (_, deck), (_, effects) = variant
        position["deck"] = dict(deck)
        position["card_effects"] = {name: dict(row) for name, row in effects}
    return position


def _leads(state, deals: int) -> list[int]:
    """The leading team recorded at the end of deals 1..deals (``LEAD_HIST``; -1 level)."""
    words = state[LEAD_HIST:LEAD_HIST + HIST_WORDS].tolist()
    return [((words[d // LEADS_PER_WORD] >> (2 * (d % LEADS_PER_WORD))) & 3) - 1 for d in range(deals)]


#: what each key of a position holds (the allowed values named in load_state's messages)
POSITION_KEYS = {
    "players": "4",
    "teams": str(TEAMS),
    "colours": str(list(COLOUR_NAMES)),
    "house_overshoot": " or ".join(repr(c) for c in OVERSHOOT_CHOICES),
    "board": '{"section": 4..20, "house": 4..8}',
    "deck": 'the copies of every kind, e.g. {"Start": 4, ...}',
    "card_effects": 'every kind\'s effects, e.g. {"Ace": {"forward": 1, "forward_alt": 14}, ...}',
    "deals_per_dealer": "a positive integer",
    "max_deals": f"an integer from 1 to {MAX_DEALS}",
    "deal": "the deals dealt so far, 1..max_deals",
    "dealer": "the seat that dealt this deal",
    "phase": " or ".join(repr(p) for p in PHASE_NAMES),
    "to_move": "the seat to move (0 to 3), -1 when the game is over",
    "pieces": "4 places for each colour: " + ", ".join(COLOUR_NAMES),
    "hands": "4 lists of cards, by seat",
    "given": "4 cards or nulls, by seat",
    "received": "4 cards or nulls, by seat",
    "pile": "the cards not dealt, in dealing order",
    "played": "the cards played since the last reshuffle",
    "discarded": "the cards discarded since the last reshuffle",
    "knockouts_given": "4 counts, by seat",
    "knockouts_suffered": "4 counts, by seat",
    "swaps": "4 counts, by seat",
    "leads": "the leading team after each finished deal: 0, 1 or -1 (level)",
    "winner": "0, 1 or null",
    "truncated": "true or false",
}
#: the keys of the rule options and tables: left out, they take the rules file's defaults
RULE_KEYS = ("house_overshoot", "board", "deck", "card_effects", "deals_per_dealer", "max_deals")
#: keys ``load_state`` fills in when left out: the rule options (the rules file's defaults) and
#: the constants players, teams and colours
DEFAULTS = {
    "players": N_SEATS,
    "teams": TEAMS,
    "colours": list(COLOUR_NAMES),
    "house_overshoot": OVERSHOOT_CHOICES[0],
    "board": {"section": BOARD_SECTION, "house": BOARD_HOUSE},
    "deck": {KIND_NAMES[k]: int(DECK_COUNTS[k]) for k in range(N_KINDS)},
    "card_effects": {KIND_NAMES[k]: {EFFECT_NAMES[e]: int(v) for e, v in enumerate(KIND_EFFECTS[k]) if v}
                     for k in range(N_KINDS)},
    "deals_per_dealer": DEALS_PER_DEALER,
    "max_deals": MAX_DEALS,
}
#: the head of a state (public part, private parts, deck) that load_state writes; the rest of
#: the state is the deal history (LEAD_HIST) and scratch
HEAD = DECK + MAX_CARDS


def _fail(message: str):
    raise PositionError(message)


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(value, name: str, low: int, high: int, allowed: str | None = None) -> int:
    """``value`` as an int in [low, high], else PositionError naming ``name`` and the range."""
    if type(value) is not int or not low <= value <= high:
        _fail(f"{name} must be {allowed or f'an integer from {low} to {high}'}, got {_show(value)}")
    return value


def _listed(value, name: str, length: int | None = None) -> list:
    if not isinstance(value, list):
        _fail(f"{name} must be a list, got {_show(value)}")
    if length is not None and len(value) != length:
        _fail(f"{name} must hold {length} entries, not {len(value)}")
    return value


def _mapping(value, name: str, keys, allowed: str) -> dict:
    """``value`` as a dict with exactly the keys ``keys``."""
    if not isinstance(value, dict):
        _fail(f"{name} must be an object ({allowed}), got {_show(value)}")
    if len(value) != len(keys) or any(k not in value for k in keys):
        missing = [k for k in keys if k not in value]
        extra = [k for k in value if k not in keys]
        what = f"has no {missing[0]!r}" if missing else f"has an unknown key {extra[0]!r}"
        _fail(f"{name} {what} (keys: {', '.join(keys)})")
    return value


class _Tables:
    """The rule options and tables of a position (checked), with what they give: the card
    spellings, the track code of every place, and the head of a fresh state (header, effect
    table, card tables, empty ring, empty private parts)."""

    def __init__(self, overshoot: int, section: int, house: int, per_dealer: int, max_deals: int,
                 counts: list[int], rows: list[list[int]]):
        self.section, self.house, self.ring = section, house, 4 * section
        self.per_dealer, self.max_deals = per_dealer, max_deals
        self.n_cards = n = sum(counts)
        if not 4 * HAND_SIZE * per_dealer <= n <= MAX_CARDS:
            _fail(f"the deck holds {n} cards; it must hold {4 * HAND_SIZE * per_dealer} "
                  f"({4 * HAND_SIZE} for each of the {per_dealer} deals of a dealer) to {MAX_CARDS}")
        #: by colour: every place (its items, in either order) -> its track code for that colour
        self.tracks = [{} for _ in range(N_SEATS)]
        for c, tracks in enumerate(self.tracks):
            places = [({"where": "outside"}, OUTSIDE), ({"where": "start"}, 0)]
            places += [({"where": "ring", "space": a}, (a - section * c) % self.ring + 1)
                       for a in range(self.ring)]
            places += [({"where": "house", "space": h}, self.ring + h) for h in range(1, house + 1)]
            for place, t in places:
                tracks[tuple(place.items())] = tracks[tuple(reversed(place.items()))] = t
        self.kinds = tuple(k for k in range(N_KINDS) for _ in range(counts[k]))
        self.card_ids = card_ids(self.kinds)
        self.card_names = card_names(self.kinds)
        head = [0] * HEAD
        head[H_PLAYERS] = N_SEATS
        head[H_OVERSHOOT] = overshoot
        head[H_MAX_DEALS] = max_deals
        head[H_DEALS_PER_DEALER] = per_dealer
        head[H_SECTION] = section
        head[H_HOUSE] = house
        head[H_RING] = self.ring
        head[H_N_CARDS] = n
        head[RING_COL:RING_COL + MAX_RING] = [-1] * MAX_RING
        head[KIND_TABLE:KIND_TABLE + N_KINDS * N_EFFECTS] = [v for row in rows for v in row]
        head[CARD_KIND:CARD_KIND + MAX_CARDS] = list(self.kinds) + [-1] * (MAX_CARDS - n)
        head[CARD_PUB:CARD_PUB + MAX_CARDS] = [CP_UNSEEN] * n + [CP_NONE] * (MAX_CARDS - n)
        for p in range(N_SEATS):
            head[PRIVATE + p * PRIVATE_SIZE + 1:PRIVATE + (p + 1) * PRIVATE_SIZE] = [-1] * (PRIVATE_SIZE - 1)
        self.head = array("i", head)  # int32: a loaded state's head is copied from it


def _deck_tables(position: dict) -> tuple[list[int], list[list[int]]]:
    """The copies of each kind and each kind's effect row, checked (the rules file's when left out)."""
    deck = _mapping(position.get("deck", DEFAULTS["deck"]), "deck", KIND_NAMES, "the copies of every kind")
    counts = [_integer(deck[name], f"deck {name}", 0, MAX_CARDS) for name in KIND_NAMES]
    effects = _mapping(position.get("card_effects", DEFAULTS["card_effects"]), "card_effects", KIND_NAMES,
                       "every kind's effects")
    rows = []
    for name in KIND_NAMES:
        given = effects[name]
        if not isinstance(given, dict) or any(e not in EFFECT_NAMES for e in given):
            _fail(f"card_effects {name} must be an object of effects ({', '.join(EFFECT_NAMES)}), "
                  f"got {_show(given)}")
        row = [_integer(given.get(e, 0), f"card_effects {name} {e}", 0, MAX_STEPS) for e in EFFECT_NAMES]
        why = kind_problem(name, row)
        if why:
            _fail(f"card_effects: {why}")
        rows.append(row)
    return counts, rows


_TABLES_SEEN: dict = {}  # the rule values -> their _Tables (each distinct set built once)


def _tables(position: dict) -> _Tables:
    """The rule options and tables of a position (the rules file's where left out). The small
    options are checked every time; the deck and effect tables of a variant once for each
    distinct text (repr tells 4 from 4.0 and 1 from true)."""
    get = position.get
    overshoot = get("house_overshoot", DEFAULTS["house_overshoot"])
    if overshoot not in OVERSHOOT_CHOICES:
        _fail(f"house_overshoot must be {POSITION_KEYS['house_overshoot']}, got {_show(overshoot)}")
    board = _mapping(get("board", DEFAULTS["board"]), "board", ("section", "house"), POSITION_KEYS["board"])
    key = (OVERSHOOT_CHOICES.index(overshoot),
           _integer(board["section"], "board section", 4, MAX_SECTION),
           _integer(board["house"], "board house", PIECES, MAX_HOUSE),
           _integer(get("deals_per_dealer", DEALS_PER_DEALER), "deals_per_dealer", 1,
                    MAX_CARDS // (4 * HAND_SIZE)),
           _integer(get("max_deals", MAX_DEALS), "max_deals", 1, MAX_DEALS),
           repr([get("deck"), get("card_effects")]) if "deck" in position or "card_effects" in position else "")
    tables = _TABLES_SEEN.get(key)
    if tables is None:
        tables = _Tables(*key[:5], *_deck_tables(position))
        if len(_TABLES_SEEN) < 64:
            _TABLES_SEEN[key] = tables
    return tables


def _cards(tables: _Tables, values, name: str) -> list[int]:
    """The card ids of a list of card spellings."""
    try:
        return list(map(tables.card_ids.__getitem__, _listed(values, name)))
    except (KeyError, TypeError):  # not a spelling (or not even hashable): say which
        for i, text in enumerate(values):
            if type(text) is not str or text not in tables.card_ids:
                _fail(f"{name}[{i}]: unknown card {_show(text)} (a card is a kind and its copy, "
                      f"{tables.card_names[0]} .. {tables.card_names[-1]})")
        raise


def _check_every_card_once(tables: _Tables, places: list[tuple[str, list[int]]]) -> None:
    """Every card of the deck in exactly one of ``places`` ((name, card ids) pairs)."""
    found = list(chain.from_iterable(cards for _, cards in places))
    if len(found) == tables.n_cards and len(set(found)) == tables.n_cards:
        return
    first = {}
    for name, cards in places:
        for c in cards:
            if c in first:
                _fail(f"card {tables.card_names[c]} is in two places: {first[c]} and {name}")
            first[c] = name
    missing = next(c for c in range(tables.n_cards) if c not in first)
    _fail(f"card {tables.card_names[missing]} is nowhere: every card of the deck must be in a hand, "
          f"the pile, played, discarded or (in the exchange) given")


def _place_error(place, colour: int, index: int, tables: _Tables) -> None:
    """Refuse the place written for colour ``colour``'s piece ``index`` if it is not a place."""
    try:
        if tuple(place.items()) in tables.tracks[colour] and type(place.get("space", 0)) is int:
            return
    except (AttributeError, TypeError):  # not an object, or an unhashable value in it
        pass
    _fail(f'pieces {COLOUR_NAMES[colour]}[{index}] must be a place: {{"where": "outside"}}, '
          f'{{"where": "start"}}, {{"where": "ring", "space": 0..{tables.ring - 1}}} or '
          f'{{"where": "house", "space": 1..{tables.house}}}; got {_show(place)}')


def load_state(position: dict) -> np.ndarray:
    """The kernel state (int32, ``STATE_SIZE``) of a position written as :func:`describe_state`
    writes it; derived tables are recomputed, the scratch left as a fresh state has it (the dealt
    part of the deck: the cards not in the pile, ascending). A malformed or impossible position
    raises :class:`PositionError` with one line."""
    if not isinstance(position, dict):
        _fail(f"a position must be an object, got {_show(position)}")
    for key in position:
        if key not in POSITION_KEYS:
            _fail(f"the position has an unknown key {key!r} (keys: {', '.join(POSITION_KEYS)})")
    for key, allowed in POSITION_KEYS.items():
        if key not in position and key not in DEFAULTS:
            _fail(f"the position has no {key!r} ({allowed})")
    for key in ("players", "teams", "colours"):
        if key in position and position[key] != DEFAULTS[key]:
            _fail(f"{key} must be {POSITION_KEYS[key]}, got {_show(position[key])}")
    tables = _tables(position)
    st = tables.head[:]  # int32 values written one by one, copied into the state at once

    # progress: deal, dealer, phase, seat to move
    deal = _integer(position["deal"], "deal", 1, tables.max_deals,
                    f"an integer from 1 to max_deals ({tables.max_deals})")
    dealer = (FIRST_DEALER + (deal - 1) // tables.per_dealer) % N_SEATS
    if type(position["dealer"]) is not int or position["dealer"] != dealer:
        _fail(f"dealer must be seat {dealer} at deal {deal} (seat {FIRST_DEALER} deals first and each "
              f"dealer deals {tables.per_dealer} times, PA-10), got {_show(position['dealer'])}")
    dealer_deals = (deal - 1) % tables.per_dealer + 1
    if position["phase"] not in PHASE_NAMES:
        _fail(f"phase must be {POSITION_KEYS['phase']}, got {_show(position['phase'])}")
    phase = PHASE_NAMES.index(position["phase"])
    to_move = _integer(position["to_move"], "to_move", -1, N_SEATS - 1, POSITION_KEYS["to_move"])
    if (to_move < 0) != (phase == PHASE_OVER):
        _fail(f"to_move must be -1 exactly when the game is over (phase {PHASE_NAMES[phase]}), got {to_move}")
    st[H_DEALS] = deal
    st[H_DEALER] = dealer
    st[H_DEALER_DEALS] = dealer_deals
    st[H_PHASE] = phase
    st[H_TO_MOVE] = to_move
    _load_pieces(st, tables, _mapping(position["pieces"], "pieces", COLOUR_NAMES, POSITION_KEYS["pieces"]))

    # the cards: every card of the deck in exactly one place
    hands = _listed(position["hands"], "hands", N_SEATS)
    places = []
    for p in range(N_SEATS):
        hand = sorted(_cards(tables, hands[p], f"hands[{p}]"))
        if len(hand) > HAND_SIZE:
            _fail(f"hands[{p}] holds {len(hand)} cards; a hand holds at most {HAND_SIZE}")
        base = PRIVATE + p * PRIVATE_SIZE
        st[base + PV_SIZE] = st[HAND_COUNT + p] = len(hand)
        st[base + PV_HAND:base + PV_HAND + len(hand)] = array("i", hand)
        places.append((f"hands[{p}]", hand))
    pile = _cards(tables, position["pile"], "pile")
    places.append(("pile", pile))
    for key, flag in (("played", CP_PLAYED), ("discarded", CP_DISCARDED)):
        cards = _cards(tables, position[key], key)
        for c in cards:
            st[CARD_PUB + c] = flag
        places.append((key, cards))
    given = _listed(position["given"], "given", N_SEATS)
    received = _listed(position["received"], "received", N_SEATS)
    if phase == PHASE_EXCHANGE:
        places += _load_exchange(st, tables, given, received, dealer, to_move)
    _check_every_card_once(tables, places)
    if phase != PHASE_EXCHANGE:
        _load_given_in_play(st, tables, given, received)
    n = tables.n_cards
    if len(pile) != n - 4 * HAND_SIZE * dealer_deals:
        _fail(f"the pile holds {len(pile)} cards; after {dealer_deals} deal(s) of this dealer from "
              f"{n} cards it holds {n - 4 * HAND_SIZE * dealer_deals}")
    dealt = sorted(set(range(n)).difference(pile))
    st[DECK:DECK + n] = array("i", dealt + pile)
    st[S_DECK_POS] = len(dealt)
    st[H_PILE] = len(pile)
    st[H_EXCHANGED] = sum(g is not None for g in given) if phase == PHASE_EXCHANGE else N_SEATS
    if phase == PHASE_PLAY and st[HAND_COUNT + to_move] == 0:
        _fail(f"seat {to_move} is to move in play but holds no cards")

    # tallies, the end
    for key, at in (("knockouts_given", KO_GIVEN), ("knockouts_suffered", KO_SUFFERED), ("swaps", SWAPS)):
        values = _listed(position[key], key, N_SEATS)
        if not all(type(v) is int and 0 <= v <= MAX_TALLY for v in values):
            for p, v in enumerate(values):
                _integer(v, f"{key}[{p}]", 0, MAX_TALLY)
        st[at:at + N_SEATS] = array("i", values)
    _load_end(st, position, phase, deal, tables.max_deals)
    state = np.zeros(STATE_SIZE, np.int32)
    state[:HEAD] = np.frombuffer(st, np.int32)
    _load_leads(state, position["leads"], deal if phase == PHASE_OVER else deal - 1)
    return state


def _load_pieces(st: array, tables: _Tables, pieces: dict) -> None:
    """PIECE (each colour ascending) and what the kernel derives from it: pieces outside, on the
    start space, in the house (count and mask), and the ring's occupancy."""
    ring, section = tables.ring, tables.section
    for c, colour in enumerate(COLOUR_NAMES):
        places = _listed(pieces[colour], f"pieces {colour}", PIECES)
        try:  # each place looked up by its items; a space must be an int (not 3.0, not true)
            tracks = sorted(map(tables.tracks[c].__getitem__, map(tuple, map(dict.items, places))))
            sound = set(map(type, map(dict.get, places, repeat("space"), repeat(0)))) == {int}
        except (KeyError, TypeError):  # not a place, or not even an object
            sound = False
        if not sound:
            for i, place in enumerate(places):
                _place_error(place, c, i, tables)
        st[PIECE + 4 * c:PIECE + 4 * c + 4] = array("i", tracks)
        for t in tracks:
            if t == OUTSIDE:
                st[OUT + c] += 1
            elif t == 0:
                st[START_CNT + c] += 1
            elif t <= ring:
                a = (t - 1 + section * c) % ring
                if st[RING_COL + a] not in (-1, c):
                    _fail(f"ring space {a} holds {COLOUR_NAMES[st[RING_COL + a]]} and {colour} pieces; "
                          f"a space holds pieces of one colour")
                st[RING_COL + a] = c
                st[RING_CNT + a] += 1
            else:
                bit = 1 << (t - ring - 1)
                if st[HOUSE_MASK + c] & bit:
                    _fail(f"{colour}'s house space {t - ring} holds two pieces; a house space holds one")
                st[HOUSE_MASK + c] |= bit
                st[HOME + c] += 1


def _load_exchange(st: array, tables: _Tables, given: list, received: list, dealer: int,
                   to_move: int) -> list[tuple[str, list[int]]]:
    """In the exchange: the cards set aside by the seats that gave so far (the seats after the
    dealer, in turn), each hand's size; returns the given cards as places of the deck."""
    order = [(dealer + 1 + j) % N_SEATS for j in range(N_SEATS)]
    gave = sum(g is not None for g in given)
    if gave >= N_SEATS or [p for p in order if given[p] is not None] != order[:gave]:
        _fail(f"in the exchange the seats give in turn from seat {order[0]} ({order}); given must "
              f"name the cards of the first ones only, got {_show(given)}")
    if to_move != order[gave]:
        _fail(f"seat {order[gave]} is the next to give in the exchange, not seat {to_move}")
    places = []
    for p in range(N_SEATS):
        if received[p] is not None:
            _fail(f"received[{p}] must be null in the exchange (cards reach the partner when all "
                  f"four have given)")
        held = st[HAND_COUNT + p]
        if held != HAND_SIZE - (given[p] is not None):
            _fail(f"hands[{p}] holds {held} cards; in the exchange a seat holds {HAND_SIZE}, "
                  f"{HAND_SIZE - 1} once it has given")
        if given[p] is not None:
            card, = _cards(tables, [given[p]], f"given[{p}]")
            st[PRIVATE + p * PRIVATE_SIZE + PV_GIVEN] = card
            places.append((f"given[{p}]", [card]))
    return places


def _load_given_in_play(st: array, tables: _Tables, given: list, received: list) -> None:
    """In play (and at the end): who gave whom which card this deal. The card a seat received is
    its partner's given card, now in the seat's hand, played or discarded (null when unknown)."""
    for p in range(N_SEATS):
        if given[p ^ 2] != received[p] or type(given[p ^ 2]) is not type(received[p]):
            _fail(f"received[{p}] must be the card its partner gave, given[{p ^ 2}]: "
                  f"{_show(received[p])} != {_show(given[p ^ 2])}")
        if received[p] is None:
            continue
        card, = _cards(tables, [received[p]], f"received[{p}]")
        base = PRIVATE + p * PRIVATE_SIZE
        if card not in st[base + PV_HAND:base + PV_HAND + st[base + PV_SIZE]] and st[CARD_PUB + card] == CP_UNSEEN:
            _fail(f"received[{p}] {received[p]} must be in hands[{p}], played or discarded")
        st[base + PV_RECEIVED] = card
        st[PRIVATE + (p ^ 2) * PRIVATE_SIZE + PV_GIVEN] = card


def _load_end(st: array, position: dict, phase: int, deal: int, max_deals: int) -> None:
    """winner and truncated: the game is over exactly when a team has all 8 pieces home, or at
    the deal cap (PA-7)."""
    winner = position["winner"]
    if winner is not None:
        _integer(winner, "winner", 0, 1, POSITION_KEYS["winner"])
    truncated = position["truncated"]
    if not isinstance(truncated, bool):
        _fail(f"truncated must be true or false, got {_show(truncated)}")
    home_teams = [t for t in (0, 1) if st[HOME + t] == PIECES and st[HOME + t + 2] == PIECES]
    if phase == PHASE_OVER:
        if (winner is None) == (not truncated):
            _fail("a game over has a winner or is truncated (one of the two)")
        if winner is not None and winner not in home_teams:
            _fail(f"team {winner} wins only with its 8 pieces home")
        if truncated and deal != max_deals:
            _fail(f"a truncated game stopped at the deal cap: deal must be max_deals ({max_deals})")
    elif winner is not None or truncated or home_teams:
        _fail(f"the game is over when a team has all 8 pieces home or at the deal cap, yet the phase "
              f"is {PHASE_NAMES[phase]} (winner {winner}, truncated {truncated})")
    st[H_WINNER] = -1 if winner is None else winner
    st[H_TRUNCATED] = int(truncated)


def _load_leads(state: np.ndarray, leads, finished: int) -> None:
    """The deal history LEAD_HIST: the leading team at the end of each of the finished deals,
    2 bits a deal (the code lead + 1), LEADS_PER_WORD deals a word."""
    leads = _listed(leads, "leads", finished)
    if not set(map(type, leads)) <= {int} or not set(leads) <= {-1, 0, 1}:
        d = next(d for d, lead in enumerate(leads) if type(lead) is not int or not -1 <= lead <= 1)
        _fail(f"leads[{d}] must be 0, 1 or -1 (level), got {_show(leads[d])}")
    codes = [lead + 1 for lead in leads]
    words = [sum(map(mul, codes[d:d + LEADS_PER_WORD], LEAD_PLACES)) for d in range(0, finished, LEADS_PER_WORD)]
    state[LEAD_HIST:LEAD_HIST + len(words)] = words  # the words of deals not finished stay 0
