"""`tourney train` and the apprentice (issue 41): the fit finds planted weights, a training run is
reproducible bit for bit and resumes to the same weights, its weights play as a strategy, and the
bare apprentice (no weights) is refused in one line."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tourney_sim.reports import training  # noqa: F401  (registers the training run's report)
from tourney_sim.simulate import train as tr
from tourney_sim.simulate.games.config import GameConfig

from .support.cli import invoke

SMALL = dict(rounds=2, positions=60, eval_deals=20, seed=3)


def planted(n: int, moves: int, w: np.ndarray, seed: int):
    """Decisions (ragged, as a training run stores them) whose labels are drawn from the softmax
    of their moves' scores X @ w; a third of them have two moves fewer."""
    rng = np.random.default_rng(seed)
    counts = np.where(np.arange(n) < n // 3, moves - 2, moves)
    starts = np.concatenate([[0], np.cumsum(counts)])
    X = rng.normal(size=(starts[-1], len(w))).astype(np.float32)
    y = np.empty(n, np.int64)
    for i in range(n):
        s = X[starts[i]:starts[i + 1]] @ w
        p = np.exp(s - s.max())
        y[i] = rng.choice(len(s), p=p / p.sum())
    return X, starts, y


def test_the_fit_recovers_planted_weights_and_agreement_is_the_share_of_best_moves():
    w = np.array([1.5, -1.0, 0.0, 0.5])
    X, starts, y = planted(6000, 6, w, seed=1)
    fitted, figures = tr.fit(X, starts, y, l2=0.0)
    assert np.abs(fitted - w).max() < 0.12, fitted
    # weights of the opposite sign agree far less with the labels than the fitted ones
    assert figures["agreement"] > tr.agreement(X, starts, y, -w) + 0.3
    assert tr.agreement(X, starts, y, fitted) == figures["agreement"]
    # agreement is the share of decisions whose best-scored move (the first of equal scores) is the label
    best = [int(np.argmax(X[starts[i]:starts[i + 1]].astype(np.float64) @ fitted)) for i in range(len(y))]
    assert figures["agreement"] == np.mean(np.array(best) == y)


def test_no_signal_fits_weights_near_zero():
    rng = np.random.default_rng(2)
    starts = np.arange(0, 4001 * 5, 5)
    X = rng.normal(size=(4000 * 5, 3)).astype(np.float32)
    y = rng.integers(0, 5, size=4000)
    fitted, _ = tr.fit(X, starts, y, l2=0.0)
    assert np.abs(fitted).max() < 0.1, fitted


def test_the_value_fit_learns_which_disagreements_cost_and_keeps_its_weights_in_range():
    """Feature 0 is what the labels follow; feature 1 is what the moves are worth. Imitation
    learns feature 0; the value fit, started there, turns to feature 1 (a move the search did not
    try counts as its decision's worst), and its policy's value is the better one."""
    rng = np.random.default_rng(4)
    n, moves = 3000, 4
    starts = np.arange(0, (n + 1) * moves, moves)
    X = rng.normal(size=(n * moves, 2)).astype(np.float32)
    y = X[:, 0].reshape(n, moves).argmax(axis=1)
    q = (0.5 + 0.1 * X[:, 1]).astype(np.float32)
    q[::7] = np.nan  # not tried
    imitated, _ = tr.fit(X, starts, y, l2=0.01)
    assert imitated[0] > 1.0 and abs(imitated[1]) < 0.2
    valued, figures = tr.fit_values(X, starts, q, 1e-5, imitated, limit=5.0)
    assert valued[1] > abs(valued[0]) and figures["gain"] > 0 and np.abs(valued).max() <= 5.0

    def value(w):  # the search's value of the moves the weights play (the best-scored)
        best = (X @ w).reshape(n, moves).argmax(axis=1)
        return np.nanmean(q.reshape(n, moves)[np.arange(n), best])
    assert value(valued) > value(imitated) + 0.05


def test_the_regression_of_the_search_values_finds_the_best_moves_and_scales_its_largest_weight():
    rng = np.random.default_rng(5)
    n, moves = 4000, 5
    starts = np.arange(0, (n + 1) * moves, moves)
    X = rng.normal(size=(n * moves, 3)).astype(np.float32)
    truth = np.array([0.03, -0.02, 0.0])
    q = (0.5 + X @ truth + rng.normal(0, 0.05, n * moves)).astype(np.float32)  # noisy play-outs
    w = tr.regression(X, starts, q)
    assert abs(np.abs(w).max() - 10.0) < 1e-9 and w[0] > 0 > w[1] and abs(w[2]) < 0.1 * np.abs(w).max()
    best = (X @ w).reshape(n, moves).argmax(axis=1)
    assert (best == (X @ truth).reshape(n, moves).argmax(axis=1)).mean() > 0.9


def planted_curve(n: int, seed: int):
    """Decisions of 5 moves whose values rise with feature 0 up to 1/3 and fall after it (x -
    1.5 x|x|: only a feature's curve can say it), with a noise feature and the guide's flag on a
    random move; stored as a training run stores them (the features, then the guide's flag)."""
    rng = np.random.default_rng(seed)
    moves = 5
    starts = np.arange(0, (n + 1) * moves, moves)
    x = rng.uniform(0, 1, n * moves)
    stored = np.column_stack([x, rng.normal(size=n * moves), np.zeros(n * moves)]).astype(np.float32)
    stored[starts[:-1] + rng.integers(0, moves, n), 2] = 1.0
    value = x - 1.5 * x * np.abs(x)
    q = (0.5 + 0.1 * value + rng.normal(0, 0.005, n * moves)).astype(np.float32)
    y = value.reshape(n, moves).argmax(axis=1)
    return stored, starts, q, y, value.reshape(n, moves).argmax(axis=1)


def test_the_fit_chosen_on_held_out_decisions_learns_a_features_curve():
    stored, starts, q, y, _ = planted_curve(3000, seed=6)
    X = tr.design(stored, 2)  # the features, the guide's flag, then each feature's curve
    assert X.shape[1] == 5 and np.array_equal(X[:, 3], stored[:, 0] * np.abs(stored[:, 0]))
    w, figures = tr.fit_policy(X, starts, q, y, 1e-3, 1e-5, guide=2, limit=100.0)
    assert figures["held_out"][figures["start"]] == max(figures["held_out"].values())
    assert w[0] > 0 > w[3]  # rises with the feature, falls with its curve
    fresh, fresh_starts, _, _, truth = planted_curve(2000, seed=7)
    best = (tr.design(fresh, 2) @ w).reshape(2000, 5).argmax(axis=1)
    assert (best == truth).mean() > 0.85
    # without the curve, the best a linear score can do is favour one end
    linear = tr.regression(X[:, :3], starts, q)
    assert ((fresh @ linear).reshape(2000, 5).argmax(axis=1) == truth).mean() < 0.6



def test_a_yes_no_features_curve_is_fitted_as_zero_and_its_feature_carries_the_weight():
    """x |x| = x for a feature of -1, 0 and 1: the fits see one column, not two equal ones."""
    stored, starts, q, y, _ = planted_curve(3000, seed=8)
    flag = np.zeros(len(stored), np.float32)  # a yes/no feature worth a fixed bonus
    flag[starts[:-1] + np.random.default_rng(8).integers(0, 5, len(starts) - 1)] = 1.0
    q = q + 0.02 * flag
    stored = np.column_stack([stored[:, :2], flag, stored[:, 2]])
    X = tr.design(stored, 3)
    assert np.array_equal(X[:, 6], X[:, 2])  # the flag's curve is the flag
    fitted = tr.fitted_columns(X, 3)
    assert not fitted[:, 6].any() and np.array_equal(fitted[:, [0, 1, 2, 3, 4, 5]], X[:, [0, 1, 2, 3, 4, 5]])
    w, _ = tr.fit_policy(fitted, starts, q, y, 1e-3, 1e-5, guide=3, limit=100.0)
    assert w[6] == 0.0 and w[2] > 0  # the flag counts once, by its own weight
    assert w[0] > 0 > w[4]  # the curve of a feature that is not yes/no is still fitted
    halves = tr.design(stored * 0.5, 3)  # no feature of -1, 0 and 1 only: nothing to zero
    assert tr.fitted_columns(halves, 3) is halves

def decisions_with_features(game: str, seed: int, decisions: int, at_least: int):
    """(public view, private view, legal moves, their features) of the decisions of seeded random
    games of ``game`` at its default player count that offer at least ``at_least`` moves."""
    from tourney_sim.testing import Configuration, play_to_decisions
    config = Configuration(game, GameConfig.build(game).players)
    features = tr.features_of(game)
    m = config.spec.module
    for _, k in play_to_decisions(config, seed, decisions):
        moves = np.array(k.legal_moves(), np.int64)
        if len(moves) < at_least:
            continue
        public, private = m.public_view(k.state), m.private_view(k.state, k.to_move())
        x = np.zeros((len(moves), features.N_FEATURES))
        features.move_features(public, private, moves, len(moves), x)
        yield public, private, moves, x


@pytest.mark.parametrize("game", ["companeros", "cardavia", "colleagues", "partners"])
def test_the_compiled_apprentice_scores_each_features_curve(game):
    """With a feature's weight 1 and its curve's -1.5 (everything else 0), the apprentice plays
    the move whose x - 1.5 x|x| is highest, which is not the move with the highest x."""
    from tourney_sim.strategies import resolve
    f = tr.features_of(game).N_FEATURES
    checked = 0
    for public, private, moves, x in decisions_with_features(game, 11, 3000, at_least=3):
        for j in range(f):
            score = x[:, j] - 1.5 * x[:, j] * np.abs(x[:, j])
            if np.argmax(score) == np.argmax(x[:, j]) or np.sort(score)[-1] - np.sort(score)[-2] < 1e-9:
                continue
            name = tr.features_of(game).FEATURES[j][0]
            (player,) = resolve(game, [f"apprentice:{name}=1,curve_{name}=-1.5"], config=GameConfig.build(game))
            chosen = player.fn(public, private, moves, len(moves), np.zeros(4, np.uint64), player.param_row())
            assert chosen == int(np.argmax(score)), (name, x[:, j], score)
            checked += 1
            break
        if checked == 5:
            break
    assert checked == 5


@pytest.mark.parametrize("game", ["companeros", "cardavia", "colleagues", "partners"])
def test_the_compiled_apprentice_plays_its_definition_whether_or_not_it_asks_its_guide(game):
    """The apprentice asks its guide only when the guide's weight could change the winner
    (policy.guided_choice). Whatever the guide's weight (0, small: the guide rarely asked; as
    shipped; large: always asked; negative), it plays what its definition plays: each move's score
    summed in order (the guide's weight first, on the guide's move), the first of equal scores."""
    from tourney_sim.strategies import resolve
    from tourney_sim.strategies.common import GUIDES
    f = tr.features_of(game).N_FEATURES
    guide = GUIDES[game]
    (shipped,) = resolve(game, ["apprentice"], config=GameConfig.build(game))  # the weights shipped for the table
    base = shipped.param_row()
    weightings = []
    for guide_weight in (0.0, 0.3, float(base[f]), 3.0, 100.0, -2.0):
        row = base.copy()
        row[f] = guide_weight
        weightings.append(row)
    followed = left = 0
    for public, private, moves, x in decisions_with_features(game, 13, 600, at_least=2):
        guided = guide.fn(public, private, moves, len(moves), np.zeros(4, np.uint64), guide.param_row())
        for row in weightings:
            scores = []
            for i in range(len(moves)):
                s = float(row[f]) if i == guided else 0.0
                for j in range(f):
                    s += (float(row[j]) + float(row[f + 2 + j]) * abs(float(x[i, j]))) * float(x[i, j])
                scores.append(s)
            expected = int(np.argmax(scores))
            chosen = shipped.fn(public, private, moves, len(moves), np.zeros(4, np.uint64), row)
            assert chosen == expected, (row[f], scores, guided)
            followed += expected == guided
            left += expected != guided
    assert followed > 100 and left > 100  # both kinds of choice were checked


def test_labelled_decisions_join_in_order_and_stop_at_the_limit():
    parts = [{"X": np.arange(6, dtype=np.float32).reshape(3, 2), "starts": np.array([0, 2, 3]),
              "y": np.array([1, 0]), "game": np.array([0, 1]), "q": np.array([0.1, 0.2, 0.3])},
             {"X": np.arange(6, 10, dtype=np.float32).reshape(2, 2), "starts": np.array([0, 2]),
              "y": np.array([1]), "game": np.array([4]), "q": np.array([0.4, 0.5])}]
    whole = tr.join(parts)
    assert whole["starts"].tolist() == [0, 2, 3, 5] and whole["y"].tolist() == [1, 0, 1]
    assert whole["X"][3:].tolist() == [[6, 7], [8, 9]]
    cut = tr.join(parts, 2)
    assert cut["starts"].tolist() == [0, 2, 3] and len(cut["X"]) == 3 and cut["game"].tolist() == [0, 1]
    assert cut["q"].tolist() == [0.1, 0.2, 0.3]


@pytest.mark.slow
def test_a_training_run_is_reproducible_resumes_to_the_same_weights_and_its_weights_play(tmp_path, monkeypatch):
    config = GameConfig.build("cardavia")
    whole = tr.train(config, tmp_path / "whole", tr.TrainRequest(**SMALL), workers=1, progress=False)
    # two workers label the same decisions (tasks finish in any order)
    again = tr.train(config, tmp_path / "again", tr.TrainRequest(**SMALL), workers=2, progress=False)
    assert whole.manifest["history"] == again.manifest["history"]  # bit for bit: weights, figures
    assert (tmp_path / "whole" / "best.toml").read_text().split("\n", 2)[2] == \
        (tmp_path / "again" / "best.toml").read_text().split("\n", 2)[2]

    real = tr.TrainJob.evaluate

    def interrupted(self, k, weights, best):
        if k == 1:
            raise KeyboardInterrupt
        return real(self, k, weights, best)

    monkeypatch.setattr(tr.TrainJob, "evaluate", interrupted)
    cut = tr.train(config, tmp_path / "cut", tr.TrainRequest(**SMALL), workers=1, progress=False)
    assert cut.interrupted and len(tr.read_train(tmp_path / "cut")["history"]) == 1
    monkeypatch.setattr(tr.TrainJob, "evaluate", real)
    resumed = tr.train(config, tmp_path / "cut", tr.TrainRequest(**SMALL), workers=1, progress=False, resume=True)
    assert resumed.manifest["history"] == whole.manifest["history"]

    r = invoke("run", "cardavia", "--strategy", f"apprentice@{tmp_path / 'whole'}", "--strategy", "guard",
               "--games", 40, "--out", tmp_path / "play", "--quiet")
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "play" / "_manifest.json").read_text())
    assert manifest["strategies"][0]["name"] == "apprentice@whole"  # a directory plays its best.toml
    # weights trained on one table are refused, by name, on another
    r = invoke("run", "cardavia", "--rule", "match_deals=2", "--strategy", f"apprentice@{tmp_path / 'whole'}",
               "--games", 10, "--out", tmp_path / "other")
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert "made for cardavia at 4 players, the shipped rules" in r.output and "match_deals=2" in r.output
    assert "tourney train cardavia --players 4 --rule match_deals=2" in r.output
    assert not (tmp_path / "other").exists()
    report = (tmp_path / "whole" / "report.md").read_text()
    assert "| round |" in report and "What it weighs most" in report and "guide" in report
    # a round's win rate is read against the opponent's own games in the same seats on the same
    # deals (everyone the opponent), counted again here from a run of those deals
    import pyarrow.dataset as ds
    from tourney_sim.simulate.matchup import make_matchup
    from tourney_sim.simulate.runner import run
    first = whole.manifest["history"][0]["evaluation"]
    against = whole.manifest["against"]
    run(make_matchup(config, [against], seed=SMALL["seed"] + 1, rotate=False), SMALL["eval_deals"],
        tmp_path / "itself", progress=False, workers=1)
    rows = ds.dataset(str(tmp_path / "itself"), format="parquet").to_table(columns=["game", "seat", "win"]).to_pandas()
    itself = rows[rows.seat < 2].groupby("seat").win.mean().mean()  # team 0 (seats 0, 2), team 1 (seats 1, 3)
    assert first["opponent_win_rate"] == pytest.approx(itself)
    assert first["against_opponent"]["difference"] == pytest.approx(first["win_rate"] - itself)
    best = next(h["evaluation"] for h in whole.manifest["history"] if h["round"] == whole.manifest["best"]["round"])
    assert (f"{against} in every seat (fresh deals; where {against} itself wins {best['opponent_win_rate']:.1%} in "
            f"those seats on the same deals: {100 * best['against_opponent']['difference']:+.1f} pp [") in report
    assert (tmp_path / "whole" / "learning-curve.png").read_bytes()[:4] == b"\x89PNG"
    # `tourney report` and `tourney summary` of a training run: its headline (they said "not a dataset")
    headline = report.split("\n\n")[1]
    for command in (["report", tmp_path / "whole"], ["summary", tmp_path / "whole"],
                    ["report", tmp_path / "whole", "--out", tmp_path / "copy.md"]):
        r = invoke(*command)
        assert r.exit_code == 0 and headline in r.output, (command, r.output)
    assert (tmp_path / "copy.md").read_text() == report
    r = invoke("report", tmp_path / "whole", "--out", tmp_path / "copy.html")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "give --out a .md name" in r.output, r.output
    assert not (tmp_path / "copy.html").exists()


