"""A study's data and questions: its stages loaded (:class:`StudyData`), every question of the
study settled family by family (:func:`questions`, the statistics of
:mod:`tourney_sim.simulate.stats.findings`), the adaptive stage's decision (:func:`open_questions`)
and what findings.json holds (:func:`findings_json`). The report
(:mod:`tourney_sim.reports.study_report`) lays them out; see :mod:`tourney_sim.simulate.study` for
the stages.

:class:`StudyData` holds one loaded configuration per stage (the landscape's tournaments merged
into one per player count); the tests build it from synthetic configurations with planted
effects, the study from its directory. Every number is a function of the data alone (no clock,
seeded rating samples), so a resumed study writes the same findings.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from tourney_sim.simulate.results import read_tournament

from . import adaptive, analysis, findings
from .findings import AS_HEURISTIC, LEVEL_WORDS, LEVELS, Family, Question, heuristics_games
from .load import Config, _assign_deals, load
from .measures import length_per_deal



@dataclass
class StudyData:
    game: str
    title: str
    strategy: dict  # level -> the strategy everyone plays at that level
    levels: dict = field(default_factory=dict)  # (players, level) -> Config
    rules: dict = field(default_factory=dict)  # (players, level, "key=value") -> Config
    landscape: dict = field(default_factory=dict)  # players -> Config (every tournament merged)
    anytime_pairs: dict = field(default_factory=dict)  # players -> {frozenset({a, b}): its tournament's bets}
    streams: dict = field(default_factory=dict)  # players -> every search deal: the first pass and the adaptive stage
    components: dict = field(default_factory=dict)  # (players, level, "address=value") -> Config: paired checks
    #: (players, "address=value") -> a lever value's stage at the heuristic level: its directory (a
    #: study keeps 15 to 30 of them a player count, so :func:`compensation` reads each in turn and
    #: keeps its figures only) or a loaded Config (the tests' synthetic studies)
    compensation: dict = field(default_factory=dict)
    manifest: dict = field(default_factory=dict)
    out: Path | None = None

    @property
    def players(self) -> list[int]:
        return sorted({p for p, _ in self.levels} | set(self.landscape))


def context(data: StudyData, players: int, level: str) -> str:
    name = data.strategy.get(level, level)
    return f"{players} players, everyone {name}" + ("" if name == level else f" ({LEVEL_WORDS[level]})")


def load_study(out: Path, manifest: dict,
               sections=("levels", "rules", "landscape", "adaptive", "components", "compensation")) -> StudyData:
    """The study's stages (of ``sections``), loaded."""
    from tourney_sim.simulate.games import get_game
    game = manifest["game"]
    data = StudyData(game, get_game(game).title, dict(manifest["level_strategies"]), manifest=manifest, out=out)
    landscape_dirs: dict[int, list[Path]] = {}
    search_dirs: dict[int, list[Path]] = {}
    for st in manifest["stages"]:
        if st["section"] not in sections:
            continue
        where = Path(out) / st["dir"]
        p = int(st["players"])
        if st["section"] == "levels":
            data.levels[(p, st["level"])] = load([where])[0]
            if st["level"] == "search":
                search_dirs.setdefault(p, []).insert(0, where)
        elif st["section"] == "adaptive":
            search_dirs.setdefault(p, []).append(where)
        elif st["section"] == "rules":
            data.rules[(p, st["level"], st["option"])] = load([where])[0]
        elif st["section"] == "components":
            data.components[(p, st["level"], st["option"])] = load([where])[0]
        elif st["section"] == "compensation":
            data.compensation[(p, st["option"])] = where
        else:
            landscape_dirs.setdefault(p, []).append(where)
            if st["sequential"]:
                data.anytime_pairs.setdefault(p, {})[frozenset(st["strategies"])] = _stopping_bets(where, st)
    for p, dirs in landscape_dirs.items():
        configs = load(dirs)
        data.landscape[p] = configs[0]
    for p, dirs in search_dirs.items():
        if len(dirs) > 1:  # the first pass and the adaptive stage's batches: one stream of deals
            data.streams[p] = load(dirs)[0]
    return data


