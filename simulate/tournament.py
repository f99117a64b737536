"""Tournaments and rule sweeps in the duplicate format.

A *matchup* is which strategies are at the table: a multiset of the given strategies that fills
the table and holds at least two different ones (team games: a pair of different team
compositions, each a multiset of strategies for the seats {0, 2} and {1, 3}). Its *seatings* are
every assignment of strategies to seats that gives that matchup: every ordering of the multiset
over the seats (team games: which composition sits at the even seats, and the order inside each
team). Over all matchups, the seatings are all ``k ** n`` assignments of k strategies to n seats
except those that are not a contest (one strategy everywhere; in team games, both teams alike).

That is the ``all`` design. The ``field`` design keeps only the seatings where one strategy faces
a field of another: it sits alone at the table among copies of the other, in every seat (team
games: a whole team of one strategy against a whole team of the other, at the even seats and at
the odd ones). It asks "does X beat a table of Y?" with far fewer games per deal when the table
is large (6 players, 2 strategies: 12 seatings instead of 62), which matters when a strategy is
expensive (the search player); with two players, or three and two strategies, it is ``all``.

Every seating is one dataset (a sub-directory with its own manifest, ``rotate`` false, its seats
recorded) played on the *same seed*: deal i (seed, game i) is identical in every seating, and
each seat draws its decisions from the same stream (seed, i, 1 + seat) whoever sits there. So a
strategy meets the same cards in every seat, the luck of the deal cancels out in paired
comparisons, and the reports pair games by (seed, game index, rules).

A sweep does the same for each rule variant (the cartesian product of ``--rule key=v1,v2``
lists), in ``v<i>/`` sub-directories, so variants are compared on the same deals too.

The directory holds ``_tournament.json`` (format ``tourney-tournament/1``): the plan, the
variants, every dataset with its seats and matchup, the command, and with ``--until-decided``
the sequential test's outcome. Datasets are played as chunk tasks on one backend for the whole
tournament (:mod:`tourney_sim.simulate.backends`: in-process, the local process pool, or a Dask cluster),
part by part with their checksums in each manifest (so ``tourney verify`` checks a seating like
any run), and ``--until-decided`` can stop between batches.
"""
from __future__ import annotations

import bisect
import itertools
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Protocol

from . import __version__
from tourney_sim.strategies import SEARCH_STRATEGIES, resolve, setting_name, short_names

from .backends import default_workers, open_backend
from .errors import TourneyError
from .games import RuleError, get_game
from .games.spec import component_address, team_seats
from .jobdir import Job, JobDir, Outcome, option, differences, execute, interrupt_deferred, now, progress_bar, run_job
from .games.config import GameConfig
from .matchup import Matchup, make_matchup, play_block
from .results import (DATASET, MAX_PARTS, TOURNAMENT, TOURNAMENT_FILE, TOURNAMENT_FORMAT, DatasetError,  # noqa: F401
                      part_entry, part_name, read_tournament)
from .runner import (DEFAULT_CHUNK, MAX_CHUNK, MAX_GAMES, ChunkPlan, SizeError, chunk_plan, chunk_tasks, fit_chunk,
                     make_manifest, recover_parts)

MAX_SEATINGS = 2000
DESIGNS = ("all", "field")
FIRST_BATCH = 1000  # --until-decided: deals in the first batch; later batches grow by half
ALPHA, MARGIN = 0.05, 0.02  # --until-decided: the error rate and the margin of "equally strong" by default


class TournamentError(TourneyError):
    """Bad tournament or sweep request; the message is one line for the user."""


# ----------------------------------------------------------------------------- the plan
@dataclass
class Seating:
    matchup: str
    seats: tuple[str, ...]
    dir: str = ""
    variant: str | None = None
    rules: list[str] = field(default_factory=list)
    m: Matchup | None = None
    parts: dict = field(default_factory=dict)  # part index -> manifest entry (done)


def matchup_label(seats: tuple[str, ...], team_game: bool) -> str:
    if team_game:
        teams = [sorted(seats[s] for s in group) for group in team_seats(len(seats))]
        return " v ".join("+".join(t) for t in sorted(teams))
    counts = Counter(seats)
    return ", ".join(f"{name} x{c}" if c > 1 else name for name, c in sorted(counts.items()))


