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


# ----------------------------------------------------------------------------- positions from the middle (issue 30.5)
#: a small dataset per game, its table full of the game's built-in heuristics
MIDDLE = {"companeros": ["greedy", "high", "follower"], "cardavia": ["guard", "capture-max"],
          "colleagues": ["dodger", "random"], "partners": ["guardian", "random"]}


def _dataset(tmp_path, game):
    out = tmp_path / game
    strategies = [a for s in MIDDLE[game] for a in ("--strategy", s)]
    r = CliRunner().invoke(app, ["run", game, "--games", "4", "--seed", "11", *strategies, "--out", str(out),
                                 "--workers", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    return out


def _invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("game", sorted(MIDDLE))
def test_the_position_replay_writes_at_step_k_is_the_game_at_step_k(tmp_path, game):
    """`replay --step K --format position`, read back by `tourney position`, gives the seat to move
    and the legal moves the replay had at step K; so does `position` on the trace with --step K."""
    out = _dataset(tmp_path, game)
    trace = json.loads(_invoke("replay", out, "--game", 2, "--format", "json", "--legal").output)
    trace_file = tmp_path / "g2.json"
    trace_file.write_text(json.dumps(trace))
    decisions = [e for e in trace["history"] if "seat" in e]
    for entry in (decisions[1], decisions[len(decisions) // 2], decisions[-1]):
        k = entry["step"]
        r = _invoke("replay", out, "--game", 2, "--step", k, "--format", "position")
        assert r.exit_code == 0, r.output
        pos = tmp_path / f"pos{k}.json"
        pos.write_text(r.output)
        for args in ([game, pos], [game, trace_file, "--step", k]):
            a = json.loads(_invoke("position", *args, "--format", "json").output)
            assert a["to_move"] == entry["seat"]
            assert [(x["move"], x["action"]) for x in a["legal"]] == [(o["move"], o["action"]) for o in entry["legal"]]
    end = len(trace["history"])
    r = _invoke("replay", out, "--game", 2, "--step", end, "--format", "position")
    assert r.exit_code == 0, r.output
    (tmp_path / "end.json").write_text(r.output)
    assert "the game is over in this position" in _invoke("position", game, tmp_path / "end.json").output


def test_a_trace_without_a_step_and_a_step_out_of_range_are_one_line(tmp_path):
    out = _dataset(tmp_path, "companeros")
    trace_file = tmp_path / "g.json"
    trace_file.write_text(_invoke("replay", out, "--game", 1, "--format", "json").output)
    steps = len(json.loads(trace_file.read_text())["history"])
    for args, says in [(["position", "companeros", trace_file], f"is a whole game (a trace), not a position: add "
                                                                f"--step K for the position before step K (steps 0 to {steps})"),
                       (["position", "companeros", trace_file, "--step", steps + 1],
                        f"step {steps + 1} is not in game 1: its steps are 0 to {steps} ({steps}: the finished game)"),
                       (["position", "companeros", trace_file, "--step", 0], "step 0 is a chance event (deal): a "
                                                                             "position stands before a decision; the next one is step 1"),
                       (["position", "cardavia", trace_file, "--step", 1], "is a trace of 'companeros', not of 'cardavia'"),
                       (["replay", out, "--game", 1, "--step", -1, "--format", "position"], "step -1 is not in game 1"),
                       (["replay", out, "--game", 1, "--step", 3], "--step K and --format position go together"),
                       (["replay", out, "--game", 1, "--format", "position"], "--step K and --format position go together"),
                       (["replay", out, "--game", 1, "--format", "xml"], "--format must be text, json or position")]:
        r = _invoke(*args)
        lines = r.output.strip().splitlines()
        assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], r.output
