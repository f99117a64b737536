"""Strategies that work for every game, whatever its move encoding."""
from numba import njit

from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE
from tourney_sim.simulate.seeding import below


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def random_move(public, private, moves, n_moves, rng, params):
    """Uniformly random legal move from the seat's own stream."""
    return below(rng, n_moves)
