"""Colleagues in words and JSON: moves, positions and chance events named as the rules file
(``shared/rules/colleagues.md``) names them.

Pure Python over the state array laid out in ``rules.py``; nothing here is compiled. The
reference engine (``reference.py``) spells its moves and chance events with the same vocabulary
(the names below), so a trace reads the same whichever engine wrote it.

Spelling
========
- A Commitment card is its number, 1..60 (kernel id + 1). Its value and Coffee icons are the
  component table's (CL-1, ``commitment.values[number - 1]``; by default value = number, an icon
  on 1-5 and 56-60).
- A Work, Reprimand or Overtime card is its number in its pile, 1..15 (Work, Reprimand) or 1..3
  (Overtime, top of the pile first): its place in the component table's lists (kernel id + 1).
  With the default table Work 1-4 are worth 1, 5-8 2, 9-12 3, 13-15 4, icons on 1, 5, 9, 13;
  Reprimand 1-5 are worth 1, 6-10 2, 11-15 3, icons on 1, 6, 11; Overtime 1, 2, 3 are +2, +3, +4.
- Token kinds: ``"+10"``, ``"-10"``, ``"ILLNESS"``, ``"MEETING"``; counts per kind are an object
  with those four keys (a kind left out counts 0 when read).
- Days and row columns: ``"Monday"`` .. ``"Friday"``, ``"Overtime"`` (the row's sixth column).
- Seats by number; the Grey Entity (2 players) is seat 2, a result seat after the real ones.

Moves (``move_to_json``; ``describe_move`` says the same in words)
=====================================================================
- ``{"action": "keep", "draw_token": true}``: Monday briefing, keep the hand; ``draw_token`` says
  whether a token is drawn (false when the Coffee Room is empty, CL-4; the kind drawn is a
  ``token`` chance event).
- ``{"action": "mulligan", "discard": [3, 17, 40]}``: discard those cards (ascending) and draw as
  many (the cards drawn are a ``draw`` chance event).
- ``{"action": "grey_none"}``: leave the Grey Entity's cards alone this turn (2 players).
- ``{"action": "grey_reveal", "day": "Tuesday", "card": 12}``: reveal that face-down Grey Entity
  card to everyone; ``card`` is the card revealed.
- ``{"action": "grey_peek", "day": "Tuesday", "spend": "MEETING", "card": 12}``: spend a held
  token of that kind to look at that face-down card secretly (CL-9: again too); ``card`` is the
  card looked at (a trace is the complete record).
- ``{"action": "play", "card": 25, "day": "Wednesday", "face": "up"}``: put a card of the hand on
  an empty weekday of the row, ``"down"`` spending a MEETING token.
- ``{"action": "no_token"}`` / ``{"action": "token", "column": "Monday", "token": "+10"}``: place no
  token, or a +10, -10 or ILLNESS token on the card in that column of the player's row this week.

Position (``describe_state``; ``load_state`` is its inverse)
==============================================================
A complete position: everything the rules need to go on, hidden information included. Keys:

- ``players``: 2..5.
- ``options``: the rule options the state holds: ``grey_dismissal`` (``"exclude"`` or
  ``"shield"``, CL-11) and ``components`` (CL-1): the entries of the component table that differ
  from the defaults, keyed like the ``components=FILE`` TOML (``commitment.values``,
  ``commitment.icons``, ``work.values``, ``work.icons``, ``reprimand.values``,
  ``reprimand.icons``, ``overtime.values``, ``tokens.plus10`` / ``minus10`` / ``illness`` /
  ``meeting``); ``{}`` is the default table. When read, keys left out keep their defaults, as
  the option does, and ``options`` may be left out altogether.
- ``week``: 1..3 (3 once the game is over).
- ``phase``: ``"monday_briefing"``, ``"midweek"``, ``"friday_recap"`` or ``"over"``.
- ``midweek_turn``: 1..5 in the Midweek, else null (may be left out then).
- ``first_player``: this week's first player (the First Player token).
- ``turn_order`` (derived): the week's turn order from the first player (CL-7).
- ``to_move``: the seat to decide (null when over); ``decision``: what it decides:
  ``"mulligan"`` (Monday: keep or mulligan), ``"grey_entity"`` (reveal, look or leave, 2 players,
  while a Grey Entity card is face down), ``"play"`` (a card on a weekday) or ``"token"`` (place
  a token or not; only when it holds a +10, -10 or ILLNESS token); null when over.
- ``hands``: per player, the cards in hand, ascending (any order when read).
- ``tokens``: per player, the tokens held per kind (private: only the counts are public, CL-8).
- ``coffee_room``: the face-down tokens left in the Coffee Room, per kind.
- ``rows``: per player, this week's six columns Monday..Friday, Overtime: null (empty) or
  ``{"card": 25, "face": "up" | "down", "tokens": ["+10", "ILLNESS"]}`` (the tokens on it, also
  on a face-down card; left out when there are none; the Overtime card is always face up, CL-13).
- ``monday_discards``: per player, the cards discarded at this week's Monday briefing
  (ascending; any order when read); they stay out of the deck until clean-up.
- ``grey_entity`` (2 players only): ``seat`` (2, derived), ``cards`` (its cards Monday..Friday
  this week; [] once the game is over), ``revealed`` (the days whose card is face up),
  ``tokens`` (per kind), ``looked_at`` (per player, the days whose card that player has looked
  at this week) and ``peek_tokens_spent`` (per player, the tokens it spent on looks this week,
  per kind; a card may be looked at again, spending another token).
- ``work_cards`` / ``reprimand_cards``: the shuffled layout, per week the Work / Reprimand cards
  of Monday..Friday (``[[7, 3, 12, 1, 9], [...], [...]]``). Weeks before ``week`` are resolved.
- ``work_taken`` / ``reprimand_taken`` / ``overtime_taken``: per result seat (the Grey Entity
  too), the cards it has taken, ascending (the Grey Entity never takes Overtime cards).
- ``discarded``: ``{"work": [...], "reprimand": [...]}``, the cards of days where every card was
  ill (CL-3), discarded in pairs.
- ``overtime_pile`` (derived): the Overtime cards still on the pile, top first.
- ``deck``: the undealt Commitment cards in the kernel's order (a draw takes the card at a
  random index of this list, the last card filling the gap), so play goes on identically.
- ``tallies`` (derived): lists by result seat: ``score`` (Work + Overtime - tokens held - the
  seat compensation, components ``compensation.points``, 0 in the shipped game; lower is better), ``work_total``, ``overtime_total``, ``reprimand_total``, ``tokens_left``.
- ``leader_at_two_thirds``: once week 2 is over, the seat that was alone in first place then
  (-1: shared); null before.

``load_state`` checks that the position is possible: every Commitment card in exactly one place;
every token of the table's mix in one place (held, on a card, spent this week on a face-down card
or a look, in the Coffee Room); hands and rows as far as the phase, the turn and the seat to move
say; every Work and Reprimand card of the weeks over taken or discarded and no other; a decision
the seat can have. Derived keys (``turn_order``, ``overtime_pile``, ``tallies``,
``grey_entity.seat``) may be left out; when given they must be right. The kernel's work space is
no part of a position: see ``SCRATCH_FIELDS``.

Chance events (``reference.py`` asks ``Chance.event(kind, ...)`` for each; the outcomes)
=========================================================================================
- ``shuffle`` (setup): the Work and Reprimand layouts, per week Monday..Friday::

      {"shuffle": {"work": [[7, 3, 12, 1, 9], [15, 2, 8, 4, 11], [6, 13, 10, 5, 14]],
                   "reprimand": [[2, 11, 6, 9, 1], [14, 3, 8, 12, 5], [7, 10, 4, 15, 13]]}}

- ``token``: Coffee tokens one seat draws from the room, in the order drawn: as many as the
  rules give, fewer when the room runs out (CL-4), no event when the room is empty. At setup, for
  a kept hand, for a Commitment card's icons (played, or put on Overtime), for the lowest Overtime
  card, for a Work or Reprimand card's icons::

      {"token": {"seat": 1, "tokens": ["+10", "MEETING"]}}

- ``deal`` (each Monday): six cards to each player, hands listed by seat, each in the order dealt
  (the week's turn order, first player first; the order fixes the deck's order after the deal),
  then the Grey Entity's five (2 players only), Monday..Friday::

      {"deal": {"hands": [[12, 40, 3, 57, 21, 9], [33, 1, 50, 18, 26, 44]],
                "grey_entity": [5, 39, 60, 14, 27]}}

- ``draw`` (a mulligan): the cards drawn from the deck, as many as discarded, in the order drawn::

      {"draw": {"seat": 0, "cards": [8, 31]}}

The Overtime pile is not shuffled (its order is the table's), so it makes no event.
"""
from __future__ import annotations

