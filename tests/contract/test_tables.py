"""The contract over generated component tables (issue 38): every game that declares components
(read from the registry) keeps its promises not only on its shipped table but on tables drawn from
its declaration (tests/contract/tables.py builds them and holds the checks):

- the kernel is the reference engine move by move, and both spell every move alike;
- legal moves are strictly ascending (no code twice) and, where the rules identify moves by their
  effect (Partners' PA-11: kind and board left), no two legal moves are one move;
- every game replays (``replay.trace_game``: no ``EngineDisagreement``), and its trace passes
  ``tourney check`` (``check.check_trace``);
- the engine's invariants hold (tests/contract/test_games.py: ``check_result``, a seat to move
  below the player count, legal moves present, the decision cap).

Each table is played at every player count with the default rules, and under every other rule
option value at the smallest count (``tables.option_sets``). The default suite plays a fixed-seed
slice (every value at its low end, every value at its high end; a few drawn tables per game); the
``slow`` tier plays each group and each key at its ends (the smallest and largest boards, decks,
hands) and more drawn tables. A planted bug per game shows each check can fail.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.replay import EngineDisagreement
from tourney_sim.simulate.stepper import KernelGame

from . import tables
from .tables import DECLARED, ContractBroken

SEED = 3800  # the extremes' games (drawn tables draw their own seed)
#: drawn tables per game: in the default suite, in the slow tier (each plays every player count
#: and rule option: a second or so per Partners table, the slowest reference engine). More:
#: ``TOURNEY_TABLE_EXAMPLES=40 python -m pytest tests/contract/test_tables.py -k more_drawn``
DEFAULT_EXAMPLES, SLOW_EXAMPLES = 6, int(os.environ.get("TOURNEY_TABLE_EXAMPLES", "8"))


def _settings(examples: int):
    """Fixed examples (derandomized, no database) and no shrinking: a failing table is reported
    as drawn, with what it changes (shrinking replays the slow reference engines for minutes)."""
    return settings(derandomize=True, max_examples=examples, deadline=None, database=None,
                    phases=(Phase.explicit, Phase.generate),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _extreme_cases(scopes) -> list:
    return [pytest.param(game, name, target, players, changed,
                         id=f"{game}-{name}-{players}p" + "".join(f"-{k}={v}" for k, v in changed.items()))
            for game in DECLARED for name, target in tables.extreme_targets(game, scopes)
            for players, changed in tables.option_sets(game)]


def _play_extreme(game, target, players, changed, seed=SEED):
    table = tables.nearest_playable(game, target, players)
    try:
        tables.check_table(game, table, players, changed, seed)
    except Exception as exc:
        exc.add_note(f"{game} {players}p {changed or ''} seed {seed}: {tables.describe(game, table)}")
        raise


def _play_drawn(game, drawn, seed, every_count=False):
    """A drawn table at every player count (mapped to the nearest playable for each) and under
    every other rule option."""
    _kind, target, order = drawn
    for players, changed in tables.option_sets(game, every_count):
        table = tables.nearest_playable(game, target, players, order)
        try:
            tables.check_table(game, table, players, changed, seed)
        except Exception as exc:
            exc.add_note(f"{game} {players}p {changed or ''} seed {seed}: {tables.describe(game, table)}")
            raise


# ------------------------------------------------------------------ the tables themselves
@pytest.mark.parametrize("game", DECLARED)
def test_generated_tables_are_playable_and_explore_the_declaration(game):
    """Drawn tables mapped to the nearest playable are playable for their player count and valid
    by the declaration, seldom the defaults, and between them change every key of the declaration;
    every extreme maps to a playable table, and one ``playable`` accepts is kept as it is."""
    spec = get_game(game)
    components = spec.components
    counts = range(spec.min_players, spec.max_players + 1)
    seen = {"tables": 0, "defaults": 0}
    changed_keys = set()

    @_settings(60)
    @given(tables.drawn_tables(game))
    def draw(drawn):
        _kind, target, order = drawn
        for n in counts:
            table = tables.nearest_playable(game, target, n, order)
            assert tables.refusal(game, table, n) is None
            components.check(table, complete=True)
            seen["tables"] += 1
            changes = components.changes(table)
            seen["defaults"] += not changes
            changed_keys.update(a.split("[")[0] for a in changes)
    draw()
    assert seen["defaults"] <= seen["tables"] // 3, seen
    assert changed_keys == set(components.values), set(components.values) - changed_keys
    for name, target in tables.extreme_targets(game):
        for n in counts:
            table = tables.nearest_playable(game, target, n)
            assert tables.refusal(game, table, n) is None, (name, n)
            if tables.refusal(game, target, n) is None:
                assert table == target, (name, n)  # a playable target is kept as it is


def test_nearest_playable_finds_each_games_own_limits():
    """Game-specific: the generic mapping finds limits that are one game's rules (Partners' deck
    of 48 to 64 cards: a dealer's three deals of 16, ``MAX_CARDS``; Compañeros' one colour for 3
    players with hands of one card; Colleagues' 200 tokens in the Coffee Room)."""
    low = dict(tables.extreme_targets("partners", ("key",)))
    assert sum(tables.nearest_playable("partners", low["deck.counts=low"], 4)["deck"]["counts"]) == 48
    high = dict(tables.extreme_targets("partners", ("key",)))
    assert sum(tables.nearest_playable("partners", high["deck.counts=high"], 4)["deck"]["counts"]) == 64
    companeros = dict(tables.extreme_targets("companeros", ("all",)))
    smallest = tables.nearest_playable("companeros", companeros["all=low"], 3)
    assert smallest["deck"]["extra_colours"] == -2 and smallest["deal"]["hand"] == 1
    colleagues = dict(tables.extreme_targets("colleagues", ("all",)))
    assert sum(tables.nearest_playable("colleagues", colleagues["all=high"], 2)["tokens"].values()) == 200


