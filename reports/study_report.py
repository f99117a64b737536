"""A study's report (see :mod:`tourney_sim.simulate.study` for the stages, and
:mod:`tourney_sim.simulate.stats.studies` for its data and questions, settled by
:mod:`tourney_sim.simulate.stats.findings`): the verdict, what to change, plots, findings and
details, as HTML and Markdown, and findings.json beside them.

The report is a function of the data alone (no clock, seeded rating samples), so a resumed study
writes the same report. Its rule options' rows (:class:`RuleRow`) are the table's: each option's
numbers on the deals both played, and what it does to balance in words.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from tourney_sim.simulate.games import RuleError, get_game
from tourney_sim.simulate.study import STUDY
from tourney_sim.simulate.jobdir import renders

from tourney_sim.simulate.stats import analysis, findings, intervals
from tourney_sim.simulate.stats.findings import LEVELS, Family, Question
from tourney_sim.simulate.stats.measures import margin_per_deal, mean_score_per_deal
from tourney_sim.simulate.stats.findings import LEVEL_WORDS
from tourney_sim.simulate.stats.studies import (StudyData, adaptive_counts, changed_any_game, compensation, context,
                                                findings_json,
                                                findings_level, heuristics_games, load_study, on_deals, questions,
                                                same_as_heuristic, strong_counts, strong_levels)

from . import plots
from .render import Report, Table, _fig, _figs, _h, _p, _ul, count, interval_pct, interval_pp, num, pct, pp, pval, write
from .study_components import _gain, layout_components

SEARCH = "ismcts"


# ----------------------------------------------------------------------------- words
def _pp(x) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:+.1f}"


def _iv_pp(low, high) -> str:
    """An interval of a rate difference, in pp (it cannot leave [-100, +100])."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return "n/a"
    return f"[{100 * max(low, -1.0):+.1f}, {100 * min(high, 1.0):+.1f}]"


def _strongest(data: StudyData, family: Family, p: int) -> list[str]:
    """Plain-words reading of the landscape at one player count."""
    cfg = data.landscape.get(p)
    if cfg is None:
        return []
    qs = [q for q in family.questions if q.section == "strategies" and q.players == p]
    names = [cfg.names[j] for j in analysis.player_strategy_ids(cfg)]
    score = {n: 0.0 for n in names}
    for q in qs:
        a, b = q.pair
        score[a] += q.estimate
        score[b] -= q.estimate
    out = []
    search = [n for n in names if n.split(":")[0] == "ismcts"]
    heur = [n for n in names if n not in search]
    best = max(heur, key=lambda n: score[n]) if heur else None

    def beats(a, b):
        for q in qs:
            if set(q.pair) == {a, b} and q.outcome == "finding":
                return (q.estimate > 0) == (q.pair[0] == a)
        return False

    def diff(a, b):
        for q in qs:
            if set(q.pair) == {a, b}:
                sign = 1 if q.pair[0] == a else -1
                return sign * q.estimate, (q.low, q.high) if sign == 1 else (-q.high, -q.low)
        return math.nan, (math.nan, math.nan)

    if best:
        others = [h for h in heur if h != best]
        beaten = [h for h in others if beats(best, h)]
        if others and len(beaten) == len(others):
            out.append(f"{p} players: {best} is the strongest heuristic and beats every other heuristic "
                       f"(a dominant simple strategy).")
        else:
            level = [h for h in others if h not in beaten]
            out.append(f"{p} players: {best} is the strongest heuristic on average; it is not shown "
                       f"stronger than {', '.join(level)}.")
        if "random" in heur and best != "random":
            d, (lo, hi) = diff(best, "random")
            out.append(f"{p} players: skill matters: {best} beats random by {_pp(d)} pp {_iv_pp(lo, hi)}.")
    for s in search:
        if best:
            d, (lo, hi) = diff(s, best)
            word = ("beats" if beats(s, best) else "loses to" if beats(best, s)
                    else "is not separated (at the study's family-wise level) from")
            out.append(f"{p} players: the search player {s} {word} {best}: {_pp(d)} pp {_iv_pp(lo, hi)}.")
    return out


# ----------------------------------------------------------------------------- rule options
SHARED_FIRST = ("A shared first place counts as a win for each seat or team that shares it, so the win "
                "rates can add up to more than 100%.")


@dataclass
class RuleRow:
    """One rule option at one level against the default rules, every number on the deals both
    played: the balance figure under each, the balance it gains (option minus default, positive =
    fairer, with its paired 95% interval: :func:`analysis.balance_gain`) and the option's
    questions."""

    players: int
    level: str
    option: str
    deals: int
    changed: bool
    before: dict  # seat_analysis of the default rules on the common deals
    after: dict  # ... of the option
    gain: float = math.nan  # balance figure: option minus default (positive: fairer)
    gain_low: float = math.nan  # its paired 95% interval
    gain_high: float = math.nan
    questions: list = field(default_factory=list)

    def balance_questions(self) -> list[Question]:
        return [q for q in self.questions if q.balance]

    def moved(self) -> Question | None:
        """The balance question with the largest effect its family finds (None: no effect)."""
        found = [q for q in self.balance_questions() if q.outcome == "finding"]
        return max(found, key=lambda q: abs(q.estimate)) if found else None

    def gain_sign(self) -> int:
        """+1 when the balance gained is shown above 0 (its 95% interval), -1 below, 0 neither."""
        return 1 if self.gain_low > 0 else -1 if self.gain_high < 0 else 0

    def shown(self) -> str:
        """"fairer" or "less fair" when both readings agree: a balance question's effect found by
        its family (towards or away from even) and the balance gained shown on that side of 0 at
        95%; "" otherwise (:meth:`verdict` says why)."""
        towards = {"towards": 1, "away from": -1}.get(self.direction(), 0)
        if towards and towards == self.gain_sign():
            return "fairer" if towards > 0 else "less fair"
        return ""

    def direction(self) -> str:
        """"towards" or "away from" (even): where :meth:`moved`'s question went ("" if none)."""
        q = self.moved()
        return "" if q is None else "towards" if abs(q.after) < abs(q.before) else "away from"

    def gain_words(self) -> str:
        """The balance gained in words, with its interval (pp)."""
        side = {1: "rises", -1: "falls", 0: "is not shown to change"}[self.gain_sign()]
        return f"the balance figure {side} ({_gain(self)} pp, 95%)"

    def verdict(self) -> str:
        """What the option does to balance, in a designer's words. "fairer" / "less fair" only when
        the family's test of a seat (or the first player) and the balance gained agree; where they
        differ, both are said."""
        if not self.changed:
            return "changed no game at all"
        qs = [q for q in self.balance_questions() if q.outcome != "unchanged"]
        if not qs:
            return "changed no winner"
        q = self.moved()
        if q is not None:
            moved = f"{q.what} {findings.level_text(q, q.before)} → {findings.level_text(q, q.after)}"
            if self.shown():
                return f"{q.verdict()}: {moved}"
            return f"{moved} ({self.direction()} even), but {self.gain_words()}"
        if self.gain_sign():
            return f"{self.gain_words()}, but no seat's change is an effect at the family's level"
        if all(q.outcome in ("equivalent", "negligible") for q in qs):
            bound = max((q.bound for q in qs if q.outcome == "equivalent"), default=findings.NEGLIGIBLE_PP)
            return f"no seat's advantage changes by more than ±{100 * bound:.1f} pp"
        most = findings.most_to_settle(qs)
        return "not settled" + (f": {most.settle_words()}" if most else "")


