"""A game's state layout, declared once: ordered ``(NAME, size, meaning)`` pieces in three regions.

Every game keeps its whole state in one flat int32 array of ``STATE_SIZE`` entries::

    public part   [0, PUBLIC_SIZE)        what every seat sees (``public_view``)
    private parts [PRIVATE, SCRATCH)      one block of PRIVATE_SIZE per seat (``private_view``);
                                          a private piece's offset counts from its block's start
    scratch       [SCRATCH, STATE_SIZE)   hidden state and the kernel's work space (never shown
                                          to a strategy)

A game's ``rules.py`` declares the pieces of each region in order, as one ``Layout``::

    LAYOUT = Layout(
        public=[("H_PLAYERS", 1, "n players"), ..., ("SCORE", MAX_PLAYERS, "points per seat")],
        private=[("PV_SIZE", 1, "hand size"), ("PV_HAND", HAND_SIZE, "the hand, ascending")],
        seats=MAX_PLAYERS,
        scratch=[("S_DECK", MAX_CARDS, "the deck while dealing")])
    LAYOUT.install(globals())  # H_PLAYERS = 0, ..., STATE_SIZE, public_view, private_view, the table

A piece is ``(NAME, size, meaning)``: ``size`` an int, or a shape such as ``(SEATS, COLS)`` (the
piece holds their product, row-major); ``NAME`` None for a piece with no name of its own (unused
room, or one the code reaches from its region's start, ``SCRATCH + i``); size 0 for a marker (an
offset that names a boundary, as partners' ``ZERO_END``). A bare string between the pieces is a
heading in the table. Each name becomes a plain module-level int (numba reads module globals as
compile-time constants, so the kernels compile exactly as they did from hand-written offsets), as
do the region bounds ``PUBLIC_SIZE``, ``PRIVATE``, ``PRIVATE_SIZE``, ``SCRATCH`` and
``STATE_SIZE``. The names are written once, in the declaration: to find one, grep for it in
quotes (``grep -n '"ROW_CARD"' simulate/games/*/rules.py``); to read the table with every offset,
``help()`` the rules module or print ``rules.LAYOUT.table()``.

The public and private regions are what a strategy sees (its ``public`` and ``private``
arrays): their named pieces, with their offsets counted from the view's start (``view``), are
published per game as ``tourney_sim.views.<game>``, with the rules' ``STRATEGY_CONSTANTS`` and
``VIEWS_VERSION`` (bumped whenever they change; ``tests/test_views.py`` holds a snapshot of each).

This is OpenSpiel's Kuhn poker observer (named views of one flat array, built from
``(name, size, shape)`` pieces) with offsets in place of views, since the kernels index the array.
``tests/test_layout.py`` checks every registered game against its layout.

The kernel's ``params`` (the int32 array ``init`` reads: the player count, the rule options and
the component table in force) are declared the same way, once, after the game's components, as
ordered ``(NAME, size, to, value)`` pieces of a :class:`Params`::

    PARAMS = Params(LAYOUT, [
        ("P_PLAYERS", 1, "H_PLAYERS", lambda c: c.players),
        ("P_MATCH_GAMES", 1, "H_MATCH_GAMES", lambda c: c.options["match_games"]),
        ("P_VALUES", VALUES, "CARD_VALUE", lambda c: c.table["deck"]["values"]),
    ], components=COMPONENTS)
    PARAMS.install(globals())  # P_PLAYERS = 0, ..., PARAMS_SIZE, make_params, copy_params

``to`` names the state piece ``init`` copies the entries into (a public or scratch piece; a
piece of several entries may run over the pieces that follow it, to a piece's end), or is None
for an entry only the kernel loop reads (``play_chunk``'s cap on decisions). ``value`` computes
the entries from a :class:`ParamSource` (``players``, ``options``, ``table``: a
:class:`~tourney_sim.simulate.games.config.GameConfig` has the same three). :meth:`Params.install`
makes from the declaration each ``P_*`` offset and ``PARAMS_SIZE`` as plain module ints,
``make_params(n_players, options)`` (the ``GameSpec``'s), and ``copy_params(state, params)``,
the compiled copy ``init`` calls (one loop over a constant table of ``(param offset, state offset,
length)`` triples, inlined: the same code as the copies written out by hand).
"""
from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from numba import njit

from .spec import COMPONENTS_OPTION

#: the names a layout gives its region bounds (besides its pieces' names)
REGION_NAMES = ("PUBLIC_SIZE", "PRIVATE", "PRIVATE_SIZE", "SCRATCH", "STATE_SIZE")
#: the regions a strategy sees, each an array of its own: ``public_view(state)`` and
#: ``private_view(state, seat)``
VIEWS = ("public", "private")
#: width of the generated table (its meanings are wrapped to it)
TABLE_WIDTH = 100
#: the table's indent in the docstring (under a ``::`` paragraph)
TABLE_INDENT = 4


