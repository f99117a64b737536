"""The apprentice's decision (issue 41): a linear policy over a game's move features.

Each game's ``features.py`` gives ``move_features(public, private, moves, n_moves, out)``, a
fixed-length vector per legal move read from the deciding seat's views only, and makes its
``apprentice`` strategy with :func:`linear_choice` in one call. The weights are the strategy's
parameters (a training run's ``best.toml``), so the apprentice plays in every kernel, tournament,
study and trace like any parametrised strategy, without recompiling.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .seeding import below

#: the exploration is drawn as an integer below this (a chance in millionths)
_SCALE = 1_000_000


@njit(inline="always")
def linear_choice(move_features, n_features, public, private, moves, n_moves, rng, params):
    """The legal move whose features score highest under the weights ``params[:n_features]`` (the
    first of equal scores). ``params[n_features]`` is the exploration: the chance that it plays a
    uniformly random legal move instead (0 in play; above 0 while a training run collects the
    positions the search labels). Draws from the seat's stream only when exploring."""
    explore = params[n_features]
    if explore > 0.0 and below(rng, _SCALE) < explore * _SCALE:
        return below(rng, n_moves)
    out = np.empty((n_moves, n_features))
    move_features(public, private, moves, n_moves, out)
    best, best_score = 0, -np.inf
    for k in range(n_moves):
        s = 0.0
        for j in range(n_features):
            s += params[j] * out[k, j]
        if s > best_score:
            best, best_score = k, s
    return best
