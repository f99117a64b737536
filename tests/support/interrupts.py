"""Ctrl-C at random moments (issue 40): interrupt each kind of job under CPU load, then resume.

For each kind (a run on 2 workers, a tournament, a study, a design run; small sizes) the harness
plays one uninterrupted reference, then, per moment: starts the same command as a terminal would
(its own process group, SIGINT at the default disposition) beside a CPU busy loop, sends SIGINT
to the whole group (as Ctrl-C does: the workers get it too) at a seeded random moment, from right
after start (imports, numba's cache) to near the reference's end, and checks:

- the exit code is 130 (or 0: the job ended before the signal; or death by SIGINT with nothing
  printed or written: the signal came before the interpreter installed its handler);
- stderr holds no ``Traceback`` and no ``Exception ignored``, and after an interruption its last
  line starts with ``interrupted``;
- the job's manifest, once written, says ``interrupted`` (or ``complete``: the Ctrl-C came while
  the summary was printed); no temporary file or probe is left;
- ``--resume`` exits 0 and the data equal the reference's: every Parquet file byte for byte
  (their sha256), and for a study findings.json and report.md, for a design run design.json and
  report.md (the output path written OUT, times and commands left out).

Used by ``scripts/stress_interrupt.py`` (50+ moments) and ``tests/test_interrupt.py`` (a few).
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: the command of each kind (small sizes: a few seconds each on 2 busy cores)
KINDS: dict[str, list[str]] = {
    "run": ["run", "companeros", "--strategy", "greedy", "--strategy", "random", "--games", "400000",
            "--chunk-size", "20000", "--workers", "2", "--seed", "5"],
    "tournament": ["tournament", "companeros", "--strategy", "greedy", "--strategy", "random", "--games", "3000",
                   "--chunk-size", "500", "--workers", "2", "--seed", "5"],
    "study": ["study", "companeros", "--players", "3", "--budget", "quick", "--levels", "random,heuristic",
              "--workers", "2", "--seed", "1"],
    "design": ["design", "cardavia", "--vary", "rule:match_deals", "--budget", "quick", "--trials", "3",
               "--deals", "200", "--skill-deals", "50", "--designs", "1", "--confirm-deals", "200",
               "--search-deals", "40", "--search", "ismcts:iterations=20", "--heuristic", "guard-tuned",
               "--workers", "2", "--seed", "1"],
}
#: each kind's own manifest (its status says interrupted after a Ctrl-C)
MANIFESTS = {"run": "_manifest.json", "tournament": "_tournament.json", "study": "_study.json",
             "design": "_design.json"}
#: seconds after SIGINT within which exit 0 still means "it was ending anyway"; later, a lost Ctrl-C
LOST = 1.0
#: keys that differ between two runs of the same job (times, command lines, hosts)
VOLATILE = re.compile(r"(second|time|command|created|finished|started|date|host|pid|elapsed|duration)", re.I)


@dataclass
class Trial:
    kind: str
    moment: float
    outcome: str = ""  # "interrupted", "finished first"
    problems: list[str] = field(default_factory=list)
    stderr: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        what = "ok" if self.ok else "FAIL: " + "; ".join(self.problems)
        return f"{self.kind:<10} SIGINT at {self.moment:6.2f} s: {self.outcome or '-':<15} {what}"


class BusyLoop:
    """A CPU busy loop beside the job (a second process competing for the cores)."""

    def __enter__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return self

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait()


def _default_sigint():  # Ctrl-C as from a terminal, whatever the calling process does with SIGINT
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(kind: str, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tourney_sim", *KINDS[kind], "--out", str(out), *extra],
                            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_default_sigint)


def finish(p: subprocess.Popen, timeout: float) -> tuple[int | None, str, str]:
    """Wait for ``p``; on a timeout kill its whole group and return code None."""
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        _kill_group(p)
        out, err = p.communicate()
        return None, out, err


def _kill_group(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _reap_group(pgid: int, timeout: float = 10) -> bool:
    """Wait until no process of group ``pgid`` is left (workers); True if none is."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        return True
    return False


def _normalise(value, out: Path):
    if isinstance(value, dict):
        return {k: _normalise(v, out) for k, v in value.items() if not VOLATILE.search(k)}
    if isinstance(value, list):
        return [_normalise(v, out) for v in value]
    if isinstance(value, str):
        return _text(value, out)
    return value


