"""The ``tourney`` commands: each gathers its options, calls its ``tourney_sim.api`` function and
prints what it returns. Options are declared in ``_options.py``, errors handled in ``_errors.py``."""
import json
import os
from pathlib import Path
from typing import List, Optional

import typer

from tourney_sim import api
from tourney_sim.simulate.design import DesignRequest
from tourney_sim.simulate.tournament import SweepRequest, TournamentRequest
from tourney_sim.simulate.study import StudyRequest
from tourney_sim.simulate.train import TrainRequest
from tourney_sim.simulate.tune import TuneRequest

from ._errors import STARTING, TourneyGroup, fail, forget_unhandled_interrupt
from ._options import (ChunkSize, ComponentOpt, DatasetArg, GameArg, Games, Out, Overwrite, Players, PlayersOpt,
                       Quiet, QuietOpt, RecordOpt, Resume, ReportOpt, RuleOpt, Rules, Scheduler, Seed,
                       Strategies, TextOrJson, WorkersOpt, job_command, recorded_command)

app = typer.Typer(
    name="tourney",
    cls=TourneyGroup,
    help="Play millions of seeded tabletop games between strategies; results to Parquet.\n\n"
         "Start with `tourney games`, then `tourney strategies GAME`, then `tourney run GAME`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _notes(line: str) -> None:
    typer.echo(line, err=True)


def _text_or_json(format: str) -> None:
    if format not in ("text", "json"):
        fail(f"--format must be text or json, got {format!r}")


@app.command()
def games() -> None:
    """List the games: player counts, teams, rules version and rule options (--rule key=value)."""
    for name, spec in api.games().items():
        players = (f"{spec.min_players}" if spec.min_players == spec.max_players
                   else f"{spec.min_players}-{spec.max_players}")
        kind = "teams {0,2} v {1,3}" if spec.team_game else "each for themselves"
        typer.echo(f"{name:<12} {spec.title}: {players} players, {kind}, "
                   f"{'lowest' if spec.better == 'low' else 'highest'} score wins, rules v{spec.rules_version}")
        for opt in spec.options:
            typer.echo(f"    --rule {opt.describe()}")


@app.command()
def strategies(
    game: GameArg,
    params: bool = typer.Option(False, "--params", help="Also list each strategy's parameters: name=default (range): meaning."),
) -> None:
    """List the strategies of a game, one line each (plug-ins included).

    A strategy can be named with other parameter values anywhere a strategy is named:
    NAME:key=value,key=value (e.g. guard:sword_weight=0.3) or NAME@file.toml (e.g. the
    best.toml that `tourney tune` writes; NAME@DIR plays DIR/best.toml).
    """
    from tourney_sim import strategies as of_game
    table = of_game(game)
    width = max(len(n) for n in table)
    for name, s in table.items():
        origin = "" if s.origin == "built-in" else f"  [{s.origin}]"
        typer.echo(f"{name:<{width}}  {s.description}{origin}")
        if params:
            for p in s.params:
                typer.echo(f"{'':<{width}}    {p.describe()}")
            if not s.params:
                typer.echo(f"{'':<{width}}    (no parameters)")


@app.command()
def run(
    game: GameArg,
    players: PlayersOpt = None,
    games: Games("Number of games to play.") = 100_000,
    seed: Seed("Seed: game i depends only on (seed, i).") = 0,
    strategy: Strategies("Strategy for the next seat; repeat it. The list repeats to fill the table (default: the game's built-ins).") = None,
    rule: RuleOpt = None,
    component: ComponentOpt = None,
    out: Out("run", "Output dataset directory") = None,
    workers: WorkersOpt = None,
    chunk_size: ChunkSize("Games per chunk / Parquet part (does not change results).") = None,
    rotate: bool = typer.Option(True, "--rotate/--no-rotate", help="Rotate the seating every game so each strategy sits in every seat equally."),
    overwrite: Overwrite("dataset") = False,
    quiet: QuietOpt = False,
    scheduler: Scheduler("Play on a Dask cluster: tcp://HOST:8786 (a running scheduler) or local (start one here with --workers processes). Default: the built-in local runner.") = None,
    resume: Resume("run") = False,
    first_game: int = typer.Option(0, "--first-game", help="Index of the first game: the run plays games FIRST_GAME .. FIRST_GAME + GAMES - 1 of the seed, the deals after a run of FIRST_GAME games (how a study plays more deals on the same seed)."),
    record: RecordOpt = None,
) -> None:
    """Play GAMES seeded games and write one Parquet row per game and seat, then print a summary.

    Example: tourney run companeros --players 4 --games 1000000 --seed 7
    --strategy greedy --strategy random --out runs/first
    """
    result = api.run(game, strategy or (), players=players, games=games, seed=seed, rules=rule or (),
                     components=component or (), out=out,
                     workers=workers, chunk_size=chunk_size, rotate=rotate, overwrite=overwrite, resume=resume,
                     scheduler=scheduler, progress=not quiet, command=recorded_command(),
                     echo=None if quiet else _notes, first_game=first_game,
                     record=record or ())
    if not quiet:
        typer.echo(result.summary.text)
        played, seconds = result.games_played, result.seconds
        typer.echo(f"\n{played:,} games in {seconds:.2f} s ({played / max(seconds, 1e-9):,.0f} "
                   f"games/s){' this session' if result.resumed else ''}; results in {result.path}")


@app.command()
def summary(directory: DatasetArg) -> None:
    """Print the summary of a dataset (per strategy and per seat), a tournament or sweep (its
    report's summary), a tuning run (its best setting) or a finished study (its verdict)."""
    typer.echo(api.summary(directory).text)


@app.command()
def replay(
    directory: DatasetArg,
    game: int = typer.Option(..., "--game", "-g", help="Game index within the run."),
    format: TextOrJson("text (readable), json (a complete trace, tourney-trace/2, that `tourney check` and "
                       "other programs re-check) or position (the position before --step K, as JSON that "
                       "`tourney position` reads).") = "text",
    legal: bool = typer.Option(False, "--legal", help="Add each decision's full list of legal moves, spelled out."),
    seating: Optional[str] = typer.Option(None, "--seating", help="In a tournament or sweep: which seating's game, its number K (from 0, as _tournament.json lists them) or its directory."),
    step: Optional[int] = typer.Option(None, "--step", "-k", help="With --format position: the step (as the text "
                                       "replay numbers them) before which to take the position."),
) -> None:
    """Replay one game of a dataset move by move, exactly as it was played, with its chance events
    (deals, reshuffles, draws) in order: the trace alone, with the rules, determines the game.

    Example: tourney replay runs/first --game 7 --step 12 --format position > pos.json, then
    tourney position companeros pos.json --strategy greedy
    """
    from tourney_sim.simulate.replay import format_text
    if format == "position" or step is not None:
        if format != "position" or step is None:
            fail("--step K and --format position go together: the position before step K of the game")
        typer.echo(json.dumps(api.position_at(directory, game, step, seating=seating), indent=1, ensure_ascii=False))
        return
    if format not in ("text", "json"):
        fail(f"--format must be text, json or position, got {format!r}")
    t = api.replay(directory, game, legal=legal, seating=seating)
    typer.echo(json.dumps(t, indent=1, ensure_ascii=False) if format == "json" else format_text(t))


@app.command()
def check(trace_file: Path = typer.Argument(..., metavar="TRACE.json",
                                            help="A tourney-trace/2 file: `tourney replay --format json`, "
                                                 "written by hand, or by another program.")) -> None:
    """Re-check a trace with the readable reference engine (not the compiled kernel).

    Replays its chance events and decisions under the game's rules, checks every decision is legal
    and the result matches. Exit 0 when it does; 1 naming the first step where the trace and the
    rules part; 2 when the file is not a trace this tourney can check (malformed, another game's
    rules version). Format: docs/traces.md.
    """
    report = api.check(trace_file)
    if report.ok:
        typer.echo(report.message)
        return
    typer.echo(f"check failed: {report.message}", err=True)
    raise typer.Exit(1)


@app.command()
def position(
    game: str = typer.Argument(..., help="Game name (tourney games)."),
    position_file: Path = typer.Argument(..., metavar="FILE.json",
                                         help="A position as the game's describe_state writes it "
                                              "(docs/traces.md; e.g. `tourney replay --step K --format "
                                              "position`), or a trace with --step."),
    strategy: str = typer.Option("random", "--strategy", "-s",
                                 help="Who to ask: any strategy of the game, with its parameters "
                                      "(e.g. greedy, ismcts:iterations=300)."),
    seed: int = typer.Option(0, "--seed", help="Seeds the strategy's random stream (and a search's samples)."),
    format: TextOrJson("text or json.") = "text",
    step: Optional[int] = typer.Option(None, "--step", "-k", help="FILE is a trace (`tourney replay --format "
                                       "json`): take the position before this step."),
) -> None:
    """Show the legal moves of a stored position and the move a strategy would play there."""
    from tourney_sim.simulate.position import format_text
    _text_or_json(format)
    a = api.position(game, position_file, strategy, seed=seed, step=step)
    typer.echo(json.dumps(a, indent=1, ensure_ascii=False) if format == "json" else format_text(a))


@app.command()
def bench(
    game: str = typer.Argument(..., help="Game name."),
    players: Players("Number of players.") = None,
    games: Games("Games per timed run.") = 100_000,
    repeats: int = typer.Option(3, "--repeats", "-r", help="Timed runs per strategy (the median is shown)."),
    rule: Rules("Rule option key=value; repeatable.") = None,
    component: ComponentOpt = None,
    strategy: Strategies("Strategy to time (settings allowed: NAME:key=value); repeatable (default: every strategy of the game).") = None,
) -> None:
    """Kernel speed per strategy (every seat plays it), one core, compile time shown apart."""
    r = api.bench(game, strategy or (), players=players, games=games, repeats=repeats, rules=rule or (),
                  components=component or ())
    typer.echo(f"{r['game']}, {r['players']} players, {games:,} games x {repeats} runs (median), one core")
    typer.echo(f"compile or cache load: {r['compile_seconds']:.2f} s")
    typer.echo(f"  {'strategy':<14}{'games/s':>12}{'decisions/s':>14}{'decisions/game':>16}")
    for row in r["rows"]:
        typer.echo(f"  {row['strategy']:<14}{row['games_per_s']:>12,.0f}{row['decisions_per_s']:>14,.0f}"
                   f"{row['decisions_per_game']:>16.1f}")


# ----------------------------------------------------------------------------- tournaments and reports
def _show_tournament(result: api.Result, quiet: bool, report: Optional[Path]) -> None:
    """What ``tournament`` and ``sweep`` print once played: the --until-decided verdict, the report
    written to ``report`` (quiet or not), then (unless quiet) its summary and the totals."""
    man = result.manifest
    ud = man.get("until_decided")
    if ud:
        how = {"decided": "decided", "cap": "NOT decided: the --games cap was reached"}[ud["stopped"]]
        typer.echo(f"--until-decided: {how} after {ud['deals']:,} deals per seating "
                   f"(alpha {ud['alpha']}, margin {ud['margin']})")
        for r in ud["results"]:
            typer.echo(f"  {r['text']}")
    if report is not None:  # asked for, so written even when nothing is printed
        result.report(report)
    if quiet:
        return
    typer.echo(result.summary.text)
    typer.echo(f"\n{man['games_played']:,} games ({man['seatings']} seatings x {man['deals_played']:,} deals"
               f"{' x ' + str(len(man['variants'])) + ' variants' if len(man['variants']) > 1 else ''}) in "
               f"{result.seconds:.1f} s; results in {result.path}" + (f"; report in {report}" if report else ""))


#: the report files there are, by suffix: their format
REPORT_SUFFIXES = {".html": "html", ".htm": "html", ".md": "md"}


def _check_report(report: Optional[Path]) -> None:
    if report is not None and report.suffix.lower() not in REPORT_SUFFIXES:
        fail(f"--report must name a .html or .md file, got {report}")


def _job(options: dict) -> dict:
    """A job command's options as the API takes them: ``--quiet`` as ``progress``, and only the
    request options given (the request's defaults stand for the others)."""
    options = dict(options)
    options["progress"] = not options.pop("quiet")
    return {k: v for k, v in options.items() if v is not None and v != ()}  # () : a list option not given


def _tournament_cli(kind: str, request_class, what: str):
    """The command ``tourney KIND`` (a tournament or a sweep); ``what`` is its help."""
    @job_command(request_class, kind, kind, more=("report",))
    def command(game: GameArg, report: ReportOpt = None, **options) -> None:
        rules, components = options.pop("rules") or [], options.pop("components") or []
        if kind == "tournament" or rules or components:
            _check_report(report)
        play = api.tournament if kind == "tournament" else api.sweep
        quiet = options["quiet"]
        result = play(game, *([] if kind == "tournament" else [rules]), options.pop("strategies") or (),
                      components=components, **({"rules": rules} if kind == "tournament" else {}),
                      **_job(options), command=recorded_command(), echo=_notes)
        _show_tournament(result, quiet, report)
    command.__doc__ = what
    return app.command(kind)(command)


tournament = _tournament_cli("tournament", TournamentRequest, """Duplicate tournament: every matchup of the strategies that fills the table, each deal played
    in every seating of it on the same seeds, then a summary (see `tourney report`).

    Example: tourney tournament companeros --players 4 --strategy greedy --strategy random
    --strategy high --games 20000 --seed 7 --out runs/t1

    A strong, slow strategy against a heuristic at a large table: --seatings field, e.g.
    tourney tournament companeros --players 6 --strategy ismcts --strategy greedy --seatings field
    --games 2000 --seed 1
    """)

sweep = _tournament_cli("sweep", SweepRequest, """The same deals and matchups under each rule variant, then the variants' balance side by side.

    Example: tourney sweep cardavia --rule last_sweep_scores=true,false --strategy greedy
    --strategy random --games 20000 --out runs/sweep1

    A component value on the same deals: tourney sweep colleagues --component tokens.plus10=6,9,12
    --strategy middle --strategy random --games 20000 --out runs/sweep2
    """)


@app.command()
def report(
    directories: List[Path] = typer.Argument(..., help="Datasets, tournaments or sweeps (merged: one game), or one tuning run, study, design run or training run (its own report)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the report here (.html, or .md for Markdown)."),
    format: Optional[str] = typer.Option(None, "--format", "-f", help="html, md or text (default: from --out, else text)."),
    rating_sample: int = typer.Option(10_000, "--rating-sample", help="Games sampled to fit the openskill ratings."),
    quiet: Quiet("Do not print the terminal summary.") = False,
) -> None:
    """Strategy strength, pairwise comparisons, seat balance and game shape from datasets alone:
    a self-contained HTML page (or Markdown) and a terminal summary.

    Example: tourney report runs/t1 --out report.html
    """
    if format is None and out is not None and out.suffix.lower() not in REPORT_SUFFIXES:
        fail(f"--out {out}: a report is written as .html or .md (or give --format html or md)")
    fmt = format if format is not None else (REPORT_SUFFIXES[out.suffix.lower()] if out is not None else "text")
    if fmt not in ("html", "md", "text"):
        fail(f"--format must be html, md or text, got {fmt!r}")
    if fmt == "html" and out is None:
        fail("--format html needs --out FILE")
    if rating_sample < 1:
        fail(f"--rating-sample must be positive, got {rating_sample}")
    if out is not None and fmt == "text":
        fail("--format text prints to the terminal: drop --out or choose html or md")
    if out is not None and (os.path.isdir(out) or not out.name or out.name in (".", "..")):
        fail(f"--out {out} is a directory: give a file name such as report.html")
    if out is not None and not os.path.isdir(out.parent):
        fail(f"cannot write report {out}: {out.parent} " + ("is not a directory" if os.path.exists(out.parent)
                                                            else "does not exist"))
    if out is None and fmt == "md":
        typer.echo(api.report(directories, format=fmt, rating_sample=rating_sample))
        return
    text = api.report_text(directories, out=out, format=fmt, rating_sample=rating_sample)
    if not quiet:
        typer.echo(text)
        if out is not None:
            typer.echo(f"\nreport written to {out}")


@app.command()
@job_command(TuneRequest, "tune", "tuning run", keeps="; --trials may grow).",
             scheduler="Play the trials on a Dask cluster: tcp://HOST:8786 or local (as for `tourney run`).")
def tune(game: GameArg, **options) -> None:
    """Find the strongest settings of a strategy's parameters with optuna.

    Every trial plays one setting against the --against field on the same deals (duplicate
    seatings, common random numbers), so trials differ by their settings, not their luck. At
    the end the best setting is confirmed against the starting one on fresh deals (paired, with
    a 95% interval and p-value). Writes best.toml (use it as --strategy NAME@DIR/best.toml),
    _tune.json and the optuna study (study.journal); `tourney report DIR` shows the history.

    Example: tourney tune cardavia --strategy guard --against capture-max --against random
    --trials 200 --deals 2000 --seed 1 --out runs/tune-guard
    """
    quiet = options["quiet"]
    result = api.tune(game, options.pop("strategy"), options.pop("against") or (), **_job(options),
                      command=recorded_command(), echo=None if quiet else _notes)
    if not quiet:
        typer.echo(result.summary.text)
        typer.echo(f"\nbest setting in {result.path / 'best.toml'}; report: tourney report {result.path} --out tune.html")


@app.command()
@job_command(StudyRequest, "study", "study", out="Study directory",
             keeps="): finished stages are kept, the unfinished one resumes.", quiet="No progress bars; only the findings.",
             scheduler="Play every stage on a Dask cluster: tcp://HOST:8786 or local (as for `tourney run`).")
def study(game: GameArg, **options) -> None:
    """A balance study in one command: seat and first-player advantage under random, heuristic
    and search play; what each rule option changes (paired on the same deals); the strategy
    landscape; every supported player count side by side; then an adaptive stage that plays more
    search-level deals (up to the budget's cap) while a seat or team question under search play
    is open. Ends with the findings in words; the
    directory holds every dataset, _study.json (each stage's command, to regenerate any number on
    its own), findings.json, report.html and report.md.

    Example: tourney study colleagues --budget quick --players 4 --out study/c-quick
    """
    result = api.study(game, **_job(options), command=recorded_command())
    typer.echo(result.summary.text)


@app.command()
@job_command(DesignRequest, "design", "design run", out="Design directory",
             keeps="): finished trials are kept; a trial cut short is played again.", quiet="No progress; only the summary.")
def design(game: GameArg, **options) -> None:
    """Search for the smallest change of rules or components that fixes an imbalance, and confirm
    it. Every candidate plays the same deals (everyone the strong heuristic: balance, length,
    draws, decisiveness; the heuristic against a weaker one: skill); optuna trades balance and the
    other objectives against disruption (how many values change, and by how much). The best designs
    of the Pareto front are replayed on fresh deals at the heuristic and the search level, paired
    with today's game; a design is recommended only if its gain holds under search play.

    Writes report.html / report.md (what to change and what it buys), design.json, designs/ (a
    ready components file and rule list per design) and every candidate's games.

    Example: tourney design cardavia --vary rule --vary prizes --budget quick --out design/cardavia
    """
    target = options.pop("targets")
    if target:  # --target none: no target at all
        options["targets"] = [] if [t.strip().lower() for t in target] == ["none"] else list(target)
    quiet = options["quiet"]
    result = api.design(game, **_job(options), command=recorded_command(), echo=None if quiet else _notes)
    typer.echo(result.summary.text)


@app.command("play-design")
def play_design(
    folder: Path = typer.Argument(..., metavar="DESIGN_FOLDER", help="A design run's designs/<rank>-<name>/ folder."),
    games: int = typer.Option(20_000, "--games", "-n", help="Deals, the same for the design and today's game."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the deals."),
    strategy: Optional[str] = typer.Option(None, "--strategy", help="Everyone plays it (default: the design run's "
                                           "strong heuristic)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Where the games go (default: runs/play-FOLDER)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Worker processes (default: the cores)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace what --out holds."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars; only the figures."),
) -> None:
    """Play a design that `tourney design` confirmed beside today's game, on the same deals, and
    print both balance figures, the balance gained (paired, with its 95% interval) and what it does
    to the seat at fault.

    Example: tourney play-design design/cardavia/designs/1-match-deals-2 --games 20000
    """
    typer.echo(api.play_design(folder, out=out, games=games, seed=seed, strategy=strategy, workers=workers,
                               progress=not quiet, overwrite=overwrite)["text"])


@app.command()
@job_command(TrainRequest, "train", "training run", keeps="): finished rounds are kept.",
             quiet="No progress; only the summary.")
def train(game: GameArg, **options) -> None:
    """Train the apprentice for a table: a linear policy over the game's move features and its
    strong heuristic's choice, learned from the search. Each round has the search label positions
    (its choice and what each move was worth to it), fits the weights on every round's labels
    (to the search's values of the moves they play) and measures them against the strong
    heuristic on fresh deals; a round's weights replace the best unless they play measurably
    worse. The default budget takes 1-4 minutes on 2 cores.

    Writes best.toml (play it: --strategy apprentice@DIR; it names its table, and a game of
    another table refuses it), round-K.toml, each round's labelled positions, _train.json and
    report.md (the learning curve, the largest weights). The bare name `apprentice` plays the
    weights shipped for the game's shipped table at its player count.

    Example: tourney train cardavia --rule match_deals=2 --out runs/train-md2
    """
    quiet = options["quiet"]
    result = api.train(game, **_job(options), command=recorded_command(), echo=None if quiet else _notes)
    typer.echo(result.summary.text)


@app.command()
def verify(directory: DatasetArg) -> None:
    """Check that a dataset is complete and sound: every game once, every seat, schema, manifest
    and part checksums agree (a tournament, sweep, tuning run or study: every dataset in it). Exit 0 if so; otherwise each problem on its own line and exit 1."""
    from tourney_sim.simulate.verify import report_text
    verdict = api.verify(directory)
    typer.echo(report_text(verdict))
    if not verdict.ok:
        raise typer.Exit(1)


def _interrupt_again(hook):
    """``sys.unraisablehook`` for the command: a Ctrl-C whose KeyboardInterrupt was raised inside a
    callback that cannot pass it on (an at-fork handler such as logging's ``_releaseLock`` while
    the worker pool forks, a weakref callback during a collection) would print ``Exception ignored
    in: ...`` with a traceback, and the Ctrl-C would be lost: the job played on. Instead it is
    delivered again (by a helper thread), in the main thread, once it has left the callback."""
    import _thread
    import os
    import signal
    pid = os.getpid()

    def unraisable(info):
        if isinstance(info.exc_value, KeyboardInterrupt) and os.getpid() == pid:  # not in a forked worker
            # from another thread: called here, the KeyboardInterrupt would be raised in this hook
            _thread.start_new_thread(_thread.interrupt_main, (signal.SIGINT,))
            return
        hook(info)
    return unraisable


def main() -> None:
    """The ``tourney`` command. A Ctrl-C inside a command is reported by the command (``_errors``);
    one outside it (while Typer parses, or as the process ends) is one ``interrupted`` line and
    exit 130 too, never a traceback. Once the command has ended, its results written and its last
    line printed, Ctrl-C is ignored: it could only turn the interpreter's exit (joining the worker
    pool's threads, atexit handlers) into a traceback."""
    import signal
    import sys
    sys.unraisablehook = _interrupt_again(sys.unraisablehook)
    try:
        app()
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        typer.echo(STARTING, err=True)
        raise SystemExit(130) from None
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        forget_unhandled_interrupt()
