"""A game as one job plays it: :class:`GameConfig`, built once where the user's words come in.

The CLI and the API turn ``--players``, ``--rule key=value`` and ``--component KEY=VALUE`` into
one checked value, and everything after takes that value, typed, instead of the text::

    config = GameConfig.build("cardavia", players=None, rules=["match_deals=3"],
                              components=["prizes.most_cards=3"])
    config.players          # 4: the game's default (GameSpec.player_count, the one place)
    config.options          # every rule option's value; the component table under "components"
    config.table            # that table (a ComponentTable, None for a game without components)
    config.params()         # the kernel's int32 params (the game's declared ``rules.PARAMS``)
    config.rules            # the rules as a manifest records them: the --rule values, then
                            # each --component value as components.KEY=VALUE
    make_matchup(config, ["guard", "random"], seed=1)

A component value is parsed once, into the table (``Components.set``); it is written as the rule
``components.KEY=VALUE`` only for the record (``rules``), which is what a tournament's manifest
holds and a resume compares. What a manifest or trace records comes back with
:meth:`GameConfig.from_record` (its option values; reading a file is parsing, at its boundary).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from .spec import (
    COMPONENTS_OPTION, GameSpec, check_components, component_rules, component_setting, value_text,
)


def _spec(game: str | GameSpec) -> GameSpec:
    if isinstance(game, GameSpec):
        return game
    from . import get_game  # the registry imports this package's modules
    return get_game(game)


@dataclass(frozen=True, repr=False)
class GameConfig:
    """One game's configuration: the game, its player count, every rule option's value (the
    component table among them) and the rules that made it, as recorded. Build it with
    :meth:`build` (from what a user gives) or :meth:`from_record` (from a manifest or trace);
    both check it against the game's declarations (the players, each option value, the component
    table and that it can be played: the params are made) and raise RuleError with one line."""

    game: str
    players: int
    _options: dict = field(hash=False)
    _rules: tuple[str, ...] = ()
    _spec: GameSpec | None = field(default=None, compare=False, hash=False)
    #: the kernel's params, made (so checked: a table that cannot be played is refused) when built
    _params: np.ndarray | None = field(default=None, compare=False, hash=False)

    def __post_init__(self):
        if self._params is None:
            params = self.spec.make_params(self.players, self._options)
            params.flags.writeable = False
            object.__setattr__(self, "_params", params)

    # ------------------------------------------------------------------ building
    @classmethod
    def build(cls, game: str | GameSpec, players: int | None = None, rules: Sequence[str] = (),
              components: Sequence[str] = ()) -> "GameConfig":
        """The configuration a user asks for: ``players`` (None: the game's default), ``rules``
        ``key=value`` strings (``--rule``; a file for ``components=FILE``), ``components``
        ``KEY=VALUE`` component values set over the table in force (``--component``; ``KEY[i]``
        one entry of a list, a whole list as ``1,2,3``). RuleError with the one line the
        command prints for a bad one."""
        spec = _spec(game)
        components = check_components(components)
        players = spec.player_count(players)
        options = spec.resolve_options(list(rules), components)
        return cls(spec.name, players, options, tuple(rules) + tuple(component_rules(components)), spec)

    @classmethod
    def from_record(cls, game: str | GameSpec, players: int | None, options: Mapping[str, Any],
                    *, rules: Sequence[str] = (), check: bool = False) -> "GameConfig":
        """The configuration a manifest or trace records: its option values (as
        ``Matchup.describe`` writes them) over the defaults (over what ``rules`` make of them, if
        given); ``check``: each value checked as a ``--rule`` value would be (an unknown option or
        a bad value: RuleError), as for a trace written by hand."""
        spec = _spec(game)
        players = spec.player_count(players)
        values = _set(spec, spec.resolve_options(list(rules)), options, check)
        return cls(spec.name, players, values, tuple(rules), spec)

    def with_options(self, options: Mapping[str, Any], *, check: bool = False) -> "GameConfig":
        """This configuration with option values set as they are (recorded values: a component
        table is a whole table); ``check`` as for :meth:`from_record`. The rules stay as given."""
        values = _set(self.spec, dict(self._options), options, check)
        return GameConfig(self.game, self.players, values, self._rules, self._spec)

    def with_components(self, changes: Mapping[str, Any] | Sequence[str]) -> "GameConfig":
        """This configuration with component values set over its table: ``{address: value}``
        (an int, or a whole list), or ``KEY=VALUE`` strings as ``--component`` gives them. The
        rules record each as ``components.KEY=VALUE``."""
        declared = self.spec.declared_components()
        if isinstance(changes, Mapping):
            table = declared.set(self._options[COMPONENTS_OPTION], changes)
            texts = [f"{address.strip()}={_text(value)}" for address, value in changes.items()]
        else:
            texts = check_components(changes)
            table = declared.set(self._options[COMPONENTS_OPTION], [component_setting(t) for t in texts])
        values = {**self._options, COMPONENTS_OPTION: table}
        return GameConfig(self.game, self.players, values, self._rules + tuple(component_rules(texts)), self._spec)

    # ------------------------------------------------------------------ what it gives
    @property
    def spec(self) -> GameSpec:
        return self._spec if self._spec is not None else _spec(self.game)

    @property
    def options(self) -> dict:
        """Every rule option's value, by name in the game's order (the component table under
        ``components``): what ``make_params`` packs and a manifest records (a new dict)."""
        return dict(self._options)

    @property
    def table(self):
        """The component table in force (a ``ComponentTable``), None for a game without components."""
        return self._options.get(COMPONENTS_OPTION)

    @property
    def rules(self) -> list[str]:
        """The rules that made this configuration, as a manifest records them: the ``--rule``
        values as given, then each ``--component`` value as ``components.KEY=VALUE``."""
        return list(self._rules)

    def params(self) -> np.ndarray:
        """The kernel's params (int32): the game's ``make_params`` of the players and options
        (made once, when the configuration was built; a new array each call)."""
        return self._params.copy()

    @property
    def table_id(self) -> str:
        """What identifies the table played, for files made for one table (an apprentice's
        weights): a digest of the game, the players and the kernel's params (every rule and
        component value as the kernel reads it). Equal ids play the same game."""
        import hashlib
        digest = hashlib.sha256(f"{self.game}/{self.players}/".encode() + self._params.tobytes())
        return digest.hexdigest()[:16]

    def describe(self) -> str:
        """The table in words: ``cardavia at 4 players, rules match_deals=2`` (``the shipped
        rules and components`` when nothing is changed)."""
        changed = ", ".join(self._rules)
        return f"{self.game} at {self.players} players, " + (f"rules {changed}" if changed
                                                             else "the shipped rules and components")

    def command_args(self) -> str:
        """The options that ask for this table on a command line (``--players 4 --rule K=V
        --component KEY=VALUE``)."""
        args = [f"--players {self.players}"]
        for rule in self._rules:
            key, _, value = rule.partition("=")
            args.append(f"--component {key[len(COMPONENTS_OPTION) + 1:]}={value}"
                        if key.startswith(COMPONENTS_OPTION + ".") else f"--rule {rule}")
        return " ".join(args)

    def team_of(self, seat: int) -> int:
        """A seat's team (:func:`~tourney_sim.simulate.games.spec.team_of`)."""
        return self.spec.team_of(seat, self.players)

    def __repr__(self) -> str:
        spec = self.spec
        shown = ", ".join(spec.option_text(k, v) for k, v in self._options.items())
        return f"GameConfig({self.game}, {self.players} players" + (f", {shown})" if shown else ")")

    def __reduce__(self):  # by name: a spec holds the game's functions
        return _restore, (self.game, self.players, self._options, self._rules)


def _set(spec: GameSpec, values: dict, options: Mapping[str, Any], check: bool) -> dict:
    """``values`` with ``options`` set over them (``check``: each checked as a --rule value)."""
    for name, value in options.items():
        if check:
            option = spec.option(name)
            if not (option.kind == "file" or isinstance(value, (dict, list))):
                value = option.parse(str(value))
        values[name] = value
    return values


def _restore(game, players, options, rules) -> GameConfig:
    return GameConfig(game, players, options, rules)


def _text(value) -> str:
    """A component value as ``--component`` writes it (a whole list ``1,2,3``)."""
    return ",".join(str(v) for v in value) if isinstance(value, (list, tuple)) else value_text(value)