def test_the_bare_apprentice_plays_the_shipped_weights_of_its_table_and_refuses_others(tmp_path):
    from tourney_sim.strategies import StrategyError, heuristics, resolve
    r = invoke("run", "cardavia", "--strategy", "apprentice", "--strategy", "guard", "--games", 20,
               "--out", tmp_path / "x", "--quiet")
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "x" / "_manifest.json").read_text())
    (entry,) = [s for s in manifest["strategies"] if s["name"] == "apprentice"]
    assert entry["setting"].startswith("apprentice:")  # the weights themselves are recorded: replays exactly
    r = invoke("run", "cardavia", "--rule", "match_deals=2", "--strategy", "apprentice", "--games", 10,
               "--out", tmp_path / "y")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "tourney train cardavia" in r.output, r.output
    assert not (tmp_path / "y").exists()
    # a player count with no shipped weights (every count ships some: a game folder without them)
    from tourney_sim.strategies import available
    from tourney_sim.strategies.common import shipped_weights
    with pytest.raises(StrategyError, match="no weights are shipped for companeros at 5 players: train them with "
                                            "`tourney train companeros --players 5"):
        shipped_weights(tmp_path, available("companeros")["apprentice"], GameConfig.build("companeros", 5))
    assert "apprentice" not in heuristics("cardavia")
    # a weights file without weights is refused, not played with the shipped ones in its name
    (tmp_path / "empty.toml").write_text('strategy = "apprentice"\n')
    with pytest.raises(StrategyError, match="empty.toml gives no values .* give a training run's"):
        resolve("cardavia", [f"apprentice@{tmp_path / 'empty.toml'}"], config=GameConfig.build("cardavia", 4))
    # a component table is part of the table: one card changed refuses the shipped weights too
    changed = GameConfig.build("colleagues", 4, components=["work.values[15]=3"])
    with pytest.raises(StrategyError, match="--component work.values\\[15\\]=3"):
        resolve("colleagues", ["apprentice"], config=changed)
    assert resolve("colleagues", ["apprentice"], config=GameConfig.build("colleagues", 4))[0].table


