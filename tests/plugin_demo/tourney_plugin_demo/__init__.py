"""A plug-in strategy package: it depends on tourney's public interface only."""
from numba import njit

from tourney_sim import STRATEGY_SIGNATURE, Strategy


@njit(STRATEGY_SIGNATURE, cache=True)
def first_legal(public, private, moves, n_moves, rng, params):
    return 0  # moves are ascending: the lowest card, or taking the first colour present


@njit(STRATEGY_SIGNATURE, cache=True)
def illegal(public, private, moves, n_moves, rng, params):
    return n_moves  # one past the end: the runner must stop and name this strategy


STRATEGIES = [
    Strategy("companeros", "lowest-first", "plays the lowest card; takes the first colour", first_legal),
    Strategy("companeros", "cheater", "returns an illegal move index (for tests)", illegal),
]
