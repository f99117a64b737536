"""The configurations every game's contract runs over, read from the game registry: every player
count with the default rules, and every rule option value other than its default (at the smallest
table). Nothing here names a game: a new game folder is covered as soon as it is registered."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tourney_sim.simulate.games import game_names, get_game
from tourney_sim.simulate.games.spec import GameSpec


def changed_values(option) -> list:
    """The values of a rule option other than its default (a file option: none, its default
    table only)."""
    if option.kind == "bool":
        return [not option.default]
    if option.kind == "choice":
        return [v for v in option.choices if v != option.default]
    if option.kind == "int":
        return [option.default + 1]
    return []


@dataclass(frozen=True)
class Configuration:
    game: str
    players: int
    changed: tuple = ()  # (option name, value) pairs changed from the defaults

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    @property
    def params(self) -> np.ndarray:
        options = {o.name: o.default for o in self.spec.options}
        options.update(self.changed)
        return self.spec.make_params(self.players, options)

    def __str__(self) -> str:
        return "-".join([self.game, f"{self.players}p"] + [f"{k}={v}" for k, v in self.changed])


def configurations() -> list[Configuration]:
    out = []
    for game in game_names():
        spec = get_game(game)
        out += [Configuration(game, n) for n in range(spec.min_players, spec.max_players + 1)]
        out += [Configuration(game, spec.min_players, ((o.name, v),))
                for o in spec.options for v in changed_values(o)]
    return out


CONFIGURATIONS = configurations()
IDS = [str(c) for c in CONFIGURATIONS]
