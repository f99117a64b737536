"""The compiled core shared by every game: the game loop, the strategy signature, small helpers.

A game's rules (``simulate/games/<name>/rules.py``) provide these ``@njit`` functions over its
state, one flat ``int32`` array whose layout the module draws where it declares it:

=====================================  ========================================================
``init(state, params, chance)``        set up game from ``params`` (int32, see ``make_params``)
                                       using the chance stream ``chance`` (uint64[4])
``to_move(state) -> seat``             the seat that decides next, or -1 once the game is over
``legal_moves(state, moves) -> n``     write the legal moves (int64 codes, ascending) to
                                       ``moves[:n]``; n >= 1 whenever ``to_move >= 0``;
                                       -1 if they do not fit the game's move buffer (a
                                       limit of the kernel: reported, never cut short)
``public_view(state)``                 the part of the state every seat may see (a view)
``private_view(state, seat)``          what only ``seat`` may see (a view): its hand, ...
``apply_move(state, move, chance)``    play ``move`` for the seat to move (chance: reshuffles)
``result(state, score, rank, extra)``  per result seat: score, rank (1 = best, ties share) and
                                       the game's own columns ``extra[seat, column]``
=====================================  ========================================================

and declare ``DEALT_KINDS`` (the names of the card and token kinds it counts) with a scratch piece
``S_DEALT`` of shape (result seats, ``len(DEALT_KINDS)``): what each result seat has been dealt
or has drawn so far, counted by the rules where they deal and draw (zeroed by ``init``). Scratch
is no part of a position; :func:`play_games` copies the counts out after ``result`` when the
chunk asks for them (``out_dealt``).

Compiling them: a helper is either ``inline="always"`` or, when it is compiled on its own (a
large or rarely taken path: a deal, a resolution, Partners' 7 enumeration, a determinization),
``_nrt=False``, which it can be because it allocates nothing. With numba's runtime on, every call
to a separately compiled function counts a reference up and down for each array it is handed
(two calls into the runtime, even on a borrowed view), and LLVM cannot optimise across those
calls: Partners' rules ran 1.2-1.45x faster, its heuristics 1.1-1.2x, once their separately
compiled helpers dropped the runtime (the same games). Only ``play_chunk``, which owns the work
arrays, and the search, which allocates its tree, need it; ``tests/test_allocations.py`` checks
the rule.

The whole state of a game in progress is ``(state, chance)``: copy both and the game can be
stepped on independently; replay is seeding the streams again and re-applying the decisions.

A strategy is an ``@njit`` function with exactly :data:`STRATEGY_SIGNATURE`:
``choose(public, private, moves, n_moves, rng, params) -> index`` into ``moves[:n_moves]``. It
sees the public view, its own private view, the legal moves, its own random stream and its
parameter values (``params``, float64, in the order the strategy declares them: see
``tourney_sim.strategies.params``), nothing else (no peeking by construction). Strategies of a
matchup travel as a tuple of first-class functions, padded to :data:`MAX_STRATEGIES`, with their
parameter values as the rows of one ``float64[MAX_STRATEGIES, MAX_PARAMS]`` array, so any matchup
and any setting runs without recompiling.

:func:`play_games` is the loop over games and decisions, shared by every game. It is
``inline='always'`` and takes the game's rules module (a module is a compile-time constant to
numba: its functions are called directly, and inlined where they are ``inline='always'``), so that
each game's module-level ``play_chunk`` (one call: ``play_games(RULES, the game's decision cap,
params, chunk)``) specialises it and is still cached on disk. numba cannot cache a function given
dispatchers or modules as arguments, nor one made in a factory, so that one call per game stays:
a ``play_chunk`` made by a factory would compile again in every process, every worker included
(measured: Compañeros' compiled afresh 42 s, Colleagues' 23 s, on a loaded 2-core machine,
against 0.05 s and 0.28 s to load the cached one; a whole cached ``tourney run companeros
--games 1000 --workers 1`` takes 2.6 s).
"""
from __future__ import annotations

import sys

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, register_jitable

from .seeding import CHANCE_STREAM, FIRST_SEAT_STREAM, seed_stream

