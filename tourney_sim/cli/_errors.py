"""Every error the ``tourney`` command reports, handled in one place.

A command raises; it never prints its own error. :class:`TourneyGroup` (the app's click group)
catches, around every command:

- a :class:`~tourney_sim.simulate.errors.TourneyError` (every user-facing error class of the
  library derives from it): ``error: MESSAGE`` on stderr, exit with the class's ``exit_code``
  (2 for refused input, 1 for failed work);
- an :class:`~tourney_sim.simulate.errors.Interrupted` run (Ctrl-C, finished parts kept): its
  message on stderr, exit 130.

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


class TourneyGroup(TyperGroup):
    """The app's group: runs a command and reports its error (see the module docstring)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except NoArgsIsHelpError:
            raise
        except UsageError as exc:
            typer.echo(usage_line(exc), err=True)
            raise typer.Exit(exc.exit_code) from None
        except (ValueError, KeyboardInterrupt) as exc:  # TourneyError, Interrupted
            answer = handled(exc)
            if answer is None:
                raise
            line, code = answer
            typer.echo(line, err=True)
            raise typer.Exit(code) from None
