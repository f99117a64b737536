"""Where the chunks of a run are played: in this process, on the built-in pool of forked worker
processes, or on a Dask distributed cluster.

Every backend runs *chunk tasks* ``(key, (description, metadata, out, index, first, n))`` — the
matchup as plain data (:meth:`Matchup.describe`), the run description stored in every part, the
dataset directory, the part index and the game range — and calls ``on_done(key, info)`` once per
finished chunk, after its part is in place, with ``info = {"index", "first_game", "games",
"file", "bytes", "sha256"}``.

- :class:`InProcess` (one worker) and :class:`LocalPool` (forked processes, a bounded number of
  chunks in flight): each worker plays its chunk and writes the part itself.
- :class:`DaskBackend` (``--scheduler tcp://HOST:8786`` or ``local``): a Dask task plays a chunk
  and returns the part's Parquet bytes; the client (this process) writes every part atomically.
  So workers need no shared storage and no access to the output directory, the client is the
  only writer, and a task run twice (its worker was lost after finishing) still gives one part
  (a part is keyed by its chunk index and renamed into place). Workers rebuild the matchup from
  the description, so they need the same tourney (and plug-ins) installed; that is checked
  before anything is written.

The rows of a chunk depend only on (seed, game index), so every backend writes the same parts.
"""
from __future__ import annotations

import itertools
import logging
import multiprocessing as mp
import os
import re
import signal
import threading
import uuid
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from . import __version__, _source_hash
from .errors import TourneyError
from .jobdir import interrupt_deferred
from .matchup import Matchup, RunError, from_description, play_block
from .results import block_table, encode_part, write_part_bytes

#: hash of tourney's sources as imported by this process (recorded in manifests, compared with
#: Dask workers and on resume: the same code gives the same rows)
SOURCES = _source_hash()

#: seconds to wait for a Dask scheduler to answer, and for it to have at least one worker
CONNECT_TIMEOUT = 20.0
WORKER_WAIT = 60.0
DEFAULT_PORT = 8786


def default_workers() -> int:
    """Worker processes by default: every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class BackendError(TourneyError):
    """The backend cannot be used (bad or unreachable scheduler, unfit workers); one line."""


# ----------------------------------------------------------------------------- worker side
_MATCHUPS: dict[str, Matchup] = {}


def _worker_init(parent: int | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; workers finish their chunk
    try:  # Linux: die with the parent (a SIGKILLed run leaves no orphan playing on)
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if parent is not None and os.getppid() != parent:  # it died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def _matchup(description: dict) -> Matchup:
    key = repr(sorted(description.items()))
    m = _MATCHUPS.get(key)
    if m is None:
        m = _MATCHUPS[key] = from_description(description)
    return m


def play_part(description: dict, metadata: dict, index: int, first: int, n: int) -> bytes:
    """Play one chunk and return its part's Parquet bytes (a Dask task)."""
    m = _matchup(description)
    return encode_part(block_table(m, play_block(m, first, n), metadata))


def write_chunk(description: dict, metadata: dict, out: str, index: int, first: int, n: int) -> dict:
    """Play one chunk and write its part; returns the part's info (see the module docstring)."""
    info = write_part_bytes(Path(out), index, play_part(description, metadata, index, first, n))
    return {"index": index, "first_game": first, "games": n, **info}


def worker_info() -> dict:
    """What a Dask worker runs (checked against the client before a run)."""
    import sys

    return {"tourney": __version__, "sources": SOURCES,
            "python": ".".join(map(str, sys.version_info[:2]))}


def check_matchup(description: dict) -> bool:
    """Rebuild the matchup on a worker: its strategies (plug-ins too) must be installed there."""
    _matchup(description)
    return True