# ------------------------------------------------------------------ the default slice
@pytest.mark.parametrize("game, name, target, players, changed", _extreme_cases(("all",)))
def test_every_value_at_one_end(game, name, target, players, changed):
    """Every value at its low end / at its high end (the nearest playable table)."""
    _play_extreme(game, target, players, changed)


@pytest.mark.parametrize("game", DECLARED)
def test_drawn_tables(game):
    """A few drawn tables (fixed seed): every player count with the default rules, every other
    rule option at the smallest count."""
    @_settings(DEFAULT_EXAMPLES)
    @given(drawn=tables.drawn_tables(game), seed=st.integers(0, 2**16))
    def run(drawn, seed):
        _play_drawn(game, drawn, seed)
    run()


# ------------------------------------------------------------------ the slow slice
@pytest.mark.slow
@pytest.mark.parametrize("game, name, target, players, changed", _extreme_cases(("group", "key")))
def test_each_group_and_key_at_one_end(game, name, target, players, changed):
    """Each group, each key at its low / high end, the rest at their defaults: the smallest and
    largest boards, decks, hands the declaration allows (the nearest playable table)."""
    _play_extreme(game, target, players, changed)


@pytest.mark.slow
@pytest.mark.parametrize("game", DECLARED)
def test_more_drawn_tables(game):
    """More drawn tables (fixed seed), each rule option at every player count."""
    @_settings(SLOW_EXAMPLES)
    @given(drawn=tables.drawn_tables(game), seed=st.integers(0, 2**16))
    def run(drawn, seed):
        _play_drawn(game, drawn, seed, every_count=True)
    run()


# ------------------------------------------------------------------ planted bugs: the checks can fail
def _high_table(game: str) -> tuple[dict, int]:
    """Every value at its high end (nearest playable) at the smallest player count."""
    players = get_game(game).min_players
    return tables.nearest_playable(game, dict(tables.extreme_targets(game, ("all",)))["all=high"], players), players


def _reference_ignores_the_table(monkeypatch, game: str) -> None:
    """Planted bug: the reference engine plays the shipped table whatever the params say (the
    planted tests play the default rule options)."""
    spec = get_game(game)
    real = spec.reference.Game.__init__

    def planted(self, params, chance):
        real(self, spec.make_params(int(params[0]), spec.resolve_options([])), chance)
    monkeypatch.setattr(spec.reference.Game, "__init__", planted)


