"""A balance study's questions, tested as one family: what the study found, what is negligible,
and what it could not settle (with the deals that would settle it).

Every *question* is a mean of independent per-deal values (a deal is one seed and game index,
played at every level and under every rule option, so comparisons on the same deal are paired):

- **seats** (per player count and level of play, everyone playing the same strategy): each
  seat's win rate minus the average seat's (teams, and two-seat tables: the first unit minus
  the second), and the first player's win minus the average seat's (when the first player
  varies; otherwise it is the seat that always starts);
- **rules** (per player count, level and rule option value, against the default rules on the
  same deals): the change in each seat's win rate (as above), in the first player's advantage,
  in the draw rate, in how often the leader at two thirds wins (decisiveness, where the game
  records it) and in game length;
- **strategies** (per player count, the strategy landscape): for each pair of strategies, the
  paired win-rate difference over the deals where they met.

Each question gets an estimate, a 95% interval and a p-value: a t test over deals, or, for the
pairs a sequential tournament stopped early (``--until-decided``), the anytime-valid interval
and p-value of the confidence sequence that stopped it, so stopping early does not bias them.
Holm's step-down adjustment then runs over every question of the study at once (a family-wise
5% error rate), and each question is

- a **finding** when its adjusted p-value is below 0.05;
- **negligible** when it is not, and its 95% interval lies inside +-``MARGIN_PP`` (win rates,
  draw and decisiveness rates) or +-1% of the baseline (game length): "no effect larger than";
- **not settled** otherwise, with the deals that would settle it if the effect is as observed:
  the number at which the interval at the family's Bonferroni level (which Holm never needs to
  exceed) would exclude 0;
- **unchanged** (a rule option that changed no game at all: every difference exactly 0), left
  out of the family.

The synthetic tests (``tests/test_study.py``) plant seat advantages, rule options that shift
balance and dominant strategies, and check that exactly those are found, over repeated seeds.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from statistics import NormalDist

import numpy as np

from . import analysis, stats
from .load import Config

ALPHA = 0.05
MARGIN_PP = 0.01  # win-rate and rate questions: a change below 1 pp is negligible
LENGTH_MARGIN = 0.01  # game length: below 1% of the baseline's is negligible
SECTIONS = ("seats", "rules", "strategies")


@dataclass
class Question:
    section: str  # seats | rules | strategies
    players: int
    level: str | None  # random | heuristic | search (None: the landscape)
    subject: str  # "seat 1", "first player", "last_sweep_scores=false", "ismcts v greedy"
    measure: str  # "win rate", "first player", "draw rate", "decisiveness", "length", "strength"
    context: str  # "4 players, everyone guard-tuned (heuristic)"
    claim: str  # "seat 1 wins more often than the average seat" (the sign decides the words)
    claim_negative: str
    unit: str  # "pp" (differences of rates) or "decisions"
    estimate: float
    low: float
    high: float
    p_value: float
    deals: int
    sd: float
    anytime: bool = False  # interval and p from a confidence sequence (sequential stopping)
    unchanged: bool = False  # every per-deal difference is exactly 0
    baseline: float = math.nan  # what the difference is relative to (game length: the baseline)
    p_holm: float = math.nan
    outcome: str = ""  # finding | negligible | not settled | unchanged
    more_deals: int | None = None  # not settled: deals to add at the observed effect
    option: str | None = None  # rules: "key=value"
    pair: tuple | None = None  # strategies: (a, b)

    @property
    def key(self) -> tuple:
        return (self.section, self.players, self.level, self.subject, self.measure)

    def margin(self) -> float:
        if self.unit == "pp":
            return MARGIN_PP
        return LENGTH_MARGIN * abs(self.baseline) if math.isfinite(self.baseline) else 0.0

    def number(self, x: float) -> str:
        if self.unit == "pp":
            return f"{100 * x:+.1f} pp"
        return f"{x:+.1f}"

    def interval(self) -> str:
        if self.unit == "pp":
            return f"[{100 * self.low:+.1f}, {100 * self.high:+.1f}]"
        return f"[{self.low:+.1f}, {self.high:+.1f}]"

    def phrase(self) -> str:
        """The claim with its estimate and interval, said the way round that makes the number
        positive: "seat 2 wins more often than the average seat by 6.2 pp, 95% [+4.1, +8.4]"."""
        if self.estimate >= 0:
            claim, est, low, high = self.claim, self.estimate, self.low, self.high
        else:
            claim, est, low, high = self.claim_negative, -self.estimate, -self.high, -self.low
        if self.unit == "pp":  # rates: an interval cannot leave [-100, +100] pp
            low, high = max(low, -1.0), min(high, 1.0)
        shown = Question(**{**asdict(self), "estimate": est, "low": low, "high": high})
        extra = ""
        if self.unit == "decisions" and math.isfinite(self.baseline) and self.baseline:
            share = 100 * est / self.baseline
            extra = f" ({share:.1f}% of {self.baseline:.0f})" if share < 10 else f" ({share:.0f}% of {self.baseline:.0f})"
        unit = "" if self.unit == "pp" else " decisions"
        kind = "anytime-valid 95%" if self.anytime else "95%"
        return f"{claim} by {shown.number(est).lstrip('+')}{unit}{extra}, {kind} {shown.interval()}"

    def sentence(self) -> str:
        return f"{self.context}: {self.phrase()}, adjusted p {_p(self.p_holm)}"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["sentence"] = self.sentence() if self.outcome != "unchanged" else self.context + ": " + self.claim
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()}


def _p(p: float) -> str:
    if not math.isfinite(p):
        return "n/a"
    if p < 0.001:
        return "< 0.001"
    if p < 0.05 <= round(p, 3):  # 0.0497 is a finding: do not round it up to the threshold
        return f"= {p:.4f}"
    return f"= {p:.3f}"


# ----------------------------------------------------------------------------- per-deal values
def _test(x, anytime: bool = False):
    """(estimate, low, high, p, n, sd, unchanged) of the mean of per-deal values ``x``."""
    x = np.asarray(x, float)
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan, math.nan, 0, math.nan, False
    if np.all(x == 0):
        return 0.0, 0.0, 0.0, math.nan, n, 0.0, True
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    if anytime:
        est, low, high, p = anytime_test(x)
        return est, low, high, p, n, sd, False
    t = stats.paired_mean(x)
    return t.estimate, t.low, t.high, t.p_value, n, sd, False


def anytime_test(x, level: float = 0.95, cap: int | None = None) -> tuple[float, float, float, float]:
    """Mean, anytime-valid interval (the betting confidence sequence that ``--until-decided``
    stops on, tuned to the tournament's ``cap``) and its anytime-valid p-value."""
    t = stats.anytime_interval(x, 1 - level, cap)
    return t.estimate, t.low, t.high, t.p_value


def unit_rates(cfg: Config) -> tuple[list[str], np.ndarray]:
    names, wd, gd = analysis.unit_deal_rates(cfg)
    return names, wd / gd[:, None]


def unit_contrasts(names: list[str], rates: np.ndarray) -> list[tuple[str, str, str, str, np.ndarray]]:
    """(subject, claim, negative claim, what it measures, per-deal values) of each seat's
    advantage: with two units the first minus the second; otherwise each unit minus the average
    unit (the seats' advantages then add up to 0)."""
    if len(names) == 2:
        return [(names[0], f"{names[0]} wins more often than {names[1]}",
                 f"{names[1]} wins more often than {names[0]}", f"{names[0]}'s edge over {names[1]}",
                 rates[:, 0] - rates[:, 1])]
    mean = rates.mean(axis=1)
    return [(u, f"{u} wins more often than the average seat", f"{u} wins less often than the average seat",
             f"{u}'s win rate against the average seat", rates[:, i] - mean) for i, u in enumerate(names)]


def starts_vary(cfg: Config) -> bool:
    su = analysis.start_unit(cfg)
    return len(np.unique(su)) > 1


def draws_per_deal(cfg: Config) -> np.ndarray:
    return analysis.per_deal_sum(cfg, analysis.draws(cfg)) / analysis.tables_per_deal(cfg)


def leader_wins_per_deal(cfg: Config) -> tuple[np.ndarray, np.ndarray] | None:
    """Per deal: share of games whose leader at two thirds won, and whether any game had one."""
    led = analysis.leader_won(cfg)
    if led is None:
        return None
    won, valid = led
    has = analysis.per_deal_sum(cfg, valid.astype(float))
    return analysis.per_deal_sum(cfg, won) / np.maximum(has, 1), has > 0


def length_per_deal(cfg: Config) -> np.ndarray:
    return analysis.per_deal_sum(cfg, cfg.decisions) / analysis.tables_per_deal(cfg)


def margin_per_deal(cfg: Config) -> np.ndarray:
    """The winning margin (first minus second competitor, in the game's favour) per deal."""
    return analysis.per_deal_sum(cfg, analysis.winning_margins(cfg)) / analysis.tables_per_deal(cfg)


def mean_score_per_deal(cfg: Config) -> np.ndarray:
    comp = analysis.competitor_columns(cfg)
    return analysis.per_deal_sum(cfg, cfg.score[:, comp].mean(axis=1)) / analysis.tables_per_deal(cfg)


# ----------------------------------------------------------------------------- questions
def _q(section, players, level, subject, measure, context, claim, negative, unit, values,
       anytime=False, **kw) -> Question:
    est, low, high, p, n, sd, unchanged = _test(values, anytime)
    return Question(section, players, level, subject, measure, context, claim, negative, unit, est, low,
                    high, p, n, sd, anytime, unchanged, **kw)


def seat_questions(cfg: Config, context: str, level: str) -> list[Question]:
    names, rates = unit_rates(cfg)
    out = [_q("seats", cfg.players, level, subject, "win rate", context, claim, negative, "pp", x)
           for subject, claim, negative, _, x in unit_contrasts(names, rates)]
    if starts_vary(cfg):
        x = analysis._first_excess_per_deal(cfg)
        out.append(_q("seats", cfg.players, level, "first player", "first player", context,
                      "the first player wins more often than the average seat",
                      "the first player wins less often than the average seat", "pp", x))
    return out


def rule_questions(base: Config, variant: Config, context: str, level: str, option: str) -> list[Question]:
    """The option's effects, variant minus baseline, on the deals both played."""
    ia, ib = analysis.common_deals(base, variant)
    out = []
    names, ra = unit_rates(base)
    _, rb = unit_rates(variant)
    ca = unit_contrasts(names, ra[ia])
    cb = unit_contrasts(names, rb[ib])
    for (subject, _, _, what, xa), (_, _, _, _, xb) in zip(ca, cb):
        out.append(_q("rules", base.players, level, f"{option}: {subject}", "win rate", context,
                      f"{option} raises {what}", f"{option} lowers {what}", "pp", xb - xa, option=option))
    if starts_vary(base) or starts_vary(variant):
        fa = analysis._first_excess_per_deal(base)[ia]
        fb = analysis._first_excess_per_deal(variant)[ib]
        out.append(_q("rules", base.players, level, f"{option}: first player", "first player", context,
                      f"{option} raises the first player's advantage", f"{option} lowers the first player's advantage",
                      "pp", fb - fa, option=option))
    da, db = draws_per_deal(base)[ia], draws_per_deal(variant)[ib]
    out.append(_q("rules", base.players, level, f"{option}: draws", "draw rate", context,
                  f"{option} makes shared first places more common", f"{option} makes shared first places rarer",
                  "pp", db - da, option=option))
    la, lb = leader_wins_per_deal(base), leader_wins_per_deal(variant)
    if la is not None and lb is not None:
        both = la[1][ia] & lb[1][ib]
        out.append(_q("rules", base.players, level, f"{option}: decisiveness", "decisiveness", context,
                      f"{option} makes the leader at two thirds win more often",
                      f"{option} makes the leader at two thirds win less often", "pp",
                      lb[0][ib][both] - la[0][ia][both], option=option))
    ga, gb = length_per_deal(base)[ia], length_per_deal(variant)[ib]
    out.append(_q("rules", base.players, level, f"{option}: length", "length", context,
                  f"{option} makes games longer", f"{option} makes games shorter", "decisions", gb - ga,
                  option=option, baseline=float(ga.mean()) if len(ga) else math.nan))
    return out


def strategy_questions(cfg: Config, context: str, anytime_pairs=frozenset()) -> list[Question]:
    """Every pair of player strategies of the landscape; a pair in ``anytime_pairs`` (a frozenset
    of its two names) was played by a sequential tournament and gets the anytime-valid test."""
    ids = analysis.player_strategy_ids(cfg)
    counts = analysis.strategy_counts(cfg)
    out = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            per_deal, _, games = analysis.pair_differences(cfg, a, b, counts)
            if games == 0:
                continue
            na, nb = cfg.names[a], cfg.names[b]
            anytime = frozenset((na, nb)) in anytime_pairs
            out.append(_q("strategies", cfg.players, None, f"{na} v {nb}", "strength", context,
                          f"{na} beats {nb}", f"{nb} beats {na}", "pp", per_deal, anytime=anytime,
                          pair=(na, nb)))
    return out


# ----------------------------------------------------------------------------- the family
def settle(questions: list[Question], alpha: float = ALPHA) -> list[Question]:
    """Holm over every question with a p-value; then each question's outcome."""
    tested = [q for q in questions if not q.unchanged and math.isfinite(q.p_value)]
    adjusted = stats.holm([q.p_value for q in tested])
    for q, p in zip(tested, adjusted):
        q.p_holm = float(p)
    m = max(1, len(tested))
    z = NormalDist().inv_cdf(1 - alpha / (2 * m))
    for q in questions:
        if q.unchanged:
            q.outcome = "unchanged"
        elif math.isfinite(q.p_holm) and q.p_holm < alpha:
            q.outcome = "finding"
        elif math.isfinite(q.low) and -q.margin() < q.low and q.high < q.margin():
            q.outcome = "negligible"
        else:
            q.outcome = "not settled"
            if q.estimate and math.isfinite(q.sd) and q.sd > 0:
                if q.anytime:
                    need = _anytime_deals(q.sd, abs(q.estimate), alpha / m)
                else:
                    need = (z * q.sd / abs(q.estimate)) ** 2
                q.more_deals = int(max(1, math.ceil(need - q.deals)))
    return questions


def _anytime_deals(sd: float, effect: float, alpha: float) -> float:
    """Deals at which the confidence sequence at ``alpha`` is narrower than ``effect``."""
    n = 2.0
    while float(stats.cs_radius(n, sd, alpha)) >= effect and n < 1e12:
        n *= 2
    lo, hi = n / 2, n
    while hi - lo > 1:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if float(stats.cs_radius(mid, sd, alpha)) >= effect else (lo, mid)
    return hi


def ordered(questions: list[Question], outcome: str) -> list[Question]:
    """The questions of one outcome: by section, rates before lengths, largest first."""
    chosen = [q for q in questions if q.outcome == outcome]
    return sorted(chosen, key=lambda q: (SECTIONS.index(q.section), q.unit != "pp", -abs(q.estimate)))


@dataclass
class Family:
    questions: list[Question] = field(default_factory=list)

    def findings(self) -> list[Question]:
        return ordered(self.questions, "finding")

    def not_settled(self) -> list[Question]:
        return ordered(self.questions, "not settled")

    def negligible(self) -> list[Question]:
        return ordered(self.questions, "negligible")

    def unchanged(self) -> list[Question]:
        return [q for q in self.questions if q.outcome == "unchanged"]

    def tested(self) -> int:
        return sum(1 for q in self.questions if math.isfinite(q.p_holm))