@dataclass(frozen=True)
class Piece:
    """One named run of entries: ``offset`` from its region's start (public, scratch: from 0 of
    the state; private: from the start of a seat's block)."""
    region: str
    name: str | None
    offset: int
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def end(self) -> int:
        return self.offset + self.size


def _shape(size) -> tuple[int, ...]:
    shape = tuple(size) if isinstance(size, tuple) else (size,)
    if not shape or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise ValueError(f"a piece's size is a non-negative int or a tuple of them, not {size!r}")
    return shape


class Layout:
    """The public pieces, ``seats`` private blocks of the private pieces, then the scratch pieces,
    each region's pieces one after the other in the order given."""

    def __init__(self, *, public: list, private: list, seats: int, scratch: list):
        self.seats = seats
        self.items: list[Piece | str] = []  # pieces and headings, in table order
        self.public_size = self._lay("public", public, 0)
        self.private = self.public_size
        self.private_size = self._lay("private", private, 0)
        self.scratch = self.private + seats * self.private_size
        self.state_size = self._lay("scratch", scratch, self.scratch)
        names = [p.name for p in self.pieces() if p.name is not None] + list(REGION_NAMES)
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"layout names given twice: {', '.join(twice)}")
        bad = [n for n in names if not (n.isidentifier() and n.isupper())]
        if bad:
            raise ValueError(f"layout names must be upper-case identifiers: {', '.join(bad)}")

    def _lay(self, region: str, entries: list, offset: int) -> int:
        """Append ``entries`` of ``region`` from ``offset``; returns where the region ends (public,
        scratch) or its size (private: offsets count from the block's start)."""
        for entry in entries:
            if isinstance(entry, str):
                self.items.append(entry)
                continue
            name, size, meaning = entry
            piece = Piece(region, name, offset, _shape(size), meaning)
            self.items.append(piece)
            offset = piece.end
        return offset

    def pieces(self, region: str | None = None) -> list[Piece]:
        """The pieces of ``region`` (``public``, ``private`` or ``scratch``; all if None), in order."""
        return [p for p in self.items if isinstance(p, Piece) and region in (None, p.region)]

    def view(self, region: str) -> list[Piece]:
        """The named pieces a strategy reads in the view ``region`` (one of ``VIEWS``), in order;
        each offset counts from the view's start (the public view starts the state, a private
        view its seat's block), so it indexes the strategy's ``public`` or ``private`` array."""
        return [p for p in self.pieces(_view_region(region)) if p.name is not None]

    def view_size(self, region: str) -> int:
        """The length of the view ``region`` (``PUBLIC_SIZE`` or ``PRIVATE_SIZE``)."""
        return {"public": self.public_size, "private": self.private_size}[_view_region(region)]

    def view_functions(self):
        """The rules' ``public_view(state)`` and ``private_view(state, seat)``: the arrays the
        kernel hands a strategy, slices of the state (:meth:`install` puts them in ``rules.py``). The bounds are closed over as constants, so numba compiles
        them, inlined where the kernel calls them, to exactly what module-level functions reading
        the module's constants compile to; a closure's disk-cache entry is keyed by the values it
        closes over, so each game's are cached apart."""
        public_size, private, private_size = self.public_size, self.private, self.private_size

        @njit(cache=True, inline="always")
        def public_view(state):
            return state[:public_size]

        @njit(cache=True, inline="always")
        def private_view(state, seat):
            base = private + seat * private_size
            return state[base:base + private_size]

        return public_view, private_view

    def install(self, namespace: dict) -> None:
        """What a ``rules.py`` takes from its layout, in one call (``LAYOUT.install(globals())``):
        every offset and region bound as a plain int (:meth:`constants`), ``public_view`` and
        ``private_view`` (:meth:`view_functions`), and the table appended to the module's
        docstring (none under ``python -OO``)."""
        namespace.update(self.constants())
        namespace["public_view"], namespace["private_view"] = self.view_functions()
        if namespace.get("__doc__"):
            namespace["__doc__"] += self.table()

    def constants(self) -> dict[str, int]:
        """Every named piece's offset and the region bounds, by name (plain ints)."""
        out = {p.name: p.offset for p in self.pieces() if p.name is not None}
        out.update(zip(REGION_NAMES, (self.public_size, self.private, self.private_size,
                                      self.scratch, self.state_size)))
        return out

    def table(self) -> str:
        """The layout as a text table (offset, name, size, meaning), indented for a docstring's
        ``::`` block, beginning with a blank line."""
        pieces = self.pieces()
        name_w = max(len(p.name or "-") for p in pieces)
        size_w = max(len(_size_text(p.shape)) for p in pieces)
        off_w = len(str(self.state_size))
        lead = " " * (TABLE_INDENT + 2)
        meaning_at = len(lead) + off_w + 2 + name_w + 2 + size_w + 2
        heads = {
            "public": f"public part [0, PUBLIC_SIZE = {self.public_size}): what every seat sees",
            "private": (f"private part of seat p < {self.seats} [PRIVATE + p * PRIVATE_SIZE, + PRIVATE_SIZE), "
                        f"PRIVATE = {self.private}, PRIVATE_SIZE = {self.private_size}: offsets "
                        f"from the block's start"),
            "scratch": (f"scratch [SCRATCH = {self.scratch}, STATE_SIZE = {self.state_size}): hidden "
                        f"state and work space, never shown to a strategy"),
        }
        lines, region = [""], None
        for item in self.items:
            if isinstance(item, Piece) and item.region != region:
                region = item.region
                lines += _wrap(heads[region], " " * TABLE_INDENT, lead)
            if isinstance(item, str):
                lines += _wrap(item, lead, lead + "  ")
                continue
            row = (f"{lead}{item.offset:>{off_w}}  {item.name or '-':<{name_w}}  "
                   f"{_size_text(item.shape):>{size_w}}  ")
            lines += _wrap(item.meaning, row, " " * meaning_at) or [row.rstrip()]
        return "\n".join(lines) + "\n"