def plan_matchups(names: list[str], n_players: int, team_game: bool,
                  design: str = "all") -> list[tuple[str, list[tuple[str, ...]]]]:
    """[(matchup label, [seating, ...]), ...]: every matchup of ``names`` that fills the table,
    with all of its distinct seatings; ``design`` "field" keeps only one strategy against a field
    of another (see the module docstring)."""
    if design not in DESIGNS:
        raise TournamentError(f"unknown seating design {design!r}: use {' or '.join(DESIGNS)}")
    if len(names) < 2:
        raise TournamentError("a tournament needs at least two different strategies")
    dupes = [n for n, c in Counter(names).items() if c > 1]
    if dupes:
        raise TournamentError(f"strategy {dupes[0]!r} is given twice")
    total = len(names) ** n_players
    if total > 50 * MAX_SEATINGS:
        raise TournamentError(f"{len(names)} strategies over {n_players} seats make about {total:,} "
                              f"seatings, more than {MAX_SEATINGS:,}: give fewer strategies")
    groups: dict[tuple, list[tuple[str, ...]]] = {}
    labels: dict[tuple, str] = {}
    for seats in itertools.product(names, repeat=n_players):
        if team_game:
            teams = tuple(sorted(tuple(sorted(seats[s] for s in g)) for g in team_seats(n_players)))
            if teams[0] == teams[1]:
                continue
            if design == "field" and any(len(set(t)) > 1 for t in teams):
                continue  # a mixed team is not one strategy's field
            key = teams
        else:
            if len(set(seats)) < 2:
                continue
            if design == "field" and (len(set(seats)) > 2 or min(Counter(seats).values()) > 1):
                continue  # not one strategy alone among copies of another
            key = tuple(sorted(seats))
        groups.setdefault(key, []).append(seats)
        labels[key] = matchup_label(seats, team_game)
    count = sum(len(v) for v in groups.values())
    if count > MAX_SEATINGS:
        raise TournamentError(f"{len(names)} strategies over {n_players} seats make {count:,} seatings, "
                              f"more than {MAX_SEATINGS:,}: give fewer strategies")
    order = sorted(groups, key=lambda k: (labels[k]))
    return [(labels[k], groups[k]) for k in order]


def parse_sweep(game: str, rules: list[str]) -> list[tuple[str, list[str]]]:
    """``key=v1,v2`` assignments -> [(variant label, [key=value, ...]), ...], the cartesian
    product of the listed values (a single value is fixed in every variant). A component value
    (``components.KEY=v1,v2``, as ``--component KEY=v1,v2`` gives it) is labelled by its address
    (``prizes.most_cards=3``); a whole list of components is one value, fixed."""
    spec = get_game(game)
    keys, values, lists = [], [], []
    for text in rules:
        if "=" not in text:
            raise RuleError(f"--rule expects key=v1,v2,..., got {text!r}")
        key, _, raw = text.partition("=")
        key = key.strip()
        address = component_address(key)
        if address is None:  # files are listed a,b; one file is a single value
            split = spec.option(key).kind != "file" or "," in raw
            what = f"rule {key}"
        else:  # a whole list (1,2,3) is a single value: sweep its entries, KEY[i]=v1,v2
            value, index = spec.declared_components().resolve(address)
            split = value.length is None or index is not None
            what = f"component {address}"
            lists += [] if split else [address]
        vals = [v.strip() for v in raw.split(",")] if split else [raw.strip()]
        if any(v == "" for v in vals):
            raise RuleError(f"--{what}: empty value in {raw!r}")
        for v in vals:
            spec.resolve_options([f"{key}={v}"])  # validates each value (one-line RuleError)
        if key in keys:
            raise RuleError(f"{what} is given twice")
        keys.append(key)
        values.append(vals)
    if not any(len(v) > 1 for v in values):
        if lists:
            raise TournamentError(f"a sweep needs a rule or component with at least two values: {lists[0]} is a whole list, "
                                  f"one value; sweep one entry, e.g. --component {lists[0]}[1]=v1,v2")
        raise TournamentError("a sweep needs a rule or component with at least two values, e.g. --rule key=v1,v2 "
                              "or --component KEY=v1,v2")
    variants = []
    for combo in itertools.product(*values):
        assignments = [f"{k}={v}" for k, v in zip(keys, combo)]
        label = ", ".join(f"{component_address(k) or k}={v}" for k, v, vals in zip(keys, combo, values)
                          if len(vals) > 1)
        variants.append((label, assignments))
    return variants