def _text(text: str, out: Path) -> str:
    text = text.replace(str(out), "OUT").replace(os.path.relpath(out, ROOT), "OUT")
    text = text.replace(" --resume", "").replace(" --quiet", "")  # the command line quoted
    # times in prose ("in 3.2 s", "12 s a deal", "took 0:01:02") are not data
    return re.sub(r"\d[\d.,:]*\s*(s|ms|min|seconds?|minutes?)\b", "T", text)


def fingerprint(kind: str, out: Path) -> dict:
    """What must be the same after any interruption and resume: every Parquet file's bytes, and a
    study's or design run's findings and report (its own path, times and commands left out)."""
    fp: dict = {"parquet": {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
                            for p in sorted(out.rglob("*.parquet"))}}
    if kind == "study":
        fp["findings.json"] = _normalise(json.loads((out / "findings.json").read_text()), out)
    if kind == "design":
        fp["design.json"] = _normalise(json.loads((out / "design.json").read_text()), out)
    if kind in ("study", "design"):
        fp["report.md"] = _text((out / "report.md").read_text(), out)
    return fp


def _differences(a: dict, b: dict, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        diffs = [f"{path}/{k}: only in one" for k in sorted(set(a) ^ set(b))]
        for k in sorted(set(a) & set(b)):
            diffs += _differences(a[k], b[k], f"{path}/{k}")
        return diffs
    if a != b:
        if isinstance(a, str) and isinstance(b, str) and "\n" in a:
            la, lb = a.splitlines(), b.splitlines()
            first = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
            return [f"{path} line {first + 1}: {la[first:first + 1]} != {lb[first:first + 1]}"]
        return [f"{path}: {str(a)[:120]} != {str(b)[:120]}"]
    return []


def leftovers(out: Path) -> list[str]:
    """Temporary files (``.NAME.tmp``) and write probes left anywhere in the job directory."""
    if not out.exists():
        return []
    return sorted(str(p.relative_to(out)) for p in out.rglob(".*") if p.name.endswith(".tmp") or p.name == ".write-probe")


def stderr_problems(err: str, interrupted: bool) -> list[str]:
    problems = []
    if "Traceback" in err:
        problems.append("a traceback on stderr")
    if "Exception ignored" in err:
        problems.append("'Exception ignored' on stderr")
    if interrupted:
        # the progress bars redraw with carriage returns; the last line is the last one printed
        lines = [line.split("\r")[-1].strip() for line in err.splitlines()]
        lines = [line for line in lines if line]
        last = lines[-1] if lines else ""
        if not last.startswith("interrupted"):
            problems.append(f"last stderr line {last[:160]!r} does not start with 'interrupted'")
        if sum(line.startswith("interrupted") for line in lines) != 1:
            problems.append("not exactly one 'interrupted' line")
    return problems


def reference(kind: str, workdir: Path, timeout: float = 600) -> tuple[dict, float]:
    """The uninterrupted job (under the same load): its fingerprint and duration."""
    out = workdir / f"{kind}-reference"
    shutil.rmtree(out, ignore_errors=True)
    # once to warm numba's cache (a source changed since: its kernels compile), so that the
    # reference's duration, which spreads the moments, is a cached start's
    code, _, err = finish(start(kind, out, "--quiet"), timeout)
    if code != 0:
        raise RuntimeError(f"the uninterrupted {kind} failed (exit {code}):\n{err[-4000:]}")
    shutil.rmtree(out)
    t = time.perf_counter()
    p = start(kind, out, "--quiet")
    code, _, err = finish(p, timeout)
    seconds = time.perf_counter() - t
    if code != 0:
        raise RuntimeError(f"the uninterrupted {kind} failed (exit {code}):\n{err[-4000:]}")
    return fingerprint(kind, out), seconds


def pick_moment(rng: random.Random, duration: float) -> float:
    """A moment from right after start to near the end: a third of them in the first 1.5 s
    (interpreter start, imports, numba's cache), the rest anywhere in the job."""
    if rng.random() < 1 / 3:
        return rng.uniform(0.0, min(1.5, duration))
    return rng.uniform(0.0, 0.98 * duration)


def trial(kind: str, moment: float, workdir: Path, expected: dict, duration: float, index: int) -> Trial:
    tr = Trial(kind, moment)
    out = workdir / f"{kind}-{index}"
    shutil.rmtree(out, ignore_errors=True)
    timeout = 60 + 10 * duration
    p = start(kind, out)
    sent = None
    try:
        p.wait(timeout=moment)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group gets it
            sent = time.perf_counter()
        except ProcessLookupError:
            pass
    code, _, err = finish(p, timeout)
    if code == 0 and sent is not None and time.perf_counter() - sent > LOST:
        # it played on to its end after the Ctrl-C: the signal was lost
        tr.problems.append(f"Ctrl-C ignored: exit 0 {time.perf_counter() - sent:.1f} s after SIGINT")
    tr.stderr = err
    if not _reap_group(p.pid):
        tr.problems.append("processes of the job outlived it")
    if code is None:
        tr.problems.append(f"did not stop within {timeout:.0f} s of SIGINT")
        tr.outcome = "hung"
        return tr
    if code == 0:
        tr.outcome = "finished first"
    elif code == 130:
        tr.outcome = "interrupted"
    elif code == -signal.SIGINT and not err.strip() and not out.exists():
        # SIGINT before the interpreter installed its handler: killed by the signal, as any program
        # (the shell says 130 too); nothing printed, nothing written
        tr.outcome = "killed at exec"
    else:
        tr.outcome = f"exit {code}"
        tr.problems.append(f"exit code {code}, not 130")
    tr.problems += stderr_problems(err, code == 130)
    left = leftovers(out)
    if left:
        tr.problems.append(f"temporary files left: {left[:5]}")
    manifest = out / MANIFESTS[kind]
    if code == 130 and manifest.exists():
        try:
            status = json.loads(manifest.read_text()).get("status")
        except ValueError:
            status = "unreadable"
        if status not in ("interrupted", "complete"):  # complete: Ctrl-C after the job, in its summary
            tr.problems.append(f"{manifest.name} status {status!r}, not 'interrupted'")
    if tr.problems:
        return tr
    if code != 0:
        p = start(kind, out, "--resume", "--quiet")
        rcode, _, rerr = finish(p, timeout)
        _reap_group(p.pid)
        if rcode != 0:
            tr.problems.append(f"--resume exit {rcode}")
            tr.stderr += "\n--- resume ---\n" + rerr
            return tr
        if "Traceback" in rerr or "Exception ignored" in rerr:
            tr.problems.append("--resume printed a traceback")
            tr.stderr += "\n--- resume ---\n" + rerr
            return tr
    try:
        diffs = _differences(fingerprint(kind, out), expected)
    except (OSError, ValueError) as exc:
        diffs = [f"cannot read the resumed data: {exc}"]
    if diffs:
        tr.problems.append(f"data differ from the uninterrupted run: {diffs[:4]}")
    else:
        shutil.rmtree(out, ignore_errors=True)
    return tr


def stress(kinds: list[str], moments: int | dict[str, int], seed: int, workdir: Path, echo=print) -> list[Trial]:
    """Interrupt each kind at ``moments`` random moments (seeded); every trial, failed or not."""
    rng = random.Random(seed)
    trials: list[Trial] = []
    workdir.mkdir(parents=True, exist_ok=True)
    with BusyLoop():
        for kind in kinds:
            expected, duration = reference(kind, workdir)
            echo(f"{kind}: uninterrupted in {duration:.1f} s under load")
            n = moments[kind] if isinstance(moments, dict) else moments
            for i in range(n):
                tr = trial(kind, pick_moment(rng, duration), workdir, expected, duration, i)
                trials.append(tr)
                echo(tr.line())
                if not tr.ok:
                    echo("  stderr:\n" + "\n".join("    " + line for line in tr.stderr.splitlines()[-40:]))
    return trials


def summary(trials: list[Trial]) -> str:
    kinds = dict.fromkeys(t.kind for t in trials)
    parts = []
    for k in kinds:
        ts = [t for t in trials if t.kind == k]
        parts.append(f"{k} {len(ts)} ({sum(t.outcome == 'interrupted' for t in ts)} interrupted, "
                     f"{sum(t.outcome == 'finished first' for t in ts)} finished first, "
                     f"{sum(t.outcome == 'killed at exec' for t in ts)} killed at exec, "
                     f"{sum(not t.ok for t in ts)} failed)")
    failed = sum(not t.ok for t in trials)
    return f"{len(trials)} moments: " + "; ".join(parts) + f" -> {'FAILED: ' + str(failed) if failed else 'all ok'}"
