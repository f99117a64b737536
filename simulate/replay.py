"""Replay one game exactly, decision by decision, as text or as a complete JSON trace.

The game is rebuilt from the manifest alone (game, rules, seed, seating, strategies) and played
again through the same compiled functions with the same streams; the replayed result is then
checked against the rows stored in the dataset.

JSON trace format ``tourney-trace/2`` (the same shape for every game; JSON Schema in
``simulate/trace.schema.json``, described in ``docs/traces.md``)::

    {"format": "tourney-trace/2", "game": NAME, "rules_version": INT, "options": {...},
     "players": N, "seed": S, "game_index": I,
     "seats": [{"seat": 0, "strategy": NAME, "team": T}, ...],
     "initial_state": {...},      # the position after the first deal (notation.describe_state)
     "history": [                 # the whole game in order: chance events and decisions
        {"step": 0, "chance": {"deal": {...}}},
        {"step": 1, "seat": SEAT, "move": CODE, "action": {...}, "text": "...",
         "legal": [{"move": CODE, "action": {...}}, ...]},     # "legal" only with --legal
        ...],
     "result": [{"seat": SEAT, "strategy": NAME, "score": X, "rank": R, "win": BOOL, <game columns>}],
     "matches_dataset": BOOL}     # the replayed result equals the stored rows (datasets only)

The chance events are the game's own (deals, reshuffles, draws, tokens), in the rules file's
terms, as its reference engine names them (``games/<game>/notation.py`` documents each kind). The
kernel plays the game; the reference engine follows it on the same chance stream and records the
events, and the two must agree at every step: a trace is the game, checkable without tourney's
random streams (``tourney check``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import pyarrow.compute as pc

from .games import get_game
from .games.chance import StreamChance
from .games.spec import GameSpec
from .errors import span
from .matchup import Matchup, from_description, recorded_settings
from .results import DatasetError, read_manifest, read_table
from .seeding import CHANCE_STREAM, PyStream
from .stepper import KernelGame

TRACE_FORMAT = "tourney-trace/2"


class EngineDisagreement(RuntimeError):
    """The kernel and the reference engine part while recording a trace (a bug in one of them)."""


def record_game(spec: GameSpec, params, seed: int, game_index: int,
                choose: Callable[[KernelGame], int], legal: bool = False) -> tuple[list[dict], KernelGame]:
    """Play one game in the kernel, choosing each move with ``choose(kernel_game)``, while the
    reference engine follows on the same chance stream and records the chance events.

    Returns the history (chance events and decisions, in order) and the finished kernel game.
    """
    k = KernelGame(spec, params, seed, game_index)
    events: list[dict] = []
    ref = spec.reference.Game(params, StreamChance(PyStream(seed, game_index, CHANCE_STREAM), record=events))
    history: list[dict] = []

    def flush() -> None:
        for event in events:
            history.append({"step": len(history), "chance": event})
        events.clear()

    flush()
    while (seat := k.to_move()) >= 0:
        if ref.to_move() != seat:
            raise EngineDisagreement(f"step {len(history)}: the kernel has seat {seat} to move, "
                                     f"the reference engine seat {ref.to_move()}")
        move = choose(k)
        entry = {"step": len(history), "seat": seat, "move": move,
                 "action": spec.move_to_json(k.state, move), "text": spec.describe_move(k.state, move)}
        if legal:
            entry["legal"] = [{"move": m, "action": spec.move_to_json(k.state, m)} for m in k.legal_moves()]
        history.append(entry)
        if move not in ref.legal_moves():
            raise EngineDisagreement(f"step {len(history) - 1}: seat {seat} plays {entry['action']}, which the "
                                     f"reference engine does not list as legal")
        k.apply(move)
        ref.apply(move)
        flush()
    if ref.to_move() >= 0 or tuple(ref.result()) != k.result():
        raise EngineDisagreement(f"the game ends differently: kernel {k.result()}, reference "
                                 f"{'still playing' if ref.to_move() >= 0 else ref.result()}")
    return history, k


def trace_game(m: Matchup, game_index: int, legal: bool = False) -> dict:
    """The complete trace of game ``game_index`` of a matchup, played by its strategies."""
    return _traced(m, game_index, legal)[0]


def _traced(m: Matchup, game_index: int, legal: bool) -> tuple[dict, KernelGame]:
    """The trace of game ``game_index`` (:func:`trace_game`) and the finished kernel game."""
    spec = m.spec
    seating = m.seating(game_index)
    by_label = {s.label: s for s in m.strategies}
    initial: dict = {}

    def choose(k: KernelGame) -> int:
        if not initial:
            initial.update(spec.describe_state(k.state))
        return k.choose(by_label[seating[k.to_move()]])

    history, k = record_game(spec, m.params, m.seed, game_index, choose, legal=legal)
    scores, ranks, extras = k.result()
    names = seating + list(spec.extra_seats(m.n_players))
    result = []
    for s in range(len(scores)):
        row = {"seat": s, "strategy": names[s], "score": scores[s], "rank": ranks[s], "win": ranks[s] == 1}
        row.update({name: extras[s][j] for j, (name, _) in enumerate(spec.columns)})
        result.append(row)
    return {
        "format": TRACE_FORMAT, "game": spec.name, "rules_version": spec.rules_version,
        "options": m.options, "players": m.n_players, "seed": m.seed, "game_index": game_index,
        "seats": [{"seat": s, "strategy": names[s],
                   "team": spec.team_of(s, m.n_players) if s < m.n_players else s}
                  for s in range(len(names))],
        "initial_state": initial, "history": history, "result": result,
    }, k


def trace(directory: Path, game_index: int, legal: bool = False) -> dict:
    """The trace of game ``game_index`` of a dataset, with ``matches_dataset`` comparing the
    replayed result with the stored rows."""
    manifest = read_manifest(directory)
    first = int(manifest.get("first_game") or 0)
    end = first + manifest.get("games", 0)
    if not (first <= game_index < end):
        raise DatasetError(f"game {game_index} is not in this run (games {span(first, end - 1)})")
    spec = get_game(manifest["game"])
    if manifest.get("rules_version") != spec.rules_version:
        raise DatasetError(f"cannot replay {directory}: its games were played under {spec.name} rules "
                           f"v{manifest.get('rules_version')}, and this tourney plays v{spec.rules_version} "
                           f"(other games)")
    m = from_description({"game": manifest["game"], "players": manifest["players"],
                          "options": manifest["options"], "seats": manifest["seats"],
                          "seed": manifest["seed"], "rotate": manifest["rotate"],
                          "settings": recorded_settings(manifest)})
    t, k = _traced(m, game_index, legal)
    stored = read_table(directory, filter=pc.field("game") == game_index).to_pylist()
    stored.sort(key=lambda r: r["seat"])
    result = t["result"]
    dealt = k.dealt()
    matches = bool(stored) and all(
        r["score"] == x["score"] and r["rank"] == x["rank"] and r["strategy"] == x["strategy"]
        and r.get("dealt", dealt[i]) == dealt[i]
        for i, (r, x) in enumerate(zip(stored, result))) and len(stored) == len(result)
    t["matches_dataset"] = matches if stored else None
    return t


#: keys of a small thing printed as its values in a row ("red 4", "Re of coins", "ring 21")
_FLAT_KEYS = {"colour", "value", "suit", "rank", "name", "kind", "where", "space"}


def _fmt_value(v) -> str:
    if isinstance(v, list):
        if v and all(isinstance(x, list) for x in v):  # one list per seat
            return " | ".join(_fmt_value(x) for x in v)
        return ", ".join(_fmt_value(x) for x in v) if v else "-"
    if isinstance(v, dict):
        if set(v) <= _FLAT_KEYS and not any(isinstance(x, (dict, list)) for x in v.values()):
            return " ".join(str(x) for x in v.values())
        return "; ".join(f"{k}: {_fmt_value(x)}" for k, x in v.items())
    return str(v)


def format_text(t: dict) -> str:
    lines = [f"{t['game']} (rules v{t['rules_version']}), game {t['game_index']} of seed {t['seed']}"
             + (", " + ", ".join(get_game(t["game"]).option_text(k, v) for k, v in t["options"].items())
                if t["options"] else "")]
    lines.append("seats: " + ", ".join(f"{s['seat']}={s['strategy']}" for s in t["seats"]))
    lines.append("")
    lines.append("initial state")
    for key, value in t["initial_state"].items():
        if isinstance(value, list) and value and isinstance(value[0], list):
            for i, sub in enumerate(value):
                lines.append(f"  {key} {i}: {_fmt_value(sub)}")
        else:
            lines.append(f"  {key}: {_fmt_value(value)}")
    lines.append("")
    for d in t["history"]:
        if "chance" in d:
            (kind, outcome), = d["chance"].items()
            lines.append(f"{d['step']:>4}  chance: {kind} {_fmt_value(outcome)}")
        else:
            lines.append(f"{d['step']:>4}  seat {d['seat']} ({t['seats'][d['seat']]['strategy']}) {d['text']}")
            for option in d.get("legal", ()):
                lines.append(f"        legal: {_fmt_value(option['action'])}")
    lines.append("")
    lines.append("result")
    for r in t["result"]:
        extras = ", ".join(f"{k} {v}" for k, v in r.items()
                           if k not in ("seat", "strategy", "score", "rank", "win"))
        lines.append(f"  seat {r['seat']} {r['strategy']:<12} score {r['score']:>5}  rank {r['rank']}"
                     + ("  WIN" if r["win"] else "") + (f"  ({extras})" if extras else ""))
    if t.get("matches_dataset") is True:
        lines.append("replayed result matches the dataset")
    elif t.get("matches_dataset") is False:
        lines.append("WARNING: the replayed result differs from the dataset (strategies or rules changed?)")
    return "\n".join(lines)
