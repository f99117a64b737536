"""What the runner, CLI and results code know about a game: one :class:`GameSpec` per game.

Rule parameters are data: a game's rule options are :class:`RuleOption` values, parsed from
``--rule key=value`` and packed with the player count into the ``params`` int32 array the
kernel's ``init`` reads. Nothing outside a game's own module knows what its options mean.
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


def value_text(value: Any) -> str:
    """A rule option's value as the user types it (``true``/``false``, not Python's ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


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
    #: ``tourney study``: the player counts at which an option matters at all, by option name
    #: (an option not named matters at every count)
    study_players: dict[str, tuple[int, ...]] = field(default_factory=dict, hash=False)
    #: ``tourney study``: the share of a budget's search deals the game plays (its search player
    #: is slower, and the standard budget must fit in 30 minutes)
    search_scale: float = 1.0
    #: columns that are points of the score: the report shows each as a share of all points and
    #: says whether together they make up the whole score
    points: tuple[str, ...] = ()
    #: the heading of the report's table of ``points``
    points_title: str = "points by source"
    #: ``tourney study``: the nearest change of a component kind (one of ``DEALT_KINDS``) for the
    #: study's paired check, ``(address, value)`` under the components table given (one fewer
    #: copy, value minus one, ...), or None when the kind has none; None: no paired checks
    nearest_change: Callable[[str, dict], tuple[str, int] | None] | None = field(default=None, hash=False)

    def __post_init__(self):
        if self.default_players is None:
            if self.min_players != self.max_players:
                raise ValueError(f"{self.name} is played by {self.min_players} to {self.max_players} "
                                 f"players: declare default_players")
            object.__setattr__(self, "default_players", self.min_players)

    @property
    def module(self):
        """The game's compiled rules (``games/<game>/rules.py``; imported already)."""
        return importlib.import_module(self.module_name)

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
        if self.team_game:
            return seat % 2
        return seat

    def result_seats(self, n_players: int) -> int:
        return n_players + len(self.extra_seats(n_players))

    def option(self, name: str) -> RuleOption:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise RuleError(f"{self.name} has no rule option {name!r} (options: {known})")

    def resolve_options(self, assignments: list[str] | tuple[str, ...]) -> dict:
        """Defaults overridden by ``key=value`` strings; raises RuleError with a one-line message."""
        values = {o.name: o.default for o in self.options}
        for text in assignments:
            if "=" not in text:
                raise RuleError(f"--rule expects key=value, got {text!r}")
            key, _, raw = text.partition("=")
            values[key.strip()] = self.option(key.strip()).parse(raw.strip())
        return values

    def check_players(self, n_players: int) -> None:
        if not (self.min_players <= n_players <= self.max_players):
            if self.min_players == self.max_players:
                allowed = f"exactly {self.min_players}"
            else:
                allowed = f"{self.min_players} to {self.max_players}"
            raise RuleError(f"{self.name} is played by {allowed} players, not {n_players}")