import functools
import itertools
import operator

import numpy as np

from ..spec import PositionError
from .rules import (
    C_ICONS, C_VALUE, COLS, COMPENSATION, COMPONENTS, DAY_NAMES, DAYS, DEC_GREY, DEC_NONE, DEC_TOKEN,
    DISC_N, DISCARDED, EMPTY, FACE_DOWN, H_DECISION, H_DECK_LEFT, H_FIRST, H_GREY, H_GREY_HIDDEN,
    H_LEADER, H_OT_NEXT, H_PLAYERS, H_POS, H_ROOM, H_SEATS, H_SHIELD, H_STAGE, H_TO_MOVE, H_TURN,
    H_WEEK, HAND, ILLNESS, KIND_KEYS, KIND_NAMES, LEADER_WEEKS, MAX_PLAYERS, MEETING, MINUS,
    MOVE_GREY_NONE, MOVE_MULLIGAN, MOVE_PEEK, MOVE_PLAY, MOVE_REVEAL, MOVE_TOKEN, MOVE_TOKEN_NONE,
    N_COMMIT, N_KINDS, N_OT, N_REPR, N_WORK, OT_CARDS, OT_COL, OT_OWNER, OT_TOTAL, OT_VALUE,
    P_CARD, P_DISC, P_HAND, P_HAND_N, P_ILL, P_MINUS, P_PLUS, P_SEEN, P_SPENT, P_TOK, PEEK_N,
    PEEKS, PLUS, PRIVATE, PRIVATE_SIZE, R_VALUE, REPR_CARDS, REPR_OWNER, REPR_TOTAL, ROW_CARD,
    ROW_KIND_STRIDE, ROW_NTOK, ROW_PLUS, RuleError, S_DECK, S_DISCARD, S_DISCARD_N, S_GREY,
    S_GREY_TOK, S_REPR_ORDER, S_ROOM, S_SPENT, S_WORK_ORDER, SEATS, STAGE_FRIDAY, STAGE_MIDWEEK,
    STAGE_MONDAY, STAGE_OVER, STATE_SIZE, TABLE_SIZE, TOKEN_MIX, TOKENS_HELD, W_VALUE, WEEK_REPR,
    WEEK_WORK, WEEKS, WORK_CARDS, WORK_OWNER, WORK_TOTAL, derive_views, pack_components,
)

#: ``phase``, indexed by the kernel's H_STAGE
PHASES = ("monday_briefing", "midweek", "friday_recap", "over")
#: ``decision``, indexed by the kernel's DEC_* (DEC_NONE: null)
DECISIONS = ("mulligan", "grey_entity", "play", "token")
#: the decisions each phase of a week can have (none once the game is over)
PHASE_DECISIONS = {STAGE_MONDAY: ("mulligan",), STAGE_MIDWEEK: ("grey_entity", "play", "token"),
                   STAGE_FRIDAY: ("token",)}
WEEKDAYS = DAY_NAMES[:DAYS]
#: token kinds that can lie on a card (MEETING is spent, never placed), and their private rows
PLACEABLE = (PLUS, MINUS, ILLNESS)
PLACED_FIELDS = (P_PLUS, P_MINUS, P_ILL)
#: the two piles of the weekly layout: (name, size, layout order, owner, total, card count,
#: this week's cards, values) in the kernel state
LAYOUT_PILES = (("work", N_WORK, S_WORK_ORDER, WORK_OWNER, WORK_TOTAL, WORK_CARDS, WEEK_WORK, W_VALUE),
                ("reprimand", N_REPR, S_REPR_ORDER, REPR_OWNER, REPR_TOTAL, REPR_CARDS, WEEK_REPR, R_VALUE))

#: The kernel's work space, no part of a position: ``(name, start, size, count)`` says that
#: ``state[start + state[count]:start + size]`` is leftover (cards drawn from the deck earlier,
#: discards of earlier weeks); ``load_state`` fills it with -1. Everything else of the state is
#: the position (``scratch_mask`` marks these indices of one state).
SCRATCH_FIELDS = (
    ("S_DECK after the H_DECK_LEFT cards of the deck", S_DECK, N_COMMIT, H_DECK_LEFT),
    ("S_DISCARD after the S_DISCARD_N Monday discards", S_DISCARD, N_COMMIT, S_DISCARD_N),
)
from .rules import DEALT_ROW, S_DEALT  # noqa: E402  (the dealt column's counts)
#: what each result seat was dealt so far (``(start, size)`` of ``S_DEALT``, the ``dealt``
#: column's counts): no part of a position either; ``load_state`` leaves it zero, so a game
#: loaded from a position counts from there
DEALT_FIELD = (S_DEALT, SEATS * DEALT_ROW)

_REQUIRED_KEYS = ("players", "week", "phase", "first_player", "to_move", "decision", "hands",
                  "tokens", "coffee_room", "rows", "monday_discards", "work_cards",
                  "reprimand_cards", "work_taken", "reprimand_taken", "overtime_taken",
                  "discarded", "deck")
