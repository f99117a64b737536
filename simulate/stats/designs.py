"""`tourney design`'s statistics (issue 32): what one candidate design measures (:func:`design_measure`),
whether a candidate is already hopeless (:func:`hopeless`), and, once every play is done, the
confirmation on fresh deals and the recommendation (:func:`confirm`); the report
(:mod:`tourney_sim.reports.design`) lays them out.

:mod:`tourney_sim.simulate.design` plays the candidates and asks :func:`design_measure` (a
candidate's measures) and :func:`hopeless` (the pruning rule); the contract is ``INTERFACE32``:
the manifest ``_design.json`` and the directory layout under OUT.

Every figure is a mean of per-deal values (a deal: seed and game index; the unit of every interval,
as in the study), and every comparison with today's game is paired on the same deals; the
measures are the registry's (:mod:`tourney_sim.simulate.stats.measures`):

- *balance*: the study's balance figure, 1 minus the largest gap between unit win rates (teams in
  team games, else seats), everyone playing the same strategy, with
  :func:`tourney_sim.simulate.stats.intervals.balance_interval`; its change against today's game with
  :func:`tourney_sim.simulate.stats.analysis.balance_gain` (the paired
  :func:`~tourney_sim.simulate.stats.intervals.balance_gain_interval`);
- *skill*: per deal, the strong heuristic's win (mean over its seats of the table) minus the mean
  win of the weaker strategy's seats, averaged over the seatings (each side of the table in turn):
  in [-1, 1], 0 a coin flip; the score interval of :func:`~tourney_sim.simulate.stats.intervals.paired_mean`;
- *length* (decisions per game), *draws* (a shared first place), *decisiveness* (the leader at two
  thirds won; where the game records it).

The strong level (issue 42): every table played by its own apprentice (each design's retrained on
its table) at volume, look by look, a design stopping once its balance gain's interval is at most
±:data:`STRONG_MARGIN` (each interval at 1 - 0.05/(K L), L the looks planned: Bonferroni over the
designs and the looks, so the interval a design stopped at holds whatever look that was). The
search level, on fewer deals, is its check: a design whose two intervals do not overlap
*disagrees*, and its verdict then rests on the search (:attr:`Confirmed.rests_on`).

The recommendation (:func:`recommend`): a confirmed design is recommended only when its balance gain
holds at the heuristic level and at the level it rests on, on the fresh deals (each interval above
0; the heuristic's and the search's at 1 - 0.05/K, K the designs confirmed: Bonferroni over that
primary family) and it meets the targets; among those the smallest disruption wins, then the
fairest at that level. None holds: "no fix found in this search space", with each design's
interval there (at the strong level: a gain shown within ±3 pp not to be there).

A design whose games do not replay is never recommended: simulate re-checks the first games of
each confirmed design's heuristic confirmation (and today's game's) through the game's readable
reference engine and ``tourney check`` and records the outcome as the entry's ``recheck``
(``{"games", "passed", "failure"}``); a ``failure`` means the kernel and the rules disagree on
that table, and the verdict says so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from tourney_sim.simulate.results import DatasetError

from . import analysis, findings, intervals
from .load import Config, discover, load_sources
from .measures import DESIGN_COLUMNS, MEASURES, names, skill_per_deal

ALPHA = 0.05
#: the strong level's confirmation measures each design's balance gain within this either side
#: (issue 42: a fix shown, or shown within ±3 pp not to help), then stops
STRONG_MARGIN = 0.03
#: :func:`hopeless`: a candidate is pruned when it is less fair than today's game at this level
HOPELESS_LEVEL = 0.99
#: the only game columns a candidate's measures read besides the base columns
COLUMNS = DESIGN_COLUMNS
TOLERANCE = 1e-9


# ----------------------------------------------------------------------------- one candidate
@dataclass
class Deals:
    """One candidate's per-deal values: everyone the same strategy (``cfg``: the games of one or
    more datasets of one seed, read as one set of deals) and, when the skill tables were played,
    the per-deal skill on their deals (``skill_deals``: their seeds and game indices)."""

    cfg: Config
    unit_names: list[str]
    wins: np.ndarray  # [D, U] wins of each unit summed over the deal's games
    games: np.ndarray  # [D] games per deal
    length: np.ndarray  # [D] mean decisions per game
    draws: np.ndarray  # [D] share of games with a shared first place
    #: ([D] games whose leader at two thirds won, [D] games with a leader at two thirds), None when
    #: the game does not record it: the decisiveness figure is their sums' ratio
    leader_counts: tuple | None
    skill: np.ndarray | None = None  # [S] per skill deal
    skill_deals: SimpleNamespace | None = None  # deal_seed, deal_game of those

    @property
    def rates(self) -> np.ndarray:
        return self.wins / self.games[:, None]


def _load(paths) -> Config:
    """The games of ``paths`` as one configuration, reading only the columns the measures need
    (each source's manifest is narrowed to :data:`COLUMNS` before loading)."""
    sources = [replace(s, manifest={**s.manifest, "columns": {c: d for c, d in s.manifest["columns"].items()
                                                               if c in COLUMNS}})
               for s in discover([Path(p) for p in paths])]
    configs = load_sources(sources)
    if len(configs) > 1:
        raise DatasetError(f"{', '.join(map(str, paths))} are not the games of one candidate "
                           f"(different players or rules)")
    return configs[0]


def _skill_per_deal(skill) -> tuple[np.ndarray | None, SimpleNamespace | None]:
    """Per deal: the strong strategy's win minus the weaker's (each averaged over its seats),
    averaged over the seatings, on the deals every seating played."""
    values, deals = [], None
    for path, seats in skill:
        cfg = _load([path])
        v = skill_per_deal(cfg, seats)
        if deals is None:
            values, deals = [v], SimpleNamespace(deal_seed=cfg.deal_seed, deal_game=cfg.deal_game)
            continue
        ia, ib = analysis.common_deals(deals, cfg)
        values = [x[ia] for x in values] + [v[ib]]
        deals = SimpleNamespace(deal_seed=deals.deal_seed[ia], deal_game=deals.deal_game[ia])
    if deals is None:
        return None, None
    return np.mean(values, axis=0), deals


def read_deals(game: str, players: int, mirror, skill=()) -> Deals:
    """One candidate's per-deal values from its datasets (see :func:`design_measure`)."""
    cfg = _load(mirror)
    if cfg.game != game or cfg.players != players:
        raise DatasetError(f"{mirror[0]} holds {cfg.players}-player {cfg.game}, not {players}-player {game}")
    d = deals_of(cfg)
    d.skill, d.skill_deals = _skill_per_deal(skill)
    return d


def deals_of(cfg: Config) -> Deals:
    """The per-deal values of one loaded configuration (everyone the same strategy)."""
    unit_names, w = analysis.units(cfg)
    led = analysis.leader_won(cfg)
    counts = None if led is None else (analysis.per_deal_sum(cfg, led[0].astype(float)),
                                       analysis.per_deal_sum(cfg, led[1].astype(float)))
    return Deals(cfg, unit_names, analysis.per_deal_sum(cfg, w), analysis.tables_per_deal(cfg),
                 MEASURES["length"].per_deal(cfg), MEASURES["draws"].per_deal(cfg), counts)


def summary(d: Deals) -> dict:
    """The measures of one candidate (the keys of :func:`design_measure`), JSON-safe."""
    p = d.wins.sum(axis=0) / d.games.sum()
    balance = float(analysis.balance_of(p, 1.0))
    low, high = analysis._balance_interval(d.rates, balance)
    out = {"deals": float(d.cfg.deals), "balance": balance, "balance_low": low, "balance_high": high,
           "units": {n: float(x) for n, x in zip(d.unit_names, p)},
           "skill": None, "skill_low": None, "skill_high": None}
    # length, decisiveness, draws: each registered design measure's figure of the games (None:
    # the game does not record it)
    out.update({n: MEASURES[n].figure(d.cfg) for n in names("design") if MEASURES[n].figure is not None})
    if d.skill is not None and len(d.skill):
        t = intervals.paired_mean(d.skill, bounds=MEASURES["skill"].range)
        out.update(skill=t.estimate, skill_low=t.low, skill_high=t.high)
    return _safe(out)


def design_measure(game: str, players: int, mirror: list[Path], skill: list[tuple[Path, tuple[int, ...]]]) -> dict:
    """Point estimates with intervals from one candidate's datasets: ``mirror``, one or more
    datasets of everyone the strong heuristic (disjoint games of one seed: one set of deals);
    ``skill``, (dataset, the seats the strong heuristic holds) of each seating. Keys: deals,
    balance (+ _low, _high: 95%), units ({unit: win rate}), skill (+ _low, _high; None without
    skill tables), length (mean decisions per game), decisiveness (None when the game does not
    record it), draws. What :func:`tourney_sim.simulate.design.run_design` asks of a candidate
    (``measure``)."""
    return summary(read_deals(game, players, mirror, skill))


def fair_today(game: str, players: int, mirror: list[Path], strategy: str) -> dict:
    """Today's game at the strong level, before any search (issue 42: "stop when there is nothing
    to fix"): every seat, team and first-player question of everyone ``strategy`` on ``mirror``
    (the study's seat questions, :func:`findings.seat_questions`, one Holm over them). ``fair``
    when every one is shown within the margin (or negligible): then there is nothing to fix."""
    cfg = _load(mirror)
    if cfg.game != game or cfg.players != players:
        raise DatasetError(f"{mirror[0]} holds {cfg.players}-player {cfg.game}, not {players}-player {game}")
    qs = findings.settle(findings.seat_questions(cfg, f"{players} players, everyone {strategy}", "apprentice"))
    fair = bool(qs) and all(q.outcome in ("equivalent", "negligible", "unchanged") for q in qs)
    unfair = [q for q in qs if q.outcome == "finding"]
    return _safe({"strategy": strategy, "deals": int(cfg.deals), "fair": fair,
            "state": "fair" if fair else "unfair" if unfair else "not settled",
            "balance": float(summary_balance(cfg)),
            "questions": [{"subject": q.subject, "measure": q.measure, "estimate": q.estimate, "low": q.low,
                           "high": q.high, "p_holm": q.p_holm, "bound": q.bound, "outcome": q.outcome,
                           "verdict": q.verdict(),
                           "sentence": q.sentence()} for q in qs]})


def summary_balance(cfg: Config) -> float:
    """The balance figure of one level (1 minus the largest gap between unit win rates)."""
    return analysis.seat_analysis(cfg)["balance"]


def paired_gain(before: Deals, after: Deals, level: float) -> dict:
    """The balance gained from ``before`` to ``after`` on the deals both played (positive:
    fairer) and its paired interval at ``level``: {deals, level, gain, low, high}."""
    ia, ib = analysis.common_deals(before.cfg, after.cfg)
    out = {"deals": len(ia), "level": level, "gain": math.nan, "low": math.nan, "high": math.nan}
    if len(ia) >= 2:
        gain, low, high = analysis.balance_gain(before.wins[ia], before.games[ia], after.wins[ib], after.games[ib],
                                                level)
        out.update(gain=gain, low=low, high=high)
    return out


def at_fault_change(before: Deals, after: Deals, level: float) -> dict:
    """The seat (team) at fault in ``before`` (today's game): the unit whose win rate is farthest
    from the average unit's on these deals (of two, the one ahead); its edge (its rate minus the average unit's) before
    and after, and the paired change on the deals both played, with its interval at ``level``:
    {unit, deals, level, before, after, change, low, high}. Much tighter than the balance figure's
    gain (one unit's edge, not the largest gap over every pair), and what a designer asked to fix."""
    ia, ib = analysis.common_deals(before.cfg, after.cfg)
    out = {"unit": None, "deals": len(ia), "level": level, "before": math.nan, "after": math.nan,
           "change": math.nan, "low": math.nan, "high": math.nan}
    if len(ia) < 2 or len(before.unit_names) < 2:
        return out
    edge = lambda d, rows: d.rates[rows] - d.rates[rows].mean(axis=1, keepdims=True)  # noqa: E731
    e0, e1 = edge(before, ia), edge(after, ib)
    mean = e0.mean(axis=0)
    u = max(range(len(mean)), key=lambda k: (round(abs(mean[k]), 12), mean[k]))  # two units: the one ahead
    t = intervals.paired_mean(e1[:, u] - e0[:, u], level=level, bounds=(-2.0, 2.0))
    out.update(unit=before.unit_names[u], before=float(e0[:, u].mean()), after=float(e1[:, u].mean()),
               change=t.estimate, low=t.low, high=t.high)
    return out


def beside(game: str, players: int, today_mirror: list[Path], design_mirror: list[Path], level: float = 0.95) -> dict:
    """A design beside today's game on the same deals: each one's measures (:func:`summary`), the
    balance gained and the at-fault seat's change, both paired at ``level``."""
    today, design = read_deals(game, players, today_mirror), read_deals(game, players, design_mirror)
    return _safe({"today": summary(today), "design": summary(design), "gain": paired_gain(today, design, level),
                  "at_fault": at_fault_change(today, design, level)})


def within_margin(gain: dict, margin: float = STRONG_MARGIN) -> bool:
    """Whether a balance gain's interval is at most ``margin`` either side (the strong level's
    stopping rule, and what lets a verdict say a design cannot gain more than its upper end)."""
    return gain.get("low") is not None and gain.get("high") is not None and \
        (gain["high"] - gain["low"]) / 2 <= margin + TOLERANCE


def strong_level(designs: int, looks: int) -> float:
    """The level of every balance-gain interval of the strong confirmation: Bonferroni over the
    designs confirmed and the looks at their deals (so the interval a design stopped at, and the
    last one, hold together whatever look it stopped at)."""
    return 1 - ALPHA / (max(1, designs) * max(1, looks))


def gain_between(game: str, players: int, today_mirror: list[Path], design_mirror: list[Path], level: float) -> dict:
    """The balance gained from today's game to a design on the deals both played, paired, at
    ``level`` (:func:`paired_gain`), JSON-safe."""
    return _safe(paired_gain(read_deals(game, players, today_mirror), read_deals(game, players, design_mirror), level))


def hopeless(game: str, players: int, candidate_mirror: list[Path], today_mirror: list[Path]) -> str | None:
    """A one-line reason when the candidate is already significantly less fair than today's game
    on the same deals (the paired balance gain's 99% interval entirely below 0), else None. The
    pruning rule :func:`tourney_sim.simulate.design.run_design` asks (``hopeless``)."""
    today = read_deals(game, players, today_mirror)
    candidate = read_deals(game, players, candidate_mirror)
    g = paired_gain(today, candidate, HOPELESS_LEVEL)
    if not g["high"] < 0:
        return None
    return (f"less fair than today's game on the same {g['deals']:,} deals: balance gained "
            f"{_pp(g['gain'])} pp, {_level(HOPELESS_LEVEL)} [{_pp(g['low'])}, {_pp(g['high'])}]")


# ----------------------------------------------------------------------------- confirmation
@dataclass
class Confirmed:
    """One confirmed design (or today's game) on the fresh deals, and its statistics."""

    entry: dict  # the manifest's entry
    heuristic: Deals
    search: Deals
    measures: dict = field(default_factory=dict)  # heuristic level (with skill)
    search_measures: dict = field(default_factory=dict)
    gain_heuristic: dict = field(default_factory=dict)  # against today's game, at the family's level
    gain_search: dict = field(default_factory=dict)
    #: the strong level (issue 42): everyone the table's own apprentice, at volume (None: not played)
    strong: Deals | None = None
    strong_measures: dict = field(default_factory=dict)
    gain_strong: dict = field(default_factory=dict)
    #: the seat (team) at fault in today's game, its edge before and after, paired: by level
    at_fault: dict = field(default_factory=dict)
    changes: dict = field(default_factory=dict)  # skill, length, draws, decisiveness against today
    #: (deals both the strong and the heuristic level played, deals with the same result at both):
    #: the table's apprentice plays its heuristic's games when nearly all are (findings.heuristics_games)
    same_as_heuristic: tuple[int, int] | None = None
    targets: list = field(default_factory=list)
    verdict: str = ""
    recommended: bool = False
    rank: int = 0

    @property
    def label(self) -> str:
        return self.entry["label"]

    @property
    def disruption(self) -> float:
        return float(self.entry.get("disruption") or 0.0)

    @property
    def compensation(self) -> bool:
        """A seat compensation (the game's levers only), confirmed beside the designs: reported
        apart, never the recommendation (it evens the seats without changing the game)."""
        return bool(self.entry.get("compensation"))

    @property
    def disagrees(self) -> bool:
        """The strong level and its check disagree on the balance gained: the apprentice's
        interval and the search's (same fresh deals) do not overlap."""
        a, b = self.gain_strong, self.gain_search
        if a.get("low") is None or b.get("low") is None:
            return False
        return a["high"] < b["low"] or b["high"] < a["low"]

    @property
    def rests_on(self) -> str:
        """The level the verdict rests on: the apprentice at volume (the strong level), unless it
        was not played or the search's check disagrees with it; then the search."""
        return "apprentice" if self.gain_strong.get("low") is not None and not self.disagrees else "search"

    @property
    def gain_decisive(self) -> dict:
        """The balance gained at the level the verdict rests on."""
        return self.gain_strong if self.rests_on == "apprentice" else self.gain_search

    @property
    def decisive_measures(self) -> dict:
        return self.strong_measures if self.rests_on == "apprentice" else self.search_measures

    @property
    def holds(self) -> bool:
        """The gain holds at the heuristic level and at the level the verdict rests on (both
        intervals above 0)."""
        return self.gain_heuristic.get("low", math.nan) > 0 and (self.gain_decisive.get("low") or math.nan) > 0

    @property
    def meets_targets(self) -> bool:
        return all(t["met"] for t in self.targets)

    @property
    def recheck(self) -> dict | None:
        """The re-check of its games through the reference engine (None: not re-checked)."""
        return self.entry.get("recheck")

    @property
    def replays(self) -> bool:
        """Its re-checked games replayed through the reference engine and passed ``tourney check``
        (not re-checked: nothing held against it)."""
        return not (self.recheck or {}).get("failure")

    @property
    def eligible(self) -> bool:
        return self.holds and self.meets_targets and self.replays


def _read_confirmed(out: Path, game: str, players: int, entry: dict) -> Confirmed:
    dirs = entry["dirs"]
    heuristic = read_deals(game, players, [out / dirs["heuristic"]],
                           [(out / p, tuple(seats)) for p, seats in dirs.get("skill", [])])
    search = read_deals(game, players, [out / dirs["search"]])
    strong = read_deals(game, players, [out / d for d in dirs["strong"]]) if dirs.get("strong") else None
    return Confirmed(entry, heuristic, search, summary(heuristic), summary(search), strong=strong,
                     strong_measures=summary(strong) if strong is not None else {})


def _paired_change(a: np.ndarray, b: np.ndarray, bounds) -> dict:
    """b minus a, per deal (same deals), with its 95% interval (score interval when bounded)."""
    if len(a) < 2:
        return {"change": None, "low": None, "high": None, "deals": len(a)}
    t = intervals.paired_mean(b - a, bounds=bounds)
    return {"change": t.estimate, "low": t.low, "high": t.high, "deals": t.n}


def _changes(today: Confirmed, d: Confirmed) -> dict:
    """Skill, length, draws and decisiveness of ``d`` against today's game, paired."""
    out = {}
    a, b = today.heuristic, d.heuristic
    if a.skill is not None and b.skill is not None:
        ia, ib = analysis.common_deals(a.skill_deals, b.skill_deals)
        out["skill"] = _paired_change(a.skill[ia], b.skill[ib], MEASURES["skill"].change_bounds())
    ia, ib = analysis.common_deals(a.cfg, b.cfg)
    length = _paired_change(a.length[ia], b.length[ib], MEASURES["length"].change_bounds())
    before = float(a.length[ia].mean()) if len(ia) else math.nan
    length["ratio"] = float(b.length[ib].mean()) / before if before else None
    out["length"] = length
    out["draws"] = _paired_change(a.draws[ia], b.draws[ib], MEASURES["draws"].change_bounds())
    if a.leader_counts is not None and b.leader_counts is not None:
        # the difference of the two figures (games whose leader won over games with a leader), paired
        # by deal: which games have a leader differs between the tables (a compensation adds leads)
        t = intervals.paired_ratio_difference(a.leader_counts[0][ia], a.leader_counts[1][ia],
                                              b.leader_counts[0][ib], b.leader_counts[1][ib])
        out["decisiveness"] = {"change": t.estimate, "low": t.low, "high": t.high, "deals": t.n}
    return _safe(out)


#: a target's comparison, by its operator
OPS = {">=": lambda x, v: x >= v - TOLERANCE, "<=": lambda x, v: x <= v + TOLERANCE,
       ">": lambda x, v: x > v, "<": lambda x, v: x < v}


def check_target(measure_name: str, target: dict, value, today) -> dict:
    """One target on one design's estimate: a relative target compares with today's value (``>=
    75%``: at least 0.75 times today's; ``within 10%``: at most 10% away from today's), an absolute
    one with its number (``within 0.1``, given as ``=10pp``: at most 10 points away from today's)."""
    op, v, relative = target["op"], float(target["value"]), bool(target.get("relative"))
    text = f"{measure_name} {_target_text(target)}"
    if value is None or ((relative or op == "within") and today is None):
        return {"measure": measure_name, "target": text, "value": value, "today": today, "met": False,
                "why": f"{measure_name} cannot be measured in this game"}
    if op == "within":
        away = abs(value / today - 1) if relative and today else abs(value - today)
        met = away <= v + TOLERANCE
    else:
        met = OPS[op](value, v * today if relative else v)
    return {"measure": measure_name, "target": text, "value": value, "today": today, "met": bool(met),
            "why": None if met else (f"{_said(measure_name)} {_value_text(measure_name, value, today, points=not relative and op == 'within')}: "
                                     f"misses {text}")}


def _said(name: str) -> str:
    """A measure as a sentence says it before its value ("the leader at two thirds wins")."""
    m = MEASURES.get(name)
    return (m.said or name) if m is not None else name


def _target_text(target: dict) -> str:
    v, relative = float(target["value"]), bool(target.get("relative"))
    amount = f"{100 * v:g}% of today's" if relative else f"{v:g}"
    if target["op"] == "within":
        return f"within ±{100 * v:g}% of today's" if relative else f"within ±{100 * v:g} pp of today's"
    return f"{target['op']} {amount}"


def _value_text(name: str, value, today, points: bool = False) -> str:
    if points:  # a target in points: how far from today's, in points
        return f"{_fmt(name, value)} ({100 * (value - today):+.1f} pp from today's {_fmt(name, today)})"
    rel = f" ({100 * value / today:.0f}% of today's {_fmt(name, today)})" if today else ""
    return f"{_fmt(name, value)}{rel}"


def _fmt(name: str, x) -> str:
    m = MEASURES.get(name)
    if m is not None:
        return m.text(x)
    return "n/a" if x is None else f"{x:.3f}"


def _targets(manifest: dict, today: Confirmed, d: Confirmed) -> list[dict]:
    """The manifest's targets on ``d``'s estimates: balance at the level the verdict rests on,
    the rest at the heuristic level (where skill is measured)."""
    out = []
    for name, target in (manifest.get("targets") or {}).items():
        if name == "balance":
            strong = d.rests_on == "apprentice" and today.strong_measures
            mine, theirs = ((d.strong_measures, today.strong_measures) if strong
                            else (d.search_measures, today.search_measures))
        else:
            mine, theirs = d.measures, today.measures
        out.append(check_target(name, target, mine.get(name), theirs.get(name)))
    return out


def recommend(designs: list[Confirmed]) -> list[Confirmed]:
    """The designs in the order the report ranks them, each with its rank and verdict: those
    recommendable first (the gain holds at both levels, the targets met), smallest disruption,
    then fairest at the level it rests on; the first of them is the recommendation. A seat
    compensation comes last, with a verdict of its own (never the recommendation)."""
    def fairness(d):
        return -(d.decisive_measures.get("balance") or 0.0)

    levers = [d for d in designs if d.compensation]
    designs = [d for d in designs if not d.compensation]
    eligible = sorted([d for d in designs if d.eligible], key=lambda d: (d.disruption, fairness(d)))
    rest = sorted([d for d in designs if not d.eligible],
                  key=lambda d: (not d.replays, not d.holds, -_finite(d.gain_decisive.get("low")), d.disruption))
    for i, d in enumerate(eligible + rest, 1):
        d.rank = i
        d.recommended = i == 1 and d.eligible
        d.verdict = _verdict(d, eligible[0] if eligible else None)
    for i, d in enumerate(levers, len(eligible + rest) + 1):
        d.rank, d.recommended = i, False
        d.verdict = "seat compensation: " + ("evens the seats at both levels" if d.eligible else _verdict(d, None))
    return eligible + rest + levers


def play_words(d: Confirmed) -> str:
    """The level a design's verdict rests on, as a sentence ends: "under the apprentice's play"
    (the strong level at volume) or "under search play"."""
    return "under the apprentice's play" if d.rests_on == "apprentice" else "under search play"


def _verdict(d: Confirmed, best: Confirmed | None) -> str:
    gs, gh, where = d.gain_decisive, d.gain_heuristic, play_words(d)
    if d.recommended:
        return "recommended"
    if d.eligible:
        if d.disruption > best.disruption:
            return f"also fixes it, more disruptive ({d.disruption:.2f} v {best.disruption:.2f})"
        return f"also fixes it, as disruptive but less fair {where}"
    if not d.replays:
        return _replay_words(d)
    if d.holds:
        return "fairer at both levels, but " + "; ".join(t["why"] for t in d.targets if not t["met"])
    if (gs.get("high") or math.nan) < 0:
        return f"less fair {where}"
    if not (gs.get("low") or math.nan) > 0:
        if d.rests_on == "apprentice" and within_margin(gs):
            return (f"gain not shown {where}: at most {_pp(gs['high'])} pp, measured within ±{100 * STRONG_MARGIN:g} pp"
                    + (" (a gain at heuristic level only)" if gh.get("low", math.nan) > 0 else ""))
        return f"gain not shown {where}" + (" (shown at heuristic level only)" if gh.get("low", math.nan) > 0 else "")
    return f"gain not shown at heuristic level (only {where})"


def confirm(out: Path, manifest: dict) -> tuple[Confirmed | None, list[Confirmed]]:
    """Today's game and each confirmed design on the fresh deals, compared (paired), ranked."""
    game, players = manifest["game"], int(manifest["players"])
    entries = manifest.get("confirmed") or []
    if not entries:
        return None, []
    today = _read_confirmed(out, game, players, entries[0])
    designs = [_read_confirmed(out, game, players, e) for e in entries[1:]]
    for d in [today, *designs]:
        if d.strong is not None:
            d.same_as_heuristic = findings.same_results(d.strong.cfg, d.heuristic.cfg)
    level = 1 - ALPHA / max(1, len(designs))
    joint = strong_level(len(designs), len((manifest.get("strong") or {}).get("looks") or ()))
    for d in designs:
        d.gain_heuristic = _safe(paired_gain(today.heuristic, d.heuristic, level))
        d.gain_search = _safe(paired_gain(today.search, d.search, level))
        d.at_fault = {"heuristic": _safe(at_fault_change(today.heuristic, d.heuristic, level)),
                      "search": _safe(at_fault_change(today.search, d.search, level))}
        if d.strong is not None and today.strong is not None:
            d.gain_strong = _safe(paired_gain(today.strong, d.strong, joint))
            d.at_fault["apprentice"] = _safe(at_fault_change(today.strong, d.strong, joint))
        d.changes = _changes(today, d)
        d.targets = _targets(manifest, today, d)
    return today, recommend(designs)


def _replay_words(d: Confirmed) -> str:
    """The verdict of a design whose games do not replay, as a designer reads it."""
    return (f"its games do not replay through the reference engine ({d.recheck['failure']}); the kernel and the "
            f"rules disagree on this table — please report it")


def _pp(x, digits: int = 1) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:+.{digits}f}"


def _level(level: float) -> str:
    return f"{100 * level:.4g}%"


def _finite(x) -> float:
    return x if x is not None and math.isfinite(x) else -math.inf


def _safe(x):
    """JSON-safe: numpy numbers as Python ones, nan and inf as None."""
    if isinstance(x, dict):
        return {k: _safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_safe(v) for v in x]
    if isinstance(x, (np.floating, float)):
        return float(x) if math.isfinite(x) else None
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.bool_):
        return bool(x)
    return x
