"""Every registered game's notation contract, in every configuration of
tests/contract/configurations.py (what is not part of a position comes from the game's support
module, ``tests/support/<game>.py``: ``not_position``):

- every position of random games and of games of the built-in heuristics round-trips through its
  JSON text (``describe_state`` / ``load_state``): the loaded state describes itself alike and
  equals the real one outside what is not part of a position; play goes on identically from it;
- what is not a position is refused with one line: no JSON object at all, and random edits of real
  positions (an entry dropped, given junk, nudged, copied from elsewhere, moved from one list to
  another), which ``load_state`` either refuses (``PositionError``, one line, never another
  exception) or loads as a state that plays on under random moves to the end, within the move
  buffer and the decision cap, through positions that load again;
- the reference engine's chance events, recorded from its stream, are plain JSON and replay the
  game without the stream: the same legal moves at every step and the same result.

A game's own spellings, its hand-written bad positions and impossible chance outcomes are its
scenarios (tests/test_notation_<game>.py).
"""
from __future__ import annotations

import pytest

from tourney_sim import testing
from tourney_sim.simulate.games import game_names, get_game
from tourney_sim.simulate.games.spec import PositionError

from .. import harness
from ..support import for_game
from .configurations import CONFIGURATIONS, IDS

PICK_STREAM = harness.PICK_STREAM  # the random moves of a game
PLAY_ON_STREAM = testing.PLAY_ON_STREAM  # random moves after a position was loaded
#: positions of heuristic games each configuration round-trips (the slow tier)
HEURISTIC_POSITIONS = 5_000
MANGLED = 150  # edited positions a configuration tries
REPLAYED_DECISIONS = 1_500  # decisions of recorded games a configuration replays

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


through_json = testing.through_json
random_move = testing._random_move


def check_round_trip(spec, support, state, where):
    """The state loaded back from ``state``'s JSON text, checked (``testing.check_round_trip``)."""
    g, step = where if isinstance(where, tuple) else (where, None)
    return testing.check_round_trip(spec, support, state, g, step)


# ------------------------------------------------------------------ the round trip
@configurations
def test_every_position_round_trips_and_play_goes_on_identically(config):
    """At every decision and the end of random games; from one position of each game, the real
    state and the loaded one, with copies of the same chance stream and the same random choices,
    play the same legal moves and moves to the same result and the same position."""
    testing.check_round_trips(config, for_game(config.game), 63, 20)


@pytest.mark.slow
@configurations
def test_every_position_of_heuristic_games_round_trips(config):
    """Every decision and the end of games of the built-in heuristics (seated in turn, the line-up
    rotating from game to game), until HEURISTIC_POSITIONS positions."""
    testing.check_heuristic_round_trips(config, for_game(config.game), 67, HEURISTIC_POSITIONS)


# ------------------------------------------------------------------ what is not a position
@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("not_a_position", [None, [], "players: 4", 4, 1.5, True], ids=repr)
def test_what_is_no_json_object_is_refused_in_one_line(game, not_a_position):
    with pytest.raises(PositionError, match="object") as refused:  # it says a position is one
        get_game(game).load_state(not_a_position)
    assert "\n" not in str(refused.value)


JUNK, nodes, at, mangle = testing.JUNK, testing._nodes, testing._at, testing.mangle


@configurations
def test_edited_positions_are_refused_in_one_line_or_play_on_to_the_end(config):
    refused, accepted = testing.check_edited_positions(config, 68, MANGLED)
    assert refused > MANGLED // 4 and accepted > 0, (refused, accepted)


# ------------------------------------------------------------------ chance events
@configurations
def test_recorded_chance_events_replay_the_game_without_the_stream(config):
    """Random games of the reference engine on its chance stream, recording the events, until
    REPLAYED_DECISIONS decisions (at least 3 games: a Partners game is some 400 decisions)."""
    testing.check_chance_replay(config, 69, REPLAYED_DECISIONS, least_games=3)
