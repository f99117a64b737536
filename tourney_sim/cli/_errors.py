"""Every error the ``tourney`` command reports, handled in one place.

A command raises; it never prints its own error. :class:`TourneyGroup` (the app's click group)
catches, around every command:

- a :class:`~tourney_sim.simulate.errors.TourneyError` (every user-facing error class of the
  library derives from it): ``error: MESSAGE`` on stderr, exit with the class's ``exit_code``
  (2 for refused input, 1 for failed work);
- an :class:`~tourney_sim.simulate.errors.Interrupted` run (Ctrl-C, finished parts kept): its
  message on stderr, exit 130.

An unwritable output directory or report file is an ``OutputError`` (the library turns the
``OSError`` into one where it writes), so it takes the same way. Anything else is a bug and keeps
its traceback.
"""
import typer
from typer.core import TyperGroup


def fail(message: str):
    """Refuse the command line: ``error: MESSAGE``, exit 2 (as the library's own errors)."""
    from tourney_sim.simulate.errors import TourneyError
    raise TourneyError(message)


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
        except (ValueError, KeyboardInterrupt) as exc:  # TourneyError, Interrupted
            answer = handled(exc)
            if answer is None:
                raise
            line, code = answer
            typer.echo(line, err=True)
            raise typer.Exit(code) from None
