"""A balance study's questions, declared before any game is played and tested family by family:
what a designer can act on (unfair by Y pp, fair within +-X pp, significant but negligible) and
what the study could not settle (with the deals that would settle it at 80% power).

Every *question* is a mean of independent per-deal values (a deal is one seed and game index,
played at every level and under every rule option, so comparisons on the same deal are paired):

- **seats** (per player count and level of play, everyone playing the same strategy): each
  seat's win rate minus the average seat's (teams, and two-seat tables: the first unit minus
  the second), and the first player's win minus the average seat's (when the first player
  varies; otherwise it is the seat that always starts);
- **rules** (per player count, level and rule option value, against the default rules on the
  same deals): the change in each seat's advantage (as above: option minus default, signed),
  in the first player's advantage, in the draw rate, in how often the leader at two thirds wins
  (decisiveness, where the game records it) and in game length;
- **strategies** (per player count, the strategy landscape): for each pair of strategies, the
  paired win-rate difference over the deals where they met.

The design (:data:`FAMILIES`, fixed in this code, so declared before any game is played) puts
every question in one family, in this order, and runs one Holm adjustment per family (each
family's error rate is 5%):

1. **primary**: what a designer asks first: seat, team and first-player balance per player
   count at the heuristic, apprentice and search levels, and each rule option's effect on
   balance (the seats' advantages and the first player's) at the heuristic level;
2. **landscape**: the strategy pairs (a pair with ``random`` is a line of the landscape, never
   tested: "X beats random" is no finding);
3. **measures**: balance under random play, and the rule options' other effects at the
   heuristic level (draws, decisiveness, length);
4. **search rules**: the rule options at the search level (the quick budget does not play them:
   too few deals at that budget to settle anything);
5. **agreement**: the strong level's check (issue 42): per player count, each seat question's
   value under apprentice play minus under search play, on the deals both played (paired). A
   finding here is a *disagreement*: the apprentice does not play the game the search plays
   there, and the study's verdict then rests on the search (:func:`strong_level`); *equivalent*
   is agreement within the margin.

Not tested at all: a rule option that changed no value of a measure on any deal
(**unchanged**), and a *deterministic consequence*, a length change that is the same on every
deal (a 4-deal match is exactly 144 decisions longer): stated as a **fact**.

Each tested question is, with its interval at the family's level (Bonferroni: two-sided at
alpha / m, one-sided at alpha / m for equivalence, m the family's tested questions):

- a **finding** when its Holm-adjusted p is below 0.05 and it is not negligible: "unfair by Y pp";
- **negligible** when it is significant but its family-level interval lies inside
  +-:data:`NEGLIGIBLE` (1 pp; game length: 1% of the baseline);
- **equivalent** when it is not significant and its family-level interval lies inside
  +-:meth:`Question.margin` (2 pp for rates, 1% of the baseline for length; two one-sided tests,
  Lakens 2018): "fair within +-X pp", X the interval's larger end;
- **not settled** otherwise, with about how many more deals at its level would settle it either
  way (shown an effect, or shown within the margin) at 80% power for every effect within one
  standard error of the estimate (:func:`intervals.deals_to_settle`), rounded up to two significant
  figures; beyond :func:`settle_cap` "more than X: this budget cannot settle it".

A study with an **adaptive stage** (:mod:`tourney_sim.simulate.stats.adaptive`) reads each primary
search-level question twice: its first pass (the fixed-sample interval on the first pass's search
deals, at a share :data:`FIRST_PASS_SHARE` of the question's level) and its whole stream of search
deals (a betting confidence sequence over the first pass and the adaptive stage's new deals, with
the heuristic level's result of each new deal as a control variate, at the rest of the level):
:class:`TwoStage`. Its p-value is the smaller of the two readings' p-values, each divided by its
share, and its interval at any level the intersection of the two readings' (a union bound: valid
whatever the adaptive stage decided from the first pass).

The synthetic tests (``tests/test_study.py``) plant seat advantages, rule options that shift
balance and dominant strategies, and check that exactly those are found and nulls called fair.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from statistics import NormalDist

import numpy as np

from . import analysis, intervals
from tourney_sim.strategies import RANDOM

from .load import Config
from .measures import study_measures, unit_rates

ALPHA = 0.05
POWER = 0.8  # "not settled": the deals that would settle it with this chance
#: "not settled": beyond this many more deals no number is given ("more than X: this budget cannot
#: settle it"): 20 times what the thorough budget plays at the heuristic level (100,000 deals), and
#: 10 times its search deals (4,000 and up to 16,000 adaptive) at the search level, where a search
#: plays a few games per second
SETTLE_CAP = {"search": 200_000}
SETTLE_CAP_OTHERWISE = 2_000_000
#: the levels of play a study plays, weakest first, and each in words: everyone ``random``, the
#: game's strongest heuristic, its apprentice (the policy learned from the search, at heuristic
#: volume) and the search player itself (the apprentice's check)
LEVELS = ("random", "heuristic", "apprentice", "search")
LEVEL_WORDS = {"random": "random play", "heuristic": "heuristic play", "apprentice": "apprentice play",
               "search": "search play"}
#: the levels whose seat questions are primary (what a designer asks first)
SKILLED = ("heuristic", "apprentice", "search")
SETTLE_AT = {level: f"at the {level} level" for level in LEVELS}
FAIR_PP = 0.02  # rates: shown within +-2 pp is "fair" (equivalent)
NEGLIGIBLE_PP = 0.01  # rates: a significant effect inside +-1 pp is negligible
LENGTH_MARGIN = 0.01  # game length: 1% of the baseline's, for both
#: a question read twice (:class:`TwoStage`): the share of its level its first pass is tested at
FIRST_PASS_SHARE = 0.5
SECTIONS = ("seats", "rules", "strategies", "agreement")
#: the families, in the order a designer reads them (one Holm per family)
FAMILIES = {
    "primary": "seat, team and first-player balance at the heuristic and search levels, and each rule "
               "option's effect on balance at the heuristic level",
    "landscape": "the strategy pairs (a pair with random is a line of the landscape, not tested)",
    "measures": "balance under random play, and the rule options' other effects at the heuristic level "
                "(draws, decisiveness, length)",
    "search rules": "the rule options' effects at the search level",
    "agreement": "the apprentice against the search on the same deals: each seat question's value under "
                 "apprentice play minus under search play (a finding is a disagreement)",
}


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
    outcome: str = ""  # finding | negligible | equivalent | not settled | unchanged | fact | landscape
    more_deals: int | None = None  # not settled: more deals that settle it either way at 80% power (2 s.f.)
    more_than: int | None = None  # not settled, and more than this many more deals (the cap) would be needed
    option: str | None = None  # rules: "key=value"
    pair: tuple | None = None  # strategies: (a, b)
    family: str = ""  # a key of FAMILIES ("" for a question that is never tested)
    adj_low: float = math.nan  # the interval at the family's level (Bonferroni, two-sided)
    adj_high: float = math.nan
    bound: float = math.nan  # equivalent: the family-level interval lies within +-bound
    what: str = ""  # rules: what the option changes ("team 0's edge over team 1")
    before: float = math.nan  # rules: the measure under the default rules on the same deals
    after: float = math.nan  # ... and under the option
    cap: int | None = None  # a sequential question: the deals its tournament could play
    tune_alpha: float | None = None  # ... and the level its bets were tuned to (None: the level read)
    cv_reduction: float = math.nan  # adaptive stage: the share of the new deals' variance the control variate removed
    cv_beta: float = math.nan  # ... its coefficient (fixed from the first pass)
    first_pass_deals: int | None = None  # a question read twice: the first pass's deals (``deals``: all)
    values: np.ndarray | None = field(default=None, repr=False, compare=False)  # the per-deal values
    two_stage: "TwoStage | None" = field(default=None, repr=False, compare=False)  # read twice (the adaptive stage)

    @property
    def key(self) -> tuple:
        return (self.section, self.players, self.level, self.subject, self.measure)

    @property
    def balance(self) -> bool:
        """A question about balance: a seat's, team's or the first player's advantage."""
        return self.measure in ("win rate", "first player")

    def margin(self) -> float:
        """The equivalence margin: within it, a difference is too small to matter."""
        if self.unit == "pp":
            return FAIR_PP
        return LENGTH_MARGIN * abs(self.baseline) if math.isfinite(self.baseline) else 0.0

    def negligible_margin(self) -> float:
        return NEGLIGIBLE_PP if self.unit == "pp" else self.margin()

    def number(self, x: float) -> str:
        if self.unit == "pp":
            return f"{100 * x:+.1f} pp"
        return f"{x:+.1f}"

    def interval(self) -> str:
        return self._interval(self.low, self.high)

    def _interval(self, low: float, high: float) -> str:
        if self.unit == "pp":  # rates: an interval cannot leave [-100, +100] pp
            low, high, scale = max(low, -1.0), min(high, 1.0), 100
        else:
            scale = 1
        return f"[{_apart(scale * low, scale * high)}]"

    def cell(self) -> str:
        """The estimate and 95% interval as a table shows them: signed, the study's one convention
        (a rule option: option minus default; a pair: first minus second)."""
        unit = "" if self.unit == "pp" else " dec."
        return f"{self.number(self.estimate)}{unit} {self.interval()}"

    def phrase(self) -> str:
        """The claim with its estimate and interval. A rule option's change keeps its sign (option
        minus default) and says where the measure went: "team 0's edge over team 1: -42.3 -> -0.7
        pp, +41.6 pp, 95% [+40.1, +43.1], towards even"; other questions are said the way round
        that makes the number positive: "seat 2 wins more often than the average seat by 6.2 pp"."""
        kind = "sequential 95%" if self.two_stage is not None else "anytime-valid 95%" if self.anytime else "95%"
        if self.section == "rules":
            return self._rule_phrase(kind)
        if self.estimate >= 0:
            claim, est, low, high = self.claim, self.estimate, self.low, self.high
        else:
            claim, est, low, high = self.claim_negative, -self.estimate, -self.high, -self.low
        return f"{claim} by {self.number(est).lstrip('+')}, {kind} {self._interval(low, high)}"

    def _rule_phrase(self, kind: str) -> str:
        change = f"{self.number(self.estimate)}{'' if self.unit == 'pp' else ' decisions'}"
        extra = ""
        if self.unit == "decisions" and math.isfinite(self.baseline) and self.baseline:
            extra = f" ({100 * self.estimate / self.baseline:+.1f}% of {self.baseline:.0f})"
        levels = ""
        if math.isfinite(self.before) and math.isfinite(self.after):
            levels = f" {level_text(self, self.before)} → {level_text(self, self.after)},"
            if self.balance and self.outcome == "finding":
                closer = abs(self.after) < abs(self.before)
                extra += ", towards even (fairer)" if closer else ", away from even (less fair)"
        return f"{self.option}: {self.what}{levels} change {change}{extra}, {kind} {self.interval()}"

    def verdict(self) -> str:
        """What the outcome means, in a designer's words."""
        x = self.bound if self.unit != "pp" else 100 * self.bound
        unit = " pp" if self.unit == "pp" else " decisions"
        if self.outcome == "equivalent":
            return (f"fair within ±{x:.1f}{unit}" if self.balance and self.section == "seats"
                    else f"no change beyond ±{x:.1f}{unit}" if self.section == "rules"
                    else f"within ±{x:.1f}{unit} of each other")
        if self.outcome == "negligible":
            return f"significant but negligible (inside ±{_margin_text(self, self.negligible_margin())})"
        if self.outcome == "not settled" and self.two_stage is not None:
            return f"not settled within the adaptive stage's cap of {self.cap or self.deals:,} search deals"
        if self.outcome == "not settled" and self.anytime:
            return f"not settled within its sequential tournament's cap of {self.cap or self.deals:,} deals"
        if self.outcome == "not settled":
            return f"not settled: {self.settle_words()}"
        if self.outcome == "finding" and self.balance and self.section == "seats":
            return f"unfair by {abs(100 * self.estimate):.1f} pp"
        if self.outcome == "finding" and self.balance and self.section == "rules":
            closer = abs(self.after) < abs(self.before)
            return "fairer (towards even)" if closer else "less fair (away from even)"
        if self.outcome == "finding" and self.section == "agreement":
            return f"disagree by {abs(100 * self.estimate):.1f} pp"
        if self.outcome == "finding":
            return "stronger" if self.section == "strategies" else "an effect"
        return self.outcome

    def settle_words(self) -> str:
        """What would settle a question not settled, at its level: "at the search level, about
        12,000 more deals would settle it either way (80% power)", or beyond :func:`settle_cap`
        "at the search level, more than 200,000 more deals: this budget cannot settle it"."""
        at = f"{SETTLE_AT[self.level]}, " if self.level in SETTLE_AT else ""
        if self.more_deals:
            return f"{at}about {self.more_deals:,} more deals would settle it either way ({POWER:.0%} power)"
        if self.more_than:
            return f"{at}more than {self.more_than:,} more deals: this budget cannot settle it"
        return "more deals needed"

    def sentence(self) -> str:
        if self.outcome == "fact":
            return f"{self.context}: {self.option}: every game is exactly {abs(self.estimate):.0f} decisions " \
                   f"{'longer' if self.estimate > 0 else 'shorter'} (on every one of {self.deals:,} deals: a " \
                   f"consequence of the rules, not tested)"
        if self.outcome == "unchanged":
            return f"{self.context}: {self.option or self.subject}: {self.measure} the same on every one of " \
                   f"{self.deals:,} deals"
        p = f", adjusted p {_p(self.p_holm)}" if math.isfinite(self.p_holm) else ""
        return f"{self.context}: {self.phrase()}{p}"

    def to_dict(self) -> dict:
        d = asdict(replace(self, values=None, two_stage=None))
        del d["values"], d["two_stage"]
        d["sentence"] = self.sentence()
        d["verdict"] = self.verdict()
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()}