_OPTIONAL_KEYS = ("options", "midweek_turn", "turn_order", "grey_entity", "overtime_pile",
                  "tallies", "leader_at_two_thirds")
_DEFAULT_TABLE = pack_components(COMPONENTS.defaults)
_PLUS_ONE = (1).__add__  # kernel id -> card number, mapped in C


def scratch_mask(state: np.ndarray) -> np.ndarray:
    """True at the indices of ``state`` that are kernel work space (``SCRATCH_FIELDS``)."""
    mask = np.zeros(len(state), bool)
    for _name, start, size, count in SCRATCH_FIELDS:
        mask[start + int(state[count]):start + size] = True
    start, size = DEALT_FIELD
    mask[start:start + size] = True
    return mask


# ----------------------------------------------------------------------------- spelling
def kind_counts(counts) -> dict:
    """Tokens per kind (a sequence of 4 ints), spelled: {"+10": a, "-10": b, "ILLNESS": c,
    "MEETING": d}."""
    return dict(zip(KIND_NAMES, map(int, counts)))


def unpack_components(ints) -> dict:
    """The whole component table (the ``components`` option's shape) from its packed ints
    (``pack_components``' order, as in params and the state)."""
    ints = list(map(int, ints))
    out = {}
    at = 0
    for group, keys in (("commitment", (("values", N_COMMIT), ("icons", N_COMMIT))),
                        ("work", (("values", N_WORK), ("icons", N_WORK))),
                        ("reprimand", (("values", N_REPR), ("icons", N_REPR))),
                        ("overtime", (("values", N_OT),))):
        out[group] = {}
        for key, size in keys:
            out[group][key] = ints[at:at + size]
            at += size
    out["tokens"] = dict(zip(KIND_KEYS, ints[at:at + N_KINDS]))
    out["compensation"] = {"points": ints[at + N_KINDS:at + N_KINDS + SEATS]}
    return out


def components_changes(ints) -> dict:
    """The entries of a packed component table that differ from the defaults (CL-1), in the
    option's shape: {} for the default table."""
    if list(ints) == _DEFAULT_TABLE:
        return {}
    table = unpack_components(ints)
    out = {}
    for group, keys in table.items():
        changed = {key: value for key, value in keys.items() if value != COMPONENTS.defaults[group][key]}
        if changed:
            out[group] = changed
    return out


def _card_text(state: np.ndarray, card: int) -> str:
    value = int(state[C_VALUE + card])
    icons = int(state[C_ICONS + card])
    text = f"card {card + 1}"
    if value != card + 1:
        text += f" (value {value})"
    if icons:
        text += " with a Coffee icon" if icons == 1 else f" with {icons} Coffee icons"
    return text


def _hand(state: np.ndarray, seat: int) -> list[int]:
    base = PRIVATE + seat * PRIVATE_SIZE
    return [int(c) for c in state[base + P_HAND:base + P_HAND + state[base + P_HAND_N]]]


# ----------------------------------------------------------------------------- moves
def decode(move: int) -> dict:
    """The part of a move's spelling its code alone says (``move_to_json`` adds the rest)."""
    move = int(move)
    if MOVE_MULLIGAN <= move < MOVE_MULLIGAN + 64:
        mask = move - MOVE_MULLIGAN
        if mask == 0:
            return {"action": "keep"}
        return {"action": "mulligan", "positions": [j for j in range(HAND) if mask >> j & 1]}
    if move == MOVE_GREY_NONE:
        return {"action": "grey_none"}
    if MOVE_REVEAL <= move < MOVE_REVEAL + DAYS:
        return {"action": "grey_reveal", "day": DAY_NAMES[move - MOVE_REVEAL]}
    if MOVE_PEEK <= move < MOVE_PEEK + 4 * DAYS:
        rel = move - MOVE_PEEK
        return {"action": "grey_peek", "day": DAY_NAMES[rel >> 2], "spend": KIND_NAMES[rel & 3]}
    if MOVE_PLAY <= move < MOVE_PLAY + 16 * N_COMMIT:
        rel = move - MOVE_PLAY
        return {"action": "play", "card": (rel >> 4) + 1, "day": DAY_NAMES[(rel >> 1) & 7],
                "face": "down" if rel & 1 else "up"}
    if move == MOVE_TOKEN_NONE:
        return {"action": "no_token"}
    if MOVE_TOKEN <= move < MOVE_TOKEN + 4 * COLS:
        rel = move - MOVE_TOKEN
        return {"action": "token", "column": DAY_NAMES[rel >> 2], "token": KIND_NAMES[rel & 3]}
    raise ValueError(f"not a Colleagues move code: {move}")


def move_to_json(state: np.ndarray, move: int) -> dict:
    """The move spelled out completely in this position (see the module docstring)."""
    out = decode(move)
    action = out["action"]
    if action == "keep":
        out["draw_token"] = bool(state[H_ROOM] > 0)
    elif action == "mulligan":
        hand = _hand(state, int(state[H_TO_MOVE]))
        out["discard"] = [hand[j] + 1 for j in out.pop("positions")]
    elif action in ("grey_reveal", "grey_peek"):
        out["card"] = int(state[S_GREY + DAY_NAMES.index(out["day"])]) + 1
    return out


def describe_move(state: np.ndarray, move: int) -> str:
    d = move_to_json(state, move)
    a = d["action"]
    if a == "keep":
        if d["draw_token"]:
            return "keeps the hand and draws a Coffee token"
        return "keeps the hand (the Coffee Room is empty: no token)"
    if a == "mulligan":
        return f"discards {', '.join(map(str, d['discard']))} and draws {len(d['discard'])}"
    if a == "grey_none":
        return "leaves the Grey Entity's cards alone"
    if a == "grey_reveal":
        return f"reveals the Grey Entity's {d['day']} card: {_card_text(state, d['card'] - 1)}"
    if a == "grey_peek":
        return (f"spends a {d['spend']} token to look at the Grey Entity's {d['day']} card "
                f"(secretly: {_card_text(state, d['card'] - 1)})")
    if a == "play":
        face = "face down (MEETING)" if d["face"] == "down" else "face up"
        return f"plays {_card_text(state, d['card'] - 1)} on {d['day']} {face}"
    if a == "no_token":
        return "places no token"
    return f"places a {d['token']} token on its {d['column']} card"


# ----------------------------------------------------------------------------- positions
def _turn_order(n: int, first: int) -> list[int]:
    return [(first + i) % n for i in range(n)]


