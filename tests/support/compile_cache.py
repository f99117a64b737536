"""Compile each game's kernels into the numba cache once, before the test workers start.

Every built-in game compiles its chunk kernel and its heuristics (each compiled for the strategy
signature when first imported: Colleagues 64 s, of which 5-13 s a heuristic) and, when a test
steps a game with it, the search's own entry (Colleagues 42 s): 36-114 s a game in all, one
after another, on this 2-core machine. Both test workers, and every CLI test's
subprocess, met the same cold cache at once and compiled the same functions side by side: the
suite took 1,020 s from a cold cache, 670 s from a warm one, and 810 s with this first (150 s
of it here). ``tests/conftest.py`` runs it in the main process only, for a run of whole folders,
two games at a time (``python -m tests.support.compile_cache GAME``, each game a process); with
the cache warm it only loads (a few seconds). Tests that need a cold compile of their own set
``TOURNEY_CACHE_DIR`` themselves.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def compile_game(game: str) -> None:
    """Play one game of ``game`` through its chunk kernel and one stepped from Python, each
    decision by the next of its strategies in turn (each compiles its own entry, the search and
    the apprentice's features with them).
    The search's values of a decision (what ``tourney train`` labels with) only for the games the
    tests label (:data:`LABELLED_IN_TESTS`)."""
    from tourney_sim.simulate.games import get_game
    from tourney_sim.simulate.matchup import make_matchup, play_block
    from tourney_sim.simulate.stepper import KernelGame
    from tourney_sim.strategies import available

    spec = get_game(game)
    players = spec.default_players
    m = make_matchup(game, players, ["random"], seed=1)
    play_block(m, 0, 1)
    strategies = list(available(game).values())
    k = KernelGame(spec, m.params, 1, 0)
    i = 0
    while k.to_move() >= 0 and i < len(strategies) * 3:
        k.apply(k.choose(strategies[i % len(strategies)]))
        i += 1
    while k.to_move() >= 0:
        k.apply(k.choose(strategies[0]))
    k.result()
    if game in LABELLED_IN_TESTS:
        label_one_decision(game, m)


#: The games whose search labels decisions in the tests (training, the strong level of a design
#: or study run): its values (``ismcts_values``) compile once here, not in each test worker,
#: Dask worker and subprocess that met a cold cache at the same time (cold CI: the Dask design
#: test 66 s against 12 s warm, the CLI fuzz's setup 50 s against 36 s).
LABELLED_IN_TESTS = ("companeros", "cardavia")


def label_one_decision(game: str, matchup) -> None:
    """The search's value of every move of a game's first decision (what ``tourney train`` asks)."""
    import numpy as np

    from tourney_sim.simulate import train
    from tourney_sim.simulate.seeding import new_stream
    from tourney_sim.simulate.stepper import KernelGame
    from tourney_sim.strategies import resolve

    search, = resolve(game, ["ismcts:iterations=8,candidates=0,margin=0"], config=matchup.config)
    k = KernelGame(matchup.config.spec, matchup.params, 1, 0)
    n = k._legal()
    values = np.full(n, np.nan)
    train.search_values_of(game)(k.m.public_view(k.state), k.m.private_view(k.state, k.to_move()), k.moves, n,
                                 new_stream(1, 0, 60_000), search.param_row(), values)


def _source_size(game: str) -> int:
    """The bytes of the game's rule sources: the larger compile longer (Colleagues 114 s,
    Partners 105 s, then Compañeros 78 s and Cardavia 67 s with their search's values, one
    after another), so they start first."""
    from tourney_sim.simulate.games import get_game

    return sum(path.stat().st_size for path in Path(get_game(game).module.__file__).parent.glob("*.py"))


def compile_in_parallel(games: list[str], processes: int = 2) -> float:
    """Compile ``games``, each in a subprocess, ``processes`` at a time (the largest first, the
    next as soon as one is done); the seconds it took. A failure here is left to the tests that meet it."""
    from concurrent.futures import ThreadPoolExecutor

    def one(game: str) -> int:
        return subprocess.call([sys.executable, "-m", "tests.support.compile_cache", game], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    start = time.perf_counter()
    with ThreadPoolExecutor(processes) as pool:
        list(pool.map(one, sorted(games, key=_source_size, reverse=True)))
    return time.perf_counter() - start


if __name__ == "__main__":
    import tourney_sim.simulate  # noqa: F401  (the cache directory keyed to the sources)

    for name in sys.argv[1:]:
        compile_game(name)
