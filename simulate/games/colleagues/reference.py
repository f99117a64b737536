"""Colleagues, the slow and readable way: a reference for the compiled kernel.

Written from ``shared/rules/colleagues.md`` (CL-1..CL-13) and the rulebook, as a script of the
game (a generator that yields each decision it needs). It shares with the kernel only what a
replay must share: card numbering (Commitment ids 0..59, Work / Reprimand ids 0..14), the move
codes, the params layout, the shuffles and draws of the chance stream and the seeding. The
kernel's module docstring lists the choices both make where the rules are silent.

Every random thing goes through ``self.chance.event(kind, sample, check)`` (``games/chance.py``):
``shuffle`` (the Work and Reprimand layouts), ``token`` (Coffee tokens a seat draws), ``deal``
(the Monday hands and the Grey Entity's cards) and ``draw`` (a mulligan's cards); ``notation.py``
documents each outcome. ``sample`` draws from the chance stream exactly as the kernel does and
returns the outcome; ``check`` gives the reason a written outcome cannot happen here; the engine
then plays the outcome, drawn or written alike. Moves and outcomes are spelled with
``notation.py``'s vocabulary (``action`` is ``notation.move_to_json`` from this engine's objects).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from tourney_sim.simulate.games.chance import Chance, as_chance
from tourney_sim.simulate.games.colleagues.notation import (
    DAY_NAMES, KIND_NAMES, read_cards, read_kind, read_layout, read_list, read_number_lists,
    read_numbers, read_object,
)
from tourney_sim.simulate.games.spec import PositionError
from tourney_sim.simulate.games.colleagues.rules import P_PLAYERS, P_SHIELD, P_TABLE  # the params' offsets (rules.PARAMS)
from tourney_sim.simulate.seeding import PyStream

WEEKS, DAYS, HAND = 3, 5, 6
COMMITMENT_CARDS, WORK_CARDS, REPRIMAND_CARDS = 60, 15, 15
LEADER_WEEKS = 2  # leader_at_two_thirds: the standings when two of the three weeks are over
OVERTIME = 5  # the row's sixth column
PLUS, MINUS, ILLNESS, MEETING = 0, 1, 2, 3
# move codes (the kernel's encoding)
MULLIGAN = 0  # + mask of hand positions (0 = keep and draw a token)
GREY_NONE, GREY_REVEAL, GREY_PEEK = 100, 101, 108  # reveal + day, peek + 4 * day + kind
PLAY = 200  # + 16 * card + 2 * day + (1 if face down)
TOKEN_NONE, TOKEN = 2000, 2004  # token + 4 * column + kind


@dataclass
class Table:
    """The component table (CL-1) unpacked from params."""

    card_value: list[int]
    card_icons: list[int]
    work_value: list[int]
    work_icons: list[int]
    reprimand_value: list[int]
    reprimand_icons: list[int]
    overtime_value: list[int]
    token_mix: list[int]
    compensation: list[int]  # points taken off each seat's final score (the seat compensation)

    @staticmethod
    def from_params(params) -> "Table":
        p = [int(x) for x in params[P_TABLE:]]
        cuts = [60, 60, 15, 15, 15, 15, 3, 4, 5]
        parts = []
        for size in cuts:
            parts.append(p[:size])
            p = p[size:]
        return Table(*parts)


@dataclass
class Placed:
    """A Commitment card in a row, with the tokens put on it."""

    card: int
    face_down: bool = False
    tokens: list[int] = field(default_factory=list)


@dataclass
class Desk:
    """What a player (or the Grey Entity) holds."""

    hand: list[int] = field(default_factory=list)
    tokens: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # held, per kind
    row: dict[int, Placed] = field(default_factory=dict)  # column -> card this week
    work: list[int] = field(default_factory=list)  # Work card ids taken
    reprimands: list[int] = field(default_factory=list)
    overtime: list[int] = field(default_factory=list)  # Overtime card values taken
    seen: set[int] = field(default_factory=set)  # Grey Entity days looked at this week


def _reason_against(read: Callable[[], object]) -> str | None:
    """The reason ``read`` (which reads a written outcome with ``notation``'s readers, raising
    PositionError on what cannot be) gives against it; None when it reads."""
    try:
        read()
    except PositionError as exc:
        return str(exc)
    return None


def _remove_at(deck: list[int], i: int) -> int:
    """Take the card at index ``i`` of the deck, its last card filling the gap (the kernel's
    deck: a draw at a uniformly random index is a draw from a shuffled deck)."""
    card = deck[i]
    deck[i] = deck[-1]
    deck.pop()
    return card


def _sample_cards(deck: list[int], stream: PyStream, count: int) -> list[int]:
    """``count`` uniformly random cards taken from ``deck`` (a copy of the deck), as numbers."""
    return [_remove_at(deck, stream.below(len(deck))) + 1 for _ in range(count)]


def _by_week(ids: list[int]) -> list[list[int]]:
    """A layout of 15 card ids as card numbers, one list of Monday..Friday per week."""
    return [[i + 1 for i in ids[DAYS * w:DAYS * (w + 1)]] for w in range(WEEKS)]


class Game:
    """One game from its params: ``to_move``, ``legal_moves``, ``action``, ``apply``, ``result``.
    ``chance`` is a :class:`Chance` (recorded stream or written record) or a bare ``PyStream``."""

    def __init__(self, params, chance: Chance | PyStream):
        self.players = int(params[P_PLAYERS])
        self.shield = bool(params[P_SHIELD])
        self.table = Table.from_params(params)
        self.chance = as_chance(chance)
        self.grey = 2 if self.players == 2 else None
        seats = self.players + (1 if self.grey is not None else 0)
        self.desks = [Desk() for _ in range(seats)]
        self.room = list(self.table.token_mix)  # the Coffee Room, per kind
        self.spent = [0, 0, 0, 0]  # MEETING and peek tokens spent this week
        self.deck: list[int] = []
        layouts = self.chance.event("shuffle", self._sample_layouts, self._check_layouts)
        self.work_layout = [number - 1 for week in layouts["work"] for number in week]
        self.reprimand_layout = [number - 1 for week in layouts["reprimand"] for number in week]
        self.overtime_pile = list(self.table.overtime_value)  # top first
        self.work_owner = [None] * 15  # seat, or "discarded" (CL-3)
        self.reprimand_owner = [None] * 15
        self.grey_cards: list[int] = []
        self.grey_revealed: set[int] = set()
        for seat in range(self.players):
            self.draw(seat, 3 if self.players == 2 else 2)
        self.first = 0
        self.draw(self.first, 1)  # the First Player token's extra token
        self.over = False
        self.leader_at_two_thirds = -1
        self._script = self._play()
        self._pending = next(self._script)  # (kind of decision, seat)

    # -- the Work and Reprimand layouts (setup)
    def _sample_layouts(self, stream: PyStream) -> dict:
        work = list(range(WORK_CARDS))
        stream.shuffle(work)
        reprimand = list(range(REPRIMAND_CARDS))
        stream.shuffle(reprimand)
        return {"work": _by_week(work), "reprimand": _by_week(reprimand)}

    def _check_layouts(self, outcome) -> str | None:
        def read():
            read_object(outcome, "shuffle", required=("work", "reprimand"))
            for pile, size in (("work", WORK_CARDS), ("reprimand", REPRIMAND_CARDS)):
                read_layout(outcome[pile], pile, size, pile)
        return _reason_against(read)

    # -- tokens
    def draw(self, seat: int, count: int) -> None:
        """Take ``count`` tokens from the Coffee Room, face down, at random (CL-4: as many as
        there are; no event when there are none)."""
        count = min(count, sum(self.room))
        if count == 0:
            return
        drawn = self.chance.event("token", lambda stream: self._sample_tokens(stream, seat, count),
                                  lambda outcome: self._check_tokens(outcome, seat, count))
        for name in drawn["tokens"]:
            kind = KIND_NAMES.index(name)
            self.room[kind] -= 1
            self.desks[seat].tokens[kind] += 1

    def _sample_tokens(self, stream: PyStream, seat: int, count: int) -> dict:
        """One token after the other, each a uniform draw from the face-down room."""
        room = list(self.room)
        kinds = []
        for _ in range(count):
            r = stream.below(sum(room))
            kind = 0
            while r >= room[kind]:
                r -= room[kind]
                kind += 1
            room[kind] -= 1
            kinds.append(KIND_NAMES[kind])
        return {"seat": seat, "tokens": kinds}

    def _check_tokens(self, outcome, seat: int, count: int) -> str | None:
        def read():
            read_object(outcome, "token", required=("seat", "tokens"))
            self._check_seat(outcome["seat"], seat, "draws tokens")
            tokens = read_list(outcome["tokens"], "tokens", count,
                               f"the Coffee Room holds {sum(self.room)} token(s): {count} are drawn")
            room = list(self.room)
            for i, name in enumerate(tokens):
                kind = read_kind(name, f"tokens[{i}]")
                room[kind] -= 1
                if room[kind] < 0:
                    raise PositionError(f"tokens: the Coffee Room holds {self.room[kind]} {name} "
                                        f"token(s), not {tokens.count(name)}")
        return _reason_against(read)

    @staticmethod
    def _check_seat(written, seat: int, does: str) -> None:
        if type(written) is not int or written != seat:
            raise PositionError(f"seat {seat} {does} here, not {written!r}")

    def placeable(self, seat: int) -> list[int]:
        """Kinds of token the player could put on a card (+10, -10, ILLNESS)."""
        return [k for k in (PLUS, MINUS, ILLNESS) if self.desks[seat].tokens[k] > 0]

    # -- the game as a script
    def turn_order(self) -> list[int]:
        return [(self.first + i) % self.players for i in range(self.players)]

    def _play(self):
        for week in range(WEEKS):
            self.week = week
            self._deal()
            order = self.turn_order()
            # Phase 1: Monday briefing
            for seat in order:
                self._monday(seat, (yield ("mulligan", seat)))
            # Phase 2: Midweek, five turns
            for _turn in range(DAYS):
                for seat in order:
                    if self.grey is not None and len(self.grey_revealed) < DAYS:
                        self._grey_action(seat, (yield ("grey", seat)))
                    self._play_card(seat, (yield ("play", seat)))
                    if self.placeable(seat):
                        self._place_token(seat, (yield ("token", seat)))
            # Phase 3: Friday recap
            for seat in order:
                desk = self.desks[seat]
                card = desk.hand.pop()
                desk.row[OVERTIME] = Placed(card)  # always face up (CL-13)
                self.draw(seat, self.table.card_icons[card])
                if self.placeable(seat):
                    self._place_token(seat, (yield ("token", seat)))
            self._resolve(order)
            self._clean_up()
            if week + 1 == LEADER_WEEKS:
                _, ranks, _ = self.standings()
                firsts = [s for s, r in enumerate(ranks) if r == 1]
                self.leader_at_two_thirds = firsts[0] if len(firsts) == 1 else -1
        self.over = True
        yield ("over", -1)

    # -- Commitment cards from the deck
    def _take(self, cards: list[int]) -> None:
        """Take these cards out of the deck, one after the other, as the draws that gave them."""
        for card in cards:
            _remove_at(self.deck, self.deck.index(card))

    def _check_from_deck(self, cards: list[int]) -> None:
        """Each card once, and each still in the deck."""
        deck = set(self.deck)
        for i, card in enumerate(cards):
            if card in cards[:i]:
                raise PositionError(f"card {card + 1} is there twice")
            if card not in deck:
                raise PositionError(f"card {card + 1} is not in the deck ({self._place_of(card)})")

    def _place_of(self, card: int) -> str:
        for seat, desk in enumerate(self.desks):
            if card in desk.hand:
                return f"it is in seat {seat}'s hand"
            if any(placed.card == card for placed in desk.row.values()):
                return f"it is in seat {seat}'s row"
        if card in self.grey_cards:
            return "it is a Grey Entity card"
        return "it was discarded at the Monday briefing"

    def _deal(self) -> None:
        self.deck = list(range(COMMITMENT_CARDS))  # every Commitment card is back
        order = self.turn_order()
        dealt = self.chance.event("deal", lambda stream: self._sample_deal(stream, order), self._check_deal)
        for seat in order:
            cards = [number - 1 for number in dealt["hands"][seat]]
            self._take(cards)
            self.desks[seat].hand = sorted(cards)
        if self.grey is not None:
            self.grey_cards = [number - 1 for number in dealt["grey_entity"]]
            self._take(self.grey_cards)
            self.grey_revealed = set()

    def _sample_deal(self, stream: PyStream, order: list[int]) -> dict:
        """Six cards to each player in turn order, then the Grey Entity's five (Monday..Friday)."""
        deck = list(self.deck)
        hands = [[] for _ in range(self.players)]
        for seat in order:
            hands[seat] = _sample_cards(deck, stream, HAND)
        if self.grey is None:
            return {"hands": hands}
        return {"hands": hands, "grey_entity": _sample_cards(deck, stream, DAYS)}

    def _check_deal(self, outcome) -> str | None:
        def read():
            keys = ("hands",) if self.grey is None else ("hands", "grey_entity")
            read_object(outcome, "deal", required=keys)
            hands = read_number_lists(outcome["hands"], "hands", self.players, COMMITMENT_CARDS,
                                      "cards", HAND)
            cards = [card for hand in hands for card in hand]
            if self.grey is not None:
                cards += read_cards(outcome["grey_entity"], "grey_entity", DAYS)
            self._check_from_deck(cards)
        return _reason_against(read)

    def _monday(self, seat: int, move: int) -> None:
        desk = self.desks[seat]
        mask = move - MULLIGAN
        if mask == 0:
            self.draw(seat, 1)
            return
        discard = [desk.hand[j] for j in range(HAND) if mask >> j & 1]
        for card in discard:
            desk.hand.remove(card)
        count = len(discard)
        drawn = self.chance.event(
            "draw", lambda stream: {"seat": seat, "cards": _sample_cards(list(self.deck), stream, count)},
            lambda outcome: self._check_draw(outcome, seat, count))
        cards = [number - 1 for number in drawn["cards"]]
        self._take(cards)
        desk.hand = sorted(desk.hand + cards)

    def _check_draw(self, outcome, seat: int, count: int) -> str | None:
        def read():
            read_object(outcome, "draw", required=("seat", "cards"))
            self._check_seat(outcome["seat"], seat, "draws after its mulligan")
            self._check_from_deck(read_numbers(outcome["cards"], "cards", COMMITMENT_CARDS, "cards", count))
        return _reason_against(read)

    def _grey_action(self, seat: int, move: int) -> None:
        if move == GREY_NONE:
            return
        if move < GREY_PEEK:
            self.grey_revealed.add(move - GREY_REVEAL)
            return
        day, kind = divmod(move - GREY_PEEK, 4)
        self.desks[seat].tokens[kind] -= 1
        self.spent[kind] += 1
        self.desks[seat].seen.add(day)

    def _play_card(self, seat: int, move: int) -> None:
        card, rest = divmod(move - PLAY, 16)
        day, face_down = divmod(rest, 2)
        desk = self.desks[seat]
        desk.hand.remove(card)
        desk.row[day] = Placed(card, bool(face_down))
        if face_down:
            desk.tokens[MEETING] -= 1
            self.spent[MEETING] += 1
        self.draw(seat, self.table.card_icons[card])

    def _place_token(self, seat: int, move: int) -> None:
        if move == TOKEN_NONE:
            return
        column, kind = divmod(move - TOKEN, 4)
        self.desks[seat].tokens[kind] -= 1
        self.desks[seat].row[column].tokens.append(kind)

    # -- resolution
    def value(self, placed: Placed) -> int:
        return (self.table.card_value[placed.card]
                + 10 * placed.tokens.count(PLUS) - 10 * placed.tokens.count(MINUS))

    def _extremes(self, entries):
        """(lowest, highest) seat among [(seat, value)] in priority order; first wins ties."""
        lowest = highest = None
        for seat, value in entries:
            if lowest is None or value < lowest[1]:
                lowest = (seat, value)
            if highest is None or value > highest[1]:
                highest = (seat, value)
        return lowest[0], highest[0]

    def _resolve(self, order: list[int]) -> None:
        # Overtime: real players, lowest -> First Player token + 1 token, highest -> top card
        entries = [(s, self.value(self.desks[s].row[OVERTIME])) for s in order
                   if ILLNESS not in self.desks[s].row[OVERTIME].tokens]
        next_first = self.first
        if entries:  # CL-13: everyone ill -> first player and pile stay
            lowest, highest = self._extremes(entries)
            self.draw(lowest, 1)
            next_first = lowest
            if self.overtime_pile:
                self.desks[highest].overtime.append(self.overtime_pile.pop(0))
        for day in range(DAYS):
            entries = []
            if self.grey is not None:  # CL-12: the Grey Entity is first in priority
                entries.append((self.grey, self.table.card_value[self.grey_cards[day]]))
            for s in order:
                placed = self.desks[s].row[day]
                if ILLNESS not in placed.tokens:
                    entries.append((s, self.value(placed)))
            work = self.work_layout[DAYS * self.week + day]
            reprimand = self.reprimand_layout[DAYS * self.week + day]
            if not entries:  # CL-3
                self.work_owner[work] = "discarded"
                self.reprimand_owner[reprimand] = "discarded"
                continue
            lowest, highest = self._extremes(entries)
            self.work_owner[work] = highest
            self.desks[highest].work.append(work)
            self.draw(highest, self.table.work_icons[work])
            self.reprimand_owner[reprimand] = lowest
            self.desks[lowest].reprimands.append(reprimand)
            self.draw(lowest, self.table.reprimand_icons[reprimand])
        self.first = next_first

    def _clean_up(self) -> None:
        for desk in self.desks:
            for placed in desk.row.values():
                for kind in placed.tokens:
                    self.room[kind] += 1
            desk.row = {}
            desk.seen = set()
        for kind in range(4):
            self.room[kind] += self.spent[kind]
        self.spent = [0, 0, 0, 0]

    # -- the interface the tests drive
    def to_move(self) -> int:
        return self._pending[1]

    def legal_moves(self) -> list[int]:
        kind, seat = self._pending
        if kind == "over":
            return []
        desk = self.desks[seat]
        if kind == "mulligan":
            return [MULLIGAN + mask for mask in range(64)]
        if kind == "grey":
            hidden = [d for d in range(DAYS) if d not in self.grey_revealed]
            moves = [GREY_NONE] + [GREY_REVEAL + d for d in hidden]
            # a card looked at before may be looked at again (CL-9), spending another token
            moves += [GREY_PEEK + 4 * d + k for d in hidden for k in range(4) if desk.tokens[k] > 0]
            return moves
        if kind == "play":
            free = [d for d in range(DAYS) if d not in desk.row]
            faces = [0, 1] if desk.tokens[MEETING] > 0 else [0]
            return sorted(PLAY + 16 * c + 2 * d + f for c in desk.hand for d in free for f in faces)
        moves = [TOKEN_NONE]
        for column in sorted(desk.row):
            moves += [TOKEN + 4 * column + k for k in self.placeable(seat)]
        return moves

    def apply(self, move: int) -> None:
        assert move in self.legal_moves(), (move, self._pending)
        self._pending = self._script.send(move)

    def action(self, move: int) -> dict:
        """The move spelled out completely in this position, as ``notation.move_to_json`` spells
        it (what a keep draws, the cards a mulligan discards, the Grey Entity card revealed or
        looked at)."""
        seat = self.to_move()
        if MULLIGAN <= move < MULLIGAN + 64:
            mask = move - MULLIGAN
            if mask == 0:
                return {"action": "keep", "draw_token": sum(self.room) > 0}
            hand = self.desks[seat].hand
            return {"action": "mulligan", "discard": [hand[j] + 1 for j in range(HAND) if mask >> j & 1]}
        if move == GREY_NONE:
            return {"action": "grey_none"}
        if GREY_REVEAL <= move < GREY_REVEAL + DAYS:
            day = move - GREY_REVEAL
            return {"action": "grey_reveal", "day": DAY_NAMES[day], "card": self.grey_cards[day] + 1}
        if GREY_PEEK <= move < GREY_PEEK + 4 * DAYS:
            day, kind = divmod(move - GREY_PEEK, 4)
            return {"action": "grey_peek", "day": DAY_NAMES[day], "spend": KIND_NAMES[kind],
                    "card": self.grey_cards[day] + 1}
        if PLAY <= move < PLAY + 16 * COMMITMENT_CARDS:
            card, rest = divmod(move - PLAY, 16)
            day, face_down = divmod(rest, 2)
            return {"action": "play", "card": card + 1, "day": DAY_NAMES[day],
                    "face": "down" if face_down else "up"}
        if move == TOKEN_NONE:
            return {"action": "no_token"}
        if TOKEN <= move < TOKEN + 4 * (OVERTIME + 1):
            column, kind = divmod(move - TOKEN, 4)
            return {"action": "token", "column": DAY_NAMES[column], "token": KIND_NAMES[kind]}
        raise ValueError(f"not a Colleagues move code: {move}")

    # -- the end
    def dismissed(self) -> set[int]:
        """CL-5 / CL-11: highest Reprimand total among the real players, fewer cards first; nobody
        when the highest total is exactly 0 (a negative highest total is dismissed)."""
        def totals(seats):
            return {s: (sum(self.table.reprimand_value[r] for r in self.desks[s].reprimands),
                        len(self.desks[s].reprimands)) for s in seats}

        def loser(t):
            top = max(total for total, _ in t.values())
            if top == 0:
                return set()
            tied = {s: cards for s, (total, cards) in t.items() if total == top}
            fewest = min(tied.values())
            return {s for s, cards in tied.items() if cards == fewest}

        if self.grey is not None and self.shield:  # CL-11 shield: the comparison with it in
            out = loser(totals(range(self.players + 1)))
            return set() if self.grey in out else out
        return loser(totals(range(self.players)))

    def standings(self):
        """(scores, ranks, dismissed) if the game ended now."""
        seats = len(self.desks)
        work = [sum(self.table.work_value[w] for w in d.work) for d in self.desks]
        overtime = [sum(d.overtime) for d in self.desks]
        held = [sum(d.tokens) for d in self.desks]
        scores = [work[s] + overtime[s] - held[s] - self.table.compensation[s] for s in range(seats)]
        out = self.dismissed()

        def key(s):  # lower is better: score, the Grey Entity wins ties (CL-9), fewer cards
            return (scores[s], 0 if s == self.grey else 1,
                    len(self.desks[s].work) + len(self.desks[s].overtime))

        ranks = []
        staying = [s for s in range(seats) if s not in out]
        for s in range(seats):
            if s in out:  # CL-6: after everyone else, by score among themselves
                ranks.append(1 + len(staying) + sum(1 for t in out if scores[t] < scores[s]))
            else:
                ranks.append(1 + sum(1 for t in staying if key(t) < key(s)))
        return scores, ranks, out

    def result(self):
        scores, ranks, out = self.standings()
        extras = [[sum(self.table.work_value[w] for w in d.work), sum(d.overtime),
                   sum(self.table.reprimand_value[r] for r in d.reprimands),
                   sum(d.tokens), int(s in out), len(d.work), len(d.reprimands),
                   len(d.overtime), self.leader_at_two_thirds] for s, d in enumerate(self.desks)]
        return scores, ranks, extras