def _stopping_bets(where: Path, stage: dict) -> dict:
    """The bets a sequential landscape stage stopped with (``{"cap", "alpha"}``), as its
    tournament's manifest records them (``until_decided.bets``); a stage recorded before the bets
    were (or not yet stopped) gets what its rule used: the per-question level and the stage's
    deals."""
    record = read_tournament(where).get("until_decided") or {}
    bets = record.get("bets") or {}
    return {"cap": int(bets.get("cap") or record.get("cap") or stage["deals"]),
            "alpha": bets.get("alpha") or record.get("per_test_alpha")}


def questions(data: StudyData) -> Family:
    qs = _fixed_questions(data)
    if data.manifest.get("adaptive"):
        size = primary_size(data, qs)
        for p in data.players:
            qs += search_level(data, p, size)
    for p in data.players:
        qs += agreement(data, p)
    return Family(findings.settle(qs))


def agreement(data: StudyData, players: int) -> list[Question]:
    """The strong level's check at one player count (:func:`findings.agreement_questions`): the
    apprentice level against every search deal played (the first pass and the adaptive stage's),
    on the same deals. None without both levels."""
    apprentice = data.levels.get((players, "apprentice"))
    search = data.streams.get(players, data.levels.get((players, "search")))
    if apprentice is None or search is None:
        return []
    words = f"{players} players, everyone {data.strategy.get('apprentice')} v everyone {data.strategy.get('search')}"
    return findings.agreement_questions(apprentice, search, words + " on the same deals")


def same_as_heuristic(data: StudyData, players: int) -> tuple[int, int] | None:
    """(the deals both the apprentice and the heuristic level played at ``players``, those of them
    on which every seat question's value is the same at both); None when either level is missing."""
    a, h = data.levels.get((players, "apprentice")), data.levels.get((players, "heuristic"))
    if a is None or h is None:
        return None
    return findings.same_results(a, h)


def plays_as_heuristic(data: StudyData, players: int) -> bool:
    """Whether the apprentice played the heuristic's games at ``players``: the same result (every
    seat question's value) on at least :data:`AS_HEURISTIC` of the deals both levels played (its
    weights keep to its guide, the heuristic, all but a few moves in thousands). Its answers are
    then the heuristic level's, checked against the search; the report says so."""
    return heuristics_games(same_as_heuristic(data, players))


def strong_levels(data: StudyData, family: Family) -> dict[int, str]:
    """{players: the level its strong-play verdict rests on} (:func:`findings.strong_level`), for
    the player counts with either strong level."""
    out = {}
    for p in data.players:
        level = findings.strong_level(family.questions, p, [lv for lv in LEVELS if (p, lv) in data.levels])
        if level is not None:
            out[p] = level
    return out


def _read_twice(data: StudyData, level: str) -> bool:
    """A level whose seat questions the adaptive stage reads twice (first pass and stream)."""
    return level == "search" and bool(data.manifest.get("adaptive"))


def _fixed_questions(data: StudyData) -> list[Question]:
    """Every question but those the adaptive stage reads twice."""
    qs: list[Question] = []
    for (p, level), cfg in sorted(data.levels.items(), key=lambda kv: (kv[0][0], findings_level(kv[0][1]))):
        if not _read_twice(data, level):
            qs += findings.seat_questions(cfg, context(data, p, level), level)
    for (p, level, option), cfg in sorted(data.rules.items(), key=lambda kv: (kv[0][0], findings_level(kv[0][1]), kv[0][2])):
        qs += findings.rule_questions(data.levels[(p, level)], cfg, context(data, p, level), level, option)
    for p, cfg in sorted(data.landscape.items()):
        pairs = {frozenset(_label(cfg, n) for n in pair): bets for pair, bets in data.anytime_pairs.get(p, {}).items()}
        qs += findings.strategy_questions(cfg, f"{p} players", pairs)
    return qs


def primary_size(data: StudyData, fixed: list[Question] | None = None) -> int:
    """The primary family's questions, counted from the first pass as the report counts them
    (a question that turns out unchanged included): the adaptive stage stops at ALPHA / this."""
    fixed = _fixed_questions(data) if fixed is None else fixed
    read_twice = sum(len(findings.seat_values(cfg)) for (p, level), cfg in data.levels.items() if _read_twice(data, level))
    return sum(findings.family_of(q) == "primary" for q in fixed) + read_twice


