"""The public Python API (re-exported by ``tourney_sim``): the CLI's commands as functions.

The ``tourney`` command (``tourney_sim/cli``) is a thin layer over these functions, so a notebook
and the command line make byte-identical datasets. The functions take the command's options as
keyword arguments, check them, choose the default output directory (:data:`DEFAULT_OUT`), play,
and return a :class:`Result`. Errors are the library's own: ``ValueError`` subclasses of
:class:`~tourney_sim.simulate.errors.TourneyError` whose message is the one line the command
prints (an unknown game, strategy or rule option, an existing output directory, ...); a run
stopped by Ctrl-C raises :class:`~tourney_sim.simulate.errors.Interrupted` (a
``KeyboardInterrupt``) after keeping what it finished. See ``docs/api.md``.

Heavy modules (numba, pandas, pyarrow) are imported by the functions that need them, so importing
this module stays cheap.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Sequence

#: command -> its default output directory, filled in with the run's own values (the CLI's help
#: shows these patterns with GAME, N, S, ... in place of the values)
DEFAULT_OUT = {
    "run": "runs/{game}-{players}p-seed{seed}",
    "tournament": "runs/{game}-tournament-{players}p-seed{seed}",
    "sweep": "runs/{game}-sweep-{players}p-seed{seed}",
    "tune": "runs/tune-{game}-{strategy}-seed{seed}",
    "study": "runs/study-{game}-{budget}-seed{seed}",
    "design": "runs/design-{game}-{budget}-seed{seed}",
    "train": "runs/train-{game}-{players}p-seed{seed}",
}

Echo = Callable[[str], None]


class Summary:
    """What a run, tournament or tuning run found, as the CLI prints it (``text``) and as tables
    (``tables``: name -> pandas DataFrame, made on first use).

    For a run, ``"strategy"`` and ``"seat"`` (games, wins, win_rate, ci_low, ci_high,
    mean_score); for a tournament or sweep, ``"strategy"`` per player count and rules (win rate
    with its interval, rating) as the report computes them; for a tuning run ``"history"``; for a
    study ``"questions"``.
    """

    def __init__(self, text: str, tables: dict[str, Any] | Callable[[], dict[str, Any]] | None = None):
        self.text = text
        self._tables = tables

    @property
    def tables(self) -> dict[str, Any]:
        if callable(self._tables):
            self._tables = self._tables()
        return self._tables or {}

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Summary({self.text!r})"

    def _repr_pretty_(self, p, cycle) -> None:  # IPython shows the text
        p.text(self.text)


@dataclass
class Result:
    """A finished ``run``, ``tournament``, ``sweep``, ``tune`` or ``study``: where its data is
    (``path``), its ``manifest``, its ``summary`` (made on first use), the ``notes`` on what a
    resume kept or discarded, and the ``seconds`` this call took."""

    path: Path
    manifest: dict
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    games_played: int = 0  # a run's games played by this call (a resume counts only the new ones)
    resumed: bool = False  # a run continued by this call
    summarize: Callable[[Result], Summary] | None = field(default=None, repr=False)

    @cached_property
    def summary(self) -> Summary:
        return self.summarize(self)

    @cached_property
    def analysis(self):
        """The report's analysis of ``path`` (made once, for ``summary`` and ``report``)."""
        return _analyse([self.path])

    def load(self, columns: Sequence[str] | None = None):
        """The results as a pandas DataFrame (see :func:`load`)."""
        return load(self.path, columns)

    def report(self, out: str | Path | None = None, format: str | None = None) -> str:
        """As :func:`report` of ``path``, without analysing the data again."""
        return _render(self.analysis, out, format)


def _out(out: str | Path | None, command: str, **values) -> Path:
    return Path(out) if out is not None else Path(DEFAULT_OUT[command].format(**values))


def _players(game: str, players: int | None) -> int:
    from tourney_sim.simulate.games import get_game
    spec = get_game(game)
    return spec.player_count(players or None)


def _require(ok: bool, message: str) -> None:
    if not ok:
        from tourney_sim.simulate.errors import TourneyError
        raise TourneyError(message)


def _check_play(games: int | None = None, workers: int | None = None, chunk_size: int | None = None) -> None:
    """The checks every playing command makes of its common options, with the command's words."""
    _require(games is None or games >= 1, f"--games must be a positive number, got {games}")
    _require(workers is None or workers >= 1, f"--workers must be at least 1, got {workers}")
    _require(chunk_size is None or chunk_size >= 1, f"--chunk-size must be at least 1, got {chunk_size}")


def _tell(echo: Echo | None, notes: Sequence[str]) -> None:
    for note in notes if echo is not None else ():
        echo(note)


