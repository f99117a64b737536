"""``tourney study GAME``: a balance study in one command, for every supported player count.

A study is a list of *stages*, each an ordinary ``tourney run`` or ``tourney tournament`` whose
command is recorded (so each number of the report can be regenerated on its own), all on the
same seed, so every stage plays the same deals and comparisons between them are paired:

1. ``levels/<P>p-<level>``: everyone plays the level's strategy (``random``; the game's strongest
   heuristic, its shipped tuned setting where there is one; the search player ``ismcts``):
   seat and first-player advantage, draws, length, decisiveness at that level of play.
2. ``rules/<P>p-<level>-<key>=<value>``: the same deals at the heuristic and search levels with
   one rule option changed (a true/false option flipped, every other choice of a choice, the
   value ``reports/games.py`` names for a number); compared with stage 1 on the same deals.
3. ``landscape/<P>p-heuristics``: a duplicate tournament of every built-in heuristic (``--seatings
   field``: each strategy alone among copies of each other one, in every seat); and
   ``landscape/<P>p-search-v-<h>``: the search player against each heuristic, the same way, with
   ``--until-decided`` (small first batch): a pair whose answer is already clear stops early.
4. The player counts side by side (the same measures, from stages 1 to 3).

Budgets fix the deals of every stage and the search budget (:data:`BUDGETS`; a game whose search
is slow plays fewer search deals, ``search_scale`` in ``reports/games.py``). Findings come from
:mod:`tourney_sim.reports.findings`: one Holm family over the whole study.

Layout of the study directory::

    _study.json          the manifest (format tourney-study/1): parameters, budget, every stage
                         with its command, dataset directory, status and seconds
    levels/ rules/ landscape/   the stages' datasets and tournaments
    findings.json        every question with its estimate, interval, p-values and outcome
    report.html report.md  the report (findings in words at the top)

A study is resumable: ``--resume`` keeps the finished stages and resumes the unfinished one (the
runner's and tournament's own resume), and the report is a function of the data alone, so a
resumed study writes the same report as an uninterrupted one.
"""
from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from tourney_sim.simulate.errors import TourneyError

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
    rule_deals: dict  # level -> deals of each rule-option stage (heuristic, search)
    landscape_deals: int  # the heuristics' tournament
    versus_search_deals: int  # the cap of each search-v-heuristic tournament
    first_batch: int  # its first sequential batch
    search_iterations: float  # times the game's default ismcts iterations
    cost: str  # what the README says it costs


