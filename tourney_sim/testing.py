"""The contract every game keeps, as a library function (like pgx's ``api_test`` and OpenSpiel's
games_sim_test): :func:`check_game` runs it on one registered game, so a game outside the package
(``TOURNEY_GAME_PATH``) checks itself from its own folder, with no test suite of tourney's::

    from tourney_sim.testing import check_game
    report = check_game("duel")      # raises ContractFailure listing every failure
    print(report.summary())

What is checked, in every configuration of the game (every player count with the default rules,
and every rule option value other than its default at the smallest table: :func:`configurations`):

- ``differential``: the compiled kernel is the reference engine move by move over seeded random
  games (the seat to move, the same ascending legal moves, the result), and both spell every legal
  move alike (``reference.action`` is the notation's ``move_to_json``; ``describe_move`` words);
- ``invariants``: random games keep the engine's invariants (a seat to move below the player
  count or the end, legal moves present, strictly ascending, within the move buffer, the decision
  cap, a well-formed result); with a support module, the game's own state ``invariant`` after the
  deal and every move (compiled);
- ``replay``: games of the game's heuristics traced with kernel and reference side by side
  (``replay.trace_game``), valid by the trace schema and accepted by ``tourney check``
  (``check.check_trace``); the golden games stored beside the game's folder still play byte for
  byte and are accepted;
- ``notation``: every position round-trips through its JSON text and play goes on identically from
  it; what is no JSON object, and random edits of real positions, are refused in one line or play
  on to the end; the reference engine's recorded chance events replay the game without the stream;
- ``hidden``: ``determinize`` reads only the seat's two views and its stream (garbage elsewhere,
  any old output, in place) and no built-in heuristic peeks; with a support module, samples keep
  the views, the game's invariant and ``sample_check``, and play on to the end;
- ``dealt``: the game declares what it counts (``DEALT_KINDS``, ``S_DEALT``), the compiled loop
  writes what the stepper counts and, with a support module, the counts are what the chance events
  dealt;
- ``components``: the shipped component table and a few seeded variations of it (mapped to the
  nearest playable table) play in both engines and replay (a game declaring components).

A *support module* holds what only the game's author can write (tests/support/__init__.py in the
repository describes it): ``invariant(state)`` and ``sample_check(real, sample, seat)``
(compiled, 0 or an error code), ``not_position(state)`` and ``dealt_by_chance(kind, outcome)``.
A game outside the package keeps it as ``support/<game>.py`` beside its ``games/`` folder (found by
:func:`support_for`); without one, the checks that need it are listed as skipped.

Every failure names the check, game, player count, changed rule options, seed, game index and step.
Neither pytest nor hypothesis is imported here.
"""
from __future__ import annotations

import copy as _copy
import functools
import importlib.util
import json
import random as _random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np
from numba import njit

from tourney_sim.simulate.check import check_trace, load_trace, validate_trace
from tourney_sim.simulate.games import GAME_PATH, game_names, get_game
from tourney_sim.simulate.games.chance import ScriptedChance, StreamChance
from tourney_sim.simulate.games.spec import GameSpec, PositionError
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.replay import record_game, trace_game
from tourney_sim.simulate.seeding import PyStream, below, new_stream, seed_stream
from tourney_sim.simulate.stepper import KernelGame

PICK_STREAM = 1000  # the checks' own stream for choosing random moves
PLAY_ON_STREAM = 2000  # random moves after a position was loaded, or of a sample played on
DET_STREAM = 3000  # the determinization's own stream
SAMPLE_CHANCE_STREAM = 4000  # the chance events of a sample played on

SUPPORT_FUNCTIONS = ("invariant", "sample_check", "not_position", "dealt_by_chance")
CHECKS = ("differential", "invariants", "replay", "notation", "hidden", "dealt", "components")


# ------------------------------------------------------------------ failures and the report
class ContractFailure(AssertionError):
    """A check of the contract failed; ``str()`` says where (check, game, players, changed rule
    options, seed, game index, step) and what differs. A report's failures are these."""

    def __init__(self, message: str, *, check: str | None = None, game: str | None = None,
                 players: int | None = None, changed=(), seed: int | None = None,
                 game_index: int | None = None, step: int | None = None):
        super().__init__(message)
        self.message, self.check, self.game, self.players = message, check, game, players
        self.changed, self.seed, self.game_index, self.step = tuple(changed), seed, game_index, step

    def locate(self, **where) -> "ContractFailure":
        """Fill in what is not known yet (the caller knows the configuration and the check)."""
        for key, value in where.items():
            if getattr(self, key) in (None, ()):
                setattr(self, key, tuple(value) if key == "changed" else value)
        self.args = (str(self),)
        return self

    def where(self) -> str:
        parts = []
        if self.check:
            parts.append(f"{self.check}:")
        if self.game:
            parts.append(self.game)
        if self.players is not None:
            parts.append(f"{self.players}p")
        parts += [f"{k}={v}" for k, v in self.changed]
        if self.seed is not None:
            parts.append(f"seed {self.seed}")
        if self.game_index is not None:
            parts.append(f"game {self.game_index}")
        if self.step is not None:
            parts.append(f"step {self.step}")
        return " ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


def _fail(message: str, game_index: int | None = None, step: int | None = None) -> ContractFailure:
    return ContractFailure(message, game_index=game_index, step=step)


def _ensure(condition, message, game_index=None, step=None) -> None:
    if not condition:
        raise _fail(message() if callable(message) else message, game_index, step)


@dataclass
class GameReport:
    """What :func:`check_game` did: per check, what it covered (decisions, games, positions...),
    the failures, the checks skipped (and why) and the seconds taken."""
    game: str
    counts: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    def count(self, check: str, what: str, n: int) -> None:
        self.counts.setdefault(check, {}).setdefault(what, 0)
        self.counts[check][what] += int(n)

    def summary(self) -> str:
        lines = [f"{self.game}: {'ok' if self.ok else f'{len(self.failures)} failures'} in {self.seconds:.1f} s"]
        for check, counts in self.counts.items():
            lines.append(f"  {check}: " + ", ".join(f"{n} {what}" for what, n in counts.items()))
        lines += [f"  skipped: {s}" for s in self.skipped]
        lines += [f"  FAILED {f}" for f in self.failures]
        return "\n".join(lines)

    def raise_if_failed(self) -> "GameReport":
        if self.failures:
            raise ContractFailure(f"{self.game} breaks the contract ({len(self.failures)} failures):\n"
                                  + "\n".join(f"  {f}" for f in self.failures))
        return self


# ------------------------------------------------------------------ configurations
def changed_values(option) -> list:
    """The values of a rule option other than its default (a file option: none, its default
    table only)."""
    if option.kind == "bool":
        return [not option.default]
    if option.kind == "choice":
        return [v for v in option.choices if v != option.default]
    if option.kind == "int":
        return [option.default + 1]
    return []


@dataclass(frozen=True)
class Configuration:
    game: str
    players: int
    changed: tuple = ()  # (option name, value) pairs changed from the defaults

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    @property
    def params(self) -> np.ndarray:
        options = {o.name: o.default for o in self.spec.options}
        options.update(self.changed)
        return self.spec.make_params(self.players, options)

    def where(self) -> dict:
        return {"game": self.game, "players": self.players, "changed": self.changed}

    def __str__(self) -> str:
        return "-".join([self.game, f"{self.players}p"] + [f"{k}={v}" for k, v in self.changed])