def _ended(report, echo: Echo | None, kept: Callable[[], str]) -> None:
    """A job's end as the API says it: the notes of a resume to ``echo``; a job stopped by Ctrl-C
    raises :class:`~tourney_sim.simulate.errors.Interrupted`, its line "interrupted: " and
    ``kept()``: what it keeps, where, and how to go on."""
    from tourney_sim.simulate.errors import Interrupted
    _tell(echo, report.notes)
    if report.interrupted:
        raise Interrupted(f"interrupted: {kept()}")


def games() -> dict:
    """Every game: name -> its spec (``title``, ``min_players``, ``max_players``,
    ``rules_version``, ``options`` (rule options), ``columns`` (its own result columns), ...)."""
    from tourney_sim.simulate.games import game_names, get_game
    return {name: get_game(name) for name in game_names()}


def _kind(path: Path):
    """The kind of job directory ``path`` is (:func:`tourney_sim.simulate.jobdir.detect`)."""
    from tourney_sim.simulate.jobs import detect
    return detect(path)


def _not_a_dataset(path: Path, instead: str = ""):
    """The one-line error for a directory that is not a dataset, saying what to give instead."""
    from tourney_sim.simulate.jobs import not_a
    from tourney_sim.simulate.results import DATASET, DatasetError
    return DatasetError(not_a(path, DATASET, instead))


def _report_instead(path: Path) -> str:
    return f", or `tourney report {path}` for its report"


def summary(path: str | Path) -> Summary:
    """A dataset's summary (as ``tourney summary``): per strategy and per seat, games, wins, win
    rate with its 95% interval and mean score. A tournament or sweep: its report's summary; a
    tuning run: its best setting and confirmation; a finished study: its verdict; a design run:
    its recommendation; a training run: its best weights."""
    from tourney_sim.reports.summary import format_summary, load as load_columns, summarize
    from tourney_sim.simulate.results import DATASET, read_manifest
    from tourney_sim.simulate.tournament import TOURNAMENT, read_tournament
    from tourney_sim.simulate.tune import TUNE, read_tune
    path = Path(path)
    kind = _kind(path)
    if kind is TOURNAMENT:
        return Result(path, read_tournament(path), summarize=_tournament_summary).summary
    if kind is TUNE:
        return Result(path, read_tune(path), summarize=_tune_summary).summary
    if _own_report_writer(kind) is not None:
        return _own_summary(path)
    if kind not in (DATASET, None):
        raise _not_a_dataset(path, _report_instead(path))
    manifest = read_manifest(path)
    tables = summarize(*load_columns(path))

    def frames():
        import pandas as pd
        return {key: pd.DataFrame([vars(r) for r in rows]).set_index("label").rename_axis(key)
                for key, rows in tables.items()}
    return Summary(format_summary(tables, manifest), frames)


def run(game: str, strategies: Sequence[str] = (), *, players: int | None = None, games: int = 100_000,
        seed: int = 0, rules: Sequence[str] = (), components: Sequence[str] = (), out: str | Path | None = None,
        workers: int | None = None, chunk_size: int | None = None, rotate: bool = True,
        overwrite: bool = False, resume: bool = False, scheduler: str | None = None,
        progress: bool = False, command: str | None = None, echo: Echo | None = None,
        first_game: int = 0, record: Sequence[str] = ()) -> Result:
    """Play ``games`` seeded games (as ``tourney run``), games ``first_game ..`` of the seed;
    returns the dataset's path and summary.

    ``strategies`` are seated in order and repeated to fill the table (default: the game's
    built-ins); ``rules`` are ``"key=value"`` strings, ``components`` ``"KEY=VALUE"`` component
    values set over the table in force (``--component``); ``out`` defaults to ``runs/GAME-Np-seedS``;
    ``command`` is recorded in the manifest; ``echo`` receives the notes of a resume;
    ``record=["dealt"]`` adds the ``dealt`` column (what each seat was dealt).
    """
    from tourney_sim.simulate import jobs  # noqa: F401  (every kind known: an --out of another kind is named)
    from tourney_sim.simulate.matchup import make_matchup
    from tourney_sim.simulate.runner import run as run_games
    from tourney_sim.strategies import heuristics
    _check_play(games, workers, chunk_size)
    config = _config(game, players, rules, components)
    names = list(strategies) or heuristics(game)[:config.players]
    m = make_matchup(config, names, seed=seed, rotate=rotate, record=tuple(record))
    path = _out(out, "run", game=game, players=m.n_players, seed=seed)
    _require(first_game >= 0, "--first-game must be 0 or more")
    report = run_games(m, games, path, workers=workers, chunk_size=chunk_size, overwrite=overwrite,
                       progress=progress, command=command, scheduler=scheduler, resume=resume,
                       first_game=first_game)
    _ended(report, echo, lambda: f"{report.manifest['games_done']:,} of {games:,} games kept in {path} "
                                  "(whole parts only; continue with --resume)")
    return Result(path, report.manifest, report.notes, report.seconds, report.games_played, report.resumed,
                  lambda r: summary(r.path))


