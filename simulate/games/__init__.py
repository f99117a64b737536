"""The game registry: name -> :class:`~tourney_sim.simulate.games.spec.GameSpec`, imported on first use.

Every game is one folder here (``rules.py``, ``notation.py``, ``reference.py``, and an
``__init__.py`` defining ``SPEC``); a folder is a game, found by its name, so adding a game is
adding a folder (and its strategies, ``strategies/<game>.py``, and tests), with nothing to
register in the runner, the CLI, the results or the reports.
"""
from __future__ import annotations

import importlib
import pkgutil

from .spec import GameSpec, PositionError, RuleError, RuleOption

#: game name -> its package (defining ``SPEC``), alphabetical; each compiles its own kernel on use
GAME_MODULES = {info.name: f"{__name__}.{info.name}"
                for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name) if info.ispkg}


def game_names() -> list[str]:
    return list(GAME_MODULES)


def get_game(name: str) -> GameSpec:
    """The spec of a game; RuleError listing the known games for an unknown name."""
    if name not in GAME_MODULES:
        raise RuleError(f"unknown game {name!r} (games: {', '.join(GAME_MODULES)})")
    return importlib.import_module(GAME_MODULES[name]).SPEC


__all__ = ["GameSpec", "PositionError", "RuleError", "RuleOption", "game_names", "get_game", "GAME_MODULES"]