_SAFE = re.compile(r"^[A-Za-z0-9_.+]+$")


def _seating_dir(seats: tuple[str, ...], index: int) -> str:
    name = "-".join(seats)
    if all(_SAFE.match(s) for s in seats) and len(name) <= 120:
        return name
    return f"seating-{index:04d}"


def build(game: str, n_players: int | None, strategies: list[str], seed: int,
          variants: list[tuple[str | None, list[str]]], design: str = "all",
          record=()) -> tuple[object, int, list[Seating]]:
    """Validate everything and build every seating's matchup (nothing is written); ``record`` as
    for :func:`~tourney_sim.simulate.matchup.make_matchup`."""
    spec = get_game(game)
    n_players = spec.player_count(n_players)
    if not strategies:
        raise TournamentError("give the strategies with --strategy (at least two)")
    # settings by their labels: guard@best.toml and guard:risk=0.7 name the same strategy
    resolved = resolve(game, list(strategies))
    strategies, settings = [s.label for s in resolved], short_names(resolved)
    plan = plan_matchups(list(strategies), n_players, spec.team_game, design)
    seatings = []
    for v, (label, rules) in enumerate(variants):
        config = GameConfig.build(spec, n_players, rules)  # the variant, checked once for all its seatings
        i = 0
        for matchup, group in plan:
            for seats in group:
                sub = _seating_dir(seats, i)
                d = sub if len(variants) == 1 else f"v{v}/{sub}"
                m = make_matchup(config, list(seats), seed=seed, rotate=False, settings=settings, record=record)
                seatings.append(Seating(matchup, seats, d, label, list(rules), m))
                i += 1
    return spec, n_players, seatings