def search_level(data: StudyData, players: int, size: int, first_pass_only: bool = False) -> list[Question]:
    """The primary search-level questions at one player count, read twice
    (:func:`tourney_sim.simulate.stats.adaptive.search_questions`) on every search deal played (or on
    the first pass's alone)."""
    first = data.levels.get((players, "search"))
    if first is None:
        return []
    stream = first if first_pass_only else data.streams.get(players, first)
    return adaptive.search_questions(data.manifest["adaptive"], players, context(data, players, "search"), stream,
                                     data.levels.get((players, "heuristic")), size)


class OpenQuestions:
    """The adaptive stage's decision (the ``adaptive_rule`` of
    :func:`tourney_sim.simulate.study.run_study`): after each look, the primary search-level
    questions of a player count still open that the rest of the stage's cap could still settle.
    The primary family's size is counted once, from the first pass (a resumed study counts it
    again, the same).

    **Futility.** After each look every open question's own estimate says how many more deals
    would settle it either way at 80% power (:func:`adaptive.deals_to_settle`: its spread so far,
    the sequence's critical values). When every open question at a player count needs more than
    what is left of the cap, more deals cannot settle any of them: the stage stops asking for
    deals there (:meth:`beyond_cap` says how many each would need, the report says so)."""

    def __init__(self):
        self.size: int | None = None
        self._looks: dict = {}  # (players, adaptive stages played at that count) -> its open questions

    def _open(self, out: Path, manifest: dict, players: int) -> list[Question]:
        if self.size is None:
            self.size = primary_size(load_study(out, manifest, ("levels", "rules")))  # the primary family's sections
        key = (players, tuple(st["id"] for st in manifest["stages"]
                              if st["section"] == "adaptive" and int(st["players"]) == players))
        if key not in self._looks:
            data = load_study(out, manifest, ("levels", "adaptive"))
            self._looks[key] = [q for q in search_level(data, players, self.size) if not adaptive.settled(q, self.size)]
        return self._looks[key]

    def beyond_cap(self, out: Path, manifest: dict, players: int) -> dict[str, float]:
        """{subject: more deals it needs} of the open questions when every one needs more than
        the cap has left ({} otherwise: the stage goes on, or nothing is open)."""
        qs = self._open(out, manifest, players)
        left = cap_left(manifest, players)
        need = {q.subject: adaptive.deals_to_settle(q, self.size) for q in qs}
        return need if need and all(n > left for n in need.values()) else {}

    def __call__(self, out: Path, manifest: dict, players: int) -> list[str]:
        if self.beyond_cap(out, manifest, players):
            return []
        return [q.subject for q in self._open(out, manifest, players)]


def cap_left(manifest: dict, players: int) -> int:
    """The adaptive stage's deals still allowed at ``players``: its cap less its batches so far."""
    played = sum(int(st["deals"]) for st in manifest["stages"]
                 if st["section"] == "adaptive" and int(st["players"]) == players)
    return int(manifest["adaptive"]["cap"]) - played


#: :func:`open_questions`: one :class:`OpenQuestions` per study (its primary family's size counted once)
_DECISIONS: dict = {}


def open_questions(out: Path, manifest: dict, players: int) -> list[str]:
    """The adaptive stage's decision after each look (what
    :func:`tourney_sim.simulate.study.run_study` asks, its ``adaptive_rule``): the primary
    search-level questions at ``players`` still open on the deals played so far, as
    :class:`OpenQuestions` decides, one per study: its directory and the stages the primary
    family's size is counted on (the levels and rule options, all played before the adaptive
    stage: the same stages give the same size, and a resumed study counts it again, the same)."""
    return _decision(out, manifest)(out, manifest, players)


def beyond_cap(out: Path, manifest: dict, players: int) -> dict[str, float]:
    """The open questions the adaptive stage stopped for at ``players`` because the rest of its cap
    cannot settle them, each with the deals it needs (:meth:`OpenQuestions.beyond_cap`; {} when it
    did not stop for that)."""
    return _decision(out, manifest).beyond_cap(out, manifest, players)