@pytest.mark.parametrize("game", DECLARED)
def test_planted_reference_that_ignores_the_table_fails_the_differential(game, monkeypatch):
    table, players = _high_table(game)
    tables.differential(game, tables.defaults(game), players, {}, SEED, 1)  # invisible on the defaults
    _reference_ignores_the_table(monkeypatch, game)
    tables.differential(game, tables.defaults(game), players, {}, SEED, 1)
    with pytest.raises(AssertionError):
        tables.differential(game, table, players, {}, SEED, 1)


@pytest.mark.parametrize("game", DECLARED)
def test_planted_reference_that_ignores_the_table_fails_the_replay(game, monkeypatch):
    table, players = _high_table(game)
    _reference_ignores_the_table(monkeypatch, game)
    tables.replay(game, tables.defaults(game), players, {}, SEED)
    # the engines part: on the seat to move, a move the kernel plays that the reference engine
    # does not list, or the result
    with pytest.raises(EngineDisagreement):
        tables.replay(game, table, players, {}, SEED)


@pytest.mark.parametrize("game", DECLARED)
def test_planted_reference_that_ignores_the_table_fails_check_trace(game, monkeypatch):
    """A trace recorded by a sound tourney, checked by a reference engine with the bug."""
    from tourney_sim.simulate.check import check_trace
    table, players = _high_table(game)
    trace = tables.replay(game, table, players, {}, SEED)
    _reference_ignores_the_table(monkeypatch, game)
    report = check_trace(trace)
    assert not report.ok, report.message


@pytest.mark.parametrize("game", DECLARED)
def test_planted_duplicate_move_fails_the_ascending_check(game, monkeypatch):
    """Planted bug in both engines alike (so the differential cannot see it): the last legal move
    listed twice."""
    spec = get_game(game)
    kernel_moves, reference_moves = KernelGame.legal_moves, spec.reference.Game.legal_moves
    monkeypatch.setattr(KernelGame, "legal_moves", lambda self: (lambda m: m + m[-1:])(kernel_moves(self)))
    monkeypatch.setattr(spec.reference.Game, "legal_moves",
                        lambda self: (lambda m: m + m[-1:])(reference_moves(self)))
    with pytest.raises(ContractBroken, match="duplicates"):
        tables.differential(game, tables.defaults(game), spec.min_players, {}, SEED, 1)


def test_planted_second_code_for_one_move_fails_the_partners_identity(monkeypatch):
    """Planted bug in both engines alike: the first forward move of a position listed a second
    time under another code (bit 56 set, which a single piece's code leaves unused) that plays
    the same."""
    from tourney_sim.simulate.games.partners import reference as ref
    ghost = 1 << 56
    reference = ref.Game
    kernel_moves, kernel_apply = KernelGame.legal_moves, KernelGame.apply
    reference_moves, reference_play = reference.legal_moves, reference.play

    def with_ghost(moves, effects):
        forward = [m for m in moves if m < ref.GIVE and (effects[m >> 58][ref.FWD] or effects[m >> 58][ref.FWD2])
                   and m & 127 != ref.OUTSIDE_CODE]
        return sorted(moves + [forward[0] | ghost]) if forward else moves

    def params_effects(params):
        return [[int(params[ref.P_KIND_TABLE + k * ref.N_EFFECTS + e]) for e in range(ref.N_EFFECTS)]
                for k in range(ref.N_KINDS)]

    monkeypatch.setattr(KernelGame, "legal_moves", lambda self: with_ghost(kernel_moves(self),
                                                                           params_effects(self.params)))
    monkeypatch.setattr(KernelGame, "apply", lambda self, move: kernel_apply(self, move & ~ghost))
    monkeypatch.setattr(reference, "legal_moves", lambda self: with_ghost(reference_moves(self), self.effects))
    monkeypatch.setattr(reference, "play", lambda self, seat, kind, move: reference_play(self, seat, kind,
                                                                                           move & ~ghost))
    with pytest.raises(ContractBroken, match="identity"):
        tables.differential("partners", tables.defaults("partners"), 4, {}, SEED, 1)
