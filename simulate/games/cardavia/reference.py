"""Cardavia, the slow and readable way: a reference for the compiled kernel.

Written from ``shared/rules/cardavia.md`` (CA-1..CA-6) with plain lists and named things. It shares
with the kernel only what a replay must share: the params layout (``rules.PARAMS``), card and move
numbering (a card is ``(rank - 1) * 4 + suit``; a move is ``(card << 52) | mask of the captured
card ids``), the deal order, the shuffle and the seeding. A match (CA-6, ``params[P_MATCH_DEALS]``
deals) is a list of deals, each played by the same code as the one-deal game and added up at its
end.

Every deal is a chance event (``self.chance.event("deal", ...)``, see ``games/chance.py``): drawn
from the chance stream as the kernel draws it, or read from a written record, and in both cases
turned back into the engine's cards by the same code. ``Game.action`` spells a move out as the
kernel's notation does (``notation.move_to_json``); the spelling is written here again from the
rules, not borrowed, so that the two can be checked against each other.
"""
from __future__ import annotations

import copy
from typing import NamedTuple

from tourney_sim.simulate.games.chance import as_chance, Chance
from tourney_sim.simulate.games.spec import team_of
from tourney_sim.simulate.seeding import PyStream

from .rules import (  # the params' offsets, as the rules declare them (rules.PARAMS)
    P_COMPENSATION, P_LAST_SWEEP, P_MATCH_DEALS, P_NAPULA10, P_PLAYERS, P_POINTS, P_SINGLE_FORCED,
)

