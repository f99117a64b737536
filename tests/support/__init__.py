"""Helper modules the test modules share, so that no test module imports another: one per game
(``tests/support/<game>.py``: states built by hand, the game's invariant and what the contract
asks of it) and the
CLI runner (``cli.py``); and what the maintenance scripts share with the tests, out of the
package: synthetic datasets with known truths (``synthetic.py``), the recorded runs and golden
games (``recorded.py``), and the package's import graph for ``lint-imports`` (``import_graph.py``).

Every game's support module offers the contract (``tests/contract/``) the same four functions:
two compiled, each returning 0 or an error code, ``invariant(state)`` (the kernel state is
consistent: every card in exactly one place, the public records agreeing with the private ones,
...) and ``sample_check(real, sample, seat)`` (what a determinization for ``seat`` must keep of
the real state beyond the two views: hand sizes, the seat's own hand, cards it gave away, ...);
and ``not_position(state)``, a boolean mask of the indices that are not part of the position
(the kernel's work space), where a state loaded from its notation may differ; and
``dealt_by_chance(kind, outcome)``, the ``(seat, kind name)`` of everything one of the game's
chance events gives a result seat (what the ``dealt`` column counts). A game
outside the package (``TOURNEY_GAME_PATH``) keeps its support module beside its folder of games,
as ``support/<game>.py`` (e.g. ``tests/toy/support/duel.py``), as it keeps its golden games."""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

UNIFORM = ("invariant", "sample_check", "not_position", "dealt_by_chance")  # what the contract reads from every game's support module


def for_game(game: str) -> ModuleType:
    """The support module of ``game``: ``tests/support/<game>.py``, else ``support/<game>.py``
    beside a folder of games on ``TOURNEY_GAME_PATH``. A game without one fails the contract,
    saying where to write it."""
    if (Path(__file__).parent / f"{game}.py").is_file():
        module = importlib.import_module(f"{__name__}.{game}")
    else:
        from tourney_sim.simulate.games import GAME_PATH
        found = [Path(d) / "support" / f"{game}.py" for d in GAME_PATH if (Path(d) / "support" / f"{game}.py").is_file()]
        assert found, (f"game {game!r} has no test support module: write tests/support/{game}.py "
                       f"(or support/{game}.py beside its games/ folder) defining {', '.join(UNIFORM)}")
        spec = importlib.util.spec_from_file_location(f"{__name__}.{game}", found[0])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    missing = [name for name in UNIFORM if not hasattr(module, name)]
    assert not missing, f"{module.__name__} lacks {', '.join(missing)}"
    return module
