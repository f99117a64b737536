"""The errors a user sees, with the exit code the ``tourney`` command ends with for each.

Every user-facing error class of the library (an unknown game, strategy or rule option, an
existing output directory, an unreadable dataset, a worker that failed, ...) derives from
:class:`TourneyError`; its message is the one line the command prints after ``error:``. The CLI
handles them in one place (``tourney_sim/cli/_errors.py``), so a new error class needs no change
there. This module is the lowest layer: it imports nothing of the project.
"""
from __future__ import annotations


class TourneyError(ValueError):
    """Input the library refuses (a ``ValueError``, as the API documents): exit code 2."""

    exit_code = 2


class TourneyFailure(TourneyError, RuntimeError):
    """Valid input whose work failed (a game or a worker failed, results could not be written):
    exit code 1. Also a ``RuntimeError``, as ``RunError`` always was."""

    exit_code = 1


class Interrupted(KeyboardInterrupt):
    """A run, tournament, sweep, tuning run or study stopped by Ctrl-C: what it finished is kept;
    the message says where and how to continue. Exit code 130 (128 + SIGINT)."""

    exit_code = 130


def span(low: int, high: int) -> str:
    """A range of whole numbers in a message: ``0 to 9``, or ``0`` alone when it holds one
    number (never "from 0 to 0")."""
    return f"{low:,} to {high:,}" if high != low else f"{low:,}"
