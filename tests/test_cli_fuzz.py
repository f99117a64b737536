"""Fuzzing the real command line with hypothesis: whatever the arguments, tourney answers with
exit code 0, 1 or 2 and never a traceback.

The argument lists are built from the commands' own parameters (read from the Typer app, so a
command added later is fuzzed too): valid and invalid values per option, options repeated or
missing, unknown options and stray words. Values that would make a run long are bounded (at most
300 games, 2 workers, Compañeros as the only valid game, a study quick and without the search); scheduler addresses are only malformed
ones (a well-formed address would wait for a scheduler that is not there). Everything runs in a scratch directory, so default
outputs (``runs/...``) land there.
"""
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tourney_sim.cli import app
from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.matchup import make_matchup
from tourney_sim.simulate.runner import run
from tourney_sim.strategies import available

COMMAND = typer.main.get_command(app)
runner = CliRunner()
#: every kind of directory tourney writes (jobdir.detect knows them), made once in ``kinds``
KINDS = ("run", "tournament", "sweep", "tune", "study", "design")
#: what a command calls each kind
NAME = {"run": "dataset", "tune": "tuning run", "design": "design run"}
#: a design run's budget, bounded: a fuzzed design plays a few short trials
SMALL_DESIGN = ["--budget", "quick", "--players", "3", "--trials", "2", "--deals", "20", "--skill-deals", "4",
                "--designs", "1", "--confirm-deals", "20", "--search-deals", "2"]
#: a training run's budget, bounded: one round of a few labels (the default takes minutes)
SMALL_TRAIN = ["--players", "3", "--rounds", "1", "--positions", "20", "--label-iterations", "8",
               "--eval-deals", "10"]


@pytest.fixture(scope="session")
def kinds(tmp_path_factory):
    """A small directory of each kind tourney writes: kind -> its path."""
    import tourney_sim as tourney
    base = tmp_path_factory.mktemp("kinds")
    quick = {"players": 3, "workers": 1}
    tourney.run("companeros", ["greedy", "random"], games=200, out=base / "run", **quick)
    tourney.tournament("companeros", ["greedy", "random"], games=100, out=base / "tournament", **quick)
    tourney.sweep("companeros", ["match_games=1,2"], ["greedy", "random"], games=100, out=base / "sweep", **quick)
    tourney.tune("companeros", "greedy", ["random"], trials=2, deals=20, confirm_deals=20, out=base / "tune",
                 **quick)
    tourney.study("companeros", budget="quick", levels=["random"], out=base / "study", players=[3], workers=1)
    tourney.design("companeros", players=3, vary=["rule"], trials=3, deals=40, skill_deals=10, designs=1,
                   confirm_deals=40, search_deals=4, strong_labels=10, strong_deals=40, out=base / "design", workers=1)
    return {kind: base / kind for kind in KINDS}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory, kinds):
    base = tmp_path_factory.mktemp("fuzz")
    for kind, path in kinds.items():  # every kind of directory is fuzzed too (not as --out: kept)
        (base / f"kind-{kind}").symlink_to(path, target_is_directory=True)
    good = base / "good"
    run(make_matchup("companeros", 3, ["greedy", "random"], seed=1), 400, good, workers=1,
        chunk_size=200, progress=False)
    broken = base / "broken"
    shutil.copytree(good, broken)
    part = broken / "part-000001.parquet"
    part.write_bytes(part.read_bytes()[:100])
    unfinished = base / "unfinished"
    shutil.copytree(good, unfinished)
    (unfinished / "part-000000.parquet").unlink()
    (base / "afile").write_text("not a directory")
    (base / "notdataset").mkdir()
    (base / "notdataset" / "x.txt").write_text("x")
    (base / "garbage-manifest").mkdir()
    (base / "garbage-manifest" / "_manifest.json").write_text("{not json")
    return base


def _names():
    # not the search: a fuzzed --games of a few hundred would play it at its full budget
    return sorted(n for n in available("companeros") if n != "ismcts") + ["capture-max", "nobody", "lowest-first"]


def _rules():
    rules = ["match_games=2", "match_games=0", "speed=3", "x", "=", "match_games=1,2", "a=b=c",
             "match_games=100", "match_games=-1", "last_sweep_scores=true,false"]
    for opt in get_game("companeros").options:
        rules.append(f"{opt.name}={opt.default}")
    return rules


junk = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
               max_size=12)
small_int = st.integers(-3, 300).map(str)


