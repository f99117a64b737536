"""What the runner, CLI and results code know about a game: one :class:`GameSpec` per game.

Rule parameters are data: a game's rule options are :class:`RuleOption` values, parsed from
``--rule key=value`` and packed with the player count into the ``params`` int32 array the
kernel's ``init`` reads (the game's ``make_params``, made from its declared ``rules.PARAMS``).
Nothing outside a game's own module knows what its options mean. The checked whole a job plays,
players, option values and component table, is a :class:`~tourney_sim.simulate.games.config.GameConfig`.
"""
from __future__ import annotations

import importlib

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import TourneyError


class RuleError(TourneyError):
    """A bad rule option (unknown key, bad value); its message is one line for the user."""


class PositionError(TourneyError):
    """A position (``notation.load_state``) that is malformed or impossible; one line for the user."""


def team_of(seat, team_game: bool):
    """The team of a seat (or an array of seats): in a team game partners sit opposite, so the
    team is ``seat % 2``; otherwise each seat is its own. The one place this is written."""
    return seat % 2 if team_game else seat


def team_seats(players: int) -> list[list[int]]:
    """The player seats of each of a team game's two teams (:func:`team_of`)."""
    return [[s for s in range(players) if team_of(s, True) == t] for t in (0, 1)]


@dataclass(frozen=True)
class RuleOption:
    """One ``--rule key=value`` option of a game.

    ``kind`` is ``int`` (with ``low``/``high``), ``bool``, ``choice`` (with ``choices``) or
    ``file`` (a path the game loads in ``parse_value``). ``default`` is the parsed value.
    """

    name: str
    kind: str
    default: Any
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    loader: Callable[[str], Any] | None = None  # for kind == "file": path -> recorded value

    def allowed(self) -> str:
        if self.kind == "int":
            return f"an integer from {self.low} to {self.high}"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        return "a path to a readable file"

    def parse(self, text: str) -> Any:
        bad = RuleError(f"rule {self.name} expects {self.allowed()}, got {text!r}")
        if self.kind == "int":
            try:
                value = int(text)
            except ValueError:
                raise bad from None
            if not (self.low <= value <= self.high):
                raise bad
            return value
        if self.kind == "bool":
            low = text.strip().lower()
            if low in ("true", "1", "yes", "on"):
                return True
            if low in ("false", "0", "no", "off"):
                return False
            raise bad
        if self.kind == "choice":
            if text not in self.choices:
                raise bad
            return text
        if self.kind == "file":
            return self.loader(text)
        raise AssertionError(self.kind)

    def describe(self) -> str:
        return f"{self.name}={value_text(self.default)} ({self.allowed()}): {self.help}"


#: the rule option that holds a game's component table, and the prefix of a rule that sets one
#: value of it (``components.prizes.most_cards=3``: how a manifest records ``--component
#: prizes.most_cards=3``, ``GameConfig.rules``)
COMPONENTS_OPTION = "components"


def components_option(components) -> RuleOption:
    """The ``components`` rule option of a game that declares its components: the shipped
    table by default, ``--rule components=FILE`` loads a file over it."""
    return RuleOption(COMPONENTS_OPTION, "file", components.defaults,
                      f"TOML component table; keys left out keep their defaults ({components.where()}); "
                      f"set one value with --component KEY=VALUE (docs/components.md)",
                      loader=components.load)


def component_rules(assignments) -> list[str]:
    """``--component KEY=VALUE`` assignments as the rules that carry them (``components.KEY=VALUE``):
    what a manifest records (``GameConfig.rules``)."""
    return [f"{COMPONENTS_OPTION}.{text.strip()}" for text in check_components(assignments)]


def check_components(assignments) -> list[str]:
    """``--component`` values, each checked to be ``KEY=VALUE`` (RuleError, one line)."""
    for text in assignments:
        if "=" not in text:
            raise RuleError(f"--component expects KEY=VALUE (e.g. prizes.most_cards=3), got {text!r}")
    return list(assignments)


def component_setting(text: str) -> str:
    """One ``--component`` value as ``Components.set`` takes it: ``KEY=VALUE``, each side stripped."""
    key, _, raw = text.strip().partition("=")
    return f"{key.strip()}={raw.strip()}"


def component_address(key: str) -> str | None:
    """The component address a rule's key sets (``components.prizes.most_cards`` ->
    ``prizes.most_cards``), None for an ordinary rule option."""
    prefix = COMPONENTS_OPTION + "."
    key = key.strip()
    return key[len(prefix):] if key.startswith(prefix) else None


