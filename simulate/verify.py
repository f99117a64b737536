"""``tourney verify DIR``: prove that a dataset is complete and sound, or say exactly what is not.

Checked, without trusting anything but the manifest and the bytes on disk:

- the manifest: readable, this format, the fields a dataset needs; the run finished
  (``status`` is ``complete``: a running, interrupted, killed or failed run is never reported as
  complete, and the message says how to continue it);
- coverage: the parts listed cover game indices ``0 .. games - 1``, each exactly once (gaps and
  overlaps are named with their game ranges);
- files: every listed part exists; no part file is left that the manifest does not list;
- every part: its size and SHA-256 match the manifest; it is a readable Parquet file (footer and
  data: a truncated or corrupted part is named, never a traceback); its schema is the dataset's
  (names, order, types, the game's columns); its embedded run description equals the manifest's;
  it holds exactly one row per game and seat of its range, in order; the strategies per seat
  follow the recorded seating and rotation; ``win == (rank == 1)``.

Parts are checked one at a time, so memory stays flat whatever the size of the dataset.

A tournament or sweep directory (``_tournament.json``, written by ``tourney tournament`` /
``tourney sweep``) is verified as the sum of its datasets: it must be finished, and every
dataset it lists must pass the checks above (problems are prefixed with the dataset's directory).
A tuning run or a study likewise: finished, and every dataset and tournament in it sound.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import span
from .jobs import detect, members
from .results import (DATASET, FORMAT, MANIFEST, DatasetError, PartError, check_part, part_files,
                      sha256_file, temporary_files)
from .tournament import TOURNAMENT, TOURNAMENT_FILE

NEEDED = {"game": str, "players": int, "seed": int, "games": int, "seats": list, "rotate": bool,
          "options": dict, "parts": list, "status": str, "rules_version": int, "tool_version": str}
PART_NAME = re.compile(r"^part-\d{6}\.parquet$")
MAX_LISTED = 20  # problems of one kind listed before "... and N more"


@dataclass
class Verdict:
    directory: Path
    problems: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    games: int = 0
    seats: int = 0
    parts: int = 0
    datasets: int = 0  # > 0 for a tournament / sweep directory

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(directory: Path, progress=None) -> Verdict:
    """Check the dataset in ``directory``. DatasetError if it is not a tourney dataset at all
    (no such directory, no manifest); every other finding is in the returned :class:`Verdict`.
    ``progress(n)`` is called after each part checked."""
    directory = Path(directory)
    if not os.path.isdir(directory):  # never an error, whatever the path
        raise DatasetError(f"{directory} is not a directory")
    kind = detect(directory)
    if kind is TOURNAMENT:
        return _verify_tournament(directory, progress)
    if kind is not None and kind is not DATASET:  # a tuning run, a study: the sum of what it holds
        return _verify_job(directory, kind, progress)
    if not (directory / MANIFEST).exists():
        raise DatasetError(f"{directory} is not a tourney dataset (no {MANIFEST})")
    v = Verdict(directory)
    try:
        manifest = json.loads((directory / MANIFEST).read_text())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        v.problems.append(f"{MANIFEST}: unreadable ({_first_line(exc)})")
        return v
    if not isinstance(manifest, dict):
        v.problems.append(f"{MANIFEST}: not a JSON object")
        return v
    if manifest.get("format") != FORMAT:
        v.problems.append(f"{MANIFEST}: format {manifest.get('format')!r}, this tourney reads {FORMAT}")
        return v
    bad = [k for k, t in NEEDED.items() if not isinstance(manifest.get(k), t)
           or (t is int and isinstance(manifest.get(k), bool))]
    if bad:
        v.problems.append(f"{MANIFEST}: missing or malformed fields: {', '.join(bad)}")
        return v
    games, n_seats = manifest["games"], manifest["players"] + len(manifest.get("extra_seats", []))
    v.games, v.seats = games, n_seats

    status = manifest["status"]
    if status != "complete":
        done = manifest.get("games_done", sum(p.get("games", 0) for p in manifest["parts"]
                                              if isinstance(p, dict)))
        why = {"running": "it is still running, or was killed",
               "interrupted": "it was interrupted",
               "failed": f"it failed: {manifest.get('error', 'no reason recorded')}"}.get(status, "unknown status")
        how = (f"; continue it with: {resume_command(manifest['command'])}" if manifest.get("command")
               else "; continue it with the same `tourney run` command and --resume")
        v.problems.append(f"the run is not finished (status {status!r}: {why}): {done:,} of {games:,} "
                          f"games recorded{how}")

    # ---- the parts listed: names, ranges, coverage
    listed = []
    for k, p in enumerate(manifest["parts"]):
        if (not isinstance(p, dict) or not isinstance(p.get("file"), str) or not PART_NAME.match(p["file"])
                or not isinstance(p.get("first_game"), int) or not isinstance(p.get("games"), int)
                or p["games"] < 1):
            v.problems.append(f"{MANIFEST}: part entry {k} is malformed: {json.dumps(p)[:120]}")
            continue
        listed.append(p)
    names = [p["file"] for p in listed]
    for name in sorted({n for n in names if names.count(n) > 1}):
        v.problems.append(f"{MANIFEST}: {name} is listed more than once")
    v.parts = len(listed)
    _coverage(v, listed, games, int(manifest.get("first_game") or 0))

    # ---- the files on disk
    on_disk = {f.name for f in part_files(directory)}
    missing = [n for n in dict.fromkeys(names) if n not in on_disk]
    _listing(v.problems, [f"{n}: listed in the manifest but missing" for n in missing])
    extra = sorted(on_disk - set(names))
    _listing(v.problems, [f"{n}: a part file the manifest does not list (left by an unfinished run?)"
                          for n in extra])
    for tmp in temporary_files(directory):
        v.warnings.append(f"{tmp.name}: a leftover temporary file (not part of the data; safe to delete)")

    # ---- every part's bytes and contents
    no_checksum = 0
    part_problems = []
    for p in listed:
        path = directory / p["file"]
        if p["file"] in missing:
            continue
        try:
            size = path.stat().st_size
            recorded = p.get("sha256")
            if not recorded:
                no_checksum += 1
            elif p.get("bytes") is not None and size != p["bytes"]:
                part_problems.append(f"{p['file']}: {size:,} bytes, the manifest recorded {p['bytes']:,} "
                                     f"(truncated or changed since it was written)")
            elif sha256_file(path) != recorded:
                part_problems.append(f"{p['file']}: SHA-256 differs from the manifest's (corrupted or "
                                     f"changed since it was written)")
            check_part(path, manifest, p["first_game"], p["games"])
            if p.get("rows") is not None and p["rows"] != p["games"] * n_seats:
                part_problems.append(f"{MANIFEST}: {p['file']} listed with {p['rows']:,} rows, expected "
                                     f"{p['games'] * n_seats:,}")
        except PartError as exc:
            part_problems.append(str(exc))
        except OSError as exc:
            part_problems.append(f"{p['file']}: cannot be read: {exc.strerror or exc}")
        if progress:
            progress(p["games"])
    _listing(v.problems, part_problems)
    if no_checksum:
        v.warnings.append(f"{no_checksum} of {len(listed)} parts have no checksum in the manifest "
                          f"(written by an older tourney): their contents were checked, their bytes "
                          f"could not be")
    return v


def _verify_tournament(directory: Path, progress=None) -> Verdict:
    v = Verdict(directory)
    try:
        t = json.loads((directory / TOURNAMENT_FILE).read_text())
        datasets = [d["dir"] for d in t["datasets"]]
        if not all(isinstance(d, str) for d in datasets):
            raise ValueError("dataset directories are not names")
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        v.problems.append(f"{TOURNAMENT_FILE}: unreadable or malformed ({_first_line(exc)})")
        return v
    if t.get("status") != "complete":
        v.problems.append(f"the {t.get('kind', 'tournament')} is not finished (status {t.get('status')!r})")
    sound = [d for d in datasets if not Path(d).is_absolute() and ".." not in Path(d).parts
             and (directory / d / MANIFEST).exists()]
    v.problems += [f"{d}: listed in {TOURNAMENT_FILE} but not a dataset (no {MANIFEST})"
                   for d in datasets if d not in sound]
    _add_members(v, sound, progress)
    return v


def _verify_job(directory: Path, kind, progress=None) -> Verdict:
    """A tuning run or a study: finished, and every dataset and tournament in it sound."""
    v = Verdict(directory)
    try:
        status = json.loads((directory / kind.marker).read_text()).get("status")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError) as exc:
        v.problems.append(f"{kind.marker}: unreadable or malformed ({_first_line(exc)})")
        return v
    if status != "complete":
        v.problems.append(f"the {kind.name} is not finished (status {status!r})")
    _add_members(v, [str(m.relative_to(directory)) for m in members(directory)], progress)
    return v


def _add_members(v: Verdict, names: list[str], progress=None) -> None:
    """Verify each dataset or tournament ``names`` (under ``v.directory``) into ``v``."""
    for d in names:
        one = verify(v.directory / d, progress)
        v.problems += [f"{d}: {p}" for p in one.problems]
        v.warnings += [f"{d}: {w}" for w in one.warnings]
        v.games += one.games
        v.parts += one.parts
        v.seats = max(v.seats, one.seats)
        v.datasets += one.datasets or 1


def resume_command(command: str) -> str:
    """The recorded command line with ``--resume`` (and without ``--overwrite``)."""
    import shlex
    try:
        args = [a for a in shlex.split(command) if a != "--overwrite"]
    except ValueError:
        return f"{command} --resume"
    if "--resume" not in args:
        args.append("--resume")
    return " ".join(shlex.quote(a) for a in args)


def _coverage(v: Verdict, listed: list, games: int, first: int = 0) -> None:
    """Every game index first .. first + games - 1 in exactly one listed part: name the gaps and
    overlaps."""
    spans = sorted((p["first_game"], p["first_game"] + p["games"], p["file"]) for p in listed)
    found = []
    at, prev = first, None
    end = first + games
    for lo, hi, name in spans:
        if lo < first or hi > end:
            found.append(f"{name}: games {lo:,} to {hi - 1:,} lie outside the run (games {span(first, end - 1)})")
        if lo > at:
            found.append(f"games {at:,} to {lo - 1:,} are in no part")
        elif lo < at and prev is not None:
            found.append(f"games {lo:,} to {min(at, hi) - 1:,} are in both {prev} and {name}")
        if hi > at:
            at, prev = hi, name
    if at < end:
        found.append(f"games {at:,} to {end - 1:,} are in no part")
    _listing(v.problems, found)


def _listing(into: list, items: list) -> None:
    into.extend(items[:MAX_LISTED])
    if len(items) > MAX_LISTED:
        into.append(f"... and {len(items) - MAX_LISTED:,} more like these")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def report_text(v: Verdict) -> str:
    lines = [f"warning: {w}" for w in v.warnings]
    if v.ok and v.datasets:
        lines.append(f"ok: {v.directory} is complete and sound: {v.datasets:,} datasets, {v.games:,} games "
                     f"in {v.parts:,} parts; every game of every dataset once, checksums, schema and "
                     f"manifests agree")
    elif v.ok:
        lines.append(f"ok: {v.directory} is complete and sound: {v.games:,} games ({span(0, v.games - 1)}), "
                     f"each once, {v.seats} seats each, in {v.parts:,} part{'s' if v.parts != 1 else ''}; "
                     f"checksums, schema and "
                     f"manifest agree")
    else:
        lines += [f"problem: {p}" for p in v.problems]
        lines.append(f"error: {v.directory} is not a complete, sound dataset "
                     f"({len(v.problems)} problem{'s' if len(v.problems) != 1 else ''})")
    return "\n".join(lines)
