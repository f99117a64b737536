"""Compañeros, the slow and readable way: a reference for the compiled kernel.

Written from ``shared/rules/companeros.md`` with plain lists and named things. It shares with the
kernel only what a replay must share: the params layout (``rules.PARAMS``), card and move numbering,
the shuffle, and the seeding.

Chance: the only random thing in Compañeros is the deal at the start of each game of a match
(CO-5). It is one chance event of kind ``"deal"`` (see :mod:`tourney_sim.simulate.games.chance`),
drawn from the stream exactly as the kernel deals, or taken from a written record::

    {"deal": {"display": [{"colour": "red", "value": 4}, ...],        # n cards
              "hands": [[{"colour": "red", "value": 1}, ...], ...]}}  # n hands of 9 cards

The component table (``params[P_COLOURS:]``: colours, hand size, display size, the ten ranks' values)
sets the colours in play, the sizes dealt and what each rank is worth; a card's ``value`` in a
spelling is its rank (1..10), worth ``worth[rank - 1]`` victory points (by default the rank).

Cards are spelled as ``notation.py`` spells them; :meth:`Game.action` spells a move as
``notation.move_to_json`` does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tourney_sim.simulate.games.chance import as_chance, Chance
from tourney_sim.simulate.seeding import PyStream

from .rules import (  # the params' offsets, as the rules declare them (rules.PARAMS)
    P_COLOURS, P_COMPENSATION, P_DISPLAY, P_HAND_SIZE, P_MATCH_GAMES, P_PLAYERS, P_VALUES,
)

COLOURS = ("red", "yellow", "green", "blue", "purple", "orange")
TAKE, PASS = 64, 127  # move codes: take colour k = TAKE + k; play card = card number


@dataclass(frozen=True, order=True)
class Card:
    colour: int
    value: int

    @property
    def number(self) -> int:  # the kernel's card id
        return self.colour * 10 + self.value - 1

    @staticmethod
    def of(number: int) -> "Card":
        return Card(number // 10, number % 10 + 1)

    def __str__(self) -> str:
        return f"{COLOURS[self.colour]} {self.value}"

    def to_json(self) -> dict:
        """The card as traces spell it: ``{"colour": "red", "value": 7}``."""
        return {"colour": COLOURS[self.colour], "value": self.value}

    @staticmethod
    def from_json(spelled: dict) -> "Card":
        """The card of a spelling :func:`card_problem` accepts."""
        return Card(COLOURS.index(spelled["colour"]), spelled["value"])


def card_problem(spelled: Any, colours: int) -> str | None:
    """Why ``spelled`` is not a card of a game of ``colours`` colours (0..colours-1, values
    1..10), or None if it is one."""
    if not isinstance(spelled, dict) or set(spelled) != {"colour", "value"}:
        return f"a card is {{\"colour\": ..., \"value\": ...}}, not {spelled!r}"
    colour, value = spelled["colour"], spelled["value"]
    if colour not in COLOURS[:colours]:
        return f"unknown card {spelled!r}: the game's colours are {', '.join(COLOURS[:colours])}"
    if type(value) is not int or not 1 <= value <= 10:
        return f"unknown card {spelled!r}: values are the integers 1 to 10"
    return None


def list_problem(what: str, value: Any, length: int, items: str) -> str | None:
    """Why ``value`` is not a list of ``length`` ``items`` (named ``what`` in the reason), or None."""
    if not isinstance(value, list):
        return f"{what} must be a list of {length} {items}, not {type(value).__name__}"
    if len(value) != length:
        return f"{what} has {len(value)} {items}; it must have {length}"
    return None


def deal_problem(outcome: Any, players: int, colours: int, shown: int, size: int) -> str | None:
    """Why ``outcome`` is not a possible deal of a game of ``players`` with ``colours`` colours
    (the display of ``shown`` cards and ``players`` hands of ``size``, no card of the game twice),
    or None."""
    if not isinstance(outcome, dict) or set(outcome) != {"display", "hands"}:
        return "a deal is {\"display\": [cards], \"hands\": [[cards] per seat]}"
    display, hands = outcome["display"], outcome["hands"]
    problem = (list_problem("the display", display, shown, "cards")
               or list_problem("hands", hands, players, "hands"))
    if problem:
        return problem
    for seat, hand in enumerate(hands):
        problem = list_problem(f"the hand of seat {seat}", hand, size, "cards")
        if problem:
            return problem
    seen: set[Card] = set()
    for spelled in display + [c for hand in hands for c in hand]:
        problem = card_problem(spelled, colours)
        if problem:
            return problem
        card = Card.from_json(spelled)
        if card in seen:
            return f"{card} is dealt twice"
        seen.add(card)
    return None  # shown + players * size distinct cards of the game (by default every card once)


@dataclass
class Game:
    players: int
    match_games: int
    chance: Chance
    hands: list[list[Card]] = field(default_factory=list)
    display: list[Card] = field(default_factory=list)
    played: dict[int, Card] = field(default_factory=dict)  # seat -> card, this round
    points: list[int] = field(default_factory=list)
    cards_taken: list[int] = field(default_factory=list)
    first_takes: list[int] = field(default_factory=list)
    starter: int = 0  # CO-1
    game_starter: int = 0
    games_done: int = 0
    round: int = 0
    takers: list[int] = field(default_factory=list)  # seats still to decide what to take
    first_taker: int | None = None
    over: bool = False
    leader_at_two_thirds: int = -1

    def __init__(self, params, chance: Chance | PyStream):
        self.players, self.match_games = int(params[P_PLAYERS]), int(params[P_MATCH_GAMES])
        # the component table: colours in play, hand size (= rounds), opening display, rank values
        self.colours, self.hand_size = int(params[P_COLOURS]), int(params[P_HAND_SIZE])
        self.shown = int(params[P_DISPLAY])
        self.worth = [int(v) for v in params[P_VALUES:P_VALUES + 10]]
        self.chance = as_chance(chance)
        # from the points each seat starts with (the seat compensation)
        self.points = [int(v) for v in params[P_COMPENSATION:P_COMPENSATION + self.players]]
        self.cards_taken = [0] * self.players
        self.first_takes = [0] * self.players
        self.starter = 0
        self.games_done = 0
        self.over = False
        self.leader_at_two_thirds = -1
        self._deal()

    # -- setup
    def _deal(self) -> None:
        """Deal a game of the match: the chance event ``deal`` (see the module docstring)."""
        n, d, h = self.players, self.shown, self.hand_size

        def shuffle_and_deal(stream: PyStream) -> dict:
            deck = list(range(self.colours * 10))
            stream.shuffle(deck)
            display = sorted(Card.of(c) for c in deck[:d])
            hands = [sorted(Card.of(c) for c in deck[d + h * p:d + h * (p + 1)]) for p in range(n)]
            return {"display": [card.to_json() for card in display],
                    "hands": [[card.to_json() for card in hand] for hand in hands]}

        deal = self.chance.event("deal", shuffle_and_deal,
                                 lambda outcome: deal_problem(outcome, n, self.colours, d, h))
        self.display = sorted(Card.from_json(c) for c in deal["display"])
        self.hands = [sorted(Card.from_json(c) for c in hand) for hand in deal["hands"]]
        self.played = {}
        self.round = 0
        self.takers = []
        self.game_starter = self.starter

    # -- whose turn
    def phase(self) -> str:
        if self.over:
            return "over"
        return "take" if self.takers else "play"

    def to_move(self) -> int:
        if self.over:
            return -1
        if self.takers:
            return self.takers[0]
        return (self.starter + len(self.played)) % self.players

    def legal_moves(self) -> list[int]:
        if self.over:
            return []
        if self.takers:
            colours = sorted({card.colour for card in self.display})
            return [TAKE + c for c in colours] + [PASS]
        return sorted(card.number for card in self.hands[self.to_move()])

    # -- playing
    def apply(self, move: int) -> None:
        assert move in self.legal_moves(), (move, self.legal_moves())
        if self.takers:
            self._take(self.takers.pop(0), move)
            if not self.takers or not self.display:  # CO-2: an empty display ends the taking
                self.takers = []
                self._end_round()
            return
        seat = self.to_move()
        card = Card.of(move)
        self.hands[seat].remove(card)
        self.played[seat] = card
        if len(self.played) == self.players:
            self.takers = self.scoring_order()
            self.first_taker = None
            if not self.takers or not self.display:
                self.takers = []
                self._end_round()

    def scoring_order(self) -> list[int]:
        """Seats allowed to take, in order: by colour value, then card value, stopping at a tie."""
        colour_value: dict[int, int] = {}
        for card in self.played.values():
            colour_value[card.colour] = colour_value.get(card.colour, 0) + self.points_of([card])
        order = sorted(self.played, key=lambda s: (colour_value[self.played[s].colour],
                                                    self.played[s].value), reverse=True)
        takers = []
        for seat in order:
            value = colour_value[self.played[seat].colour]
            if sum(1 for v in colour_value.values() if v == value) > 1:
                break  # two colours share this colour value: scoring stops here
            takers.append(seat)
        return takers

    def _take(self, seat: int, move: int) -> None:
        if move == PASS:
            return
        colour = move - TAKE
        taken = [card for card in self.display if card.colour == colour]
        self.display = [card for card in self.display if card.colour != colour]
        self.points[seat] += self.points_of(taken)
        self.cards_taken[seat] += len(taken)
        if self.first_taker is None:
            self.first_taker = seat

    def _end_round(self) -> None:
        self.display.extend(self.played.values())
        self.played = {}
        if self.first_taker is not None:
            self.starter = self.first_taker
            self.first_takes[self.first_taker] += 1
        self.first_taker = None
        self.round += 1
        rounds = self.hand_size  # a round plays one card of each hand
        rounds_played = self.games_done * rounds + self.round
        if rounds_played == (2 * rounds * self.match_games) // 3:
            best = max(self.points)
            leaders = [p for p in range(self.players) if self.points[p] == best]
            self.leader_at_two_thirds = leaders[0] if len(leaders) == 1 else -1
        if self.round < rounds:
            return
        self.games_done += 1
        if self.games_done == self.match_games:
            self.over = True
            return
        # CO-5: leader on points starts; ties go to the earliest in the last game's seat order
        order = [(self.game_starter + i) % self.players for i in range(self.players)]
        best = max(self.points)
        self.starter = next(p for p in order if self.points[p] == best)
        self._deal()

    def points_of(self, cards: list[Card]) -> int:
        """The victory points ``cards`` are worth (each its rank's value in the component table)."""
        return sum(self.worth[card.value - 1] for card in cards)

    # -- the end
    def result(self):
        scores = list(self.points)
        ranks = [1 + sum(1 for t in scores if t > s) for s in scores]
        extras = [[self.cards_taken[p], self.first_takes[p], self.leader_at_two_thirds]
                  for p in range(self.players)]
        return scores, ranks, extras

    def action(self, move: int) -> dict:
        """The move spelled out completely in this position, as ``notation.move_to_json`` spells
        it: ``{"action": "play", "card": CARD}``, ``{"action": "take", "colour": NAME, "cards":
        [CARD, ...], "points": P}`` (the display cards of that colour, ascending, and their sum)
        or ``{"action": "pass"}``."""
        if move == PASS:
            return {"action": "pass"}
        if TAKE <= move < TAKE + len(COLOURS):
            colour = move - TAKE
            taken = sorted(card for card in self.display if card.colour == colour)
            return {"action": "take", "colour": COLOURS[colour], "cards": [card.to_json() for card in taken],
                    "points": self.points_of(taken)}
        if 0 <= move < len(COLOURS) * 10:
            return {"action": "play", "card": Card.of(move).to_json()}
        raise ValueError(f"{move} is not a Compañeros move code")

    def describe(self, move: int) -> str:
        if move == PASS:
            return "passes"
        if move >= TAKE:
            colour = move - TAKE
            cards = [c for c in self.display if c.colour == colour]
            return f"takes {COLOURS[colour]} ({self.points_of(cards)} points)"
        return f"plays {Card.of(move)}"
