"""``tourney study GAME``: a balance study in one command, for every supported player count.

A study is a list of *stages*, each an ordinary ``tourney run`` or ``tourney tournament`` whose
command is recorded (so each number of the report can be regenerated on its own), all on the
same seed, so every stage plays the same deals and comparisons between them are paired:

1. ``levels/<P>p-<level>``: everyone plays the level's strategy (``random``; the game's strongest
   heuristic, its shipped tuned setting where there is one; the ``apprentice``, the policy
   learned from the search with the weights shipped for that player count, at the heuristic
   level's volume; the search player ``ismcts``): seat and first-player advantage, draws,
   length, decisiveness at that level of play. The apprentice is the *strong level*: its seat
   questions settle at its volume, and the search level is its check (the report's agreement
   family: the two on the same deals, paired); where they disagree the verdict rests on the
   search (:func:`tourney_sim.simulate.stats.findings.strong_level`).
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
   ``compensation/<P>p-heuristic-<address>=<value>``: seat compensation (issue 42), each value of
   each of the game's compensation levers within its designer-sized range
   (:func:`compensation_settings`: the points a seat or team starts with, ...), one at a time, at
   the heuristic level on the same deals; the report names the one that evens the seats best,
   with its paired interval (:func:`tourney_sim.simulate.stats.studies.compensation`). Not at the
   strong level: the apprentice's weights belong to today's table (``tourney design`` confirms a
   compensation there, with the table's own apprentice).
5. ``adaptive/<P>p-search-<k>``: after every stage above is played, the **adaptive stage** keeps
   playing search-level deals at each player count whose primary search-level questions (seat,
   team and first-player balance under search play) are neither settled nor shown negligible:
   batches of new deals (``tourney run --first-game K``: the deals after those already played, on
   the same seed, so each is paired with the heuristic level's result of the same deal), up to
   the budget's cap (:attr:`Budget.adaptive_deals`). After each batch
   :func:`tourney_sim.simulate.stats.studies.open_questions` names the questions still open (its
   statistics, valid at every look: :mod:`tourney_sim.simulate.stats.adaptive`); the stage stops
   when none is, or at the cap.
6. ``components/<P>p-heuristic-<address>=<value>``: when the game's spec names the nearest change
   of a component kind (``GameSpec.nearest_change``: one fewer copy, a value minus one, ...),
   the three kinds with the largest effects on winning at the heuristic level (measured on the
   levels stage's ``dealt`` column, :func:`tourney_sim.simulate.stats.components.largest_components`) each get a stage on
   the same deals with that one change (``--component ADDRESS=VALUE``): its effect on balance,
   paired against the default. These stages are planned once the heuristic levels stage is
   played (they depend on its data), after every other stage.

Budgets fix the deals of every stage and the search budget (:data:`BUDGETS`; a game whose search
is slow plays fewer search deals, the game's spec's ``search_scale``). This module plays the
stages; the caller passes in what needs the reports: the stopping rule of the ``--until-decided``
stages and the analysis that writes the findings and the report once every stage is played
(:func:`tourney_sim.reports.study_report.write_report`: findings from
:mod:`tourney_sim.simulate.stats.findings`, one Holm family over the whole study).

Layout of the study directory::

    _study.json          the manifest (format tourney-study/1): parameters, budget, every stage
                         with its command, dataset directory, status and seconds
    levels/ rules/ compensation/ landscape/ adaptive/ components/   the stages' datasets and tournaments
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
from .games.config import GameConfig
from .games.spec import RuleError
from .jobdir import Job, JobKind, Outcome, now, option, run_job, shown_path
from .matchup import make_matchup
from .runner import MAX_CHUNK, run as run_games
from .stats.components import largest_components
from .stats.findings import LEVELS
from .stats.sequential import stopping_rule
from .stats.studies import beyond_cap, open_questions
from .tournament import ALPHA, MARGIN, question_of, run_tournament

from .errors import TourneyError

STUDY_FILE = "_study.json"
STUDY_FORMAT = "tourney-study/1"
SEARCH = "ismcts"
APPRENTICE = "apprentice"
#: what every stage records besides its base rows: what each seat was dealt (the ``dealt`` column
#: the study's component effects read), and those options in the stage's command
RECORD = ("dealt",)
RECORD_OPTIONS = "".join(f" --record {r}" for r in RECORD)


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
    cost: str  # what docs/studies.md says it costs
    adaptive_deals: int = 0  # the adaptive stage: at most this many more search deals per player count
    adaptive_batch: int = 0  # ... played in batches of this many (a look after each)


BUDGETS = {
    "quick": Budget("quick", {"random": 2000, "heuristic": 2000, "apprentice": 2000, "search": 100},
                    {"heuristic": 2000, "search": 0}, 300, 60, 20, 1.0, "minutes: a first look", 300, 100),
    # the apprentice, the strong level, plays at about a quarter to a half of a heuristic's speed:
    # four times the heuristic level's deals settle seat gaps half as wide, in seconds to a minute
    "standard": Budget("standard", {"random": 20000, "heuristic": 20000, "apprentice": 80000, "search": 1000},
                       {"heuristic": 20000, "search": 500}, 3000, 300, 50, 1.0,
                       "under 30 minutes per game on 2 cores", 4000, 1000),
    "thorough": Budget("thorough", {"random": 100000, "heuristic": 100000, "apprentice": 400000,
                                    "search": 4000},
                       {"heuristic": 100000, "search": 2000}, 20000, 1200, 100, 2.0,
                       "hours: intervals about half as wide as standard's, a twice-as-strong search",
                       16000, 4000),
}


# ----------------------------------------------------------------------------- the plan
def search_chunk(deals: int) -> int:
    """The chunk size of a run of the search player: it plays a few games per second, so about 20
    parts, and every worker has work (the runner's default chunk, 1,000 games or more, would leave
    one worker alone with it). The chunk size never changes the games."""
    return min(MAX_CHUNK, max(10, -(-deals // 20)))


@dataclass
class Stage:
    id: str  # also its directory under the study
    section: str  # levels | rules | compensation | landscape | adaptive | components
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
    first_game: int = 0  # a run: the index of its first game (the adaptive stage's new deals)
    status: str = "planned"
    seconds: float = 0.0

    @property
    def chunk_size(self) -> int | None:
        return search_chunk(self.deals) if self.kind == "run" and self.level == "search" else None

    def command(self, game: str, seed: int, out: Path) -> str:
        """The stage's own ``tourney`` command; its ``--out`` relative to the working directory
        (:func:`~tourney_sim.simulate.jobdir.shown_path`: never the machine's absolute path)."""
        where = shlex.quote(shown_path(Path(out) / self.id))
        strategies = " ".join(f"--strategy {shlex.quote(s)}" for s in self.strategies)
        rules = "".join(f" --rule {shlex.quote(r)}" for r in self.rules)
        rules += "".join(f" --component {shlex.quote(c)}" for c in self.components)
        if self.kind == "run":
            chunk = f" --chunk-size {self.chunk_size}" if self.chunk_size else ""
            first = f" --first-game {self.first_game}" if self.first_game else ""
            return (f"tourney run {game} --players {self.players} {strategies} --games {self.deals} "
                    f"--seed {seed}{first}{rules}{chunk}{RECORD_OPTIONS} --out {where}")
        seq = (f" --until-decided --alpha {self.alpha:.6g} --first-batch {self.first_batch}"
               if self.sequential else "")
        return (f"tourney tournament {game} --players {self.players} {strategies} --seatings field "
                f"--games {self.deals} --seed {seed}{rules}{seq}{RECORD_OPTIONS} --out {where}")

    def to_dict(self, game: str, seed: int, out: Path) -> dict:
        return {"id": self.id, "section": self.section, "kind": self.kind, "players": self.players,
                "level": self.level, "strategies": list(self.strategies), "deals": self.deals,
                "rules": list(self.rules), "option": self.option, "sequential": self.sequential,
                "first_batch": self.first_batch, "alpha": self.alpha, "first_game": self.first_game,
                "components": list(self.components), "dealt_kind": self.dealt_kind, "dir": self.id,
                "command": self.command(game, seed, out),
                "status": self.status, "seconds": round(self.seconds, 3)}


def level_deals(budget: Budget, level: str) -> int:
    """The deals of a level's stage: the budget's, the apprentice the heuristic level's unless the
    budget names its own (it plays at about a heuristic's speed)."""
    if level == "apprentice" and level not in budget.level_deals:
        return budget.level_deals["heuristic"]
    return budget.level_deals[level]


def level_strategies(game: str, budget: Budget) -> dict[str, str]:
    """The strategy everyone plays at each level of play (no ``apprentice`` for a game that has
    none; :func:`apprentice_counts` says at which player counts it has weights)."""
    table = available(game)
    names = heuristics(game)
    tuned = [n for n in names if n.endswith("-tuned") and table[n].origin == "built-in"]
    heuristic = tuned[0] if tuned else next(n for n in names if n != "random")
    search = SEARCH
    if budget.search_iterations != 1.0 and SEARCH in table:
        default = next(p.default for p in table[SEARCH].params if p.name == "iterations")
        search = f"{SEARCH}:iterations={int(round(default * budget.search_iterations))}"
    out = {"random": "random", "heuristic": heuristic, "search": search}
    if APPRENTICE in table:
        out["apprentice"] = APPRENTICE
    return {level: out[level] for level in LEVELS if level in out}


def apprentice_counts(game: str) -> list[int]:
    """The player counts the game's apprentice has shipped weights for (none: no apprentice)."""
    from tourney_sim.strategies.common import shipped_tables
    table = available(game)
    return sorted(shipped_tables(table[APPRENTICE])) if APPRENTICE in table else []


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
            out.append(f"{opt.name} (the component table: sweep one value on the same deals with "
                       f"`tourney sweep {game} --component KEY=v1,v2`, keys in docs/components.md)")
        elif opt.kind == "int" and opt.name not in spec.study_values:
            out.append(f"{opt.name} (a number: sweep the values you care about with `tourney sweep`)")
    return out


def not_played(game: str, budget: Budget, levels: list[str]) -> list[str]:
    """The questions of the design this budget does not play, each with why (for the report)."""
    out = []
    if "apprentice" in levels:
        missing = [p for p in supported_players(game) if p not in apprentice_counts(game)]
        if missing:
            out.append(f"The apprentice level at {', '.join(map(str, missing))} players: no weights are shipped for "
                       f"that count (train them with `tourney train {game} --players N --out DIR`)")
        if any(option_values(game, p) for p in supported_players(game)):
            out.append("Rule options under apprentice play: the apprentice's weights are trained for the shipped "
                       "rules (each option is a table of its own, with weights of its own)")
    if "search" in levels and not budget.rule_deals["search"] and any(option_values(game, p)
                                                                     for p in supported_players(game)):
        scale = get_game(game).search_scale
        standard = max(20, int(round(BUDGETS["standard"].rule_deals["search"] * scale)))
        out.append(f"Rule options under search play: too few deals at this budget ({budget.name}) to settle any, so "
                   f"not played (the standard budget plays {standard:,} per option)")
    return out


def compensation_settings(game: str, players: int) -> list[str]:
    """The seat compensation a study tries at ``players`` (issue 42): each value of each of the
    game's compensation levers (its components declared ``compensation``) within its
    designer-sized range, one at a time, as ``ADDRESS=VALUE``; only those the game plays at that
    count (a lever of a seat that does not sit is not one). ``tourney design`` tries the same
    values (its :func:`~tourney_sim.simulate.design.dimensions` marked ``lever``)."""
    components = get_game(game).components
    if components is None:
        return []
    table, out = components.defaults, []
    for address, value, _ in components.addresses():
        if not value.compensation:
            continue
        low, high = components.design_range(table, address)
        now = int(components.get(table, address))
        for v in range(low, high + 1, value.step):
            setting = f"{address}={v}"
            if v == now:
                continue
            try:
                GameConfig.build(game, players, components=[setting])
            except RuleError:
                continue
            out.append(setting)
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
    trained = apprentice_counts(game)
    for p in players:
        for level in levels:
            if level == "apprentice" and p not in trained:
                continue  # no weights for this count: not_played says so
            stages.append(Stage(f"levels/{p}p-{level}", "levels", "run", p, [strategy[level]],
                                deals(level_deals(budget, level), level), level))
        for level in [x for x in ("heuristic", "search") if x in levels and budget.rule_deals[x]]:
            for key, value in option_values(game, p):
                stages.append(Stage(f"rules/{p}p-{level}-{key}={value}", "rules", "run", p, [strategy[level]],
                                    deals(budget.rule_deals[level], level), level, [f"{key}={value}"],
                                    f"{key}={value}"))
        if "heuristic" in levels:  # seat compensation: each lever value, paired with the heuristic level
            for setting in compensation_settings(game, p):
                stages.append(Stage(f"compensation/{p}p-heuristic-{setting}", "compensation", "run", p,
                                    [strategy["heuristic"]], budget.rule_deals["heuristic"], "heuristic",
                                    option=setting, components=[setting]))
        stages.append(Stage(f"landscape/{p}p-heuristics", "landscape", "tournament", p, list(names),
                            budget.landscape_deals))
        if "search" in levels:
            for h in names:
                stages.append(Stage(f"landscape/{p}p-search-v-{h}", "landscape", "tournament", p,
                                    [strategy["search"], h], deals(budget.versus_search_deals, "search"),
                                    "search", sequential=True, first_batch=budget.first_batch))
    _spend_alpha(stages)
    return stages


def adaptive_design(game: str, budget: Budget, levels: list[str]) -> dict | None:
    """The adaptive stage's deals, fixed before any game is played (None: no search level or no
    cap): the first pass's search deals (``first_pass``: games 0 .. first_pass - 1), at most
    ``cap`` more in batches of ``batch`` (games first_pass .. first_pass + cap - 1), and the
    heuristic level's deals that no search stage ever plays, from ``reference_start`` on, split
    into blocks of ``reference_per_deal`` per new deal (0: no heuristic level, or too few deals):
    new deal j's block is the control variate's reference (:mod:`tourney_sim.simulate.stats.adaptive`)."""
    if "search" not in levels or not budget.adaptive_deals:
        return None
    scale = get_game(game).search_scale
    first = max(20, int(round(budget.level_deals["search"] * scale)))
    cap = max(20, int(round(budget.adaptive_deals * scale)))
    batch = min(cap, max(10, int(round(budget.adaptive_batch * scale))))
    start = first + cap
    per_deal = (budget.level_deals["heuristic"] - start) // cap if "heuristic" in levels else 0
    return {"first_pass": first, "cap": cap, "batch": batch, "reference_start": start,
            "reference_per_deal": max(0, per_deal)}


def adaptive_stage(design: dict, players: int, strategy: str, played: int, look: int) -> Stage:
    """The adaptive stage's next batch at a player count: the ``look``-th, after ``played`` new
    deals."""
    deals = min(design["batch"], design["cap"] - played)
    return Stage(f"adaptive/{players}p-search-{look}", "adaptive", "run", players, [strategy], deals, "search",
                 first_game=design["first_pass"] + played)




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
def _adaptive_stage(design: dict, counts: list[int], strategy: str, stages: list[Stage], manifest: dict, out: Path,
                    done: dict, play: Callable, open_questions: Callable[[int], list], echo, progress: bool,
                    beyond_cap: Callable[[int], dict] = lambda p: {}) -> bool:
    """At each player count, while ``open_questions(p)`` names any and the cap allows: the next
    batch of new search deals, appended to the stages and played (a batch an interrupted study
    finished is kept: the same data give the same decisions). ``beyond_cap(p)``: the open
    questions it stopped for because the rest of the cap cannot settle them (said, with the deals
    each needs). False if interrupted."""
    for p in counts:
        played, look = 0, 1
        while played < design["cap"]:
            still_open = open_questions(p)
            if not still_open:
                hopeless = beyond_cap(p) if progress else {}
                if hopeless:
                    echo(f"adaptive stage, {p} players: stops after {played:,} more deals: its open question(s) would "
                         f"need about {', '.join(f'{n:,.0f}' for n in hopeless.values())} more to settle, beyond "
                         f"the {design['cap'] - played:,} left in its cap ({'; '.join(hopeless)})")
                break
            s = adaptive_stage(design, p, strategy, played, look)
            old = done.get(s.id, {})
            if old.get("status") == "complete" and old.get("first_game") == s.first_game and old.get("deals") == s.deals:
                s.status, s.seconds = "complete", float(old.get("seconds") or 0)
            stages.append(s)
            manifest["stages"].append(s.to_dict(manifest["game"], manifest["seed"], out))
            if progress and s.status != "complete":
                echo(f"adaptive stage, {p} players: {len(still_open)} primary search-level question(s) open "
                     f"({'; '.join(still_open)}): {s.deals:,} more deals")
            if s.status != "complete" and not play(len(stages) - 1, s):
                return False
            played += s.deals
            look += 1
    return True

def _component_checks(game: str, b: Budget, counts: list[int], seed: int, stages: list[Stage], manifest: dict,
                      out: Path, done: dict, play: Callable, largest_components: Callable[[Path], list[str]],
                      todo: list, job) -> bool:
    """The paired checks of the kinds with the largest effects (stage 6), planned from the heuristic
    levels stages' data once every other stage is played (a check an interrupted study finished
    is kept); each change is checked playable before any is played. False if interrupted."""
    if get_game(game).nearest_change is None:
        return True
    extra = [c for p in counts for c in component_stages(game, b, p, largest_components(out / f"levels/{p}p-heuristic"))]
    for c in extra:
        if done.get(c.id, {}).get("status") == "complete":
            c.status, c.seconds = "complete", float(done[c.id].get("seconds") or 0)
        else:
            GameConfig.build(game, c.players, components=c.components)  # a change the game cannot play: refused
            todo.append(c)
    first = len(stages)
    stages += extra
    manifest["stages"] += [c.to_dict(game, seed, out) for c in extra]
    job.write(manifest)
    return all(c.status == "complete" or play(first + k, c) for k, c in enumerate(extra))


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
    if "apprentice" in levels and APPRENTICE not in available(game):
        raise StudyError(f"{game} has no apprentice: use the levels {', '.join(level_strategies(game, BUDGETS[budget]))}")
    levels = [x for x in LEVELS if x in levels]  # a fixed order
    return BUDGETS[budget], sorted(counts), levels


class _StudyKind(JobKind):
    def identity_of(self, manifest: dict) -> dict:
        """The planned stages are compared by their ids (their status and seconds change as it
        runs; the adaptive stage's batches follow from the data, so a resumed study decides them
        again, the same way)."""
        ids = super().identity_of(manifest)
        # the adaptive stage's batches and the paired component checks follow from the data: a
        # resumed study decides them again, the same way
        ids["stages"] = [st.get("id") for st in ids.get("stages") or []
                         if st.get("section") not in ("adaptive", "components")]
        return ids


#: a study as a job directory; what must be equal for it to be resumed
STUDY = _StudyKind("study", STUDY_FILE, STUDY_FORMAT,
                   ("format", "game", "budget", "players", "levels", "seed", "stages", "adaptive"))


@dataclass(frozen=True)
class StudyRequest:
    """What a study is asked: the options of ``tourney study`` (and ``api.study``) besides the game
    and where it runs, declared once with their flags and help."""

    budget: str = option("standard", "quick (minutes: a first look), standard (under 30 minutes per game on 2 "
                         "cores) or thorough (hours): the deals of every stage and the search player's budget; "
                         "docs/studies.md lists each one's cost per game.", "--budget", "-b")
    players: list[str] = option((), "Player counts to study, e.g. 4 or 3,4 (repeatable; default: every count the "
                                "game supports).", "--players", "-p")
    levels: list[str] = option(LEVELS, "Levels of play, comma-separated: random (everyone random), heuristic "
                               "(everyone the game's strongest heuristic, tuned where a tuned setting ships), "
                               "apprentice (everyone the policy learned from the search, at the heuristic level's "
                               "volume: the strong level), search (everyone ismcts: the apprentice's check).",
                               "--levels")
    seed: int = option(0, "Seed of every stage: the same deals at every level and under every rule option.",
                       "--seed", "-s")


class StudyJob(Job):
    """``tourney study``: every stage played (each a dataset or tournament job of its own, in its
    sub-directory), then the adaptive stage and the paired component checks, then the report
    (see :func:`run_study`)."""

    kind = STUDY

    def __init__(self, game, budget, players, levels, seed, workers, scheduler, progress, echo):
        if echo is None:
            def echo(text):
                print(text, file=sys.stderr, flush=True)
        if levels is None or list(levels) == list(LEVELS):  # the default: every level the game has
            levels = [lv for lv in LEVELS if lv != "apprentice" or APPRENTICE in available(game)]
        self.b, self.counts, self.levels = _check(game, budget, players, list(levels))
        self.stages = plan(game, self.b, self.counts, self.levels)
        for s in self.stages:  # every strategy, rule and component is valid before anything is written
            make_matchup(GameConfig.build(game, s.players, s.rules, s.components), s.strategies[:1], seed=seed)
        self.game, self.seed, self.workers, self.scheduler, self.progress, self.echo = (
            game, seed, workers, scheduler, progress, echo)
        self.done: dict[str, dict] = {}  # resuming: the stages of the interrupted study
        self.todo: list[Stage] = []

    def prepare(self, old: dict | None) -> dict:
        game, b, command = self.game, self.b, self.command
        return {
            "format": STUDY_FORMAT, "tool": "tourney", "tool_version": __version__, "game": game,
            "rules_version": get_game(game).rules_version, "budget": b.name,
            "budget_deals": {"levels": b.level_deals, "rules": b.rule_deals, "landscape": b.landscape_deals,
                             "search_v_heuristic": b.versus_search_deals,
                             "search_scale": get_game(game).search_scale},
            "players": self.counts, "levels": self.levels, "level_strategies": level_strategies(game, b),
            "seed": self.seed, "skipped_options": skipped_options(game), "not_played": not_played(game, b, self.levels),
            "command": command and shlex.join(a for a in shlex.split(command) if a not in ("--overwrite", "--resume")),
            "created": now(), "status": "running",
            "stages": [s.to_dict(game, self.seed, self.dir.path) for s in self.stages],
            "adaptive": adaptive_design(game, b, self.levels),
        }

    def adopt(self, old: dict, manifest: dict) -> list[str]:
        manifest["command"] = old.get("command")  # the study's own command; resumptions listed apart
        self.done.update({st["id"]: st for st in old.get("stages", [])})
        for s, d in zip(self.stages, manifest["stages"]):
            if self.done.get(s.id, {}).get("status") == "complete":
                s.status, s.seconds = "complete", float(self.done[s.id].get("seconds") or 0)
                d.update(status=s.status, seconds=s.seconds)
        return []

    def play(self, manifest: dict) -> str:
        game, seed, out, stages, echo, progress = self.game, self.seed, self.dir.path, self.stages, self.echo, self.progress
        self.todo = todo = [s for s in stages if s.status != "complete"]

        def play(i: int, s: Stage) -> bool:
            """Play stage ``s`` (``manifest["stages"][i]``); False if interrupted."""
            cmd = s.command(game, seed, out)
            if progress:
                echo(f"[{i + 1}/{len(stages)}] {s.id}: {cmd}")
            t0 = time.perf_counter()
            where = out / s.id  # made (and checked) by the stage's own job directory
            if s.kind == "run":
                m = make_matchup(GameConfig.build(game, s.players, s.rules, s.components), s.strategies,
                                 seed=seed, rotate=True, record=RECORD)
                rep = run_games(m, s.deals, where, workers=self.workers, chunk_size=s.chunk_size, progress=progress,
                                command=cmd, scheduler=self.scheduler, resume=where.exists(), first_game=s.first_game)
            else:
                stop = stopping_rule(question_of(None), s.alpha, MARGIN) if s.sequential else None
                rep = run_tournament(game, s.players, s.strategies, s.deals, seed, where, rules=s.rules,
                                     workers=self.workers, progress=progress, command=cmd, stop=stop,
                                     scheduler=self.scheduler, resume=where.exists(), design="field", record=RECORD,
                                     **({"first_batch": s.first_batch} if s.sequential else {}))
            s.seconds += time.perf_counter() - t0
            s.status = "interrupted" if rep.interrupted else "complete"
            manifest["stages"][i].update(status=s.status, seconds=round(s.seconds, 3))
            self.dir.write(manifest)
            return not rep.interrupted

        for i, s in enumerate(stages):
            if s.status != "complete" and not play(i, s):
                return "interrupted"
        design = manifest["adaptive"]
        if design is not None and not _adaptive_stage(
                design, self.counts, level_strategies(game, self.b)["search"], stages, manifest, out, self.done, play,
                lambda p: open_questions(out, manifest, p), echo, progress,
                lambda p: beyond_cap(out, manifest, p)):
            return "interrupted"
        if "heuristic" in self.levels and not _component_checks(
                game, self.b, self.counts, seed, stages, manifest, out, self.done, play, largest_components, todo,
                self.dir):
            return "interrupted"
        return "complete"

    def seconds(self, manifest: dict, old: dict | None, elapsed: float) -> float:
        return sum(s.seconds for s in self.stages)  # the stages' own, however often resumed

    def report(self, manifest: dict) -> str:
        if self.progress:
            self.echo(f"analysing {len(self.stages)} stages ({len(self.todo)} played now) ...")
        return super().report(manifest)


def run_study(game: str, out: Path, budget: str = "standard", players=None, levels=None, seed: int = 0,
              workers: int | None = None, scheduler: str | None = None, resume: bool = False,
              overwrite: bool = False, progress: bool = True, command: str | None = None,
              echo=None) -> Outcome:
    """Play every stage of the study into ``out`` (skipping finished ones with ``resume``), then
    the adaptive stage and the paired component checks, then ``write_report(out, manifest)``
    (findings.json, report.html, report.md) and return its findings summary. The statistics are
    the layer's (:mod:`tourney_sim.simulate.stats`): the stopping rule of each ``--until-decided``
    stage (:func:`~tourney_sim.simulate.stats.sequential.stopping_rule`), the adaptive stage's open
    questions (:func:`~tourney_sim.simulate.stats.studies.open_questions`), the component kinds
    with the largest effects (:func:`~tourney_sim.simulate.stats.components.largest_components`)."""
    job = StudyJob(game, budget, players, levels, seed, workers, scheduler, progress, echo)
    return run_job(job, out, resume=resume, overwrite=overwrite, command=command)
