"""Generated component tables and the checks a game must pass on each (issue 38), read from the
registry: every game that declares components (``GameSpec.components``, simulate/games/components.py)
is covered from its declaration alone. tests/contract/test_tables.py runs them.

Tables
------
A table is drawn from the declaration (each ``Value``'s ``low .. high``, lists of ``length``):

- :func:`uniform_tables`: every value uniform over its range;
- :func:`mixed_tables`: every single integer (an *address*) independently its default, its low
  end, its high end or uniform: whole families of values switched off or pushed to an end;
- :func:`changed_tables`: the defaults with a few changes: single addresses, and whole list keys
  set to one value or shifted up or down (a deck of more or fewer copies of every kind);
- :func:`extreme_targets`: deterministic; every value at its low end, at its high end, each group
  at an end (the rest default), each key at an end (the rest default: the smallest and largest
  board, deck, hand the declaration allows, one key at a time).

A drawn table the game's ``playable`` refuses is mapped to the *nearest playable* table for the
player count (:func:`nearest_playable`): starting from the target, addresses are put back to their
defaults one at a time (in a drawn order) until ``playable`` accepts, then each one put back is
moved towards the target again as far as ``playable`` allows. The defaults are playable, so this
always ends; a playable target is kept as it is. So the extreme "every deck count at 0" becomes
the smallest deck the game accepts, "every count at its high end" the largest.

Checks
------
:func:`check_table` plays one table at one player count under one set of rule options:

- :func:`differential`: random games in the kernel and the reference engine side by side
  (``tourney_sim.testing.differential`` with ``spell=True``); at every decision the reference's
  legal moves are strictly ascending (no code twice), present, within the move buffer, for a seat
  below the player count, and (where a game defines it, :data:`IDENTITIES`) no two legal moves are
  the same move by the rules' identity; every game ends within the decision cap with a well-formed
  result (``tourney_sim.testing.check_result``);
- :func:`replay`: a game played by the game's strategies (the heuristics and ``random``) traced
  through ``replay.trace_game`` (kernel and reference side by side, ``EngineDisagreement`` if they
  part), and the trace, as JSON, passes ``tourney check`` (``check.check_trace``).
"""
from __future__ import annotations

from hypothesis import strategies as st

from tourney_sim import testing
from tourney_sim.simulate.games import get_game, game_names
from tourney_sim.simulate.games.spec import GameSpec

from .configurations import changed_values

#: the games that declare components, from the registry
DECLARED = [g for g in game_names() if get_game(g).components is not None]


# ------------------------------------------------------------------ addresses of a plain table
# the library's (tourney_sim.testing: check_game plays the shipped table and seeded variations)
Address, addresses, copy_table, refusal, nearest_playable = (
    testing.Address, testing.addresses, testing.copy_table, testing.refusal, testing.nearest_playable)
get, put, defaults = testing.table_get, testing.table_put, testing.default_table


# ------------------------------------------------------------------ hypothesis strategies
def _tables_from(game: str, entry) -> st.SearchStrategy:
    """A table whose every address is drawn by ``entry(address, default)``."""
    base = get_game(game).components.defaults
    every = addresses(get_game(game).components)

    @st.composite
    def draw_table(draw):
        table = copy_table(base)
        for a in every:
            put(table, a, draw(entry(a, get(base, a))))
        return table
    return draw_table()


def uniform_tables(game: str) -> st.SearchStrategy:
    """Every value uniform over its declared range."""
    return _tables_from(game, lambda a, default: st.integers(a.value.low, a.value.high))


def mixed_tables(game: str) -> st.SearchStrategy:
    """Every address its default, its low end, its high end or uniform over its range."""
    def entry(a, default):
        v = a.value
        return st.one_of(st.just(default), st.just(v.low), st.just(v.high), st.integers(v.low, v.high))
    return _tables_from(game, entry)


def changed_tables(game: str, most: int = 4) -> st.SearchStrategy:
    """The defaults with 1 to ``most`` changes: one address to any value of its range, or a
    whole list key to one value, or shifted up or down by a step (clipped to the range)."""
    components = get_game(game).components
    every = addresses(components)
    lists = [v for v in components.values.values() if v.length is not None]

    @st.composite
    def one_change(draw):
        if lists and draw(st.booleans()):
            v = draw(st.sampled_from(lists))
            how = draw(st.sampled_from(["fill", "shift"]))
            if how == "fill":
                return ("fill", v.key, draw(st.integers(v.low, v.high)))
            return ("shift", v.key, draw(st.integers(-(v.high - v.low), v.high - v.low).filter(bool)))
        i = draw(st.integers(0, len(every) - 1))
        return ("set", i, draw(st.integers(every[i].value.low, every[i].value.high)))

    @st.composite
    def draw_table(draw):
        table = defaults(game)
        for how, what, x in draw(st.lists(one_change(), min_size=1, max_size=most)):
            if how == "set":
                put(table, every[what], x)
                continue
            v = components.values[what]
            group, name = what.split(".", 1)
            old = table[group][name]
            table[group][name] = ([x] * v.length if how == "fill"
                                  else [min(v.high, max(v.low, e + x)) for e in old])
        return table
    return draw_table()