BUDGETS = {
    "quick": Budget("quick", {"random": 2000, "heuristic": 2000, "search": 100},
                    {"heuristic": 2000, "search": 50}, 300, 60, 20, 1.0, "minutes: a first look"),
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
    section: str  # levels | rules | landscape
    kind: str  # run | tournament
    players: int
    strategies: list
    deals: int
    level: str | None = None
    rules: list = field(default_factory=list)  # ["key=value"]
    option: str | None = None  # rules: "key=value"
    sequential: bool = False
    first_batch: int | None = None
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
        if self.kind == "run":
            chunk = f" --chunk-size {self.chunk_size}" if self.chunk_size else ""
            return (f"tourney run {game} --players {self.players} {strategies} --games {self.deals} "
                    f"--seed {seed}{rules}{chunk} --out {where}")
        seq = f" --until-decided --first-batch {self.first_batch}" if self.sequential else ""
        return (f"tourney tournament {game} --players {self.players} {strategies} --seatings field "
                f"--games {self.deals} --seed {seed}{rules}{seq} --out {where}")

    def to_dict(self, game: str, seed: int, out: Path) -> dict:
        return {"id": self.id, "section": self.section, "kind": self.kind, "players": self.players,
                "level": self.level, "strategies": list(self.strategies), "deals": self.deals,
                "rules": list(self.rules), "option": self.option, "sequential": self.sequential,
                "first_batch": self.first_batch, "dir": self.id, "command": self.command(game, seed, out),
                "status": self.status, "seconds": round(self.seconds, 3)}


def study_hints(game: str) -> dict:
    from .games import hints_for
    return hints_for(game).get("study", {})


def level_strategies(game: str, budget: Budget) -> dict[str, str]:
    """The strategy everyone plays at each level of play."""
    from tourney_sim.strategies import available, heuristics
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
    from tourney_sim.simulate.games import get_game
    spec = get_game(game)
    hints = study_hints(game)
    out = []
    for opt in spec.options:
        only = hints.get("players", {}).get(opt.name)
        if only is not None and players not in only:
            continue
        if opt.kind == "bool":
            out.append((opt.name, "false" if opt.default else "true"))
        elif opt.kind == "choice":
            out += [(opt.name, c) for c in opt.choices if c != opt.default]
        elif opt.kind == "int" and opt.name in hints.get("values", {}):
            out += [(opt.name, str(v)) for v in hints["values"][opt.name]]
    return out


def skipped_options(game: str) -> list[str]:
    """Options a study does not vary, each with why."""
    from tourney_sim.simulate.games import get_game
    spec = get_game(game)
    hints = study_hints(game)
    out = []
    for opt in spec.options:
        if opt.kind == "file":
            out.append(f"{opt.name} (a file of components: give your own to `tourney sweep`)")
        elif opt.kind == "int" and opt.name not in hints.get("values", {}):
            out.append(f"{opt.name} (a number: sweep the values you care about with `tourney sweep`)")
    return out


def supported_players(game: str) -> list[int]:
    from tourney_sim.simulate.games import get_game
    spec = get_game(game)
    return list(range(spec.min_players, spec.max_players + 1))


def plan(game: str, budget: Budget, players: list[int], levels: list[str]) -> list[Stage]:
    from tourney_sim.strategies import heuristics
    strategy = level_strategies(game, budget)
    scale = float(study_hints(game).get("search_scale", 1.0))

    def deals(n: int, level: str | None) -> int:
        return max(20, int(round(n * scale))) if level == "search" else n

    stages: list[Stage] = []
    names = heuristics(game)
    for p in players:
        for level in levels:
            stages.append(Stage(f"levels/{p}p-{level}", "levels", "run", p, [strategy[level]],
                                deals(budget.level_deals[level], level), level))
        for level in [x for x in ("heuristic", "search") if x in levels]:
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
    return stages


# ----------------------------------------------------------------------------- running
@dataclass
class StudyResult:
    manifest: dict
    out: Path
    seconds: float
    interrupted: bool
    summary: str = ""


def _check(game: str, budget: str, players, levels) -> tuple[Budget, list[int], list[str]]:
    from tourney_sim.simulate.games import get_game
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


def _write(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    tmp.replace(path)


RESUME_KEYS = ("format", "game", "budget", "players", "levels", "seed", "stages")


def run_study(game: str, out: Path, budget: str = "standard", players=None, levels=None, seed: int = 0,
              workers: int | None = None, scheduler: str | None = None, resume: bool = False,
              overwrite: bool = False, progress: bool = True, command: str | None = None,
              echo=None) -> StudyResult:
    """Play every stage of the study into ``out`` (skipping finished ones with ``resume``), then
    write findings.json, report.html and report.md and return the findings summary."""
    from tourney_sim.simulate import __version__
    from tourney_sim.simulate.games import get_game
    from tourney_sim.simulate.matchup import make_matchup
    from tourney_sim.simulate.runner import run as run_games
    from tourney_sim.simulate.tournament import run_tournament

    if echo is None:
        def echo(text):
            print(text, file=sys.stderr, flush=True)
    if resume and overwrite:
        raise StudyError("--resume and --overwrite cannot be used together")
    b, counts, levels = _check(game, budget, players, list(LEVELS if levels is None else levels))
    out = Path(out)
    stages = plan(game, b, counts, levels)
    for s in stages:  # every strategy and rule is valid before anything is written
        make_matchup(game, s.players, s.strategies[:1], rules=s.rules, seed=seed)
    manifest = {
        "format": STUDY_FORMAT, "tool": "tourney", "tool_version": __version__, "game": game,
        "rules_version": get_game(game).rules_version, "budget": b.name,
        "budget_deals": {"levels": b.level_deals, "rules": b.rule_deals, "landscape": b.landscape_deals,
                         "search_v_heuristic": b.versus_search_deals,
                         "search_scale": float(study_hints(game).get("search_scale", 1.0))},
        "players": counts, "levels": levels, "level_strategies": level_strategies(game, b), "seed": seed,
        "skipped_options": skipped_options(game), "command": command,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"), "status": "running",
        "stages": [s.to_dict(game, seed, out) for s in stages],
    }
    old = None
    path = out / STUDY_FILE
    if resume and path.exists():
        try:
            old = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise StudyError(f"cannot resume: {path} is unreadable ({exc})") from None
        for key in RESUME_KEYS:
            mine = manifest[key] if key != "stages" else [st["id"] for st in manifest["stages"]]
            theirs = old.get(key) if key != "stages" else [st.get("id") for st in old.get("stages", [])]
            if mine != theirs:
                raise StudyError(f"cannot resume {out}: it is a study with another {key} "
                                 f"({theirs!r}, not {mine!r}); give the same parameters or use --overwrite")
        manifest["created"] = old.get("created", manifest["created"])
        manifest["command"] = old.get("command")  # the study's own command; resumptions listed apart
        manifest["resumed"] = list(old.get("resumed", [])) + [
            {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "command": command}]
        done = {st["id"]: st for st in old.get("stages", [])}
        for s, d in zip(stages, manifest["stages"]):
            if done.get(s.id, {}).get("status") == "complete":
                s.status, s.seconds = "complete", float(done[s.id].get("seconds") or 0)
                d.update(status=s.status, seconds=s.seconds)
    elif resume and out.exists() and any(out.iterdir()):
        raise StudyError(f"cannot resume {out}: it holds no study ({STUDY_FILE} is missing); give the "
                         f"directory of a study, or another --out")
    elif out.exists() and any(out.iterdir()):
        if not overwrite:
            raise StudyError(f"{out} already exists and is not empty: use --resume to continue a study "
                             f"there, --overwrite to replace it, or another --out")
        if not (path.exists() or (out / "levels").exists()):
            raise StudyError(f"{out} is not a tourney study: refusing to --overwrite it")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    _write(path, manifest)

    start = time.perf_counter()
    interrupted = False
    todo = [s for s in stages if s.status != "complete"]
    try:  # Ctrl-C between two stages stops as cleanly as inside one
        for i, s in enumerate(stages):
            if s.status == "complete":
                continue
            cmd = s.command(game, seed, out)
            if progress:
                echo(f"[{i + 1}/{len(stages)}] {s.id}: {cmd}")
            t0 = time.perf_counter()
            where = out / s.id
            where.parent.mkdir(parents=True, exist_ok=True)
            if s.kind == "run":
                m = make_matchup(game, s.players, s.strategies, rules=s.rules, seed=seed, rotate=True)
                rep = run_games(m, s.deals, where, workers=workers, chunk_size=s.chunk_size, progress=progress,
                                command=cmd, scheduler=scheduler, resume=where.exists())
            else:
                rep = run_tournament(game, s.players, s.strategies, s.deals, seed, where, rules=s.rules,
                                     workers=workers, progress=progress, command=cmd, until_decided=s.sequential,
                                     scheduler=scheduler, resume=where.exists(), design="field",
                                     **({"first_batch": s.first_batch} if s.sequential else {}))
            s.seconds += time.perf_counter() - t0
            if rep.interrupted:
                interrupted = True
                s.status = "interrupted"
            else:
                s.status = "complete"
            manifest["stages"][i].update(status=s.status, seconds=round(s.seconds, 3))
            _write(path, manifest)
            if interrupted:
                break
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start
    manifest["seconds"] = round(sum(s.seconds for s in stages), 3)
    if interrupted:
        manifest["status"] = "interrupted"
        _write(path, manifest)
        return StudyResult(manifest, out, seconds, True)
    if progress:
        echo(f"analysing {len(stages)} stages ({len(todo)} played now) ...")
    from . import study_report
    from .render import write
    try:
        data = study_report.load_study(out, manifest)
        family = study_report.questions(data)
        report = study_report.build(data, family)
        write(report, out / "report.html", "html")
        write(report, out / "report.md", "md")
        _write(out / "findings.json", study_report.findings_json(data, family))
    except KeyboardInterrupt:  # every stage is played: --resume only analyses again
        return StudyResult(manifest, out, seconds, True)
    manifest["status"] = "complete"
    _write(path, manifest)
    return StudyResult(manifest, out, seconds, False, study_report.summary_text(data, family, out))
