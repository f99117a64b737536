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

import pytest

from tourney_sim import testing

from .. import harness
from ..support import for_game
from .configurations import CONFIGURATIONS, IDS

PICK_STREAM = harness.PICK_STREAM  # the random moves of a game
DET_STREAM = testing.DET_STREAM  # the determinization's own stream
PLAY_ON_STREAM = testing.PLAY_ON_STREAM  # random moves of a sample played on
CHANCE_STREAM = testing.SAMPLE_CHANCE_STREAM  # the chance events of a sample played on
#: random games and determinized positions (decisions) each configuration's compiled runs check
RANDOM_GAMES = 20_000
SAMPLED_POSITIONS = 20_000
#: positions the Python-level checks (garbage outside the views) visit per configuration
SCRAMBLED_POSITIONS = 2000

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


def sampling_run(game: str):
    """The library's compiled sampling run (``tourney_sim.testing.sampling_run``) for ``game``
    with its test support module's ``invariant`` and ``sample_check``."""
    return testing.sampling_run(game, for_game(game))


@pytest.mark.slow
@configurations
def test_random_games_keep_the_game_invariant(config):
    testing.check_game_invariant(config, for_game(config.game), 3, RANDOM_GAMES)


@pytest.mark.slow
@configurations
def test_determinize_samples_what_the_seat_may_believe_and_the_sample_plays_on(config):
    """A draw, not a copy: positions with nothing hidden left (last cards) or one possible split
    are few (the other hands differ from the real ones in over half the samples)."""
    testing.check_determinize_samples(config, for_game(config.game), 64, SAMPLED_POSITIONS)


play_to_decisions = testing.play_to_decisions


@configurations
def test_determinize_reads_only_the_views_and_its_stream(config):
    """The same stream gives the same sample from the real state, from the real state with
    everything outside the seat's views garbage, and written over garbage or into the real state
    itself; and the stream ends in the same place each time. The real state is left untouched."""
    testing.check_determinize_reads_views(config, 65, SCRAMBLED_POSITIONS)


@configurations
def test_no_heuristic_peeks(config):
    """Every built-in heuristic chooses the same move from the real state and from one with
    everything outside the seat's views garbage (its own copy of the same seat stream each time)."""
    testing.check_no_peeking(config, 66, SCRAMBLED_POSITIONS)
