"""A matchup: which game, how many players, which rules, which strategy in which seat, which seed.

Everything a run needs to replay any of its games is here, and it is built from plain names and
numbers (:meth:`Matchup.describe` / :func:`from_description`), so worker processes and remote
workers rebuild it instead of receiving compiled objects.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tourney_sim.strategies import Strategy, StrategyError, resolve, short_names

from .errors import TourneyFailure
from .games import GameSpec, RuleError
from .games.config import GameConfig
from .kernel import (
    ERR_ILLEGAL_CHOICE, ERR_MOVE_LIMIT, ERR_NO_MOVES, ERR_TOO_LONG, MAX_STRATEGIES, lineup_seat, ready,
)
from .params import MAX_PARAMS

MAX_SEED = 2**64 - 1
#: what a run can record besides the rows every dataset has (``--record``): ``dealt``, what each
#: result seat was dealt (the ``dealt`` column)
RECORDS = ("dealt",)


class RunError(TourneyFailure):
    """A run stopped by a broken strategy or rules bug; the message names game, seat, strategy."""


@dataclass
class Matchup:
    spec: GameSpec
    n_players: int
    options: dict
    seat_names: list[str]  # strategy label per seat before rotation (the list repeated to fill)
    seed: int
    rotate: bool = True
    strategies: list[Strategy] = field(default_factory=list)  # distinct settings, first-appearance order
    lineup: np.ndarray = None  # seat -> index into strategies
    params: np.ndarray = None
    settings: dict = field(default_factory=dict)  # short name -> setting text (strategies.short_names)
    record: tuple[str, ...] = ()  # what the run records besides the base rows (RECORDS)
    config: GameConfig | None = None  # the game, players and options (``options`` is its options)

    @property
    def dealt_kinds(self) -> tuple[str, ...]:
        """The kinds of the ``dealt`` column (the game's ``dealt_kinds``), or () when the run does
        not record what was dealt."""
        return self.spec.dealt_kinds if "dealt" in self.record else ()

    @property
    def strategy_names(self) -> list[str]:
        """Dictionary of the ``strategy`` column: the strategies' labels, then non-player seats."""
        return [s.label for s in self.strategies] + list(self.spec.extra_seats(self.n_players))

    @property
    def result_seats(self) -> int:
        return self.spec.result_seats(self.n_players)

    def strategy_tuple(self) -> tuple:
        fns = [ready(s.fn) for s in self.strategies]
        return tuple(fns + [fns[0]] * (MAX_STRATEGIES - len(fns)))

    def strategy_params(self) -> np.ndarray:
        """float64[MAX_STRATEGIES, MAX_PARAMS]: row k holds the values of ``strategies[k]``."""
        rows = np.zeros((MAX_STRATEGIES, MAX_PARAMS), np.float64)
        for k, s in enumerate(self.strategies):
            rows[k] = s.param_row()
        return rows

    def seating(self, game: int) -> list[str]:
        """Strategy name per seat in game ``game`` (after rotation)."""
        n = self.n_players
        return [self.strategies[self.lineup[lineup_seat(s, game, n, self.rotate)]].label for s in range(n)]

    def describe(self) -> dict:
        return {"game": self.spec.name, "players": self.n_players, "options": self.options,
                "seats": self.seat_names, "seed": self.seed, "rotate": self.rotate,
                **({"settings": self.settings} if self.settings else {}),
                **({"record": list(self.record)} if self.record else {})}


def make_matchup(game: GameConfig | str, n_players=None, strategy_names: list[str] | None = None, rules=(),
                 seed: int = 0, rotate: bool = True, options: dict | None = None,
                 settings: dict | None = None, record=()) -> Matchup:
    """Validate and build a matchup; RuleError / StrategyError carry a one-line message.

    ``make_matchup(config, strategy_names, seed=..., ...)``: the game, players and rules of a
    :class:`~tourney_sim.simulate.games.config.GameConfig`. The older form
    ``make_matchup(game, n_players, strategy_names, rules=..., options=...)`` builds that config
    here: ``rules`` are ``key=value`` strings; ``options`` (already parsed values) override them,
    as when rebuilding a recorded run. ``settings``: the setting texts of strategies named by their
    short names (``guard@best``), as :meth:`Matchup.describe` records them. ``record``: what to
    record besides the base rows (names from :data:`RECORDS`).
    """
    if isinstance(game, GameConfig):
        config = game
        if strategy_names is None and n_players is not None and not isinstance(n_players, int):
            strategy_names, n_players = n_players, None  # make_matchup(config, strategy_names, ...)
        if (n_players is not None and n_players != config.players) or rules or options:
            raise TypeError("make_matchup(config, strategy_names, ...): the players, rules and options "
                            "are the config's")
    else:
        config = (GameConfig.from_record(game, n_players, options, rules=list(rules)) if options
                  else GameConfig.build(game, n_players, list(rules)))
    spec, n_players = config.spec, config.players
    if not strategy_names:
        raise StrategyError("give at least one --strategy")
    if len(strategy_names) > n_players:
        raise StrategyError(f"{len(strategy_names)} strategies for {n_players} seats: "
                            f"give at most one strategy per seat")
    if not (0 <= seed <= MAX_SEED):
        raise RuleError(f"seed must be an integer from 0 to {MAX_SEED}, got {seed}")
    unknown = [r for r in record if r not in RECORDS]
    if unknown:
        raise RuleError(f"--record {unknown[0]!r} is not something a run records: give one of "
                        f"{', '.join(RECORDS)}")
    resolved = resolve(config.game, list(strategy_names), settings, config)
    settings = short_names(resolved)  # with these, a setting's label rebuilds it (no file needed)
    distinct: list[Strategy] = []
    for s in resolved:
        if s.label not in [d.label for d in distinct]:
            distinct.append(s)
    labels = [s.label for s in resolved]
    seat_names = [labels[s % len(labels)] for s in range(n_players)]
    lineup = np.array([[d.label for d in distinct].index(name) for name in seat_names], np.int64)
    return Matchup(spec=spec, n_players=n_players, options=config.options, seat_names=seat_names,
                   seed=int(seed), rotate=rotate, strategies=distinct, lineup=lineup,
                   params=config.params(), settings=settings,
                   record=tuple(r for r in RECORDS if r in record), config=config)


def from_description(d: dict) -> Matchup:
    """The matchup :meth:`Matchup.describe` wrote (its recorded option values)."""
    return make_matchup(GameConfig.from_record(d["game"], d["players"], d["options"]), d["seats"],
                        seed=d["seed"], rotate=d["rotate"], settings=d.get("settings"),
                        record=d.get("record", ()))


def recorded_settings(manifest: dict) -> dict:
    """{short name: setting text} of a dataset's strategies, as its manifest records them."""
    return {s["name"]: s["setting"] for s in manifest.get("strategies", ()) if "setting" in s}


@dataclass
class Block:
    """Results of games ``first_game .. first_game + n - 1``, indexed [game - first_game, seat]."""

    first_game: int
    strategy: np.ndarray  # int8, index into Matchup.strategy_names
    score: np.ndarray  # int32
    rank: np.ndarray  # int8
    extra: np.ndarray  # int32 [game, seat, column]
    dealt: np.ndarray  # uint16 [game, seat, kind]: no kinds when the run does not record them
    start_seat: np.ndarray  # int8 [game]
    decisions: np.ndarray  # int32 [game]

    def __len__(self) -> int:
        return len(self.start_seat)


def play_block(m: Matchup, first_game: int, n_games: int) -> Block:
    """Play games ``first_game ..`` of the matchup in the compiled kernel, all in memory."""
    seats = m.result_seats
    out_strategy = np.zeros((n_games, seats), np.int8)
    for j in range(m.n_players, seats):  # non-player seats (e.g. a Grey Entity)
        out_strategy[:, j] = len(m.strategies) + j - m.n_players
    block = Block(first_game, out_strategy, np.zeros((n_games, seats), np.int32),
                  np.zeros((n_games, seats), np.int8),
                  np.zeros((n_games, seats, len(m.spec.columns)), np.int32),
                  np.zeros((n_games, seats, len(m.dealt_kinds)), np.uint16),
                  np.zeros(n_games, np.int8), np.zeros(n_games, np.int32))
    error = np.zeros(4, np.int64)
    done = m.spec.module.play_chunk(m.params, (  # kernel.CHUNK
        m.n_players, np.uint64(m.seed), first_game, n_games, m.lineup, m.rotate,
        m.strategy_tuple(), m.strategy_params(), block.strategy, block.score, block.rank, block.extra,
        block.dealt, block.start_seat, block.decisions, error))
    if done != n_games:
        kind, game, seat, value = (int(x) for x in error)
        who = m.seating(game)[seat]
        where = f"game {game}, seat {seat} (strategy {who!r}, seed {m.seed})"
        if kind == ERR_ILLEGAL_CHOICE:
            raise RunError(f"strategy {who!r} returned move index {value}, which is not a legal "
                           f"move, in {where}; replay it with: tourney replay")
        if kind == ERR_NO_MOVES:
            raise RunError(f"rules error: no legal move in {where}")
        if kind == ERR_MOVE_LIMIT:
            raise RunError(f"kernel limit: more legal moves than {m.spec.name}'s move buffer "
                           f"({m.spec.max_moves}) holds in {where}; please report it with this command")
        if kind == ERR_TOO_LONG:
            raise RunError(f"rules error: game longer than {m.spec.max_decisions} decisions in {where}")
        raise RunError(f"kernel stopped early in {where}")
    return block
