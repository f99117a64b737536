"""``tourney check`` on the golden games of ``tests/golden/``: traces written by hand, traces that
part from the rules, bad files. (That the kernel still plays every golden game byte for byte and
the reference engine accepts it is part of every game's contract: tests/contract/test_golden.py.)
"""
from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from tourney_sim.simulate.check import TraceError, check_trace, load_trace, validate_trace
from tourney_sim.cli import app

from .goldens import first_with_legal_moves, read

#: each game's first golden game listing the legal moves
FIRST_OF_EACH_GAME = first_with_legal_moves()


def _first(game) -> dict:
    return read(FIRST_OF_EACH_GAME[game])


def _decisions(trace):
    return [i for i, e in enumerate(trace["history"]) if "seat" in e]


@pytest.mark.parametrize("game", sorted(FIRST_OF_EACH_GAME))
def test_check_accepts_a_hand_written_trace_that_names_moves_by_their_action_only(game):
    trace = _first(game)
    for key in ("seed", "game_index", "seats", "initial_state", "options"):
        trace.pop(key, None)
    trace["options"] = {k: v for k, v in _first(game)["options"].items() if k != "components"}
    for entry in trace["history"]:
        entry.pop("step")
        if "seat" in entry:
            entry.pop("move")
            entry.pop("text")
            entry.pop("legal", None)
    for row in trace["result"]:
        for key in list(row):
            if key not in ("seat", "score", "rank"):
                row.pop(key)
    validate_trace(trace)
    report = check_trace(trace)
    assert report.ok, report.message


@pytest.mark.parametrize("game", sorted(FIRST_OF_EACH_GAME))
def test_check_names_the_first_step_where_a_trace_parts_from_the_rules(game):
    trace = _first(game)
    d = _decisions(trace)[len(_decisions(trace)) // 2]
    entry = trace["history"][d]

    # a move code that is not the move spelled
    wrong = copy.deepcopy(trace)
    codes = [o["move"] for o in entry["legal"]] if "legal" in entry else []
    other = next((m for m in codes if m != entry["move"]), None)
    wrong["history"][d]["move"] = other if other is not None else 10 ** 6
    report = check_trace(wrong)
    assert not report.ok and f"step {d}:" in report.message, report.message

    # a decision by the wrong seat
    wrong = copy.deepcopy(trace)
    wrong["history"][d]["seat"] = (entry["seat"] + 1) % trace["players"]
    report = check_trace(wrong)
    assert not report.ok and f"step {d}: the trace has seat" in report.message, report.message

    # a chance event left out: the rules need it where the trace has something else
    wrong = copy.deepcopy(trace)
    first_chance = next(i for i, e in enumerate(trace["history"]) if "chance" in e)
    del wrong["history"][first_chance]
    assert not check_trace(wrong).ok

    # a result that is not the game's
    wrong = copy.deepcopy(trace)
    wrong["result"][0]["score"] += 1
    report = check_trace(wrong)
    assert not report.ok and "the result differs: seat 0" in report.message, report.message

    # a game cut short
    wrong = copy.deepcopy(trace)
    del wrong["history"][d:]
    report = check_trace(wrong)
    assert not report.ok and "the trace ends after" in report.message, report.message


def test_check_refuses_an_impossible_chance_event():
    trace = _first("companeros")  # the deal names the display and the hands
    deal = trace["history"][0]["chance"]["deal"]
    hands = deal["hands"]
    hands[1][0] = hands[0][0]  # one card twice
    report = check_trace(trace)
    assert not report.ok and report.message.startswith("step 0: impossible deal"), report.message


def test_tourney_check_exit_codes(tmp_path):
    runner = CliRunner()
    good = FIRST_OF_EACH_GAME["companeros"]
    ok = runner.invoke(app, ["check", str(good)])
    assert ok.exit_code == 0, ok.output
    assert "the trace follows the companeros rules v1" in ok.output

    trace = json.loads(good.read_text())
    trace["result"][1]["rank"] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(trace))
    parted = runner.invoke(app, ["check", str(bad)])
    assert parted.exit_code == 1
    assert "check failed: the result differs: seat 1 ranks" in parted.output

    for text, says in [("{not json", "is not JSON"),
                       (json.dumps({**trace, "rules_version": 7}), "rules v7"),
                       (json.dumps({**trace, "game": "chess"}), "unknown game 'chess'"),
                       (json.dumps({**trace, "format": "tourney-trace/1"}), "tourney check reads 'tourney-trace/2'"),
                       (json.dumps({k: v for k, v in trace.items() if k != "history"}), "'history' is a required property"),
                       (json.dumps({**trace, "options": {"jokers": 2}}), "no rule option 'jokers'")]:
        bad.write_text(text)
        refused = runner.invoke(app, ["check", str(bad)])
        assert refused.exit_code == 2, (text[:60], refused.output)
        lines = refused.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], refused.output
    missing = runner.invoke(app, ["check", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_load_trace_names_where_the_schema_is_broken(tmp_path):
    trace = _first("companeros")
    trace["history"][3]["seat"] = "north"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(trace))
    with pytest.raises(TraceError, match="at history/3"):
        load_trace(path)
