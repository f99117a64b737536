"""The demo plug-in package installed into a private site directory (the ``plugin_site``
fixture, in conftest.py) and `python -m tourney_sim` run with it importable: shared by the plug-in
and Dask tests."""
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent


def install_plugin_demo(site: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(site), str(HERE / "plugin_demo")], check=True)
    return site


def tourney(site, *args):
    """`python -m tourney_sim ARGS` in a fresh process that sees the plug-in installed in ``site``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    return subprocess.run([sys.executable, "-m", "tourney_sim", *map(str, args)], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)