def _decision(out: Path, manifest: dict) -> OpenQuestions:
    """The study's one :class:`OpenQuestions`, by its directory and the stages its primary family's
    size is counted on (the levels and rule options, all played before the adaptive stage)."""
    key = (str(Path(out).resolve()), json.dumps(manifest.get("adaptive"), sort_keys=True),
           json.dumps([{k: st.get(k) for k in ("id", "command", "status")} for st in manifest["stages"]
                       if st["section"] in ("levels", "rules")]))
    return _DECISIONS.setdefault(key, OpenQuestions())


def _finite(n: float) -> int | None:
    """A count of deals for findings.json: None for "no number of deals would"."""
    return int(n) if np.isfinite(n) else None


def adaptive_counts(data: StudyData, family: Family) -> dict | None:
    """The primary search-level questions settled after the first pass and after the adaptive
    stage (each the report's outcome: the primary family's Holm, with the search-level questions
    read on the first pass's deals alone, then on every deal), the deals each player count's
    stage played and the questions still open."""
    design = data.manifest.get("adaptive")
    if not design:
        return None
    done = ("finding", "negligible", "equivalent", "unchanged")
    after = [q for q in family.questions if q.section == "seats" and q.level == "search"]
    others = [replace(q) for q in family.questions if q.family == "primary" and not (q.section == "seats" and q.level == "search")]
    size = primary_size(data)
    before = [q for p in data.players for q in search_level(data, p, size, first_pass_only=True)]
    findings.settle(others + before)
    played = {p: int((cfg.deal_game >= design["first_pass"]).sum()) for p, cfg in data.streams.items()}
    # a player count whose questions are still open with deals left in its cap: the stage stopped
    # there because the rest of the cap could not settle them (:meth:`OpenQuestions.beyond_cap`)
    stopped = {}
    for p in data.players:
        still = [q for q in after if q.players == p and q.outcome not in done]
        if still and played.get(p, 0) < design["cap"]:
            stopped[p] = {"after": played.get(p, 0), "left": design["cap"] - played.get(p, 0),
                          "needs": {q.subject: _finite(adaptive.deals_to_settle(q, size)) for q in still}}
    return {"questions": len(after), "settled_first_pass": sum(q.outcome in done for q in before), "stopped": stopped,
            "settled": sum(q.outcome in done for q in after), "deals_played": played,
            "open": [f"{q.players} players, {q.subject}" for q in after if q.outcome not in done],
            "cap": design["cap"], "batch": design["batch"], "first_pass": design["first_pass"],
            "first_pass_share": findings.FIRST_PASS_SHARE, "reference_per_deal": design["reference_per_deal"]}


def findings_level(level: str) -> int:
    return LEVELS.index(level) if level in LEVELS else 9


def _label(cfg: Config, setting: str) -> str:
    """The name a strategy setting has in the datasets (its label)."""
    if setting in cfg.names:
        return setting
    base = setting.split(":")[0].split("@")[0]
    matches = [n for n in cfg.names if n.split(":")[0] == base]
    return matches[0] if len(matches) == 1 else setting


def on_deals(cfg: Config, deals) -> Config:
    """The configuration's games on the given deals (indices into its deals) only."""
    keep = np.isin(cfg.deal, np.asarray(deals))
    rows = {k: getattr(cfg, k)[keep] for k in ("strat", "win", "rank", "score", "start", "decisions",
                                               "game_index", "seed", "source")}
    sub = replace(cfg, **rows, extra={k: v[keep] for k, v in cfg.extra.items()})
    _assign_deals(sub)
    return sub


def changed_any_game(base: Config, variant: Config, ia, ib) -> bool:
    """Whether the option changed any game on the deals both played: a winner, a score or a
    length (per deal and seat)."""
    for values in (lambda c: c.score, lambda c: c.win.astype(np.int64)):
        if not np.array_equal(analysis.per_deal_sum(base, values(base))[ia],
                              analysis.per_deal_sum(variant, values(variant))[ib]):
            return True
    return not np.array_equal(length_per_deal(base)[ia], length_per_deal(variant)[ib])


