"""Every kind of job directory, known: a dataset (``tourney run``), a tournament or sweep, a tuning
run, a study, a design run and a training run.

Each kind's module makes its :class:`~tourney_sim.simulate.jobdir.JobKind`, which registers itself
in :data:`~tourney_sim.simulate.jobdir.KINDS`; :func:`~tourney_sim.simulate.jobdir.detect` looks
a directory up there. :mod:`~tourney_sim.simulate.jobdir` sits below the kinds and imports none of
them, so whatever asks which kind a directory is (every command that takes one, the reports, the
verifier) imports this module first: it imports every kind, and passes on the questions
(:func:`detect`, :func:`not_a`, :func:`members`, :func:`kind_name`) once they are all known.
"""
from __future__ import annotations

from . import design, results, study, tournament, train, tune  # noqa: F401  (each module makes its kind)
from .jobdir import KINDS, detect, kind_name, members, not_a  # noqa: F401  (asked here: every kind known)
