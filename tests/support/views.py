"""What a seat may see of a kernel state: its public view and its own private view, both slices of
the state (``module.public_view(state)``, ``module.private_view(state, seat)``). Everything else
is what it may not see: the other seats' private blocks and the scratch area (decks, hidden
cards). Scrambling that with garbage and asking again is how the contract shows that the
determinization, every heuristic and the search read only their views (no peeking)."""
from __future__ import annotations

import numpy as np


def seen_by(module, state: np.ndarray, seat: int) -> np.ndarray:
    """True at the indices of ``state`` that ``seat``'s two views are made of."""
    seen = np.zeros(state.shape, bool)
    base = state.__array_interface__["data"][0]
    for view in (module.public_view(state), module.private_view(state, seat)):
        assert np.shares_memory(view, state), "a view must be a slice of the state, not a copy"
        start = (view.__array_interface__["data"][0] - base) // state.itemsize
        seen[start:start + len(view)] = True
    return seen


def scrambled(module, state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` with everything ``seat`` may not see replaced by garbage (integers from
    -9 to 98): the same two views, any hidden information at all, even an impossible one."""
    other = state.copy()
    hidden = ~seen_by(module, state, seat)
    other[hidden] = rng.integers(-9, 99, int(hidden.sum()))
    return other
