"""A test strategy with parameters whose strength peaks at a known value (a planted optimum),
registered in-process by the tests that use it."""
from numba import njit

from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE
from tourney_sim.simulate.seeding import below
from tourney_sim.strategies import Param, Strategy
from tourney_sim.strategies.companeros import STRATEGIES, greedy

#: greedy's own parameters travel after the planted ones (at their defaults)
GREEDY_PARAMS = next(s for s in STRATEGIES if s.name == "greedy").params

PEAK = 0.3


@njit(STRATEGY_SIGNATURE, cache=True)
def planted(public, private, moves, n_moves, rng, params):
    """greedy with probability 1 - |x - PEAK| / PEAK (0 below that), else a random move: its
    strength peaks at x = PEAK and falls off linearly on both sides."""
    g = 1.0 - abs(params[0] - PEAK) / PEAK
    if below(rng, 1000) < g * 1000:
        return greedy(public, private, moves, n_moves, rng, params[2:])
    return below(rng, n_moves)


PLANTED = Strategy("companeros", "planted", "test: strongest at x = 0.3", planted,
                   params=(Param.real("x", 0.9, 0.0, 1.0, "how far from greedy (0.3 is greedy)"),
                           Param.int("unused", 3, 1, 5, "changes nothing")) + GREEDY_PARAMS)
