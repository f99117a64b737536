"""`tourney tune` (issue 11): the tuner finds a planted optimum, its studies are reproducible and
resumable, and it refuses bad requests with one line."""

import pytest

from tourney_sim.simulate.tune import Field, TuneError, read_tune, tune
from tourney_sim.strategies import register
from tourney_sim.strategies.companeros import greedy

from .support.cli import invoke

from .planted import PEAK, PLANTED  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def registered():
    register(PLANTED)


def small(out, **kw):
    args = dict(n_players=3, trials=16, deals=150, seed=4, confirm_deals=600, workers=1, progress=False,
                params=["x"])
    args.update(kw)
    return tune("companeros", "planted", ["random"], out, **args)


def test_tuner_finds_the_planted_optimum_and_confirms_it(tmp_path):
    r = small(tmp_path / "t", trials=24)
    t = r.manifest
    assert t["history"][0]["setting"]["x"] == 0.9  # the first trial is the starting setting
    assert abs(t["best"]["setting"]["x"] - PEAK) < 0.1
    c = t["confirmation"]
    assert c["difference"] > 0 and c["p_value"] < 0.01
    assert c["difference_ci"][0] <= c["difference"] <= c["difference_ci"][1]
    best_toml = (tmp_path / "t" / "best.toml").read_text()
    assert 'strategy = "planted"' in best_toml and "unused = 3" in best_toml
    # the confirmation datasets are ordinary datasets, one per seating
    assert len(list((tmp_path / "t" / "confirmation" / "best").glob("*/_manifest.json"))) == 3
    assert read_tune(tmp_path / "t")["status"] == "complete"


def test_same_seed_same_study_and_resume_after_an_interruption_continues_it(tmp_path, monkeypatch):
    whole = small(tmp_path / "whole").manifest
    calls = {"n": 0}
    real_play = Field.play

    def interrupted_play(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 7:  # in the middle of the 7th trial
            raise KeyboardInterrupt
        return real_play(self, *args, **kwargs)

    monkeypatch.setattr(Field, "play", interrupted_play)
    with pytest.raises(KeyboardInterrupt):
        small(tmp_path / "cut")
    assert read_tune(tmp_path / "cut")["status"] == "interrupted"
    monkeypatch.setattr(Field, "play", real_play)
    resumed = small(tmp_path / "cut", resume=True).manifest
    strip = lambda h: [(x["label"], x["value"]) for x in h]  # noqa: E731
    assert strip(resumed["history"]) == strip(whole["history"])
    assert resumed["best"] == whole["best"] and resumed["confirmation"] == whole["confirmation"]


def test_one_compiled_function_serves_every_setting(tmp_path):
    r = small(tmp_path / "t", trials=6)
    labels = {h["label"] for h in r.manifest["history"]}
    assert len(labels) == 6
    assert len(PLANTED.fn.signatures) == 1 and len(greedy.signatures) == 1


def test_bad_requests_are_one_line_errors(tmp_path):
    with pytest.raises(TuneError, match="has no parameters"):
        tune("companeros", "random", ["greedy"], tmp_path / "a", progress=False)
    with pytest.raises(TuneError, match="--sampler"):
        small(tmp_path / "b", sampler="grid")
    with pytest.raises(TuneError, match="both the candidate and in --against"):
        tune("companeros", "planted", ["planted:x=0.5"], tmp_path / "c", progress=False)
    r = invoke("tune", "companeros", "--strategy", "planted", "--against", "random", "--param", "nope",
               "--out", tmp_path / "d")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "no parameter 'nope'" in r.output
    assert not (tmp_path / "d").exists()
    small(tmp_path / "e", trials=2)
    r = invoke("tune", "companeros", "--strategy", "planted", "--against", "random", "--deals", "99",
               "--players", "3", "--seed", "4", "--out", tmp_path / "e", "--resume")
    assert r.exit_code == 2 and "different parameters" in r.output and "deals 150 (now 99)" in r.output


def test_report_of_a_tuning_run(tmp_path):
    small(tmp_path / "t", trials=8)
    r = invoke("report", tmp_path / "t", "--out", tmp_path / "tune.html")
    assert r.exit_code == 0, r.output
    page = (tmp_path / "tune.html").read_text()
    assert page.count("<img") >= 2 and "Optimisation history" in page and "Confirmation on fresh deals" in page
    md = invoke("report", tmp_path / "t", "--format", "md").output
    assert "| **x** | **0.9** | **" in md  # the starting value in the best-against-start table, marked changed
    assert "planted" in invoke("report", tmp_path / "t").output


def test_sigkill_mid_study_then_resume_gives_the_uninterrupted_study(tmp_path):
    """A real kill (SIGKILL of the process group, mid-trial, while the journal is being written),
    then `tourney tune --resume`: the finished trials, the best setting and the confirmation are
    those of an uninterrupted run."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tourney_sim.simulate.tune import open_study
    args = ["tune", "companeros", "--players", "3", "--strategy", "greedy", "--against", "high",
            "--trials", "14", "--deals", "80", "--seed", "3", "--workers", "1", "--quiet"]
    whole = invoke(*args, "--out", tmp_path / "whole")
    assert whole.exit_code == 0, whole.output
    out = tmp_path / "killed"
    p = subprocess.Popen([sys.executable, "-m", "tourney_sim", *args, "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 240
    done = 0
    while done < 5 and time.time() < deadline and p.poll() is None:
        time.sleep(0.05)
        if (out / "study.journal").exists():
            try:
                done = sum(t.state.name == "COMPLETE" for t in open_study(out, create=False).trials)
            except Exception:  # the journal is being written
                pass
    assert p.poll() is None, "the run ended before it could be killed"
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    assert read_tune(out)["status"] == "running"  # killed: nothing could record it
    r = invoke(*args, "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    a, b = read_tune(tmp_path / "whole"), read_tune(out)
    assert [(h["label"], h["value"]) for h in a["history"]] == [(h["label"], h["value"]) for h in b["history"]]
    assert a["best"] == b["best"] and a["confirmation"] == b["confirmation"]
    assert (tmp_path / "whole" / "best.toml").read_text().split("\n", 3)[3] == \
        (out / "best.toml").read_text().split("\n", 3)[3]
