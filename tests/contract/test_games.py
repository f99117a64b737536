"""Every registered game's contract (like OpenSpiel's games_sim_test and pgx's api_test): the same
checks for each game, in every configuration the registry gives (tests/contract/configurations.py).
A game's own rules are checked by its scenario tests (tests/test_<game>.py and beside it); here,
only what every game promises the engine, the strategies and the search:

- the compiled kernel is the readable reference engine (``spec.reference``), move for move, and
  both spell every legal move alike;
- random games keep the engine's invariants (a seat to move or the end, legal moves present,
  ascending and within the move buffer, the decision cap, a well-formed result);
- every position round-trips through its notation (``describe_state`` / ``load_state``), and
  play goes on identically from a loaded position;
- ``determinize`` samples a state consistent with what the seat to move knows (its views
  unchanged, the real state untouched) that plays on to an end, also when written in place.
"""
from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from tourney_sim.simulate.seeding import PyStream, new_stream
from tourney_sim.simulate.stepper import KernelGame

from .. import harness
from .configurations import CONFIGURATIONS, IDS

PICK_STREAM = harness.PICK_STREAM  # the random moves of a game
PLAY_ON_STREAM = 2000  # random moves after a position was loaded or sampled
DET_STREAM = 3000  # the determinization's own stream
CHANCE_STREAM = 4000  # the chance events of a sample played on

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


@functools.cache
def compiled_checks(game: str):
    """The view checker and the random stepper compiled for one game's kernel, once per game."""
    from tourney_sim.simulate.games import get_game
    m = get_game(game).module
    return harness.view_checker(m), harness.random_stepper(m)


def random_move(game, pick: PyStream) -> int:
    moves = game.legal_moves()
    return moves[pick.below(len(moves))]


# ------------------------------------------------------------------ the reference engine
@configurations
def test_kernel_is_the_reference_engine_and_both_spell_moves_alike(config):
    """Random games side by side (seeds 6100, 6101, ...: game 0 of each) until 2,000 decisions
    were checked, and every game to its end."""
    spec = config.spec
    decisions = games = 0
    while decisions < 2000:
        decisions += harness.differential(spec, spec.reference, config.params, seed=6100 + games, games=1,
                                          spell=True)
        games += 1


# ------------------------------------------------------------------ invariants of random games
def check_result(spec, players: int, result) -> None:
    scores, ranks, extras = result
    seats = spec.result_seats(players)
    assert len(scores) == len(ranks) == len(extras) == seats
    assert all(len(row) == len(spec.columns) for row in extras)
    assert min(ranks) == 1 and all(1 <= r <= seats for r in ranks), ranks
    # rank r: r - 1 places (seats, or teams in a team game) rank strictly better
    def place(s):
        return spec.team_of(s, players) if s < players else s
    for r in ranks:
        assert len({place(s) for s, other in enumerate(ranks) if other < r}) == r - 1, ranks
    if spec.team_game:  # partners share their team's score and rank
        for s in range(players):
            partner = next(p for p in range(players) if p != s and spec.team_of(p, players) == spec.team_of(s, players))
            assert (scores[s], ranks[s]) == (scores[partner], ranks[partner])


@configurations
def test_random_games_keep_the_engine_invariants(config):
    spec, players = config.spec, config.players
    for g in range(200):
        k = KernelGame(spec, config.params, 62, g)
        pick = PyStream(62, g, PICK_STREAM)
        steps = 0
        while (seat := k.to_move()) >= 0:
            assert seat < players, (g, steps, seat)
            moves = k.legal_moves()
            assert 0 < len(moves) <= spec.max_moves, (g, steps, len(moves))
            assert all(a < b for a, b in zip(moves, moves[1:])), (g, steps, moves)
            k.apply(moves[pick.below(len(moves))])
            steps += 1
            assert steps <= spec.max_decisions, g
        check_result(spec, players, k.result())


# ------------------------------------------------------------------ notation
def through_json(spec, state: np.ndarray) -> np.ndarray:
    """The state of the position ``state`` is in, written as JSON text and read back."""
    return spec.load_state(json.loads(json.dumps(spec.describe_state(state))))


@configurations
def test_every_position_round_trips_and_play_goes_on_identically(config):
    """At every decision and the end of random games: the position loaded back from its JSON text
    is a kernel state of the same position (it describes itself alike); from one position of
    each game, the real state and the loaded one, with copies of the same chance stream and the
    same random choices, play the same legal moves and moves to the same result."""
    spec = config.spec
    for g in range(20):
        k = KernelGame(spec, config.params, 63, g)
        pick = PyStream(63, g, PICK_STREAM)
        stop = PyStream(63, g, PLAY_ON_STREAM + 1).below(60)
        steps = 0
        while True:
            described = spec.describe_state(k.state)
            loaded = through_json(spec, k.state)
            assert loaded.dtype == np.int32 and loaded.shape == (spec.state_size,)
            assert spec.describe_state(loaded) == described, (g, steps)
            if k.to_move() < 0 or steps == stop:
                break
            k.apply(random_move(k, pick))
            steps += 1
        real, twin = k.copy(), k.copy()
        twin.state[:] = loaded
        assert (harness.play_on(real, PyStream(63, g, PLAY_ON_STREAM))
                == harness.play_on(twin, PyStream(63, g, PLAY_ON_STREAM))), (g, steps)
        assert real.result() == twin.result(), g
        assert spec.describe_state(real.state) == spec.describe_state(twin.state), g


# ------------------------------------------------------------------ determinization
@pytest.mark.slow
@configurations
def test_determinize_samples_what_the_seat_may_believe_and_the_sample_plays_on(config):
    """At every decision of random games: ``determinize`` from the views of the seat to move
    leaves the real state untouched and returns a state in which the same seat is to move with
    the same public view and the same private view; the sample then plays to an end with random
    legal moves and a fresh chance stream, within the decision cap. Writing the sample into the
    array the views are slices of gives the same sample."""
    spec = config.spec
    m = spec.module
    agree, step = compiled_checks(config.game)
    moves = np.zeros(spec.max_moves, np.int64)
    hidden_drawn = 0
    for g in range(15):
        k = KernelGame(spec, config.params, 64, g)
        pick = PyStream(64, g, PICK_STREAM)
        det = new_stream(64, g, DET_STREAM)
        while (seat := k.to_move()) >= 0:
            real = k.state.copy()
            sample = np.zeros(spec.state_size, np.int32)
            hidden = m.determinize(m.public_view(k.state), m.private_view(k.state, seat), sample, det)
            assert hidden >= 0, (g, hidden)
            hidden_drawn += hidden
            assert np.array_equal(k.state, real), g  # determinize only reads the views
            assert agree(real, sample, seat) == 0, (g, agree(real, sample, seat))
            chance, choices = new_stream(64, g, CHANCE_STREAM), new_stream(64, g, PLAY_ON_STREAM)
            steps = 0
            while m.to_move(sample) >= 0:
                assert step(sample, moves, choices, chance) > 0, (g, steps)
                steps += 1
                assert steps <= spec.max_decisions, g
            harness.check_determinize_in_place(m, real)
            k.apply(random_move(k, pick))
    assert hidden_drawn > 0  # hidden information was sampled, not only copied
