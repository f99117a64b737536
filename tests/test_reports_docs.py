"""docs/analysis.md's Python recipes run as written and recompute the report's headline numbers."""
import re
from pathlib import Path

import numpy as np
import pytest

from tourney_sim.simulate.stats import analysis, load

from .support import synthetic as sy

DOC = Path(__file__).resolve().parent.parent / "docs" / "analysis.md"


def test_analysis_guide_recomputes_the_report(tmp_path, capsys):
    game = sy.Game("synthetic", 3, columns={"leader_at_two_thirds": "seat leading at 2/3"})

    def leader(r, u, rng):
        lead = np.argmax(u[:, :3] + rng.normal(0, 0.7, u[:, :3].shape), axis=1)
        lead[::7] = -1
        return {"leader_at_two_thirds": np.repeat(lead[:, None], 3, axis=1)}

    t = sy.write_tournament(tmp_path / "t1", game, ["greedy", "random"], {"greedy": 0.4}, 300, seed=7,
                            luck=1.0, draw=0.05, varying_start=True, column_fn=leader)
    from tourney_sim.simulate.tune import tune
    tuned = tmp_path / "tune"  # for the "Tuning a strategy" recipe
    tune("companeros", "greedy", ["high"], tuned, n_players=3, trials=3, deals=30, seed=2, workers=1,
         progress=False)
    r1 = sy.write_dealt_dataset(tmp_path / "r1", sy.Game(players=4), sy.Deck(["a", "b"], [4, 4]), 200)
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 9
    ns: dict = {}
    for code in blocks:
        code = code.replace('Path("runs/t1")', f'Path({str(t)!r})').replace("runs/tune-guard", str(tuned))
        code = code.replace('"runs/r1"', repr(str(r1)))
        exec(compile(code, str(DOC), "exec"), ns)
    out = capsys.readouterr().out
    assert "rows read with pyarrow" in out and "the leader at two thirds wins" in out
    assert "a: win rate when dealt" in out
    assert len(ns["study"].trials) == 3

    (cfg,) = load.load([t])
    pw = analysis.pairwise_table(cfg).iloc[0]
    assert ns["deal_diff"].mean() == pytest.approx(pw["diff"])
    assert (ns["paired"].low, ns["paired"].high) == pytest.approx((pw.ci_low, pw.ci_high))
    assert (ns["unpaired"].low, ns["unpaired"].high) == pytest.approx((pw.unpaired_low, pw.unpaired_high))
    seats = analysis.seat_analysis(cfg)
    assert ns["balance"] == pytest.approx(seats["balance"])
    assert f"balance interval ({seats['balance_low']!r}, {seats['balance_high']!r})" in out
    assert ns["F"] == pytest.approx(seats["equal_F"])
    assert ns["first"].win.mean() == pytest.approx(seats["first_rate"])
    table = analysis.strategy_table(cfg)
    last = ns["name"]  # the clustered-interval loop's last strategy
    assert (ns["low"], ns["high"]) == pytest.approx((table.loc[last, "ci_low"], table.loc[last, "ci_high"]))
    # plain Wilson on the effective sample: inside the report's (its continuity correction widens it)
    assert ns["low"] < ns["centre"] - ns["half"] < ns["centre"] + ns["half"] < ns["high"]
    shape = analysis.shape_analysis(cfg)
    assert f"draw rate {shape['draw_rate']:.4f}" in out
    assert f"the leader at two thirds wins {shape['decisiveness']['rate']:.4f}" in out


def test_study_screenshots_are_browser_first_screens():
    """docs/balance/screenshots/: the first screen of a study's report as headless Chromium shows
    it at 1280 x 900 (PNG), one per game studied."""
    import struct

    from tourney_sim.simulate.games import get_game

    shots = sorted((DOC.parent / "balance" / "screenshots").glob("*.png"))
    assert shots
    for shot in shots:
        get_game(shot.stem)  # named after a game
        head = shot.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
        assert struct.unpack(">II", head[16:24]) == (1280, 900)
