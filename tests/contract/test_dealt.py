"""What each seat was dealt, the contract every game keeps (issue 31): the rules declare
``DEALT_KINDS`` and count, in the scratch piece ``S_DEALT`` (result seats x kinds), what each result
seat was dealt or drew; the counts are exactly what the reference engine's chance events gave
each seat (every deal, draw and token, read by the game's ``tests/support/<game>.py``
``dealt_by_chance``), and the compiled loop writes the same counts as the stepper."""
from __future__ import annotations

import numpy as np
import pytest

from tourney_sim import testing

from ..support import for_game
from .configurations import CONFIGURATIONS, IDS

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


def traced_counts(config, history: list[dict]) -> np.ndarray:
    """Counts per (result seat, kind) of what the chance events of ``history`` gave each seat."""
    return testing.traced_counts(config, for_game(config.game), history)


@configurations
def test_the_game_declares_what_it_counts(config):
    testing.check_dealt_declared(config)


@configurations
def test_the_counts_are_what_the_chance_events_dealt(config):
    """Random games (seeds 700..702): each result seat's counts at the end are exactly the cards
    and tokens the recorded chance events gave it, kind by kind."""
    testing.check_dealt_counts(config, for_game(config.game), range(700, 703))


@configurations
def test_the_chunk_writes_what_the_stepper_counts(config):
    """play_games' ``out_dealt`` (the rows of a run recording ``dealt``) is the stepper's count at
    the end of the same games."""
    testing.check_dealt_chunk(config, 41, 3)
