"""The run: split the games into chunks, play them on a backend (this process, forked worker
processes, or a Dask cluster: :mod:`tourney_sim.simulate.backends`), write one Parquet part per chunk, record
the manifest. Memory stays flat (a bounded number of chunks in flight) and the data depend only
on (seed, game index), never on the backend, the number of workers or the chunk size.

Never losing a game: parts are renamed into place whole, the manifest is rewritten (atomically)
at most every second while the run goes on, and ``resume=True`` continues a run killed at any
moment: it refuses different parameters, deletes leftover temporary files, keeps the parts whose
checksum matches the manifest, validates in full the parts finished but not yet recorded, and
plays only the missing chunks. The result is byte for byte the dataset of an uninterrupted run.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from . import __version__
from .backends import SOURCES, Backend, default_workers, open_backend  # noqa: F401  (default_workers: for callers)
from .jobdir import Job, OutputError, ResumeError, execute, progress_bar, run_job  # noqa: F401  (the errors: for callers)
from .matchup import Matchup, play_block
from .errors import TourneyError
from .results import (DATASET, FORMAT, MAX_PARTS, PartError, check_part, metadata_of, part_entry, part_files,
                      part_index, sha256_file, temporary_files)

DEFAULT_CHUNK = 50_000
MIN_CHUNK = 1_000
#: the most games one chunk holds: a worker keeps a whole chunk's rows in memory while it plays
#: and encodes it (a million games: 270 MB for 6-player Compañeros, 420 MB for 5-player Colleagues)
MAX_CHUNK = 1_000_000
#: the most games a dataset (and each seating of a tournament) holds: its parts at their largest
MAX_GAMES = MAX_PARTS * MAX_CHUNK


class SizeError(TourneyError):
    """More games than a dataset can hold, or chunks too large or too many; one line."""


def default_chunk(games: int, workers: int) -> int:
    """About four chunks per worker for a smooth progress bar, within [MIN_CHUNK, DEFAULT_CHUNK]
    (larger only when so many games would need more than MAX_PARTS parts)."""
    return max(MIN_CHUNK, min(DEFAULT_CHUNK, -(-games // (4 * workers))), -(-games // MAX_PARTS))


def fit_chunk(games: int, chunk_size: int | None, default: int, what: str = "--games") -> int:
    """The chunk size of ``games`` games: ``chunk_size`` if given, else ``default`` (grown so that
    the parts fit in a dataset). SizeError, in one line saying what is allowed, for more games
    than a dataset holds (:data:`MAX_GAMES`), a chunk larger than :data:`MAX_CHUNK` or more parts
    than :data:`MAX_PARTS`. ``what`` names the count in the message (``--games``, ``--deals``)."""
    if games > MAX_GAMES:
        raise SizeError(f"{what} {games:,} is more than a dataset holds: at most {MAX_GAMES:,} "
                        f"({MAX_PARTS:,} parts of at most {MAX_CHUNK:,} games)")
    if chunk_size is None:
        return min(MAX_CHUNK, max(default, -(-games // MAX_PARTS)))
    if chunk_size > MAX_CHUNK:
        raise SizeError(f"--chunk-size {chunk_size:,} is more games than a chunk holds in memory: "
                        f"at most {MAX_CHUNK:,}")
    parts = -(-games // chunk_size)
    if parts > MAX_PARTS:
        raise SizeError(f"{what} {games:,} in chunks of {chunk_size:,} games makes {parts:,} parts, more than "
                        f"a dataset holds ({MAX_PARTS:,}): give --chunk-size {-(-games // MAX_PARTS):,} "
                        f"or more (at most {MAX_CHUNK:,})")
    return chunk_size


def make_manifest(m: Matchup, games: int, chunk_size: int, command: str | None, first_game: int = 0) -> dict:
    return {
        "format": FORMAT,
        "tool": "tourney",
        "tool_version": __version__,
        "sources": SOURCES,  # of tourney's code: a resume must run the very same code
        "game": m.spec.name,
        "rules_version": m.spec.rules_version,
        "players": m.n_players,
        "options": m.options,
        # the component table in force, readably: what it changes from the game's defaults
        **({"components": m.spec.components.changes_text(m.options["components"])} if m.spec.components else {}),
        "seed": m.seed,
        "games": games,
        "first_game": first_game,  # the run holds games first_game .. first_game + games - 1
        "seats": m.seat_names,
        "rotate": m.rotate,
        "strategies": [{"name": s.label, "description": s.description, "origin": s.origin,
                        **({"strategy": s.name, "params": s.settings()} if s.params else {}),
                        **({"setting": s.setting} if s.short_name else {})}
                       for s in m.strategies],
        "extra_seats": list(m.spec.extra_seats(m.n_players)),
        "columns": {name: text for name, text in m.spec.columns},
        **({"dealt_kinds": list(m.dealt_kinds)} if m.dealt_kinds else {}),
        "better": m.spec.better,
        "team_game": m.spec.team_game,
        "chunk_size": chunk_size,
        "command": command,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "status": "running",
        "parts": [],
    }


class ChunkPlan(Sequence):
    """The chunks ``(part index, first game, games)`` of games ``start .. end - 1`` cut into
    ``chunk_size``, numbered from ``first_index``: computed from the position when asked for, so
    memory does not grow with the number of games."""

    def __init__(self, end: int, chunk_size: int, start: int = 0, first_index: int = 0):
        self.end, self.chunk_size, self.first_index = end, chunk_size, first_index
        self._firsts = range(start, end, chunk_size)

    def __len__(self) -> int:
        return len(self._firsts)

    def __getitem__(self, position: int) -> tuple[int, int, int]:
        if isinstance(position, slice):
            raise TypeError("a ChunkPlan is indexed by position, not sliced")
        if position < 0:
            position += len(self)
        first = self._firsts[position]  # IndexError beyond the plan
        return self.first_index + position, first, min(self.chunk_size, self.end - first)


def chunk_plan(games: int, chunk_size: int, first_game: int = 0) -> ChunkPlan:
    """The chunks of a run of ``games`` games from game ``first_game``: part i holds games
    ``first_game + i * chunk_size ..``."""
    return ChunkPlan(first_game + games, chunk_size, first_game)


# ----------------------------------------------------------------------------- the run
@dataclass
class RunReport:
    manifest: dict
    seconds: float
    compile_seconds: float
    interrupted: bool
    resumed: bool = False
    notes: list = field(default_factory=list)  # what a resume kept, adopted or discarded
    games_played: int = 0  # by this call (less than the run's games when resuming)


class DatasetJob(Job):
    """``tourney run``: the games of one matchup, chunk by chunk, into one dataset (see
    :func:`run`)."""

    kind = DATASET

    def __init__(self, m: Matchup, games: int, workers: int | None, chunk_size: int | None, progress: bool,
                 scheduler: str | None, backend: Backend | None, first_game: int):
        if games < 1:
            raise ValueError("games must be at least 1")
        if first_game < 0:
            raise ValueError("first_game must be 0 or more")
        fit_chunk(games, chunk_size, DEFAULT_CHUNK)  # a count too large: refused before anything is opened
        self.m, self.games, self.workers, self.chunk_size = m, games, workers, chunk_size
        self.progress, self.scheduler, self.first_game = progress, scheduler, first_game
        self.backend, self.own_backend = backend, backend is None
        self.done: dict[int, dict] = {}
        self.base_seconds = 0.0  # of the run before a resume
        self.games_before = 0
        self.compile_seconds = 0.0
        self.clock = time.perf_counter()  # from when the first chunk was sent (after compiling)

    def prepare(self, old: dict | None) -> dict:
        chunk_size = self.chunk_size
        if old is not None:
            if not isinstance(old.get("chunk_size"), int) or not isinstance(old.get("games"), int):
                raise ResumeError(f"cannot resume {self.dir.path}: its manifest records no chunking")
            chunk_size = chunk_size or old["chunk_size"]
        if self.backend is None and self.scheduler is not None:
            self.backend = open_backend(self.workers, self.scheduler)  # a Dask cluster: its size sets the chunking
        self.n_workers = self.backend.workers if self.backend is not None else (self.workers or default_workers())
        self.chunk_size = fit_chunk(self.games, chunk_size, default_chunk(self.games, self.n_workers))
        if self.backend is not None:
            self.backend.check(self.m.describe())  # the workers can play it: before anything is written
        return make_manifest(self.m, self.games, self.chunk_size, self.command, self.first_game)

    def adopt(self, old: dict, manifest: dict) -> list[str]:
        self.done, notes = recover_parts(self.dir.path, old)
        self.base_seconds = float(old.get("seconds") or 0.0)
        manifest.clear()
        manifest.update(old)  # the run as it was started; the resumption is listed apart
        return notes

    def resumed_record(self) -> dict:
        return {"parts_kept": len(self.done)}

    def begin(self, manifest: dict) -> None:
        _record(manifest, self.done)
        self.games_before = manifest["games_done"]
        super().begin(manifest)

    def play(self, manifest: dict) -> str:
        m, out = self.m, self.dir.path
        plan = chunk_plan(self.games, self.chunk_size, self.first_game)
        todo = len(plan) - len(self.done)  # chunks to play
        bar = None

        def start():
            nonlocal bar
            play_block(m, 0, 1)  # compile (or load from the disk cache) before forking workers
            self.compile_seconds = time.perf_counter() - self.clock
            if self.backend is None:  # the built-in runner: never more processes than chunks
                self.backend = open_backend(max(1, min(self.n_workers, todo)), None)
            b = self.backend
            bar = progress_bar(self.games, self.games_before, self.progress and todo > 0,
                               f"{m.spec.name} x{b.workers}" + (" dask" if b.name == "dask" else ""))
            self.clock = time.perf_counter()
            return b

        def on_done(key, info):
            index, first, n = key
            self.done[index] = part_entry(index, first, n, m.result_seats, info)
            bar.update(n)

        def checkpoint():
            manifest["seconds"] = round(self.seconds(manifest, None, 0.0), 3)
            _record(manifest, self.done)
            self.dir.write(manifest)

        try:
            tasks = chunk_tasks(m, manifest, out, (c for c in plan if c[0] not in self.done))
            return execute(start, [tasks], on_done, where=out, checkpoint=checkpoint)
        finally:
            if bar is not None:
                bar.close()

    def seconds(self, manifest: dict, old: dict | None, elapsed: float) -> float:
        # the run's own clock: from the first chunk sent, on top of what a resumed run had played
        return self.base_seconds + time.perf_counter() - self.clock

    def end(self, manifest: dict, status: str, seconds: float, error: str | None = None) -> None:
        _record(manifest, self.done)
        super().end(manifest, status, seconds, error)

    def close(self) -> None:
        if self.own_backend and self.backend is not None:
            self.backend.close()


def run(m: Matchup, games: int, out: Path, workers: int | None = None,
        chunk_size: int | None = None, overwrite: bool = False, progress: bool = True,
        command: str | None = None, scheduler: str | None = None, resume: bool = False,
        backend: Backend | None = None, first_game: int = 0) -> RunReport:
    """Play ``games`` games of the matchup into the dataset directory ``out``: games ``first_game
    .. first_game + games - 1`` (game i is the same game in every run of the seed, so a run from
    ``first_game`` K plays the deals after those of a run of K games: more deals, the same seed).

    ``scheduler``: None for the built-in local runner (``workers`` processes), ``"local"`` for a
    new local Dask cluster of ``workers`` processes, ``"tcp://HOST:PORT"`` for an existing Dask
    cluster. ``backend``: an open :class:`~tourney_sim.simulate.backends.Backend` to use (and not close)
    instead, for callers that run many datasets. ``resume``: continue the dataset in ``out`` (the
    same parameters are required; a missing or empty ``out`` simply starts).

    Errors: OutputError / ResumeError / BackendError (nothing written), RunError (a strategy or
    the cluster failed; finished parts are kept and the manifest says ``failed``).
    """
    job = DatasetJob(m, games, workers, chunk_size, progress, scheduler, backend, first_game)
    outcome = run_job(job, out, resume=resume, overwrite=overwrite, command=command)
    manifest = outcome.manifest
    return RunReport(manifest, time.perf_counter() - job.clock, job.compile_seconds, outcome.interrupted,
                     outcome.resumed, outcome.notes, manifest["games_done"] - job.games_before)


def chunk_tasks(m: Matchup, manifest: dict, out: Path, chunks, key=lambda chunk: chunk):
    """The backend tasks that play ``chunks`` ((part index, first game, games), ...) of the dataset
    ``out``: ``(key(chunk), (description, metadata, out, index, first, games))``."""
    description, metadata = m.describe(), metadata_of(manifest)
    return ((key((index, first, n)), (description, metadata, str(out), index, first, n))
            for index, first, n in chunks)


def _record(manifest: dict, done: dict) -> None:
    manifest["parts"] = [done[i] for i in sorted(done)]
    manifest["games_done"] = sum(p["games"] for p in manifest["parts"])


def recover_parts(out: Path, manifest: dict, parts=None) -> tuple[dict[int, dict], list[str]]:
    """The parts of an interrupted run that can be kept, and notes on what was done.

    ``parts``: the run's (index, first game, games) parts, a sequence in which part i is at
    position i; default: ``chunk_plan`` of the manifest's games and chunk size. Deletes temporary files; keeps a part listed in the
    manifest whose size and SHA-256 match; adopts, after a full check
    (:func:`~tourney_sim.simulate.results.check_part`), a part on disk that the manifest does not list
    (finished just before the run was killed); deletes anything else named like a part (it is
    played again)."""
    for tmp in temporary_files(out):
        tmp.unlink(missing_ok=True)
    games, chunk = manifest["games"], manifest["chunk_size"]
    seats = int(manifest["players"]) + len(manifest.get("extra_seats", []))
    plan = parts if parts is not None else chunk_plan(games, chunk, int(manifest.get("first_game") or 0))
    listed = {p.get("file"): p for p in manifest.get("parts", []) if isinstance(p, dict)}
    done: dict[int, dict] = {}
    notes: list[str] = []
    adopted = 0
    for path in part_files(out):
        index = part_index(path.name)
        if index is None or not 0 <= index < len(plan):
            path.unlink()
            notes.append(f"deleted {path.name}: not a part of this run's chunking")
            continue
        i, first, n = plan[index]
        entry = listed.get(path.name)
        if (entry and entry.get("first_game") == first and entry.get("games") == n
                and entry.get("sha256") and entry.get("bytes") == path.stat().st_size
                and sha256_file(path) == entry["sha256"]):
            done[i] = entry
            continue
        try:
            info = check_part(path, manifest, first, n)
        except PartError as exc:
            path.unlink()
            notes.append(f"deleted {exc} (it is played again)")
            continue
        done[i] = part_entry(i, first, n, seats, info)
        if entry is not None:
            notes.append(f"{path.name} did not match its recorded checksum but is sound: kept")
        adopted += 1
    kept = sum(p["games"] for p in done.values())
    notes.insert(0, f"resuming: {len(done)} of {len(plan)} parts kept ({kept:,} of {games:,} games"
                    + (f", {adopted} finished but not yet recorded" if adopted else "") + ")")
    return done, notes