def values(name: str, base: Path):
    """A strategy for the value of the parameter called ``name``."""
    datasets = [base / "good", base / "broken", base / "unfinished", base / "afile", base / "notdataset",
                base / "garbage-manifest", base / "missing"] + [base / f"kind-{kind}" for kind in KINDS]
    outs = [base / "out" / "new", base / "out" / "again", base / "afile", base / "afile" / "sub",
            base / "notdataset", Path("")]
    table = {
        # the one game whose kernel the test suite compiles anyway (others are unknown names here:
        # compiling every game's kernel in this process would dominate the test's time)
        "game": st.one_of(st.sampled_from(["companeros", "chess", "", "Companeros"]), small_int, junk),
        "players": st.integers(-1, 8).map(str),
        "games": st.one_of(st.integers(-5, 300).map(str), st.sampled_from(["1e3", "many", "", "-0"])),
        "seed": st.one_of(st.integers(-3, 2**64 + 3).map(str), st.sampled_from(["x", "1.5"])),
        "strategy": st.one_of(st.sampled_from(_names()), junk),
        "rule": st.one_of(st.sampled_from(_rules()), junk),
        "workers": st.integers(-1, 2).map(str),
        "chunk_size": st.integers(-1, 400).map(str),
        "repeats": st.integers(-1, 2).map(str),
        "rating_sample": st.integers(-1, 300).map(str),
        "alpha": st.sampled_from(["0.05", "0", "1", "-1", "nan", "x"]),
        "margin": st.sampled_from(["0.02", "0", "1", "2", "inf", "x"]),
        "format": st.one_of(st.sampled_from(["text", "json", "html", "md", "xml"]), junk),
        "scheduler": st.sampled_from(["", "tcp://", "http://h:1", "tcp://h:0", "tcp://h:70000", "a b",
                                      "tcp://[::1", "local:", "udp://h:1"]),
        "directory": st.sampled_from([str(d) for d in datasets]),
        "directories": st.sampled_from([str(d) for d in datasets]),
        "trace_file": st.sampled_from([str(d) for d in datasets]),
        "position_file": st.sampled_from([str(d) for d in datasets]),
        "seating": st.sampled_from(["0", "1", "11", "12", "-1", "greedy-greedy-random", "v1/greedy-random-random",
                                    "x"]),
        "out": st.one_of(st.sampled_from([str(o) for o in outs]),
                         st.sampled_from(["r.html", "r.md", "r.txt", "nodir/r.html"]).map(lambda n: str(base / n))),
        # study: never the search level (its games are slow), budgets short or invalid
        "levels": st.sampled_from(["random", "heuristic", "random,heuristic", "expert", "", ",", "random,expert"]),
        "budget": st.one_of(st.sampled_from(["quick", "huge", "", "QUICK"]), junk),
        "report": st.sampled_from([str(base / n) for n in ["r.html", "r.md", "r.txt", "nodir/r.html"]]),
        # design: what to vary, short searches
        "vary": st.one_of(st.sampled_from(["rule", "rule:match_games", "deck", "deck.values", "deck.values[3]",
                                           "deal.hand", "rule:x", "nothing", "deck.values[11]", ""]), junk),
        "fix": st.sampled_from(["rule", "deck", "deal", "deck.values[3]", "x"]),
        "objective": st.sampled_from(["balance", "skill", "length", "decisiveness", "draws", "disruption", "x"]),
        "target": st.one_of(st.sampled_from(["skill>=75%", "value", "choice", "length=10%", "draws<=0.05", "balance>=0.9", "none",
                                             "balance>=1.5", "skill>=-5%", "x>=1", "length=0%"]), junk),
        "sampler": st.sampled_from(["tpe", "nsga2", "cmaes", ""]),
        "trials": st.integers(-1, 4).map(str),
        "max_changes": st.integers(-1, 3).map(str),
        "designs": st.integers(-1, 2).map(str),
        "deals": st.integers(-1, 60).map(str),
        "skill_deals": st.integers(-1, 30).map(str),
        "confirm_deals": st.integers(-1, 60).map(str),
        "search_deals": st.integers(-1, 6).map(str),
        # train: one short round, valid or invalid
        "rounds": st.integers(-1, 2).map(str),
        "positions": st.integers(-1, 40).map(str),
        "label_iterations": st.integers(-1, 12).map(str),
        "eval_deals": st.integers(-1, 20).map(str),
        "sample": st.sampled_from(["0.3", "0", "1", "1.5", "-0.1", "nan", "x"]),
        "explore": st.sampled_from(["0.1", "0", "1", "2", "x"]),
        "l2": st.sampled_from(["0.01", "0", "-1", "inf", "x"]),
        "value_l2": st.sampled_from(["1e-5", "0", "-1", "nan", "x"]),
        "start": st.sampled_from(["shipped", "heuristic", "", "x"]),
        "against": st.sampled_from(_names()),
        "heuristic": st.sampled_from(_names()),
        "weaker": st.sampled_from(_names()),
        "search": st.sampled_from(_names()),
    }
    return table.get(name, st.one_of(small_int, junk))


