"""Strategy parameters (issue 11): declarations, settings and their notation, one compiled function
for every setting, and default settings that play exactly the games played before parameters."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tourney_sim as tourney
from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.strategies import StrategyError, available, register, resolve

from .support.cli import invoke

BASELINE = Path(__file__).parent / "data" / "pre-params"


@pytest.mark.parametrize("path", sorted(BASELINE.glob("*.parquet")), ids=lambda p: p.stem)
def test_default_parameters_play_the_games_played_before_parameters(path, tmp_path):
    """tests/data/pre-params/GAME-Np.parquet: the rows (less `win` and `team`) of seeded runs of
    every built-in heuristic, made at commit e5875dd, before strategies took parameters, with
    ``tourney_sim.run(GAME, seats, players=N, games=..., seed=20261201, workers=1)`` (rotating)."""
    before = pd.read_parquet(path)
    game, players = path.stem.rsplit("-", 1)
    players = int(players[:-1])
    games = int(before["game"].max()) + 1
    seats = list(before[before.game == 0].sort_values("seat").strategy[:players])  # game 0: no shift
    r = tourney.run(game, seats, players=players, games=games, seed=20261201, out=tmp_path / "d", workers=1)
    now = tourney.load(r.path)[before.columns]
    now["strategy"] = now["strategy"].astype(str)
    pd.testing.assert_frame_equal(now.reset_index(drop=True), before, check_dtype=False)


from .planted import PLANTED  # noqa: E402


@pytest.fixture(scope="module")
def planted():
    register(PLANTED)
    return PLANTED


def test_labels_show_what_differs_from_the_defaults(planted):
    table = available("companeros")
    (s,) = resolve("companeros", ["planted:unused=4,x=0.5"])
    assert s.label == "planted:x=0.5,unused=4"  # declaration order
    assert resolve("companeros", [s.label])[0] == s  # a label rebuilds its setting
    assert resolve("companeros", ["planted:x=0.9"])[0].label == "planted"  # the default
    assert s.settings()["x"] == 0.5 and s.settings()["unused"] == 4 and table["planted"].values == ()
    row = s.param_row()
    assert row[0] == 0.5 and row[1] == 4.0 and row.dtype == np.float64


def test_a_toml_file_names_the_same_setting(planted, tmp_path):
    (tmp_path / "a.toml").write_text('strategy = "planted"\n[params]\nx = 0.25\n')
    (tmp_path / "b.toml").write_text("x = 0.25\nunused = 3\n")
    a, b = resolve("companeros", [f"planted@{tmp_path / 'a.toml'}", f"planted@{tmp_path / 'b.toml'}"])
    assert a.settings() == b.settings() and a.setting == b.setting == "planted:x=0.25"
    assert (a.label, b.label) == ("planted@a", "planted@b")  # a file's setting goes by a short name


@pytest.mark.parametrize("spec, message", [
    ("planted:y=1", "strategy planted: no parameter 'y' (parameters: x, unused"),
    ("planted:x=1.5", "strategy planted: parameter x expects a number from 0 to 1, got '1.5'"),
    ("planted:x=abc", "strategy planted: parameter x expects a number from 0 to 1, got 'abc'"),
    ("planted:unused=2.5", "parameter unused expects a whole number from 1 to 5, got '2.5'"),
    ("planted:x", "strategy planted: expected key=value"),
    ("planted:x=0.1,x=0.2", "parameter x is given twice"),
    ("planted@missing.toml", "strategy planted: no such file missing.toml"),
    ("nothing:x=1", "unknown strategy 'nothing' for companeros"),
])
def test_bad_settings_are_one_line_errors_and_write_nothing(planted, tmp_path, spec, message):
    r = invoke("run", "companeros", "--strategy", spec, "--strategy", "random", "--games", "10",
               "--out", tmp_path / "out")
    assert r.exit_code == 2
    assert r.output.startswith("error: ") and r.output.count("\n") == 1 and message in r.output
    assert not (tmp_path / "out").exists()


def test_malformed_or_foreign_toml_files(planted, tmp_path):
    (tmp_path / "bad.toml").write_text("x = = 1\n")
    (tmp_path / "other.toml").write_text('strategy = "greedy"\nx = 0.1\n')
    (tmp_path / "kind.toml").write_text('x = "high"\n')
    for name, message in (("bad", "is not valid TOML"), ("other", "holds settings of strategy 'greedy'"),
                          ("kind", "parameter x expects a number")):
        with pytest.raises(StrategyError, match=message):
            resolve("companeros", [f"planted@{tmp_path / name}.toml"])


def test_two_settings_share_a_table_one_compiled_kernel_serves_both(planted, tmp_path):
    from tourney_sim.simulate.games.companeros import rules as co
    m = make_matchup("companeros", 3, ["planted:x=0.3", "planted"], seed=3)
    assert [s.label for s in m.strategies] == ["planted:x=0.3", "planted"]
    before = len(co.play_chunk.signatures)
    block = play_block(m, 0, 600)
    m2 = make_matchup("companeros", 3, ["planted:x=0.6", "planted:x=0.1"], seed=3)
    block2 = play_block(m2, 0, 600)
    assert len(co.play_chunk.signatures) == max(before, 1) and len(PLANTED.fn.signatures) == 1
    assert not np.array_equal(block.score, block2.score)  # the values reach the strategy
    # the strong setting (greedy) beats the weak one (mostly random) at the same table
    wins = block.rank == 1
    first = np.array([[m.seating(g)[s] == "planted:x=0.3" for s in range(3)] for g in range(600)])
    assert wins[first].mean() > wins[~first].mean() + 0.1


def test_manifest_records_every_value_and_replay_rebuilds_the_setting(planted, tmp_path):
    r = invoke("run", "companeros", "--players", "3", "--strategy", "planted:x=0.3", "--strategy", "planted",
               "--games", "40", "--seed", "9", "--workers", "2", "--out", tmp_path / "d", "--quiet")
    assert r.exit_code == 0, r.output
    df = tourney.load(tmp_path / "d")
    man = df.attrs["manifest"]
    entries = {e["name"]: e for e in man["strategies"]}
    assert entries["planted:x=0.3"]["params"]["x"] == 0.3 and entries["planted"]["params"]["x"] == 0.9
    assert entries["planted"]["params"]["unused"] == 3 and entries["planted"]["strategy"] == "planted"
    assert set(df.strategy.astype(str)) == {"planted:x=0.3", "planted"}
    for g in (0, 17):
        r = invoke("replay", tmp_path / "d", "--game", g, "--format", "json")
        assert r.exit_code == 0, r.output
    assert invoke("verify", tmp_path / "d").exit_code == 0


@pytest.mark.parametrize("path", sorted((Path(__file__).parent.parent / "strategies" / "tuned").glob("*.toml")),
                         ids=lambda p: p.stem)
def test_shipped_tuned_settings_are_built_ins(path):
    """strategies/tuned/GAME-NAME.toml (a best.toml of `tourney tune`, with the command that made
    it) is the built-in NAME-tuned: NAME's function with those values as its defaults."""
    game, name = path.stem.split("-", 1)
    table = available(game)
    base, tuned = table[name], table[f"{name}-tuned"]
    assert tuned.fn is base.fn and tuned.label == f"{name}-tuned" and tuned.origin == "built-in"
    assert "# made by: tourney tune " + game in path.read_text()
    assert tuned.settings() == resolve(game, [f"{name}@{path}"])[0].settings() != base.settings()
    changed = resolve(game, [f"{name}-tuned:{base.params[0].name}={base.params[0].default}"])[0]
    assert changed.label.startswith(f"{name}-tuned:")
