"""The command line: the documented commands work; bad input gives one line, exit 2, no output."""
import json

import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_games_and_strategies_listing():
    r = invoke("games")
    assert r.exit_code == 0 and "companeros" in r.output and "match_games" in r.output
    r = invoke("strategies", "companeros")
    assert r.exit_code == 0
    lines = r.output.strip().splitlines()
    assert {line.split()[0] for line in lines} >= {"random", "high", "follower", "greedy"}


def test_run_summary_replay(tmp_path):
    out = tmp_path / "first"
    r = invoke("run", "companeros", "--players", 4, "--games", 3000, "--seed", 7, "--strategy", "greedy",
               "--strategy", "random", "--out", out, "--workers", 1, "--quiet")
    assert r.exit_code == 0, r.output
    r = invoke("summary", out)
    assert r.exit_code == 0 and "greedy" in r.output and "by seat" in r.output
    r = invoke("replay", out, "--game", 1233)
    assert r.exit_code == 0, r.output
    assert "replayed result matches the dataset" in r.output and "plays" in r.output
    r = invoke("replay", out, "--game", 1233, "--format", "json")
    trace = json.loads(r.output)
    assert trace["format"] == "tourney-trace/2" and trace["matches_dataset"] is True
    assert [s["strategy"] for s in trace["seats"]] == ["random", "greedy", "random", "greedy"]  # rotated
    # the first entry is the deal, the one initial_state shows; then the decisions of the seats
    assert trace["history"][0]["chance"]["deal"]["hands"] == trace["initial_state"]["hands"]
    decisions = [e for e in trace["history"] if "seat" in e]
    assert len(decisions) == len(trace["history"]) - 1 and decisions[0]["step"] == 1
    # another program can re-check the game from the trace alone: the reference engine, dealt the
    # trace's deal (not from the seed), accepts every decision and ends with the same result
    path = tmp_path / "g1233.json"
    path.write_text(r.output)
    r = invoke("check", path)
    assert r.exit_code == 0, r.output
    assert "the trace follows the companeros rules v1: " in r.output
    assert f"{len(decisions)} decisions, 1 chance events" in r.output
    # --legal lists every legal move, the one played among them
    r = invoke("replay", out, "--game", 1233, "--format", "json", "--legal")
    full = json.loads(r.output)
    for d in (e for e in full["history"] if "seat" in e):
        assert d["move"] in [option["move"] for option in d["legal"]]
        assert {"move": d["move"], "action": d["action"]} in d["legal"]
    assert [e["move"] for e in full["history"] if "seat" in e] == [d["move"] for d in decisions]


@pytest.mark.parametrize("args,message", [
    (["run", "chess"], "unknown game 'chess' (games: cardavia, colleagues, companeros, partners)"),
    (["run", "companeros", "--strategy", "nobody"], "unknown strategy 'nobody' for companeros (strategies: random"),
    (["run", "companeros", "--players", 9], "companeros is played by 3 to 6 players, not 9"),
    (["run", "companeros", "--rule", "match_games=0"], "rule match_games expects an integer from 1 to 100, got '0'"),
    (["run", "companeros", "--rule", "speed=3"], "companeros has no rule option 'speed' (options: components, match_games)"),
    (["run", "companeros", "--rule", "match_games"], "--rule expects key=value"),
    (["run", "companeros", "--games", 0], "--games must be a positive number"),
    (["run", "companeros", "--games", -5], "--games must be a positive number"),
    (["run", "companeros", "--seed", -1], "seed must be an integer from 0 to"),
    (["strategies", "chess"], "unknown game 'chess'"),
])
def test_bad_input_one_line_exit_2_nothing_written(tmp_path, args, message):
    out = tmp_path / "out"
    r = invoke(*args, *(["--out", out] if args[0] == "run" else []))
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], r.output
    assert not out.exists()


