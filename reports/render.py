"""The report: one game's datasets -> a self-contained HTML page (figures embedded as data URIs,
no script, no style sheet or font fetched: nothing external), Markdown, or a terminal summary.

The report is built once as a list of blocks (headings, paragraphs, tables, figures) and each
format renders the blocks; so HTML, Markdown and the text say the same.
"""
from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from tourney_sim.simulate import __version__
from tourney_sim.simulate.results import part_files
from tourney_sim.simulate.stats import analysis, components, sequential
from tourney_sim.simulate.stats.load import DECISIVENESS_COLUMN, Config, Source, discover, load_sources, options_label

from . import labels, plots

FORMATS = ("html", "md", "text")


# ----------------------------------------------------------------------------- number formats
def pct(x, digits: int = 1) -> str:
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:.{digits}f}%"


def pp(x, digits: int = 1, sign: bool = True) -> str:
    if x is None or not np.isfinite(x):
        return "n/a"
    return f"{100 * x:+.{digits}f}" if sign else f"{100 * x:.{digits}f}"


def interval_pct(low, high, digits: int = 1) -> str:
    if low is None or not (np.isfinite(low) and np.isfinite(high)):
        return "n/a"
    return f"[{100 * low:.{digits}f}, {100 * high:.{digits}f}]"


def interval_pp(low, high, digits: int = 1) -> str:
    if low is None or not (np.isfinite(low) and np.isfinite(high)):
        return "n/a"
    return f"[{100 * low:+.{digits}f}, {100 * high:+.{digits}f}]"


def num(x, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and not np.isfinite(x)):
        return "n/a"
    return f"{x:,.{digits}f}"


def pval(p) -> str:
    if p is None or not np.isfinite(p):
        return "n/a"
    if p < 0.001:
        return "<0.001"
    return f"{p:.3f}"


def p_is(p) -> str:
    """'p = 0.034' or 'p < 0.001' for sentences."""
    text = pval(p)
    return "p " + (text.replace("<", "< ") if text.startswith("<") else "= " + text)


def count(n) -> str:
    return f"{int(n):,}"


def made_when(manifests) -> str:
    """" from data made on DATE" (UTC, to the minute): the latest time the manifests record (a
    job's ``finished``, ``created`` and resumptions), so that a report depends on its data alone,
    never on the clock, and the same data make the same report; "" when they record none."""
    times = []
    for m in manifests:
        for when in [m.get("finished"), m.get("created")] + [x.get("at") for x in m.get("resumed") or []
                                                              if isinstance(x, dict)]:
            try:
                t = datetime.fromisoformat(str(when).replace("Z", "+00:00"))
            except ValueError:
                continue
            times.append(t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc))
    if not times:
        return ""
    return f" from data made on {max(times).astimezone(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}"


# ----------------------------------------------------------------------------- blocks
@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]
    marks: list[bool] = field(default_factory=list)  # highlighted rows (significant)
    details: bool = False  # long: folded in HTML


@dataclass
class Report:
    game: str
    title: str
    sources: list[Source]
    configs: list
    variants: list
    tournaments: list  # [(path, manifest)]
    warnings: list[str]
    blocks: list = field(default_factory=list)
    terminal: list[str] = field(default_factory=list)
    page_title: str = ""  # the HTML page's title (default: "<title>: strategies and balance")
    sequential: dict = field(default_factory=dict)  # tournament path -> its --until-decided test, replayed
    methods: list[str] = field(default_factory=list)  # how sections above were computed: said under Methods


def build(paths, rating_sample: int = analysis.RATING_SAMPLE) -> Report:
    """Load the datasets under ``paths``, compute everything, lay out the blocks."""
    sources = discover(paths)
    empty = [s for s in sources if not part_files(s.path) and s.manifest.get("status") != "complete"]
    if empty and len(empty) < len(sources):  # an interrupted tournament: report what finished
        sources = [s for s in sources if s not in empty]
    configs = load_sources(sources)
    reports, variants = analysis.analyse(configs, rating_sample)
    game = sources[0].manifest["game"]
    try:
        from tourney_sim.simulate.games import get_game
        title = get_game(game).title
    except Exception:  # a game this installation does not know: the report still works
        title = game
    tournaments = []
    seen = set()
    for s in sources:
        if s.tournament is not None and s.tournament_path.resolve() not in seen:
            seen.add(s.tournament_path.resolve())
            tournaments.append((s.tournament_path, s.tournament))
    replayed = _replay_sequential(sources, configs, reports, tournaments)
    r = Report(game, title, sources, reports, variants, tournaments, _warnings(sources, reports, tournaments),
               sequential=replayed)
    for path, seq in replayed.items():
        wrong = sequential.disagreements(seq, dict(tournaments)[path]["until_decided"])
        if wrong:
            r.warnings.append(f"{path}: the data no longer give the decisions recorded when its --until-decided "
                              f"test stopped ({'; '.join(wrong[:3])}{', ...' if len(wrong) > 3 else ''}): this "
                              f"report says what the data give now")
    if empty:
        r.warnings.append(f"{len(empty)} unfinished dataset(s) hold no finished part and are left out: "
                          + ", ".join(str(s.path) for s in empty[:3]) + (", ..." if len(empty) > 3 else ""))
    _layout(r)
    return r


def _replay_sequential(sources, configs, reports, tournaments) -> dict:
    """Each ``--until-decided`` tournament's test, replayed from its data with the level, bets and
    deals it stopped with (:func:`sequential.replay_tournament`); a strength test's pairs then get
    its figures and decisions in the pairwise table of each configuration that is the test's."""
    out = {}
    for path, tm in tournaments:
        record = tm.get("until_decided")
        if not record:
            continue
        seq, labels = sequential.replay_tournament(path, record, sources, configs)
        out[path] = seq
        if seq.question == "strength":
            for rep in reports:
                if id(rep.cfg) in labels:
                    rep.pairwise = seq.pairwise(rep.pairwise, labels[id(rep.cfg)])
    return out


