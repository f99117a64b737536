"""``tourney check``: re-check a trace with the readable reference engine, not the kernel.

A trace (``tourney-trace/2``, see ``docs/traces.md``) holds the whole game: chance events and
decisions in order. The checker builds the game's pure-Python reference engine
(``games/<game>/reference.py``), feeds it the trace's chance events instead of a random stream
(:class:`~tourney_sim.simulate.games.chance.ScriptedChance`) and its decisions one by one, and
checks that each chance event is possible, each decision is legal for the seat the rules have to
move, and the final result is the one written. It accepts traces written by hand or by other
programs:

- a decision may give its ``move`` code, its ``action`` (spelled as ``tourney replay --format
  json`` spells it), or both. An ``action`` may leave out keys: it names the legal move whose
  spelling agrees on every key it gives, and it must name exactly one;
- ``step`` numbers, ``text``, ``seats``, ``initial_state`` and ``result`` are optional; a written
  ``legal`` list must be exactly the legal moves;
- ``options`` left out take their defaults.

Two kinds of failure: :class:`TraceError` (the file is not a trace this tourney can check:
malformed, another format, an unknown game or option, another rules version; exit 2) and a
:class:`CheckReport` with ``ok=False`` naming the first step where the trace and the rules part
(exit 1).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .errors import TourneyError
from .games import RuleError, get_game
from .games.chance import ChanceError, ScriptedChance
from .games.config import GameConfig
from .replay import TRACE_FORMAT


class TraceError(TourneyError):
    """Not a trace this tourney can check; the message is one line for the user."""


class Parted(Exception):
    """The trace and the rules part at a step; the message says where and how, in words."""


@dataclass
class CheckReport:
    ok: bool
    message: str
    decisions: int = 0
    chance_events: int = 0


@lru_cache(maxsize=1)
def trace_schema() -> dict:
    """The JSON Schema of ``tourney-trace/2`` (``simulate/trace.schema.json``)."""
    text = resources.files("tourney_sim.simulate").joinpath("trace.schema.json").read_text()
    return json.loads(text)


def load_trace(path: Path) -> dict:
    """Read and validate a trace file; TraceError with one line when it cannot be checked."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise TraceError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceError(f"{path} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    validate_trace(data, str(path))
    return data


def validate_trace(data, source: str = "the trace") -> None:
    """Check a trace against the JSON Schema; TraceError naming the first problem and where."""
    import jsonschema

    if isinstance(data, dict) and data.get("format") not in (None, TRACE_FORMAT) and isinstance(data.get("format"), str):
        raise TraceError(f"{source} is a {data['format']!r} trace; tourney check reads {TRACE_FORMAT!r} "
                         f"(`tourney replay --format json` writes it)")
    validator = jsonschema.Draft202012Validator(trace_schema())
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise TraceError(f"{source} is not a valid {TRACE_FORMAT} trace: at {where}: {error.message}")


def _params(trace: dict):
    try:
        spec = get_game(trace["game"])
    except RuleError as exc:
        raise TraceError(str(exc)) from None
    if trace["rules_version"] != spec.rules_version:
        raise TraceError(f"the trace was made under {spec.name} rules v{trace['rules_version']}, and this "
                         f"tourney checks v{spec.rules_version}")
    try:
        config = GameConfig.from_record(spec, trace["players"], trace.get("options") or {}, check=True)
        return spec, config.params()
    except RuleError as exc:
        raise TraceError(str(exc)) from None


def _agrees(written, spelled) -> bool:
    """A written action agrees with the rules' spelling on every key it gives."""
    if isinstance(written, dict):
        return isinstance(spelled, dict) and all(k in spelled and _agrees(v, spelled[k])
                                                 for k, v in written.items())
    return written == spelled


def _show(action) -> str:
    return json.dumps(action, ensure_ascii=False, separators=(", ", ": "))


