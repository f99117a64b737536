"""``tourney design`` end to end (issue 32), on imbalances whose fix is known, at small budgets.

Cardavia is the test game: a deal costs ~0.05 ms at the heuristic level and its imbalances are
large (Partners, Colleagues at 2 players and Compañeros could not be broken clearly by any single
component change at 2,000 deals: the largest, Partners' ``effects.split[7]=0``, moved the teams
6 pp). Measured with ``/tmp`` probes of ``tourney_sim.api.run`` (balance = 1 - the gap between the
teams' win rates; gains paired on the same deals with ``simulate.stats.intervals.balance_gain_interval``, 97.5%):

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
import copy
import html
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from tourney_sim import api
from tourney_sim.simulate.stats.analysis import balance_of, common_deals, unit_deal_rates
from tourney_sim.simulate.stats.load import load
from tourney_sim.simulate import design as design_module
from tourney_sim.simulate.design import RECHECK_GAMES
from tourney_sim.simulate.games import get_game

GAME = "cardavia"
HEURISTIC = "guard-tuned"
#: the search player of the confirmation: ismcts at a seventh of its default iterations (7 ms a deal
#: instead of 34): still a search, and it shows the last team's edge and its fixes as the full one
SEARCH = "ismcts:iterations=20"
#: small budgets: the search on a few hundred heuristic deals per trial, the confirmation on fresh ones
SMALL = dict(budget="quick", deals=800, skill_deals=200, confirm_deals=2000, workers=1, progress=False,
             heuristic=HEURISTIC, search=SEARCH, strong_labels=40, strong_deals=800)


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
#: today's Cardavia, the match length searched (a resume gives these again)
MATCH_LENGTH = dict(vary=["rule:match_deals"], trials=6, designs=1, search_deals=1200, seed=1, **SMALL)


@pytest.fixture(scope="module")
def match_length(tmp_path_factory):
    """Today's Cardavia, the match length searched."""
    out = tmp_path_factory.mktemp("design") / "match"
    result = api.design(GAME, out=out, **MATCH_LENGTH)
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
    # the team at fault (the second team: seat 0 always plays first), its own paired contrast at each
    # level: it loses most of its edge, and the interval is tighter than the balance figure's gain
    for level, gain in (("heuristic", best["gain_heuristic"]), ("search", best["gain_search"])):
        fault = best["at_fault"][level]
        assert fault["unit"].startswith("team 1") and fault["before"] > 0.1 > abs(fault["after"]), fault
        assert fault["high"] < 0 and fault["high"] - fault["low"] < gain["high"] - gain["low"], (fault, gain)
    assert "team 1 (seats 1, 3)'s edge over the average" in result.summary.text


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
    """Cardavia with La Mata's prize planted at 0; its prize and a rule option without effect searched,
    over every value the prize may hold (``wide``: the planted fix lies beyond a designer's two steps)."""
    out = tmp_path_factory.mktemp("design") / "planted"
    result = api.design(GAME, out=out, components=["prizes.mata=0"], vary=["prizes.mata", "rule:napula_beyond_10"],
                        max_changes=1, trials=8, designs=2, search_deals=400, weaker="random", seed=2, wide=True,
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
    result = api.design(GAME, out=out, **NO_FIX)
    return out, result


#: three rule options that change (almost) no deal's winner (a resume gives these again)
NO_FIX = dict(SMALL, deals=400, skill_deals=100, trials=6, designs=2, search_deals=60, seed=4,
              vary=["rule:napula_beyond_10", "rule:last_sweep_scores", "rule:single_match_forced"])


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


# ----------------------------------------------------------------------------- the re-check
def plant_disagreement(monkeypatch, rules: list[str], players: int = 4) -> dict:
    """Plant a disagreement between the kernel and the rules on one table: Cardavia's reference
    engine ends the games of the table ``rules`` (only) with other scores than the kernel. Returns
    how many games of that table it has followed so far."""
    spec = get_game(GAME)
    planted = spec.make_params(players, spec.resolve_options(rules))
    real = spec.reference.Game
    seen = {"games": 0}

    class Parting(real):
        def __init__(self, params, chance):
            super().__init__(params, chance)
            self.parts = bool(np.array_equal(np.asarray(params), planted))
            seen["games"] += self.parts

        def result(self):
            scores, ranks, extras = super().result()
            return ([s + 1 for s in scores] if self.parts else scores), ranks, extras

    monkeypatch.setattr(spec.reference, "Game", Parting)
    return seen


def forget_recheck(out: Path, trial) -> dict:
    """The design run's manifest with the re-check of the confirmed entry ``trial`` not recorded
    (as a run killed before it was done leaves it); returns the manifest as it was."""
    before = manifest(out)
    m = copy.deepcopy(before)
    entry = next(c for c in m["confirmed"] if c["trial"] == trial)
    entry["recheck"] = None
    (out / "_design.json").write_text(json.dumps(m, indent=1))
    return before


RECHECKED = (f"The first {RECHECK_GAMES} confirmation games (heuristic play) of each design and of today's game "
             f"were replayed through the readable reference engine (tourney replay) and passed tourney check.")
#: how a planted disagreement reads (:func:`plant_disagreement`: the first game already ends differently)
PARTED = "game 0: the kernel and the reference engine part: the game ends differently: kernel"


def test_recheck_replays_the_first_games_and_names_the_first_failure(tmp_path, monkeypatch):
    small = api.run(GAME, [HEURISTIC], games=5, seed=3, out=tmp_path / "five", workers=1).path
    assert design_module.recheck(small) == {"games": 5, "passed": 5, "failure": None}  # fewer games than asked
    assert design_module.recheck(small, games=2) == {"games": 2, "passed": 2, "failure": None}
    real = design_module.replay_trace

    def broken(directory, game_index):
        if game_index == 3:
            raise KeyError("seat")  # a bug of the replay: a failure of that game, not of the design run
        return real(directory, game_index)

    monkeypatch.setattr(design_module, "replay_trace", broken)
    assert design_module.recheck(small) == {"games": 5, "passed": 3, "failure": "game 3: KeyError: 'seat'"}
    monkeypatch.setattr(design_module, "replay_trace", lambda d, i: {**real(d, i), "matches_dataset": i != 1})
    got = design_module.recheck(small)
    assert got["passed"] == 1 and got["failure"].startswith("game 1: replayed, it ends differently"), got
    monkeypatch.undo()
    plant_disagreement(monkeypatch, [])
    got = design_module.recheck(small)
    assert got["passed"] == 0 and got["failure"].startswith(PARTED) and "\n" not in got["failure"], got
    assert len(got["failure"]) <= design_module.RECHECK_REASON
    unread = design_module.recheck(tmp_path / "none", root=tmp_path)["failure"]  # paths: relative to the run
    assert unread.startswith("cannot read the dataset: none ") and str(tmp_path) not in unread, unread


def test_every_confirmed_design_is_rechecked_and_the_report_says_so(no_fix):
    out, result = no_fix
    m = manifest(out)
    assert len(m["confirmed"]) >= 2  # today's game and the design(s)
    for c in m["confirmed"]:
        assert c["recheck"] == {"games": RECHECK_GAMES, "passed": RECHECK_GAMES, "failure": None}, c["label"]
    d = design_json(out)
    assert d["recheck"] == RECHECKED
    assert d["today"]["replays"] and all(x["replays"] and x["recheck"]["failure"] is None for x in d["designs"])
    md = (out / "report.md").read_text()
    assert md.index("## Confirmed designs") < md.index(RECHECKED) < md.index("### Every measure")
    assert html.escape(RECHECKED) in (out / "report.html").read_text()
    assert "do not replay" not in result.summary.text


def test_a_planted_disagreement_fails_its_design_only_and_the_run_completes(no_fix, tmp_path, monkeypatch):
    """One design's table planted so that the kernel and the reference engine part: resumed with
    every re-check recorded nothing is re-checked again; with that design's re-check not yet
    recorded, it is done, fails for that design alone, the verdict says why, the run completes."""
    there = tmp_path / "nofix"
    shutil.copytree(no_fix[0], there)
    before = manifest(there)
    target = before["confirmed"][1]
    spec = get_game(GAME)
    assert not np.array_equal(spec.make_params(4, spec.resolve_options(target["rules"])),
                              spec.make_params(4, spec.resolve_options([])))  # the plant hits that table alone
    seen = plant_disagreement(monkeypatch, target["rules"])
    api.design(GAME, out=there, resume=True, **NO_FIX)
    assert seen["games"] == 0  # recorded: not done again
    assert manifest(there)["confirmed"] == before["confirmed"] and design_json(there)["recheck"] == RECHECKED

    forget_recheck(there, target["trial"])
    result = api.design(GAME, out=there, resume=True, **NO_FIX)
    assert seen["games"] == 1  # the first game already parts: the re-check stops there
    m = manifest(there)
    assert m["status"] == "complete"
    for old, new in zip(before["confirmed"], m["confirmed"]):
        if new["trial"] != target["trial"]:
            assert new == old  # the others: still passed
    got = m["confirmed"][1]["recheck"]
    assert got["games"] == RECHECK_GAMES and got["passed"] == 0 and got["failure"].startswith(PARTED), got
    d = design_json(there)
    x = next(x for x in d["designs"] if x["trial"] == target["trial"])
    assert not x["replays"] and not x["recommended"] and x["recheck"] == got
    assert x["verdict"] == (f"its games do not replay through the reference engine ({got['failure']}); the kernel "
                            f"and the rules disagree on this table — please report it")
    md = (there / "report.md").read_text()
    assert f"those of {target['label']} did not ({got['failure']}), so it is not recommended" in md
    assert "games that do not replay through the reference engine" in result.summary.text
    readme = (there / x["folder"] / "README.md").read_text()
    assert "Not recommended: its games do not replay through the reference engine" in readme


def test_seat_compensation_is_confirmed_beside_the_designs_and_never_chosen_as_one():
    """Issue 42: a design changing only compensation levers is not one of the front's designs to
    confirm; the fairest such trial, when fairer than today's, is confirmed apart."""
    def trial(k, changes, balance, state="complete", feasible=True):
        return {"trial": k, "changes": changes, "measures": {"balance": balance}, "disruption": 1.0 + 0.1 * k,
                "state": state, "feasible": feasible}
    levers = {"compensation.points[team0]", "compensation.points[team1]"}
    history = [trial(0, {}, 0.60), trial(1, {"rule:match_deals": "2"}, 0.95),
               trial(2, {"compensation.points[team0]": 3}, 0.90), trial(3, {"compensation.points[team0]": 4}, 0.97),
               trial(4, {"compensation.points[team1]": 1}, 0.50),
               trial(5, {"compensation.points[team0]": 2, "rule:match_deals": "3"}, 0.93)]
    assert design_module.choose_confirmed(history, [1, 2, 3, 5], 3, levers) == [1, 5]
    assert design_module.best_compensation(history, levers) == 3
    assert design_module.best_compensation(history[:1] + history[4:5], levers) is None  # none fairer than today
    # the fairest, whether or not it meets the targets (its verdict says which it misses)
    missing = [dict(h, feasible=h["trial"] != 3) for h in history]
    assert design_module.best_compensation(missing, levers) == 3
    # the study tries the values the design tries, one lever at a time
    from tourney_sim.simulate.study import compensation_settings
    for game in ("cardavia", "colleagues", "companeros", "partners"):
        spec = get_game(game)
        for players in range(spec.min_players, spec.max_players + 1):
            dims = design_module.dimensions(game, spec.resolve_options([]), players)
            assert compensation_settings(game, players) == [f"{d.address}={v}" for d in dims if d.lever
                                                            for v in range(d.low, d.high + 1, d.step) if v != d.default]
    # every game declares its levers; the study's "What to change" names them (Partners: none)
    from tourney_sim.reports.study_report import compensation_levers
    assert [lever.split(":")[0] for lever in compensation_levers("cardavia")] == ["compensation.points"]
    assert compensation_levers("partners") == [] and compensation_levers("synthetic") == []
    assert {d.address for d in design_module.dimensions("colleagues", get_game("colleagues").resolve_options([]), 3)
            if d.lever} == {"compensation.points[seat0]", "compensation.points[seat1]", "compensation.points[seat2]"}


@pytest.mark.slow
def test_a_design_run_reports_the_seat_compensation_that_evens_the_teams(tmp_path):
    """Cardavia's team 1 edge, only the compensation searched: each lever value is tried alone,
    the best (points for team 0) is confirmed on fresh deals at every level, reported apart, with
    its own folder, and never recommended."""
    out = tmp_path / "komi"
    result = api.design(GAME, out=out, vary=["compensation"], trials=24, designs=1, seed=3,
                        **dict(SMALL, search_deals=100))
    m = manifest(out)
    tried = [h["changes"] for h in m["history"][1:11]]
    assert all(len(c) == 1 and next(iter(c)).startswith("compensation.points[") for c in tried)
    (lever,) = [c for c in m["confirmed"] if c.get("compensation")]
    assert set(lever["changes"]) == {"compensation.points[team0]"} and lever["changes"]["compensation.points[team0]"] > 0
    d = design_json(out)
    x = next(x for x in d["designs"] if x["trial"] == lever["trial"])
    assert not x["recommended"] and x["verdict"].startswith("seat compensation: ")
    assert x["gain_heuristic"]["low"] > 0 and x["at_fault"]["apprentice"]["change"] < 0
    assert "Seat compensation: compensation.points[team0] 0 → " in result.summary.text
    assert (out / x["folder"] / "components.toml").exists()


@pytest.mark.slow
def test_the_strong_level_plays_each_table_by_its_own_apprentice_until_its_gain_is_within_the_margin(match_length):
    """Issue 42: today's game by the weights shipped for it (the strong check's deals its first),
    each design by weights retrained on its table; looks at the planned deals, a design stopping
    at the first look whose interval is within the margin (else at the cap); the recommendation
    rests on the apprentice, its interval at the joint level over the designs and the looks."""
    out, result = match_length
    m, d = manifest(out), design_json(out)
    plan = m["strong"]
    today, *designs = m["confirmed"]
    assert today["apprentice"]["trained"] is None and today["dirs"]["strong"][0] == m["strong_check"]["dir"]
    level = 1 - 0.05 / (len(designs) * len(plan["looks"]))
    for c in designs:
        a = c["apprentice"]
        assert a["trained"] == f"confirm/{c['trial']}/apprentice" and (out / a["trained"] / "best.toml").exists()
        train = json.loads((out / a["trained"] / "_train.json").read_text())
        assert train["rules"] == c["rules"] and train["start_from"] == "shipped"
        looks = c["strong_looks"]
        assert [g["deals"] for g in looks] == plan["looks"][:len(looks)]
        half = [(g["high"] - g["low"]) / 2 for g in looks]
        assert all(h > plan["margin"] for h in half[:-1]) and (half[-1] <= plan["margin"] or len(looks) == len(plan["looks"]))
        x = next(x for x in d["designs"] if x["trial"] == c["trial"])
        assert x["gain_apprentice"]["deals"] == looks[-1]["deals"] and x["gain_apprentice"]["level"] == pytest.approx(level)
        assert x["gain_apprentice"]["gain"] == pytest.approx(looks[-1]["gain"])
    best = recommended(out)
    assert best["rests_on"] == "apprentice" and best["gain_apprentice"]["low"] > 0
    assert "under the apprentice's play" in result.summary.text and "balance, apprentice" in (out / "report.md").read_text()
    # how often each table's apprentice ended a fresh deal as the heuristic did, counted again from
    # the datasets: Cardavia's apprentice leaves guard-tuned, so no table plays the heuristic's games
    for c, x in [(today, d["today"]), *((c, next(x for x in d["designs"] if x["trial"] == c["trial"])) for c in designs)]:
        heuristic = load([out / c["dirs"]["heuristic"]])[0]
        strong = load([out / p for p in c["dirs"]["strong"]])[0]
        ia, ib = common_deals(heuristic, strong)
        same = (unit_deal_rates(heuristic)[1][ia] == unit_deal_rates(strong)[1][ib]).all(axis=1)
        assert x["same_as_heuristic"] == {"deals": len(ia), "same": int(same.sum()), "heuristics_games": False}
        assert 0 < same.sum() < 0.9 * len(ia)
    assert "plays exactly as" not in (out / "report.md").read_text()


def test_a_design_report_says_where_the_apprentice_plays_the_heuristics_games():
    """Colleagues' 4-player apprentice leaves dodger-tuned at 4 decisions in 28,418: where a
    table's apprentice ends nearly every fresh deal as the heuristic does, its figures are the
    heuristic's, and the report says so with the counts (and where the others leave it)."""
    from types import SimpleNamespace
    from tourney_sim.reports.design import heuristic_games_words
    m = {"strategies": {"heuristic": "dodger-tuned"}}
    today = SimpleNamespace(same_as_heuristic=(40_000, 39_950))
    design = SimpleNamespace(rank=1, label="work.values[3]=2", same_as_heuristic=(20_000, 11_400))
    said = heuristic_games_words(m, today, [design])
    assert said.startswith("The apprentice plays almost exactly as dodger-tuned at today's game: the same result as "
                           "dodger-tuned on the fresh deals both played (today's game on 39,950 of 40,000).")
    assert "the search is all that checks them" in said and "(the same result on 57% of the deals)" in said
    design.same_as_heuristic = (20_000, 20_000)
    today.same_as_heuristic = (40_000, 40_000)
    said = heuristic_games_words(m, today, [design])
    assert said.startswith("The apprentice plays exactly as dodger-tuned at every table confirmed: ")
    assert "(today's game on 40,000 of 40,000; design 1 (work.values[3]=2) on 20,000 of 20,000)" in said
    assert "leave it more often" not in said
    today.same_as_heuristic = (40_000, 39_500)  # 1.25% of the deals otherwise: not the heuristic's games
    design.same_as_heuristic = None  # not played at the strong level
    assert heuristic_games_words(m, today, [design]) is None


@pytest.mark.slow
def test_a_run_cut_short_in_its_strong_level_resumes_to_the_report_of_an_uninterrupted_one(tmp_path, monkeypatch):
    """Issue 42: the strong level is part of the job: a run stopped in the middle of it (a
    design's apprentice trained, its looks half played) resumes from there, training and playing
    nothing twice, and writes the report an uninterrupted run writes."""
    from tourney_sim.simulate.errors import Interrupted
    args = dict(vary=["rule:match_deals"], trials=4, designs=1, seed=1, **dict(SMALL, search_deals=40))
    whole = api.design(GAME, out=tmp_path / "whole", **args)
    real, strong = design_module.Plays.mirror, []

    def cut(self, rules, strategy, seed, games, out, *more, **kw):
        if out.name.startswith("strong-"):
            strong.append(out)
            if len(strong) == 3:  # the design's first two looks played, Ctrl-C in its third
                raise KeyboardInterrupt
        return real(self, rules, strategy, seed, games, out, *more, **kw)

    monkeypatch.setattr(design_module.Plays, "mirror", cut)
    with pytest.raises(Interrupted):
        api.design(GAME, out=tmp_path / "cut", **args)
    trained = [c for c in manifest(tmp_path / "cut")["confirmed"] if (c.get("apprentice") or {}).get("trained")]
    assert trained and (tmp_path / "cut" / trained[0]["apprentice"]["trained"] / "best.toml").exists()
    monkeypatch.setattr(design_module.Plays, "mirror", real)
    api.design(GAME, out=tmp_path / "cut", resume=True, **args)
    keep = ("label", "gain_apprentice", "strong_looks", "apprentice_weights", "verdict", "rests_on")
    assert [{k: x[k] for k in keep} for x in design_json(tmp_path / "cut")["designs"]] == \
        [{k: x[k] for k in keep} for x in design_json(tmp_path / "whole")["designs"]]


@pytest.mark.slow
def test_a_fix_whose_games_do_not_replay_is_not_recommended(match_length, tmp_path, monkeypatch):
    """The known fix (a match of two deals), its table planted to part from the rules: no longer
    recommended, and nothing else is; the report says why."""
    there = tmp_path / "match"
    shutil.copytree(match_length[0], there)
    best = recommended(there)
    assert best is not None and all(c["recheck"]["failure"] is None for c in manifest(there)["confirmed"])
    forget_recheck(there, best["trial"])
    plant_disagreement(monkeypatch, best["rules"])
    result = api.design(GAME, out=there, resume=True, **MATCH_LENGTH)
    d = design_json(there)
    assert d["recommended"] is None
    x = next(x for x in d["designs"] if x["trial"] == best["trial"])
    assert x["holds"] and not x["replays"] and x["recheck"]["failure"].startswith(PARTED)  # fairer, but not replayed
    assert d["today"]["replays"]
    assert result.summary.text.startswith("No fix found in this search space: no confirmed design's balance gain "
                                          "holds at the strong level and at the heuristic level while meeting the "
                                          "targets and replaying through the reference engine.")
    assert "do not replay through the reference engine" in (there / "report.md").read_text()


def _unplayable_share(game: str, players: int, wide: bool, proposals: int = 300, seed: int = 5) -> float:
    """The share of random proposals (1 to 3 changes, as the search makes them) the game cannot play."""
    import random

    from tourney_sim.simulate import design
    from tourney_sim.simulate.games import get_game
    from tourney_sim.simulate.games.spec import RuleError
    spec = get_game(game)
    dims = design.dimensions(game, spec.resolve_options([]), players, wide)
    ints = [d for d in dims if d.kind == "int" and d.rule_name is None]
    by_address = {d.address: d for d in ints}
    rng = random.Random(seed)
    bad = 0
    for _ in range(proposals):
        changes = {}
        for d in rng.sample(ints, rng.randint(1, 3)):
            v = rng.randrange(d.low, d.high + 1, d.step)
            if v != d.default:
                changes[d.address] = v
        try:
            spec.make_params(players, spec.resolve_options(design.rules_of(by_address, [], changes)))
        except RuleError:
            bad += 1
    return bad / proposals


@pytest.mark.parametrize("game, players", [("cardavia", 4), ("colleagues", 4), ("companeros", 4), ("partners", 4)])
def test_the_default_search_space_proposes_tables_the_game_can_play(game, players):
    """Issue 42: each value moves within its designer-sized range, so proposals the game cannot
    play are rare (under 10%); ``--wide`` (anywhere the game allows) is where they came from."""
    assert _unplayable_share(game, players, wide=False) < 0.10


def test_designer_sized_ranges_keep_a_card_what_it_is():
    from tourney_sim.simulate import design
    from tourney_sim.simulate.games import get_game
    dims = lambda game, wide=False: {d.address: d for d in design.dimensions(  # noqa: E731
        game, get_game(game).resolve_options([]), 4, wide)}
    colleagues, partners = dims("colleagues"), dims("partners")
    # a Work, Reprimand or Overtime card stays within its kind's shipped values (never -39)
    assert (colleagues["overtime.values[1]"].low, colleagues["overtime.values[1]"].high) == (2, 4)
    assert (colleagues["work.values[1]"].low, colleagues["work.values[15]"].high) == (1, 4)
    assert (dims("colleagues", wide=True)["overtime.values[1]"].low) == -99
    # a Partners card keeps its kind of effect: no forward steps for the Swap, none lost by the 5
    assert "effects.forward[Swap]" not in partners and partners["effects.forward[5]"].low >= 1
    assert (partners["deck.counts[Ace]"].low, partners["deck.counts[Ace]"].high) == (2, 6)
    assert "effects.forward[Swap]" in dims("partners", wide=True)
    # wide, Partners proposes mostly tables it cannot play (a deck too large, a card of two families)
    assert _unplayable_share("partners", 4, wide=True) > 0.3


def test_a_game_already_fair_at_the_strong_level_stops_before_the_search(tmp_path, monkeypatch):
    """Issue 42: the run measures today's game at the strong level first and stops there when every
    seat is shown within the margin: nothing searched, nothing confirmed, the report says so and how
    to search anyway. The strong level is planted here (Cardavia's match of four deals, fair at
    0.99, has no shipped apprentice weights of its own: its heuristic stands in for them); an
    unfair game goes on to the search (the other tests of this file)."""
    monkeypatch.setattr(design_module, "strong_check",
                        lambda game, players, rules, deals: {"strategy": HEURISTIC, "deals": deals, "dir": "today/strong"})
    said = []
    result = api.design(GAME, out=tmp_path / "d", rules=["match_deals=4"], **dict(SMALL, confirm_deals=60000),
                        echo=said.append)
    m = manifest(tmp_path / "d")
    assert m["today_strong"]["fair"] and m["today_strong"]["deals"] == 60000
    assert m["history"] == [] and m["confirmed"] == [] and not (tmp_path / "d" / "trials").exists()
    d = design_json(tmp_path / "d")
    assert d["nothing_to_fix"] and d["recommended"] is None
    assert d["verdict"].startswith("Nothing to fix at 4 players. Today's game is fair at the strong level")
    md = (tmp_path / "d" / "report.md").read_text()
    assert "Nothing to fix" in md and "--always-search" in md and "Nothing to fix" in result.summary.text
    # --always-search: no check, the search runs as before
    monkeypatch.setattr(design_module, "strong_check", lambda *a: pytest.fail("always_search measures nothing first"))
    job = design_module.DesignJob(GAME, design_module.DesignRequest(rules=["match_deals=4"], always_search=True),
                                  workers=1, scheduler=None, progress=False, echo=None)
    assert job.request["strong_check"] is None


def test_the_strong_check_plays_the_shipped_apprentice_only_on_its_own_table():
    from tourney_sim.simulate.design import strong_check
    assert strong_check("cardavia", 4, [], 1000) == {"strategy": "apprentice", "deals": 1000, "dir": "today/strong"}
    assert strong_check("cardavia", 4, ["match_deals=2"], 1000) is None  # no weights for that table


def test_a_number_rule_moves_a_few_steps_unless_wide():
    from tourney_sim.simulate import design
    from tourney_sim.simulate.games import get_game
    options = get_game("companeros").resolve_options([])
    match = lambda wide: next(d for d in design.dimensions("companeros", options, 4, wide)  # noqa: E731
                              if d.address == "rule:match_games")
    assert (match(False).low, match(False).high) == (1, 1 + design.RULE_REACH)
    assert match(True).high == 20


@pytest.mark.slow
def test_a_confirmed_design_plays_beside_todays_game_with_one_command(match_length, tmp_path):
    """Issue 42: the recommended folder plays with one command that also plays today's game on the
    same deals and prints both balance figures, the gain and the team at fault's change."""
    from typer.testing import CliRunner

    from tourney_sim.cli import app
    out, _ = match_length
    folder = out / recommended(out)["folder"]
    assert f"tourney play-design {recommended(out)['folder']}" in (folder / "README.md").read_text()
    r = CliRunner().invoke(app, ["play-design", str(folder), "--games", "2000", "--out", str(tmp_path / "p"),
                                 "--quiet", "--workers", "1"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("cardavia, 4 players, everyone guard-tuned, the same 2,000 deals (seed 0):")
    assert lines[1].startswith("  today's game: balance ")
    assert lines[2].startswith(f"  design {folder.name}: balance ") and "{" not in lines[2]  # its name, not a dict
    today, design = (float(re.search(r"balance (\d\.\d+)", line).group(1)) for line in lines[1:3])
    assert today < 0.7 < 0.9 < design
    result = api.play_design(folder, out=tmp_path / "q", games=2000, workers=1)
    assert result["gain"]["low"] > 0.3 and result["at_fault"]["unit"].startswith("team 1")
    assert result["at_fault"]["high"] < 0 and "match_deals=2" in result["rules"]["design"]
    assert result["name"] == folder.name and result["design"]["balance"] > 0.9
    # the same deals, the same games: played again, the figures are the same
    assert api.play_design(folder, out=tmp_path / "q", games=2000, workers=1, overwrite=True)["gain"] == result["gain"]


def test_play_design_refuses_a_folder_that_is_not_a_design_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from tourney_sim.cli import app
    r = CliRunner().invoke(app, ["play-design", str(tmp_path), "--out", str(tmp_path / "p")])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "is not a design's folder" in r.output, r.output
    assert not (tmp_path / "p").exists()


@pytest.mark.slow
def test_play_design_refuses_silly_counts_and_outputs_in_one_line(match_length, tmp_path):
    from typer.testing import CliRunner

    from tourney_sim.cli import app
    out, _ = match_length
    folder = str(out / recommended(out)["folder"])
    (tmp_path / "file").write_text("x")
    for args, says in ((["--games", "100000000000"], "--games must be from 2 to 2,000,000"),
                       (["--games", "1"], "--games must be from 2"),
                       (["--out", str(tmp_path / "file")], "is a file"),
                       (["--strategy", "nobody"], "unknown strategy 'nobody'")):
        r = CliRunner().invoke(app, ["play-design", folder, *args, *([] if "--out" in args else
                                                                     ["--out", str(tmp_path / "p")])])
        assert r.exit_code == 2 and r.output.count("\n") == 1 and says in r.output, (args, r.output)
        assert not (tmp_path / "p").exists()


def test_each_designs_apprentice_is_retrained_at_the_games_label_budget():
    """A design's apprentice is trained as `tourney train` trains one: Colleagues labels with a
    larger search, so a round has as many fewer labels (the same cost); --strong-labels wins."""
    from tourney_sim.simulate.train import labels_for

    def train_plan(game, **given):
        job = design_module.DesignJob(game, design_module.DesignRequest(budget="standard", **given), workers=1,
                                      scheduler=None, progress=False, echo=None)
        return job.request["strong"]["train"]

    standard = design_module.BUDGETS["standard"].strong_train[1]
    assert train_plan("cardavia")["positions"] == standard
    assert train_plan("colleagues")["positions"] == labels_for("colleagues", standard) < standard
    assert train_plan("colleagues", strong_labels=700)["positions"] == 700


def test_side_effects_are_targets_by_default_in_points_of_today_s_game():
    """Issue 42: decisiveness and draws stay near today's by default (within ±10% and ±2 points);
    (a game that recorded no leader at two thirds would get no decisiveness target:
    test_measures); the search is told how far a trial misses, in points."""
    for game in ("cardavia", "colleagues", "companeros", "partners"):  # each records its leader at two thirds
        assert design_module.default_targets(game) == ("skill>=75%", "decisiveness=10%", "draws=2pp")
    measure, target = design_module.parse_target("decisiveness=10pp")
    assert (measure, target) == ("decisiveness", {"op": "within", "value": 0.10, "relative": False})
    assert design_module.parse_target("draws = ±2 pp")[1]["value"] == pytest.approx(0.02)
    assert design_module.target_excess(measure, target, 0.608, 0.759) == pytest.approx(0.051)
    assert design_module.target_excess(measure, target, 0.80, 0.759) == pytest.approx(-0.059)
    assert design_module.target_excess(measure, target, None, 0.759) == 1.0  # not measured: missed
    # the default's: within ±10% of today's (Cardavia's 4-point compensation, 75.9% -> 60.8%, misses it)
    relative = design_module.parse_target("decisiveness=10%")[1]
    assert relative == {"op": "within", "value": 0.10, "relative": True}
    assert design_module.target_excess("decisiveness", relative, 0.608, 0.759) == pytest.approx(1 - 0.608 / 0.759 - 0.1)
    assert design_module.target_excess("decisiveness", relative, 0.80, 0.759) < 0  # +5% of today's: met
    # relative targets as before
    assert design_module.target_excess("length", design_module.parse_target("length=10%")[1], 120.0, 100.0) \
        == pytest.approx(0.10)