def _apart(low: float, high: float, digits: int = 1) -> str:
    """An interval's ends with as many decimals as tell them apart (one, up to three): a precise
    effect reads "[+84.38, +84.43]", never as a zero-width "[+84.4, +84.4]" (issue 39); ends
    that are equal are a constant and keep one decimal."""
    while digits < 3 and low != high and f"{low:+.{digits}f}" == f"{high:+.{digits}f}":
        digits += 1
    return f"{low:+.{digits}f}, {high:+.{digits}f}"


def level_text(q: Question, x: float) -> str:
    """A rule question's measure under one rule set: an advantage in signed pp, a rate in %,
    a length in decisions."""
    if q.balance:
        return f"{100 * x:+.1f} pp"
    if q.unit == "pp":
        return f"{100 * x:.1f}%"
    return f"{x:.1f} decisions"


def _margin_text(q: Question, m: float) -> str:
    return f"{100 * m:g} pp" if q.unit == "pp" else f"{m:.1f} decisions"


def _p(p: float) -> str:
    if not math.isfinite(p):
        return "n/a"
    if p < 0.001:
        return "< 0.001"
    if p < 0.05 <= round(p, 3):  # 0.0497 is a finding: do not round it up to the threshold
        return f"= {p:.4f}"
    return f"= {p:.3f}"


