"""Step one game of a run from Python: replays, traces, tests and the reference comparisons.

The compiled runner plays whole chunks without Python; this drives the very same kernel
functions one decision at a time, with the same streams, so game i of a run can be rebuilt
exactly from (seed, i) and the seating.
"""
from __future__ import annotations

import numpy as np

from .games.spec import GameSpec
from .kernel import ready
from .seeding import CHANCE_STREAM, FIRST_SEAT_STREAM, new_stream

#: the parameter values handed to a bare strategy function (one that declares none)
NO_PARAMS = np.zeros(1, np.float64)


class KernelGame:
    """One game of ``spec`` with params, seeded as game ``game`` of the run with ``seed``."""

    def __init__(self, spec: GameSpec, params: np.ndarray, seed: int, game: int):
        self.spec = spec
        self.m = spec.module
        self.params = params
        self.n_players = int(params[0])
        self.state = np.zeros(spec.state_size, np.int32)
        self.chance = new_stream(seed, game, CHANCE_STREAM)
        self.seat_rng = [new_stream(seed, game, FIRST_SEAT_STREAM + s) for s in range(self.n_players)]
        self.moves = np.zeros(spec.max_moves, np.int64)
        self.m.init(self.state, params, self.chance)

    @classmethod
    def from_state(cls, spec: GameSpec, state: np.ndarray, n_players: int, seed: int = 0,
                   game: int = 0) -> "KernelGame":
        """A game going on from ``state`` (e.g. ``spec.load_state(position)``), its chance and
        seat streams seeded as game ``game`` of a run with ``seed``."""
        k = object.__new__(cls)
        k.spec, k.m = spec, spec.module
        k.params = None
        k.n_players = n_players
        k.state = np.asarray(state, np.int32).copy()
        k.chance = new_stream(seed, game, CHANCE_STREAM)
        k.seat_rng = [new_stream(seed, game, FIRST_SEAT_STREAM + s) for s in range(n_players)]
        k.moves = np.zeros(spec.max_moves, np.int64)
        return k

    def copy(self) -> "KernelGame":
        other = object.__new__(KernelGame)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.chance = self.chance.copy()
        other.seat_rng = [r.copy() for r in self.seat_rng]
        other.moves = self.moves.copy()
        return other

    def to_move(self) -> int:
        return int(self.m.to_move(self.state))

    def _legal(self) -> int:
        n = self.m.legal_moves(self.state, self.moves)
        if n < 0:
            raise RuntimeError(f"kernel limit: more legal moves than {self.spec.name}'s move buffer "
                               f"({self.spec.max_moves}) holds")
        return n

    def legal_moves(self) -> list[int]:
        return [int(x) for x in self.moves[:self._legal()]]

    def choose(self, strategy) -> int:
        """The move ``strategy`` (a Strategy, or a bare compiled function with no parameters)
        picks for the seat to move (advancing that seat's stream)."""
        seat = self.to_move()
        n = self._legal()
        fn, params = (strategy.fn, strategy.param_row()) if hasattr(strategy, "fn") else (strategy, NO_PARAMS)
        ready(fn)
        i = fn(self.m.public_view(self.state), self.m.private_view(self.state, seat),
               self.moves, n, self.seat_rng[seat], params)
        if not 0 <= i < n:
            raise ValueError(f"strategy returned {i}, not an index into {n} legal moves")
        return int(self.moves[i])

    def apply(self, move: int) -> None:
        self.m.apply_move(self.state, np.int64(move), self.chance)

    def result(self):
        """(scores, ranks, extras) per result seat, as plain lists."""
        seats = self.spec.result_seats(self.n_players)
        score = np.zeros(seats, np.int32)
        rank = np.zeros(seats, np.int8)
        extra = np.zeros((seats, len(self.spec.columns)), np.int32)
        self.m.result(self.state, score, rank, extra)
        return score.tolist(), rank.tolist(), extra.tolist()

    def dealt(self) -> list[list[int]]:
        """What each result seat was dealt or drew so far (the rules' ``S_DEALT``), counts per
        kind in ``spec.dealt_kinds`` order: the ``dealt`` column of the game's rows once it is
        over. A game started from a position counts from there (scratch is no part of one)."""
        seats, kinds = self.spec.result_seats(self.n_players), len(self.spec.dealt_kinds)
        start = self.m.S_DEALT
        return self.state[start:start + seats * kinds].reshape(seats, kinds).tolist()
