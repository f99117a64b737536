"""The public Python API (re-exported by ``tourney_sim``): the CLI's commands as functions.

Each function gathers its arguments and calls the same library code as the ``tourney`` command,
so a notebook and the command line make byte-identical datasets. Errors are the library's own
(``ValueError`` subclasses with a one-line message: an unknown game, strategy or rule option, an
existing output directory, ...). See ``docs/api.md``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence


@dataclass
class Summary:
    """What a run or tournament found, as tables (pandas DataFrames) and as the CLI prints it.

    ``tables``: for a run, ``"strategy"`` and ``"seat"`` (games, wins, win_rate, ci_low,
    ci_high, mean_score); for a tournament or sweep, ``"strategy"`` per player count and rules
    (win rate with its interval, rating) as the report computes them.
    """

    text: str
    tables: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, p, cycle) -> None:  # IPython shows the text, not the dataclass
        p.text(self.text)


@dataclass
class Result:
    """A finished ``run``, ``tournament`` or ``sweep``: where its data is, and its summary."""

    path: Path
    summary: Summary
    manifest: dict

    def load(self):
        """The results as a pandas DataFrame (see :func:`load`)."""
        return load(self.path)


def games() -> dict:
    """Every game: name -> its spec (``title``, ``min_players``, ``max_players``,
    ``rules_version``, ``options`` (rule options), ``columns`` (its own result columns), ...)."""
    from tourney_sim.simulate.games import game_names, get_game
    return {name: get_game(name) for name in game_names()}


def _run_summary(path: Path) -> Summary:
    import pandas as pd

    from tourney_sim.reports.summary import format_summary, load as load_columns, summarize
    from tourney_sim.simulate.results import read_manifest
    tables = summarize(*load_columns(path))
    frames = {key: pd.DataFrame([vars(r) for r in rows]).set_index("label").rename_axis(key)
              for key, rows in tables.items()}
    return Summary(format_summary(tables, read_manifest(path)), frames)


def run(game: str, strategies: Sequence[str], *, players: int | None = None, games: int = 100_000,
        seed: int = 0, rules: Sequence[str] = (), out: str | Path | None = None,
        workers: int | None = None, chunk_size: int | None = None, rotate: bool = True,
        overwrite: bool = False, resume: bool = False, scheduler: str | None = None,
        progress: bool = False) -> Result:
    """Play ``games`` seeded games (as ``tourney run``); returns the dataset's path and summary.

    ``strategies`` are seated in order and repeated to fill the table; ``rules`` are
    ``"key=value"`` strings; ``out`` defaults to ``runs/GAME-Np-seedS``.
    """
    from tourney_sim.simulate.matchup import make_matchup
    from tourney_sim.simulate.runner import run as run_games
    if games < 1:
        raise ValueError(f"games must be a positive number, got {games}")
    m = make_matchup(game, players, list(strategies), rules=list(rules), seed=seed, rotate=rotate)
    path = Path(out) if out is not None else Path("runs") / f"{game}-{m.n_players}p-seed{seed}"
    report = run_games(m, games, path, workers=workers, chunk_size=chunk_size, overwrite=overwrite,
                       progress=progress, command=None, scheduler=scheduler, resume=resume)
    if report.interrupted:
        raise KeyboardInterrupt(f"interrupted: finished parts kept in {path} (resume=True continues)")
    return Result(path, _run_summary(path), report.manifest)


def _tournament_summary(path: Path) -> Summary:
    from tourney_sim.reports.render import build, to_text
    rep = build([path])
    tables = {}
    for cfg_report in rep.configs:
        key = "strategy" if len(rep.configs) == 1 else f"strategy {cfg_report.cfg.label}"
        tables[key] = cfg_report.strategies
    return Summary(to_text(rep), tables)


def tournament(game: str, strategies: Sequence[str], *, players: int | None = None,
               games: int = 10_000, seed: int = 0, rules: Sequence[str] = (),
               out: str | Path | None = None, workers: int | None = None,
               chunk_size: int | None = None, overwrite: bool = False, resume: bool = False,
               until_decided: bool = False, alpha: float = 0.05, margin: float = 0.02,
               scheduler: str | None = None, progress: bool = False, seatings: str = "all") -> Result:
    """A duplicate tournament (as ``tourney tournament``): every matchup, every seating (or with
    ``seatings="field"`` one strategy against a field of another), the same ``games`` deals each.
    Returns the tournament directory and its summary."""
    return _tournament(game, strategies, players, games, seed, list(rules), None, out, workers,
                       chunk_size, overwrite, resume, until_decided, alpha, margin, scheduler,
                       progress, "tournament", seatings)


def sweep(game: str, vary: Sequence[str], strategies: Sequence[str], *, players: int | None = None,
          games: int = 10_000, seed: int = 0, out: str | Path | None = None,
          workers: int | None = None, chunk_size: int | None = None, overwrite: bool = False,
          resume: bool = False, until_decided: bool = False, alpha: float = 0.05,
          margin: float = 0.02, scheduler: str | None = None, progress: bool = False,
          seatings: str = "all") -> Result:
    """The same deals under each rule variant (as ``tourney sweep``); ``vary`` holds
    ``"key=v1,v2"`` strings (the variants are every combination); ``seatings`` as for
    :func:`tournament`."""
    if not vary:
        raise ValueError("give the rule to vary, e.g. vary=['key=v1,v2']")
    return _tournament(game, strategies, players, games, seed, [], list(vary), out, workers,
                       chunk_size, overwrite, resume, until_decided, alpha, margin, scheduler,
                       progress, "sweep", seatings)


def _tournament(game, strategies, players, games, seed, rules, vary, out, workers, chunk_size,
                overwrite, resume, until_decided, alpha, margin, scheduler, progress, kind,
                seatings="all") -> Result:
    from tourney_sim.simulate.games import get_game
    from tourney_sim.simulate.tournament import run_tournament
    if games < 1:
        raise ValueError(f"games must be a positive number, got {games}")
    if out is None:
        spec = get_game(game)
        n = players or spec.default_players
        out = Path("runs") / f"{game}-{kind}-{n}p-seed{seed}"
    path = Path(out)
    result = run_tournament(game, players, list(strategies), games, seed, path, rules=rules,
                            sweep=vary, workers=workers, chunk_size=chunk_size,
                            overwrite=overwrite, progress=progress, command=None,
                            stop=_stopping_rule(vary, until_decided, alpha, margin),
                            scheduler=scheduler, resume=resume, design=seatings)
    if result.interrupted:
        raise KeyboardInterrupt(f"interrupted: finished parts kept in {path} (resume=True continues)")
    return Result(path, _tournament_summary(path), result.manifest)


def _stopping_rule(vary, until_decided: bool, alpha: float, margin: float):
    """``until_decided``'s stopping rule for a tournament (a sweep with ``vary``): the sequential
    test of :mod:`tourney_sim.reports.sequential`, or None (TournamentError for bad settings)."""
    from tourney_sim.simulate.tournament import check_stopping, question_of
    if not until_decided:
        return None
    check_stopping(alpha, margin)
    from tourney_sim.reports.sequential import Sequential
    return Sequential(question_of(vary), alpha, margin)


def _run_study(game: str, out: Path, **options):
    """:func:`tourney_sim.simulate.study.run_study` with the reports' stopping rule and study report."""
    from tourney_sim.reports.sequential import Sequential
    from tourney_sim.reports.study_report import write_report
    from tourney_sim.simulate.study import run_study
    return run_study(game, out, stopping_rule=Sequential, write_report=write_report, **options)