def rule_rows(data: StudyData, family: Family) -> list[RuleRow]:
    """Every rule option of the study, by player count, level and option."""
    out = []
    for (p, level, option), cfg in sorted(data.rules.items(),
                                          key=lambda kv: (kv[0][0], findings_level(kv[0][1]), kv[0][2])):
        base = data.levels[(p, level)]
        ia, ib = analysis.common_deals(base, cfg)
        a, b = on_deals(base, ia), on_deals(cfg, ib)
        seats = {id(a): analysis.seat_analysis(a), id(b): analysis.seat_analysis(b)}
        cmp = analysis.compare_variants([a, b], seats)[0]["comparisons"][0] if len(ia) >= 2 else {}
        row = RuleRow(p, level, option, len(ia), changed_any_game(base, cfg, ia, ib), seats[id(a)], seats[id(b)],
                      cmp.get("balance_diff", math.nan), cmp.get("balance_diff_low", math.nan),
                      cmp.get("balance_diff_high", math.nan),
                      [q for q in family.questions if q.section == "rules" and q.players == p
                       and q.level == level and q.option == option])
        out.append(row)
    return out


def checks(data: StudyData) -> tuple[Family, list[RuleRow]]:
    """The paired checks of the components' nearest changes (``components/`` stages, compared
    with the default rules as a rule option is): their questions (settled among themselves) and
    one row each."""
    qs = []
    for (p, level, setting), cfg in sorted(data.components.items()):
        qs += findings.rule_questions(data.levels[(p, level)], cfg, context(data, p, level), level, setting)
    family = Family(findings.settle(qs))
    return family, rule_rows(replace(data, rules=data.components), family)


# ----------------------------------------------------------------------------- the verdict
def _level_state(qs: list[Question]) -> str:
    if any(q.outcome == "finding" for q in qs):
        return "unfair"
    if qs and all(q.outcome in ("equivalent", "negligible", "unchanged") for q in qs):
        return "fair"
    return "open"


def verdict(data: StudyData, family: Family, p: int, rows: list[RuleRow], seats: dict) -> list[str]:
    """One to six sentences a designer reads in 30 seconds: is the game fair at this player
    count (under heuristic play and strong play: the apprentice's, or the search's where the
    apprentice disagrees with it), what the strong level rests on, which rule option fixes it, the
    first player, skill."""
    out = []
    levels = verdict_levels(data, family, p)
    state = {}
    for lv in levels:
        qs = [q for q in family.questions if q.section == "seats" and q.players == p and q.level == lv
              and q.measure == "win rate"]
        state[lv] = (_level_state(qs), qs)
    if not levels:
        return ["Only random play was studied: no verdict on balance under skilled play (see the seat table)."]
    unfair = [lv for lv in levels if state[lv][0] == "unfair"]
    if unfair:
        # said from the findings themselves (the adaptive stage's deals included), each with its
        # own interval and adjusted p: a level is unfair only where a seat's question is a finding
        lv = unfair[-1]  # the strongest play at which it is unfair
        found = _findings_first(state[lv][1])
        said = "; ".join(_finding_words(q) for q in found[:2])
        also = [x for x in reversed(unfair) if x != lv]
        if also:
            both = " and ".join(LEVEL_WORDS[x].removesuffix(" play") for x in (lv, *also))
            out.append(f"Unfair under both {both} play (random play is not judged): under {LEVEL_WORDS[lv]}, {said}"
                       + "".join(f"; under {LEVEL_WORDS[x]}, {_finding_words(_findings_first(state[x][1])[0])}"
                                 for x in also) + ".")
        else:
            out.append(f"Unfair under {LEVEL_WORDS[lv]}: {said}.")
    for lv in levels:
        st, qs = state[lv]
        if st == "fair":
            bound = max((q.bound for q in qs if q.outcome == "equivalent"), default=findings.NEGLIGIBLE_PP)
            # two units (two teams, two seats): one question, their gap; else each unit against the average
            units = "teams" if any(q.subject.startswith("team") for q in qs) else "seats"
            what = (f"the two {units}' win rates differ by" if len(qs) == 1
                    else "no seat's win rate differs from the average by")
            out.append(f"Fair under {LEVEL_WORDS[lv]}: {what} at most {100 * bound:.1f} pp (95%; the margin for "
                       f"fair is ±{100 * findings.FAIR_PP:g} pp).")
    open_levels = [lv for lv in levels if state[lv][0] == "open"]
    if open_levels:
        most = [findings.most_to_settle(state[lv][1]) for lv in open_levels]
        said = "; ".join(q.settle_words() for q in most if q is not None)
        out.append(f"Not settled under {' or '.join(LEVEL_WORDS[lv] for lv in open_levels)}"
                   + (f": {said}." if said else "."))
    check = _check_words(data, family, p)
    if check:
        out.append(check)
    mine = [r for r in rows if r.players == p and r.level == "heuristic" and r.changed]
    fairer = [r for r in mine if r.shown() == "fairer"]
    worse = [r for r in mine if r.shown() == "less fair"]
    if fairer:
        best = max(fairer, key=lambda r: r.gain)
        out.append(f"{best.option} makes it fairer: balance figure {best.before['balance']:.2f} → "
                   f"{best.after['balance']:.2f} under heuristic play (1 is even; gained {_gain(best)} pp, 95%).")
    elif mine:
        unsure = [r for r in mine if not r.shown() and r.moved() is not None]
        out.append("No rule option tried is shown to make it fairer"
                   + "".join(f"; {r.option} moves {r.moved().what} {r.direction()} even, but {r.gain_words()}"
                             for r in unsure)
                   + (f"; {', '.join(r.option for r in worse)} makes it less fair" if worse else "") + ".")
    first = [q for q in family.questions if q.section == "seats" and q.players == p and q.measure == "first player"
             and q.family == "primary" and q.outcome == "finding"]
    if first:
        q = max(first, key=lambda q: abs(q.estimate))
        out.append(f"Under {LEVEL_WORDS[q.level]}, {_finding_words(q)}.")
    skill = _skill(data, family, p)
    if skill:
        out.append(skill)
    return out[:6]


