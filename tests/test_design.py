"""``tourney design`` end to end (issue 32), on imbalances whose fix is known, at small budgets.

Cardavia is the test game: a deal costs ~0.05 ms at the heuristic level and its imbalances are
large (Partners, Colleagues at 2 players and Compañeros could not be broken clearly by any single
component change at 2,000 deals: the largest, Partners' ``effects.split[7]=0``, moved the teams
6 pp). Measured with ``/tmp`` probes of ``tourney_sim.api.run`` (balance = 1 - the gap between the
teams' win rates; gains paired on the same deals with ``reports.stats.balance_gain_interval``, 97.5%):

- today's game, everyone ``guard-tuned``, 2,000 deals of seed 7: the team that plays last wins 73%,
  balance 0.56; a match of two deals (``match_deals=2``: each team plays last once) 1.00, gained
  +0.44 [+0.33, +0.49]. Under ``ismcts`` (140 iterations, 34 ms a deal, 800 deals of seed 11)
  0.54 -> 0.98, +0.45 [+0.30, +0.54], shown from 200 deals; under ``ismcts:iterations=20`` (7 ms a
  deal, 23 ms a match of two) 0.64 -> 0.99, +0.35 [+0.20, +0.45], shown from 300 deals. The test
  confirms on 1,200 search deals (today's 1,200 single deals, 600 matches of two, paired on the
  first 600; seed 2, 95%: one design): +0.22 [+0.03, +0.35] (these deals favour today's game:
  0.70 under search play).
- La Mata's prize (``prizes.mata``, 1 shipped) planted at 0: balance 0.55; raised to 3 it gains
  +0.06 [+0.02, +0.10], to 5 +0.15 [+0.10, +0.20], to 9 +0.33 [+0.26, +0.39] (a big prize for a
  card the first team takes as often as the last evens the teams out); under
  ``ismcts:iterations=20`` 9 gains +0.25 [+0.13, +0.37] (800 deals). Against ``capture-max`` (the
  default weaker strategy) the prize costs skill (the heuristic's edge 0.61 at 0, 0.48 at 6, 0.37
  at 9: the default target, 75% of today's, rules out 7 and more), so the test measures skill
  against ``random`` and is about the prize alone.
- ``napula_beyond_10``, ``last_sweep_scores`` and ``single_match_forced`` (rule options) change
  no deal's winner or almost none, or as many one way as the other: +0.000 [-0.007, +0.007],
  +0.001 [-0.006, +0.007], +0.000 [-0.025, +0.026]: a space with no fix.
"""
import contextlib
import json
from pathlib import Path

import pytest

from tourney_sim import api
from tourney_sim.reports.analysis import balance_of, unit_deal_rates
from tourney_sim.reports.load import load
from tourney_sim.simulate.games import get_game

GAME = "cardavia"
HEURISTIC = "guard-tuned"
#: the search player of the confirmation: ismcts at a seventh of its default iterations (7 ms a deal
#: instead of 34): still a search, and it shows the last team's edge and its fixes as the full one
SEARCH = "ismcts:iterations=20"
#: small budgets: the search on a few hundred heuristic deals per trial, the confirmation on fresh ones
SMALL = dict(budget="quick", deals=800, skill_deals=200, confirm_deals=2000, workers=1, progress=False,
             heuristic=HEURISTIC, search=SEARCH)


def design_json(out: Path) -> dict:
    return json.loads((out / "design.json").read_text())


def manifest(out: Path) -> dict:
    return json.loads((out / "_design.json").read_text())


def recommended(out: Path) -> dict | None:
    """The recommended design's entry of design.json, or None."""
    d = design_json(out)
    if d["recommended"] is None:
        return None
    return next(x for x in d["designs"] if x["recommended"])


def play(out: Path, folder: str, games: int, seed: int) -> tuple[dict, float]:
    """Play a designs/ folder as its README says: from the design run's directory, its rules.txt
    as --rule values, everyone the heuristic; returns the dataset's options and its balance."""
    rules = [line.strip() for line in (out / folder / "rules.txt").read_text().splitlines() if line.strip()]
    with contextlib.chdir(out):  # rules.txt names the components file relative to the design run
        run = api.run(GAME, [HEURISTIC], games=games, seed=seed, rules=rules, out=out.parent / f"play-{seed}",
                      workers=1)
    cfg = load([run.path])[0]
    _, wins, tables = unit_deal_rates(cfg)
    return run.manifest["options"], float(balance_of(wins.sum(axis=0) / tables.sum(), 1.0))


# ----------------------------------------------------------------------------- found and confirmed
@pytest.fixture(scope="module")
def match_length(tmp_path_factory):
    """Today's Cardavia, the match length searched."""
    out = tmp_path_factory.mktemp("design") / "match"
    result = api.design(GAME, out=out, vary=["rule:match_deals"], trials=6, designs=1, search_deals=1200,
                        seed=1, **SMALL)
    return out, result


@pytest.mark.slow
def test_a_match_of_two_deals_is_found_and_confirmed(match_length):
    out, result = match_length
    best = recommended(out)
    assert best is not None, design_json(out)["verdict"]
    assert {address: str(v) for address, v in best["changes"].items()} == {"rule:match_deals": "2"}, best
    assert best["gain_search"]["low"] > 0 and best["gain_heuristic"]["low"] > 0
    assert best["search"]["balance"] > 0.9 > 0.8 > design_json(out)["today"]["search"]["balance"]
    assert "match_deals" in result.summary.text and "match_deals=2" in (out / "report.md").read_text()
    m = manifest(out)
    assert m["status"] == "complete" and m["history"][0]["changes"] == {}  # trial 0: today's game
    assert m["confirmed"][0]["trial"] == "today" and best["trial"] in m["front"]
    for name in ("report.html", "report.md"):
        assert (out / name).stat().st_size > 0