def _tallies(s: list) -> dict:
    """The derived ``tallies`` of the state list ``s``: lists by result seat."""
    seats = s[H_SEATS]
    work, overtime, held = s[WORK_TOTAL:WORK_TOTAL + seats], s[OT_TOTAL:OT_TOTAL + seats], \
        s[TOKENS_HELD:TOKENS_HELD + seats]
    start = s[COMPENSATION:COMPENSATION + seats]  # the seat compensation: points off the score
    return {"score": [w + o - h - c for w, o, h, c in zip(work, overtime, held, start)], "work_total": work,
            "overtime_total": overtime, "reprimand_total": s[REPR_TOTAL:REPR_TOTAL + seats],
            "tokens_left": held}


def _overtime_pile(s: list) -> list[int]:
    """The derived ``overtime_pile``: the Overtime cards not taken, top first."""
    return list(range(s[H_OT_NEXT] + 1, N_OT + 1))


def _row_cell(s: list, seat: int, column: int) -> dict:
    """The card in a column of a player's row (not empty), spelled."""
    base = PRIVATE + seat * PRIVATE_SIZE
    card = s[base + P_CARD + column]
    face = "down" if s[ROW_CARD + seat * COLS + column] == FACE_DOWN else "up"
    if not s[ROW_NTOK + seat * COLS + column]:
        return {"card": card + 1, "face": face}
    tokens = []
    for kind, field in zip(PLACEABLE, PLACED_FIELDS):
        tokens += [KIND_NAMES[kind]] * s[base + field + column]
    return {"card": card + 1, "face": face, "tokens": tokens}


def _taken(s: list, owner: int, size: int, seats: int) -> list[list[int]]:
    """Per result seat, the numbers of the cards of a pile it took (kernel owners at ``owner``)."""
    piles = [[] for _ in range(seats)]
    owners = s[owner:owner + size]
    if max(owners) >= 0:
        for i, who in enumerate(owners):
            if who >= 0:
                piles[who].append(i + 1)
    return piles


def describe_state(state: np.ndarray) -> dict:
    """The complete position as the rules file names it (the module docstring lists the keys)."""
    s = state.tolist()
    n = s[H_PLAYERS]
    grey = s[H_GREY]
    seats = s[H_SEATS]
    first = s[H_FIRST]
    stage = s[H_STAGE]
    over = stage == STAGE_OVER
    bases = [PRIVATE + p * PRIVATE_SIZE for p in range(n)]
    out = {
        "players": n,
        "options": {"grey_dismissal": "shield" if s[H_SHIELD] else "exclude",
                    "components": components_changes(s[C_VALUE:C_VALUE + TABLE_SIZE])},
        "week": min(s[H_WEEK], WEEKS - 1) + 1,
        "phase": PHASES[stage],
        "midweek_turn": s[H_TURN] + 1 if stage == STAGE_MIDWEEK else None,
        "first_player": first,
        "turn_order": _turn_order(n, first),
        "to_move": None if over else s[H_TO_MOVE],
        "decision": None if over else DECISIONS[s[H_DECISION]],
        "hands": [list(map(_PLUS_ONE, s[b + P_HAND:b + P_HAND + s[b + P_HAND_N]])) for b in bases],
        "tokens": [kind_counts(s[b + P_TOK:b + P_TOK + N_KINDS]) for b in bases],
        "coffee_room": kind_counts(s[S_ROOM:S_ROOM + N_KINDS]),
        "rows": [[_row_cell(s, p, c) if s[b + P_CARD + c] >= 0 else None for c in range(COLS)]
                 for p, b in enumerate(bases)],
        "monday_discards": [list(map(_PLUS_ONE, s[b + P_DISC:b + P_DISC + s[DISC_N + p]]))
                            for p, b in enumerate(bases)],
    }
    if grey >= 0:
        cards = s[S_GREY:S_GREY + DAYS]
        out["grey_entity"] = {
            "seat": grey,
            "cards": [c + 1 for c in cards] if cards[0] >= 0 else [],
            "revealed": [WEEKDAYS[d] for d in range(DAYS) if s[ROW_CARD + grey * COLS + d] >= 0],
            "tokens": kind_counts(s[S_GREY_TOK:S_GREY_TOK + N_KINDS]),
            "looked_at": [[WEEKDAYS[d] for d in range(DAYS) if s[b + P_SEEN + d] >= 0] for b in bases],
            "peek_tokens_spent": [kind_counts(s[b + P_SPENT:b + P_SPENT + N_KINDS]) for b in bases],
        }
    discarded = {}
    for name, size, order, owner, _total, _count, _current, _value in LAYOUT_PILES:
        layout = list(map(_PLUS_ONE, s[order:order + size]))
        out[f"{name}_cards"] = [layout[DAYS * w:DAYS * (w + 1)] for w in range(WEEKS)]
        out[f"{name}_taken"] = _taken(s, owner, size, seats)
        owners = s[owner:owner + size]
        discarded[name] = [i + 1 for i in range(size) if owners[i] == DISCARDED] if DISCARDED in owners else []
    out["overtime_taken"] = _taken(s, OT_OWNER, N_OT, seats)
    out["discarded"] = discarded
    out["overtime_pile"] = _overtime_pile(s)
    out["deck"] = list(map(_PLUS_ONE, s[S_DECK:S_DECK + s[H_DECK_LEFT]]))
    out["tallies"] = _tallies(s)
    out["leader_at_two_thirds"] = s[H_LEADER] if s[H_WEEK] >= LEADER_WEEKS else None
    return out


# ----------------------------------------------------------------------------- reading
# Each reader takes a JSON value and the path it was found at (for the message) and returns it in
# the kernel's terms, or raises PositionError saying what is wrong and what is allowed; the
# reference engine's chance checks use them too (turning the error into a reason). The readers a
# position calls many times first try a quick check of the usual, well-formed value; anything it
# does not take goes through the reading that says what is wrong (which accepts all it accepts).
def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _path(where) -> str:
    """A place in the position for a message: a string, or (key, index, ...) spelled key[index]..
    (built only when a message needs it)."""
    if isinstance(where, str):
        return where
    return where[0] + "".join(f"[{i}]" for i in where[1:])


def _is_int(value) -> bool:
    return type(value) is int  # not bool, not float


def read_int(value, where: str, low: int, high: int) -> int:
    """``value`` as an int in [low, high]."""
    if not _is_int(value) or not low <= value <= high:
        raise PositionError(f"{where} must be an integer from {low} to {high}, got {_short(value)}")
    return value


def read_list(value, where: str, length: int | None = None, what: str = "") -> list:
    """``value`` as a list (of ``length`` entries if given)."""
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list{' of ' + what if what else ''}, got {_short(value)}")
    if length is not None and len(value) != length:
        raise PositionError(f"{where} must hold {length} entries{' (' + what + ')' if what else ''}, "
                            f"got {len(value)}")
    return value


@functools.cache
def _key_sets(required: tuple, optional: tuple) -> tuple[frozenset, frozenset]:
    return frozenset(required), frozenset(required + optional)