def verdict_levels(data: StudyData, family: Family, p: int) -> list[str]:
    """The levels the verdict judges at ``p`` players: heuristic play, and the strong level it
    rests on (:func:`findings.strong_level`), each where it was played."""
    strong = strong_levels(data, family).get(p)
    return [lv for lv in ("heuristic", strong) if lv is not None and (p, lv) in data.levels]


def _check_words(data: StudyData, family: Family, p: int) -> str:
    """What the strong level rests on, in one sentence: the apprentice checked against the search
    on the same deals (they agree, with the largest gap), or the disagreement that sends the
    verdict to the search."""
    qs = [q for q in family.questions if q.section == "agreement" and q.players == p]
    if not qs:
        if (p, "apprentice") in data.levels and (p, "search") not in data.levels:
            return ("Strong play is the apprentice's, not checked against the search here (the search level was "
                    "not played: add it to --levels).")
        return ""
    deals = count(data.levels[(p, "apprentice")].deals)
    searched = count(qs[0].deals)
    apart = [q for q in qs if q.outcome == "finding"]
    if apart:
        q = max(apart, key=lambda q: abs(q.estimate))
        return (f"Strong play rests on the search's {searched} deals: the apprentice does not play the game the search "
                f"plays here ({_agreement_words(q)}), so its {deals} deals are not used for the verdict.")
    q = max(qs, key=lambda q: abs(q.estimate))
    agree = ("they agree within the margin" if all(x.outcome in ("equivalent", "negligible", "unchanged") for x in qs)
             else "no disagreement found")
    same, counted = "", same_as_heuristic(data, p)
    if heuristics_games(counted):
        played, equal = counted
        heuristic = data.strategy.get("heuristic")
        how = (f"exactly as {heuristic} (the same result on every one of the {count(played)} deals both played: its "
               f"weights keep to its guide)" if equal == played else
               f"almost exactly as {heuristic} (the same result on {count(equal)} of the {count(played)} deals both "
               f"played: its weights seldom leave its guide)")
        same = (f" Here the apprentice plays {how}, so this is the heuristic's answer, and the check is all that makes "
                f"it strong play.")
    return (f"Strong play is the apprentice's ({deals} deals), checked against the search on {searched} of the same "
            f"deals: {agree} (largest gap: {_agreement_words(q)}).{same}")


def _agreement_words(q: Question) -> str:
    """An agreement question in words: "seat 2 +3.1 pp against the search, 95% [+0.4, +5.8],
    Holm-adjusted p over every check = 0.110" (its own interval, and the Holm-adjusted p that
    decides: a gap whose own interval misses 0 is no disagreement unless the family's test says so)."""
    p = f"; Holm-adjusted p over every check {findings._p(q.p_holm)}" if math.isfinite(q.p_holm) else ""
    return f"{q.subject} {100 * q.estimate:+.1f} pp against the search, 95% {_iv_pp(q.low, q.high)}{p}"


def _findings_first(qs: list[Question]) -> list[Question]:
    """A level's seat questions that are findings, the largest first."""
    return sorted((q for q in qs if q.outcome == "finding"), key=lambda q: -abs(q.estimate))


def _finding_words(q: Question) -> str:
    """A finding as the verdict says it: its claim, size, own interval and adjusted p."""
    p = f", adjusted p {findings._p(q.p_holm)}" if math.isfinite(q.p_holm) else ""
    return q.phrase() + p


def verdict_state(data: StudyData, family: Family, p: int) -> str:
    """The verdict's outcome at ``p`` players, for its colour: "unfair" (a seat's question is a
    finding at some level), "fair" (every studied level shown fair), else "open"."""
    states = [_level_state([q for q in family.questions if q.section == "seats" and q.players == p
                            and q.level == lv and q.measure == "win rate"])
              for lv in verdict_levels(data, family, p)]
    if "unfair" in states:
        return "unfair"
    return "fair" if states and all(s == "fair" for s in states) else "open"


def level_seats(data: StudyData) -> dict:
    """The seat analysis of every level's stage, by (players, level)."""
    return {key: analysis.seat_analysis(cfg) for key, cfg in data.levels.items()}


def verdicts(data: StudyData, family: Family, rows: list[RuleRow] | None = None,
             seats: dict | None = None) -> dict[int, list[str]]:
    """The report's verdict: its sentences for each player count (:func:`verdict`)."""
    seats = level_seats(data) if seats is None else seats
    rows = rule_rows(data, family) if rows is None else rows
    return {p: verdict(data, family, p, rows, seats) for p in data.players}


def _skill(data: StudyData, family: Family, p: int) -> str:
    qs = [q for q in family.questions if q.section == "strategies" and q.players == p and q.family == "landscape"]
    search = [q for q in qs if any(n.split(":")[0] == SEARCH for n in q.pair)]
    if not search:
        return ""
    best = _best_heuristic(data, family, p)
    q = next((q for q in search if best in q.pair), None)
    if q is None:
        return ""
    sign = 1 if q.pair[0].split(":")[0] == SEARCH else -1
    d, low, high = sign * q.estimate, *((q.low, q.high) if sign == 1 else (-q.high, -q.low))
    if q.outcome == "finding" and d > 0:
        return f"Skill matters: the search player beats the best heuristic ({best}) by {100 * d:.0f} pp " \
               f"(95% [{100 * low:.0f}, {100 * high:.0f}])."
    if q.outcome == "finding":
        return f"The best heuristic ({best}) beats the search player by {-100 * d:.0f} pp."
    return f"The search player is not separated from the best heuristic ({best}) at this budget."


