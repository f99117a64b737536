"""Information-set Monte Carlo tree search (single-observer ISMCTS), compiled, for every game.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search": one tree over
the deciding seat's information set. Each iteration

1. *determinizes*: the game's ``determinize(public, private, state, rng)`` fills a complete state
   consistent with everything the deciding seat knows (its views), the hidden part drawn at
   random (see each game's rules.py, "Determinization");
2. *selects* down the tree, among the children whose move is legal in this determinization, the
   one with the highest UCB value ``reward / visits + c * sqrt(ln(availability) / visits)``, where
   a child's *availability* counts the visits to its parent in which its move was legal; the tree
   stops growing ``tree_depth`` moves below the root (0: no limit);
3. *expands* one untried legal move (drawn at random) into a new node;
4. *plays out* the game from there with a rollout policy (random, or one of the game's
   heuristics at its default or shipped tuned setting), to its end or, where the game has a
   position evaluation (``evaluate``), for at most ``depth`` decisions;
5. *backs up* the result: every node on the path gets, for the seat that made its move, that
   seat's reward: a blend (``score_weight``) of its rank (1 for the best rank, 0 for the worst,
   linear between) and its score lead over the table's mean (0.5 + lead / (2 ``score_scale``),
   clipped to [0, 1]); in team games a seat's rank and score are its team's, so partners share.

The root has two modes. ``ucb``: as above; the decision is the most visited root child.
``paired``: the iterations come in rounds, one per sampled deal; a round plays every root move
once on that deal with the same chance and play-out streams (common random numbers), so moves
are compared on equal deals, and the decision is the best mean reward. With ``tree_depth=1`` this
is flat Monte Carlo over common deals with heuristic play-outs ("rollout policy improvement"),
which measured stronger against the heuristics than a deeper tree at the budgets tried (see
docs/search.md): below the root, each determinization shows the opponents other hands, so their
nodes are rarely revisited and are expanded by random moves.

Three refinements for games with many moves and long play-outs (Colleagues uses all three):
``candidates`` k limits the rounds to the rollout policy's k favourite moves (its choice, then its
choice among the moves left, and so on), so the budget is spent on a few; ``margin`` z lets a move
replace the policy's own choice only when its reward leads it, round by round on the same deals,
by more than z standard errors of the mean lead (noise rarely makes the search play worse than
its policy); ``horizon`` h stops each play-out once h more of the game's stages (Colleagues: weeks)
are over and scores it as if the game ended there, which makes play-outs shorter and their
outcomes less noisy.

The budget is a number of iterations, never time: a search is a pure function of its views and
its random stream, so a run is reproducible on any machine, with any number of workers. Its
future chance (reshuffles, draws) and its play-outs' choices come from streams seeded from that
random stream, per iteration (``ucb``) or per round (``paired``).

Memory: the tree is ``iterations + 1`` nodes at most (one new node per iteration; ``paired``
rounds the iterations up to whole rounds), in arrays allocated once per decision; nothing grows
with the number of games.

:func:`ismcts` is ``inline="always"`` and takes the game's rules module, like the kernel loop,
so that each game's module-level ``ismcts`` strategy (one call in ``strategies/GAME.py``)
specialises it with direct calls and is cached on disk. Its play-out decisions come from
:func:`rollout_player`, made from the game's heuristics (the strategies layer declares them once:
``strategies.common.rollout_policies``).

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

from .kernel import MAX_SEATS, borrow, keep_alive
from .params import Param
from .seeding import below, next_u64

#: result columns a game may declare at most (the scratch array ``result`` writes into)
MAX_COLUMNS = 32

# the search's parameters, first in every game's ``ismcts`` strategy (their indices into params)
P_ITERATIONS = 0
P_EXPLORATION = 1
P_ROLLOUT = 2
P_SCORE_WEIGHT = 3
P_TREE_DEPTH = 4
P_SCORE_SCALE = 5
P_ROOT = 6
P_DEPTH = 7
P_CANDIDATES = 8
P_MARGIN = 9
P_HORIZON = 10


def search_params(policies: tuple[str, ...], iterations: int = 300, exploration: float = 0.7,
                  rollout: str = "random", score_weight: float = 1.0, tree_depth: int = 1,
                  score_scale: float = 10.0, root: str = "halving", depth: int = 0,
                  candidates: int = 0, margin: float = 0.0, horizon: int = 0, evaluation: bool = False,
                  stages: str = "") -> tuple:
    """The ``ismcts`` strategy's parameters for a game whose rollout policies are ``policies``
    (index 0 is ``random``; the others the game's heuristics, at their default settings);
    ``evaluation``: the game evaluates positions, so play-outs may stop after ``depth`` decisions
    (without one, ``depth`` can only be 0); ``stages``: what the game's ``stage`` counts (e.g.
    "weeks"), so play-outs may stop ``horizon`` stages ahead (without, ``horizon`` can only be 0)."""
    return (
        Param.int("iterations", iterations, 1, 100_000, "search iterations per decision (the budget; never time)"),
        Param.real("exploration", exploration, 0.0, 4.0, "UCB exploration constant c"),
        Param.choice("rollout", rollout, policies, "policy that plays the games out from the tree"),
        Param.real("score_weight", score_weight, 0.0, 1.0,
                   "share of a play-out's reward from the final score (the rest from the rank)"),
        Param.int("tree_depth", tree_depth, 0, 1000,
                  "moves below the root that the tree grows to (0: no limit; 1: flat search over the root's moves)"),
        Param.real("score_scale", score_scale, 0.01, 10_000.0,
                   "score lead over the table's mean that counts as a full score reward (0.5 + lead / (2 scale), "
                   "clipped to [0, 1])"),
        Param.choice("root", root, ("ucb", "paired", "halving"),
                     "how the root's moves share the budget: UCB; paired (each sampled deal plays every "
                     "root move once on the same deal and random streams; the best mean wins); halving "
                     "(paired, dropping the worse half of the moves in each of log2(moves) phases; the "
                     "rollout policy's own choice is never dropped)"),
        Param.int("depth", depth, 0, 100_000 if evaluation else 0,
                  "play-out decisions before the game's position evaluation takes over (0: play to the end)"
                  if evaluation else "play-outs go to the end of the game (this game has no position evaluation)"),
        Param.int("candidates", candidates, 0, 1000,
                  "root moves the search compares (paired and halving roots, heuristic play-outs): the rollout "
                  "policy's favourites, found by asking it again with its earlier picks taken away "
                  "(0: every legal move)"),
        Param.real("margin", margin, 0.0, 100.0,
                   "halving root, heuristic play-outs: another move replaces the rollout policy's own choice only "
                   "when its mean reward on the same deals leads by at least this many standard errors "
                   "(0: the best mean wins)"),
        Param.int("horizon", horizon, 0, 1000 if stages else 0,
                  f"play-outs stop once this many more {stages} are over (1: at the end of the current one) and are "
                  f"scored as if the game ended there "
                  f"(0: play to the end)" if stages else
                  "play-outs go to the end of the game (this game has no stages to stop at)"),
    )


def rollout_player(heuristics: tuple, kinds: np.ndarray):
    """The search's play-out decision ``rollout(policy, public, private, moves, n_moves, rng, rows)``
    for a game whose rollout policies are played by ``heuristics`` (compiled strategies): policy
    ``policy`` plays a random move when ``kinds[policy]`` is 0, else heuristic ``kinds[policy]``
    (1: the first) with the parameter values ``rows[policy]``.

    It is a chain of ``inline="always"`` functions, one per heuristic, so that the game's cached
    ``ismcts`` compiles it into the same direct calls as a written-out ``if kind == 1: ...`` chain
    (a call through a tuple of functions would be an indirect call, and numba cannot cache a
    function that holds one)."""
    play = _random_policy
    for kind in range(len(heuristics), 0, -1):
        play = _policy(kind, heuristics[kind - 1], play)
    kinds = np.asarray(kinds, np.int64)

    @njit(inline="always")
    def rollout(policy, public, private, moves, n_moves, rng, rows):
        return play(kinds[policy], policy, public, private, moves, n_moves, rng, rows)

    return rollout


@njit(inline="always")
def _random_policy(kind, policy, public, private, moves, n_moves, rng, rows):
    return below(rng, n_moves)


def _policy(kind: int, heuristic, otherwise):
    """Play ``heuristic`` for policies of kind ``kind``, ``otherwise`` for the others."""

    @njit(inline="always")
    def play(k, policy, public, private, moves, n_moves, rng, rows):
        if k == kind:
            return heuristic(public, private, moves, n_moves, rng, rows[policy])
        return otherwise(k, policy, public, private, moves, n_moves, rng, rows)

    return play


@njit(inline="always")
def _find_child(first, nxt, move, node, m):
    c = first[node]
    while c >= 0:
        if move[c] == m:
            return c
        c = nxt[c]
    return -1


@njit(inline="always")
def _halve(cand, n_cand, mean, better, keep, first, nxt, move, reward, visits, moves):
    """Sequential halving at the root: keep the better half of the ``n_cand`` candidates
    ``cand[:n_cand]`` by mean reward (the first of equals), ranking ``keep`` (an index into moves,
    or -1: none) above all; the survivors keep their order. Returns their number."""
    for j in range(n_cand):
        c = _find_child(first, nxt, move, 0, moves[cand[j]])
        mean[j] = reward[c] / visits[c] if c >= 0 and visits[c] > 0 else -1.0
    for j in range(n_cand):
        better[j] = 0
        if cand[j] == keep:
            continue
        for k in range(n_cand):
            if cand[k] == keep or mean[k] > mean[j] or (mean[k] == mean[j] and k < j):
                better[j] += 1
    half = (n_cand + 1) // 2
    kept = 0
    for j in range(n_cand):
        if better[j] < half:
            cand[kept] = cand[j]
            kept += 1
    return kept


#: ``values`` of a search that reports none (:func:`ismcts`)
NO_VALUES = np.empty(0, np.float64)


@njit(inline="always")
def ismcts(rules, rollout, policy_rows, evaluate, stage, lower_is_better, public, private, moves, n_moves,
           rng, params, values):
    """The index into ``moves[:n_moves]`` that the search chooses (see the module docstring).

    ``values``: where the search reports what it found, when it has room for ``n_moves``
    (:data:`NO_VALUES`: it has none): ``values[i]`` the mean reward of the root move
    ``moves[i]`` over the iterations that played it, for the deciding seat; left as it was for a
    move it did not try (and for every move of a decision it did not search: a single legal
    move, a single candidate).

    ``rules``: the game's rules module (``determinize``, ``to_move``, ``legal_moves``,
    ``apply_move``, ``result``, the views, ``STATE_SIZE``, ``MAX_MOVES``; called as ``rules.NAME``
    so numba inlines them);
    ``rollout(policy, public, private, moves, n, rng, rows) -> index`` plays one rollout decision
    (``rows[policy]``: that policy's parameter values, a copy of ``policy_rows``; see
    :func:`rollout_player`);
    ``evaluate(state, scale, reward)`` writes each seat's reward in [0, 1] for a position cut
    off after ``params[P_DEPTH]`` play-out decisions (0: games are played out to the end), with
    ``scale`` the ``score_scale`` parameter;
    ``stage(state)`` counts the game's stages so far (Colleagues: weeks over; a game without
    stages returns 0), for the ``horizon`` parameter;
    ``lower_is_better``: the game's lowest score wins.
    """
    iterations = np.int64(params[P_ITERATIONS])
    exploration = params[P_EXPLORATION]
    policy = np.int64(params[P_ROLLOUT])
    score_weight = params[P_SCORE_WEIGHT]
    tree_depth = np.int64(params[P_TREE_DEPTH])
    score_scale = params[P_SCORE_SCALE]
    root_mode = np.int64(params[P_ROOT])  # 0 ucb, 1 paired, 2 halving
    rounds = root_mode >= 1  # the budget goes in rounds over the root's candidate moves
    depth = np.int64(params[P_DEPTH])
    n_candidates = np.int64(params[P_CANDIDATES])
    margin = params[P_MARGIN]
    horizon = np.int64(params[P_HORIZON])
    if n_moves == 1 or iterations < 1:
        return 0
    size = iterations + n_moves + 1  # a round may overrun the budget by fewer than n_moves
    # The work arrays are owned here and used through borrowed views (``kernel.borrow``): every
    # rules function and heuristic inlined below binds its array arguments anew, and on an owned
    # array each binding is an atomic reference count up and down (measured under perf: over
    # half of the search's time). The owners are kept alive until the search is done
    # (``keep_alive(owners)`` before each return); the caller's arrays outlive this call.
    move_o = np.empty(size, np.int64)
    parent_o = np.empty(size, np.int32)
    first_o = np.empty(size, np.int32)
    nxt_o = np.empty(size, np.int32)
    seat_of_o = np.empty(size, np.int32)
    visits_o = np.zeros(size, np.float64)
    avail_o = np.zeros(size, np.float64)
    reward_o = np.zeros(size, np.float64)
    state_o = np.empty(rules.STATE_SIZE, np.int32)
    world_o = np.empty(rules.STATE_SIZE, np.int32)
    world_chance_o = np.empty(4, np.uint64)
    world_play_o = np.empty(4, np.uint64)
    play_o = np.empty(4, np.uint64)
    mv_o = np.empty(rules.MAX_MOVES, np.int64)
    untried_o = np.empty(rules.MAX_MOVES, np.int64)
    chance_o = np.empty(4, np.uint64)
    score_o = np.empty(MAX_SEATS, np.int32)
    rank_o = np.empty(MAX_SEATS, np.int8)
    extra_o = np.empty((MAX_SEATS, MAX_COLUMNS), np.int32)
    seat_reward_o = np.empty(MAX_SEATS, np.float64)
    rows_o = policy_rows.copy()  # the heuristics take a mutable float64[::1] row
    cand_o = np.empty(n_moves, np.int64)  # the root's candidate moves (indices into moves)
    cand_mean_o = np.empty(n_moves, np.float64)
    better_o = np.empty(n_moves, np.int64)
    # margin: each round's root rewards (by slot), and per move (index into moves) the sum and the
    # sum of squares of its paired differences from the kept move's reward (one per round: their
    # number is its root child's visits)
    round_reward_o = np.empty(n_moves, np.float64)
    lead_sum_o = np.zeros(n_moves, np.float64)
    lead_squares_o = np.zeros(n_moves, np.float64)
    owners = (move_o, parent_o, first_o, nxt_o, seat_of_o, visits_o, avail_o, reward_o, state_o, world_o,
              world_chance_o, world_play_o, play_o, mv_o, untried_o, chance_o, score_o, rank_o, extra_o,
              seat_reward_o, rows_o, cand_o, cand_mean_o, better_o, round_reward_o, lead_sum_o,
              lead_squares_o)
    move, parent, first, nxt = borrow(move_o), borrow(parent_o), borrow(first_o), borrow(nxt_o)
    seat_of, visits, avail, reward = borrow(seat_of_o), borrow(visits_o), borrow(avail_o), borrow(reward_o)
    state, world, world_chance = borrow(state_o), borrow(world_o), borrow(world_chance_o)
    world_play, play, mv, untried = borrow(world_play_o), borrow(play_o), borrow(mv_o), borrow(untried_o)
    chance, score, rank, extra = borrow(chance_o), borrow(score_o), borrow(rank_o), borrow(extra_o)
    seat_reward, rows, cand = borrow(seat_reward_o), borrow(rows_o), borrow(cand_o)
    cand_mean, better, round_reward = borrow(cand_mean_o), borrow(better_o), borrow(round_reward_o)
    lead_sum, lead_squares = borrow(lead_sum_o), borrow(lead_squares_o)
    public, private, moves, rng, params = borrow(public), borrow(private), borrow(moves), borrow(rng), borrow(params)
    for i in range(n_moves):
        cand[i] = i
    n_cand = n_moves
    keep = -1  # halving: the rollout policy's own choice is never dropped
    if rounds and policy != 0 and 0 < n_candidates < n_moves:
        # only the rollout policy's n_candidates favourite moves: ask it, take its pick away
        # (the others keep their order), ask again
        for w in range(4):
            play[w] = next_u64(rng)
        left = n_moves
        for i in range(n_moves):
            mv[i] = moves[i]
            untried[i] = i  # the index into moves of mv[i]
        for k in range(n_candidates):
            j = rollout(policy, public, private, mv, left, play, rows)
            cand[k] = untried[j]
            for i in range(j, left - 1):
                mv[i] = mv[i + 1]
                untried[i] = untried[i + 1]
            left -= 1
        n_cand = n_candidates
        if n_cand == 1:
            choice = cand[0]
            keep_alive(owners)
            return choice
        if root_mode == 2:
            keep = cand[0]
    elif root_mode == 2 and policy != 0:
        for w in range(4):
            play[w] = next_u64(rng)
        keep = rollout(policy, public, private, moves, n_moves, play, rows)
    phases = 0  # halving: halvings still to come, and the budget of the current phase
    n = 1
    while n < n_cand:
        phases += 1
        n *= 2
    phase_budget = iterations // phases
    spent = 0
    pos = 0
    parent[0] = -1
    first[0] = -1
    nxt[0] = -1
    seat_of[0] = -1
    move[0] = -1
    nodes = 1
    it = 0
    root_seat = -1
    slot = -1
    while True:
        forced = -1
        if rounds:
            if pos == 0:  # a new round
                if it >= iterations:
                    break
                if root_mode == 2 and spent > 0 and spent + n_cand > phase_budget:
                    n_cand = _halve(cand, n_cand, cand_mean, better, keep, first, nxt, move, reward, visits, moves)
                    if n_cand == 1:
                        break
                    phases -= 1
                    phase_budget = (iterations - it) // max(phases, 1)
                    spent = 0
                rules.determinize(public, private, world, rng)
                for w in range(4):
                    world_chance[w] = next_u64(rng)
                    world_play[w] = next_u64(rng)
            state[:] = world
            chance[:] = world_chance
            play[:] = world_play
            forced = moves[cand[pos]]
            slot = pos
            pos += 1
            if pos == n_cand:
                pos = 0
            spent += 1
        else:
            if it >= iterations:
                break
            rules.determinize(public, private, state, rng)
            for w in range(4):
                chance[w] = next_u64(rng)
                play[w] = next_u64(rng)
        it += 1
        node = 0
        level = 0
        last_stage = stage(state) + horizon  # play-outs stop when it is reached (horizon > 0)
        # selection and expansion
        while True:
            seat = rules.to_move(state)
            if seat < 0 or (tree_depth > 0 and level >= tree_depth):
                break
            if level == 0:
                root_seat = seat
            level += 1
            if forced >= 0:  # paired root: this round's move is the only one on offer
                mv[0] = forced
                n = 1
                forced = -1
            else:
                n = rules.legal_moves(state, mv)
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
                    value = reward[c] / visits[c] + exploration * math.sqrt(math.log(avail[c]) / visits[c])
                    if value > best_value:
                        best, best_value = c, value
            if n_untried > 0:
                m = untried[0] if n_untried == 1 else untried[below(rng, n_untried)]
                c = nodes
                nodes += 1
                move[c] = m
                parent[c] = node
                first[c] = -1
                nxt[c] = first[node]
                first[node] = c
                seat_of[c] = seat
                avail[c] = 1.0
                rules.apply_move(state, m, chance)
                node = c
                break
            rules.apply_move(state, move[best], chance)
            node = best
        # play-out
        steps = 0
        while rules.to_move(state) >= 0 and (depth == 0 or steps < depth) and (horizon == 0 or stage(state) < last_stage):
            seat = rules.to_move(state)
            n = rules.legal_moves(state, mv)
            i = rollout(policy, rules.public_view(state), rules.private_view(state, seat), mv, n, play, rows)
            rules.apply_move(state, mv[i], chance)
            steps += 1
        if rules.to_move(state) >= 0 and depth > 0 and steps >= depth:
            evaluate(state, score_scale, seat_reward)
        else:
            for s in range(MAX_SEATS):
                rank[s] = 0  # seats the game does not have stay 0
            rules.result(state, score, rank, extra)
            worst = 1
            seats = 0
            total = 0.0
            for s in range(MAX_SEATS):
                if rank[s] > 0:
                    worst = max(worst, np.int64(rank[s]))
                    seats += 1
                    total += score[s]
            mean = total / max(seats, 1)
            for s in range(MAX_SEATS):
                by_rank = 1.0 if worst == 1 or rank[s] == 0 else (worst - rank[s]) / (worst - 1.0)
                lead = score[s] - mean
                if lower_is_better:
                    lead = -lead
                by_score = min(1.0, max(0.0, 0.5 + lead / (2.0 * score_scale)))
                seat_reward[s] = (1.0 - score_weight) * by_rank + score_weight * by_score
        # back-up
        c = node
        while c > 0:
            visits[c] += 1.0
            reward[c] += seat_reward[seat_of[c]]
            c = parent[c]
        visits[0] += 1.0
        if rounds and keep >= 0 and margin > 0.0:
            round_reward[slot] = seat_reward[root_seat]
            if pos == 0:  # the round is complete: each candidate's lead over the kept move on it
                kept = 0
                for j in range(n_cand):
                    if cand[j] == keep:
                        kept = j
                for j in range(n_cand):
                    d = round_reward[j] - round_reward[kept]
                    lead_sum[cand[j]] += d
                    lead_squares[cand[j]] += d * d
    # the most visited root child among the real legal moves (rounds: the candidate with the best
    # mean reward, the first of equals)
    choice = 0
    most = -1.0
    for j in range(n_cand):
        i = cand[j]
        c = _find_child(first, nxt, move, 0, moves[i])
        if c >= 0:
            value = reward[c] / visits[c] if rounds else visits[c]
            if value > most:
                choice, most = i, value
    if values.shape[0] >= n_moves:
        for i in range(n_moves):
            c = _find_child(first, nxt, move, 0, moves[i])
            if c >= 0 and visits[c] > 0:
                values[i] = reward[c] / visits[c]
    if rounds and keep >= 0 and margin > 0.0 and choice != keep:
        k = visits[_find_child(first, nxt, move, 0, moves[choice])]  # its rounds: its paired differences
        mean_lead = lead_sum[choice] / k if k > 0 else 0.0
        spread = math.sqrt(max(lead_squares[choice] - k * mean_lead * mean_lead, 0.0) / (k * (k - 1))) \
            if k > 1 else math.inf
        if mean_lead <= margin * spread:
            choice = keep
    keep_alive(owners)
    return choice


@njit(cache=True, _nrt=False)
def no_stages(state):
    """For games without stages (``horizon`` is 0 there)."""
    return 0


@njit(cache=True, _nrt=False)
def no_evaluation(state, scale, reward):
    """For games without a position evaluation (never called with ``depth`` 0)."""
    for s in range(reward.shape[0]):
        reward[s] = 0.5
