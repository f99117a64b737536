"""Tournaments and sweeps: the duplicate plan, real Compañeros runs end to end through the CLI and
the report, sequential stopping, and bad input (one line, exit 2, nothing written)."""
import json
from collections import Counter

import pandas as pd
import pytest
from typer.testing import CliRunner

from tourney_sim.reports import render
from tourney_sim.cli import app
from tourney_sim.simulate.tournament import TournamentError, parse_sweep, plan_matchups

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


def test_plan_field_design_one_strategy_against_a_field_of_another():
    plan = dict(plan_matchups(["a", "b", "c"], 6, team_game=False, design="field"))
    assert len(plan) == 6  # every ordered pair (lone, field)
    for label, group in plan.items():
        (lone, _), (field, _) = sorted(Counter(group[0]).items(), key=lambda kv: kv[1])
        assert f"{field} x5" in label
        # the lone strategy sits once in every seat, the field fills the other five
        assert sorted(s.index(lone) for s in group) == list(range(6))
        assert all(Counter(s) == {lone: 1, field: 5} for s in group)
    assert sum(len(g) for g in plan.values()) == 3 * 2 * 6
    # two players, or three with two strategies: field is every seating
    for n in (2, 3):
        assert plan_matchups(["a", "b"], n, False, "field") == plan_matchups(["a", "b"], n, False)
    # team games: a whole team of one strategy against a whole team of the other, both ways round
    teams = dict(plan_matchups(["a", "b"], 4, team_game=True, design="field"))
    assert teams == {"a+a v b+b": [("a", "b", "a", "b"), ("b", "a", "b", "a")]}
    with pytest.raises(TournamentError, match="unknown seating design 'some'"):
        plan_matchups(["a", "b"], 4, False, "some")


@pytest.mark.slow
def test_field_tournament_pairs_the_lone_seat_with_the_field(tmp_path):
    out = tmp_path / "f"
    r = invoke("tournament", "companeros", "--players", 5, "--strategy", "greedy", "--strategy", "random",
               "--seatings", "field", "--games", 300, "--seed", 4, "--out", out, "--workers", 1)
    assert r.exit_code == 0, r.output
    assert "10 seatings x 300 deals" in r.output and "greedy − random" in r.output
    t = json.loads((out / "_tournament.json").read_text())
    assert t["design"] == "field" and t["seatings"] == 10
    assert sorted(tuple(d["seats"]).count("greedy") for d in t["datasets"]) == [1] * 5 + [4] * 5
    rep = render.build([out], rating_sample=500)
    row = rep.configs[0].pairwise.iloc[0]
    assert row.deals == 300 and row.games == 3000 and row.significant and row["diff"] > 0.2
    # resuming under the other design is refused, and nothing is changed
    before = part_bytes(out)
    r = invoke("tournament", "companeros", "--players", 5, "--strategy", "greedy", "--strategy", "random",
               "--games", 300, "--seed", 4, "--out", out, "--workers", 1, "--resume", "--quiet")
    assert r.exit_code == 2 and "design" in r.output, r.output
    assert part_bytes(out) == before


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
    from tourney_sim.simulate.games import RuleError
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
    from tourney_sim.simulate.replay import trace
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


def test_first_batch_lets_a_clear_question_stop_sooner(tmp_path):
    out = tmp_path / "f"
    r = invoke("tournament", "companeros", "--players", 3, "--strategy", "greedy", "--strategy", "random",
               "--games", 5000, "--seed", 3, "--out", out, "--workers", 1, "--until-decided",
               "--first-batch", 100, "--quiet")
    assert r.exit_code == 0, r.output
    t = json.loads((out / "_tournament.json").read_text())
    assert t["sequential"]["first_batch"] == 100 and t["until_decided"]["stopped"] == "decided"
    assert t["deals_played"] == 100  # greedy against random is clear after 100 deals
    # the same games as the first 100 deals of the default plan
    ref = tmp_path / "ref"
    assert invoke("tournament", "companeros", "--players", 3, "--strategy", "greedy", "--strategy", "random",
                  "--games", 100, "--seed", 3, "--out", ref, "--workers", 1, "--quiet").exit_code == 0
    d = t["datasets"][0]["dir"]
    assert pd.read_parquet(out / d).sort_values(["game", "seat"]).reset_index(drop=True).equals(
        pd.read_parquet(ref / d).sort_values(["game", "seat"]).reset_index(drop=True))
    r = invoke("tournament", "companeros", "--strategy", "greedy", "--strategy", "random", "--until-decided",
               "--first-batch", 0, "--out", tmp_path / "z")
    assert r.exit_code == 2 and "--first-batch must be a positive number of deals, got 0" in r.output


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
    (["tournament", "companeros", "--strategy", "greedy", "--strategy", "random", "--seatings", "half"], "unknown seating design 'half': use all or field"),
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


# ----------------------------------------------------------------------------- resume
def part_bytes(out):
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("part-*.parquet"))}


