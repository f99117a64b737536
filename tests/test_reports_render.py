"""Reports render for every kind of game and for merged datasets, reference nothing external, and
refuse what they cannot read with one clear line (never a traceback).

Other games are emulated with synthetic datasets in the exact result format (``tests/support/synthetic.py``):
a Cardavia-like team game whose bonus and prize columns make up the score, Colleagues-like
lowest-score-wins with a Grey Entity seat and a dismissal flag, Partners-like team games with
deals to finish, knock-outs and truncated (drawn) games, and a game that records the leader at
two thirds of the game.
"""
import json
import re

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tourney_sim.reports import render
from tourney_sim.cli import app

from .support import synthetic as sy

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def assert_self_contained(page: str):
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"https?://|<script|<link|<iframe|@import|url\(", page, re.I)
    for src in re.findall(r'src="([^"]*)"', page):
        assert src.startswith("data:image/png;base64,")
    for href in re.findall(r'href="([^"]*)"', page):
        assert href.startswith("#")
    assert page.count("<img") >= 4


# ----------------------------------------------------------------------------- emulated games
CARDAVIA_POINTS = ("scua", "picada", "simili", "quadriglia", "most_cards", "most_swords", "mata",
                   "ten_of_coins", "fante_of_cups", "napula")


def cardavia_columns(r, u, rng):
    score = r["score"]
    cols = {c: np.zeros_like(score) for c in CARDAVIA_POINTS}
    cols["scua"] = score // 4
    cols["most_cards"] = score // 3
    cols["napula"] = score - cols["scua"] - cols["most_cards"]
    cols["cards_taken"] = score + 10
    return cols


def colleagues_columns(r, u, rng):
    g, s = r["strat"].shape
    dismissed = np.zeros((g, s), np.int32)
    dismissed[np.arange(g), rng.integers(0, s, g)] = 1
    return {"dismissed": dismissed, "reprimand_total": rng.integers(0, 12, (g, s))}


def partners_columns(r, u, rng):
    g, s = r["strat"].shape
    deals = np.repeat(rng.integers(3, 12, g)[:, None], s, axis=1)
    truncated = np.repeat((r["win"][:, 0] & r["win"][:, 1]).astype(np.int32)[:, None], s, axis=1)
    return {"deals": deals, "knockouts_given": rng.integers(0, 4, (g, s)), "truncated": truncated}


def leader_columns(r, u, rng):
    g, s = r["strat"].shape
    leader = np.argmax(u[:, :3] + rng.normal(0, 0.5, (g, 3)), axis=1)
    leader[::50] = -1  # nobody leads in some games
    return {"leader_at_two_thirds": np.repeat(leader[:, None], s, axis=1)}