@st.composite
def command_line(draw, base):
    name = draw(st.sampled_from(sorted(COMMAND.commands)))
    cmd = COMMAND.commands[name]
    args = [name]
    positional = [p for p in cmd.params if not p.opts[0].startswith("-")]
    options = [p for p in cmd.params if p.opts[0].startswith("-")]
    for p in positional:
        if draw(st.integers(0, 9)) > 0:  # now and then missing
            n = 1 if p.nargs == 1 else draw(st.integers(1, 2))
            args += [draw(values(p.name, base)) for _ in range(n)]
    for p in options:  # defaults that would run long (100,000 games, 3 repeats) are bounded first
        if p.name in ("games", "repeats"):
            args += [p.opts[0], str(draw(st.integers(1, 300 if p.name == "games" else 2)))]
    if name == "study":  # a standard study of every player count and level takes minutes: the
        # smallest one first (later options may add player counts or change the rest)
        args += ["--budget", "quick", "--levels", "random", "--players", "3"]
    if name == "design":  # likewise: a few short trials
        args += SMALL_DESIGN
    if name == "train":  # likewise: one short round (the default labels 30,000 decisions)
        args += SMALL_TRAIN
    for p in draw(st.lists(st.sampled_from(options), max_size=7)) if options else []:
        flag = draw(st.sampled_from(list(p.opts) + list(p.secondary_opts or [])))
        if getattr(p, "is_flag", False):
            args.append(flag)
        else:
            args += [flag, draw(values(p.name, base))]
    if draw(st.integers(0, 9)) == 0:  # an unknown option or a stray word somewhere
        extra = draw(st.one_of(st.sampled_from(["--bogus", "-x", "--", "--help", "--games"]), junk))
        args.insert(draw(st.integers(0, len(args))), extra)
    return args


@settings(max_examples=int(os.environ.get("TOURNEY_FUZZ_EXAMPLES", "100")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          derandomize=bool(os.environ.get("CI")))  # CI: the same examples every run
@given(data=st.data())
def test_no_argument_list_gives_a_traceback(scratch, data):
    args = data.draw(command_line(scratch), label="argv")
    cwd = os.getcwd()
    work = tempfile.mkdtemp(dir=scratch)
    os.chdir(work)  # default outputs (runs/...) land in the scratch directory
    try:
        r = runner.invoke(app, args)
    finally:
        os.chdir(cwd)
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(scratch / "out", ignore_errors=True)
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception), r.output)
    assert r.exit_code in (0, 1, 2), (args, r.exit_code, r.output)
    assert "Traceback" not in r.output, (args, r.output)


# ----------------------------------------------------------------------------- every command, every kind
def taking_a_path() -> set[str]:
    """The commands whose arguments include a path (a directory, or a file made from one)."""
    import typing
    found = set()
    for name, cmd in COMMAND.commands.items():
        hints = typing.get_type_hints(cmd.callback)
        for p in cmd.params:
            if not p.opts[0].startswith("-") and Path in (hints[p.name], *typing.get_args(hints[p.name])):
                found.add(name)
    return found


#: what each directory command does with each kind: exit 0 and a text it prints, or exit 2 and
#: the one line saying what to give instead
EXPECTED = {
    "summary": {"run": (0, "by strategy"), "tournament": (0, "600 games, 100 deals, 6 dataset(s)"),
                "sweep": (0, "1,200 games, 200 deals, 12 dataset(s)"), "tune": (0, "tuned greedy"),
                "study": (0, "verdict\n  3 players: "), "design": (0, "confirmed on fresh deals")},
    "replay": {"run": (0, "game 3 of seed 0"),
               "tournament": (2, "error: {tournament} is a tournament of 6 seatings: give --seating K (0 to 5) or "
                                 "a seating's directory (e.g. greedy-greedy-random)"),
               "sweep": (2, "error: {sweep} is a sweep of 12 seatings: give --seating K (0 to 11)"),
               "tune": (2, "error: {tune} is a tuning run; its datasets are in its sub-directories (e.g. "
                           "{tune}/confirmation/"),
               "study": (2, "error: {study} is a study; its datasets are in its sub-directories"),
               "design": (2, "error: {design} is a design run; its datasets are in its sub-directories")},
    "verify": {kind: (0, "ok: {%s} is complete and sound" % kind) for kind in KINDS},
    "report": {"run": (0, "200 games, 200 deals, 1 dataset(s)"), "tournament": (0, "6 dataset(s)"),
               "sweep": (0, "12 dataset(s)"), "tune": (0, "tuned greedy"), "study": (0, "findings among"),
               "design": (0, "confirmed on fresh deals")},
    "check": {kind: (2, "error: {%s} is a %s directory; this takes a trace file: write a game's trace with "
                        "`tourney replay DATASET --game N --format json > game.json`"
                     % (kind, NAME.get(kind, kind))) for kind in KINDS},
    "position": {kind: (2, "error: {%s} is a %s directory; this takes a position file"
                        % (kind, NAME.get(kind, kind))) for kind in KINDS},
    "play-design": {kind: (2, "error: {%s} is a %s directory; this takes a design's folder: one of a design run's "
                              "designs/<rank>-<name>/ folders" % (kind, NAME.get(kind, kind))) for kind in KINDS},
}


