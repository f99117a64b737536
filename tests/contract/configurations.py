"""The configurations every game's contract runs over, read from the game registry: every player
count with the default rules, and every rule option value other than its default (at the smallest
table). Nothing here names a game: a new game folder is covered as soon as it is registered. The
definitions are the library's (``tourney_sim.testing``, which ``check_game`` runs over)."""
from __future__ import annotations

from tourney_sim.testing import Configuration, changed_values, configurations

__all__ = ["CONFIGURATIONS", "Configuration", "IDS", "changed_values", "configurations"]

CONFIGURATIONS = configurations()
IDS = [str(c) for c in CONFIGURATIONS]
