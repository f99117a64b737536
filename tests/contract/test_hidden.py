"""Every registered game's contract about what a seat cannot see, in every configuration of
tests/contract/configurations.py; the game's own state invariant comes from its support module
(``tests/support/<game>.py``: ``invariant`` and ``sample_check``):

- random games keep the game's invariant after the deal and every move;
- ``determinize`` from the views of the seat to move samples a state that seat may believe: the
  same seat to move, the same public and private views, the game's invariant (every card in one
  place: the hidden cards are drawn from the pool the seat cannot see) and the game's own
  ``sample_check`` (hand sizes, the seat's own hand, ...), and it plays on to an end
  within the decision cap, keeping the invariant; the other seats' hands are drawn, not copied;
- ``determinize`` reads nothing but the two views and its stream: with everything else garbage,
  and over any old contents of its output, the same stream gives the same sample and leaves the
  stream in the same place (reproducible), also when written into the array the views are of;
- no peeking: every built-in heuristic makes the same choice with everything but its views
  garbage (the search has its own, costlier check in tests/test_search.py).
"""
from __future__ import annotations

import functools

import numpy as np
import pytest
from numba import njit

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.seeding import PyStream, new_stream, seed_stream
from tourney_sim.simulate.stepper import KernelGame

from .. import harness
from ..support import for_game
from ..support.views import scrambled
from .configurations import CONFIGURATIONS, IDS

PICK_STREAM = harness.PICK_STREAM  # the random moves of a game
DET_STREAM = 3000  # the determinization's own stream
PLAY_ON_STREAM = 2000  # random moves of a sample played on
CHANCE_STREAM = 4000  # the chance events of a sample played on
#: random games and determinized positions (decisions) each configuration's compiled runs check
RANDOM_GAMES = 20_000
SAMPLED_POSITIONS = 20_000
#: positions the Python-level checks (garbage outside the views) visit per configuration
SCRAMBLED_POSITIONS = 2000

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


@functools.cache
def sampling_run(game: str):
    """``run(real, chance, players, seed, g, out)`` compiled for one game: game ``g`` played at
    random from its deal ``real`` (later chance events from ``chance``); at every decision a
    determinization from the mover's views is checked and played on to its end. ``out``
    accumulates [positions, samples whose other hands differ from the real ones, hidden items
    drawn from, play-on decisions]. Returns (step, code) of the first failure or (-1, 0): code
    101-103 the views (harness.view_checker), 100 + the invariant's code for the sample, 200 +
    it at the sample's end, 400 + ``sample_check``'s code, 300 determinize refused, 301 no
    legal move, 302 past the cap."""
    spec = get_game(game)
    m = spec.module
    support = for_game(game)
    invariant, sample_check = support.invariant, support.sample_check
    agree, step = harness.view_checker(m), harness.random_stepper(m)
    to_move, determinize, public_view, private_view = m.to_move, m.determinize, m.public_view, m.private_view
    state_size, private_size, max_moves, cap = spec.state_size, m.PRIVATE_SIZE, spec.max_moves, spec.max_decisions

    @njit
    def run(real, chance, players, seed, g, out):
        sample = np.zeros(state_size, np.int32)
        moves = np.zeros(max_moves, np.int64)
        pick = np.zeros(4, np.uint64)
        det = np.zeros(4, np.uint64)
        play_pick = np.zeros(4, np.uint64)
        play_chance = np.zeros(4, np.uint64)
        seed_stream(pick, seed, g, PICK_STREAM)
        seed_stream(det, seed, g, DET_STREAM)
        seed_stream(play_pick, seed, g, PLAY_ON_STREAM)
        seed_stream(play_chance, seed, g, CHANCE_STREAM)
        n = 0
        while to_move(real) >= 0:
            seat = to_move(real)
            hidden = determinize(public_view(real), private_view(real, seat), sample, det)
            if hidden < 0:
                return n, 300
            code = agree(real, sample, seat)
            if code != 0:
                return n, code
            code = invariant(sample)
            if code != 0:
                return n, 100 + code
            code = sample_check(real, sample, seat)
            if code != 0:
                return n, 400 + code
            differs = False
            for p in range(players):
                if p != seat:
                    a, b = private_view(real, p), private_view(sample, p)
                    for i in range(private_size):
                        differs |= a[i] != b[i]
            out[0] += 1
            out[1] += differs
            out[2] += hidden
            steps = 0
            while to_move(sample) >= 0:
                if step(sample, moves, play_pick, play_chance) == 0:
                    return n, 301
                steps += 1
                if steps > cap:
                    return n, 302
            code = invariant(sample)
            if code != 0:
                return n, 200 + code
            out[3] += steps
            step(real, moves, pick, chance)
            n += 1
        return -1, 0
    return run


