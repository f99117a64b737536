"""Information-set Monte Carlo tree search (single-observer ISMCTS), compiled, for every game.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search": one tree over
the deciding seat's information set. Each iteration

1. *determinizes*: the game's ``determinize(public, private, state, rng)`` fills a complete state
   consistent with everything the deciding seat knows (its views), the hidden part drawn at
   random (see each game module's "Determinization");
2. *selects* down the tree, among the children whose move is legal in this determinization, the
   one with the highest UCB value ``reward / visits + c * sqrt(ln(availability) / visits)``, where
   a child's *availability* counts the visits to its parent in which its move was legal;
3. *expands* one untried legal move (drawn at random) into a new node;
4. *plays out* the game from there with a rollout policy (random, or one of the game's
   heuristics at its default setting) to its end (the core also supports a depth cut with a
   per-game evaluation, ``depth`` and ``evaluate``; no game provides an evaluation yet, so every
   game plays out to the end);
5. *backs up* the result: every node on the path gets, for the seat that made its move, that
   seat's reward: a blend (``score_weight``) of its rank (1 for the best rank, 0 for the worst,
   linear between) and its score (1 for the best score at the table, 0 for the worst); in team
   games a seat's rank and score are its team's, so partners share their reward.

The decision is the most visited root child among the real legal moves. The budget is a number of
iterations, never time: a search is a pure function of its views and its random stream, so a run
is reproducible on any machine, with any number of workers. Its future chance (reshuffles, draws)
comes from a stream seeded from the same random stream.

Memory: the tree is ``iterations + 1`` nodes at most (one new node per iteration), in arrays
allocated once per decision; nothing grows with the number of games.

:func:`ismcts` is ``inline="always"`` and takes the game's functions as arguments, like the kernel
loop, so that each game's module-level ``ismcts`` strategy (a few lines in ``strategies/GAME.py``)
specialises it with direct calls and is cached on disk.

Node arrays (index 0 is the root):

================  ========================================================================
``move[k]``       the move that leads from ``parent[k]`` to k
``parent[k]``     the parent node (-1 for the root)
``first[k]``      k's first child (-1: none); siblings are chained by ``next[k]``
``seat[k]``       the seat that made ``move[k]`` (whose reward k accumulates)
``visits[k]``     iterations through k
``avail[k]``      visits to k's parent in which ``move[k]`` was legal
``reward[k]``     total reward of ``seat[k]`` over the iterations through k
================  ========================================================================
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from tourney_sim.strategies.params import MAX_PARAMS, Param

from .kernel import MAX_SEATS
from .seeding import below, next_u64

#: result columns a game may declare at most (the scratch array ``result`` writes into)
MAX_COLUMNS = 32

# the search's parameters, first in every game's ``ismcts`` strategy (their indices into params)
P_ITERATIONS = 0
P_EXPLORATION = 1
P_ROLLOUT = 2
P_SCORE_WEIGHT = 3


def search_params(policies: tuple[str, ...], iterations: int = 300, exploration: float = 0.7,
                  rollout: str = "random", score_weight: float = 0.5) -> tuple:
    """The ``ismcts`` strategy's parameters for a game whose rollout policies are ``policies``
    (index 0 is ``random``; the others the game's heuristics, at their default settings)."""
    return (
        Param.int("iterations", iterations, 1, 100_000, "search iterations per decision (the budget; never time)"),
        Param.real("exploration", exploration, 0.0, 4.0, "UCB exploration constant c"),
        Param.choice("rollout", rollout, policies, "policy that plays the games out from the tree"),
        Param.real("score_weight", score_weight, 0.0, 1.0,
                   "share of a play-out's reward from the final score (the rest from the rank)"),
    )


def policy_defaults(declarations) -> np.ndarray:
    """float64[1 + len(declarations), MAX_PARAMS]: row k + 1 holds the default values of the k-th
    rollout heuristic's parameters (row 0, random play, has none)."""
    rows = np.zeros((1 + len(declarations), MAX_PARAMS), np.float64)
    for k, params in enumerate(declarations):
        for i, p in enumerate(params):
            rows[k + 1, i] = p.number(p.default)
    return rows


@njit(inline="always")
def _find_child(first, nxt, move, node, m):
    c = first[node]
    while c >= 0:
        if move[c] == m:
            return c
        c = nxt[c]
    return -1


@njit(inline="always")
def ismcts(determinize, to_move, legal_moves, apply_move, result, public_view, private_view, rollout,
           policy_rows, evaluate, depth, state_size, max_moves, lower_is_better, public, private, moves,
           n_moves, rng, params):
    """The index into ``moves[:n_moves]`` that the search chooses (see the module docstring).

    ``rollout(policy, public, private, moves, n, rng, rows) -> index`` plays one rollout decision
    (``rows[policy]``: that policy's parameter values, a copy of ``policy_rows``);
    ``evaluate(state, reward)`` writes each result seat's reward in [0, 1] for a position cut
    off after ``depth`` rollout decisions (``depth`` 0: games are played out to the end);
    ``lower_is_better``: the game's lowest score wins.
    """
    iterations = np.int64(params[P_ITERATIONS])
    exploration = params[P_EXPLORATION]
    policy = np.int64(params[P_ROLLOUT])
    score_weight = params[P_SCORE_WEIGHT]
    if n_moves == 1 or iterations < 1:
        return 0
    size = iterations + 1
    move = np.empty(size, np.int64)
    parent = np.empty(size, np.int32)
    first = np.empty(size, np.int32)
    nxt = np.empty(size, np.int32)
    seat_of = np.empty(size, np.int32)
    visits = np.zeros(size, np.float64)
    avail = np.zeros(size, np.float64)
    reward = np.zeros(size, np.float64)
    state = np.empty(state_size, np.int32)
    mv = np.empty(max_moves, np.int64)
    untried = np.empty(max_moves, np.int64)
    chance = np.empty(4, np.uint64)
    score = np.empty(MAX_SEATS, np.int32)
    rank = np.empty(MAX_SEATS, np.int8)
    extra = np.empty((MAX_SEATS, MAX_COLUMNS), np.int32)
    seat_reward = np.empty(MAX_SEATS, np.float64)
    rows = policy_rows.copy()  # the heuristics take a mutable float64[::1] row
    parent[0] = -1
    first[0] = -1
    nxt[0] = -1
    seat_of[0] = -1
    move[0] = -1
    nodes = 1
    for _ in range(iterations):
        determinize(public, private, state, rng)
        for w in range(4):
            chance[w] = next_u64(rng)
        node = 0
        # selection and expansion
        while True:
            seat = to_move(state)
            if seat < 0:
                break
            n = legal_moves(state, mv)
            n_untried = 0
            best = -1
            best_value = -1.0
            for i in range(n):
                c = _find_child(first, nxt, move, node, mv[i])
                if c < 0:
                    untried[n_untried] = mv[i]
                    n_untried += 1
                else:
                    avail[c] += 1.0
                    if n_untried == 0:
                        value = reward[c] / visits[c] + exploration * math.sqrt(math.log(avail[c]) / visits[c])
                        if value > best_value:
                            best, best_value = c, value
            if n_untried > 0:
                m = untried[below(rng, n_untried)]
                c = nodes
                nodes += 1
                move[c] = m
                parent[c] = node
                first[c] = -1
                nxt[c] = first[node]
                first[node] = c
                seat_of[c] = seat
                avail[c] = 1.0
                apply_move(state, m, chance)
                node = c
                break
            apply_move(state, move[best], chance)
            node = best
        # play-out
        steps = 0
        while to_move(state) >= 0 and (depth == 0 or steps < depth):
            seat = to_move(state)
            n = legal_moves(state, mv)
            i = rollout(policy, public_view(state), private_view(state, seat), mv, n, rng, rows)
            apply_move(state, mv[i], chance)
            steps += 1
        if to_move(state) >= 0:
            evaluate(state, seat_reward)
        else:
            for s in range(MAX_SEATS):
                rank[s] = 0  # seats the game does not have stay 0
            result(state, score, rank, extra)
            worst = 1
            low = np.int64(1) << 40
            high = -low
            for s in range(MAX_SEATS):
                if rank[s] > 0:
                    worst = max(worst, np.int64(rank[s]))
                    low = min(low, np.int64(score[s]))
                    high = max(high, np.int64(score[s]))
            for s in range(MAX_SEATS):
                by_rank = 1.0 if worst == 1 or rank[s] == 0 else (worst - rank[s]) / (worst - 1.0)
                by_score = 0.5 if high == low or rank[s] == 0 else (score[s] - low) / (high - low)
                if lower_is_better:
                    by_score = 1.0 - by_score
                seat_reward[s] = (1.0 - score_weight) * by_rank + score_weight * by_score
        # back-up
        c = node
        while c > 0:
            visits[c] += 1.0
            reward[c] += seat_reward[seat_of[c]]
            c = parent[c]
        visits[0] += 1.0
    # the most visited root child among the real legal moves
    choice = 0
    most = -1.0
    for i in range(n_moves):
        c = _find_child(first, nxt, move, 0, moves[i])
        if c >= 0 and visits[c] > most:
            choice, most = i, visits[c]
    return choice


@njit(cache=True)
def no_evaluation(state, reward):
    """For games without a position evaluation (never called with ``depth`` 0)."""
    for s in range(reward.shape[0]):
        reward[s] = 0.5