def test_every_directory_command_is_covered():
    assert taking_a_path() == set(EXPECTED)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", sorted(EXPECTED))
def test_every_directory_command_knows_every_kind(kinds, command, kind):
    path = kinds[kind]
    args = {"replay": [command, path, "--game", 3], "position": [command, "companeros", path]}.get(command,
                                                                                                  [command, path])
    r = runner.invoke(app, [str(a) for a in args])
    code, text = EXPECTED[command][kind]
    text = text.format(**{k: str(p) for k, p in kinds.items()})
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception), r.output)
    assert r.exit_code == code, (args, r.output)
    if code == 2:
        assert len(r.output.strip().splitlines()) == 1 and r.output.startswith(text), r.output
    else:
        assert text in r.output, r.output


@pytest.mark.parametrize("kind, seating", [("tournament", "1"), ("tournament", "greedy-random-random"),
                                           ("sweep", "11"), ("sweep", "v1/greedy-random-random")])
def test_replay_a_game_of_a_tournament_seating(kinds, kind, seating):
    r = runner.invoke(app, ["replay", str(kinds[kind]), "--seating", seating, "--game", "3"])
    assert r.exit_code == 0 and "replayed result matches the dataset" in r.output, r.output
    r = runner.invoke(app, ["replay", str(kinds[kind]), "--seating", "12", "--game", "3"])
    assert r.exit_code == 2 and "no seating '12': give --seating K" in r.output, r.output
    r = runner.invoke(app, ["replay", str(kinds["run"]), "--seating", seating, "--game", "3"])
    assert r.output.startswith(f"error: --seating picks a seating of a tournament or sweep; {kinds['run']} is a "
                               f"dataset"), r.output


def test_report_of_a_study_is_the_studys_own_report(kinds, tmp_path):
    study = kinds["study"]
    r = runner.invoke(app, ["report", str(study), "--out", str(tmp_path / "r.html")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "r.html").read_bytes() == (study / "report.html").read_bytes()
    assert r.output.startswith("Compañeros: ") and "findings among" in r.output
    r = runner.invoke(app, ["report", str(study), str(kinds["run"])])
    assert r.exit_code == 2 and r.output.strip() == (f"error: {study} is a study: report it on its own "
                                                     f"(`tourney report {study}`)")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("flag", ["--resume", "--overwrite"])
def test_a_job_of_another_kind_is_neither_resumed_nor_replaced(kinds, kind, flag):
    maker = {"run": "tournament", "tournament": "run", "sweep": "study", "tune": "run", "study": "tune",
             "design": "run"}[kind]
    args = {"run": ["run", "companeros", "--games", 10], "study": ["study", "companeros", "--budget", "quick"],
            "tournament": ["tournament", "companeros", "--strategy", "greedy", "--strategy", "random"],
            "tune": ["tune", "companeros", "--strategy", "greedy", "--against", "random"]}[maker]
    before = sorted(p.name for p in kinds[kind].iterdir())
    r = runner.invoke(app, [str(a) for a in args] + ["--out", str(kinds[kind]), flag, "--quiet"])
    name = NAME.get(kind, kind)
    wanted = {"run": "dataset", "tournament": "tournament", "study": "study", "tune": "tuning run"}[maker]
    doing = "cannot resume" if flag == "--resume" else "refusing to overwrite"
    assert r.exit_code == 2 and r.output.strip() == (
        f"error: {doing} {kinds[kind]}: it is a {name}, not a {wanted} (give another --out, or the command "
        f"that made it with --resume or --overwrite)"), r.output
    assert sorted(p.name for p in kinds[kind].iterdir()) == before
