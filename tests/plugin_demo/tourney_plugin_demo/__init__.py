"""A plug-in strategy package: it depends on tourney's public interface only (``tourney_sim``
and ``tourney_sim.views``, never the internal packages: tests/test_plugin.py checks)."""
from numba import njit

from tourney_sim import STRATEGY_SIGNATURE, Param, Strategy, below
from tourney_sim.views import companeros as co

# the views this package was written against: a game's offsets change only with its VIEWS_VERSION
# (version 2 added the component table in force, CARD_VALUE ...: the ranks read below still order
# the cards' values, which must rise strictly; version 3 appended COMPENSATION, nothing read here)
if co.VIEWS_VERSION != 3:
    raise ImportError(f"tourney_plugin_demo reads companeros' views version 3, not {co.VIEWS_VERSION}")


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


@njit(STRATEGY_SIGNATURE, cache=True)
def richest(public, private, moves, n_moves, rng, params):
    """Takes the colour whose display cards are worth most (never passes); plays its highest value."""
    best, best_worth = 0, -1
    if public[co.H_PHASE] == co.PHASE_TAKE:
        for i in range(n_moves):
            if moves[i] != co.MOVE_PASS and public[co.DISPLAY_SUM + moves[i] - co.MOVE_TAKE] > best_worth:
                best, best_worth = i, public[co.DISPLAY_SUM + moves[i] - co.MOVE_TAKE]
        return best
    card, card_value = -1, 0
    for i in range(private[co.PV_SIZE]):  # the hand, from the private view
        value = private[co.PV_HAND + i] % co.VALUES + 1
        if value > card_value:
            card, card_value = private[co.PV_HAND + i], value
    for i in range(n_moves):
        if moves[i] == card:
            return i
    return 0


STRATEGIES = [
    Strategy("companeros", "lowest-first", "plays the lowest card; takes the first colour", first_legal),
    Strategy("companeros", "richest", "takes the colour worth most; plays its highest value", richest),
    Strategy("companeros", "cheater", "returns an illegal move index (for tests)", illegal),
    Strategy("companeros", "sometimes-lowest", "the lowest move with chance `lowest`, else random",
             sometimes_lowest, params=(Param.real("lowest", 0.5, 0.0, 1.0, "chance of playing the lowest move"),)),
]
