"""The job directory every run, tournament, tuning run and study writes (simulate/jobdir.py): which
directories it refuses or replaces, the resume check and its message, atomic manifests, the
status of a job, and the task loop."""
from __future__ import annotations

import json

import pytest

from tourney_sim.simulate import jobdir
from tourney_sim.simulate.jobdir import JobDir, JobKind, OutputError, ResumeError, execute, write_json
from tourney_sim.simulate.matchup import RunError

KIND = JobKind("widget run", "_widget.json", "tourney-widget/1", ("game", "seed", "games"))
OTHER = JobKind("gadget run", "_gadget.json", "tourney-gadget/1", ("game",))


def manifest(**changes) -> dict:
    return {"format": KIND.format, "game": "companeros", "seed": 1, "games": 100, "command": "tourney widget",
            "status": "running", **changes}


def files(directory) -> set[str]:
    return {p.name for p in directory.iterdir()}


# ----------------------------------------------------------------------------- refuse or overwrite
def test_a_new_job_goes_into_a_missing_or_empty_directory(tmp_path):
    for where in (tmp_path / "new" / "deeper", tmp_path / "empty"):
        (tmp_path / "empty").mkdir(exist_ok=True)
        job = JobDir(KIND, where)
        assert job.previous(resume=False, overwrite=False) is None
        job.create(overwrite=False)
        assert where.is_dir() and files(where) == set()  # the writability probe is gone