def _warnings(sources: list[Source], reports, tournaments) -> list[str]:
    out = []
    seen: dict[tuple, Path] = {}
    for s in sources:
        m = s.manifest
        key = (json.dumps(m["options"], sort_keys=True), m["players"], m["rules_version"], m["seed"],
               tuple(m["seats"]), m["rotate"])
        if key in seen:
            out.append(f"{s.path} and {seen[key]} hold the same games (same rules, seed and seating): "
                       f"they are counted twice")
        else:
            seen[key] = s.path
    unfinished = [s for s in sources if s.manifest.get("status") not in (None, "complete")]
    if unfinished:
        names = ", ".join(str(s.path) for s in unfinished[:3]) + (", ..." if len(unfinished) > 3 else "")
        states = "/".join(sorted({str(s.manifest.get("status")) for s in unfinished}))
        out.append(f"{len(unfinished)} dataset(s) are {states} ({names}): only their finished parts are included")
    for path, t in tournaments:
        ud = t.get("until_decided")
        if ud:
            pairs = ("its pairs' intervals, p-values and decisions are the stopping rule's own (anytime-valid, "
                     "with the bets and level it stopped with); the other " if ud.get("question") == "strength"
                     else "the ")
            out.append(f"{path} stopped by sequential testing (--until-decided): {pairs}fixed-sample "
                       f"intervals and p-values of this report ignore the optional stopping; the "
                       f"anytime-valid results are in the section 'Sequential testing'")
    for rep in reports:
        if rep.seats["unbalanced_seating"]:
            out.append(f"{rep.cfg.label}: strategies do not sit in every seat equally often, so seat "
                       f"differences mix seat and strategy effects (use rotation or a tournament)")
    return out


# ----------------------------------------------------------------------------- layout
def _h(level, text, anchor=None):
    return ("h", level, text, anchor)


def _p(text, cls=None):
    return ("p", text, cls)


def _ul(items):
    return ("ul", items)


def _fig(png: bytes, alt: str):
    return ("img", png, alt)


def _figs(*figs):
    """Figures side by side."""
    return ("figs", list(figs))


def _config_heading(cfg: Config) -> str:
    return f"{cfg.label} — rules v{cfg.rules_version}: {options_label(cfg.options, cfg.game)}"


def _layout(r: Report) -> None:
    b = r.blocks
    t = r.terminal
    games = sum(rep.cfg.tables for rep in r.configs)
    deals = sum(rep.cfg.deals for rep in r.configs)
    b.append(_h(1, f"{r.title}: strategies and balance"))
    lead = (f"{count(games)} games ({count(deals)} distinct deals) from {len(r.sources)} dataset(s) of "
            f"{r.game}, in {len(r.configs)} configuration(s) of players and rules. Report made by "
            f"tourney {__version__}{made_when([s.manifest for s in r.sources] + [tm for _, tm in r.tournaments])}.")
    b.append(_p(lead, "lead"))
    t.append(f"{r.game}: {count(games)} games, {count(deals)} deals, {len(r.sources)} dataset(s)")
    for w in r.warnings:
        b.append(_p("Note: " + w, "warn"))
        t.append("note: " + w)
    b.append(_h(2, "How to read this report", "read"))
    b.append(_ul([
        "Win rate: the share of seat-games a strategy (or seat) finished first; a shared first "
        "place counts as a win for each. A strategy holding two seats of a game counts twice.",
        "Intervals are 95%. The statistical unit is the deal (seed and game index under the same "
        "rules): a duplicate tournament plays every deal in every seating, and the games of one "
        "deal are not independent, so they are never counted as if they were.",
        "Pairwise differences are paired: two strategies are compared on the same deals, so the "
        "luck of the cards cancels out. 'Significant' means a Holm-adjusted p-value below 0.05 "
        "over all pairs of the table (a family-wise 5% error rate).",
        "Balance figure: 1 minus the largest gap between seat win rates (teams in team games). "
        "1 is perfectly even; finite data always show some gap, so a fair game scores a little "
        "below 1 (the interval tells how little).",
    ]))
    for rep in r.configs:
        _layout_config(r, rep)
    if r.variants:
        _layout_variants(r)
    seqs = [(p, tm) for p, tm in r.tournaments if tm.get("until_decided")]
    if seqs:
        _layout_sequential(r, seqs)
    _layout_provenance(r)
    _layout_methods(r)