def tournament(game: str, strategies: Sequence[str] = (), *, out: str | Path | None = None,
               workers: int | None = None, overwrite: bool = False, resume: bool = False,
               scheduler: str | None = None, progress: bool = False, command: str | None = None,
               echo: Echo | None = None, **options) -> Result:
    """A duplicate tournament (as ``tourney tournament``): every matchup, every seating (or with
    ``seatings="field"`` one strategy against a field of another), the same ``games`` deals each.
    ``options`` are those of :class:`~tourney_sim.simulate.tournament.TournamentRequest` (each
    with its meaning there, as ``tourney tournament --help`` shows it): ``players``, ``games``,
    ``seed``, ``rules``, ``components``, ``until_decided``, ``alpha``, ``margin``, ``seatings``,
    ``first_batch``, ``record``, ``chunk_size``. Returns the tournament directory and its summary
    (``result.report(out)`` writes its report)."""
    from tourney_sim.simulate.tournament import TournamentRequest
    r = TournamentRequest(strategies=list(strategies), **options)
    return _tournament("tournament", game, r, _rules(r.rules, r.components), None, out=out, workers=workers, overwrite=overwrite,
                       resume=resume, scheduler=scheduler, progress=progress, command=command, echo=echo)


def sweep(game: str, vary: Sequence[str] = (), strategies: Sequence[str] = (), *, out: str | Path | None = None,
          workers: int | None = None, overwrite: bool = False, resume: bool = False, scheduler: str | None = None,
          progress: bool = False, command: str | None = None, echo: Echo | None = None, **options) -> Result:
    """The same deals under each rule variant (as ``tourney sweep``); ``vary`` holds
    ``"key=v1,v2"`` strings and ``components`` ``"KEY=v1,v2"`` component values (the variants
    are every combination); the other ``options`` as for :func:`tournament`
    (:class:`~tourney_sim.simulate.tournament.SweepRequest`)."""
    from tourney_sim.simulate.tournament import SweepRequest
    r = SweepRequest(strategies=list(strategies), rules=list(vary), **options)
    varied = _rules(r.rules, r.components)
    _require(bool(varied), "give the rule to vary, e.g. --rule key=v1,v2 (or a component, --component KEY=v1,v2)")
    return _tournament("sweep", game, r, [], varied, out=out, workers=workers, overwrite=overwrite,
                       resume=resume, scheduler=scheduler, progress=progress, command=command, echo=echo)


def _rules(rules: Sequence[str], components: Sequence[str]) -> list[str]:
    """``--rule`` values and ``--component`` values as one list of rules (a component value is
    the rule ``components.KEY=VALUE``, applied over the component table in force)."""
    from tourney_sim.simulate.games.spec import component_rules
    return list(rules) + component_rules(components)


def _config(game: str, players: int | None, rules: Sequence[str], components: Sequence[str]):
    """The game as asked (``--players``, ``--rule``, ``--component``), built and checked once: a
    :class:`~tourney_sim.simulate.games.config.GameConfig` (``make_matchup(config, strategies,
    ...)``; ``config.rules`` is ``_rules(rules, components)``). RuleError with one line."""
    from tourney_sim.simulate.games.config import GameConfig
    return GameConfig.build(game, players, list(rules), list(components))


def _tournament(kind: str, game: str, r, rules: list[str], sweep: list[str] | None, *, out: str | Path | None,
                workers: int | None, progress: bool, echo: Echo | None, **job) -> Result:
    """A tournament or sweep (``kind``) of the request ``r`` (its ``rules`` and, for a sweep, the
    rules it varies), stopping once decided with ``r.until_decided``; ``job`` are
    ``run_tournament``'s own options (where and how it runs)."""
    from tourney_sim.simulate import jobs  # noqa: F401  (every kind known: an --out of another kind is named)
    from tourney_sim.simulate.tournament import FIRST_BATCH, run_tournament
    _check_play(r.games, workers, r.chunk_size)
    path = _out(out, kind, game=game, players=_players(game, r.players), seed=r.seed)
    stop = _stopping_rule(sweep, r.until_decided, r.alpha, r.margin)
    result = run_tournament(game, r.players, list(r.strategies), r.games, r.seed, path, rules=rules, sweep=sweep,
                            workers=workers, chunk_size=r.chunk_size, progress=progress, stop=stop,
                            design=r.seatings, first_batch=FIRST_BATCH if r.first_batch is None else r.first_batch, record=tuple(r.record),
                            **job)
    _ended(result, echo, lambda: f"{result.manifest['games_played']:,} games kept in {path} "
                                 "(whole parts only; continue with --resume)")
    return Result(path, result.manifest, result.notes, result.seconds, summarize=_tournament_summary)


