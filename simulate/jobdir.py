"""The job directory: where a run, a tournament, a tuning run or a study (and the design search
to come) keeps its output, its manifest and its status, so that it can be resumed.

A *job kind* (:class:`JobKind`) names the manifest file that marks a directory as one of its
jobs, the manifest's format, and the *identity keys*: what must be equal for a job to be resumed.
A :class:`JobDir` is one directory of a kind:

- before anything is written, :meth:`JobDir.previous` refuses an existing directory unless
  ``overwrite`` (and then only a directory of the same kind is ever deleted), or with ``resume``
  reads the manifest of the job to continue; :meth:`JobDir.check_resume` refuses, in one line
  naming every difference, a resume with other identity keys;
- :meth:`JobDir.create` replaces (``overwrite``) and creates the directory and checks it is
  writable;
- the manifest is written atomically and flushed to disk (:func:`write_json`: a hidden temporary
  file renamed into place), so a reader or a resume never sees half a manifest;
- its ``status`` goes ``running`` -> ``complete`` | ``interrupted`` | ``failed`` (with the
  one-line ``error``), and back to ``running`` when the job is resumed (:meth:`JobDir.start`,
  :meth:`JobDir.finish`);
- a new or resumed job first checks that its directory can be written (:meth:`JobDir.check_writable`):
  any failure on the way is one line, never a traceback.

Every kind registers itself in :data:`KINDS` when its module makes it; :func:`detect` says which
kind a directory holds, for every command that takes a directory, and :func:`not_a` says in one
line what to give instead of a directory of another kind (one of the jobs inside it,
:func:`members`). This module sits below the kinds and imports none of them: whatever asks these
questions asks :mod:`tourney_sim.simulate.jobs`, which imports every kind first.

:func:`execute` is the one loop that plays a job's tasks on a backend
(:mod:`tourney_sim.simulate.backends`), batch after batch: it records each finished task, saves a
checkpoint at most every :data:`CHECKPOINT_SECONDS`, may stop between batches, turns Ctrl-C into
an ``interrupted`` outcome (the finished tasks are kept) and records any failure before raising it.
"""
from __future__ import annotations

import json
import os
import contextlib
import shutil
import signal
import sys
import threading
import time
from dataclasses import MISSING as MISSING_FACTORY, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable

from .errors import TourneyError

#: a job's life: it runs, then ends one of three ways; a resume sets it running again
RUNNING = "running"
ENDINGS = ("complete", "interrupted", "failed")
#: while tasks run, the manifest is saved at most this often (a killed job loses no recorded task);
#: a save that takes longer than SLOW_SAVE seconds (a manifest of very many parts) waits ten times
#: as long before the next one, so saving never takes more than a tenth of the time
CHECKPOINT_SECONDS = 1.0
SLOW_SAVE = 0.1
#: the empty file written and deleted to check that a directory is writable
PROBE = ".write-probe"


class OutputError(TourneyError):
    """Bad output location; the message is one line for the user."""


class ResumeError(OutputError):
    """A resume that cannot go on (different parameters, not a job of this kind); one line."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def shown_path(path) -> str:
    """A path as a recorded command shows it: never absolute, so that no manifest, report or
    document names a directory of the machine it ran on. A relative path stays as it was given
    (it is relative to the working directory already); an absolute one becomes relative to the
    working directory at the time (``os.path.relpath``: ``..`` steps when it lies outside). So
    the command runs again, the same way, from the directory it ran in. Only a path that has no
    relative form (another drive on Windows) stays as it was."""
    text = str(path)
    if not os.path.isabs(text):
        return text
    try:
        return os.path.relpath(text)
    except (ValueError, OSError):  # another drive; a working directory that is gone
        return text


def relative_command(args) -> list[str]:
    """The words of a command line with every absolute path in them shown by :func:`shown_path`:
    a word that is a path (``--out /x``), an option's value (``--out=/x``), a rule's value
    (``components=/x.toml``) or a strategy's settings file (``NAME@/x.toml``)."""
    return [_relative_word(str(word)) for word in args]


