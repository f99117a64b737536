"""No allocation per decision (issue 15): the compiled kernels and every built-in heuristic play a
chunk of games with a fixed number of numba runtime allocations (the chunk's work arrays), however
many games and decisions the chunk holds. Counted with numba's NRT statistics, which must be
switched on before numba starts, so the counting runs in a fresh process.

The search (`ismcts`) is left out on purpose: it allocates its tree once per search decision (a
few arrays sized by its budget, issue 12), thousands of simulated decisions apart."""
import json
import os
import subprocess
import sys

import pytest

from .support.recorded import DIGEST_HEURISTICS

PROBE = r"""
import json, sys
from numba.core.runtime import rtsys
from tourney_sim.simulate.matchup import make_matchup, play_block
game, players, seats = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
m = make_matchup(game, players, seats, seed=3)
play_block(m, 0, 3)  # compile or load; first-call allocations
counts = []
for first, n in ((100, 5), (200, 40)):
    before = rtsys.get_allocation_stats()
    block = play_block(m, first, n)
    after = rtsys.get_allocation_stats()
    counts.append([after.alloc - before.alloc, after.free - before.free, int(block.decisions.sum())])
print(json.dumps(counts))
"""



def count(game, players, seats):
    """[[allocations, frees, decisions] for a chunk of 5 games, then for one of 40]."""
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    r = subprocess.run([sys.executable, "-c", PROBE, game, str(players), ",".join(seats)], capture_output=True,
                       text=True, env=env, timeout=1800)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


#: every built-in heuristic of every game (the seatings of test_digests; random where they lack it)
TABLES = [(g, p, seats) for (g, p), seats in sorted(DIGEST_HEURISTICS.items())] + \
         [("colleagues", 4, ["random"]), ("partners", 4, ["random"])]


@pytest.mark.slow
@pytest.mark.parametrize("game, players, seats", TABLES, ids=[f"{g}-{p}p-{len(s)}" for g, p, s in TABLES])
def test_no_allocation_per_decision(game, players, seats):
    (small_alloc, small_free, small_decisions), (big_alloc, big_free, big_decisions) = count(
        game, players, seats)
    assert big_decisions > 5 * small_decisions > 0
    # the same allocations for 5 games as for 40: none per game, none per decision
    assert big_alloc == small_alloc, (
        f"{game} {players}p: {small_alloc} allocations over {small_decisions} decisions, {big_alloc} over "
        f"{big_decisions}: something allocates per game or per decision")
    assert small_free == small_alloc and big_free == big_alloc  # and all of it is freed


def test_the_count_sees_allocations_per_decision():
    """The search allocates its tree once per decision: the same probe must see it."""
    (small_alloc, _, small_decisions), (big_alloc, _, big_decisions) = count(
        "companeros", 4, ["ismcts:iterations=5", "random"])
    assert big_alloc > small_alloc + big_decisions // 2 > small_alloc > 0


#: the apprentice at the tables where every decision's features fit its buffer on the stack
#: (Partners' longest move lists do not: those decisions take their rows from the heap)
APPRENTICE_TABLES = [("companeros", 4), ("cardavia", 4), ("colleagues", 4)]


@pytest.mark.slow
@pytest.mark.parametrize("game, players", APPRENTICE_TABLES, ids=[f"{g}-{p}p" for g, p in APPRENTICE_TABLES])
def test_the_apprentice_allocates_nothing_per_decision(game, players):
    """Its features' rows and its guide's values live on the stack (simulate/policy.py): two heap
    allocations a decision cost a quarter of its time."""
    (small_alloc, _, small_decisions), (big_alloc, big_free, big_decisions) = count(game, players, ["apprentice"])
    assert big_decisions > 5 * small_decisions > 0
    assert big_alloc == small_alloc and big_free == big_alloc, (small_alloc, big_alloc, big_decisions)


#: the separately compiled functions that keep numba's runtime: they own arrays
OWN_ARRAYS = {"play_chunk", "ismcts", "ismcts_values", "apprentice_move"}  # the apprentice: rows of a long move list


def test_separately_compiled_helpers_leave_the_runtime_out():
    """simulate/kernel.py: a helper that is not inlined compiles with ``_nrt=False`` (without it
    every call counts references on each array it is handed, and Partners' rules ran 1.2-1.45x
    slower), except the functions that own arrays."""
    import importlib

    from numba.core.registry import CPUDispatcher

    from tourney_sim.simulate.games import GAME_MODULES

    modules = ["tourney_sim.simulate.search", "tourney_sim.strategies.common"]
    for game in GAME_MODULES:
        modules += [f"tourney_sim.simulate.games.{game}.rules", f"tourney_sim.strategies.{game}"]
    checked, keeping = 0, []
    for name in modules:
        module = importlib.import_module(name)
        for attr, fn in vars(module).items():
            if not isinstance(fn, CPUDispatcher) or fn.py_func.__module__ != name:
                continue
            if fn.targetoptions.get("inline") == "always":
                continue
            checked += 1
            if fn.targetoptions.get("_nrt", True) and attr not in OWN_ARRAYS:
                keeping.append(f"{name}.{attr}")
    assert checked > 30 and keeping == [], keeping
