"""A study's data, questions and report (see :mod:`tourney_sim.simulate.study` for the stages and
:mod:`tourney_sim.reports.findings` for the statistics).

:class:`StudyData` holds one loaded configuration per stage (the landscape's tournaments merged
into one per player count); the tests build it from synthetic configurations with planted
effects, the study from its directory. The report is a function of the data alone (no clock,
seeded bootstrap and rating samples), so a resumed study writes the same report.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path


from . import analysis, findings
from .findings import Family, Question
from .load import Config, load
from .render import Report, Table, _h, _p, _ul, count, interval_pct, num, pct, pval, write

LEVEL_WORDS = {"random": "random play", "heuristic": "heuristic play", "search": "search play"}


@dataclass
class StudyData:
    game: str
    title: str
    strategy: dict  # level -> the strategy everyone plays at that level
    levels: dict = field(default_factory=dict)  # (players, level) -> Config
    rules: dict = field(default_factory=dict)  # (players, level, "key=value") -> Config
    landscape: dict = field(default_factory=dict)  # players -> Config (every tournament merged)
    anytime_pairs: dict = field(default_factory=dict)  # players -> {frozenset({a, b})}
    manifest: dict = field(default_factory=dict)
    out: Path | None = None

    @property
    def players(self) -> list[int]:
        return sorted({p for p, _ in self.levels} | set(self.landscape))


def context(data: StudyData, players: int, level: str) -> str:
    name = data.strategy.get(level, level)
    return f"{players} players, everyone {name}" + ("" if name == level else f" ({LEVEL_WORDS[level]})")


def load_study(out: Path, manifest: dict) -> StudyData:
    from tourney_sim.simulate.games import get_game
    game = manifest["game"]
    data = StudyData(game, get_game(game).title, dict(manifest["level_strategies"]), manifest=manifest, out=out)
    landscape_dirs: dict[int, list[Path]] = {}
    for st in manifest["stages"]:
        where = Path(out) / st["dir"]
        p = int(st["players"])
        if st["section"] == "levels":
            data.levels[(p, st["level"])] = load([where])[0]
        elif st["section"] == "rules":
            data.rules[(p, st["level"], st["option"])] = load([where])[0]
        else:
            landscape_dirs.setdefault(p, []).append(where)
            if st["sequential"]:
                data.anytime_pairs.setdefault(p, set()).add(frozenset(st["strategies"]))
    for p, dirs in landscape_dirs.items():
        configs = load(dirs)
        data.landscape[p] = configs[0]
    return data


def questions(data: StudyData) -> Family:
    qs: list[Question] = []
    for (p, level), cfg in sorted(data.levels.items(), key=lambda kv: (kv[0][0], findings_level(kv[0][1]))):
        qs += findings.seat_questions(cfg, context(data, p, level), level)
    for (p, level, option), cfg in sorted(data.rules.items(), key=lambda kv: (kv[0][0], findings_level(kv[0][1]), kv[0][2])):
        qs += findings.rule_questions(data.levels[(p, level)], cfg, context(data, p, level), level, option)
    for p, cfg in sorted(data.landscape.items()):
        pairs = {frozenset(_label(cfg, n) for n in pair) for pair in data.anytime_pairs.get(p, ())}
        qs += findings.strategy_questions(cfg, f"{p} players", pairs)
    return Family(findings.settle(qs))


def findings_level(level: str) -> int:
    return ("random", "heuristic", "search").index(level) if level in ("random", "heuristic", "search") else 9


def _label(cfg: Config, setting: str) -> str:
    """The name a strategy setting has in the datasets (its label)."""
    if setting in cfg.names:
        return setting
    base = setting.split(":")[0].split("@")[0]
    matches = [n for n in cfg.names if n.split(":")[0] == base]
    return matches[0] if len(matches) == 1 else setting


# ----------------------------------------------------------------------------- words
def _pp(x) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:+.1f}"


def _iv_pp(low, high) -> str:
    """An interval of a rate difference, in pp (it cannot leave [-100, +100])."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return "n/a"
    return f"[{100 * max(low, -1.0):+.1f}, {100 * min(high, 1.0):+.1f}]"


def unsettled_line(q: Question) -> str:
    if q.more_deals is None:
        more = "no difference observed at all"
    elif q.more_deals > 100 * max(q.deals, 1):
        more = f"more than {count(100 * q.deals)} more deals (if real, the effect is tiny)"
    else:
        more = f"about {count(q.more_deals)} more deals would settle it at the observed effect"
    return f"{q.context}: {q.phrase()}, adjusted p {findings._p(q.p_holm)}; {more}"


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


