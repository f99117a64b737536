"""Strategies: the interface, the built-ins per game, and plug-ins found through entry points.

A strategy is a :class:`Strategy`: the game it plays, a name, a one-line description, and
``fn``, an ``@njit`` function compiled with exactly :data:`STRATEGY_SIGNATURE`::

    @njit(STRATEGY_SIGNATURE, cache=True)
    def choose(public, private, moves, n_moves, rng):
        return index  # into moves[:n_moves]

``public`` and ``private`` are read-only by contract: the public part of the game state and the
deciding seat's private part (their layouts are documented in the game's rules,
``simulate/games/<game>/rules.py``);
``moves[:n_moves]`` are the legal move codes ascending; ``rng`` is the seat's own xoshiro256**
stream (use ``tourney_sim.simulate.seeding.below(rng, k)``).

Plug-ins: a package declares an entry point in the group ``tourney.strategies`` whose object is
a Strategy or a list of them; ``tourney strategies GAME`` lists them and ``tourney run`` plays
them at compiled speed, without editing this project.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from dataclasses import dataclass, replace
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import numpy as np

from tourney_sim.simulate.games import GAME_MODULES, GAME_PATH
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE, ready

from .params import MAX_PARAMS, Param, ParamError, StrategyError, _fmt, parse_assignments, read_toml

ENTRY_POINT_GROUP = "tourney.strategies"

# the strategies of games found through TOURNEY_GAME_PATH (simulate/games/__init__.py)
__path__ += [str(d / "strategies") for d in GAME_PATH if (d / "strategies").is_dir()]

#: game name -> module with the built-in ``STRATEGIES`` list: ``strategies/<game>.py`` of every game
BUILTIN_MODULES = {name: f"{__name__}.{name}" for name in GAME_MODULES
                   if importlib.util.find_spec(f"{__name__}.{name}") is not None}


@dataclass(frozen=True)
class Strategy:
    game: str
    name: str
    description: str
    fn: Any  # numba dispatcher with the one signature STRATEGY_SIGNATURE (the search: once resolved, kernel.ready)
    origin: str = "built-in"
    #: the parameters ``fn`` reads from its last argument, in that order
    params: tuple[Param, ...] = ()
    #: this setting's values, one per parameter (float, int or choice name); () = the defaults
    values: tuple = ()
    #: the short name a setting read from a file goes by (strategies/params.py); "" = none
    short_name: str = ""
    #: why the bare name cannot play (its parameters must come from a file or settings): "" = it can
    needs_setting: str = ""
    #: the table these values were made for (a weights file's ``[table]``: game, players, rules,
    #: id); a game of another table refuses them (:func:`check_table`). None: any table
    table: dict | None = None
    #: ``for_table(setting, config) -> setting``: a setting of this strategy for the table
    #: ``config`` (a ``GameConfig``), for a strategy whose values are made per table (the bare
    #: apprentice plays the weights shipped for it; the search's apprentice play-outs, theirs)
    for_table: Any = None

    def settings(self) -> dict:
        """Every parameter's value in this setting: name -> value."""
        if not self.values:
            return {p.name: p.default for p in self.params}
        return {p.name: v for p, v in zip(self.params, self.values)}

    @property
    def setting(self) -> str:
        """The name, then the values that differ from the defaults (``guard:risk=0.7``): the
        text that rebuilds this setting."""
        changed = [f"{p.name}={_fmt(v)}" for p, v in zip(self.params, self.settings().values())
                   if v != p.default]
        return f"{self.name}:{','.join(changed)}" if changed else self.name

    @property
    def label(self) -> str:
        """What results, tables and plots show: the short name, else the setting text."""
        return self.short_name or self.setting

    def with_settings(self, overrides: dict, where: str | None = None) -> "Strategy":
        """This strategy with some parameters set (``{name: value or value text}``); ParamError
        (one line) for an unknown parameter or a value out of range or of the wrong kind."""
        where = where or f"strategy {self.name}"
        by_name = {p.name: p for p in self.params}
        values = self.settings()
        for key, value in overrides.items():
            if key not in by_name:
                known = ", ".join(by_name) or "none"
                raise ParamError(f"{where}: no parameter {key!r} (parameters: {known})")
            values[key] = by_name[key].check(value, where)
        return replace(self, values=tuple(values[p.name] for p in self.params), short_name="")

    def param_row(self) -> np.ndarray:
        """The values as ``fn`` receives them: float64[MAX_PARAMS], unused entries 0."""
        row = np.zeros(MAX_PARAMS, np.float64)
        for i, (p, v) in enumerate(zip(self.params, self.settings().values())):
            row[i] = p.number(v)
        return row


