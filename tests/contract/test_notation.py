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

import copy
import json
import random

import numpy as np
import pytest

from tourney_sim.simulate.games import game_names, get_game
from tourney_sim.simulate.games.chance import ScriptedChance, StreamChance
from tourney_sim.simulate.games.spec import PositionError
from tourney_sim.simulate.seeding import PyStream
from tourney_sim.simulate.stepper import KernelGame

from .. import harness
from ..support import for_game
from .configurations import CONFIGURATIONS, IDS

PICK_STREAM = harness.PICK_STREAM  # the random moves of a game
PLAY_ON_STREAM = 2000  # random moves after a position was loaded
#: positions of heuristic games each configuration round-trips (the slow tier)
HEURISTIC_POSITIONS = 5_000
MANGLED = 150  # edited positions a configuration tries
REPLAYED_DECISIONS = 1_500  # decisions of recorded games a configuration replays

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


def through_json(spec, state: np.ndarray) -> np.ndarray:
    """The state of the position ``state`` is in, written as JSON text and read back."""
    return spec.load_state(json.loads(json.dumps(spec.describe_state(state))))


def check_round_trip(spec, support, state: np.ndarray, where) -> np.ndarray:
    """The state loaded back from ``state``'s JSON text, checked: a kernel state describing itself
    alike, equal to ``state`` outside what is not part of a position."""
    loaded = through_json(spec, state)
    assert loaded.dtype == np.int32 and loaded.shape == (spec.state_size,), where
    assert spec.describe_state(loaded) == spec.describe_state(state), where
    differ = (loaded != state) & ~support.not_position(state)
    assert not differ.any(), (where, np.flatnonzero(differ)[:10].tolist())
    return loaded


def random_move(game, pick: PyStream) -> int:
    moves = game.legal_moves()
    return moves[pick.below(len(moves))]


# ------------------------------------------------------------------ the round trip
@configurations
def test_every_position_round_trips_and_play_goes_on_identically(config):
    """At every decision and the end of random games; from one position of each game, the real
    state and the loaded one, with copies of the same chance stream and the same random choices,
    play the same legal moves and moves to the same result and the same position."""
    spec, support = config.spec, for_game(config.game)
    for g in range(20):
        k = KernelGame(spec, config.params, 63, g)
        pick = PyStream(63, g, PICK_STREAM)
        stop = PyStream(63, g, PLAY_ON_STREAM + 1).below(60)
        steps = 0
        while True:
            loaded = check_round_trip(spec, support, k.state, (g, steps))
            if k.to_move() < 0 or steps == stop:
                break
            k.apply(random_move(k, pick))
            steps += 1
        real, twin = k.copy(), k.copy()
        twin.state[:] = loaded
        assert (harness.play_on(real, PyStream(63, g, PLAY_ON_STREAM))
                == harness.play_on(twin, PyStream(63, g, PLAY_ON_STREAM))), (g, steps)
        assert real.result() == twin.result(), g
        check_round_trip(spec, support, twin.state, g)
        assert spec.describe_state(real.state) == spec.describe_state(twin.state), g


@pytest.mark.slow
@configurations
def test_every_position_of_heuristic_games_round_trips(config):
    """Every decision and the end of games of the built-in heuristics (seated in turn, the line-up
    rotating from game to game), until HEURISTIC_POSITIONS positions."""
    spec, support = config.spec, for_game(config.game)
    heuristics = harness.heuristics(config.game)
    positions = g = 0
    while positions < HEURISTIC_POSITIONS:
        k = KernelGame(spec, config.params, 67, g)
        lineup = [heuristics[(g + s) % len(heuristics)] for s in range(config.players)]
        while True:
            check_round_trip(spec, support, k.state, (g, positions))
            positions += 1
            if k.to_move() < 0:
                break
            k.apply(k.choose(lineup[k.to_move()]))
        g += 1


# ------------------------------------------------------------------ what is not a position
@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("not_a_position", [None, [], "players: 4", 4, 1.5, True], ids=repr)
def test_what_is_no_json_object_is_refused_in_one_line(game, not_a_position):
    with pytest.raises(PositionError, match="object") as refused:  # it says a position is one
        get_game(game).load_state(not_a_position)
    assert "\n" not in str(refused.value)


