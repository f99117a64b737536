"""Import the engine first, so the numba cache directory keyed to the sources is in force before
anything compiles (see simulate/__init__.py)."""
import simulate  # noqa: F401
