"""Strategy labels as reports show them.

A setting read from a file goes by a short name (``guard@best``, or the file's ``name = "..."``;
``tourney_sim.strategies.params``): that is its label in the data, every table and every plot,
and its full values are shown once, in the report's settings table (:func:`named_settings`, from
the manifests, which keep them). Other labels can still be long (``guard:card_worth=0.03105,...``
typed on the command line): :func:`fit` wraps and elides them for a plot's axis or legend.
"""
from __future__ import annotations

import textwrap
from collections.abc import Iterable

from tourney_sim.simulate.matchup import recorded_settings

#: characters per line of a label on a plot's axis or in its legend
PLOT_WIDTH = 28
#: lines a label may take on a plot (the rest is elided)
PLOT_LINES = 2


def fit(label, width: int = PLOT_WIDTH, lines: int = PLOT_LINES) -> str:
    """``label`` on at most ``lines`` lines of about ``width`` characters (broken after commas,
    else anywhere), the rest elided with "…"; a short label is returned as it is."""
    text = str(label)
    if len(text) <= width:
        return text
    return "\n".join(textwrap.wrap(text.replace(",", ", "), width, max_lines=lines, placeholder=" …"))


def named_settings(manifests: Iterable[dict]) -> dict[str, str]:
    """{short name: the setting text with every value that differs from the defaults} of the
    strategies that go by a short name in these datasets' manifests, in order of appearance."""
    out: dict[str, str] = {}
    for manifest in manifests:
        for name, setting in recorded_settings(manifest).items():
            out.setdefault(name, setting)
    return out
