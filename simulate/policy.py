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


#: a bound on how far a move's score, summed in floating point, lies from its exact sum, doubled
#: (the guide's move is summed twice: with its weight and without): a score adds at most 31
#: features' terms (w + c |x|) x, with |w|, |c| <= 100 (the weights' limit) and |x| <= 100 (the
#: features are scaled to [-7, 7] at most), so every partial sum is below 3.2e7 and each of the
#: 32 additions rounds it by at most 2^-53 of that, 3.6e-9: 1.2e-7 a sum
ROUNDING = 1e-6


@njit(inline="always")
def _term(params, n_features, j, x):
    """Feature j's part of a move's score, where the move's feature is x: ``(w + c |x|) x``, w the
    feature's weight ``params[j]``, c its curve's ``params[n_features + 2 + j]``."""
    return (params[j] + params[n_features + 2 + j] * abs(x)) * x


@njit(inline="always")
def _feature_scores(out, n_moves, n_features, params, scores):
    """scores[k] = the sum over the features j, in order from 0.0, of :func:`_term` of
    out[k, j]. Four moves at a time, each move's running sum in a register of its own: the four
    chains of additions overlap, where a sum kept in memory waited on its store at every
    feature. Each move's additions are the same and in the same order as one move at a time, so
    the scores are the same bit for bit."""
    for k0 in range(0, n_moves, 4):
        # fewer than four moves left: the block repeats its last one (the same sum, written twice)
        k1, k2, k3 = min(k0 + 1, n_moves - 1), min(k0 + 2, n_moves - 1), min(k0 + 3, n_moves - 1)
        s0 = s1 = s2 = s3 = 0.0
        for j in range(n_features):
            s0 += _term(params, n_features, j, out[k0, j])
            s1 += _term(params, n_features, j, out[k1, j])
            s2 += _term(params, n_features, j, out[k2, j])
            s3 += _term(params, n_features, j, out[k3, j])
        scores[k0], scores[k1], scores[k2], scores[k3] = s0, s1, s2, s3


@njit(inline="always")
def guided_choice(move_features, n_features, guide, guide_row, public, private, moves, n_moves, rng, params):
    """The legal move that scores highest (the first of equal scores): move k's score is
    ``params[n_features]`` if k is the move ``guide`` (a strategy, with the values ``guide_row``)
    plays, plus ``params[:n_features] @ features[k]``, plus ``params[n_features + 2:][:n_features]
    @ (features[k] |features[k]|)`` (the curves), summed in that order. ``params[n_features + 1]``
    is the exploration: the chance that it plays a uniformly random legal move instead (0 in play;
    above 0 while a training run collects the positions the search labels). Draws from the
    seat's stream only when exploring (the guides are deterministic).

    The guide is asked only when its weight could change the winner: when the best score of the
    features alone leads the second by more than the guide's weight (and :data:`ROUNDING`), the
    best move wins with the guide's weight on any move, so it is played without the guide's
    decision (in Compañeros, whose guide weighs 0.05-0.4, 92-98% of the decisions; a guide costs
    up to 300 ns a decision, Colleagues'). Otherwise the guide's move is scored as ever, its
    weight first, then its features: the same choice, always."""
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
    if n_moves <= STACK_MOVES:
        scores = stack_empty(STACK_MOVES, np.float64)[:n_moves]
    else:
        scores = np.empty(n_moves)
    _feature_scores(out, n_moves, n_features, params, scores)
    best, best_score, second_score = 0, -np.inf, -np.inf
    for k in range(n_moves):
        s = scores[k]
        if s > best_score:
            best, best_score, second_score = k, s, best_score
        elif s > second_score:
            second_score = s
    guide_weight = params[n_features]
    if best_score - second_score > abs(guide_weight) + ROUNDING:
        return best
    row = stack_empty(MAX_PARAMS, np.float64)  # the guide's values, a copy it may write
    row[:] = guide_row
    guided = guide(public, private, moves, n_moves, rng, row)
    s = guide_weight
    for j in range(n_features):
        s += _term(params, n_features, j, out[guided, j])
    scores[guided] = s
    best, best_score = 0, -np.inf
    for k in range(n_moves):
        if scores[k] > best_score:
            best, best_score = k, scores[k]
    return best
