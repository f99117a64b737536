"""Compañeros in words and JSON: moves and positions named as the rules file names them.

Pure Python over the state array laid out in ``rules.py``; nothing here is compiled. Seats and
numbers are 0-based as in the kernel (seat 0 is the oldest player, CO-1; round 0 is the first of
a game's nine; game 0 the first of a CO-5 match).

Cards
-----
A card is ``{"colour": NAME, "value": V}``: NAME one of ``red yellow green blue purple orange``
(colours 0..5; a game of n players uses the first n, or n + ``deck.extra_colours`` with another
component table), V the integer 1..10, the card's rank: it is worth V victory points by default,
``deck.values[V - 1]`` under another component table. Lists of cards are ascending by colour,
then value (the order of the kernel's card ids).

Moves (``move_to_json``; the reference engine's ``Game.action`` spells them the same way)
-----------------------------------------------------------------------------------------
- play a card: ``{"action": "play", "card": {"colour": "green", "value": 7}}``
- take a colour from the display (CO-2), naming the cards taken (ascending) and the victory
  points they are worth: ``{"action": "take", "colour": "red", "cards": [{"colour": "red",
  "value": 1}, {"colour": "red", "value": 8}], "points": 9}``
- take nothing: ``{"action": "pass"}``

Positions (``describe_state`` writes one, ``load_state`` reads one back)
-------------------------------------------------------------------------
A position is a JSON object with exactly these keys (per-seat lists have one entry per seat):

- ``players``: n, 3 to 6.
- ``match_games``: the rule option ``match_games`` (CO-5), the games in the match, 1 to 100.
- ``components`` (only when the component table in force is not the defaults): the entries that
  differ, keyed as in ``components.toml`` (e.g. ``{"deal": {"hand": 7}}``). It sets the colours,
  the cards' values, the display dealt and the hand size (= rounds per game) the rest is read
  with; the rules file's sizes below (n colours, a display of n, hands of 9) are the defaults'.
- ``match_game``: the game of the match being played, 0 to match_games - 1 (match_games once
  the match is over).
- ``round``: the round of this game, 0 to 8 (9 once the match is over).
- ``phase``: ``"play"`` (seats play a card each, from the starter in seat order), ``"take"``
  (trick scoring: the takers decide in order) or ``"over"`` (the match is over).
- ``starter``: the seat that starts this round.
- ``game_starter``: the seat that started this game's first round (seat 0 in game 0, CO-1; then
  the leader on points, CO-5); it breaks ties for the start of the next game.
- ``to_move``: the seat to decide now, null once the match is over. It follows from the rest
  (the next seat to play, or the first of ``still_to_take``) and is checked against it.
- ``hands``: each seat's hand, a list of cards. In round r a seat holds 9 - r cards, one fewer
  once it has played this round.
- ``display``: the open display, a list of cards.
- ``played``: the card each seat played this round, null if it has not played yet. Seats play
  from the starter on in seat order, so the seats that played are the starter and the ones after
  it. In the take phase every seat has played.
- ``still_to_take``: in the take phase, the seats of the taking order (colour value, then card
  value, descending; cut at the first colour value two colours share, CO-6) that have not yet
  taken or passed, in order; the first of them decides now. Empty in the other phases.
- ``first_taker``: in the take phase, the first seat that took cards this round (it starts the
  next round, CO-2), null if nobody has taken yet; null in the other phases.
- ``taken``: the display cards each seat took in this game of the match.
- ``points``: each seat's victory points over the match so far (from what it started with: the seat
  compensation, components ``compensation.points``; 0 in the shipped game).
- ``cards_taken``: how many display cards each seat took over the match (a result column).
- ``rounds_first_taker``: how many rounds of the match each seat took first in, so started the
  next round (a result column).
- ``leader_at_two_thirds``: the seat alone in the lead on points after two thirds of the match's
  rounds (6 * match_games of them), -1 if the lead was shared then, null until then (a result
  column).

Every card of the game (n colours x values 1..10) lies in exactly one of ``hands``,
``display``, ``played`` and ``taken`` (with a component table that leaves cards undealt, every
dealt card: the display and hands' sizes of a deal). ``load_state`` refuses a position that breaks any of
these rules with :class:`~tourney_sim.simulate.games.spec.PositionError` and a one-line reason.

What the kernel state holds beyond a position (``not_position_fields``): the scratch area
(:data:`SCRATCH_FIELDS`: the shuffled deck of the last deal, the sort keys of the last trick
scoring) and, outside the take phase, the taking bookkeeping left over from the last trick
(:data:`TAKING_FIELDS`, read by nothing until the next trick is scored). ``load_state`` leaves
the scratch area zero and, outside the take phase, writes "no trick being scored" there.

Chance events (the reference engine, ``reference.py``)
------------------------------------------------------
The deal is the only chance event. Kind ``"deal"``, one at the start of each game of the match
(CO-5): the display (n cards, ascending) and each seat's hand (9 cards, ascending), every card
of the game exactly once. With 3 players::

    {"deal": {"display": [{"colour": "red", "value": 4}, {"colour": "yellow", "value": 10},
                          {"colour": "green", "value": 2}],
              "hands": [[{"colour": "red", "value": 1}, ... 9 cards], [... 9], [... 9]]}}

A written deal is refused (``ChanceError``) unless it has exactly these two keys, the right
numbers of cards, only cards of the game's n colours, and no card twice; its lists may be in any
order. Positions accept cards in any order within a list too; ``describe_state`` writes them
ascending.
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

import numpy as np

from ...errors import span
from ..spec import PositionError, RuleError
from .rules import (
    CARD_VALUE, CARDS_TAKEN, colour_of, COMPENSATION, COMPONENTS, DISPLAY_MASK, DISPLAY_SUM, FIRST_TAKES, H_COLOURS,
    H_DISPLAY_CARDS, H_DISPLAY_START, H_FIRST_TAKER, H_GAME_NO, H_GAME_STARTER, H_HAND_SIZE, H_LEADER_2_3,
    H_MATCH_GAMES, H_N_PLAYED, H_N_TAKERS, H_PHASE, H_PLAYERS, H_ROUND, H_STARTER, H_TAKE_POS, H_TO_MOVE,
    HAND_SIZE, MAX_MATCH_GAMES, MAX_PLAYERS, MIN_PLAYERS, MOVE_PASS, MOVE_TAKE, PHASE_OVER, PHASE_TAKE,
    PLAYED, PLAYED_MASK, PLAYED_SUM, PRIVATE, PRIVATE_SIZE, SCORE, SCRATCH, STATE_SIZE, TAKE_ORDER,
    TAKEN_MASK, value_of, VALUES,
)


from .rules import COLOUR_NAMES  # noqa: E402  (declared with the rules' DEALT_KINDS)
#: ``phase`` of a position, indexed by the kernel's PHASE_PLAY, PHASE_TAKE, PHASE_OVER
PHASE_NAMES = ("play", "take", "over")
#: the keys of a position, in the order ``describe_state`` writes them
POSITION_KEYS = ("players", "match_games", "match_game", "round", "phase", "starter", "game_starter",
                 "to_move", "hands", "display", "played", "still_to_take", "first_taker", "taken",
                 "points", "cards_taken", "rounds_first_taker", "leader_at_two_thirds")
#: the key a position has only when the component table in force is not the defaults (after
#: ``match_games``): the entries that differ, keyed as in components.toml
COMPONENTS_KEY = "components"
#: the kernel's work space, never part of a position: (name, first index, end index)
SCRATCH_FIELDS = (("SCRATCH", SCRATCH, STATE_SIZE),)
#: the bookkeeping of trick scoring: part of the position in the take phase; in the play phase
#: and once the match is over, what the last trick left there (read by nothing)
TAKING_FIELDS = (("H_TAKE_POS", H_TAKE_POS, H_TAKE_POS + 1), ("H_N_TAKERS", H_N_TAKERS, H_N_TAKERS + 1),
                 ("H_FIRST_TAKER", H_FIRST_TAKER, H_FIRST_TAKER + 1),
                 ("TAKE_ORDER", TAKE_ORDER, TAKE_ORDER + MAX_PLAYERS))


class Setup(NamedTuple):
    """What the component table in force makes of a game of ``players``: the colours in play,
    the opening display, the hand size (= rounds per game), each rank's victory points."""

    players: int
    colours: int
    shown: int
    hand: int
    worth: tuple[int, ...]
    compensation: tuple[int, ...]  # the victory points each seat starts with (MAX_PLAYERS of them)

    @staticmethod
    def of(players: int, table: dict) -> "Setup":
        return Setup(players, players + table["deck"]["extra_colours"], players + table["deal"]["extra_display"],
                     table["deal"]["hand"], tuple(table["deck"]["values"]), tuple(table["compensation"]["points"]))

    @staticmethod
    def of_state(s: list) -> "Setup":
        return Setup(s[H_PLAYERS], s[H_COLOURS], s[H_DISPLAY_START], s[H_HAND_SIZE],
                     tuple(s[CARD_VALUE:CARD_VALUE + VALUES]), tuple(s[COMPENSATION:COMPENSATION + MAX_PLAYERS]))

    def table(self) -> dict:
        """The component table this setup comes from."""
        return {"deck": {"extra_colours": self.colours - self.players, "values": list(self.worth)},
                "deal": {"extra_display": self.shown - self.players, "hand": self.hand},
                "compensation": {"points": list(self.compensation)}}

    def dealt(self) -> int:
        """Cards of a deal (the display and the hands; the rest of the deck stays undealt)."""
        return self.shown + self.players * self.hand

    def two_thirds(self, match_games: int) -> int:
        """The match round after which ``leader_at_two_thirds`` is settled (as the kernel takes it)."""
        return 2 * self.hand * match_games // 3


