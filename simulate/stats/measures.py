"""The measures: what a study, a design run, a tuning run and their reports measure, each defined once.

A :class:`Measure` is a name, how its per-deal values are read (:attr:`Measure.per_deal`, the unit
of every interval being the deal), the range its values lie in, which way is better
(:attr:`Measure.direction`), the words a report uses for it and its unit. :data:`MEASURES` holds
every one, registered once (:func:`register`), in the order the commands list them; what each
serves (:attr:`Measure.uses`):

- ``"design"``: an objective or a target of ``tourney design`` (:func:`names` ``("design")``: its
  measures; :data:`DESIGN_OBJECTIVES` and :data:`DESIGN_TARGETS`: its defaults, from each measure's
  :attr:`~Measure.objective` and :attr:`~Measure.target`; :func:`ranges`: where a target can lie);
  a candidate's figure is :attr:`Measure.figure` of its games;
- ``"study"``: a rule option's effect the study asks about beyond balance (:func:`study_measures`, in
  the order it asks them: the question's measure :attr:`~Measure.question`, what it says
  :attr:`~Measure.wording`, its per-deal values);
- ``"tune"``: an objective of ``tourney tune`` (:func:`names` ``("tune")``; its words in the
  tuning run's summary).

What ``per_deal`` reads (:attr:`Measure.reads`):

- ``"games"``: ``per_deal(cfg)`` of a loaded configuration (:class:`~tourney_sim.simulate.stats.load.Config`,
  everyone the same strategy): [D] per-deal values; a measure not every deal has (decisiveness:
  only games with a leader at two thirds) gives ``([D] values, [D] whether the deal has one)``, or
  None when the game does not record it;
- ``"seats"``: ``per_deal(cfg, seats)``: a strategy in ``seats``, another in the others (skill);
- ``"dataset"``: ``per_deal(directory, n_players, seats, deals, better)``: the per-deal result of
  the candidate's ``seats`` in one dataset directory, read straight from its parts (tune's
  objectives, :func:`candidate_result`).

Adding a measure: its per-deal function and one :func:`register` call here; the design's
objectives and targets, tune's objectives, the study's rule questions and the reports' words
follow from the registry.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from tourney_sim.simulate.results import numpy_array, read_parts

from .load import DECISIVENESS_COLUMN, Config

#: which way is better: the larger, the smaller, or the closer to today's game (a design keeps it)
DIRECTIONS = ("max", "min", "target")
#: what a measure's values are: a share of games (shown in %, its changes in pp), the balance
#: figure (0 to 1), a difference of win rates (its changes in pp), decisions, points
UNITS = ("share", "figure", "difference", "decisions", "points")
#: what ``per_deal`` takes (see the module docstring)
READS = ("games", "seats", "dataset")
USES = ("design", "study", "tune")


@dataclass(frozen=True)
class Measure:
    """One measure (see the module docstring)."""

    name: str
    per_deal: Callable
    low: float
    high: float
    direction: str  # "max" | "min" | "target"
    wording: str  # what it measures, as a sentence names it: "how often the leader at two thirds wins"
    unit: str  # one of UNITS
    reads: str = "games"  # one of READS
    uses: tuple = ()  # of USES
    said: str = ""  # before its value in a sentence: "the leader at two thirds wins 41% → 47%"
    figure: Callable | None = None  # cfg -> the figure over a configuration's games (None: no such figure)
    question: str | None = None  # its name in a study question ("draw rate"); None: the study asks none
    asked: int = 0  # the study asks about a rule option's effect on it in this order (0: not asked)
    objective: bool = False  # a default objective of tourney design
    #: its default target of tourney design (">=75%": at least 75% of today's; "=10%": within ±10% of
    #: today's; "=2pp": within ±2 percentage points of today's); a game that cannot measure it does
    #: not get it
    target: str | None = None
    column: str | None = None  # the result column it needs beyond the base columns (None: none)

    @property
    def maximise(self) -> bool:
        """Larger is better (an objective optuna maximises)."""
        return self.direction == "max"

    @property
    def range(self) -> tuple[float, float]:
        return (self.low, self.high)

    def change_bounds(self) -> tuple[float, float] | None:
        """Where a paired change (after minus before, per deal) lies: (low - high, high - low);
        None when the measure is unbounded (a t interval, not a score interval)."""
        if math.isinf(self.low) or math.isinf(self.high):
            return None
        return (self.low - self.high, self.high - self.low)

    def text(self, x) -> str:
        """A value of it as a report writes it: "41.2%" (a share), "52.3 decisions", else "0.934"."""
        if x is None:
            return "n/a"
        if self.unit == "decisions":
            return f"{x:.1f} decisions"
        if self.unit == "share":
            return "n/a" if not math.isfinite(x) else f"{100 * x:.1f}%"
        return f"{x:.3f}"

    @property
    def change_unit(self) -> str:
        """The unit of a change of it in a study question: "pp" (rates and differences of them),
        "decisions" or "points"."""
        return self.unit if self.unit in ("decisions", "points") else "pp"


#: every measure, by name, in the order registered (the order the commands list them)
MEASURES: dict[str, Measure] = {}


def register(m: Measure) -> Measure:
    """Add ``m`` to :data:`MEASURES` (a name is registered once)."""
    if m.name in MEASURES:
        raise ValueError(f"measure {m.name!r} is registered twice")
    if m.direction not in DIRECTIONS or m.unit not in UNITS or m.reads not in READS or set(m.uses) - set(USES):
        raise ValueError(f"measure {m.name!r}: direction, unit, reads or uses not one of "
                         f"{DIRECTIONS}, {UNITS}, {READS}, {USES}")
    MEASURES[m.name] = m
    return m


def names(use: str) -> tuple[str, ...]:
    """The measures that serve ``use`` ("design", "study", "tune"), in the registry's order."""
    return tuple(n for n, m in MEASURES.items() if use in m.uses)


