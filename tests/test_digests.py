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
from tourney_sim.simulate.testing import case_digest, digest_cases

DIGESTS = Path(__file__).parent / "data" / "digests.json"
#: every built-in heuristic of each game (rotating seats), with the default rules and with every
#: rule option changed, and both roots of the search at a small budget (the cases are data of
#: tourney_sim.simulate.testing, shared with scripts/digests.py, which records them)
CASES = digest_cases()


@pytest.mark.slow
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
