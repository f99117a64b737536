"""What each seat was dealt, the contract every game keeps (issue 31): the rules declare
``DEALT_KINDS`` and count, in the scratch piece ``S_DEALT`` (result seats x kinds), what each result
seat was dealt or drew; the counts are exactly what the reference engine's chance events gave
each seat (every deal, draw and token, read by the game's ``tests/support/<game>.py``
``dealt_by_chance``), and the compiled loop writes the same counts as the stepper."""
from __future__ import annotations

import numpy as np
import pytest

from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.replay import record_game
from tourney_sim.simulate.stepper import KernelGame

from ..support import for_game
from .configurations import CONFIGURATIONS, IDS

configurations = pytest.mark.parametrize("config", CONFIGURATIONS, ids=IDS)


def traced_counts(config, history: list[dict]) -> np.ndarray:
    """Counts per (result seat, kind) of what the chance events of ``history`` gave each seat."""
    spec = config.spec
    counts = np.zeros((spec.result_seats(config.players), len(spec.dealt_kinds)), np.int64)
    index = {name: k for k, name in enumerate(spec.dealt_kinds)}
    read = for_game(spec.name).dealt_by_chance
    for entry in history:
        if "chance" in entry:
            (kind, outcome), = entry["chance"].items()
            for seat, name in read(kind, outcome):
                counts[seat, index[name]] += 1
    return counts


@configurations
def test_the_game_declares_what_it_counts(config):
    spec = config.spec
    kinds = spec.dealt_kinds
    assert kinds and len(set(kinds)) == len(kinds) and all(isinstance(k, str) and k for k in kinds)
    piece = next(p for p in spec.module.LAYOUT.pieces("scratch") if p.name == "S_DEALT")
    assert len(piece.shape) == 2 and piece.shape[1] == len(kinds)
    assert piece.shape[0] >= spec.result_seats(config.players)


@configurations
def test_the_counts_are_what_the_chance_events_dealt(config):
    """Random games (seeds 700..702): each result seat's counts at the end are exactly the cards
    and tokens the recorded chance events gave it, kind by kind."""
    for seed in range(700, 703):
        rng = np.random.default_rng(seed)
        history, k = record_game(config.spec, config.params, seed, 0, lambda g: int(rng.choice(g.legal_moves())))
        traced = traced_counts(config, history)
        assert traced.sum() > 0
        assert k.dealt() == traced.tolist(), f"seed {seed}"


@configurations
def test_the_chunk_writes_what_the_stepper_counts(config):
    """play_games' ``out_dealt`` (the rows of a run recording ``dealt``) is the stepper's count at
    the end of the same games."""
    spec = config.spec
    m = make_matchup(spec.name, config.players, ["random"], seed=41, options=dict(config.changed),
                     record=("dealt",))
    block = play_block(m, 0, 3)
    assert block.dealt.shape == (3, m.result_seats, len(spec.dealt_kinds)) and block.dealt.dtype == np.uint16
    for g in range(3):
        k = KernelGame(spec, m.params, m.seed, g)
        while k.to_move() >= 0:
            k.apply(k.choose(m.strategies[0]))
        assert k.dealt() == block.dealt[g].tolist()
    plain = play_block(make_matchup(spec.name, config.players, ["random"], seed=41,
                                    options=dict(config.changed)), 0, 3)
    assert plain.dealt.shape == (3, m.result_seats, 0)
    assert np.array_equal(plain.score, block.score) and np.array_equal(plain.extra, block.extra)
