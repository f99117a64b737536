"""Every registered game's contract (like OpenSpiel's games_sim_test and pgx's api_test): the
library's ``tourney_sim.testing.check_game(name)`` over every registered game (the whole contract
at its default size: differential, invariants, replay and ``tourney check``, notation, hidden
information, dealt counts, component tables), and its parts at the suite's own sizes, in every
configuration the registry gives (tests/contract/configurations.py). A game's own rules are
checked by its scenario tests (tests/test_<game>.py and beside it); here, only what every game
promises the engine, the strategies and the search:

- the compiled kernel is the readable reference engine (``spec.reference``), move for move, and
  both spell every legal move alike;
- random games keep the engine's invariants (a seat to move or the end, legal moves present,
  ascending and within the move buffer, the decision cap, a well-formed result).

Positions and chance events in words and JSON are tests/contract/test_notation.py; what a seat
cannot see (the game's invariant, the determinization, no peeking) is tests/contract/test_hidden.py.
"""
from __future__ import annotations

import pytest

from tourney_sim.simulate.games import game_names
from tourney_sim.testing import check_engine_invariants, check_game, check_differential, check_result

from .. import harness
from ..goldens import golden_files, read
from ..support import for_game
from .configurations import CONFIGURATIONS, IDS

__all__ = ["check_result"]  # tests/contract/tables.py reads it from here

PICK_STREAM = harness.PICK_STREAM  # the random moves of a game

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


# ------------------------------------------------------------------ the library's check, per game
@pytest.mark.parametrize("game", game_names())
def test_check_game(game):
    """The contract as a game outside the tree runs it on itself (``check_game``), with the game's
    test support module and its golden games; it raises ContractFailure listing every failure."""
    goldens = [p for p in golden_files() if read(p)["game"] == game]
    # 2 random games per configuration and check, not the default 5: every check runs (the counts
    # below), and the tests of this folder play each at depth (Partners 29 s -> 7 s)
    report = check_game(game, games=2, support=for_game(game), goldens=goldens)
    assert report.ok and not report.skipped or report.skipped == ["components: the game declares none"], \
        report.summary()
    assert report.counts["differential"]["decisions"] > 0 and report.counts["hidden"], report.summary()


# ------------------------------------------------------------------ the reference engine
@configurations
def test_kernel_is_the_reference_engine_and_both_spell_moves_alike(config):
    """Random games side by side (seeds 6100, 6101, ...: game 0 of each) until 2,000 decisions
    were checked, and every game to its end."""
    check_differential(config, 6100, 2000)


# ------------------------------------------------------------------ invariants of random games
@configurations
def test_random_games_keep_the_engine_invariants(config):
    """200 random games (seed 62)."""
    check_engine_invariants(config, 62, 200)


def test_check_game_refuses_counts_it_cannot_play():
    """A count of games below 1 (or of variations below 0) is one clear error, never a silent
    default."""
    for kw, message in (({"games": 0}, "games must be a whole number of at least 1, got 0"),
                        ({"games": -3}, "got -3"), ({"examples": -1}, "examples must be a whole number of at least 0")):
        with pytest.raises(ValueError, match=message):
            check_game("cardavia", **kw)
