"""The run summary: per strategy and per seat, games, wins, win rate with a 95% Wilson interval,
mean score. Computed from the Parquet dataset with pandas alone (this module is the recipe)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulate.results import read_manifest, read_table

from .stats import wilson

COLUMNS = ["strategy", "seat", "score", "win"]


def load(directory: Path, columns=COLUMNS) -> pd.DataFrame:
    """The dataset's rows as a pandas DataFrame (all parts)."""
    return read_table(directory, columns=columns).to_pandas()


def _table(df: pd.DataFrame, by: str) -> pd.DataFrame:
    g = df.groupby(by, observed=True, sort=True)
    out = pd.DataFrame({"games": g.size(), "wins": g["win"].sum(), "mean_score": g["score"].mean()})
    out["win_rate"] = out["wins"] / out["games"]
    out["ci_low"], out["ci_high"] = wilson(out["wins"].to_numpy(), out["games"].to_numpy())
    return out[["games", "wins", "win_rate", "ci_low", "ci_high", "mean_score"]]


def summarize(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """{"strategy": per-strategy table, "seat": per-seat table}.

    A row is one seat in one game, so a strategy holding two seats counts two games per game
    played; ``wins`` counts ranks of 1 (a shared first place is a win for each).
    """
    return {"strategy": _table(df, "strategy"), "seat": _table(df, "seat")}


def _option_text(value) -> str:
    """An option value for a one-line header: tables (e.g. a component file) are not spelled out."""
    if isinstance(value, (dict, list)):
        return "(table in _manifest.json)"
    return str(value)


def format_summary(tables: dict[str, pd.DataFrame], manifest: dict) -> str:
    lines = [f"{manifest['game']} ({manifest['players']} players), "
             f"{manifest.get('games_done', manifest['games']):,} games, seed {manifest['seed']}"
             + (", rules " + ", ".join(f"{k}={_option_text(v)}" for k, v in manifest["options"].items())
                if manifest["options"] else "")]
    for key, title in (("strategy", "by strategy (a seat in a game counts once)"), ("seat", "by seat")):
        t = tables[key]
        lines.append("")
        lines.append(title)
        lines.append(f"  {key:<14}{'games':>12}{'wins':>12}{'win rate':>10}   {'95% interval':<17}{'mean score':>11}")
        for name, row in t.iterrows():
            lines.append(f"  {str(name):<14}{int(row.games):>12,}{int(row.wins):>12,}{row.win_rate:>10.4f}"
                         f"   [{row.ci_low:.4f}, {row.ci_high:.4f}] {row.mean_score:>10.2f}")
    return "\n".join(lines)


def summary_text(directory: Path) -> str:
    manifest = read_manifest(directory)
    return format_summary(summarize(load(directory)), manifest)
