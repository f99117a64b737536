"""`tourney verify DIR`: a complete dataset is proven complete; anything else is named exactly,
a truncated or corrupted part by its file name, never with a traceback."""
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app
from tourney_sim.simulate.matchup import make_matchup
from tourney_sim.simulate.results import DatasetError, read_manifest, sha256_file
from tourney_sim.simulate.runner import run
from tourney_sim.simulate.verify import verify

cli = CliRunner()


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    out = tmp_path_factory.mktemp("v") / "good"
    m = make_matchup("companeros", 4, ["greedy", "random", "high"], seed=3)
    run(m, 6000, out, workers=1, chunk_size=1000, progress=False, command="tourney run companeros --out x")
    return out


@pytest.fixture
def ds(tmp_path, good):
    out = tmp_path / "d"
    shutil.copytree(good, out)
    return out


def check(path, *expected, code=1):
    r = cli.invoke(app, ["verify", str(path)])
    assert r.exit_code == code, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "Traceback" not in r.output
    for text in expected:
        assert text in r.output, r.output
    return r.output


def edit_manifest(path, change):
    man = json.loads((path / "_manifest.json").read_text())
    change(man)
    (path / "_manifest.json").write_text(json.dumps(man))


def test_complete_dataset_is_ok(good):
    out = check(good, "ok:", "is complete and sound: 6,000 games (0 to 5,999)", "4 seats", "6 parts", code=0)
    assert "problem" not in out and "warning" not in out
    assert verify(good).ok


def test_other_seating_without_rotation_and_a_short_last_part_is_ok(tmp_path):
    m = make_matchup("companeros", 6, ["random", "high", "greedy"], seed=1, rotate=False)
    run(m, 1500, tmp_path / "c", workers=1, chunk_size=1000, progress=False)
    check(tmp_path / "c", "ok:", "1,500 games", "6 seats", "2 parts", code=0)