def test_an_existing_directory_is_refused_without_overwrite_and_kept(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    job = JobDir(KIND, tmp_path)
    with pytest.raises(OutputError, match="already exists .use --overwrite to replace it, or --resume"):
        job.previous(resume=False, overwrite=False)
    with pytest.raises(OutputError, match="already exists"):
        job.create(overwrite=False)
    assert (tmp_path / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize("marker, why", [
    (None, r"it is not a tourney widget run \(no _widget.json\)"),
    (OTHER.marker, r"it is a gadget run, not a widget run \(give another --out, or the command that made it "
                   r"with --resume or --overwrite\)")])
def test_overwrite_never_deletes_what_is_not_a_job_of_this_kind(tmp_path, marker, why):
    (tmp_path / "keep.txt").write_text("mine")
    if marker:
        (tmp_path / marker).write_text("{}")
    job = JobDir(KIND, tmp_path)
    with pytest.raises(OutputError, match=f"^refusing to overwrite {tmp_path}: {why}$"):
        job.create(overwrite=True)
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_overwrite_replaces_a_job_of_this_kind(tmp_path):
    (tmp_path / KIND.marker).write_text("{}")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "part").write_text("old")
    JobDir(KIND, tmp_path).create(overwrite=True)
    assert files(tmp_path) == set()


def test_a_file_in_the_way_and_an_unwritable_place_are_one_line_errors(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="exists and is not a directory"):
        JobDir(KIND, tmp_path / "file").create(overwrite=True)
    with pytest.raises(OutputError, match="cannot write to output"):
        JobDir(KIND, tmp_path / "file" / "below").create(overwrite=False)


def test_resume_and_overwrite_together_are_refused(tmp_path):
    with pytest.raises(OutputError, match="--resume and --overwrite cannot be used together"):
        JobDir(KIND, tmp_path).previous(resume=True, overwrite=True)


# ----------------------------------------------------------------------------- resume
def test_resume_reads_the_job_to_continue(tmp_path):
    write_json(tmp_path / KIND.marker, manifest(status="interrupted"))
    assert JobDir(KIND, tmp_path).previous(resume=True, overwrite=False) == manifest(status="interrupted")


def test_resume_of_nothing_starts_and_clears_a_killed_start(tmp_path):
    assert JobDir(KIND, tmp_path / "missing").previous(resume=True, overwrite=False) is None
    (tmp_path / ".write-probe").write_bytes(b"")
    (tmp_path / f".{KIND.marker}.123.tmp").write_text('{"format"')
    assert JobDir(KIND, tmp_path).previous(resume=True, overwrite=False) is None
    assert files(tmp_path) == set()


@pytest.mark.parametrize("content, message", [
    (None, r"it is not a tourney widget run \(no _widget.json\)"),
    ('{"format": "tourney-w', "_widget.json is unreadable"),
    ('{"format": "tourney-gadget/1"}', "it was written in format 'tourney-gadget/1', this tourney writes "
                                       "'tourney-widget/1'"),
    ("[1, 2]", "it was written in format None"),
])
def test_resume_refuses_what_it_cannot_continue(tmp_path, content, message):
    (tmp_path / "keep.txt").write_text("mine")
    if content is not None:
        (tmp_path / KIND.marker).write_text(content)
    with pytest.raises(ResumeError, match=f"cannot resume {tmp_path}: {message}"):
        JobDir(KIND, tmp_path).previous(resume=True, overwrite=False)
    assert (tmp_path / "keep.txt").exists()


def test_resume_with_other_identity_keys_names_every_difference_in_one_line(tmp_path):
    job = JobDir(KIND, tmp_path)
    job.check_resume(manifest(), manifest(status="complete", command="another"))  # not identity keys
    with pytest.raises(ResumeError) as caught:
        job.check_resume(manifest(), manifest(seed=2, games=(1, 2)))
    text = str(caught.value)
    assert text == (f'cannot resume {tmp_path}: it was started with different parameters: seed 1 (now 2); '
                    f'games 100 (now [1, 2]). Give the original parameters (tourney widget), or use '
                    f'--overwrite to start again')
    wide = JobKind("w", "_w.json", "w/1", ("a", "b", "c", "d", "e"))
    with pytest.raises(ResumeError, match=r"a 0 \(now 1\); b 0 \(now 1\); c 0 \(now 1\) \(and 2 more\)\. "
                                          r"Give the original parameters, or use"):
        JobDir(wide, tmp_path).check_resume(dict.fromkeys("abcde", 0), dict.fromkeys("abcde", 1))


def test_resume_compares_a_kinds_summary_of_a_key(tmp_path):
    from tourney_sim.simulate.study import STUDY
    old = {"format": STUDY.format, "stages": [{"id": "levels/4p-random", "status": "complete", "seconds": 3}]}
    JobDir(STUDY, tmp_path).check_resume(old, {**old, "stages": [{"id": "levels/4p-random", "status": "planned"}]})
    with pytest.raises(ResumeError, match=r'stages \["levels/4p-random"\] \(now \["levels/3p-random"\]\)'):
        JobDir(STUDY, tmp_path).check_resume(old, {**old, "stages": [{"id": "levels/3p-random"}]})


def test_a_resumption_is_listed_and_the_creation_kept():
    old = {"created": "2026-01-01T00:00:00+00:00", "resumed": [{"at": "x", "command": "first"}]}
    new = {"created": "now"}
    JobDir.resumed(old, new, "tourney again", parts_kept=3)
    assert new["created"] == old["created"]
    assert new["resumed"][0] == old["resumed"][0] and len(new["resumed"]) == 2
    assert new["resumed"][1]["command"] == "tourney again" and new["resumed"][1]["parts_kept"] == 3


# ----------------------------------------------------------------------------- atomic writes
@pytest.mark.parametrize("fail", ["encode", "fsync", "rename"])
def test_a_failed_write_leaves_the_old_manifest_whole_and_no_temporary_file(tmp_path, monkeypatch, fail):
    path = tmp_path / KIND.marker
    write_json(path, manifest())
    data = manifest(status="complete")
    if fail == "encode":
        data["games"] = object()
    elif fail == "fsync":
        monkeypatch.setattr(jobdir.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(5, "I/O error")))
    else:
        monkeypatch.setattr(jobdir.os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(28, "disk full")))
    with pytest.raises((TypeError, OSError)):
        write_json(path, data)
    assert json.loads(path.read_text()) == manifest()
    assert files(tmp_path) == {KIND.marker}


