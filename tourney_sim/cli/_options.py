"""The commands' options and arguments, each declared once as an ``Annotated`` alias.

An alias is used as a parameter's type, its default stays in the command's signature::

    def run(game: GameArg, players: PlayersOpt = None, ...)

An option whose help names the command's own work (its default output, what ``--overwrite``
replaces, what ``--seed`` means there) is made by a function of those words, so the flags and the
type are still written once. Values are checked by ``tourney_sim.api`` (with the command's words),
not here.
"""
import inspect
import shlex
import sys
import typing
from pathlib import Path
from typing import Annotated, List, Optional

import typer

from tourney_sim.api import DEFAULT_OUT
from tourney_sim.simulate.jobdir import relative_command, request_options


def recorded_command() -> str:
    """The command line as manifests record it (to run it again, from the directory it ran in):
    every absolute path in it relative to the working directory (``simulate.jobdir.relative_command``),
    so no recorded command names a directory of the machine it ran on."""
    return "tourney " + " ".join(shlex.quote(a) for a in relative_command(sys.argv[1:]))


def _option(kind, *flags: str):
    """A function of the help text giving the ``Annotated`` option of these flags and type."""
    return lambda help: Annotated[kind, typer.Option(*flags, help=help)]


# ----------------------------------------------------------------------------- the same everywhere
GameArg = Annotated[str, typer.Argument(help="Game name (see `tourney games`).")]
DatasetArg = Annotated[Path, typer.Argument(help="A dataset directory written by `tourney run` (or a tournament's "
                                                 "or sweep's; a tuning run's or study's names its datasets).")]
Players = _option(Optional[int], "--players", "-p")
PlayersOpt = Players("Number of players (default: 4, or the game's only count).")
Rules = _option(Optional[List[str]], "--rule")
RuleOpt = Rules("Rule option key=value (see `tourney games`); repeatable.")
Components = _option(Optional[List[str]], "--component")
ComponentOpt = Components("One component value KEY=VALUE set over the defaults or --rule components=FILE, "
                          "e.g. tokens.plus10=12 or work.values[3]=2 (a list entry, from 1); repeatable. "
                          "Keys: docs/components.md.")
WorkersOpt = Annotated[Optional[int], typer.Option("--workers", "-w", help="Worker processes (default: all cores).")]
ChunkSize = _option(Optional[int], "--chunk-size")
ChunkSizeOpt = ChunkSize("Games per Parquet part (does not change results).")
Quiet = _option(bool, "--quiet", "-q")
QuietOpt = Quiet("No progress bar and no summary.")
Scheduler = _option(Optional[str], "--scheduler")
SchedulerOpt = Scheduler("Play on a Dask cluster: tcp://HOST:8786 or local (as for `tourney run`). "
                         "Default: the built-in local runner.")
TextOrJson = _option(str, "--format", "-f")
RecordOpt = Annotated[Optional[List[str]], typer.Option(
    "--record", help="Record more per row: dealt (the column `dealt`: what each seat was dealt or drew, "
                     "counts per kind in the order of the manifest's dealt_kinds; about 3x the bytes "
                     "of a dataset without it). Studies record it.")]

# ----------------------------------------------------------------------------- help in the command's words
Games = _option(int, "--games", "-n")
Seed = _option(int, "--seed", "-s")
Strategies = _option(Optional[List[str]], "--strategy")


def Out(command: str, what: str = "Output directory"):
    """``--out``, its help showing the command's default directory (``DEFAULT_OUT``)."""
    pattern = DEFAULT_OUT[command].format(game="GAME", players="N", seed="S", strategy="STRATEGY",
                                          budget="BUDGET")
    return Annotated[Optional[Path], typer.Option("--out", "-o", help=f"{what} (default: {pattern}).")]


def Overwrite(what: str):
    return Annotated[bool, typer.Option("--overwrite", help=f"Replace an existing {what} in --out.")]


def Resume(what: str, keeps: str = "), keeping its finished parts."):
    """``--resume``; ``keeps`` ends the sentence after "(same parameters"."""
    return Annotated[bool, typer.Option("--resume", help=f"Continue the {what} in --out after it was "
                                                         f"interrupted or killed (same parameters{keeps}")]


# ----------------------------------------------------------------------------- tournament and sweep
ReportOpt = Annotated[Optional[Path], typer.Option("--report", help="Also write the report to this .html or .md file.")]


# ----------------------------------------------------------------------------- a job's request, as options
def _is_list(kind) -> bool:
    return typing.get_origin(kind) is list or any(typing.get_origin(a) is list for a in typing.get_args(kind))


def request_parameters(request_class) -> list[inspect.Parameter]:
    """The command-line options of a job's request (a dataclass declared with
    ``simulate.jobdir.option``), as parameters of the command's signature: each with its flags,
    help and default as declared (a list option: repeatable, None when not given)."""
    params = []
    for name, default, flags, help, kind in request_options(request_class):
        if _is_list(kind):
            kind, default = Optional[List[str]], None
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                        annotation=Annotated[kind, typer.Option(*flags, help=help)]))
    return params


def _job_parameters(command: str, what: str, out: str, keeps: str, quiet: str, scheduler: str) -> tuple:
    """Where and how a job runs, as every job command takes it: ``--out`` (before the request's
    options) and ``--workers``, ``--scheduler``, ``--overwrite``, ``--resume``, ``--quiet`` (after)."""
    kw = inspect.Parameter.KEYWORD_ONLY
    first = [inspect.Parameter("out", kw, default=None, annotation=Out(command, out))]
    last = [inspect.Parameter("workers", kw, default=None, annotation=WorkersOpt),
            inspect.Parameter("scheduler", kw, default=None, annotation=Scheduler(scheduler)),
            inspect.Parameter("overwrite", kw, default=False, annotation=Overwrite(what)),
            inspect.Parameter("resume", kw, default=False, annotation=Resume(what, keeps)),
            inspect.Parameter("quiet", kw, default=False, annotation=Quiet(quiet))]
    return first, last


def job_command(request_class, command: str, what: str, *, out: str = "Output directory",
                keeps: str = "), keeping its finished parts.", quiet: str = "No progress bar and no summary.",
                scheduler: str = "Play on a Dask cluster: tcp://HOST:8786 or local (as for `tourney run`). "
                                 "Default: the built-in local runner.",
                more: tuple[str, ...] = ()):
    """Decorate a job command written as ``def cmd(game, <more...>, **options)``: Typer sees the
    game, ``--out``, the request's options (``request_class``'s fields: flags, help, defaults as
    declared), the command's own ``more`` parameters, then ``--workers``, ``--scheduler``,
    ``--overwrite``, ``--resume``, ``--quiet`` (``what`` the job in their help). The command gets
    them all in ``options``; a request option not given is None (leave it out: the request's
    default applies)."""
    def decorate(fn):
        sig = inspect.signature(fn)
        hints = typing.get_type_hints(fn, include_extras=True)
        own = {n: p.replace(annotation=hints.get(n, p.annotation)) for n, p in sig.parameters.items()
               if p.kind is not inspect.Parameter.VAR_KEYWORD}
        first, last = _job_parameters(command, what, out, keeps, quiet, scheduler)
        fn.__signature__ = sig.replace(parameters=[own["game"]] + first + request_parameters(request_class)
                                       + [own[n].replace(kind=inspect.Parameter.KEYWORD_ONLY) for n in more] + last)
        return fn
    return decorate