def _relative_word(word: str) -> str:
    if os.path.isabs(word):
        return shown_path(word)
    for mark in ("=", "@"):
        before, sep, after = word.partition(mark)
        if sep and os.path.isabs(after):
            return before + sep + shown_path(after)
    return word


def error_line(exc: BaseException) -> str:
    """The first line of an error's message (its class name if it has none)."""
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def write_json(path: Path, data: dict, indent: int = 1) -> None:
    """Replace the JSON file ``path`` atomically: a hidden temporary file, flushed to disk and
    renamed into place (a reader sees the old file or the new one, never a part of either)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w") as f:
            f.write(json.dumps(data, indent=indent) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def as_stored(value):
    """A value as it reads back from a manifest (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


@dataclass(frozen=True)
class JobKind:
    """What a kind of job writes: ``name`` as the user calls it ("dataset", "tournament", ...),
    ``marker`` its manifest's file name, ``format`` the manifest's format, ``identity`` the
    manifest keys a resume must match, ``indent`` of the manifest's JSON."""

    name: str
    marker: str
    format: str
    identity: tuple[str, ...]
    indent: int = 1

    def __post_init__(self):
        KINDS.setdefault(self.marker, self)  # what :func:`detect` recognises

    def identity_of(self, manifest: dict) -> dict:
        """The values a resume compares (a kind may compare a summary of a key instead)."""
        return {k: as_stored(manifest.get(k)) for k in self.identity}


#: every kind of job directory, by its manifest's file name (a kind registers itself when made;
#: :mod:`tourney_sim.simulate.jobs` imports every kind's module)
KINDS: dict[str, JobKind] = {}
#: how a finished job of a kind (by its name) writes its report: ``(directory, manifest) -> its
#: findings in words``. The reports register their own (:func:`renders`): they sit above the jobs,
#: which never import them; the API imports them before it runs a job
RENDERERS: dict[str, Callable[[Path, dict], str]] = {}


def renders(kind: JobKind):
    """Register the decorated ``(directory, manifest) -> summary`` as the report of ``kind``'s jobs."""
    def register(fn):
        RENDERERS[kind.name] = fn
        return fn
    return register


# ----------------------------------------------------------------------------- which kind is it?
def detect(path: Path) -> JobKind | None:
    """The kind of job whose manifest is in the directory ``path``: a dataset (``tourney run``),
    a tournament or sweep, a tuning run, a study, a design run; None if it holds none. Every command that takes
    a directory asks here, through :mod:`tourney_sim.simulate.jobs` (every kind registered)."""
    for marker, kind in KINDS.items():
        if os.path.isfile(Path(path) / marker):  # False, never an error, for any path
            return kind
    return None


def kind_name(path: Path, kind: JobKind) -> str:
    """What the user calls the job in ``path``: the kind's name, or the manifest's own ``kind``
    (a tournament's directory holds a tournament or a sweep)."""
    try:
        recorded = json.loads((Path(path) / kind.marker).read_text()).get("kind")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        recorded = None
    return recorded if isinstance(recorded, str) and recorded else kind.name


def members(path: Path) -> list[Path]:
    """The jobs inside the directory ``path`` (a tournament's seatings, a study's stages, a tuning
    run's datasets): the nearest sub-directories holding a manifest of any kind, in order."""
    found = []
    for root, dirs, _ in os.walk(path):
        dirs.sort()
        if Path(root) != Path(path) and any(os.path.isfile(Path(root) / m) for m in KINDS):
            found.append(Path(root))
            dirs.clear()
    return found


def not_a(path: Path, wanted: JobKind, instead: str = "") -> str:
    """The one line saying that ``path`` is not a job of the kind ``wanted`` and what to give
    instead: one of the datasets inside it (named, with an example), or ``instead`` (a command
    that takes it as it is, e.g. "or `tourney report DIR` for the study's report")."""
    path = Path(path)
    kind = detect(path)
    if kind is None:
        return f"{path} is not a tourney {wanted.name} (no {wanted.marker})"
    name = kind_name(path, kind)
    inside = [m for m in members(path) if detect(m) is wanted]
    if not inside:
        return f"{path} is a {name}, not a {wanted.name}{instead}"
    example = inside[0].relative_to(path)
    return (f"{path} is a {name}; its {wanted.name}s are in its sub-directories (e.g. {path / example}): "
            f"give one of them{instead}")


def differences(old: dict, new: dict) -> list[str]:
    """Each identity value that differs between a recorded job and the one asked for, in words
    (empty: it can be resumed). ``old`` and ``new`` as :meth:`JobKind.identity_of` gives them."""
    diffs = []
    for k, a in old.items():
        b = new.get(k)
        if a == b:
            continue
        if k == "rules_version":
            diffs.append(f"the rules of {old.get('game')} changed since it started (rules v{a}, now v{b}): "
                         f"its games would not be the same games")
        elif k == "sources":
            diffs.append(f"tourney's code changed since the run started (sources {a}, now {b})")
        else:
            diffs.append(f"{k} {json.dumps(a)} (now {json.dumps(b)})")
    return diffs


def mismatch(out: Path, diffs: list[str], command: str | None, shown: int = 3) -> ResumeError:
    """The one-line refusal of a resume with other parameters (the first ``shown`` differences)."""
    return ResumeError(f"cannot resume {out}: it was started with different parameters: {'; '.join(diffs[:shown])}"
                       + (f" (and {len(diffs) - shown} more)" if len(diffs) > shown else "")
                       + ". Give the original parameters"
                       + (f" ({command})" if command else "")
                       + ", or use --overwrite to start again")


def by_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C, or an error a Ctrl-C caused: CPython wraps an exception raised
    while a class is created (``__set_name__``, as in a module being imported) in a RuntimeError
    whose cause is the KeyboardInterrupt."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


@contextlib.contextmanager
def interrupt_deferred():
    """A Ctrl-C inside is raised (KeyboardInterrupt) as the block ends, not in the middle of it: for
    the few writes that record a job's outcome (a tournament's seatings and its own manifest), so
    that a Ctrl-C as a job ends never leaves it recorded as running. In the main thread with
    Python's default SIGINT handler only; elsewhere a plain block."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def leftovers(directory: Path) -> list[Path]:
    """Files a writer killed at any moment may leave behind: hidden temporary files and the
    writability probe."""
    d = Path(directory)
    return sorted(set(d.glob(".*.tmp")) | ({d / PROBE} if (d / PROBE).exists() else set()))


class JobDir:
    """One job's directory (see the module docstring)."""

    def __init__(self, kind: JobKind, path: Path):
        self.kind = kind
        self.path = Path(path)

    @property
    def manifest_path(self) -> Path:
        return self.path / self.kind.marker

    def _holds_files(self) -> bool:
        return self.path.is_dir() and any(self.path.iterdir())

    def _what_it_is(self) -> str:
        """Why the directory is not a job of this kind: it is another kind, or none."""
        found = detect(self.path)
        if found is None:
            return f"it is not a tourney {self.kind.name} (no {self.kind.marker})"
        return (f"it is a {kind_name(self.path, found)}, not a {self.kind.name} (give another --out, or "
                f"the command that made it with --resume or --overwrite)")

    # ------------------------------------------------------------------ before anything is written
    def refuse_unless_replaceable(self, overwrite: bool) -> None:
        """Raise OutputError unless the directory may be used for a new job: missing, empty, or
        (with ``overwrite``) a job of this kind."""
        out, kind = self.path, self.kind
        if out.exists() and not out.is_dir():
            raise OutputError(f"output {out} exists and is not a directory")
        if self._holds_files():
            if not overwrite:
                raise OutputError(f"output directory {out} already exists (use --overwrite to replace it, "
                                  f"or --resume to continue it)")
            if not self.manifest_path.exists():
                raise OutputError(f"refusing to overwrite {out}: {self._what_it_is()}")

    def previous(self, resume: bool, overwrite: bool) -> dict | None:
        """Check the directory before anything is written. With ``resume``: the manifest of the
        job to continue (its directory writable), or None when there is none yet (no directory,
        an empty one, or only the leftovers of a job killed at its very start, which are
        deleted). Without: None, or OutputError if it may not be used
        (:meth:`refuse_unless_replaceable`)."""
        if resume and overwrite:
            raise OutputError("--resume and --overwrite cannot be used together")
        try:
            return self._previous(resume, overwrite)
        except OSError as exc:  # e.g. a directory on the way that this user may not enter
            raise OutputError(f"cannot use output {self.path}: {exc.strerror or exc}") from None

    def _previous(self, resume: bool, overwrite: bool) -> dict | None:
        out, kind = self.path, self.kind
        if not resume:
            self.refuse_unless_replaceable(overwrite)
            return None
        if not out.exists():
            return None
        if not out.is_dir():
            raise ResumeError(f"cannot resume {out}: it is not a directory")
        if not self.manifest_path.exists():
            stale = set(leftovers(out))
            if any(p not in stale for p in out.iterdir()):
                raise ResumeError(f"cannot resume {out}: {self._what_it_is()}")
            for p in stale:
                p.unlink(missing_ok=True)
            return None
        try:
            old = json.loads(self.manifest_path.read_text())
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise ResumeError(f"cannot resume {out}: {kind.marker} is unreadable ({exc})") from None
        found = old.get("format") if isinstance(old, dict) else None
        if found != kind.format:
            raise ResumeError(f"cannot resume {out}: it was written in format {found!r}, this tourney "
                              f"writes {kind.format!r}")
        self.check_writable()
        return old

    def check_resume(self, old: dict, new: dict, more=()) -> None:
        """ResumeError naming every identity key in which ``new`` differs from ``old`` (and the
        differences ``more`` found elsewhere, e.g. in the job's sub-directories), with the
        command that started it."""
        diffs = differences(self.kind.identity_of(old), self.kind.identity_of(new)) + list(more)
        if diffs:
            raise mismatch(self.path, diffs, old.get("command"))

    def open(self, request: dict, resume: bool, overwrite: bool) -> dict | None:
        """Continue the job (``resume``: its old manifest, checked against ``request``) or make
        its directory: the old manifest, or None for a new job."""
        old = self.previous(resume, overwrite)
        if old is not None:
            self.check_resume(old, request)
        else:
            self.create(overwrite)
        return old

    # ------------------------------------------------------------------ writing
    def create(self, overwrite: bool) -> None:
        """Make the directory for a new job: a job of this kind already there is deleted
        (``overwrite``; anything else is refused), and the directory must be writable."""
        try:
            self.refuse_unless_replaceable(overwrite)
            self.check_writable(parent=True)  # before anything is deleted
            if self._holds_files():
                shutil.rmtree(self.path)
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot write to output {self.path}: {exc.strerror or exc}") from None
        self.check_writable()

    def check_writable(self, parent: bool = False) -> None:
        """OutputError (one line) unless a file can be written in the directory (``parent``: in
        its nearest existing ancestor, for a directory still to be made): an empty probe file is
        written and deleted. Every job checks here before it writes, new or resumed."""
        where = self.path
        if parent:
            while not os.path.exists(where) and where != where.parent:
                where = where.parent
            if not os.path.isdir(where):
                raise OutputError(f"cannot write to output {self.path}: {where} is not a directory")
        probe = where / PROBE
        try:
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise OutputError(f"cannot write to output {self.path}: {exc.strerror or exc}") from None

    def write(self, manifest: dict) -> None:
        write_json(self.manifest_path, manifest, self.kind.indent)

    @staticmethod
    def resumed(old: dict, manifest: dict, command: str | None, **record) -> None:
        """Keep the job's creation time and list this resumption (when, by which command)."""
        manifest["created"] = old.get("created", manifest.get("created"))
        manifest["resumed"] = list(old.get("resumed", [])) + [{"at": now(), "command": command, **record}]

    def start(self, manifest: dict) -> None:
        """The job runs (again, when resumed): status ``running``, any old error dropped."""
        manifest.pop("error", None)
        manifest["status"] = RUNNING
        self.write(manifest)

    def finish(self, manifest: dict, status: str, seconds: float | None = None,
               error: str | None = None) -> None:
        """The job ended: ``complete``, ``interrupted`` or ``failed`` (with its one-line error)."""
        if status not in ENDINGS:
            raise ValueError(f"a job ends {', '.join(ENDINGS)}, not {status!r}")
        if manifest.get("status") != RUNNING:
            raise ValueError(f"only a running job ends; this one is {manifest.get('status')!r}")
        manifest["status"] = status
        manifest["finished"] = now()  # when the data were made (reports say this, never the clock)
        if seconds is not None:
            manifest["seconds"] = round(seconds, 3)
        if error is not None:
            manifest["error"] = error
        with interrupt_deferred():  # a Ctrl-C now comes after the outcome is recorded
            self.write(manifest)


def read_job(kind: JobKind, directory: Path, error=ValueError) -> dict:
    """The manifest of a finished or running job of ``kind`` in ``directory``, for a reader;
    ``error`` (a class) with a one-line message if it is missing, unreadable or of another format."""
    path = Path(directory) / kind.marker
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise error(f"{path} is unreadable: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != kind.format:
        found = data.get("format") if isinstance(data, dict) else None
        raise error(f"{directory} is a {kind.name} of format {found!r}; this tourney reads {kind.format}")
    return data


# ----------------------------------------------------------------------------- the task loop
def progress_bar(total: int, initial: int, enabled: bool, desc: str):
    """The progress bar of a job's games (on stderr)."""
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit="game", unit_scale=True, disable=not enabled,
                file=sys.stderr, desc=desc, smoothing=0.1)


def execute(start: Callable[[], object], batches: Iterable, on_done: Callable, *,
            where: Path, on_failure: Callable[[str], None] | None = None,
            checkpoint: Callable[[], None] | None = None, after_batch: Callable[[], bool] | None = None) -> str:
    """Play a job's tasks: ``start()`` (compile, open the backend; inside the guard, so Ctrl-C or
    a failure there counts too) returns the backend, which runs each batch (an iterable of
    ``(key, args)`` chunk tasks) in turn, calling ``on_done(key, info)`` for each finished task
    and ``checkpoint()`` at most every :data:`CHECKPOINT_SECONDS` (and ten times as long as the
    last one took); ``after_batch()`` returning
    True stops before the next batch.

    Returns ``"complete"``, ``"stopped"`` or ``"interrupted"`` (Ctrl-C; the tasks already
    finished are kept). Any other failure is raised (a failed write, an OSError, as a one-line
    RunError), after ``on_failure(error line)`` when given (:func:`run_job` records it itself)."""
    from .matchup import RunError

    try:
        backend = start()
        last = time.perf_counter()
        interval = CHECKPOINT_SECONDS

        def done(key, info) -> None:
            nonlocal last, interval
            on_done(key, info)
            moment = time.perf_counter()
            if checkpoint is not None and moment - last >= interval:
                checkpoint()
                last = time.perf_counter()
                # a manifest of very many parts takes long to save: then save it less often, so
                # that saving never takes more than a tenth of the time
                took = last - moment
                interval = max(CHECKPOINT_SECONDS, 10 * took) if took > SLOW_SAVE else CHECKPOINT_SECONDS

        for batch in batches:
            backend.run(batch, done)
            if after_batch is not None and after_batch():
                return "stopped"
        return "complete"
    except KeyboardInterrupt:
        return "interrupted"
    except BaseException as exc:
        if isinstance(exc, OSError):  # a full disk, a vanished directory: one line, tasks kept
            exc = RunError(f"cannot write the results to {where}: {exc.strerror or exc}; the finished "
                           f"parts are kept, continue with --resume")
        if on_failure is not None:
            try:
                on_failure(error_line(exc))
            except OSError:
                pass
        if isinstance(exc, RunError):
            raise exc from None
        raise


# ----------------------------------------------------------------------------- one job, start to end
@dataclass
class Outcome:
    """How a job ended: its ``manifest`` as recorded, its directory ``out``, the ``seconds`` this
    call took, whether it was ``interrupted`` (Ctrl-C; what it finished is kept) or ``resumed``,
    the ``notes`` of a resume (what it kept, adopted or discarded) and the ``summary`` its report
    gave (a finished study or design run: its findings in words)."""

    manifest: dict
    out: Path
    seconds: float
    interrupted: bool
    resumed: bool = False
    notes: list = field(default_factory=list)
    summary: str = ""


class Job:
    """One kind of job, as :func:`run_job` drives it: a request (the kind's dataclass, its fields
    its options) made into a plan, played, summed up and reported. A kind subclasses it and
    fills in what differs; the life around it (the directory, the resume, the status, Ctrl-C, a
    failure recorded) is :func:`run_job`'s alone.

    - :meth:`prepare` (``old``: the manifest of the job being resumed, or None): check the request,
      open what it needs (a backend) and return the new manifest, its identity keys included.
      Nothing is written yet; any error is one line.
    - :meth:`differences`: what a resume finds different beyond the identity keys (e.g. in the
      job's sub-directories); :meth:`adopt`: on resume, take over what the interrupted job
      finished (into the new manifest) and say what was kept (:meth:`resumed_record`: what the
      manifest's list of resumptions records of it).
    - :meth:`begin` writes the manifest as running (a tournament its seatings too).
    - :meth:`play` plays the plan (Ctrl-C may come at any moment: what is recorded stays), with
      ``job.checkpoint()`` whenever it wants its progress saved; returns "complete" or
      "interrupted".
    - :meth:`report` (only once complete) analyses and writes the job's report; its summary in
      words. :meth:`end` records the outcome (:meth:`JobDir.finish`), :meth:`close` releases
      what :meth:`prepare` opened.
    """

    kind: JobKind
    #: set by :func:`run_job`: the job's directory, the command that runs it, and the notes for
    #: the user (what a resume kept, adopted or discarded; :meth:`adopt` gives the first)
    dir: JobDir
    command: str | None = None
    notes: list

    def prepare(self, old: dict | None) -> dict:
        raise NotImplementedError

    def differences(self, old: dict, manifest: dict) -> list[str]:
        return []

    def adopt(self, old: dict, manifest: dict) -> list[str]:
        return []

    def resumed_record(self) -> dict:
        """What the manifest's list of resumptions says of this one besides when and how."""
        return {}

    def begin(self, manifest: dict) -> None:
        self.dir.start(manifest)

    def play(self, manifest: dict) -> str:
        raise NotImplementedError

    def seconds(self, manifest: dict, old: dict | None, elapsed: float) -> float:
        """The job's seconds so far: those of the runs before a resume and this one's."""
        return elapsed + float((old or {}).get("seconds") or 0.0)

    def report(self, manifest: dict) -> str:
        """The kind's report (its registered renderer, :data:`RENDERERS`), its summary in words."""
        render = RENDERERS.get(self.kind.name)
        return render(self.dir.path, manifest) if render is not None else ""

    def end(self, manifest: dict, status: str, seconds: float, error: str | None = None) -> None:
        self.dir.finish(manifest, status, seconds, error)

    def close(self) -> None:
        pass


def run_job(job: Job, out: Path, *, resume: bool = False, overwrite: bool = False,
            command: str | None = None) -> Outcome:
    """Run ``job`` (a :class:`Job`) in the directory ``out``, from the start or (``resume``) on
    from where an interrupted one stopped: the one lifecycle of every kind of job.

    Nothing is written until the request is checked (:meth:`Job.prepare`) and the directory may
    be used (:meth:`JobDir.previous`: a new job never replaces anything but a job of its kind with
    ``overwrite``; a resume must have the same identity keys, every difference named in one line).
    Then the job runs: Ctrl-C at any moment ends it ``interrupted`` (what it finished is kept, a
    resume goes on from there), any other failure ends it ``failed`` with its one-line error
    (then raised), and a job that finished plays its report before it is ``complete``. The
    manifest is never left ``running`` by a Ctrl-C."""
    job.dir = jd = JobDir(job.kind, out)
    job.command = command
    job.notes = []
    try:
        old = jd.previous(resume, overwrite)
        manifest = job.prepare(old)
        if old is not None:
            jd.check_resume(old, manifest, job.differences(old, manifest))
            job.notes = job.adopt(old, manifest)
            jd.resumed(old, manifest, command, **job.resumed_record())
        else:
            jd.create(overwrite)
        started = time.perf_counter()
        try:
            job.begin(manifest)
        except KeyboardInterrupt:  # before anything was played: recorded, not left running
            with interrupt_deferred():
                job.end(manifest, "interrupted", job.seconds(manifest, old, 0.0))
            raise
        summary = ""
        try:
            status = job.play(manifest)
        except BaseException as exc:
            if by_interrupt(exc):
                status = "interrupted"
            elif manifest.get("status") == RUNNING:
                try:
                    with interrupt_deferred():
                        job.end(manifest, "failed", job.seconds(manifest, old, time.perf_counter() - started),
                                error_line(exc))
                except OSError:
                    pass
                raise
            else:
                raise
        if status == "complete":
            manifest["seconds"] = round(job.seconds(manifest, old, time.perf_counter() - started), 3)
            try:
                summary = job.report(manifest) or ""
            except BaseException as exc:  # a Ctrl-C: everything is played, --resume only analyses again
                if not by_interrupt(exc):
                    raise
                status = "interrupted"
        seconds = job.seconds(manifest, old, time.perf_counter() - started)
        with interrupt_deferred():  # the outcome recorded, then any Ctrl-C
            job.end(manifest, status, seconds)
        return Outcome(manifest, jd.path, time.perf_counter() - started, status == "interrupted",
                       old is not None, job.notes, summary)
    finally:
        job.close()


# ----------------------------------------------------------------------------- a request's options, declared once
def option(default, help: str, *flags: str, kind=None):
    """One option of a job's request (a dataclass field): its default, its ``help`` and its command
    line ``flags`` (default ``--NAME`` with dashes), and ``kind``, the type a command line gives
    it (default: the field's own). The CLI makes the command's options from these
    (``tourney_sim.cli._options.request_options``), the API takes them as keywords, the kind's job
    reads them from the request: one declaration, three uses."""
    factory = {"default_factory": lambda: list(default)} if isinstance(default, (list, tuple)) else {"default": default}
    return field(**factory, metadata={"help": help, "flags": flags, "kind": kind})


def request_options(request_class) -> list:
    """The declared options of a request dataclass, in order: (name, default, flags, help, kind)."""
    import typing
    types = typing.get_type_hints(request_class)
    out = []
    for f in fields(request_class):
        if "help" not in f.metadata:
            continue
        default = f.default_factory() if f.default_factory is not MISSING_FACTORY else f.default
        flags = f.metadata["flags"] or ("--" + f.name.replace("_", "-"),)
        out.append((f.name, default, flags, f.metadata["help"], f.metadata["kind"] or types[f.name]))
    return out
