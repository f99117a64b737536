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

``_manifest.json`` records how the dataset was made (tool version, game, rules version, options,
seed, seating, strategies, command line, chunking) and which parts are complete; every part also
carries the manifest in its Parquet schema metadata (key ``tourney``), so a part is
self-describing. Parts are written under a hidden temporary name and renamed into place, so a
reader never sees a half-written part; readers (pyarrow.dataset, pandas) skip names starting
with ``.`` or ``_``.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .matchup import Block, Matchup

FORMAT = "tourney-results/1"
MANIFEST = "_manifest.json"
COMPRESSION = "zstd"


class OutputError(ValueError):
    """Bad output location; the message is one line for the user."""


def part_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


def block_table(m: Matchup, block: Block, metadata: dict | None = None) -> pa.Table:
    """The rows of a block as an Arrow table (see the module docstring for the schema)."""
    n_games, seats = block.score.shape
    game = np.repeat(np.arange(block.first_game, block.first_game + n_games, dtype=np.int64), seats)
    seat = np.tile(np.arange(seats, dtype=np.int8), n_games)
    team = np.array([m.spec.team_of(s, m.n_players) if s < m.n_players else s for s in range(seats)],
                    np.int8)
    rank = block.rank.reshape(-1)
    columns = {
        "game": pa.array(game),
        "seat": pa.array(seat),
        "strategy": pa.DictionaryArray.from_arrays(pa.array(block.strategy.reshape(-1)),
                                                   pa.array(m.strategy_names, pa.string())),
        "team": pa.array(np.tile(team, n_games)),
        "score": pa.array(block.score.reshape(-1)),
        "rank": pa.array(rank),
        "win": pa.array(rank == 1),
        "start_seat": pa.array(np.repeat(block.start_seat, seats)),
        "decisions": pa.array(np.repeat(block.decisions, seats)),
    }
    for k, (name, _) in enumerate(m.spec.columns):
        columns[name] = pa.array(np.ascontiguousarray(block.extra[:, :, k]).reshape(-1))
    table = pa.table(columns)
    if metadata is not None:
        table = table.replace_schema_metadata({"tourney": json.dumps(metadata)})
    return table


def write_part(directory: Path, index: int, table: pa.Table) -> Path:
    """Write a part atomically: a hidden temporary file renamed into place."""
    final = directory / part_name(index)
    tmp = directory / f".{part_name(index)}.tmp"
    pq.write_table(table, tmp, compression=COMPRESSION)
    os.replace(tmp, final)
    return final


def prepare_output(out: Path, overwrite: bool) -> None:
    """Create ``out`` or refuse: an existing non-empty directory needs ``overwrite``, and only a
    tourney dataset is ever deleted. Checks the location is writable before anything runs."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OutputError(f"output {out} exists and is not a directory")
    if out.exists() and any(out.iterdir()):
        if not overwrite:
            raise OutputError(f"output directory {out} already exists (use --overwrite to replace it)")
        if not (out / MANIFEST).exists():
            raise OutputError(f"refusing to overwrite {out}: it is not a tourney dataset (no {MANIFEST})")
        shutil.rmtree(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise OutputError(f"cannot write to output {out}: {exc.strerror or exc}") from None


def write_manifest(out: Path, manifest: dict) -> None:
    tmp = Path(out) / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n")
    os.replace(tmp, Path(out) / MANIFEST)


class DatasetError(ValueError):
    """Not a readable tourney dataset; the message is one line for the user."""


def read_manifest(directory: Path) -> dict:
    path = Path(directory) / MANIFEST
    if not path.exists():
        raise DatasetError(f"{directory} is not a tourney dataset (no {MANIFEST})")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{path} is unreadable: {exc}") from None
    if manifest.get("format") != FORMAT:
        raise DatasetError(f"{directory} has format {manifest.get('format')!r}; this tourney reads {FORMAT}")
    return manifest


def part_files(directory: Path) -> list[Path]:
    return sorted(Path(directory).glob("part-*.parquet"))


def read_table(directory: Path, columns=None, filter=None) -> pa.Table:
    """The dataset's rows (all parts) as one Arrow table, optionally a column subset / filter."""
    import pyarrow.dataset as ds

    read_manifest(directory)
    files = part_files(directory)
    if not files:
        raise DatasetError(f"{directory} holds no result parts yet")
    return ds.dataset([str(f) for f in files], format="parquet").to_table(columns=columns, filter=filter)
