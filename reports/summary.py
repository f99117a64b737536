"""The run summary: per strategy and per seat, games, wins, win rate with a 95% Wilson interval,
mean score.

It is printed after every run, so it reads the parts with ``pyarrow.parquet`` and counts with
NumPy (pandas alone costs 0.4 s to import). The same numbers with pandas alone, straight from the
dataset directory (``tests/test_runner.py`` checks that the two agree)::

    df = pd.read_parquet(directory, columns=["strategy", "seat", "score", "win"])
    g = df.groupby("strategy", observed=True)        # or "seat"
    games, wins, mean_score = g.size(), g["win"].sum(), g["score"].mean()
    win_rate = wins / games                          # interval: tourney_sim.simulate.stats.intervals.wilson(wins, games)
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tourney_sim.simulate.results import numpy_array, read_manifest, read_parts

from tourney_sim.simulate.stats.intervals import wilson
from tourney_sim.simulate.stats.load import options_label

from .labels import named_settings

COLUMNS = ["strategy", "seat", "score", "win"]


@dataclass
class Row:
    """One line of a summary table: a strategy (by name) or a seat (by number)."""

    label: str | int
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float


def load(directory: Path) -> tuple[dict[str, np.ndarray], list[str]]:
    """The summary's columns over all parts (``strategy`` as codes into the returned names, in
    the dataset's dictionary order: the run's strategies, then any non-player seat)."""
    names: list[str] = []
    strategy, seat, score, win = [], [], [], []
    for t in read_parts(directory, COLUMNS):
        for chunk in t.column("strategy").chunks:  # dictionary-encoded: codes into names
            for name in chunk.dictionary.to_pylist():
                if name not in names:
                    names.append(name)
            to_global = np.array([names.index(x) for x in chunk.dictionary.to_pylist()], np.int64)
            strategy.append(to_global[numpy_array(chunk.indices)])
        seat.append(numpy_array(t.column("seat")))
        score.append(numpy_array(t.column("score")))
        win.append(numpy_array(t.column("win")))
    columns = {"strategy": np.concatenate(strategy), "seat": np.concatenate(seat).astype(np.int64),
               "score": np.concatenate(score), "win": np.concatenate(win)}
    return columns, names


def _table(codes: np.ndarray, labels: list, score: np.ndarray, win: np.ndarray) -> list[Row]:
    games = np.bincount(codes, minlength=len(labels))
    won = np.bincount(codes, weights=win, minlength=len(labels)).astype(np.int64)
    total = np.bincount(codes, weights=score, minlength=len(labels))
    low, high = wilson(won, games)
    return [Row(label, int(games[k]), int(won[k]), won[k] / games[k], float(low[k]), float(high[k]),
                total[k] / games[k]) for k, label in enumerate(labels) if games[k] > 0]


def summarize(columns: dict[str, np.ndarray], strategy_names: list[str]) -> dict[str, list[Row]]:
    """{"strategy": a row per strategy (in ``strategy_names`` order), "seat": a row per seat}.

    A row of the dataset is one seat in one game, so a strategy holding two seats counts two
    games per game played; ``wins`` counts ranks of 1 (a shared first place is a win for each).
    """
    seats = list(range(int(columns["seat"].max()) + 1))
    return {"strategy": _table(columns["strategy"], strategy_names, columns["score"], columns["win"]),
            "seat": _table(columns["seat"], seats, columns["score"], columns["win"])}


def format_summary(tables: dict[str, list[Row]], manifest: dict) -> str:
    lines = [f"{manifest['game']} ({manifest['players']} players), "
             f"{manifest.get('games_done', manifest['games']):,} games, seed {manifest['seed']}"
             + (", rules " + options_label(manifest["options"], manifest["game"]) if manifest["options"] else "")]
    width = max([14] + [len(str(row.label)) + 2 for rows in tables.values() for row in rows])
    for key, title in (("strategy", "by strategy (a seat in a game counts once)"), ("seat", "by seat")):
        lines.append("")
        lines.append(title)
        lines.append(f"  {key:<{width}}{'games':>12}{'wins':>12}{'win rate':>10}   {'95% interval':<17}{'mean score':>11}")
        for row in tables[key]:
            lines.append(f"  {str(row.label):<{width}}{row.games:>12,}{row.wins:>12,}{row.win_rate:>10.4f}"
                         f"   [{row.ci_low:.4f}, {row.ci_high:.4f}] {row.mean_score:>10.2f}")
    named = named_settings([manifest])
    if named:
        lines += ["", "settings (short name: the values that differ from the defaults)"]
        for name, setting in named.items():
            lines += wrapped_setting(f"  {name}: ", setting)
    return "\n".join(lines)


#: characters per line of a setting in the terminal summary (a trained apprentice's has some 30
#: values, each to full precision)
SETTING_WIDTH = 100


def wrapped_setting(head: str, setting: str) -> list[str]:
    """``head`` + ``setting`` on lines of about :data:`SETTING_WIDTH` characters, broken after
    its commas and the lines after the first indented: the exact text, nothing rounded or elided
    (joined again without the breaks and indents, it is the setting as typed)."""
    lines, line = [], head
    parts = setting.split(",")
    for k, part in enumerate(parts):
        piece = part + ("," if k < len(parts) - 1 else "")
        if len(line) + len(piece) > SETTING_WIDTH and line.strip() and not line.endswith(": "):
            lines.append(line)
            line = " " * 6
        line += piece
    return lines + [line]


def summary_text(directory: Path) -> str:
    manifest = read_manifest(directory)
    return format_summary(summarize(*load(directory)), manifest)


def study_summary_text(directory: Path, manifest: dict) -> str:
    """A finished study's verdict, as its report opens: the sentences for each player count, the
    count of findings, and where the report and the stages' commands are."""
    from tourney_sim.simulate.stats.studies import load_study, questions

    from .study_report import verdicts

    data = load_study(Path(directory), manifest)
    family = questions(data)
    lines = [f"{data.title}: balance study ({manifest.get('budget')} budget, seed {manifest.get('seed')}); "
             f"{len(family.findings())} findings among {family.tested()} questions (one Holm per family, 5% each)",
             "", "verdict"]
    lines += [f"  {p} players: " + (" ".join(said) if said else "nothing settled at this budget.")
              for p, said in verdicts(data, family).items()]
    lines += ["", f"report: {Path(directory) / 'report.html'} (and report.md, `tourney report {directory}` to write "
                  f"it again); stages and commands: {Path(directory) / '_study.json'}"]
    return "\n".join(lines)
