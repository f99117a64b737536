"""`tourney train` and the apprentice (issue 41): the fit finds planted weights, a training run is
reproducible bit for bit and resumes to the same weights, its weights play as a strategy, and the
bare apprentice (no weights) is refused in one line."""
from __future__ import annotations

import json

import numpy as np
import pytest

from tourney_sim.simulate import train as tr
from tourney_sim.simulate.games.config import GameConfig

from .support.cli import invoke

SMALL = dict(rounds=2, positions=60, eval_deals=20, seed=3)


def planted(n: int, moves: int, w: np.ndarray, seed: int):
    """Decisions whose labels are drawn from the softmax of X @ w (some with fewer moves)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, moves, len(w)))
    mask = np.ones((n, moves), bool)
    mask[: n // 3, moves - 2:] = False  # a third of the decisions have two moves fewer
    s = np.where(mask, X @ w, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(moves, p=row) for row in p])
    return X, mask, y


def test_the_fit_recovers_planted_weights_and_agreement_is_the_share_of_best_moves():
    w = np.array([1.5, -1.0, 0.0, 0.5])
    X, mask, y = planted(6000, 6, w, seed=1)
    fitted, figures = tr.fit(X, mask, y, l2=0.0)
    assert np.abs(fitted - w).max() < 0.12, fitted
    # weights of the opposite sign agree far less with the labels than the fitted ones
    assert figures["agreement"] > tr.agreement(X, mask, y, -w) + 0.3
    assert tr.agreement(X, mask, y, fitted) == figures["agreement"]
    # a masked move is never chosen
    assert not np.any(~mask[np.arange(len(y)), np.where(mask, X @ fitted, -np.inf).argmax(axis=1)])


def test_no_signal_fits_weights_near_zero():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(4000, 5, 3))
    y = rng.integers(0, 5, size=4000)
    fitted, _ = tr.fit(X, np.ones((4000, 5), bool), y, l2=0.0)
    assert np.abs(fitted).max() < 0.1, fitted


@pytest.mark.slow
def test_a_training_run_is_reproducible_resumes_to_the_same_weights_and_its_weights_play(tmp_path, monkeypatch):
    config = GameConfig.build("cardavia")
    whole = tr.train(config, tmp_path / "whole", tr.TrainRequest(**SMALL), workers=1, progress=False)
    again = tr.train(config, tmp_path / "again", tr.TrainRequest(**SMALL), workers=1, progress=False)
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

    best = tmp_path / "whole" / "best.toml"
    r = invoke("run", "cardavia", "--strategy", f"apprentice@{best}", "--strategy", "guard", "--games", 40,
               "--out", tmp_path / "play", "--quiet")
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "play" / "_manifest.json").read_text())
    assert manifest["strategies"][0]["name"] == "apprentice@best"
    report = (tmp_path / "whole" / "report.md").read_text()
    assert "| round |" in report and "What it weighs most" in report


def test_the_bare_apprentice_is_refused_in_one_line_and_is_no_default_heuristic(tmp_path):
    from tourney_sim.strategies import heuristics
    r = invoke("run", "cardavia", "--strategy", "apprentice", "--games", 10, "--out", tmp_path / "x")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "apprentice@DIR/best.toml" in r.output
    assert not (tmp_path / "x").exists()
    assert "apprentice" not in heuristics("cardavia")


def test_bad_training_requests_are_one_line_errors(tmp_path):
    for args, words in ((["--rounds", 0], "--rounds must be from 1"), (["--sample", 0], "--sample must be"),
                        (["--explore", 2], "--explore must be")):
        r = invoke("train", "cardavia", *args, "--out", tmp_path / "t")
        assert r.exit_code == 2 and words in r.output and r.output.count("\n") == 1, r.output
        assert not (tmp_path / "t").exists()


def test_the_contract_checks_every_games_features_and_catches_one_that_peeks(monkeypatch):
    """tourney_sim.testing.check_features (the contract's hidden check) passes the shipped
    features and fails features that read outside the seat's views or depend on the moves' order."""
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
            out[k, 0] = k  # the move's place in the list: not a feature of the move
    monkeypatch.setattr(features, "move_features", ordered)
    with pytest.raises(testing.ContractFailure, match="permuting the moves"):
        testing.check_features(config, seed=1, positions=200)
