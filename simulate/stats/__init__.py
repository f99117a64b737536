"""The statistics layer: everything a study, a design run, a tuning run and their reports compute
from the Parquet datasets, below the orchestration that plays them (``simulate/``: study, design,
tune, tournament import it directly) and above the datasets it reads (results, jobdir) and the
engine; ``reports/`` only renders what it computes (HTML, Markdown, plots, words).

Modules, from the bottom (each imports only those above it in this list):

- :mod:`~tourney_sim.simulate.stats.load`: finding, checking and loading datasets and tournaments
  into configurations (:class:`~tourney_sim.simulate.stats.load.Config`: one matrix per quantity,
  one row per game, one column per seat; deals identified by seed and game index);
- :mod:`~tourney_sim.simulate.stats.intervals`: the intervals and tests (score intervals, balance
  and its gain, confidence sequences, power, Holm, a tuning run's paired summary);
- :mod:`~tourney_sim.simulate.stats.analysis`: a configuration's numbers (per-deal sums, seats,
  strategies, ratings, shape, rule variants);
- :mod:`~tourney_sim.simulate.stats.measures`: the :class:`~tourney_sim.simulate.stats.measures.Measure`
  registry (balance, skill, length, decisiveness, draws, win, margin: each one's per-deal values,
  range, direction, words and unit, defined once) and the per-deal values;
- :mod:`~tourney_sim.simulate.stats.findings`: a study's questions, families and outcomes;
- :mod:`~tourney_sim.simulate.stats.adaptive`: the study's adaptive stage (questions read twice,
  control variate, when to stop);
- :mod:`~tourney_sim.simulate.stats.sequential`: ``--until-decided`` (:func:`stopping_rule`);
- :mod:`~tourney_sim.simulate.stats.components`: each dealt kind's effect on winning
  (:func:`largest_components`: the kinds the study checks);
- :mod:`~tourney_sim.simulate.stats.studies`: a study's data, questions and findings.json
  (:func:`open_questions`: the adaptive stage's decision);
- :mod:`~tourney_sim.simulate.stats.designs`: a design candidate's measures
  (:func:`design_measure`), the pruning rule (:func:`hopeless`), the confirmation and the
  recommendation.

What the orchestration asks, by direct import: ``sequential.stopping_rule(question, alpha,
margin)``, ``studies.open_questions(out, manifest, players)``,
``components.largest_components(dataset_dir)``, ``designs.design_measure(game, players,
mirror_dirs, skill)``, ``designs.hopeless(game, players, mirror_dirs, today_dirs)``,
``intervals.paired_summary(best, base)``, ``measures.candidate_result(...)`` and the registry.
The modules import numpy at the top and pandas, pyarrow's dataset API and scipy where they are
needed (this package's ``__init__`` imports nothing).
"""
