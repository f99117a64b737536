"""tourney: play millions of seeded tabletop games between strategies; results to Parquet.

The public API (documented in ``docs/api.md``); everything else under ``tourney_sim`` is internal:

- :class:`Strategy`, :class:`Param` and :data:`STRATEGY_SIGNATURE`: declaring a strategy and its
  parameters (built-in or plug-in);
- :func:`games`, :func:`strategies`: what can be played;
- :func:`run`, :func:`tournament`, :func:`sweep`, :func:`tune`, :func:`study`, :func:`design`: play,
  returning a :class:`Result` (the dataset's ``path`` and a ``summary``);
- :func:`load`: a dataset as a pandas DataFrame (manifest in ``.attrs``); :func:`summary`,
  :func:`report`, :func:`report_text`, :func:`verify`, :func:`bench`;
- :class:`TourneyError` (every refusal, with the command's exit code), :class:`Interrupted`;
- :func:`replay`, :func:`check`, :func:`position`: game records (``docs/traces.md``);
- ``views``: the sub-package ``tourney_sim.views``, each game's state as a strategy reads it
  (named offsets of its public and private views, its move codes).

Names load on first use, so ``import tourney_sim`` (and the ``tourney`` command's start) stays
cheap: numba, pandas and pyarrow are imported only by what needs them.
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: public name -> module that defines it
_EXPORTS = {
    "Strategy": "tourney_sim.strategies",
    "StrategyError": "tourney_sim.strategies",
    "TourneyError": "tourney_sim.simulate.errors",
    "Interrupted": "tourney_sim.simulate.errors",
    "Param": "tourney_sim.strategies",
    "tune": "tourney_sim.api",
    "STRATEGY_SIGNATURE": "tourney_sim.simulate.kernel",
    "below": "tourney_sim.simulate.seeding",
    "Result": "tourney_sim.api",
    "Summary": "tourney_sim.api",
    "games": "tourney_sim.api",
    "strategies": "tourney_sim",  # the package tourney_sim.strategies, callable (see there)
    "views": "tourney_sim",  # the package tourney_sim.views
    "run": "tourney_sim.api",
    "tournament": "tourney_sim.api",
    "sweep": "tourney_sim.api",
    "study": "tourney_sim.api",
    "design": "tourney_sim.api",
    "play_design": "tourney_sim.api",
    "load": "tourney_sim.api",
    "summary": "tourney_sim.api",
    "bench": "tourney_sim.api",
    "verify": "tourney_sim.api",
    "report_text": "tourney_sim.api",
    "report": "tourney_sim.api",
    "replay": "tourney_sim.api",
    "check": "tourney_sim.api",
    "position": "tourney_sim.api",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in ("strategies", "views"):  # a sub-package: importing it binds it here
        return importlib.import_module(f"tourney_sim.{name}")
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tourney_sim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
