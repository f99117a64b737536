"""What a seat may see of a kernel state: its public view and its own private view, both slices of
the state (``module.public_view(state)``, ``module.private_view(state, seat)``). Everything else
is what it may not see: the other seats' private blocks and the scratch area (decks, hidden
cards). Scrambling that with garbage and asking again is how the contract shows that the
determinization, every heuristic and the search read only their views (no peeking).

The functions are the library's (:mod:`tourney_sim.testing`, which ``check_game`` uses), named
here for the tests that build their own states."""
from __future__ import annotations

from tourney_sim.testing import scrambled, seen_by  # noqa: F401
