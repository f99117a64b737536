"""The ``tourney`` command's entry point (and ``python -m tourney_sim``'s): the CLI of
``tourney_sim.cli``, started and ended without Python's cyclic garbage collector walking
numba's objects.

Starting, numpy, numba (its compiler, typing registries and the kernels loaded from the cache)
and pyarrow leave about a million objects that live until the process ends, and the collector
walks them again and again: in its collections while they are made, and once more, over all of
them, when the interpreter shuts down. Collecting nothing during the imports, then moving what
they made out of the collector's sight (``gc.freeze``), and again at the end, saved a cached
``tourney run partners --games 1000 --workers 1`` about 0.4 s of 1.3-1.5 s (docs/speed.md);
exiting runs every ``atexit`` handler and flushes every file as before. The collector is on while
a command runs, so long runs and Dask clients collect their cycles as usual. The library
(``import tourney_sim``) leaves the collector alone.
"""
from __future__ import annotations

import gc


def main() -> None:
    gc.disable()
    try:
        from tourney_sim.cli import main as cli_main
    finally:
        gc.freeze()  # what the imports made stays for good: out of every later collection
        gc.enable()
    try:
        cli_main()
    finally:
        gc.freeze()  # nothing left to collect that matters: skip shutdown's walk over it all
