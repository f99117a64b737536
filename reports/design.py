"""`tourney design`'s report (issue 32): once every play is done, the confirmation on fresh deals
and the recommendation (:func:`tourney_sim.simulate.stats.designs.confirm`) in words, the report
and the ``designs/`` folder.

The statistics are :mod:`tourney_sim.simulate.stats.designs` (a candidate's measures, the pruning
rule, the confirmation and the recommendation; the measures themselves:
:mod:`tourney_sim.simulate.stats.measures`); :mod:`tourney_sim.simulate.design` plays the
candidates and is given :func:`write_report` (the contract is ``INTERFACE32``: the manifest
``_design.json`` and the directory layout under OUT).

A design whose games do not replay is never recommended; the report states the re-check beside
the confirmed designs' table (:func:`recheck_words`). An entry without ``recheck`` (a design run
made before it) was not re-checked: it is not held against the design, and the report says it was
not re-checked.
"""
from __future__ import annotations

import math
import re
import shlex
import shutil
from pathlib import Path

from tourney_sim.simulate.design import DESIGN
from tourney_sim.simulate.jobdir import renders

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.spec import COMPONENTS_OPTION, component_address
from tourney_sim.simulate.stats import findings
from tourney_sim.simulate.stats.designs import (ALPHA, STRONG_MARGIN, TOLERANCE, Confirmed, _level, _pp, _safe,
                                                _target_text, confirm, play_words, within_margin)
from tourney_sim.simulate.stats.measures import MEASURES

from . import plots
from .render import Report, Table, _fig, _figs, _h, _p, _ul, count, num, pct, write

#: a change of game length smaller than this share of today's is "unchanged" in the verdict
LENGTH_SAME = 0.02
#: each level of play, as it reads after "under"
PLAY = {"heuristic": "heuristic play", "apprentice": "the apprentice's play", "search": "search play"}
LEVELS = tuple(PLAY)


# ----------------------------------------------------------------------------- words
def recheck_words(today: Confirmed | None, designs: list[Confirmed]) -> str | None:
    """The sentence beside the confirmed designs' table: their games (and today's) replayed
    through the reference engine and re-checked, and which did not replay; None when nothing was
    re-checked (a design run made before the re-check)."""
    tables = ([today] if today is not None else []) + list(designs)
    checked = [d for d in tables if d.recheck is not None]
    if not checked:
        return None
    counts = sorted({int(d.recheck.get("games") or 0) for d in checked})
    first = f"first {counts[0]:,}" if len(counts) == 1 else "first"
    whose = ("each design and of today's game" if today is not None and designs else
             "each design" if designs else "today's game")
    said = (f"The {first} confirmation games (heuristic play) of {whose} were replayed through the readable "
            f"reference engine (tourney replay) and ")
    failed = [d for d in checked if not d.replays]
    unchecked = [d for d in tables if d.recheck is None]
    if not failed:
        said += "passed tourney check"
    else:
        passed = [d for d in checked if d.replays]
        said += "checked with tourney check: " + (f"those of {_names(passed)} passed; " if passed else "")
        bad = [d for d in failed if d is not today]
        parts = []
        if bad:
            one = len(bad) == 1
            parts.append("; ".join(f"those of {d.label} did not ({d.recheck['failure']})" for d in bad)
                         + f", so {'it is' if one else 'they are'} not recommended: the kernel and the rules disagree "
                         f"on {'that table' if one else 'those tables'}")
        if today in failed:
            parts.append(f"those of today's game did not ({today.recheck['failure']}): the kernel and the rules "
                         f"disagree on today's table, so every comparison with today's game is in doubt")
        said += "; ".join(parts) + " — please report it"
    if unchecked:
        said += f" ({_names(unchecked)}: not re-checked)"
    return said + "."


def _names(tables: list[Confirmed]) -> str:
    return _and([d.label for d in tables])