def _layout_config(r: Report, rep) -> None:
    b, t = r.blocks, r.terminal
    cfg = rep.cfg
    anchor = f"cfg{r.configs.index(rep)}"
    b.append(_h(2, _config_heading(cfg), anchor))
    t.append("")
    t.append(f"== {_config_heading(cfg)}: {count(cfg.tables)} games, {count(cfg.deals)} deals")
    b.append(_p(f"{count(cfg.tables)} games on {count(cfg.deals)} deals from {len(cfg.sources)} dataset(s); "
                f"{'teams: seats 0, 2 against 1, 3' if cfg.team_game else 'each for themselves'}; "
                f"{'lowest' if cfg.better == 'low' else 'highest'} score wins"
                + (f"; non-player seats: {', '.join(cfg.extra_seats)}" if cfg.extra_seats else "") + "."))

    # strategies
    b.append(_h(3, "Strategies"))
    st = rep.strategies.sort_values("win_rate", ascending=False)
    rows = []
    for name, row in st.iterrows():
        rt = rep.ratings.loc[name] if name in rep.ratings.index else None
        rows.append([name + ("" if row.player else " (non-player seat)"), count(row.seat_games), pct(row.win_rate),
                     interval_pct(row.ci_low, row.ci_high), num(row.mean_score), num(row.mean_rank),
                     f"{rt.mu:.2f} ± {rt.sigma:.2f}" if rt is not None else "n/a",
                     f"{rt.ordinal:.2f}" if rt is not None else "n/a"])
    b.append(Table(["strategy", "seat-games", "win rate", "95% interval", "mean score", "mean rank",
                    "rating μ ± σ", "μ − 3σ"], rows))
    info = rep.rating_info
    sample = (f"all {count(info['of'])} games" if info["games"] == info["of"] else
              f"a random sample of {count(info['games'])} of the {count(info['of'])} games (capped at "
              f"{count(info['sample_cap'])}, seed {info['seed']}, in random order)")
    b.append(_p(f"Rating: openskill's Plackett-Luce model fitted on the finishing orders of {sample}, "
                f"tau = 0; μ is the skill estimate, σ its uncertainty, μ − 3σ a conservative rank. "
                f"Win-rate intervals: Wilson, on the deal-clustered effective sample size."))
    b.append(_fig(plots.intervals(list(st.index), st.win_rate, st.ci_low, st.ci_high,
                                  "win rate by strategy (95% intervals)", "win rate"), "win rates by strategy"))
    for name, row in st.iterrows():
        t.append(f"  {name:<16} win {pct(row.win_rate):>6} {interval_pct(row.ci_low, row.ci_high):<16} "
                 f"score {num(row.mean_score):>8}  rank {num(row.mean_rank):>5}"
                 + (f"  rating {rep.ratings.loc[name].mu:6.2f} ± {rep.ratings.loc[name].sigma:.2f}"
                    if name in rep.ratings.index else ""))

    # pairwise
    b.append(_h(3, "Pairwise: who beats whom on the same deals"))
    pw = rep.pairwise
    if len(pw) == 0:
        b.append(_p("Only one strategy played: no pairs to compare."))
    else:
        rows, marks = [], []
        seq = pw.attrs.get("sequential")  # the pairs an --until-decided test read: its own figures
        for _, row in pw.iterrows():
            said = row.get("decision") if seq else None
            rows.append([f"{row.a} − {row.b}", count(row.games), count(row.deals), pp(row["diff"]),
                         interval_pp(row.ci_low, row.ci_high), pval(row.p_value), pval(row.p_holm),
                         (said + (" ★" if row.significant else "")) if said else ("yes ★" if row.significant else "no"),
                         interval_pp(row.unpaired_low, row.unpaired_high)])
            marks.append(bool(row.significant))
        header = ["a − b", "games met", "deals", "difference (pp)", "paired 95% interval", "p",
                  "Holm p", "significant", "unpaired interval"]
        if seq:
            header[4:8] = [f"anytime-valid interval ({100 * (1 - seq['alpha']):g}% for all together)", "anytime p",
                           "Bonferroni p", "decision (--until-decided)"]
        b.append(Table(header, rows, marks))
        if seq:
            b.append(_p(f"These pairs were played by --until-decided: each interval, p-value and decision is its "
                        f"stopping rule's own, read again from the data with the level ({seq['per_test_alpha']:.4g} "
                        f"each, α = {seq['alpha']:g} over {seq['questions']} question(s)), the bets and the deals it "
                        f"stopped with (betting confidence sequence); the unpaired interval is a fixed-sample 95% "
                        f"one, for contrast."))
        b.append(_p("Difference: a's win rate minus b's, in percentage points, over the games where both "
                    "sat at the table, averaged per deal; positive means a wins more often. The unpaired "
                    "interval is what the same games would give if every game had its own deal (for "
                    "contrast: duplicate deals make the paired interval narrower when the cards matter)."))
        for _, row in pw.iterrows():
            t.append(f"  {row.a} − {row.b}: {pp(row['diff'])} pp {interval_pp(row.ci_low, row.ci_high)} "
                     f"{p_is(row.p_value)}{' significant' if row.significant else ''}")

    # seats
    s = rep.seats
    b.append(_h(3, "Seats and first player"))
    rows = [[u, count(row.games), pct(row.win_rate), interval_pct(row.ci_low, row.ci_high)]
            for u, row in s["units"].iterrows()]
    b.append(Table(["seat" if not cfg.team_game else "team", "games", "win rate", "95% interval"], rows))
    kind = "teams" if cfg.team_game else "seats"
    verdict = (f"the {kind} differ (p < 0.05)" if np.isfinite(s["equal_p"]) and s["equal_p"] < 0.05
               else f"no evidence that the {kind} differ")
    b.append(_p(f"All {'teams' if cfg.team_game else 'seats'} equal? Hotelling's T² test over deals: "
                f"F = {num(s['equal_F'], 2)} ({s['equal_dof']} and {count(max(cfg.deals - s['equal_dof'], 0))} "
                f"degrees of freedom), {p_is(s['equal_p'])}: "
                f"{verdict}."))
    starts = s["start_counts"]
    who = (f"always seat {next(iter(starts))}" if len(starts) == 1 else
           "varying: " + ", ".join(f"seat {k} in {count(v)} games" for k, v in starts.items()))
    b.append(_p(f"First player (the seat that made the game's first decision; {who}): wins "
                f"{pct(s['first_rate'])} {interval_pct(s['first_low'], s['first_high'])} of games, against "
                f"{pct(s['average_rate'])} for the average {'team' if cfg.team_game else 'seat'}: "
                f"{pp(s['first_excess'])} pp {interval_pp(s['first_excess_low'], s['first_excess_high'])}, "
                f"{p_is(s['first_p'])}."))
    b.append(_p(f"Balance figure: {s['balance']:.3f} [{num(s['balance_low'], 3)}, {num(s['balance_high'], 3)}] "
                f"(largest gap {pp(s['largest_gap'], sign=False)} pp; simultaneous intervals of the seat gaps).",
                "key"))
    b.append(_fig(plots.intervals(list(s["units"].index), s["units"].win_rate, s["units"].ci_low,
                                  s["units"].ci_high, "win rate by seat (95% intervals)", "win rate",
                                  reference=s["average_rate"]), "win rates by seat"))
    t.append("  seats: " + ", ".join(f"{u} {pct(row.win_rate)}" for u, row in s["units"].iterrows())
             + f"; all equal {p_is(s['equal_p'])}; balance {s['balance']:.3f} "
               f"[{num(s['balance_low'], 3)}, {num(s['balance_high'], 3)}]; first player "
               f"{pp(s['first_excess'])} pp ({p_is(s['first_p'])})")

    # shape
    sh = rep.shape
    b.append(_h(3, "Game shape"))
    items = [
        f"Draws (shared first place): {pct(sh['draw_rate'], 2)} {interval_pct(sh['draw_low'], sh['draw_high'], 2)} "
        f"({count(sh['draws'])} games).",
        f"Margin of victory (winner over runner-up, in points): mean {num(sh['margin_mean'])}, median "
        f"{num(sh['margin']['p50'], 0)}, 5–95% range {num(sh['margin']['p5'], 0)}–{num(sh['margin']['p95'], 0)}.",
        f"Length in decisions: mean {num(sh['length_mean'], 1)}, median {num(sh['length']['p50'], 0)}, "
        f"5–95% range {num(sh['length']['p5'], 0)}–{num(sh['length']['p95'], 0)} "
        f"(shortest {sh['length_min']}, longest {sh['length_max']}).",
    ]
    d = sh["decisiveness"]
    if d is None:
        items.append("Decisiveness (how often the leader at two thirds of the game wins): not recorded for "
                     f"this game (its datasets have no {DECISIVENESS_COLUMN} column).")
        t.append("  decisiveness: not recorded for this game")
    else:
        items.append(f"Decisiveness: the leader at two thirds of the game wins {pct(d['rate'])} "
                     f"{interval_pct(d['low'], d['high'])} of the {count(d['games'])} games that had a leader "
                     f"({count(d['no_leader'])} had none).")
        t.append(f"  decisiveness: leader at two thirds wins {pct(d['rate'])}")
    b.append(_ul(items))
    t.append(f"  draws {pct(sh['draw_rate'], 2)}, margin mean {num(sh['margin_mean'])}, length mean "
             f"{num(sh['length_mean'], 1)} decisions")
    sc = sh["scores"]
    b.append(Table(["strategy", "mean score", "sd", "5%", "median", "95%"],
                   [[n, num(row["mean"]), num(row.sd), num(row.p5, 0), num(row.p50, 0), num(row.p95, 0)]
                    for n, row in sc.iterrows()]))
    series = {}
    flat_s = cfg.strat.reshape(-1)
    flat_v = cfg.score.reshape(-1)
    for j in analysis.present_ids(flat_s):
        series[cfg.names[j]] = flat_v[flat_s == j]
    shape_figs = [_fig(plots.distributions(series, "final score by strategy", "score"), "score distributions")]
    comp = analysis.competitor_columns(cfg)
    sco = cfg.score[:, comp].astype(np.int64)
    sco = -sco if cfg.better == "low" else sco
    top2 = np.partition(sco, len(comp) - 2, axis=1)[:, -2:]
    shape_figs.append(_fig(plots.distributions({"margin": top2[:, 1] - top2[:, 0]}, "margin of victory",
                                               "points"), "margin distribution"))
    if sh["length_min"] != sh["length_max"]:  # a fixed length needs no histogram
        shape_figs.append(_fig(plots.distributions({"decisions": cfg.decisions}, "game length", "decisions"),
                               "game length distribution"))
    b.append(_figs(*shape_figs))
    _layout_columns(r, rep)
    effects = components.component_effects(cfg)
    if effects is not None:
        layout_components(r, effects, 3)


