"""The report of a tuning run (``tourney tune``): optimisation history, the best setting against
the starting one, and the confirmation on fresh deals. Laid out with the same blocks as the
tournament report, so ``tourney report DIR`` writes HTML, Markdown or text alike."""
from __future__ import annotations

from pathlib import Path

from tourney_sim.simulate import __version__
from tourney_sim.simulate.tune import BEST_FILE, best_name, read_tune, summary_text
from tourney_sim.strategies.params import _fmt

from . import plots
from .render import Report, Table, _figs, _fig, _h, _p, _ul, made_when, pval


def build(path: Path) -> Report:
    t = read_tune(path)
    title = f"Tuning {t['strategy']} ({t['game']})"
    r = Report(t["game"], title, [], [], [], [], [])
    b = r.blocks
    unit = "win rate" if t["objective"] == "win" else "score margin"
    b.append(_h(1, title))
    b.append(_p(f"{len(t.get('history', []))} trials of {t['deals']:,} deals, each played in "
                f"{len(t['seatings'])} seatings against each of {', '.join(t['against'])}, {t['players']} "
                f"players, sampler {t['sampler']}, seed {t['seed']}. Report made by tourney {__version__}"
                f"{made_when([t])}.", "lead"))
    r.terminal.append(summary_text(t))
    if t.get("status") != "complete":
        b.append(_p(f"This tuning run is {t.get('status')}: continue it with --resume to get a confirmation.",
                    "warn"))
        return r
    c, best, start = t["confirmation"], t["best"], t["start"]
    name = best_name(t)  # its values: the settings table below
    significant = c["p_value"] < 0.01
    verdict = (f"The best setting, {name}, is better than the starting setting on fresh deals"
               if significant and c["difference"] > 0 else
               f"The best setting, {name}, is worse than the starting setting on fresh deals: "
               f"the tuning over-fitted its deals" if significant else
               f"On fresh deals the best setting ({name}) is not distinguishable from the starting "
               f"setting at p < 0.01: the starting setting is at or near a local optimum for this field")
    b.append(_p(f"{verdict} ({unit} {c['difference']:+.4f}, 95% interval [{c['difference_ci'][0]:+.4f}, "
                f"{c['difference_ci'][1]:+.4f}], p {pval(c['p_value'])}).", "key"))

    b.append(_h(2, "How to read this report", "read"))
    b.append(_ul([
        f"Each trial is one setting of the parameters, played on the same {t['deals']:,} deals against the "
        "same field (common random numbers): the differences between trials come from the settings, "
        "not from the luck of the cards.",
        "Because the best of many trials is chosen on those very deals, its tuning figure is biased "
        "upwards. The confirmation replays the best and the starting setting on fresh deals "
        f"({c['deals']:,} deals, seed {t['confirm_seed']}), paired deal by deal: that difference is the "
        "honest estimate of the gain.",
        f"The {unit} is the candidate's mean over all its tables"
        + (" (a shared first place counts as a win; in team games the team's result)." if t["objective"] == "win"
           else " (its score minus the mean score of the other players)."),
    ]))

    b.append(_h(2, "Optimisation history", "history"))
    values = [h["value"] for h in t["history"]]
    figs = [_fig(plots.history(values, start["value"], f"{len(values)} trials", f"tuning {unit}"),
                 "trial values and the best so far")]
    b.append(_figs(*figs))
    scat = []
    for p in t["space"]:
        if p["kind"] == "choice":
            continue
        xs = [h["setting"][p["name"]] for h in t["history"]]
        scat.append(_fig(plots.scatter(xs, values, best["setting"][p["name"]], p["name"], p["name"], unit),
                         f"{unit} against {p['name']}"))
    if scat:
        b.append(_figs(*scat))

    b.append(_h(2, "Best setting against the starting setting", "best"))
    rows = []
    for p in t["space"]:
        start_value = t["base_setting"][p["name"]]
        rng = (", ".join(p["choices"]) if p["kind"] == "choice" else f"{_fmt(p['low'])} to {_fmt(p['high'])}")
        rows.append([p["name"], _fmt(start_value), _fmt(best["setting"][p["name"]]), rng, p["help"]])
    b.append(Table(["parameter", f"start ({start['label']})", f"best ({name})", "range", "meaning"], rows,
                   marks=[r_[1] != r_[2] for r_ in rows]))
    b.append(_p(f"Tuning {unit}: best {best['value']:.4f} (trial {best['trial']}), start {start['value']:.4f} "
                f"(trial 0). Use the best setting with --strategy {t['strategy'].split(':')[0]}@"
                f"{Path(path) / BEST_FILE}: results, tables and plots call it {name}, and its manifest keeps "
                f"every value."))

    b.append(_h(2, "Confirmation on fresh deals", "confirmation"))
    b.append(Table(["setting", unit, "95% interval"], [
        [name + " (best)", f"{c['best']:.4f}", f"[{c['best_ci'][0]:.4f}, {c['best_ci'][1]:.4f}]"],
        [start["label"] + " (start)", f"{c['defaults']:.4f}", f"[{c['defaults_ci'][0]:.4f}, {c['defaults_ci'][1]:.4f}]"],
        ["difference (paired by deal)", f"{c['difference']:+.4f}",
         f"[{c['difference_ci'][0]:+.4f}, {c['difference_ci'][1]:+.4f}]"],
    ]))
    b.append(_p(f"Paired t-test over {c['deals']:,} deals: p {pval(c['p_value'])}. The datasets are in "
                f"{Path(path) / 'confirmation'} (one per table; tourney report and verify read them)."))

    b.append(_h(2, "Provenance", "provenance"))
    b.append(_p(f"Command: {t.get('command') or '(Python API)'}. Created {t.get('created')}, tourney "
                f"{t.get('tool_version')}, rules options {t.get('options')}, {t.get('seconds', 0):.0f} s. The optuna "
                f"study is {Path(path) / 'study.journal'} (study name 'tune'; optuna.load_study with a "
                "JournalStorage reads it)."))
    return r
