"""Readable pure-Python reference engines, one per game, written from the rules files.

They share nothing with the kernels but the move codes and the random streams
(``tourney_sim.simulate.seeding.PyStream``), so that a kernel and its reference can be compared step by step
on the same seeded games. Each module offers ``Game(params, chance)`` with ``to_move()``,
``legal_moves()`` (ascending move codes), ``apply(move)``, ``result()`` -> (scores, ranks, extras)
and ``describe(move)``.
"""
