"""What a strategy sees, per game: named offsets into its ``public`` and ``private`` arrays.

A strategy (``STRATEGY_SIGNATURE``) receives two views of the game's state: ``public``, what every
seat sees, and ``private``, what only its own seat sees. ``tourney_sim.views.<game>`` names their
entries, one module per game (a game of ``TOURNEY_GAME_PATH`` too)::

    from tourney_sim.views import companeros as co

    @njit(STRATEGY_SIGNATURE, cache=True)
    def richest(public, private, moves, n_moves, rng, params):
        if public[co.H_PHASE] == co.PHASE_TAKE:      # take the colour worth most
            ...public[co.DISPLAY_SUM + moves[i] - co.MOVE_TAKE]...
        n_cards = private[co.PV_SIZE]                 # the hand: private[co.PV_HAND + i]

A game's module holds plain ints, which numba reads as compile-time constants (reading
``public[co.SCORE + seat]`` costs what a literal offset costs):

- the offset of every named piece of the public view, counted from ``public[0]``, and of the
  private view, counted from ``private[0]``; ``PUBLIC_SIZE`` and ``PRIVATE_SIZE``, their lengths;
- the constants a strategy needs to make sense of them and of the moves (move codes, phases,
  card numbering: the rules' ``STRATEGY_CONSTANTS``);
- ``VIEWS_VERSION``: bumped whenever any of the above changes, so a plug-in can check it;
- the same as data: ``PUBLIC_PIECES`` and ``PRIVATE_PIECES`` (each with ``name``, ``offset``,
  ``shape``, ``size``, ``meaning``), ``CONSTANTS`` (name -> ``Constant(value, meaning)``); its
  docstring is their table (``help(co)``; every shipped game's is in ``docs/views.md``).

Everything is derived from the game's one declaration of its state (``rules.LAYOUT``,
simulate/games/layout.py), nothing is copied by hand; ``tests/test_views.py`` compares each game's
published names, offsets, shapes and values with a snapshot (``tests/data/views/<game>.json``), so
they change only on purpose, with a ``VIEWS_VERSION`` bump (``python scripts/views.py``).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from typing import NamedTuple

from ..simulate.games import GAME_MODULES, RuleError, get_game
from ..simulate.games.layout import VIEWS, Piece


class Constant(NamedTuple):
    """One published constant of a game: its value and what it means."""
    value: int
    meaning: str


#: the names every game's views module defines besides its pieces and constants
OWN_NAMES = ("GAME", "VIEWS_VERSION", "PUBLIC_SIZE", "PRIVATE_SIZE", "PUBLIC_PIECES", "PRIVATE_PIECES",
             "CONSTANTS")


def of(game: str) -> types.ModuleType:
    """The views module of ``game`` (``tourney_sim.views.<game>``); RuleError for an unknown game."""
    get_game(game)
    return importlib.import_module(f"{__name__}.{game}")


def __getattr__(name: str):
    """``tourney_sim.views.GAME`` without importing it first (``tourney_sim.views.companeros.SCORE``)."""
    if name in GAME_MODULES:
        return of(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (games: {', '.join(GAME_MODULES)})")


def _rules(game: str):
    rules = get_game(game).module
    missing = [n for n in ("VIEWS_VERSION", "STRATEGY_CONSTANTS") if not hasattr(rules, n)]
    if missing:
        raise RuleError(f"game {game!r} publishes no views: its rules ({rules.__name__}) declare no "
                        f"{' or '.join(missing)} (see tourney_sim.views)")
    return rules


def pieces(game: str) -> dict[str, list[Piece]]:
    """The named pieces of each view of ``game`` (``public``, ``private``), offsets from the view's start."""
    layout = _rules(game).LAYOUT
    return {region: layout.view(region) for region in VIEWS}


def constants(game: str) -> dict[str, Constant]:
    """The constants ``game`` publishes for strategies, by name."""
    rules = _rules(game)
    return {name: Constant(getattr(rules, name), meaning) for name, meaning in rules.STRATEGY_CONSTANTS.items()}


def snapshot(game: str) -> dict:
    """What a plug-in compiled against ``game``'s views relies on, as JSON data: the version, the
    views' sizes, every piece's offset and shape, every constant's value (not the meanings)."""
    rules = _rules(game)
    return {
        "game": game,
        "views_version": rules.VIEWS_VERSION,
        **{f"{region}_size": rules.LAYOUT.view_size(region) for region in VIEWS},
        **{region: {p.name: {"offset": p.offset, "shape": list(p.shape)} for p in view}
           for region, view in pieces(game).items()},
        "constants": {name: int(c.value) for name, c in constants(game).items()},
    }


def markdown(game: str, level: int = 2) -> str:
    """The views of ``game`` as Markdown: a heading of ``level``, a table per view, the constants."""
    rules, views = _rules(game), pieces(game)
    size_names = {"public": "PUBLIC_SIZE", "private": "PRIVATE_SIZE"}
    lines = [f"{'#' * level} {game} (views version {rules.VIEWS_VERSION})", "",
             f"`from tourney_sim.views import {game}`", ""]
    for region in VIEWS:
        lines += [f"The {region} view (the strategy's `{region}` array, `{size_names[region]}` = "
                  f"{rules.LAYOUT.view_size(region)} entries):", "",
                  "| name | offset | size | meaning |", "|---|---:|---:|---|"]
        lines += [f"| `{p.name}` | {p.offset} | {' x '.join(map(str, p.shape))} | {_cell(p.meaning)} |"
                  for p in views[region]]
        lines.append("")
    lines += ["Constants:", "", "| name | value | meaning |", "|---|---:|---|"]
    lines += [f"| `{name}` | {int(c.value)} | {_cell(c.meaning)} |" for name, c in constants(game).items()]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("``", "`")


def _fill(module: types.ModuleType, game: str) -> None:
    rules, views = _rules(game), pieces(game)
    published = {
        "GAME": game,
        "VIEWS_VERSION": rules.VIEWS_VERSION,
        "PUBLIC_SIZE": rules.LAYOUT.view_size("public"),
        "PRIVATE_SIZE": rules.LAYOUT.view_size("private"),
        "PUBLIC_PIECES": tuple(views["public"]),
        "PRIVATE_PIECES": tuple(views["private"]),
        "CONSTANTS": constants(game),
    }
    named = [p.name for view in views.values() for p in view] + list(published["CONSTANTS"])
    clash = sorted({n for n in named if named.count(n) > 1 or n in published})
    if clash:
        raise RuleError(f"game {game!r} publishes these names twice in its views: {', '.join(clash)}")
    published.update({p.name: p.offset for view in views.values() for p in view})
    published.update({name: c.value for name, c in published["CONSTANTS"].items()})
    module.__dict__.update(published)
    module.__doc__ = f"What a {game} strategy sees (see tourney_sim.views).\n\n" + markdown(game)
    module.__all__ = sorted(published)


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``tourney_sim.views.<game>`` for every registered game, built from its layout."""

    def find_spec(self, fullname, path=None, target=None):
        parent, _, game = fullname.rpartition(".")
        if parent != __name__ or game not in GAME_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        return None  # the default module

    def exec_module(self, module):
        _fill(module, module.__name__.rpartition(".")[2])


if not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.append(_Finder())

__all__ = ["Constant", "OWN_NAMES", "constants", "markdown", "of", "pieces", "snapshot"]
