"""``tourney design GAME``: the smallest change of rules or components that fixes an imbalance,
searched with optuna on common deals and confirmed on fresh deals under strong play.

The *search space* is every rule option of the game (``rule:NAME``: true/false, a choice, a
number) and every single integer of its component table (``prizes.mata``,
``deck.counts[Swap]``: the addresses of ``--component``) that the game declares designable,
narrowed by ``vary`` (keep only these; prefixes allowed: ``rule``, a group ``deck``, a key
``commitment.values``) and ``fix`` (leave these alone). A *candidate* (a design) changes at most
``max_changes`` of them against the *baseline*: the shipped game, or what ``--rule`` /
``--component`` set as the start.

Every candidate is played on the **same deals** (seed ``seed``; common random numbers): everyone
the game's strongest heuristic (the study's heuristic level: the balance figure, length,
decisiveness, draws) and the strong heuristic against a weaker one in every seating (skill: how
much more often the stronger player wins; a fix that makes the game a coin flip is not a fix).
The first quarter of the everyone-heuristic deals is a look: a candidate already significantly
less fair than today's game there is *pruned* (nothing more is played for it). A component table
the game cannot play (a deck too small, values that no longer rise) is *unplayable*: it costs
nothing and does not count as one of the ``trials`` (up to five times as many proposals in all).

optuna proposes the candidates (multi-objective TPE by default, NSGA-II with ``sampler="nsga2"``):
the objectives (``objectives``: balance and skill by default; length, decisiveness, draws
possible) and always the *disruption* (how many values change, plus their mean relative size: one
value moved by 1 of a 0..9 range is 1.111), the targets (``targets``: e.g. skill at least 75% of
today's, the default) as constraints. Trial 0 is today's game, then one trial per single change
of a rule option (the options a designer reaches for first, up to half the trials); after those,
every third trial asks whether each change of a design is needed: a design of the front with one
change dropped, when one is left to try (the smallest change is what a designer wants); the sampler of trial k is seeded
from (seed, k) and sees only the finished trials, so a run killed and resumed proposes what an
uninterrupted one would (a trial cut short is played again).

*Confirmation*: up to ``designs`` candidates of the Pareto front (the fairest; then the smallest
changes nearly as fair, within 2 pp of its balance; then the next fairest) and today's game are
played again on **fresh deals** (``confirm_seed``) at the heuristic level (everyone the heuristic,
and the skill tables) and at the search level (everyone the search player; a design whose games
are longer than today's plays proportionally fewer deals there, :func:`search_deals_for`, since a
search's cost grows with the length of what it plays out; the pairing uses the deals both played).
Then the *strong level* (issue 42; :func:`strong_plan`, :meth:`DesignJob.confirm_strong`): every
table played by its own apprentice at volume, today's by the weights shipped for it, each design's
by weights retrained on its table from those (a ``tourney train`` run in ``confirm/<k>/apprentice``,
resumed like the rest), look by look on fresh deals until each design's balance gain is measured
within ±3 pp (or the cap); the search level is then its check. The statistics and the
recommendation (a design is recommended only when its gain holds at the heuristic level and at the
strong level, or under search play where the two disagree) are the caller's ``write_report``
(:mod:`tourney_sim.reports.design`), a function of the data alone.

*Re-check*: then the first :data:`RECHECK_GAMES` games of each confirmed design's heuristic
confirmation (and today's game's) are replayed with the game's readable reference engine following
the kernel (:func:`tourney_sim.simulate.replay.trace`, as ``tourney replay``) and their traces
re-checked by the reference engine alone (:func:`tourney_sim.simulate.check.check_trace`, as
``tourney check``); the outcome is the entry's ``recheck`` (``{"games", "passed", "failure"}``,
``failure`` one line: ``"game 3: ..."``), and the report never recommends a design whose games do
not replay (the kernel and the rules disagree on its table). A resumed run keeps a recorded
re-check.

The directory (paths in the manifest are relative to it)::

    _design.json      the manifest (format tourney-design/1): the request, the search space,
                      every trial (changes, rules, state, measures), the front, the confirmed designs
                      (each with its re-check)
    search.journal    the optuna study (resumable)
    trials/<k>/       trial k's datasets: mirror-0, mirror-1 (everyone the heuristic), skill-<j>
    today/strong      today's game at the strong level, measured first (and its first strong deals)
    confirm/today/ confirm/<k>/   heuristic, skill-<j>, search: the confirmation's datasets;
                      apprentice/ (a design's training run), strong-<first game>/ (its strong looks)
    design.json report.md report.html report-figures/ designs/   written by write_report
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Callable, Optional

from tourney_sim.strategies import available, resolve

from . import __version__
from .backends import SOURCES, open_backend
from .check import check_trace, validate_trace
from .errors import TourneyError
from .games import get_game
from .games.spec import COMPONENTS_OPTION, RuleError, component_rules, value_text
from .jobdir import Job, JobKind, Outcome, as_stored, error_line, now, option, run_job
from .matchup import make_matchup
from .replay import EngineDisagreement, trace as replay_trace
from .results import read_manifest
from .stats.designs import STRONG_MARGIN, design_measure, fair_today, hopeless
from .stats.measures import DESIGN_OBJECTIVES, DESIGN_TARGETS, MEASURES as REGISTRY, design_targets, names, ranges
from .runner import run as run_games
from .games.config import GameConfig
from .train import MOST_POSITIONS, labels_for
from .study import APPRENTICE, SEARCH, level_strategies, search_chunk, BUDGETS as STUDY_BUDGETS
from .tune import candidate_seatings, fail_stale, open_study, _optuna

DESIGN_FILE = "_design.json"
DESIGN_FORMAT = "tourney-design/1"
JOURNAL = "search.journal"
STUDY_NAME = "design"
#: what a design can measure and optimise, and which way is better (the registry's design measures)
MEASURES = names("design")
MAXIMISE = {**{n: REGISTRY[n].maximise for n in MEASURES}, "disruption": False}
DEFAULT_OBJECTIVES = DESIGN_OBJECTIVES
#: the largest counts a design run takes: every measure reads a candidate's deals into memory (a
#: few hundred bytes a deal), and the search proposes each design as one slot per change
MAX_DEALS = 2_000_000
MAX_TRIALS = 100_000
MAX_DESIGNS = 20
MAX_CHANGES = 50
#: a fix must not change the game's character: skill keeps at least 75% of today's (a coin flip
#: is not a fix), the leader at two thirds wins within ±10% as often as today, draws within ±2 pp
#: (±10% of a 2.5% draw rate is less than a trial can measure; game length is stated, not
#: targeted: a longer match is a designer's usual fix, and Cardavia's match of 2 doubles it)
DEFAULT_TARGETS = DESIGN_TARGETS


def default_targets(game: str) -> tuple[str, ...]:
    """:data:`DEFAULT_TARGETS` that ``game`` can measure (decisiveness needs its leader at two thirds)."""
    return design_targets(name for name, _ in get_game(game).columns)
SAMPLERS = ("tpe", "nsga2")
RULE = "rule"
#: an int rule option is searched over at most this many values from its lowest (``--wide``)
INT_RULE_VALUES = 20
#: ... and, by default, at most this many steps from the starting game's value (a designer's
#: change: a match of 2 or 4 deals instead of 1, not of 11)
RULE_REACH = 3
#: confirmation: the smallest change whose balance is within this of the fairest is confirmed too
NEARLY_AS_FAIR = 0.02
NO_CHANGE = "-"
TODAY = "today"
#: the re-check of the confirmation (:func:`recheck`): the first this many games of each confirmed
#: design's heuristic dataset (and today's game's) are traced and checked. Measured on 2 shared cores,
#: warm cache, everyone the study's heuristic at 4 players: a Partners game (about 335 steps) takes
#: about 0.1-0.16 s to trace (kernel and reference engine side by side), validate and check, a
#: Colleagues game (about 180 steps) 0.02-0.03 s, Cardavia about 0.01 s; so the standard budget's 4
#: tables (3 designs and today's game) re-check 32 games in about 5 s for Partners, well under 1% of
#: its ~10 minutes.
RECHECK_GAMES = 8
#: a re-check's one-line failure is cut to this many characters (a check's message may list moves)
RECHECK_REASON = 300
#: what a resumed design must share with the one it continues
RESUME_KEYS = ("game", "players", "baseline", "space", "objectives", "targets", "max_changes", "strategies",
               "seed", "confirm_seed", "sampler", "deals", "skill_deals", "confirm", "sources", "strong_check", "strong")
DESIGN = JobKind("design run", DESIGN_FILE, DESIGN_FORMAT, RESUME_KEYS)


class DesignError(TourneyError):
    """A bad design request; the message is one line for the user."""


@dataclass(frozen=True)
class DesignBudget:
    name: str
    trials: int
    deals: int  # everyone the heuristic, per trial
    skill_deals: int  # per seating of the skill tables, per trial
    designs: int  # confirmed designs
    confirm_deals: int  # the confirmation's heuristic level (and each skill seating: a quarter)
    search_deals: int  # the confirmation's search level, before the game's search_scale
    cost: str
    strong_deals: int  # the strong level's cap: fresh deals per table, everyone its own apprentice
    strong_train: tuple[int, int, int]  # each table's apprentice: rounds, positions, evaluation deals


BUDGETS = {
    "quick": DesignBudget("quick", 24, 2000, 1000, 2, 10000, 200, "a few minutes: a first look", 20000, (1, 3000, 200)),
    "standard": DesignBudget("standard", 80, 10000, 4000, 3, 40000, 1000, "about 10 minutes per game on 2 cores",
                             80000, (2, 10000, 500)),
    "thorough": DesignBudget("thorough", 300, 40000, 10000, 5, 100000, 4000, "about an hour per game", 320000,
                             (4, 30000, 2000)),
}
#: the strong level's confirmation looks at these shares of the cap (Bonferroni over the looks and the designs)
STRONG_LOOKS = (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1)


# ----------------------------------------------------------------------------- the space
@dataclass(frozen=True)
class Dimension:
    """One value the search may change: a rule option (``rule:NAME``) or one integer of the
    component table; ``default`` is the baseline's value (text for a rule option, int for a
    component), ``values`` a rule choice's texts."""

    address: str
    kind: str  # bool | choice | int
    default: Any
    group: str  # "rule" or the component group
    help: str = ""
    values: tuple = ()
    low: int = 0
    high: int = 0
    step: int = 1
    #: a seat compensation lever (the game's declaration: ``Value(..., compensation=True)``)
    lever: bool = False

    @property
    def rule_name(self) -> str | None:
        return self.address.split(":", 1)[1] if self.address.startswith(RULE + ":") else None

    def size(self, value) -> float:
        """How far ``value`` is from the default, relative to the range (1 for a choice)."""
        if self.kind != "int":
            return 0.0 if value == self.default else 1.0
        return abs(int(value) - int(self.default)) / max(1, self.high - self.low)

    def assignment(self, value) -> str:
        """The rule string that sets ``value``: ``NAME=VALUE`` or ``components.ADDRESS=VALUE``."""
        if self.rule_name is not None:
            return f"{self.rule_name}={value}"
        return component_rules([f"{self.address}={value}"])[0]

    def to_dict(self) -> dict:
        out = {"address": self.address, "kind": self.kind, "default": self.default, "group": self.group,
               "help": self.help}
        if self.kind == "int":
            out.update(low=self.low, high=self.high, step=self.step)
        else:
            out["values"] = list(self.values)
        if self.lever:
            out["lever"] = True
        return out