def _layout_columns(r: Report, rep) -> None:
    """The game's own columns: per-game values as sentences; per-seat (or per-team) values in
    one table of means and one of rates (0/1 flags), rows by seat (team) and by strategy."""
    b, t = r.blocks, r.terminal
    cols = rep.columns
    if not cols:
        return
    cfg = rep.cfg
    b.append(_h(3, f"The game's own columns ({r.title})"))
    per_seat = [c for c in cols if c["name"] != "_points" and c["scope"] != "game"]
    teams_only = cfg.team_game and per_seat and all(c["scope"] == "team" for c in per_seat)

    def rows_of(c):
        by_seat = c["by_seat"]
        if teams_only:  # partners share the values: one row per team
            by_seat = by_seat.iloc[[0, 1]].copy()
            by_seat.index = ["team 0 (seats 0, 2)", "team 1 (seats 1, 3)"]
        by_strat = c["by_strategy"]
        by_strat = by_strat[[n not in cfg.extra_seats for n in by_strat.index]].copy()  # a seat row already
        by_strat.index = [f"strategy {n}" for n in by_strat.index]
        return by_seat, by_strat

    for kind, flag in (("means", False), ("rates", True)):
        group = [c for c in per_seat if c["flag"] == flag]
        if not group:
            continue
        labels: list[str] = []
        cells: dict[str, list[str]] = {}
        for c in group:
            by_seat, by_strat = rows_of(c)
            for frame in (by_seat, by_strat):
                for label, row in frame.iterrows():
                    if label not in cells:
                        labels.append(label)
                        cells[label] = []
                    value = (f"{pct(row.rate)} {interval_pct(row.ci_low, row.ci_high)}" if flag
                             else num(row["mean"]))
                    cells[label].append(value)
        unit = "team" if teams_only else "seat"
        b.append(_h(4, f"Rates per {unit}-game (share with value 1, 95% intervals)" if flag
                    else f"Means per {unit}-game"))
        b.append(Table([f"{unit} or strategy"] + [c["name"] for c in group],
                       [[label] + cells[label] for label in labels]))
        b.append(_ul([f"{c['name']}: {c['description']}" for c in group]))
        for c in group:
            _, by_strat = rows_of(c)
            t.append(f"  {c['name']} {'rate' if flag else 'mean'}: " + ", ".join(
                f"{i.removeprefix('strategy ')} {pct(row.rate) if flag else num(row['mean'])}"
                for i, row in by_strat.iterrows()))
    per_game = [c for c in cols if c["name"] != "_points" and c["scope"] == "game"]
    if per_game:
        b.append(_h(4, "Per game"))
        items = []
        for c in per_game:
            head = f"{c['name']} ({c['description']})"
            if c["flag"]:
                items.append(f"{head}: {pct(c['rate'], 2)} {interval_pct(c['low'], c['high'], 2)} of games "
                             f"({count(c['count'])}).")
                t.append(f"  {c['name']}: {pct(c['rate'], 2)} of games")
            else:
                items.append(f"{head}: mean {num(c['mean'])}, median {num(c['p50'], 0)}, 5–95% range "
                             f"{num(c['p5'], 0)}–{num(c['p95'], 0)}, largest {c['max']}.")
                t.append(f"  {c['name']}: mean {num(c['mean'])} per game (max {c['max']})")
        b.append(_ul(items))
    for c in cols:
        if c["name"] == "_points":
            b.append(_h(4, c["title"]))
            rows = [[name, num(v["per_game"]), pct(v["share"])] for name, v in c["points"].items()]
            b.append(Table(["column", f"points per {c['per']} and game", "share of all points"], rows))
            b.append(_p("Together these columns make up the whole score." if c["whole_score"] else
                        "These columns do not add up to the whole score in every game."))
            t.append("  points: " + ", ".join(f"{k} {pct(v['share'])}" for k, v in c["points"].items()))