def check_strategy(strategy: Strategy) -> None:
    """Raise StrategyError unless ``strategy.fn`` is compiled with exactly the strategy signature
    and its parameters are well declared."""
    sigs = getattr(strategy.fn, "nopython_signatures", None)
    if not sigs or len(sigs) != 1 or sigs[0] != STRATEGY_SIGNATURE:
        raise StrategyError(
            f"strategy {strategy.name!r} ({strategy.origin}) must be an @njit function compiled "
            f"with exactly tourney_sim.STRATEGY_SIGNATURE")
    names = [p.name for p in strategy.params]
    if len(names) > MAX_PARAMS or len(set(names)) != len(names) or not all(isinstance(p, Param) for p in strategy.params):
        raise StrategyError(f"strategy {strategy.name!r} ({strategy.origin}) must declare at most "
                            f"{MAX_PARAMS} Param values with distinct names")
    if any(c in strategy.name for c in ":@,= "):
        raise StrategyError(f"strategy name {strategy.name!r} ({strategy.origin}) may not contain "
                            f"':', '@', ',', '=' or spaces")


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
                                origin=f"plug-in {ep.value}", params=tuple(getattr(item, "params", ())))
            try:
                check_strategy(strategy)
            except StrategyError as exc:
                print(f"warning: {exc}; skipped", file=sys.stderr)
                continue
            found.append(strategy)
    return found


#: strategies added in this process (:func:`register`), by game
_REGISTERED: dict[str, dict[str, Strategy]] = {}


def register(strategy: Strategy) -> None:
    """Make ``strategy`` available in this process (a notebook, a test), as if it were a
    plug-in. Worker processes forked afterwards see it; Dask workers need a real plug-in."""
    check_strategy(strategy)
    _REGISTERED.setdefault(strategy.game, {})[strategy.name] = strategy


#: tuned settings shipped with tourney: ``tuned/GAME-STRATEGY.toml`` as ``tourney tune`` wrote them
TUNED_DIR = Path(__file__).parent / "tuned"


def tuned(base: Strategy, path: Path) -> Strategy:
    """``base`` with the values of a shipped ``best.toml`` as its defaults, named NAME-tuned."""
    values = base.with_settings(read_toml(str(path), base.name, f"strategy {base.name}-tuned")[0]).settings()
    params = tuple(replace(p, default=values[p.name]) for p in base.params)
    return replace(base, name=f"{base.name}-tuned", params=params, values=(),
                   description=f"{base.description} [parameters tuned by tourney tune: {path.name}]")


def available(game: str) -> dict[str, Strategy]:
    """Every strategy for ``game``: built-ins first (with the tuned settings shipped in
    ``tuned/``), then plug-ins and registered ones (neither may shadow a name already taken)."""
    result: dict[str, Strategy] = {}
    module = BUILTIN_MODULES.get(game)
    if module:
        for s in importlib.import_module(module).STRATEGIES:
            result[s.name] = s
        for path in sorted(TUNED_DIR.glob(f"{game}-*.toml")):
            base = result[path.stem[len(game) + 1:]]
            result[f"{base.name}-tuned"] = tuned(base, path)
    for s in _plugins() + list(_REGISTERED.get(game, {}).values()):
        if s.game == game and s.name not in result:
            result[s.name] = s
    return result


#: strategies that search (thousands of simulated decisions per decision): left out of the
#: defaults that play "every strategy" (a run without --strategy, bench without --strategy)
SEARCH_STRATEGIES = ("ismcts",)
RANDOM = "random"  # every game's uniformly random strategy (a study's baseline, never tested against)


def heuristics(game: str) -> list[str]:
    """The names of the game's strategies that play at rule-kernel speed as they are (all but the
    search, and those that need a setting to play: the apprentice)."""
    return [name for name, s in available(game).items() if name not in SEARCH_STRATEGIES and not s.needs_setting]