def dimensions(game: str, options: dict, players: int | None = None, wide: bool = False) -> list[Dimension]:
    """Every designable value of ``game``, its default the baseline's (``options``: the resolved
    rule options of the baseline); at ``players``, without the rule options that matter only at
    other counts (the game's ``study_players``). A component value moves within its
    designer-sized range (the game's declaration, :meth:`Components.design_range`: a card's value
    within its kind's shipped range, a count by a few steps; a number rule option at most
    :data:`RULE_REACH` from today's), narrowed to the values the game can
    play as a single change (the run of them around today's: :func:`_playable_run`), or anywhere
    it may (``wide``); a value with nothing to try there is left out."""
    spec = get_game(game)
    dims = []
    for opt in spec.options:
        if opt.kind == "file" or not applies(spec, opt.name, players):
            continue
        default = value_text(options[opt.name])
        if opt.kind == "bool":
            dims.append(Dimension(f"{RULE}:{opt.name}", "bool", default, RULE, opt.help, ("false", "true")))
        elif opt.kind == "choice":
            dims.append(Dimension(f"{RULE}:{opt.name}", "choice", default, RULE, opt.help, tuple(opt.choices)))
        else:
            now = int(options[opt.name])
            low, high = opt.low, min(opt.high, max(opt.low + INT_RULE_VALUES - 1, now))
            if not wide:
                low, high = max(low, now - RULE_REACH), min(high, now + RULE_REACH)
            dims.append(Dimension(f"{RULE}:{opt.name}", "int", now, RULE, opt.help, low=low, high=high))
    if spec.components is not None:
        table = options[COMPONENTS_OPTION]
        for address, value, _ in spec.components.addresses():
            if value.designable:
                low, high = spec.components.design_range(table, address, wide)
                if not wide and players is not None:
                    low, high = _playable_run(spec, players, options, address, low, high, value.step)
                if low < high:
                    dims.append(Dimension(address, "int", int(spec.components.get(table, address)),
                                          value.key.split(".")[0], value.help, low=low, high=high, step=value.step,
                                          lever=value.compensation))
    return dims


def _playable_run(spec, players: int, options: dict, address: str, low: int, high: int, step: int) -> tuple[int, int]:
    """The values from ``low`` to ``high`` the game can play at ``address`` as a single change of
    the baseline (``options``): the run of them on each side of today's value, up to the first it
    cannot play (a deck too small to deal, values that no longer rise)."""
    table = options[COMPONENTS_OPTION]
    now = int(spec.components.get(table, address))

    def playable(v: int) -> bool:
        try:
            spec.make_params(players, {**options, COMPONENTS_OPTION: spec.declared_components().set(
                table, [f"{address}={v}"])})
        except RuleError:
            return False
        return True

    lo = now
    while lo - step >= low and playable(lo - step):
        lo -= step
    hi = now
    while hi + step <= high and playable(hi + step):
        hi += step
    return lo, hi


def applies(spec, option: str, players: int | None) -> bool:
    """Whether a rule option matters at ``players`` (every count when None or undeclared)."""
    only = spec.study_players.get(option)
    return players is None or only is None or players in only


def _selector_matches(selector: str, dim: Dimension) -> bool:
    s = selector.strip()
    if s == RULE:
        return dim.rule_name is not None
    if s.startswith(RULE + ":"):
        return dim.address == s
    if dim.rule_name is not None:
        return False
    key = dim.address.split("[", 1)[0]
    return dim.address == s or key == s or dim.group == s


def select(game: str, dims: list[Dimension], vary, fix, players: int | None = None) -> list[Dimension]:
    """The dimensions ``vary`` names (all when empty) minus those ``fix`` names; one-line errors
    for a name that matches nothing (a rule option that matters only at other player counts than
    ``players`` says so), a name in both, or nothing left."""
    groups = sorted({d.group for d in dims if d.group != RULE})
    allowed = f"rule, rule:NAME, a component group ({', '.join(groups) or 'none'}), a key or an address"

    def matching(selector: str, flag: str) -> list[Dimension]:
        if not selector.strip():
            raise DesignError(f"{flag} expects {allowed}, got an empty value")
        got = [d for d in dims if _selector_matches(selector, d)]
        if got:
            return got
        name = selector.strip()
        if name.startswith(RULE + ":"):
            only = get_game(game).study_players.get(name[len(RULE) + 1:])
            if only is not None and players is not None and players not in only:
                counts = " or ".join(map(str, only))
                raise DesignError(f"{flag} {name}: it matters only at {counts} players, not at {players}: design it "
                                  f"with --players {only[0]}")
            rules = [d.address for d in dims if d.rule_name is not None]
            raise DesignError(f"{flag} {name}: {game} has no rule option {name[len(RULE) + 1:]!r} to design "
                              f"(rule options: {', '.join(rules) or 'none'})")
        spec = get_game(game)
        if spec.components is not None and "." in name:
            try:
                spec.components.resolve(name)
            except RuleError as exc:  # what is wrong with the address, blamed on this option
                why = str(exc).removeprefix("--component: ")
                raise DesignError(f"{flag} {name}: {why}") from None
            raise DesignError(f"{flag} {name}: the game keeps it out of the design search (not designable)")
        raise DesignError(f"{flag} {name}: {game} has nothing of that name to design (give {allowed})")

    varied = [d for s in vary for d in matching(s, "--vary")] if vary else list(dims)
    fixed = {d.address for s in fix for d in matching(s, "--fix")}
    both = [s.strip() for s in vary if s.strip() in [f.strip() for f in fix]]
    if both:
        raise DesignError(f"--vary and --fix both name {both[0]}: vary it or fix it")
    chosen = list({d.address: d for d in varied if d.address not in fixed}.values())
    if not chosen:
        raise DesignError("--vary and --fix leave nothing to change: --fix covers everything --vary names")
    return chosen


