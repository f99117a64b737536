"""The apprentice's decision (issue 41): a linear policy over a game's move features and their
curves, guided by the game's strong heuristic.

Each game's ``features.py`` gives ``move_features(public, private, moves, n_moves, out)``, a
fixed-length vector per legal move read from the deciding seat's views only. The apprentice
scores each legal move by its features' weighted sum, plus each feature's *curve* (``x |x|``, the
feature's square with its sign) weighted, plus, for the move the *guide* (the game's strong
heuristic at its tuned setting) would play, the guide's weight: so its weights can play the
heuristic exactly (the guide's weight alone) and learn from the search where to leave it. The
curves let a feature count more than in proportion at its extremes (a take that is certain, a
card far from the middle): on the search's values of held-out decisions they lift what a fit
holds from 7% to 50% of the search's gain over the guide in Colleagues at 2 players, and from 26%
to 40% in Compañeros at 3 (``scripts/apprentice_ceiling.py``, docs/apprentice.md).
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
#: the scores of up to this many moves are kept on the stack (more: one heap allocation)
STACK_MOVES = 256


def curve_name(feature: str) -> str:
    """The apprentice's parameter that weighs a feature's curve (``x |x|``)."""
    return f"curve_{feature}"


@njit(inline="always")
def guided_choice(move_features, n_features, guide, guide_row, public, private, moves, n_moves, rng, params):
    """The legal move that scores highest (the first of equal scores): move k's score is
    ``params[:n_features] @ features[k]``, plus ``params[n_features]`` if k is the move ``guide``
    (a strategy, with the values ``guide_row``) plays, plus ``params[n_features + 2:][:n_features]
    @ (features[k] |features[k]|)`` (the curves). ``params[n_features + 1]`` is the
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
    # feature by feature over every move (each move's score sums its features in the same order):
    # the moves' sums are independent, so the inner loop has no chain of dependent additions
    # (move by move it had, and the curves made it a fifth of the decision's time)
    if n_moves <= STACK_MOVES:
        scores = stack_empty(STACK_MOVES, np.float64)[:n_moves]
    else:
        scores = np.empty(n_moves)
    for k in range(n_moves):
        scores[k] = 0.0
    scores[guided] = params[n_features]
    for j in range(n_features):
        weight, curve = params[j], params[n_features + 2 + j]
        for k in range(n_moves):
            x = out[k, j]
            scores[k] += (weight + curve * abs(x)) * x
    best, best_score = 0, -np.inf
    for k in range(n_moves):
        if scores[k] > best_score:
            best, best_score = k, scores[k]
    return best