#: ``int64 choose(int32[::1] public, int32[::1] private, int64[::1] moves, int64 n,
#: uint64[::1] rng, float64[::1] params)``
STRATEGY_SIGNATURE = types.int64(
    types.int32[::1], types.int32[::1], types.int64[::1], types.int64, types.uint64[::1],
    types.float64[::1],
)


def ready(fn):
    """``fn`` compiled with exactly :data:`STRATEGY_SIGNATURE` and closed to any other, which is
    how a kernel takes a strategy (a first-class function of one type). A strategy declared with
    the signature (the heuristics, every plug-in) already is. The search (``ismcts``) is declared
    without it, ``@njit(cache=True)``: compiling it is about half of a game's first compile
    (30-35 s of Colleagues' 76 s, of Partners' 48 s) and loading it from the cache 30-50 ms of
    every start, for a strategy few runs play; it is compiled, or loaded, here, when something
    resolves it for play (``strategies.resolve``, a kernel's strategy tuple, the stepper)."""
    if fn.get_function_type() is None:
        fn.compile(STRATEGY_SIGNATURE)
        fn.disable_compile()
        if fn.get_function_type() is None:
            raise TypeError(f"{fn.py_func.__name__} was compiled for other argument types than "
                            f"STRATEGY_SIGNATURE and cannot be handed to a kernel")
    return fn


#: Length of the strategy tuple handed to a kernel (one compiled kernel serves every matchup).
MAX_STRATEGIES = 6
#: Most seats a result row set can have (players plus non-player seats such as a Grey Entity).
MAX_SEATS = 8
#: Most players (deciding seats) in any game; the loop holds one private view per player seat.
MAX_PLAYER_SEATS = 6

# error codes written to ``error[0]`` by play_games (``error[1:4]`` = game index, seat, value)
ERR_NONE = 0
ERR_ILLEGAL_CHOICE = 1  # the strategy returned an index outside [0, n_moves)
ERR_NO_MOVES = 2  # the game reported no legal move for the seat to move (a rules bug)
ERR_TOO_LONG = 3  # more decisions than the game's declared maximum (a rules bug)
ERR_MOVE_LIMIT = 4  # legal_moves returned -1: more legal moves than the game's buffer holds


@intrinsic
def borrow(typingctx, arr):
    """The same array without a reference count (a borrowed view).

    Every time numba hands an array to a function (a strategy call, and also an inlined rules
    function: inlining binds the argument to a new variable) it emits an NRT_incref/NRT_decref
    pair, each an atomic operation on the array's meminfo. On a borrowed view (no meminfo) they
    return at once. Measured: a strategy call 17 ns -> 4.5 ns; the Compañeros rules 1.4x
    faster. A borrowed view is valid only while the array it views lives, and numba frees an
    array right after its last use: whoever borrows from an array it owns must call
    :func:`keep_alive` on it after the views' last use (play_games does, after its loop).
    """
    if not isinstance(arr, types.Array):
        return None
    rettype = arr.copy(layout="C") if arr.layout != "C" else arr

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, args[0])
        out = context.make_array(sig.return_type)(context, builder)
        context.populate_array(out, data=src.data, shape=src.shape, strides=src.strides,
                               itemsize=src.itemsize, meminfo=None)
        return out._getvalue()

    return rettype(arr), codegen


@intrinsic
def keep_alive(typingctx, arr):
    """Does nothing, but counts as a use of ``arr``: numba frees an array right after its last
    use, so an array lent out through :func:`borrow` must be kept alive this way until the
    borrowed views are done with (play_games calls it after its loop). ``arr`` may also be a
    tuple of arrays (the tuple holds a reference to each)."""
    arrays = arr.types if isinstance(arr, types.BaseTuple) else (arr,)
    if not arrays or not all(isinstance(a, types.Array) for a in arrays):
        return None

    def codegen(context, builder, sig, args):
        return context.get_dummy_value()

    return types.none(arr), codegen