# ----------------------------------------------------------------------------- targets
_TARGET = re.compile(r"^\s*([a-z]+)\s*(>=|<=|=)\s*(?:±|\+-|\+/-)?\s*([-+]?[0-9.]+)\s*(%|pp|)\s*$")
#: the units whose values are shares or differences of shares: a target in percentage points fits them
POINT_UNITS = ("share", "figure", "difference")
#: the values each measure can take (absolute targets outside them can never be met)
MEASURE_RANGE = ranges("design")


def parse_target(text: str) -> tuple[str, dict]:
    """``skill>=75%`` (at least 75% of today's), ``length=10%`` (within ±10% of today's),
    ``decisiveness=10pp`` (within ±10 percentage points of today's), ``draws<=0.05``,
    ``balance>=0.95`` (absolute) -> (measure, {"op", "value", "relative"}); a target in points is
    "within" and not relative (its value a difference: 0.10)."""
    form = ("MEASURE>=X, MEASURE<=X, MEASURE=X% (within ±X% of today's game) or MEASURE=Xpp (within ±X "
            "percentage points of today's); X% is relative to today's game, a plain number absolute; "
            f"measures: {', '.join(MEASURES)}")
    m = _TARGET.match(text)
    if not m:
        raise DesignError(f"--target expects {form}, got {text!r}")
    measure, op, number, percent = m.groups()
    if measure not in MEASURES:
        raise DesignError(f"--target {text}: no measure {measure!r} (measures: {', '.join(MEASURES)})")
    try:
        value = float(number)
    except ValueError:
        raise DesignError(f"--target expects {form}, got {text!r}") from None
    if percent == "pp":
        if op != "=":
            raise DesignError(f"--target {text}: points take '=' (within ±X pp of today's game), e.g. {measure}=10pp")
        if REGISTRY[measure].unit not in POINT_UNITS:
            raise DesignError(f"--target {text}: {measure} is not a share, so it has no percentage points "
                              f"(use {measure}=X% for within ±X% of today's)")
        if not value > 0:
            raise DesignError(f"--target {text}: the points must be positive, e.g. {measure}=10pp")
        if value >= 100:
            raise DesignError(f"--target {text}: a share moves at most 100 points, so this always holds and "
                              f"constrains nothing; give fewer, e.g. {measure}=2pp")
        return measure, {"op": "within", "value": value / 100, "relative": False}
    relative = percent == "%"
    if relative:
        value /= 100
        if value < 0 or (op == "=" and value == 0):
            raise DesignError(f"--target {text}: a relative target must be a positive percentage of today's game")
    if op == "=":
        if not relative:
            raise DesignError(f"--target {text}: '=' takes a percentage (within ±X% of today's game), e.g. {measure}=10%")
        return measure, {"op": "within", "value": value, "relative": True}
    if not relative:
        low, high = MEASURE_RANGE[measure]
        if not (low <= value <= high):
            raise DesignError(f"--target {text}: {measure} is always from {low:g} to {high:g}, so this can never be met")
    return measure, {"op": op, "value": value, "relative": relative}


def target_excess(measure: str, target: dict, value: float | None, today: float | None) -> float:
    """How far ``value`` misses the target (<= 0: met), in the measure's own units; a measure the
    game cannot give misses it (as the report says: "cannot be measured")."""
    if value is None:
        return 1.0
    bound = target["value"] * today if target["relative"] and today is not None else target["value"]
    if target["op"] == ">=":
        return bound - value
    if target["op"] == "<=":
        return value - bound
    if today is None:
        return 0.0
    if not target["relative"]:  # within ±X points of today's
        return abs(value - today) - target["value"]
    if today == 0:
        return 0.0
    return abs(value / today - 1) - target["value"]


# ----------------------------------------------------------------------------- candidates
def disruption(dims: dict[str, Dimension], changes: dict) -> float:
    """Values changed plus the mean relative size of the changes (0 for today's game)."""
    if not changes:
        return 0.0
    sizes = [dims[a].size(v) for a, v in changes.items()]
    return round(len(sizes) + sum(sizes) / len(sizes), 6)


def label_of(changes: dict) -> str:
    if not changes:
        return "today's game"
    return ", ".join(f"{a.split(':', 1)[1] if a.startswith(RULE + ':') else a}={v}" for a, v in changes.items())


def rules_of(dims: dict[str, Dimension], baseline_rules: list[str], changes: dict) -> list[str]:
    return list(baseline_rules) + [dims[a].assignment(v) for a, v in changes.items()]


def objective_values(objectives: list[str], measures: dict, today: dict, changes_disruption: float) -> list[float]:
    """The values optuna sees, in the order of the objectives, then the disruption (length: the
    relative distance from today's length)."""
    out = []
    for o in objectives:
        v = measures.get(o)
        if o == "length":
            v = abs(v / today["length"] - 1) if v is not None and today.get("length") else 0.0
        out.append(float(v) if v is not None else 0.0)
    return out + [changes_disruption]


def directions(objectives: list[str]) -> list[str]:
    return ["maximize" if MAXIMISE[o] else "minimize" for o in objectives] + ["minimize"]


def pareto_front(points: list[tuple[Any, list[float]]], maximise: list[bool]) -> list:
    """The keys of the points no other point dominates (at least as good everywhere, better
    somewhere); equal points are all kept."""
    signed = [(k, [v if up else -v for v, up in zip(vals, maximise)]) for k, vals in points]
    front = []
    for k, a in signed:
        if not any(all(x >= y for x, y in zip(b, a)) and any(x > y for x, y in zip(b, a)) for _, b in signed):
            front.append(k)
    return front


def compensation_only(changes: dict, levers: set[str]) -> bool:
    """Whether a design changes nothing but seat compensation levers."""
    return bool(changes) and set(changes) <= levers


def best_compensation(history: list[dict], levers: set[str]) -> int | None:
    """The trial of the seat compensation that evens the seats best (issue 42): of the trials
    that change nothing but compensation levers (each single lever value is tried first), the
    fairest, when it is fairer than today's game; else None. Confirmed beside the designs. The
    targets do not choose it: it is what evens the seats, never the recommendation, and its
    verdict says which target it misses (Cardavia: the 4 points that even the teams make the
    leader at two thirds win 60.8% of games, not 75.9%)."""
    by_trial = {h["trial"]: h for h in history}
    today = by_trial[0]["measures"]["balance"]
    pool = [h for h in history if h["state"] == "complete" and h.get("repeat_of") is None
            and compensation_only(h["changes"], levers) and h["measures"]["balance"] > today]
    if not pool:
        return None
    return min(pool, key=lambda h: (-h["measures"]["balance"], h["disruption"], h["trial"]))["trial"]


def choose_confirmed(history: list[dict], front: list[int], k: int, levers: set[str] = frozenset()) -> list[int]:
    """Up to ``k`` designs of the front to confirm: the fairest; the smallest change whose balance
    is within :data:`NEARLY_AS_FAIR` of it; then the next fairest. Only designs fairer than today's
    game (trial 0) are worth confirming; a design that changes nothing but seat compensation
    ``levers`` is not one of them (:func:`best_compensation` is confirmed apart)."""
    by_trial = {h["trial"]: h for h in history}
    today = by_trial[0]["measures"]["balance"]
    pool = [t for t in front if t != 0 and by_trial[t]["measures"]["balance"] > today
            and not compensation_only(by_trial[t]["changes"], levers)]
    if not pool:
        return []
    fair = sorted(pool, key=lambda t: (-by_trial[t]["measures"]["balance"], by_trial[t]["disruption"], t))
    best = by_trial[fair[0]]["measures"]["balance"]
    small = sorted((t for t in pool if by_trial[t]["measures"]["balance"] >= best - NEARLY_AS_FAIR),
                   key=lambda t: (by_trial[t]["disruption"], -by_trial[t]["measures"]["balance"], t))
    order = list(dict.fromkeys([fair[0]] + small + fair))
    return order[:k]


