"""Checks the contract (tests/contract/) and each game's tests share (like pgx's api_test):
reference comparison, random play-throughs under an invariant, compiled random steps and view
checks, determinizing in place. The game-independent ones are the library's
(``tourney_sim.testing``, the parts of ``check_game``), named here for the tests that use them."""
from __future__ import annotations

import numpy as np

from tourney_sim import testing
from tourney_sim.simulate.games.spec import GameSpec
from tourney_sim.simulate.seeding import PyStream  # noqa: F401 (tests import it from here)
from tourney_sim.simulate.stepper import KernelGame

PICK_STREAM = testing.PICK_STREAM  # the test's own stream for choosing random moves

# the game-independent checks live in the library (tourney_sim.testing, check_game's parts)
differential = testing.differential
play_on = testing.play_on
random_playthroughs = testing.random_playthroughs
heuristics = testing.heuristics
check_determinize_in_place = testing.check_determinize_in_place
random_stepper = testing.random_stepper
view_checker = testing.view_checker


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