# ----------------------------------------------------------------------------- per-deal values
def _test(x, anytime: bool = False, values_in: tuple | None = (-1.0, 1.0), cap: int | None = None,
          tune_alpha: float | None = None):
    """(estimate, low, high, p, n, sd, unchanged) of the mean of per-deal values ``x``."""
    x = np.asarray(x, float)
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan, math.nan, 0, math.nan, False
    if np.all(x == 0):
        return 0.0, 0.0, 0.0, math.nan, n, 0.0, True
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    if anytime:
        est, low, high, p = anytime_test(x, cap=cap, tune_alpha=tune_alpha)
        return est, low, high, p, n, sd, False
    t = intervals.paired_mean(x, **_bounds(values_in))
    return t.estimate, t.low, t.high, t.p_value, n, sd, False


# -------------------------------------------------- what this module asks of simulate/stats/intervals.py
# The family-level interval and the deals that would settle a question are the only statistics
# the outcomes need beyond a question's own test; each is one function here, so a better method
# in simulate/stats/intervals.py is wired in by changing its body alone.
def value_range(section: str, measure: str, unit: str) -> tuple[float, float] | None:
    """Where a question's per-deal values lie: a seat's advantage, a pair's difference, a change
    of a rate in [-1, 1]; a rule option's change of an advantage (itself in [-1, 1]) in [-2, 2];
    a length is unbounded (None)."""
    if unit != "pp":
        return None
    return ((-2.0, 2.0) if section in ("rules", "agreement") and measure in ("win rate", "first player")
            else (-1.0, 1.0))