def _and(words: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _together(level: float, looks: int = 1) -> str:
    """A level in words: a Bonferroni level over k designs (1 - 0.05 / k) is "95% for the k
    designs together", what it buys a reader (over k designs and L looks, 1 - 0.05 / (k L): "...
    together, at every look"); the per-design level is for Methods."""
    k = ALPHA / (1 - level) / max(1, looks) if level < 1 else math.nan
    if math.isfinite(k) and round(k) >= 1 and abs(k - round(k)) < 1e-6 and (round(k) >= 2 or looks > 1):
        return (f"95% for the {round(k)} designs together" if round(k) >= 2 else "95%") + (
            ", at every look" if looks > 1 else "")
    return _level(level)


def _gain_cell(g: dict) -> str:
    if g.get("gain") is None or not math.isfinite(g.get("gain", math.nan)):
        return "n/a"
    return f"{_pp(g['gain'])} [{_pp(g['low'])}, {_pp(g['high'])}]"


def _balance_cell(m: dict) -> str:
    if m.get("balance") is None:
        return "n/a"
    return f"{m['balance']:.3f} [{num(m['balance_low'], 3)}, {num(m['balance_high'], 3)}]"


def _old_value(manifest: dict, address: str):
    """Today's value of a dimension: the search space's default, else the baseline's."""
    for dim in manifest.get("space") or []:
        if dim["address"] == address and dim.get("default") is not None:
            return dim["default"]
    spec = get_game(manifest["game"])
    if address.startswith("rule:"):
        rules = [r for r in manifest["baseline"]["rules"] if component_address(r.partition("=")[0]) is None]
        return spec.resolve_options(rules).get(address[5:])
    return spec.declared_components().get(manifest["baseline"]["components"], address)


def _name(address: str) -> str:
    return address[5:] if address.startswith("rule:") else address


def change_words(manifest: dict, changes: dict) -> list[str]:
    """Each change in a designer's words: ``match_deals 1 → 2``, ``napula_beyond_10 on``."""
    out = []
    for address, new in changes.items():
        old = _old_value(manifest, address)
        if str(new).lower() in ("true", "false") and str(old).lower() in ("true", "false", "none"):
            out.append(f"{_name(address)} {'on' if str(new).lower() == 'true' else 'off'}")
        else:
            out.append(f"{_name(address)} {_plain(old)} → {_plain(new)}")
    return out


_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def disruption_words(manifest: dict, changes: dict) -> str:
    """What a design changes, counted and each said with what the value is: "one rule changed:
    match_deals 1 → 2"; "one component value changed: overtime.values[3] 4 → 3 (the Overtime
    cards' values, top of the pile first)"."""
    helps = {dim["address"]: dim.get("help") for dim in manifest.get("space") or []}
    rules = [a for a in changes if a.startswith("rule:")]
    parts = []
    for kind, addresses in (("rule", rules), ("component value", [a for a in changes if a not in rules])):
        if addresses:
            n = len(addresses)
            said = [w + (f" ({helps[a]})" if kind != "rule" and helps.get(a) else "")
                    for a, w in zip(addresses, change_words(manifest, {a: changes[a] for a in addresses}))]
            parts.append(f"{_COUNT.get(n, n)} {kind}{'' if n == 1 else 's'} changed: {'; '.join(said)}")
    return "; ".join(parts) or "nothing changed"


def _plain(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _skill_words(today: Confirmed, d: Confirmed) -> str:
    c = d.changes.get("skill")
    before, after = today.measures.get("skill"), d.measures.get("skill")
    if not c or c.get("change") is None or before is None or after is None:
        return "skill not measured"
    said = f"{_pp(before).lstrip('+')} → {_pp(after).lstrip('+')} pp"
    if c["low"] > 0:
        return f"skill matters more (the strong heuristic's edge {said})"
    if c["high"] < 0:
        return f"skill matters less (the strong heuristic's edge {said})"
    return f"skill gap unchanged ({said})"


def _length_words(d: Confirmed) -> str:
    c = d.changes.get("length") or {}
    r = c.get("ratio")
    if r is None:
        return "length not measured"
    unchanged = c.get("low") is not None and c["low"] <= 0 <= c["high"]
    if unchanged or abs(r - 1) < LENGTH_SAME:
        return "game length unchanged"
    if r >= 1.5:
        return f"games {r:.1f}x longer"
    if r <= 1 / 1.5:
        return f"games {1 / r:.1f}x shorter"
    return f"games {100 * abs(r - 1):.0f}% {'longer' if r > 1 else 'shorter'}"


def _fair_words(m: dict, where: str = "under search play") -> str:
    """How fair the design is at a level (``where``: "under search play"): the largest gap's upper 95% bound."""
    gap = 1 - m["balance_low"] if m.get("balance_low") is not None else None
    if gap is None:
        return where
    if gap <= findings.FAIR_PP + TOLERANCE:
        return f"fair within ±{100 * gap:.1f} pp {where}"
    return f"largest gap at most {100 * gap:.1f} pp {where}, 95%"


def today_at(today: Confirmed, d: Confirmed) -> dict:
    """Today's measures at the level ``d``'s verdict rests on."""
    return today.strong_measures if d.rests_on == "apprentice" else today.search_measures


def headline(title: str, team: bool, manifest: dict, today: Confirmed, d: Confirmed) -> str:
    """The recommendation in one sentence, as a designer reads it."""
    what = disruption_words(manifest, d.entry.get("changes") or {})
    kind = "Team" if team else "Seat"
    fault = at_fault_words(d, d.rests_on)
    g = d.gain_decisive
    check = ""
    if d.rests_on == "apprentice" and d.gain_search.get("low") is not None:
        check = (f"; checked by the search on {count(d.gain_search['deals'])} of the deals: "
                 f"{_gain_cell(d.gain_search)} pp, no disagreement")
    gained = f"gained {_gain_cell(g)} pp on {count(g['deals'])} deals; " if g.get("deals") else ""
    return (f"{title}: {what}. {kind} balance {today_at(today, d)['balance']:.2f} → "
            f"{d.decisive_measures['balance']:.2f} {play_words(d)} ({gained}"
            f"{_fair_words(d.decisive_measures, 'there')}{check})"
            + (f"; {fault}" if fault else "") + f"; {_skill_words(today, d)}; "
            f"{_length_words(d)}" + "".join(f"; {w}" for w in _side_words(today, d)) + ".")


def compensation_words(manifest: dict, today: Confirmed, d: Confirmed) -> str:
    """The seat compensation that evens the seats best (issue 42), beside the recommendation:
    what it gives whom, the balance and the seat at fault's edge at the level it rests on."""
    what = "; ".join(change_words(manifest, d.entry.get("changes") or {}))
    g = d.gain_decisive
    fault = at_fault_words(d, d.rests_on)
    return (f"Seat compensation: {what} ({_verdict_short(d)}): balance {today_at(today, d)['balance']:.2f} → "
            f"{d.decisive_measures['balance']:.2f} {play_words(d)} (gained {_gain_cell(g)} pp)"
            + (f"; {fault}" if fault else "") + ". A compensation changes what a seat starts with, not how the game "
            "is played; the search tried each value of each compensation lever on its own.")


def _verdict_short(d: Confirmed) -> str:
    return "its gain shown at both levels" if d.eligible else d.verdict.removeprefix("seat compensation: ")


def at_fault_words(d: Confirmed, level: str) -> str:
    """The seat (team) at fault in today's game, its edge before → after under ``level`` play and
    the paired change (its own interval): "team 1 (seats 1, 3)'s edge +21.3 → +0.4 pp under search
    play (change -20.9 pp, 95% [-24.0, -17.8])"."""
    c = (d.at_fault or {}).get(level) or {}
    if c.get("unit") is None or c.get("change") is None:
        return ""
    return (f"{c['unit']}'s edge over the average {_pp(c['before'])} → {_pp(c['after'])} pp under {PLAY[level]} "
            f"(change {_pp(c['change'])} pp, {_level(c['level'])} [{_pp(c['low'])}, {_pp(c['high'])}])")


def _side_words(today: Confirmed, d: Confirmed) -> list[str]:
    """The side effects a designer must see beside the fix (issue 39): decisiveness and draws
    where the paired change is shown (its 95% interval excludes 0), before → after."""
    out = []
    for name in ("decisiveness", "draws"):
        words = MEASURES[name].said
        c = d.changes.get(name) or {}
        before, after = today.measures.get(name), d.measures.get(name)
        if c.get("low") is None or before is None or after is None:
            continue
        if c["low"] > 0 or c["high"] < 0:
            out.append(f"{words} {100 * before:.1f}% → {100 * after:.1f}% "
                       f"({'more' if c['low'] > 0 else 'less'} often, change {_pp(c['change'])} pp, 95% "
                       f"[{_pp(c['low'])}, {_pp(c['high'])}])")
    return out


#: a largest gap shown below this under heuristic play: "little to fix" (the study's ±2 pp margin)
FAIR_GAP = 0.02


def _today_words(today: Confirmed | None) -> str:
    """Today's game on the fresh deals, in a sentence (after "no fix found": is there anything to fix?)."""
    if today is None or not today.measures:
        return ""
    h, sm = today.measures, today.search_measures or {}
    text = (f" Today's game on the fresh deals: balance {h['balance']:.3f} [{h['balance_low']:.3f}, "
            f"{h['balance_high']:.3f}] under heuristic play")
    if sm.get("balance") is not None:
        text += f", {sm['balance']:.3f} [{sm['balance_low']:.3f}, {sm['balance_high']:.3f}] under search play"
    if h["balance_low"] >= 1 - FAIR_GAP:
        text += (f": its largest gap is at most {100 * (1 - h['balance_low']):.1f} pp under heuristic play (95%), "
                 f"so there is little to fix")
    return text + "."


def no_fix(manifest: dict, designs: list[Confirmed], today: Confirmed | None = None) -> str:
    """Why nothing is recommended (a seat compensation is said apart: :func:`compensation_words`)."""
    designs = [d for d in designs if not d.compensation]
    complete = [h for h in manifest.get("history") or [] if h.get("state") == "complete"]
    if not designs:
        return (f"No fix found in this search space: of {len(manifest.get('history') or [])} trials "
                f"({len(complete)} complete), no design on the Pareto front was worth confirming "
                f"(none fairer than today's game at the heuristic level within the limits)." + _today_words(today))
    looks = len((manifest.get("strong") or {}).get("looks") or ())
    why = "; ".join(f"{d.label}: balance gained {play_words(d)} {_gain_cell(d.gain_decisive)} pp "
                    f"({_together(d.gain_decisive.get('level', 1 - ALPHA), looks if d.rests_on == 'apprentice' else 1)})"
                    f" on {count(d.gain_decisive.get('deals') or 0)} deals"
                    + (" — " + "; ".join(t["why"] for t in d.targets if not t["met"]) if d.holds and not d.meets_targets
                       else "")
                    + ("" if d.replays else f" — its games do not replay through the reference engine "
                                            f"({d.recheck['failure']})")
                    for d in designs)
    replay = "" if all(d.replays for d in designs) else " and replaying through the reference engine"
    where = "at the strong level" if any(d.rests_on == "apprentice" for d in designs) else "under search play"
    alike = today is not None and all(findings.heuristics_games(c.same_as_heuristic) for c in [today, *designs])
    heuristic = (manifest.get("strategies") or {}).get("heuristic") if alike else None
    return (f"No fix found in this search space: no confirmed design's balance gain holds {where} "
            f"and at the heuristic level while meeting the targets{replay}.{_none_helps(designs, heuristic)} {why}."
            + _today_words(today))


def _none_helps(designs: list[Confirmed], heuristic: str | None = None) -> str:
    """" None of the 3 helps by more than 1.2 pp under the apprentice's play": when every design
    rests on the strong level and was measured there within the margin (``heuristic``: every
    table's apprentice played that heuristic's games, :func:`heuristic_games_words`)."""
    if not designs or any(d.rests_on != "apprentice" for d in designs):
        return ""
    gains = [d.gain_strong for d in designs]
    if not all(within_margin(g) for g in gains):
        return ""
    best = max(g["high"] for g in gains)
    n = len(designs)
    own = f"each table's own, which here plays {heuristic}'s games" if heuristic else "each table's own"
    return (f" Measured within ±{100 * STRONG_MARGIN:g} pp under the apprentice's play ({own}), "
            f"{'the one design' if n == 1 else f'none of the {n} designs'} tried gains more than {_pp(best)} pp of balance.")


def disagreements(designs: list[Confirmed]) -> list[str]:
    """Designs two levels of play judge differently: the heuristic's and the decisive level's
    intervals of the balance gained do not overlap, and they are not both above 0 or both below
    (issue 39: shown at one level and not at the other is not a disagreement while the intervals
    overlap; that is a level that has not settled it, said apart; and two levels that both show
    a large gain, of different sizes, agree on the verdict); or the apprentice and its check, the
    search, do not overlap (the verdict then rests on the search)."""
    out = []
    for d in designs:
        h, s = d.gain_heuristic, d.gain_decisive
        lo = lambda g, k: math.nan if g.get(k) is None else g[k]  # noqa: E731
        same_side = (lo(h, "low") > 0 and lo(s, "low") > 0) or (lo(h, "high") < 0 and lo(s, "high") < 0)
        if (lo(h, "low") > lo(s, "high") or lo(s, "low") > lo(h, "high")) and not same_side:
            out.append(f"{d.label}: heuristic level {_gain_cell(h)} pp, {d.rests_on} level {_gain_cell(s)} pp "
                       f"(balance gained, {_together(h.get('level', 1 - ALPHA))})")
        if d.disagrees:
            out.append(f"{d.label}: the apprentice {_gain_cell(d.gain_strong)} pp, the search {_gain_cell(d.gain_search)} "
                       f"pp (the strong level and its check; the verdict rests on the search)")
    return out


# ----------------------------------------------------------------------------- the designs folder
def slug(label: str, limit: int = 60) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
    return text[:limit].rstrip("-") or "design"


def design_table(manifest: dict, entry: dict) -> dict | None:
    """The design's complete component table (None when the game declares no components): the
    baseline's with the design's component changes set."""
    spec = get_game(manifest["game"])
    if spec.components is None:
        return None
    sets = [f"{a}={v}" for a, v in (entry.get("changes") or {}).items() if not a.startswith("rule:")]
    return spec.components.set(manifest["baseline"]["components"], sets)


def rule_lines(entry: dict) -> list[str]:
    """The design's rule options (``NAME=VALUE``), without the component settings (the design's
    components file holds them)."""
    out = []
    for r in entry.get("rules") or []:
        key = r.partition("=")[0].strip()
        if key != COMPONENTS_OPTION and component_address(key) is None:
            out.append(r.strip())
    return out


def write_designs(out: Path, manifest: dict, today: Confirmed, designs: list[Confirmed]) -> list[str]:
    """``designs/<rank>-<slug>/`` per confirmed design: components.toml, rules.txt, README.md.
    Returns the folders, relative to ``out``."""
    spec = get_game(manifest["game"])
    folders = []
    for d in designs:
        rel = f"designs/{d.rank}-{slug(d.label)}"
        where = out / rel
        where.mkdir(parents=True, exist_ok=True)
        rules = rule_lines(d.entry)
        table = design_table(manifest, d.entry)
        lines = []
        if table is not None:
            (where / "components.toml").write_text(spec.components.to_toml(table), encoding="utf-8")
            lines.append(f"{COMPONENTS_OPTION}={rel}/components.toml")
        lines += rules
        (where / "rules.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (where / "README.md").write_text(_design_readme(manifest, spec, today, d, rel, lines), encoding="utf-8")
        folders.append(rel)
    return folders


def _design_readme(manifest: dict, spec, today: Confirmed, d: Confirmed, rel: str, lines: list[str]) -> str:
    h = manifest.get("strategies", {}).get("heuristic", "STRATEGY")
    run = " ".join(["tourney run", manifest["game"], "--players", str(manifest["players"])]
                   + [f"--rule {shlex.quote(x)}" for x in lines]
                   + ["--strategy", shlex.quote(h), "--games", "10000", "--out", f"runs/design-{d.rank}"])
    helps = {o.name: o.help for o in spec.options}
    space = {dim["address"]: dim.get("help") for dim in manifest.get("space") or []}
    what = [f"- {w}" + (f" — {space.get(a) or helps.get(_name(a))}" if (space.get(a) or helps.get(_name(a))) else "")
            for a, w in zip((d.entry.get("changes") or {}), change_words(manifest, d.entry.get("changes") or {}))]
    m, s = d.measures, d.search_measures
    verdict = headline(spec.title, spec.team_game, manifest, today, d) if d.recommended else f"Not recommended: {d.verdict}."
    return "\n".join([
        f"# {spec.title}: {d.label}", "",
        f"Design {d.rank} of the design run ({d.verdict}). {verdict}", "",
        "Play it beside today's game on the same deals and see both balance figures, from the design run's "
        "directory (or give this folder's path from where you are):", "",
        "```", f"tourney play-design {rel}", "```", "",
        "Or play it alone, from the design run's directory (where `report.html` is):", "",
        "```", run, "```", "",
        "`rules.txt` lists these `--rule` values, one a line; `components.toml` is the design's complete component "
        "table (`--rule components=FILE` reads it).", "",
        f"What changes, against {manifest['baseline'].get('label', 'the baseline')}:", "", *what, "",
        f"Confirmed on fresh deals (seed {manifest.get('confirm_seed')}), paired with today's game:", "",
        f"- balance, everyone {h}: {today.measures['balance']:.3f} → {_balance_cell(m)}; gained "
        f"{_gain_cell(d.gain_heuristic)} pp ({_together(d.gain_heuristic.get('level', 1 - ALPHA))})",
        *([f"- balance, everyone its own apprentice (today's game: {_apprentice_name(today)}; this design: "
           f"{_apprentice_name(d)}): {today.strong_measures['balance']:.3f} → {_balance_cell(d.strong_measures)}; "
           f"gained {_gain_cell(d.gain_strong)} pp on {count(d.gain_strong.get('deals') or 0)} deals"]
          if d.gain_strong.get("low") is not None else []),
        f"- balance, everyone {manifest.get('strategies', {}).get('search', 'the search player')}: "
        f"{today.search_measures['balance']:.3f} → {_balance_cell(s)}; gained {_gain_cell(d.gain_search)} pp",
        *(f"- {w}" for w in (at_fault_words(d, lv) for lv in LEVELS) if w),
        f"- {_skill_words(today, d)}; {_length_words(d)}", ""])


# ----------------------------------------------------------------------------- the report
def _trial_rows(manifest: dict) -> tuple[list[list[str]], list[bool]]:
    front = set(manifest.get("front") or [])
    rows, marks = [], []
    for h in sorted(manifest.get("history") or [], key=lambda h: h["trial"]):
        m = h.get("measures") or {}
        again = f", the same design as trial {h['repeat_of']}" if h.get("repeat_of") is not None else ""
        rows.append([str(h["trial"]), h["label"], h["state"] + (" (front)" if h["trial"] in front else "") + again,
                     _balance_cell(m), _skill_cell(m), num(h.get("disruption"), 2), h.get("why") or "—"])
        marks.append(h["trial"] in front)
    return rows, marks


def _skill_cell(m: dict) -> str:
    if m.get("skill") is None:
        return "n/a"
    return f"{_pp(m['skill'])} [{_pp(m['skill_low'])}, {_pp(m['skill_high'])}]"


def _pareto_figure(manifest: dict, title: str, confirmed: list[Confirmed]):
    points = [h for h in sorted(manifest.get("history") or [], key=lambda h: h["trial"])
              if h.get("measures") and h["measures"].get("balance") is not None]
    if not points:
        return None
    index = {h["trial"]: i for i, h in enumerate(points)}
    front = [index[k] for k in manifest.get("front") or [] if k in index]
    labels = {index[d.entry["trial"]]: str(d.rank) for d in confirmed if d.entry.get("trial") in index}
    today = index.get(0)
    png = plots.pareto([float(h.get("disruption") or 0.0) for h in points], [h["measures"]["balance"] for h in points],
                       [None if h["measures"].get("skill") is None else 100 * h["measures"]["skill"] for h in points],
                       front, labels, today, f"{title}: the search's candidates", "disruption (values changed + "
                       "mean relative size)", "balance figure (1 = even), heuristic play",
                       "skill, pp (strong minus weaker)", "today's game", "no skill measured (pruned)")
    return _fig(png, "Pareto front: balance against disruption, coloured by skill")


def _before_after_figure(manifest: dict, today: Confirmed, designs: list[Confirmed]):
    if not designs:
        return None
    labels, before, after, lows, highs = [], [], [], [], []
    for d in designs:
        for level, mine, theirs in (("heuristic", d.measures, today.measures),
                                    ("apprentice", d.strong_measures, today.strong_measures),
                                    ("search", d.search_measures, today.search_measures)):
            if not mine or not theirs:
                continue
            labels.append(f"{d.rank}. {d.label} ({level})")
            before.append(theirs["balance"])
            after.append(mine["balance"])
            lows.append(mine["balance_low"])
            highs.append(mine["balance_high"])
    png = plots.before_after(labels, before, after, "Balance figure: today's game → the design (fresh deals)",
                             "balance figure (1 = even)", lows, highs, names=("today's game", "the design"))
    return _fig(png, "Balance before and after each confirmed design at both levels")


def build(out: Path, manifest: dict, today: Confirmed | None, designs: list[Confirmed],
          folders: list[str]) -> Report:
    spec = get_game(manifest["game"])
    m = manifest
    r = Report(m["game"], spec.title, [], [], [], [], [], page_title=f"{spec.title}: design search")
    b = r.blocks
    strategies = m.get("strategies") or {}
    best = next((d for d in designs if d.recommended), None)
    b.append(_h(1, f"{spec.title}: design search" + (f" ({m['budget']} budget)" if m.get("budget") else "")))
    verdict = headline(spec.title, spec.team_game, m, today, best) if best else no_fix(m, designs, today)
    b.append(_p(verdict, "key" if best else "open"))  # green only for a recommended fix
    r.terminal.append(verdict)
    others = [d for d in designs if d.eligible and not d.recommended and not d.compensation]
    for d in designs:
        if d.compensation:
            said = compensation_words(m, today, d)
            b.append(_p(said))
            r.terminal.append(said)
    if others:
        said = "Also fixes it: " + "; ".join(
            f"{d.label} (disruption {d.disruption:.2f}; balance {play_words(d)} "
            f"{d.decisive_measures['balance']:.3f})" for d in others) + "."
        b.append(_p(said))
        r.terminal.append(said)
    history = m.get("history") or []
    b.append(_p(f"{m['players']} players; {_tried(history)}, on the same "
                f"{count(m.get('deals') or 0)} deals each (seed {m.get('seed')}), everyone {strategies.get('heuristic')}; "
                f"{len(designs)} confirmed on fresh deals (seed {m.get('confirm_seed')}) at the heuristic level, "
                + ("at the strong level (every table its own apprentice, each design's retrained on its table, until "
                   f"its gain is measured within ±{100 * STRONG_MARGIN:g} pp) and under the search as its check "
                   if m.get("strong") else "and at the search level ")
                + f"({strategies.get('search')}). Changes are against {m['baseline'].get('label', 'the baseline')}. "
                f"Command: {_command(m)}", "lead"))
    said = strong_words(m)
    if said:
        b.append(_p(said))
    said = heuristic_games_words(m, today, designs)
    if said:
        b.append(_p(said))
        r.terminal.append(said)
    _layout_designs(r, m, today, designs, folders)
    figs = [f for f in (_pareto_figure(m, spec.title, designs), _before_after_figure(m, today, designs) if today else None)
            if f is not None]
    if figs:
        b.append(_h(2, "Plots", "plots"))
        b.append(_p("Left: every candidate the search measured (heuristic play, the search's deals): balance figure "
                    "against disruption, coloured by skill; the Pareto front ringed, today's game a star, the confirmed "
                    "designs numbered by their rank in the table above. Right: each confirmed design's balance figure "
                    "on the fresh deals, today's game → the design, at each level of play (95% intervals)."))
        b.append(_figs(*figs))
    _layout_trials(r, m)
    _layout_strategies(r, m)
    _layout_methods(r, m, len(designs), rechecked=recheck_words(today, designs) is not None)
    return r


def _tried(history: list[dict]) -> str:
    """How many candidates the search played, and how many proposals it skipped as unplayable
    (those cost nothing and do not count as trials)."""
    skipped = sum(h["state"] == "unplayable" for h in history)
    pruned = sum(h["state"] == "pruned" for h in history)
    text = f"{len(history) - skipped} trials" + (f" ({pruned} pruned early)" if pruned else "")
    return text + (f" and {skipped} proposals the game cannot play (skipped)" if skipped else "")


def _command(m: dict) -> str:
    """The command that makes this run (without --resume / --overwrite: a resumed run says the same)."""
    command = m.get("command")
    if not command:
        return "(the Python API: tourney_sim.api.design)"
    return " ".join(t for t in command.split() if t not in ("--resume", "--overwrite"))


#: what a recommendation needs besides the gain and the targets, once the games were re-checked
_REPLAYS = ", and its games replay through the reference engine"


def _layout_designs(r: Report, m: dict, today: Confirmed | None, designs: list[Confirmed], folders: list[str]) -> None:
    b = r.blocks
    b.append(_h(2, "Confirmed designs", "designs"))
    if today is None or not designs:
        b.append(_p("No design was confirmed: the search's Pareto front held nothing but today's game."))
        rechecked = recheck_words(today, [])
        if rechecked:
            b.append(_p(rechecked))
        return
    level = _level(designs[0].gain_search.get("level", 1 - ALPHA))
    strong = any(d.gain_strong.get("low") is not None for d in designs)
    rechecked = recheck_words(today, designs)
    b.append(_p(f"Each design replayed on fresh deals and paired with today's game on them. Balance figure: 1 minus "
                f"the largest gap between {'team' if get_game(m['game']).team_game else 'seat'} win rates (1 = even); "
                f"gained: positive is fairer, with a paired interval widened so that the intervals of all "
                f"{len(designs)} designs confirmed hold together 95% of the time ({level} each). Skill: the strong heuristic's win minus the weaker's, per deal (0 = a coin flip). Length: "
                f"the design's mean decisions per game over today's. Recommended (highlighted): the gain holds at both "
                f"levels and every target is met{_REPLAYS if rechecked else ''}; among those, the smallest "
                f"disruption."
                + (f" Apprentice: every table played by its own apprentice (today's the shipped weights, each design's "
                   f"retrained on its table), look by look until the gain is measured within ±{100 * STRONG_MARGIN:g} pp, "
                   f"its interval at {_level(designs[0].gain_strong.get('level') or 1 - ALPHA)} (Bonferroni over the "
                   f"designs and the looks); the verdict rests on it unless the search's interval does not overlap it "
                   f"(a disagreement: then on the search)." if strong else "")))
    rows = []
    for d in designs:
        c = d.changes
        rows.append([str(d.rank), "; ".join(change_words(m, d.entry.get("changes") or {})), num(d.disruption, 2),
                     _moved(today.measures, d.measures, d.gain_heuristic),
                     *([_moved(today.strong_measures, d.strong_measures, d.gain_strong, True)] if strong else []),
                     _moved(today.search_measures, d.search_measures, d.gain_search),
                     _skill_moved(today, d), "×" + num((c.get("length") or {}).get("ratio"), 2), d.verdict])
    b.append(Table(["rank", "what changes", "disruption", "balance, heuristic: today → design (gained, pp [95%, jointly])",
                    *(["balance, apprentice: today → design (gained, pp [jointly], deals)"] if strong else []),
                    "balance, search: today → design (gained, pp [95%, jointly])", "skill, pp: today → design (change [95%])",
                    "length", "verdict"], rows, [d.recommended for d in designs]))
    if rechecked:
        b.append(_p(rechecked))
    faults = [(d, *(at_fault_words(d, lv) for lv in LEVELS)) for d in designs]
    if any(any(w) for _, *w in faults):
        b.append(_p("The seat (team) at fault in today's game, its own paired contrast on the same fresh deals: its "
                    "edge over the average seat (team) before and after, and the change with its interval (tighter "
                    "than the balance figure's, which spans every pair of seats):"))
        b.append(_ul([f"{d.rank}. {d.label}: " + "; ".join(x for x in w if x) for d, *w in faults if any(w)]))
    b.append(_h(3, "Every measure of the confirmed designs"))
    b.append(_p("On the fresh deals, with 95% intervals; changes against today's game on the same deals in brackets. "
                "Targets: checked on the estimates (balance at the level the verdict rests on, the others at the "
                "heuristic level)."))
    detail = [["today", "today's game", _balance_cell(today.measures),
               *([_balance_cell(today.strong_measures)] if strong else []), _balance_cell(today.search_measures),
               _skill_cell(today.measures), num(today.measures.get("length"), 1), pct(today.measures.get("draws")),
               pct(today.measures.get("decisiveness")), "—"]]
    for d in designs:
        c = d.changes
        detail.append([str(d.rank), d.label, _balance_cell(d.measures),
                       *([_balance_cell(d.strong_measures)] if strong else []), _balance_cell(d.search_measures),
                       _skill_cell(d.measures), num(d.measures.get("length"), 1),
                       pct(d.measures.get("draws")) + _change_cell(c.get("draws")),
                       pct(d.measures.get("decisiveness")) + _change_cell(c.get("decisiveness")),
                       "; ".join(("met: " if t["met"] else "missed: ") + t["target"] for t in d.targets) or "none set"])
    b.append(Table(["rank", "design", "balance, heuristic [95%]", *(["balance, apprentice [95%]"] if strong else []),
                    "balance, search [95%]", "skill, pp [95%]",
                    "length (decisions)", "draws", "decisiveness", "targets"], detail))
    said = disagreements(designs)
    if said:
        b.append(_p("The levels of play disagree on: " + "; ".join(said) + ". The strong level decides (the "
                    "apprentice retrained on each table, or the search where the two disagree); the heuristic "
                    f"{_made_for(m.get('strategies', {}).get('heuristic'))} the shipped rules."))
    if folders:
        b.append(_p("Ready to play (components.toml, rules.txt and a README with the command, per design): "
                    + ", ".join(f + "/" for f in folders) + "."))


def _moved(before: dict, after: dict, gain: dict, deals: bool = False) -> str:
    if not before or not after or gain.get("low") is None:
        return "—"
    return (f"{before['balance']:.3f} → {after['balance']:.3f} ({_gain_cell(gain)}"
            + (f", {count(gain.get('deals') or 0)})" if deals else ")"))


def _apprentice_name(c: Confirmed) -> str:
    """Which apprentice played a table at the strong level, in words."""
    a = c.entry.get("apprentice") or {}
    if a.get("trained") is None:
        return "the shipped weights"
    kept = a.get("best_round")
    return (f"retrained on its table ({a['trained']}/, " + ("the start kept" if kept is None else f"round {kept}")
            + (f", {100 * a['win_rate']:.1f}% against {a.get('against')}" if a.get("win_rate") is not None else "") + ")")


def _skill_moved(today: Confirmed, d: Confirmed) -> str:
    before, after = today.measures.get("skill"), d.measures.get("skill")
    if before is None or after is None:
        return "n/a"
    return f"{_pp(before)} → {_pp(after)}{_change_cell(d.changes.get('skill'))}"


def _change_cell(c: dict | None) -> str:
    if not c or c.get("change") is None:
        return ""
    return f" ({_pp(c['change'])} [{_pp(c['low'])}, {_pp(c['high'])}])"


def _layout_trials(r: Report, m: dict) -> None:
    b = r.blocks
    b.append(_h(2, "What the search tried", "trials"))
    dims = m.get("space") or []
    groups: dict[str, int] = {}
    for dim in dims:
        groups[dim.get("group", "?")] = groups.get(dim.get("group", "?"), 0) + 1
    b.append(_p(f"Search space: {len(dims)} dimensions ("
                + ", ".join(f"{g}: {n}" for g, n in groups.items()) + f"), at most {m.get('max_changes')} changes "
                f"per design; sampler {m.get('sampler')}; objectives "
                + ", ".join(list(m.get("objectives") or []) + ["disruption"]) + "; targets: "
                + (", ".join(f"{k} {_target_text(t)}" for k, t in (m.get("targets") or {}).items()) or "none")
                + f". Each trial: everyone {m.get('strategies', {}).get('heuristic')} on {count(m.get('deals') or 0)} deals "
                  f"(a trial clearly less fair than today's game after the first quarter is pruned: paired balance "
                  f"gained, 99% interval below 0), and the skill tables ({count(m.get('skill_deals') or 0)} deals per "
                  f"seating). Balance and skill with 95% intervals; highlighted: the Pareto front."))
    rows, marks = _trial_rows(m)
    b.append(Table(["trial", "design", "state", "balance [95%]", "skill, pp [95%]", "disruption", "why"], rows,
                   marks, details=len(rows) > 15))


def _layout_strategies(r: Report, m: dict) -> None:
    s = m.get("strategies") or {}
    seatings = "; ".join("seats " + ", ".join(map(str, x)) for x in m.get("seatings") or [])
    r.blocks.append(_h(2, "Strategies", "strategies"))
    r.blocks.append(_ul([
        f"Heuristic level (the search, balance and skill): everyone {s.get('heuristic')}.",
        f"Skill: {s.get('heuristic')} in one seating's seats, {s.get('weaker')} in the others, each seating in turn "
        f"({seatings}), the same deals.",
        f"Search level (confirmation): everyone {s.get('search')}.",
        f"{s.get('heuristic')} {_made_for(s.get('heuristic'))} the shipped rules: under a changed design it may play "
        f"below its best, which can hide or invent an effect on balance or skill. That is why a design is recommended "
        f"only when its gain holds under search play too (the search player adapts to the rules by playing them out).",
    ]))


def _made_for(strategy: str | None) -> str:
    """How a heuristic came to play as it does: a tuned setting was tuned on the rules of its tuning."""
    name = str(strategy or "")
    return "was tuned on" if "tuned" in name or "@" in name or ":" in name else "was written for"


def _layout_methods(r: Report, m: dict, k: int, rechecked: bool = False) -> None:
    c = m.get("confirm") or {}
    r.blocks.append(_h(2, "Methods", "methods"))
    recheck = ["Re-check: the first games of each confirmed design's heuristic confirmation (and of today's game's) "
               "are played again by the kernel with the game's readable reference engine following on the same "
               "chance stream (tourney replay: the two must agree at every step, and the result must be the one "
               "stored), and each trace is then checked by the reference engine alone (tourney check). A design "
               "whose games do not replay is never recommended: the kernel and the rules disagree on its table."]
    r.blocks.append(_ul([
        "A deal is a seed and game index; every candidate plays the same deals (seed "
        f"{m.get('seed')}), so every comparison with today's game is paired deal by deal.",
        "Balance figure: 1 minus the largest gap between unit win rates (teams in team games, else seats), everyone "
        "the same strategy; its interval from simultaneous score intervals of every pair of units' gap; the balance "
        "gained from those under each design and of their paired changes (docs/analysis.md).",
        "Skill: per deal, the strong heuristic's win (mean over its seats) minus the mean win of the weaker "
        "strategy's seats, averaged over the seatings; 0 is a coin flip.",
        f"Confirmation: fresh deals (seed {m.get('confirm_seed')}): {count(c.get('heuristic_deals') or 0)} at the "
        f"heuristic level, {count(c.get('skill_deals') or 0)} per skill seating, {count(c.get('search_deals') or 0)} "
        f"at the search level (a design whose games are longer than today's: fewer, in proportion, since a "
        f"search's cost grows with the length it plays out; each comparison on the deals both played); the balance gained at {_level(1 - ALPHA / max(1, k))} (Bonferroni over the {k} designs "
        "confirmed); skill, draws and decisiveness changes with 95% score intervals, length with a t interval.",
        *([f"Strong level: every table played by its own apprentice (docs/apprentice.md): today's game by the "
           f"weights shipped for it, each design's by weights retrained on its table from those (tourney train "
           f"--start shipped: {m['strong']['train']['rounds']} round(s) of {count(m['strong']['train']['positions'])} "
           f"search labels), on fresh deals (seed {m.get('confirm_seed')}) in looks at "
           f"{', '.join(count(n) for n in m['strong']['looks'])} deals; a design stops once its balance gain's "
           f"interval is at most ±{100 * STRONG_MARGIN:g} pp, each interval at "
           f"{_level(1 - ALPHA / (max(1, k) * len(m['strong']['looks'])))} (Bonferroni over the designs and the looks, "
           "so the interval a design stopped at holds). The search level is its check: where the two intervals do "
           "not overlap, the verdict rests on the search."] if m.get("strong") else []),
        "Recommended: the gain's interval above 0 at the heuristic level and at the level the verdict rests on "
        "(the apprentice's, or the search's where they disagree), every target met on the estimates (balance "
        "there, the others at the heuristic level; a relative target against today's game on the same fresh "
        "deals); among those, the smallest disruption, then the fairest.",
        "Disruption: the number of values changed plus the mean relative size of the changes (|new - old| / range "
        "for an integer, 1 for an option).",
    ] + (recheck if rechecked else [])))


# ----------------------------------------------------------------------------- outputs
def design_json(m: dict, today: Confirmed | None, designs: list[Confirmed], folders: list[str], verdict: str) -> dict:
    def one(d: Confirmed) -> dict:
        return {"trial": d.entry.get("trial"), "label": d.label, "changes": d.entry.get("changes"),
                "rules": d.entry.get("rules"), "disruption": d.disruption, "rank": d.rank,
                "recommended": d.recommended, "verdict": d.verdict, "heuristic": d.measures,
                "search": d.search_measures, "gain_heuristic": d.gain_heuristic, "gain_search": d.gain_search,
                "apprentice": d.strong_measures, "gain_apprentice": d.gain_strong,
                "apprentice_weights": d.entry.get("apprentice"), "strong_looks": d.entry.get("strong_looks"),
                "rests_on": d.rests_on, "same_as_heuristic": _same_json(d),
                "changes_vs_today": d.changes, "at_fault": d.at_fault, "targets": d.targets, "holds": d.holds,
                "recheck": d.recheck,
                "replays": d.replays}

    best = next((d for d in designs if d.recommended), None)
    return _safe({"format": "tourney-design-report/1", "game": m["game"], "players": m["players"],
                  "budget": m.get("budget"), "seed": m.get("seed"), "confirm_seed": m.get("confirm_seed"),
                  "family_level": 1 - ALPHA / max(1, len(designs)), "verdict": verdict,
                  "recommended": None if best is None else {"trial": best.entry.get("trial"), "label": best.label,
                                                           "folder": folders[designs.index(best)]},
                  "today": None if today is None else {"heuristic": today.measures, "search": today.search_measures,
                                                       "apprentice": today.strong_measures,
                                                       "same_as_heuristic": _same_json(today),
                                                       "recheck": today.recheck, "replays": today.replays},
                  "designs": [dict(one(d), folder=f) for d, f in zip(designs, folders)],
                  "disagreements": disagreements(designs), "recheck": recheck_words(today, designs)})


def heuristic_games_words(manifest: dict, today: Confirmed | None, designs: list[Confirmed]) -> str | None:
    """Where a table's apprentice plays its heuristic's games (the same result on nearly every
    fresh deal both levels played: :func:`findings.heuristics_games`), in words: its figures under
    the apprentice's play are then the heuristic's, and only the search checks them at strong
    play. None when no table's does."""
    tables = [("today's game", today)] if today is not None else []
    tables += [(f"design {d.rank} ({d.label})", d) for d in designs]
    alike = [(name, c.same_as_heuristic) for name, c in tables if findings.heuristics_games(c.same_as_heuristic)]
    if not alike:
        return None
    heuristic = (manifest.get("strategies") or {}).get("heuristic") or "the heuristic"
    exactly = all(equal == played for _, (played, equal) in alike)
    counts = "; ".join(f"{name} on {count(equal)} of {count(played)}" for name, (played, equal) in alike)
    said = (f"The apprentice plays {'exactly' if exactly else 'almost exactly'} as {heuristic} at "
            f"{'every table confirmed' if len(alike) == len(tables) else _and([n for n, _ in alike])}: the same "
            f"result as {heuristic} on the fresh deals both played ({counts}). There the figures under the apprentice's "
            f"play are the heuristic's, and the search is all that checks them at strong play.")
    rest = [c.same_as_heuristic for _, c in tables
            if c.same_as_heuristic and c.same_as_heuristic[0] and not findings.heuristics_games(c.same_as_heuristic)]
    if rest:
        shares = sorted(100 * equal / played for played, equal in rest)
        said += (f" The other tables' apprentices leave it more often (the same result on "
                 + (f"{shares[0]:.0f}%" if len(shares) == 1 else f"{shares[0]:.0f}-{shares[-1]:.0f}%")
                 + " of the deals).")
    return said


def _same_json(c: Confirmed) -> dict | None:
    """How often the table's apprentice ended a fresh deal as the heuristic did (None: not played)."""
    if c.same_as_heuristic is None:
        return None
    played, equal = c.same_as_heuristic
    return {"deals": played, "same": equal, "heuristics_games": findings.heuristics_games(c.same_as_heuristic)}


def strong_words(manifest: dict) -> str | None:
    """Today's game at the strong level, measured before the search, in one sentence (None when the
    run did not measure it: no apprentice for the starting table, or --always-search)."""
    t = manifest.get("today_strong")
    if not t:
        return None
    qs = t["questions"]
    if t["fair"]:
        bound = max((q.get("bound") or findings.NEGLIGIBLE_PP for q in qs), default=0.0)
        return (f"Today's game is fair at the strong level: everyone {t['strategy']} on {count(t['deals'])} fresh deals, "
                f"every seat (team) shown within ±{100 * bound:.1f} pp of even (two one-sided tests; the margin for "
                f"fair is ±{100 * findings.FAIR_PP:g} pp), balance figure {t['balance']:.3f}.")
    worst = max(qs, key=lambda q: abs(q["estimate"]), default=None)
    said = f" (largest: {worst['sentence']})" if worst else ""
    return (f"Today's game at the strong level, measured first (everyone {t['strategy']}, {count(t['deals'])} fresh "
            f"deals): {t['state']}{said}; so the search ran.")


def _write_nothing_to_fix(out: Path, manifest: dict) -> str:
    """The report of a run that stopped before its search: today's game is fair at the strong
    level, so there is nothing to fix (its seat questions, and the command that searches anyway)."""
    from tourney_sim.simulate.jobdir import write_json

    spec = get_game(manifest["game"])
    t = manifest["today_strong"]
    for old in ("designs", "report-figures"):
        shutil.rmtree(out / old, ignore_errors=True)
    r = Report(manifest["game"], spec.title, [], [], [], [], [], page_title=f"{spec.title}: design search")
    verdict = f"Nothing to fix at {manifest['players']} players. " + strong_words(manifest)
    again = _command(manifest) + " --always-search"
    r.blocks += [_h(1, f"{spec.title}: design search" + (f" ({manifest['budget']} budget)" if manifest.get("budget") else "")),
                 _p(verdict, "key"),
                 _p(f"So the run stopped there, before searching any change (a search could only trade balance the game "
                    f"already has for other measures). To search all the same: {again}. Command: {_command(manifest)}",
                    "lead"),
                 _h(2, "Today's game at the strong level", "today"),
                 _p("Each seat's (team's) win rate against the average one, everyone the apprentice (the policy learned "
                    "from the search, docs/apprentice.md) with the weights shipped for this table, on fresh deals; one "
                    "Holm over these questions; fair: two one-sided tests within the margin (Lakens 2018)."),
                 Table(["question", "estimate [95%]", "adjusted p", "outcome"],
                       [[q["subject"], f"{100 * q['estimate']:+.1f} pp [{100 * q['low']:+.1f}, {100 * q['high']:+.1f}]",
                         "n/a" if q["p_holm"] is None else f"{q['p_holm']:.3g}", q["verdict"]]
                        for q in t["questions"]])]
    r.terminal.append(verdict)
    write(r, out / "report.html", "html")
    write(r, out / "report.md", "md", figures=out / "report-figures")
    write_json(out / "design.json", _safe({"format": "tourney-design-report/1", "game": manifest["game"],
                                           "players": manifest["players"], "budget": manifest.get("budget"),
                                           "seed": manifest.get("seed"), "confirm_seed": manifest.get("confirm_seed"),
                                           "verdict": verdict, "nothing_to_fix": True, "today_strong": t,
                                           "recommended": None, "designs": []}))
    return "\n".join([verdict, f"report: {out / 'report.html'} (and report.md); data: {out / 'design.json'}"])


def beside_words(result: dict) -> str:
    """A design played beside today's game (:func:`tourney_sim.simulate.design.play_design`), in a
    few lines: both balance figures, the gain and the at-fault seat's change, paired."""
    t, d, g, f = result["today"], result["design"], result["gain"], result["at_fault"]
    lines = [f"{result['game']}, {result['players']} players, everyone {result['strategy']}, the same "
             f"{count(int(d['deals']))} deals (seed {result['seed']}):",
             f"  today's game: balance {_balance_cell(t)}",
             f"  design {result['name']}: balance {_balance_cell(d)}",
             f"  balance gained: {_gain_cell(g)} pp (paired, 95%)"]
    if f.get("unit") is not None:
        lines.append(f"  {f['unit']}'s edge over the average: {_pp(f['before'])} → {_pp(f['after'])} pp (change "
                     f"{_pp(f['change'])} pp, 95% [{_pp(f['low'])}, {_pp(f['high'])}])")
    return "\n".join(lines)


@renders(DESIGN)
def write_report(out: Path, manifest: dict) -> str:
    """Once every play is done: design.json, report.html, report.md (+ report-figures/) and the
    designs/ folder under ``out``; returns the verdict in a few lines. A function of the data and
    the manifest alone (a resumed run writes the same report)."""
    from tourney_sim.simulate.jobdir import write_json

    out = Path(out)
    if (manifest.get("today_strong") or {}).get("fair") and not manifest.get("history"):
        return _write_nothing_to_fix(out, manifest)
    today, designs = confirm(out, manifest)
    for old in ("designs", "report-figures"):  # this report's own outputs, from an earlier writing
        shutil.rmtree(out / old, ignore_errors=True)
    folders = write_designs(out, manifest, today, designs) if today is not None else []
    report = build(out, manifest, today, designs, folders)
    write(report, out / "report.html", "html")
    write(report, out / "report.md", "md", figures=out / "report-figures")
    write_json(out / "design.json", design_json(manifest, today, designs, folders, report.terminal[0]))
    lines = list(report.terminal)
    best = next((f for d, f in zip(designs, folders) if d.recommended), None)
    if best:
        lines.append(f"  ready to play: {out / best}/ (components.toml, rules.txt, README.md)")
    said = disagreements(designs)
    if said:
        lines.append("  the levels of play disagree on: " + "; ".join(said))
    parted = [d for d in ([today] if today is not None else []) + designs if not d.replays]
    if parted:
        lines.append("  games that do not replay through the reference engine (the kernel and the rules disagree; "
                     "please report it): " + "; ".join(f"{d.label} ({d.recheck['failure']})" for d in parted))
    lines.append(f"  {_tried(manifest.get('history') or [])}, {len(designs)} design{'' if len(designs) == 1 else 's'} "
                 "confirmed on fresh deals")
    lines.append(f"report: {out / 'report.html'} (and report.md); data: {out / 'design.json'}")
    return "\n".join(lines)
