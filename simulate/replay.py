"""Replay one game of a dataset exactly, decision by decision, as text or as a JSON trace.

The game is rebuilt from the manifest alone (game, rules, seed, seating, strategies) and played
again through the same compiled functions with the same streams; the replayed result is then
checked against the rows stored in the dataset.

JSON trace format ``tourney-trace/1`` (the same shape for every game)::

    {"format": "tourney-trace/1", "game": NAME, "rules_version": INT, "options": {...},
     "players": N, "seed": S, "game_index": I,
     "seats": [{"seat": 0, "strategy": NAME, "team": T}, ...],
     "initial_state": {...},      # the deal in the rules file's terms (hands, display/table/board)
     "decisions": [{"step": K, "seat": SEAT, "move": CODE, "action": {...}, "text": "..."}, ...],
     "result": [{"seat": SEAT, "strategy": NAME, "score": X, "rank": R, "win": BOOL, <game columns>}],
     "matches_dataset": BOOL}     # the replayed result equals the stored rows

``move`` is the game's move code (documented in its module); ``action`` spells it out. Chance
events after the deal (reshuffles, draws) come from stream 0 of (seed, game_index), see
``simulate/seeding.py``, so a program holding the rules can re-check the whole game.
"""
from __future__ import annotations

from pathlib import Path

import pyarrow.compute as pc

from .games import get_game
from .matchup import from_description
from .results import DatasetError, read_manifest, read_table
from .stepper import KernelGame

TRACE_FORMAT = "tourney-trace/1"


def trace(directory: Path, game_index: int) -> dict:
    manifest = read_manifest(directory)
    games = manifest.get("games", 0)
    if not (0 <= game_index < games):
        raise DatasetError(f"game {game_index} is not in this run (games 0 to {games - 1})")
    spec = get_game(manifest["game"])
    if manifest.get("rules_version") != spec.rules_version:
        raise DatasetError(f"cannot replay {directory}: its games were played under {spec.name} rules "
                           f"v{manifest.get('rules_version')}, and this tourney plays v{spec.rules_version} "
                           f"(other games)")
    m = from_description({"game": manifest["game"], "players": manifest["players"],
                          "options": manifest["options"], "seats": manifest["seats"],
                          "seed": manifest["seed"], "rotate": manifest["rotate"]})
    spec = m.spec
    k = KernelGame(spec, m.params, m.seed, game_index)
    seating = m.seating(game_index)
    by_label = {s.label: s for s in m.strategies}
    initial = spec.describe_state(k.state)
    decisions = []
    while (seat := k.to_move()) >= 0:
        move = k.choose(by_label[seating[seat]])
        decisions.append({"step": len(decisions), "seat": seat, "move": move,
                          "action": spec.move_to_json(k.state, move),
                          "text": spec.describe_move(k.state, move)})
        k.apply(move)
    scores, ranks, extras = k.result()
    names = seating + list(spec.extra_seats(m.n_players))
    result = []
    for s in range(len(scores)):
        row = {"seat": s, "strategy": names[s], "score": scores[s], "rank": ranks[s], "win": ranks[s] == 1}
        row.update({name: extras[s][j] for j, (name, _) in enumerate(spec.columns)})
        result.append(row)
    stored = read_table(directory, filter=pc.field("game") == game_index).to_pylist()
    stored.sort(key=lambda r: r["seat"])
    matches = bool(stored) and all(
        r["score"] == x["score"] and r["rank"] == x["rank"] and r["strategy"] == x["strategy"]
        for r, x in zip(stored, result)) and len(stored) == len(result)
    return {
        "format": TRACE_FORMAT, "game": spec.name, "rules_version": spec.rules_version,
        "options": m.options, "players": m.n_players, "seed": m.seed, "game_index": game_index,
        "seats": [{"seat": s, "strategy": names[s],
                   "team": spec.team_of(s, m.n_players) if s < m.n_players else s}
                  for s in range(len(names))],
        "initial_state": initial, "decisions": decisions, "result": result,
        "matches_dataset": matches if stored else None,
    }


def _fmt_value(v) -> str:
    if isinstance(v, list):
        return ", ".join(_fmt_value(x) for x in v) if v else "-"
    if isinstance(v, dict):
        if set(v) <= {"colour", "value", "suit", "rank", "name", "kind"}:
            return " ".join(str(x) for x in v.values())
        return "; ".join(f"{k}: {_fmt_value(x)}" for k, x in v.items())
    return str(v)


def format_text(t: dict) -> str:
    lines = [f"{t['game']} (rules v{t['rules_version']}), game {t['game_index']} of seed {t['seed']}"
             + (", " + ", ".join(f"{k}={v}" for k, v in t["options"].items()) if t["options"] else "")]
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
    for d in t["decisions"]:
        lines.append(f"{d['step']:>4}  seat {d['seat']} ({t['seats'][d['seat']]['strategy']}) {d['text']}")
    lines.append("")
    lines.append("result")
    for r in t["result"]:
        extras = ", ".join(f"{k} {v}" for k, v in r.items()
                           if k not in ("seat", "strategy", "score", "rank", "win"))
        lines.append(f"  seat {r['seat']} {r['strategy']:<12} score {r['score']:>5}  rank {r['rank']}"
                     + ("  WIN" if r["win"] else "") + (f"  ({extras})" if extras else ""))
    if t["matches_dataset"] is True:
        lines.append("replayed result matches the dataset")
    elif t["matches_dataset"] is False:
        lines.append("WARNING: the replayed result differs from the dataset (strategies or rules changed?)")
    return "\n".join(lines)
