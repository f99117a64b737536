"""The published views (``tourney_sim.views``): every game's named offsets of the public and
private views, sizes and constants, against the views a strategy really receives and against the
checked-in snapshot (``tests/data/views/<game>.json``), so they change only on purpose."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tourney_sim.views as views
from tourney_sim.simulate.games import GAME_PATH, RuleError, game_names, get_game

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "data" / "views"
TOY = ROOT / "tests" / "toy"
GAMES = game_names()
SHIPPED = [g for g in GAMES if not any(Path(get_game(g).module.__file__).is_relative_to(d) for d in GAME_PATH)]


def check_snapshot(snap: dict) -> None:
    """The published views of one game are the checked-in snapshot; the message says what changed
    and what to do when the change is meant."""
    game = snap["game"]
    path = SNAPSHOTS / f"{game}.json"
    assert path.exists(), f"no snapshot of {game}'s views: run python scripts/views.py --update"
    recorded = json.loads(path.read_text())
    if recorded == snap:
        return
    changed = sorted(f"{key}.{name}".rstrip(".") for key in snap.keys() | recorded.keys()
                     for name in _entries(snap.get(key)) | _entries(recorded.get(key))
                     if _entries(snap.get(key)).get(name) != _entries(recorded.get(key)).get(name))
    what = (f"the published views of {game} changed ({', '.join(changed)}): a plug-in compiled against "
            f"them would read the wrong entries.")
    if recorded["views_version"] == snap["views_version"]:
        pytest.fail(f"{what} If that is meant, bump VIEWS_VERSION in the rules of {game} (now "
                    f"{snap['views_version']}), run python scripts/views.py --update and commit {path.name}; "
                    f"else keep the published names and offsets as they were.")
    pytest.fail(f"{what} VIEWS_VERSION is bumped to {snap['views_version']}: record it with python "
                f"scripts/views.py --update")


def _entries(value) -> dict:
    return value if isinstance(value, dict) else {"": value}


def check_inside_and_unique(snap: dict) -> None:
    """Every published piece lies inside its view, pieces of a view do not overlap, and no name
    is published twice (pieces of both views, constants, the module's own names)."""
    game = snap["game"]
    for region in ("public", "private"):
        size = snap[f"{region}_size"]
        assert size > 0, (game, region)
        spans = sorted((e["offset"], math.prod(e["shape"]), name) for name, e in snap[region].items())
        for offset, length, name in spans:
            assert 0 <= offset and offset + length <= size, (game, region, name, offset, length, size)
        for (a, la, na), (b, _, nb) in zip(spans, spans[1:]):
            assert a + la <= b, (game, region, "overlap", na, nb)
    names = [*snap["public"], *snap["private"], *snap["constants"], *views.OWN_NAMES]
    assert len(names) == len(set(names)), (game, sorted({n for n in names if names.count(n) > 1}))
    assert all(type(v) is int for v in snap["constants"].values()), game


@pytest.mark.parametrize("game", GAMES)
def test_published_views_are_the_snapshot(game):
    check_snapshot(views.snapshot(game))


@pytest.mark.parametrize("game", GAMES)
def test_published_offsets_lie_inside_their_views_and_names_are_unique(game):
    check_inside_and_unique(views.snapshot(game))


def test_the_toy_game_of_a_game_path_publishes_its_views_too():
    """A game of ``TOURNEY_GAME_PATH`` (the toy game) gets its views module the same way."""
    code = ("import json; from tourney_sim.views import duel; import tourney_sim.views as v; "
            "print(json.dumps([v.snapshot('duel'), duel.PV_HAND, duel.CARDS, duel.__name__]))")
    r = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, TOURNEY_GAME_PATH=str(TOY)),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    snap, pv_hand, cards, name = json.loads(r.stdout)
    assert (pv_hand, cards, name) == (1, 9, "tourney_sim.views.duel")
    check_snapshot(snap)
    check_inside_and_unique(snap)


@pytest.mark.parametrize("game", GAMES)
def test_offsets_index_the_views_a_strategy_receives(game):
    """On a state numbered 0, 1, 2, ..., the entry a published offset names in the views the
    kernel hands a strategy (``public_view``, ``private_view`` of each seat) is the state entry the
    rules name so: the views module and the kernel agree."""
    rules, published = get_game(game).module, views.of(game)
    numbered = np.arange(rules.STATE_SIZE, dtype=np.int32)
    public = rules.public_view(numbered)
    assert len(public) == published.PUBLIC_SIZE
    for p in published.PUBLIC_PIECES:
        assert getattr(published, p.name) == p.offset and type(p.offset) is int
        assert public[p.offset] == getattr(rules, p.name), (game, p.name)
    for seat in range(rules.LAYOUT.seats):
        private = rules.private_view(numbered, seat)
        assert len(private) == published.PRIVATE_SIZE
        for p in published.PRIVATE_PIECES:
            assert getattr(published, p.name) == p.offset and type(p.offset) is int
            assert private[p.offset] == rules.PRIVATE + seat * rules.PRIVATE_SIZE + getattr(rules, p.name)
    for name, constant in published.CONSTANTS.items():
        assert getattr(published, name) is getattr(rules, name) is constant.value, (game, name)
        assert constant.meaning.strip(), (game, name)
    assert published.VIEWS_VERSION == rules.VIEWS_VERSION >= 1
    assert set(published.__all__) >= set(views.OWN_NAMES) and published.GAME == game


def test_the_views_import_as_modules():
    """``from tourney_sim.views import GAME`` and ``import tourney_sim.views.GAME`` give the one
    module; an unknown game is an import error or, through ``of``, a one-line RuleError."""
    from tourney_sim.views import companeros
    import tourney_sim.views.companeros as co
    assert co is companeros is views.of("companeros") is sys.modules["tourney_sim.views.companeros"]
    assert co.__doc__.count("| `SCORE` |") == 1
    import tourney_sim
    assert tourney_sim.views.partners is views.of("partners") and tourney_sim.views is views
    with pytest.raises(ImportError):
        import tourney_sim.views.no_such_game  # noqa: F401
    with pytest.raises(RuleError, match="unknown game 'no_such_game'"):
        views.of("no_such_game")


def test_a_game_declaring_no_views_is_refused_in_one_line(monkeypatch):
    rules = get_game("companeros").module
    monkeypatch.delattr(rules, "VIEWS_VERSION")
    with pytest.raises(RuleError, match=r"publishes no views: .* declare no VIEWS_VERSION"):
        views.snapshot(rules.NAME)


def test_docs_show_every_shipped_games_views():
    """docs/views.md is the generated Markdown of every shipped game (python scripts/views.py --update)."""
    doc = (ROOT / "docs" / "views.md").read_text()
    headings = [line.split()[1] for line in doc.splitlines() if line.startswith("## ")]
    assert headings == SHIPPED
    for game in SHIPPED:
        assert views.markdown(game) in doc, f"docs/views.md is out of date for {game}: python scripts/views.py --update"