def test_a_write_is_flushed_to_disk_before_it_replaces_the_file(tmp_path, monkeypatch):
    seen = []
    real_fsync, real_replace = jobdir.os.fsync, jobdir.os.replace
    monkeypatch.setattr(jobdir.os, "fsync", lambda fd: seen.append("fsync") or real_fsync(fd))
    monkeypatch.setattr(jobdir.os, "replace", lambda a, b: seen.append("replace") or real_replace(a, b))
    JobDir(KIND, tmp_path).write(manifest())
    assert seen == ["fsync", "replace"]
    assert json.loads((tmp_path / KIND.marker).read_text()) == manifest()


# ----------------------------------------------------------------------------- status
def test_status_runs_then_ends_once_and_runs_again_when_resumed(tmp_path):
    job = JobDir(KIND, tmp_path)
    m = manifest(status="failed", error="old trouble")
    job.start(m)
    on_disk = json.loads(job.manifest_path.read_text())
    assert on_disk["status"] == "running" and "error" not in on_disk
    job.finish(m, "failed", seconds=1.23456, error="a strategy failed")
    on_disk = json.loads(job.manifest_path.read_text())
    assert (on_disk["status"], on_disk["seconds"], on_disk["error"]) == ("failed", 1.235, "a strategy failed")
    with pytest.raises(ValueError, match="only a running job ends"):
        job.finish(m, "complete")
    job.start(m)
    with pytest.raises(ValueError, match="a job ends complete, interrupted, failed, not 'paused'"):
        job.finish(m, "paused")
    job.finish(m, "interrupted")
    assert json.loads(job.manifest_path.read_text())["status"] == "interrupted"


# ----------------------------------------------------------------------------- the task loop
class Backend:
    """Runs tasks in order; ``stop_at``: the task key at which it raises ``error``."""

    def __init__(self, stop_at=None, error=None):
        self.stop_at, self.error, self.ran = stop_at, error, []

    def run(self, tasks, on_done):
        for key, args in tasks:
            if key == self.stop_at:
                raise self.error
            self.ran.append(key)
            on_done(key, args)


def test_the_loop_plays_every_batch_and_checkpoints(monkeypatch):
    monkeypatch.setattr(jobdir, "CHECKPOINT_SECONDS", 0.0)
    backend, done, saved = Backend(), [], []
    batches = [[(1, "a"), (2, "b")], [(3, "c")]]
    outcome = execute(lambda: backend, batches, lambda k, info: done.append((k, info)), where="out",
                      on_failure=pytest.fail, checkpoint=lambda: saved.append(len(done)))
    assert outcome == "complete" and done == [(1, "a"), (2, "b"), (3, "c")] and saved == [1, 2, 3]


def test_the_loop_stops_between_batches_when_asked():
    backend = Backend()
    outcome = execute(lambda: backend, [[(1, None)], [(2, None)], [(3, None)]], lambda k, i: None,
                      where="out", on_failure=pytest.fail, after_batch=lambda: backend.ran == [1, 2])
    assert outcome == "stopped" and backend.ran == [1, 2]


def test_ctrl_c_keeps_the_finished_tasks():
    backend, done = Backend(stop_at=2, error=KeyboardInterrupt()), []
    outcome = execute(lambda: backend, [[(1, None), (2, None), (3, None)]], lambda k, i: done.append(k),
                      where="out", on_failure=pytest.fail)
    assert outcome == "interrupted" and done == [1]
    assert execute(lambda: (_ for _ in ()).throw(KeyboardInterrupt()), [], None, where="out",
                   on_failure=pytest.fail) == "interrupted"  # Ctrl-C while compiling