def card_name(card: int) -> str:
    return f"{COLOUR_NAMES[colour_of(card)]} {value_of(card)}"


#: each card id's spelling (copied out: positions spell many cards)
_CARD_SPELLINGS = tuple({"colour": COLOUR_NAMES[colour_of(card)], "value": value_of(card)}
                        for card in range(MAX_PLAYERS * VALUES))


def card_json(card: int) -> dict:
    """A card id as positions and moves spell it: ``{"colour": "red", "value": 7}``."""
    return _CARD_SPELLINGS[card].copy()


#: bit offsets (value - 1) set in each 10-bit mask, ascending: positions list many masks
_MASK_OFFSETS = tuple(tuple(v for v in range(VALUES) if mask >> v & 1) for mask in range(1 << VALUES))


def mask_cards(colour: int, mask: int) -> list[int]:
    """Card ids of ``colour`` whose bits are set in ``mask``, ascending."""
    return [colour * VALUES + v for v in _MASK_OFFSETS[mask]]


def masks_cards(masks: list[int]) -> list[int]:
    """Card ids of the per-colour masks ``masks[colour]``, ascending."""
    return [colour * VALUES + v for colour, mask in enumerate(masks) for v in _MASK_OFFSETS[mask]]


def hand_cards(state: np.ndarray, seat: int) -> list[int]:
    base = PRIVATE + seat * PRIVATE_SIZE
    return [int(c) for c in state[base + 1:base + 1 + state[base]]]