def read_object(value, where: str, required=(), optional=()) -> dict:
    """``value`` as a dict with every ``required`` key and no key outside ``optional``."""
    if not isinstance(value, dict):
        raise PositionError(f"{where} must be an object, got {_short(value)}")
    needed, allowed = _key_sets(tuple(required), tuple(optional))
    if needed <= value.keys() <= allowed:
        return value
    keys = ", ".join(required + optional)
    for key in required:
        if key not in value:
            raise PositionError(f"{where}: missing key {key!r} (keys: {keys})")
    unknown = next(key for key in value if key not in allowed)
    raise PositionError(f"{where}: unknown key {_short(unknown)} (keys: {keys})")


def read_choice(value, where: str, choices) -> int:
    """The index of ``value`` in ``choices`` (strings)."""
    if not isinstance(value, str) or value not in choices:
        raise PositionError(f"{where} must be one of {', '.join(choices)}, got {_short(value)}")
    return choices.index(value)


_ONLY_INT = frozenset((int,))
_MINUS_ONE = (-1).__add__  # card number -> kernel id, mapped in C


@functools.cache
def _numbers_upto(high: int) -> frozenset:
    return frozenset(range(1, high + 1))


def _distinct_numbers(value, high: int, length: int | None) -> bool:
    """Is ``value`` a list of distinct ints 1..high (of ``length`` if given)? (The quick check.)"""
    if type(value) is not list or (length is not None and len(value) != length):
        return False
    if not value:
        return True
    if not set(map(type, value)) <= _ONLY_INT:
        return False
    distinct = set(value)
    return len(distinct) == len(value) and distinct <= _numbers_upto(high)


def read_numbers(value, where: str, high: int, what: str, length: int | None = None) -> list[int]:
    """A list of distinct numbers 1..high (cards of a kind: ``what``, plural) as kernel ids."""
    if _distinct_numbers(value, high, length):
        return list(map(_MINUS_ONE, value))
    read_list(value, where, length, what)
    for i, c in enumerate(value):
        if not _is_int(c) or not 0 < c <= high:
            raise PositionError(f"{where}[{i}]: unknown {what[:-1]} {_short(c)} ({what} are 1 to {high})")
    twice = next(c for c in value if value.count(c) > 1)
    raise PositionError(f"{where}: {what[:-1]} {twice} is there twice")


def read_number_lists(value, where: str, count: int, high: int, what: str,
                      length: int | None = None) -> list[list[int]]:
    """``count`` lists (one per seat, per week, ...) of ``read_numbers``."""
    if type(value) is list and len(value) == count:
        for numbers in value:
            if not _distinct_numbers(numbers, high, length):
                break
        else:
            return [list(map(_MINUS_ONE, numbers)) for numbers in value]
    read_list(value, where, count)
    return [read_numbers(numbers, f"{where}[{i}]", high, what, length) for i, numbers in enumerate(value)]


def read_layout(value, where: str, size: int, name: str) -> list[list[int]]:
    """A Work or Reprimand layout (``name``): per week the card numbers of Monday..Friday, each
    card of the pile (1..size) once; as kernel ids per week."""
    weeks = read_number_lists(value, where, WEEKS, size, name + " cards", DAYS)
    layout = list(itertools.chain.from_iterable(weeks))
    if len(set(layout)) != size:
        twice = next(i for i in layout if layout.count(i) > 1)
        raise PositionError(f"{where}: {name} card {twice + 1} is there twice (each of 1 to {size} once)")
    return weeks


def read_cards(value, where: str, length: int | None = None) -> list[int]:
    """Commitment card numbers (1..60, no card twice) as kernel ids."""
    return read_numbers(value, where, N_COMMIT, "cards", length)


def read_card(value, where: str) -> int:
    """One Commitment card number as its kernel id."""
    if not _is_int(value) or not 0 < value <= N_COMMIT:
        raise PositionError(f"{where}: unknown card {_short(value)} (cards are 1 to {N_COMMIT})")
    return value - 1


def read_kind(value, where: str, kinds=tuple(range(N_KINDS))) -> int:
    """A token kind name as its index (one of ``kinds``)."""
    return kinds[read_choice(value, where, tuple(KIND_NAMES[k] for k in kinds))]


def read_kind_counts(value, where: str) -> list[int]:
    """Token counts per kind (an object keyed by kind name; a kind left out counts 0)."""
    if type(value) is dict and len(value) == N_KINDS:
        counts = list(map(value.get, KIND_NAMES))
        if set(map(type, counts)) <= _ONLY_INT and min(counts) >= 0 and max(counts) <= 999:
            return counts
    where = _path(where)
    read_object(value, where, optional=KIND_NAMES)
    return [read_int(value.get(name, 0), f"{where}[{name!r}]", 0, 999) for name in KIND_NAMES]


def read_days(value, where: str) -> list[int]:
    """A list of weekday names as day indices, ascending (no day twice)."""
    days = [read_choice(d, f"{where}[{i}]", WEEKDAYS) for i, d in enumerate(read_list(value, where, what="days"))]
    if len(set(days)) != len(days):
        raise PositionError(f"{where}: a day is there twice")
    return sorted(days)


def read_components(options, n_players: int) -> tuple[list[int], int]:
    """(the packed component table, 1 if grey_dismissal is shield) of a position's ``options``
    (keys left out keep their defaults) for ``n_players``."""
    read_object(options, "options", optional=("grey_dismissal", "components"))
    shield = read_choice(options.get("grey_dismissal", "exclude"), "options.grey_dismissal",
                         ("exclude", "shield"))
    changes = options.get("components", {})
    if changes == {}:
        return _DEFAULT_TABLE, shield
    key = repr(changes), n_players  # repr tells 1 from True and 1.0, unlike ==
    if key in _TABLES_READ:
        return _TABLES_READ[key], shield
    try:
        table = COMPONENTS.check(changes, "options.components")
        COMPONENTS.check_playable(table, n_players, "options.components")
        table = pack_components(table)
    except RuleError as exc:
        raise PositionError(str(exc)) from None
    if len(_TABLES_READ) >= 16:
        _TABLES_READ.clear()
    _TABLES_READ[key] = table
    return table, shield


#: component tables read lately (their repr -> packed): a run's positions share one table
_TABLES_READ: dict = {}


_CELL_KEYS = frozenset(("card", "face", "tokens"))
_PLACEABLE_BY_NAME = {KIND_NAMES[k]: k for k in PLACEABLE}
_NO_TOKENS: list = []  # a cell's tokens when it names none (only read)


