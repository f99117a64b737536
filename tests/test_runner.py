"""The runner and results: determinism, rotation, manifest, atomic parts, summary with pandas."""
import dataclasses
import json
from types import ModuleType

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from tourney_sim.simulate.stats.intervals import wilson
from tourney_sim.reports.summary import COLUMNS, load, summarize
from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.simulate.results import read_manifest, read_table
from tourney_sim.simulate.runner import run


def dataset(path):
    return read_table(path).to_pandas().sort_values(["game", "seat"]).reset_index(drop=True)


@pytest.fixture(scope="module")
def matchup():
    return make_matchup("companeros", 4, ["greedy", "random", "high"], seed=7)


def test_same_data_for_any_workers_and_chunk_size(tmp_path, matchup):
    runs = [(1, 1000), (2, 1000), (2, 1700), (1, 5000)]
    frames = []
    for i, (workers, chunk) in enumerate(runs):
        run(matchup, 5000, tmp_path / f"r{i}", workers=workers, chunk_size=chunk, progress=False)
        frames.append(dataset(tmp_path / f"r{i}"))
    for f in frames[1:]:
        pd.testing.assert_frame_equal(frames[0], f)
    assert len(frames[0]) == 5000 * 4


def test_game_depends_only_on_seed_and_index(matchup):
    whole = play_block(matchup, 0, 300)
    tail = play_block(matchup, 200, 100)
    assert np.array_equal(whole.score[200:], tail.score)
    other_seed = play_block(make_matchup("companeros", 4, ["greedy", "random", "high"], seed=8), 0, 300)
    assert not np.array_equal(whole.score, other_seed.score)


def test_rotation_seats_every_strategy_everywhere_equally(matchup):
    block = play_block(matchup, 0, 400)
    names = matchup.strategy_names
    # seat names before rotation: greedy, random, high, greedy
    counts = {(names[s], seat): 0 for s in range(3) for seat in range(4)}
    for g in range(400):
        for seat in range(4):
            counts[(names[block.strategy[g, seat]], seat)] += 1
    for seat in range(4):
        assert counts[("greedy", seat)] == 200 and counts[("random", seat)] == 100
        assert counts[("high", seat)] == 100


def test_no_rotate_keeps_the_seating():
    m = make_matchup("companeros", 3, ["greedy", "random"], seed=1, rotate=False)
    block = play_block(m, 0, 50)
    assert (block.strategy == np.array([0, 1, 0])).all()


def test_manifest_and_schema(tmp_path, matchup):
    out = tmp_path / "d"
    run(matchup, 3000, out, workers=1, chunk_size=1000, progress=False, command="tourney run test")
    man = read_manifest(out)
    assert man["status"] == "complete" and man["games_done"] == 3000
    assert man["seed"] == 7 and man["game"] == "companeros" and man["rules_version"] == 1
    assert man["seats"] == ["greedy", "random", "high", "greedy"]
    assert man["options"] == {"components": get_game("companeros").components.defaults, "match_games": 1}
    assert man["command"] == "tourney run test"
    assert [p["first_game"] for p in man["parts"]] == [0, 1000, 2000]
    schema = pq.read_schema(out / "part-000000.parquet")
    assert str(schema.field("strategy").type) == "dictionary<values=string, indices=int8, ordered=0>"
    assert str(schema.field("seat").type) == "int8" and str(schema.field("rank").type) == "int8"
    assert json.loads(schema.metadata[b"tourney"])["seed"] == 7
    assert not list(out.glob(".*tmp"))  # no temporary file left behind
    df = dataset(out)
    assert list(df.columns[:9]) == ["game", "seat", "strategy", "team", "score", "rank", "win",
                                    "start_seat", "decisions"]
    assert {"cards_taken", "rounds_first_taker"} <= set(df.columns)
    assert (df["win"] == (df["rank"] == 1)).all()
    assert (df.groupby("game")["win"].sum() >= 1).all()


