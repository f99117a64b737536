"""Strategies: the interface, the built-ins per game, and plug-ins found through entry points.

A strategy is a :class:`Strategy`: the game it plays, a name, a one-line description, and
``fn``, an ``@njit`` function compiled with exactly :data:`STRATEGY_SIGNATURE`::

    @njit(STRATEGY_SIGNATURE, cache=True)
    def choose(public, private, moves, n_moves, rng):
        return index  # into moves[:n_moves]

``public`` and ``private`` are read-only by contract: the public part of the game state and the
deciding seat's private part (their layouts are documented in the game's module);
``moves[:n_moves]`` are the legal move codes ascending; ``rng`` is the seat's own xoshiro256**
stream (use ``tourney_sim.simulate.seeding.below(rng, k)``).

Plug-ins: a package declares an entry point in the group ``tourney.strategies`` whose object is
a Strategy or a list of them; ``tourney strategies GAME`` lists them and ``tourney run`` plays
them at compiled speed, without editing this project.
"""
from __future__ import annotations

import importlib
import sys
import types
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE

ENTRY_POINT_GROUP = "tourney.strategies"

#: game name -> module with the built-in ``STRATEGIES`` list
BUILTIN_MODULES = {
    "companeros": "tourney_sim.strategies.companeros",
    "partners": "tourney_sim.strategies.partners",
    "cardavia": "tourney_sim.strategies.cardavia",
    "colleagues": "tourney_sim.strategies.colleagues",
}


@dataclass(frozen=True)
class Strategy:
    game: str
    name: str
    description: str
    fn: Any  # numba dispatcher with the one signature STRATEGY_SIGNATURE
    origin: str = "built-in"


class StrategyError(ValueError):
    """Unknown or malformed strategy; the message is one line for the user."""


def check_strategy(strategy: Strategy) -> None:
    """Raise StrategyError unless ``strategy.fn`` is compiled with exactly the strategy signature."""
    sigs = getattr(strategy.fn, "nopython_signatures", None)
    if not sigs or len(sigs) != 1 or sigs[0] != STRATEGY_SIGNATURE:
        raise StrategyError(
            f"strategy {strategy.name!r} ({strategy.origin}) must be an @njit function compiled "
            f"with exactly tourney_sim.simulate.kernel.STRATEGY_SIGNATURE")


def _plugins() -> list[Strategy]:
    found: list[Strategy] = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plug-in must not break the tool for everyone
            print(f"warning: plug-in strategy {ep.name!r} failed to load: {exc}", file=sys.stderr)
            continue
        items = obj if isinstance(obj, (list, tuple)) else [obj]
        for item in items:
            strategy = Strategy(item.game, item.name, item.description, item.fn,
                                origin=f"plug-in {ep.value}")
            try:
                check_strategy(strategy)
            except StrategyError as exc:
                print(f"warning: {exc}; skipped", file=sys.stderr)
                continue
            found.append(strategy)
    return found


def available(game: str) -> dict[str, Strategy]:
    """Every strategy for ``game``: built-ins first, then plug-ins (a plug-in may not shadow)."""
    result: dict[str, Strategy] = {}
    module = BUILTIN_MODULES.get(game)
    if module:
        for s in importlib.import_module(module).STRATEGIES:
            result[s.name] = s
    for s in _plugins():
        if s.game == game and s.name not in result:
            result[s.name] = s
    return result


def resolve(game: str, names: list[str]) -> list[Strategy]:
    """The strategies named, in order; StrategyError listing the valid names otherwise."""
    table = available(game)
    out = []
    for name in names:
        if name not in table:
            raise StrategyError(
                f"unknown strategy {name!r} for {game} (strategies: {', '.join(table) or 'none'})")
        out.append(table[name])
    return out


def of_game(game: str) -> dict[str, Strategy]:
    """The strategies of ``game`` (built-ins, then plug-ins): name -> Strategy; RuleError for an
    unknown game."""
    from tourney_sim.simulate.games import get_game
    get_game(game)
    return available(game)


class _CallablePackage(types.ModuleType):
    """``tourney_sim.strategies`` is both this package and the public function
    ``tourney_sim.strategies(game)`` (docs/api.md): importing a sub-package binds its name on the
    parent package, so the two cannot be separate objects under one name."""

    def __call__(self, game: str) -> dict[str, Strategy]:
        return of_game(game)


sys.modules[__name__].__class__ = _CallablePackage