def ranges(use: str) -> dict[str, tuple[float, float]]:
    """The values each measure of ``use`` can take (a target outside them can never be met)."""
    return {n: MEASURES[n].range for n in names(use)}


def study_measures() -> list[Measure]:
    """The measures whose change under a rule option the study asks about (besides balance), in
    the order it asks them."""
    return sorted((m for m in MEASURES.values() if m.asked), key=lambda m: m.asked)


# ----------------------------------------------------------------------------- per-deal values
def unit_rates(cfg: Config) -> tuple[list[str], np.ndarray]:
    """The units (teams in team games, else seats) and each one's win rate per deal, [D, U]."""
    from . import analysis
    names_, wd, gd = analysis.unit_deal_rates(cfg)
    return names_, wd / gd[:, None]


def balance_per_deal(cfg: Config) -> np.ndarray:
    """The balance figure's per-deal values: each unit's win rate per deal, [D, U] (the figure is
    1 minus the largest gap between the units' mean rates)."""
    return unit_rates(cfg)[1]


def skill_per_deal(cfg: Config, seats) -> np.ndarray:
    """Per deal: the win of the strategy in ``seats`` (the mean over them) minus the mean win of
    the other players' seats; in [-1, 1], 0 a coin flip."""
    from . import analysis
    mine = sorted(int(s) for s in seats)
    others = [s for s in range(cfg.players) if s not in mine]
    per_game = cfg.win[:, mine].mean(axis=1) - cfg.win[:, others].mean(axis=1)
    return analysis.per_deal_sum(cfg, per_game) / analysis.tables_per_deal(cfg)


def draws_per_deal(cfg: Config) -> np.ndarray:
    from . import analysis
    return analysis.per_deal_sum(cfg, analysis.draws(cfg)) / analysis.tables_per_deal(cfg)


def leader_wins_per_deal(cfg: Config) -> tuple[np.ndarray, np.ndarray] | None:
    """Per deal: share of games whose leader at two thirds won, and whether any game had one."""
    from . import analysis
    led = analysis.leader_won(cfg)
    if led is None:
        return None
    won, valid = led
    has = analysis.per_deal_sum(cfg, valid.astype(float))
    return analysis.per_deal_sum(cfg, won) / np.maximum(has, 1), has > 0


def length_per_deal(cfg: Config) -> np.ndarray:
    from . import analysis
    return analysis.per_deal_sum(cfg, cfg.decisions) / analysis.tables_per_deal(cfg)


def margin_per_deal(cfg: Config) -> np.ndarray:
    """The winning margin (first minus second competitor, in the game's favour) per deal."""
    from . import analysis
    return analysis.per_deal_sum(cfg, analysis.winning_margins(cfg)) / analysis.tables_per_deal(cfg)


def mean_score_per_deal(cfg: Config) -> np.ndarray:
    from . import analysis
    comp = analysis.competitor_columns(cfg)
    return analysis.per_deal_sum(cfg, cfg.score[:, comp].mean(axis=1)) / analysis.tables_per_deal(cfg)