def _read_cell(cell, seat: int, column: int) -> tuple[int, bool, list[int]]:
    """(card id, face down?, kinds of the tokens on it) of a row's cell (not null)."""
    overtime = column == OT_COL
    if type(cell) is dict and cell.keys() <= _CELL_KEYS:
        card, face, tokens = cell.get("card"), cell.get("face"), cell.get("tokens", _NO_TOKENS)
        if type(card) is int and 0 < card <= N_COMMIT and (face == "up" or face == "down" and not overtime) \
                and type(tokens) is list:
            kinds = []
            for name in tokens:
                if type(name) is not str or name not in _PLACEABLE_BY_NAME:
                    break
                kinds.append(_PLACEABLE_BY_NAME[name])
            else:
                return card - 1, face == "down", kinds
    where = f"rows[{seat}][{DAY_NAMES[column]}]"
    read_object(cell, where, required=("card", "face"), optional=("tokens",))
    card = read_card(cell["card"], f"{where}.card")
    if overtime:
        down = read_choice(cell["face"], f"{where}.face (the Overtime card is face up, CL-13)", ("up",))
    else:
        down = read_choice(cell["face"], f"{where}.face", ("up", "down"))
    tokens = read_list(cell.get("tokens", []), f"{where}.tokens")
    return card, down == 1, [read_kind(name, f"{where}.tokens[{j}]", PLACEABLE) for j, name in enumerate(tokens)]


def _blank_state() -> list[int]:
    """The state list before anything is placed: every "none" marker as ``init`` leaves it."""
    s = [0] * STATE_SIZE
    s[H_LEADER] = -1
    s[ROW_CARD:ROW_CARD + SEATS * COLS] = [EMPTY] * (SEATS * COLS)
    for start, size in ((WORK_OWNER, N_WORK), (REPR_OWNER, N_REPR), (OT_OWNER, N_OT), (S_GREY, DAYS),
                        (S_DECK, N_COMMIT), (S_DISCARD, N_COMMIT)):
        s[start:start + size] = [-1] * size
    for p in range(MAX_PLAYERS):
        base = PRIVATE + p * PRIVATE_SIZE
        for start, size in ((P_HAND, HAND), (P_DISC, HAND), (P_CARD, COLS), (P_SEEN, DAYS)):
            s[base + start:base + start + size] = [-1] * size
    return s


_BLANK = _blank_state()


class _CardPlaces:
    """Where the Commitment cards are: each must be in exactly one place."""

    def __init__(self):
        self.groups: list[tuple[list[int], str]] = []
        self.every: list[int] = []

    def add(self, cards: list[int], where) -> None:
        """``cards`` are at ``where`` (a ``_path``)."""
        self.groups.append((cards, where))
        self.every += cards

    def check(self) -> None:
        if len(self.every) == N_COMMIT and len(set(self.every)) == N_COMMIT:
            return
        place = {}
        for cards, where in self.groups:
            for card in cards:
                if card in place:
                    raise PositionError(f"card {card + 1} is in two places: {_path(place[card])} and "
                                        f"{_path(where)}")
                place[card] = where
        missing = [c + 1 for c in range(N_COMMIT) if c not in place]
        raise PositionError(
            f"card {missing[0]} is nowhere ({len(missing)} missing): each Commitment card 1 to "
            f"{N_COMMIT} is in a hand, a row, the Grey Entity's cards, the Monday discards or the deck")


def load_state(position: dict) -> np.ndarray:
    """The kernel state (int32, ``STATE_SIZE``) of a position in ``describe_state``'s form.

    Raises PositionError (one line: what is wrong and what is allowed) for a malformed or
    impossible position; derived fields (counts, totals, masks, the public row) are recomputed
    and the kernel's work space (``SCRATCH_FIELDS``) is filled with -1.
    """
    read_object(position, "position", required=_REQUIRED_KEYS, optional=_OPTIONAL_KEYS)
    n = read_int(position["players"], "players", 2, 5)
    s = list(_BLANK)
    s[H_PLAYERS] = n
    grey = s[H_GREY] = 2 if n == 2 else -1
    seats = s[H_SEATS] = 3 if n == 2 else n
    s[C_VALUE:C_VALUE + TABLE_SIZE], s[H_SHIELD] = read_components(position.get("options", {}), n)
    order = _read_progress(position, s)
    places = _CardPlaces()
    spent = [0] * N_KINDS  # tokens spent this week: MEETINGs of face-down cards, looks
    held = [0] * N_KINDS  # tokens held, by the players and the Grey Entity
    on_cards = _read_players(position, s, order, places, spent, held)
    if grey >= 0:
        if "grey_entity" not in position:
            raise PositionError("position: missing key 'grey_entity' (the 2-player game has a Grey Entity)")
        grey_tokens = _read_grey(position["grey_entity"], s, places, spent)
        held = list(map(operator.add, held, grey_tokens))
    elif "grey_entity" in position:
        raise PositionError(f"grey_entity: only the 2-player game has a Grey Entity, not the {n}-player game")
    if s[H_DECISION] == DEC_GREY and s[H_GREY_HIDDEN] == 0:
        raise PositionError("decision grey_entity: no Grey Entity card is face down (only while one is, "
                            "in the 2-player game)")
    deck = read_cards(position["deck"], "deck")
    places.add(deck, "the deck")
    places.check()
    s[H_DECK_LEFT] = len(deck)
    s[S_DECK:S_DECK + len(deck)] = deck
    _read_tokens(position["coffee_room"], s, held, on_cards, spent)
    _read_piles(position, s)
    leader = position.get("leader_at_two_thirds")
    if s[H_WEEK] >= LEADER_WEEKS:
        s[H_LEADER] = read_int(leader, f"leader_at_two_thirds (week {LEADER_WEEKS} is over)", -1, seats - 1)
    elif leader is not None:
        raise PositionError(f"leader_at_two_thirds must be null until week {LEADER_WEEKS} is over, "
                            f"got {_short(leader)}")
    derived = {"turn_order": order, "overtime_pile": _overtime_pile(s), "tallies": _tallies(s)}
    for key, value in derived.items():
        if key in position and position[key] != value:
            raise PositionError(f"{key} must be {_short(value)} (derived from the rest), "
                                f"got {_short(position[key])}")
    state = np.fromiter(s, np.int32, STATE_SIZE)
    derive_views(state)
    return state


def _read_progress(position: dict, s: list) -> list[int]:
    """Week, phase, turn, first player, seat to move and decision; returns the turn order."""
    n = s[H_PLAYERS]
    stage = s[H_STAGE] = read_choice(position["phase"], "phase", PHASES)
    over = stage == STAGE_OVER
    week = read_int(position["week"], "week", 1, WEEKS) - 1
    if over and week != WEEKS - 1:
        raise PositionError(f"week must be {WEEKS} when the game is over, got {week + 1}")
    s[H_WEEK] = WEEKS if over else week
    turn = position.get("midweek_turn")
    if stage == STAGE_MIDWEEK:
        s[H_TURN] = read_int(turn, "midweek_turn", 1, DAYS) - 1
    elif turn is not None:
        raise PositionError(f"midweek_turn must be null outside the midweek (phase {PHASES[stage]}), "
                            f"got {_short(turn)}")
    else:
        s[H_TURN] = 0 if stage == STAGE_MONDAY else DAYS - 1  # Friday (and the end) keep the last turn
    first = s[H_FIRST] = read_int(position["first_player"], "first_player", 0, n - 1)
    order = _turn_order(n, first)
    if over:
        for key in ("to_move", "decision"):
            if position[key] is not None:
                raise PositionError(f"{key} must be null when the game is over, got {_short(position[key])}")
        s[H_TO_MOVE], s[H_DECISION], s[H_POS] = -1, DEC_NONE, n - 1
    else:
        s[H_TO_MOVE] = read_int(position["to_move"], "to_move", 0, n - 1)
        allowed = PHASE_DECISIONS[stage]
        chosen = read_choice(position["decision"], f"decision (phase {PHASES[stage]})", allowed)
        s[H_DECISION] = DECISIONS.index(allowed[chosen])
        s[H_POS] = order.index(s[H_TO_MOVE])
    return order


