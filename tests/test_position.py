"""``tourney position``: a stored position's legal moves and what a strategy plays there."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app
from tourney_sim.simulate.position import analyse

from .goldens import first_with_legal_moves, read

#: each game's first golden game listing the legal moves
FIRST_OF_EACH_GAME = first_with_legal_moves()


@pytest.mark.parametrize("game", sorted(FIRST_OF_EACH_GAME))
def test_a_strategy_asked_at_a_games_first_position_plays_what_it_played_in_the_game(game):
    trace = read(FIRST_OF_EACH_GAME[game])
    first = next(e for e in trace["history"] if "seat" in e)
    strategy = trace["seats"][first["seat"]]["strategy"]
    a = analyse(trace["game"], trace["initial_state"], strategy, seed=trace["seed"])
    assert a["to_move"] == first["seat"]
    assert a["choice"]["move"] == first["move"] and a["choice"]["action"] == first["action"]
    if "legal" in first:
        assert [(e["move"], e["action"]) for e in a["legal"]] == [(o["move"], o["action"]) for o in first["legal"]]


def test_tourney_position_prints_the_legal_moves_and_the_choice(tmp_path):
    trace = read(FIRST_OF_EACH_GAME["companeros"])
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(trace["initial_state"]))
    r = CliRunner().invoke(app, ["position", "companeros", str(path), "--strategy", "greedy"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    first = next(e for e in trace["history"] if "seat" in e)
    assert lines[0].startswith(f"companeros (rules v1): seat {first['seat']} to move, {len(first['legal'])} legal moves")
    assert len(lines) == len(first["legal"]) + 2 and sum(line.startswith(" *") for line in lines) == 1
    assert lines[-1].startswith("greedy plays: ")
    r = CliRunner().invoke(app, ["position", "companeros", str(path), "--strategy", "greedy", "--format", "json"])
    assert json.loads(r.output)["choice"]["text"] == lines[-1].removeprefix("greedy plays: ").rsplit(" (move", 1)[0]


def test_tourney_position_refuses_bad_input_in_one_line(tmp_path):
    trace = read(FIRST_OF_EACH_GAME["companeros"])
    good = tmp_path / "pos.json"
    good.write_text(json.dumps(trace["initial_state"]))
    broken = dict(trace["initial_state"])
    broken.pop("hands")
    missing_key = tmp_path / "broken.json"
    missing_key.write_text(json.dumps(broken))
    not_json = tmp_path / "bad.json"
    not_json.write_text("{hands: ")
    for args, says in [(["chess", good], "unknown game 'chess'"),
                       (["companeros", not_json], "is not JSON"),
                       (["companeros", tmp_path / "none.json"], "cannot read"),
                       (["companeros", missing_key], "hands"),
                       (["companeros", good, "--strategy", "nobody"], "unknown strategy 'nobody'"),
                       (["companeros", good, "--format", "xml"], "--format must be text or json")]:
        r = CliRunner().invoke(app, ["position", *map(str, args)])
        lines = r.output.strip().splitlines()
        assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], (args, r.output)