def _view_region(region: str) -> str:
    if region not in VIEWS:
        raise ValueError(f"a view is one of {', '.join(VIEWS)}, not {region!r}")
    return region


def _wrap(text: str, first: str, rest: str) -> list[str]:
    """``text`` wrapped to the table's width after ``first``, then ``rest``, keeping words such as
    ``-1`` or ``face-down`` whole."""
    return textwrap.wrap(text, TABLE_WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def _size_text(shape: tuple[int, ...]) -> str:
    return " x ".join(str(d) for d in shape)


# ----------------------------------------------------------------------------- the params layout
@dataclass(frozen=True)
class ParamSource:
    """What a params piece is computed from: the player count, the rule options (a caller may
    give only some: a piece falls back to its option's default with ``options.get``) and the
    component table in force (None for a game without components); ``extra`` holds the keyword
    values a game's ``make_params`` takes besides them (:class:`Params` ``extra``)."""

    players: int
    options: Mapping[str, Any]
    table: Any = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ParamPiece:
    """One named run of params entries: ``offset`` in params, copied by ``init`` to the state
    piece named ``to`` (at ``to_offset``), or not copied (``to`` None)."""

    name: str
    offset: int
    size: int
    to: str | None
    to_offset: int | None
    value: Callable[[ParamSource], Any]
    meaning: str = ""

    @property
    def end(self) -> int:
        return self.offset + self.size


class Params:
    """A game's kernel params, declared once as ordered ``(NAME, size, to, value[, meaning])``
    pieces (see the module docstring).

    ``components``: the game's ``Components`` (the table in force is the option ``components``,
    its defaults when left out, refused with one line when it cannot be played); ``complete``:
    a partial table is completed with the defaults first; ``check(source)`` raises for values
    the kernel cannot take; ``extra``: keyword arguments ``make_params`` accepts besides the
    player count and options, with their defaults (``source.extra``).
    """

    def __init__(self, layout: Layout, pieces: list, *, components=None, complete: bool = False,
                 check: Callable[[ParamSource], None] | None = None, extra: Mapping[str, Any] | None = None):
        self.layout = layout
        self.components = components
        self.complete = complete
        self.check = check
        self.extra = dict(extra or {})
        targets = {p.name: p for p in layout.pieces() if p.name is not None}
        ends = {p.end for p in layout.pieces()}
        bounds = {"public": (0, layout.public_size), "scratch": (layout.scratch, layout.state_size)}
        self.pieces: list[ParamPiece] = []
        offset = 0
        for entry in pieces:
            name, size, to, value, *meaning = entry
            if not (isinstance(size, int) and not isinstance(size, bool) and size >= 1):
                raise ValueError(f"params piece {name}: its size is a positive int, not {size!r}")
            to_offset = None
            if to is not None:
                piece = targets.get(to)
                if piece is None or piece.region not in bounds:
                    raise ValueError(f"params piece {name}: {to!r} is not a public or scratch piece of the layout")
                low, high = bounds[piece.region]
                if not (low <= piece.offset and piece.offset + size <= high and piece.offset + size in ends):
                    raise ValueError(f"params piece {name}: {size} entries from {to} do not end at the end "
                                     f"of a piece of its region")
                to_offset = piece.offset
            self.pieces.append(ParamPiece(name, offset, size, to, to_offset, value, *meaning))
            offset += size
        self.size = offset
        names = [p.name for p in self.pieces] + ["PARAMS_SIZE"]
        twice = sorted({n for n in names if names.count(n) > 1} | (set(names) & set(layout.constants())))
        if twice:
            raise ValueError(f"params names given twice (or a layout's name): {', '.join(twice)}")
        bad = [n for n in names if not (n.isidentifier() and n.isupper())]
        if bad:
            raise ValueError(f"params names must be upper-case identifiers: {', '.join(bad)}")

    def constants(self) -> dict[str, int]:
        """Every piece's offset in params, and ``PARAMS_SIZE``, by name (plain ints)."""
        return {**{p.name: p.offset for p in self.pieces}, "PARAMS_SIZE": self.size}

    def copies(self) -> tuple[tuple[int, int, int], ...]:
        """What ``init`` copies: ``(param offset, state offset, length)`` per copied piece."""
        return tuple((p.offset, p.to_offset, p.size) for p in self.pieces if p.to is not None)

    def source(self, n_players: int, options: Mapping[str, Any], **extra) -> ParamSource:
        """The :class:`ParamSource` of a player count and options, checked: the table in force
        playable, ``check`` passed; RuleError (a table) or ValueError with one line."""
        unknown = sorted(set(extra) - set(self.extra))
        if unknown:
            raise TypeError(f"make_params() got an unexpected keyword argument {unknown[0]!r}")
        table = None
        if self.components is not None:
            table = options.get(COMPONENTS_OPTION, self.components.defaults)
            if self.complete:
                table = self.components.check(table)
            self.components.check_playable(table, n_players)
        source = ParamSource(n_players, options, table, {**self.extra, **extra})
        if self.check is not None:
            self.check(source)
        return source

    def pack(self, source: ParamSource) -> np.ndarray:
        """The params array of ``source``: each piece's value at its offset (int32)."""
        out = np.zeros(self.size, np.int32)
        for p in self.pieces:
            value = np.asarray(p.value(source)).reshape(-1)
            if value.size != p.size:
                raise ValueError(f"params piece {p.name}: {p.size} entries declared, {value.size} computed")
            out[p.offset:p.end] = value
        return out

    def make_params(self, n_players: int, options: Mapping[str, Any], **extra) -> np.ndarray:
        """The kernel's params for ``n_players`` under ``options`` (a GameSpec's ``make_params``)."""
        return self.pack(self.source(n_players, options, **extra))

    def read(self, params) -> dict[str, Any]:
        """``params`` by piece name: an int for a one-entry piece, else a list (for Python readers
        such as the reference engines)."""
        out = {}
        for p in self.pieces:
            values = [int(v) for v in params[p.offset:p.end]]
            out[p.name] = values[0] if p.size == 1 else values
        return out

    def copy_function(self):
        """``copy_params(state, params)``: the params entries ``init`` copies into the state, one
        loop over the constant ``copies()`` (closed over: numba compiles it to the copies written
        out, and caches each game's apart), inlined where ``init`` calls it."""
        copies = self.copies()

        @njit(cache=True, inline="always")
        def copy_params(state, params):
            for k in range(len(copies)):
                src, dst, size = copies[k]
                for j in range(size):
                    state[dst + j] = params[src + j]

        return copy_params

    def install(self, namespace: dict) -> None:
        """What a ``rules.py`` takes from its params declaration, in one call
        (``PARAMS.install(globals())``): every ``P_*`` offset and ``PARAMS_SIZE`` as a plain int,
        ``make_params`` and ``copy_params``."""
        clash = sorted(n for n in self.constants() if n in namespace)
        if clash:
            raise ValueError(f"params names already defined in the module: {', '.join(clash)}")
        namespace.update(self.constants())

        def make_params(n_players: int, options: Mapping[str, Any], **extra) -> np.ndarray:
            return self.make_params(n_players, options, **extra)

        # a module function of the rules (pickled by reference, as one written there would be)
        make_params.__module__, make_params.__qualname__ = namespace.get("__name__"), "make_params"
        make_params.__doc__ = Params.make_params.__doc__
        namespace["make_params"] = make_params
        namespace["copy_params"] = self.copy_function()

    def table(self) -> str:
        """The params as a text table: offset, name, size, where ``init`` copies it, meaning."""
        rows = [(str(p.offset), p.name, str(p.size), p.to or "-", p.meaning) for p in self.pieces]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        return "\n".join(f"{r[0]:>{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:>{widths[2]}}  {r[3]:<{widths[3]}}  {r[4]}".rstrip()
                         for r in rows) + "\n"