def _tournament_summary(result: Result) -> Summary:
    from tourney_sim.reports.render import to_text
    rep = result.analysis
    tables = {}
    for cfg_report in rep.configs:
        key = "strategy" if len(rep.configs) == 1 else f"strategy {cfg_report.cfg.label}"
        tables[key] = cfg_report.strategies
    return Summary(to_text(rep), tables)


def _stopping_rule(vary, until_decided: bool, alpha: float, margin: float):
    """``until_decided``'s stopping rule for a tournament (a sweep with ``vary``): the sequential
    test of :mod:`tourney_sim.simulate.stats.sequential`, or None (TournamentError for bad settings)."""
    from tourney_sim.simulate.tournament import check_stopping, question_of
    if not until_decided:
        return None
    check_stopping(alpha, margin)
    from tourney_sim.simulate.stats.sequential import stopping_rule
    return stopping_rule(question_of(vary), alpha, margin)


def _run_study(game: str, out: Path, **options):
    """:func:`tourney_sim.simulate.study.run_study`, its report registered."""
    from tourney_sim.reports import study_report  # noqa: F401  (registers the study's report)
    from tourney_sim.simulate import jobs  # noqa: F401  (every kind known: an --out of another kind is named)
    from tourney_sim.simulate.study import run_study
    return run_study(game, out, **options)


def tune(game: str, strategy: str, against: Sequence[str] = (), *, out: str | Path | None = None,
         workers: int | None = None, scheduler: str | None = None, overwrite: bool = False, resume: bool = False,
         progress: bool = False, command: str | None = None, echo: Echo | None = None, **options) -> Result:
    """Tune a strategy's parameters against a field (as ``tourney tune``); ``options`` are those of
    :class:`~tourney_sim.simulate.tune.TuneRequest` (``trials``, ``deals``, ``seed``, ``players``,
    ``rules``, ``components``, ``params``, ``sampler``, ``objective``, ``confirm_deals``,
    ``confirm_seed``). ``result.summary`` has the best setting and the confirmation;
    ``result.path / "best.toml"`` is the setting."""
    from tourney_sim.simulate import jobs  # noqa: F401  (every kind known: an --out of another kind is named)
    from tourney_sim.simulate.tune import TuneRequest, tune as run_tune
    from tourney_sim.strategies import setting_name
    r = TuneRequest(strategy=strategy, against=list(against), **options)
    _require(r.trials >= 1 and r.deals >= 1, "--trials and --deals must be positive")
    _check_play(workers=workers)
    path = _out(out, "tune", game=game, strategy=setting_name(strategy), seed=r.seed)
    report = run_tune(_config(game, r.players, r.rules, r.components), r.strategy, list(r.against), path,
                      trials=r.trials, deals=r.deals, seed=r.seed,
                      sampler=r.sampler, objective=r.objective, params=list(r.params) or None,
                      confirm_deals=r.confirm_deals, confirm_seed=r.confirm_seed, workers=workers,
                      scheduler=scheduler, overwrite=overwrite, resume=resume, progress=progress, command=command)
    _ended(report, echo, lambda: f"the tuning run in {path} keeps its finished trials (continue with --resume)")
    return Result(path, report.manifest, report.notes, report.seconds, summarize=_tune_summary)


def _tune_summary(result: Result) -> Summary:
    from tourney_sim.simulate.tune import summary_text

    def history():
        import pandas as pd
        return {"history": pd.DataFrame([{"trial": h["trial"], "value": h["value"], "label": h["label"],
                                          **h["setting"]} for h in result.manifest.get("history", [])]
                                        ).set_index("trial")}
    return Summary(summary_text(result.manifest), history)


def study(game: str, *, out: str | Path | None = None, workers: int | None = None, scheduler: str | None = None,
          resume: bool = False, overwrite: bool = False, progress: bool = False, command: str | None = None,
          **options) -> Result:
    """A balance study (as ``tourney study``): every stage played into ``out``, then findings.json,
    report.html and report.md there. ``options`` are those of
    :class:`~tourney_sim.simulate.study.StudyRequest`: ``budget``, ``players`` (counts; a string
    such as ``"3,4"`` names several), ``levels`` (a string may list several, ``"heuristic,search"``),
    ``seed``. ``result.summary.text`` holds the findings in words;
    ``result.summary.tables["questions"]`` every question of the study (estimate, interval,
    p-values, outcome) as a DataFrame; ``result.manifest`` each stage with its command."""
    from tourney_sim.simulate.study import StudyRequest
    r = StudyRequest(**options)
    _check_play(workers=workers)
    counts = _player_counts(r.players)
    levels = [x.strip() for item in r.levels for x in str(item).split(",") if x.strip()]
    path = _out(out, "study", game=game, budget=r.budget, seed=r.seed)
    report = _run_study(game, path, budget=r.budget, players=counts or None, levels=levels, seed=r.seed,
                        workers=workers, scheduler=scheduler, resume=resume, overwrite=overwrite,
                        progress=progress, command=command)
    _ended(report, None, lambda: f"the study in {path} keeps its finished stages (continue with --resume)")
    return Result(path, report.manifest, seconds=report.seconds,
                  summarize=lambda r: Summary(report.summary, lambda: _study_questions(path)))