# ----------------------------------------------------------------------------- the report
def build(data: StudyData, family: Family) -> Report:
    r = Report(data.game, data.title, [], [], [], [], [])
    b = r.blocks
    m = data.manifest
    fs, unsettled, negligible, unchanged = (family.findings(), family.not_settled(), family.negligible(),
                                           family.unchanged())
    b.append(_h(1, f"{data.title}: balance study" + (f" ({m['budget']} budget)" if m.get("budget") else "")))
    games = sum(c.tables for c in [*data.levels.values(), *data.rules.values(), *data.landscape.values()])
    levels = ", ".join(f"{lv} ({data.strategy[lv]})" for lv in m.get("levels", data.strategy))
    b.append(_p(f"Command: {m.get('command') or '(the Python API: tourney_sim.study)'}", "key"))
    b.append(_p(f"{count(games)} games in {len(m.get('stages', []))} stages, every stage on the same deals "
                f"(seed {m.get('seed')}); players: {', '.join(map(str, data.players))}; levels of play: "
                f"{levels}; rules v{m.get('rules_version')}.", "lead"))
    b.append(_h(2, "Findings", "findings"))
    b.append(_p(f"{len(fs)} of {family.tested()} questions are settled as effects: Holm-adjusted p below "
                f"0.05 over every question of the study at once (a family-wise 5% error rate). In order: seats, "
                f"rule options, strategies; within each, the largest first. Intervals are 95% (anytime-valid "
                f"where a sequential tournament stopped early).", "key"))
    b.append(_ul([q.sentence() for q in fs]) if fs else _p("No effect is established at the study's level."))
    reading = [line for p in data.players for line in _strongest(data, family, p)]
    if reading:
        b.append(_h(3, "What the strategy landscape says"))
        b.append(_ul(reading))
    b.append(_h(2, "Not settled", "unsettled"))
    if unsettled:
        b.append(_p(f"{len(unsettled)} questions are neither an effect at the study's family-wise level "
                    f"(adjusted p of 0.05 or more) nor negligible: each with the deals that would settle it if "
                    f"the effect is as observed (the interval at the family's Bonferroni level would then "
                    f"exclude 0)."))
        b.append(_ul([unsettled_line(q) for q in unsettled]))
    else:
        b.append(_p("Every question is settled: an effect, or negligible."))
    if negligible:
        b.append(_p(f"Negligible ({len(negligible)}): the 95% interval lies within ±{100 * findings.MARGIN_PP:g} pp "
                    f"(game length: ±{100 * findings.LENGTH_MARGIN:g}% of the baseline): "
                    + "; ".join(f"{q.context} — {q.subject}" for q in negligible) + "."))
    if unchanged:
        b.append(_p("Rule options that changed no game at all at that level: "
                    + "; ".join(f"{q.context} — {q.subject}" for q in unchanged) + "."))
    _layout_seats(r, data)
    if data.rules:
        _layout_rules(r, data, family)
    _layout_landscape(r, data, family)
    if len(data.players) > 1:
        _layout_players(r, data, family)
    _layout_stages(r, data)
    _layout_methods(r)
    return r


def _section(r: Report, title: str, anchor: str, text: str) -> list:
    """Open a section of the report (heading and its explanation); the blocks to add to."""
    r.blocks.append(_h(2, title, anchor))
    r.blocks.append(_p(text))
    return r.blocks


def _layout_seats(r: Report, data: StudyData) -> None:
    b = _section(r, "Seat and first-player advantage", "seats",
                 "Everyone plays the same strategy, so any difference between seats is the game's. Balance figure: "
                 "1 minus the largest gap between seat win rates (teams in team games), with a bootstrap interval; "
                 "seats equal: Hotelling's test that every seat wins equally often; first player: the seat that "
                 "made the first decision, against the average seat.")
    for p in data.players:
        rows = []
        for level in ("random", "heuristic", "search"):
            cfg = data.levels.get((p, level))
            if cfg is None:
                continue
            s = analysis.seat_analysis(cfg)
            units = "; ".join(f"{u} {pct(row.win_rate)} {interval_pct(row.ci_low, row.ci_high)}"
                              for u, row in s["units"].iterrows())
            first = (f"{pct(s['first_rate'])} ({_pp(s['first_excess'])} pp {_iv_pp(s['first_excess_low'], s['first_excess_high'])})"
                     if findings.starts_vary(cfg) else f"seat {next(iter(s['start_counts']))} always starts")
            rows.append([level, data.strategy[level], count(cfg.deals), units,
                         f"{s['balance']:.3f} [{num(s['balance_low'], 3)}, {num(s['balance_high'], 3)}]",
                         first, pval(s["equal_p"])])
        b.append(_h(3, f"{p} players"))
        b.append(Table(["level", "everyone plays", "deals", "win rate by seat [95%]", "balance figure",
                        "first player (v average seat)", "seats equal p"], rows))