def test_truncated_part_is_named(ds):
    data = (ds / "part-000002.parquet").read_bytes()
    (ds / "part-000002.parquet").write_bytes(data[: len(data) // 2])
    out = check(ds, "problem: part-000002.parquet: ", "truncated", "not a readable Parquet file",
                "error: ", "not a complete, sound dataset")
    assert "part-000001" not in out
    # the other commands name the file too, one line, no traceback
    r = cli.invoke(app, ["summary", str(ds)])
    assert r.exit_code == 2 and "part-000002.parquet: not a readable Parquet file" in r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


def test_corrupted_bytes_same_size(ds):
    path = ds / "part-000004.parquet"
    data = bytearray(path.read_bytes())
    for i in range(200, 260):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    check(ds, "problem: part-000004.parquet: SHA-256 differs from the manifest's")


def test_empty_part_file(ds):
    (ds / "part-000000.parquet").write_bytes(b"")
    check(ds, "problem: part-000000.parquet: ", "not a readable Parquet file")


def test_missing_and_unlisted_parts(ds):
    (ds / "part-000003.parquet").unlink()
    shutil.copy(ds / "part-000001.parquet", ds / "part-000007.parquet")
    (ds / ".part-000005.parquet.1-ab.tmp").write_bytes(b"x")
    check(ds, "problem: part-000003.parquet: listed in the manifest but missing",
          "problem: part-000007.parquet: a part file the manifest does not list",
          "warning: .part-000005.parquet.1-ab.tmp: a leftover temporary file")


def test_gaps_and_overlaps_in_the_listing(ds):
    def change(man):
        del man["parts"][2]  # games 2000..2999 in no part
        man["parts"][3]["first_game"] = 3500  # a part that claims other games than its chunk
    edit_manifest(ds, change)
    check(ds, "games 2,000 to 2,999 are in no part",
          "games 3,500 to 3,999 are in both part-000003.parquet and part-000004.parquet",
          "games 4,500 to 4,999 are in no part",
          "part-000002.parquet: a part file the manifest does not list",
          "part-000004.parquet: row 0 has game 4,000, expected 3,500")

    def dup(man):
        man["parts"].append(dict(man["parts"][0]))
    edit_manifest(ds, dup)
    check(ds, "part-000000.parquet is listed more than once", "games 0 to 999 are in both "
          "part-000000.parquet and part-000000.parquet")


def test_unfinished_runs_are_never_complete(ds):
    def change(man):
        man["status"] = "running"
        man["parts"] = man["parts"][:4]
        man["games_done"] = 4000
    edit_manifest(ds, change)
    out = check(ds, "the run is not finished (status 'running': it is still running, or was killed): "
                    "4,000 of 6,000 games recorded; continue it with: tourney run companeros --out x --resume",
                "games 4,000 to 5,999 are in no part")
    assert "ok:" not in out

    edit_manifest(ds, lambda man: man.update(status="interrupted"))
    check(ds, "status 'interrupted'")
    edit_manifest(ds, lambda man: man.update(status="failed", error="strategy 'x' returned move index 9"))
    check(ds, "it failed: strategy 'x' returned move index 9")

    # status alone is not trusted either: complete but parts missing from the listing
    edit_manifest(ds, lambda man: man.update(status="complete"))
    check(ds, "games 4,000 to 5,999 are in no part")


def _rewrite(path, table, ds):
    """Replace a part and record its new checksum: only the contents checks can catch it."""
    pq.write_table(table, path, compression="zstd")
    name = path.name

    def change(man):
        for p in man["parts"]:
            if p["file"] == name:
                p["bytes"] = path.stat().st_size
                p["sha256"] = sha256_file(path)
    edit_manifest(ds, change)


def test_schema_and_description_mismatches(ds, tmp_path):
    path = ds / "part-000001.parquet"
    t = pq.read_table(path)
    i = t.schema.get_field_index("score")
    wrong = t.set_column(i, pa.field("score", pa.int64()), t.column("score").cast(pa.int64()))
    _rewrite(path, wrong.replace_schema_metadata(t.schema.metadata), ds)
    check(ds, "part-000001.parquet: column 'score' has type int64, expected int32")

    _rewrite(path, t.drop_columns(["decisions"]), ds)
    check(ds, "part-000001.parquet: missing columns ['decisions']")

    meta = json.loads(t.schema.metadata[b"tourney"])
    meta["seed"] = 4
    _rewrite(path, t.replace_schema_metadata({"tourney": json.dumps(meta)}), ds)
    check(ds, "part-000001.parquet: its run description says seed = 4, the manifest says 3")


def test_rows_that_are_not_one_per_game_and_seat(ds):
    path = ds / "part-000002.parquet"
    t = pq.read_table(path)
    game = t.column("game").to_numpy().copy()
    game[5] = game[1]  # a game twice, another missing
    _rewrite(path, t.set_column(0, "game", pa.array(game)), ds)
    check(ds, "part-000002.parquet: row 5 has game 2,000, expected 2,001")

    _rewrite(path, t.slice(0, 400), ds)
    check(ds, "part-000002.parquet: 400 rows, expected 4,000 (1,000 games x 4 seats)")

    strategy = t.column("strategy").combine_chunks()
    idx = strategy.indices.to_numpy().copy()
    idx[8] = (idx[8] + 1) % 3
    swapped = pa.DictionaryArray.from_arrays(pa.array(idx, pa.int8()), strategy.dictionary)
    _rewrite(path, t.set_column(2, "strategy", swapped), ds)
    check(ds, "part-000002.parquet: game 2,002 seat 0 holds strategy")


def test_not_a_dataset_and_broken_manifests(tmp_path, ds):
    check(tmp_path / "nowhere", "error: ", code=2)
    (tmp_path / "empty").mkdir()
    out = check(tmp_path / "empty", "is not a tourney dataset (no _manifest.json)", code=2)
    assert len(out.strip().splitlines()) == 1
    with pytest.raises(DatasetError):
        verify(tmp_path / "empty")

    (ds / "_manifest.json").write_text('{"format": "tourney-results/1", "games": ')
    check(ds, "problem: _manifest.json: unreadable")
    (ds / "_manifest.json").write_text("[1, 2]")
    check(ds, "problem: _manifest.json: not a JSON object")
    (ds / "_manifest.json").write_text('{"format": "tourney-results/1", "games": "many"}')
    check(ds, "problem: _manifest.json: missing or malformed fields: game, players")


def test_resume_heals_what_verify_finds(ds):
    """A dataset verify rejects because parts are missing is completed by --resume."""
    def change(man):
        man["status"] = "running"
        man["parts"] = man["parts"][:2]
    edit_manifest(ds, change)
    (ds / "part-000005.parquet").unlink()
    check(ds, "not finished")
    man = read_manifest(ds)
    m = make_matchup("companeros", 4, ["greedy", "random", "high"], seed=3)
    run(m, man["games"], ds, workers=1, progress=False, resume=True)
    check(ds, "ok:", code=0)


def test_a_tournament_directory_is_verified_dataset_by_dataset(tmp_path):
    out = tmp_path / "t"
    r = cli.invoke(app, ["tournament", "companeros", "--players", "3", "--strategy", "greedy", "--strategy",
                         "random", "--games", "300", "--out", str(out), "--workers", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    check(out, "ok:", "6 datasets, 1,800 games", code=0)
    (out / "greedy-random-random" / "part-000000.parquet").write_bytes(b"PAR1")
    check(out, "problem: greedy-random-random: part-000000.parquet: ", "not a readable Parquet file")