def design(game: str, *, out: str | Path | None = None, workers: int | None = None, scheduler: str | None = None,
           resume: bool = False, overwrite: bool = False, progress: bool = False, command: str | None = None,
           echo: Echo | None = None, **options) -> Result:
    """Search for the smallest change of rules or components that fixes an imbalance, and confirm
    it on fresh deals under heuristic and search play (as ``tourney design``). ``options`` are
    those of :class:`~tourney_sim.simulate.design.DesignRequest` (each with its meaning there, as
    ``tourney design --help`` shows it): e.g. ``players``, ``vary``, ``objectives``, ``budget``,
    ``rules`` / ``components`` (the starting game; default: the shipped one), ``targets`` (None
    for the default, skill keeps at least 75% of today's; ``[]`` for none). ``result.summary.text``:
    what to change and what it buys; ``result.path``: report.html, report.md, design.json,
    designs/."""
    from tourney_sim.reports import design as design_report  # noqa: F401  (registers the design's report)
    from tourney_sim.simulate import jobs  # noqa: F401  (every kind known: an --out of another kind is named)
    from tourney_sim.simulate.design import DesignRequest, run_design
    _check_play(workers=workers)
    request = DesignRequest(**options)
    path = _out(out, "design", game=game, budget=request.budget, seed=request.seed)
    report = run_design(game, path, request, workers=workers, scheduler=scheduler, resume=resume, overwrite=overwrite, progress=progress,
                        command=command, echo=echo)
    _ended(report, echo, lambda: f"the design run in {path} keeps its finished trials (continue with --resume)")
    return Result(path, report.manifest, report.notes, report.seconds,
                  summarize=lambda r: Summary(report.summary))


def play_design(folder: str | Path, *, out: str | Path | None = None, games: int = 20_000, seed: int = 0,
                strategy: str | None = None, workers: int | None = None, progress: bool = False,
                overwrite: bool = False) -> dict:
    """Play a confirmed design (a design run's ``designs/<rank>-<name>/`` folder) beside today's
    game on the same deals, everyone the run's strong heuristic (or ``strategy``), as ``tourney
    play-design``: ``"name"`` (the design's folder name), ``{"today", "design"}`` (each one's balance
    figure with its interval, length, draws, ...), ``"gain"`` (the balance gained, paired) and
    ``"at_fault"`` (the seat at fault in
    today's game, its edge before and after, paired), and ``"text"``, the same in words. The games
    go to ``out/today`` and ``out/design`` (default ``runs/play-<folder name>``)."""
    from tourney_sim.reports.design import beside_words
    from tourney_sim.simulate.design import play_design as play
    _check_play(games=games, workers=workers)
    folder = Path(folder)
    _refuse_directory(folder, "a design's folder", "one of a design run's designs/<rank>-<name>/ folders",
                      jobs_only=True)
    path = Path(out) if out is not None else Path(f"runs/play-{folder.name}")
    result = play(folder, path, games=games, seed=seed, strategy=strategy, workers=workers, progress=progress,
                  overwrite=overwrite)
    return {**result, "path": str(path), "text": beside_words(result) + f"\ngames: {path}/today, {path}/design"}


def train(game: str, *, out: str | Path | None = None, workers: int | None = None, scheduler: str | None = None,
          resume: bool = False, overwrite: bool = False, progress: bool = False, command: str | None = None,
          echo: Echo | None = None, **options) -> Result:
    """Train the apprentice (as ``tourney train``): rounds of search-labelled positions, a fitted
    linear policy, an evaluation against the game's strong heuristic. ``options`` are those of
    :class:`~tourney_sim.simulate.train.TrainRequest` (``players``, ``rules``, ``components``,
    ``rounds``, ``positions``, ...). ``result.path / "best.toml"`` holds the best weights
    (``--strategy apprentice@DIR``); ``result.summary.text`` the learning curve."""
    from tourney_sim.reports import training  # noqa: F401  (registers the training run's report)
    from tourney_sim.simulate import jobs  # noqa: F401  (every kind known: an --out of another kind is named)
    from tourney_sim.simulate.train import TrainRequest, train as run_train
    r = TrainRequest(**options)
    _check_play(workers=workers)
    config = _config(game, r.players, r.rules, r.components)
    path = _out(out, "train", game=game, players=config.players, seed=r.seed)
    report = run_train(config, path, r, workers=workers, scheduler=scheduler, resume=resume, overwrite=overwrite,
                       progress=progress, command=command)
    _ended(report, echo, lambda: f"the training run in {path} keeps its finished rounds (continue with --resume)")
    return Result(path, report.manifest, report.notes, report.seconds, summarize=lambda r: Summary(report.summary))


