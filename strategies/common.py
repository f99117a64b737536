"""What every game's strategies share: the random strategy, and the search's rollout policies."""
from __future__ import annotations

import numpy as np
from numba import njit

from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE
from tourney_sim.simulate.params import MAX_PARAMS
from tourney_sim.simulate.search import rollout_player
from tourney_sim.simulate.seeding import below


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def random_move(public, private, moves, n_moves, rng, params):
    """Uniformly random legal move from the seat's own stream."""
    return below(rng, n_moves)


def rollout_policies(heuristics) -> tuple[tuple[str, ...], np.ndarray, object]:
    """A game's play-out policies for its search, from its heuristics (``Strategy`` values, each
    declared once, in the game's ``STRATEGIES`` too): ``random``, each heuristic at its default
    setting, then each one's tuned setting shipped as ``tuned/GAME-NAME.toml`` (``NAME-tuned``: the
    same values as the built-in strategy of that name).

    Returns (names, rows, rollout): ``rows[p]`` (float64[MAX_PARAMS]) are policy p's parameter
    values; ``rollout`` plays a policy's decision (``simulate.search.rollout_player``), for the
    game's ``ismcts`` to hand to ``search.ismcts`` with ``rows``."""
    from . import TUNED_DIR, tuned

    names, rows, kinds = ["random"], [np.zeros(MAX_PARAMS, np.float64)], [0]
    for kind, heuristic in enumerate(heuristics, 1):
        names.append(heuristic.name)
        rows.append(heuristic.param_row())
        kinds.append(kind)
    for kind, heuristic in enumerate(heuristics, 1):
        path = TUNED_DIR / f"{heuristic.game}-{heuristic.name}.toml"
        if path.exists():
            setting = tuned(heuristic, path)
            names.append(setting.name)
            rows.append(setting.param_row())
            kinds.append(kind)
    player = rollout_player(tuple(h.fn for h in heuristics), np.array(kinds, np.int64))
    return tuple(names), np.array(rows), player