def as_if_killed(out, drop, unrecorded=()):
    """Make ``out`` look like a tournament killed mid-way: the parts in ``drop`` (seating dir ->
    part names) never finished, the seatings in ``unrecorded`` had not recorded their finished
    parts yet, a temporary file is left behind, and the tournament still says running."""
    t = json.loads((out / "_tournament.json").read_text())
    t["status"] = "running"
    t["until_decided"] = None
    (out / "_tournament.json").write_text(json.dumps(t))
    for d, names in drop.items():
        for name in names:
            (out / d / name).unlink()
        m = json.loads((out / d / "_manifest.json").read_text())
        m["parts"] = [p for p in m["parts"] if p["file"] not in names]
        m["status"] = "running"
        (out / d / "_manifest.json").write_text(json.dumps(m))
    for d in unrecorded:
        m = json.loads((out / d / "_manifest.json").read_text())
        m["parts"] = []
        (out / d / "_manifest.json").write_text(json.dumps(m))
        (out / d / ".part-000009.parquet.123-abcd1234.tmp").write_bytes(b"half")
    return t


def test_tournament_resume_plays_only_what_is_missing(tmp_path):
    args = ("tournament", "companeros", "--players", 3, "--strategy", "greedy", "--strategy", "random",
            "--games", 3000, "--chunk-size", 1000, "--seed", 4, "--workers", 1, "--quiet")
    ref, out = tmp_path / "ref", tmp_path / "out"
    assert invoke(*args, "--out", ref).exit_code == 0
    assert invoke(*args, "--out", out).exit_code == 0
    dirs = [d["dir"] for d in json.loads((out / "_tournament.json").read_text())["datasets"]]
    assert len(dirs) == 6
    as_if_killed(out, {d: ["part-000002.parquet"] for d in dirs} | {dirs[0]: ["part-000001.parquet",
                                                                            "part-000002.parquet"]},
                 unrecorded=[dirs[1]])
    kept = {p: p.stat().st_mtime_ns for p in out.rglob("part-*.parquet")}
    r = invoke(*args[:-1], "--out", out, "--resume")  # not --quiet: the report is printed too
    assert r.exit_code == 0, r.output
    assert "resuming: 11 of 18 parts kept" in r.output
    assert part_bytes(out) == part_bytes(ref)  # the same bytes as an uninterrupted tournament
    assert all(p.stat().st_mtime_ns == t for p, t in kept.items())  # kept parts were not played again
    assert not list(out.rglob(".*.tmp"))
    t = json.loads((out / "_tournament.json").read_text())
    assert t["status"] == "complete" and t["games_played"] == 18000 and len(t["resumed"]) == 1
    for d in dirs:
        m = json.loads((out / d / "_manifest.json").read_text())
        assert m["status"] == "complete" and [p["file"] for p in m["parts"]] == [
            f"part-00000{i}.parquet" for i in range(3)]
    assert "18,000 games (6 seatings x 3,000 deals)" in r.output  # the summary covers every deal


def test_sweep_until_decided_resume_counts_the_finished_batches(tmp_path):
    """The sequential test sees the kept batches again, so it stops where it would have."""
    args = ("sweep", "companeros", "--players", 3, "--rule", "match_games=1,2", "--strategy", "greedy",
            "--strategy", "follower", "--games", 1500, "--seed", 5, "--workers", 1, "--until-decided",
            "--margin", 0.001, "--quiet")
    ref, out = tmp_path / "ref", tmp_path / "out"
    assert invoke(*args, "--out", ref).exit_code == 0
    assert invoke(*args, "--out", out).exit_code == 0
    dirs = [d["dir"] for d in json.loads((out / "_tournament.json").read_text())["datasets"]]
    as_if_killed(out, {d: ["part-000001.parquet"] for d in dirs[::2]})
    r = invoke(*args, "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    assert "NOT decided: the --games cap was reached after 1,500 deals per seating" in r.output
    assert part_bytes(out) == part_bytes(ref)
    ud = json.loads((out / "_tournament.json").read_text())["until_decided"]
    assert ud == json.loads((ref / "_tournament.json").read_text())["until_decided"]


def test_resume_refuses_other_parameters_and_changes_nothing(tmp_path):
    out = tmp_path / "t"
    args = ("tournament", "companeros", "--players", 3, "--strategy", "greedy", "--strategy", "random",
            "--games", 500, "--workers", 1, "--quiet", "--out", out)
    assert invoke(*args, "--seed", 3).exit_code == 0
    before = part_bytes(out), (out / "_tournament.json").read_text()
    for extra, message in ((["--seed", 4], "seed 3 (now 4)"),
                           (["--seed", 3, "--until-decided"], "sequential null"),
                           (["--seed", 3, "--overwrite"], "--resume and --overwrite cannot be used together")):
        r = invoke(*args, *extra, "--resume")
        lines = r.output.strip().splitlines()
        assert r.exit_code == 2 and len(lines) == 1 and message in lines[0], r.output
    assert (part_bytes(out), (out / "_tournament.json").read_text()) == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "precious.txt").write_text("x")
    r = invoke(*args[:-1], other, "--seed", 3, "--resume")
    assert r.exit_code == 2 and "not a tourney tournament" in r.output
    fresh = tmp_path / "fresh"  # nothing to resume yet: it simply starts
    assert invoke(*args[:-1], fresh, "--seed", 3, "--resume").exit_code == 0
    assert part_bytes(fresh) == before[0]
