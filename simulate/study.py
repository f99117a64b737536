"""``tourney study GAME``: a balance study in one command, for every supported player count.

A study is a list of *stages*, each an ordinary ``tourney run`` or ``tourney tournament`` whose
command is recorded (so each number of the report can be regenerated on its own), all on the
same seed, so every stage plays the same deals and comparisons between them are paired:

1. ``levels/<P>p-<level>``: everyone plays the level's strategy (``random``; the game's strongest
   heuristic, its shipped tuned setting where there is one; the search player ``ismcts``):
   seat and first-player advantage, draws, length, decisiveness at that level of play.
2. ``rules/<P>p-<level>-<key>=<value>``: the same deals at the heuristic and search levels with
   one rule option changed (a true/false option flipped, every other choice of a choice, the
   value the game's spec names for a number, ``study_values``); compared with stage 1 on the same deals.
   The quick budget plays no search-level rule stage: at its few search deals they could settle
   nothing (the manifest's ``not_played`` says so, and the report).
3. ``landscape/<P>p-heuristics``: a duplicate tournament of every built-in heuristic (``--seatings
   field``: each strategy alone among copies of each other one, in every seat); and
   ``landscape/<P>p-search-v-<h>``: the search player against each heuristic, the same way, with
   ``--until-decided`` (small first batch): a pair whose answer is already clear stops early.
4. The player counts side by side (the same measures, from stages 1 to 3).
5. ``components/<P>p-heuristic-<address>=<value>``: when the game's spec names the nearest change
   of a component kind (``GameSpec.nearest_change``: one fewer copy, a value minus one, ...),
   the three kinds with the largest effects on winning at the heuristic level (measured on the
   levels stage's ``dealt`` column, by the caller's ``largest_components``) each get a stage on
   the same deals with that one change (``--component ADDRESS=VALUE``): its effect on balance,
   paired against the default. These stages are planned once the heuristic levels stage is
   played (they depend on its data), after every other stage.

Budgets fix the deals of every stage and the search budget (:data:`BUDGETS`; a game whose search
is slow plays fewer search deals, the game's spec's ``search_scale``). This module plays the
stages; the caller passes in what needs the reports: the stopping rule of the ``--until-decided``
stages and the analysis that writes the findings and the report once every stage is played
(:func:`tourney_sim.reports.study_report.write_report`: findings from
:mod:`tourney_sim.reports.findings`, one Holm family over the whole study).

Layout of the study directory::

    _study.json          the manifest (format tourney-study/1): parameters, budget, every stage
                         with its command, dataset directory, status and seconds
    levels/ rules/ landscape/   the stages' datasets and tournaments
    findings.json        every question with its estimate, interval, p-values and outcome
    report.html report.md  the report (the verdict at the top; report-figures/ holds the
                         Markdown's figures, which the HTML embeds)

A study is a job directory (:mod:`tourney_sim.simulate.jobdir`) and resumable: ``--resume`` keeps
the finished stages and resumes the unfinished one (the runner's and tournament's own resume),
and the report is a function of the data alone, so a resumed study writes the same report as an
uninterrupted one.
"""
from __future__ import annotations

import shlex
import sys
import time
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Callable

from tourney_sim.strategies import RANDOM, available, heuristics

from . import __version__
from .games import get_game
from .jobdir import JobDir, JobKind, now
from .matchup import make_matchup
from .runner import run as run_games
from .tournament import ALPHA, MARGIN, question_of, run_tournament

from .errors import TourneyError

STUDY_FILE = "_study.json"
STUDY_FORMAT = "tourney-study/1"
LEVELS = ("random", "heuristic", "search")
SEARCH = "ismcts"


class StudyError(TourneyError):
    """Bad study request; the message is one line for the user."""


@dataclass(frozen=True)
class Budget:
    """Deals per stage (search deals before the game's ``search_scale``) and the search budget."""

    name: str
    level_deals: dict  # level -> deals of the levels stage
    rule_deals: dict  # level -> deals of each rule-option stage (heuristic, search; 0: not played)
    landscape_deals: int  # the heuristics' tournament
    versus_search_deals: int  # the cap of each search-v-heuristic tournament
    first_batch: int  # its first sequential batch
    search_iterations: float  # times the game's default ismcts iterations
    cost: str  # what the README says it costs


