"""The study's adaptive stage: more search-level deals for the primary questions the first pass
left open, read by a valid sequential test, with the heuristic level's result of each deal as a
control variate.

The questions are the primary family's search-level ones (seat, team and first-player balance per
player count under search play). The deals (:func:`tourney_sim.simulate.study.adaptive_design`,
fixed before any game is played): the first pass plays search deals 0 .. n0 - 1; the adaptive
stage plays the next ones, n0 .. n0 + cap - 1 at most, in batches, at a player count while any of
its questions is open; the heuristic level played every one of them (it plays many more deals),
and its deals from ``reference_start`` on are never played by a search stage: they are the
control variate's *reference*, ``reference_per_deal`` of them for each new deal.

**Each question is read twice** (:class:`~tourney_sim.simulate.stats.findings.TwoStage`):

1. the first pass: the fixed-sample score interval of its first n0 deals, at the share
   :data:`~tourney_sim.simulate.stats.findings.FIRST_PASS_SHARE` w of the question's level;
2. the whole stream: the betting confidence sequence (Waudby-Smith & Ramdas 2023) over every
   search deal in the order played, at the rest of the level (1 - w), tuned to n0 + cap deals,
   its bets to the level the stage stops at.

Its p-value is ``min(p1 / w, p2 / (1 - w))`` and its interval the intersection of the two: by a
union bound the chance that either reading is wrong is at most w alpha + (1 - w) alpha = alpha,
whatever the stage decided after the first pass (the sequence is valid at every deal at once, so
at any look the stage stops at, and the first pass's reading does not depend on what came after).

**The control variate.** On a new deal t the stream's value is ``V_t = Y_t - beta (X_t - R_t)``:
Y_t the search-level value, X_t the heuristic level's on the same deal, R_t the mean of the
heuristic level's values on the new deal's block of reference deals. beta is fixed from the first
pass alone (:func:`cv_beta`), so it is known before any new deal is played; X_t and R_t have the
same mean (every deal is dealt the same way), so E[V_t] = E[Y_t] exactly, and the V_t are
independent and bounded (in [-1 - 2B, 1 + 2B], beta clipped to [-B, B], B = :data:`BETA_BOUND`):
the sequence's guarantee holds for them unchanged. Its variance is ``Var(Y) - 2 beta Cov(X, Y) +
beta^2 Var(X) (1 + 1/k)`` (k reference deals per new deal), smallest at ``beta = Cov / (Var(X) (1 +
1/k))``: a share ``rho^2 k / (k + 1)`` of Var(Y) removed (rho the correlation of X and Y). The
first pass's deals enter the stream as they are (beta = 0 there: nothing was known before them).

**Stopping.** After each look a question is *settled* when its p-value is at most alpha / m or
two one-sided tests show it within the margin at alpha / m (m: the primary family's questions,
counted as the report counts them, and the bets tuned to (1 - w) alpha / m): exactly the levels
at which the report's Holm over the primary family settles it whatever the other questions
(Holm never needs less than Bonferroni's alpha / m), so a question the stage stops for is settled
in the report. A player count's batches stop when all its questions are settled, or at the cap
(:class:`tourney_sim.simulate.stats.studies.OpenQuestions` decides after each look, reading the
study as its report does).
"""
from __future__ import annotations

import math

import numpy as np

from . import findings
from .findings import ALPHA, FIRST_PASS_SHARE, Question, TwoStage
from .load import Config

#: the control variate's coefficient is clipped to [-BETA_BOUND, BETA_BOUND], so the stream's values
#: lie in a range fixed before any deal is played
BETA_BOUND = 1.0


def stream_bounds(per_deal: int) -> tuple[float, float]:
    """Where the stream's values lie: a seat's advantage in [-1, 1]; with a control variate
    ``Y - beta (X - R)``, |beta| <= B, in [-1 - 2B, 1 + 2B]."""
    wide = 1 + 2 * BETA_BOUND if per_deal else 1.0
    return (-wide, wide)


def cv_beta(y0, x0, per_deal: int) -> float:
    """The control variate's coefficient from the first pass's deals (search values ``y0``,
    heuristic values ``x0`` of the same deals): ``Cov / (Var(X) (1 + 1/k))``, the variance-minimising
    one with ``k = per_deal`` reference deals per new deal, clipped to +-:data:`BETA_BOUND`. 0 without
    references or spread, and when the share it would remove, ``r^2 k / (k + 1)`` (r the first pass's
    correlation), is below ``2 / n`` for n first-pass deals: about what a coefficient estimated from n
    deals adds back by its own noise (on 40 deals a useless variate added up to 14% to the variance)."""
    y0, x0 = np.asarray(y0, float), np.asarray(x0, float)
    if per_deal < 1 or len(y0) < 3 or np.var(x0) == 0 or np.var(y0) == 0:
        return 0.0
    r2 = np.corrcoef(y0, x0)[0, 1] ** 2
    if r2 * per_deal / (per_deal + 1) <= 2 / len(y0):
        return 0.0
    beta = np.cov(y0, x0)[0, 1] / np.var(x0, ddof=1) / (1 + 1 / per_deal)
    return float(np.clip(beta, -BETA_BOUND, BETA_BOUND))