@pytest.mark.slow
@configurations
def test_random_games_keep_the_game_invariant(config):
    spec, m = config.spec, config.spec.module
    lengths = np.zeros(RANDOM_GAMES, np.int64)
    failure = harness.random_playthroughs(
        m.init, m.to_move, m.legal_moves, m.apply_move, for_game(config.game).invariant, spec.state_size,
        spec.max_moves, spec.max_decisions, config.params, np.uint64(3), RANDOM_GAMES, lengths)
    assert failure == (-1, 0, 0), failure  # (game, step, the invariant's code)
    assert lengths.min() > 0


@pytest.mark.slow
@configurations
def test_determinize_samples_what_the_seat_may_believe_and_the_sample_plays_on(config):
    run = sampling_run(config.game)
    out = np.zeros(4, np.int64)
    g = 0
    while out[0] < SAMPLED_POSITIONS:
        k = KernelGame(config.spec, config.params, 64, g)
        failure = run(k.state, k.chance, config.players, np.uint64(64), g, out)
        assert failure == (-1, 0), (g, failure)
        g += 1
    positions, differ, hidden, played = out
    assert hidden > 0 and played > 0  # hidden information was sampled, and samples were played on
    # a draw, not a copy: positions with nothing hidden left (last cards) or one possible
    # split are few
    assert differ > 0.5 * positions, out


def play_to_decisions(config, seed: int, positions: int):
    """Yield (game, KernelGame) at every decision of random games until ``positions`` decisions."""
    seen = g = 0
    while seen < positions:
        k = KernelGame(config.spec, config.params, seed, g)
        pick = PyStream(seed, g, PICK_STREAM)
        while k.to_move() >= 0 and seen < positions:
            yield g, k
            seen += 1
            moves = k.legal_moves()
            k.apply(moves[pick.below(len(moves))])
        g += 1


@configurations
def test_determinize_reads_only_the_views_and_its_stream(config):
    """The same stream gives the same sample from the real state, from the real state with
    everything outside the seat's views garbage, and written over garbage or into the real state
    itself; and the stream ends in the same place each time. The real state is left untouched."""
    m = config.spec.module
    garbage = np.random.default_rng(11)
    drew = 0
    for i, (g, k) in enumerate(play_to_decisions(config, 65, SCRAMBLED_POSITIONS)):
        seat = k.to_move()
        real = k.state.copy()
        samples = []
        for state, out in ((k.state, np.zeros_like(k.state)),
                           (k.state, garbage.integers(-9, 99, k.state.size).astype(np.int32)),
                           (scrambled(m, k.state, seat, garbage), k.state.copy())):
            rng = new_stream(65, i, DET_STREAM)
            assert m.determinize(m.public_view(state), m.private_view(state, seat), out, rng) >= 0, (g, i)
            samples.append((out, rng))
        assert np.array_equal(k.state, real), (g, i)  # determinize only reads the views
        for out, rng in samples[1:]:
            assert np.array_equal(out, samples[0][0]), (g, i)
            assert np.array_equal(rng, samples[0][1]), (g, i)  # the same draws were made
        drew += not np.array_equal(new_stream(65, i, DET_STREAM), samples[0][1])
        harness.check_determinize_in_place(m, k.state)
    assert drew > 0  # the stream was used: samples were drawn, not only copied


@configurations
def test_no_heuristic_peeks(config):
    """Every built-in heuristic chooses the same move from the real state and from one with
    everything outside the seat's views garbage (its own copy of the same seat stream each time)."""
    m = config.spec.module
    strategies = harness.heuristics(config.game)
    assert strategies, config.game
    garbage = np.random.default_rng(12)
    moves = np.zeros(config.spec.max_moves, np.int64)
    for g, k in play_to_decisions(config, 66, SCRAMBLED_POSITIONS):
        seat = k.to_move()
        other = scrambled(m, k.state, seat, garbage)
        n = m.legal_moves(k.state, moves)
        for strategy in strategies:
            choices = [strategy.fn(m.public_view(state), m.private_view(state, seat), moves, n,
                                   k.seat_rng[seat].copy(), strategy.param_row()) for state in (k.state, other)]
            assert choices[0] == choices[1], (g, strategy.name, choices)