def _read_players(position: dict, s: list, order: list[int], places: _CardPlaces, spent: list,
                  held: list) -> list:
    """Hands, tokens held, rows and Monday discards of every player; returns the tokens on cards
    per kind (``spent`` gets the MEETINGs of face-down cards, ``held`` the tokens held)."""
    n = s[H_PLAYERS]
    hands = read_number_lists(position["hands"], "hands", n, N_COMMIT, "cards")
    tokens = read_list(position["tokens"], "tokens", n, "one per player")
    rows = read_list(position["rows"], "rows", n, "one row per player")
    discards = read_number_lists(position["monday_discards"], "monday_discards", n, N_COMMIT, "cards")
    on_cards = [0] * N_KINDS
    pile = []  # the week's discard pile in the kernel's order: seat by seat in turn order
    for pos, p in enumerate(order):
        base = PRIVATE + p * PRIVATE_SIZE
        hand = sorted(hands[p])
        discard = sorted(discards[p])
        places.add(hand, ("hands", p))
        places.add(discard, ("monday_discards", p))
        s[base + P_HAND_N] = len(hand)
        s[base + P_HAND:base + P_HAND + len(hand)] = hand
        s[DISC_N + p] = len(discard)
        s[base + P_DISC:base + P_DISC + len(discard)] = discard
        pile += discard
        counts = read_kind_counts(tokens[p], ("tokens", p))
        s[base + P_TOK:base + P_TOK + N_KINDS] = counts
        s[TOKENS_HELD + p] = sum(counts)
        held[:] = map(operator.add, held, counts)
        row = rows[p]
        if type(row) is not list or len(row) != COLS:
            read_list(row, f"rows[{p}]", COLS, "Monday..Friday, Overtime")
        cards = []
        for c, cell in enumerate(row):
            if cell is None:
                continue
            card, down, kinds = _read_cell(cell, p, c)
            cards.append(card)
            at = p * COLS + c
            s[base + P_CARD + c] = card
            if down:
                s[ROW_CARD + at] = FACE_DOWN
                spent[MEETING] += 1
            else:
                s[ROW_CARD + at] = card
            for kind in kinds:
                on_cards[kind] += 1
                s[base + PLACED_FIELDS[kind] + c] += 1
                s[ROW_NTOK + at] += 1
                if not down:  # tokens on a face-down card are public as a count only (CL-8)
                    s[ROW_PLUS + ROW_KIND_STRIDE * kind + at] += 1
        places.add(cards, ("rows", p))
        overtime = row[OT_COL] is not None
        _check_progress(s, p, pos, len(hand), len(cards) - overtime, overtime, len(discard))
    s[S_DISCARD_N] = len(pile)
    s[S_DISCARD:S_DISCARD + len(pile)] = pile
    mover = s[H_TO_MOVE]
    if s[H_DECISION] == DEC_TOKEN and not any(s[PRIVATE + mover * PRIVATE_SIZE + P_TOK + k] for k in PLACEABLE):
        raise PositionError(f"decision token: seat {mover} holds no +10, -10 or ILLNESS token, so it has "
                            f"none to place")
    return on_cards


def _check_progress(s: list, seat: int, pos: int, hand: int, weekdays: int, overtime: bool,
                    discards: int) -> None:
    """A player's hand, row and Monday discards as far as the phase, the turn and the seat to
    move (``pos``: the player's place in the turn order) say."""
    stage, mover_pos = s[H_STAGE], s[H_POS]
    if stage == STAGE_MIDWEEK:
        days = s[H_TURN] + (pos < mover_pos or (pos == mover_pos and s[H_DECISION] == DEC_TOKEN))
        placed = False
    elif stage == STAGE_FRIDAY:
        days, placed = DAYS, pos <= mover_pos
    else:
        days, placed = 0, False
        if stage == STAGE_OVER and (hand or discards):
            raise PositionError(f"seat {seat}: the game is over, so hands and Monday discards are empty")
        if stage == STAGE_MONDAY and discards and pos >= mover_pos:
            raise PositionError(f"monday_discards[{seat}]: seat {seat} has not had its Monday briefing "
                                f"yet (it comes after seat {s[H_TO_MOVE]}, who decides now)")
    if discards > HAND:
        raise PositionError(f"monday_discards[{seat}]: at most {HAND} cards, got {discards}")
    if weekdays != days:
        raise PositionError(f"rows[{seat}]: seat {seat} has {days} weekday card(s) in its row at this "
                            f"point of the week ({PHASES[stage]}), not {weekdays}")
    if overtime != placed:
        raise PositionError(f"rows[{seat}][Overtime]: seat {seat}'s Overtime card is "
                            f"{'placed' if placed else 'not placed (yet)'} at this point of the week")
    if stage != STAGE_OVER and hand != HAND - days - placed:
        raise PositionError(f"hands[{seat}]: seat {seat} holds {HAND - days - placed} card(s) at this "
                            f"point of the week, not {hand}")