def _paired(x) -> str:
    t = findings._test(x)
    if t[6]:
        return "unchanged"
    est, low, high = t[0], t[1], t[2]
    return f"{est:+.2f} [{low:+.2f}, {high:+.2f}]"


def _layout_rules(r: Report, data: StudyData, family: Family) -> None:
    b = _section(r, "Rule options", "rules",
                 "Each option played on the same deals as the default rules, at the same level, everyone the same "
                 "strategy; every change is the option's minus the default's on those deals (paired). Balance "
                 "change: positive is fairer (paired block bootstrap); the other columns are paired t intervals; "
                 "mean score and winning margin describe the score distribution (points, not tested in the "
                 "family).")
    skipped = data.manifest.get("skipped_options") or []
    if skipped:
        b.append(_p("Not varied by the study: " + "; ".join(skipped) + "."))
    for p in data.players:
        rows = []
        for (pp_, level, option), cfg in sorted(data.rules.items(), key=lambda kv: (findings_level(kv[0][1]), kv[0][2])):
            if pp_ != p:
                continue
            base = data.levels[(p, level)]
            seats = {id(base): analysis.seat_analysis(base), id(cfg): analysis.seat_analysis(cfg)}
            group = analysis.compare_variants([base, cfg], seats)[0]
            cmp = group["comparisons"][0]
            before, after = (v["balance"] for v in group["variants"])
            by = {q.measure + ("" if q.measure != "win rate" else q.subject): q for q in family.questions
                  if q.section == "rules" and q.players == p and q.level == level and q.option == option}

            def cell(measure):
                q = by.get(measure)
                if q is None:
                    return "n/a"
                if q.outcome == "unchanged":
                    return "unchanged"
                unit = "" if q.unit == "pp" else " dec."
                return f"{q.number(q.estimate)}{unit} {q.interval()}" + (" *" if q.outcome == "finding" else "")
            ia, ib = analysis.common_deals(base, cfg)
            bal = (f"{cmp['balance_diff']:+.3f} [{cmp['balance_diff_low']:+.3f}, {cmp['balance_diff_high']:+.3f}]"
                   if "balance_diff" in cmp else "n/a")
            first = (cell("first player") if findings.starts_vary(base) or findings.starts_vary(cfg)
                     else "the first seat is fixed")
            rows.append([level, option, count(len(ia)), f"{before:.3f} → {after:.3f}", bal, first, cell("draw rate"),
                         cell("decisiveness"), cell("length"),
                         _paired(findings.mean_score_per_deal(cfg)[ib] - findings.mean_score_per_deal(base)[ia]),
                         _paired(findings.margin_per_deal(cfg)[ib] - findings.margin_per_deal(base)[ia])])
            unit_rows = [q for q in by.values() if q.measure == "win rate"]
            if any(q.outcome == "finding" for q in unit_rows):
                rows[-1][4] += "; " + ", ".join(f"{q.subject.split(': ', 1)[1]} {q.number(q.estimate)}"
                                                for q in unit_rows if q.outcome == "finding")
        if rows:
            b.append(_h(3, f"{p} players"))
            b.append(Table(["level", "option", "common deals", "balance figure: default → option",
                            "balance change (seat changes found)",
                            "first-player advantage change", "draw rate change", "decisiveness change",
                            "length change", "mean score change", "winning margin change"], rows))
    b.append(_p("* a finding (Holm-adjusted p < 0.05 over the whole study). pp: percentage points; dec.: decisions."))