def strong_counts(data: StudyData, family: Family) -> dict | None:
    """The primary strong-level questions (seat, team and first-player balance at the level each
    player count's verdict rests on, :func:`strong_levels`) and how many are settled: what
    "settled under strong play" counts (issue 42); with each count's check against the search.
    None when no strong level was played."""
    rests = strong_levels(data, family)
    if not rests:
        return None
    done = ("finding", "negligible", "equivalent", "unchanged")
    mine = [q for q in family.questions if q.section == "seats" and rests.get(q.players) == q.level]
    checks = {}
    for p in rests:
        qs = [q for q in family.questions if q.section == "agreement" and q.players == p]
        if qs:
            worst = max(qs, key=lambda q: abs(q.estimate))
            checks[p] = {"deals": worst.deals, "disagree": [q.subject for q in qs if q.outcome == "finding"],
                         "plays_as_heuristic": plays_as_heuristic(data, p),
                         "largest_gap": worst.subject, "gap": worst.estimate, "low": worst.low, "high": worst.high}
    return {"rests_on": rests, "questions": len(mine), "settled": sum(q.outcome in done for q in mine),
            "open": [f"{q.players} players, {q.subject}" for q in mine if q.outcome not in done], "checks": checks}


#: a study's seat compensation: how sure the interval of the one named is (Bonferroni over the
#: values tried at its player count: it is the best of them)
COMPENSATION_ALPHA = 0.05


def compensation(data: StudyData) -> dict[int, dict]:
    """Per player count, the seat compensation that evens the seats best at the heuristic level
    (issue 42): of the lever values the study played (``compensation/`` stages, everyone the
    heuristic on the same deals as its levels stage), the one with the largest balance gained;
    its gain and the change of the seat (team) at fault, each a paired interval at 95% jointly
    over the values tried (Bonferroni: the one named is the best of them, so its interval holds
    whichever it is). {players: {setting, tried, level, gain, at_fault, balance_today,
    balance_with, games (every value's, together)}}: ``gain`` and ``at_fault`` as :func:`~tourney_sim.simulate.stats.designs.paired_gain`
    and :func:`~tourney_sim.simulate.stats.designs.at_fault_change` give them."""
    from .designs import _safe, at_fault_change, deals_of, paired_gain, summary_balance
    out = {}
    for p in sorted({p for p, _ in data.compensation}):
        base = data.levels.get((p, "heuristic"))
        tried = sorted(setting for q, setting in data.compensation if q == p)
        if base is None:
            continue
        level = 1 - COMPENSATION_ALPHA / len(tried)
        today = deals_of(base)
        best, games = None, 0
        for setting in tried:  # one stage in memory at a time; the first of equal gains stays the best
            stage = data.compensation[(p, setting)]
            cfg = load([stage])[0] if isinstance(stage, Path) else stage
            games += cfg.tables
            lever = deals_of(cfg)
            gain = paired_gain(today, lever, level)
            if best is None or np.nan_to_num(gain["gain"], nan=-np.inf) > np.nan_to_num(best["gain"]["gain"], nan=-np.inf):
                best = {"setting": setting, "gain": gain, "at_fault": at_fault_change(today, lever, level),
                        "balance_with": summary_balance(cfg)}
        out[p] = _safe({**best, "tried": len(tried), "level": level, "balance_today": summary_balance(base),
                        "games": games})
    return out


def findings_json(data: StudyData, family: Family, found: dict | None = None) -> dict:
    """What findings.json holds (``found``: the study's :func:`compensation`, computed when not given)."""
    m = data.manifest
    found = compensation(data) if found is None else found
    return {"format": "tourney-study-findings/1", "game": data.game, "budget": m.get("budget"),
            "seed": m.get("seed"), "players": data.players, "levels": m.get("levels"),
            "level_strategies": data.strategy, "questions_tested": family.tested(),
            "findings": len(family.findings()), "not_settled": len(family.not_settled()),
            "adaptive": adaptive_counts(data, family), "strong": strong_counts(data, family),
            "compensation": {str(p): c for p, c in found.items()},
            "questions": [q.to_dict() for q in family.questions]}