FOREST_ROWS = 30  # the forest plot's largest effects (the table has every kind)


def layout_components(r: Report, e: components.ComponentEffects, level: int, where: str = "") -> None:
    """The "Components" section: each kind's effect on winning (:mod:`components`), ranked, in
    sentences, a table (with 17lands' familiar figures beside it) and a forest plot."""
    b, t = r.blocks, r.terminal
    unit = e.unit
    b.append(_h(level, "Components: what being dealt each kind is worth" + (f" ({where})" if where else "")))
    found = e.found()
    if found:
        b.append(_p(" ".join(e.sentence(k) + "." for k in found[:5])
                    + (f" ({len(found) - 5} more findings below.)" if len(found) > 5 else ""), "key"))
    elif e.method == components.TOO_FEW:
        b.append(_p(f"Too few deals to test any kind: {count(e.deals)} deals (at least {components.MIN_DEALS}, "
                    f"and more than the kinds, are needed); the effects below are estimates only, without "
                    f"intervals.", "key"))
    elif e.estimated():
        b.append(_p(f"No kind is shown to change a {unit}'s win rate (one "
                    f"{'Holm family' if e.method == components.NORMAL else 'family, tested by permutation,'} over "
                    f"{e.family_size} kinds).", "key"))
    t.append(f"  components ({where or unit}): " + ("; ".join(e.sentence(k) for k in found[:3]) if found
                                                    else "too few deals to test" if e.method == components.TOO_FEW
                                                    else "no kind shown to matter"))
    rows, marks = [], []
    for k in e.ranked():
        rows.append([k.kind, f"{pp(k.effect)} {interval_pp(k.low, k.high)}", interval_pp(k.adj_low, k.adj_high),
                     pval(k.p_holm), k.outcome, num(k.held), pct(k.dealt_share), pct(k.win_dealt), pp(k.iwd)])
        marks.append(k.outcome == "finding")
    if rows:
        b.append(Table(["kind", "effect (pp) [95%]", f"interval at the family's level ({e.family_size} kinds)",
                        "Holm p" if e.method == components.NORMAL else "adjusted p", "outcome",
                        f"held per {unit}-game", f"{unit}-games dealt it",
                        "win rate when dealt", "IWD (pp)"], rows, marks, details=len(rows) > 20))
    missing = e.not_estimated()
    if missing:
        why = {}
        for k in missing:
            why.setdefault(k.status, []).append(k.kind)
        text = {components.NEVER_DEALT: "never dealt", components.NO_VARIATION:
                f"dealt the same to every {unit} (no variation to learn from)",
                components.NOT_SEPARABLE: "always dealt together with other kinds (their effects cannot "
                                          "be told apart)" if e.method != components.TOO_FEW else
                "not told apart from the others on so few deals"}
        b.append(_ul([f"{text[s]}: {', '.join(names)}" for s, names in why.items()]))
    grouped = sorted({k.versus for k in e.estimated() if k.versus != "an average card"})
    against = (f" (a kind of a group that always adds up to the same count per {unit}, a hand of fixed size, in "
               f"place of the group's average: {', '.join(grouped)})" if grouped else "")
    b.append(_p(f"Effect: how much holding one more copy of the kind, in place of an average card{against}, changes a "
                f"{unit}'s win rate, in pp, over {count(e.rows)} {unit}-games on {count(e.deals)} deals. The "
                f"shuffle deals at random, so this is what the card itself does. "
                + (f"Not tested: fewer than {components.MIN_DEALS} deals. "
                   if e.method == components.TOO_FEW else
                   f"A finding when it is too large to be luck with all {e.family_size} kinds looked at together (at "
                   f"most a 5% chance of any false alarm among them) and not negligible; negligible when shown "
                   f"within ±1 pp; else not settled. ")
                + f"Beside it, the figures of 17lands' card ratings: the win rate of the {unit}-games dealt at least "
                f"one (their GIH WR) and its improvement over those dealt none (IWD), plain comparisons that "
                f"also carry what comes with the card. How it is estimated and tested: Methods."))
    r.methods.append(components_method(e))
    top = e.ranked()[:FOREST_ROWS] if e.method != components.TOO_FEW else []
    if top:
        more = f", the {FOREST_ROWS} largest" if len(e.ranked()) > FOREST_ROWS else ""
        b.append(_fig(plots.forest([k.kind for k in top], [100 * k.effect for k in top],
                                   [100 * k.low for k in top], [100 * k.high for k in top],
                                   [k.outcome for k in top], f"effect of holding one more (95%{more})",
                                   f"change in a {unit}'s win rate (pp)"), "component effects forest plot"))