SUITS = ("swords", "cups", "coins", "clubs")
RANKS = ("", "Asso", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Fante", "Cavallo", "Re")
SWORDS, CUPS, COINS = 0, 1, 2
PLAYERS, HAND, TABLE_START = 4, 12, 4
TURNS = PLAYERS * HAND  # a deal
BONUSES = ("scua", "picada", "simili", "quadriglia")  # rule 4, in the order a capture names them
PRIZES = ("most_cards", "most_swords", "mata", "ten_of_coins", "fante_of_cups", "napula")  # rule 5
COLUMNS = ("cards_taken", "swords") + BONUSES + PRIZES  # then the leader
SHIFT = 52


class Card(NamedTuple):  # ordered by (rank, suit), like the card numbers
    rank: int  # 1 (Asso) .. 10, 11 Fante, 12 Cavallo, 13 Re
    suit: int

    @property
    def number(self) -> int:
        return (self.rank - 1) * 4 + self.suit

    @staticmethod
    def of(number: int) -> "Card":
        return Card(number // 4 + 1, number % 4)

    @property
    def is_court(self) -> bool:
        return self.rank > 10

    def __str__(self) -> str:
        return f"{RANKS[self.rank]} of {SUITS[self.suit]}"

    def json(self) -> dict:
        """The card as moves and chance events spell it: ``{"rank": "Asso", "suit": "swords"}``."""
        return {"rank": RANKS[self.rank], "suit": SUITS[self.suit]}

    @staticmethod
    def from_json(value) -> "Card | None":
        """The card spelled by ``value`` (as :meth:`json` spells it), None if it spells none."""
        if not (isinstance(value, dict) and set(value) == {"rank", "suit"}):
            return None
        rank, suit = value["rank"], value["suit"]
        if rank in RANKS[1:] and suit in SUITS:  # both are names (str): "" is no rank
            return Card(RANKS.index(rank), SUITS.index(suit))
        return None


LA_MATA = Card(2, SWORDS)
TEN_OF_COINS = Card(10, COINS)
FANTE_OF_CUPS = Card(11, CUPS)


def move_code(played: Card, captured) -> int:
    mask = 0
    for card in captured:
        mask |= 1 << card.number
    return (played.number << SHIFT) | mask


def decode(move: int) -> tuple[Card, list[Card]]:
    mask = move & ((1 << SHIFT) - 1)
    return Card.of(move >> SHIFT), [Card.of(c) for c in range(52) if mask >> c & 1]


def subsets_with_sum(cards: list[Card], target: int):
    """Every set of the given numerals (as lists) whose ranks add up to ``target``."""
    if target == 0:
        yield []
        return
    for i, card in enumerate(cards):
        if card.rank <= target:
            for rest in subsets_with_sum(cards[i + 1:], target - card.rank):
                yield [card] + rest


def _short(value) -> str:
    """A one-line rendering of a written value, for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def impossible_deal(outcome) -> str | None:
    """Why ``outcome`` cannot be a deal (rule 2: 4 cards face up, 12 to each seat, all 52 cards
    once), or None. Never raises, whatever ``outcome`` is."""
    if not isinstance(outcome, dict) or set(outcome) != {"table", "hands"}:
        return f'a deal is {{"table": 4 cards, "hands": 4 lists of 12 cards}}, not {_short(outcome)}'
    table, hands = outcome["table"], outcome["hands"]
    if not isinstance(table, list) or len(table) != TABLE_START:
        return f"the table gets {TABLE_START} cards, not {_short(table)}"
    if not isinstance(hands, list) or len(hands) != PLAYERS:
        return f"hands are {PLAYERS} lists (seat 0..3), not {_short(hands)}"
    places = [("the table", table)]
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != HAND:
            return f"seat {seat} gets {HAND} cards, not {_short(hand)}"
        places.append((f"seat {seat}", hand))
    dealt: dict[Card, str] = {}
    for where, cards in places:
        for value in cards:
            card = Card.from_json(value)
            if card is None:
                return f"{_short(value)} (to {where}) is not a card"
            if card in dealt:
                return f"the {card} is dealt twice (to {dealt[card]} and to {where})"
            dealt[card] = where
    return None  # 52 different cards: the whole pack


def shuffle_and_deal(stream: PyStream) -> dict:
    """Draw a deal from the chance stream exactly as the kernel does: the 52 card numbers shuffled,
    ``deck[0:4]`` to the table, ``deck[4 + 12p:16 + 12p]`` to seat p; each list is written in card
    order."""
    deck = list(range(52))
    stream.shuffle(deck)
    table = sorted(Card.of(c) for c in deck[:TABLE_START])
    hands = [sorted(Card.of(c) for c in deck[TABLE_START + HAND * p:TABLE_START + HAND * (p + 1)])
             for p in range(PLAYERS)]
    return {"table": [c.json() for c in table], "hands": [[c.json() for c in hand] for hand in hands]}


class Game:
    def __init__(self, params, chance: "Chance | PyStream"):
        assert int(params[P_PLAYERS]) == PLAYERS
        self.single_match_forced = bool(params[P_SINGLE_FORCED])
        self.last_sweep_scores = bool(params[P_LAST_SWEEP])
        self.napula_beyond_10 = bool(params[P_NAPULA10])
        self.match_deals = int(params[P_MATCH_DEALS]) if len(params) > P_MATCH_DEALS else 1  # CA-6
        # the component table's points, in the order of rules.POINT_KEYS
        (scua, picada, simili, quadriglia, most_cards, most_swords, mata, ten_of_coins, fante_of_cups,
         self.napula_per_card, self.napula_run) = (int(v) for v in params[P_POINTS:P_POINTS + 11])
        self.bonus_points = {"scua": scua, "picada": picada, "simili": simili, "quadriglia": quadriglia}
        self.prize_points = {"most_cards": most_cards, "most_swords": most_swords, "mata": mata,
                             "ten_of_coins": ten_of_coins, "fante_of_cups": fante_of_cups}
        self.chance = chance
        self.deal_no = 0  # deal k of the match, from 0
        # per team, over the finished deals, from the points it starts with (the seat compensation)
        self.match_points = [int(v) for v in params[P_COMPENSATION:P_COMPENSATION + 2]]
        self.match_columns = [dict.fromkeys(COLUMNS, 0) for _ in range(2)]  # summed over them
        self.match_turn = 0  # turns played in the match
        self.leader = -1  # the team ahead on match points at two thirds of the match
        self.over = False
        self.deal()

    @property
    def chance(self) -> Chance:
        """Where the deals come from; a bare stream assigned here is drawn from, not recorded."""
        return self._chance

    @chance.setter
    def chance(self, source: "Chance | PyStream") -> None:
        self._chance = as_chance(source)

    def deal(self) -> None:
        """Deal ``deal_no`` of the match: a new shuffle (the chance event "deal"); everything of the
        deal starts afresh."""
        dealt = self.chance.event("deal", sample=shuffle_and_deal, check=impossible_deal)
        self.table = [Card.from_json(c) for c in dealt["table"]]
        self.hands = [[Card.from_json(c) for c in hand] for hand in dealt["hands"]]
        self.piles: list[list[Card]] = [[], []]  # per team
        self.bonuses = [dict.fromkeys(BONUSES, 0) for _ in range(2)]
        self.turn = 0  # turns of this deal played
        self.seat = self.deal_no % PLAYERS  # CA-1 (deal 0: seat 0), CA-6: the start moves on
        self.placed_last_turn: Card | None = None  # a Picada never reaches into the last deal
        self.last_capturer: int | None = None
        self.scores = [0, 0]  # of this deal
        self.prizes = [{}, {}]
        self._legal: list[int] | None = None  # legal moves of the position, once asked

    @staticmethod
    def team(seat: int) -> int:
        return team_of(seat, True)  # partners sit opposite (CA-1)

    def to_move(self) -> int:
        return -1 if self.over else self.seat

    def captures(self, card: Card) -> list[list[Card]]:
        """Every set of table cards ``card`` may capture (rule 3, CA-2, CA-5)."""
        same_rank = [[t] for t in self.table if t.rank == card.rank]
        if card.is_court:
            return same_rank  # a court takes one card of its rank, never a sum
        if self.single_match_forced and same_rank:
            return same_rank
        numerals = [t for t in self.table if not t.is_court]
        # subsets of one card are the same-rank captures; two or more are the sums
        return list(subsets_with_sum(numerals, card.rank))

    def legal_moves(self) -> list[int]:
        if self.over:
            return []
        if self._legal is None:
            moves = []
            for card in self.hands[self.seat]:
                moves.append(move_code(card, []))  # placing is always allowed
                for taken in self.captures(card):
                    moves.append(move_code(card, taken))
            self._legal = sorted(moves)
        return self._legal

    def capture_bonuses(self, card: Card, taken: list[Card]) -> list[str]:
        """The bonuses (rule 4) of playing ``card`` to take ``taken`` from the table now."""
        bonuses = []
        last_play = self.turn == TURNS - 1
        if len(taken) == len(self.table) and (self.last_sweep_scores or not last_play):
            bonuses.append("scua")  # the table is empty afterwards
        if self.placed_last_turn is not None and taken == [self.placed_last_turn]:
            bonuses.append("picada")
        if all(t.suit == card.suit for t in taken):
            bonuses.append("simili")
        if len(taken) >= 3:
            bonuses.append("quadriglia")
        return bonuses

    def apply(self, move: int) -> None:
        assert move in self.legal_moves(), move
        self.play(move)
        self.match_turn += 1
        if self.turn == TURNS:
            self.end_of_deal()
        if self.match_turn == 2 * TURNS * self.match_deals // 3:
            # two thirds of the match: who is ahead on match points (the finished deals, and the
            # bonuses of the deal in progress; its prizes come at its end)?
            points = [self.match_points[t] + self.bonus_total(t) * (self.turn < TURNS) for t in range(2)]
            self.leader = 0 if points[0] > points[1] else 1 if points[1] > points[0] else -1

    def play(self, move: int) -> None:
        """One turn of the deal (rule 3): the card placed, or played with its capture and bonuses."""
        self._legal = None
        card, taken = decode(move)
        team = self.team(self.seat)
        self.hands[self.seat].remove(card)
        if not taken:
            self.table.append(card)
            self.placed_last_turn = card
        else:
            for bonus in self.capture_bonuses(card, taken):
                self.bonuses[team][bonus] += 1
            for t in taken:
                self.table.remove(t)
            self.piles[team] += taken + [card]
            self.placed_last_turn = None
            self.last_capturer = team
        self.turn += 1
        self.seat = (self.seat + 1) % PLAYERS

    def bonus_total(self, team: int) -> int:
        """The points of the team's capture bonuses in this deal."""
        return sum(count * self.bonus_points[name] for name, count in self.bonuses[team].items())

    def score_deal(self) -> dict:
        """The deal's end (rule 5): the table to the last capturer (CA-3: unclaimed if nobody
        captured), the prizes and Napula, the deal's result ``columns`` and ``points`` per team.
        Returns them with ``table_to`` and ``table_cards`` (the cards claimed) as ``action``
        spells them."""
        claimed = sorted(self.table) if self.last_capturer is not None else []
        if claimed:
            self.piles[self.last_capturer] += claimed
            self.table = []
        cards = [len(p) for p in self.piles]
        swords = [sum(1 for c in p if c.suit == SWORDS) for p in self.piles]
        columns = []
        for team in range(2):
            other = 1 - team
            pile = self.piles[team]
            won = {
                "most_cards": cards[team] > cards[other],
                "most_swords": swords[team] > swords[other],
                "mata": LA_MATA in pile,
                "ten_of_coins": TEN_OF_COINS in pile,
                "fante_of_cups": FANTE_OF_CUPS in pile,
            }
            prizes = {name: self.prize_points[name] * won[name] for name in won}
            top = 13 if self.napula_beyond_10 else 10
            run = 0  # the unbroken run of swords from the Asso
            while run < top and Card(run + 1, SWORDS) in pile:
                run += 1
            prizes["napula"] = run * self.napula_per_card if run >= self.napula_run else 0
            self.prizes[team] = prizes
            self.scores[team] = self.bonus_total(team) + sum(prizes.values())
            columns.append({"cards_taken": cards[team], "swords": swords[team], **self.bonuses[team], **prizes})
        return {"table_to": self.last_capturer if claimed else None, "table_cards": [c.json() for c in claimed],
                "columns": columns, "points": list(self.scores)}

    def end_of_deal(self) -> None:
        scored = self.score_deal()
        for team in range(2):  # CA-6: the deal adds up into the match
            for name in COLUMNS:
                self.match_columns[team][name] += scored["columns"][team][name]
            self.match_points[team] += self.scores[team]
        if self.deal_no + 1 < self.match_deals:
            self.deal_no += 1
            self.deal()
        else:
            self.over = True

    def result(self):
        scores, ranks, extras = [], [], []
        points = self.match_points
        for seat in range(PLAYERS):
            team = self.team(seat)
            scores.append(points[team])
            ranks.append(2 if points[1 - team] > points[team] else 1)
            extras.append([self.match_columns[team][name] for name in COLUMNS] + [self.leader])
        return scores, ranks, extras

    def action(self, move: int) -> dict:
        """``move`` spelled out completely in this position, as the kernel's notation spells it
        (``notation.move_to_json``; the module docstring there describes each key)."""
        card, taken = decode(move)
        if not taken:
            spelled = {"action": "place", "card": card.json()}
        else:
            spelled = {"action": "capture", "card": card.json(), "captured": [t.json() for t in taken],
                       "bonuses": self.capture_bonuses(card, taken)}
        if self.turn == TURNS - 1:  # the deal's last play: its end too
            after = self._look_ahead()
            after.play(move)
            end = after.score_deal()
            last = self.deal_no + 1 == self.match_deals
            spelled["end_of_deal" if self.match_deals > 1 else "end_of_game"] = {
                "deal": self.deal_no, "table_to": end["table_to"], "table_cards": end["table_cards"],
                "columns": end["columns"], "points": end["points"],
                "match": [self.match_points[t] + end["points"][t] for t in range(2)],
                "next_starter": None if last else (self.deal_no + 1) % PLAYERS}
        return spelled

    def _look_ahead(self) -> "Game":
        """A copy of the game to play a turn on and score the deal, this game untouched; it has
        no chance (it must not deal)."""
        other = copy.copy(self)
        other.hands = [list(h) for h in self.hands]
        other.table = list(self.table)
        other.piles = [list(p) for p in self.piles]
        other.bonuses = [dict(b) for b in self.bonuses]
        other.scores = list(self.scores)
        other.prizes = [dict(p) for p in self.prizes]
        other._chance = None
        return other

    def describe(self, move: int) -> str:
        card, taken = decode(move)
        if not taken:
            return f"places {card}"
        return f"plays {card}, takes {' + '.join(str(t) for t in taken)}"
