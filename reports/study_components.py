"""The study's "Components" section: each component kind's effect on winning at the heuristic
and search levels (:mod:`tourney_sim.simulate.stats.components`, from the levels stages' ``dealt``
column), the three kinds with the largest effects, and for each the paired check of its nearest
change (``components/`` stages: one run on the same deals with one component changed, compared
with the default rules as a rule option is: each seat's advantage, the first player's, the
balance figure; one Holm per family over the paired checks alone, apart from the study's design).

The study's report (:mod:`tourney_sim.reports.study_report`) makes the paired checks' rows, as it
makes its rule options' (its ``checks``), and gives them to :func:`layout_components`; ``data``
here is its :class:`~tourney_sim.simulate.stats.studies.StudyData`.
"""
from __future__ import annotations

import math

from tourney_sim.simulate.stats.components import COMPONENT_CHECKS, ComponentEffects, component_effects
from tourney_sim.simulate.stats.findings import Family

from .render import Report, Table, _h, _p, count, layout_components as layout_effects

LEVELS = ("heuristic", "search")


def effects(data) -> dict[tuple[int, str], ComponentEffects]:
    """(players, level) -> the effects, for the levels whose datasets record what was dealt."""
    out = {}
    for p in data.players:
        for level in LEVELS:
            cfg = data.levels.get((p, level))
            e = component_effects(cfg) if cfg is not None else None
            if e is not None:
                out[(p, level)] = e
    return out


def _gain(x) -> str:
    """A rule row's balance gained, pp, with its paired 95% interval ("n/a" if none)."""
    if not math.isfinite(x.gain):
        return "n/a"
    return f"{100 * x.gain:+.1f} [{100 * x.gain_low:+.1f}, {100 * x.gain_high:+.1f}]"


def kind_of(data, players: int, setting: str) -> str:
    for st in data.manifest.get("stages", []):
        if st.get("section") == "components" and st.get("players") == players and st.get("option") == setting:
            return st.get("dealt_kind") or "?"
    return "?"


def layout_components(r: Report, data, checked: tuple[Family, list] | None) -> None:
    """The section; ``checked``: the paired checks' family and rows (the report's ``checks``),
    None when the study has none."""
    found = effects(data)
    if not found and not data.components:
        return
    b = r.blocks
    b.append(_h(2, "Components", "components"))
    b.append(_p("What being dealt each kind of component is worth to a seat (a team in team games), measured on "
                "the levels stages' deals; then, for the kinds with the largest effects, what the nearest change "
                "to the game (one fewer copy, a value one lower, ...) does to balance, paired on the same deals."))
    for (p, level), e in sorted(found.items()):
        layout_effects(r, e, 3, f"{p} players, {level} play")
        top = e.largest(COMPONENT_CHECKS)
        if top:
            b.append(_p(f"The {len(top)} largest: " + "; ".join(
                f"{k.kind} {100 * k.effect:+.1f} pp ({k.outcome})" for k in top) + "."))
    if not data.components:
        if found:
            b.append(_p("Paired checks: none (the game names no nearest change of its components for the study)."))
        return
    family, rows = checked
    b.append(_h(3, "Paired checks: the nearest change of the largest components"))
    table = []
    for x in rows:
        e = found.get((x.players, x.level))
        kind = kind_of(data, x.players, x.option)
        effect = next((k for k in (e.kinds if e else []) if k.kind == kind), None)
        said = (f"{100 * effect.effect:+.1f} pp" if effect is not None and math.isfinite(effect.effect) else "n/a")
        table.append([kind, said, x.option, str(x.players), count(x.deals),
                      f"{x.before['balance']:.3f} → {x.after['balance']:.3f}", _gain(x), x.verdict()])
        r.terminal.append(f"{x.players} players: {kind}: {x.option}: {x.verdict()}")
    b.append(Table(["kind", "its effect", "nearest change", "players", "deals",
                    "balance figure: default → changed", "balance gained, pp [95%]", "what it does to balance"],
                   table, [x.verdict().startswith("fairer") for x in rows]))
    b.append(_p(f"Each change is one run of heuristic play on the same deals as the default (a `components/` "
                f"stage), compared as a rule option is: each seat's advantage and the first player's, option "
                f"minus default; {family.tested()} questions, tested as a family of their own (at most a 5% "
                f"chance of any false alarm among them), apart from the study's: they are chosen from the data "
                f"after it was played."))