def _best_heuristic(data: StudyData, family: Family, p: int) -> str | None:
    cfg = data.landscape.get(p)
    if cfg is None:
        return None
    names = [cfg.names[j] for j in analysis.player_strategy_ids(cfg) if cfg.names[j].split(":")[0] != SEARCH]
    score = {n: 0.0 for n in names}
    for q in family.questions:
        if q.section == "strategies" and q.players == p:
            a, b = q.pair
            score[a] = score.get(a, 0.0) + q.estimate
            score[b] = score.get(b, 0.0) - q.estimate
    return max(names, key=lambda n: score[n]) if names else None


# ----------------------------------------------------------------------------- the report
def build(data: StudyData, family: Family, found: dict | None = None) -> Report:
    """The report of a study (``found``: its seat compensation, computed here when not given)."""
    r = Report(data.game, data.title, [], [], [], [], [])
    b = r.blocks
    m = data.manifest
    b.append(_h(1, f"{data.title}: balance study" + (f" ({m['budget']} budget)" if m.get("budget") else "")))
    found = compensation(data) if found is None else found
    games = sum(c.tables for c in [*data.levels.values(), *data.rules.values(), *data.landscape.values(),
                                   *data.components.values()])
    games += sum(c["games"] for c in found.values())  # the seat compensation's stages
    games += sum(stream.tables - data.levels[(p, "search")].tables for p, stream in data.streams.items()
                 if (p, "search") in data.levels)  # the adaptive stage's deals
    levels = ", ".join(f"{lv} ({data.strategy[lv]})" for lv in m.get("levels", data.strategy))
    b.append(_p(f"{count(games)} games in {len(m.get('stages', []))} stages, every stage on the same deals "
                f"(seed {m.get('seed')}); players: {', '.join(map(str, data.players))}; levels of play: "
                f"{levels}; rules v{m.get('rules_version')}. Command: "
                f"{m.get('command') or '(the Python API: tourney_sim.study)'}", "lead"))
    seats = level_seats(data)
    rows = rule_rows(data, family)
    b.append(_h(2, "Verdict", "verdict"))
    for p, said in verdicts(data, family, rows, seats).items():
        r.terminal.append(f"{p} players: " + " ".join(said))
        b.append(_p(f"{p} players: " + (" ".join(said) if said else "nothing settled at this budget."),
                    VERDICT_CLASS[verdict_state(data, family, p)]))
    b.append(_p(f"Fair: shown within the margin (±{100 * findings.FAIR_PP:g} pp) at the family's error rate; "
                f"unfair: a difference too large to be luck (at most a 5% chance of any false alarm among each group "
                f"of questions; how it is tested is under Methods). {SHARED_FIRST}"))
    if found and compensation_levers(data.game):
        r.terminal.append("Seat compensation that evens the seats best (heuristic level; confirm with tourney design): "
                          + "; ".join(f"{p} players: {c['setting']}, balance gained {pp(c['gain'].get('gain'))} pp "
                                      f"{interval_pp(c['gain'].get('low'), c['gain'].get('high'))}"
                                      for p, c in sorted(found.items())) + ".")
    _layout_changes(r, data, family, rows, found)
    _layout_plots(r, data, rows, seats)
    _layout_findings(r, data, family, rows)
    _layout_seats(r, data, seats)
    _layout_strong(r, data, family)
    if rows:
        _layout_rules(r, data, rows)
    _layout_landscape(r, data, family)
    layout_components(r, data, checks(data) if data.components else None)
    if len(data.players) > 1:
        _layout_players(r, data, family, seats)
    _layout_stages(r, data)
    _layout_methods(r)
    return r


def _layout_changes(r: Report, data: StudyData, family: Family, rows: list[RuleRow], found: dict | None = None) -> None:
    """What to change: the rule options tried, the paired checks of the components' nearest
    changes, the seat compensation that evens the seats best (``found``:
    :func:`~tourney_sim.simulate.stats.studies.compensation`), and the ``tourney design`` command
    that searches for the smallest fix."""
    if not rows:
        b = _section(r, "What to change", "change", "No rule option of this game was tried at these player "
                     "counts: the game has none to try here.")
    else:
        b = _rule_options(r, rows)
    if data.components:
        _family, checked = checks(data)
        b.append(_p("The nearest change of each of the components worth most (one fewer copy, a value one lower), "
                    "played on the same deals as the default rules (details under Components): "
                    + "; ".join(f"{x.players} players, {x.option}: {x.verdict()}, balance gained {_gain(x)} pp"
                                for x in checked) + "."))
    budget = data.manifest.get("budget")
    budget = f" --budget {budget}" if budget in DESIGN_BUDGETS else ""
    commands = [f"tourney design {data.game} --players {p}{budget} --out design/{data.game}-{p}p"
                for p in data.players]
    b.append(_p("To search every rule option and component value for the smallest change that makes the game "
                "fairer, and confirm it under strong play, run " + "; ".join(commands)
                + " (docs/design.md)."))
    levers = compensation_levers(data.game)
    if levers:
        if found:
            lead, items = compensation_words(data, found)
            b.append(_p(lead))
            if items:
                b.append(_ul(items))
        b.append(_p(f"Seat compensation ({'; '.join(levers)}): "
                    + ("the study plays it at the heuristic level only (the apprentice's weights belong to today's "
                       "table); " if found else "")
                    + f"the same design run tries each value of each lever on its own and reports the one that evens "
                    f"the seats best beside its recommendation, confirmed on fresh deals at the strong level by the "
                    f"table's own apprentice (only the compensation: tourney design {data.game} --vary compensation)."))


def compensation_words(data: StudyData, found: dict) -> tuple[str, list[str]]:
    """The seat compensation that evens the seats best at each player count (issue 42), in words:
    the value, the balance before and after, the gain and the at-fault seat's change, each with
    its paired interval (jointly over the values tried). (The lead, one sentence per player
    count): one count's sentence ends the lead; several are a list under it."""
    said = []
    for p, c in sorted(found.items()):
        g, f = c["gain"], c["at_fault"]
        level = f"{100 * (1 - (1 - c['level']) * c['tried']):g}% jointly over the {c['tried']} values tried"
        if g.get("gain") is None or g["gain"] <= 0:
            said.append(f"none of the {c['tried']} values tried makes the game fairer (the best, {c['setting']}: "
                        f"balance gained {pp(g.get('gain'))} pp {interval_pp(g.get('low'), g.get('high'))})")
            continue
        shown = g.get("low") is not None and g["low"] > 0
        words = (f"{c['setting']} evens the seats best of the {c['tried']} values tried: balance "
                 f"{c['balance_today']:.2f} → {c['balance_with']:.2f} (gained {pp(g['gain'])} pp "
                 f"{interval_pp(g['low'], g['high'])}, {level}"
                 + ("" if shown else "; not shown: the interval holds 0") + ")")
        if f.get("unit") is not None and f.get("change") is not None:
            words += (f"; {f['unit']}'s edge over the average {pp(f['before'])} → {pp(f['after'])} pp (change "
                      f"{pp(f['change'])} pp {interval_pp(f['low'], f['high'])})")
        said.append(words)
    lead = f"Seat compensation, everyone {data.strategy.get('heuristic', 'the heuristic')} on the same deals as the default rules"
    if len(said) == 1:
        return f"{lead}: {said[0]}.", []
    return f"{lead}, at each player count:", [f"{p} players: {w}." for p, w in zip(sorted(found), said)]


