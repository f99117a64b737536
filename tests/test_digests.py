"""Results stay identical (issue 15): seeded runs of every game, every built-in heuristic and the
search give exactly the rows recorded in ``tests/data/digests.json`` (SHA-256 of the rows, see
:func:`rows_digest`), so an optimisation of a kernel or a strategy cannot change a game unnoticed.
A deliberate change (a rules version bump, a strategy's new default) regenerates them in the same
commit: ``python scripts/digests.py --update``."""
import json
from pathlib import Path

import pytest

import tourney_sim as tourney
from tourney_sim.simulate.results import rows_digest

DIGESTS = Path(__file__).parent / "data" / "digests.json"
SEED = 20261202
SEARCH = ["ismcts:iterations=30", "ismcts:iterations=30,root=ucb,tree_depth=0,rollout=random"]

#: (case name, game, players, seats, games, rule options). The heuristics' seatings are those of
#: tests/data/pre-params (so their compiled kernels are shared with test_params): every built-in
#: heuristic of each game plays (rotating seats), with the default rules and with every rule
#: option changed; and both roots of the search at a small budget.
HEURISTICS = {
    ("companeros", 3): ["high", "follower", "greedy"],
    ("companeros", 4): ["random", "high", "follower", "greedy"],
    ("companeros", 6): ["random", "high", "follower", "greedy", "random", "high"],
    ("cardavia", 4): ["random", "capture-max", "guard", "swords"],
    ("colleagues", 2): ["middle", "dodger"],
    ("colleagues", 4): ["middle", "dodger", "dumper", "hider"],
    ("partners", 4): ["race", "hunter", "guardian", "teamwork"],
}
RULES = {
    ("companeros", 3): ["match_games=3"],
    ("cardavia", 4): ["single_match_forced=true", "last_sweep_scores=false", "napula_beyond_10=true",
                      "match_deals=3"],
    ("colleagues", 2): ["grey_dismissal=shield"],
    ("partners", 4): ["house_overshoot=bounce"],
}
CASES = [(f"{g}-{p}p-heuristics", g, p, seats, 40 if g == "partners" else 300, [])
         for (g, p), seats in HEURISTICS.items()] + \
        [(f"{g}-{p}p-heuristics-" + ",".join(r), g, p, HEURISTICS[g, p], 20 if g == "partners" else 200, r)
         for (g, p), r in RULES.items()] + \
        [(f"{g}-{p}p-search", g, p, SEARCH, n, []) for g, p, n in
         [("companeros", 4, 6), ("cardavia", 4, 4), ("colleagues", 3, 4), ("partners", 4, 2)]]


def case_digest(game, players, seats, games, rules, out: Path) -> str:
    r = tourney.run(game, seats, players=players, games=games, seed=SEED, rules=rules, out=out, workers=1,
                    chunk_size=max(1, games // 3))
    return rows_digest(r.path)


@pytest.mark.parametrize("name, game, players, seats, games, rules", CASES, ids=[c[0] for c in CASES])
def test_seeded_runs_give_the_recorded_rows(name, game, players, seats, games, rules, tmp_path):
    recorded = json.loads(DIGESTS.read_text())
    assert name in recorded, f"no digest for {name}: run python scripts/digests.py --update"
    assert case_digest(game, players, seats, games, rules, tmp_path / "d") == recorded[name], (
        f"{name}: the rows differ from the recorded ones; if the change is deliberate, bump the rules "
        f"version or note the strategy change and run python scripts/digests.py --update")


def test_the_digest_sees_every_column_and_ignores_chunking(tmp_path):
    a = tourney.run("companeros", ["greedy", "random"], players=3, games=60, seed=1, out=tmp_path / "a",
                    workers=1, chunk_size=7)
    b = tourney.run("companeros", ["greedy", "random"], players=3, games=60, seed=1, out=tmp_path / "b",
                    workers=2, chunk_size=25)
    c = tourney.run("companeros", ["greedy", "random"], players=3, games=60, seed=2, out=tmp_path / "c",
                    workers=1)
    d = tourney.run("companeros", ["random", "greedy"], players=3, games=60, seed=1, out=tmp_path / "e",
                    workers=1)
    assert rows_digest(a.path) == rows_digest(b.path)
    assert len({rows_digest(x.path) for x in (a, c, d)}) == 3
