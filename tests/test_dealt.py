"""What each seat was dealt (issue 31): every game's rules count, per result seat and per kind of
its ``DEALT_KINDS``, what the seat was dealt or drew (scratch ``S_DEALT``), the kernel copies it
out after the result, and a run that records it (``--record dealt``) writes the ``dealt`` column.

That the counts are exactly what the chance events of a trace dealt, in every configuration of
every registered game, is the contract's (tests/contract/test_dealt.py); here: each game's own
invariants (each deal's counts add up to the cards it deals, no card dealt twice in a deal), the
kinds' names, and the column in a dataset (manifest, resume, pandas, pyarrow, polars, DuckDB)."""
from __future__ import annotations

import importlib.util
import json
from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.results import read_manifest, read_table
from tourney_sim.simulate.runner import run

from .support.cli import invoke


def test_the_kinds_are_named_as_the_notation_names_them():
    for game in ("companeros", "cardavia"):
        spec = get_game(game)
        assert spec.dealt_kinds == tuple(spec.notation.card_name(c) for c in range(len(spec.dealt_kinds)))
    assert get_game("partners").dealt_kinds == get_game("partners").module.KIND_NAMES
    colleagues = get_game("colleagues").dealt_kinds
    assert colleagues[0] == "Commitment 1" and colleagues[59] == "Commitment 60"
    assert colleagues[60:] == ("token plus10", "token minus10", "token illness", "token meeting")


# ------------------------------------------------------------------ each game's invariants
def test_companeros_deals_every_hand_once_per_game_of_the_match():
    for players, match in ((3, 1), (6, 1), (4, 3)):
        m = make_matchup("companeros", players, ["random"], seed=3, rules=[f"match_games={match}"],
                         record=("dealt",))
        dealt = play_block(m, 0, 200).dealt.astype(int)
        assert (dealt.sum(axis=2) == 9 * match).all()  # 9 cards a seat per game of the match
        assert (dealt.sum(axis=1)[:, :10 * players] <= match).all()  # a card at most once a game
        assert dealt[:, :, 10 * players:].sum() == 0  # no colour beyond the table's
        if match == 1:  # the display holds the n cards no seat was dealt
            assert ((dealt.sum(axis=1)[:, :10 * players] == 0).sum(axis=1) == players).all()


def test_cardavia_deals_each_card_once_per_deal_of_the_match():
    for deals in (1, 3):
        m = make_matchup("cardavia", 4, ["random"], seed=8, rules=[f"match_deals={deals}"], record=("dealt",))
        dealt = play_block(m, 0, 200).dealt.astype(int)
        assert (dealt.sum(axis=2) == 12 * deals).all()
        per_card = dealt.sum(axis=1)
        assert (per_card <= deals).all() and (per_card.sum(axis=1) == 48 * deals).all()
        if deals == 1:  # four cards lie on the table: the other 48 went to exactly one seat
            assert ((per_card == 0).sum(axis=1) == 4).all()


def test_partners_deals_four_cards_a_seat_every_deal():
    m = make_matchup("partners", 4, ["random"], seed=2, record=("dealt",))
    block = play_block(m, 0, 30)
    deals = block.extra[:, 0, [name for name, _ in m.spec.columns].index("deals")]
    dealt = block.dealt.astype(int)
    assert (dealt.sum(axis=2) == 4 * deals[:, None]).all()
    # a reshuffle every 3 deals: between two reshuffles no kind is dealt more than it has copies
    assert (dealt[deals <= 3].sum(axis=1) <= 4).all()


def test_colleagues_counts_the_grey_entity_as_a_seat():
    m = make_matchup("colleagues", 2, ["random"], seed=4, record=("dealt",))
    dealt = play_block(m, 0, 100).dealt.astype(int)
    commitments = dealt[:, :, :60]
    assert (commitments[:, 2].sum(axis=1) == 15).all()  # five Grey Entity cards a week
    assert (commitments[:, :2].sum(axis=2) >= 18).all()  # six a week, plus mulligan draws
    assert (commitments.sum(axis=1) <= 3).all()  # a card is dealt at most once a week
    assert (dealt[:, :2, 60:].sum(axis=2) >= 3).all()  # the 2-player start: 3 tokens (seat 0: 4)


# ------------------------------------------------------------------ the dataset column
def test_a_run_records_the_column_only_when_asked(tmp_path):
    plain = make_matchup("colleagues", 2, ["dodger", "middle"], seed=5)
    recorded = make_matchup("colleagues", 2, ["dodger", "middle"], seed=5, record=("dealt",))
    run(plain, 40, tmp_path / "plain", workers=1, chunk_size=15, progress=False)
    run(recorded, 40, tmp_path / "dealt", workers=1, chunk_size=15, progress=False)
    assert "dealt_kinds" not in read_manifest(tmp_path / "plain")
    assert "dealt" not in read_table(tmp_path / "plain").column_names
    manifest = read_manifest(tmp_path / "dealt")
    assert manifest["dealt_kinds"] == list(get_game("colleagues").dealt_kinds)
    table = read_table(tmp_path / "dealt").sort_by([("game", "ascending"), ("seat", "ascending")])
    assert table.schema.field("dealt").type == pa.list_(pa.uint16())
    assert table.drop(["dealt"]).equals(read_table(tmp_path / "plain").sort_by(
        [("game", "ascending"), ("seat", "ascending")]))  # the other columns are the same rows
    lists = table.column("dealt").to_pylist()
    assert len(lists) == 40 * 3 and all(len(x) == len(manifest["dealt_kinds"]) for x in lists)
    assert np.array_equal(np.array(lists), play_block(recorded, 0, 40).dealt.reshape(120, -1))