def setting_name(text: str) -> str:
    """The strategy name a setting starts with: ``NAME`` of ``NAME``, ``NAME:key=value,...`` or
    ``NAME@file.toml`` (not checked against the strategies there are)."""
    text = text.strip()
    return (text.partition("@") if "@" in text else text.partition(":"))[0].strip()


def parse_setting(text: str, table: dict[str, Strategy], game: str, config=None) -> Strategy:
    """``NAME``, ``NAME:key=value,...`` or ``NAME@file.toml`` (``NAME@DIR``: its ``best.toml``)
    -> the strategy with those values. ``config``: the table it is to play (a ``GameConfig``),
    when known: values made for another table are refused (:func:`check_table`), and a strategy
    whose values are made per table gets this one's."""
    text = text.strip()
    name = setting_name(text)
    path = text.partition("@")[2]
    assignments = text.partition(":")[2]
    if name not in table:
        raise StrategyError(
            f"unknown strategy {name!r} for {game} (strategies: {', '.join(table) or 'none'})")
    base = table[name]
    ready(base.fn)  # the search is compiled when first resolved for play
    if "@" in text:
        values, short_name, made_for = read_toml(path.strip(), name, f"strategy {name}")
        if base.needs_setting and not values:  # else the bare name's values (shipped weights) would play
            raise StrategyError(f"strategy {name}: {path.strip()} gives no values ([params] is empty): "
                                f"{base.needs_setting}")
        if short_name in table:
            raise ParamError(f"strategy {name}: {path.strip()} names its setting {short_name!r}, a strategy of "
                             f"{game}: give it a name of its own")
        chosen = replace(base.with_settings(values, f"strategy {name}"), short_name=short_name, table=made_for)
    elif ":" in text:
        chosen = base.with_settings(parse_assignments(assignments, f"strategy {name}"), f"strategy {name}")
    elif base.needs_setting and base.for_table is None:
        raise StrategyError(f"strategy {name}: {base.needs_setting}")
    else:
        chosen = base
    if config is None or base.for_table is None:
        # without a table (a name checked before the tables are built) a setting made per table
        # stays as given, and is resolved again when a game is made
        return check_table(chosen, config)
    return check_table(base.for_table(chosen, config), config)


def check_table(strategy: Strategy, config) -> Strategy:
    """``strategy``, unless its values were made for another table than ``config``'s (a
    ``GameConfig``; None: not known yet): StrategyError naming both tables and the command that
    makes values for this one."""
    made_for = strategy.table
    if config is None or made_for is None or made_for["id"] == config.table_id:
        return strategy
    rules = made_for.get("rules") or []
    theirs = (f"{made_for['game']} at {made_for['players']} players, "
              + (f"rules {', '.join(rules)}" if rules else "the shipped rules and components"))
    raise StrategyError(f"strategy {strategy.label}: its weights were made for {theirs}, not this table "
                        f"({config.describe()}): train the table's own with `tourney train {config.game} "
                        f"{config.command_args()} --out DIR` and play {strategy.name}@DIR")


def resolve(game: str, names: list[str], settings: dict[str, str] | None = None, config=None) -> list[Strategy]:
    """The strategies named (settings allowed: see :func:`parse_setting`), in order;
    StrategyError (or ParamError) with a one-line message otherwise. ``settings`` maps short
    names (as :func:`short_names` gives them) to the setting texts that rebuild them. ``config``:
    the table they are to play (a ``GameConfig``), when known (see :func:`parse_setting`)."""
    table, settings = available(game), settings or {}
    return [replace(parse_setting(settings[name], table, game, config), short_name=name) if name in settings
            else parse_setting(name, table, game, config) for name in names]


def short_names(strategies: list[Strategy]) -> dict[str, str]:
    """{short name: setting text} of the settings that go by a short name (what :func:`resolve`
    needs to rebuild them from their labels); StrategyError when two settings share a label."""
    seen: dict[str, str] = {}
    for s in strategies:
        if seen.setdefault(s.label, s.setting) != s.setting:
            raise StrategyError(f"two different settings are called {s.label!r}: give one of them its own "
                                f'name = "..." in its TOML file')
    return {s.label: s.setting for s in strategies if s.short_name}


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
