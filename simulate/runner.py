"""The run: split the games into chunks, play them on worker processes, write one Parquet part
per chunk, record the manifest. Memory stays flat (a bounded number of chunks in flight) and the
data depend only on (seed, game index), never on the number of workers or the chunk size.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from . import __version__
from .matchup import Matchup, from_description, play_block
from .results import FORMAT, block_table, prepare_output, write_manifest, write_part

DEFAULT_CHUNK = 50_000
MIN_CHUNK = 1_000


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_chunk(games: int, workers: int) -> int:
    """About four chunks per worker for a smooth progress bar, within [MIN_CHUNK, DEFAULT_CHUNK]."""
    return max(MIN_CHUNK, min(DEFAULT_CHUNK, -(-games // (4 * workers))))


def make_manifest(m: Matchup, games: int, chunk_size: int, command: str | None) -> dict:
    return {
        "format": FORMAT,
        "tool": "tourney",
        "tool_version": __version__,
        "game": m.spec.name,
        "rules_version": m.spec.rules_version,
        "players": m.n_players,
        "options": m.options,
        "seed": m.seed,
        "games": games,
        "seats": m.seat_names,
        "rotate": m.rotate,
        "strategies": [{"name": s.name, "description": s.description, "origin": s.origin}
                       for s in m.strategies],
        "extra_seats": list(m.spec.extra_seats(m.n_players)),
        "columns": {name: text for name, text in m.spec.columns},
        "better": m.spec.better,
        "team_game": m.spec.team_game,
        "chunk_size": chunk_size,
        "command": command,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "status": "running",
        "parts": [],
    }


def chunk_plan(games: int, chunk_size: int):
    for index, first in enumerate(range(0, games, chunk_size)):
        yield index, first, min(chunk_size, games - first)


# ----------------------------------------------------------------------------- worker side
_MATCHUPS: dict[str, Matchup] = {}


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; workers finish their chunk


def run_chunk(description: dict, metadata: dict, out: str, index: int, first: int, n: int):
    """Play one chunk and write its part; runs in a worker (or in-process for one worker)."""
    key = repr(sorted(description.items()))
    m = _MATCHUPS.get(key)
    if m is None:
        m = _MATCHUPS[key] = from_description(description)
    block = play_block(m, first, n)
    write_part(Path(out), index, block_table(m, block, metadata))
    return index, first, n


# ----------------------------------------------------------------------------- the run
@dataclass
class RunReport:
    manifest: dict
    seconds: float
    compile_seconds: float
    interrupted: bool


def run(m: Matchup, games: int, out: Path, workers: int | None = None,
        chunk_size: int | None = None, overwrite: bool = False, progress: bool = True,
        command: str | None = None) -> RunReport:
    """Play ``games`` games of the matchup into the dataset directory ``out``."""
    if games < 1:
        raise ValueError("games must be at least 1")
    workers = workers or default_workers()
    chunk_size = chunk_size or default_chunk(games, workers)
    out = Path(out)
    prepare_output(out, overwrite)
    manifest = make_manifest(m, games, chunk_size, command)
    write_manifest(out, manifest)
    metadata = {k: manifest[k] for k in ("format", "tool_version", "game", "rules_version", "players",
                                         "options", "seed", "seats", "rotate")}

    t0 = time.perf_counter()
    play_block(m, 0, 1)  # compile (or load from the disk cache) before forking workers
    compile_seconds = time.perf_counter() - t0

    from tqdm import tqdm

    bar = tqdm(total=games, unit="game", unit_scale=True, disable=not progress, file=sys.stderr,
               desc=f"{m.spec.name} x{workers}", smoothing=0.1)
    done: dict[int, tuple[int, int]] = {}
    description = m.describe()
    interrupted = False
    start = time.perf_counter()
    try:
        if workers == 1:
            for index, first, n in chunk_plan(games, chunk_size):
                run_chunk(description, metadata, str(out), index, first, n)
                done[index] = (first, n)
                bar.update(n)
        else:
            _run_pool(description, metadata, out, games, chunk_size, workers, done, bar)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    manifest["parts"] = [{"file": f"part-{i:06d}.parquet", "first_game": first, "games": n}
                         for i, (first, n) in sorted(done.items())]
    manifest["games_done"] = sum(n for _, n in done.values())
    manifest["status"] = "interrupted" if interrupted else "complete"
    manifest["seconds"] = round(seconds, 3)
    write_manifest(out, manifest)
    return RunReport(manifest, seconds, compile_seconds, interrupted)


def _run_pool(description, metadata, out, games, chunk_size, workers, done, bar):
    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    plan = chunk_plan(games, chunk_size)
    executor = ProcessPoolExecutor(workers, mp_context=mp.get_context(method), initializer=_worker_init)
    pending = set()
    try:
        for _ in range(2 * workers):  # a bounded number of chunks in flight: memory stays flat
            item = next(plan, None)
            if item is None:
                break
            pending.add(executor.submit(run_chunk, description, metadata, str(out), *item))
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index, first, n = future.result()
                done[index] = (first, n)
                bar.update(n)
                item = next(plan, None)
                if item is not None:
                    pending.add(executor.submit(run_chunk, description, metadata, str(out), *item))
    except KeyboardInterrupt:
        for future in pending:
            future.cancel()
        for future in pending:  # chunks already running finish and keep their whole parts
            if not future.cancelled():
                try:
                    index, first, n = future.result()
                    done[index] = (first, n)
                except Exception:
                    pass
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
