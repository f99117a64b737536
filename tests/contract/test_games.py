"""Every registered game's contract (like OpenSpiel's games_sim_test and pgx's api_test): the same
checks for each game, in every configuration the registry gives (tests/contract/configurations.py).
A game's own rules are checked by its scenario tests (tests/test_<game>.py and beside it); here,
only what every game promises the engine, the strategies and the search:

- the compiled kernel is the readable reference engine (``spec.reference``), move for move, and
  both spell every legal move alike;
- random games keep the engine's invariants (a seat to move or the end, legal moves present,
  ascending and within the move buffer, the decision cap, a well-formed result).

Positions and chance events in words and JSON are tests/contract/test_notation.py; what a seat
cannot see (the game's invariant, the determinization, no peeking) is tests/contract/test_hidden.py.
"""
from __future__ import annotations

import pytest

from tourney_sim.simulate.seeding import PyStream
from tourney_sim.simulate.stepper import KernelGame

from .. import harness
from .configurations import CONFIGURATIONS, IDS

PICK_STREAM = harness.PICK_STREAM  # the random moves of a game

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


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