def components_method(e) -> str:
    """How a "Components" section's effects were estimated and tested, for the Methods section."""
    unit = e.unit
    how = (f"Components ({count(e.deals)} deals): a linear probability regression of each {unit}'s win on its "
           f"dealt counts with {unit} fixed effects, standard errors clustered by deal; ")
    if e.method == components.NORMAL:
        return how + "normal intervals; one Holm adjustment over the kinds (family-wise error 5%)."
    if e.method == components.PERMUTATION:
        return how + (f"tested by permutation (the deals' results shuffled among the deals "
                      f"{components.PERMUTATIONS:,} times; exact at any number of deals), p-values and intervals "
                      f"from the shuffles' t statistics, the family-adjusted p Westfall and Young's step-down "
                      f"max-t (family-wise error 5%; used below {components.PERMUTATION_PER_KIND} deals per kind).")
    return how + f"not tested below {components.MIN_DEALS} deals."


def _layout_variants(r: Report) -> None:
    b, t = r.blocks, r.terminal
    b.append(_h(2, "Rule variants compared", "variants"))
    t.append("")
    t.append("== rule variants")
    for group in r.variants:
        b.append(_h(3, f"{group['players']} players (baseline: {group['baseline']})"))
        rows = []
        for v in group["variants"]:
            rows.append([v["label"], count(v["games"]), count(v["deals"]),
                         f"{v['balance']:.3f} [{num(v['balance_low'], 3)}, {num(v['balance_high'], 3)}]",
                         f"{pct(v['first_rate'])} {interval_pct(v['first_low'], v['first_high'])}",
                         pval(v["equal_p"])])
            t.append(f"  {v['label']}: balance {v['balance']:.3f} [{num(v['balance_low'], 3)}, "
                     f"{num(v['balance_high'], 3)}], first player {pct(v['first_rate'])}, seats equal {p_is(v['equal_p'])}")
        b.append(Table(["variant", "games", "deals", "balance figure", "first player win rate", "seats equal p"], rows))
        rows, marks = [], []
        for c in group["comparisons"]:
            if "balance_diff" not in c:
                rows.append([c["variant"], count(c["common_deals"]), "n/a", "n/a"])
                marks.append(False)
                continue
            sig = c["balance_diff_low"] > 0 or c["balance_diff_high"] < 0
            rows.append([c["variant"], count(c["common_deals"]),
                         f"{c['balance_diff']:+.3f} [{c['balance_diff_low']:+.3f}, {c['balance_diff_high']:+.3f}]",
                         f"{pp(c['first_diff'])} pp {interval_pp(c['first_diff_low'], c['first_diff_high'])}"])
            marks.append(sig)
            t.append(f"  {c['variant']} v baseline: balance {c['balance_diff']:+.3f} "
                     f"[{c['balance_diff_low']:+.3f}, {c['balance_diff_high']:+.3f}]"
                     + (" (significant)" if sig else ""))
        b.append(_p("Each variant against the baseline on the deals both played (paired): the change in "
                    "balance figure (positive = fairer than the baseline; a paired interval from the seat "
                    "gaps under both and their changes deal by deal) and in first-player advantage (paired "
                    "score interval over deals). Highlighted: the interval excludes 0."))
        b.append(Table(["variant", "common deals", "balance change [95%]", "first-player advantage change"],
                       rows, marks))
        unit_rows = []
        for c in group["comparisons"]:
            for u in c.get("units", []):
                unit_rows.append([c["variant"], u["unit"], pp(u["diff"]), interval_pp(u["low"], u["high"]),
                                  pval(u["p_value"])])
        if unit_rows:
            b.append(Table(["variant", "seat", "win-rate change (pp)", "paired 95% interval", "p"], unit_rows))
        v = group["variants"]
        b.append(_fig(plots.intervals([x["label"] for x in v], [x["balance"] for x in v],
                                      [x["balance_low"] for x in v], [x["balance_high"] for x in v],
                                      "balance figure by rule variant (95% intervals)", "balance (1 = even)"),
                      "balance by variant"))


