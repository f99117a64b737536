"""Golden games (OpenSpiel's "playthroughs"): complete traces of a few games of every game and
every rule option value, stored in ``tests/golden/`` and produced by ``scripts/golden.py``.

The kernel must still produce them byte for byte, and ``tourney check`` (the reference engine)
must accept them. A deliberate change of rules or of a built-in strategy's play regenerates them
(``python scripts/golden.py --update``) in the same commit as the rules version bump.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tourney_sim.simulate.check import TraceError, check_trace, load_trace, validate_trace
from tourney_sim.cli import app
from tourney_sim.simulate.matchup import make_matchup
from tourney_sim.simulate.replay import trace_game

GOLDEN = Path(__file__).parent / "golden"

#: (name, game, players, strategies, rule options, seed, games, with legal moves)
CASES = [
    ("companeros-3p", "companeros", 3, ["greedy", "random"], [], 11, 2, True),
    ("companeros-4p-match2", "companeros", 4, ["greedy", "random"], ["match_games=2"], 12, 2, False),
    ("companeros-6p", "companeros", 6, ["greedy", "random"], [], 13, 2, False),
    ("cardavia", "cardavia", 4, ["guard", "random"], [], 21, 2, True),
    ("cardavia-single-match-forced", "cardavia", 4, ["guard", "random"], ["single_match_forced=true"], 22, 2, False),
    ("cardavia-no-last-sweep", "cardavia", 4, ["guard", "random"], ["last_sweep_scores=false"], 23, 2, False),
    ("cardavia-napula-beyond-10", "cardavia", 4, ["guard", "random"], ["napula_beyond_10=true"], 24, 2, False),
    ("cardavia-match2", "cardavia", 4, ["guard", "random"], ["match_deals=2"], 25, 1, False),
    ("colleagues-2p", "colleagues", 2, ["dodger", "random"], [], 31, 2, True),
    ("colleagues-2p-shield", "colleagues", 2, ["dodger", "random"], ["grey_dismissal=shield"], 32, 2, False),
    ("colleagues-4p", "colleagues", 4, ["dodger", "random"], [], 33, 2, False),
    ("partners", "partners", 4, ["guardian", "random"], [], 41, 1, True),
    ("partners-bounce", "partners", 4, ["guardian", "random"], ["house_overshoot=bounce"], 42, 1, False),
]


def golden_path(name: str, index: int) -> Path:
    return GOLDEN / f"{name}-g{index}.json"


def golden_text(case, index: int) -> str:
    """The trace of game ``index`` of a case, exactly as stored."""
    name, game, players, strategies, rules, seed, _, legal = case
    m = make_matchup(game, players, strategies, rules=rules, seed=seed)
    return json.dumps(trace_game(m, index, legal=legal), indent=1, ensure_ascii=False) + "\n"


def all_golden():
    return [(case, i) for case in CASES for i in range(case[6])]


@pytest.mark.parametrize("case,index", all_golden(), ids=[f"{c[0]}-g{i}" for c, i in all_golden()])
def test_kernel_still_plays_the_golden_game_byte_for_byte(case, index):
    stored = golden_path(case[0], index).read_text()
    assert golden_text(case, index) == stored, (
        f"{case[0]} game {index} is no longer the golden game; if the change is deliberate, "
        f"run scripts/golden.py --update in the commit that bumps the rules version")


@pytest.mark.parametrize("case,index", all_golden(), ids=[f"{c[0]}-g{i}" for c, i in all_golden()])
def test_reference_engine_accepts_the_golden_game(case, index):
    trace = load_trace(golden_path(case[0], index))
    report = check_trace(trace)
    assert report.ok, report.message
    assert report.decisions == sum("seat" in e for e in trace["history"])
    assert report.chance_events == sum("chance" in e for e in trace["history"]) > 0


def test_every_game_and_option_value_has_golden_games():
    from tourney_sim.simulate.games import game_names, get_game
    covered = {(c[1], rule) for c in CASES for rule in c[4]}
    for game in game_names():
        assert any(c[1] == game for c in CASES), game
        for option in get_game(game).options:
            if option.kind == "bool":
                values = [str(not option.default).lower()]
            elif option.kind == "choice":
                values = [v for v in option.choices if v != option.default]
            elif option.kind == "int":
                values = [str(option.default + 1)]
            else:  # a file: the default table only
                values = []
            for value in values:
                assert (game, f"{option.name}={value}") in covered, (game, option.name, value)
    stored = {p.name for p in GOLDEN.glob("*.json")}
    assert stored == {golden_path(c[0], i).name for c, i in all_golden()}


FIRST_OF_EACH_GAME = [next(c for c in CASES if c[1] == g) for g in dict.fromkeys(c[1] for c in CASES)]


def _first(case) -> dict:
    return json.loads(golden_path(case[0], 0).read_text())


def _decisions(trace):
    return [i for i, e in enumerate(trace["history"]) if "seat" in e]


@pytest.mark.parametrize("case", FIRST_OF_EACH_GAME, ids=[c[1] for c in FIRST_OF_EACH_GAME])
def test_check_accepts_a_hand_written_trace_that_names_moves_by_their_action_only(case):
    trace = _first(case)
    for key in ("seed", "game_index", "seats", "initial_state", "options"):
        trace.pop(key, None)
    trace["options"] = {k: v for k, v in _first(case)["options"].items() if k != "components"}
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


@pytest.mark.parametrize("case", FIRST_OF_EACH_GAME, ids=[c[1] for c in FIRST_OF_EACH_GAME])
def test_check_names_the_first_step_where_a_trace_parts_from_the_rules(case):
    trace = _first(case)
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
    trace = _first(CASES[0])  # Compañeros: the deal names the display and the hands
    deal = trace["history"][0]["chance"]["deal"]
    hands = deal["hands"]
    hands[1][0] = hands[0][0]  # one card twice
    report = check_trace(trace)
    assert not report.ok and report.message.startswith("step 0: impossible deal"), report.message


def test_tourney_check_exit_codes(tmp_path):
    runner = CliRunner()
    good = golden_path(CASES[0][0], 0)
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
    trace = _first(CASES[0])
    trace["history"][3]["seat"] = "north"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(trace))
    with pytest.raises(TraceError, match="at history/3"):
        load_trace(path)
