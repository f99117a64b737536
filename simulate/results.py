"""Results datasets: a directory of Parquet parts plus ``_manifest.json``.

One row per (game, seat)::

    game        int64    game index within the run (0-based); with the seed it identifies the deal
    seat        int8     seat 0..n-1 in turn order (non-player seats such as a Grey Entity follow)
    strategy    dictionary<int8, string>   strategy at that seat in that game (after rotation)
    team        int8     team number (seat % 2 in team games, else the seat)
    score       int32    final score (the team's score in team games)
    rank        int8     1 = best; equal results share a rank
    win         bool     rank == 1 (so ties at the top count as a win for each)
    start_seat  int8     the seat that made the game's first decision
    decisions   int32    number of decisions in the game (its length)
    <game columns>  int32  the game's own columns (``GameSpec.columns``)
    dealt       list<uint16>  only in a run that records it (``--record dealt``): what the seat was
                dealt or drew over the game, counts per kind in the order of the manifest's
                ``dealt_kinds`` (``GameSpec.dealt_kinds``); every result seat has its list

``_manifest.json`` records how the dataset was made (tool version, game, rules version, options,
seed, seating, strategies, command line, chunking) and which parts are complete; every part also
carries the manifest in its Parquet schema metadata (key ``tourney``), so a part is
self-describing. Parts are written under a hidden temporary name (unique per writer) and renamed
into place, so a reader never sees a half-written part; readers (pyarrow.dataset, pandas) skip
names starting with ``.`` or ``_``.

Every part listed in the manifest carries its size and SHA-256 (``sha256``, of the file's bytes),
its first game, its number of games and rows. While a run goes on the manifest says
``"status": "running"`` and is rewritten at most every second with the parts finished so far; a
run killed between writing a part and recording it leaves a complete part that the manifest does
not list yet: ``--resume`` validates such parts in full (:func:`check_part`) before adopting them.
Part bytes are deterministic (same rows, same pyarrow: same file), so a resumed run ends with the
same checksums as an uninterrupted one.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import uuid
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .jobdir import JobDir, JobKind, OutputError, read_job  # noqa: F401  (OutputError: where callers find it)
from .kernel import lineup_seat
from .errors import TourneyError
from .matchup import Block, Matchup

FORMAT = "tourney-results/1"
MANIFEST = "_manifest.json"
#: what must be equal for a run to be resumed (the parts hold exactly these games and rows)
RESUME_KEYS = ("format", "tool_version", "sources", "game", "rules_version", "players", "options",
               "seed", "games", "first_game", "seats", "rotate", "chunk_size", "columns", "extra_seats", "team_game",
               "better", "dealt_kinds")
#: a dataset as a job directory (:mod:`tourney_sim.simulate.jobdir`)
DATASET = JobKind("dataset", MANIFEST, FORMAT, RESUME_KEYS, indent=2)
#: a tournament or sweep (``tourney tournament``, :mod:`~tourney_sim.simulate.tournament`): a
#: directory of datasets, one per seating (and rule variant), with this manifest beside them
TOURNAMENT_FILE = "_tournament.json"
TOURNAMENT_FORMAT = "tourney-tournament/1"
#: what must be equal for a tournament to be resumed (each seating also checks its own manifest)
TOURNAMENT_RESUME_KEYS = ("format", "kind", "game", "rules_version", "players", "strategies", "seed", "games",
                          "rules", "sweep", "sequential", "design", "record")
TOURNAMENT = JobKind("tournament", TOURNAMENT_FILE, TOURNAMENT_FORMAT, TOURNAMENT_RESUME_KEYS)
#: Parquet writing options. Only ``strategy`` is dictionary-encoded (the other columns are small
#: integers that zstd packs as well without the dictionary pass), ``game`` (ascending) is delta-
#: encoded, zstd at level 1: writing 1.45x and reading 1.8x faster than the defaults for the same
#: size (50,000 Compañeros games: 730 kB v 737 kB). Min/max statistics only for ``game``, the one
#: column whose row groups differ (every seat and strategy is in every part): 4% more games/s end
#: to end. (lz4 would give 9% more, at twice the size.)
PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 1, "use_dictionary": ["strategy"],
                   "column_encoding": {"game": "DELTA_BINARY_PACKED"}, "write_statistics": ["game"]}
#: the run description every part carries in its schema metadata (key ``tourney``)
METADATA_KEYS = ("format", "tool_version", "game", "rules_version", "players", "options", "seed",
                 "seats", "rotate")
#: the columns every dataset starts with, and their Arrow types
BASE_SCHEMA = (("game", pa.int64()), ("seat", pa.int8()),
               ("strategy", pa.dictionary(pa.int8(), pa.string())), ("team", pa.int8()),
               ("score", pa.int32()), ("rank", pa.int8()), ("win", pa.bool_()),
               ("start_seat", pa.int8()), ("decisions", pa.int32()))
#: the column of what each seat was dealt (after the game's own columns), when a run records it
DEALT_COLUMN = ("dealt", pa.list_(pa.uint16()))


#: the most parts a dataset holds: their names have six digits (part-000000 to part-999999) and
#: the manifest lists each one
MAX_PARTS = 10 ** 6
_PART_NAME = re.compile(r"^part-(\d{6})\.parquet$")


def part_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


def part_index(name: str) -> int | None:
    """The index of the part called ``name`` (None if it is not named like a part)."""
    match = _PART_NAME.match(name)
    return int(match.group(1)) if match else None


def arrow_array(values: np.ndarray) -> pa.Array:
    """A 1-D NumPy array of numbers or booleans as an Arrow array, sharing its memory.

    ``pa.array`` would do, but its first call imports pandas (0.4 s, a fifth of a short run's
    start-up) to ask whether the input is a pandas object."""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        data = np.packbits(values, bitorder="little")  # Arrow booleans are bits, first bit lowest
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(data)])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values),
                                 [None, pa.py_buffer(values)])


def numpy_array(column: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """An Arrow column of numbers or booleans without nulls as a NumPy array (the inverse of
    :func:`arrow_array`; ``to_numpy`` would also import pandas on its first call)."""
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    dtype = np.dtype(column.type.to_pandas_dtype())  # a NumPy dtype: pandas is not imported
    parts = []
    for a in chunks:
        if a.null_count:
            raise ValueError("numpy_array: the column has nulls")
        data = a.buffers()[1]
        if dtype == np.bool_:
            bits = np.frombuffer(data, np.uint8)
            parts.append(np.unpackbits(bits, count=a.offset + len(a), bitorder="little")[a.offset:]
                         .astype(bool))
        else:
            parts.append(np.frombuffer(data, dtype, count=len(a), offset=a.offset * dtype.itemsize))
    return np.concatenate(parts) if parts else np.zeros(0, dtype)


def arrow_strings(texts: list[str]) -> pa.Array:
    """A list of str as an Arrow string array (without ``pa.array``; see :func:`arrow_array`)."""
    encoded = [t.encode() for t in texts]
    offsets = np.zeros(len(encoded) + 1, np.int32)
    offsets[1:] = np.cumsum([len(e) for e in encoded])
    return pa.Array.from_buffers(pa.string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def block_table(m: Matchup, block: Block, metadata: dict | None = None) -> pa.Table:
    """The rows of a block as an Arrow table (see the module docstring for the schema)."""
    n_games, seats = block.score.shape
    game = np.repeat(np.arange(block.first_game, block.first_game + n_games, dtype=np.int64), seats)
    seat = np.tile(np.arange(seats, dtype=np.int8), n_games)
    team = np.array([m.spec.team_of(s, m.n_players) if s < m.n_players else s for s in range(seats)],
                    np.int8)
    rank = block.rank.reshape(-1)
    columns = {
        "game": arrow_array(game),
        "seat": arrow_array(seat),
        "strategy": pa.DictionaryArray.from_arrays(arrow_array(block.strategy.reshape(-1)),
                                                   arrow_strings(list(m.strategy_names))),
        "team": arrow_array(np.tile(team, n_games)),
        "score": arrow_array(block.score.reshape(-1)),
        "rank": arrow_array(rank),
        "win": arrow_array(rank == 1),
        "start_seat": arrow_array(np.repeat(block.start_seat, seats)),
        "decisions": arrow_array(np.repeat(block.decisions, seats)),
    }
    for k, (name, _) in enumerate(m.spec.columns):
        columns[name] = arrow_array(block.extra[:, :, k].reshape(-1))
    if m.dealt_kinds:
        kinds = block.dealt.shape[2]
        offsets = arrow_array(np.arange(0, n_games * seats * kinds + 1, kinds, dtype=np.int32))
        columns[DEALT_COLUMN[0]] = pa.ListArray.from_arrays(offsets, arrow_array(block.dealt.reshape(-1)))
    table = pa.table(columns)
    if metadata is not None:
        table = table.replace_schema_metadata({"tourney": json.dumps(metadata)})
    return table


def encode_part(table: pa.Table) -> bytes:
    """A part's Parquet file, in memory (deterministic: the same table gives the same bytes)."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, **PARQUET_OPTIONS)
    return sink.getvalue().to_pybytes()


