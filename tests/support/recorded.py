"""What the tests and the maintenance scripts both compare against recorded files: the seeded runs
whose rows are recorded in ``tests/data/digests.json`` and ``tests/data/dealt_digests.json``
(checked by ``tests/test_digests.py``, recorded by ``scripts/digests.py``) and the golden games of ``tests/golden/`` (checked by
``tests/contract/test_golden.py``, written by ``scripts/golden.py``). One definition each, so a
test and the script that records what it checks cannot drift apart: a test support module, not
a test module, which the scripts import too (it is no part of the package).
"""
from __future__ import annotations

from pathlib import Path

from tourney_sim.simulate.matchup import make_matchup
from tourney_sim.simulate.results import BASE_SCHEMA, DEALT_COLUMN, rows_digest
# the golden games' text: the library's (tourney_sim.testing), shared with scripts/golden.py
from tourney_sim.testing import golden_matchup, golden_replayed, golden_text  # noqa: F401

# ------------------------------------------------------------------ digests of seeded runs
DIGEST_SEED = 20261202
DIGEST_SEARCH = ["ismcts:iterations=30", "ismcts:iterations=30,root=ucb,tree_depth=0,rollout=random"]

#: (game, players) -> the seating of the heuristics' digest case: every built-in heuristic of each
#: game plays (rotating seats). The seatings are those of tests/data/pre-params (so their compiled
#: kernels are shared with tests/test_params.py).
DIGEST_HEURISTICS = {
    ("companeros", 3): ["high", "follower", "greedy"],
    ("companeros", 4): ["random", "high", "follower", "greedy"],
    ("companeros", 6): ["random", "high", "follower", "greedy", "random", "high"],
    ("cardavia", 4): ["random", "capture-max", "guard", "swords"],
    ("colleagues", 2): ["middle", "dodger"],
    ("colleagues", 4): ["middle", "dodger", "dumper", "hider"],
    ("partners", 4): ["race", "hunter", "guardian", "teamwork"],
}
#: (game, players) -> every rule option changed, played by that table's heuristics
DIGEST_RULES = {
    ("companeros", 3): ["match_games=3"],
    ("cardavia", 4): ["single_match_forced=true", "last_sweep_scores=false", "napula_beyond_10=true",
                      "match_deals=3"],
    ("colleagues", 2): ["grey_dismissal=shield"],
    ("partners", 4): ["house_overshoot=bounce"],
}
#: (game, players) -> games of the search's case (both roots of the search at a small budget)
DIGEST_SEARCH_GAMES = {("companeros", 4): 6, ("cardavia", 4): 4, ("colleagues", 3): 4, ("partners", 4): 2}
#: (game, players) -> games of the apprentice's case: the weights shipped for the table, in every
#: other seat against its guide (the tuned heuristic), so both its own play and its guide's count
DIGEST_APPRENTICE_GAMES = {("companeros", 3): 300, ("companeros", 4): 300, ("companeros", 6): 200,
                           ("cardavia", 4): 200, ("colleagues", 2): 200, ("colleagues", 4): 100,
                           ("partners", 4): 20}
#: games per heuristics case, and per rule-options case, where a game's default is too slow
_LONG_GAMES = {"partners": (40, 20)}


def digest_cases() -> list[tuple[str, str, int, list[str], int, list[str]]]:
    """(case name, game, players, seats, games, rule options) of every recorded seeded run."""
    def games(game, which):
        return _LONG_GAMES.get(game, (300, 200))[which]
    return ([(f"{g}-{p}p-heuristics", g, p, seats, games(g, 0), [])
             for (g, p), seats in DIGEST_HEURISTICS.items()]
            + [(f"{g}-{p}p-heuristics-" + ",".join(r), g, p, DIGEST_HEURISTICS[g, p], games(g, 1), r)
               for (g, p), r in DIGEST_RULES.items()]
            + [(f"{g}-{p}p-search", g, p, DIGEST_SEARCH, n, []) for (g, p), n in DIGEST_SEARCH_GAMES.items()]
            + [(f"{g}-{p}p-apprentice", g, p, ["apprentice", _guide(g)], n, [])
               for (g, p), n in DIGEST_APPRENTICE_GAMES.items()])


def _guide(game: str) -> str:
    """The name of the apprentice's guide in ``game`` (its tuned heuristic)."""
    from tourney_sim.strategies import resolve
    from tourney_sim.strategies.common import GUIDES
    resolve(game, ["random"])  # imports the game's strategies, which declare the guide
    return GUIDES[game].label


def case_digest(game: str, players: int, seats: list[str], games: int, rules: list[str],
                out: Path) -> tuple[str, str]:
    """The digests of one seeded run (written to ``out``, recording what was dealt): of the rows'
    columns every dataset has (``tests/data/digests.json``, recorded before the ``dealt`` column
    was), and of its ``dealt`` column (``tests/data/dealt_digests.json``)."""
    from tourney_sim.simulate.runner import run  # what the api's run calls
    m = make_matchup(game, players, seats, rules=rules, seed=DIGEST_SEED, record=("dealt",))
    run(m, games, out, workers=1, chunk_size=max(1, games // 3), progress=False)
    base = [name for name, _ in BASE_SCHEMA] + [name for name, _ in m.spec.columns]
    return rows_digest(out, base), rows_digest(out, [DEALT_COLUMN[0]])