def test_unwritable_output(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = invoke("run", "companeros", "--games", 10, "--out", blocker / "sub", "--quiet")
    assert r.exit_code == 2 and r.output.startswith("error: cannot write to output")


def test_existing_output_refused(tmp_path):
    out = tmp_path / "o"
    assert invoke("run", "companeros", "--games", 100, "--out", out, "--quiet", "--workers", 1).exit_code == 0
    r = invoke("run", "companeros", "--games", 100, "--out", out, "--quiet")
    assert r.exit_code == 2 and "already exists (use --overwrite" in r.output


def test_replay_errors(tmp_path):
    r = invoke("replay", tmp_path, "--game", 1)
    assert r.exit_code == 2 and "is not a tourney dataset" in r.output
    out = tmp_path / "d"
    invoke("run", "companeros", "--games", 100, "--out", out, "--quiet", "--workers", 1)
    r = invoke("replay", out, "--game", 100)
    assert r.exit_code == 2 and "game 100 is not in this run (games 0 to 99)" in r.output


def test_replay_and_resume_refuse_a_dataset_of_other_rules(tmp_path):
    """A dataset made under another rules version (issue 14: a rules change bumps the game's
    version) is neither replayed nor resumed: its games would be other games. One line, exit 2,
    nothing written."""
    import json
    out = tmp_path / "d"
    args = ["run", "colleagues", "--players", 3, "--games", 40, "--chunk-size", 20, "--out", out, "--workers", 1]
    assert invoke(*args, "--quiet").exit_code == 0
    manifest = json.loads((out / "_manifest.json").read_text())
    now = manifest["rules_version"]
    manifest["rules_version"] = before_version = now - 1
    (out / "_manifest.json").write_text(json.dumps(manifest))
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    r = invoke("replay", out, "--game", 3)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and f"played under colleagues rules v{before_version}" in lines[0]
    r = invoke(*args, "--resume")
    lines = r.output.strip().splitlines()
    changed = f"the rules of colleagues changed since it started (rules v{before_version}, now v{now})"
    assert r.exit_code == 2 and len(lines) == 1 and changed in lines[0]
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before


def test_python_m_simulate_is_the_same_cli():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "tourney_sim", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "replay" in r.stdout and "bench" in r.stdout


def test_the_command_runs_with_the_collector_on_and_leaves_its_objects_frozen(monkeypatch):
    """tourney_sim.command (the entry point) keeps Python's garbage collector out of start-up and
    shutdown only: a command runs with it on, and the command's exit (SystemExit included) still
    reaches the caller."""
    import gc

    from tourney_sim import command
    from tourney_sim import cli

    seen = {}

    def fake_cli():
        seen["enabled"], seen["frozen"] = gc.isenabled(), gc.get_freeze_count()
        raise SystemExit(3)

    monkeypatch.setattr(cli, "main", fake_cli)
    try:
        with pytest.raises(SystemExit) as exit_:
            command.main()
        assert exit_.value.code == 3
        assert seen["enabled"] and seen["frozen"] > 0 and gc.isenabled()
        assert gc.get_freeze_count() >= seen["frozen"]
    finally:
        gc.unfreeze()


def _user_error_classes():
    from tourney_sim.simulate.study import StudyError
    from tourney_sim.simulate.backends import BackendError
    from tourney_sim.simulate.check import TraceError
    from tourney_sim.simulate.games import PositionError, RuleError
    from tourney_sim.simulate.games.chance import ChanceError
    from tourney_sim.simulate.matchup import RunError
    from tourney_sim.simulate.results import DatasetError, OutputError, PartError
    from tourney_sim.simulate.runner import ResumeError
    from tourney_sim.simulate.tournament import TournamentError
    from tourney_sim.simulate.tune import TuneError
    from tourney_sim.strategies import StrategyError
    from tourney_sim.strategies.params import ParamError
    return [RuleError, PositionError, ChanceError, TraceError, TuneError, OutputError, PartError, DatasetError,
            ResumeError, TournamentError, RunError, BackendError, StrategyError, ParamError, StudyError]


@pytest.mark.parametrize("error", _user_error_classes(), ids=lambda e: e.__name__)
def test_every_user_error_is_one_line_and_its_exit_code_whatever_the_command(monkeypatch, error):
    """The errors are handled in one place (tourney_sim/cli/_errors.py), not per command: any of
    the library's error classes, raised by any command's api call, is `error: MESSAGE` and exit 2
    (1 for a run that failed, RunError), and stays a ValueError for the API's callers."""
    from tourney_sim import api
    from tourney_sim.simulate.errors import TourneyError

    def refuse(*args, **kwargs):
        raise error("the one line")

    assert issubclass(error, TourneyError) and issubclass(error, ValueError)
    for command, args in [("summary", ["d"]), ("verify", ["d"]), ("report", ["d"]), ("bench", ["companeros"])]:
        monkeypatch.setattr(api, {"report": "report_text"}.get(command, command), refuse)
        r = invoke(command, *args)
        assert r.exit_code == (1 if error.__name__ == "RunError" else 2), (command, r.output)
        assert r.output.splitlines() == ["error: the one line"], (command, r.output)


def test_an_interrupted_run_says_where_its_work_is_and_exits_130(monkeypatch):
    from tourney_sim import api
    from tourney_sim.simulate.errors import Interrupted

    def interrupted(*args, **kwargs):
        raise Interrupted("interrupted: 10 of 20 games kept in here (whole parts only; continue with --resume)")

    monkeypatch.setattr(api, "run", interrupted)
    r = invoke("run", "companeros", "--quiet")
    assert r.exit_code == 130
    assert r.output.splitlines() == ["interrupted: 10 of 20 games kept in here (whole parts only; continue with --resume)"]


def test_an_error_that_is_not_the_users_keeps_its_traceback(monkeypatch):
    """A plain ValueError is a bug: not dressed as `error: ...` (the handler knows the library's
    error classes only)."""
    from tourney_sim import api

    def bug(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(api, "summary", bug)
    r = invoke("summary", "d")
    assert isinstance(r.exception, ValueError) and "error:" not in r.output


def test_the_recorded_command_and_the_default_output(tmp_path, monkeypatch):
    """Without --out a run lands where api.DEFAULT_OUT says, and the manifest records the command
    line as typed (shell-quoted), built in one place for every command."""
    from tourney_sim.api import DEFAULT_OUT
    monkeypatch.chdir(tmp_path)
    args = ["run", "companeros", "--games", "30", "--workers", "1", "--quiet", "--strategy", "greedy ",
            "--strategy", "random"]
    monkeypatch.setattr("sys.argv", ["tourney", *args])
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    out = tmp_path / DEFAULT_OUT["run"].format(game="companeros", players=4, seed=0)
    manifest = json.loads((out / "_manifest.json").read_text())
    assert out == tmp_path / "runs" / "companeros-4p-seed0"
    assert manifest["command"] == "tourney run companeros --games 30 --workers 1 --quiet --strategy 'greedy ' --strategy random"


# ----------------------------------------------------------------------------- issue 30.7
def _numeric_options():
    """(command, its arguments' placeholders, option) for every option that takes a number."""
    import typer.main
    group = typer.main.get_command(app)
    for name, command in sorted(group.commands.items()):
        arguments = ["x" for p in command.params if p.param_type_name == "argument"]
        for p in command.params:
            kind = getattr(getattr(p, "type_descriptor", None), "annotation", None)
            if p.param_type_name == "option" and not p.is_flag and kind in (int, float, int | None, float | None):
                yield name, arguments, max(p.opts, key=len), "a whole number" if int in (kind, getattr(kind, "__args__", ())[:1]) else "a number"


NUMERIC_OPTIONS = list(_numeric_options())


def test_there_are_numeric_options_to_check():
    assert {("run", "--games"), ("tournament", "--alpha"), ("replay", "--step")} <= {(c, o) for c, _, o, _ in NUMERIC_OPTIONS}


@pytest.mark.parametrize("command, arguments, option, expected", NUMERIC_OPTIONS,
                         ids=[f"{c} {o}" for c, _, o, _ in NUMERIC_OPTIONS])
def test_a_bad_value_of_any_option_is_one_error_line(command, arguments, option, expected):
    r = invoke(command, option, "abc", *arguments)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1, r.output
    assert lines[0] == f"error: {option} expects {expected}, got 'abc' (see `tourney {command} --help`)"


def test_unknown_options_and_missing_arguments_are_one_error_line_too():
    for args, says in [(["run", "companeros", "--bogus"], "No such option: --bogus"),
                       (["run"], "Missing argument 'game'"), (["chess"], "No such command 'chess'")]:
        r = invoke(*args)
        lines = r.output.strip().splitlines()
        assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], r.output


def test_report_refuses_a_file_format_it_cannot_write(tmp_path):
    for name in ("x.pdf", "x.txt", "report"):
        r = invoke("report", tmp_path, "--out", tmp_path / name)
        lines = r.output.strip().splitlines()
        assert r.exit_code == 2 and len(lines) == 1, r.output
        assert lines[0] == f"error: --out {tmp_path / name}: a report is written as .html or .md (or give --format html or md)"
        assert not (tmp_path / name).exists()
    r = invoke("report", tmp_path, "--out", tmp_path / "x.pdf", "--format", "")  # empty: not "from --out"
    assert r.exit_code == 2 and r.output.strip() == "error: --format must be html, md or text, got ''", r.output


def test_rule_defaults_read_as_the_user_types_them():
    listing = invoke("games").output
    assert "single_match_forced=false (true or false)" in listing and "last_sweep_scores=true (true" in listing
    assert "=False" not in listing and "=True" not in listing


def test_no_range_reads_from_0_to_0(tmp_path):
    out = tmp_path / "one"
    assert invoke("run", "companeros", "--games", 1, "--out", out, "--quiet", "--workers", 1).exit_code == 0
    r = invoke("replay", out, "--game", 1)
    assert r.exit_code == 2 and "game 1 is not in this run (games 0)" in r.output and "0 to 0" not in r.output
    r = invoke("verify", out)
    assert r.exit_code == 0 and "1 games (0)" in r.output and "0 to 0" not in r.output
    position = json.loads(invoke("replay", out, "--game", 0, "--step", 1, "--format", "position").output)
    position["round"] = 9  # over, while the phase says it goes on
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position))
    r = invoke("position", "companeros", path)
    assert r.exit_code == 2 and "match_game is 0 and round 0 to 8" in r.output and "0 to 0" not in r.output