def write_part_bytes(directory: Path, index: int, data: bytes) -> dict:
    """Write an encoded part atomically: a hidden temporary file, unique to this writer, flushed
    to disk and renamed into place. Two writers of the same part (a retried task, a leftover
    process) each rename a complete file with the same bytes, so the part is never torn.
    Returns ``{"file", "bytes", "sha256"}``."""
    directory = Path(directory)
    final = directory / part_name(index)
    tmp = directory / f".{part_name(index)}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, final)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    return {"file": final.name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def part_entry(index: int, first_game: int, games: int, seats: int, info: dict) -> dict:
    """The manifest's record of a finished part (``info`` from :func:`write_part_bytes`)."""
    return {"file": part_name(index), "first_game": first_game, "games": games,
            "rows": games * seats, "bytes": info["bytes"], "sha256": info["sha256"]}


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def temporary_files(directory: Path) -> list[Path]:
    """Hidden temporary files a killed writer may leave behind (parts and manifest)."""
    d = Path(directory)
    return sorted(list(d.glob(".part-*.tmp")) + list(d.glob(f".{MANIFEST}*.tmp")))


def metadata_of(manifest: dict) -> dict:
    """The run description stored in every part's schema metadata."""
    return {k: manifest[k] for k in METADATA_KEYS}