def test_a_failure_is_recorded_then_raised_and_a_failed_write_is_one_line():
    failures = []
    with pytest.raises(RunError, match="^a strategy failed$"):
        execute(lambda: Backend(stop_at=1, error=RunError("a strategy failed")), [[(1, None)]],
                lambda k, i: None, where="out", on_failure=failures.append)
    with pytest.raises(RunError, match="cannot write the results to out: No space left on device; the "
                                       "finished parts are kept, continue with --resume"):
        execute(lambda: Backend(stop_at=1, error=OSError(28, "No space left on device")), [[(1, None)]],
                lambda k, i: None, where="out", on_failure=failures.append)
    with pytest.raises(ZeroDivisionError):
        execute(lambda: 1 / 0, [], None, where="out", on_failure=failures.append)
    assert failures == ["a strategy failed", "cannot write the results to out: No space left on device; the "
                        "finished parts are kept, continue with --resume", "division by zero"]


# ----------------------------------------------------------------------------- every command, one check
WRITERS = [  # every command that writes a directory (report: a file), quick if it ever got to play
    ["run", "companeros", "--games", 10],
    ["tournament", "companeros", "--strategy", "random", "--strategy", "high", "--games", 10],
    ["sweep", "companeros", "--rule", "match_games=1,2", "--strategy", "random", "--strategy", "high",
     "--games", 10],
    ["tune", "companeros", "--strategy", "greedy", "--against", "random", "--trials", 1, "--deals", 10],
    ["study", "companeros", "--budget", "quick", "--levels", "random", "--players", 3],
]


@pytest.mark.parametrize("resume", [False, True])
@pytest.mark.parametrize("args", WRITERS, ids=lambda a: a[0])
@pytest.mark.parametrize("where", ["under-a-file", "name-too-long"])
def test_every_command_refuses_an_unwritable_output_in_one_line(tmp_path, args, where, resume):
    """A place no one can write to, root included (a regular file in the way; a name longer than
    the file system allows): one line, exit 2, nothing written, whether new or resumed."""
    from .support.cli import invoke
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" / "sub" if where == "under-a-file" else tmp_path / ("x" * 300) / "sub"
    r = invoke(*args, "--out", out, "--quiet", *(["--resume"] if resume else []))
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1 and r.output.startswith(f"error: cannot "), r.output
    assert files(tmp_path) == {"afile"} and (tmp_path / "afile").read_text() == "x"


@pytest.mark.parametrize("where", ["under-a-file", "name-too-long"])
def test_report_refuses_an_unwritable_output_in_one_line(tmp_path, where):
    from .support.cli import invoke
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" / "r.html" if where == "under-a-file" else tmp_path / ("x" * 300) / "r.html"
    (tmp_path / "d").mkdir()
    r = invoke("report", tmp_path / "d", "--out", out)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1 and r.output.startswith(f"error: cannot write report "), r.output
    assert files(tmp_path) == {"afile", "d"} and files(tmp_path / "d") == set()


def test_a_resumed_job_checks_its_directory_is_writable(tmp_path):
    """Resuming writes into the job's directory as starting does, so it is checked the same way
    (here the probe cannot be written: a directory holds its name)."""
    write_json(tmp_path / KIND.marker, manifest(status="interrupted"))
    (tmp_path / jobdir.PROBE).mkdir()
    with pytest.raises(OutputError, match=f"^cannot write to output {tmp_path}: Is a directory$"):
        JobDir(KIND, tmp_path).previous(resume=True, overwrite=False)


# ----------------------------------------------------------------------------- run_job: one lifecycle for every kind
class Counting(jobdir.Job):
    """A job of KIND that counts to ``games``, one step a call of play, recording each step: it can
    be told to be interrupted, fail, or be interrupted while reporting at a given step."""

    kind = KIND

    def __init__(self, games=5, seed=1, stop_at=None, fail_at=None, report_interrupted=False):
        self.games, self.seed, self.stop_at, self.fail_at = games, seed, stop_at, fail_at
        self.report_interrupted = report_interrupted
        self.reported = 0

    def prepare(self, old):
        return manifest(games=self.games, seed=self.seed, command=self.command, done=0)

    def adopt(self, old, new):
        new["done"] = old["done"]
        return [f"resuming: {old['done']} of {self.games} done"]

    def play(self, m):
        while m["done"] < self.games:
            if m["done"] == self.stop_at:
                raise KeyboardInterrupt
            if m["done"] == self.fail_at:
                raise RunError("the widget broke at step 3")
            m["done"] += 1
            self.dir.write(m)
        return "complete"

    def report(self, m):
        if self.report_interrupted:
            raise KeyboardInterrupt
        self.reported += 1
        return f"counted {m['done']}"


