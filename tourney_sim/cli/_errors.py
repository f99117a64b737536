"""Every error the ``tourney`` command reports, handled in one place.

A command raises; it never prints its own error. :class:`TourneyGroup` (the app's click group)
catches, around every command:

- a :class:`~tourney_sim.simulate.errors.TourneyError` (every user-facing error class of the
  library derives from it): ``error: MESSAGE`` on stderr, exit with the class's ``exit_code``
  (2 for refused input, 1 for failed work);
- an :class:`~tourney_sim.simulate.errors.Interrupted` run (Ctrl-C, finished parts kept): its
  message on stderr, exit 130; any other Ctrl-C (while parsing, before a job began): one general
  ``interrupted:`` line, exit 130 (``app.main`` and ``cli/__init__`` cover start-up and exit).

An unwritable output directory or report file is an ``OutputError`` (the library turns the
``OSError`` into one where it writes), so it takes the same way. A command line Typer cannot
parse (a bad option value such as ``--games abc``, an unknown option, a missing argument) is one
``error:`` line too, exit 2, naming the option, what it takes and the help to read. Anything else
is a bug and keeps its traceback.
"""
import typer
from typer._click.exceptions import BadParameter, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

#: what a value of each kind must be, by the start of the parse error's type (pydantic's)
_EXPECTED = {"int": "a whole number", "float": "a number", "bool": "true or false"}


def fail(message: str):
    """Refuse the command line: ``error: MESSAGE``, exit 2 (as the library's own errors)."""
    from tourney_sim.simulate.errors import TourneyError
    raise TourneyError(message)


def usage_line(exc: UsageError) -> str:
    """A command line Typer refused, as one line: what is wrong, what is allowed, where to look."""
    where = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx is not None else ""
    cause = exc.__cause__
    if isinstance(exc, BadParameter) and exc.param is not None and hasattr(cause, "errors"):
        (problem, *_) = cause.errors()
        expected = _EXPECTED.get(str(problem.get("type", "")).split("_")[0], problem.get("msg", "another value"))
        name = max(exc.param.opts, key=len) if exc.param.opts else exc.param.name
        return f"error: {name} expects {expected}, got {problem.get('input')!r}{where}"
    return f"error: {exc.format_message().rstrip('.')}{where}"


def handled(exc: BaseException) -> tuple[str, int] | None:
    """The line to print and the exit code for ``exc``, or None when it is not the user's error."""
    from tourney_sim.simulate.errors import Interrupted, TourneyError
    if isinstance(exc, TourneyError):
        return f"error: {exc}", exc.exit_code
    if isinstance(exc, Interrupted):
        return str(exc), exc.exit_code
    return None


#: Ctrl-C before a command began (Python, Typer or the command's imports starting) or as it ended
STARTING = "interrupted: stopped by Ctrl-C while starting or ending (a job keeps what it finished: continue with --resume)"
#: Ctrl-C inside a command that did not say what it kept (before its job began, or outside it)
STOPPED = "interrupted: `{command}` stopped by Ctrl-C (a job keeps what it finished: continue with --resume)"


def interrupted_line(exc: KeyboardInterrupt, ctx=None) -> str:
    """The one line of a Ctrl-C: an :class:`Interrupted` job's own message, else a general one."""
    answer = handled(exc)
    if answer is not None:
        return answer[0]
    command = ctx.command_path if ctx is not None else "tourney"
    if ctx is not None and ctx.invoked_subcommand:
        command += f" {ctx.invoked_subcommand}"
    return STOPPED.format(command=command)


def forget_unhandled_interrupt() -> None:
    """Let the command's own exit code stand after a Ctrl-C it handled. CPython ends the process by
    SIGINT (exit status -2 rather than 130) once a KeyboardInterrupt has left code run through
    ``PyRun_String`` (pydantic-core's start-up, while Typer parses, does), even one caught since;
    running an empty string that way clears the flag (``run_eval_code_obj`` resets it)."""
    try:
        import ctypes
        ctypes.pythonapi.PyRun_SimpleString(b"")
    except (AttributeError, OSError):  # pragma: no cover - not CPython
        pass


class TourneyGroup(TyperGroup):
    """The app's group: runs a command and reports its error (see the module docstring). A Ctrl-C
    anywhere in it, parsing included, is one ``interrupted`` line and exit 130 (Typer alone would
    exit 130 silently)."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:
            typer.echo(STARTING, err=True)
            raise typer.Exit(130) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except NoArgsIsHelpError:
            raise
        except UsageError as exc:
            typer.echo(usage_line(exc), err=True)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt as exc:  # Interrupted (the job's own line), or any other Ctrl-C
            typer.echo(interrupted_line(exc, ctx), err=True)
            raise typer.Exit(130) from None
        except Exception as exc:  # TourneyError (a ValueError), or an error a Ctrl-C caused
            from tourney_sim.simulate.jobdir import by_interrupt
            if by_interrupt(exc):  # e.g. CPython's RuntimeError around a Ctrl-C inside an import
                typer.echo(interrupted_line(KeyboardInterrupt(), ctx), err=True)
                raise typer.Exit(130) from None
            answer = handled(exc) if isinstance(exc, ValueError) else None
            if answer is None:
                raise
            line, code = answer
            typer.echo(line, err=True)
            raise typer.Exit(code) from None