def _read_grey(grey_entity, s: list, places: _CardPlaces, spent: list) -> list[int]:
    """Read ``grey_entity`` into the state list; returns the Grey Entity's tokens per kind."""
    n, grey, stage = s[H_PLAYERS], s[H_GREY], s[H_STAGE]
    quiet = stage in (STAGE_MONDAY, STAGE_OVER)  # no reveal and no look yet (or any more)
    read_object(grey_entity, "grey_entity", required=("cards", "revealed", "tokens", "looked_at",
                                                     "peek_tokens_spent"), optional=("seat",))
    if "seat" in grey_entity and grey_entity["seat"] != grey:
        raise PositionError(f"grey_entity.seat must be {grey}, got {_short(grey_entity['seat'])}")
    cards = read_cards(grey_entity["cards"], "grey_entity.cards", 0 if stage == STAGE_OVER else DAYS)
    revealed = read_days(grey_entity["revealed"], "grey_entity.revealed")
    looked = read_list(grey_entity["looked_at"], "grey_entity.looked_at", n, "one list per player")
    peeks = read_list(grey_entity["peek_tokens_spent"], "grey_entity.peek_tokens_spent", n, "one per player")
    if quiet and revealed:
        raise PositionError(f"grey_entity.revealed must be empty in the {PHASES[stage]} phase "
                            f"(cards are revealed in the Midweek)")
    places.add(cards, "grey_entity.cards")
    for d, card in enumerate(cards):
        s[S_GREY + d] = card
        s[ROW_CARD + grey * COLS + d] = card if d in revealed else FACE_DOWN
    s[H_GREY_HIDDEN] = len(cards) - len(revealed)
    for p in range(n):
        base = PRIVATE + p * PRIVATE_SIZE
        days = read_days(looked[p], f"grey_entity.looked_at[{p}]")
        used = read_kind_counts(peeks[p], f"grey_entity.peek_tokens_spent[{p}]")
        if quiet and (days or sum(used)):
            raise PositionError(f"grey_entity: nobody has looked at a Grey Entity card in the "
                                f"{PHASES[stage]} phase (looks happen in the Midweek)")
        if sum(used) < len(days) or (sum(used) > 0) != (len(days) > 0):
            raise PositionError(f"grey_entity: seat {p} looked at {len(days)} card(s) and spent "
                                f"{sum(used)} token(s) on looks: each look spends one token")
        for d in days:
            s[base + P_SEEN + d] = s[S_GREY + d]
            s[PEEKS + p] |= 1 << d
        s[base + P_SPENT:base + P_SPENT + N_KINDS] = used
        s[PEEK_N + p] = sum(used)
        for k in range(N_KINDS):
            spent[k] += used[k]
    tokens = read_kind_counts(grey_entity["tokens"], "grey_entity.tokens")
    s[S_GREY_TOK:S_GREY_TOK + N_KINDS] = tokens
    s[TOKENS_HELD + grey] = sum(tokens)
    return tokens


def _read_tokens(room_value, s: list, held: list, on_cards: list, spent: list) -> None:
    """The Coffee Room and the tokens spent this week; every token of the mix in one place."""
    room = read_kind_counts(room_value, "coffee_room")
    for k in range(N_KINDS):
        total = room[k] + held[k] + on_cards[k] + spent[k]
        if total != s[TOKEN_MIX + k]:
            raise PositionError(
                f"{KIND_NAMES[k]} tokens: the component table has {s[TOKEN_MIX + k]}, the position "
                f"{total} (coffee_room {room[k]}, held {held[k]}, on cards {on_cards[k]}, spent this "
                f"week {spent[k]})")
    s[S_ROOM:S_ROOM + N_KINDS] = room
    s[S_SPENT:S_SPENT + N_KINDS] = spent
    s[H_ROOM] = sum(room)


def _read_piles(position: dict, s: list) -> None:
    """The Work / Reprimand layouts, who took which Work, Reprimand and Overtime card, the CL-3
    discards; the totals and counts per seat."""
    seats = s[H_SEATS]
    weeks_over = s[H_WEEK]
    discarded = read_object(position["discarded"], "discarded", required=("work", "reprimand"))
    for name, size, order_at, owner_at, total_at, count_at, current_at, value_at in LAYOUT_PILES:
        what = name + " cards"
        weeks = read_layout(position[name + "_cards"], name + "_cards", size, name)
        layout = list(itertools.chain.from_iterable(weeks))
        s[order_at:order_at + size] = layout
        s[current_at:current_at + DAYS] = weeks[min(weeks_over, WEEKS - 1)]  # the last week's once over
        holders = read_number_lists(position[name + "_taken"], name + "_taken", seats, size, what)
        holders.append(read_numbers(discarded[name], "discarded." + name, size, what))
        resolved = layout[:DAYS * weeks_over]
        for owner, cards in enumerate(holders):
            if owner == seats:
                owner = DISCARDED
            for i in cards:
                if s[owner_at + i] != -1 or i not in resolved:
                    _misplaced(name, i, s[owner_at + i] != -1, owner, resolved)
                s[owner_at + i] = owner
        for i in resolved:
            owner = s[owner_at + i]
            if owner == -1:
                raise PositionError(f"{name} card {i + 1} of a week over is neither taken (a seat's "
                                    f"{name}_taken) nor discarded")
            if owner >= 0:
                s[total_at + owner] += s[value_at + i]
                s[count_at + owner] += 1
    if discarded["work"] or discarded["reprimand"]:
        for day in range(DAYS * weeks_over):
            work = s[WORK_OWNER + s[S_WORK_ORDER + day]]
            reprimand = s[REPR_OWNER + s[S_REPR_ORDER + day]]
            if (work == DISCARDED) != (reprimand == DISCARDED):
                raise PositionError(f"week {day // DAYS + 1} {WEEKDAYS[day % DAYS]}: its Work and Reprimand "
                                    f"cards are discarded together (CL-3: every card ill) or not at all")
    _read_overtime(position["overtime_taken"], s)


def _misplaced(name: str, i: int, twice: bool, owner: int, resolved: list[int]):
    """Raise the PositionError of a Work / Reprimand card taken twice or before its week is over."""
    where = f"discarded.{name}" if owner == DISCARDED else f"{name}_taken[{owner}]"
    if twice:
        raise PositionError(f"{where}: {name} card {i + 1} is taken or discarded twice")
    raise PositionError(f"{where}: {name} card {i + 1} is not in a week over (cards of the weeks over: "
                        f"{', '.join(str(c + 1) for c in sorted(resolved)) or 'none'})")


def _read_overtime(overtime_taken, s: list) -> None:
    """Who took which Overtime card (from the top of the pile, one a week at most)."""
    seats = s[H_SEATS]
    taken = read_number_lists(overtime_taken, "overtime_taken", seats, N_OT, "overtime cards")
    owners = {}
    for seat in range(seats):
        for k in taken[seat]:
            if seat == s[H_GREY]:
                raise PositionError("overtime_taken: the Grey Entity never takes an Overtime card (CL-9)")
            if k in owners:
                raise PositionError(f"overtime_taken: Overtime card {k + 1} is taken twice")
            owners[k] = seat
    if not owners:
        return
    if sorted(owners) != list(range(len(owners))):
        raise PositionError(f"overtime_taken: Overtime cards are taken from the top of the pile "
                            f"(1, then 2, then 3), got {', '.join(str(k + 1) for k in sorted(owners))}")
    if len(owners) > s[H_WEEK]:
        raise PositionError(f"overtime_taken: at most one Overtime card per week over, {len(owners)} "
                            f"after {s[H_WEEK]} week(s)")
    for k, seat in owners.items():
        s[OT_OWNER + k] = seat
        s[OT_TOTAL + seat] += s[OT_VALUE + k]
        s[OT_CARDS + seat] += 1
    s[H_OT_NEXT] = len(owners)