def _layout_landscape(r: Report, data: StudyData, family: Family) -> None:
    b = _section(r, "Strategy landscape", "landscape",
                 "A duplicate tournament of every built-in heuristic (each alone among copies of each other one, "
                 "in every seat, on the same deals), and the search player against each heuristic the same way, "
                 "stopped early once the answer was clear (--until-decided). Win rates are over every seat-game "
                 "of the merged tournaments; the pairwise differences compare two strategies on the deals where "
                 "they met.")
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
                         "anytime-valid" if q.anytime else "t", findings._p(q.p_holm).lstrip("= "), q.outcome])
            marks.append(q.outcome == "finding")
        b.append(Table(["pair (stronger first)", "deals", "win-rate difference (pp)", "95% interval", "interval",
                        "adjusted p", "outcome"], prow, marks, details=len(prow) > 15))


def _layout_players(r: Report, data: StudyData, family: Family) -> None:
    b = _section(r, "Player counts side by side", "players",
                 "The same measures at each player count (each from its own deals, so compare the intervals).")
    rows = []
    for p in data.players:
        for level in ("random", "heuristic", "search"):
            cfg = data.levels.get((p, level))
            if cfg is None:
                continue
            s = analysis.seat_analysis(cfg)
            sh = analysis.shape_analysis(cfg)
            dec = sh.get("decisiveness")
            rows.append([str(p), level, f"{s['balance']:.3f} [{num(s['balance_low'], 3)}, {num(s['balance_high'], 3)}]",
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
        "Every question is a mean of per-deal values (a deal: seed and game index, the same in every stage), "
        "with a one-sample t interval and p-value (scipy.stats.ttest_1samp); rule options are compared with the "
        "default rules on the same deals (paired).",
        "Seat advantage: each seat's win rate minus the average seat's, per deal (two seats or two teams: the first "
        "minus the second). First player: the first player's win minus the average seat's, per deal.",
        "Strategies: per deal, each strategy's win rate over the games where both sat; the search player's pairs "
        "come from sequential tournaments (asymptotic confidence sequences, Waudby-Smith et al. 2021) and carry "
        "that sequence's anytime-valid interval and p-value, valid however early the tournament stopped.",
        "One family: Holm's step-down adjustment over every question of the study at once (family-wise error 5%). "
        f"Negligible: the 95% interval inside ±{100 * findings.MARGIN_PP:g} pp (length: ±{100 * findings.LENGTH_MARGIN:g}% "
        "of the baseline). Not settled: the deals at which the interval at the family's Bonferroni level would "
        "exclude 0 if the effect is as observed: (z · sd / effect)² minus the deals played.",
        "Balance figure and its change: percentile bootstrap over blocks of deals (scipy.stats.bootstrap); "
        "ratings: openskill Plackett-Luce on a seeded sample of games.",
    ]))


# ----------------------------------------------------------------------------- outputs
def findings_json(data: StudyData, family: Family) -> dict:
    m = data.manifest
    return {"format": "tourney-study-findings/1", "game": data.game, "budget": m.get("budget"),
            "seed": m.get("seed"), "players": data.players, "levels": m.get("levels"),
            "level_strategies": data.strategy, "questions_tested": family.tested(),
            "findings": len(family.findings()), "not_settled": len(family.not_settled()),
            "questions": [q.to_dict() for q in family.questions]}


def summary_text(data: StudyData, family: Family, out: Path, limit: int = 12) -> str:
    fs = family.findings()
    lines = [f"{data.title}: {len(fs)} findings among {family.tested()} questions (Holm, family-wise 5%); "
             f"{len(family.not_settled())} not settled, {len(family.negligible())} negligible."]
    for q in fs[:limit]:
        lines.append("  - " + q.sentence())
    if len(fs) > limit:
        lines.append(f"  ... and {len(fs) - limit} more in the report")
    for line in [x for p in data.players for x in _strongest(data, family, p)][:6]:
        lines.append("  * " + line)
    lines.append(f"report: {Path(out) / 'report.html'} (and report.md); stages and commands: {Path(out) / '_study.json'}")
    return "\n".join(lines)


def write_report(out: Path, manifest: dict) -> str:
    """Analyse a study whose stages are all played (the ``write_report`` that
    :func:`tourney_sim.simulate.study.run_study` is given): findings.json, report.html and
    report.md in ``out``; returns the findings in words."""
    from tourney_sim.simulate.jobdir import write_json

    data = load_study(out, manifest)
    family = questions(data)
    report = build(data, family)
    write(report, Path(out) / "report.html", "html")
    write(report, Path(out) / "report.md", "md")
    write_json(Path(out) / "findings.json", findings_json(data, family))
    return summary_text(data, family, out)