@register_jitable
def lineup_seat(seat, game, n_players, rotate):
    """The lineup entry (the index into a matchup's ``lineup``) that sits at ``seat`` in game
    ``game``: with ``rotate`` game i seats ``lineup[(seat + i) % n_players]``, so over any
    n_players consecutive games every strategy sits in every seat equally often; without it,
    ``lineup[seat]``. Compiled into the kernel loop, and plain Python for the rest (numbers, or
    numpy arrays of seats and games)."""
    if rotate:
        return (seat + game % n_players) % n_players
    return seat


def rules_module(name: str):
    """A game's rules module, by its ``__name__``: how a ``rules.py`` names itself
    (``RULES = kernel.rules_module(__name__)``) to hand itself to :func:`play_games` and the search."""
    return sys.modules[name]


#: what a chunk of games is, the ``chunk`` tuple handed to a game's ``play_chunk`` (and so to
#: :func:`play_games`), in this order
CHUNK = ("n_players", "seed", "first_game", "n_games", "lineup", "rotate", "strategies", "strategy_params",
         "out_strategy", "out_score", "out_rank", "out_extra", "out_dealt", "out_start", "out_decisions", "error")


@njit(inline="always")
def play_games(rules, max_decisions, params, chunk):
    """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed`` under
    ``rules`` (the game's rules module) with ``params``; ``chunk`` holds the rest (:data:`CHUNK`).

    ``lineup[k]`` is the index (into ``strategies``) of the strategy at seat k before rotation
    (see :func:`lineup_seat`); ``strategy_params[k]`` holds the parameter values handed to
    ``strategies[k]``. A game longer than ``max_decisions`` decisions is a rules bug.
    Outputs are indexed [game - first_game, seat]. ``out_dealt`` (uint16 [game, seat, kind]) gets
    each result seat's ``S_DEALT`` row after ``result``: its kind axis is ``len(DEALT_KINDS)``
    long, or 0 when the run does not record what was dealt (nothing is copied then). Returns the
    number of games completed; on an error it stops and fills ``error``.
    """
    (n_players, seed, first_game, n_games, lineup, rotate, strategies, strategy_params,
     out_strategy, out_score, out_rank, out_extra, out_dealt, out_start, out_decisions, error) = chunk
    # the rules' functions are called as ``rules.NAME``: numba inlines those declared
    # inline="always" only when it can see the module they come from
    state_owner = np.zeros(rules.STATE_SIZE, np.int32)
    moves_owner = np.zeros(rules.MAX_MOVES, np.int64)
    chance_owner = np.zeros(4, np.uint64)
    seat_rng_owner = np.zeros((MAX_PLAYER_SEATS, 4), np.uint64)
    seat_strategy_owner = np.zeros(n_players, np.int64)
    # Everything below works on borrowed views (see ``borrow``). The caller's arrays outlive
    # this call; the owners above are kept alive until the loop is done (``keep_alive`` at the
    # end: without it numba would free them right after their last use, here).
    state = borrow(state_owner)
    moves = borrow(moves_owner)
    chance = borrow(chance_owner)
    seat_rng = borrow(seat_rng_owner)
    seat_strategy = borrow(seat_strategy_owner)
    params = borrow(params)
    lineup = borrow(lineup)
    strategy_params = borrow(strategy_params)
    out_strategy = borrow(out_strategy)
    out_score = borrow(out_score)
    out_rank = borrow(out_rank)
    out_extra = borrow(out_extra)
    out_dealt = borrow(out_dealt)
    dealt_seats, n_kinds = out_dealt.shape[1], out_dealt.shape[2]  # n_kinds 0: not recorded
    out_start = borrow(out_start)
    out_decisions = borrow(out_decisions)
    error = borrow(error)
    # What a strategy is handed, made once per chunk.
    public = borrow(rules.public_view(state))
    for g in range(n_games):
        game = first_game + g
        seed_stream(chance, seed, game, CHANCE_STREAM)
        for s in range(n_players):
            seed_stream(seat_rng[s], seed, game, FIRST_SEAT_STREAM + s)
            seat_strategy[s] = lineup[lineup_seat(s, game, n_players, rotate)]
            out_strategy[g, s] = seat_strategy[s]
        rules.init(state, params, chance)
        out_start[g] = rules.to_move(state)
        decisions = 0
        seat = rules.to_move(state)
        while seat >= 0:
            n = rules.legal_moves(state, moves)
            if n <= 0:
                error[0] = ERR_NO_MOVES if n == 0 else ERR_MOVE_LIMIT
                error[1] = game
                error[2] = seat
                return g
            if decisions >= max_decisions:
                error[0] = ERR_TOO_LONG
                error[1] = game
                error[2] = seat
                return g
            choose = strategies[seat_strategy[seat]]
            # views of a borrowed array are borrowed too: making them costs no counting
            k = seat_strategy[seat]
            choice = choose(public, rules.private_view(state, seat), moves, n, seat_rng[seat],
                            strategy_params[k])
            if choice < 0 or choice >= n:
                error[0] = ERR_ILLEGAL_CHOICE
                error[1] = game
                error[2] = seat
                error[3] = choice
                return g
            rules.apply_move(state, moves[choice], chance)
            decisions += 1
            seat = rules.to_move(state)
        rules.result(state, out_score[g], out_rank[g], out_extra[g])
        for s in range(dealt_seats):
            for k in range(n_kinds):
                out_dealt[g, s, k] = state[rules.S_DEALT + s * n_kinds + k]
        out_decisions[g] = decisions
    keep_alive(state_owner)
    keep_alive(moves_owner)
    keep_alive(chance_owner)
    keep_alive(seat_rng_owner)
    keep_alive(seat_strategy_owner)
    return n_games


