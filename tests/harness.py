"""Checks the contract (tests/contract/) and each game's tests share (like pgx's api_test):
reference comparison, random play-throughs under an invariant, compiled random steps and view
checks, determinizing in place."""
from __future__ import annotations

import numpy as np
from numba import njit

from tourney_sim.simulate.games.spec import GameSpec
from tourney_sim.simulate.seeding import PyStream, below, new_stream, seed_stream
from tourney_sim.simulate.stepper import KernelGame

PICK_STREAM = 1000  # the test's own stream for choosing random moves


def differential(spec: GameSpec, reference, params, seed: int, games: int, on_step=None,
                 spell: bool = False) -> int:
    """Play ``games`` random games in the kernel and in the reference engine side by side.

    At every step both must agree on the seat to move and the legal moves (the same ascending
    list); both get the same random move; at the end both give the same result. With ``spell``,
    every legal move is also spelled alike by both (``reference.action`` is the notation's
    ``move_to_json``) and described in words. Returns the number of decisions checked.
    """
    checked = 0
    for g in range(games):
        k = KernelGame(spec, params, seed, g)
        r = reference.Game(params, PyStream(seed, g, 0))
        pick = PyStream(seed, g, PICK_STREAM)
        steps = 0
        while True:
            seat = k.to_move()
            assert seat == r.to_move(), f"game {g} step {steps}: to_move {seat} != {r.to_move()}"
            if seat < 0:
                break
            km = k.legal_moves()
            rm = r.legal_moves()
            assert km == rm, f"game {g} step {steps}: kernel {km} != reference {rm}"
            assert km, f"game {g} step {steps}: no legal move"
            if spell:
                for m in km:
                    assert r.action(m) == spec.move_to_json(k.state, m), f"game {g} step {steps}: move {m}"
                    text = spec.describe_move(k.state, m)
                    assert isinstance(text, str) and text, f"game {g} step {steps}: move {m} is {text!r}"
            move = km[pick.below(len(km))]
            k.apply(move)
            r.apply(move)
            if on_step is not None:
                on_step(k)
            steps += 1
            assert steps <= spec.max_decisions
        assert k.result() == tuple(r.result()), f"game {g}: {k.result()} != {r.result()}"
        checked += steps
    return checked


def play_on(game, pick: PyStream) -> list[tuple[list[int], int]]:
    """Random moves to the end of the game (a KernelGame): each decision's legal moves and the
    move taken."""
    played = []
    while game.to_move() >= 0:
        moves = game.legal_moves()
        move = moves[pick.below(len(moves))]
        game.apply(move)
        played.append((moves, move))
    return played


@njit
def random_playthroughs(init, to_move, legal_moves, apply_move, invariant, state_size, max_moves,
                        max_decisions, params, seed, n_games, lengths):
    """Play ``n_games`` uniformly random games compiled, calling ``invariant(state)`` after the
    deal and after every move; returns (game, step, code) of the first failure or (-1, 0, 0)."""
    state = np.zeros(state_size, np.int32)
    moves = np.zeros(max_moves, np.int64)
    chance = np.zeros(4, np.uint64)
    pick = np.zeros(4, np.uint64)
    for g in range(n_games):
        seed_stream(chance, seed, g, 0)
        seed_stream(pick, seed, g, 1000)
        init(state, params, chance)
        code = invariant(state)
        if code != 0:
            return g, 0, code
        steps = 0
        while to_move(state) >= 0:
            n = legal_moves(state, moves)
            if n <= 0:
                return g, steps, -1
            for i in range(1, n):
                if moves[i] <= moves[i - 1]:
                    return g, steps, -2  # legal moves must be strictly ascending
            apply_move(state, moves[below(pick, n)], chance)
            steps += 1
            if steps > max_decisions:
                return g, steps, -3
            code = invariant(state)
            if code != 0:
                return g, steps, code
        lengths[g] = steps
    return -1, 0, 0


def heuristics(game: str) -> list:
    """The game's built-in strategies less the search (``ismcts`` has its own, cheaper no-peeking
    test in tests/test_search.py: at its default budget it would dominate the suite's time)."""
    from tourney_sim.strategies import available
    return [s for s in available(game).values() if s.name != "ismcts"]


def check_determinize_in_place(module, real: np.ndarray) -> None:
    """``determinize`` may write into the very array its views are slices of (as the search's
    own state does): the sample equals one written into a fresh array with the same stream."""
    seat = module.to_move(real)
    a = real.copy()
    module.determinize(module.public_view(a), module.private_view(a, seat), a, new_stream(1, 0, 0))
    b = np.zeros(module.STATE_SIZE, np.int32)
    module.determinize(module.public_view(real), module.private_view(real, seat), b, new_stream(1, 0, 0))
    assert np.array_equal(a, b)


def random_stepper(module):
    """``step(state, moves, pick, chance)``, compiled for ``module``'s kernel: one uniformly random
    legal move (one call site of the inlined kernel, so a test compiles it once); returns the
    number of legal moves, 0 if there were none."""
    legal_moves, apply_move = module.legal_moves, module.apply_move

    @njit
    def step(state, moves, pick, chance):
        k = legal_moves(state, moves)
        if k > 0:
            apply_move(state, moves[below(pick, k)], chance)
        return k
    return step


def view_checker(module):
    """``check(real, sample, seat)``, compiled for ``module``: 0 if ``seat`` is to move in
    ``sample`` and its public view and ``seat``'s private view equal ``real``'s; else 101 (another
    seat to move), 102 (public views differ) or 103 (private views differ)."""
    to_move, public_view, private_view = module.to_move, module.public_view, module.private_view
    public_size, private_size = module.PUBLIC_SIZE, module.PRIVATE_SIZE

    @njit
    def check(real, sample, seat):
        if to_move(sample) != seat:
            return 101
        pub_s, pub_r = public_view(sample), public_view(real)
        for i in range(public_size):
            if pub_s[i] != pub_r[i]:
                return 102
        priv_s, priv_r = private_view(sample, seat), private_view(real, seat)
        for i in range(private_size):
            if priv_s[i] != priv_r[i]:
                return 103
        return 0
    return check


def refusal(load, value) -> str:
    """The message ``load(value)`` refuses ``value`` with: a PositionError of one line."""
    from tourney_sim.simulate.games.spec import PositionError
    try:
        load(value)
    except PositionError as refused:
        message = str(refused)
        assert "\n" not in message, message
        return message
    raise AssertionError(f"accepted: {value!r}")


def random_position(spec: GameSpec, params, seed: int, game: int, steps: int) -> np.ndarray:
    """The state of seeded game ``game`` after ``steps`` random decisions (numpy's generator
    seeded ``seed * 1000 + game`` choosing them)."""
    k = KernelGame(spec, params, seed, game)
    pick = np.random.default_rng(seed * 1000 + game)
    for _ in range(steps):
        assert k.to_move() >= 0
        moves = k.legal_moves()
        k.apply(int(moves[pick.integers(len(moves))]))
    return k.state


def win_rate_z(block) -> tuple[float, float, float]:
    """(win rate of strategy 0, of strategy 1, z of their difference) in a played block: the
    two-proportion z-test, pooled."""
    wins = block.rank == 1
    mine, theirs = wins[block.strategy == 0], wins[block.strategy == 1]
    p1, p2 = mine.mean(), theirs.mean()
    pooled = (mine.sum() + theirs.sum()) / (mine.size + theirs.size)
    return p1, p2, (p1 - p2) / np.sqrt(pooled * (1 - pooled) * (1 / mine.size + 1 / theirs.size))
