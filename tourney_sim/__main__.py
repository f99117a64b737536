"""``python -m tourney_sim``: the same CLI as ``tourney``."""
from tourney_sim.command import main

main()
