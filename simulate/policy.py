"""The apprentice's decision (issue 41): a linear policy over a game's move features, guided by
the game's strong heuristic.

Each game's ``features.py`` gives ``move_features(public, private, moves, n_moves, out)``, a
fixed-length vector per legal move read from the deciding seat's views only. The apprentice
scores each legal move by its features' weighted sum plus, for the move the *guide* (the game's
strong heuristic at its tuned setting) would play, the guide's weight: so its weights can play
the heuristic exactly (the guide's weight alone) and learn from the search where to leave it.
The weights are the strategy's parameters (a training run's ``best.toml``, or those shipped), so
the apprentice plays in every kernel, tournament, study and trace like any parametrised strategy,
without recompiling. Each game makes its ``apprentice`` with :func:`guided_choice` in one call
(``strategies/<game>.py``: the guide is one of its heuristics).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .kernel import stack_empty
from .params import MAX_PARAMS
from .seeding import below

#: the exploration is drawn as an integer below this (a chance in millionths)
_SCALE = 1_000_000
#: the features of up to this many (move, feature) cells are computed in a buffer on the stack
#: (16 KB; two heap allocations a decision cost a quarter of its time, measured on Compañeros);
#: a decision with more takes one from the heap
STACK_CELLS = 2048


@njit(inline="always")
def guided_choice(move_features, n_features, guide, guide_row, public, private, moves, n_moves, rng, params):
    """The legal move that scores highest (the first of equal scores): move k's score is
    ``params[:n_features] @ features[k]``, plus ``params[n_features]`` if k is the move ``guide``
    (a strategy, with the values ``guide_row``) plays. ``params[n_features + 1]`` is the
    exploration: the chance that it plays a uniformly random legal move instead (0 in play;
    above 0 while a training run collects the positions the search labels). Draws from the
    seat's stream only when exploring (the guides are deterministic)."""
    explore = params[n_features + 1]
    if explore > 0.0 and below(rng, _SCALE) < explore * _SCALE:
        return below(rng, n_moves)
    if n_moves == 1:  # a forced move: nothing to score
        return 0
    if n_moves * n_features <= STACK_CELLS:
        out = stack_empty(STACK_CELLS, np.float64)[:n_moves * n_features].reshape((n_moves, n_features))
    else:
        out = np.empty((n_moves, n_features))
    move_features(public, private, moves, n_moves, out)
    row = stack_empty(MAX_PARAMS, np.float64)  # the guide's values, a copy it may write
    row[:] = guide_row
    guided = guide(public, private, moves, n_moves, rng, row)
    best, best_score = 0, -np.inf
    for k in range(n_moves):
        s = params[n_features] if k == guided else 0.0
        for j in range(n_features):
            s += params[j] * out[k, j]
        if s > best_score:
            best, best_score = k, s
    return best