def test_summary_is_plain_pandas(tmp_path, matchup):
    """The printed summary (NumPy over the parts) equals the pandas recipe in its docstring."""
    out = tmp_path / "s"
    run(matchup, 2000, out, workers=1, progress=False)
    df = pd.read_parquet(out, columns=COLUMNS)  # pandas alone reads the dataset directory
    tables = summarize(*load(out))
    for key in ("strategy", "seat"):
        g = df.groupby(key, observed=True)
        games, wins, mean_score = g.size(), g["win"].sum(), g["score"].mean()
        rows = tables[key]
        assert [r.label for r in rows] == [x for x in games.index]
        assert [r.games for r in rows] == games.tolist()
        assert [r.wins for r in rows] == wins.tolist()
        assert [r.mean_score for r in rows] == pytest.approx(mean_score.tolist(), rel=1e-12)
        low, high = wilson(wins.to_numpy(), games.to_numpy())
        assert [r.ci_low for r in rows] == pytest.approx(low.tolist(), rel=1e-12)
        assert [r.ci_high for r in rows] == pytest.approx(high.tolist(), rel=1e-12)
    greedy = next(r for r in tables["strategy"] if r.label == "greedy")
    assert greedy.ci_low < greedy.win_rate < greedy.ci_high
    assert sum(r.games for r in tables["seat"]) == 2000 * matchup.n_players