def compensation_levers(game: str) -> list[str]:
    """The game's seat compensation levers in words (its components declared ``compensation``)."""
    try:
        components = get_game(game).components
    except RuleError:  # a study of data whose game is not one of these (a synthetic study)
        return []
    if components is None:
        return []
    return [f"{v.key}: {v.help}" for v in components.values.values() if v.compensation]


DESIGN_BUDGETS = ("quick", "standard", "thorough")
#: the verdict's colour: green when fair, red when unfair, grey when not settled
VERDICT_CLASS = {"fair": "key", "unfair": "unfair", "open": "open"}


def _rule_options(r: Report, rows: list[RuleRow]) -> list:
    b = _section(r, "What to change", "change",
                 "Each rule option against the default rules on the same deals, ranked by the balance it gains "
                 "(the balance figure is 1 minus the largest gap between seat or team win rates; its change is the "
                 "option's minus the default's, so positive is fairer), with its paired 95% interval: from intervals "
                 "of every two seats' gap under each rule set and of its change deal by deal, holding at once "
                 "(docs/analysis.md). An option is called fairer (highlighted) only when the family's test of a "
                 "seat's advantage and this interval agree; where they differ, both are said. Heuristic play "
                 "first: the primary questions.")
    ranked = sorted(rows, key=lambda x: (x.level != "heuristic", -(x.gain if math.isfinite(x.gain) else -9)))
    table = []
    for i, x in enumerate(ranked, 1):
        table.append([str(i), x.option, str(x.players), x.level, count(x.deals),
                      f"{x.before['balance']:.3f} → {x.after['balance']:.3f}", _gain(x), x.verdict()])
    b.append(Table(["rank", "option", "players", "level", "deals", "balance figure: default → option",
                    "balance gained, pp [95%]", "what it does to balance"], table,
                   [x.level == "heuristic" and x.shown() == "fairer" for x in ranked]))
    return b


def _layout_plots(r: Report, data: StudyData, rows: list[RuleRow], seats: dict) -> None:
    b = _section(r, "Plots", "plots", "Seat (or team) win rates with 95% intervals at each level of play; the "
                 "balance figure under the default rules and under each option (same deals); the strategy "
                 "landscape: each strategy's win rate against the opponents it met (the search player met only "
                 "the heuristics), which is not who beats whom (that is the pairwise table of 'Strategy "
                 "landscape'). " + SHARED_FIRST)
    for p in data.players:
        figs = []
        groups = {}
        for lv in LEVELS:
            s = seats.get((p, lv))
            if s is not None:
                u = s["units"]
                groups[f"{lv} ({data.strategy[lv]})"] = (u.win_rate, u.ci_low, u.ci_high)
                labels, even = list(u.index), 1 / len(u)
        if groups:
            figs.append(_fig(plots.grouped_intervals(labels, groups, f"{p} players: win rate by seat (95%)",
                                                     "win rate", reference=even), f"{p} players: seat win rates"))
        mine = [x for x in rows if x.players == p]
        if mine:
            figs.append(_fig(plots.before_after([f"{x.option} ({x.level})" for x in mine],
                                                [x.before["balance"] for x in mine], [x.after["balance"] for x in mine],
                                                f"{p} players: balance figure, default → option",
                                                "balance figure (1 = even)", [x.after["balance_low"] for x in mine],
                                                [x.after["balance_high"] for x in mine]),
                             f"{p} players: balance before and after each option"))
        cfg = data.landscape.get(p)
        if cfg is not None:
            st = analysis.strategy_table(cfg)
            st = st[st.player].sort_values("win_rate", ascending=False)
            figs.append(_fig(plots.intervals(list(st.index), st.win_rate, st.ci_low, st.ci_high,
                                             f"{p} players: win rate against the opponents each met (95%)", "win rate"),
                             f"{p} players: strategy landscape, win rate against the opponents each met"))
        if figs:
            b.append(_h(3, f"{p} players"))
            b.append(_figs(*figs))


def _layout_findings(r: Report, data: StudyData, family: Family, rows: list[RuleRow]) -> None:
    b = _section(r, "Findings, family by family", "findings",
                 "The questions were fixed before any game was played, each in one family, read in this order; "
                 "within a family the chance of even one false alarm is at most 5% (how: Methods). Each question is "
                 "unfair / an effect (a difference too large to be luck), significant but negligible (real, but "
                 f"inside ±{100 * findings.NEGLIGIBLE_PP:g} pp), fair or equivalent (shown to lie within "
                 f"±{100 * findings.FAIR_PP:g} pp for rates), or not settled (with about how many more deals at its "
                 "level would settle it either way at 80% power, rounded up to two significant figures). Rule "
                 "options: option minus default on the same deals, signed, as in every table.")
    for name, what in findings.FAMILIES.items():
        qs = [q for q in findings.ordered(family.questions) if q.family == name]
        b.append(_h(3, f"{list(findings.FAMILIES).index(name) + 1}. {name}: {what}"))
        if not qs:
            b.append(_p(_not_played(data, name) or "No question of this family in this study."))
            continue
        b.append(_p(f"{family.tested(name)} questions tested: {_counts(qs)}."))
        b.append(_ul([f"{q.verdict()} — {q.sentence()}" for q in qs if q.outcome in findings.READING_ORDER[:4]]))
    _layout_adaptive(b, data, family)
    facts = family.facts()
    if facts:
        b.append(_h(3, "Consequences of the rules (facts, not tested)"))
        b.append(_ul([q.sentence() for q in facts]))
    untested = [q for q in family.questions if q.outcome == "landscape"]
    if untested:
        b.append(_p("Against random (lines of the landscape, not findings): "
                    + "; ".join(f"{q.players} players: {q.phrase()}" for q in untested) + "."))
    same = [x for x in rows if not x.changed]
    if same:
        b.append(_p("Rule options that changed no game at all (no winner, score or length on any common deal): "
                    + "; ".join(f"{x.option} ({x.players} players, {x.level})" for x in same) + "."))
    kept = [q for q in family.unchanged() if all(not (x.option == q.option and x.level == q.level
                                                       and x.players == q.players) for x in same)]
    if kept:
        b.append(_p("Measures an option changed on no deal (other measures changed): "
                    + "; ".join(f"{q.context} — {q.subject}" for q in kept) + "."))