@pytest.mark.slow
def test_rule_option_values_are_recorded_as_text(match_length):
    """INTERFACE32: a candidate's values are "rule options as their text ("true", "4", "shield"),
    components as ints", in the manifest's history and in design.json alike."""
    out, _ = match_length
    changes = [h["changes"] for h in manifest(out)["history"]] + [x["changes"] for x in design_json(out)["designs"]]
    values = [(a, v) for c in changes for a, v in c.items()]
    assert values and all(isinstance(v, str) for a, v in values if a.startswith("rule:")), values


@pytest.mark.slow
def test_the_recommended_folder_plays_the_fix(match_length):
    out, _ = match_length
    best = recommended(out)
    folder = out / best["folder"]
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "components.toml", "rules.txt"]
    assert "match_deals=2" in (folder / "rules.txt").read_text().split()
    spec = get_game(GAME)
    assert spec.components.load(str(folder / "components.toml")) == spec.components.defaults
    options, balance = play(out, best["folder"], games=2000, seed=99)
    assert options["match_deals"] == 2 and options["components"] == spec.components.defaults
    assert balance > 0.9  # today's game: about 0.56


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """Cardavia with La Mata's prize planted at 0; its prize and a rule option without effect searched."""
    out = tmp_path_factory.mktemp("design") / "planted"
    result = api.design(GAME, out=out, components=["prizes.mata=0"], vary=["prizes.mata", "rule:napula_beyond_10"],
                        max_changes=1, trials=8, designs=2, search_deals=400, weaker="random", seed=2,
                        **SMALL)
    return out, result


@pytest.mark.slow
def test_a_planted_prize_is_found_and_confirmed(planted):
    out, _ = planted
    m = manifest(out)
    assert m["baseline"]["components"]["prizes"]["mata"] == 0 and "prizes.mata=0" in m["baseline"]["label"]
    best = recommended(out)
    assert best is not None, design_json(out)["verdict"]
    assert set(best["changes"]) == {"prizes.mata"} and int(best["changes"]["prizes.mata"]) >= 5, best
    assert best["gain_search"]["low"] > 0 and best["gain_heuristic"]["low"] > 0
    folder = out / best["folder"]
    spec = get_game(GAME)
    table = spec.components.load(str(folder / "components.toml"))
    assert table == spec.components.set(spec.components.defaults, [f"prizes.mata={best['changes']['prizes.mata']}"])
    options, balance = play(out, best["folder"], games=2000, seed=98)
    assert options["components"]["prizes"]["mata"] == int(best["changes"]["prizes.mata"])
    assert balance > 0.65  # the planted game: 0.55


# ----------------------------------------------------------------------------- no fix
@pytest.fixture(scope="module")
def no_fix(tmp_path_factory):
    """Three rule options that change (almost) no deal's winner: nothing can fix Cardavia there, but
    on the search's 400 deals ``single_match_forced=true`` looks fairer by chance (0.603 against
    0.585) and is confirmed; the fresh deals show it is not."""
    out = tmp_path_factory.mktemp("design") / "nofix"
    result = api.design(GAME, out=out, **{**SMALL, "deals": 400, "skill_deals": 100},
                        vary=["rule:napula_beyond_10", "rule:last_sweep_scores", "rule:single_match_forced"],
                        trials=6, designs=2, search_deals=60, seed=4)
    return out, result


def test_a_space_without_a_fix_says_so_and_recommends_nothing(no_fix):
    out, result = no_fix
    d = design_json(out)
    assert d["recommended"] is None and not any(x["recommended"] for x in d["designs"])
    assert "no fix found" in d["verdict"].lower()
    assert "no fix found" in result.summary.text.lower() and "ready to play" not in result.summary.text
    assert "no fix found" in (out / "report.md").read_text().lower()
    assert d["designs"], "the test needs a design confirmed (one that looked fairer on the search's deals)"
    for x in d["designs"]:  # each confirmed design: its gain does not hold on the fresh deals
        assert not (x["gain_heuristic"]["low"] > 0 and x["gain_search"]["low"] > 0), x
        assert x["label"] in result.summary.text  # the summary says why, design by design


# ----------------------------------------------------------------------------- reproducibility
@pytest.mark.slow
@pytest.mark.parametrize("sampler", ["nsga2", "tpe"])
def test_the_same_command_gives_the_same_design_whatever_the_workers(tmp_path, sampler):
    """The same request and seed, on one worker and on two (other chunkings of every dataset), gives
    the same trials, front, confirmation and report; NSGA-II too."""
    reports = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        api.design(GAME, out=out, vary=["rule", "prizes"], max_changes=2, trials=10, sampler=sampler, seed=3,
                   search_deals=40, designs=1, **{**SMALL, "deals": 400, "skill_deals": 100, "confirm_deals": 400,
                                                  "workers": workers})
        m = manifest(out)
        reports.append(([(h["changes"], h["state"], h["objectives"]) for h in m["history"]], m["front"],
                        [c["label"] for c in m["confirmed"]],
                        (out / "report.md").read_text().replace(str(out), "OUT")))
    assert reports[0] == reports[1]
    history = reports[0][0]
    assert len(history) == 10 and len({str(c) for c, _, _ in history}) > 5  # the sampler explored