def test_a_run_and_its_summary_do_not_import_pandas(tmp_path):
    """pandas costs 0.4 s to import: a short run's start-up (issue 2: under 2 s) must not pay it."""
    import subprocess
    import sys
    code = ("import sys; from tourney_sim.cli import main; sys.argv = ['tourney', 'run', 'companeros', "
            f"'--games', '500', '--workers', '1', '--out', {str(tmp_path / 'r')!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert e.code in (0, None), e.code\n"
            "assert 'pandas' not in sys.modules, 'pandas was imported'\n"
            "assert 'scipy.stats' not in sys.modules, 'scipy.stats was imported'\nprint('clean')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and "clean" in r.stdout and "by strategy" in r.stdout, r.stdout + r.stderr


def test_existing_output_refused_without_overwrite(tmp_path, matchup):
    from tourney_sim.simulate.results import OutputError
    out = tmp_path / "o"
    run(matchup, 1000, out, workers=1, progress=False)
    with pytest.raises(OutputError, match="already exists"):
        run(matchup, 1000, out, workers=1, progress=False)
    run(matchup, 1000, out, workers=1, progress=False, overwrite=True)
    other = tmp_path / "notadataset"
    other.mkdir()
    (other / "precious.txt").write_text("keep me")
    with pytest.raises(OutputError, match="not a tourney dataset"):
        run(matchup, 1000, other, workers=1, progress=False, overwrite=True)
    assert (other / "precious.txt").exists()


def test_in_process_and_command_line_runs_agree(tmp_path):
    """The same seed gives the same rows in this (test) process and in a fresh CLI process: no
    stale compiled code anywhere (the numba cache is keyed to the sources)."""
    import subprocess
    import sys
    out = tmp_path / "cli"
    subprocess.run([sys.executable, "-m", "tourney_sim", "run", "companeros", "--games", "2000", "--seed", "11",
                    "--strategy", "greedy", "--strategy", "follower", "--strategy", "high", "--out", str(out),
                    "--workers", "1", "--quiet"], check=True)
    m = make_matchup("companeros", 4, ["greedy", "follower", "high"], seed=11)
    block = play_block(m, 0, 2000)
    df = dataset(out)
    assert np.array_equal(df["score"].to_numpy().reshape(2000, 4), block.score)


def test_arrow_and_numpy_conversions_round_trip():
    """The pandas-free conversions behind the Parquet rows and the summary (results.py)."""
    import pyarrow as pa

    from tourney_sim.simulate.results import arrow_array, arrow_strings, numpy_array
    rng = np.random.default_rng(1)
    for values in (rng.integers(-100, 100, 1001).astype(np.int8), rng.integers(0, 2**40, 77),
                   rng.integers(-5, 5, 64).astype(np.int32), rng.random(1001) < 0.3, np.zeros(0, bool)):
        a = arrow_array(values)
        assert a.equals(pa.array(values)) and a.validate(full=True) is None
        assert np.array_equal(numpy_array(a), values) and numpy_array(a).dtype == values.dtype
        for start, stop in ((3, 900), (8, 9), (1, 1)):  # slices carry an offset into the buffers
            assert np.array_equal(numpy_array(a[start:stop]), values[start:stop])
        chunked = pa.chunked_array([a[:5], a[5:]], type=a.type)
        assert np.array_equal(numpy_array(chunked), values)
    names = ["random", "grey-entity", "Compañeros", ""]
    assert arrow_strings(names).equals(pa.array(names, pa.string()))


@pytest.mark.slow
def test_a_move_list_too_long_for_the_buffer_stops_the_kernel_with_its_own_error():
    """legal_moves returning -1 (the game's move buffer is too small) is ERR_MOVE_LIMIT, never
    a game played on a shortened list."""
    from numba import njit

    from tourney_sim.simulate import kernel
    from tourney_sim.simulate.games.companeros import rules as co

    @njit
    def init(state, params, chance):
        state[0] = 0

    @njit
    def to_move(state):
        return state[0]

    @njit
    def legal_moves(state, moves):
        return -1

    @njit
    def apply_move(state, move, chance):
        state[0] = -1

    @njit
    def result(state, score, rank, extra):
        rank[0] = 1

    # the kernel loop takes a game's rules module: a module of these functions
    rules = ModuleType("move_limit_rules")
    vars(rules).update(init=init, to_move=to_move, legal_moves=legal_moves, apply_move=apply_move, result=result,
                       public_view=co.public_view, private_view=co.private_view, STATE_SIZE=co.STATE_SIZE,
                       MAX_MOVES=co.MAX_MOVES, S_DEALT=co.S_DEALT)

    @njit
    def chunk(params, chunk):
        return kernel.play_games(rules, 10, params, chunk)

    m = make_matchup("companeros", 3, ["random"], seed=1)
    error = np.zeros(4, np.int64)
    done = chunk(m.params, (3, np.uint64(1), 0, 2, m.lineup, False, m.strategy_tuple(), m.strategy_params(),
                            np.zeros((2, 3), np.int8), np.zeros((2, 3), np.int32), np.zeros((2, 3), np.int8),
                            np.zeros((2, 3, 3), np.int32), np.zeros((2, 3, 0), np.uint16), np.zeros(2, np.int8),
                            np.zeros(2, np.int32), error))
    assert done == 0 and list(error[:3]) == [kernel.ERR_MOVE_LIMIT, 0, 0]


def test_strategies_that_allocate_do_not_disturb_the_kernels_work_arrays():
    """The game loop lends borrowed views of its work arrays (kernel.borrow); a strategy that
    allocates and scribbles on memory every decision must not change any game. Compared with
    the same games stepped one by one from Python, where nothing is borrowed."""
    from numba import njit

    from tourney_sim.simulate.games.companeros import rules as co
    from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE
    from tourney_sim.simulate.stepper import KernelGame
    from tourney_sim.strategies.common import random_move

    @njit(STRATEGY_SIGNATURE)
    def scribbler(public, private, moves, n_moves, rng, params):
        for size in (co.STATE_SIZE, co.MAX_MOVES * 2, 4, 8, 24, 48):  # the work arrays' sizes
            junk = np.empty(size, np.int32)
            junk[:] = -7
        return random_move(public, private, moves, n_moves, rng, params)

    m = make_matchup("companeros", 4, ["random"], seed=5)
    m.strategies = [dataclasses.replace(s, name="scribbler", fn=scribbler) for s in m.strategies]
    games = 300
    block = play_block(m, 0, games)
    for g in range(games):
        k = KernelGame(m.spec, m.params, 5, g)
        while k.to_move() >= 0:
            k.apply(k.choose(scribbler))
        score, rank, _ = k.result()
        assert list(block.score[g]) == score and list(block.rank[g]) == rank, g
