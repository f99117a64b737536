"""Results stay identical (issue 15): seeded runs of every game, every built-in heuristic, the
search and the apprentice (its shipped weights against its guide) give exactly the rows recorded in ``tests/data/digests.json`` (SHA-256 of the rows, see
:func:`rows_digest`), so an optimisation of a kernel or a strategy cannot change a game unnoticed.
The runs record what each seat was dealt (issue 31): the columns every dataset has keep the
digests recorded before that column was, and the ``dealt`` column has its own,
``tests/data/dealt_digests.json``. A deliberate change (a rules version bump, a strategy's new
default, retrained shipped weights) regenerates them in the same commit: ``python scripts/digests.py
--update``."""
import json
from pathlib import Path

import pytest

import tourney_sim as tourney
from tourney_sim.simulate.results import rows_digest

from .support.recorded import case_digest, digest_cases

DIGESTS = Path(__file__).parent / "data" / "digests.json"
DEALT_DIGESTS = Path(__file__).parent / "data" / "dealt_digests.json"
#: every built-in heuristic of each game (rotating seats), with the default rules and with every
#: rule option changed, and both roots of the search at a small budget (the cases are data of
#: tests/support/recorded.py, shared with scripts/digests.py, which records them)
CASES = digest_cases()


@pytest.mark.slow
@pytest.mark.parametrize("name, game, players, seats, games, rules", CASES, ids=[c[0] for c in CASES])
def test_seeded_runs_give_the_recorded_rows(name, game, players, seats, games, rules, tmp_path):
    recorded, recorded_dealt = json.loads(DIGESTS.read_text()), json.loads(DEALT_DIGESTS.read_text())
    assert name in recorded and name in recorded_dealt, f"no digest for {name}: run python scripts/digests.py --update"
    rows, dealt = case_digest(game, players, seats, games, rules, tmp_path / "d")
    assert rows == recorded[name], (
        f"{name}: the rows differ from the recorded ones; if the change is deliberate, bump the rules "
        f"version or note the strategy change and run python scripts/digests.py --update")
    assert dealt == recorded_dealt[name], f"{name}: what the seats were dealt differs from the recorded counts"


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