def display_cards(state: np.ndarray) -> list[int]:
    return masks_cards([int(m) for m in state[DISPLAY_MASK:DISPLAY_MASK + MAX_PLAYERS]])


def taken_cards(state: np.ndarray, seat: int) -> list[int]:
    """The cards ``seat`` took in this game of the match, ascending."""
    base = TAKEN_MASK + seat * MAX_PLAYERS
    return masks_cards([int(m) for m in state[base:base + MAX_PLAYERS]])


def points_of(cards: list[int], worth=tuple(range(1, VALUES + 1))) -> int:
    """The victory points of some cards: the sum of their values (``worth[rank - 1]``; by
    default the rank)."""
    return sum(worth[card % VALUES] for card in cards)


def _worth(state) -> tuple:
    return tuple(int(v) for v in state[CARD_VALUE:CARD_VALUE + VALUES])


# ----------------------------------------------------------------------------- moves
def describe_move(state: np.ndarray, move: int) -> str:
    if move == MOVE_PASS:
        return "passes (takes nothing)"
    if move >= MOVE_TAKE:
        colour = move - MOVE_TAKE
        cards = mask_cards(colour, int(state[DISPLAY_MASK + colour]))
        total = points_of(cards, _worth(state))
        return f"takes {COLOUR_NAMES[colour]} ({', '.join(str(value_of(c)) for c in cards)}) = {total} points"
    return f"plays {card_name(move)}"


