"""Built-in Duel strategies (the toy game of tests/toy): random, one heuristic, the search."""
from numba import njit

from tourney_sim.simulate import search
from tourney_sim.simulate.games.duel import rules as du
from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE

from . import Strategy
from .common import random_move, rollout_policies


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def cheapest_win(public, private, moves, n_moves, rng, params):
    """Leading: its highest card. Following: the lowest card that beats the led one, else its lowest."""
    led = public[du.H_LED]
    if led == 0:
        return n_moves - 1  # moves ascend
    for i in range(n_moves):
        if moves[i] > led:
            return i
    return 0


HEURISTICS = [
    Strategy("duel", "cheapest_win", "leads its highest card; follows with the lowest card that wins, else its lowest",
             cheapest_win),
]
ROLLOUT_POLICIES, ROLLOUT_ROWS, rollout = rollout_policies(HEURISTICS)
ISMCTS_PARAMS = search.search_params(ROLLOUT_POLICIES, iterations=100, rollout="cheapest_win", score_scale=10.0,
                                     root="paired")


@njit(cache=True)  # compiled with STRATEGY_SIGNATURE when first resolved: kernel.ready
def ismcts(public, private, moves, n_moves, rng, params):
    return search.ismcts(du, rollout, ROLLOUT_ROWS, search.no_evaluation, search.no_stages, False,
                         public, private, moves, n_moves, rng, params, search.NO_VALUES)


STRATEGIES = [
    Strategy("duel", "random", "uniformly random legal move", random_move),
    *HEURISTICS,
    Strategy("duel", "ismcts", "information-set Monte Carlo tree search over sampled deals of the unseen cards",
             ismcts, params=ISMCTS_PARAMS),
]
