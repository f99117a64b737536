"""Duel in words and JSON. A card is its value, 1..9; a move is ``{"action": "play", "card": V}``.

A position (``describe_state`` writes one, ``load_state`` reads it back) has exactly the keys
``players`` (2), ``trick`` (0..2, 3 once over), ``leader`` (the seat leading this trick),
``to_move`` (the seat to decide, null once over), ``led`` (the card led this trick, null if
none), ``played`` (every card played so far, ascending, the led one included), ``hands`` (each
seat's cards, ascending), ``points`` and ``tricks`` (per seat). The three hidden cards are the
cards in no hand and not played; the scratch area is no part of a position.

Chance events (``reference.py``): one, ``{"deal": {"hands": [[3 cards], [3 cards]], "hidden":
[3 cards]}}``, every card 1..9 exactly once.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import PositionError
from .rules import (
    CARDS, H_LED, H_LEADER, H_PLAYED_MASK, H_PLAYERS, H_TO_MOVE, H_TRICK, HAND_SIZE, MAX_PLAYERS,
    PRIVATE, PRIVATE_SIZE, PV_HAND, PV_SIZE, SCORE, STATE_SIZE, TRICKS, TRICKS_WON,
)

POSITION_KEYS = ("players", "trick", "leader", "to_move", "led", "played", "hands", "points", "tricks")


def describe_move(state: np.ndarray, move: int) -> str:
    return f"plays {int(move)}" + (" (leads)" if state[H_LED] == 0 else f" on {int(state[H_LED])}")


def move_to_json(state: np.ndarray, move: int) -> dict:
    return {"action": "play", "card": int(move)}


def hand(state: np.ndarray, seat: int) -> list[int]:
    base = PRIVATE + seat * PRIVATE_SIZE
    return [int(c) for c in state[base + PV_HAND:base + PV_HAND + state[base + PV_SIZE]]]


def describe_state(state: np.ndarray) -> dict:
    s = state.tolist()
    return {
        "players": s[H_PLAYERS], "trick": s[H_TRICK], "leader": s[H_LEADER],
        "to_move": s[H_TO_MOVE] if s[H_TO_MOVE] >= 0 else None,
        "led": s[H_LED] or None,
        "played": [c for c in range(1, CARDS + 1) if s[H_PLAYED_MASK] >> c & 1],
        "hands": [hand(state, p) for p in range(MAX_PLAYERS)],
        "points": s[SCORE:SCORE + MAX_PLAYERS], "tricks": s[TRICKS_WON:TRICKS_WON + MAX_PLAYERS],
    }


def _int(value: Any, low: int, high: int, key: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise PositionError(f"{key} must be an integer from {low} to {high}, not {value!r}")
    return value


def _cards(value: Any, key: str) -> list[int]:
    if not isinstance(value, list):
        raise PositionError(f"{key} must be a list of cards, not {value!r}")
    return sorted(_int(c, 1, CARDS, f"a card of {key}") for c in value)


def load_state(position: dict) -> np.ndarray:
    """The kernel state of a position; PositionError (one line) if it is malformed or impossible."""
    if not isinstance(position, dict) or set(position) != set(POSITION_KEYS):
        raise PositionError(f"a position is a JSON object with exactly the keys {', '.join(POSITION_KEYS)}")
    _int(position["players"], 2, 2, "players")
    trick = _int(position["trick"], 0, TRICKS, "trick")
    leader = _int(position["leader"], 0, 1, "leader")
    over = trick == TRICKS
    led = None if position["led"] is None else _int(position["led"], 1, CARDS, "led")
    played = _cards(position["played"], "played")
    if not isinstance(position["hands"], list) or len(position["hands"]) != MAX_PLAYERS:
        raise PositionError("hands must be a list of two hands")
    hands = [_cards(h, f"hands[{p}]") for p, h in enumerate(position["hands"])]
    every = played + hands[0] + hands[1]
    if len(set(every)) != len(every):
        raise PositionError("a card is in two places (played, hands)")
    if len(played) != 2 * trick + (led is not None):
        raise PositionError(f"{len(played)} cards played, but trick {trick} has begun with {2 * trick} "
                            f"played before it" + (" and one led" if led is not None else ""))
    if led is not None and (over or led not in played):
        raise PositionError(f"led card {led} must be among the played cards of a game going on")
    for p in range(MAX_PLAYERS):
        size = HAND_SIZE - trick - (led is not None and p == leader)
        if len(hands[p]) != size:
            raise PositionError(f"hands[{p}] holds {len(hands[p])} cards; it must hold {size}")
    to_move = None if over else (leader if led is None else 1 - leader)
    if position["to_move"] != to_move:
        raise PositionError(f"to_move is {position['to_move']!r}, but the seat to decide is {to_move!r}")
    points = [_int(v, 0, 2 * sum(range(CARDS + 1)), "points") for v in _list2(position["points"], "points")]
    tricks = [_int(v, 0, TRICKS, "tricks") for v in _list2(position["tricks"], "tricks")]
    if sum(tricks) != trick:
        raise PositionError(f"tricks add up to {sum(tricks)}; {trick} tricks are over")
    state = np.zeros(STATE_SIZE, np.int32)
    state[H_PLAYERS], state[H_TRICK], state[H_LEADER] = 2, trick, leader
    state[H_TO_MOVE] = -1 if to_move is None else to_move
    state[H_LED] = led or 0
    state[H_PLAYED_MASK] = sum(1 << c for c in played)
    state[SCORE:SCORE + 2], state[TRICKS_WON:TRICKS_WON + 2] = points, tricks
    for p in range(MAX_PLAYERS):
        base = PRIVATE + p * PRIVATE_SIZE
        state[base + PV_SIZE] = len(hands[p])
        state[base + PV_HAND:base + PV_HAND + HAND_SIZE] = hands[p] + [-1] * (HAND_SIZE - len(hands[p]))
    return state


def _list2(value: Any, key: str) -> list:
    if not isinstance(value, list) or len(value) != MAX_PLAYERS:
        raise PositionError(f"{key} must be a list of two numbers, one per seat")
    return value