def _bounds(values_in: tuple[float, float] | None) -> dict:
    """The keywords that tell intervals.paired_mean where a question's per-deal values lie (a
    bounded question gets the score interval that never has zero width)."""
    return {} if values_in is None else {"bounds": values_in}


def family_interval(q: Question, alpha: float) -> tuple[float, float]:
    """The question's two-sided (1 - alpha) interval: the confidence sequence's for a sequential
    question, else the fixed-sample interval of its per-deal values."""
    if q.two_stage is not None:
        return q.two_stage.interval(alpha)
    if q.deals < 2 or q.values is None:
        return math.nan, math.nan
    if q.anytime:
        return anytime_test(q.values, 1 - alpha, q.cap, q.tune_alpha)[1:3]
    t = intervals.paired_mean(q.values, 1 - alpha, **_bounds(value_range(q.section, q.measure, q.unit)))
    return t.low, t.high


def equivalence_bound(q: Question, alpha: float) -> float:
    """The smallest margin within which two one-sided tests at ``alpha`` each show the question's
    effect lies (Lakens 2018): the larger end of its (1 - 2 alpha) interval."""
    low, high = family_interval(q, 2 * alpha)
    return max(abs(low), abs(high))


def settle_cap(level: str | None) -> int:
    """The most more deals a "not settled" question is given a number for, at its level."""
    return SETTLE_CAP.get(level, SETTLE_CAP_OTHERWISE)


