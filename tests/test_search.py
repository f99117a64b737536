"""The search player (simulate/search.py, issue 12, in progress): no peeking, reproducible from
its seed, and stronger than random. Its determinizations have their own tests
(tests/test_determinize_GAME.py); its strength against the heuristics is measured by benchmark."""
import numpy as np
import pytest

from tourney_sim.simulate.games import game_names, get_game
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.seeding import new_stream
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.strategies import resolve

from .harness import PyStream, play_on
from .support.cli import invoke
from .support.views import scrambled

GAMES = game_names()  # every registered game, at its default player count


def default_params(spec):
    return spec.make_params(spec.default_players, spec.resolve_options([]))


def games_of_about(spec, decisions: int) -> int:
    """How many games make about ``decisions`` decisions (at least 3), measured on one random game."""
    return max(3, decisions // len(play_on(KernelGame(spec, default_params(spec), 0, 0), PyStream(0, 0, 1))))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_search_does_not_peek(game):
    """The same information set with any other hidden information (everything outside the seat's
    views garbage) gives the same decision: the search sees only its views, and its random stream."""
    spec = get_game(game)
    (search,) = resolve(game, ["ismcts:iterations=40"])
    m = spec.module
    checked = changed = 0
    for g in range(6):
        k = KernelGame(spec, default_params(spec), 3, g)
        pick = PyStream(3, g, 77)
        garbage = np.random.default_rng(g)
        while (seat := k.to_move()) >= 0:
            other = scrambled(m, k.state, seat, garbage)
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


@pytest.mark.parametrize("game", GAMES)
def test_search_games_are_reproducible_and_replay(game, tmp_path):
    spec = get_game(game)
    players = spec.default_players
    games = games_of_about(spec, 1200)  # a Partners game is some 400 decisions, a Cardavia one 48
    # the default (paired, flat) search against plain ISMCTS (a UCB root, a tree of any depth)
    args = ["run", game, "--players", players, "--strategy", "ismcts:iterations=30", "--strategy",
            "ismcts:iterations=30,root=ucb,tree_depth=0,rollout=random",
            "--games", games, "--seed", 8, "--quiet"]
    assert invoke(*args, "--workers", 1, "--out", tmp_path / "a").exit_code == 0
    assert invoke(*args, "--workers", 2, "--chunk-size", 2, "--out", tmp_path / "b").exit_code == 0
    import pyarrow.parquet as pq
    a, b = (pq.read_table(tmp_path / d).to_pandas() for d in ("a", "b"))
    assert a.equals(b)
    r = invoke("replay", tmp_path / "a", "--game", games - 1)
    assert r.exit_code == 0 and "ismcts" in r.output


def test_the_search_beats_random():
    """Compañeros, 4 players, 2 search seats against 2 random ones over 200 games, at a small
    budget (its strength against the heuristics is measured by benchmark: docs/search.md)."""
    block = play_block(make_matchup("companeros", 4, ["ismcts:iterations=60", "random"], seed=4), 0, 200)
    wins = block.rank == 1
    assert wins[block.strategy == 0].mean() > wins[block.strategy == 1].mean() + 0.25


def flat_rounds_choice(game, heuristic, public, private, moves, n, rng, iterations, scale, halving, candidates=0,
                       margin=0.0):
    """The readable twin of ``ismcts:tree_depth=1,score_weight=1`` with ``root=paired`` or
    ``root=halving``. Candidates: every legal move, or (``candidates`` k < n) the heuristic's k
    favourites: its choice, then its choice among the moves left, and so on (one play-out stream
    for all k questions). Rounds: each samples a deal, on which every candidate root move is played
    out by ``heuristic`` with the same random streams; a round is started while fewer than
    ``iterations`` play-outs were made. Halving: the heuristic's own choice is set aside first;
    before a round that would overrun the phase's budget (``iterations`` over log2(n) phases, the
    rest spread again after each halving), the worse half of the candidates by mean reward is
    dropped (never the heuristic's choice). Reward: 0.5 + lead over the table's mean / (2 scale),
    clipped. The candidate with the best mean wins, the first of equals; with a ``margin`` (halving)
    it replaces the heuristic's choice only if its mean lead over it, round by round, is more than
    ``margin`` standard errors of that mean."""
    from tourney_sim.simulate.seeding import next_u64
    spec = get_game(game)
    m = spec.module
    seat = int(public[m.H_TO_MOVE])
    totals, plays = np.zeros(n), np.zeros(n)
    buf = np.zeros(spec.max_moves, np.int64)
    cand = list(range(n))
    keep = -1
    if 0 < candidates < n:
        play = np.array([next_u64(rng) for _ in range(4)], np.uint64)
        left, cand = list(range(n)), []
        for _ in range(candidates):
            j = heuristic.fn(public, private, moves[left].copy(), len(left), play, heuristic.param_row())
            cand.append(left.pop(j))
        if len(cand) == 1:
            return cand[0]
        keep = cand[0] if halving else -1
    elif halving:
        play = np.array([next_u64(rng) for _ in range(4)], np.uint64)
        keep = heuristic.fn(public, private, moves, n, play, heuristic.param_row())
    phases = int(np.ceil(np.log2(len(cand))))
    phase_budget = iterations // phases
    made = spent = 0
    lead_over_kept = {i: [] for i in range(n)}  # per round, the candidate's reward minus the kept move's
    while made < iterations:
        if halving and spent > 0 and spent + len(cand) > phase_budget:
            means = [totals[i] / plays[i] for i in cand]
            ahead = [sum(cand[k] == keep or means[k] > means[j] or (means[k] == means[j] and k < j)
                         for k in range(len(cand))) if cand[j] != keep else 0 for j in range(len(cand))]
            cand = [i for j, i in enumerate(cand) if ahead[j] < (len(cand) + 1) // 2]
            if len(cand) == 1:
                break
            phases -= 1
            phase_budget = (iterations - made) // max(phases, 1)
            spent = 0
        world = np.zeros(m.STATE_SIZE, np.int32)
        m.determinize(public, private, world, rng)
        world_chance, world_play = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
        for w in range(4):
            world_chance[w] = next_u64(rng)
            world_play[w] = next_u64(rng)
        rewards = {}
        for i in cand:
            st, chance, play = world.copy(), world_chance.copy(), world_play.copy()
            m.apply_move(st, moves[i], chance)
            while (s := m.to_move(st)) >= 0:
                k = m.legal_moves(st, buf)
                j = heuristic.fn(m.public_view(st), m.private_view(st, s), buf, k, play, heuristic.param_row())
                m.apply_move(st, buf[j], chance)
            score, rank, extra = np.zeros(8, np.int32), np.zeros(8, np.int8), np.zeros((8, 32), np.int32)
            m.result(st, score, rank, extra)
            lead = score[seat] - score[rank > 0].mean()
            rewards[i] = min(1.0, max(0.0, 0.5 + lead / (2.0 * scale)))
            totals[i] += rewards[i]
            plays[i] += 1
            made += 1
            spent += 1
        if keep >= 0:
            for i in cand:
                lead_over_kept[i].append(rewards[i] - rewards[keep])
    means = [totals[i] / plays[i] for i in cand]
    best = cand[int(np.argmax(means))]
    if margin > 0 and keep >= 0 and best != keep:
        d = np.array(lead_over_kept[best])
        if len(d) < 2 or d.mean() <= margin * d.std(ddof=1) / np.sqrt(len(d)):
            return keep
    return best


def positions(game, players, seed, games, every):
    """About one in ``every`` of the decisions with two or more legal moves in seeded random
    games: (game index, the kernel game, seat, moves, their number); each game goes on with a
    random move (do not change its state)."""
    spec = get_game(game)
    for g in range(games):
        k = KernelGame(spec, spec.make_params(players, spec.resolve_options([])), seed, g)
        pick = PyStream(seed, g, 1)
        while (seat := k.to_move()) >= 0:
            moves = np.zeros(spec.max_moves, np.int64)
            n = spec.module.legal_moves(k.state, moves)
            if n > 1 and pick.below(every) == 0:
                yield g, k, seat, moves, n
            legal = k.legal_moves()
            k.apply(legal[pick.below(len(legal))])


@pytest.mark.parametrize("game, heuristic", [("cardavia", "guard"), ("companeros", "greedy")])
@pytest.mark.parametrize("root, candidates, margin", [("paired", 0, 0), ("halving", 0, 0), ("paired", 3, 0),
                                                      ("halving", 2, 0), ("halving", 0, 0.5)])
def test_the_flat_search_is_flat_monte_carlo_on_common_deals(game, heuristic, root, candidates, margin):
    """With ``tree_depth=1`` and a paired or halving root the search is flat Monte Carlo over
    common sampled deals (over every legal move, or the heuristic's ``candidates`` favourites):
    the compiled search chooses what its readable twin above chooses, position by position."""
    spec = get_game(game)
    m = spec.module
    (h,) = resolve(game, [heuristic])
    compared = disagree_with_heuristic = 0
    for g, k, seat, moves, n in positions(game, 4, 11, 3, every=3):
        iterations = 3 * n - 1 if root == "paired" else 4 * n
        setting = f"ismcts:root={root},tree_depth=1,score_weight=1,score_scale=7,rollout={heuristic}," \
                  f"iterations={iterations},candidates={candidates},margin={margin}"
        (search,) = resolve(game, [setting])
        pub, priv = m.public_view(k.state).copy(), m.private_view(k.state, seat).copy()
        got = search.fn(pub, priv, moves, n, new_stream(2, g, seat), search.param_row())
        want = flat_rounds_choice(game, h, pub, priv, moves, n, new_stream(2, g, seat), iterations, 7.0,
                                  root == "halving", candidates, margin)
        assert got == want
        compared += 1
        disagree_with_heuristic += got != h.fn(pub, priv, moves, n, new_stream(2, g, seat), h.param_row())
    assert compared >= 20 and disagree_with_heuristic > 0


def test_depth_is_refused_where_the_game_has_no_evaluation_and_partners_evaluates_by_race_progress():
    from tourney_sim.strategies import StrategyError
    with pytest.raises(StrategyError, match="depth"):
        resolve("cardavia", ["ismcts:depth=5"])
    from tourney_sim.strategies.partners import evaluate
    spec = get_game("partners")
    k = KernelGame(spec, spec.make_params(4, spec.resolve_options([])), 5, 0)
    reward = np.zeros(8)
    evaluate(k.state, 50.0, reward)
    assert list(reward[:4]) == [0.5] * 4  # every piece outside: even
    pick = PyStream(5, 0, 1)
    leads = 0
    while k.to_move() >= 0:
        legal = k.legal_moves()
        k.apply(legal[pick.below(len(legal))])
        evaluate(k.state, 1000.0, reward)
        # partners share, the teams' rewards are complementary, and the better placed team leads
        assert reward[0] == reward[2] and reward[1] == reward[3] and abs(reward[0] + reward[1] - 1.0) < 1e-12
        leads += reward[0] != 0.5
    assert leads > 10


def test_a_search_tournament_plays_in_small_parts(tmp_path):
    """A search plays a few games per second: its tournaments cut each seating into about 20
    parts (the progress bar moves, the work spreads over workers even with few seatings)."""
    import json
    out = tmp_path / "t"
    r = invoke("tournament", "companeros", "--players", 4, "--strategy", "ismcts:iterations=5", "--strategy",
               "random", "--seatings", "field", "--games", 40, "--seed", 2, "--workers", 1, "--quiet",
               "--out", out)
    assert r.exit_code == 0, r.output
    t = json.loads((out / "_tournament.json").read_text())
    assert t["chunk_size"] == 10 and t["seatings"] == 8
    for d in t["datasets"]:
        assert len(json.loads((out / d["dir"] / "_manifest.json").read_text())["parts"]) == 4


@pytest.mark.parametrize("policy", ["dodger", "dodger-tuned"])
def test_one_candidate_plays_the_rollout_policy_itself(policy):
    """``candidates=1`` leaves the search only the rollout policy's own choice: the games are
    the heuristic's games, move for move, at its default setting or its shipped tuned one
    (4-player Colleagues, where the root has up to 64 moves; with 3 candidates the search decides
    among the policy's three favourites and plays other games)."""
    def block(setting):
        return play_block(make_matchup("colleagues", 4, [setting, "dodger"], seed=6), 0, 12)

    same = block(f"ismcts:candidates=1,rollout={policy}")
    pruned, heuristic = block(f"ismcts:candidates=3,iterations=30,rollout={policy}"), block(policy)
    assert np.array_equal(same.score, heuristic.score) and np.array_equal(same.extra, heuristic.extra)
    assert not np.array_equal(pruned.extra, heuristic.extra)


def test_the_horizon_stops_play_outs_at_the_end_of_a_week():
    """Colleagues has three weeks: a horizon of 3 weeks is the whole game (the same decisions as
    playing out to the end), a horizon of 1 scores each play-out at the end of the week (other
    decisions); where the game has no stages, a horizon is refused."""
    from tourney_sim.strategies import StrategyError
    with pytest.raises(StrategyError, match="horizon"):
        resolve("cardavia", ["ismcts:horizon=1"])
    spec = get_game("colleagues")
    m = spec.module
    assert m.WEEKS == 3
    whole, three, one = resolve("colleagues", ["ismcts:iterations=24,horizon=0", "ismcts:iterations=24,horizon=3",
                                               "ismcts:iterations=24,horizon=1"])
    compared = differ = 0
    for g, k, seat, moves, n in positions("colleagues", 4, 9, 4, every=4):
        pub, priv = m.public_view(k.state).copy(), m.private_view(k.state, seat).copy()
        a, b, c = (s.fn(pub, priv, moves, n, new_stream(4, g, seat), s.param_row()) for s in (whole, three, one))
        assert a == b
        compared += 1
        differ += a != c
    assert compared >= 40 and differ > 0
