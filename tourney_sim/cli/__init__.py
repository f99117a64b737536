"""The ``tourney`` command line: a thin layer over :mod:`tourney_sim.api`.

- ``app.py``: the commands (each gathers its options, calls its api function, prints);
- ``_options.py``: the shared options and arguments, declared once as ``Annotated`` aliases, and
  the recorded command line;
- ``_errors.py``: every error reported in one place (one line, the error's exit code).

The entry point is ``tourney_sim.command:main`` (``tourney`` and ``python -m tourney_sim``).
"""
from .app import app, main

__all__ = ["app", "main"]