# ----------------------------------------------------------------------------- shared helpers
# Speed rule for rules kernels: index the state with offsets instead of slicing it. In numba
# every slice is a new array object whose creation and death call NRT_incref/NRT_decref;
# measured on Compañeros, slices in apply_move cost more than the rules themselves.

@intrinsic
def stack_empty(typingctx, cells, dtype):
    """``stack_empty(CELLS, np.int64)``: a 1-d array of ``CELLS`` (a literal int: a module-level
    constant) uninitialised values of ``dtype`` on the stack of the compiled function this ends up
    in (an ``inline`` helper's caller), valid until that function returns: a work array for one
    decision without a heap allocation, also in code compiled ``_nrt=False`` (the array owns no
    memory, so nothing counts references to it). The apprentice measured two heap allocations a
    decision at a quarter of its time."""
    if not isinstance(cells, types.IntegerLiteral) or not isinstance(dtype, types.NumberClass):
        return None
    array_type = types.Array(dtype.instance_type, 1, "C")

    def codegen(context, builder, signature, args):
        from numba.np.arrayobj import make_array, populate_array
        item = context.get_value_type(dtype.instance_type)
        data = cgutils.alloca_once(builder, item, size=cells.literal_value)
        array = make_array(array_type)(context, builder)
        itemsize = context.get_abi_sizeof(item)
        populate_array(array, data=data, shape=[context.get_constant(types.intp, cells.literal_value)],
                       strides=[context.get_constant(types.intp, itemsize)],
                       itemsize=context.get_constant(types.intp, itemsize), meminfo=None)
        return array._getvalue()

    return array_type(cells, dtype), codegen


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (LLVM ctpop: one instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, inline="always")
def rank_descending(score, n, rank):
    """rank[s] = 1 + number of seats with a strictly higher score (ties share a rank)."""
    for s in range(n):
        r = 1
        for t in range(n):
            if score[t] > score[s]:
                r += 1
        rank[s] = r


@njit(cache=True, inline="always")
def sort_range(items, start, n):
    """Sort ``items[start:start + n]`` ascending in place (insertion sort: hands are small)."""
    for i in range(start + 1, start + n):
        v = items[i]
        j = i - 1
        while j >= start and items[j] > v:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = v


@njit(cache=True, inline="always")
def remove_sorted(items, start, n, value):
    """Remove ``value`` from the sorted ``items[start:start + n]`` keeping the order.

    The freed last slot is set to -1; returns the new length ``n - 1``.
    """
    j = start
    while items[j] != value:
        j += 1
    end = start + n - 1
    for k in range(j, end):
        items[k] = items[k + 1]
    items[end] = -1
    return n - 1
