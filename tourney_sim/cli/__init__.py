"""The ``tourney`` command line: a thin layer over :mod:`tourney_sim.api`.

- ``app.py``: the commands (each gathers its options, calls its api function, prints);
- ``_options.py``: the shared options and arguments, declared once as ``Annotated`` aliases, and
  the recorded command line;
- ``_errors.py``: every error reported in one place (one line, the error's exit code).

The entry point is ``tourney_sim.command:main`` (``tourney`` and ``python -m tourney_sim``).
"""
try:
    from .app import app, main
except KeyboardInterrupt:  # Ctrl-C while the command starts (imports): exit 130 quietly, one line
    import signal
    import sys
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stderr.write("interrupted: stopped by Ctrl-C while starting (nothing was written)\n")
    try:  # exit 130, not by SIGINT (see _errors.forget_unhandled_interrupt)
        from ._errors import forget_unhandled_interrupt
        forget_unhandled_interrupt()
    except Exception:  # a module cut short by the Ctrl-C itself
        pass
    raise SystemExit(130) from None

__all__ = ["app", "main"]