def test_a_run_started_from_weights_plays_them_first_and_keeps_them_until_a_round_plays_as_well(tmp_path):
    """Retraining for a changed table (issue 42): --start shipped begins from the weights shipped
    for the player count (made for another table), which round 0 plays and which stay the best
    unless a round's weights play at least as well on the new table; the same run again gives
    the same weights, and the weights it keeps are this table's (another refuses them)."""
    from tourney_sim.strategies import StrategyError, resolve
    config = GameConfig.build("cardavia", 4, ["match_deals=2"])
    shipped = resolve("cardavia", ["apprentice"], config=GameConfig.build("cardavia", 4))[0].settings()
    request = tr.TrainRequest(**dict(SMALL, rounds=1), start="shipped")
    one = tr.train(config, tmp_path / "one", request, workers=1, progress=False)
    m = one.manifest
    names = m["features"]
    assert m["start"] == [shipped[n] for n in names] and m["start_from"] == "shipped"
    (round0,) = m["history"]
    assert "against_best" in round0["evaluation"]  # round 0 is measured against the start
    kept = m["best"]["round"] == 0
    assert kept == round0["kept"] and m["best"]["weights"] == (round0["weights"] if kept else m["start"])
    mine = resolve("cardavia", [f"apprentice@{tmp_path / 'one'}"], config=config)[0]
    assert [mine.settings()[n] for n in names] == m["best"]["weights"]
    with pytest.raises(StrategyError, match="match_deals=2"):
        resolve("cardavia", [f"apprentice@{tmp_path / 'one'}"], config=GameConfig.build("cardavia", 4))
    two = tr.train(config, tmp_path / "two", request, workers=1, progress=False)
    assert two.manifest["history"] == m["history"] and two.manifest["best"] == m["best"]
    report = (tmp_path / "one" / "report.md").read_text()
    assert "Best weights:" in report


