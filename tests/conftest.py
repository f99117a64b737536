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


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory):
    """A site directory holding the demo plug-in package (tests/plugin_demo), pip-installed."""
    return install_plugin_demo(tmp_path_factory.mktemp("site"))