def most_to_settle(qs: list[Question]) -> Question | None:
    """Of questions not settled, the one that needs the most more deals (one beyond the cap first)."""
    open_qs = [q for q in qs if q.outcome == "not settled" and (q.more_deals or q.more_than)]
    return max(open_qs, key=lambda q: (q.more_than or 0, q.more_deals or 0), default=None)


def more_deals_to_settle(q: Question, alpha: float, power: float = POWER) -> float:
    """Further deals at which the question is settled with chance ``power``, either way: shown
    different from 0 (two-sided at ``alpha``) or shown within +-margin (two one-sided tests at
    ``alpha``), planned for every effect within 1.5 standard errors of the estimate
    (:func:`intervals.deals_to_settle`, rounded up to two significant figures) with the spread of
    :func:`settling_sd`."""
    return intervals.deals_to_settle(q.estimate, settling_sd(q, alpha), q.deals, alpha, q.margin(), power).either


def settling_sd(q: Question, alpha: float) -> float:
    """The spread per deal a question's deal count is planned with: the larger of the sample's
    SD and the one its own interval at ``alpha`` implies. A bounded question whose deals are
    nearly all 0 has a tiny sample SD, but its score interval (honest at small counts) is far
    wider than that SD says; the count must be one at which that interval would settle it."""
    low, high = family_interval(q, alpha)
    if not (math.isfinite(low) and math.isfinite(high) and q.deals > 1):
        return q.sd
    implied = (high - low) / 2 * math.sqrt(q.deals) / NormalDist().inv_cdf(1 - alpha / 2)
    return max(q.sd, implied) if math.isfinite(q.sd) else implied


def anytime_test(x, level: float = 0.95, cap: int | None = None,
                 tune_alpha: float | None = None) -> tuple[float, float, float, float]:
    """Mean, anytime-valid interval (the betting confidence sequence that ``--until-decided``
    stops on, its bets tuned to the tournament's ``cap`` and to ``tune_alpha``, the level the
    tournament stopped at: default ``1 - level``) and its anytime-valid p-value (which depends
    on the bets, so a report that reads a tournament's pair uses the bets it stopped with)."""
    t = intervals.anytime_interval(x, 1 - level, cap, tune_alpha=tune_alpha)
    return t.estimate, t.low, t.high, t.p_value


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


# ----------------------------------------------------------------------------- questions
def _q(section, players, level, subject, measure, context, claim, negative, unit, values,
       anytime=False, **kw) -> Question:
    est, low, high, p, n, sd, unchanged = _test(values, anytime, value_range(section, measure, unit), kw.get("cap"),
                                                kw.get("tune_alpha"))
    return Question(section, players, level, subject, measure, context, claim, negative, unit, est, low,
                    high, p, n, sd, anytime, unchanged, values=np.asarray(values, float), **kw)