# ----------------------------------------------------------------------------- backends
class Backend:
    """Runs chunk tasks; ``workers`` is the number of chunks it plays at once."""

    name = "?"
    workers = 1

    def check(self, description: dict) -> None:
        """Raise BackendError if the workers cannot play this matchup (before anything is written)."""

    def run(self, tasks, on_done) -> None:
        raise NotImplementedError

    def map(self, fn, tasks, on_done) -> None:
        """Other work than chunks: ``on_done(key, fn(*args))`` for each ``(key, args)`` of
        ``tasks`` (an iterator read lazily, a bounded number in flight; results come in any
        order). ``fn`` must be importable by name on the workers (a module-level function)."""
        for key, args in tasks:
            on_done(key, fn(*args))

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class InProcess(Backend):
    name = "local"

    def run(self, tasks, on_done) -> None:
        for key, args in tasks:
            on_done(key, write_chunk(*args))


class LocalPool(Backend):
    """The built-in runner: forked worker processes, at most two chunks in flight per worker."""

    name = "local"

    def __init__(self, workers: int):
        self.workers = workers
        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
        self.pool = ProcessPoolExecutor(workers, mp_context=mp.get_context(method), initializer=_worker_init,
                                        initargs=(os.getpid(),))

    def _submit(self, item, pending: dict, fn=write_chunk) -> None:
        """Send one task, a Ctrl-C held until it is sent: ``ProcessPoolExecutor.submit`` records
        the work item, queues its id, wakes its manager thread and (the first time) forks the
        workers; a KeyboardInterrupt between those steps leaves an item that is never queued, and
        ``shutdown(wait=True)`` then waits for it for ever (a run that hangs after Ctrl-C)."""
        with interrupt_deferred():
            pending[self.pool.submit(fn, *item[1])] = item[0]

    def run(self, tasks, on_done) -> None:
        self.map(write_chunk, tasks, on_done)

    def map(self, fn, tasks, on_done) -> None:
        tasks = iter(tasks)
        pending = {}
        try:
            for _ in range(2 * self.workers):  # a bounded number of chunks in flight: flat memory
                item = next(tasks, None)
                if item is None:
                    break
                self._submit(item, pending, fn)
            while pending:
                finished = _first_completed(pending)
                for future in finished:
                    # recorded before it leaves ``pending``: a Ctrl-C inside ``on_done`` (saving the
                    # manifest) records it again below, so no part on disk goes unrecorded
                    on_done(pending[future], future.result())
                    del pending[future]
                    item = next(tasks, None)
                    if item is not None:
                        self._submit(item, pending, fn)
        except BaseException:
            for future in pending:
                future.cancel()
            for future, key in pending.items():  # chunks already running finish and are kept
                if not future.cancelled():
                    try:
                        on_done(key, future.result())
                    except BaseException:
                        pass
            raise

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _first_completed(pending) -> set:
    """``concurrent.futures.wait(pending, return_when=FIRST_COMPLETED)``'s finished futures, with a
    Ctrl-C raised only between waits, never inside one.

    The wait blocks in ``threading.Condition.wait``, which releases its lock and then enters a
    ``try`` that takes it back; a KeyboardInterrupt raised by the default SIGINT handler between
    the two (a window of a few bytecodes, hit now and then under load) leaves the lock released,
    and ``Event.wait``'s ``with`` releases it again: ``RuntimeError: release unlocked lock`` (issue
    40) instead of an interrupted run. So, in the main thread with Python's default handler, a
    Ctrl-C while waiting is only recorded, the wait is cut into short slices, and the
    KeyboardInterrupt is raised here, outside every lock."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return wait(pending, return_when=FIRST_COMPLETED)[0]
    caught = []
    finished = set()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        while not caught and not finished:
            finished, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:  # even when a chunk finished meanwhile: it is kept by the caller's Ctrl-C handling
        raise KeyboardInterrupt
    return finished


_ADDRESS = re.compile(r"^(?:(tcp|tls|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.\-]+)(?::(\d{1,5}))?$")


def parse_scheduler(text: str) -> str:
    """``local``, or a scheduler address: ``tcp://HOST:PORT`` (also tls/ws/wss; ``HOST`` alone
    means tcp on port 8786). BackendError for anything else."""
    text = (text or "").strip()
    if text == "local":
        return text
    match = _ADDRESS.match(text)
    if not match or not match.group(2):
        raise BackendError(f"--scheduler expects tcp://HOST:PORT (a Dask scheduler) or local, got {text!r}")
    scheme, host, port = match.group(1) or "tcp", match.group(2), match.group(3)
    port = int(port) if port is not None else DEFAULT_PORT
    if not (1 <= port <= 65535):
        raise BackendError(f"--scheduler: port {port} is not a port number (1 to 65535)")
    return f"{scheme}://{host}:{port}"


class DaskBackend(Backend):
    """Chunks as Dask tasks; the client writes the parts (see the module docstring)."""

    name = "dask"

    def __init__(self, scheduler: str, workers: int | None = None):
        address = parse_scheduler(scheduler)
        try:
            import distributed
        except ImportError:  # pragma: no cover - a dependency
            raise BackendError("--scheduler needs dask[distributed]: pip install 'dask[distributed]'") from None
        _quiet_dask_tracebacks()
        self.address = address
        self.cluster = None
        self.client = None
        try:
            if address == "local":
                self.cluster = distributed.LocalCluster(
                    n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.CRITICAL)  # workers: no tracebacks
                self.client = distributed.Client(self.cluster, set_as_default=False)
            else:
                self.client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise BackendError(f"cannot reach the Dask scheduler at {address} within "
                               f"{CONNECT_TIMEOUT:g} s: {_first_line(exc)}") from None
        try:
            self.client.wait_for_workers(1, timeout=WORKER_WAIT)
        except (OSError, TimeoutError):
            self.close()
            raise BackendError(f"the Dask scheduler at {address} has no workers (waited "
                               f"{WORKER_WAIT:g} s): start some with `dask worker {address}`") from None
        self._check_workers()

    def _check_workers(self) -> None:
        mine = worker_info()
        try:
            infos = self.client.run(worker_info)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise BackendError(f"lost the connection to the Dask scheduler at {self.address}: "
                               f"{_first_line(exc)}") from None
        except Exception as exc:
            self.close()
            raise BackendError(f"the Dask workers of {self.address} cannot run tourney ({_first_line(exc)}): "
                               f"install tourney {mine['tourney']} on every worker") from None
        for worker, info in sorted(infos.items()):
            if info != mine:
                self.close()
                raise BackendError(
                    f"Dask worker {worker} runs tourney {info.get('tourney')} (sources "
                    f"{info.get('sources')}, Python {info.get('python')}), this client tourney "
                    f"{mine['tourney']} (sources {mine['sources']}, Python {mine['python']}): install "
                    f"the same tourney on every worker, or results could differ")

    @property
    def workers(self) -> int:
        try:
            return max(1, sum(self.client.nthreads().values()))
        except Exception:
            return 1

    def check(self, description: dict) -> None:
        try:
            self.client.run(check_matchup, description)
        except (OSError, TimeoutError) as exc:  # CommClosedError is an OSError
            raise BackendError(f"lost the connection to the Dask scheduler at {self.address}: "
                               f"{_first_line(exc)}") from None
        except Exception as exc:
            raise BackendError(f"the Dask workers cannot play this matchup: {_first_line(exc)} (install "
                               f"the same tourney and strategy plug-ins on every worker)") from None

    def map(self, fn, tasks, on_done) -> None:
        from distributed import as_completed

        tasks = iter(tasks)
        token = uuid.uuid4().hex[:12]
        pending: dict = {}
        done_iter = as_completed(loop=self.client.loop)
        counter = itertools.count()

        def submit() -> bool:
            item = next(tasks, None)
            if item is None:
                return False
            future = self.client.submit(fn, *item[1], key=f"tourney-{token}-{next(counter)}", pure=False)
            pending[future] = item[0]
            done_iter.add(future)
            return True

        try:
            for _ in range(2 * self.workers):
                if not submit():
                    break
            for future in done_iter:
                try:
                    result = future.result()
                except (RunError, KeyboardInterrupt):
                    raise
                except Exception as exc:
                    raise BackendError(f"a Dask task failed: {_first_line(exc)}") from None
                finally:
                    future.release()
                on_done(pending.pop(future), result)
                submit()
        except BaseException:
            try:
                self.client.cancel(list(pending))
            except Exception:
                pass
            raise

    def run(self, tasks, on_done) -> None:
        from distributed import as_completed

        tasks = iter(tasks)
        token = uuid.uuid4().hex[:12]
        pending: dict = {}
        done_iter = as_completed(loop=self.client.loop)
        count = 0

        def submit() -> bool:
            nonlocal count
            item = next(tasks, None)
            if item is None:
                return False
            key, (description, metadata, out, index, first, n) = item
            future = self.client.submit(play_part, description, metadata, index, first, n,
                                        key=f"tourney-{token}-{count}-part-{index}", pure=False)
            count += 1
            pending[future] = (key, out, index, first, n)
            done_iter.add(future)
            return True

        def finish(future) -> None:
            key, out, index, first, n = pending.pop(future)
            try:
                data = future.result()
            except (RunError, KeyboardInterrupt):
                raise
            except Exception as exc:
                raise _task_error(exc, index, first, n) from None
            finally:
                future.release()
            info = write_part_bytes(Path(out), index, data)
            on_done(key, {"index": index, "first_game": first, "games": n, **info})

        try:
            for _ in range(2 * self.workers):  # a bounded number of chunks in flight: flat memory
                if not submit():
                    break
            for future in done_iter:
                finish(future)
                submit()
        except BaseException:
            for future, _ in list(pending.items()):  # keep what is already finished
                if future.status == "finished":
                    try:
                        finish(future)
                    except BaseException:
                        pass
            try:
                self.client.cancel(list(pending))
            except Exception:
                pass
            raise

    def close(self) -> None:
        for thing in (self.client, self.cluster):
            if thing is not None:
                try:
                    thing.close()
                except Exception:
                    pass
        self.client = self.cluster = None


def _task_error(exc: BaseException, index: int, first: int, n: int) -> RunError:
    where = f"chunk {index} (games {first:,} to {first + n - 1:,})"
    try:
        from distributed.scheduler import KilledWorker
    except ImportError:  # pragma: no cover
        KilledWorker = ()
    if isinstance(exc, KilledWorker):
        return RunError(f"{where} was lost with every worker that tried it (Dask KilledWorker): a "
                        f"worker keeps dying on it (memory?); the finished parts are kept, continue "
                        f"with --resume")
    name = type(exc).__name__
    if name in ("FutureCancelledError", "CancelledError", "CommClosedError") or isinstance(exc, OSError):
        return RunError(f"lost the Dask scheduler while playing {where} ({_first_line(exc)}); the "
                        f"finished parts are kept: start the cluster again and continue with --resume")
    if name in ("StrategyError", "RuleError"):
        return RunError(f"a Dask worker could not play {where}: {_first_line(exc)} (install the same "
                        f"tourney and strategy plug-ins on every worker)")
    return RunError(f"the Dask cluster failed on {where}: {name}: {_first_line(exc)}; the finished "
                    f"parts are kept, continue with --resume")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0].rstrip(".") if text else type(exc).__name__


class _OneLine(logging.Filter):
    """Dask logs some failures (a lost scheduler, a killed worker) with a traceback; the CLI
    promises none, so the client's Dask log lines keep their one-line message only."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


def _quiet_dask_tracebacks() -> None:
    names = [n for n in list(logging.root.manager.loggerDict) if n == "distributed" or n.startswith("distributed.")]
    for name in names:
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, _OneLine) for f in handler.filters):
                handler.addFilter(_OneLine())


def open_backend(workers: int | None = None, scheduler: str | None = None) -> Backend:
    """The backend for ``--workers`` / ``--scheduler``: None -> the built-in local runner
    (in-process for one worker), ``local`` -> a new local Dask cluster of ``workers`` processes,
    ``tcp://HOST:PORT`` -> an existing Dask cluster (``workers`` is then ignored)."""
    if scheduler is not None:
        return DaskBackend(scheduler, workers)
    workers = workers or default_workers()
    return InProcess() if workers == 1 else LocalPool(workers)