def _study_questions(path: Path) -> dict:
    """A study's questions (findings.json) as a table: {"questions": DataFrame}."""
    import json

    import pandas as pd
    return {"questions": pd.DataFrame(json.loads((path / "findings.json").read_text())["questions"])}


def _player_counts(players: Sequence[int | str]) -> list[int]:
    counts: list[int] = []
    for item in players:
        for part in str(item).split(","):
            try:
                counts.append(int(part))
            except ValueError:
                _require(False, f"--players takes player counts such as 4 or 3,4, got {item!r}")
    return counts


def bench(game: str, strategies: Sequence[str] = (), *, players: int | None = None, games: int = 100_000,
          repeats: int = 3, rules: Sequence[str] = (), components: Sequence[str] = ()) -> dict:
    """Kernel speed per strategy (as ``tourney bench``; every seat plays it, one core):
    ``{"game", "players", "compile_seconds", "rows": [{"strategy", "games_per_s",
    "decisions_per_s", "decisions_per_game"}, ...]}``; ``strategies`` default to every heuristic."""
    from tourney_sim.simulate.bench import bench_game
    _require(games >= 1 and repeats >= 1, "--games and --repeats must be positive")
    return bench_game(_config(game, players, rules, components), games, repeats,
                      strategy_names=list(strategies) or None)


def verify(path: str | Path):
    """Check that a dataset, tournament, sweep, tuning run or study is complete and sound (as
    ``tourney verify``): a verdict with ``ok``, ``problems`` (one line each) and ``warnings``."""
    from tourney_sim.simulate import jobs  # noqa: F401  (every kind known: what a directory is)
    from tourney_sim.simulate.verify import verify as check_directory
    return check_directory(Path(path))


def load(path: str | Path, columns: Sequence[str] | None = None):
    """A dataset, tournament or sweep directory as one pandas DataFrame, one row per game and
    seat (the columns of the Results table in docs/results.md).

    For a tournament or sweep, the rows of all its seating datasets, with a ``dataset`` column
    (the seating's directory) and, for a sweep, ``variant``. ``.attrs["manifest"]`` holds the
    manifest (of a single dataset) or ``.attrs["manifests"]`` (dataset directory -> manifest)
    and ``.attrs["tournament"]`` (``_tournament.json``).
    """
    import pandas as pd

    from tourney_sim.simulate.stats.load import discover
    from tourney_sim.simulate import jobs  # noqa: F401  (every kind known: what a directory is)
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


def _paths(paths: str | Path | Sequence[str | Path]) -> list[Path]:
    return [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]


def _analyse(paths: list[Path], rating_sample: int = 10_000):
    """The report's analysis of datasets, tournaments or sweeps, or of one tuning run."""
    from tourney_sim.reports import tuning
    from tourney_sim.reports.render import build
    from tourney_sim.simulate.tune import TUNE
    if len(paths) == 1 and _kind(paths[0]) is TUNE:
        return tuning.build(paths[0])
    return build(paths, rating_sample)


def _own_report_writer(kind):
    """The writer of a job that has its own report (a study, a design run, a training run: the
    report its kind registers, ``jobdir.RENDERERS``), else None."""
    from tourney_sim.reports import design, study_report, training  # noqa: F401  (they register their reports)
    from tourney_sim.simulate.jobdir import RENDERERS
    return None if kind is None else RENDERERS.get(kind.name)


def _own_report_in(paths: list[Path]) -> Path | None:
    """The study or design run among ``paths``, reported on its own (None: none)."""
    from tourney_sim.simulate.errors import TourneyError
    from tourney_sim.simulate.jobdir import kind_name
    own = [p for p in paths if _own_report_writer(_kind(p)) is not None]
    if own and len(paths) > 1:
        raise TourneyError(f"{own[0]} is a {kind_name(own[0], _kind(own[0]))}: report it on its own "
                           f"(`tourney report {own[0]}`)")
    return own[0] if own else None