def test_bad_training_requests_are_one_line_errors(tmp_path):
    companeros = Path(__file__).resolve().parents[1] / "simulate" / "games" / "companeros" / "apprentice-4p.toml"
    for args, words in ((["--rounds", 0], "--rounds must be from 1"), (["--sample", 0], "--sample must be"),
                        (["--explore", 2], "--explore must be"),
                        (["--label-iterations", 0], "--label-iterations must be from 1 to"),
                        (["--label-iterations", 10**12], "--label-iterations must be from 1 to"),
                        (["--start", tmp_path / "none.toml"], "--start: no such file"),
                        (["--start", "/dev/null"], "--start: /dev/null holds no weight for"),
                        (["--start", companeros], "holds weights for companeros, not cardavia")):
        r = invoke("train", "cardavia", *args, "--out", tmp_path / "t")
        assert r.exit_code == 2 and words in r.output and r.output.count("\n") == 1, r.output
        assert not (tmp_path / "t").exists()


def test_the_contract_checks_every_games_features_and_catches_one_that_peeks(monkeypatch):
    """tourney_sim.testing.check_features (the contract's hidden check) passes the shipped
    features and fails features that depend on the moves' order, leave their declared scale or
    declare none."""
    import importlib

    from numba import njit

    from tourney_sim import testing
    config = testing.Configuration("companeros", 4)
    assert testing.check_features(config, seed=1, positions=200) == 200
    features = importlib.import_module("tourney_sim.simulate.games.companeros.features")
    real = features.move_features

    @njit
    def ordered(public, private, moves, n_moves, out):
        real(public, private, moves, n_moves, out)
        for k in range(n_moves):
            out[k, 0] = k / n_moves  # the move's place in the list (within card_value's scale): not a feature of the move
    monkeypatch.setattr(features, "move_features", ordered)
    with pytest.raises(testing.ContractFailure, match="permuting the moves"):
        testing.check_features(config, seed=1, positions=200)

    @njit
    def beyond(public, private, moves, n_moves, out):
        real(public, private, moves, n_moves, out)
        out[0, 3] = 0.5  # taker_now declares {0, 1}
    monkeypatch.setattr(features, "move_features", beyond)
    with pytest.raises(testing.ContractFailure, match=r"feature taker_now is 0.5, outside its declared scale \{0, 1\}"):
        testing.check_features(config, seed=1, positions=200)
    monkeypatch.setattr(features, "FEATURES", features.FEATURES[:-1] + (("refill", "no scale"),))
    with pytest.raises(testing.ContractFailure, match="feature refill: its description must declare its scale"):
        testing.check_features(config, seed=1, positions=200)