GAMES = {
    "cardavia": (sy.Game("cardavia", 4, team_game=True, options={"last_sweep_scores": True},
                         columns={**{c: f"{c} points" for c in CARDAVIA_POINTS}, "cards_taken": "cards"}),
                 cardavia_columns, dict(draw=0.05)),
    "colleagues": (sy.Game("colleagues", 2, better="low", extra_seats=("grey-entity",),
                           columns={"dismissed": "1 if dismissed", "reprimand_total": "reprimands"}),
                   colleagues_columns, {}),
    "partners": (sy.Game("partners", 4, team_game=True, options={"house_overshoot": "illegal"},
                         columns={"deals": "deals dealt", "knockouts_given": "knock-outs",
                                  "truncated": "1 if the game hit the deal cap"}),
                 partners_columns, dict(draw=0.03)),
    "leader": (sy.Game("leadergame", 3, columns={"leader_at_two_thirds": "seat leading at 2/3"}),
               leader_columns, {}),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_report_renders_for_every_kind_of_game(tmp_path, name):
    game, column_fn, kw = GAMES[name]
    names = ["alpha", "beta"]
    t = sy.write_tournament(tmp_path / name, game, names, {"alpha": 0.3}, 300, seed=3, luck=1.0,
                            column_fn=column_fn, **kw)
    rep = render.build([t], rating_sample=500)
    page = render.to_html(rep)
    assert_self_contained(page)
    md = render.to_markdown(rep)
    text = render.to_text(rep)
    for out in (page, md):
        assert "Pairwise" in out and "Balance figure" in out and "Provenance" in out
        assert "alpha − beta" in out
    assert "alpha" in text and "balance" in text
    if name == "cardavia":
        assert "bonuses and prizes as a share of points" in md
        assert "Together these columns make up the whole score." in md
        assert "team 0 (seats 0, 2)" in md
        assert re.search(r"\| team or strategy \|[^\n]*cards_taken", md)  # partners share values: rows per team
    if name == "colleagues":
        assert "grey-entity (non-player seat)" in md and "lowest score wins" in md
        assert "dismissed: 1 if dismissed" in md and "| seat or strategy | dismissed |" in md
        assert re.search(r"\| grey-entity \| [0-9.]+% \[", md) and "| strategy alpha |" in md
    if name == "partners":
        assert re.search(r"truncated \(1 if the game hit the deal cap\): [0-9.]+% \[[0-9., ]+\] of games", md)
        assert "deals (deals dealt): mean" in md
        assert "| seat or strategy | knockouts_given |" in md  # knock-outs are per seat, not per team
    if name == "leader":
        assert "the leader at two thirds of the game wins" in md
    else:
        assert "not recorded for this game" in md


def test_merged_run_directories_and_tournaments(tmp_path):
    game = sy.Game(players=3, columns={"cards_taken": "cards"})
    fn = lambda r, u, rng: {"cards_taken": rng.integers(0, 9, r["strat"].shape)}  # noqa: E731
    a = sy.write_dataset(tmp_path / "run-a", game, ["x", "y", "x"], {"x": 0.2}, 400, seed=1, parts=3, column_fn=fn)
    b = sy.write_dataset(tmp_path / "run-b", game, ["y", "x", "y"], {"x": 0.2}, 400, seed=2, column_fn=fn)
    t = sy.write_tournament(tmp_path / "tour", game, ["x", "y"], {"x": 0.2}, 200, seed=9, column_fn=fn)
    rep = render.build([a, b, t], rating_sample=300)
    (cfg,) = [c.cfg for c in rep.configs]
    assert cfg.tables == 800 + 6 * 200 and cfg.deals == 800 + 200
    assert len(rep.sources) == 8
    assert_self_contained(render.to_html(rep))
    # a directory holding datasets is searched; the same dataset twice is read once
    rep2 = render.build([tmp_path, a], rating_sample=300)
    assert sum(c.cfg.tables for c in rep2.configs) == cfg.tables
    # the same games under two names are flagged
    import shutil
    shutil.copytree(a, tmp_path / "copy-of-a")
    rep3 = render.build([a, tmp_path / "copy-of-a"], rating_sample=300)
    assert any("counted twice" in w for w in rep3.warnings)


def test_interrupted_tournament_reports_what_finished(tmp_path):
    t = sy.write_tournament(tmp_path / "t", sy.Game(players=3), ["x", "y"], {}, 100, seed=1)
    data = json.loads((t / "_tournament.json").read_text())
    for entry in data["datasets"][:2]:
        d = t / entry["dir"]
        (d / "part-000000.parquet").unlink()
        _edit_manifest(d, lambda m: m.update(status="interrupted", parts=[], games_done=0))
    rep = render.build([t], rating_sample=100)
    assert rep.configs[0].cfg.tables == 4 * 100
    assert any("2 unfinished dataset(s) hold no finished part and are left out" in w for w in rep.warnings)
    assert any("strategies do not sit in every seat equally often" in w for w in rep.warnings)


def test_rule_variants_are_compared_on_the_same_deals(tmp_path):
    fair = sy.Game(players=3, options={"bias": 0})
    biased = sy.Game(players=3, options={"bias": 1})
    sy.write_tournament(tmp_path / "v0", fair, ["x", "y"], {}, 600, seed=4, luck=1.0, variant="bias=0")
    sy.write_tournament(tmp_path / "v1", biased, ["x", "y"], {}, 600, seed=4, luck=1.0, variant="bias=1",
                        seat_bias=[0.6, 0, 0])
    rep = render.build([tmp_path / "v0", tmp_path / "v1"], rating_sample=300)
    (group,) = rep.variants
    (cmp,) = group["comparisons"]
    assert cmp["common_deals"] == 600
    assert cmp["balance_diff_high"] < 0  # the biased variant is less balanced, and the report knows
    md = render.to_markdown(rep)
    assert "Rule variants compared" in md and "bias=1" in md


@pytest.mark.slow
def test_cli_report_html_md_text(tmp_path):
    game = sy.Game(players=3)
    t = sy.write_tournament(tmp_path / "t", game, ["x", "y"], {"x": 0.5}, 200, seed=5)
    out = tmp_path / "r.html"
    r = invoke("report", t, "--out", out, "--rating-sample", 200)
    assert r.exit_code == 0, r.output
    assert "report written to" in r.output and "x − y" in r.output
    assert_self_contained(out.read_text())
    r = invoke("report", t, "--out", tmp_path / "r.md", "--quiet")
    assert r.exit_code == 0 and r.output == "" and (tmp_path / "r.md").read_text().startswith("# ")
    r = invoke("report", t, "--format", "md", "--rating-sample", 100)
    assert r.exit_code == 0 and "| strategy |" in r.output
    r = invoke("report", t, "--rating-sample", 100)
    assert r.exit_code == 0 and "balance" in r.output


# ----------------------------------------------------------------------------- bad input
def _dataset(tmp_path, name="d", **kw):
    return sy.write_dataset(tmp_path / name, sy.Game(players=3), ["x", "y", "x"], {}, 50, **kw)


def _edit_manifest(path, fn):
    m = json.loads((path / "_manifest.json").read_text())
    fn(m)
    (path / "_manifest.json").write_text(json.dumps(m))


def _bad_older_format(tmp_path):
    d = _dataset(tmp_path)
    _edit_manifest(d, lambda m: m.update(format="tourney-results/0"))
    return [d], "has format 'tourney-results/0'; this tourney reads tourney-results/1"


def _bad_older_manifest(tmp_path):
    d = _dataset(tmp_path)
    _edit_manifest(d, lambda m: (m.pop("better"), m.pop("team_game")))
    return [d], "was written by an older tourney (synthetic): its manifest lacks better, team_game"


def _bad_missing_column(tmp_path):
    d = _dataset(tmp_path)
    part = d / "part-000000.parquet"
    pq.write_table(pq.read_table(part).drop_columns(["start_seat"]), part)
    return [d], "lacks column(s) start_seat"


def _bad_other_games(tmp_path):
    a = _dataset(tmp_path, "a")
    b = sy.write_dataset(tmp_path / "b", sy.Game("othergame", players=3), ["x", "y", "x"], {}, 50)
    return [a, b], "the datasets are of different games (othergame in"


def _bad_corrupt_part(tmp_path):
    d = _dataset(tmp_path)
    (d / "part-000000.parquet").write_bytes(b"not parquet at all")
    return [d], "cannot read its parts"


def _bad_not_a_dataset(tmp_path):
    (tmp_path / "empty").mkdir()
    return [tmp_path / "empty"], "is not a tourney dataset or tournament"


def _bad_missing(tmp_path):
    return [tmp_path / "nowhere"], "does not exist"


def _bad_no_parts(tmp_path):
    d = _dataset(tmp_path)
    (d / "part-000000.parquet").unlink()
    return [d], "holds no result parts yet"


def _bad_tournament_format(tmp_path):
    t = sy.write_tournament(tmp_path / "t", sy.Game(players=3), ["x", "y"], {}, 20)
    data = json.loads((t / "_tournament.json").read_text())
    data["format"] = "tourney-tournament/0"
    (t / "_tournament.json").write_text(json.dumps(data))
    return [t], "is a tournament of format 'tourney-tournament/0'"


@pytest.mark.parametrize("make", [_bad_older_format, _bad_older_manifest, _bad_missing_column, _bad_other_games,
                                  _bad_corrupt_part, _bad_not_a_dataset, _bad_missing, _bad_no_parts,
                                  _bad_tournament_format])
def test_unreadable_datasets_give_one_line_and_write_nothing(tmp_path, make):
    paths, message = make(tmp_path)
    out = tmp_path / "report.html"
    r = invoke("report", *paths, "--out", out)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], r.output
    assert not out.exists()


