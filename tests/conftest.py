"""Import the engine first, so the numba cache directory keyed to the sources is in force before
anything compiles (see simulate/__init__.py); and, for a run of whole folders (CI's), fill that
cache with every game's kernels before the test workers start (tests/support/compile_cache.py)."""
from pathlib import Path

import tourney_sim.simulate  # noqa: F401
import pytest  # noqa: E402

from .plugin_site import install_plugin_demo  # noqa: E402


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist starts its workers (its hook runs last)
def pytest_sessionstart(session):
    config = session.config
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    # a run of chosen files or tests compiles only what those need; a run of folders needs all
    if not all(Path(arg.split("::")[0]).is_dir() for arg in config.args):
        return
    from tourney_sim.simulate.games import game_names

    from .support.compile_cache import compile_in_parallel
    seconds = compile_in_parallel(game_names())
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"numba cache: every game's kernels ready in {seconds:.0f} s "
                            f"(tests/support/compile_cache.py)")


#: The files that take longest (named as in pytest's node ids, like :data:`SAME_WORKER`; seconds
#: on a warm cache, 2 workers, measured 2026-12-07), handed to the workers first. pytest-xdist otherwise orders files by their number of tests and gave
#: the Ctrl-C stress (3 tests, 50 s) last: one worker ran it alone for 50 s while the other idled.
#: The rest follow in collection order; a file missing here only risks such a tail.
LONGEST_FIRST = (
    "tests/contract/test_tables.py",  # 141
    "tests/test_study.py",  # 115
    "tests/contract/test_hidden.py",  # 99
    "tests/test_design.py",  # 81
    "tests/test_partners.py",  # 79
    "tests/test_interrupt.py",  # 52
    "tests/test_coverage.py",  # 52
    "tests/contract/test_notation.py",  # 43
    "tests/test_toy_game.py",  # 43
    "tests/test_dask.py",  # 38
    "tests/test_cardavia.py",  # 36
    "tests/test_cli_fuzz.py",  # 36 (its fixtures), then 22
    "tests/test_adaptive.py",  # 30
    "tests/contract/test_games.py",  # 30
    "tests/test_report_provenance.py",  # 30
)


def pytest_collection_modifyitems(config, items):
    """The longest files first (with ``--no-loadscope-reorder`` in pyproject.toml's addopts, xdist
    hands files out in this order), every file's tests in their own order."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    # stable: the rest keep their order
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


#: Files that must share a worker: each compiles the same per-game closures, which numba cannot
#: cache on disk (``testing.sampling_run``'s play-on check, ``random_playthroughs``): about 40 s
#: a process for the four games, paid twice when the two files ran on different workers.
SAME_WORKER = {"tests/contract/test_games.py": "tests/contract/test_hidden.py"}


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (pyproject.toml's addopts), with the files of :data:`SAME_WORKER`
    handed out as one."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedCompiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return SAME_WORKER.get(scope, scope)
    return SharedCompiles(config, log)


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory):
    """A site directory holding the demo plug-in package (tests/plugin_demo), pip-installed."""
    return install_plugin_demo(tmp_path_factory.mktemp("site"))