def move_to_json(state: np.ndarray, move: int) -> dict:
    """The move spelled out completely (see the module docstring): a take names the display
    cards of its colour in ``state`` and the points they are worth."""
    if move == MOVE_PASS:
        return {"action": "pass"}
    if move >= MOVE_TAKE:
        colour = move - MOVE_TAKE
        cards = mask_cards(colour, int(state[DISPLAY_MASK + colour]))
        return {"action": "take", "colour": COLOUR_NAMES[colour], "cards": [card_json(c) for c in cards],
                "points": points_of(cards, _worth(state))}
    return {"action": "play", "card": card_json(move)}


# ----------------------------------------------------------------------------- positions
def not_position_fields(state: np.ndarray) -> tuple:
    """The fields of ``state`` that are not part of its position (``load_state`` does not
    restore them): (name, first index, end index) each."""
    if state[H_PHASE] == PHASE_TAKE:
        return SCRATCH_FIELDS
    return SCRATCH_FIELDS + TAKING_FIELDS


def taking_order(played: list[int], worth=tuple(range(1, VALUES + 1))) -> tuple[list[int], int]:
    """Trick scoring (CO-6) of the cards ``played[seat]``: every seat in the order of (colour
    value, card value, seat) descending, as the kernel's ``TAKE_ORDER`` holds it, and how many of
    them take (those above the highest colour value two colours share). ``worth``: each rank's
    points (they rise with the rank, so rank order is card value order)."""
    colour_value = [0] * MAX_PLAYERS
    for card in played:
        colour_value[colour_of(card)] += worth[card % VALUES]
    order = sorted(range(len(played)), reverse=True,
                   key=lambda seat: (colour_value[colour_of(played[seat])], value_of(played[seat]), seat))
    present = [v for v in colour_value if v > 0]
    highest_shared = max((v for v in present if present.count(v) > 1), default=0)
    takers = sum(1 for seat in order if colour_value[colour_of(played[seat])] > highest_shared)
    return order, takers


def _match_rounds_done(game: int, round_: int, rounds: int) -> int:
    """Rounds of the match completed when game ``game`` (0-based, capped at the last game) is at
    round ``round_`` (``rounds`` per game)."""
    return game * rounds + round_


def describe_state(state: np.ndarray) -> dict:
    """The complete position of ``state`` as the rules file names it (see the module docstring);
    ``load_state`` turns it back into the state."""
    s = state.tolist()  # plain ints: quicker to read, and JSON-ready
    n = s[H_PLAYERS]
    match_games = s[H_MATCH_GAMES]
    phase = s[H_PHASE]
    taking = phase == PHASE_TAKE
    takers = s[TAKE_ORDER:TAKE_ORDER + s[H_N_TAKERS]] if taking else []
    first_taker = s[H_FIRST_TAKER] if taking and s[H_FIRST_TAKER] >= 0 else None
    game = min(s[H_GAME_NO], match_games - 1)
    setup = Setup.of_state(s)
    settled = _match_rounds_done(game, s[H_ROUND], setup.hand) >= setup.two_thirds(match_games)
    colours = setup.colours

    def spelled(cards):
        return [_CARD_SPELLINGS[c].copy() for c in cards]

    def hand(seat):
        base = PRIVATE + seat * PRIVATE_SIZE
        return s[base + 1:base + 1 + s[base]]

    def taken(seat):
        base = TAKEN_MASK + seat * MAX_PLAYERS
        return masks_cards(s[base:base + colours])

    changed = COMPONENTS.differing(setup.table())
    return {
        "players": n, "match_games": match_games, **({COMPONENTS_KEY: changed} if changed else {}),
        "match_game": s[H_GAME_NO], "round": s[H_ROUND],
        "phase": PHASE_NAMES[phase], "starter": s[H_STARTER], "game_starter": s[H_GAME_STARTER],
        "to_move": s[H_TO_MOVE] if s[H_TO_MOVE] >= 0 else None,
        "hands": [spelled(hand(p)) for p in range(n)],
        "display": spelled(masks_cards(s[DISPLAY_MASK:DISPLAY_MASK + colours])),
        "played": [card_json(s[PLAYED + p]) if s[PLAYED + p] >= 0 else None for p in range(n)],
        "still_to_take": takers[s[H_TAKE_POS]:],
        "first_taker": first_taker,
        "taken": [spelled(taken(p)) for p in range(n)],
        "points": s[SCORE:SCORE + n],
        "cards_taken": s[CARDS_TAKEN:CARDS_TAKEN + n],
        "rounds_first_taker": s[FIRST_TAKES:FIRST_TAKES + n],
        "leader_at_two_thirds": s[H_LEADER_2_3] if settled else None,
    }


