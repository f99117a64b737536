"""Tournaments and sweeps: the duplicate plan, real Compañeros runs end to end through the CLI and
the report, sequential stopping, and bad input (one line, exit 2, nothing written)."""
import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from reports import render
from simulate.cli import app
from simulate.tournament import TournamentError, parse_sweep, plan_matchups

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


# ----------------------------------------------------------------------------- the plan
def test_plan_every_matchup_in_every_seating():
    plan = plan_matchups(["a", "b", "c"], 4, team_game=False)
    seatings = [s for _, group in plan for s in group]
    assert len(plan) == 12  # multisets of 4 from 3 with at least two strategies: 15 - 3
    assert len(seatings) == len(set(seatings)) == 3 ** 4 - 3
    for label, group in plan:
        assert len({tuple(sorted(s)) for s in group}) == 1  # one matchup per group
    (aabc,) = [g for label, g in plan if label == "a x2, b, c"]
    assert len(aabc) == 12  # 4! / 2!: every distinct ordering over the seats
    # every strategy sits in every seat equally often in each matchup
    for _, group in plan:
        total = Counter(x for s in group for x in s)
        for seat in range(4):
            assert {k: 4 * v for k, v in Counter(s[seat] for s in group).items()} == dict(total)


def test_plan_team_games_pairs_team_compositions():
    plan = dict(plan_matchups(["a", "b"], 4, team_game=True))
    assert set(plan) == {"a+a v a+b", "a+a v b+b", "a+b v b+b"}
    assert sorted(plan["a+a v b+b"]) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert len(plan["a+a v a+b"]) == 4  # which team sits at the even seats x order inside a+b
    assert sum(len(g) for g in plan.values()) == 2 ** 4 - 6  # all but a+a v a+a, b+b v b+b, a+b v a+b


def test_plan_refusals():
    with pytest.raises(TournamentError, match="at least two different strategies"):
        plan_matchups(["a"], 4, False)
    with pytest.raises(TournamentError, match="given twice"):
        plan_matchups(["a", "b", "a"], 4, False)
    with pytest.raises(TournamentError, match="give fewer strategies"):
        plan_matchups([f"s{i}" for i in range(9)], 6, False)


def test_parse_sweep_variants():
    variants = parse_sweep("companeros", ["match_games=1,2,3"])
    assert variants == [("match_games=1", ["match_games=1"]), ("match_games=2", ["match_games=2"]),
                        ("match_games=3", ["match_games=3"])]
    with pytest.raises(TournamentError, match="at least two values"):
        parse_sweep("companeros", ["match_games=2"])
    from simulate.games import RuleError
    with pytest.raises(RuleError, match="rule match_games expects an integer"):
        parse_sweep("companeros", ["match_games=1,zero"])


# ----------------------------------------------------------------------------- real runs
def test_tournament_duplicate_deals_and_report(tmp_path):
    out = tmp_path / "t"
    html = tmp_path / "t.html"
    r = invoke("tournament", "companeros", "--players", 3, "--strategy", "greedy", "--strategy", "random",
               "--games", 400, "--seed", 11, "--out", out, "--workers", 1, "--report", html)
    assert r.exit_code == 0, r.output
    assert "greedy − random" in r.output and "6 seatings x 400 deals" in r.output
    t = json.loads((out / "_tournament.json").read_text())
    assert t["format"] == "tourney-tournament/1" and t["seatings"] == 6 and t["status"] == "complete"
    assert t["command"].startswith("tourney ")  # the command line as typed (pytest's here)
    manifests = [json.loads((out / d["dir"] / "_manifest.json").read_text()) for d in t["datasets"]]
    assert sorted(tuple(m["seats"]) for m in manifests) == sorted(
        {p for p in __import__("itertools").product(["greedy", "random"], repeat=3) if len(set(p)) == 2})
    assert all(m["seed"] == 11 and m["rotate"] is False and m["games_done"] == 400 for m in manifests)
    # deal i is the same deal in every seating: the replayed initial states agree
    from simulate.replay import trace
    first = [trace(out / d["dir"], 123) for d in t["datasets"][:2]]
    assert first[0]["initial_state"] == first[1]["initial_state"]
    assert [s["strategy"] for s in first[0]["seats"]] != [s["strategy"] for s in first[1]["seats"]]
    assert first[0]["matches_dataset"] and first[1]["matches_dataset"]
    page = html.read_text()
    assert "greedy − random" in page and "data:image/png;base64," in page
    # every seating is a full dataset: parts with checksums, sound for `tourney verify`
    r = invoke("verify", out / t["datasets"][3]["dir"])
    assert r.exit_code == 0 and "complete and sound" in r.output and "warning" not in r.output, r.output
    # the report pairs the six seatings of each deal
    rep = render.build([out], rating_sample=500)
    (cfg,) = rep.configs
    row = cfg.pairwise.iloc[0]
    assert row.significant and row["diff"] > 0.3 and row.ci_low < row["diff"] < row.ci_high
    assert row.deals == 400 and row.games == 2400
    assert cfg.cfg.deals == 400 and cfg.cfg.tables == 2400