def cv_stream(y, x, reference, beta: float) -> np.ndarray:
    """The control-variate values ``y - beta (x - reference)`` of new deals: unbiased for the mean
    of ``y`` whenever ``x`` and ``reference`` (means of other deals of the same level) have the same mean."""
    return np.asarray(y, float) - beta * (np.asarray(x, float) - np.asarray(reference, float))


def variance_removed(y, v) -> float:
    """The share of the variance of ``y`` the control variate removed: 1 - Var(V) / Var(Y)."""
    y, v = np.asarray(y, float), np.asarray(v, float)
    if len(y) < 3 or np.var(y) == 0:
        return math.nan
    return float(1 - np.var(v, ddof=1) / np.var(y, ddof=1))


def _by_game(cfg: Config, values: np.ndarray) -> np.ndarray:
    """Per-deal values indexed by game index (nan where the configuration has no deal)."""
    out = np.full(int(cfg.deal_game.max()) + 1, np.nan)
    out[cfg.deal_game] = values
    return out


def search_questions(design: dict, players: int, context: str, stream: Config, heuristic: Config | None,
                     size: int) -> list[Question]:
    """The primary search-level questions at one player count, each read twice
    (:class:`TwoStage`), on ``stream`` (every search deal played: the first pass and the adaptive
    stage's batches), with ``heuristic`` (the heuristic level, or None) as the control variate;
    ``size``: the primary family's questions (the stage stops at ALPHA / size)."""
    n0, k, start = design["first_pass"], design["reference_per_deal"], design["reference_start"]
    cap = n0 + design["cap"]
    games = stream.deal_game
    first, new = games < n0, games >= n0
    x_of = {subject: _by_game(heuristic, x) for subject, *_, x in findings.seat_values(heuristic)} if heuristic else {}
    out = []
    for subject, measure, claim, negative, y in findings.seat_values(stream):
        per_deal = k if subject in x_of else 0
        v, beta, removed = y.copy(), 0.0, math.nan
        if per_deal:
            hx = x_of[subject]
            beta = cv_beta(y[first], hx[games[first]], per_deal)
            j = games[new] - n0
            reference = hx[start + per_deal * j[:, None] + np.arange(per_deal)].mean(axis=1)
            v[new] = cv_stream(y[new], hx[games[new]], reference, beta)
            removed = variance_removed(y[new], v[new])
        two = TwoStage(y[first], v, cap, stream_bounds(per_deal), (1 - FIRST_PASS_SHARE) * ALPHA / size)
        unchanged = bool(np.all(y == 0))
        low, high = (0.0, 0.0) if unchanged else two.interval(0.05)
        estimate = float(np.clip(v.mean(), low, high))
        out.append(Question("seats", players, "search", subject, measure, context, claim, negative, "pp",
                            estimate, low, high, math.nan if unchanged else two.p_value(), len(v),
                            float(v.std(ddof=1)) if len(v) > 1 else math.nan, anytime=True, unchanged=unchanged,
                            cap=cap, cv_reduction=removed, cv_beta=beta, first_pass_deals=int(first.sum()),
                            values=v, two_stage=None if unchanged else two))
    return out


def deals_to_settle(q: Question, size: int) -> float:
    """More search deals that would settle an open question either way at 80% power, at the
    stage's level (ALPHA / size, its stream's share) with the confidence sequence's critical
    values, were its effect what its values so far estimate (:func:`intervals.deals_to_settle`
    with no window: the stage's futility rule stops only where even the estimate itself cannot be
    settled within the cap; the report's "not settled" counts guard against every effect within
    1.5 standard errors, and so are larger); inf if no number would."""
    from .intervals import deals_to_settle as plan
    if q.unchanged or not (q.deals > 1 and math.isfinite(q.sd)):
        return math.inf
    return float(plan(q.estimate, q.sd, q.deals, (1 - FIRST_PASS_SHARE) * ALPHA / size, q.margin(),
                      sequential=True, window=0.0).either)


def settled(q: Question, size: int) -> bool:
    """Settled at the stage's level (ALPHA / size): shown different from 0 (an effect, or a
    negligible one) or shown within the margin; the report's Holm then settles it too."""
    if q.unchanged:
        return True
    return q.p_value <= ALPHA / size or findings.equivalence_bound(q, ALPHA / size) < q.margin()