def _layout_adaptive(b: list, data: StudyData, family: Family) -> None:
    """The adaptive stage: what it settled, the deals it played, what is still open, and the
    variance its control variate removed."""
    a = adaptive_counts(data, family)
    if a is None:
        return
    b.append(_h(3, "Adaptive stage: more search deals for the open primary questions"))
    played = "; ".join(f"{p} players: {count(n)}" for p, n in sorted(a["deals_played"].items())) or "none"
    b.append(_p(f"Primary search-level questions settled after the first pass ({count(a['first_pass'])} search deals "
                f"per player count): {a['settled_first_pass']} of {a['questions']}; after the adaptive stage: "
                f"{a['settled']} of {a['questions']}. It played new search deals (the same seed, the deals after the "
                f"first pass's) in batches of {count(a['batch'])}, up to {count(a['cap'])} more per player count, while a "
                f"question at that count was open: {played}. "
                + (f"Still open: {'; '.join(a['open'])}. " if a["open"] else "None is still open. ")
                + "".join(f"At {p} players it stopped after {count(x['after'])} deals with {count(x['left'])} left in its "
                          f"cap: its own estimate says its open questions need about "
                          f"{', '.join(_deals(n) for n in x['needs'].values())} more deals to settle either way "
                          f"(80% power), more than the cap has left, so it asked for none. "
                          for p, x in sorted(a["stopped"].items()))
                + f"Each question is read twice, on the first pass at {a['first_pass_share']:g} of its level and on every "
                  "search deal by a confidence sequence valid at every look at the rest, with the heuristic level's "
                  "result of the same deal as a control variate (docs/analysis.md, 'The adaptive stage')."))
    cv = [q for q in family.questions if math.isfinite(q.cv_reduction)]
    if cv:
        b.append(_p("Variance of the new deals' values the control variate removed (1 - Var(adjusted) / Var(plain), "
                    "coefficient fixed from the first pass): " + "; ".join(
                        f"{q.players} players, {q.subject}: {100 * q.cv_reduction:.0f}% (beta {q.cv_beta:+.2f})"
                        for q in cv) + "."))


def _deals(n: int | None) -> str:
    return "more than any number of" if n is None else count(n)


def _counts(qs: list[Question]) -> str:
    words = {"finding": "effects", "negligible": "significant but negligible", "equivalent": "fair or equivalent",
             "not settled": "not settled", "fact": "facts", "unchanged": "unchanged"}
    tested = [k for k in words if k in findings.READING_ORDER[:4]]
    said = ", ".join(f"{sum(q.outcome == k for q in qs)} {words[k]}" for k in tested if any(q.outcome == k for q in qs))
    rest = ", ".join(f"{sum(q.outcome == k for q in qs)} {words[k]}" for k in words
                     if k not in tested and any(q.outcome == k for q in qs))
    return said + (f"; not tested: {rest}" if rest else "")


def _not_played(data: StudyData, family_name: str) -> str:
    if family_name == "agreement":
        return ("Not played: the strong level's check needs the apprentice and the search levels at the same player "
                "count.")
    if family_name == "search rules" and "search" in data.manifest.get("levels", ()):
        return next((x for x in data.manifest.get("not_played", ()) if "search" in x), "")
    return ""


def _section(r: Report, title: str, anchor: str, text: str) -> list:
    """Open a section of the report (heading and its explanation); the blocks to add to."""
    r.blocks.append(_h(2, title, anchor))
    r.blocks.append(_p(text))
    return r.blocks


def _layout_seats(r: Report, data: StudyData, seats: dict) -> None:
    b = _section(r, "Seat and first-player advantage", "seats",
                 "Everyone plays the same strategy, so any difference between seats is the game's. Balance figure: "
                 "1 minus the largest gap between seat win rates (teams in team games); seats equal: Hotelling's "
                 "test that every seat wins equally often; first player: the seat that made the first decision, "
                 "against the average seat. " + SHARED_FIRST)
    for p in data.players:
        rows = []
        for level in LEVELS:
            cfg = data.levels.get((p, level))
            if cfg is None:
                continue
            s = seats[(p, level)]
            units = "; ".join(f"{u} {pct(row.win_rate)} {interval_pct(row.ci_low, row.ci_high)}"
                              for u, row in s["units"].iterrows())
            first = (f"{pct(s['first_rate'])} ({_pp(s['first_excess'])} pp {_iv_pp(s['first_excess_low'], s['first_excess_high'])})"
                     if findings.starts_vary(cfg) else f"seat {next(iter(s['start_counts']))} always starts")
            rows.append([level, data.strategy[level], count(cfg.deals), units, _balance(s), first, pval(s["equal_p"])])
        b.append(_h(3, f"{p} players"))
        b.append(Table(["level", "everyone plays", "deals", "win rate by seat [95%]", "balance figure",
                        "first player (v average seat)", "seats equal p"], rows))


def _layout_strong(r: Report, data: StudyData, family: Family) -> None:
    """The strong level: at each player count, the apprentice (at volume) against the search on
    the deals both played, seat question by seat question, and the level the verdict rests on."""
    qs = [q for q in findings.ordered(family.questions) if q.section == "agreement"]
    if not qs:
        return
    a = strong_counts(data, family)
    b = _section(r, "Strong play: the apprentice and its check", "strong",
                 "The strong level is the apprentice, the policy learned from the search (docs/apprentice.md), which "
                 "plays at about a heuristic's speed and so more deals than the heuristic level (four times as many at the "
                 "standard budget; the seat table says how many). The search player is "
                 "its check: on the deals both played, each seat question under apprentice play minus under search "
                 "play (paired, one Holm over the family 'agreement'). A difference too large to be luck is a "
                 "disagreement: the apprentice does not play the game the search plays there, and the verdict then "
                 f"rests on the search's own deals. Primary strong-level questions settled: {a['settled']} of "
                 f"{a['questions']}" + (f" (open: {'; '.join(a['open'])})" if a["open"] else "") + ".")
    rows = [[str(q.players), q.subject, _pp(q.after), _pp(q.before), f"{_pp(q.estimate)} {_iv_pp(q.low, q.high)}",
             pval(q.p_holm), q.verdict(), LEVEL_WORDS[a["rests_on"][q.players]]] for q in qs]
    b.append(Table(["players", "question", "apprentice (pp)", "search (pp)", "apprentice - search [95%]",
                    "adjusted p", "outcome", "verdict rests on"], rows))


