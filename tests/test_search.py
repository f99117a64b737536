"""The search player (simulate/search.py, issue 12, in progress): no peeking, reproducible from
its seed, and stronger than random. Its determinizations have their own tests
(tests/test_determinize_GAME.py); its strength against the heuristics is measured by benchmark."""
import numpy as np
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.seeding import new_stream
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.strategies import resolve

from .harness import PyStream
from .test_cardavia import redeal_other_hands as redeal_cardavia
from .test_cli import invoke
from .test_colleagues import hide as hide_colleagues
from .test_companeros import redeal_other_hands as redeal_companeros
from .test_partners import hide_cards as hide_partners

GAMES = {"cardavia": (4, redeal_cardavia), "companeros": (4, redeal_companeros), "colleagues": (3, hide_colleagues),
         "partners": (4, hide_partners)}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_search_does_not_peek(game):
    """The same information set with other hidden cards (the other hands redealt) gives the same
    decision: the search sees only its views, and its random stream."""
    players, redeal = GAMES[game]
    spec = get_game(game)
    (search,) = resolve(game, ["ismcts:iterations=40"])
    m = spec.module
    checked = changed = 0
    for g in range(6):
        k = KernelGame(spec, spec.make_params(players, spec.resolve_options([])), 3, g)
        pick = PyStream(3, g, 77)
        while (seat := k.to_move()) >= 0:
            other = redeal(k.state.copy(), seat, pick)
            changed += not np.array_equal(other, k.state)
            moves = np.zeros(spec.max_moves, np.int64)
            n = m.legal_moves(k.state, moves)
            if n > 1 and checked < 120:
                choices = [search.fn(m.public_view(st), m.private_view(st, seat), moves, n,
                                     new_stream(5, g, seat), search.param_row()) for st in (k.state, other)]
                assert choices[0] == choices[1]
                checked += 1
            legal = k.legal_moves()
            k.apply(legal[pick.below(len(legal))])
    assert checked >= 100 and changed > 100


@pytest.mark.parametrize("game", sorted(GAMES))
def test_search_games_are_reproducible_and_replay(game, tmp_path):
    players, _ = GAMES[game]
    games = 3 if game == "partners" else 24  # a Partners game is some 400 decisions
    args = ["run", game, "--players", players, "--strategy", "ismcts:iterations=30", "--strategy", "random",
            "--games", games, "--seed", 8, "--quiet"]
    assert invoke(*args, "--workers", 1, "--out", tmp_path / "a").exit_code == 0
    assert invoke(*args, "--workers", 2, "--chunk-size", 2, "--out", tmp_path / "b").exit_code == 0
    import pyarrow.parquet as pq
    a, b = (pq.read_table(tmp_path / d).to_pandas() for d in ("a", "b"))
    assert a.equals(b)
    r = invoke("replay", tmp_path / "a", "--game", games - 1)
    assert r.exit_code == 0 and "ismcts" in r.output


def test_the_search_beats_random():
    """Compañeros, 4 players, 2 search seats against 2 random ones over 200 games: measured
    51% against 0.5% of seat-games won (and it wins a third of its games against greedy)."""
    block = play_block(make_matchup("companeros", 4, ["ismcts:iterations=60", "random"], seed=4), 0, 200)
    wins = block.rank == 1
    assert wins[block.strategy == 0].mean() > wins[block.strategy == 1].mean() + 0.25