@pytest.mark.parametrize("game", ["companeros", "cardavia", "colleagues", "partners"])
def test_every_shipped_weights_file_names_the_shipped_table_of_its_player_count(game):
    """The bare apprentice plays them on exactly that table: a changed component table or a new
    params layout makes this fail (retrain: scripts/train_apprentices.py)."""
    from tourney_sim.strategies import available
    from tourney_sim.strategies.common import shipped_tables
    shipped = shipped_tables(available(game)["apprentice"])
    assert shipped, f"no apprentice weights shipped for {game}"
    for players, strategy in shipped.items():
        config = GameConfig.build(game, players)
        assert strategy.table["id"] == config.table_id and strategy.table["players"] == players
        assert strategy.table["rules"] == [] and strategy.settings()["explore"] == 0.0


def test_the_search_plays_out_with_the_shipped_apprentice_of_the_table_and_refuses_other_tables():
    from tourney_sim.strategies import StrategyError, resolve
    for players in (3, 4):
        (search,) = resolve("companeros", ["ismcts:rollout=apprentice"], config=GameConfig.build("companeros", players))
        assert search.settings()["rollout"] == f"apprentice-{players}p"
    with pytest.raises(StrategyError, match="made for companeros at 4 players, the shipped rules"):
        resolve("companeros", ["ismcts:rollout=apprentice"],
                config=GameConfig.build("companeros", 4, ["match_games=2"]))