def search_deals_for(deals: int, length: float | None, today_length: float | None) -> int:
    """The confirmation's search-level deals of a design whose games are ``length`` decisions long
    (today's: ``today_length``): fewer for longer games (a search's cost grows with the length of
    the game it plays out), so each design costs about what today's game costs per decision played;
    today's game plays all of them, and the pairing uses the deals both played."""
    if not length or not today_length or length <= today_length:
        return deals
    return max(min(deals, 20), int(round(deals * today_length / length)))


# ----------------------------------------------------------------------------- optuna
def _sampler(kind: str, seed: int, k: int, n_trials: int):
    """The sampler of trial k, seeded from (seed, k): a resumed run proposes what an uninterrupted
    one would. The targets reach it as each trial's constraints (:func:`_constrain`)."""
    optuna = _optuna()
    s = (seed * 1_000_003 + k * 7_919) % (2**32 - 1)
    if kind == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=s, population_size=max(8, min(50, n_trials // 6)))
    return optuna.samplers.TPESampler(seed=s, n_startup_trials=max(8, min(20, n_trials // 5)))


def _constrain(trial, targets: dict, excess: list | None) -> None:
    """Tell optuna how far the trial misses each target (<= 0: met; a trial pruned or unplayable
    meets them: it is out of the front anyway)."""
    for i, measure in enumerate(targets):
        trial.set_constraint(measure, float(excess[i]) if excess else 0.0)


def _propose(trial, dims: list[Dimension], max_changes: int) -> dict:
    """The changes a trial proposes: ``max_changes`` slots, each naming a dimension or nothing,
    each named dimension's value (a value equal to the baseline's is no change)."""
    addresses = [NO_CHANGE] + [d.address for d in dims]
    by_address = {d.address: d for d in dims}
    changes = {}
    for i in range(max_changes):
        a = trial.suggest_categorical(f"change_{i}", addresses)
        if a == NO_CHANGE or a in changes:
            continue
        d = by_address[a]
        if d.kind == "int":
            v = trial.suggest_int(a, d.low, d.high, step=d.step)
        else:
            v = trial.suggest_categorical(a, list(d.values))
        if v != d.default:
            changes[a] = str(v) if d.rule_name is not None else v  # a rule option's value as its text
    return dict(sorted(changes.items()))


def _params(changes: dict, max_changes: int, dims: dict[str, Dimension]) -> dict:
    """The trial parameters that propose ``changes`` (for ``enqueue_trial``)."""
    out = {f"change_{i}": NO_CHANGE for i in range(max_changes)}
    for i, (address, value) in enumerate(changes.items()):
        out[f"change_{i}"] = address
        out[address] = int(value) if dims[address].kind == "int" else value
    return out


def front_of(history: list[dict], objectives: list[str]) -> list[int]:
    """The Pareto front of the complete trials that meet every target."""
    points = [(h["trial"], h["objectives"]) for h in history
              if h["state"] == "complete" and h["feasible"] and h.get("repeat_of") is None]
    return sorted(pareto_front(points, [MAXIMISE[o] for o in objectives] + [False]))


def simplification(history: list[dict], objectives: list[str]) -> dict | None:
    """A smaller design not yet played: a design of the front (fairest first) with one of its
    changes dropped. The search proposes combinations; this asks whether each change is needed."""
    by_trial = {h["trial"]: h for h in history}
    played = {tuple(sorted(h["changes"].items())) for h in history}
    front = sorted(front_of(history, objectives),
                   key=lambda t: (-by_trial[t]["measures"]["balance"], by_trial[t]["disruption"], t))
    for t in front:
        changes = by_trial[t]["changes"]
        for drop in (changes if len(changes) > 1 else ()):
            smaller = {a: v for a, v in changes.items() if a != drop}
            if tuple(sorted(smaller.items())) not in played:
                return smaller
    return None


#: every this many trials after the fixed ones, a simplification of the front (when there is one)
SIMPLIFY_EVERY = 3
#: proposals the game cannot play do not count as trials, up to this many times the trials in all
UNPLAYABLE_SHARE = 5


def _enqueued(dims: list[Dimension], max_changes: int, spec) -> list[dict]:
    """Trial 0 (today's game), then each single change of a rule option: true/false flipped,
    every other choice, a number at the default + 1 and at the values the study tries; then each
    single value of a seat compensation lever within its range (what evens the seats)."""
    by_address = {d.address: d for d in dims}
    out = [_params({}, max_changes, by_address)]
    for d in dims:
        if d.rule_name is None:
            continue
        if d.kind == "int":
            values = sorted({v for v in [d.default + 1, *spec.study_values.get(d.rule_name, ())]
                             if d.low <= v <= d.high and v != d.default})
        else:
            values = [v for v in d.values if v != d.default]
        out += [_params({d.address: v}, max_changes, by_address) for v in values]
    for d in dims:
        if d.lever:
            out += [_params({d.address: v}, max_changes, by_address)
                    for v in range(d.low, d.high + 1, d.step) if v != d.default]
    return out


# ----------------------------------------------------------------------------- playing
@dataclass
class Plays:
    """Where and how candidates are played (the same deals for each)."""

    game: str
    players: int
    strategies: dict  # heuristic, weaker, search
    seatings: list
    backend: Any

    def mirror(self, rules: list[str], strategy: str, seed: int, games: int, out: Path, first_game: int = 0,
               chunk_size: int | None = None) -> None:
        m = make_matchup(self.game, self.players, [strategy], rules=rules, seed=seed, rotate=True)
        report = run_games(m, games, out, chunk_size=chunk_size, progress=False, backend=self.backend, command=None,
                           resume=out.exists(), first_game=first_game)
        if report.interrupted:  # Ctrl-C: never measure a candidate on the deals it had played so far
            raise KeyboardInterrupt

    def skill(self, rules: list[str], seed: int, games: int, where: Path, prefix: str = "skill") -> list:
        """The skill tables: the heuristic in each seating, the weaker strategy elsewhere."""
        strong, weak = self.strategies["heuristic"], self.strategies["weaker"]
        out = []
        for j, mine in enumerate(self.seatings):
            seats = [strong if s in mine else weak for s in range(self.players)]
            m = make_matchup(self.game, self.players, seats, rules=rules, seed=seed, rotate=False)
            d = where / f"{prefix}-{j}"
            if run_games(m, games, d, progress=False, backend=self.backend, command=None, resume=d.exists()).interrupted:
                raise KeyboardInterrupt
            out.append((d, tuple(mine)))
        return out


# ----------------------------------------------------------------------------- the re-check
def recheck(directory: Path, games: int = RECHECK_GAMES, root: Path | None = None) -> dict:
    """Replay the first ``games`` games of the dataset ``directory`` through the game's reference
    engine and ``tourney check`` (:func:`replayed`), stopping at the first that fails:
    ``{"games": N, "passed": P, "failure": None | "game I: one line"}`` (N: the games to check,
    fewer when the dataset holds fewer; P: those that passed before the failure; paths in the
    failure relative to ``root``). Deterministic: the same dataset gives the same outcome. Never
    raises for a game that does not replay (any exception is that game's failure); Ctrl-C is not
    caught."""
    def reason(text: str) -> str:
        if root is not None:
            text = text.replace(str(root) + os.sep, "")
        text = " ".join(text.split())
        return text if len(text) <= RECHECK_REASON else text[:RECHECK_REASON - 1].rstrip() + "…"

    try:
        manifest = read_manifest(directory)
        first = int(manifest.get("first_game") or 0)
        n = max(0, min(int(games), int(manifest.get("games") or 0)))
    except Exception as exc:  # noqa: BLE001 (a dataset that cannot be read fails its re-check)
        return {"games": int(games), "passed": 0, "failure": reason(f"cannot read the dataset: {_why(exc)}")}
    for i in range(first, first + n):
        why = replayed(directory, i)
        if why is not None:
            return {"games": n, "passed": i - first, "failure": reason(f"game {i}: {why}")}
    return {"games": n, "passed": n, "failure": None}


def replayed(directory: Path, game_index: int) -> str | None:
    """None when game ``game_index`` of the dataset replays through the reference engine beside
    the kernel (``tourney replay``: no :class:`EngineDisagreement`, the result the dataset holds)
    and its trace, as the JSON file would hold it, passes ``tourney check`` (the schema, then the
    reference engine alone); else why not, in one line."""
    try:
        t = as_stored(replay_trace(directory, game_index))
        if t.get("matches_dataset") is None:
            return "the dataset holds no rows for it"
        if not t["matches_dataset"]:
            return "replayed, it ends differently from the game the dataset holds"
        validate_trace(t, "its trace")
        report = check_trace(t)
    except Exception as exc:  # noqa: BLE001 (whatever the replay raises is this game's failure)
        return _why(exc)
    return None if report.ok else f"tourney check: {report.message}"


def _why(exc: BaseException) -> str:
    """An exception in one line: a disagreement or tourney's own error by its message, anything
    else with its class (a bug's KeyError says little without it)."""
    if isinstance(exc, EngineDisagreement):
        return f"the kernel and the reference engine part: {error_line(exc)}"
    if isinstance(exc, TourneyError):
        return error_line(exc)
    return f"{type(exc).__name__}: {error_line(exc)}"


def _recheck_key(entry: dict) -> str:
    """What a recorded re-check belongs to: the confirmed entry's trial, rules and dataset."""
    return repr(as_stored([entry.get("trial"), entry.get("rules"), (entry.get("dirs") or {}).get("heuristic")]))


def strong_check(game: str, players: int, rules: list[str], deals: int) -> dict | None:
    """What the run plays of today's game first (issue 42: stop when there is nothing to fix):
    everyone the apprentice with the weights shipped for this table, on ``deals`` fresh deals.
    None when the game has no apprentice or none for this table (a changed starting game): the
    search then runs as before."""
    from tourney_sim.strategies import StrategyError
    if APPRENTICE not in available(game):
        return None
    try:
        resolve(game, [APPRENTICE], config=GameConfig.build(game, players, rules))
    except StrategyError:
        return None
    return {"strategy": APPRENTICE, "deals": deals, "dir": "today/strong"}


def strong_plan(game: str, players: int, cap: int, train: tuple[int, int, int]) -> dict | None:
    """The confirmation's strong level (issue 42): every table (today's and each design's) played
    by its own apprentice, each design's retrained on its table from the weights shipped for the
    player count (``tourney train --start shipped`` at ``train``'s rounds, positions, evaluation
    deals), today's the shipped weights (trained too when the starting table has none); played in
    looks at :data:`STRONG_LOOKS` of ``cap`` fresh deals, a design's stopping once its balance
    gain is measured within :data:`STRONG_MARGIN`. None when the game has no apprentice."""
    if APPRENTICE not in available(game):
        return None
    from .train import shipped_file
    looks = sorted({max(8, int(round(cap * share))) for share in STRONG_LOOKS})
    rounds, positions, eval_deals = train
    shipped = shipped_file(game, players).exists()
    return {"strategy": APPRENTICE, "looks": looks, "margin": STRONG_MARGIN,
            "train": {"rounds": rounds, "positions": positions, "eval_deals": eval_deals,
                      "start": "shipped" if shipped else None}}


def _strategies(game: str, heuristic: str | None, weaker: str | None, search: str | None) -> dict:
    """The strong heuristic (the study's heuristic level), the weaker one it plays for skill (the
    game's first built-in heuristic that is not random), the search player."""
    from tourney_sim.strategies import heuristics
    levels = level_strategies(game, STUDY_BUDGETS["standard"])
    strong = heuristic or levels["heuristic"]
    if weaker is None:
        names = [n for n in heuristics(game) if n != "random" and not n.endswith("-tuned") and n != strong]
        weaker = names[0] if names else "random"
    search = search or (SEARCH if SEARCH in available(game) else strong)
    # an unknown strategy: StrategyError, one line
    settings = {role: resolve(game, [name])[0].setting
                for role, name in (("heuristic", strong), ("weaker", weaker), ("search", search))}
    if settings["heuristic"] == settings["weaker"]:
        raise DesignError(f"--heuristic and --weaker are the same strategy ({strong}): skill needs two")
    return settings


@dataclass(frozen=True)
class DesignRequest:
    """What a design run is asked: every option of ``tourney design`` (and of ``api.design``),
    declared once here with its flags and help; the CLI's options are made from it."""

    players: Optional[int] = option(None, "Number of players (default: 4, or the game's only count).",
                                    "--players", "-p")
    vary: list[str] = option((), "What the search may change; repeatable: rule (every rule option), rule:NAME, a "
                             "component group (deck), a key (commitment.values) or one address (deck.counts[Swap]); "
                             "keys in docs/components.md (default: everything the game declares designable).")
    fix: list[str] = option((), "What the search leaves alone (same names as --vary); repeatable.")
    objectives: list[str] = option(DEFAULT_OBJECTIVES, "What to optimise besides disruption (always one): balance, "
                                   "skill, length (closeness to today's), decisiveness, draws; repeatable (default: "
                                   "balance and skill).", "--objective")
    targets: Optional[list[str]] = option(None, "A constraint, repeatable: \"skill>=75%\" (at least 75% of today's), "
                                          "\"decisiveness=10%\" (within ±10% of today's), \"draws=2pp\" (within ±2 "
                                          "percentage points of today's), \"draws<=0.05\", \"balance>=0.97\" "
                                          "(absolute). Default: skill>=75%, decisiveness=10%, draws=2pp (those the "
                                          "game measures); giving any replaces them all. --target none: no target.",
                                          "--target")
    max_changes: int = option(3, "At most this many values changed in a design.")
    budget: str = option("standard", "quick (minutes), standard (about 10 minutes per game on 2 cores) or thorough "
                         "(about an hour): trials, deals and confirmation; docs/design.md lists each one's numbers and "
                         "cost.", "--budget", "-b")
    trials: Optional[int] = option(None, "Candidates to try (the first is today's game; default: the budget's).",
                                   "--trials", "-t")
    deals: Optional[int] = option(None, "Deals per candidate, everyone the strong heuristic; the same deals for "
                                  "every candidate (default: the budget's).", "--deals", "-n")
    skill_deals: Optional[int] = option(None, "Deals per seating of the skill tables, per candidate (default: the "
                                        "budget's).")
    designs: Optional[int] = option(None, "Designs of the Pareto front confirmed on fresh deals (default: the "
                                    "budget's).")
    confirm_deals: Optional[int] = option(None, "Fresh deals of the confirmation at the heuristic level (default: "
                                          "the budget's).")
    search_deals: Optional[int] = option(None, "Fresh deals of the confirmation under search play (default: the "
                                         "budget's, scaled by the game's search cost).")
    sampler: str = option("tpe", "optuna multi-objective sampler: tpe or nsga2.")
    seed: int = option(0, "Seed of the search's deals and of the sampler.", "--seed", "-s")
    confirm_seed: Optional[int] = option(None, "Seed of the confirmation's fresh deals (default: --seed + 1).")
    rules: list[str] = option((), "The starting game: a rule option key=value; repeatable (default: the shipped "
                              "rules).", "--rule")
    components: list[str] = option((), "The starting game: one component value KEY=VALUE; repeatable (default: the "
                                   "shipped components).", "--component")
    heuristic: Optional[str] = option(None, "The strong heuristic everyone plays (default: the study's, the game's "
                                      "strongest).")
    weaker: Optional[str] = option(None, "The weaker strategy the heuristic plays to measure skill (default: the "
                                   "game's first simple heuristic).")
    search: Optional[str] = option(None, "The search player of the confirmation (default: ismcts).")
    wide: bool = option(False, "Let every component value move anywhere the game allows (by default each moves "
                        "within its designer-sized range: a card's value within its kind's shipped range, a count by "
                        "a few steps, a card keeps its kind of effect; docs/components.md lists each key's).")
    strong_deals: Optional[int] = option(None, "The strong level's most fresh deals per table, everyone its own "
                                         "apprentice (each design's retrained on its table); it stops earlier for a "
                                         "design once its balance gain is measured within ±3 pp (default: the "
                                         "budget's).")
    strong_labels: Optional[int] = option(None, "Search labels per training round when a design's apprentice is "
                                          "retrained on its table (default: the budget's, fewer where the game labels with a larger "
                                          "search, as tourney train does; docs/design.md).")
    always_search: bool = option(False, "Search even when today's game is already fair at the strong level (by "
                                 "default the run measures today's game first, everyone the apprentice, and stops "
                                 "there when every seat is shown within ±2 pp: nothing to fix).")


class DesignJob(Job):
    """``tourney design``: the search over changes of rules and components, the confirmation of
    the best on fresh deals, the re-check of their games, then the report (see the module
    docstring and :func:`run_design`)."""

    kind = DESIGN

    def __init__(self, game: str, request: DesignRequest, *, workers: int | None, scheduler: str | None,
                 progress: bool, echo):
        if echo is None:
            def echo(text):
                print(text, file=sys.stderr, flush=True)
        (players, vary, fix, objectives, targets, max_changes, budget, trials, deals, skill_deals, designs,
         confirm_deals, search_deals, sampler, seed, confirm_seed, rules, components, heuristic, weaker,
         search, wide, strong_deals, strong_labels, always_search) = (getattr(request, f.name) for f in fields(DesignRequest))  # in the order declared
        rules = list(rules) + component_rules(components)
        spec = get_game(game)
        players = spec.player_count(players)
        if budget not in BUDGETS:
            raise DesignError(f"--budget must be one of {', '.join(BUDGETS)}, got {budget!r}")
        b = BUDGETS[budget]
        trials = b.trials if trials is None else trials
        deals = b.deals if deals is None else deals
        skill_deals = b.skill_deals if skill_deals is None else skill_deals
        designs = b.designs if designs is None else designs
        confirm_deals = b.confirm_deals if confirm_deals is None else confirm_deals
        search_deals = (max(20, int(round(b.search_deals * spec.search_scale))) if search_deals is None
                        else search_deals)
        strong_deals = b.strong_deals if strong_deals is None else strong_deals
        rounds, labels, eval_deals = b.strong_train
        labels = labels_for(game, labels) if strong_labels is None else strong_labels
        for name, v, least, most in (("--trials", trials, 1, MAX_TRIALS), ("--deals", deals, 8, MAX_DEALS),
                                     ("--skill-deals", skill_deals, 2, MAX_DEALS), ("--designs", designs, 1, MAX_DESIGNS),
                                     ("--confirm-deals", confirm_deals, 8, MAX_DEALS),
                                     ("--search-deals", search_deals, 2, MAX_DEALS),
                                     ("--strong-deals", strong_deals, 16, MAX_DEALS),
                                     ("--strong-labels", labels, 10, MOST_POSITIONS // max(1, rounds)),
                                     ("--max-changes", max_changes, 1, MAX_CHANGES)):
            if not (least <= v <= most):
                raise DesignError(f"{name} must be from {least:,} to {most:,}, got {v:,}")
        if sampler not in SAMPLERS:
            raise DesignError(f"--sampler must be one of {', '.join(SAMPLERS)}, got {sampler!r}")
        objectives = list(dict.fromkeys(objectives or DEFAULT_OBJECTIVES))
        for o in objectives:
            if o not in MEASURES:
                raise DesignError(f"--objective must be one of {', '.join(MEASURES)} (disruption is always one), got {o!r}")
        parsed_targets = dict(parse_target(t) for t in (default_targets(game) if targets is None else targets))
        if not (0 <= seed < 2**64):
            raise DesignError(f"--seed must be an integer from 0 to {2**64 - 1}, got {seed}")
        confirm_seed = (seed + 1) % 2**64 if confirm_seed is None else confirm_seed
        if confirm_seed == seed:
            raise DesignError("--confirm-seed must differ from --seed: the confirmation plays fresh deals")
        baseline_rules = list(rules)
        options = spec.resolve_options(baseline_rules)  # bad --rule / --component: RuleError
        spec.make_params(players, options)  # a baseline the game cannot play: refused
        space = select(game, dimensions(game, options, players, wide), list(vary), list(fix), players)
        by_address = {d.address: d for d in space}
        slots = min(max_changes, len(space))  # never more changes than values to change
        strategies = _strategies(game, heuristic, weaker, search)
        seatings = candidate_seatings(players, spec.team_game)
        table = options.get(COMPONENTS_OPTION)
        request = {
            "game": game, "players": players, "rules_version": spec.rules_version,
            "baseline": {"rules": baseline_rules, "components": dict(table) if table is not None else None,
                         "label": ", ".join(baseline_rules) or "the shipped rules and components"},
            "space": [d.to_dict() for d in space], "objectives": objectives, "targets": parsed_targets,
            "max_changes": max_changes, "strategies": strategies, "seatings": [list(s) for s in seatings],
            "seed": seed, "confirm_seed": confirm_seed, "sampler": sampler, "deals": deals,
            "skill_deals": skill_deals,
            "confirm": {"designs": designs, "heuristic_deals": confirm_deals,
                        "skill_deals": max(2, confirm_deals // 4), "search_deals": search_deals},
            "sources": SOURCES,
            "strong_check": None if always_search else strong_check(game, players, baseline_rules, confirm_deals),
            "strong": strong_plan(game, players, strong_deals, (rounds, labels, eval_deals)),
        }
        self.__dict__.update({k: v for k, v in locals().items() if k != "self"})
        self.backend = None

    def prepare(self, old: dict | None) -> dict:
        self.old = old
        return {"format": DESIGN_FORMAT, "tool": "tourney", "tool_version": __version__, "budget": self.b.name,
                **self.request, "trials": self.trials, "command": self.command, "status": "running",
                "created": now(), "history": [], "front": [], "confirmed": []}

    def play(self, manifest: dict) -> str:
        # the request as __init__ checked it, under the names the search and the confirmation use
        (game, players, out, old, spec, space, slots, by_address, strategies, seatings, baseline_rules, parsed_targets,
         objectives, trials, deals, skill_deals, designs, sampler, seed, confirm_seed, request, progress, echo,
         job) = (
            self.game, self.players, self.dir.path, self.old, self.spec, self.space, self.slots, self.by_address,
            self.strategies, self.seatings, self.baseline_rules, self.parsed_targets, self.objectives, self.trials,
            self.deals, self.skill_deals, self.designs, self.sampler, self.seed, self.confirm_seed,
            self.request, self.progress, self.echo, self.dir)
        study = open_study(out, create=old is None or not (out / JOURNAL).exists(), name=STUDY_NAME,
                           file=JOURNAL, directions=directions(objectives))
        optuna = _optuna()
        stale = [t for t in fail_stale(study, waiting=True) if t.state == optuna.trial.TrialState.RUNNING]
        finished = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
        fixed = _enqueued(space, slots, spec)[:max(1, trials // 2)]  # trial k < len(fixed) plays fixed[k]
        if old is not None:
            self.notes.append(f"resuming: {sum(h['state'] != 'unplayable' for h in _history(study, optuna))} of {trials} trials done"
                         + (f", {len(stale)} cut short by the interruption played again" if stale else ""))
        self.backend = backend = open_backend(self.workers, self.scheduler)
        plays = Plays(game, players, strategies, seatings, backend)
        quarter = max(1, deals // 4)
        bar = None

        def today_measures() -> dict:
            return next(t.user_attrs["measures"] for t in study.trials
                        if t.state == optuna.trial.TrialState.COMPLETE and t.user_attrs.get("k") == 0)

        try:
            backend.check(make_matchup(game, players, [strategies["heuristic"]], rules=baseline_rules,
                                       seed=seed).describe())
            check = request.get("strong_check")
            if check is not None:
                if progress:
                    echo(f"today's game at the strong level first: {check['deals']:,} fresh deals (seed {confirm_seed}), "
                         f"everyone {check['strategy']}")
                where = out / check["dir"]
                plays.mirror(baseline_rules, check["strategy"], confirm_seed, check["deals"], where)
                manifest["today_strong"] = fair_today(game, players, [where], check["strategy"])
                job.write(manifest)
                if manifest["today_strong"]["fair"]:
                    if progress:
                        echo("today's game is fair at the strong level (every seat within ±2 pp): nothing to fix, "
                             "so no search (--always-search to search all the same)")
                    return "complete"

            def objective_fn(trial):
                k = len([t for t in study.trials if t.state in finished])
                changes = _propose(trial, space, slots)
                cand_rules = rules_of(by_address, baseline_rules, changes)
                where = out / "trials" / str(k)
                if where.exists():
                    shutil.rmtree(where)  # a trial cut short by a kill: played again from scratch
                d = disruption(by_address, changes)
                info = {"k": k, "changes": changes, "label": label_of(changes), "rules": cand_rules, "disruption": d,
                        "dirs": {"mirror": [f"trials/{k}/mirror-0"], "skill": []}, "why": None,
                        "constraint": [0.0] * len(parsed_targets), "repeat_of": None}
                for key, v in info.items():
                    trial.set_user_attr(key, v)
                earlier = next((t for t in study.trials if t.state in finished and t.user_attrs.get("changes") == changes),
                               None)
                if earlier is not None:  # the same design on the same deals: the same games, not played again
                    for key in ("dirs", "measures", "state", "why", "constraint"):
                        trial.set_user_attr(key, earlier.user_attrs.get(key))
                    trial.set_user_attr("repeat_of", earlier.user_attrs["k"])
                    _constrain(trial, parsed_targets, earlier.user_attrs.get("constraint"))
                    if earlier.state == optuna.trial.TrialState.PRUNED:
                        raise optuna.TrialPruned()
                    return list(earlier.values)
                try:
                    spec.make_params(players, spec.resolve_options(cand_rules))
                except RuleError as exc:
                    trial.set_user_attr("state", "unplayable")
                    trial.set_user_attr("why", str(exc))
                    _constrain(trial, parsed_targets, None)
                    raise optuna.TrialPruned()
                mirror = [where / "mirror-0"]
                plays.mirror(cand_rules, strategies["heuristic"], seed, quarter, mirror[0])
                if k > 0 and "balance" in objectives:
                    today_dirs = [out / "trials" / "0" / "mirror-0"]
                    why = hopeless(game, players, mirror, today_dirs)
                    if why:
                        trial.set_user_attr("state", "pruned")
                        trial.set_user_attr("why", why)
                        _constrain(trial, parsed_targets, None)
                        raise optuna.TrialPruned()
                if deals > quarter:
                    mirror.append(where / "mirror-1")
                    plays.mirror(cand_rules, strategies["heuristic"], seed, deals - quarter, mirror[1], first_game=quarter)
                skill = plays.skill(cand_rules, seed, skill_deals, where)
                measures = design_measure(game, players, mirror, skill)
                today = measures if k == 0 else today_measures()
                constraint = [target_excess(m, t, measures.get(m), today.get(m)) for m, t in parsed_targets.items()]
                trial.set_user_attr("dirs", {"mirror": [str(p.relative_to(out)) for p in mirror],
                                             "skill": [[str(p.relative_to(out)), list(s)] for p, s in skill]})
                trial.set_user_attr("measures", measures)
                trial.set_user_attr("constraint", constraint)
                trial.set_user_attr("state", "complete")
                _constrain(trial, parsed_targets, constraint)
                return objective_values(objectives, measures, today, d)

            def played(hist: list[dict]) -> int:
                return sum(h["state"] != "unplayable" for h in hist)

            hist = _history(study, optuna)
            if progress:
                from tqdm import tqdm
                bar = tqdm(total=trials, initial=min(played(hist), trials), unit="trial", desc="design search",
                           dynamic_ncols=True, file=sys.stderr)
            # a table the game cannot play costs nothing and does not count: up to UNPLAYABLE_SHARE more proposals
            while played(hist) < trials and len(hist) < UNPLAYABLE_SHARE * trials:
                k = len(hist)
                study.sampler = _sampler(sampler, seed, k, trials)
                if k < len(fixed):
                    study.enqueue_trial(fixed[k], skip_if_exists=False)
                elif (k - len(fixed)) % SIMPLIFY_EVERY == SIMPLIFY_EVERY - 1:
                    smaller = simplification(hist, objectives)
                    if smaller is not None:
                        study.enqueue_trial(_params(smaller, slots, by_address), skip_if_exists=False)
                study.optimize(objective_fn, n_trials=1, catch=())
                new = _history(study, optuna)
                if bar is not None and len(new) > len(hist):
                    bar.write(_trial_line(new[-1], new, objectives))
                    bar.update(played(new) - played(hist))
                hist = new
            if bar is not None:
                bar.close()
                bar = None
            history = _history(study, optuna)
            manifest["history"] = history
            manifest["front"] = front_of(history, objectives)
            levers = {d.address for d in space if d.lever}
            chosen = choose_confirmed(history, manifest["front"], designs, levers)
            lever = best_compensation(history, levers) if levers else None
            by_trial = {h["trial"]: h for h in history}
            confirmed = [{"trial": TODAY, "label": "today's game", "changes": {}, "rules": baseline_rules, "disruption": 0.0}]
            confirmed += [{"trial": t, **{key: by_trial[t][key] for key in ("label", "changes", "rules", "disruption")}}
                          for t in chosen]
            if lever is not None:  # the seat compensation that evens the seats best, confirmed beside them
                confirmed.append({"trial": lever, "compensation": True,
                                  **{key: by_trial[lever][key] for key in ("label", "changes", "rules", "disruption")}})
            conf = request["confirm"]
            today_length = by_trial[0]["measures"]["length"]
            for c in confirmed:
                length = by_trial[c["trial"]]["measures"]["length"] if c["trial"] != TODAY else today_length
                c["search_deals"] = search_deals_for(conf["search_deals"], length, today_length)
                base = f"confirm/{c['trial']}"
                c["dirs"] = {"heuristic": f"{base}/heuristic",
                             "skill": [[f"{base}/skill-{j}", list(s)] for j, s in enumerate(seatings)],
                             "search": f"{base}/search"}
            # the re-check (after the plays): a run resumed after it was recorded keeps it (the same
            # datasets give the same outcome), from the start, so a second interruption keeps it too
            kept = {_recheck_key(c): c["recheck"] for c in (old or {}).get("confirmed") or [] if c.get("recheck")}
            for c in confirmed:
                c["recheck"] = kept.get(_recheck_key(c))
            manifest["confirmed"] = confirmed
            job.write(manifest)
            for i, c in enumerate(confirmed):
                if progress:
                    echo(f"confirming [{i + 1}/{len(confirmed)}] {c['label']} on fresh deals (seed {confirm_seed}): "
                         f"{conf['heuristic_deals']:,} heuristic, {c['search_deals']:,} search")
                plays.mirror(c["rules"], strategies["heuristic"], confirm_seed, conf["heuristic_deals"], out / c["dirs"]["heuristic"])
                plays.skill(c["rules"], confirm_seed, conf["skill_deals"], out / f"confirm/{c['trial']}")
                plays.mirror(c["rules"], strategies["search"], confirm_seed, c["search_deals"], out / c["dirs"]["search"],
                             chunk_size=search_chunk(c["search_deals"]))
            if request.get("strong") is not None:
                self.confirm_strong(manifest, confirmed, plays)
            todo = [c for c in confirmed if c["recheck"] is None]
            for i, c in enumerate(todo):
                if progress:
                    echo(f"re-checking [{i + 1}/{len(todo)}] {c['label']}: its first {RECHECK_GAMES} heuristic games "
                         f"replayed through the reference engine and tourney check")
                c["recheck"] = recheck(out / c["dirs"]["heuristic"], root=out)
                job.write(manifest)  # a run killed here keeps the re-checks done
                if progress and c["recheck"]["failure"]:
                    echo(f"  its games do not replay through the reference engine: {c['recheck']['failure']}")
        finally:
            if bar is not None:
                bar.close()
            self.close()  # the workers are not needed for the report
        return "complete"

    def table_apprentice(self, c: dict) -> dict:
        """The apprentice table ``c`` is played by at the strong level: the weights shipped for the
        table when it is the shipped one, else its own training run (``confirm/<k>/apprentice``,
        from the shipped weights of the player count; resumed when a run was cut short)."""
        from tourney_sim.strategies import StrategyError
        from .train import TrainRequest, train
        plan, game, players = self.request["strong"], self.game, self.players
        config = GameConfig.build(game, players, c["rules"])
        if c["trial"] == TODAY:
            try:
                (shipped,) = resolve(game, [plan["strategy"]], config=config)
                return {"strategy": shipped.setting, "trained": None}
            except StrategyError:
                pass  # a starting table without shipped weights: trained like a design's
        where = self.dir.path / "confirm" / str(c["trial"]) / "apprentice"
        t = plan["train"]
        if self.progress:
            self.echo(f"strong level: training the apprentice of {c['label']} ({t['rounds']} round(s) of "
                      f"{t['positions']:,} search labels, from {'the shipped weights' if t['start'] else 'its heuristic'})")
        done = train(config, where, TrainRequest(players=players, rounds=t["rounds"], positions=t["positions"],
                                                 eval_deals=t["eval_deals"], start=t["start"],
                                                 seed=self.confirm_seed),
                     workers=self.workers, scheduler=self.scheduler, progress=False,
                     resume=(where / "_train.json").exists())
        if done.interrupted:
            raise KeyboardInterrupt
        best = done.manifest.get("best") or {}
        (mine,) = resolve(game, [f"{plan['strategy']}@{where}"], config=config)
        return {"strategy": mine.setting, "trained": str(where.relative_to(self.dir.path)),
                "best_round": best.get("round"), "win_rate": best.get("win_rate"),
                "against": done.manifest.get("against")}

    def confirm_strong(self, manifest: dict, confirmed: list[dict], plays: Plays) -> None:
        """The strong level of the confirmation (:func:`strong_plan`): each table's apprentice,
        then everyone it on fresh deals, look by look, until each design's balance gain against
        today's game (paired) is measured within the margin, or the cap."""
        from .stats.designs import gain_between, strong_level as joint_level, within_margin, _pp
        plan, out, check = self.request["strong"], self.dir.path, self.request.get("strong_check")
        self.close()  # a training run opens its own workers
        for c in confirmed:
            c["apprentice"] = self.table_apprentice(c)
        self.backend = plays.backend = open_backend(self.workers, self.scheduler)
        have = {}
        for c in confirmed:
            c["dirs"]["strong"] = []
            have[c["trial"]] = 0
            if c["trial"] == TODAY and check is not None and c["apprentice"]["trained"] is None:
                c["dirs"]["strong"].append(check["dir"])  # the check's deals are today's first
                have[TODAY] = check["deals"]
            c["strong_looks"] = []
        today, designs = confirmed[0], confirmed[1:]
        level = joint_level(len(designs), len(plan["looks"]))
        open_ = list(designs)

        def reach(c: dict, n: int) -> None:
            first = have[c["trial"]]
            if first < n:
                rel = f"confirm/{c['trial']}/strong-{first}"
                plays.mirror(c["rules"], c["apprentice"]["strategy"], self.confirm_seed, n - first, out / rel,
                             first_game=first)
                c["dirs"]["strong"].append(rel)
                have[c["trial"]] = n

        for j, n in enumerate(plan["looks"]):
            if not open_:
                break
            if self.progress:
                self.echo(f"strong level, look {j + 1}/{len(plan['looks'])}: {n:,} fresh deals, everyone each "
                          f"table's apprentice ({len(open_)} design(s) still open)")
            reach(today, n)
            still = []
            for c in open_:
                reach(c, n)
                g = gain_between(self.game, self.players, [out / d for d in today["dirs"]["strong"]],
                                 [out / d for d in c["dirs"]["strong"]], level)
                c["strong_looks"].append(g)
                settled = within_margin(g, plan["margin"])
                if self.progress:
                    self.echo(f"  {c['label']}: balance gained {_pp(g['gain'])} pp [{_pp(g['low'])}, "
                              f"{_pp(g['high'])}] on {g['deals']:,} deals"
                              + (f": within ±{100 * plan['margin']:g} pp, stops" if settled else ""))
                if not settled:
                    still.append(c)
            open_ = still
            self.dir.write(manifest)  # a run killed here keeps its looks (and replays them the same)

    def report(self, manifest: dict) -> str:
        if self.progress:
            self.echo("analysing the confirmation and writing the report ...")
        summary = super().report(manifest)
        manifest["summary"] = summary  # what `tourney summary DIR` prints
        return summary

    def close(self) -> None:
        if self.backend is not None:
            self.backend.close()
            self.backend = None


def run_design(game: str, out: Path, request: DesignRequest | None = None, *, workers: int | None = None,
               scheduler: str | None = None,
               resume: bool = False, overwrite: bool = False, progress: bool = True, command: str | None = None,
               echo: Callable[[str], None] | None = None) -> Outcome:
    """Search, confirm and report (see the module docstring): the design run ``request`` asks
    (default: every option's default). Every request is checked before anything is written
    (DesignError, RuleError, StrategyError: one line)."""
    job = DesignJob(game, request or DesignRequest(),
                    workers=workers, scheduler=scheduler, progress=progress, echo=echo)
    return run_job(job, out, resume=resume, overwrite=overwrite, command=command)


def _history(study, optuna) -> list[dict]:
    """Every finished trial in the order played, as the manifest records it."""
    finished = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    out = []
    for t in study.trials:
        if t.state not in finished or "k" not in t.user_attrs:
            continue
        a = t.user_attrs
        out.append({"trial": a["k"], "changes": a["changes"], "label": a["label"], "rules": a["rules"],
                    "disruption": a["disruption"], "state": a.get("state", "complete"), "why": a.get("why"),
                    "measures": a.get("measures"), "dirs": a["dirs"],
                    "objectives": list(t.values) if t.values else None,
                    "feasible": all(c <= 0 for c in a.get("constraint") or []),
                    "repeat_of": a.get("repeat_of")})
    return out


def _trial_line(h: dict, history: list[dict], objectives: list[str]) -> str:
    """One line per trial: what it changed, what it measured, and the fairest feasible so far."""
    again = f" (the same design as trial {h['repeat_of']}: not played again)" if h.get("repeat_of") is not None else ""
    if h["state"] != "complete":
        return f"trial {h['trial']}: {h['label']}: {h['state']} ({h['why']}){again}"
    m = h["measures"]
    parts = [f"balance {m['balance']:.3f}", f"skill {m['skill']:+.3f}", f"length {m['length']:.1f}"]
    done = [x for x in history if x["state"] == "complete" and x["feasible"]]
    best = max(done, key=lambda x: (x["measures"]["balance"], -x["disruption"])) if done else h
    return (f"trial {h['trial']}: {h['label']}: {', '.join(parts)}, disruption {h['disruption']:.2f}"
            + ("" if h["feasible"] else " (misses a target)") + again
            + f" | fairest so far: {best['label']} ({best['measures']['balance']:.3f})")


# ----------------------------------------------------------------------------- a design beside today's game
def design_folder(folder: Path) -> tuple[dict, list[str]]:
    """A confirmed design's folder (``designs/<rank>-<name>/`` of a design run): the run's
    manifest and the design's rules (``rules.txt``, its components file made absolute). One-line
    DesignError when ``folder`` is not one."""
    import json

    folder = Path(folder)
    run = folder.resolve().parent.parent
    if not (folder / "rules.txt").is_file() or not (run / DESIGN_FILE).is_file():
        raise DesignError(f"{folder} is not a design's folder: give one of a design run's designs/<rank>-<name>/ "
                          f"folders (it holds rules.txt, and the run's {DESIGN_FILE} is two folders up)")
    manifest = json.loads((run / DESIGN_FILE).read_text())
    rules = []
    for line in (folder / "rules.txt").read_text().splitlines():
        key, _, value = line.strip().partition("=")
        if not key:
            continue
        if key == COMPONENTS_OPTION and not Path(value).is_absolute():
            value = str(run / value)
        rules.append(f"{key}={value}")
    return manifest, rules


def play_design(folder: Path, out: Path, games: int = 20_000, seed: int = 0, strategy: str | None = None,
                workers: int | None = None, progress: bool = True, overwrite: bool = False) -> dict:
    """Play a confirmed design (its ``designs/`` folder) beside today's game (the run's starting
    game) on the same ``games`` deals of ``seed``, everyone ``strategy`` (default: the run's strong
    heuristic), into ``out/today`` and ``out/design``; returns both balance figures, the balance
    gained (paired) and the at-fault seat's paired contrast (:func:`tourney_sim.simulate.stats.designs.beside`)."""
    from .stats.designs import beside
    if not (2 <= games <= MAX_DEALS):  # a paired interval needs two deals; the runs stay bounded
        raise DesignError(f"--games must be from 2 to {MAX_DEALS:,}, got {games:,}")
    manifest, rules = design_folder(folder)
    game, players = manifest["game"], int(manifest["players"])
    strategy = strategy or manifest["strategies"]["heuristic"]
    baseline = list(manifest["baseline"]["rules"])
    tables = {"today": baseline, "design": rules}
    matchups = {name: make_matchup(game, players, [strategy], rules=r, seed=seed, rotate=True)  # every error first
                for name, r in tables.items()}
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DesignError(f"--out {out} is a file: give a directory for the games")
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise DesignError(f"{out} exists and is not empty: give another --out, or --overwrite")
    for name, m in matchups.items():
        report = run_games(m, games, out / name, workers=workers, progress=progress, overwrite=True, command=None)
        if report.interrupted:
            raise KeyboardInterrupt
    return {"game": game, "players": players, "strategy": strategy, "seed": seed, "name": Path(folder).name,
            "rules": {"today": baseline, "design": rules},
            **beside(game, players, [out / "today"], [out / "design"])}