def tune(game: str, strategy: str, against: Sequence[str], *, trials: int = 100, deals: int = 2000,
         seed: int = 0, players: int | None = None, rules: Sequence[str] = (),
         params: Sequence[str] | None = None, sampler: str = "tpe", objective: str = "win",
         confirm_deals: int | None = None, confirm_seed: int | None = None,
         out: str | Path | None = None, workers: int | None = None, scheduler: str | None = None,
         overwrite: bool = False, resume: bool = False, progress: bool = False) -> Result:
    """Tune a strategy's parameters against a field (as ``tourney tune``). ``result.summary``
    has the best setting and the confirmation; ``result.path / "best.toml"`` is the setting."""
    from tourney_sim.simulate.tune import summary_text, tune as run_tune
    name = strategy.split("@")[0].split(":")[0]
    path = Path(out) if out is not None else Path("runs") / f"tune-{game}-{name}-seed{seed}"
    report = run_tune(game, strategy, list(against), path, n_players=players, rules=list(rules),
                      trials=trials, deals=deals, seed=seed, sampler=sampler, objective=objective,
                      params=list(params) if params else None, confirm_deals=confirm_deals,
                      confirm_seed=confirm_seed, workers=workers, scheduler=scheduler,
                      overwrite=overwrite, resume=resume, progress=progress)
    import pandas as pd
    history = pd.DataFrame([{"trial": h["trial"], "value": h["value"], "label": h["label"], **h["setting"]}
                            for h in report.manifest["history"]]).set_index("trial")
    return Result(path, Summary(summary_text(report.manifest), {"history": history}), report.manifest)