def value_text(value: Any) -> str:
    """A rule option's value as the user types it (``true``/``false``, not Python's ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


#: ``tourney train``'s label budget unless a game declares its own: twice the search's playing
#: iterations (:attr:`GameSpec.label_scale`)
USUAL_LABEL_SCALE = 2


@dataclass(frozen=True)
class GameSpec:
    """A game as the engine sees it. The callables come from the game's module."""

    name: str
    title: str
    min_players: int
    max_players: int
    rules_version: int
    team_game: bool
    options: tuple[RuleOption, ...]
    #: the game's own result columns, one value per result seat: (name, description); a column
    #: ``leader_at_two_thirds`` (the seat leading when two thirds of the game's decisions are made,
    #: -1 when nobody leads) makes the report show how often that leader wins (decisiveness)
    columns: tuple[tuple[str, str], ...]
    state_size: int
    max_moves: int
    max_decisions: int
    #: the game's module (``__name__``): init, to_move, legal_moves, ... (see tourney_sim.simulate.kernel)
    module_name: str
    make_params: Callable[[int, dict], np.ndarray]
    #: names of result seats that are not players (e.g. Colleagues' Grey Entity), by player count
    extra_seats: Callable[[int], tuple[str, ...]] = field(default=lambda n: ())
    #: "high" when the highest score is best, "low" when the lowest is
    better: str = "high"
    #: the player count when none is given; a game with a choice of counts must declare it
    default_players: int | None = None
    #: ``tourney study``: the values it tries for a number option (a match's length is not a
    #: yes/no), by option name; a number option not named here is left to ``tourney sweep``
    study_values: dict[str, tuple[int, ...]] = field(default_factory=dict, hash=False)
    #: the player counts at which an option matters at all, by option name (an option not named
    #: matters at every count): ``tourney study`` varies it and ``tourney design`` designs it only
    #: there (``--vary rule:NAME`` at another count is refused)
    study_players: dict[str, tuple[int, ...]] = field(default_factory=dict, hash=False)
    #: ``tourney study``: the share of a budget's search deals the game plays (its search player
    #: is slower, and the standard budget must fit in 30 minutes)
    search_scale: float = 1.0
    #: ``tourney train``: the search labels a decision with this many times its playing iterations,
    #: and a round labels as many times fewer decisions than at :data:`USUAL_LABEL_SCALE` (the same
    #: search cost a round). A game whose decisions offer some twenty moves needs it larger: there
    #: a move's value came from a few play-outs, and no fit of the apprentice could tell its moves
    #: apart from its guide's
    label_scale: int = USUAL_LABEL_SCALE
    #: columns that are points of the score: the report shows each as a share of all points and
    #: says whether together they make up the whole score
    points: tuple[str, ...] = ()
    #: the heading of the report's table of ``points``
    points_title: str = "points by source"
    components: Any = None  # the game's Components declaration (simulate/games/components.py)
    #: ``tourney study``: the nearest change of a component kind (one of ``DEALT_KINDS``) for the
    #: study's paired check, ``(address, value)`` under the components table given (one fewer
    #: copy, value minus one, ...), or None when the kind has none; None: no paired checks (by
    #: default the components declaration's ``nearest_change``, when it names any)
    nearest_change: Callable[[str, dict], tuple[str, int] | None] | None = field(default=None, hash=False)

    def __post_init__(self):
        made = [o for o in self.options if o.name == COMPONENTS_OPTION]
        if self.components is not None and not (made and made[0].loader == self.components.load):
            # (a spec copied with dataclasses.replace already holds the option made from it)
            if made:
                raise ValueError(f"{self.name} declares its components: remove its hand-written "
                                 f"{COMPONENTS_OPTION!r} rule option (it is made from the declaration)")
            object.__setattr__(self, "options", (components_option(self.components),) + tuple(self.options))
            if self.nearest_change is None and self.components.nearest:
                object.__setattr__(self, "nearest_change", self.components.nearest_change)
        if self.default_players is None:
            if self.min_players != self.max_players:
                raise ValueError(f"{self.name} is played by {self.min_players} to {self.max_players} "
                                 f"players: declare default_players")
            object.__setattr__(self, "default_players", self.min_players)

    @property
    def module(self):
        """The game's compiled rules (``games/<game>/rules.py``; imported already)."""
        return importlib.import_module(self.module_name)

    @property
    def dealt_kinds(self) -> tuple[str, ...]:
        """The names of what the game counts as dealt to a seat (card identities, card kinds,
        token kinds), in the order of the ``dealt`` column's counts: the rules' ``DEALT_KINDS``."""
        return tuple(self.module.DEALT_KINDS)

    def _part(self, name: str):
        return importlib.import_module(self.module_name.rpartition(".")[0] + "." + name)

    @property
    def notation(self):
        """The game in words and JSON (``games/<game>/notation.py``): moves, positions, ``load_state``."""
        return self._part("notation")

    @property
    def reference(self):
        """The game's readable pure-Python reference engine (``games/<game>/reference.py``)."""
        return self._part("reference")

    def describe_move(self, state: np.ndarray, move: int) -> str:
        """A move in words (the game's ``notation.describe_move``)."""
        return self.notation.describe_move(state, move)

    def move_to_json(self, state: np.ndarray, move: int) -> dict:
        """A move spelled out completely (the game's ``notation.move_to_json``)."""
        return self.notation.move_to_json(state, move)

    def describe_state(self, state: np.ndarray) -> dict:
        """The complete position (the game's ``notation.describe_state``)."""
        return self.notation.describe_state(state)

    def load_state(self, position: dict) -> np.ndarray:
        """The kernel state of a position written as ``describe_state`` writes it; a malformed or
        impossible position raises :class:`PositionError` with one line."""
        return self.notation.load_state(position)

    def team_of(self, seat: int, n_players: int) -> int:
        """Team number of a seat: partners opposite (seat % 2) in team games, else the seat."""
        return team_of(seat, self.team_game)

    def result_seats(self, n_players: int) -> int:
        return n_players + len(self.extra_seats(n_players))

    def option(self, name: str) -> RuleOption:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise RuleError(f"{self.name} has no rule option {name!r} (options: {known})")

    def resolve_options(self, assignments: list[str] | tuple[str, ...], components=()) -> dict:
        """Defaults overridden by ``key=value`` strings, then ``components``, ``KEY=VALUE``
        component values (``--component``), set over the table in force; raises RuleError with a
        one-line message. (A rule ``components.KEY=VALUE``, as a recorded rule list writes a
        component value, is one of them too.) :class:`~tourney_sim.simulate.games.config.GameConfig`
        is the checked whole: players, these values and the rules as recorded."""
        values = {o.name: o.default for o in self.options}
        settings = []  # component values: applied over the table in force, whatever the order
        for text in assignments:
            if "=" not in text:
                raise RuleError(f"--rule expects key=value, got {text!r}")
            key, _, raw = text.partition("=")
            address = component_address(key)
            if address is not None:
                settings.append(f"{address}={raw.strip()}")
                continue
            values[key.strip()] = self.option(key.strip()).parse(raw.strip())
        settings += [component_setting(text) for text in check_components(components)]
        if settings:
            values[COMPONENTS_OPTION] = self.declared_components().set(values[COMPONENTS_OPTION], settings)
        return values

    def option_text(self, name: str, value: Any) -> str:
        """One rule option as a header shows it, ``key=value``; the component table as what it
        changes from the defaults (``tokens.plus10=12 (default 9)``, or ``components=defaults``)."""
        if name == COMPONENTS_OPTION and self.components is not None and isinstance(value, dict):
            try:
                changes = self.components.changes_text(self.components.check(value, complete=True))
            except RuleError:
                return f"{name}=(a table of other rules)"
            return f"{name}=defaults" if changes == "defaults" else changes
        return f"{name}={value_text(value)}"

    def declared_components(self):
        """The game's Components declaration; RuleError when it declares none."""
        if self.components is None:
            raise RuleError(f"--component: {self.name} has no components to change "
                            f"(its rule options: {', '.join(o.name for o in self.options) or 'none'})")
        return self.components

    def player_count(self, n_players: int | None) -> int:
        """The number of players a job plays: as asked (checked), or the game's default when not
        asked (None). The one place the default is applied."""
        n_players = self.default_players if n_players is None else n_players
        self.check_players(n_players)
        return n_players

    def check_players(self, n_players: int) -> None:
        if not (self.min_players <= n_players <= self.max_players):
            if self.min_players == self.max_players:
                allowed = f"exactly {self.min_players}"
            else:
                allowed = f"{self.min_players} to {self.max_players}"
            raise RuleError(f"{self.name} is played by {allowed} players, not {n_players}")