def test_report_option_errors(tmp_path):
    d = _dataset(tmp_path)
    for args, message in [((d, "--format", "pdf"), "--format must be html, md or text"),
                          ((d, "--format", "html"), "--format html needs --out FILE"),
                          ((d, "--out", tmp_path / "no" / "r.html"), "does not exist"),
                          ((d, "--rating-sample", 0), "--rating-sample must be positive")]:
        r = invoke("report", *args)
        assert r.exit_code == 2 and r.output.startswith("error: ") and message in r.output, r.output


def test_tables_read_in_a_browser_words_whole_numbers_right_and_one_stylesheet(tmp_path):
    game = sy.Game("companeros", 3)
    t = sy.write_tournament(tmp_path / "t", game, ["a-rather-long-strategy-name", "b"], {"b": 0.2}, 200, seed=1)
    page = render.to_html(render.build([t]))
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    # no rule breaks a word in the middle ("heuristi c"), and words stay whole in every cell
    assert "anywhere" not in style and "break-all" not in style
    assert "word-break:normal" in style and "overflow-wrap:normal" in style
    # text left, numbers right (and kept on one line)
    assert "text-align:left" in style and "td.n{text-align:right;white-space:nowrap" in style
    assert '<td class="t">a-rather-long-strategy-name</td>' in page and '<td class="n">200</td>' in page
    # the stylesheet is embedded once, compactly: one line, not a copy of the source's lines
    assert page.count("<style>") == 1 and "\n" not in style
    assert all(line.strip() not in page.split("<style>")[1].split("</style>")[1]
               for line in render.CSS.strip().splitlines())


@pytest.mark.parametrize("cell, numeric", [
    ("3,000", True), ("+5.5 pp [+3.4, +7.6] *", True), ("0.922 → 0.890", True), ("49.1% [48.4, 49.8]", True),
    ("<0.001", True), ("n/a", True), ("heuristic", False), ("seat 1 +5.5 pp", False), ("changed no game at all", False),
])
def test_numbers_are_told_from_text(cell, numeric):
    assert render._numeric(cell) is numeric