def drawn_tables(game: str) -> st.SearchStrategy:
    """Any of the three kinds of drawn table, with the order its addresses are put back in when
    ``playable`` refuses it: (kind, table, order)."""
    n = len(addresses(get_game(game).components))
    order = st.permutations(range(n))
    return st.one_of(*(st.tuples(st.just(kind), make(game), order)
                       for kind, make in (("uniform", uniform_tables), ("mixed", mixed_tables),
                                          ("changed", changed_tables))))


def extreme_targets(game: str, scopes=("all", "group", "key")) -> list[tuple[str, dict]]:
    """(name, target table): every value at its low / high end, each group at an end and each key
    at an end (the rest at their defaults). Targets, not tables: map them through
    :func:`nearest_playable` for a player count."""
    components = get_game(game).components
    out = []
    chosen = []
    if "all" in scopes:
        chosen.append(("all", list(components.values.values())))
    if "group" in scopes:
        chosen += [(f"{g}.*", [v for k, v in components.values.items() if k.split(".")[0] == g])
                   for g in components.groups()]
    if "key" in scopes:
        chosen += [(k, [v]) for k, v in components.values.items()]
    for end in ("low", "high"):
        for scope, values in chosen:
            table = defaults(game)
            for v in values:
                group, name = v.key.split(".", 1)
                x = getattr(v, end)
                table[group][name] = x if v.length is None else [x] * v.length
            if scope != "all" and len(chosen) > 1 and table == defaults(game):
                continue  # already the defaults at that end
            out.append((f"{scope}={end}", table))
    return out


# ------------------------------------------------------------------ rule options
option_sets, options_for = testing.option_sets, testing.options_for


# ------------------------------------------------------------------ identity of moves (PA-11)
def partners_identity(game, moves: list[int]):
    """Partners (PA-11): a move is identified by its card kind and the board it leaves. Every
    play of the position is made on a copy of the reference engine's board; two legal moves of
    one kind leaving the same board are one move listed twice: returns the first such pair as
    (move, move, kind), or None. The exchange and the discard change no board: not compared."""
    from tourney_sim.simulate.games.partners import reference as ref
    if game.exchanging:
        return None
    seat = game.to_move()
    seen = {}
    for move in moves:
        if move >= ref.GIVE:  # the discard (and gives)
            continue
        kind = move >> 58
        copy = object.__new__(type(game))
        copy.__dict__.update(game.__dict__)
        copy.board = game.board.copy()
        copy.swaps, copy.ko_given, copy.ko_suffered = list(game.swaps), list(game.ko_given), list(game.ko_suffered)
        copy.play(seat, kind, move)
        key = (kind, copy.board.outcome())
        if key in seen:
            return seen[key], move, kind
        seen[key] = move
    return None


#: game -> identity check of a game's legal moves (a rule of one game only: PA-11 of Partners)
IDENTITIES = {"partners": partners_identity}


# ------------------------------------------------------------------ the checks
#: a check of the contract failed on a generated table (the message names the check)
ContractBroken = testing.ContractFailure


def check_moves(spec: GameSpec, players: int, game, moves: list[int], where: str) -> None:
    """The library's ``check_moves`` with the game's own identity of moves (:data:`IDENTITIES`)."""
    testing.check_moves(spec, players, game, moves, where, IDENTITIES.get(spec.name))


def differential(game: str, table: dict, players: int, changed: dict, seed: int, games: int,
                 label: str = "") -> int:
    """Random games of ``table`` in the kernel and the reference side by side (see the module
    docstring); returns the decisions checked."""
    return testing.table_differential(game, table, players, changed, seed, games, label,
                                      identity=IDENTITIES.get(game))


replay_seats = testing.replay_seats


def replay(game: str, table: dict, players: int, changed: dict, seed: int, game_index: int = 0) -> dict:
    """Trace game ``game_index`` of a matchup of the game's strategies on ``table``
    (``replay.trace_game``: kernel and reference side by side), check it with ``tourney check``
    (as JSON, against the schema) and the engine's invariants; returns the trace."""
    return testing.check_replay(game, players, {**changed, "components": table}, seed, game_index)


def check_table(game: str, table: dict, players: int, changed: dict, seed: int, games: int = 1,
                replays: int = 1) -> None:
    """Every check of the contract on one playable table (see the module docstring)."""
    testing.check_table(game, table, players, changed, seed, games, replays, identity=IDENTITIES.get(game))


describe = testing.describe_table