def expected_schema(manifest: dict) -> list[tuple[str, pa.DataType]]:
    """Column names and types of every part of a dataset, from its manifest (``dealt`` when it
    records ``dealt_kinds``)."""
    return (list(BASE_SCHEMA) + [(name, pa.int32()) for name in manifest.get("columns", {})]
            + ([DEALT_COLUMN] if manifest.get("dealt_kinds") else []))


class PartError(TourneyError):
    """A part file that is not what the manifest says; the message names the file."""


def check_part(path: Path, manifest: dict, first_game: int, games: int) -> dict:
    """Check that ``path`` is a sound part holding exactly games ``first_game ..`` of the dataset
    described by ``manifest``: a readable Parquet file (footer and data), the dataset's schema and
    embedded run description, one row per game and seat in order, the seating the manifest
    implies (rotation), ``win == (rank == 1)``. Returns ``{"bytes", "sha256"}``; raises
    PartError with a one-line message naming the file."""
    import numpy as np

    path = Path(path)
    name = path.name
    n_seats = int(manifest["players"]) + len(manifest.get("extra_seats", []))
    try:
        pf = pq.ParquetFile(path)
        schema = pf.schema_arrow
    except Exception as exc:  # ArrowInvalid, OSError: truncated or not Parquet at all
        raise PartError(f"{name}: not a readable Parquet file (truncated or corrupted): "
                        f"{_first_line(exc)}") from None
    expected = expected_schema(manifest)
    names = [n for n, _ in expected]
    if schema.names != names:
        missing = [n for n in names if n not in schema.names]
        extra = [n for n in schema.names if n not in names]
        what = (f"missing columns {missing}" if missing else
                f"unexpected columns {extra}" if extra else f"columns in the wrong order {schema.names}")
        raise PartError(f"{name}: {what}")
    for n, t in expected:
        got = schema.field(n).type
        if got != t:
            raise PartError(f"{name}: column {n!r} has type {got}, expected {t}")
    try:
        stored = json.loads((schema.metadata or {}).get(b"tourney", b"null"))
    except (ValueError, UnicodeDecodeError):
        stored = None
    if not isinstance(stored, dict):
        raise PartError(f"{name}: no readable run description in its metadata (key 'tourney')")
    for k in METADATA_KEYS:
        if stored.get(k) != manifest.get(k):
            raise PartError(f"{name}: its run description says {k} = {stored.get(k)!r}, the manifest "
                            f"says {manifest.get(k)!r}")
    rows = games * n_seats
    if pf.metadata.num_rows != rows:
        raise PartError(f"{name}: {pf.metadata.num_rows:,} rows, expected {rows:,} "
                        f"({games:,} games x {n_seats} seats)")
    try:
        t = pf.read(columns=["game", "seat", "strategy", "rank", "win"])
    except Exception as exc:
        raise PartError(f"{name}: data unreadable (truncated or corrupted): {_first_line(exc)}") from None
    game = t.column("game").to_numpy()
    expect_game = np.repeat(np.arange(first_game, first_game + games, dtype=np.int64), n_seats)
    if not np.array_equal(game, expect_game):
        bad = int(np.flatnonzero(game != expect_game)[0])
        raise PartError(f"{name}: row {bad:,} has game {int(game[bad]):,}, expected "
                        f"{int(expect_game[bad]):,} (games {first_game:,} to {first_game + games - 1:,}, "
                        f"each once, seats in order)")
    if not np.array_equal(t.column("seat").to_numpy(), np.tile(np.arange(n_seats, dtype=np.int8), games)):
        raise PartError(f"{name}: seats are not 0 to {n_seats - 1} in order for every game")
    rank = t.column("rank").to_numpy()
    if not np.array_equal(t.column("win").to_numpy(zero_copy_only=False), rank == 1):
        raise PartError(f"{name}: column 'win' disagrees with rank == 1")
    if ((rank < 1) | (rank > n_seats)).any():
        raise PartError(f"{name}: a rank outside 1 to {n_seats}")
    strategy = t.column("strategy").combine_chunks()
    got_names = np.asarray(strategy.dictionary.to_pylist(), dtype=object)[strategy.indices.to_numpy()]
    expect_names = np.asarray(_seating_names(manifest, first_game, games), dtype=object)
    if not np.array_equal(got_names, expect_names):
        bad = int(np.flatnonzero(got_names != expect_names)[0])
        raise PartError(f"{name}: game {bad // n_seats + first_game:,} seat {bad % n_seats} holds "
                        f"strategy {got_names[bad]!r}, the seating implies {expect_names[bad]!r}")
    return {"bytes": path.stat().st_size, "sha256": sha256_file(path)}