#: what an edit puts in place of a value
JUNK = [None, -1, 0, 1, 99, 2 ** 40, "red", True, 1.5, [], {}, [None], {"value": 1}]


def nodes(value, path=()):
    """(path, value) of every entry of a JSON value, depth first (the value itself first)."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from nodes(item, path + (i,))


def at(value, path):
    for key in path:
        value = value[key]
    return value


def mangle(position: dict, rng: random.Random) -> dict:
    """A copy of ``position`` with one random edit anywhere in it: an entry dropped, given junk,
    a number nudged, an entry given another's value, or a list's entry moved to another list.
    Nothing of the game is known here: it is the position's JSON that is edited."""
    edited = copy.deepcopy(position)
    entries = [(path, value) for path, value in nodes(edited) if path]
    path, value = entries[rng.randrange(len(entries))]
    parent, key = at(edited, path[:-1]), path[-1]
    kind = rng.randrange(5)
    if kind == 0:
        del parent[key]
    elif kind == 1:
        parent[key] = copy.deepcopy(rng.choice(JUNK))
    elif kind == 2 and type(value) is int:
        parent[key] = value + rng.choice((-1, 1))
    elif kind == 3:
        parent[key] = copy.deepcopy(entries[rng.randrange(len(entries))][1])
    else:
        lists = [p for p, v in nodes(edited) if isinstance(v, list)]
        full = [p for p in lists if at(edited, p)]
        if full:
            source, target = at(edited, rng.choice(full)), at(edited, rng.choice(lists))
            target.append(source.pop(rng.randrange(len(source))))
    return edited


@configurations
def test_edited_positions_are_refused_in_one_line_or_play_on_to_the_end(config):
    spec = config.spec
    rng = random.Random(str(config))
    refused = accepted = 0
    for i in range(MANGLED):
        k = KernelGame(spec, config.params, 68, i)
        pick = PyStream(68, i, PICK_STREAM)
        for _ in range(rng.randrange(60)):
            if k.to_move() < 0:
                break
            k.apply(random_move(k, pick))
        edited = mangle(spec.describe_state(k.state), rng)
        try:
            state = spec.load_state(edited)
        except PositionError as refusal:
            assert "\n" not in str(refusal), refusal
            refused += 1
            continue
        accepted += 1
        k.state[:] = state
        spec.load_state(spec.describe_state(k.state))
        choices = PyStream(68, i, PLAY_ON_STREAM)
        steps = 0
        while k.to_move() >= 0:
            moves = k.legal_moves()
            assert 0 < len(moves) <= spec.max_moves and moves == sorted(set(moves)), (i, steps)
            k.apply(moves[choices.below(len(moves))])
            steps += 1
            assert steps <= spec.max_decisions, i
            if steps % 4 == 0:
                spec.load_state(spec.describe_state(k.state))
        spec.load_state(spec.describe_state(k.state))
    assert refused > MANGLED // 4 and accepted > 0, (refused, accepted)


# ------------------------------------------------------------------ chance events
@configurations
def test_recorded_chance_events_replay_the_game_without_the_stream(config):
    """Random games of the reference engine on its chance stream, recording the events, until
    REPLAYED_DECISIONS decisions (at least 3 games: a Partners game is some 400 decisions)."""
    reference = config.spec.reference
    decisions = g = 0
    while decisions < REPLAYED_DECISIONS or g < 3:
        events = []
        recorded = reference.Game(config.params, StreamChance(PyStream(69, g, 0), record=events))
        pick = PyStream(69, g, PICK_STREAM)
        history = []
        while recorded.to_move() >= 0:
            moves = list(recorded.legal_moves())
            history.append((moves, moves[pick.below(len(moves))]))
            recorded.apply(history[-1][1])
        assert events, g  # the deal, at least, is a chance event
        written = json.loads(json.dumps(events))
        assert written == events, g
        replayed = reference.Game(config.params, ScriptedChance.from_events(written))
        for step, (moves, move) in enumerate(history):
            assert list(replayed.legal_moves()) == moves, (g, step)
            replayed.apply(move)
        assert replayed.to_move() < 0 and replayed.result() == recorded.result(), g
        decisions += len(history)
        g += 1