def _balance(s: dict) -> str:
    return f"{s['balance']:.3f} [{num(s['balance_low'], 3)}, {num(s['balance_high'], 3)}]"


def _paired(x) -> str:
    t = findings._test(x, values_in=None)  # points: unbounded
    if t[6]:
        return "no change"
    est, low, high = t[0], t[1], t[2]
    return f"{est:+.2f} [{low:+.2f}, {high:+.2f}]"


def _layout_rules(r: Report, data: StudyData, rows: list[RuleRow]) -> None:
    b = _section(r, "Rule options", "rules",
                 "Each option played on the same deals as the default rules, at the same level, everyone the same "
                 "strategy; every number is on those deals, and every change is the option's minus the default's "
                 "(signed, as in the findings). Balance figure change: positive is fairer; the other columns: the "
                 "family's test of each change (95% intervals; * an effect, tested with the rest of its family); "
                 "mean score and winning margin describe the score distribution (points, not tested).")
    skipped = data.manifest.get("skipped_options") or []
    if skipped:
        b.append(_p("Not varied by the study: " + "; ".join(skipped) + "."))
    for line in data.manifest.get("not_played", ()):
        b.append(_p(line + "."))
    for p in data.players:
        table = []
        for x in [x for x in rows if x.players == p]:
            base, cfg = data.levels[(p, x.level)], data.rules[(p, x.level, x.option)]
            ia, ib = analysis.common_deals(base, cfg)
            by = {q.measure + ("" if q.measure != "win rate" else q.subject): q for q in x.questions}

            def cell(measure):
                q = by.get(measure)
                if q is None:
                    return "n/a"
                if not x.changed or q.outcome == "unchanged":
                    return "no change"
                return q.cell() + (" *" if q.outcome == "finding" else "")

            seat_cells = "; ".join(f"{q.subject.split(': ', 1)[1]} {q.cell()}" + (" *" if q.outcome == "finding" else "")
                                   for q in x.questions if q.measure == "win rate" and q.outcome != "unchanged")
            first = (cell("first player") if findings.starts_vary(base) or findings.starts_vary(cfg)
                     else "the first seat is fixed")
            table.append([x.level, x.option, count(x.deals), f"{_balance(x.before)} → {_balance(x.after)}", _gain(x),
                          seat_cells or "no change", first, cell("draw rate"), cell("decisiveness"), cell("length"),
                          _paired(mean_score_per_deal(cfg)[ib] - mean_score_per_deal(base)[ia]),
                          _paired(margin_per_deal(cfg)[ib] - margin_per_deal(base)[ia])])
        if table:
            b.append(_h(3, f"{p} players"))
            b.append(Table(["level", "option", "deals", "balance figure: default → option", "balance gained, pp",
                            "seat advantage change, pp", "first-player advantage change", "draw rate change",
                            "decisiveness change", "length change", "mean score change", "winning margin change"],
                           table))
    b.append(_p("* an effect (too large to be luck, tested with the rest of its family: adjusted p < 0.05). "
                "pp: percentage points; dec.: decisions."))


def _layout_landscape(r: Report, data: StudyData, family: Family) -> None:
    b = _section(r, "Strategy landscape", "landscape",
                 "A duplicate tournament of every built-in heuristic (each alone among copies of each other one, "
                 "in every seat, on the same deals), and the search player against each heuristic the same way, "
                 "stopped early once the answer was clear (--until-decided). A strategy's win rate is over every "
                 "seat-game it played in these tournaments, against whichever opponents it met there (the search "
                 "player met only the heuristics, in tournaments of its own), so win rates do not rank the "
                 "strategies: who beats whom is the pairwise table, each pair compared on the deals where the two "
                 "met.")
    for p in sorted(data.landscape):
        cfg = data.landscape[p]
        st = analysis.strategy_table(cfg).sort_values("win_rate", ascending=False)
        ratings, _ = analysis.fit_ratings(cfg, analysis.RATING_SAMPLE)
        rows = []
        for name, row in st.iterrows():
            if not row.player:
                continue
            rt = ratings.loc[name] if name in ratings.index else None
            rows.append([name, count(row.seat_games), pct(row.win_rate), interval_pct(row.ci_low, row.ci_high),
                         f"{rt.mu:.2f} ± {rt.sigma:.2f}" if rt is not None else "n/a"])
        b.append(_h(3, f"{p} players"))
        b.append(Table(["strategy", "seat-games", "win rate", "95% interval", "rating (openskill μ ± σ)"], rows))
        qs = sorted([q for q in family.questions if q.section == "strategies" and q.players == p],
                    key=lambda q: -abs(q.estimate))
        prow, marks = [], []
        for q in qs:
            a, bb = q.pair if q.estimate >= 0 else q.pair[::-1]
            est, low, high = (q.estimate, q.low, q.high) if q.estimate >= 0 else (-q.estimate, -q.high, -q.low)
            prow.append([f"{a} v {bb}", count(q.deals), f"{100 * est:+.1f}", _iv_pp(low, high),
                         "anytime-valid" if q.anytime else "t", findings._p(q.p_holm).lstrip("= "), q.verdict()])
            marks.append(q.outcome == "finding")
        b.append(Table(["pair (stronger first)", "deals", "win-rate difference (pp)", "95% interval", "interval",
                        "adjusted p", "outcome"], prow, marks, details=len(prow) > 15))
        reading = _strongest(data, family, p)
        if reading:
            b.append(_ul(reading))