def _seating_names(manifest: dict, first_game: int, games: int) -> list:
    """Strategy name per row (game, seat) implied by the manifest's seats and rotation."""
    import numpy as np

    seats = list(manifest["seats"])
    n = len(seats)
    extra = list(manifest.get("extra_seats", []))
    idx = np.broadcast_to(lineup_seat(np.arange(n)[None, :], np.arange(first_game, first_game + games)[:, None],
                                      n, manifest.get("rotate")), (games, n))
    table = np.asarray(seats, dtype=object)[idx]
    if extra:
        table = np.concatenate([table, np.tile(np.asarray(extra, dtype=object), (games, 1))], axis=1)
    return table.reshape(-1)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def write_manifest(out: Path, manifest: dict) -> None:
    """Replace the dataset's manifest atomically (:func:`~tourney_sim.simulate.jobdir.write_json`)."""
    JobDir(DATASET, out).write(manifest)


class DatasetError(TourneyError):
    """Not a readable tourney dataset; the message is one line for the user."""


def read_tournament(directory: Path) -> dict:
    """The ``_tournament.json`` of a tournament or sweep directory (DatasetError if unreadable)."""
    return read_job(TOURNAMENT, directory, DatasetError)


def read_manifest(directory: Path) -> dict:
    path = Path(directory) / MANIFEST
    if not os.path.exists(path):
        raise DatasetError(f"{directory} is not a tourney dataset (no {MANIFEST})")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{path} is unreadable: {exc}") from None
    if not isinstance(manifest, dict):
        raise DatasetError(f"{path} is not a tourney manifest (a JSON object is expected)")
    if manifest.get("format") != FORMAT:
        raise DatasetError(f"{directory} has format {manifest.get('format')!r}; this tourney reads {FORMAT}")
    return manifest


