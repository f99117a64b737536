"""A plug-in strategy package: it depends on tourney's public interface only."""
from numba import njit

from tourney_sim import STRATEGY_SIGNATURE, Param, Strategy, below


@njit(STRATEGY_SIGNATURE, cache=True)
def first_legal(public, private, moves, n_moves, rng, params):
    return 0  # moves are ascending: the lowest card, or taking the first colour present


@njit(STRATEGY_SIGNATURE, cache=True)
def illegal(public, private, moves, n_moves, rng, params):
    return n_moves  # one past the end: the runner must stop and name this strategy


@njit(STRATEGY_SIGNATURE, cache=True)
def sometimes_lowest(public, private, moves, n_moves, rng, params):
    if below(rng, 1000) < params[0] * 1000:  # params[0]: the parameter `lowest`
        return 0
    return below(rng, n_moves)


STRATEGIES = [
    Strategy("companeros", "lowest-first", "plays the lowest card; takes the first colour", first_legal),
    Strategy("companeros", "cheater", "returns an illegal move index (for tests)", illegal),
    Strategy("companeros", "sometimes-lowest", "the lowest move with chance `lowest`, else random",
             sometimes_lowest, params=(Param.real("lowest", 0.5, 0.0, 1.0, "chance of playing the lowest move"),)),
]