def check_trace(trace: dict) -> CheckReport:
    """Replay a (validated) trace in the reference engine; see the module docstring."""
    spec, params = _params(trace)
    history = trace["history"]
    cursor = {"next": 0}
    counts = {"decisions": 0, "chance": 0}

    def label(i: int) -> str:
        return f"step {history[i].get('step', i)}"

    def next_outcome(kind: str):
        i = cursor["next"]
        if i >= len(history):
            raise Parted(f"the trace ends after {label(i - 1) if i else 'nothing'}, but the rules need a "
                         f"chance event ({kind}) next")
        entry = history[i]
        if "chance" not in entry:
            raise Parted(f"{label(i)}: the rules need a chance event ({kind}) here, but the trace has a "
                         f"decision of seat {entry['seat']}")
        (written, outcome), = entry["chance"].items()
        if written != kind:
            raise Parted(f"{label(i)}: the rules need a chance event {kind!r} here, the trace has {written!r}")
        cursor["next"] = i + 1
        counts["chance"] += 1
        return outcome

    reference = spec.reference
    try:
        try:
            game = reference.Game(params, ScriptedChance(next_outcome))
        except ChanceError as exc:
            raise Parted(f"{label(cursor['next'] - 1)}: {exc}") from None
        while (seat := game.to_move()) >= 0:
            i = cursor["next"]
            if i >= len(history):
                raise Parted(f"the trace ends after {label(i - 1) if i else 'nothing'}, but the game goes "
                             f"on: seat {seat} is to move")
            entry = history[i]
            if "chance" in entry:
                (kind, _), = entry["chance"].items()
                raise Parted(f"{label(i)}: the trace has a chance event ({kind}), but the rules have seat "
                             f"{seat} to move")
            if entry["seat"] != seat:
                raise Parted(f"{label(i)}: the trace has seat {entry['seat']} to move, the rules have seat {seat}")
            legal = game.legal_moves()
            spelled = {m: game.action(m) for m in legal}
            move = _decision(entry, legal, spelled, seat, label(i))
            if "legal" in entry:
                _check_legal(entry["legal"], legal, spelled, label(i))
            cursor["next"] = i + 1
            counts["decisions"] += 1
            try:
                game.apply(move)
            except ChanceError as exc:
                raise Parted(f"{label(cursor['next'] - 1)}: {exc}") from None
        if cursor["next"] < len(history):
            raise Parted(f"{label(cursor['next'])}: the game is over, but the trace goes on "
                         f"({len(history) - cursor['next']} more entries)")
        _check_result(trace.get("result"), game.result())
    except Parted as exc:
        return CheckReport(False, str(exc), counts["decisions"], counts["chance"])
    scores, ranks, _ = game.result()
    summary = ", ".join(f"seat {s} {scores[s]} (rank {ranks[s]})" for s in range(len(scores)))
    return CheckReport(True, f"the trace follows the {spec.name} rules v{spec.rules_version}: "
                             f"{counts['decisions']} decisions, {counts['chance']} chance events; "
                             f"result {summary}", counts["decisions"], counts["chance"])


def _decision(entry: dict, legal: list[int], spelled: dict, seat: int, where: str) -> int:
    def choices() -> str:
        shown = "; ".join(_show(spelled[m]) for m in legal[:8])
        return shown + (f"; and {len(legal) - 8} more" if len(legal) > 8 else "")

    if "move" in entry:
        move = entry["move"]
        if move not in spelled:
            raise Parted(f"{where}: move {move} is not legal for seat {seat} here; legal: {choices()}")
        if "action" in entry and not _agrees(entry["action"], spelled[move]):
            raise Parted(f"{where}: move {move} is {_show(spelled[move])} by the rules, but the trace "
                         f"spells it {_show(entry['action'])}")
        return move
    matching = [m for m in legal if _agrees(entry["action"], spelled[m])]
    if not matching:
        raise Parted(f"{where}: seat {seat} cannot play {_show(entry['action'])} here; legal: {choices()}")
    if len(matching) > 1:
        raise Parted(f"{where}: {_show(entry['action'])} fits {len(matching)} legal moves (e.g. "
                     f"{_show(spelled[matching[0]])} and {_show(spelled[matching[1]])}); spell it out further")
    return matching[0]


def _check_legal(written: list, legal: list[int], spelled: dict, where: str) -> None:
    listed = []
    for option in written:
        if "move" in option:
            listed.append(option["move"])
        else:
            fits = [m for m in legal if _agrees(option["action"], spelled[m])]
            listed.append(fits[0] if len(fits) == 1 else None)
            if len(fits) != 1:
                raise Parted(f"{where}: the written legal move {_show(option['action'])} is "
                             f"{'not legal' if not fits else 'ambiguous'} by the rules")
    missing = [m for m in legal if m not in listed]
    extra = [m for m in listed if m not in spelled]
    if missing or extra or len(listed) != len(legal):
        parts = []
        if missing:
            parts.append(f"it leaves out {len(missing)} (e.g. {_show(spelled[missing[0]])})")
        if extra:
            parts.append(f"it lists {len(extra)} illegal (e.g. move {extra[0]})")
        if not parts:
            parts.append("it lists a move twice")
        raise Parted(f"{where}: the written legal moves differ from the rules': " + "; ".join(parts))


def _check_result(written, computed) -> None:
    if written is None:
        return
    scores, ranks, _ = computed
    if len(written) != len(scores):
        raise Parted(f"the result has {len(written)} seats, the rules give {len(scores)}")
    for row in written:
        s = row["seat"]
        if not 0 <= s < len(scores):
            raise Parted(f"the result names seat {s}; the game has seats 0 to {len(scores) - 1}")
        if "score" in row and row["score"] != scores[s]:
            raise Parted(f"the result differs: seat {s} scores {scores[s]} by the rules, the trace says {row['score']}")
        if "rank" in row and row["rank"] != ranks[s]:
            raise Parted(f"the result differs: seat {s} ranks {ranks[s]} by the rules, the trace says {row['rank']}")