def _finished_job(path: Path) -> dict:
    """The manifest of the finished study or design run in ``path`` (a one-line error if it is
    not finished)."""
    from tourney_sim.simulate.jobdir import read_job
    from tourney_sim.simulate.results import DatasetError
    kind = _kind(path)
    manifest = read_job(kind, path, DatasetError)
    if manifest.get("status") != "complete":
        raise DatasetError(f"the {kind.name} {path} is not finished (status {manifest.get('status')!r}): continue it "
                           f"with its command and --resume ({manifest.get('command') or 'tourney ...'}), or "
                           f"report one of its finished {'stages' if kind.name == 'study' else 'datasets'}, e.g. {_first_member(path)}")
    return manifest


def _own_summary(path: Path) -> Summary:
    """A finished study's verdict (its report's first lines) and its questions; a finished design
    run's recommendation; a finished training run's best weights and where its report is."""
    from tourney_sim.reports.summary import study_summary_text
    from tourney_sim.simulate.design import DESIGN
    from tourney_sim.simulate.train import TRAIN
    if _kind(path) is DESIGN:
        return Summary(_finished_job(path).get("summary") or "")
    if _kind(path) is TRAIN:
        from tourney_sim.reports.training import headline
        return Summary(f"{headline(_finished_job(path))}\nreport: {path / 'report.md'}")
    return Summary(study_summary_text(path, _finished_job(path)), lambda: _study_questions(path))


def _own_report(path: Path, out: str | Path | None, format: str | None) -> tuple[str, str]:
    """A study's, design run's or training run's own report, written again into it by its writer
    (report.html, report.md, ...; a training run's report.md only) and copied to ``out``: (the
    findings in words, the report as Markdown). It must be finished."""
    import shutil

    from tourney_sim.simulate.results import OutputError
    manifest = _finished_job(path)
    fmt = None if out is None else format or ("md" if Path(out).suffix.lower() == ".md" else "html")
    try:
        findings = _own_report_writer(_kind(path))(path, manifest)
        if out is not None:
            if not (path / f"report.{fmt}").exists():  # a training run's report is Markdown only
                raise OutputError(f"a {_kind(path).name}'s report is Markdown ({path / 'report.md'}): give --out a "
                                  f".md name (or --format md)")
            shutil.copyfile(path / f"report.{fmt}", out)
    except OSError as exc:
        raise OutputError(f"cannot write the {_kind(path).name}'s report to {out}: {exc.strerror or exc}") from None
    return findings, (path / "report.md").read_text()


def _first_member(path: Path) -> Path:
    from tourney_sim.simulate.jobs import members
    inside = members(path)
    return inside[0] if inside else path / "<stage>"


def _render(rep, out: str | Path | None, format: str | None) -> str:
    """``rep`` as Markdown text (no ``out``), or written to ``out`` (HTML, or Markdown for a
    ``.md`` name or ``format="md"``): the path as a string. An unwritable ``out`` is an
    :class:`~tourney_sim.simulate.results.OutputError`."""
    from tourney_sim.reports.render import to_markdown, write
    from tourney_sim.simulate.results import OutputError
    if out is None:
        return to_markdown(rep)
    out = Path(out)
    fmt = format or ("md" if out.suffix.lower() == ".md" else "html")
    if fmt not in ("html", "md"):
        raise ValueError(f"format must be html or md, got {fmt!r}")
    try:
        return str(write(rep, out, fmt))
    except OSError as exc:
        raise OutputError(f"cannot write report {out}: {exc.strerror or exc}") from None


def report(paths: str | Path | Sequence[str | Path], out: str | Path | None = None,
           format: str | None = None, rating_sample: int = 10_000) -> str:
    """The report of datasets, tournaments or sweeps, or of a tuning run (as ``tourney report``).

    With ``out``, writes HTML (or Markdown for a ``.md`` name, or as ``format`` says) and
    returns the path as a string; without, returns the Markdown text. A study, design run or training
    run directory gives its own report (written again into it).
    """
    own = _own_report_in(_paths(paths))
    if own is not None:
        markdown = _own_report(own, out, format)[1]
        return markdown if out is None else str(out)
    return _render(_analyse(_paths(paths), rating_sample), out, format)


def report_text(paths: str | Path | Sequence[str | Path], out: str | Path | None = None,
                format: str | None = None, rating_sample: int = 10_000) -> str:
    """The report's terminal summary, as ``tourney report`` prints it; with ``out``, the report
    is also written there (as :func:`report` writes it), from the same analysis."""
    from tourney_sim.reports.render import to_text
    own = _own_report_in(_paths(paths))
    if own is not None:
        return _own_report(own, out, format)[0]
    rep = _analyse(_paths(paths), rating_sample)
    if out is not None:
        _render(rep, out, format)
    return to_text(rep)