def study(game: str, *, out: str | Path | None = None, budget: str = "standard",
          players: Sequence[int] | None = None, levels: Sequence[str] = ("random", "heuristic", "search"),
          seed: int = 0, workers: int | None = None, scheduler: str | None = None, resume: bool = False,
          overwrite: bool = False, progress: bool = False) -> Result:
    """A balance study (as ``tourney study``): every stage played into ``out``, then findings.json,
    report.html and report.md there. ``result.summary.text`` holds the findings in words;
    ``result.summary.tables["questions"]`` every question of the study (estimate, interval,
    p-values, outcome) as a DataFrame; ``result.manifest`` each stage with its command."""
    import json

    path = Path(out) if out is not None else Path("runs") / f"study-{game}-{budget}-seed{seed}"
    report = _run_study(game, path, budget=budget, players=list(players) if players else None,
                        levels=list(levels), seed=seed, workers=workers, scheduler=scheduler, resume=resume,
                        overwrite=overwrite, progress=progress)
    if report.interrupted:
        raise KeyboardInterrupt(f"interrupted: finished stages kept in {path} (resume=True continues)")
    import pandas as pd
    questions = pd.DataFrame(json.loads((path / "findings.json").read_text())["questions"])
    return Result(path, Summary(report.summary, {"questions": questions}), report.manifest)


def load(path: str | Path, columns: Sequence[str] | None = None):
    """A dataset, tournament or sweep directory as one pandas DataFrame, one row per game and
    seat (the columns of the README's Results table).

    For a tournament or sweep, the rows of all its seating datasets, with a ``dataset`` column
    (the seating's directory) and, for a sweep, ``variant``. ``.attrs["manifest"]`` holds the
    manifest (of a single dataset) or ``.attrs["manifests"]`` (dataset directory -> manifest)
    and ``.attrs["tournament"]`` (``_tournament.json``).
    """
    import pandas as pd

    from tourney_sim.reports.load import discover
    from tourney_sim.simulate.results import DatasetError, part_files
    path = Path(path)
    sources = discover([path])
    frames = []
    for src in sources:
        if not part_files(src.path):
            continue
        df = pd.read_parquet(src.path, columns=list(columns) if columns else None)
        if len(sources) > 1 or src.tournament is not None:
            df.insert(0, "dataset", str(src.path.relative_to(path) if src.path.is_relative_to(path)
                                        else src.path))
            if src.variant is not None:
                df.insert(1, "variant", src.variant)
        frames.append(df)
    if not frames:
        raise DatasetError(f"{path} holds no result parts yet")
    df = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    if "dataset" in df.columns:
        df["dataset"] = df["dataset"].astype("category")
    if len(sources) == 1 and sources[0].tournament is None:
        df.attrs["manifest"] = sources[0].manifest
    else:
        df.attrs["manifests"] = {str(s.path): s.manifest for s in sources}
        if sources[0].tournament is not None:
            df.attrs["tournament"] = sources[0].tournament
    return df


def report(paths: str | Path | Sequence[str | Path], out: str | Path | None = None,
           format: str | None = None, rating_sample: int = 10_000) -> str:
    """The report of datasets, tournaments or sweeps, or of a tuning run (as ``tourney report``).

    With ``out``, writes HTML (or Markdown for a ``.md`` name, or as ``format`` says) and
    returns the path as a string; without, returns the Markdown text.
    """
    from tourney_sim.reports import tuning
    from tourney_sim.reports.render import build, to_markdown, write
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if len(paths) == 1 and tuning.is_tuning(paths[0]):
        rep = tuning.build(Path(paths[0]))
    else:
        rep = build([Path(p) for p in paths], rating_sample)
    if out is None:
        return to_markdown(rep)
    out = Path(out)
    fmt = format or ("md" if out.suffix.lower() == ".md" else "html")
    if fmt not in ("html", "md"):
        raise ValueError(f"format must be html or md, got {fmt!r}")
    return str(write(rep, out, fmt))


def replay(path: str | Path, game: int, *, legal: bool = False) -> dict:
    """The complete trace (``tourney-trace/2``, ``docs/traces.md``) of game ``game`` of a dataset,
    as ``tourney replay --format json`` prints it; ``legal`` adds every decision's legal moves."""
    from tourney_sim.simulate.replay import trace
    return trace(Path(path), game, legal=legal)


def check(trace: dict | str | Path):
    """Re-check a trace (a dict, or a JSON file) with the game's reference engine, as ``tourney
    check``: a report with ``ok`` and ``message`` (the first step where it parts from the rules)."""
    from tourney_sim.simulate.check import check_trace, load_trace, validate_trace
    if isinstance(trace, dict):
        validate_trace(trace)
    else:
        trace = load_trace(Path(trace))
    return check_trace(trace)


def position(game: str, position: dict, strategy: str = "random", *, seed: int = 0) -> dict:
    """A position's legal moves and the move ``strategy`` plays there, as ``tourney position``
    (``to_move``, ``legal``: index, move, action, text; ``choice``: the one chosen)."""
    from tourney_sim.simulate.position import analyse
    return analyse(game, position, strategy, seed=seed)