# ---- reading a position back
_CARD_IDS = {(name, value): colour * VALUES + value - 1
             for colour, name in enumerate(COLOUR_NAMES) for value in range(1, VALUES + 1)}


def _show(value: Any) -> str:
    """A short one-line JSON rendering of a (possibly large or malformed) value for a message."""
    text = json.dumps(value, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


# The readers below name what they read as ``key`` or ``key[index]`` in a refusal; the name is
# only formatted then (a position has many entries to read).
def _name(key: str, index: int | None) -> str:
    return key if index is None else f"{key}[{index}]"


def _integer(value: Any, low: int, high: int, key: str, index: int | None = None) -> int:
    if type(value) is not int:
        raise PositionError(f"{_name(key, index)} must be an integer from {low} to {high}, not {_show(value)}")
    if not low <= value <= high:
        raise PositionError(f"{_name(key, index)} is {value}; it must be from {low} to {high}")
    return value


def _seat(value: Any, players: int, key: str, index: int | None = None, may_be_null: bool = False) -> int | None:
    if value is None and may_be_null:
        return None
    allowed = f"a seat from 0 to {players - 1}" + (" or null" if may_be_null else "")
    if type(value) is not int:
        raise PositionError(f"{_name(key, index)} must be {allowed}, not {_show(value)}")
    if not 0 <= value < players:
        raise PositionError(f"{_name(key, index)} is seat {value}; it must be {allowed}")
    return value


def _list(value: Any, key: str, length: int | None = None, index: int | None = None) -> list:
    if not isinstance(value, list):
        raise PositionError(f"{_name(key, index)} must be a list" + (f" of {length}" if length is not None else "")
                            + f", not {_show(value)}")
    if length is not None and len(value) != length:
        raise PositionError(f"{_name(key, index)} has {len(value)} entries; it must have {length} (one per seat)")
    return value


def _card(value: Any, players: int, key: str, index: int | None = None) -> int:
    """The card id of a spelled card of a game of ``players``; PositionError if it is none."""
    if type(value) is dict and len(value) == 2:
        colour, number = value.get("colour"), value.get("value")
        if type(colour) is str and type(number) is int:
            card = _CARD_IDS.get((colour, number))
            if card is not None and card < players * VALUES:
                return card
    raise PositionError(f"{_name(key, index)}: unknown card {_show(value)}; a card is {{\"colour\": one of "
                        f"{', '.join(COLOUR_NAMES[:players])}, \"value\": 1 to {VALUES}}}")


def _cards(value: Any, players: int, key: str, index: int | None = None) -> list[int]:
    """The card ids of a list of spelled cards; PositionError naming the first bad one."""
    spelled = _list(value, key, index=index)
    try:  # the quick way, for cards spelled right
        cards = [_CARD_IDS[c["colour"], c["value"]] for c in spelled
                 if type(c) is dict and len(c) == 2 and type(c["value"]) is int]
    except (KeyError, TypeError):  # a key missing, an unhashable colour or value
        cards = []
    if len(cards) == len(spelled) and max(cards, default=0) < players * VALUES:
        return cards
    return [_card(c, players, key, index) for c in spelled]  # finds the bad card and says why


def _counts(value: Any, players: int, high: int, key: str) -> list[int]:
    """A per-seat list of counts from 0 to ``high``."""
    counts = _list(value, key, players)
    if not all(type(v) is int and 0 <= v <= high for v in counts):
        for seat, v in enumerate(counts):
            _integer(v, 0, high, key, seat)  # says which and why
    return counts


def load_state(position: dict) -> np.ndarray:
    """The kernel state (int32, ``STATE_SIZE``) of a position written as ``describe_state``
    writes it (see the module docstring). Derived fields (masks, sums, counts, the taking order,
    the seat to move) are recomputed; the scratch area stays zero. A malformed or impossible
    position raises :class:`PositionError` with a one-line reason."""
    _check_keys(position)

    # ---- the game, the match and whose turn
    n = _integer(position["players"], MIN_PLAYERS, MAX_PLAYERS, "players")
    match_games = _integer(position["match_games"], 1, MAX_MATCH_GAMES, "match_games")
    setup = _read_setup(position.get(COMPONENTS_KEY, {}), n)
    rounds = setup.hand
    phase_name = position["phase"]
    if phase_name not in PHASE_NAMES:
        raise PositionError(f"phase must be one of {', '.join(PHASE_NAMES)}, not {_show(phase_name)}")
    phase = PHASE_NAMES.index(phase_name)
    over = phase == PHASE_OVER
    match_game = _integer(position["match_game"], 0, match_games, "match_game")
    round_ = _integer(position["round"], 0, rounds, "round")
    if over != (match_game == match_games) or over != (round_ == rounds):
        raise PositionError(f"match_game {match_game} and round {round_} in phase {phase_name}: while the "
                            f"match goes on, match_game is {span(0, match_games - 1)} and round {span(0, rounds - 1)}; "
                            f"once it is over, match_game is {match_games} and round {rounds}")
    game = min(match_game, match_games - 1)  # the game whose cards lie on the table
    starter = _seat(position["starter"], n, "starter")
    game_starter = _seat(position["game_starter"], n, "game_starter")
    if game == 0 and game_starter != 0:
        raise PositionError(f"game_starter is seat {game_starter}; seat 0 starts the first game (CO-1)")
    if round_ == 0 and starter != game_starter:
        raise PositionError(f"starter is seat {starter} in round 0, where the game's starter (game_starter, "
                            f"seat {game_starter}) starts")

    hands, display, played, taken = _read_cards(position, setup)

    # ---- who played this round, and hand sizes
    n_played = sum(c is not None for c in played)
    if phase == PHASE_TAKE and n_played != n:
        raise PositionError(f"{n_played} of {n} seats have played; in the take phase every seat has")
    if phase != PHASE_TAKE and n_played == n:
        raise PositionError(f"every seat has played but the phase is {phase_name}: a full trick is scored "
                            f"(phase take)")
    if over and n_played:
        raise PositionError("a card is played but the match is over")
    first_to_play = [(starter + i) % n for i in range(n_played)]
    if {p for p in range(n) if played[p] is not None} != set(first_to_play):
        raise PositionError(f"played: seats {[p for p in range(n) if played[p] is not None]} have played, "
                            f"but the first {n_played} to play from the starter are seats {first_to_play}")
    for p, hand in enumerate(hands):
        size = rounds - round_ - (played[p] is not None)
        if len(hand) != size:
            raise PositionError(f"hands[{p}] holds {len(hand)} cards; in round {round_} it holds {size}")

    # ---- trick scoring
    still_to_take = [_seat(v, n, "still_to_take", i)
                     for i, v in enumerate(_list(position["still_to_take"], "still_to_take"))]
    first_taker = _seat(position["first_taker"], n, "first_taker", may_be_null=True)
    order, n_takers = [], 0
    if phase == PHASE_TAKE:
        order, n_takers = taking_order(played, setup.worth)
        takers = order[:n_takers]
        decided = n_takers - len(still_to_take)
        if not still_to_take or decided < 0 or takers[decided:] != still_to_take:
            raise PositionError(f"still_to_take is {still_to_take}; it must be the last (at least one) of the "
                                f"taking order {takers}")
        if first_taker is not None and first_taker not in takers[:decided]:
            raise PositionError(f"first_taker is seat {first_taker}, who is not among the takers that "
                                f"decided already ({takers[:decided]})")
        if not display:
            raise PositionError("the display is empty in the take phase: taking ends when it empties")
    else:
        if still_to_take or first_taker is not None:
            raise PositionError(f"still_to_take and first_taker are for the take phase: in phase {phase_name} "
                                f"they are [] and null")
        if len(display) < setup.shown:
            raise PositionError(f"the display holds {len(display)} cards; outside the take phase it holds at "
                                f"least {setup.shown} (the deal lays {setup.shown}, and the cards of each trick "
                                f"join it)")
    to_move = None if over else still_to_take[0] if phase == PHASE_TAKE else (starter + n_played) % n
    written_to_move = _seat(position["to_move"], n, "to_move", may_be_null=True)
    if written_to_move != to_move:
        raise PositionError(f"to_move is {_show(written_to_move)}, but the seat to decide is {_show(to_move)}")

    points, cards_taken, first_takes, leader = _read_tallies(position, setup, match_games, game, round_, taken)

    # ---- the state (built as a list: quicker than writing an array item by item)
    state = [0] * STATE_SIZE
    state[H_PLAYERS], state[H_MATCH_GAMES], state[H_GAME_NO], state[H_ROUND] = n, match_games, match_game, round_
    state[H_COLOURS], state[H_HAND_SIZE], state[H_DISPLAY_START] = setup.colours, setup.hand, setup.shown
    state[CARD_VALUE:CARD_VALUE + VALUES] = setup.worth
    state[COMPENSATION:COMPENSATION + MAX_PLAYERS] = setup.compensation
    state[H_PHASE], state[H_STARTER], state[H_GAME_STARTER] = phase, starter, game_starter
    state[H_TO_MOVE] = -1 if to_move is None else to_move
    state[H_N_PLAYED] = n_played
    state[H_N_TAKERS] = n_takers
    state[H_TAKE_POS] = n_takers - len(still_to_take)
    state[H_FIRST_TAKER] = -1 if first_taker is None else first_taker
    state[TAKE_ORDER:TAKE_ORDER + len(order)] = order
    state[H_DISPLAY_CARDS] = len(display)
    state[H_LEADER_2_3] = 0 if leader is None else leader  # the kernel holds 0 until it is settled
    state[SCORE:SCORE + n] = points
    state[CARDS_TAKEN:CARDS_TAKEN + n] = cards_taken
    state[FIRST_TAKES:FIRST_TAKES + n] = first_takes
    state[PLAYED:PLAYED + MAX_PLAYERS] = [-1] * MAX_PLAYERS
    state[PLAYED:PLAYED + n] = [-1 if card is None else card for card in played]
    _write_sums_and_masks(state, PLAYED_SUM, PLAYED_MASK, [card for card in played if card is not None],
                          setup.worth)
    _write_sums_and_masks(state, DISPLAY_SUM, DISPLAY_MASK, display, setup.worth)
    for p, cards in enumerate(taken):
        _write_sums_and_masks(state, None, TAKEN_MASK + p * MAX_PLAYERS, cards, setup.worth)
    for p, hand in enumerate(hands):
        base = PRIVATE + p * PRIVATE_SIZE
        state[base:base + PRIVATE_SIZE] = [len(hand)] + sorted(hand) + [-1] * (HAND_SIZE - len(hand))
    return np.array(state, np.int32)


def _check_keys(position: Any) -> None:
    """A position is an object with exactly the keys :data:`POSITION_KEYS`."""
    if not isinstance(position, dict):
        raise PositionError(f"a position is a JSON object with the keys {', '.join(POSITION_KEYS)}, "
                            f"not {_show(position)}")
    missing = [k for k in POSITION_KEYS if k not in position]
    if missing:
        raise PositionError(f"the position has no {', '.join(missing)} (keys: {', '.join(POSITION_KEYS)})")
    unknown = [k for k in position if k not in POSITION_KEYS and k != COMPONENTS_KEY]
    if unknown:
        raise PositionError(f"the position has unknown keys {', '.join(map(str, unknown))} "
                            f"(keys: {', '.join(POSITION_KEYS)})")


def _read_setup(changes: Any, players: int) -> Setup:
    """The setup of a position's ``components`` (the entries that differ from the defaults)."""
    try:
        table = COMPONENTS.check(changes, COMPONENTS_KEY)
        COMPONENTS.check_playable(table, players, COMPONENTS_KEY)
    except RuleError as exc:
        raise PositionError(str(exc)) from None
    return Setup.of(players, table)


def _read_cards(position: dict, setup: Setup) -> tuple[list, list, list, list]:
    """The card ids of the hands, the display, played (None: not yet) and taken, every card of
    the deal in exactly one of them."""
    players, colours = setup.players, setup.colours
    hands = [_cards(h, colours, "hands", p) for p, h in enumerate(_list(position["hands"], "hands", players))]
    display = _cards(position["display"], colours, "display")
    played = [None if c is None else _card(c, colours, "played", p)
              for p, c in enumerate(_list(position["played"], "played", players))]
    taken = [_cards(t, colours, "taken", p) for p, t in enumerate(_list(position["taken"], "taken", players))]
    every_card = [c for cards in hands + [display] + taken for c in cards] + [c for c in played if c is not None]
    if len(every_card) != setup.dealt() or len(set(every_card)) != setup.dealt():
        _refuse_misplaced_cards(setup, hands, display, played, taken)
    return hands, display, played, taken


def _read_tallies(position: dict, setup: Setup, match_games: int, game: int, round_: int,
                  taken: list[list[int]]) -> tuple[list[int], list[int], list[int], int | None]:
    """points, cards_taken, rounds_first_taker and leader_at_two_thirds, checked against the
    cards taken in this game (game ``game`` of the match, at round ``round_``)."""
    n = setup.players
    deck_points = sum(setup.worth) * setup.colours  # at most every card in a game
    deck_cards = VALUES * setup.colours
    points = _counts(position["points"], n, deck_points * match_games + max(setup.compensation), "points")
    cards_taken = _counts(position["cards_taken"], n, deck_cards * match_games, "cards_taken")
    rounds_done = _match_rounds_done(game, round_, setup.hand)
    first_takes = _counts(position["rounds_first_taker"], n, rounds_done, "rounds_first_taker")
    for p in range(n):  # this game's takings, and at most every card in each earlier game
        this_game_points = points_of(taken[p], setup.worth) + setup.compensation[p]  # with what it started with
        if not 0 <= points[p] - this_game_points <= deck_points * game:
            start = f" (besides the {setup.compensation[p]} it started with)" if setup.compensation[p] else ""
            raise PositionError(f"points[{p}] is {points[p]}, but seat {p} took {this_game_points - setup.compensation[p]} "
                                f"points in this game{start} and {deck_points} at most in each of {game} earlier")
        if not 0 <= cards_taken[p] - len(taken[p]) <= deck_cards * game:
            raise PositionError(f"cards_taken[{p}] is {cards_taken[p]}, but seat {p} took {len(taken[p])} cards "
                                f"in this game and {deck_cards} at most in each of {game} earlier")
    if sum(first_takes) > rounds_done:
        raise PositionError(f"rounds_first_taker adds up to {sum(first_takes)}, more than the {rounds_done} "
                            f"rounds of the match played")
    two_thirds = setup.two_thirds(match_games)
    leader = position["leader_at_two_thirds"]
    if rounds_done < two_thirds and leader is not None:
        raise PositionError(f"leader_at_two_thirds is null until {two_thirds} rounds of the match are played "
                            f"({rounds_done} are)")
    if rounds_done >= two_thirds and (type(leader) is not int or not -1 <= leader < n):
        raise PositionError(f"leader_at_two_thirds must be a seat from 0 to {n - 1} or -1 (a shared lead), "
                            f"not {_show(leader)}")
    return points, cards_taken, first_takes, leader


def _refuse_misplaced_cards(setup: Setup, hands: list, display: list, played: list, taken: list) -> None:
    """Raise the PositionError for a card in two places, or too few cards placed."""
    places = ([(f"hands[{p}]", hand) for p, hand in enumerate(hands)] + [("display", display)]
              + [(f"played[{p}]", [card]) for p, card in enumerate(played) if card is not None]
              + [(f"taken[{p}]", cards) for p, cards in enumerate(taken)])
    place_of: dict[int, str] = {}
    for place, cards in places:
        for card in cards:
            if card in place_of:
                raise PositionError(f"{card_name(card)} is in {place_of[card]} and in {place}: every card lies "
                                    f"in exactly one place")
            place_of[card] = place
    if setup.dealt() == setup.colours * VALUES:  # every card is dealt: name one missing
        nowhere = next(c for c in range(setup.colours * VALUES) if c not in place_of)
        raise PositionError(f"{card_name(nowhere)} is missing: every card of the game lies in a hand, the "
                            f"display, played or taken")
    raise PositionError(f"the position places {len(place_of)} cards; a deal of this game places "
                        f"{setup.dealt()} (in a hand, the display, played or taken), the rest stay undealt")


def _write_sums_and_masks(state: list[int], sums: int | None, masks: int, cards: list[int], worth) -> None:
    """Write the per-colour value sums (at ``sums``, unless None; ``worth[rank - 1]`` a card) and
    masks (at ``masks``) of ``cards`` into ``state``."""
    for card in cards:
        colour, offset = divmod(card, VALUES)
        if sums is not None:
            state[sums + colour] += worth[offset]
        state[masks + colour] |= 1 << offset