def _layout_players(r: Report, data: StudyData, family: Family, seats: dict) -> None:
    b = _section(r, "Player counts side by side", "players",
                 "The same measures at each player count (each from its own deals, so compare the intervals).")
    rows = []
    for p in data.players:
        for level in LEVELS:
            cfg = data.levels.get((p, level))
            if cfg is None:
                continue
            s = seats[(p, level)]
            sh = analysis.shape_analysis(cfg)
            dec = sh.get("decisiveness")
            rows.append([str(p), level, _balance(s),
                         (f"{_pp(s['first_excess'])} {_iv_pp(s['first_excess_low'], s['first_excess_high'])}"
                          if findings.starts_vary(cfg) else f"seat {next(iter(s['start_counts']))} always starts"),
                         f"{pct(sh['draw_rate'])} {interval_pct(sh['draw_low'], sh['draw_high'])}",
                         num(sh["length_mean"], 1),
                         (f"{pct(dec['rate'])} {interval_pct(dec['low'], dec['high'])}" if dec else "not recorded")])
    b.append(Table(["players", "level", "balance figure", "first player v average (pp)", "draw rate",
                    "mean length (decisions)", "leader at two thirds wins"], rows))
    reading = [line for p in data.players for line in _strongest(data, family, p) if "skill matters" in line
               or "search player" in line]
    if reading:
        b.append(_ul(reading))


def _layout_stages(r: Report, data: StudyData) -> None:
    b = _section(r, "Stages: how to regenerate each number", "stages",
                 "Each stage is an ordinary tourney command; run it alone (it writes the same games) and "
                 "`tourney report DIR` shows its dataset in full. The study's manifest, _study.json, lists them too.")
    rows = [[st["id"], count(st["deals"]), st["status"], st["command"]] for st in data.manifest.get("stages", [])]
    b.append(Table(["stage", "deals (cap, if sequential)", "status", "command"], rows, details=len(rows) > 12))


def _layout_methods(r: Report) -> None:
    r.blocks.append(_h(2, "Methods", "methods"))
    r.blocks.append(_ul([
        "Every question is a mean of per-deal values (a deal: seed and game index, the same in every stage); "
        "rule options are compared with the default rules on the same deals (paired), option minus default.",
        "Seat advantage: each seat's win rate minus the average seat's, per deal (two seats or two teams: the first "
        "minus the second). First player: the first player's win minus the average seat's, per deal.",
        "Strategies: per deal, each strategy's win rate over the games where both sat; the search player's pairs "
        "come from sequential tournaments and carry that sequence's anytime-valid interval and p-value.",
        "The design, fixed in the code before any game is played: " + "; ".join(
            f"{i}. {name}: {what}" for i, (name, what) in enumerate(findings.FAMILIES.items(), 1))
        + ". One Holm adjustment per family (family-wise error 5% in each); a pair with random, a length change "
          "the same on every deal (a consequence of the rules) and a measure an option never changed are not tested.",
        f"Outcomes: an effect (unfair) when the Holm-adjusted p is below 0.05; significant but negligible when, "
        f"besides, the family-level interval (Bonferroni, 1 - 0.05/m) lies inside ±{100 * findings.NEGLIGIBLE_PP:g} pp "
        f"(length: ±{100 * findings.LENGTH_MARGIN:g}% of the baseline); fair or equivalent when two one-sided tests "
        f"at 0.05/m show the effect within ±{100 * findings.FAIR_PP:g} pp (Lakens 2018; the bound X of 'fair within "
        "±X pp' is the larger end of the 1 - 2·0.05/m interval); not settled otherwise, with the deals at which "
        f"either test would succeed with 80% power for every effect within {intervals.SETTLE_WINDOW:g} standard errors "
        "of the estimate "
        f"(rounded up to two significant figures; beyond {findings.SETTLE_CAP_OTHERWISE:,} more deals, "
        f"{findings.SETTLE_CAP['search']:,} at the search level, 'more than': this budget cannot settle it).",
        "Balance figure and its change between rule options: on the deals both played (see docs/analysis.md for "
        "its interval); ratings: openskill Plackett-Luce on a seeded sample of games.",
        "Intervals of win rates and of their differences: score intervals (Wilson's for a rate, Tango's for a "
        "paired difference) with a continuity correction of 0.1 deal, never narrower toward the ends of the "
        "range than the exact one-sided (Clopper-Pearson) bound: coverage at least 93% at every n >= 30 and "
        "every rate, measured exactly (docs/analysis.md).",
        *dict.fromkeys(r.methods),
    ]))


# ----------------------------------------------------------------------------- outputs
def summary_text(data: StudyData, family: Family, out: Path, report: Report, limit: int = 8) -> str:
    """The verdict per player count, then the primary family's effects, in a few lines."""
    lines = [f"{data.title}: {len(family.findings())} findings among {family.tested()} questions "
             f"(one Holm per family, 5% each); {len(family.equivalent())} fair or equivalent, "
             f"{len(family.negligible())} negligible, {len(family.not_settled())} not settled."]
    lines += ["  " + line for line in report.terminal]
    a = adaptive_counts(data, family)
    if a is not None:
        lines.append(f"  Adaptive stage: primary search-level questions settled after the first pass {a['settled_first_pass']} "
                     f"of {a['questions']}, after it {a['settled']} of {a['questions']} "
                     f"({count(sum(a['deals_played'].values()))} more search deals)"
                     + (f"; still open: {'; '.join(a['open'])}" if a["open"] else "") + ".")
    strong = strong_counts(data, family)
    if strong is not None:
        rests = "; ".join(f"{p} players: {lv}" for p, lv in sorted(strong["rests_on"].items()))
        lines.append(f"  Strong play: primary questions settled {strong['settled']} of {strong['questions']} "
                     f"(the level each player count rests on: {rests}).")
    primary = family.of("finding", "primary")
    for q in primary[:limit]:
        lines.append(f"  - {q.verdict()}: {q.sentence()}")
    if len(primary) > limit:
        lines.append(f"  ... and {len(primary) - limit} more in the report")
    lines.append(f"report: {Path(out) / 'report.html'} (and report.md); stages and commands: {Path(out) / '_study.json'}")
    return "\n".join(lines)


@renders(STUDY)
def write_report(out: Path, manifest: dict) -> str:
    """Analyse a study whose stages are all played (the ``write_report`` that
    :func:`tourney_sim.simulate.study.run_study` is given): findings.json, report.html and
    report.md in ``out``; returns the findings in words."""
    from tourney_sim.simulate.jobdir import write_json

    data = load_study(out, manifest)
    family = questions(data)
    found = compensation(data)
    report = build(data, family, found)
    write(report, Path(out) / "report.html", "html")
    write(report, Path(out) / "report.md", "md", figures=Path(out) / "report-figures")
    write_json(Path(out) / "findings.json", findings_json(data, family, found))
    return summary_text(data, family, out, report)
