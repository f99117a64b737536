"""``tourney position``: the legal moves of a stored position and what a strategy would play.

A position is JSON as the game's ``notation.describe_state`` writes it (documented in
``games/<game>/notation.py``); ``notation.load_state`` turns it back into a kernel state, refusing
a malformed or impossible one with :class:`~tourney_sim.simulate.games.spec.PositionError`. The
strategy (any setting, e.g. ``ismcts:iterations=300``) then chooses exactly as it would in a game,
its random stream seeded from ``seed``.

A position can also be taken from the middle of a game: :func:`trace_position` plays a trace
(``tourney replay --format json``) in the kernel up to a step and writes the position there, which
``tourney replay DIR --game N --step K --format position`` prints and ``tourney position GAME
TRACE.json --step K`` reads.
"""
from __future__ import annotations

import json
from pathlib import Path

from .check import TRACE_FORMAT, _params as trace_params, validate_trace
from .errors import span
from .games import PositionError, get_game
from .stepper import KernelGame


def is_trace(data: dict) -> bool:
    """A trace (``tourney-trace/2``) rather than a position."""
    return data.get("format") == TRACE_FORMAT or "history" in data


def trace_position(t: dict, step: int) -> dict:
    """The position before step ``step`` of the trace ``t`` (a decision's step, or the number of
    steps for the finished game): the trace's decisions replayed in the kernel from its seed.
    PositionError (one line) for a step out of range or a chance event's step."""
    validate_trace(t)
    spec, params = trace_params(t)
    history = t["history"]
    end = len(history)
    if not 0 <= step <= end:
        raise PositionError(f"step {step} is not in game {t['game_index']}: its steps are {span(0, end)} "
                            f"({end}: the finished game)")
    if step < end and "chance" in history[step]:
        (kind,) = history[step]["chance"]
        after = next((e["step"] for e in history[step:] if "chance" not in e), end)
        raise PositionError(f"step {step} is a chance event ({kind}): a position stands before a decision; "
                            f"the next one is step {after}")
    k = KernelGame(spec, params, t["seed"], t["game_index"])
    for entry in history[:step]:
        if "chance" in entry:
            continue
        if k.to_move() != entry["seat"] or entry["move"] not in k.legal_moves():
            raise PositionError(f"step {entry['step']}: move {entry['move']} of seat {entry['seat']} is not "
                                f"what game {t['game_index']} of seed {t['seed']} allows there; a position is "
                                f"taken from a trace tourney replay wrote")
        k.apply(entry["move"])
    return spec.describe_state(k.state)


def read_position(path: Path) -> dict:
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise PositionError(f"cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise PositionError(f"{path} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise PositionError(f"{path} must hold one JSON object (a position), not {type(data).__name__}")
    return data


def analyse(game: str, position: dict, strategy: str, seed: int = 0) -> dict:
    """Whose turn it is in ``position``, its legal moves, and the move ``strategy`` chooses."""
    from tourney_sim.strategies import resolve

    spec = get_game(game)
    chosen = resolve(game, [strategy])[0]
    state = spec.load_state(position)
    # a position that does not say (load_state needs it said where a game has a choice): the default
    n_players = spec.player_count(position.get("players") if isinstance(position, dict) else None)
    k = KernelGame.from_state(spec, state, int(n_players), seed=seed)
    seat = k.to_move()
    out = {"game": spec.name, "rules_version": spec.rules_version, "to_move": seat, "legal": [],
           "strategy": strategy, "choice": None}
    if seat < 0:
        return out
    legal = k.legal_moves()
    out["legal"] = [{"index": i, "move": m, "action": spec.move_to_json(k.state, m),
                     "text": spec.describe_move(k.state, m)} for i, m in enumerate(legal)]
    move = k.choose(chosen)
    out["choice"] = next(entry for entry in out["legal"] if entry["move"] == move)
    return out


def format_text(a: dict) -> str:
    if a["to_move"] < 0:
        return f"{a['game']} (rules v{a['rules_version']}): the game is over in this position"
    lines = [f"{a['game']} (rules v{a['rules_version']}): seat {a['to_move']} to move, "
             f"{len(a['legal'])} legal move{'s' if len(a['legal']) != 1 else ''}"]
    for entry in a["legal"]:
        mark = "*" if entry["move"] == a["choice"]["move"] else " "
        lines.append(f" {mark}{entry['index']:>4}  {entry['text']}")
    lines.append(f"{a['strategy']} plays: {a['choice']['text']} (move {a['choice']['move']})")
    return "\n".join(lines)