def test_a_game_the_apprentice_played_replays_and_the_reference_engine_accepts_its_trace(tmp_path):
    out = tmp_path / "run"
    r = invoke("run", "colleagues", "--players", 4, "--strategy", "apprentice", "--strategy", "dodger-tuned",
               "--games", 30, "--seed", 5, "--out", out, "--quiet", "--workers", 1)
    assert r.exit_code == 0, r.output
    r = invoke("replay", out, "--game", 17, "--format", "json")
    trace = json.loads(r.output)
    assert trace["matches_dataset"] is True and "apprentice" in [s["strategy"] for s in trace["seats"]]
    path = tmp_path / "g17.json"
    path.write_text(r.output)
    r = invoke("check", path)
    assert r.exit_code == 0 and "the trace follows the colleagues rules" in r.output, r.output


def test_the_search_reports_the_values_it_chose_by():
    """Compañeros' search (paired root, no margin) plays the move of the best mean reward: the
    value it reports for it is the largest, every move was tried, and a search asked for values
    chooses as the strategy does."""
    from tourney_sim.simulate.seeding import new_stream
    from tourney_sim.simulate.stepper import KernelGame
    from tourney_sim.strategies import resolve
    config = GameConfig.build("companeros", 4)
    (search,) = resolve("companeros", ["ismcts:iterations=60"])
    values_fn = tr.search_values_of("companeros")
    checked = 0
    g = KernelGame(config.spec, config.params(), 9, 0)
    while (seat := g.to_move()) >= 0:
        n = g._legal()
        if n > 1:
            public, private = g.m.public_view(g.state), g.m.private_view(g.state, seat)
            values = np.full(n, np.nan)
            chosen = values_fn(public, private, g.moves, n, new_stream(9, 0, 77), search.param_row(), values)
            assert chosen == search.fn(public, private, g.moves, n, new_stream(9, 0, 77), search.param_row())
            assert not np.isnan(values).any() and chosen == int(np.argmax(values))
            checked += 1
        g.apply(g.moves[0])
    assert checked > 10


