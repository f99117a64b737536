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


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz")
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
                base / "garbage-manifest", base / "missing"]
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
        "out": st.one_of(st.sampled_from([str(o) for o in outs]),
                         st.sampled_from(["r.html", "r.md", "r.txt", "nodir/r.html"]).map(lambda n: str(base / n))),
        # study: never the search level (its games are slow), budgets short or invalid
        "levels": st.sampled_from(["random", "heuristic", "random,heuristic", "expert", "", ",", "random,expert"]),
        "budget": st.one_of(st.sampled_from(["quick", "huge", "", "QUICK"]), junk),
        "report": st.sampled_from([str(base / n) for n in ["r.html", "r.md", "r.txt", "nodir/r.html"]]),
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
