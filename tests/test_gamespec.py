"""What a game declares in its folder (its GameSpec) and in its strategies file (its heuristics, the
search's rollout policies) is consistent, for every registered game; and the mechanics every game
shares (seat rotation, stream ids) are the same wherever they are used."""
import importlib
import subprocess
import sys

import numpy as np
import pytest

from tourney_sim.simulate.games import GAME_MODULES, GameSpec, get_game
from tourney_sim.simulate.kernel import lineup_seat
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.seeding import CHANCE_STREAM, FIRST_SEAT_STREAM, new_stream
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.strategies import BUILTIN_MODULES, SEARCH_STRATEGIES, available, resolve

GAMES = list(GAME_MODULES)


@pytest.mark.parametrize("game", GAMES)
def test_default_players_is_a_count_the_game_is_played_by(game):
    spec = get_game(game)
    assert spec.min_players <= spec.default_players <= spec.max_players
    assert make_matchup(game, None, ["random"]).n_players == spec.default_players


def test_a_game_with_a_choice_of_player_counts_must_declare_its_default():
    base = get_game("cardavia")
    fields = {name: getattr(base, name) for name in base.__dataclass_fields__}
    fixed = GameSpec(**dict(fields, min_players=3, max_players=3, default_players=None))
    assert fixed.default_players == 3
    with pytest.raises(ValueError, match="declare default_players"):
        GameSpec(**dict(fields, min_players=2, max_players=5, default_players=None))


@pytest.mark.parametrize("game", GAMES)
def test_study_values_are_valid_values_of_number_options(game):
    spec = get_game(game)
    for name, values in spec.study_values.items():
        option = spec.option(name)  # RuleError for an option the game does not have
        assert option.kind == "int" and values
        for value in values:
            assert option.parse(str(value)) == value != option.default
        # the study tries them: they are among the (key, value) pairs it varies
        from tourney_sim.simulate.study import option_values
        assert {(name, str(v)) for v in values} <= set(option_values(game, spec.default_players))


@pytest.mark.parametrize("game", GAMES)
def test_study_players_are_counts_the_game_is_played_by(game):
    spec = get_game(game)
    for name, counts in spec.study_players.items():
        spec.option(name)
        assert counts and all(spec.min_players <= n <= spec.max_players for n in counts)
        from tourney_sim.simulate.study import option_values
        for n in range(spec.min_players, spec.max_players + 1):
            varied = any(key == name for key, _ in option_values(game, n))
            assert varied == (n in counts)


@pytest.mark.parametrize("game", GAMES)
def test_points_are_columns_and_the_search_scale_a_share(game):
    spec = get_game(game)
    columns = [name for name, _ in spec.columns]
    assert set(spec.points) <= set(columns) and len(set(spec.points)) == len(spec.points)
    assert spec.points_title.strip()
    assert 0.0 < spec.search_scale <= 1.0


def policy_strategy(game: str, name: str):
    """The strategy a rollout policy plays: the game's strategy of that name, or for
    ``apprentice-<N>p`` (``apprentice``) the apprentice with the weights shipped for N players
    (for the game's default player count)."""
    from tourney_sim.simulate.games.config import GameConfig
    if name == "apprentice" or (name.startswith("apprentice-") and name.endswith("p")):
        players = int(name[len("apprentice-"):-1]) if name != "apprentice" else None
        return resolve(game, ["apprentice"], config=GameConfig.build(game, players))[0]
    return resolve(game, [name])[0]


@pytest.mark.parametrize("game", [g for g in GAMES if g in BUILTIN_MODULES])
def test_rollout_policies_resolve_to_the_games_strategies(game):
    """Every rollout policy of the search is the game's strategy of that name, at that setting (the
    apprentice's: the weights shipped for each player count, and for the default one); the
    heuristics are declared once (every built-in but random and the search is a policy)."""
    module = importlib.import_module(BUILTIN_MODULES[game])
    names, rows = module.ROLLOUT_POLICIES, module.ROLLOUT_ROWS
    assert names[0] == "random" and not rows[0].any()
    assert len(set(names)) == len(names) == len(rows)
    for name, row in zip(names[1:], rows[1:]):
        np.testing.assert_array_equal(row, policy_strategy(game, name).param_row())
    builtins = [s.name for s in available(game).values() if s.origin == "built-in" and not s.needs_setting]
    heuristics = [n for n in builtins if n != "random" and n not in SEARCH_STRATEGIES and not n.endswith("-tuned")]
    assert [h.name for h in module.HEURISTICS] == heuristics
    assert {n for n in names[1:] if not n.startswith("apprentice")} == \
        {n for n in builtins if n != "random" and n not in SEARCH_STRATEGIES}
    assert "apprentice" in names
    search = available(game)["ismcts"]
    assert next(p for p in search.params if p.name == "rollout").choices == names