def test_tournament_until_decided_stops_early(tmp_path):
    out = tmp_path / "u"
    r = invoke("tournament", "companeros", "--players", 3, "--strategy", "greedy", "--strategy", "random",
               "--games", 100000, "--seed", 3, "--out", out, "--workers", 1, "--until-decided", "--quiet")
    assert r.exit_code == 0, r.output
    assert "--until-decided: decided after 1,000 deals per seating" in r.output
    assert "greedy is stronger than random" in r.output
    t = json.loads((out / "_tournament.json").read_text())
    ud = t["until_decided"]
    assert ud["stopped"] == "decided" and ud["decided"] and ud["cap"] == 100000
    assert t["deals_played"] == 1000 and t["games_played"] == 6000
    m = json.loads((out / t["datasets"][0]["dir"] / "_manifest.json").read_text())
    assert m["games"] == m["games_done"] == 1000 and m["games_requested"] == 100000
    md = render.to_markdown(render.build([out], rating_sample=300))
    assert "Sequential testing" in md and "greedy is stronger than random" in md


def test_sweep_compares_rule_variants(tmp_path):
    out = tmp_path / "s"
    r = invoke("sweep", "companeros", "--players", 3, "--rule", "match_games=1,2", "--strategy", "greedy",
               "--strategy", "follower", "--games", 300, "--seed", 5, "--out", out, "--workers", 1,
               "--report", tmp_path / "s.md")
    assert r.exit_code == 0, r.output
    assert "== rule variants" in r.output and "match_games=2 v baseline" in r.output
    t = json.loads((out / "_tournament.json").read_text())
    assert t["kind"] == "sweep" and [v["label"] for v in t["variants"]] == ["match_games=1", "match_games=2"]
    assert len(t["datasets"]) == 12 and all(d["dir"].startswith(("v0/", "v1/")) for d in t["datasets"])
    md = (tmp_path / "s.md").read_text()
    assert "Rule variants compared" in md and "| 3 players, match_games=2 | 1,800 | 300 |" in md


def test_sweep_until_decided_says_when_the_cap_comes_first(tmp_path):
    out = tmp_path / "su"
    r = invoke("sweep", "companeros", "--players", 3, "--rule", "match_games=1,2", "--strategy", "greedy",
               "--strategy", "follower", "--games", 1500, "--seed", 5, "--out", out, "--workers", 1,
               "--until-decided", "--margin", 0.001, "--quiet")
    assert r.exit_code == 0, r.output
    assert "--until-decided: NOT decided: the --games cap was reached after 1,500 deals per seating" in r.output
    assert "3 players, match_games=1 v 3 players, match_games=2: not decided" in r.output
    ud = json.loads((out / "_tournament.json").read_text())["until_decided"]
    assert ud["question"] == "balance" and ud["stopped"] == "cap" and ud["batches"] == 2 and not ud["decided"]


@pytest.mark.parametrize("args,message", [
    (["tournament", "companeros", "--strategy", "greedy"], "at least two different strategies"),
    (["tournament", "companeros", "--strategy", "greedy", "--strategy", "nobody"], "unknown strategy 'nobody'"),
    (["tournament", "chess", "--strategy", "a", "--strategy", "b"], "unknown game 'chess'"),
    (["tournament", "companeros", "--strategy", "greedy", "--strategy", "random", "--games", 0], "--games must be a positive number"),
    (["tournament", "companeros", "--strategy", "greedy", "--strategy", "random", "--players", 9], "played by 3 to 6 players"),
    (["tournament", "companeros", "--strategy", "greedy", "--strategy", "random", "--until-decided", "--alpha", 2], "--alpha must be between"),
    (["sweep", "companeros", "--strategy", "greedy", "--strategy", "random"], "give the rule to vary"),
    (["sweep", "companeros", "--rule", "match_games=2", "--strategy", "greedy", "--strategy", "random"], "at least two values"),
    (["sweep", "companeros", "--rule", "speed=1,2", "--strategy", "greedy", "--strategy", "random"], "no rule option 'speed'"),
])
def test_bad_input_one_line_exit_2_nothing_written(tmp_path, args, message):
    out = tmp_path / "out"
    r = invoke(*args, "--out", out, "--workers", 1, "--quiet")
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], r.output
    assert not out.exists()


def test_existing_output_is_kept(tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "precious.txt").write_text("x")
    r = invoke("tournament", "companeros", "--players", 3, "--strategy", "greedy", "--strategy", "random",
               "--games", 10, "--out", out, "--overwrite", "--quiet", "--workers", 1)
    assert r.exit_code == 2 and "not a tourney tournament" in r.output
    assert (out / "precious.txt").exists()
