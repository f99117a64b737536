"""The ``tourney`` command line: a thin layer gathering options for the library."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import List, Optional

import typer

app = typer.Typer(
    name="tourney",
    help="Play millions of seeded tabletop games between strategies; results to Parquet.\n\n"
         "Start with `tourney games`, then `tourney strategies GAME`, then `tourney run GAME`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _user_errors():
    from tourney_sim.simulate.games import RuleError
    from tourney_sim.simulate.matchup import RunError
    from tourney_sim.simulate.backends import BackendError
    from tourney_sim.simulate.results import DatasetError, OutputError
    from tourney_sim.strategies import StrategyError
    return (RuleError, StrategyError, OutputError, DatasetError, BackendError), RunError


@app.command()
def games() -> None:
    """List the games: player counts, teams, rules version and rule options (--rule key=value)."""
    from tourney_sim.simulate.games import game_names, get_game
    for name in game_names():
        spec = get_game(name)
        players = (f"{spec.min_players}" if spec.min_players == spec.max_players
                   else f"{spec.min_players}-{spec.max_players}")
        kind = "teams {0,2} v {1,3}" if spec.team_game else "each for themselves"
        typer.echo(f"{name:<12} {spec.title}: {players} players, {kind}, "
                   f"{'lowest' if spec.better == 'low' else 'highest'} score wins, rules v{spec.rules_version}")
        for opt in spec.options:
            typer.echo(f"    --rule {opt.describe()}")


@app.command()
def strategies(
    game: str = typer.Argument(..., help="Game name (see `tourney games`)."),
    params: bool = typer.Option(False, "--params", help="Also list each strategy's parameters: name=default (range): meaning."),
) -> None:
    """List the strategies of a game, one line each (plug-ins included).

    A strategy can be named with other parameter values anywhere a strategy is named:
    NAME:key=value,key=value (e.g. guard:sword_weight=0.3) or NAME@file.toml (e.g. the
    best.toml that `tourney tune` writes).
    """
    errors, _ = _user_errors()
    from tourney_sim.simulate.games import get_game
    from tourney_sim.strategies import available
    try:
        get_game(game)
        table = available(game)
    except errors as exc:
        fail(str(exc))
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
    game: str = typer.Argument(..., help="Game name (see `tourney games`)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: 4, or the game's only count)."),
    games: int = typer.Option(100_000, "--games", "-n", help="Number of games to play."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed: game i depends only on (seed, i)."),
    strategy: Optional[List[str]] = typer.Option(None, "--strategy", help="Strategy for the next seat; repeat it. The list repeats to fill the table (default: the game's built-ins)."),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help="Rule option key=value (see `tourney games`); repeatable."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Output dataset directory (default: runs/GAME-Np-seedS)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Worker processes (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Games per chunk / Parquet part (does not change results)."),
    rotate: bool = typer.Option(True, "--rotate/--no-rotate", help="Rotate the seating every game so each strategy sits in every seat equally."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing dataset in --out."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Play on a Dask cluster: tcp://HOST:8786 (a running scheduler) or local (start one here with --workers processes). Default: the built-in local runner."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --out after it was interrupted or killed (same parameters), keeping its finished parts."),
) -> None:
    """Play GAMES seeded games and write one Parquet row per game and seat, then print a summary.

    Example: tourney run companeros --players 4 --games 1000000 --seed 7
    --strategy greedy --strategy random --out runs/first
    """
    errors, run_error = _user_errors()
    from tourney_sim.simulate.matchup import make_matchup
    from tourney_sim.simulate.runner import run as run_games
    from tourney_sim.strategies import heuristics
    if games < 1:
        fail(f"--games must be a positive number, got {games}")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        fail(f"--chunk-size must be at least 1, got {chunk_size}")
    try:
        names = list(strategy or [])
        if not names:
            from tourney_sim.simulate.games import get_game
            spec = get_game(game)
            n = players or spec.default_players
            names = heuristics(game)[:n]
        m = make_matchup(game, players, names, rules=rule or [], seed=seed, rotate=rotate)
        out = out or Path("runs") / f"{game}-{m.n_players}p-seed{seed}"
        command = "tourney " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        report = run_games(m, games, out, workers=workers, chunk_size=chunk_size,
                           overwrite=overwrite, progress=not quiet, command=command,
                           scheduler=scheduler, resume=resume)
    except errors as exc:
        fail(str(exc))
    except run_error as exc:
        fail(str(exc), code=1)
    man = report.manifest
    if not quiet:
        for note in report.notes:
            typer.echo(note, err=True)
    if report.interrupted:
        typer.echo(f"interrupted: {man['games_done']:,} of {games:,} games kept in {out} (whole parts only; "
                   f"continue with --resume)", err=True)
        raise typer.Exit(130)
    if not quiet:
        from tourney_sim.reports.summary import summary_text
        typer.echo(summary_text(out))
        played = report.games_played
        typer.echo(f"\n{played:,} games in {report.seconds:.2f} s ({played / max(report.seconds, 1e-9):,.0f} "
                   f"games/s){' this session' if report.resumed else ''}; results in {out}")


@app.command()
def summary(directory: Path = typer.Argument(..., help="A dataset directory written by `tourney run`.")) -> None:
    """Print the summary of a dataset (per strategy and per seat)."""
    errors, _ = _user_errors()
    from tourney_sim.reports.summary import summary_text
    try:
        typer.echo(summary_text(directory))
    except errors as exc:
        fail(str(exc))


@app.command()
def replay(
    directory: Path = typer.Argument(..., help="A dataset directory written by `tourney run`."),
    game: int = typer.Option(..., "--game", "-g", help="Game index within the run."),
    format: str = typer.Option("text", "--format", "-f", help="text (readable) or json (a complete "
                               "trace, tourney-trace/2, that `tourney check` and other programs re-check)."),
    legal: bool = typer.Option(False, "--legal", help="Add each decision's full list of legal moves, spelled out."),
) -> None:
    """Replay one game of a dataset move by move, exactly as it was played, with its chance events
    (deals, reshuffles, draws) in order: the trace alone, with the rules, determines the game."""
    errors, _ = _user_errors()
    from tourney_sim.simulate.replay import format_text, trace
    if format not in ("text", "json"):
        fail(f"--format must be text or json, got {format!r}")
    try:
        t = trace(directory, game, legal=legal)
    except errors as exc:
        fail(str(exc))
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
    from tourney_sim.simulate.check import TraceError, check_trace, load_trace
    try:
        report = check_trace(load_trace(trace_file))
    except TraceError as exc:
        fail(str(exc))
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
                                              "(docs/traces.md; e.g. a trace's initial_state)."),
    strategy: str = typer.Option("random", "--strategy", "-s",
                                 help="Who to ask: any strategy of the game, with its parameters "
                                      "(e.g. greedy, ismcts:iterations=300)."),
    seed: int = typer.Option(0, "--seed", help="Seeds the strategy's random stream (and a search's samples)."),
    format: str = typer.Option("text", "--format", "-f", help="text or json."),
) -> None:
    """Show the legal moves of a stored position and the move a strategy would play there."""
    errors, _ = _user_errors()
    from tourney_sim.simulate.games import PositionError
    from tourney_sim.simulate.position import analyse, format_text, read_position
    if format not in ("text", "json"):
        fail(f"--format must be text or json, got {format!r}")
    try:
        a = analyse(game, read_position(position_file), strategy, seed=seed)
    except (PositionError, *errors) as exc:
        fail(str(exc))
    typer.echo(json.dumps(a, indent=1, ensure_ascii=False) if format == "json" else format_text(a))


@app.command()
def bench(
    game: str = typer.Argument(..., help="Game name."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players."),
    games: int = typer.Option(100_000, "--games", "-n", help="Games per timed run."),
    repeats: int = typer.Option(3, "--repeats", "-r", help="Timed runs per strategy (the median is shown)."),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help="Rule option key=value; repeatable."),
    strategy: Optional[List[str]] = typer.Option(None, "--strategy", help="Strategy to time (settings allowed: NAME:key=value); repeatable (default: every strategy of the game)."),
) -> None:
    """Kernel speed per strategy (every seat plays it), one core, compile time shown apart."""
    errors, _ = _user_errors()
    from tourney_sim.simulate.bench import bench_game
    if games < 1 or repeats < 1:
        fail("--games and --repeats must be positive")
    try:
        r = bench_game(game, players, games, repeats, strategy_names=list(strategy or []) or None,
                       rules=rule or [])
    except errors as exc:
        fail(str(exc))
    typer.echo(f"{r['game']}, {r['players']} players, {games:,} games x {repeats} runs (median), one core")
    typer.echo(f"compile or cache load: {r['compile_seconds']:.2f} s")
    typer.echo(f"  {'strategy':<14}{'games/s':>12}{'decisions/s':>14}{'decisions/game':>16}")
    for row in r["rows"]:
        typer.echo(f"  {row['strategy']:<14}{row['games_per_s']:>12,.0f}{row['decisions_per_s']:>14,.0f}"
                   f"{row['decisions_per_game']:>16.1f}")


# ----------------------------------------------------------------------------- tournaments and reports
def _tournament_errors():
    errors, run_error = _user_errors()
    from tourney_sim.simulate.tournament import TournamentError
    return errors + (TournamentError,), run_error


def _play_tournament(game, players, strategy, games, seed, rule, sweep, out, workers, chunk_size,
                     overwrite, quiet, until_decided, alpha, margin, report_out, kind, scheduler=None,
                     resume=False, design="all", first_batch=None) -> None:
    errors, run_error = _tournament_errors()
    from tourney_sim.reports.render import build, to_text, write
    from tourney_sim.api import _stopping_rule
    from tourney_sim.simulate.tournament import run_tournament
    if games < 1:
        fail(f"--games must be a positive number, got {games}")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        fail(f"--chunk-size must be at least 1, got {chunk_size}")
    if report_out is not None and report_out.suffix.lower() not in (".html", ".htm", ".md"):
        fail(f"--report must name a .html or .md file, got {report_out}")
    if out is None:
        from tourney_sim.simulate.games import get_game
        try:
            spec = get_game(game)
        except errors as exc:
            fail(str(exc))
        n = players or spec.default_players
        out = Path("runs") / f"{game}-{kind}-{n}p-seed{seed}"
    command = "tourney " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    try:
        result = run_tournament(game, players, list(strategy or []), games, seed, out, rules=list(rule or []),
                                sweep=sweep, workers=workers, chunk_size=chunk_size, overwrite=overwrite,
                                progress=not quiet, command=command,
                                stop=_stopping_rule(sweep, until_decided, alpha, margin), scheduler=scheduler, resume=resume,
                                design=design, **({} if first_batch is None else {"first_batch": first_batch}))
    except errors as exc:
        fail(str(exc))
    except run_error as exc:
        fail(str(exc), code=1)
    man = result.manifest
    for note in result.notes:
        typer.echo(note, err=True)
    if result.interrupted:
        typer.echo(f"interrupted: {man['games_played']:,} games kept in {out} (whole parts only; "
                   f"continue with --resume)", err=True)
        raise typer.Exit(130)
    ud = man.get("until_decided")
    if ud:
        how = {"decided": "decided", "cap": "NOT decided: the --games cap was reached"}[ud["stopped"]]
        typer.echo(f"--until-decided: {how} after {ud['deals']:,} deals per seating "
                   f"(alpha {ud['alpha']}, margin {ud['margin']})")
        for r in ud["results"]:
            typer.echo(f"  {r['text']}")
    if quiet:
        return
    try:
        rep = build([out])
        if report_out is not None:
            write(rep, report_out, "md" if report_out.suffix.lower() == ".md" else "html")
    except errors as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write report {report_out}: {exc.strerror or exc}")
    typer.echo(to_text(rep))
    typer.echo(f"\n{man['games_played']:,} games ({man['seatings']} seatings x {man['deals_played']:,} deals"
               f"{' x ' + str(len(man['variants'])) + ' variants' if len(man['variants']) > 1 else ''}) in "
               f"{result.seconds:.1f} s; results in {out}" + (f"; report in {report_out}" if report_out else ""))


@app.command()
def tournament(
    game: str = typer.Argument(..., help="Game name (see `tourney games`)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: 4, or the game's only count)."),
    strategy: Optional[List[str]] = typer.Option(None, "--strategy", help="A strategy of the tournament; repeat it (at least two)."),
    games: int = typer.Option(10_000, "--games", "-n", help="Deals; each is played in every seating of every matchup (the cap with --until-decided)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed: deal i depends only on (seed, i), the same in every seating."),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help="Rule option key=value (see `tourney games`); repeatable."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Output directory (default: runs/GAME-tournament-Np-seedS)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Worker processes (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Games per Parquet part (does not change results)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing tournament in --out."),
    resume: bool = typer.Option(False, "--resume", help="Continue the tournament in --out after it was interrupted or killed (same parameters), keeping its finished parts."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary."),
    until_decided: bool = typer.Option(False, "--until-decided", help="Play in batches and stop once every pair of strategies is settled (stronger, weaker, or equal within --margin) at error rate --alpha; --games is then the cap."),
    alpha: float = typer.Option(0.05, "--alpha", help="--until-decided: chance that any conclusion is wrong."),
    margin: float = typer.Option(0.02, "--margin", help="--until-decided: win-rate differences below this count as equal."),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write the report to this .html or .md file."),
    seatings: str = typer.Option("all", "--seatings", help="Which seatings: all (every assignment of the strategies to the seats) or field (one strategy alone among copies of another, in every seat; team games: a whole team against a whole team). field costs far fewer games per deal at large tables."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Play on a Dask cluster: tcp://HOST:8786 or local (as for `tourney run`). Default: the built-in local runner."),
    first_batch: Optional[int] = typer.Option(None, "--first-batch", help="--until-decided: deals in the first batch (default 1,000); later batches add half of what is done. Smaller lets a clear answer stop sooner."),
) -> None:
    """Duplicate tournament: every matchup of the strategies that fills the table, each deal played
    in every seating of it on the same seeds, then a summary (see `tourney report`).

    Example: tourney tournament companeros --players 4 --strategy greedy --strategy random
    --strategy high --games 20000 --seed 7 --out runs/t1

    A strong, slow strategy against a heuristic at a large table: --seatings field, e.g.
    tourney tournament companeros --players 6 --strategy ismcts --strategy greedy --seatings field
    --games 2000 --seed 1
    """
    _play_tournament(game, players, strategy, games, seed, rule, None, out, workers, chunk_size, overwrite,
                     quiet, until_decided, alpha, margin, report, "tournament", scheduler, resume, seatings,
                     first_batch)


@app.command()
def sweep(
    game: str = typer.Argument(..., help="Game name (see `tourney games`)."),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help="Rule option to vary, key=v1,v2[,...]; repeatable (the variants are every combination)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: 4, or the game's only count)."),
    strategy: Optional[List[str]] = typer.Option(None, "--strategy", help="A strategy; repeat it (at least two)."),
    games: int = typer.Option(10_000, "--games", "-n", help="Deals per seating and variant (the cap with --until-decided)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed: the same deals under every variant."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Output directory (default: runs/GAME-sweep-Np-seedS)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Worker processes (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Games per Parquet part (does not change results)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing sweep in --out."),
    resume: bool = typer.Option(False, "--resume", help="Continue the sweep in --out after it was interrupted or killed (same parameters), keeping its finished parts."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary."),
    until_decided: bool = typer.Option(False, "--until-decided", help="Stop once it is settled which variant is fairer (largest seat gap), or that they are equally fair within --margin, at error rate --alpha."),
    alpha: float = typer.Option(0.05, "--alpha", help="--until-decided: chance that any conclusion is wrong."),
    margin: float = typer.Option(0.02, "--margin", help="--until-decided: seat-gap differences below this count as equal."),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write the report to this .html or .md file."),
    seatings: str = typer.Option("all", "--seatings", help="Which seatings: all (every assignment of the strategies to the seats) or field (one strategy alone among copies of another, in every seat; team games: a whole team against a whole team). field costs far fewer games per deal at large tables."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Play on a Dask cluster: tcp://HOST:8786 or local (as for `tourney run`). Default: the built-in local runner."),
) -> None:
    """The same deals and matchups under each rule variant, then the variants' balance side by side.

    Example: tourney sweep cardavia --rule last_sweep_scores=true,false --strategy greedy
    --strategy random --games 20000 --out runs/sweep1
    """
    if not rule:
        fail("give the rule to vary, e.g. --rule key=v1,v2")
    _play_tournament(game, players, strategy, games, seed, [], list(rule), out, workers, chunk_size, overwrite,
                     quiet, until_decided, alpha, margin, report, "sweep", scheduler, resume, seatings)


@app.command()
def report(
    directories: List[Path] = typer.Argument(..., help="Datasets, tournaments or sweeps (merged: one game)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the report here (.html, or .md for Markdown)."),
    format: Optional[str] = typer.Option(None, "--format", "-f", help="html, md or text (default: from --out, else text)."),
    rating_sample: int = typer.Option(10_000, "--rating-sample", help="Games sampled to fit the openskill ratings."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not print the terminal summary."),
) -> None:
    """Strategy strength, pairwise comparisons, seat balance and game shape from datasets alone:
    a self-contained HTML page (or Markdown) and a terminal summary.

    Example: tourney report runs/t1 --out report.html
    """
    errors, _ = _tournament_errors()
    from tourney_sim.reports.render import build, to_markdown, to_text, write
    fmt = format or ("md" if out is not None and out.suffix.lower() == ".md" else "html" if out is not None else "text")
    if fmt not in ("html", "md", "text"):
        fail(f"--format must be html, md or text, got {fmt!r}")
    if fmt == "html" and out is None:
        fail("--format html needs --out FILE")
    if rating_sample < 1:
        fail(f"--rating-sample must be positive, got {rating_sample}")
    if out is not None and fmt == "text":
        fail("--format text prints to the terminal: drop --out or choose html or md")
    if out is not None and (out.is_dir() or not out.name or out.name in (".", "..")):
        fail(f"--out {out} is a directory: give a file name such as report.html")
    if out is not None and not out.parent.is_dir():
        fail(f"cannot write report {out}: directory {out.parent} does not exist")
    try:
        from tourney_sim.reports import tuning
        if len(directories) == 1 and tuning.is_tuning(directories[0]):
            rep = tuning.build(directories[0])
        else:
            rep = build(directories, rating_sample)
    except errors as exc:
        fail(str(exc))
    if out is None and fmt == "md":
        typer.echo(to_markdown(rep))
        return
    if out is not None:
        try:
            write(rep, out, fmt)
        except OSError as exc:
            fail(f"cannot write report {out}: {exc.strerror or exc}")
    if not quiet:
        typer.echo(to_text(rep))
        if out is not None:
            typer.echo(f"\nreport written to {out}")


@app.command()
def tune(
    game: str = typer.Argument(..., help="Game name (see `tourney games`)."),
    strategy: str = typer.Option(..., "--strategy", help="The strategy to tune (a setting such as NAME@file.toml is the starting point); see `tourney strategies GAME --params`."),
    against: Optional[List[str]] = typer.Option(None, "--against", help="A strategy of the field it is tuned against; repeat it. Every trial plays every one of them on the same deals."),
    trials: int = typer.Option(100, "--trials", "-t", help="Settings to try (the first is the starting setting)."),
    deals: int = typer.Option(2000, "--deals", "-n", help="Deals per trial, each played in every seating against every --against strategy; the same deals for every trial."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the tuning deals and of the sampler."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players (default: 4, or the game's only count)."),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help="Rule option key=value (see `tourney games`); repeatable."),
    param: Optional[List[str]] = typer.Option(None, "--param", help="Tune only this parameter; repeatable (default: all of the strategy's parameters)."),
    sampler: str = typer.Option("tpe", "--sampler", help="optuna sampler: tpe (any parameters) or cmaes (CMA-ES, for real and integer parameters)."),
    objective: str = typer.Option("win", "--objective", help="win: the mean win rate against the field; margin: the mean score margin over the other players."),
    confirm_deals: Optional[int] = typer.Option(None, "--confirm-deals", help="Fresh deals on which the best setting is confirmed against the starting one (default: 5 x --deals)."),
    confirm_seed: Optional[int] = typer.Option(None, "--confirm-seed", help="Seed of the confirmation deals (default: --seed + 1)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Output directory (default: runs/tune-GAME-STRATEGY-seedS)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Worker processes (default: all cores)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Play the trials on a Dask cluster: tcp://HOST:8786 or local (as for `tourney run`)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing tuning run in --out."),
    resume: bool = typer.Option(False, "--resume", help="Continue the tuning run in --out after it was interrupted or killed (same parameters; --trials may grow)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary."),
) -> None:
    """Find the strongest settings of a strategy's parameters with optuna.

    Every trial plays one setting against the --against field on the same deals (duplicate
    seatings, common random numbers), so trials differ by their settings, not their luck. At
    the end the best setting is confirmed against the starting one on fresh deals (paired, with
    a 95% interval and p-value). Writes best.toml (use it as --strategy NAME@DIR/best.toml),
    _tune.json and the optuna study (study.journal); `tourney report DIR` shows the history.

    Example: tourney tune cardavia --strategy guard --against capture-max --against random
    --trials 200 --deals 2000 --seed 1 --out runs/tune-guard
    """
    errors, run_error = _user_errors()
    from tourney_sim.simulate.tune import TuneError, summary_text, tune as run_tune
    errors = errors + (TuneError,)
    if trials < 1 or deals < 1:
        fail("--trials and --deals must be positive")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    from tourney_sim.strategies import setting_name
    name = setting_name(strategy)
    out = out or Path("runs") / f"tune-{game}-{name}-seed{seed}"
    command = "tourney " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    try:
        report = run_tune(game, strategy, list(against or []), out, n_players=players, rules=list(rule or []),
                          trials=trials, deals=deals, seed=seed, sampler=sampler, objective=objective,
                          params=list(param or []) or None, confirm_deals=confirm_deals,
                          confirm_seed=confirm_seed, workers=workers, scheduler=scheduler,
                          overwrite=overwrite, resume=resume, progress=not quiet, command=command)
    except errors as exc:
        fail(str(exc))
    except run_error as exc:
        fail(str(exc), code=1)
    except KeyboardInterrupt:
        typer.echo(f"interrupted: the study in {out} keeps its finished trials (continue with --resume)", err=True)
        raise typer.Exit(130)
    if not quiet:
        for note in report.notes:
            typer.echo(note, err=True)
        typer.echo(summary_text(report.manifest))
        typer.echo(f"\nbest setting in {out / 'best.toml'}; report: tourney report {out} --out tune.html")


@app.command()
def study(
    game: str = typer.Argument(..., help="Game name (see `tourney games`)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Study directory (default: runs/study-GAME-BUDGET-seedS)."),
    budget: str = typer.Option("standard", "--budget", "-b", help="quick (minutes: a first look), standard (under 30 minutes per game on 2 cores) or thorough (hours): the deals of every stage and the search player's budget; the README lists each one's cost per game."),
    players: Optional[List[str]] = typer.Option(None, "--players", "-p", help="Player counts to study, e.g. 4 or 3,4 (repeatable; default: every count the game supports)."),
    levels: str = typer.Option("random,heuristic,search", "--levels", help="Levels of play, comma-separated: random (everyone random), heuristic (everyone the game's strongest heuristic, tuned where a tuned setting ships), search (everyone ismcts)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of every stage: the same deals at every level and under every rule option."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Worker processes (default: all cores)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Play every stage on a Dask cluster: tcp://HOST:8786 or local (as for `tourney run`)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the study in --out after it was interrupted or killed (same parameters): finished stages are kept, the unfinished one resumes."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing study in --out."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars; only the findings."),
) -> None:
    """A balance study in one command: seat and first-player advantage under random, heuristic
    and search play; what each rule option changes (paired on the same deals); the strategy
    landscape; every supported player count side by side. Ends with the findings in words; the
    directory holds every dataset, _study.json (each stage's command, to regenerate any number on
    its own), findings.json, report.html and report.md.

    Example: tourney study colleagues --budget quick --players 4 --out study/c-quick
    """
    errors, run_error = _tournament_errors()
    from tourney_sim.api import _run_study as run_study
    from tourney_sim.simulate.study import StudyError
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    counts: list[int] = []
    for text in players or []:
        for part in text.split(","):
            try:
                counts.append(int(part))
            except ValueError:
                fail(f"--players takes player counts such as 4 or 3,4, got {text!r}")
    out = out or Path("runs") / f"study-{game}-{budget}-seed{seed}"
    command = "tourney " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    try:
        result = run_study(game, out, budget=budget, players=counts or None,
                           levels=[x.strip() for x in levels.split(",") if x.strip()], seed=seed,
                           workers=workers, scheduler=scheduler, resume=resume, overwrite=overwrite,
                           progress=not quiet, command=command)
    except (StudyError, *errors) as exc:
        fail(str(exc))
    except run_error as exc:
        fail(str(exc), code=1)
    if result.interrupted:
        typer.echo(f"interrupted: the study in {out} keeps its finished stages (continue with --resume)", err=True)
        raise typer.Exit(130)
    typer.echo(result.summary)


@app.command()
def verify(directory: Path = typer.Argument(..., help="A dataset directory written by `tourney run`.")) -> None:
    """Check that a dataset is complete and sound: every game once, every seat, schema, manifest
    and part checksums agree. Exit 0 if so; otherwise each problem on its own line and exit 1."""
    errors, _ = _user_errors()
    from tourney_sim.simulate.verify import report_text, verify as check
    try:
        verdict = check(directory)
    except errors as exc:
        fail(str(exc))
    typer.echo(report_text(verdict))
    if not verdict.ok:
        raise typer.Exit(1)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