@pytest.mark.parametrize("game", [g for g in GAMES if g in BUILTIN_MODULES])
def test_the_rollout_plays_each_policys_strategy(game):
    """``rollout(policy, ...)`` (compiled from the declared heuristics) picks what the policy's
    strategy picks, on positions of a played game, with the same random stream."""
    module = importlib.import_module(BUILTIN_MODULES[game])
    spec = get_game(game)
    strategies = [policy_strategy(game, name) for name in module.ROLLOUT_POLICIES]
    rows = module.ROLLOUT_ROWS
    params = spec.make_params(spec.default_players, spec.resolve_options([]))
    positions, game_index = 0, 0
    k = KernelGame(spec, params, 5, game_index)
    while positions < 40 and (k.to_move() >= 0 or game_index < 20):
        if k.to_move() < 0:  # a short game (the toy duel): play on in the next one
            game_index += 1
            k = KernelGame(spec, params, 5, game_index)
        seat = k.to_move()
        n = k._legal()
        public, private = k.m.public_view(k.state), k.m.private_view(k.state, seat)
        for policy, strategy in enumerate(strategies):
            rng = new_stream(9, positions, policy)
            want = strategy.fn(public, private, k.moves, n, rng.copy(), strategy.param_row())
            got = module.rollout(policy, public, private, k.moves, n, rng.copy(), rows)
            assert got == want, (game, strategy.label, positions)
        k.apply(k.choose(strategies[0]))
        positions += 1
    assert positions >= 20


def test_lineup_seat_rotates_every_strategy_through_every_seat():
    for n in (2, 3, 4, 6):
        seats = np.arange(n)
        table = np.array([[lineup_seat(s, g, n, True) for s in seats] for g in range(7, 7 + n)])
        assert all(sorted(col) == list(range(n)) for col in table.T)  # each entry once per seat
        assert all(sorted(row) == list(range(n)) for row in table)  # a permutation every game
        # numpy arrays give the same table in one call; no rotation is the lineup itself
        np.testing.assert_array_equal(lineup_seat(seats[None, :], np.arange(7, 7 + n)[:, None], n, True), table)
        assert [lineup_seat(s, 12, n, False) for s in seats] == list(seats)


def test_the_kernel_seats_strategies_as_the_matchup_says():
    """The compiled loop, the matchup and the results' check use the one rotation."""
    from tourney_sim.simulate.results import _seating_names

    m = make_matchup("companeros", 5, ["greedy", "high", "random"], seed=2)
    block = play_block(m, 3, 9)
    labels = [s.label for s in m.strategies]
    played = [[labels[i] for i in row] for row in block.strategy]
    assert played == [m.seating(g) for g in range(3, 12)]
    assert list(_seating_names(m.describe() | {"rotate": True}, 3, 9)) == sum(played, [])
    assert len({tuple(r) for r in played}) > 1


def test_the_stepper_seeds_the_streams_the_kernel_does():
    spec = get_game("companeros")
    dealt = KernelGame(spec, spec.make_params(4, spec.resolve_options([])), 11, 6)
    k = KernelGame.from_state(spec, dealt.state, 4, seed=11, game=6)  # its streams as seeded, unused
    np.testing.assert_array_equal(k.chance, new_stream(11, 6, CHANCE_STREAM))
    for s in range(4):
        np.testing.assert_array_equal(k.seat_rng[s], new_stream(11, 6, FIRST_SEAT_STREAM + s))
    assert CHANCE_STREAM != FIRST_SEAT_STREAM


def test_the_engine_does_not_import_strategies():
    """The search, the kernel and the games load without the strategies layer."""
    code = ("import sys; import tourney_sim.simulate.search, tourney_sim.simulate.stepper, "
            "tourney_sim.simulate.games; "
            "print(sorted(m for m in sys.modules if m.startswith('tourney_sim.strategies')))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[]"