def configurations(game: str | None = None) -> list[Configuration]:
    """Every player count with the default rules, and every rule option value other than its
    default at the smallest table; of one game, or of every registered game."""
    out = []
    for name in ([game] if game else game_names()):
        spec = get_game(name)
        out += [Configuration(name, n) for n in range(spec.min_players, spec.max_players + 1)]
        out += [Configuration(name, spec.min_players, ((o.name, v),))
                for o in spec.options for v in changed_values(o)]
    return out


# ------------------------------------------------------------------ the support module
def support_for(game: str) -> ModuleType | None:
    """The support module of a game of ``TOURNEY_GAME_PATH``: ``support/<game>.py`` beside its
    ``games/`` folder (None if there is none)."""
    found = [Path(d) / "support" / f"{game}.py" for d in GAME_PATH if (Path(d) / "support" / f"{game}.py").is_file()]
    if not found:
        return None
    spec = importlib.util.spec_from_file_location(f"tourney_game_support_{game}", found[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def golden_files_for(game: str) -> list[Path]:
    """The golden games of ``game`` stored beside its folder: ``golden/*.json`` of the
    ``TOURNEY_GAME_PATH`` directory holding ``games/<game>/``."""
    out = []
    for d in GAME_PATH:
        if (Path(d) / "games" / game).is_dir():
            out += [p for p in sorted((Path(d) / "golden").glob("*.json")) if json.loads(p.read_text())["game"] == game]
    return out


# ------------------------------------------------------------------ differential
def differential(spec: GameSpec, reference, params, seed: int, games: int, on_step=None,
                 spell: bool = False) -> int:
    """Play ``games`` random games in the kernel and in the reference engine side by side.

    At every step both must agree on the seat to move and the legal moves (the same ascending
    list); both get the same random move; at the end both give the same result. With ``spell``,
    every legal move is also spelled alike by both (``reference.action`` is the notation's
    ``move_to_json``) and described in words. Returns the number of decisions checked."""
    checked = 0
    for g in range(games):
        k = KernelGame(spec, params, seed, g)
        r = reference.Game(params, PyStream(seed, g, 0))
        pick = PyStream(seed, g, PICK_STREAM)
        steps = 0
        while True:
            seat = k.to_move()
            _ensure(seat == r.to_move(), lambda: f"to_move: kernel {seat} != reference {r.to_move()}", g, steps)
            if seat < 0:
                break
            km = k.legal_moves()
            rm = r.legal_moves()
            _ensure(km == rm, lambda: f"legal moves: kernel {km} != reference {rm}", g, steps)
            _ensure(km, "no legal move", g, steps)
            if spell:
                for m in km:
                    a, b = r.action(m), spec.move_to_json(k.state, m)
                    _ensure(a == b, lambda: f"move {m} spelled {a!r} by the reference, {b!r} by the notation", g, steps)
                    text = spec.describe_move(k.state, m)
                    _ensure(isinstance(text, str) and text, f"move {m} is described as {text!r}", g, steps)
            move = km[pick.below(len(km))]
            k.apply(move)
            r.apply(move)
            if on_step is not None:
                on_step(k)
            steps += 1
            _ensure(steps <= spec.max_decisions, f"past the decision cap {spec.max_decisions}", g, steps)
        _ensure(k.result() == tuple(r.result()), lambda: f"result: kernel {k.result()} != reference {r.result()}", g)
        checked += steps
    return checked


def check_differential(config: Configuration, seed: int, decisions: int) -> tuple[int, int]:
    """Random games side by side (seeds ``seed``, ``seed + 1``, ...: game 0 of each) until
    ``decisions`` decisions were checked, every game to its end; returns (games, decisions)."""
    spec, params = config.spec, config.params
    checked = games = 0
    while checked < decisions:
        try:
            checked += differential(spec, spec.reference, params, seed=seed + games, games=1, spell=True)
        except ContractFailure as failure:
            raise failure.locate(seed=seed + games)
        games += 1
    return games, checked


# ------------------------------------------------------------------ invariants
def check_result(spec: GameSpec, players: int, result) -> None:
    """A well-formed result: a row per result seat, the game's columns, ranks from 1 with r - 1
    places (seats, or teams) strictly better than rank r, partners sharing score and rank."""
    scores, ranks, extras = result
    seats = spec.result_seats(players)
    _ensure(len(scores) == len(ranks) == len(extras) == seats,
            lambda: f"result: {len(scores)} scores, {len(ranks)} ranks, {len(extras)} rows for {seats} seats")
    _ensure(all(len(row) == len(spec.columns) for row in extras), lambda: f"result: columns {extras}")
    _ensure(min(ranks) == 1 and all(1 <= r <= seats for r in ranks), f"result: ranks {ranks}")

    def place(s):
        return spec.team_of(s, players) if s < players else s
    for r in ranks:
        _ensure(len({place(s) for s, other in enumerate(ranks) if other < r}) == r - 1, f"result: ranks {ranks}")
    if spec.team_game:  # partners share their team's score and rank
        for s in range(players):
            partner = next(p for p in range(players) if p != s and spec.team_of(p, players) == spec.team_of(s, players))
            _ensure((scores[s], ranks[s]) == (scores[partner], ranks[partner]),
                    f"result: seat {s} and its partner {partner} differ: scores {scores}, ranks {ranks}")


def check_engine_invariants(config: Configuration, seed: int, games: int) -> int:
    """Random games (``games`` of seed ``seed``) keep the engine's invariants; returns decisions."""
    spec, players, params = config.spec, config.players, config.params
    decisions = 0
    for g in range(games):
        k = KernelGame(spec, params, seed, g)
        pick = PyStream(seed, g, PICK_STREAM)
        steps = 0
        while (seat := k.to_move()) >= 0:
            _ensure(seat < players, f"seat {seat} to move with {players} players", g, steps)
            moves = k.legal_moves()
            _ensure(0 < len(moves) <= spec.max_moves, f"{len(moves)} legal moves (buffer {spec.max_moves})", g, steps)
            _ensure(all(a < b for a, b in zip(moves, moves[1:])), f"legal moves not strictly ascending: {moves}", g, steps)
            k.apply(moves[pick.below(len(moves))])
            steps += 1
            _ensure(steps <= spec.max_decisions, f"past the decision cap {spec.max_decisions}", g, steps)
        try:
            check_result(spec, players, k.result())
        except ContractFailure as failure:
            raise failure.locate(game_index=g, step=steps)
        decisions += steps
    return decisions


@njit
def random_playthroughs(init, to_move, legal_moves, apply_move, invariant, state_size, max_moves,
                        max_decisions, params, seed, n_games, lengths):
    """Play ``n_games`` uniformly random games compiled, calling ``invariant(state)`` after the
    deal and after every move; returns (game, step, code) of the first failure or (-1, 0, 0)."""
    state = np.zeros(state_size, np.int32)
    moves = np.zeros(max_moves, np.int64)
    chance = np.zeros(4, np.uint64)
    pick = np.zeros(4, np.uint64)
    for g in range(n_games):
        seed_stream(chance, seed, g, 0)
        seed_stream(pick, seed, g, 1000)
        init(state, params, chance)
        code = invariant(state)
        if code != 0:
            return g, 0, code
        steps = 0
        while to_move(state) >= 0:
            n = legal_moves(state, moves)
            if n <= 0:
                return g, steps, -1
            for i in range(1, n):
                if moves[i] <= moves[i - 1]:
                    return g, steps, -2  # legal moves must be strictly ascending
            apply_move(state, moves[below(pick, n)], chance)
            steps += 1
            if steps > max_decisions:
                return g, steps, -3
            code = invariant(state)
            if code != 0:
                return g, steps, code
        lengths[g] = steps
    return -1, 0, 0


def check_game_invariant(config: Configuration, support, seed: int, games: int) -> int:
    """Random games, compiled, keep the game's own ``invariant`` after the deal and every move;
    returns the decisions played."""
    spec, m = config.spec, config.spec.module
    lengths = np.zeros(games, np.int64)
    g, step, code = random_playthroughs(
        m.init, m.to_move, m.legal_moves, m.apply_move, support.invariant, spec.state_size,
        spec.max_moves, spec.max_decisions, config.params, np.uint64(seed), games, lengths)
    what = {-1: "no legal move", -2: "legal moves not strictly ascending", -3: "past the decision cap"}
    _ensure(g == -1, lambda: what.get(code, f"the game's invariant returns {code}"), g, step)
    _ensure(lengths.min() > 0, "a game without a decision")
    return int(lengths.sum())


# ------------------------------------------------------------------ replay and tourney check
def replay_seats(game: str, players: int, seed: int) -> list[str]:
    """The strategies of a replayed game: the game's heuristics (no search), rotated by the seed."""
    names = [s.setting for s in heuristics(game)]
    return [names[(seed + s) % len(names)] for s in range(players)]


def check_replay(game: str, players: int, options: dict, seed: int, game_index: int = 0) -> dict:
    """Trace game ``game_index`` of a matchup of the game's heuristics (``replay.trace_game``:
    kernel and reference side by side, ``EngineDisagreement`` if they part), check it against the
    engine's invariants, the schema (as JSON) and ``tourney check``; returns the trace."""
    spec = get_game(game)
    m = make_matchup(game, players, replay_seats(game, players, seed), seed=seed, options=options)
    trace = trace_game(m, game_index)
    decisions = [e for e in trace["history"] if "chance" not in e]
    _ensure(len(decisions) <= spec.max_decisions, f"replay: {len(decisions)} decisions", game_index)
    _ensure(all(0 <= e["seat"] < players for e in decisions), "replay: a seat out of range", game_index)
    result = trace["result"]
    try:
        check_result(spec, players, ([r["score"] for r in result], [r["rank"] for r in result],
                                     [[r[c] for c, _ in spec.columns] for r in result]))
    except ContractFailure as failure:
        raise failure.locate(game_index=game_index)
    written = json.loads(json.dumps(trace))
    validate_trace(written)
    report = check_trace(written)
    if not report.ok:
        raise ContractFailure(f"check_trace: {report.message}", game=game, players=players, seed=seed,
                              game_index=game_index)
    return trace


def golden_text(m, game_index: int, legal: bool) -> str:
    """The trace of game ``game_index`` of a matchup, as a golden file stores it (also what
    scripts/golden.py writes)."""
    return json.dumps(trace_game(m, game_index, legal=legal), indent=1, ensure_ascii=False) + "\n"


def golden_matchup(trace: dict):
    """The matchup that plays a stored trace's game again: its game, players, options, seed and
    the seating of its game (kept fixed: the trace's game index only picks the deal)."""
    seating = [seat["strategy"] for seat in trace["seats"][:trace["players"]]]
    return make_matchup(trace["game"], trace["players"], seating, seed=trace["seed"], rotate=False,
                        options=trace["options"])


def golden_replayed(trace: dict) -> str:
    """The golden file a stored trace should be, played again by today's kernel and strategies
    (with the legal moves listed if the stored trace lists them)."""
    legal = any("legal" in entry for entry in trace["history"])
    return golden_text(golden_matchup(trace), trace["game_index"], legal)


def check_golden(path: Path) -> bool:
    """A stored golden game: the kernel still plays it byte for byte, and ``tourney check``
    accepts it."""
    stored = Path(path).read_text()
    trace = json.loads(stored)
    if golden_replayed(trace) != stored:
        raise ContractFailure(f"{Path(path).name} is no longer the golden game (a deliberate change of the "
                              f"rules rewrites it, with the rules version bump)", game=trace["game"],
                              players=trace["players"], seed=trace["seed"], game_index=trace["game_index"])
    trace = load_trace(Path(path))
    report = check_trace(trace)
    if not report.ok:
        raise ContractFailure(f"{Path(path).name}: check_trace: {report.message}", game=trace["game"])
    _ensure(report.decisions == sum("seat" in e for e in trace["history"]), f"{Path(path).name}: decisions")
    _ensure(report.chance_events == sum("chance" in e for e in trace["history"]) > 0, f"{Path(path).name}: chance events")
    return True


# ------------------------------------------------------------------ notation
def through_json(spec: GameSpec, state: np.ndarray) -> np.ndarray:
    """The state of the position ``state`` is in, written as JSON text and read back."""
    return spec.load_state(json.loads(json.dumps(spec.describe_state(state))))


def check_round_trip(spec: GameSpec, support, state: np.ndarray, g=None, step=None) -> np.ndarray:
    """The state loaded back from ``state``'s JSON text, checked: a kernel state describing itself
    alike, equal to ``state`` outside what is not part of a position (``support.not_position``;
    without a support module, the described position alone is compared)."""
    loaded = through_json(spec, state)
    _ensure(loaded.dtype == np.int32 and loaded.shape == (spec.state_size,),
            f"load_state gives {loaded.dtype} {loaded.shape}", g, step)
    _ensure(spec.describe_state(loaded) == spec.describe_state(state), "the loaded position describes itself otherwise", g, step)
    if support is not None:
        differ = (loaded != state) & ~support.not_position(state)
        _ensure(not differ.any(), lambda: f"the loaded state differs at {np.flatnonzero(differ)[:10].tolist()}", g, step)
    return loaded


def play_on(game, pick: PyStream) -> list[tuple[list[int], int]]:
    """Random moves to the end of the game (a KernelGame): each decision's legal moves and the
    move taken."""
    played = []
    while game.to_move() >= 0:
        moves = game.legal_moves()
        move = moves[pick.below(len(moves))]
        game.apply(move)
        played.append((moves, move))
    return played


def _random_move(game, pick: PyStream) -> int:
    moves = game.legal_moves()
    return moves[pick.below(len(moves))]


def check_round_trips(config: Configuration, support, seed: int, games: int) -> int:
    """At every decision and the end of random games (up to a random stop); from there the real
    state and the loaded one, with copies of the same chance stream and the same random choices,
    play the same legal moves and moves to the same result and position. Returns positions."""
    spec = config.spec
    positions = 0
    for g in range(games):
        k = KernelGame(spec, config.params, seed, g)
        pick = PyStream(seed, g, PICK_STREAM)
        stop = PyStream(seed, g, PLAY_ON_STREAM + 1).below(60)
        steps = 0
        while True:
            loaded = check_round_trip(spec, support, k.state, g, steps)
            positions += 1
            if k.to_move() < 0 or steps == stop:
                break
            k.apply(_random_move(k, pick))
            steps += 1
        real, twin = k.copy(), k.copy()
        twin.state[:] = loaded
        _ensure(play_on(real, PyStream(seed, g, PLAY_ON_STREAM)) == play_on(twin, PyStream(seed, g, PLAY_ON_STREAM)),
                "play from the loaded position goes otherwise", g, steps)
        _ensure(real.result() == twin.result(), "the loaded position ends otherwise", g)
        check_round_trip(spec, support, twin.state, g)
        _ensure(spec.describe_state(real.state) == spec.describe_state(twin.state), "the loaded position ends elsewhere", g)
    return positions


def check_heuristic_round_trips(config: Configuration, support, seed: int, positions: int) -> None:
    """Every decision and the end of games of the built-in heuristics (seated in turn, the line-up
    rotating from game to game), until ``positions`` positions."""
    spec = config.spec
    lineup_of = heuristics(config.game)
    seen = g = 0
    while seen < positions:
        k = KernelGame(spec, config.params, seed, g)
        lineup = [lineup_of[(g + s) % len(lineup_of)] for s in range(config.players)]
        step = 0
        while True:
            check_round_trip(spec, support, k.state, g, step)
            seen += 1
            if k.to_move() < 0:
                break
            k.apply(k.choose(lineup[k.to_move()]))
            step += 1
        g += 1


NOT_POSITIONS = [None, [], "players: 4", 4, 1.5, True]  # no JSON object: refused, saying a position is one


def refused_in_one_line(load, value) -> str:
    """The message ``load(value)`` refuses ``value`` with: a PositionError of one line."""
    try:
        load(value)
    except PositionError as refused:
        message = str(refused)
        _ensure("\n" not in message, f"refusal of {value!r} in more than one line: {message!r}")
        return message
    raise _fail(f"accepted: {value!r}")


def check_not_objects(spec: GameSpec) -> None:
    for value in NOT_POSITIONS:
        message = refused_in_one_line(spec.load_state, value)
        _ensure("object" in message, f"refusal of {value!r} does not say a position is an object: {message!r}")


#: what an edit puts in place of a value
JUNK = [None, -1, 0, 1, 99, 2 ** 40, "red", True, 1.5, [], {}, [None], {"value": 1}]


def _nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _nodes(item, path + (i,))


def _at(value, path):
    for key in path:
        value = value[key]
    return value


def mangle(position: dict, rng: _random.Random) -> dict:
    """A copy of ``position`` with one random edit anywhere in it: an entry dropped, given junk,
    a number nudged, an entry given another's value, or a list's entry moved to another list.
    Nothing of the game is known here: it is the position's JSON that is edited."""
    edited = _copy.deepcopy(position)
    entries = [(path, value) for path, value in _nodes(edited) if path]
    path, value = entries[rng.randrange(len(entries))]
    parent, key = _at(edited, path[:-1]), path[-1]
    kind = rng.randrange(5)
    if kind == 0:
        del parent[key]
    elif kind == 1:
        parent[key] = _copy.deepcopy(rng.choice(JUNK))
    elif kind == 2 and type(value) is int:
        parent[key] = value + rng.choice((-1, 1))
    elif kind == 3:
        parent[key] = _copy.deepcopy(entries[rng.randrange(len(entries))][1])
    else:
        lists = [p for p, v in _nodes(edited) if isinstance(v, list)]
        full = [p for p in lists if _at(edited, p)]
        if full:
            source, target = _at(edited, rng.choice(full)), _at(edited, rng.choice(lists))
            target.append(source.pop(rng.randrange(len(source))))
    return edited


def check_edited_positions(config: Configuration, seed: int, count: int) -> tuple[int, int]:
    """Random edits of real positions are refused (one line) or load as states that play on to the
    end under random moves, within the buffer and the cap, through positions that load again;
    returns (refused, accepted)."""
    spec = config.spec
    rng = _random.Random(str(config))
    refused = accepted = 0
    for i in range(count):
        k = KernelGame(spec, config.params, seed, i)
        pick = PyStream(seed, i, PICK_STREAM)
        for _ in range(rng.randrange(60)):
            if k.to_move() < 0:
                break
            k.apply(_random_move(k, pick))
        edited = mangle(spec.describe_state(k.state), rng)
        try:
            state = spec.load_state(edited)
        except PositionError as refusal:
            _ensure("\n" not in str(refusal), f"refusal in more than one line: {refusal}", i)
            refused += 1
            continue
        accepted += 1
        k.state[:] = state
        spec.load_state(spec.describe_state(k.state))
        choices = PyStream(seed, i, PLAY_ON_STREAM)
        steps = 0
        while k.to_move() >= 0:
            moves = k.legal_moves()
            _ensure(0 < len(moves) <= spec.max_moves and moves == sorted(set(moves)),
                    f"an edited position's legal moves: {moves}", i, steps)
            k.apply(moves[choices.below(len(moves))])
            steps += 1
            _ensure(steps <= spec.max_decisions, "an edited position plays past the cap", i, steps)
            if steps % 4 == 0:
                spec.load_state(spec.describe_state(k.state))
        spec.load_state(spec.describe_state(k.state))
    _ensure(refused > count // 4 and accepted > 0, f"edited positions: {refused} refused, {accepted} accepted")
    return refused, accepted


def check_chance_replay(config: Configuration, seed: int, decisions: int, least_games: int = 3) -> int:
    """Random games of the reference engine on its chance stream, recording the events, until
    ``decisions`` decisions (at least ``least_games`` games): the events are plain JSON and replay
    the game without the stream (the same legal moves, the same result). Returns games."""
    reference = config.spec.reference
    seen = g = 0
    while seen < decisions or g < least_games:
        events = []
        recorded = reference.Game(config.params, StreamChance(PyStream(seed, g, 0), record=events))
        pick = PyStream(seed, g, PICK_STREAM)
        history = []
        while recorded.to_move() >= 0:
            moves = list(recorded.legal_moves())
            history.append((moves, moves[pick.below(len(moves))]))
            recorded.apply(history[-1][1])
        _ensure(events, "no chance event (the deal, at least, is one)", g)
        written = json.loads(json.dumps(events))
        _ensure(written == events, "the chance events are not plain JSON", g)
        replayed = reference.Game(config.params, ScriptedChance.from_events(written))
        for step, (moves, move) in enumerate(history):
            _ensure(list(replayed.legal_moves()) == moves, "replayed without the stream, other legal moves", g, step)
            replayed.apply(move)
        _ensure(replayed.to_move() < 0 and replayed.result() == recorded.result(),
                "replayed without the stream, another end", g)
        seen += len(history)
        g += 1
    return g


# ------------------------------------------------------------------ hidden information
def heuristics(game: str) -> list:
    """The game's built-in strategies less the search (``ismcts``: its own, costlier checks); a
    strategy that plays only with a setting (the apprentice: its weights) with every parameter
    set to a value of its range that makes it decide (its weights 1, -1, 1, ..., no exploration)."""
    from tourney_sim.strategies import available
    out = []
    for s in available(game).values():
        if s.name == "ismcts":
            continue
        if s.needs_setting:
            s = s.with_settings({p.name: (p.high if i % 2 == 0 else p.low) / p.high if p.high else p.low
                                 for i, p in enumerate(s.params) if p.kind == "real"} | {"explore": 0.0})
        out.append(s)
    return out


def seen_by(module, state: np.ndarray, seat: int) -> np.ndarray:
    """True at the indices of ``state`` that ``seat``'s two views are made of."""
    seen = np.zeros(state.shape, bool)
    base = state.__array_interface__["data"][0]
    for view in (module.public_view(state), module.private_view(state, seat)):
        _ensure(np.shares_memory(view, state), "a view must be a slice of the state, not a copy")
        start = (view.__array_interface__["data"][0] - base) // state.itemsize
        seen[start:start + len(view)] = True
    return seen


def scrambled(module, state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` with everything ``seat`` may not see replaced by garbage (-9 to 98)."""
    other = state.copy()
    hidden = ~seen_by(module, state, seat)
    other[hidden] = rng.integers(-9, 99, int(hidden.sum()))
    return other


def play_to_decisions(config: Configuration, seed: int, positions: int):
    """Yield (game, KernelGame) at every decision of random games until ``positions`` decisions."""
    seen = g = 0
    while seen < positions:
        k = KernelGame(config.spec, config.params, seed, g)
        pick = PyStream(seed, g, PICK_STREAM)
        while k.to_move() >= 0 and seen < positions:
            yield g, k
            seen += 1
            moves = k.legal_moves()
            k.apply(moves[pick.below(len(moves))])
        g += 1


def check_determinize_in_place(module, real: np.ndarray) -> None:
    """``determinize`` may write into the very array its views are slices of: the sample equals
    one written into a fresh array with the same stream."""
    seat = module.to_move(real)
    a = real.copy()
    module.determinize(module.public_view(a), module.private_view(a, seat), a, new_stream(1, 0, 0))
    b = np.zeros(module.STATE_SIZE, np.int32)
    module.determinize(module.public_view(real), module.private_view(real, seat), b, new_stream(1, 0, 0))
    _ensure(np.array_equal(a, b), "determinize into the array of its views samples otherwise")


def check_determinize_reads_views(config: Configuration, seed: int, positions: int) -> int:
    """The same stream gives the same sample from the real state, from it with everything outside
    the seat's views garbage, and written over garbage or into the real state itself; the stream
    ends in the same place each time; the real state is left untouched. Returns positions whose
    sample used the stream (> 0 required)."""
    m = config.spec.module
    garbage = np.random.default_rng(11)
    drew = 0
    for i, (g, k) in enumerate(play_to_decisions(config, seed, positions)):
        seat = k.to_move()
        real = k.state.copy()
        samples = []
        for state, out in ((k.state, np.zeros_like(k.state)),
                           (k.state, garbage.integers(-9, 99, k.state.size).astype(np.int32)),
                           (scrambled(m, k.state, seat, garbage), k.state.copy())):
            rng = new_stream(seed, i, DET_STREAM)
            _ensure(m.determinize(m.public_view(state), m.private_view(state, seat), out, rng) >= 0,
                    "determinize refused", g, i)
            samples.append((out, rng))
        _ensure(np.array_equal(k.state, real), "determinize wrote into the real state", g, i)
        for out, rng in samples[1:]:
            _ensure(np.array_equal(out, samples[0][0]), "determinize reads beyond the views (another sample)", g, i)
            _ensure(np.array_equal(rng, samples[0][1]), "determinize reads beyond the views (other draws)", g, i)
        drew += not np.array_equal(new_stream(seed, i, DET_STREAM), samples[0][1])
        try:
            check_determinize_in_place(m, k.state)
        except ContractFailure as failure:
            raise failure.locate(game_index=g, step=i)
    _ensure(drew > 0, "determinize never drew from its stream: samples are copied, not drawn")
    return drew


def check_no_peeking(config: Configuration, seed: int, positions: int) -> int:
    """Every built-in heuristic chooses the same move from the real state and from one with
    everything outside the seat's views garbage. Returns the heuristics checked."""
    m = config.spec.module
    strategies = heuristics(config.game)
    _ensure(strategies, "no built-in heuristic")
    garbage = np.random.default_rng(12)
    moves = np.zeros(config.spec.max_moves, np.int64)
    for g, k in play_to_decisions(config, seed, positions):
        seat = k.to_move()
        other = scrambled(m, k.state, seat, garbage)
        n = m.legal_moves(k.state, moves)
        for strategy in strategies:
            choices = [strategy.fn(m.public_view(state), m.private_view(state, seat), moves, n,
                                   k.seat_rng[seat].copy(), strategy.param_row()) for state in (k.state, other)]
            _ensure(choices[0] == choices[1], f"{strategy.name} peeks: {choices[0]} with the real state, "
                    f"{choices[1]} with garbage outside its views", g)
    return len(strategies)


#: a feature's scale, as its description declares it: ``; [lo, hi]`` (a range) or ``; {0, 1}``
#: (the only values it takes); the last one in the description counts
_SCALE = re.compile(r"; ([\[{])(-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)[\]}]")


def feature_scales(features) -> dict[str, tuple[float, float, bool]]:
    """{name: (lo, hi, whether it takes only those two values)} of a features module's features,
    read from the scale each description declares (``"...; [0, 1]"``, ``"...; {0, 1}"``: the one
    place it is written); ContractFailure naming a feature whose description declares none."""
    scales = {}
    for name, text in features.FEATURES:
        found = _SCALE.findall(text)
        _ensure(bool(found), f"feature {name}: its description must declare its scale, '; [lo, hi]' or "
                             f"'; {{0, 1}}' (got {text!r:.80})")
        kind, lo, hi = found[-1]
        _ensure(float(lo) < float(hi), f"feature {name}: its scale [{lo}, {hi}] is empty")
        scales[name] = (float(lo), float(hi), kind == "{")
    return scales


def checked_features(features, module, state: np.ndarray, seat: int, moves: np.ndarray, n: int,
                     fill: float = -7.5, g=None) -> np.ndarray:
    """The features of the ``n`` legal ``moves`` at ``state`` for ``seat`` (an (n, N_FEATURES)
    array), computed into a buffer filled with ``fill`` and checked: finite, each within the scale
    it declares (:func:`feature_scales`), nothing written beyond the legal moves' rows or the
    declared columns. ContractFailure (naming game ``g``) otherwise."""
    f = features.N_FEATURES
    out = np.full((n + 2, f + 2), fill)
    features.move_features(module.public_view(state), module.private_view(state, seat), moves, n, out)
    _ensure(np.isfinite(out[:n, :f]).all(), "a feature is not finite", g)
    for j, (name, (lo, hi, two_values)) in enumerate(feature_scales(features).items()):
        column = out[:n, j]
        outside = column[(column < lo - 1e-12) | (column > hi + 1e-12) | (two_values & (column != lo) & (column != hi))]
        _ensure(len(outside) == 0, lambda: f"feature {name} is {float(outside[0]):g}, outside its declared scale "
                                           f"{'{' if two_values else '['}{lo:g}, {hi:g}{'}' if two_values else ']'}", g)
    _ensure((out[n:] == fill).all() and (out[:, f:] == fill).all(),
            "move_features writes beyond the legal moves' rows or its declared columns", g)
    return out[:n, :f]


def check_features(config: Configuration, seed: int, positions: int, varied: np.ndarray | None = None) -> int:
    """The apprentice's features (a game's ``features.py``, if it has one), at every decision of
    random games: as :func:`checked_features` checks them; the same whatever was in the buffer
    before; the rows permuted as the moves are; and the same with everything outside the seat's
    views garbage. ``varied`` (a bool per feature), if given, is set where a feature tells some
    moves of a decision apart. Returns the decisions checked (0: no features)."""
    import importlib
    try:
        features = importlib.import_module(f"tourney_sim.simulate.games.{config.game}.features")
    except ModuleNotFoundError:
        return 0
    m = config.spec.module
    rng = np.random.default_rng(13)
    checked = 0
    for g, k in play_to_decisions(config, seed, positions):
        seat = k.to_move()
        moves = np.array(k.legal_moves(), np.int64)
        n = len(moves)
        x = checked_features(features, m, k.state, seat, moves, n, g=g)
        _ensure(np.array_equal(checked_features(features, m, k.state, seat, moves, n, fill=3.0, g=g), x),
                "the features depend on what was in the buffer before", g)
        order = rng.permutation(n)
        _ensure(np.array_equal(checked_features(features, m, k.state, seat, np.ascontiguousarray(moves[order]), n, g=g),
                               x[order]), "permuting the moves does not permute the features' rows", g)
        _ensure(np.array_equal(checked_features(features, m, scrambled(m, k.state, seat, rng), seat, moves, n, g=g), x),
                "the features read outside the deciding seat's views", g)
        if varied is not None:
            varied |= x.max(0) > x.min(0)
        checked += 1
    return checked


def random_stepper(module):
    """``step(state, moves, pick, chance)``, compiled for ``module``'s kernel: one uniformly random
    legal move; returns the number of legal moves, 0 if there were none."""
    legal_moves, apply_move = module.legal_moves, module.apply_move

    @njit
    def step(state, moves, pick, chance):
        k = legal_moves(state, moves)
        if k > 0:
            apply_move(state, moves[below(pick, k)], chance)
        return k
    return step


def view_checker(module):
    """``check(real, sample, seat)``, compiled: 0 if ``seat`` is to move in ``sample`` and its
    public view and ``seat``'s private view equal ``real``'s; else 101 (another seat to move), 102
    (public views differ) or 103 (private views differ)."""
    to_move, public_view, private_view = module.to_move, module.public_view, module.private_view
    public_size, private_size = module.PUBLIC_SIZE, module.PRIVATE_SIZE

    @njit
    def check(real, sample, seat):
        if to_move(sample) != seat:
            return 101
        pub_s, pub_r = public_view(sample), public_view(real)
        for i in range(public_size):
            if pub_s[i] != pub_r[i]:
                return 102
        priv_s, priv_r = private_view(sample, seat), private_view(real, seat)
        for i in range(private_size):
            if priv_s[i] != priv_r[i]:
                return 103
        return 0
    return check


_SAMPLING_CODES = {101: "the sample has another seat to move", 102: "the sample's public view differs",
                   103: "the sample's private view of the seat differs", 300: "determinize refused",
                   301: "a sample played on has no legal move", 302: "a sample played on passes the cap"}


@functools.cache
def sampling_run(game: str, support):
    """``run(real, chance, players, seed, g, out)`` compiled for one game: game ``g`` played at
    random from its deal ``real``; at every decision a determinization from the mover's views is
    checked and played on to its end. ``out`` accumulates [positions, samples whose other hands
    differ from the real ones, hidden items drawn from, play-on decisions]. Returns (step, code)
    of the first failure or (-1, 0): 101-103 the views, 100 + the invariant's code for the sample,
    200 + it at the sample's end, 400 + ``sample_check``'s code, 300-302 (:data:`_SAMPLING_CODES`)."""
    spec = get_game(game)
    m = spec.module
    invariant, sample_check = support.invariant, support.sample_check
    agree, step = view_checker(m), random_stepper(m)
    to_move, determinize, public_view, private_view = m.to_move, m.determinize, m.public_view, m.private_view
    state_size, private_size, max_moves, cap = spec.state_size, m.PRIVATE_SIZE, spec.max_moves, spec.max_decisions
    pick_stream, det_stream, play_stream, chance_stream = PICK_STREAM, DET_STREAM, PLAY_ON_STREAM, SAMPLE_CHANCE_STREAM

    @njit
    def run(real, chance, players, seed, g, out):
        sample = np.zeros(state_size, np.int32)
        moves = np.zeros(max_moves, np.int64)
        pick = np.zeros(4, np.uint64)
        det = np.zeros(4, np.uint64)
        play_pick = np.zeros(4, np.uint64)
        play_chance = np.zeros(4, np.uint64)
        seed_stream(pick, seed, g, pick_stream)
        seed_stream(det, seed, g, det_stream)
        seed_stream(play_pick, seed, g, play_stream)
        seed_stream(play_chance, seed, g, chance_stream)
        n = 0
        while to_move(real) >= 0:
            seat = to_move(real)
            hidden = determinize(public_view(real), private_view(real, seat), sample, det)
            if hidden < 0:
                return n, 300
            code = agree(real, sample, seat)
            if code != 0:
                return n, code
            code = invariant(sample)
            if code != 0:
                return n, 100 + code
            code = sample_check(real, sample, seat)
            if code != 0:
                return n, 400 + code
            differs = False
            for p in range(players):
                if p != seat:
                    a, b = private_view(real, p), private_view(sample, p)
                    for i in range(private_size):
                        differs |= a[i] != b[i]
            out[0] += 1
            out[1] += differs
            out[2] += hidden
            steps = 0
            while to_move(sample) >= 0:
                if step(sample, moves, play_pick, play_chance) == 0:
                    return n, 301
                steps += 1
                if steps > cap:
                    return n, 302
            code = invariant(sample)
            if code != 0:
                return n, 200 + code
            out[3] += steps
            step(real, moves, pick, chance)
            n += 1
        return -1, 0
    return run


def _sampling_message(code: int) -> str:
    if code in _SAMPLING_CODES:
        return _SAMPLING_CODES[code]
    kind = {1: "the sample breaks the game's invariant", 2: "the sample played to its end breaks the "
            "game's invariant", 4: "sample_check refuses the sample"}.get(code // 100, "failure")
    return f"{kind} (code {code % 100})"


def check_determinize_samples(config: Configuration, support, seed: int, positions: int,
                              differ_share: float = 0.5) -> np.ndarray:
    """At every decision of random games until ``positions``: ``determinize`` from the mover's
    views samples a state the seat may believe (views, invariant, ``sample_check``) that plays on
    to the end; hidden information was drawn and the other hands differ from the real ones in
    more than ``differ_share`` of the samples. Returns [positions, differ, hidden, played]."""
    run = sampling_run(config.game, support)
    out = np.zeros(4, np.int64)
    params = config.params
    g = 0
    while out[0] < positions:
        k = KernelGame(config.spec, params, seed, g)
        step, code = run(k.state, k.chance, config.players, np.uint64(seed), g, out)
        _ensure(step == -1, lambda: _sampling_message(code), g, step)
        g += 1
    positions_, differ, hidden, played = out
    _ensure(hidden > 0 and played > 0, f"nothing hidden was sampled, or no sample played on: {out.tolist()}")
    _ensure(differ > differ_share * positions_, f"the samples copy the other hands: {out.tolist()}")
    return out


# ------------------------------------------------------------------ what each seat was dealt
def check_dealt_declared(config: Configuration) -> None:
    spec = config.spec
    kinds = spec.dealt_kinds
    _ensure(kinds and len(set(kinds)) == len(kinds) and all(isinstance(k, str) and k for k in kinds),
            f"DEALT_KINDS {kinds!r}: not distinct non-empty names")
    piece = next((p for p in spec.module.LAYOUT.pieces("scratch") if p.name == "S_DEALT"), None)
    _ensure(piece is not None, "no scratch piece S_DEALT")
    _ensure(len(piece.shape) == 2 and piece.shape[1] == len(kinds), f"S_DEALT's shape {piece.shape}")
    _ensure(piece.shape[0] >= spec.result_seats(config.players), f"S_DEALT's shape {piece.shape}")


def traced_counts(config: Configuration, support, history: list[dict]) -> np.ndarray:
    """Counts per (result seat, kind) of what the chance events of ``history`` gave each seat."""
    spec = config.spec
    counts = np.zeros((spec.result_seats(config.players), len(spec.dealt_kinds)), np.int64)
    index = {name: k for k, name in enumerate(spec.dealt_kinds)}
    for entry in history:
        if "chance" in entry:
            (kind, outcome), = entry["chance"].items()
            for seat, name in support.dealt_by_chance(kind, outcome):
                counts[seat, index[name]] += 1
    return counts


def check_dealt_counts(config: Configuration, support, seeds) -> None:
    """Random games (game 0 of each seed): each result seat's counts at the end are exactly what
    the recorded chance events gave it, kind by kind."""
    for seed in seeds:
        rng = np.random.default_rng(seed)
        try:
            history, k = record_game(config.spec, config.params, seed, 0, lambda g: int(rng.choice(g.legal_moves())))
        except Exception as exc:
            raise ContractFailure(f"{type(exc).__name__}: {exc}", seed=seed, game_index=0)
        traced = traced_counts(config, support, history)
        _ensure(traced.sum() > 0, "the chance events dealt nothing", 0)
        if k.dealt() != traced.tolist():
            raise ContractFailure(f"dealt: counted {k.dealt()}, the chance events dealt {traced.tolist()}",
                                  seed=seed, game_index=0)


def check_dealt_chunk(config: Configuration, seed: int, games: int = 3) -> None:
    """``play_games``' ``out_dealt`` is the stepper's count at the end of the same games, and a
    run not recording ``dealt`` plays the same games."""
    spec = config.spec
    m = make_matchup(spec.name, config.players, ["random"], seed=seed, options=dict(config.changed), record=("dealt",))
    block = play_block(m, 0, games)
    _ensure(block.dealt.shape == (games, m.result_seats, len(spec.dealt_kinds)) and block.dealt.dtype == np.uint16,
            f"out_dealt {block.dealt.shape} {block.dealt.dtype}")
    for g in range(games):
        k = KernelGame(spec, m.params, m.seed, g)
        while k.to_move() >= 0:
            k.apply(k.choose(m.strategies[0]))
        _ensure(k.dealt() == block.dealt[g].tolist(),
                lambda: f"the chunk wrote {block.dealt[g].tolist()}, the stepper counts {k.dealt()}", g)
    plain = play_block(make_matchup(spec.name, config.players, ["random"], seed=seed,
                                    options=dict(config.changed)), 0, games)
    _ensure(plain.dealt.shape == (games, m.result_seats, 0), f"a run not recording dealt: {plain.dealt.shape}")
    _ensure(np.array_equal(plain.score, block.score) and np.array_equal(plain.extra, block.extra),
            "recording dealt changes the games")


# ------------------------------------------------------------------ component tables
@dataclass(frozen=True)
class Address:
    """One integer of a table: ``table[group][name]`` or, for a list key, its entry ``index``."""
    group: str
    name: str
    index: int | None
    value: object


def addresses(components) -> list[Address]:
    out = []
    for key, value in components.values.items():
        group, name = key.split(".", 1)
        for index in ([None] if value.length is None else range(value.length)):
            out.append(Address(group, name, index, value))
    return out


def table_get(table: dict, a: Address) -> int:
    v = table[a.group][a.name]
    return v if a.index is None else v[a.index]


def table_put(table: dict, a: Address, x: int) -> None:
    if a.index is None:
        table[a.group][a.name] = x
    else:
        table[a.group][a.name][a.index] = x


def copy_table(table: dict) -> dict:
    return {g: {k: (list(v) if isinstance(v, list) else v) for k, v in keys.items()} for g, keys in table.items()}


def default_table(game: str) -> dict:
    return copy_table(get_game(game).components.defaults)


def refusal(game: str, table: dict, n_players: int) -> str | None:
    """Why the game's ``playable`` refuses ``table`` for ``n_players`` (None: it is playable)."""
    playable = get_game(game).components.playable
    return None if playable is None else playable(table, n_players)


def nearest_playable(game: str, target: dict, n_players: int, order: list[int] | None = None) -> dict:
    """The playable table nearest ``target`` for ``n_players``: addresses put back to their
    defaults one at a time (in ``order``, else declaration order) until ``playable`` accepts, then
    each one moved towards the target again as far as ``playable`` allows."""
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
        if table_get(table, a) != table_get(base, a):
            table_put(table, a, table_get(base, a))
            put_back.append(a)
            if refusal(game, table, n_players) is None:
                break
    _ensure(refusal(game, table, n_players) is None, f"{game}: the defaults are not playable for {n_players}")
    moved = True
    while moved:  # towards the target again, as far as playable allows (bisecting), until none moves
        moved = False
        for a in put_back:
            near, far = table_get(table, a), table_get(target, a)
            start = near
            while near != far:
                mid = far if abs(far - near) == 1 else (near + far) // 2
                table_put(table, a, mid)
                if refusal(game, table, n_players) is None:
                    near = mid
                else:
                    table_put(table, a, near)
                    if mid == far:
                        break
                    far = mid
            table_put(table, a, near)
            moved |= near != start
    _ensure(refusal(game, table, n_players) is None, f"{game}: no playable table near the target")
    return table


def varied_tables(game: str, seed: int, count: int) -> list[dict]:
    """``count`` seeded variations of the shipped table (targets: map them through
    :func:`nearest_playable`): one to three addresses set anywhere in their range, or a list key
    filled with one value."""
    components = get_game(game).components
    every = addresses(components)
    lists = [v for v in components.values.values() if v.length is not None]
    rng = _random.Random(f"{game}-{seed}")
    out = []
    for _ in range(count):
        table = default_table(game)
        for _ in range(rng.randint(1, 3)):
            if lists and rng.random() < 0.3:
                v = rng.choice(lists)
                group, name = v.key.split(".", 1)
                table[group][name] = [rng.randint(v.low, v.high)] * v.length
            else:
                a = rng.choice(every)
                table_put(table, a, rng.randint(a.value.low, a.value.high))
        out.append(table)
    return out


def option_sets(game: str, every_count: bool = False) -> list[tuple[int, dict]]:
    """(players, rule options changed from the defaults) to play a table under: every player
    count with the default rules, and every rule option value other than its default (except the
    components table) at the smallest count (``every_count``: at every count)."""
    spec = get_game(game)
    counts = list(range(spec.min_players, spec.max_players + 1))
    out = [(n, {}) for n in counts]
    changes = [{o.name: v} for o in spec.options if o.name != "components" for v in changed_values(o)]
    for change in changes:
        out += [(n, change) for n in (counts if every_count else counts[:1])]
    return out


def options_for(spec: GameSpec, table: dict, changed: dict) -> dict:
    return {**spec.resolve_options([]), **changed, "components": table}


def check_moves(spec: GameSpec, players: int, game, moves: list[int], where: str, identity=None) -> None:
    """The legal moves of the reference engine's ``game``: present, within the move buffer,
    strictly ascending, for a seat below the player count, and (``identity(game, moves)``, a
    game's own rule) no two of them one move."""
    seat = game.to_move()
    if not 0 <= seat < players:
        raise ContractFailure(f"{where}: seat {seat} to move with {players} players")
    if not moves:
        raise ContractFailure(f"{where}: no legal move")
    for a, b in zip(moves, moves[1:]):
        if not a < b:
            raise ContractFailure(f"duplicates: {where}: legal moves not strictly ascending: {a} then {b}")
    if len(moves) > spec.max_moves:
        raise ContractFailure(f"{where}: {len(moves)} legal moves (the buffer holds {spec.max_moves})")
    if identity is not None:
        same = identity(game, moves)
        if same is not None:
            a, b, kind = same
            raise ContractFailure(f"identity: {where}: moves {a:#x} and {b:#x} of kind {kind} leave the "
                                  f"same board: {game.action(a)} / {game.action(b)}")


class _Watched:
    """A reference engine module whose games check every legal move list they give."""

    def __init__(self, spec: GameSpec, players: int, label: str, identity=None):
        self.spec, self.players, self.label, self.identity = spec, players, label, identity
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
        check_moves(w.spec, w.players, self._game, moves, f"{w.label} game {self._index} step {self._steps}",
                    w.identity)
        return moves

    def apply(self, move):
        self._steps += 1
        self._game.apply(move)


def table_differential(game: str, table: dict, players: int, changed: dict, seed: int, games: int,
                       label: str = "", identity=None) -> int:
    """Random games of ``table`` in the kernel and the (watched) reference side by side, every
    game ending with a well-formed result; returns the decisions checked."""
    spec = get_game(game)
    params = spec.make_params(players, options_for(spec, table, changed))
    watch = _Watched(spec, players, label or f"{game} {players}p seed {seed}", identity)

    def on_step(k):
        if k.to_move() < 0:
            check_result(spec, players, k.result())
    return differential(spec, watch, params, seed, games, on_step=on_step, spell=True)


def check_table(game: str, table: dict, players: int, changed: dict, seed: int, games: int = 1,
                replays: int = 1, identity=None) -> int:
    """Every check of the contract on one playable component table: valid by the declaration,
    the differential and ``replays`` traced games accepted by ``tourney check``."""
    why = refusal(game, table, players)
    _ensure(why is None, f"not playable: {why}")
    get_game(game).components.check(table, complete=True)
    decisions = table_differential(game, table, players, changed, seed, games, identity=identity)
    for g in range(replays):
        check_replay(game, players, {**changed, "components": table}, seed, g)
    return decisions


def describe_table(game: str, table: dict) -> str:
    """What a table changes from the defaults, as ``--component`` would set it."""
    return get_game(game).components.changes_text(table)


# ------------------------------------------------------------------ check_game
def check_game(game: str, *, games: int = 5, seed: int = 0, examples: int = 2, support=None,
               goldens=None, checks=CHECKS, raises: bool = True) -> GameReport:
    """Run the contract on one registered game (see the module docstring) and return a
    :class:`GameReport`; with ``raises`` (the default) a :class:`ContractFailure` listing every
    failure is raised instead when any check fails.

    ``games``: random games per configuration and check (the differential, the invariants, the
    round trips and replays scale with it; the default takes a few seconds per game once compiled);
    ``seed``: the first seed (each check offsets it); ``examples``: seeded variations of the
    shipped component table (a game declaring components); ``support``: the game's support module
    (default: ``support/<game>.py`` beside its folder on ``TOURNEY_GAME_PATH``; without one the
    checks needing it are skipped); ``goldens``: golden game files to check (default: the game's
    ``golden/*.json`` beside its folder); ``checks``: a subset of :data:`CHECKS`."""
    started = time.perf_counter()
    spec = get_game(game)
    unknown = set(checks) - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown checks {sorted(unknown)} (checks: {', '.join(CHECKS)})")
    for name, value, least in (("games", games, 1), ("examples", examples, 0)):
        if not isinstance(value, int) or value < least:
            raise ValueError(f"{name} must be a whole number of at least {least}, got {value!r}")
    report = GameReport(game)
    if support is None:
        support = support_for(game)
    if support is not None:
        missing = [name for name in SUPPORT_FUNCTIONS if not hasattr(support, name)]
        if missing:
            report.failures.append(ContractFailure(f"the support module {support.__name__} lacks {', '.join(missing)}",
                                                   check="support", game=game))
            support = None
    else:
        report.skipped.append(f"the game's own invariant, sample_check, not_position and dealt_by_chance: no "
                              f"support/{game}.py beside its folder (pass support=)")
    goldens = golden_files_for(game) if goldens is None else list(goldens)

    def attempt(check: str, config: Configuration | None, fn, *args, seed_=None):
        try:
            return fn(*args)
        except ContractFailure as failure:
            report.failures.append(failure.locate(check=check, seed=seed_, **(config.where() if config else {"game": game})))
        except Exception as exc:  # an engine that raises breaks the contract too: say where
            report.failures.append(ContractFailure(f"{type(exc).__name__}: {exc}", check=check, seed=seed_,
                                                   **(config.where() if config else {"game": game})))
        return None

    steps_per = max(1, games)
    for config in configurations(game):
        if "differential" in checks:
            done = attempt("differential", config, check_differential, config, seed + 6100, 100 * steps_per)
            if done:
                report.count("differential", "games", done[0])
                report.count("differential", "decisions", done[1])
        if "invariants" in checks:
            n = attempt("invariants", config, check_engine_invariants, config, seed + 62, 2 * steps_per, seed_=seed + 62)
            report.count("invariants", "decisions", n or 0)
            if support is not None:
                n = attempt("invariants", config, check_game_invariant, config, support, seed + 3, 20 * steps_per,
                            seed_=seed + 3)
                report.count("invariants", "compiled decisions (game invariant)", n or 0)
        if "replay" in checks:
            for g in range(max(1, games // 5)):
                if attempt("replay", config, check_replay, game, config.players, dict(config.changed), seed + 70, g,
                           seed_=seed + 70) is not None:
                    report.count("replay", "traces checked", 1)
        if "notation" in checks:
            n = attempt("notation", config, check_round_trips, config, support, seed + 63, steps_per, seed_=seed + 63)
            report.count("notation", "positions round-tripped", n or 0)
            done = attempt("notation", config, check_edited_positions, config, seed + 68, max(150, 30 * steps_per),
                           seed_=seed + 68)
            if done:
                report.count("notation", "edited positions refused", done[0])
                report.count("notation", "edited positions played on", done[1])
            n = attempt("notation", config, check_chance_replay, config, seed + 69, 100 * steps_per, seed_=seed + 69)
            report.count("notation", "games replayed from their chance events", n or 0)
        if "hidden" in checks:
            positions = 20 * steps_per
            if attempt("hidden", config, check_determinize_reads_views, config, seed + 65, positions,
                       seed_=seed + 65) is not None:
                report.count("hidden", "positions determinized from their views alone", positions)
            if attempt("hidden", config, check_no_peeking, config, seed + 66, positions, seed_=seed + 66) is not None:
                report.count("hidden", "positions where no heuristic peeks", positions)
            out = attempt("hidden", config, check_features, config, seed + 67, positions, seed_=seed + 67)
            if out:
                report.count("hidden", "positions where the apprentice's features read only the views", out)
            if support is not None:
                out = attempt("hidden", config, check_determinize_samples, config, support, seed + 64,
                              100 * steps_per, seed_=seed + 64)
                if out is not None:
                    report.count("hidden", "samples checked and played on", out[0])
        if "dealt" in checks:
            attempt("dealt", config, check_dealt_declared, config)
            attempt("dealt", config, check_dealt_chunk, config, seed + 41, 3, seed_=seed + 41)
            if support is not None:
                attempt("dealt", config, check_dealt_counts, config, support, range(seed + 700, seed + 703))
            report.count("dealt", "configurations", 1)
    if "notation" in checks:
        attempt("notation", None, check_not_objects, spec)
    if "replay" in checks:
        for path in goldens:
            if attempt("replay", None, check_golden, path) is not None:
                report.count("replay", "golden games", 1)
    if "components" in checks:
        if spec.components is None:
            report.skipped.append("components: the game declares none")
        else:
            tables = [("shipped", default_table(game))] + [
                (f"variation {i}", t) for i, t in enumerate(varied_tables(game, seed, examples))]
            for name, target in tables:
                for players, changed in option_sets(game):
                    config = Configuration(game, players, tuple(changed.items()))

                    def play(target=target, players=players, changed=changed):
                        table = nearest_playable(game, target, players)
                        try:
                            return check_table(game, table, players, changed, seed + 3800)
                        except ContractFailure as failure:
                            failure.message += f" (table: {describe_table(game, table)})"
                            raise
                    n = attempt("components", config, play, seed_=seed + 3800)
                    report.count("components", f"decisions ({len(tables)} tables)", n or 0)
    report.seconds = time.perf_counter() - started
    if raises:
        report.raise_if_failed()
    return report


__all__ = ["CHECKS", "Configuration", "ContractFailure", "GameReport", "check_game", "configurations",
           "support_for"]