def candidate_result(directory: Path, n_players: int, mine: list[int], deals: int, objective: str,
                     better: str) -> np.ndarray:
    """Per deal: the candidate's win (mean over its seats; a shared first place counts) or its
    score margin over the mean of the other players (turned for lowest-wins games)."""
    game, seat, score, win = [], [], [], []
    for t in read_parts(directory, ["game", "seat", "score", "win"]):
        game.append(numpy_array(t.column("game")))
        seat.append(numpy_array(t.column("seat")))
        score.append(numpy_array(t.column("score")))
        win.append(numpy_array(t.column("win")))
    game, seat = np.concatenate(game), np.concatenate(seat).astype(np.int64)
    score, win = np.concatenate(score).astype(np.float64), np.concatenate(win).astype(np.float64)
    players = seat < n_players
    is_mine = np.isin(seat, mine)
    n_mine = np.bincount(game[is_mine], minlength=deals)
    if objective == "win":
        return np.bincount(game[is_mine], weights=win[is_mine], minlength=deals) / n_mine
    others = players & ~is_mine
    margin = (np.bincount(game[is_mine], weights=score[is_mine], minlength=deals) / n_mine
              - np.bincount(game[others], weights=score[others], minlength=deals)
              / np.bincount(game[others], minlength=deals))
    return margin if better == "high" else -margin


def _candidate(objective: str) -> Callable:
    def per_deal(directory: Path, n_players: int, seats, deals: int, better: str) -> np.ndarray:
        return candidate_result(directory, n_players, list(seats), deals, objective, better)
    per_deal.__doc__ = f"Per deal: the candidate's {objective} (:func:`candidate_result`)."
    return per_deal


# ----------------------------------------------------------------------------- figures
def length_figure(cfg: Config) -> float:
    """Mean decisions per game."""
    return float(cfg.decisions.mean())


def draws_figure(cfg: Config) -> float:
    """The share of games with a shared first place."""
    from . import analysis
    return float(analysis.draws(cfg).mean())


def decisiveness_figure(cfg: Config) -> float | None:
    """The share of games with a leader at two thirds that the leader won (None: the game does not
    record it, or no game had one)."""
    from . import analysis
    led = analysis.leader_won(cfg)
    if led is not None and led[1].any():
        return float(led[0].sum() / led[1].sum())
    return None


# ----------------------------------------------------------------------------- the registry
BALANCE = register(Measure(
    "balance", balance_per_deal, 0.0, 1.0, "max",
    "1 minus the largest gap between the units' win rates (teams in team games, else seats)", "figure",
    uses=("design",), said="balance", objective=True))
SKILL = register(Measure(
    "skill", skill_per_deal, -1.0, 1.0, "max",
    "how much more often the stronger strategy wins than the weaker", "difference", reads="seats",
    uses=("design",), said="skill", objective=True, target=">=75%"))
LENGTH = register(Measure(
    "length", length_per_deal, 0.0, math.inf, "target", "game length", "decisions",
    uses=("design", "study"), said="game length", figure=length_figure, question="length", asked=3))
DECISIVENESS = register(Measure(
    "decisiveness", leader_wins_per_deal, 0.0, 1.0, "max", "how often the leader at two thirds wins", "share",
    uses=("design", "study"), said="the leader at two thirds wins", figure=decisiveness_figure,
    question="decisiveness", asked=2, column=DECISIVENESS_COLUMN, target="=10%"))
DRAWS = register(Measure(
    "draws", draws_per_deal, 0.0, 1.0, "min", "the share of shared first places", "share",
    uses=("design", "study"), said="draws", figure=draws_figure, question="draw rate", asked=1, target="=2pp"))
WIN = register(Measure(
    "win", _candidate("win"), 0.0, 1.0, "max", "win rate", "share", reads="dataset", uses=("tune",),
    said="win rate"))
MARGIN = register(Measure(
    "margin", _candidate("margin"), -math.inf, math.inf, "max", "score margin", "points", reads="dataset",
    uses=("tune",), said="score margin"))

#: tourney design's default objectives (besides disruption, always one) and targets
DESIGN_OBJECTIVES = tuple(n for n in names("design") if MEASURES[n].objective)
DESIGN_TARGETS = tuple(f"{n}{MEASURES[n].target}" for n in names("design") if MEASURES[n].target)


def design_targets(columns) -> tuple[str, ...]:
    """The default targets of a design of a game whose results have ``columns``: those of
    :data:`DESIGN_TARGETS` the game can measure (decisiveness needs its column)."""
    return tuple(t for n, t in zip((n for n in names("design") if MEASURES[n].target), DESIGN_TARGETS)
                 if MEASURES[n].column is None or MEASURES[n].column in columns)

#: the result columns a design candidate's measures read beyond the base columns
DESIGN_COLUMNS = tuple(MEASURES[n].column for n in names("design") if MEASURES[n].column)
