"""Cardavia, the slow and readable way: a reference for the compiled kernel.

Written from ``shared/rules/cardavia.md`` (CA-1..CA-6) with plain lists and named things. It shares
with the kernel only what a replay must share: card and move numbering (a card is
``(rank - 1) * 4 + suit``; a move is ``(card << 52) | mask of the captured card ids``), the deal
order, the shuffle and the seeding. A match (CA-6, ``params[4]`` deals) is a list of deals, each
played by the same code as the one-deal game and added up at its end.
"""
from __future__ import annotations

from typing import NamedTuple

from tourney_sim.simulate.seeding import PyStream

SUITS = ("swords", "cups", "coins", "clubs")
RANKS = ("", "Asso", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Fante", "Cavallo", "Re")
SWORDS, CUPS, COINS = 0, 1, 2
PLAYERS, HAND, TABLE_START = 4, 12, 4
TURNS = PLAYERS * HAND  # a deal
COLUMNS = ("cards_taken", "swords", "scua", "picada", "simili", "quadriglia", "most_cards",
           "most_swords", "mata", "ten_of_coins", "fante_of_cups", "napula")  # then the leader
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


class Game:
    def __init__(self, params, chance: PyStream):
        assert int(params[0]) == PLAYERS
        self.single_match_forced = bool(params[1])
        self.last_sweep_scores = bool(params[2])
        self.napula_beyond_10 = bool(params[3])
        self.match_deals = int(params[4]) if len(params) > 4 else 1  # CA-6
        self.chance = chance
        self.deal_no = 0  # deal k of the match, from 0
        self.match_points = [0, 0]  # per team, over the finished deals
        self.match_columns = [dict.fromkeys(COLUMNS, 0) for _ in range(2)]  # summed over them
        self.match_turn = 0  # turns played in the match
        self.leader = -1  # the team ahead on match points at two thirds of the match
        self.over = False
        self.deal()

    def deal(self) -> None:
        """Deal ``deal_no`` of the match: a new shuffle; everything of the deal starts afresh."""
        deck = list(range(52))
        self.chance.shuffle(deck)
        self.table = [Card.of(c) for c in deck[:TABLE_START]]
        self.hands = [[Card.of(c) for c in deck[TABLE_START + HAND * p:TABLE_START + HAND * (p + 1)]]
                      for p in range(PLAYERS)]
        self.piles: list[list[Card]] = [[], []]  # per team
        self.bonuses = [{"scua": 0, "picada": 0, "simili": 0, "quadriglia": 0} for _ in range(2)]
        self.turn = 0  # turns of this deal played
        self.seat = self.deal_no % PLAYERS  # CA-1 (deal 0: seat 0), CA-6: the start moves on
        self.placed_last_turn: Card | None = None  # a Picada never reaches into the last deal
        self.last_capturer: int | None = None
        self.scores = [0, 0]  # of this deal
        self.prizes = [{}, {}]
        self._legal: list[int] | None = None  # legal moves of the position, once asked

    @staticmethod
    def team(seat: int) -> int:
        return seat % 2

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

    def apply(self, move: int) -> None:
        assert move in self.legal_moves(), move
        self._legal = None
        card, taken = decode(move)
        team = self.team(self.seat)
        self.hands[self.seat].remove(card)
        if not taken:
            self.table.append(card)
            self.placed_last_turn = card
        else:
            for t in taken:
                self.table.remove(t)
            self.piles[team] += taken + [card]
            last_play = self.turn == TURNS - 1
            b = self.bonuses[team]
            if not self.table and (self.last_sweep_scores or not last_play):
                b["scua"] += 1
            if self.placed_last_turn is not None and taken == [self.placed_last_turn]:
                b["picada"] += 1
            if all(t.suit == card.suit for t in taken):
                b["simili"] += 1
            if len(taken) >= 3:
                b["quadriglia"] += 1
            self.placed_last_turn = None
            self.last_capturer = team
        self.turn += 1
        self.match_turn += 1
        self.seat = (self.seat + 1) % PLAYERS
        if self.turn == TURNS:
            self.end_of_deal()
        if self.match_turn == 2 * TURNS * self.match_deals // 3:
            # two thirds of the match: who is ahead on match points (the finished deals, and the
            # bonuses of the deal in progress; its prizes come at its end)?
            points = [self.match_points[t] + sum(self.bonuses[t].values()) * (self.turn < TURNS)
                      for t in range(2)]
            self.leader = 0 if points[0] > points[1] else 1 if points[1] > points[0] else -1

    def end_of_deal(self) -> None:
        if self.last_capturer is not None:  # CA-3: otherwise the table stays unclaimed
            self.piles[self.last_capturer] += self.table
            self.table = []
        cards = [len(p) for p in self.piles]
        swords = [sum(1 for c in p if c.suit == SWORDS) for p in self.piles]
        for team in range(2):
            other = 1 - team
            pile = self.piles[team]
            prizes = {
                "most_cards": 2 if cards[team] > cards[other] else 0,
                "most_swords": 1 if swords[team] > swords[other] else 0,
                "mata": int(LA_MATA in pile),
                "ten_of_coins": int(TEN_OF_COINS in pile),
                "fante_of_cups": int(FANTE_OF_CUPS in pile),
                "napula": 0,
            }
            if all(Card(r, SWORDS) in pile for r in (1, 2, 3)):
                top = 13 if self.napula_beyond_10 else 10
                run = 3
                while run < top and Card(run + 1, SWORDS) in pile:
                    run += 1
                prizes["napula"] = run
            self.prizes[team] = prizes
            self.scores[team] = sum(self.bonuses[team].values()) + sum(prizes.values())
        for team in range(2):  # CA-6: the deal adds up into the match
            pile = self.piles[team]
            columns = {"cards_taken": len(pile), "swords": sum(1 for c in pile if c.suit == SWORDS),
                       **self.bonuses[team], **self.prizes[team]}
            for name in COLUMNS:
                self.match_columns[team][name] += columns[name]
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

    def describe(self, move: int) -> str:
        card, taken = decode(move)
        if not taken:
            return f"places {card}"
        return f"plays {card}, takes {' + '.join(str(t) for t in taken)}"
