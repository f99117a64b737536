"""The game registry: name -> :class:`~tourney_sim.simulate.games.spec.GameSpec`, imported on first use.

Every game is one folder here (``rules.py``, ``notation.py``, ``reference.py``, and an
``__init__.py`` defining ``SPEC``); a folder is a game, found by its name, so adding a game is
adding a folder (and its strategies, ``strategies/<game>.py``, and tests), with nothing to
register in the runner, the CLI, the results or the reports.

Games may also live outside the package: ``TOURNEY_GAME_PATH`` names directories (separated by
``os.pathsep``), each holding ``games/<name>/`` game folders and ``strategies/<name>.py``; their
``games`` folders join this package's path (a game there imports as
``tourney_sim.simulate.games.<name>``), and ``strategies`` folders the strategies package's.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
from pathlib import Path

from .spec import GameSpec, PositionError, RuleError, RuleOption

#: the directories of ``TOURNEY_GAME_PATH`` (see above), absolute
GAME_PATH = [Path(d).resolve() for d in os.environ.get("TOURNEY_GAME_PATH", "").split(os.pathsep) if d]
__path__ += [str(d / "games") for d in GAME_PATH if (d / "games").is_dir()]

#: game name -> its package (defining ``SPEC``), alphabetical; each compiles its own kernel on use
GAME_MODULES = {info.name: f"{__name__}.{info.name}"
                for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name) if info.ispkg}


def game_names() -> list[str]:
    return list(GAME_MODULES)


def get_game(name: str) -> GameSpec:
    """The spec of a game; RuleError listing the known games for an unknown name."""
    if name not in GAME_MODULES:
        raise RuleError(f"unknown game {name!r} (games: {', '.join(GAME_MODULES)})")
    outside = [d / "games" / name for d in GAME_PATH if (d / "games" / name).is_dir()]
    if not outside:
        return importlib.import_module(GAME_MODULES[name]).SPEC
    try:  # a game of TOURNEY_GAME_PATH is the user's own code: its failure is one line, not ours
        return importlib.import_module(GAME_MODULES[name]).SPEC
    except Exception as exc:
        raise RuleError(f"game {name!r} in {outside[0]} (TOURNEY_GAME_PATH) failed to load: "
                        f"{type(exc).__name__}: {exc}") from None


__all__ = ["GAME_PATH", "GameSpec", "PositionError", "RuleError", "RuleOption", "game_names", "get_game", "GAME_MODULES"]