def _layout_sequential(r: Report, seqs) -> None:
    b, t = r.blocks, r.terminal
    b.append(_h(2, "Sequential testing (--until-decided)", "sequential"))
    for path, tm in seqs:
        ud = tm["until_decided"]
        seq = r.sequential.get(path)
        results = sequential._clean(seq.results()) if seq is not None else ud["results"]  # the data's, replayed
        bets = seq.bets if seq is not None else {"alpha": ud["per_test_alpha"], "cap": ud["cap"]}
        why = {"decided": "every question was settled", "cap": "the game cap was reached before every "
               "question was settled", "interrupted": "it was interrupted"}.get(ud.get("stopped"), ud.get("stopped"))
        b.append(_p(f"{path}: stopped after {count(ud['deals'])} deals per seating (cap {count(ud['cap'])}) because "
                    f"{why}. Error rate α = {ud['alpha']} over all questions (Bonferroni: each at "
                    f"{ud['per_test_alpha']:.4g}), equivalence margin ±{ud['margin']}; {ud['method']}; bets tuned "
                    f"to {bets['alpha']:.4g} and {count(bets['cap'] or 0)} deals. Read again from the data with "
                    f"these, as the run read them: these intervals stay valid however early the run stopped.", "key"))
        rows = []
        strength = any(q.get("estimate") is not None for q in results)
        for q in results:
            if q.get("estimate") is not None:
                iv = f"{pp(q['estimate'])} pp {interval_pp(q['low'], q['high'])}"
            else:
                iv = "gap " + " v ".join(interval_pct(*q[k]) for k in ("gap_first", "gap_second") if k in q)
            rows.append([q["config"], q["question"], iv] + ([pval(q.get("p_value"))] if strength else []) + [q["text"]])
        together = f"anytime-valid interval ({100 * (1 - ud['alpha']):g}% for all together)"
        b.append(Table(["configuration", "question", together] + (["anytime p"] if strength else []) + ["conclusion"],
                       rows))
        t.append("")
        t.append(f"== sequential test: stopped after {count(ud['deals'])} deals ({ud.get('stopped')})")
        for q in results:
            t.append(f"  {q['text']}")


def _layout_provenance(r: Report) -> None:
    b = r.blocks
    b.append(_h(2, "Provenance", "provenance"))
    for path, tm in r.tournaments:
        b.append(_p(f"{tm.get('kind', 'tournament').capitalize()} {path}: {tm.get('game')}, "
                    f"{tm.get('players')} players, strategies {', '.join(tm.get('strategies', []))}, seed "
                    f"{tm.get('seed')}, up to {count(tm.get('games', 0))} deals per seating, "
                    f"{tm.get('seatings', '?')} seatings, status {tm.get('status')}, tourney "
                    f"{tm.get('tool_version')}, created {tm.get('created', '?')}. Command: {tm.get('command')}"))
    rows = []
    for s in r.sources:
        m = s.manifest
        command = str(m.get("command") or "")
        if s.tournament is not None and command == s.tournament.get("command"):
            command = "(the tournament's)"
        rows.append([str(s.path), f"{m['players']}", f"v{m['rules_version']}: {options_label(m['options'], m['game'])}",
                     str(m["seed"]), " ".join(m["seats"]), "yes" if m["rotate"] else "no",
                     count(m.get("games_done", m.get("games", 0))), str(m.get("status")),
                     str(m.get("tool_version")), str(m.get("created", "")), command])
    b.append(Table(["dataset", "players", "rules", "seed", "seats (before rotation)", "rotate", "games",
                    "status", "tourney", "created", "command"], rows, details=len(rows) > 12))
    named = labels.named_settings(s.manifest for s in r.sources)
    if named:  # settings read from files go by short names everywhere above: their values, once
        b.append(Table(["setting", "values that differ from the defaults"], [list(x) for x in named.items()]))


def _layout_methods(r: Report) -> None:
    b = r.blocks
    b.append(_h(2, "Methods", "methods"))
    b.append(_ul([
        "Data: the Parquet datasets alone (columns read with pyarrow); games are grouped into "
        "configurations (players, rules version, rule options) and deals (seed, game index).",
        "Win-rate intervals: Wilson score intervals with a continuity correction of 0.1 deal, never "
        "narrower toward 0 or 1 than the exact one-sided (Clopper-Pearson) bound, on the Kish effective "
        "sample size from the deal-clustered variance: coverage at least 93% at every n >= 30 and every "
        "rate, measured exactly (docs/analysis.md).",
        "Pairwise: per deal, each strategy's win rate over the games of that deal where both sat; the "
        "mean difference over deals with its score interval and p-value (Wilson's for wins, Tango's for "
        "paired differences: honest at every sample size, never of zero width); "
        "Holm's adjustment over the pairs.",
        "Seats equal: Hotelling's T² on the per-deal seat win rates (F distribution, scipy.stats.f); "
        "first player: paired score interval of the first player's win minus the average seat's, per deal.",
        "Balance figure: from simultaneous (Bonferroni) score intervals of every two seats' win-rate "
        "difference, the largest gap's interval; its change between rule variants: paired on the same deals, "
        "from simultaneous intervals of every two seats' gap under each variant and of its change per deal "
        "(docs/analysis.md).",
        "Ratings: openskill Plackett-Luce on finishing orders of a capped random sample of games "
        "(see each configuration), tau = 0.",
        "Sequential testing: betting confidence sequences (Waudby-Smith and Ramdas 2023), tuned to the "
        "cap, valid in finite samples at every deal; Bonferroni over the questions.",
        *dict.fromkeys(r.methods),
    ]))