def replay(path: str | Path, game: int, *, legal: bool = False, seating: int | str | None = None) -> dict:
    """The complete trace (``tourney-trace/2``, ``docs/traces.md``) of game ``game`` of a dataset,
    as ``tourney replay --format json`` prints it; ``legal`` adds every decision's legal moves.
    ``path`` may be a tournament or sweep with ``seating``: its K-th dataset (from 0, in the
    order of ``_tournament.json``) or a dataset's directory within it."""
    from tourney_sim.simulate.replay import trace
    return trace(_dataset_of(Path(path), seating), game, legal=legal)


def _dataset_of(path: Path, seating: int | str | None) -> Path:
    """The dataset ``path`` names: itself, or a tournament's ``seating`` (DatasetError otherwise)."""
    from tourney_sim.simulate.jobdir import kind_name
    from tourney_sim.simulate.results import DATASET, DatasetError
    from tourney_sim.simulate.tournament import TOURNAMENT, read_tournament
    kind = _kind(path)
    if kind is TOURNAMENT:
        dirs = [d["dir"] for d in read_tournament(path)["datasets"]]
        what = f"{path} is a {kind_name(path, kind)} of {len(dirs)} seatings"
        choose = f"give --seating K (0 to {len(dirs) - 1}) or a seating's directory (e.g. {dirs[0]})"
        if seating is None:
            raise DatasetError(f"{what}: {choose}")
        if str(seating) in dirs:
            return path / str(seating)
        if str(seating).isdigit() and int(seating) < len(dirs):
            return path / dirs[int(seating)]
        raise DatasetError(f"{what}, no seating {seating!r}: {choose}")
    if seating is not None:
        raise DatasetError(f"--seating picks a seating of a tournament or sweep; {path} is "
                           + (f"a {kind_name(path, kind)}" if kind is not None else "not one"))
    if kind not in (DATASET, None):
        raise _not_a_dataset(path)
    return path


def check(trace: dict | str | Path):
    """Re-check a trace (a dict, or a JSON file) with the game's reference engine, as ``tourney
    check``: a report with ``ok`` and ``message`` (the first step where it parts from the rules)."""
    from tourney_sim.simulate.check import check_trace, load_trace, validate_trace
    if isinstance(trace, dict):
        validate_trace(trace)
    else:
        _refuse_directory(Path(trace), "a trace file")
        trace = load_trace(Path(trace))
    return check_trace(trace)


def _refuse_directory(path: Path, wanted: str,
                      how: str = "write a game's trace with `tourney replay DATASET --game N --format json > game.json`",
                      jobs_only: bool = False) -> None:
    """A directory (``jobs_only``: a job's directory: a dataset, tournament, study, ...) given where
    something else is expected (a trace or position file, a design's folder): one line saying what
    it is and ``how`` to get what is wanted."""
    from tourney_sim.simulate.jobdir import kind_name
    from tourney_sim.simulate.results import DatasetError
    import os
    if not os.path.isdir(path):
        return
    kind = _kind(path)
    if kind is None and jobs_only:
        return
    what = f"a {kind_name(path, kind)} directory" if kind is not None else "a directory"
    raise DatasetError(f"{path} is {what}; this takes {wanted}: {how}")


def position(game: str, position: dict | str | Path, strategy: str = "random", *, seed: int = 0,
             step: int | None = None) -> dict:
    """A position's legal moves and the move ``strategy`` plays there, as ``tourney position``
    (``to_move``, ``legal``: index, move, action, text; ``choice``: the one chosen). ``position``:
    a dict, or a JSON file as the game's ``describe_state`` writes it, or a trace (``replay``'s) with
    ``step``: the position before that step."""
    from tourney_sim.simulate.errors import span
    from tourney_sim.simulate.games import PositionError
    from tourney_sim.simulate.position import analyse, is_trace, read_position, trace_position
    source = "the position" if isinstance(position, dict) else str(position)
    if not isinstance(position, dict):
        _refuse_directory(Path(position), "a position file")
        position = read_position(Path(position))
    if is_trace(position):
        if step is None:
            raise PositionError(f"{source} is a whole game (a trace), not a position: add --step K for the "
                                f"position before step K (steps {span(0, len(position.get('history') or []))})")
        if position.get("game") != game:
            raise PositionError(f"{source} is a trace of {position.get('game')!r}, not of {game!r}")
        position = trace_position(position, step)
    elif step is not None:
        raise PositionError(f"--step takes the position from a trace, and {source} is a position: drop --step")
    return analyse(game, position, strategy, seed=seed)


def position_at(path: str | Path, game: int, step: int, *, seating: int | str | None = None) -> dict:
    """The position before step ``step`` of game ``game`` of a dataset (of a tournament or sweep
    with ``seating``, as in ``replay``), as ``tourney replay --step K --format position`` prints it
    (``tourney position`` reads it)."""
    from tourney_sim.simulate.position import trace_position
    return trace_position(replay(path, game, seating=seating), step)