BUDGETS = {
    "quick": Budget("quick", {"random": 2000, "heuristic": 2000, "search": 100},
                    {"heuristic": 2000, "search": 0}, 300, 60, 20, 1.0, "minutes: a first look"),
    "standard": Budget("standard", {"random": 20000, "heuristic": 20000, "search": 1000},
                       {"heuristic": 20000, "search": 500}, 3000, 300, 50, 1.0,
                       "under 30 minutes per game on 2 cores"),
    "thorough": Budget("thorough", {"random": 100000, "heuristic": 100000, "search": 4000},
                       {"heuristic": 100000, "search": 2000}, 20000, 1200, 100, 2.0,
                       "hours: intervals about half as wide as standard's, a twice-as-strong search"),
}


# ----------------------------------------------------------------------------- the plan
@dataclass
class Stage:
    id: str  # also its directory under the study
    section: str  # levels | rules | landscape | components
    kind: str  # run | tournament
    players: int
    strategies: list
    deals: int
    level: str | None = None
    rules: list = field(default_factory=list)  # ["key=value"]
    option: str | None = None  # rules: "key=value"
    sequential: bool = False
    first_batch: int | None = None
    components: list = field(default_factory=list)  # ["address=value"]: --component
    dealt_kind: str | None = None  # components: the dealt kind whose nearest change this is
    alpha: float = ALPHA  # a sequential tournament's error rate over its pairs (see plan)
    status: str = "planned"
    seconds: float = 0.0

    @property
    def chunk_size(self) -> int | None:
        """A search plays a few games per second: about 20 parts, so every worker has work (the
        runner's default chunk, 1,000 games or more, would leave one worker alone with it). The
        chunk size never changes the games."""
        return max(10, -(-self.deals // 20)) if self.kind == "run" and self.level == "search" else None

    def command(self, game: str, seed: int, out: Path) -> str:
        where = shlex.quote(str(Path(out) / self.id))
        strategies = " ".join(f"--strategy {shlex.quote(s)}" for s in self.strategies)
        rules = "".join(f" --rule {shlex.quote(r)}" for r in self.rules)
        rules += "".join(f" --component {shlex.quote(c)}" for c in self.components)
        if self.kind == "run":
            chunk = f" --chunk-size {self.chunk_size}" if self.chunk_size else ""
            return (f"tourney run {game} --players {self.players} {strategies} --games {self.deals} "
                    f"--seed {seed}{rules}{chunk} --out {where}")
        seq = (f" --until-decided --alpha {self.alpha:.6g} --first-batch {self.first_batch}"
               if self.sequential else "")
        return (f"tourney tournament {game} --players {self.players} {strategies} --seatings field "
                f"--games {self.deals} --seed {seed}{rules}{seq} --out {where}")

    def to_dict(self, game: str, seed: int, out: Path) -> dict:
        return {"id": self.id, "section": self.section, "kind": self.kind, "players": self.players,
                "level": self.level, "strategies": list(self.strategies), "deals": self.deals,
                "rules": list(self.rules), "option": self.option, "sequential": self.sequential,
                "first_batch": self.first_batch, "alpha": self.alpha, "components": list(self.components),
                "dealt_kind": self.dealt_kind, "dir": self.id, "command": self.command(game, seed, out),
                "status": self.status, "seconds": round(self.seconds, 3)}


def level_strategies(game: str, budget: Budget) -> dict[str, str]:
    """The strategy everyone plays at each level of play."""
    table = available(game)
    names = heuristics(game)
    tuned = [n for n in names if n.endswith("-tuned") and table[n].origin == "built-in"]
    heuristic = tuned[0] if tuned else next(n for n in names if n != "random")
    search = SEARCH
    if budget.search_iterations != 1.0 and SEARCH in table:
        default = next(p.default for p in table[SEARCH].params if p.name == "iterations")
        search = f"{SEARCH}:iterations={int(round(default * budget.search_iterations))}"
    return {"random": "random", "heuristic": heuristic, "search": search}


def option_values(game: str, players: int) -> list[tuple[str, str]]:
    """The rule options a study varies at this player count: (key, value) pairs."""
    spec = get_game(game)
    out = []
    for opt in spec.options:
        only = spec.study_players.get(opt.name)
        if only is not None and players not in only:
            continue
        if opt.kind == "bool":
            out.append((opt.name, "false" if opt.default else "true"))
        elif opt.kind == "choice":
            out += [(opt.name, c) for c in opt.choices if c != opt.default]
        elif opt.kind == "int" and opt.name in spec.study_values:
            out += [(opt.name, str(v)) for v in spec.study_values[opt.name]]
    return out


def skipped_options(game: str) -> list[str]:
    """Options a study does not vary, each with why."""
    spec = get_game(game)
    out = []
    for opt in spec.options:
        if opt.kind == "file":
            out.append(f"{opt.name} (a file of components: give your own to `tourney sweep`)")
        elif opt.kind == "int" and opt.name not in spec.study_values:
            out.append(f"{opt.name} (a number: sweep the values you care about with `tourney sweep`)")
    return out


def not_played(game: str, budget: Budget, levels: list[str]) -> list[str]:
    """The questions of the design this budget does not play, each with why (for the report)."""
    out = []
    if "search" in levels and not budget.rule_deals["search"] and any(option_values(game, p)
                                                                     for p in supported_players(game)):
        scale = get_game(game).search_scale
        standard = max(20, int(round(BUDGETS["standard"].rule_deals["search"] * scale)))
        out.append(f"Rule options under search play: too few deals at this budget ({budget.name}) to settle any, so "
                   f"not played (the standard budget plays {standard:,} per option)")
    return out


def supported_players(game: str) -> list[int]:
    spec = get_game(game)
    return list(range(spec.min_players, spec.max_players + 1))


def plan(game: str, budget: Budget, players: list[int], levels: list[str]) -> list[Stage]:
    strategy = level_strategies(game, budget)
    scale = get_game(game).search_scale

    def deals(n: int, level: str | None) -> int:
        return max(20, int(round(n * scale))) if level == "search" else n

    stages: list[Stage] = []
    names = heuristics(game)
    for p in players:
        for level in levels:
            stages.append(Stage(f"levels/{p}p-{level}", "levels", "run", p, [strategy[level]],
                                deals(budget.level_deals[level], level), level))
        for level in [x for x in ("heuristic", "search") if x in levels and budget.rule_deals[x]]:
            for key, value in option_values(game, p):
                stages.append(Stage(f"rules/{p}p-{level}-{key}={value}", "rules", "run", p, [strategy[level]],
                                    deals(budget.rule_deals[level], level), level, [f"{key}={value}"],
                                    f"{key}={value}"))
        stages.append(Stage(f"landscape/{p}p-heuristics", "landscape", "tournament", p, list(names),
                            budget.landscape_deals))
        if "search" in levels:
            for h in names:
                stages.append(Stage(f"landscape/{p}p-search-v-{h}", "landscape", "tournament", p,
                                    [strategy["search"], h], deals(budget.versus_search_deals, "search"),
                                    "search", sequential=True, first_batch=budget.first_batch))
    _spend_alpha(stages)
    return stages


COMPONENT_CHECKS = 3  # the kinds with the largest effects that get a paired check


def component_stages(game: str, budget: Budget, players: int, kinds: list[str]) -> list[Stage]:
    """The paired checks at ``players``: for each of ``kinds`` (largest effect first) that the
    game's ``nearest_change`` gives a change for, a heuristic-level run with that one change, as
    many deals as a rule option's stage. None when the game names no nearest changes."""
    spec = get_game(game)
    if spec.nearest_change is None:
        return []
    comps = getattr(spec, "components", None)
    table = comps.defaults if comps is not None else {}
    heuristic = level_strategies(game, budget)["heuristic"]
    out = []
    for kind in kinds:
        change = spec.nearest_change(kind, table)
        if change is None:
            continue
        setting = f"{change[0]}={change[1]}"
        sid = f"components/{players}p-heuristic-{setting}"
        if sid not in {s.id for s in out}:
            out.append(Stage(sid, "components", "run", players, [heuristic], budget.rule_deals["heuristic"],
                             "heuristic", option=setting, components=[setting], dealt_kind=kind))
    return out


def component_options(game: str, changes: list[str]) -> dict:
    """The rule options of a run with ``changes`` (``address=value``) to the game's default
    components (what ``--component`` does)."""
    comps = getattr(get_game(game), "components", None)
    if comps is None:
        raise StudyError(f"{game} declares no components: --component {changes[0]} cannot be played")
    return {"components": comps.set(comps.defaults, list(changes))}


def _spend_alpha(stages: list[Stage]) -> None:
    """Give each sequential tournament the error rate its pairs have in the report's landscape
    family, so that a pair "decided" by its tournament is also settled in the report: the family
    holds every pair of strategies of every landscape stage (a pair with random is a line of the
    landscape, not tested), one Holm over them; a pair stopped at ALPHA / m (m the family's size)
    is rejected by Holm whatever the others, and the tournament splits its own alpha equally over
    its pairs, so it is given ALPHA * pairs / m."""
    def pairs(s: Stage) -> set:
        return {(s.players, frozenset(pair)) for pair in combinations(s.strategies, 2)
                if RANDOM not in pair}
    family = set().union(*(pairs(s) for s in stages if s.section == "landscape"))
    for s in stages:
        if s.sequential and family:
            s.alpha = ALPHA * len(list(combinations(s.strategies, 2))) / len(family)


# ----------------------------------------------------------------------------- running
@dataclass
class StudyResult:
    manifest: dict
    out: Path
    seconds: float
    interrupted: bool
    summary: str = ""


def _check(game: str, budget: str, players, levels) -> tuple[Budget, list[int], list[str]]:
    get_game(game)  # RuleError (one line) for an unknown game
    if budget not in BUDGETS:
        raise StudyError(f"unknown budget {budget!r}: use {', '.join(BUDGETS)}")
    supported = supported_players(game)
    counts = list(dict.fromkeys(players or supported))
    for p in counts:
        if p not in supported:
            allowed = (f"{supported[0]}" if len(supported) == 1 else f"{supported[0]} to {supported[-1]}")
            raise StudyError(f"{game} is played by {allowed} players, not {p}")
    if not levels:
        raise StudyError(f"give at least one level of play: {', '.join(LEVELS)}")
    for level in levels:
        if level not in LEVELS:
            raise StudyError(f"unknown level {level!r}: use {', '.join(LEVELS)} (comma-separated)")
    levels = [x for x in LEVELS if x in levels]  # a fixed order
    return BUDGETS[budget], sorted(counts), levels


class _StudyKind(JobKind):
    def identity_of(self, manifest: dict) -> dict:
        """The stages are compared by their ids (their status and seconds change as it runs)."""
        ids = super().identity_of(manifest)
        # the paired component checks depend on the data: planned again from it on resume
        ids["stages"] = [st.get("id") for st in ids.get("stages") or []
                         if st.get("section") != "components"]
        return ids


#: a study as a job directory; what must be equal for it to be resumed
STUDY = _StudyKind("study", STUDY_FILE, STUDY_FORMAT,
                   ("format", "game", "budget", "players", "levels", "seed", "stages"))


def run_study(game: str, out: Path, budget: str = "standard", players=None, levels=None, seed: int = 0,
              workers: int | None = None, scheduler: str | None = None, resume: bool = False,
              overwrite: bool = False, progress: bool = True, command: str | None = None,
              echo=None, *, stopping_rule: Callable, write_report: Callable[[Path, dict], str],
              largest_components: Callable[[Path], list[str]] | None = None) -> StudyResult:
    """Play every stage of the study into ``out`` (skipping finished ones with ``resume``), then
    ``write_report(out, manifest)`` (findings.json, report.html, report.md) and return its
    findings summary. ``stopping_rule(question, alpha, margin)`` makes the stopping rule of each
    ``--until-decided`` stage (:class:`~tourney_sim.simulate.tournament.StoppingRule`);
    ``largest_components(dataset)`` names the component kinds with the largest effects on
    winning in a levels stage's dataset (largest first; [] when it records none), for the paired
    checks (stage 5)."""
    if echo is None:
        def echo(text):
            print(text, file=sys.stderr, flush=True)
    job = JobDir(STUDY, out)
    out = job.path
    b, counts, levels = _check(game, budget, players, list(LEVELS if levels is None else levels))
    stages = plan(game, b, counts, levels)
    for s in stages:  # every strategy and rule is valid before anything is written
        make_matchup(game, s.players, s.strategies[:1], rules=s.rules, seed=seed)
    old = job.previous(resume, overwrite)
    done: dict = {}  # resumed: the old manifest's stages by id
    manifest = {
        "format": STUDY_FORMAT, "tool": "tourney", "tool_version": __version__, "game": game,
        "rules_version": get_game(game).rules_version, "budget": b.name,
        "budget_deals": {"levels": b.level_deals, "rules": b.rule_deals, "landscape": b.landscape_deals,
                         "search_v_heuristic": b.versus_search_deals,
                         "search_scale": get_game(game).search_scale},
        "players": counts, "levels": levels, "level_strategies": level_strategies(game, b), "seed": seed,
        "skipped_options": skipped_options(game), "not_played": not_played(game, b, levels), "command": command,
        "created": now(), "status": "running",
        "stages": [s.to_dict(game, seed, out) for s in stages],
    }
    if old is not None:
        job.check_resume(old, manifest)
        manifest["command"] = old.get("command")  # the study's own command; resumptions listed apart
        job.resumed(old, manifest, command)
        done = {st["id"]: st for st in old.get("stages", [])}
        for s, d in zip(stages, manifest["stages"]):
            if done.get(s.id, {}).get("status") == "complete":
                s.status, s.seconds = "complete", float(done[s.id].get("seconds") or 0)
                d.update(status=s.status, seconds=s.seconds)
    else:
        job.create(overwrite)
    job.start(manifest)

    start = time.perf_counter()
    interrupted = False
    todo = [s for s in stages if s.status != "complete"]
    checks = (largest_components is None or "heuristic" not in levels  # planned (or none to plan)
              or get_game(game).nearest_change is None)
    i = -1
    try:  # Ctrl-C between two stages stops as cleanly as inside one
        while True:
            i += 1
            if i == len(stages) and not checks:  # every planned stage played: the paired checks
                checks = True
                extra = [c for p in counts for c in component_stages(
                    game, b, p, largest_components(out / f"levels/{p}p-heuristic"))]
                for c in extra:
                    if done.get(c.id, {}).get("status") == "complete":
                        c.status, c.seconds = "complete", float(done[c.id].get("seconds") or 0)
                    else:
                        component_options(game, c.components)  # playable, before anything is written
                        todo.append(c)
                stages += extra
                manifest["stages"] += [c.to_dict(game, seed, out) for c in extra]
                job.write(manifest)
            if i >= len(stages):
                break
            s = stages[i]
            if s.status == "complete":
                continue
            cmd = s.command(game, seed, out)
            if progress:
                echo(f"[{i + 1}/{len(stages)}] {s.id}: {cmd}")
            t0 = time.perf_counter()
            where = out / s.id  # made (and checked) by the stage's own job directory
            if s.kind == "run":
                m = make_matchup(game, s.players, s.strategies, rules=s.rules, seed=seed, rotate=True,
                                 options=component_options(game, s.components) if s.components else None)
                rep = run_games(m, s.deals, where, workers=workers, chunk_size=s.chunk_size, progress=progress,
                                command=cmd, scheduler=scheduler, resume=where.exists())
            else:
                stop = stopping_rule(question_of(None), s.alpha, MARGIN) if s.sequential else None
                rep = run_tournament(game, s.players, s.strategies, s.deals, seed, where, rules=s.rules,
                                     workers=workers, progress=progress, command=cmd, stop=stop,
                                     scheduler=scheduler, resume=where.exists(), design="field",
                                     **({"first_batch": s.first_batch} if s.sequential else {}))
            s.seconds += time.perf_counter() - t0
            if rep.interrupted:
                interrupted = True
                s.status = "interrupted"
            else:
                s.status = "complete"
            manifest["stages"][i].update(status=s.status, seconds=round(s.seconds, 3))
            job.write(manifest)
            if interrupted:
                break
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start
    total = sum(s.seconds for s in stages)
    if interrupted:
        job.finish(manifest, "interrupted", total)
        return StudyResult(manifest, out, seconds, True)
    if progress:
        echo(f"analysing {len(stages)} stages ({len(todo)} played now) ...")
    manifest["seconds"] = round(total, 3)
    try:
        summary = write_report(out, manifest)
    except KeyboardInterrupt:  # every stage is played: --resume only analyses again
        return StudyResult(manifest, out, seconds, True)
    job.finish(manifest, "complete", total)
    return StudyResult(manifest, out, seconds, False, summary)