# ----------------------------------------------------------------------------- output
def plan_batches(games: int, chunk_size: int, sequential: bool,
                 first_batch: int = FIRST_BATCH) -> list[ChunkPlan]:
    """The parts every seating plays, batch by batch: ``(part index, first deal, deals)``, each
    batch a :class:`ChunkPlan` (computed as it is read: memory does not grow with the deals).

    A fixed-count tournament is one batch of ``chunk_size`` parts; ``--until-decided`` plays
    batches of ``first_batch`` deals, then half of what is done (a few dozen batches for any cap),
    each one part (cut into parts of MAX_CHUNK deals beyond that), and may stop after any. The
    plan depends only on these arguments, so a resumed tournament finds its parts."""
    if not sequential:
        return [chunk_plan(games, chunk_size)]
    batches, done, parts = [], 0, 0
    while done < games:
        size = min(games - done, max(first_batch, done // 2))
        batches.append(ChunkPlan(done + size, MAX_CHUNK, done, parts))
        done += size
        parts += len(batches[-1])
    if parts > MAX_PARTS:
        raise SizeError(f"--games {games:,} makes {parts:,} parts with --until-decided, more than a dataset "
                        f"holds ({MAX_PARTS:,}): give at most {MAX_GAMES - MAX_CHUNK * len(batches):,}")
    return batches


class AllParts(Sequence):
    """Every part of a tournament's batches, part i at position i (for :func:`recover_parts`)."""

    def __init__(self, batches: list[ChunkPlan]):
        self.batches = batches
        self.starts = list(itertools.accumulate((len(b) for b in batches), initial=0))

    def __len__(self) -> int:
        return self.starts[-1]

    def __getitem__(self, position: int) -> tuple[int, int, int]:
        if not 0 <= position < len(self):
            raise IndexError(position)
        k = bisect.bisect_right(self.starts, position) - 1
        return self.batches[k][position - self.starts[k]]


# ----------------------------------------------------------------------------- running
class StoppingRule(Protocol):
    """``--until-decided``: after every batch it is given the batch's new parts and says whether
    the tournament's question is settled. The caller constructs it (tourney's own is
    :class:`tourney_sim.simulate.stats.sequential.Sequential`); the tournament only feeds it."""

    question: str  # "strength" (a tournament) or "balance" (a sweep)
    alpha: float
    margin: float

    def add_datasets(self, datasets: list[tuple[Path, dict, str | None]], new_files: dict) -> None:
        """A batch: every seating as (directory, manifest, variant); only the part files in
        ``new_files`` (resolved directory -> [part path, ...]) are new."""

    @property
    def decided(self) -> bool: ...

    def summary(self) -> dict: ...


def check_stopping(alpha: float, margin: float, first_batch: int = FIRST_BATCH) -> None:
    """TournamentError unless ``--until-decided``'s settings make sense."""
    if not (0 < alpha < 0.5):
        raise TournamentError(f"--alpha must be between 0 and 0.5, got {alpha}")
    if not (0 < margin < 1):
        raise TournamentError(f"--margin must be between 0 and 1, got {margin}")
    if first_batch < 1:
        raise TournamentError(f"--first-batch must be a positive number of deals, got {first_batch}")


def question_of(sweep) -> str:
    """The question ``--until-decided`` settles: a sweep's balance, a tournament's strength."""
    return "balance" if sweep is not None else "strength"


@dataclass(frozen=True)
class TournamentRequest:
    """What a tournament is asked: the options of ``tourney tournament`` (and ``api.tournament``)
    besides the game and where it is played, declared once with their flags and help."""

    players: Optional[int] = option(None, "Number of players (default: 4, or the game's only count).",
                                    "--players", "-p")
    strategies: list[str] = option((), "A strategy of the tournament; repeat it (at least two).", "--strategy")
    games: int = option(10_000, "Deals; each is played in every seating of every matchup (the cap with "
                        "--until-decided).", "--games", "-n")
    seed: int = option(0, "Seed: deal i depends only on (seed, i), the same in every seating.", "--seed", "-s")
    rules: list[str] = option((), "Rule option key=value (see `tourney games`); repeatable.", "--rule")
    components: list[str] = option((), "One component value KEY=VALUE set over the defaults or --rule "
                                   "components=FILE, e.g. tokens.plus10=12 or work.values[3]=2 (a list entry, from "
                                   "1); repeatable. Keys: docs/components.md.", "--component")
    until_decided: bool = option(False, "Play in batches and stop once every pair of strategies is settled "
                                 "(stronger, weaker, or equal within --margin) at error rate --alpha; --games is "
                                 "then the cap.")
    alpha: float = option(ALPHA, "--until-decided: chance that any conclusion is wrong.")
    margin: float = option(MARGIN, "--until-decided: win-rate differences below this count as equal.")
    seatings: str = option("all", "Which seatings: all (every assignment of the strategies to the seats) or field "
                           "(one strategy alone among copies of another, in every seat; team games: a whole team "
                           "against a whole team). field costs far fewer games per deal at large tables.")
    first_batch: Optional[int] = option(None, "--until-decided: deals in the first batch (default 1,000); later "
                                        "batches add half of what is done. Smaller lets a clear answer stop sooner.")
    record: list[str] = option((), "Record more per row: dealt (the column `dealt`: what each seat was dealt or "
                               "drew, counts per kind in the order of the manifest's dealt_kinds; about 3x the bytes "
                               "of a dataset without it). Studies record it.")
    chunk_size: Optional[int] = option(None, "Games per Parquet part (does not change results).")


@dataclass(frozen=True)
class SweepRequest(TournamentRequest):
    """What a sweep is asked (``tourney sweep``, ``api.sweep``): a tournament's options, the rules
    and components being the values to vary."""

    strategies: list[str] = option((), "A strategy; repeat it (at least two).", "--strategy")
    games: int = option(10_000, "Deals per seating and variant (the cap with --until-decided).", "--games", "-n")
    seed: int = option(0, "Seed: the same deals under every variant.", "--seed", "-s")
    rules: list[str] = option((), "Rule option to vary, key=v1,v2[,...]; repeatable (the variants are every "
                              "combination).", "--rule")
    components: list[str] = option((), "Component value to vary, KEY=v1,v2[,...] (e.g. tokens.plus10=6,9,12 or "
                                   "work.values[3]=1,2; keys: docs/components.md); repeatable, combined with --rule.",
                                   "--component")
    until_decided: bool = option(False, "Stop once it is settled which variant is fairer (largest seat gap), or that "
                                 "they are equally fair within --margin, at error rate --alpha.")
    margin: float = option(MARGIN, "--until-decided: seat-gap differences below this count as equal.")


class TournamentJob(Job):
    """``tourney tournament`` and ``tourney sweep``: every seating (of every rule variant) one
    dataset, all played as chunk tasks on one backend, batch by batch (see
    :func:`run_tournament`)."""

    kind = TOURNAMENT

    def __init__(self, game: str, n_players: int | None, strategies: list[str], games: int, seed: int,
                 rules, sweep, workers, chunk_size, progress, stop, scheduler, design, first_batch, record):
        if games < 1:
            raise TournamentError(f"--games must be a positive number, got {games}")
        if stop is not None:
            check_stopping(stop.alpha, stop.margin, first_batch)
            if stop.question != question_of(sweep):
                raise TournamentError(f"a {'sweep' if sweep is not None else 'tournament'} settles the "
                                      f"{question_of(sweep)} question, not {stop.question}")
        self.game, self.n_players, self.strategies, self.games, self.seed = game, n_players, strategies, games, seed
        self.rules, self.sweep, self.workers, self.chunk_size = rules, sweep, workers, chunk_size
        self.progress, self.stop, self.scheduler, self.design = progress, stop, scheduler, design
        self.first_batch, self.record = first_batch, record
        self.backend = None
        self.notes: list[str] = []
        self.base_seconds = 0.0
        self.clock = time.perf_counter()  # from when the first chunk was sent (after compiling)
        self.done_deals = 0  # deals every seating has played in the batches so far
        self.stopped = "complete"  # or decided, cap, interrupted, failed (recorded with --until-decided)

    def prepare(self, old: dict | None) -> dict:
        game, games, stop, sweep, rules = self.game, self.games, self.stop, self.sweep, self.rules
        if old is not None:
            old.setdefault("design", "all")  # written before the field design existed
        if sweep is not None:
            fixed = list(rules)
            variants = [(label, fixed + a) for label, a in parse_sweep(game, list(sweep))]
        else:
            variants = [(None, list(rules))]
        spec, n_players, seatings = build(game, self.n_players, self.strategies, self.seed, variants, self.design,
                                          self.record)
        self.seatings = seatings
        chunk_size = self.chunk_size
        if chunk_size is None and old is not None:
            chunk_size = old.get("chunk_size")
        if any(setting_name(s) in SEARCH_STRATEGIES for s in self.strategies):
            # a search plays some games per second: about 20 parts per seating, so the progress
            # bar moves and the work spreads over the workers even when there are few seatings
            preferred = min(DEFAULT_CHUNK, max(10, -(-games // 20)))
        else:
            # the seatings give the parallelism: one part per seating up to 50,000 deals
            preferred = min(DEFAULT_CHUNK, max(1_000, games))
        chunk_size = fit_chunk(games, chunk_size, preferred)
        self.batches = plan_batches(games, chunk_size, stop is not None, self.first_batch)
        self.backend = open_backend(self.workers or default_workers(), self.scheduler)
        for label, _ in variants:  # the workers can play every variant (checked before writing)
            self.backend.check(next(s for s in seatings if s.variant == label).m.describe())
        command = self.command
        manifest = {
            "format": TOURNAMENT_FORMAT, "tool": "tourney", "tool_version": __version__,
            "kind": "sweep" if sweep is not None else "tournament", "game": game,
            "rules_version": spec.rules_version, "players": n_players, "strategies": list(self.strategies),
            "seed": self.seed, "games": games, "rules": list(rules), "sweep": list(sweep or []),
            "variants": [{"label": label, "rules": r, "dir": (f"v{i}" if len(variants) > 1 else ".")}
                         for i, (label, r) in enumerate(variants)],
            "matchups": sorted({s.matchup for s in seatings}),
            "design": self.design, "seatings": len(seatings) // len(variants),
            "datasets": [{"dir": s.dir, "seats": list(s.seats), "matchup": s.matchup, "variant": s.variant}
                         for s in seatings],
            "command": command, "created": now(), "chunk_size": chunk_size,
            "sequential": ({"alpha": stop.alpha, "margin": stop.margin, "first_batch": self.first_batch}
                           if stop is not None else None),
            "status": "running", "until_decided": None,
            **({"record": list(seatings[0].m.record)} if seatings[0].m.record else {}),
        }
        self.manifests = []
        for s in seatings:
            man = make_manifest(s.m, games, chunk_size, command)
            man["tournament"] = {"matchup": s.matchup, "variant": s.variant, "rules": s.rules}
            self.manifests.append(man)
        self.seating_jobs = [JobDir(DATASET, self.dir.path / s.dir) for s in seatings]
        return manifest

    def differences(self, old: dict, manifest: dict) -> list[str]:
        """Every seating made with these parameters too (nothing is changed until all agree)."""
        self.dir.check_resume(old, manifest)  # the tournament's own differences first: they say it all
        self.olds, more = [], []
        for s, man, seating in zip(self.seatings, self.manifests, self.seating_jobs):
            seating_old = seating.previous(resume=True, overwrite=False) if seating.manifest_path.exists() else None
            if seating_old is not None:
                more += [f"{s.dir}: {x}" for x in differences(DATASET.identity_of(seating_old),
                                                              DATASET.identity_of(man))]
            self.olds.append(seating_old)
        return more

    def adopt(self, old: dict, manifest: dict) -> list[str]:
        """Keep each seating's sound parts."""
        self.base_seconds = float(old.get("seconds") or 0.0)
        parts = AllParts(self.batches)
        kept = 0
        notes = []
        for s, seating_old in zip(self.seatings, self.olds):
            if seating_old is None:
                continue
            s.parts, seating_notes = recover_parts(self.dir.path / s.dir, seating_old, parts)
            kept += len(s.parts)
            notes += [f"{s.dir}: {n}" for n in seating_notes[1:]]
        notes.insert(0, f"resuming: {kept} of {len(parts) * len(self.seatings)} parts kept")
        return notes

    def begin(self, manifest: dict) -> None:
        with interrupt_deferred():  # the tournament and every seating written, then any Ctrl-C
            self.dir.write(manifest)
            for s, seating, man in zip(self.seatings, self.seating_jobs, self.manifests):
                seating.path.mkdir(parents=True, exist_ok=True)
                man["parts"] = [s.parts[index] for index in sorted(s.parts)]
                seating.write(man)

    def play(self, manifest: dict) -> str:
        seatings, manifests, stop, out, game = self.seatings, self.manifests, self.stop, self.dir.path, self.game
        bar = None
        batch: list = []  # the batch being played
        new_files: dict[Path, list[Path]] = {}  # the batch's parts per seating directory (resolved)

        def start():
            nonlocal bar
            play_block(seatings[0].m, 0, 1)  # compile (or load from the disk cache) before forking
            bar = progress_bar(self.games * len(seatings),
                               sum(p["games"] for s in seatings for p in s.parts.values()),
                               self.progress, f"{game} {len(seatings)} seatings x{self.backend.workers}")
            self.clock = time.perf_counter()
            return self.backend

        def is_new(s: Seating, index: int) -> None:
            """A part of the batch for the stopping rule (which alone reads them)."""
            if stop is not None:
                new_files.setdefault((out / s.dir).resolve(), []).append(out / s.dir / part_name(index))

        def tasks_of(batch):
            """A batch's tasks, made as the backend asks for them: the parts of every seating not
            kept from an interrupted run."""
            for chunk in batch:
                for i, s in enumerate(seatings):
                    if chunk[0] in s.parts:  # kept from the interrupted run: counted, not played
                        is_new(s, chunk[0])
                        continue
                    yield from chunk_tasks(s.m, manifests[i], out / s.dir, [chunk], key=lambda c, i=i: (i, *c))

        def batch_tasks():
            nonlocal batch
            for batch in self.batches:
                new_files.clear()
                yield tasks_of(batch)

        def on_done(key, info):
            i, index, first, n = key
            s = seatings[i]
            s.parts[index] = part_entry(index, first, n, s.m.result_seats, info)
            is_new(s, index)
            bar.update(n)

        def after_batch() -> bool:
            """Count the batch's deals; with ``stop``, feed it the batch and stop once decided."""
            self.done_deals = batch[-1][1] + batch[-1][2]
            if stop is None:
                return False
            for files in new_files.values():  # in game order, whichever part finished first
                files.sort()
            stop.add_datasets([(out / s.dir, manifests[i], s.variant) for i, s in enumerate(seatings)], new_files)
            if stop.decided:
                self.stopped = "decided"
            return stop.decided

        try:
            outcome = execute(start, batch_tasks(), on_done, where=out, after_batch=after_batch)
        finally:
            if bar is not None:
                bar.close()
            self.close()
        if outcome != "interrupted" and stop is not None and self.stopped != "decided":
            self.stopped = "cap"
        return "interrupted" if outcome == "interrupted" else "complete"

    def seconds(self, manifest: dict, old: dict | None, elapsed: float) -> float:
        return self.base_seconds + time.perf_counter() - self.clock

    def end(self, manifest: dict, status: str, seconds: float, error: str | None = None) -> None:
        """Record every seating's finished parts and the tournament's outcome."""
        stopped = {"interrupted": "interrupted", "failed": "failed"}.get(status, self.stopped)
        _finish(self.dir, self.seating_jobs, manifest, self.manifests, self.seatings, status, seconds,
                self.done_deals, self.stop, stopped, self.games, error)

    def close(self) -> None:
        if self.backend is not None:
            self.backend.close()
            self.backend = None


def run_tournament(game: str, n_players: int | None, strategies: list[str], games: int, seed: int,
                   out: Path, rules=(), sweep: list[str] | None = None, workers: int | None = None,
                   chunk_size: int | None = None, overwrite: bool = False, progress: bool = True,
                   command: str | None = None, stop: StoppingRule | None = None,
                   scheduler: str | None = None, resume: bool = False,
                   design: str = "all", first_batch: int = FIRST_BATCH, record=()) -> Outcome:
    """Play the tournament (or, with ``sweep`` rule lists, the sweep) into ``out``.

    ``resume``: continue the tournament in ``out`` after an interruption (the same parameters
    are required; every seating keeps its sound parts, and with ``stop`` the finished batches
    are counted again, so it stops where an uninterrupted run would have).

    ``games`` is the number of deals each seating plays (the cap with ``stop``). All input is
    checked before anything is written; errors are RuleError, StrategyError, TournamentError,
    OutputError or BackendError with one-line messages. ``scheduler`` as for
    :func:`tourney_sim.simulate.runner.run` (None: the local runner with ``workers`` processes).
    ``design``: which seatings are played, "all" or "field" (see the module docstring).
    ``stop``: ``--until-decided``, a :class:`StoppingRule` of the question :func:`question_of`
    names: the seatings are played in batches and it may stop after any.
    ``first_batch``: with ``stop``, the deals of the first batch (later batches grow by half
    of what is done); a small first batch lets a clear question stop early.
    ``record``: what every seating records besides its base rows (``("dealt",)``: the ``dealt``
    column), as :func:`~tourney_sim.simulate.matchup.make_matchup` takes it.
    """
    job = TournamentJob(game, n_players, strategies, games, seed, rules, sweep, workers, chunk_size, progress,
                        stop, scheduler, design, first_batch, record)
    outcome = run_job(job, out, resume=resume, overwrite=overwrite, command=command)
    outcome.seconds = time.perf_counter() - job.clock  # the games' own time, without compiling
    return outcome


def _finish(job, seating_jobs, manifest, manifests, seatings, status, seconds, done_deals, stop, stopped,
            games, error=None) -> None:
    """Record every seating's finished parts and the tournament's outcome."""
    for s, seating, man in zip(seatings, seating_jobs, manifests):
        man["parts"] = [s.parts[index] for index in sorted(s.parts)]
        man["games_done"] = sum(p["games"] for p in man["parts"])
        if stop is not None and status == "complete":
            man["games_requested"] = games
            man["games"] = man["games_done"]
        seating.finish(man, status, seconds, error)
    # deals every seating finished (an interrupted run may hold more in some seatings)
    manifest["deals_played"] = done_deals if status == "complete" else min(
        sum(p["games"] for p in s.parts.values()) for s in seatings)
    manifest["games_played"] = sum(sum(p["games"] for p in s.parts.values()) for s in seatings)
    if stop is not None:
        manifest["until_decided"] = {**stop.summary(), "stopped": stopped, "cap": games}
    job.finish(manifest, status, seconds, error)