def seat_values(cfg: Config) -> list[tuple[str, str, str, str, np.ndarray]]:
    """(subject, measure, claim, negative claim, per-deal values) of every seat question of one
    level of play: each seat's (team's) advantage, and the first player's when it varies."""
    names, rates = unit_rates(cfg)
    out = [(subject, "win rate", claim, negative, x) for subject, claim, negative, _, x in unit_contrasts(names, rates)]
    if starts_vary(cfg):
        out.append(("first player", "first player", "the first player wins more often than the average seat",
                    "the first player wins less often than the average seat", analysis._first_excess_per_deal(cfg)))
    return out


#: the apprentice plays its heuristic's games when the results are the same on at least this
#: share of the deals both levels played (Colleagues' 4- and 5-player weights leave their guide at
#: a few decisions in ten thousand: a handful of deals in thousands end otherwise)
AS_HEURISTIC = 0.99


def same_results(a: Config, b: Config) -> tuple[int, int]:
    """(the deals both ``a`` and ``b`` played, those of them on which every seat question's value
    (:func:`seat_values`) is the same at both): how often two levels of play end a deal alike."""
    ia, ib = analysis.common_deals(a, b)
    others = {subject: x for subject, *_, x in seat_values(b)}
    same = np.ones(len(ia), bool)
    for subject, *_, x in seat_values(a):
        if subject not in others:
            return len(ia), 0
        same &= x[ia] == others[subject][ib]
    return len(ia), int(same.sum())


def heuristics_games(same: tuple[int, int] | None) -> bool:
    """Whether :func:`same_results`' (deals both played, deals with the same result) of the
    apprentice against the heuristic say it played the heuristic's games (:data:`AS_HEURISTIC`)."""
    return same is not None and same[0] > 0 and same[1] >= AS_HEURISTIC * same[0]


def seat_questions(cfg: Config, context: str, level: str) -> list[Question]:
    return [_q("seats", cfg.players, level, subject, measure, context, claim, negative, "pp", x)
            for subject, measure, claim, negative, x in seat_values(cfg)]


def agreement_questions(apprentice: Config, search: Config, context: str) -> list[Question]:
    """The strong level's check at one player count: each seat question (:func:`seat_values`)
    under apprentice play minus under search play, on the deals both played (paired: the same
    deal, everyone the apprentice against everyone the search). Same game: every question
    equivalent or negligible; a finding is a disagreement."""
    ia, ib = analysis.common_deals(apprentice, search)
    out = []
    searched = {subject: x for subject, *_, x in seat_values(search)}
    for subject, measure, claim, negative, xa in seat_values(apprentice):
        if subject not in searched:
            continue
        xb = searched[subject]
        # its level is the search's: its deals are what limits it (what "not settled" asks more of)
        out.append(_q("agreement", apprentice.players, "search", subject, measure, context,
                      f"{subject}: higher under apprentice play than under search play",
                      f"{subject}: lower under apprentice play than under search play", "pp", xa[ia] - xb[ib],
                      before=float(xb[ib].mean()) if len(ib) else math.nan,
                      after=float(xa[ia].mean()) if len(ia) else math.nan))
    return out


def strong_level(qs: list["Question"], players: int, levels) -> str | None:
    """The level a player count's strong-play verdict rests on: the apprentice (at volume) unless
    its check against the search (the agreement family, already settled) found a disagreement
    there, or was not played; then the search. None when neither level was played."""
    if "apprentice" in levels and "search" in levels:
        checks = [q for q in qs if q.section == "agreement" and q.players == players]
        return "search" if not checks or any(q.outcome == "finding" for q in checks) else "apprentice"
    return next((lv for lv in ("apprentice", "search") if lv in levels), None)


