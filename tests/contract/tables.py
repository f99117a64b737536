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
  (``tests/harness.py::differential`` with ``spell=True``); at every decision the reference's
  legal moves are strictly ascending (no code twice), present, within the move buffer, for a seat
  below the player count, and (where a game defines it, :data:`IDENTITIES`) no two legal moves are
  the same move by the rules' identity; every game ends within the decision cap with a well-formed
  result (tests/contract/test_games.py's ``check_result``);
- :func:`replay`: a game played by the game's strategies (the heuristics and ``random``) traced
  through ``replay.trace_game`` (kernel and reference side by side, ``EngineDisagreement`` if they
  part), and the trace, as JSON, passes ``tourney check`` (``check.check_trace``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from hypothesis import strategies as st

from tourney_sim.simulate.check import check_trace, validate_trace
from tourney_sim.simulate.games import get_game, game_names
from tourney_sim.simulate.games.components import Components, Value
from tourney_sim.simulate.games.spec import GameSpec
from tourney_sim.simulate.matchup import make_matchup
from tourney_sim.simulate.replay import trace_game

from .. import harness
from .configurations import changed_values
from .test_games import check_result

#: the games that declare components, from the registry
DECLARED = [g for g in game_names() if get_game(g).components is not None]


# ------------------------------------------------------------------ addresses of a plain table
@dataclass(frozen=True)
class Address:
    """One integer of a table: ``table[group][name]`` or, for a list key, its entry ``index``."""
    group: str
    name: str
    index: int | None
    value: Value


def addresses(components: Components) -> list[Address]:
    out = []
    for key, value in components.values.items():
        group, name = key.split(".", 1)
        for index in ([None] if value.length is None else range(value.length)):
            out.append(Address(group, name, index, value))
    return out


def get(table: dict, a: Address) -> int:
    v = table[a.group][a.name]
    return v if a.index is None else v[a.index]


def put(table: dict, a: Address, x: int) -> None:
    if a.index is None:
        table[a.group][a.name] = x
    else:
        table[a.group][a.name][a.index] = x


def copy_table(table: dict) -> dict:
    return {g: {k: (list(v) if isinstance(v, list) else v) for k, v in keys.items()} for g, keys in table.items()}


def defaults(game: str) -> dict:
    return copy_table(get_game(game).components.defaults)


def refusal(game: str, table: dict, n_players: int) -> str | None:
    """Why the game's ``playable`` refuses ``table`` for ``n_players`` (None: it is playable)."""
    playable = get_game(game).components.playable
    return None if playable is None else playable(table, n_players)


def nearest_playable(game: str, target: dict, n_players: int, order: list[int] | None = None) -> dict:
    """The playable table nearest ``target`` for ``n_players`` (see the module docstring).
    ``order``: the addresses' indices in the order they are put back to their defaults
    (declaration order when None)."""
    if refusal(game, target, n_players) is None:
        return copy_table(target)
    components = get_game(game).components
    every = addresses(components)
    order = list(range(len(every))) if order is None else list(order)
    base = components.defaults
    table = copy_table(target)
    put_back = []
    for i in order:
        a = every[i]
        if get(table, a) != get(base, a):
            put(table, a, get(base, a))
            put_back.append(a)
            if refusal(game, table, n_players) is None:
                break
    assert refusal(game, table, n_players) is None, f"{game}: the defaults are not playable for {n_players}"
    moved = True
    while moved:  # towards the target again, as far as playable allows (bisecting), until none moves
        moved = False
        for a in put_back:
            near, far = get(table, a), get(target, a)
            start = near
            while near != far:
                mid = far if abs(far - near) == 1 else (near + far) // 2
                put(table, a, mid)
                if refusal(game, table, n_players) is None:
                    near = mid
                else:
                    put(table, a, near)
                    if mid == far:
                        break
                    far = mid
            put(table, a, near)
            moved |= near != start
    assert refusal(game, table, n_players) is None
    return table


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
def option_sets(game: str, every_count: bool = False) -> list[tuple[int, dict]]:
    """(players, rule options changed from the defaults) to play a table under: every player
    count with the default rules, and every rule option value other than its default (except the
    components table itself) at the smallest count (``every_count``: at every count)."""
    spec = get_game(game)
    counts = list(range(spec.min_players, spec.max_players + 1))
    out = [(n, {}) for n in counts]
    changes = [{o.name: v} for o in spec.options if o.name != "components" for v in changed_values(o)]
    for change in changes:
        out += [(n, change) for n in (counts if every_count else counts[:1])]
    return out


def options_for(spec: GameSpec, table: dict, changed: dict) -> dict:
    return {**spec.resolve_options([]), **changed, "components": table}


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
class ContractBroken(AssertionError):
    """A check of the contract failed on a generated table (the message names the check)."""


def check_moves(spec: GameSpec, players: int, game, moves: list[int], where: str) -> None:
    """The legal moves of the reference engine's ``game``: present, within the move buffer,
    strictly ascending, for a seat below the player count, and distinct by the game's identity."""
    seat = game.to_move()
    if not 0 <= seat < players:
        raise ContractBroken(f"{where}: seat {seat} to move with {players} players")
    if not moves:
        raise ContractBroken(f"{where}: no legal move")
    for a, b in zip(moves, moves[1:]):
        if not a < b:
            raise ContractBroken(f"duplicates: {where}: legal moves not strictly ascending: {a} then {b}")
    if len(moves) > spec.max_moves:
        raise ContractBroken(f"{where}: {len(moves)} legal moves (the buffer holds {spec.max_moves})")
    identity = IDENTITIES.get(spec.name)
    if identity is not None:
        same = identity(game, moves)
        if same is not None:
            a, b, kind = same
            raise ContractBroken(f"identity: {where}: moves {a:#x} and {b:#x} of kind {kind} leave the "
                                 f"same board: {game.action(a)} / {game.action(b)}")


class _Watched:
    """A reference engine module whose games check every legal move list they give."""

    def __init__(self, spec: GameSpec, players: int, label: str):
        self.spec, self.players, self.label = spec, players, label
        self.game = 0

    def Game(self, params, chance):  # noqa: N802 (the module's class name)
        self.game += 1
        return _WatchedGame(self, self.spec.reference.Game(params, chance), self.game - 1)


class _WatchedGame:
    def __init__(self, watch: _Watched, game, index: int):
        self._watch, self._game, self._index, self._steps = watch, game, index, 0

    def __getattr__(self, name):
        return getattr(self._game, name)

    def legal_moves(self):
        moves = self._game.legal_moves()
        w = self._watch
        check_moves(w.spec, w.players, self._game, moves, f"{w.label} game {self._index} step {self._steps}")
        return moves

    def apply(self, move):
        self._steps += 1
        self._game.apply(move)


def differential(game: str, table: dict, players: int, changed: dict, seed: int, games: int,
                 label: str = "") -> int:
    """Random games of ``table`` in the kernel and the reference side by side (see the module
    docstring); returns the decisions checked."""
    spec = get_game(game)
    params = spec.make_params(players, options_for(spec, table, changed))
    watch = _Watched(spec, players, label or f"{game} {players}p seed {seed}")

    def on_step(k):
        if k.to_move() < 0:
            check_result(spec, players, k.result())
    return harness.differential(spec, watch, params, seed, games, on_step=on_step, spell=True)


def replay_seats(game: str, players: int, seed: int) -> list[str]:
    """The strategies of a replayed game: the game's heuristics (no search) and ``random``,
    rotated by the seed."""
    names = [s.name for s in harness.heuristics(game)]
    return [names[(seed + s) % len(names)] for s in range(players)]


def replay(game: str, table: dict, players: int, changed: dict, seed: int, game_index: int = 0) -> dict:
    """Trace game ``game_index`` of a matchup of the game's strategies on ``table``
    (``replay.trace_game``: kernel and reference side by side), check it with ``tourney check``
    (as JSON, against the schema) and the engine's invariants; returns the trace."""
    spec = get_game(game)
    m = make_matchup(game, players, replay_seats(game, players, seed), seed=seed,
                     options={**changed, "components": table})
    trace = trace_game(m, game_index)
    decisions = [e for e in trace["history"] if "chance" not in e]
    assert len(decisions) <= spec.max_decisions, f"replay: {len(decisions)} decisions"
    assert all(0 <= e["seat"] < players for e in decisions)
    result = trace["result"]
    check_result(spec, players, ([r["score"] for r in result], [r["rank"] for r in result],
                                 [[r[c] for c, _ in spec.columns] for r in result]))
    written = json.loads(json.dumps(trace))
    validate_trace(written)
    report = check_trace(written)
    if not report.ok:
        raise ContractBroken(f"check_trace: {game} {players}p seed {seed} game {game_index}: {report.message}")
    return trace


def check_table(game: str, table: dict, players: int, changed: dict, seed: int, games: int = 1,
                replays: int = 1) -> None:
    """Every check of the contract on one playable table (see the module docstring)."""
    why = refusal(game, table, players)
    assert why is None, why
    get_game(game).components.check(table, complete=True)
    differential(game, table, players, changed, seed, games)
    for g in range(replays):
        replay(game, table, players, changed, seed, g)


def describe(game: str, table: dict) -> str:
    """What a table changes from the defaults, as ``--component`` would set it."""
    return get_game(game).components.changes_text(table)
