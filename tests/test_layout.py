"""Every registered game's state layout (``rules.LAYOUT``, simulate/games/layout.py) against the
module it describes: its pieces tile the state exactly, each offset is the module constant of that
name (and written nowhere else), the views have the sizes it declares, and the docstring's table
is the generated one."""
from __future__ import annotations

import ast
import inspect
import re

import numpy as np
import pytest

from tourney_sim.simulate.games import game_names, get_game
from tourney_sim.simulate.games.layout import REGION_NAMES, Layout
from tourney_sim.simulate.stepper import KernelGame

GAMES = game_names()


def rules_of(game):
    return get_game(game).module


def test_every_game_has_a_layout():
    assert GAMES == sorted(GAMES) and len(GAMES) >= 4
    for game in GAMES:
        assert isinstance(rules_of(game).LAYOUT, Layout), game


@pytest.mark.parametrize("game", GAMES)
def test_pieces_tile_the_state(game):
    """Walked from the declared sizes alone: each region's pieces follow one another with no gap
    and no overlap, the regions follow one another, and the module's constants are those offsets."""
    m = rules_of(game)
    layout = m.LAYOUT
    at = 0
    for p in layout.pieces("public"):
        assert p.offset == at, (game, p.name)
        at += int(np.prod(p.shape))
    assert m.PUBLIC_SIZE == at and m.PRIVATE == at
    at = 0
    for p in layout.pieces("private"):
        assert p.offset == at, (game, p.name)
        at += int(np.prod(p.shape))
    assert m.PRIVATE_SIZE == at > 0
    assert m.SCRATCH == m.PRIVATE + layout.seats * m.PRIVATE_SIZE
    at = m.SCRATCH
    for p in layout.pieces("scratch"):
        assert p.offset == at, (game, p.name)
        at += int(np.prod(p.shape))
    assert m.STATE_SIZE == at == get_game(game).state_size
    # every seat that can move has a private block, and no block is left over
    assert layout.seats == get_game(game).max_players

    # the whole state as intervals: each index belongs to exactly one piece (markers hold none)
    owner = np.full(m.STATE_SIZE, -1)
    spans = [(p.offset, p.size) for p in layout.pieces("public") + layout.pieces("scratch")]
    spans += [(m.PRIVATE + s * m.PRIVATE_SIZE + p.offset, p.size)
              for s in range(layout.seats) for p in layout.pieces("private")]
    for k, (start, size) in enumerate(spans):
        assert (owner[start:start + size] == -1).all(), (game, "overlap at", start)
        owner[start:start + size] = k
    assert (owner >= 0).all(), (game, "not covered:", np.flatnonzero(owner < 0)[:5])


@pytest.mark.parametrize("game", GAMES)
def test_constants_are_the_layouts_and_written_once(game):
    """Each name of the layout is a plain int module constant with the layout's value, and no
    module-level statement of the rules file assigns it by hand (it would shadow the layout)."""
    m = rules_of(game)
    constants = m.LAYOUT.constants()
    named = [p.name for p in m.LAYOUT.pieces() if p.name is not None]
    assert set(constants) == set(named) | set(REGION_NAMES)
    for name, value in constants.items():
        assert type(getattr(m, name)) is int and getattr(m, name) == value, (game, name)
    tree = ast.parse(inspect.getsource(m))
    assigned = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
        for t in targets:
            assigned |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    assert not assigned & set(constants), (game, sorted(assigned & set(constants)))


@pytest.mark.parametrize("game", GAMES)
def test_views_have_the_declared_sizes(game):
    """``public_view`` / ``private_view`` of an initial state are exactly the declared regions:
    their lengths, and (on a state numbered 0, 1, 2, ...) the entries they cover."""
    spec = get_game(game)
    m = spec.module
    for n in sorted({spec.min_players, spec.max_players}):
        state = KernelGame(spec, spec.make_params(n, spec.resolve_options([])), 1, 0).state
        assert m.public_view(state).shape == (m.LAYOUT.public_size,)
        for seat in range(n):
            assert m.private_view(state, seat).shape == (m.LAYOUT.private_size,), (game, n, seat)
    numbered = np.arange(m.STATE_SIZE, dtype=np.int32)
    assert np.array_equal(m.public_view(numbered), np.arange(m.PUBLIC_SIZE))
    for seat in range(m.LAYOUT.seats):
        start = m.PRIVATE + seat * m.PRIVATE_SIZE
        assert np.array_equal(m.private_view(numbered, seat), np.arange(start, start + m.PRIVATE_SIZE))


@pytest.mark.parametrize("game", GAMES)
def test_docstring_table_is_generated(game):
    """The module's docstring ends with the layout's table, and the docstring written in the
    source draws no layout of its own (no line begins with a piece's name or offset list)."""
    m = rules_of(game)
    table = m.LAYOUT.table()
    assert m.__doc__.endswith(table) and m.__doc__.count(table) == 1
    written = ast.get_docstring(ast.parse(inspect.getsource(m)), clean=False)
    assert table.strip() not in written
    names = "|".join(p.name for p in m.LAYOUT.pieces() if p.name is not None)
    drawn = [line for line in written.splitlines() if re.match(rf"\s*({names})\b", line)]
    assert not drawn, (game, drawn)
    for p in m.LAYOUT.pieces():  # every piece has its row: offset, name, size
        size = " x ".join(map(str, p.shape))
        assert re.search(rf"^ +{p.offset} +{re.escape(p.name or '-')} +{size} ", table, re.M), (game, p)


def test_layout_from_pieces():
    """A small layout: offsets, region bounds, shapes, markers, gaps and headings."""
    layout = Layout(public=[("A", 1, "one"), "a heading", ("B", (2, 3), "a 2 x 3 block"),
                            (None, 2, "unused")],
                    private=[("P_X", 4, "four")], seats=3,
                    scratch=[("S_Y", 5, "five"), ("END", 0, "a marker")])
    assert layout.constants() == {"A": 0, "B": 1, "P_X": 0, "S_Y": 21, "END": 26, "PUBLIC_SIZE": 9,
                                  "PRIVATE": 9, "PRIVATE_SIZE": 4, "SCRATCH": 21, "STATE_SIZE": 26}
    table = layout.table()
    assert table.startswith("\n    public part [0, PUBLIC_SIZE = 9)")
    assert "\n       1  B    2 x 3  a 2 x 3 block\n" in table
    assert "\n      a heading\n" in table and "\n       7  -        2  unused\n" in table
    assert "\n      26  END      0  a marker\n" in table


@pytest.mark.parametrize("public, private, message", [
    ([("A", 1, "a"), ("A", 2, "again")], [("P", 1, "p")], "given twice: A"),
    ([("A", 1, "a")], [("STATE_SIZE", 1, "a region name")], "given twice: STATE_SIZE"),
    ([("lower", 1, "a")], [("P", 1, "p")], "upper-case identifiers: lower"),
    ([("A", -1, "a")], [("P", 1, "p")], "non-negative"),
    ([("A", (2, 1.5), "a")], [("P", 1, "p")], "non-negative"),
])
def test_layout_refuses_bad_pieces(public, private, message):
    with pytest.raises(ValueError, match=message):
        Layout(public=public, private=private, seats=1, scratch=[])