def part_files(directory: Path) -> list[Path]:
    return sorted(Path(directory).glob("part-*.parquet"))


def read_parts(directory: Path, columns: list[str]) -> list[pa.Table]:
    """Each part's rows (only ``columns``), read part by part with ``pyarrow.parquet`` alone
    (``pyarrow.dataset`` imports pandas: 0.4 s that the summary after every run can spare)."""
    read_manifest(directory)
    files = part_files(directory)
    if not files:
        raise DatasetError(f"{directory} holds no result parts yet")
    tables = []
    for f in files:
        try:
            tables.append(pq.ParquetFile(f).read(columns=columns))
        except (pa.ArrowException, OSError) as exc:
            raise _unreadable_part(directory, f, exc) from None
    return tables


def _unreadable_part(directory: Path, f: Path, exc: Exception) -> DatasetError:
    return DatasetError(f"{f}: not a readable Parquet file (truncated or corrupted): "
                        f"{_first_line(exc).rstrip('.')}; `tourney verify {directory}` checks the "
                        f"whole dataset")


def rows_digest(directory: Path, columns: list[str] | None = None) -> str:
    """SHA-256 of a dataset's rows (``columns``, default every column, in the schema's order, rows
    by game and seat): the same for the same games whatever the chunking, the number of workers
    or the pyarrow version (file bytes are not: Parquet records its writer's version).
    Strategies are hashed by name; a list column (``dealt``) by its counts and row lengths."""
    table = read_table(Path(directory)).sort_by([("game", "ascending"), ("seat", "ascending")])
    h = hashlib.sha256()
    for name, column in zip(table.column_names, table.columns):
        if columns is not None and name not in columns:
            continue
        h.update(f"{name}:{column.type}\n".encode())
        if pa.types.is_dictionary(column.type):
            h.update("\0".join(str(x) for x in column.to_pylist()).encode())
        elif pa.types.is_list(column.type):
            lists = column.combine_chunks()
            h.update(np.ascontiguousarray(numpy_array(lists.value_lengths())).tobytes())
            h.update(np.ascontiguousarray(numpy_array(lists.flatten())).tobytes())
        else:
            h.update(np.ascontiguousarray(numpy_array(column)).tobytes())
    return h.hexdigest()


def read_table(directory: Path, columns=None, filter=None) -> pa.Table:
    """The dataset's rows (all parts) as one Arrow table, optionally a column subset / filter."""
    import pyarrow.dataset as ds

    read_manifest(directory)
    files = part_files(directory)
    if not files:
        raise DatasetError(f"{directory} holds no result parts yet")
    try:
        return ds.dataset([str(f) for f in files], format="parquet").to_table(columns=columns, filter=filter)
    except (pa.ArrowException, OSError) as exc:
        for f in files:  # name the broken part rather than show pyarrow's traceback
            try:
                pq.ParquetFile(f).read()
            except Exception as part_exc:
                raise _unreadable_part(directory, f, part_exc) from None
        raise DatasetError(f"{directory}: cannot read the dataset: {_first_line(exc)}") from None
