"""The game registry: name -> :class:`~tourney_sim.simulate.games.spec.GameSpec`, imported on first use."""
from __future__ import annotations

import importlib

from .spec import GameSpec, RuleError, RuleOption

#: game name -> module defining ``SPEC``; modules load lazily (each compiles its own kernel)
GAME_MODULES = {
    "companeros": "tourney_sim.simulate.games.companeros",
    "partners": "tourney_sim.simulate.games.partners",
    "cardavia": "tourney_sim.simulate.games.cardavia",
    "colleagues": "tourney_sim.simulate.games.colleagues",
}


def game_names() -> list[str]:
    return list(GAME_MODULES)


def get_game(name: str) -> GameSpec:
    """The spec of a game; RuleError listing the known games for an unknown name."""
    if name not in GAME_MODULES:
        raise RuleError(f"unknown game {name!r} (games: {', '.join(GAME_MODULES)})")
    return importlib.import_module(GAME_MODULES[name]).SPEC


__all__ = ["GameSpec", "RuleError", "RuleOption", "game_names", "get_game", "GAME_MODULES"]