def rule_questions(base: Config, variant: Config, context: str, level: str, option: str) -> list[Question]:
    """The option's effects, variant minus baseline, on the deals both played (each question
    also holds the measure's level under both rules on those deals: ``before``, ``after``)."""
    ia, ib = analysis.common_deals(base, variant)
    out = []

    def add(subject, measure, what, unit, xa, xb, **kw):
        out.append(_q("rules", base.players, level, f"{option}: {subject}", measure, context,
                      f"{option} raises {what}", f"{option} lowers {what}", unit, xb - xa, option=option,
                      what=what, before=float(xa.mean()) if len(xa) else math.nan,
                      after=float(xb.mean()) if len(xb) else math.nan, **kw))

    names, ra = unit_rates(base)
    _, rb = unit_rates(variant)
    for (subject, _, _, what, xa), (_, _, _, _, xb) in zip(unit_contrasts(names, ra[ia]),
                                                           unit_contrasts(names, rb[ib])):
        add(subject, "win rate", what, "pp", xa, xb)
    if starts_vary(base) or starts_vary(variant):
        add("first player", "first player", "the first player's advantage over the average seat", "pp",
            analysis._first_excess_per_deal(base)[ia], analysis._first_excess_per_deal(variant)[ib])
    for m in study_measures():  # draws, decisiveness, length: each measure's own per-deal values and words
        xa, xb = m.per_deal(base), m.per_deal(variant)
        if xa is None or xb is None:  # not recorded by this game
            continue
        if isinstance(xa, tuple):  # values only some deals have: on the deals both have
            both = xa[1][ia] & xb[1][ib]
            xa, xb = xa[0][ia][both], xb[0][ib][both]
        else:
            xa, xb = xa[ia], xb[ib]
        kw = {"baseline": float(xa.mean()) if len(xa) else math.nan} if m.change_unit == "decisions" else {}
        add(m.name, m.question, m.wording, m.change_unit, xa, xb, **kw)
    return out


def strategy_questions(cfg: Config, context: str, anytime_pairs=None) -> list[Question]:
    """Every pair of player strategies of the landscape; a pair in ``anytime_pairs`` (a dict from
    the frozenset of its two names to the bets its sequential tournament stopped with: ``{"cap":
    deals, "alpha": the level they were tuned to}``, as its manifest records them) gets the
    anytime-valid test with those bets, so the report's p-value is the one its tournament
    stopped on."""
    anytime_pairs = anytime_pairs or {}
    ids = analysis.player_strategy_ids(cfg)
    counts = analysis.strategy_counts(cfg)
    out = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            per_deal, _, games = analysis.pair_differences(cfg, a, b, counts)
            if games == 0:
                continue
            na, nb = cfg.names[a], cfg.names[b]
            bets = anytime_pairs.get(frozenset((na, nb)))
            out.append(_q("strategies", cfg.players, None, f"{na} v {nb}", "strength", context,
                          f"{na} beats {nb}", f"{nb} beats {na}", "pp", per_deal, anytime=bets is not None,
                          pair=(na, nb), cap=(bets or {}).get("cap"), tune_alpha=(bets or {}).get("alpha")))
    return out


class TwoStage:
    """A question read twice: ``first``, the first pass's per-deal values (in [-1, 1]), tested at
    the share :data:`FIRST_PASS_SHARE` of each level; ``stream``, every deal's value in the order
    played (the first pass's, then the adaptive stage's, control-variate adjusted: values in
    ``bounds``), read by the betting confidence sequence tuned to ``cap`` deals, its bets to
    ``tune_alpha``, at the rest of the level. A union bound makes the pair valid: the chance that
    either reading is wrong is at most the sum of their levels."""

    def __init__(self, first, stream, cap: int, bounds: tuple, tune_alpha: float, share: float = FIRST_PASS_SHARE):
        self.first, self.stream = np.asarray(first, float), np.asarray(stream, float)
        self.cap, self.bounds, self.tune_alpha, self.share = cap, bounds, tune_alpha, share
        self._cache: dict = {}

    def _fixed(self, level: float):
        return intervals.mean_interval(self.first, level, intervals.DIFFERENCE)

    def _sequential(self, alpha: float):
        key = ("cs", alpha)
        if key not in self._cache:
            self._cache[key] = intervals.anytime_interval(self.stream, alpha, self.cap, self.bounds, self.tune_alpha)
        return self._cache[key]

    def p_value(self) -> float:
        """min(first pass's p / share, the sequence's p / (1 - share)), at most 1: a valid p-value."""
        p1 = self._fixed(0.95).p_value
        p2 = self._sequential(0.05).p_value  # its p-value does not depend on the level read
        p1 = p1 if math.isfinite(p1) else 1.0
        p2 = p2 if math.isfinite(p2) else 1.0
        return float(min(1.0, p1 / self.share, p2 / (1 - self.share)))

    def interval(self, alpha: float) -> tuple[float, float]:
        """The intersection of the first pass's (1 - share alpha) interval and the sequence's at
        (1 - share) alpha: valid at 1 - alpha. (Empty only when one of them misses, a chance of at
        most alpha: then the sequence's.)"""
        f = self._fixed(1 - self.share * alpha)
        s = self._sequential((1 - self.share) * alpha)
        low, high = max(f.low, s.low), min(f.high, s.high)
        return (low, high) if low <= high else (s.low, s.high)


