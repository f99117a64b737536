"""``tourney design`` on the command line (issue 32): every bad input is one ``error:`` line on
stderr, exit 2, and nothing written (not even the output directory); a design SIGKILLed in the
middle of its search and resumed with ``--resume`` ends with the report an uninterrupted run writes."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

#: a design that would be cheap if it ever started (it must not: each case below is refused first)
SMALL = ["--trials", 2, "--deals", 40, "--skill-deals", 20, "--designs", 1, "--confirm-deals", 40,
         "--search-deals", 4, "--workers", 1, "--quiet"]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("args, says", [
    # unknown addresses in --vary / --fix: a rule option, a component group, a key, an entry
    (["cardavia", "--vary", "rule:no_such_rule"], "no_such_rule"),
    (["cardavia", "--vary", "treasure"], "treasure"),
    (["cardavia", "--vary", "prizes.no_such_prize"], "no_such_prize"),
    (["cardavia", "--fix", "bonuses.nope"], "bonuses.nope"),
    (["partners", "--vary", "deck.counts[Joker]"], "Joker"),
    (["colleagues", "--players", 3, "--vary", "work.values[16]"], "16"),
    # a rule option that matters only at another player count (CL-11: the Grey Entity sits only at 2)
    (["colleagues", "--players", 4, "--vary", "rule:grey_dismissal"],
     "--vary rule:grey_dismissal: it matters only at 2 players, not at 4: design it with --players 2"),
    # the starting game: a value outside what the game allows
    (["cardavia", "--component", "prizes.mata=999"], "999"),
    (["cardavia", "--component", "prizes.nope=1"], "prizes.nope"),
    (["cardavia", "--rule", "match_deals=99"], "99"),
    (["cardavia", "--rule", "no_such_rule=1"], "no_such_rule"),
    # --vary and --fix: the same address, or nothing left to vary
    (["cardavia", "--vary", "rule:match_deals", "--fix", "rule:match_deals"], "rule:match_deals"),
    (["cardavia", "--vary", "prizes.mata", "--fix", "prizes"], "nothing"),
    (["cardavia", "--fix", "rule", "--fix", "bonuses", "--fix", "prizes", "--fix", "napula", "--fix",
      "compensation"], "nothing"),
    # impossible or unknown targets
    (["cardavia", "--target", "balance>=1.5"], "1.5"),
    (["cardavia", "--target", "skill>=-10%"], "-10"),
    (["cardavia", "--target", "fun>=0.5"], "fun"),
    (["cardavia", "--target", "balance"], "balance"),
    (["cardavia", "--target", "length=10pp"], "length is not a share, so it has no percentage points"),
    (["cardavia", "--target", "draws<=2pp"], "points take '=' (within ±X pp of today's game)"),
    (["cardavia", "--target", "draws=0pp"], "the points must be positive"),
    (["cardavia", "--target", "draws=100pp"], "a share moves at most 100 points, so this always holds"),
    (["cardavia", "--target", "draws=1.2.3pp"], "--target expects"),
    # the rest of the options
    (["cardavia", "--max-changes", 0], "max-changes"),
    (["cardavia", "--players", 3], "3"),
    (["colleagues", "--players", 6], "6"),
    (["cardavia", "--objective", "fun"], "fun"),
    (["cardavia", "--sampler", "annealing"], "annealing"),
    (["cardavia", "--budget", "huge"], "huge"),
    (["cardavia", "--trials", 0], "--trials"),
    # the largest counts: refused before anything is written (a run of them would outgrow memory)
    (["cardavia", "--deals", 10**11], "--deals must be from 8 to 2,000,000"),
    (["cardavia", "--search-deals", 3_000_000], "--search-deals"),
    (["cardavia", "--trials", 10**11], "--trials"),
    (["cardavia", "--max-changes", 10**6], "--max-changes must be from 1 to 50"),
    (["cardavia", "--designs", 100], "--designs"),
    (["cardavia", "--seed", 3, "--confirm-seed", 3], "--confirm-seed"),
    (["cardavia", "--heuristic", "guard", "--weaker", "guard"], "guard"),
    (["cardavia", "--search", "nobody"], "nobody"),
    # what the game keeps out of the design search: a card's kind of effect, the components file
    (["partners", "--vary", "effects.start"], "effects.start"),
    (["cardavia", "--vary", "rule:components"], "components"),
    (["no_such_game"], "no_such_game"),
])
def test_bad_input_is_one_error_line_exit_2_and_nothing_written(tmp_path, args, says):
    out = tmp_path / "design"
    r = invoke("design", *SMALL, *args, "--out", out)  # args last: a repeated option's last value counts
    lines = r.stderr.strip().splitlines()
    assert r.exit_code == 2, r.output
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], r.stderr
    assert "Traceback" not in r.output and r.stdout == ""
    assert not out.exists()  # nothing written: not even the directory
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game, flag, address", [
    ("cardavia", "--vary", "prizes.no_such_prize"), ("cardavia", "--fix", "bonuses.nope"),
    ("partners", "--vary", "deck.counts[Joker]"), ("colleagues", "--vary", "work.values[16]"),
    ("cardavia", "--vary", "rule:no_such_rule"), ("cardavia", "--fix", "treasure"),
])
def test_an_unknown_address_is_blamed_on_the_option_that_gave_it(tmp_path, game, flag, address):
    """The error names --vary or --fix (the option the user typed), not --component."""
    r = invoke("design", *SMALL, game, flag, address, "--out", tmp_path / "design")
    assert r.exit_code == 2 and r.stderr.startswith(f"error: {flag} {address}"), r.stderr


# ----------------------------------------------------------------------------- resume after SIGKILL
#: Cardavia's prizes and bonuses searched: ~0.3 s a trial, so the search can be killed in its
#: middle; single deals only, so the confirmation under (cheap) search play is a few seconds. (A
#: long match confirmed under ismcts costs quadratically: its play-outs run to the match's end.)
RESUMABLE = ["design", "cardavia", "--vary", "prizes", "--vary", "bonuses", "--max-changes", 2, "--trials", 12,
             "--deals", 4000, "--skill-deals", 400, "--designs", 2, "--confirm-deals", 1000, "--search-deals", 40,
             "--search", "ismcts:iterations=20", "--strong-labels", 20, "--strong-deals", 400, "--seed", 5, "--workers", 1,
             "--quiet"]


def design(out, *extra):
    """`python -m tourney_sim design ...` in its own process group (a kill takes anything it started)."""
    return subprocess.Popen([sys.executable, "-m", "tourney_sim", *map(str, RESUMABLE), "--out", str(out), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def manifest(out: Path) -> dict:
    return json.loads((out / "_design.json").read_text())


def same_apart_from_the_directory(a: Path, b: Path, name: str) -> tuple[str, str]:
    """A file of each run with its own output directory's path written OUT: the only thing two runs
    of the same design may write differently there (the report quotes the command, --out included)."""
    def apart(run):  # the command quotes --out relative to where it ran (ROOT)
        return (run / name).read_text().replace(os.path.relpath(run, ROOT), "OUT").replace(str(run), "OUT")
    return apart(a), apart(b)


@pytest.mark.slow
def test_sigkill_in_the_middle_of_the_search_then_resume_gives_the_same_report(tmp_path):
    ref, out = tmp_path / "ref", tmp_path / "killed"
    p = design(ref)
    stdout, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    trials = len(manifest(ref)["history"])
    assert trials == 12

    p = design(out)
    try:  # killed once trials 0-2 are in the journal (trial 3's directory is made when it starts)
        while p.poll() is None and not (out / "trials" / "3").exists():
            time.sleep(0.01)
        assert p.poll() is None, "the design ended before it could be killed in its search"
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        p.communicate()
    started = len(list((out / "trials").iterdir()))
    assert started < trials and manifest(out)["status"] == "running", f"killed with {started} of {trials} trials"
    assert not (out / "design.json").exists() and not (out / "confirm").exists()

    p = design(out, "--resume")
    stdout_resumed, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    done, reference = manifest(out), manifest(ref)
    assert done["status"] == "complete" and done["resumed"]
    for key in ("history", "front", "confirmed"):  # the search and its confirmation: the same, trial by trial
        assert done[key] == reference[key], key
    a, b = same_apart_from_the_directory(out, ref, "design.json")
    assert json.loads(a) == json.loads(b)
    a, b = same_apart_from_the_directory(out, ref, "report.md")  # it gives no wall times: compared whole
    assert a == b
    assert stdout_resumed.replace(str(out), "OUT") == stdout.replace(str(ref), "OUT")  # the summary
    files = sorted(str(f.relative_to(ref)) for f in (ref / "designs").rglob("*") if f.is_file())
    assert files and files == sorted(str(f.relative_to(out)) for f in (out / "designs").rglob("*") if f.is_file())
    for name in files:
        a, b = same_apart_from_the_directory(out, ref, name)
        assert a == b, name


def test_the_search_space_holds_the_rule_options_that_matter_at_the_player_count():
    """grey_dismissal (CL-11) changes nothing without the Grey Entity, which sits only at 2 players:
    at 4 players it is not in the space (it would only play duplicate trials), at 2 it is."""
    from tourney_sim.simulate import design
    from tourney_sim.simulate.games import get_game
    options = get_game("colleagues").resolve_options([])
    at = {p: {d.address for d in design.select("colleagues", design.dimensions("colleagues", options, p), [], [], p)}
          for p in (2, 4)}
    assert "rule:grey_dismissal" in at[2] and "rule:grey_dismissal" not in at[4]
    assert at[2] - at[4] == {"rule:grey_dismissal"}
