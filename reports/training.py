"""The report of a training run (``tourney train``): the learning curve, with a plot, and what the
apprentice weighs most, in words. Written into the run's directory when it ends (report.md,
learning-curve.png)."""
from __future__ import annotations

from pathlib import Path

from tourney_sim.simulate.jobdir import renders
from tourney_sim.simulate.policy import curve_name
from tourney_sim.simulate.train import TRAIN, features_of

from . import plots
from .render import interval_pp, pp

CURVE = "learning-curve.png"


@renders(TRAIN)
def write_report(out: Path, manifest: dict) -> str:
    """report.md and learning-curve.png in ``out``; returns the report's headline."""
    history = manifest["history"]
    if history:
        ev = [h["evaluation"] for h in history]
        itself = [e["opponent_win_rate"] for e in ev if e.get("opponent_win_rate") is not None]
        png = plots.intervals([f"round {h['round']}" + (" (best)" if manifest["best"] and manifest["best"]["round"]
                                                           == h["round"] else "") for h in history],
                              [e["win_rate"] for e in ev], [e["win_ci"][0] for e in ev], [e["win_ci"][1] for e in ev],
                              f"{manifest['game']} at {manifest['players']} players: each round's weights against "
                              f"{manifest['against']}",
                              f"win rate in every seat (fresh deals; dashed: {manifest['against']} itself there)"
                              if itself else "win rate in every seat (fresh deals; dashed: an even share)",
                              reference=sum(itself) / len(itself) if itself else 1 / len(_seatings(manifest)))
        (Path(out) / CURVE).write_bytes(png)
    text = report_text(manifest, features_of(manifest["game"]).FEATURES)
    (Path(out) / "report.md").write_text(text)
    return _first_paragraph(text)


def headline(manifest: dict) -> str:
    """The report's first paragraph: the best weights and how they play."""
    return _first_paragraph(report_text(manifest, features_of(manifest["game"]).FEATURES))


def _first_paragraph(text: str) -> str:
    """The paragraph after the report's title."""
    return text.split("\n\n")[1] if "\n\n" in text else text


def _edge(ev: dict) -> str:
    """A round's paired edge over the opponent's own games in the same seats: "+3.2 pp [+1.9, +4.5]"."""
    d = ev["against_opponent"]
    return f"{pp(d['difference'])} pp {interval_pp(*d['difference_ci'])}"


def _seatings(manifest: dict) -> list:
    from tourney_sim.simulate.games import get_game
    from tourney_sim.simulate.tune import candidate_seatings
    return candidate_seatings(manifest["players"], get_game(manifest["game"]).team_game)


def report_text(manifest: dict, features) -> str:
    """The learning curve and the largest weights, in Markdown."""
    best = manifest.get("best") or {}
    lines = [f"# The apprentice of {manifest['game']} at {manifest['players']} players", ""]
    if best and best["round"] is None:
        lines.append(f"Best weights: the start ({manifest.get('start_from') or 'given weights'}): no round's weights "
                     "played at least as well on this table.")
    elif best:
        itself = next((h["evaluation"] for h in manifest["history"] if h["round"] == best["round"]), {})
        than = (f"where {manifest['against']} itself wins {itself['opponent_win_rate']:.1%} in those seats on the same "
                f"deals: {_edge(itself)}" if itself.get("against_opponent")
                else f"an even share is {1 / len(_seatings(manifest)):.1%}")
        lines.append(f"Best weights: round {best['round']}, winning {best['win_rate']:.1%} of its games against "
                     f"{manifest['against']} in every seat (fresh deals; {than}). Play them: "
                     "`--strategy apprentice@DIR`. Each round's weights replace the best unless they play measurably "
                     "worse on the same deals.")
    lines += ["", f"![learning curve]({CURVE})" if manifest["history"] else "(no round finished yet)", "",
              "| round | positions | agrees with the search (fit) | log loss | win rate vs "
              f"{manifest['against']} [95%] | {manifest['against']} itself there: edge over it, pp [95%] | "
              "against the best so far [95%] | kept |", "|---|---|---|---|---|---|---|---|"]
    for h in manifest["history"]:
        ev = h["evaluation"]
        d = ev.get("against_best")
        vs = (f"{d['difference']:+.1%} [{d['difference_ci'][0]:+.1%}, {d['difference_ci'][1]:+.1%}]"
              if d else "(first)")
        edge = f"{ev['opponent_win_rate']:.1%}: {_edge(ev)}" if ev.get("against_opponent") else "—"
        lines.append(f"| {h['round']} | {h['positions']:,} | {h['fit']['agreement']:.1%} | {h['fit']['log_loss']:.3f} | "
                     f"{ev['win_rate']:.1%} [{ev['win_ci'][0]:.1%}, {ev['win_ci'][1]:.1%}] | {edge} | {vs} | "
                     f"{'yes' if h['kept'] else 'no'} |")
    if best:
        meaning = dict(features)
        meaning.update({curve_name(name): f"its curve ({name} x |{name}|: {text})" for name, text in features})
        weights = dict(zip(manifest["features"], best["weights"]))
        guide = weights.pop("guide", 0.0)
        ranked = sorted(weights.items(), key=lambda t: -abs(t[1]))
        lines += ["", "## What it weighs most", "",
                  f"The move {manifest.get('guide', 'the guide')} plays (the guide) weighs {guide:+.2f}; the largest "
                  "other weights (a feature's, or its curve's, which counts the feature more than in proportion at "
                  "its extremes):", ""]
        lines += [f"- {name} ({w:+.2f}): {'prefers' if w > 0 else 'avoids'} {meaning.get(name, name)}"
                  for name, w in ranked[:8]]
    return "\n".join(lines) + "\n"
