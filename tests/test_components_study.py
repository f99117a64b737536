"""The study's Components section and its paired checks: planned from the game's
``nearest_change`` hook (a fake one on Compañeros here, which names none) for the kinds with the largest
effects, played as ordinary recorded runs after every other stage, kept on resume, and reported
beside each level's component effects."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tourney_sim.reports import render, study_report
from tourney_sim.simulate.stats import studies
from tourney_sim.simulate.stats.load import load
from tourney_sim.simulate import jobdir, study
from tourney_sim.simulate.games import get_game

from .support import synthetic as sy


def with_hook(monkeypatch, hook):
    spec = dataclasses.replace(get_game("companeros"), nearest_change=hook)
    monkeypatch.setattr(study, "get_game", lambda game: spec)


def fewer(kind, table):  # changes Compañeros' table allows, named after made-up kinds
    return {"Swap": ("deal.hand", 8), "Dud": ("deck.extra_colours", 1)}.get(kind)


def test_component_stages_follow_the_hook(monkeypatch):
    with_hook(monkeypatch, fewer)
    b = study.BUDGETS["quick"]
    stages = study.component_stages("companeros", b, 3, ["Swap", "Plain", "Dud"])
    assert [s.id for s in stages] == ["components/3p-heuristic-deal.hand=8",
                                      "components/3p-heuristic-deck.extra_colours=1"]
    s = stages[0]
    assert (s.section, s.dealt_kind, s.level, s.deals, s.strategies) == (
        "components", "Swap", "heuristic", b.rule_deals["heuristic"], [study.level_strategies("companeros", b)["heuristic"]])
    cmd = s.command("companeros", 7, Path("out"))
    assert cmd.startswith("tourney run companeros --players 3 --strategy ")
    assert "--component deal.hand=8" in cmd and "--seed 7" in cmd
    assert s.to_dict("companeros", 7, Path("out"))["dealt_kind"] == "Swap"


def test_no_hook_no_paired_checks():
    assert get_game("companeros").nearest_change is None
    assert study.component_stages("companeros", study.BUDGETS["quick"], 3, ["Swap"]) == []


def test_every_named_nearest_change_is_a_dealt_kind_and_a_playable_change():
    from tourney_sim.simulate.games import game_names
    from tourney_sim.simulate.matchup import make_matchup
    from tourney_sim.simulate.games.spec import component_rules
    named = 0
    for game in game_names():
        spec = get_game(game)
        if spec.components is None:
            continue
        assert set(spec.components.nearest) <= set(spec.dealt_kinds), game
        for kind in spec.components.nearest:
            change = spec.nearest_change(kind, spec.components.defaults)
            if change is None:
                continue
            address, value = change
            assert value == spec.components.get(spec.components.defaults, address) - 1
            make_matchup(game, spec.default_players, ["random"], rules=component_rules([f"{address}={value}"]))
            named += 1
    assert named >= 14 + 64 + 3  # Partners' kinds, Colleagues' cards and tokens, Cardavia's prize cards


@pytest.mark.slow
def test_the_study_plays_the_paired_checks_last_and_keeps_them_on_resume(monkeypatch, tmp_path):
    with_hook(monkeypatch, fewer)
    tiny = study.Budget("tiny", {"random": 40, "heuristic": 40, "search": 20}, {"heuristic": 30, "search": 0},
                        20, 20, 10, 1.0, "a test")
    monkeypatch.setitem(study.BUDGETS, "tiny", tiny)
    real_plan = study.plan
    monkeypatch.setattr(study, "plan", lambda *a: [s for s in real_plan(*a) if s.section == "levels"])
    asked, reports = [], []

    def largest(where):
        asked.append(Path(where))
        return ["Swap", "Plain"]

    def write_report(out, manifest):
        reports.append(manifest)
        return "ok"

    monkeypatch.setattr(study, "largest_components", largest)
    monkeypatch.setitem(jobdir.RENDERERS, "study", write_report)  # the study's report, as the reports register it
    kw = dict(budget="tiny", players=[3], levels=["heuristic"], workers=1, progress=False)
    res = study.run_study("companeros", tmp_path / "s", **kw)
    assert not res.interrupted
    ids = [s["id"] for s in res.manifest["stages"]]
    assert ids == ["levels/3p-heuristic", "components/3p-heuristic-deal.hand=8"]
    assert asked == [tmp_path / "s" / "levels/3p-heuristic"]
    check = res.manifest["stages"][1]
    assert check["status"] == "complete" and check["dealt_kind"] == "Swap" and check["deals"] == 30
    assert "--component deal.hand=8" in check["command"]
    assert load([tmp_path / "s" / check["dir"]])[0].tables == 30
    # resumed: the same plan (the checks planned again from the data), nothing played again
    res2 = study.run_study("companeros", tmp_path / "s", resume=True, **kw)
    assert [s["id"] for s in res2.manifest["stages"]] == ids
    assert all(s["status"] == "complete" for s in res2.manifest["stages"])
    assert res2.manifest["stages"][1]["seconds"] == check["seconds"]


def test_the_study_report_has_a_components_section(tmp_path):
    game = sy.Game(players=4)
    deck = sy.Deck([f"card {i}" for i in range(39)] + ["Swap"], [1] * 40, {"Swap": 0.06})
    fewer_deck = sy.Deck([f"card {i}" for i in range(40)], [1] * 40)
    for name, d in (("h", deck), ("s", deck), ("c", fewer_deck)):
        sy.write_dealt_dataset(tmp_path / name, game, d, 3000 if name != "s" else 600, parts=2)
    data = studies.StudyData("synthetic", "Synthetic", {"heuristic": "h", "search": "s"})
    data.levels[(4, "heuristic")] = load([tmp_path / "h"])[0]
    data.levels[(4, "search")] = load([tmp_path / "s"])[0]
    data.components[(4, "heuristic", "deck.counts[Swap]=0")] = load([tmp_path / "c"])[0]
    data.manifest = {"levels": ["heuristic", "search"], "seed": 0, "stages": [
        {"id": "components/4p-heuristic-deck.counts[Swap]=0", "section": "components", "players": 4,
         "level": "heuristic", "option": "deck.counts[Swap]=0", "dealt_kind": "Swap", "deals": 3000,
         "status": "complete", "command": "tourney run ... --component deck.counts[Swap]=0"}]}
    report = study_report.build(data, studies.questions(data))
    md = render.to_markdown(report)
    section = md[md.index("## Components"):]
    assert "### Components: what being dealt each kind is worth (4 players, heuristic play)" in section
    assert "### Components: what being dealt each kind is worth (4 players, search play)" in section
    assert "The 3 largest: Swap +" in section
    checks = section[section.index("### Paired checks"):]
    row = next(line for line in checks.splitlines() if "deck.counts[Swap]=0" in line)
    assert row.startswith("| Swap | +") and "| 4 | 3,000 |" in row