def test_the_label_budget_is_the_games_and_a_round_costs_the_same_search():
    """A game whose decisions offer many moves labels each with a larger search (its spec's
    ``label_scale``) and a round labels as many fewer decisions; options given win."""
    from tourney_sim.strategies import resolve

    def job(game, players, **given):
        return tr.TrainJob(GameConfig.build(game, players), tr.TrainRequest(players=players, **given),
                           workers=1, scheduler=None, progress=False)

    def playing(game):
        return int(resolve(game, ["ismcts"])[0].settings()["iterations"])

    usual = job("companeros", 4)
    assert (usual.r.positions, usual.iterations) == (tr.POSITIONS_AT_USUAL, tr.USUAL_LABEL_SCALE * playing("companeros"))
    wide = job("colleagues", 2)
    scale = tr.label_scale("colleagues")
    assert scale > tr.USUAL_LABEL_SCALE and wide.iterations == scale * playing("colleagues")
    assert wide.r.positions == tr.labels_for("colleagues", tr.POSITIONS_AT_USUAL) == round(30_000 * tr.USUAL_LABEL_SCALE / scale)
    assert wide.r.positions * wide.iterations == usual.r.positions * tr.USUAL_LABEL_SCALE * playing("colleagues")
    chosen = job("colleagues", 2, positions=500, label_iterations=300)
    assert (chosen.r.positions, chosen.iterations) == (500, 300)
