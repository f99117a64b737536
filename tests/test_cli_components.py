"""``--component KEY=VALUE`` through the command line (issue 31): over the defaults or over
``--rule components=FILE``, recorded whole in the manifest with a readable label, shown as its
changes by ``tourney summary``; ``tourney sweep --component KEY=v1,v2`` plays the values on the
same deals; every bad key or value is one ``error:`` line, exit 2, nothing written."""
import json

import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app
from tourney_sim.simulate.games import get_game

runner = CliRunner()
COMPONENTS = get_game("colleagues").components
PLAY = ["--games", 24, "--seed", 3, "--strategy", "middle", "--strategy", "random", "--workers", 1]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_component_over_a_file_is_recorded_whole_and_summarised_as_its_changes(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[tokens]\nplus10 = 20\n\n[overtime]\nvalues = [5, 6, 7]\n")
    out = tmp_path / "run"
    # --component is applied over the file wherever it stands on the command line
    r = invoke("run", "colleagues", "--players", 3, *PLAY, "--component", "tokens.plus10=12",
               "--rule", f"components={path}", "--component", "work.values[3]=4", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "_manifest.json").read_text())
    table = manifest["options"]["components"]
    expected = COMPONENTS.set(COMPONENTS.load(str(path)), ["tokens.plus10=12", "work.values[3]=4"])
    assert table == expected and COMPONENTS.check(table, complete=True) == table  # every key, checked
    assert table["overtime"]["values"] == [5, 6, 7] and table["tokens"]["plus10"] == 12
    assert manifest["components"] == ("work.values[3]=4 (default 1), overtime.values[1]=5 (default 2), "
                                      "overtime.values[2]=6 (default 3), overtime.values[3]=7 (default 4), "
                                      "tokens.plus10=12 (default 9)")
    r = invoke("summary", out)
    assert r.exit_code == 0 and "tokens.plus10=12 (default 9)" in r.output.splitlines()[0], r.output


def test_defaults_are_labelled_as_such(tmp_path):
    out = tmp_path / "run"
    assert invoke("run", "colleagues", "--players", 3, *PLAY, "--out", out, "--quiet").exit_code == 0
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["components"] == "defaults" and manifest["options"]["components"] == COMPONENTS.defaults
    assert "components=defaults" in invoke("summary", out).output.splitlines()[0]


def test_sweep_over_a_component_plays_each_value_on_the_same_deals(tmp_path):
    out = tmp_path / "sweep"
    r = invoke("sweep", "colleagues", "--players", 3, *PLAY, "--component", "tokens.plus10=6,12",
               "--component", "overtime.values=3,4,5", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    t = json.loads((out / "_tournament.json").read_text())
    assert [v["label"] for v in t["variants"]] == ["tokens.plus10=6", "tokens.plus10=12"]
    tables, deals = [], set()
    for variant in t["variants"]:
        seating = next(d["dir"] for d in t["datasets"] if d["variant"] == variant["label"])
        m = json.loads((out / seating / "_manifest.json").read_text())
        tables.append(m["options"]["components"])
        deals.add((m["seed"], m["games"]))
    assert len(deals) == 1  # the same deals under both values
    assert [x["tokens"]["plus10"] for x in tables] == [6, 12]
    assert all(x["overtime"]["values"] == [3, 4, 5] for x in tables)  # a whole list is one fixed value
    r = invoke("summary", out)
    assert r.exit_code == 0 and "tokens.plus10=12" in r.output, r.output


@pytest.mark.parametrize("command", ["run", "tournament", "sweep", "tune"])
@pytest.mark.parametrize("values, message", [
    (["tokens.plus=3"], "colleagues has no component 'tokens.plus' (keys: commitment.values"),
    (["tokens.plus10=100"], "tokens.plus10 expects an integer from 0 to 99, got '100'"),
    (["work.values[16]=1"], "work.values has no entry [16] (entries: 1 to 15)"),
    (["tokens.plus10"], "--component expects KEY=VALUE"),
    (["tokens.plus10=99", "tokens.minus10=99"], "components: tokens: at most 200 tokens in all, got 211"),
])
def test_a_bad_component_is_one_error_line_exit_2_nothing_written(tmp_path, command, values, message):
    out = tmp_path / "out"
    args = {"run": ["--games", 10],
            "tournament": ["--strategy", "middle", "--strategy", "random", "--games", 10],
            "sweep": ["--strategy", "middle", "--strategy", "random", "--games", 10, "--rule",
                      "grey_dismissal=exclude,shield", "--players", 2],
            "tune": ["--strategy", "middle", "--against", "random", "--trials", 1, "--deals", 4]}[command]
    r = invoke(command, "colleagues", *args, *[a for v in values for a in ("--component", v)], "--out", out, "--quiet")
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], r.output
    assert not out.exists()


def test_issue_38_a_back_move_longer_than_a_lap_is_refused_before_anything_is_played(tmp_path):
    """The issue's second reproduction: before, all 3 games were played and none replayed."""
    out = tmp_path / "R2"
    r = invoke("run", "partners", "--component", "board.section=4", "--component", "effects.back[-4]=63",
               "--strategy", "guardian-tuned", "--strategy", "random", "--games", 3, "--seed", 5, "--out", out)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert lines == ["error: components: effects.back: the -4 card moves 63 spaces back, a whole lap of the "
                     "16-space ring or more (4 x board.section 4); every move must be shorter than one lap "
                     "(at most 15)"], r.output
    assert not out.exists()


def test_a_game_without_the_key_and_a_sweep_without_two_values_are_refused(tmp_path):
    r = invoke("sweep", "colleagues", "--component", "tokens.plus10=12", "--strategy", "middle",
               "--strategy", "random", "--out", tmp_path / "s")
    assert r.exit_code == 2 and "a sweep needs a rule or component with at least two values" in r.output
    r = invoke("sweep", "colleagues", "--component", "tokens.plus10=12,", "--strategy", "middle",
               "--strategy", "random", "--out", tmp_path / "s")
    assert r.exit_code == 2 and "--component tokens.plus10: empty value" in r.output, r.output
    r = invoke("sweep", "colleagues", "--component", "tokens.plus10=3,4", "--component", "tokens.plus10=5,6",
               "--strategy", "middle", "--strategy", "random", "--out", tmp_path / "s")
    assert r.exit_code == 2 and "component tokens.plus10 is given twice" in r.output, r.output
    r = invoke("sweep", "colleagues", "--component", "overtime.values=3,4,5", "--strategy", "middle",
               "--strategy", "random", "--out", tmp_path / "s")
    assert r.exit_code == 2 and ("overtime.values is a whole list, one value; sweep one entry, e.g. "
                                 "--component overtime.values[1]=v1,v2") in r.output, r.output
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("command", ["run", "tournament", "sweep", "tune", "bench"])
def test_help_teaches_the_component_option(command):
    r = invoke(command, "--help")
    assert r.exit_code == 0 and "--component" in r.output and "docs/components.md" in r.output
