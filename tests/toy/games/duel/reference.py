"""Duel, the slow and readable way: the reference the compiled kernel is tested against.

Its one chance event is the deal, ``{"deal": {"hands": [[3 cards], [3 cards]], "hidden": [3
cards]}}`` (cards are their values; every card 1..9 exactly once), drawn from the stream as the
kernel shuffles, or taken from a written record (``tourney check``).
"""
from __future__ import annotations

from typing import Any

from tourney_sim.simulate.games.chance import as_chance

CARDS, HAND, TRICKS = 9, 3, 3


def deal_problem(outcome: Any) -> str | None:
    if not isinstance(outcome, dict) or set(outcome) != {"hands", "hidden"}:
        return 'a deal is {"hands": [[3 cards], [3 cards]], "hidden": [3 cards]}'
    hands, hidden = outcome["hands"], outcome["hidden"]
    if not (isinstance(hands, list) and len(hands) == 2 and all(isinstance(h, list) and len(h) == HAND for h in hands)
            and isinstance(hidden, list) and len(hidden) == HAND):
        return "a deal is two hands of 3 cards and 3 hidden cards"
    if sorted(hands[0] + hands[1] + hidden) != list(range(1, CARDS + 1)):
        return "the deal must hold every card 1..9 exactly once"
    return None


class Game:
    def __init__(self, params, chance):
        self.chance = as_chance(chance)

        def deal(stream):
            deck = list(range(1, CARDS + 1))
            stream.shuffle(deck)
            return {"hands": [sorted(deck[:3]), sorted(deck[3:6])], "hidden": sorted(deck[6:])}

        outcome = self.chance.event("deal", deal, deal_problem)
        self.hands = [sorted(h) for h in outcome["hands"]]
        self.points, self.tricks = [0, 0], [0, 0]
        self.leader, self.led, self.trick = 0, None, 0

    def to_move(self) -> int:
        if self.trick == TRICKS:
            return -1
        return self.leader if self.led is None else 1 - self.leader

    def legal_moves(self) -> list[int]:
        return [] if self.to_move() < 0 else list(self.hands[self.to_move()])

    def apply(self, move: int) -> None:
        seat = self.to_move()
        self.hands[seat].remove(move)
        if self.led is None:
            self.led = move
            return
        winner = self.leader if self.led > move else seat
        self.points[winner] += self.led + move
        self.tricks[winner] += 1
        self.leader, self.led, self.trick = winner, None, self.trick + 1

    def result(self):
        ranks = [1 + sum(t > s for t in self.points) for s in self.points]
        return list(self.points), ranks, [[t] for t in self.tricks]

    def action(self, move: int) -> dict:
        return {"action": "play", "card": move}
