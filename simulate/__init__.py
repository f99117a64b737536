"""tourney's engine: games, compiled kernels, runner, results.

Compiled kernels are cached on disk. numba invalidates a cached function only when its own
source file changes, but every game's ``play_chunk`` inlines the shared loop of
``simulate/kernel.py`` and helpers from other files; so the cache directory is keyed to a hash of
all of this project's sources (``~/.cache/tourney/numba-<hash>``, or ``$TOURNEY_CACHE_DIR``). An
explicit ``NUMBA_CACHE_DIR`` is respected.
"""
import hashlib
import os
import warnings
from pathlib import Path

from tourney_sim import __version__  # noqa: E402,F401  (one version, the package's)


def _source_hash() -> str:
    # the folders mapped to tourney_sim.simulate and tourney_sim.strategies: siblings in the
    # repository (an editable install) and in an installed wheel alike
    # and the folders of games outside the package (TOURNEY_GAME_PATH: their games and strategies
    # inline the kernel loop and one another's rules, as the built-in ones do)
    # and their data (*.toml): the search compiles its play-out policies' rows (tuned settings,
    # shipped apprentice weights) in as constants, so new weights must not load an old cache
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    folders = [(root, root / package) for package in ("simulate", "strategies")]
    folders += [(Path(d).resolve(), Path(d).resolve() / package) for d in
                os.environ.get("TOURNEY_GAME_PATH", "").split(os.pathsep) if d
                for package in ("games", "strategies")]
    for base, folder in folders:
        for path in sorted([*folder.rglob("*.py"), *folder.rglob("*.toml")]):
            digest.update(str(path.relative_to(base)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


if "NUMBA_CACHE_DIR" not in os.environ:
    base = os.environ.get("TOURNEY_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tourney")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(base, f"numba-{_source_hash()}")
    import sys

    if "numba.core.config" in sys.modules:  # numba read its config before us (e.g. a plug-in)
        sys.modules["numba.core.config"].CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

# numba imports scipy's BLAS when it starts compiling or loading code; tourney does no linear
# algebra, and an OpenBLAS thread pool (one thread per core, spinning after start-up) only takes
# CPU from the game workers. Measured under perf: 3% of a one-core run. A user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _numba_without_blas() -> None:
    """Load numba's array functions with its BLAS check answered "none": the check imports
    scipy.linalg, a quarter of every command's start (1.79 s -> 1.35 s for a cached
    ``tourney run companeros --games 1000 --workers 1``, medians of 7 alternating pairs), for
    linear algebra no built-in kernel or strategy does. Skipped when plug-in strategies are
    installed (one may use ``np.dot``, which needs BLAS in numba). scipy imports normally
    afterwards (the reports use scipy.stats)."""
    import sys
    from importlib.metadata import entry_points

    if "numba.np.arraymath" in sys.modules or "scipy" in sys.modules:
        return
    if entry_points(group="tourney.strategies"):
        return
    sys.modules["scipy"] = None  # makes numba's ``import scipy.linalg.cython_blas`` fail
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy"]


_numba_without_blas()

# Strategies travel into kernels as first-class functions: numba calls that feature experimental
# and warns on every compile; we rely on it knowingly (see simulate/kernel.py).
from numba.core.errors import NumbaExperimentalFeatureWarning  # noqa: E402

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
