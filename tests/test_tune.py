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
    assert small(tmp_path / "cut").interrupted  # as every job: Ctrl-C ends it, recorded, what it did kept
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


# ----------------------------------------------------------------------------- short names (issue 30.4)
def test_the_tune_report_calls_the_best_setting_by_its_short_name(tmp_path):
    """The best setting's full label (every tuned value) appears only in the settings table; the
    verdict, the confirmation table and the terminal summary say planted@best."""
    import json
    t = small(tmp_path / "t", trials=8).manifest
    assert t["best"]["name"] == "planted@best" and t["best"]["label"].startswith("planted:")
    for manifest in (tmp_path / "t" / "confirmation" / "best").glob("*/_manifest.json"):
        (entry,) = [s for s in json.loads(manifest.read_text())["strategies"] if s["name"] == "planted@best"]
        assert entry["setting"] == t["best"]["label"]  # the confirmation's data call it planted@best too
    md = invoke("report", tmp_path / "t", "--format", "md").output
    verdict = next(line for line in md.splitlines() if line.startswith("**") and "best setting" in line)
    assert "planted@best" in verdict and t["best"]["label"] not in md
    assert "| planted@best (best) |" in md and "best (planted@best)" in md  # the settings table's column
    text = invoke("report", tmp_path / "t").output
    assert "best: planted@best (trial" in text and t["best"]["label"] not in text


def _toml(path, strategy, values, name=None):
    lines = [f'strategy = "{strategy}"'] + ([f'name = "{name}"'] if name else []) + ["", "[params]"]
    path.write_text("\n".join(lines + [f"{k} = {v!r}" for k, v in values.items()]) + "\n")
    return path


GUARD_VALUES = {"card_worth": 0.03105, "prize_worth": 1.488, "place_penalty": 0.4321, "sword_weight": 0.2468,
                "low_sword_bonus": 0.1357, "threat_weight": 1.2345, "exposure": 0.3333}


def test_a_setting_from_a_file_goes_by_a_short_name_and_plays_the_same_games(tmp_path):
    """guard@DIR/best.toml is labelled guard@best in the data and the summary (aligned columns),
    the manifest keeps every value, the games are exactly those of the same values typed out
    (nothing hashed or seeded depends on the label), and replay rebuilds it from the manifest."""
    import json

    import pyarrow.parquet as pq

    toml = _toml(tmp_path / "best.toml", "guard", GUARD_VALUES)
    typed = "guard:" + ",".join(f"{k}={v}" for k, v in GUARD_VALUES.items())
    common = ["--games", 300, "--seed", 5, "--strategy", "capture-max", "--workers", 1, "--quiet"]
    assert invoke("run", "cardavia", "--strategy", f"guard@{toml}", *common, "--out", tmp_path / "a").exit_code == 0
    assert invoke("run", "cardavia", "--strategy", typed, *common, "--out", tmp_path / "b").exit_code == 0
    a, b = (pq.read_table(tmp_path / d).to_pandas() for d in "ab")
    assert set(a.strategy.astype(str)) == {"guard@best", "capture-max"}
    assert set(b.strategy.astype(str)) == {typed, "capture-max"}
    columns = ["game", "seat", "score", "rank", "win", "start_seat", "decisions"]
    assert a[columns].equals(b[columns])
    manifest = json.loads((tmp_path / "a" / "_manifest.json").read_text())
    entry = manifest["strategies"][0]
    assert entry["name"] == "guard@best" and entry["setting"] == typed and entry["params"] == GUARD_VALUES
    summary = invoke("summary", tmp_path / "a").output
    rows = [line for line in summary.splitlines() if line.split()[:1] in (["guard@best"], ["capture-max"])]
    assert len(rows) == 2 and len({row.index("[") for row in rows}) == 1  # aligned
    settings = summary.split("settings (short name", 1)[1].splitlines()[1:]
    assert all(len(line) <= 100 for line in settings)  # wrapped after its commas, not cut
    assert f"guard@best: {typed}" in "".join(line.strip() if k else line for k, line in enumerate(settings))
    replayed = json.loads(invoke("replay", tmp_path / "a", "--game", 7, "--format", "json").output)
    assert replayed["matches_dataset"] is True and "guard@best" in [s["strategy"] for s in replayed["seats"]]


def test_a_files_own_name_and_two_files_of_one_name(tmp_path):
    (tmp_path / "x").mkdir()
    mine = _toml(tmp_path / "mine.toml", "guard", GUARD_VALUES, name="guard-tight")
    other = _toml(tmp_path / "x" / "mine.toml", "guard", {"exposure": 0.9})
    r = invoke("tournament", "cardavia", "--strategy", f"guard@{mine}", "--strategy", "capture-max", "--games", 60,
               "--out", tmp_path / "t", "--workers", 1, "--quiet")
    assert r.exit_code == 0, r.output
    page = tmp_path / "t.md"
    assert invoke("report", tmp_path / "t", "--out", page, "--quiet").exit_code == 0
    text = page.read_text()
    assert "guard-tight" in text and text.count("card_worth=0.03105") == 1  # the one settings table
    clash = _toml(tmp_path / "x" / "best.toml", "guard", {"exposure": 0.9}, name="guard-tight")
    r = invoke("run", "cardavia", "--strategy", f"guard@{mine}", "--strategy", f"guard@{clash}", "--games", 10,
               "--out", tmp_path / "r", "--quiet")
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and "two different settings are called 'guard-tight'" in lines[0]
    assert not (tmp_path / "r").exists()
    r = invoke("run", "cardavia", "--strategy", f"guard@{other}", "--games", 10, "--out", tmp_path / "o",
               "--quiet", "--workers", 1)
    assert r.exit_code == 0 and "guard@mine" in invoke("summary", tmp_path / "o").output
    for name, says in [("a b", "name must be a short text without spaces"),
                       ("random", "names its setting 'random', a strategy of cardavia: give it a name of its own")]:
        bad = tmp_path / "bad.toml"
        bad.write_text(f'name = "{name}"\nexposure = 0.5\n')
        r = invoke("run", "cardavia", "--strategy", f"guard@{bad}", "--games", 10, "--out", tmp_path / "n", "--quiet")
        assert r.exit_code == 2 and r.output.count("\n") == 1 and says in r.output, r.output
    spaced = _toml(tmp_path / "my best.toml", "guard", {"exposure": 0.5})
    assert invoke("run", "cardavia", "--strategy", f"guard@{spaced}", "--games", 10, "--out", tmp_path / "s",
                  "--quiet", "--workers", 1).exit_code == 0
    assert "guard@my_best" in invoke("summary", tmp_path / "s").output