def read(path):
    return json.loads((path / KIND.marker).read_text())


def test_run_job_plays_reports_and_completes(tmp_path):
    out = jobdir.run_job(Counting(), tmp_path / "a", command="tourney widget")
    assert not out.interrupted and not out.resumed and out.summary == "counted 5"
    m = read(tmp_path / "a")
    assert m["status"] == "complete" and m["done"] == 5 and "seconds" in m and "finished" in m


def test_run_job_keeps_an_interrupted_job_and_a_resume_goes_on(tmp_path):
    out = jobdir.run_job(Counting(stop_at=2), tmp_path / "a")
    assert out.interrupted and out.summary == "" and read(tmp_path / "a")["status"] == "interrupted"
    job = Counting()
    out = jobdir.run_job(job, tmp_path / "a", resume=True, command="again")
    assert out.resumed and out.notes == ["resuming: 2 of 5 done"] and job.reported == 1
    m = read(tmp_path / "a")
    assert m["status"] == "complete" and m["done"] == 5 and m["resumed"][0]["command"] == "again"


def test_run_job_records_a_failure_then_raises_it(tmp_path):
    with pytest.raises(RunError, match="broke"):
        jobdir.run_job(Counting(fail_at=3), tmp_path / "a")
    m = read(tmp_path / "a")
    assert m["status"] == "failed" and m["error"] == "the widget broke at step 3" and m["done"] == 3


def test_run_job_ctrl_c_while_reporting_is_interrupted_and_a_resume_only_reports(tmp_path):
    assert jobdir.run_job(Counting(report_interrupted=True), tmp_path / "a").interrupted
    assert read(tmp_path / "a")["status"] == "interrupted" and read(tmp_path / "a")["done"] == 5
    job = Counting()
    assert jobdir.run_job(job, tmp_path / "a", resume=True).summary == "counted 5" and job.reported == 1


def test_run_job_refuses_before_writing(tmp_path):
    jobdir.run_job(Counting(stop_at=1), tmp_path / "a", command="tourney widget --seed 1")
    before = (tmp_path / "a" / KIND.marker).read_text()
    with pytest.raises(ResumeError, match=r'seed 1 \(now 2\).*tourney widget --seed 1'):
        jobdir.run_job(Counting(seed=2), tmp_path / "a", resume=True)
    with pytest.raises(OutputError, match="already exists"):
        jobdir.run_job(Counting(), tmp_path / "a")
    assert (tmp_path / "a" / KIND.marker).read_text() == before


def test_run_job_releases_what_the_job_opened_however_it_ends(tmp_path):
    closed = []

    class Closing(Counting):
        def close(self):
            closed.append(self.stop_at)

    jobdir.run_job(Closing(), tmp_path / "a")
    jobdir.run_job(Closing(stop_at=1), tmp_path / "b")
    with pytest.raises(OutputError):
        jobdir.run_job(Closing(stop_at=2), tmp_path / "b")  # refused: nothing run, still released
    assert closed == [None, 1, 2]


def test_run_job_takes_an_error_a_ctrl_c_caused_for_the_ctrl_c(tmp_path):
    """CPython wraps a KeyboardInterrupt raised while a class is made (a module being imported
    while a report renders) in a RuntimeError: the job is interrupted, not failed."""
    class Importing(Counting):
        def report(self, m):
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as exc:
                raise RuntimeError("Error calling __set_name__ on '_axis_method_wrapper'") from exc

    out = jobdir.run_job(Importing(), tmp_path / "a")
    assert out.interrupted and read(tmp_path / "a")["status"] == "interrupted"
    assert jobdir.by_interrupt(RuntimeError("x")) is False