# ----------------------------------------------------------------------------- the families
def family_of(q: Question) -> str:
    """The question's family (:data:`FAMILIES`), from what it asks alone (never from its data):
    the design is fixed before any game is played. "" for a pair with random: not tested."""
    if q.section == "agreement":
        return "agreement"
    if q.section == "seats":
        return "primary" if q.level in SKILLED else "measures"
    if q.section == "rules":
        if q.level == "search":
            return "search rules"
        return "primary" if q.balance and q.level == "heuristic" else "measures"
    return "" if RANDOM in (q.pair or ()) else "landscape"


def is_fact(q: Question) -> bool:
    """A deterministic consequence of the rules: a length change the same on every deal."""
    return q.unit == "decisions" and q.section == "rules" and q.sd == 0 and q.estimate != 0 and q.deals > 1


def settle(questions: list[Question], alpha: float = ALPHA) -> list[Question]:
    """Each question's family, then one Holm adjustment per family, then each question's outcome
    (see the module's docstring)."""
    by_family: dict[str, list[Question]] = {}
    for q in questions:
        q.family = family_of(q)
        if q.unchanged:
            q.outcome = "unchanged"
        elif is_fact(q):
            q.outcome = "fact"
        elif not q.family:
            q.outcome = "landscape"
        elif math.isfinite(q.p_value):
            by_family.setdefault(q.family, []).append(q)
        else:
            q.outcome = "not settled"
    for family in by_family.values():
        m = len(family)
        for q, p in zip(family, intervals.holm([q.p_value for q in family])):
            q.p_holm = float(p)
            q.adj_low, q.adj_high = family_interval(q, alpha / m)
            q.outcome = _outcome(q, alpha, m)
    return questions


def _outcome(q: Question, alpha: float, m: int) -> str:
    if q.p_holm < alpha:
        inside = q.negligible_margin()
        return "negligible" if -inside < q.adj_low and q.adj_high < inside else "finding"
    bound = equivalence_bound(q, alpha / m)
    if bound < q.margin():
        q.bound = bound
        return "equivalent"
    more = math.inf if q.anytime else more_deals_to_settle(q, alpha / m)  # a fixed-sample count: not a sequence's
    if math.isfinite(more) and more <= settle_cap(q.level):
        q.more_deals = int(max(1, math.ceil(more)))
    elif not q.anytime:
        q.more_than = settle_cap(q.level)
    return "not settled"


READING_ORDER = ("finding", "negligible", "equivalent", "not settled", "fact", "unchanged", "landscape")


def ordered(questions: list[Question], outcome: str | None = None) -> list[Question]:
    """The questions (of one outcome): family by family in the design's order, then by section,
    rates before lengths, largest first."""
    chosen = [q for q in questions if outcome is None or q.outcome == outcome]
    order = list(FAMILIES) + [""]
    return sorted(chosen, key=lambda q: (order.index(q.family), SECTIONS.index(q.section), q.unit != "pp",
                                         -abs(q.estimate) if math.isfinite(q.estimate) else 0))


@dataclass
class Family:
    """Every question of a study, each in its family with its outcome."""

    questions: list[Question] = field(default_factory=list)

    def of(self, outcome: str, family: str | None = None) -> list[Question]:
        return [q for q in ordered(self.questions, outcome) if family is None or q.family == family]

    def findings(self) -> list[Question]:
        return self.of("finding")

    def not_settled(self) -> list[Question]:
        return self.of("not settled")

    def negligible(self) -> list[Question]:
        return self.of("negligible")

    def equivalent(self) -> list[Question]:
        return self.of("equivalent")

    def facts(self) -> list[Question]:
        return self.of("fact")

    def unchanged(self) -> list[Question]:
        return self.of("unchanged")

    def tested(self, family: str | None = None) -> int:
        return sum(1 for q in self.questions if math.isfinite(q.p_holm) and (family is None or q.family == family))