def test_the_column_reads_in_pandas_and_pyarrow_and_others_installed(tmp_path):
    m = make_matchup("companeros", 3, ["greedy", "random"], seed=9, record=("dealt",))
    run(m, 30, tmp_path / "d", workers=1, progress=False)
    kinds = read_manifest(tmp_path / "d")["dealt_kinds"]
    expected = play_block(m, 0, 30).dealt.reshape(90, -1)
    part = sorted((tmp_path / "d").glob("part-*.parquet"))[0]
    frame = pq.read_table(part).to_pandas().sort_values(["game", "seat"])
    assert np.array_equal(np.stack(frame["dealt"].to_numpy()), expected)
    # one kind as a column of its own: "red 7" dealt to each row, to at most one seat a game
    red7 = frame["dealt"].map(lambda counts: counts[kinds.index("red 7")])
    assert red7.groupby(frame["game"]).sum().le(1).all() and red7.sum() > 0
    if importlib.util.find_spec("polars"):
        import polars as pl
        df = pl.read_parquet(part).sort(["game", "seat"])
        assert np.array_equal(np.array(df["dealt"].to_list()), expected)
    if importlib.util.find_spec("duckdb"):
        import duckdb
        rows = duckdb.sql(f"select dealt from '{part}' order by game, seat").fetchall()
        assert np.array_equal(np.array([r[0] for r in rows]), expected)


def test_a_resume_refuses_another_record_setting(tmp_path):
    from tourney_sim.simulate.runner import ResumeError
    m = make_matchup("companeros", 3, ["greedy", "random"], seed=9)
    run(m, 20, tmp_path / "d", workers=1, progress=False)
    with pytest.raises(ResumeError, match="dealt_kinds"):
        run(make_matchup("companeros", 3, ["greedy", "random"], seed=9, record=("dealt",)), 20,
            tmp_path / "d", workers=1, progress=False, resume=True)


def test_an_unknown_record_is_one_line():
    from tourney_sim.simulate.games import RuleError
    with pytest.raises(RuleError, match="give one of dealt"):
        make_matchup("companeros", 3, ["random"], record=("hands",))


def test_the_manifest_kinds_say_what_each_count_is(tmp_path):
    m = make_matchup("partners", 4, ["race"], seed=1, record=("dealt",))
    run(m, 5, tmp_path / "d", workers=1, progress=False)
    manifest = json.loads((tmp_path / "d" / "_manifest.json").read_text())
    table = read_table(tmp_path / "d")
    totals = Counter()
    for counts in table.column("dealt").to_pylist():
        totals.update(dict(zip(manifest["dealt_kinds"], counts)))
    assert set(totals) == set(get_game("partners").module.KIND_NAMES) and sum(totals.values()) > 0


# ------------------------------------------------------------------ the command line
def test_run_record_dealt_replays_and_verifies(tmp_path):
    out = tmp_path / "d"
    r = invoke("run", "partners", "--games", 6, "--seed", 3, "--record", "dealt", "--out", out, "--workers", 1,
               "--quiet")
    assert r.exit_code == 0, r.output
    assert read_manifest(out)["dealt_kinds"] == list(get_game("partners").dealt_kinds)
    assert invoke("verify", out).exit_code == 0
    r = invoke("replay", out, "--game", 4, "--format", "json")
    assert r.exit_code == 0 and json.loads(r.output)["matches_dataset"] is True
    # a count changed in the stored rows: the replay no longer matches them
    part = sorted(out.glob("part-*.parquet"))[0]
    table = pq.read_table(part)
    lists = table.column("dealt").to_pylist()
    row = table.column("game").to_pylist().index(4)
    lists[row] = [c + (k == 0) for k, c in enumerate(lists[row])]
    changed = table.set_column(table.schema.get_field_index("dealt"), "dealt",
                               pa.array(lists, pa.list_(pa.uint16())))
    pq.write_table(changed.replace_schema_metadata(table.schema.metadata), part)
    assert json.loads(invoke("replay", out, "--game", 4, "--format", "json").output)["matches_dataset"] is False


def test_a_tournament_records_dealt_in_every_seating(tmp_path):
    out = tmp_path / "t"
    r = invoke("tournament", "companeros", "--players", 3, "--strategy", "greedy", "--strategy", "random",
               "--games", 20, "--record", "dealt", "--out", out, "--workers", 1, "--quiet")
    assert r.exit_code == 0, r.output
    manifests = list(out.glob("**/_manifest.json"))
    assert len(manifests) >= 2
    for path in manifests:
        assert "dealt" in read_table(path.parent).column_names
    assert json.loads((out / "_tournament.json").read_text())["record"] == ["dealt"]


def test_an_unknown_record_on_the_command_line_is_one_line(tmp_path):
    r = invoke("run", "companeros", "--games", 5, "--record", "hands", "--out", tmp_path / "x")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "give one of dealt" in r.output
    assert not (tmp_path / "x").exists()
