"""Import the engine first, so the numba cache directory keyed to the sources is in force before
anything compiles (see simulate/__init__.py)."""
import tourney_sim.simulate  # noqa: F401
import pytest  # noqa: E402

from .plugin_site import install_plugin_demo  # noqa: E402


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory):
    """A site directory holding the demo plug-in package (tests/plugin_demo), pip-installed."""
    return install_plugin_demo(tmp_path_factory.mktemp("site"))