# ----------------------------------------------------------------------------- renderers
# The one stylesheet of every report, embedded in each page on one line (see :func:`_css`). Text
# cells wrap between words only (never inside one: no "heuristi c"), text is left-aligned and
# numbers right-aligned (a cell that starts like a number, see :func:`_numeric`).
CSS = """
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em;margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
h3{margin-top:1.6em}h4{margin:1.2em 0 .4em}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em;display:block;overflow-x:auto;max-width:100%}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top;word-break:normal;
overflow-wrap:normal;hyphens:none}
th{background:#f3f3f3}td.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
td.t{min-width:8em;max-width:28em}
tr.mark td{background:#fff4cc;font-weight:600}
p.lead{font-size:1.05em;color:#444}p.warn{background:#fdecea;padding:.4em .7em;border-left:4px solid #d9534f}
p.key{background:#eef6ee;padding:.4em .7em;border-left:4px solid #5cb85c;font-size:1.08em}
p.unfair{background:#fdf0e6;padding:.4em .7em;border-left:4px solid #d9534f;font-size:1.08em}
p.open{background:#f3f3f3;padding:.4em .7em;border-left:4px solid #999;font-size:1.08em}
img{max-width:100%;height:auto;display:block;margin:.6em 0}
div.figs{display:flex;flex-wrap:wrap;gap:.5em;align-items:flex-start}div.figs img{max-width:49%;margin:0}
nav a{margin-right:1em}
details summary{cursor:pointer;color:#555}
"""


def _css() -> str:
    """The stylesheet on one line, as every page embeds it."""
    return "".join(line.strip() for line in CSS.strip().splitlines())


_NUMBER = re.compile(r"^[-+−]?[\d.,]+(\s?(%|pp|dec\.))?(\s\[[-+−\d., ]+\])?(\s\*)?$|^<?[\d.]+$|^n/a$")


def _numeric(cell: str) -> bool:
    """A cell that is a number (with its unit and interval): right-aligned, never wrapped."""
    return all(_NUMBER.match(part.strip()) for part in cell.split("→"))


def _td(cell: str) -> str:
    return f'<td class="{"n" if _numeric(cell) else "t"}">{html.escape(cell)}</td>'


def to_html(r: Report) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(r.page_title or r.title + ': strategies and balance')}</title>", f"<style>{_css()}</style></head><body>"]
    nav = [(blk[3], blk[2]) for blk in r.blocks
           if isinstance(blk, tuple) and blk[0] == "h" and blk[1] == 2 and blk[3]]
    for block in r.blocks:
        kind = "table" if isinstance(block, Table) else block[0]
        if kind == "h":
            _, level, text, anchor = block
            ident = f' id="{anchor}"' if anchor else ""
            out.append(f"<h{level}{ident}>{html.escape(text)}</h{level}>")
            if level == 1:
                out.append("<nav>" + "".join(f'<a href="#{a}">{html.escape(t)}</a>' for a, t in nav) + "</nav>")
        elif kind == "p":
            _, text, cls = block
            out.append(f'<p class="{cls}">{html.escape(text)}</p>' if cls else f"<p>{html.escape(text)}</p>")
        elif kind == "ul":
            out.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in block[1]) + "</ul>")
        elif kind == "img":
            out.append(_img_html(block))
        elif kind == "figs":
            out.append('<div class="figs">' + "".join(_img_html(f) for f in block[1]) + "</div>")
        elif kind == "table":
            rows = ["<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in block.header) + "</tr>"]
            for i, row in enumerate(block.rows):
                cls = ' class="mark"' if block.marks and block.marks[i] else ""
                rows.append(f"<tr{cls}>" + "".join(_td(c) for c in row) + "</tr>")
            table = "<table>" + "".join(rows) + "</table>"
            if block.details:
                table = f"<details><summary>{len(block.rows)} rows</summary>{table}</details>"
            out.append(table)
    out.append("</body></html>")
    return "\n".join(out)


def _img_html(block) -> str:
    _, png, alt = block
    data = base64.b64encode(png).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(r: Report, figures: Path | None = None) -> str:
    """The report in Markdown; with ``figures`` (a directory beside the Markdown file) each
    figure is written there as a PNG and shown in place, else named with a pointer to the HTML."""
    out = []
    shown: list = []

    def figure(block) -> str:
        if figures is None:
            return f"*(figure: {block[2]}; see the HTML report)*"
        shown.append(block)
        name = f"{len(shown):02d}-" + re.sub(r"[^a-z0-9]+", "-", block[2].lower()).strip("-") + ".png"
        figures.mkdir(parents=True, exist_ok=True)
        (figures / name).write_bytes(block[1])
        return f"![{block[2]}]({figures.name}/{name})"

    for block in r.blocks:
        kind = "table" if isinstance(block, Table) else block[0]
        if kind == "h":
            out.append("#" * block[1] + " " + block[2])
        elif kind == "p":
            _, text, cls = block
            out.append(f"**{text}**" if cls in ("warn", "key", "unfair", "open") else text)
        elif kind == "ul":
            out.append("\n".join(f"- {i}" for i in block[1]))
        elif kind == "img":
            out.append(figure(block))
        elif kind == "figs" and figures is not None:
            out.append("\n".join(figure(f) for f in block[1]))
        elif kind == "figs":
            out.append(f"*(figures: {', '.join(f[2] for f in block[1])}; see the HTML report)*")
        elif kind == "table":
            lines = ["| " + " | ".join(_md_cell(h) for h in block.header) + " |",
                     "|" + "|".join("---" for _ in block.header) + "|"]
            for i, row in enumerate(block.rows):
                cells = [_md_cell(c) for c in row]
                if block.marks and block.marks[i]:
                    cells = [f"**{c}**" for c in cells]
                lines.append("| " + " | ".join(cells) + " |")
            out.append("\n".join(lines))
        out.append("")
    return "\n".join(out)


def to_text(r: Report) -> str:
    return "\n".join(r.terminal)


def write(r: Report, out: Path, fmt: str, figures: Path | None = None) -> Path:
    """Write the report (Markdown's figures into ``figures``, when given)."""
    out = Path(out)
    text = to_html(r) if fmt == "html" else to_markdown(r, figures)
    tmp = out.with_name("." + out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out
