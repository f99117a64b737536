#!/usr/bin/env python
"""The "not settled: about N more deals" figure (simulate/stats/intervals.py: deals_to_settle) measured by
simulation: is it stable, and does playing N more deals settle the question as often as it says?

A question is a paired win-rate difference per deal (+1 with chance 0.25 + d/2, -1 with 0.25 - d/2,
else 0: SD about 0.7, the true effect d), tested as a study tests it: at the per-question level of
a family of 30 (alpha 0.05/30), a difference when the mean's size reaches z[1 - alpha/2] standard
errors, equivalent when it lies within +-2 pp by two one-sided tests. For each level's deals
(250: the search level; 2,000 and 20,000: the heuristic level at the quick and standard budgets)
and each true effect, replicates whose first deals leave the question unsettled get their figure
(before: the former rule, the effect taken one standard error closer to 0; after: the current
one), play that many more deals and are tested again on all of them. The *realised power* is the
share then settled (the figure promises 80%); a figure above the cap (2,000,000) is no number
("more than 2,000,000: ...") and is left out of it.

1. Realised power and the figures' spread (5%, median, 95%), before and after.
2. Stability: the largest ratio between the figures of two estimates one standard error apart
   (and 0.1 standard error apart), over the estimates a question can be unsettled at.
3. Why no figure keeps every true effect at 75-90%: how much the first deals can tell a true
   effect of 0 from one of 1 pp (the total variation distance between their estimates'
   distributions: no figure computed from those deals can differ between the two more often),
   and, at each count of deals in all, the chance of settling each. Wherever a true 1 pp effect
   is settled 75% of the time, a true 0 is settled more than 90% of the time; a rule can hold
   both rows in the band only by giving some questions a count it knows will rarely settle them.

    python scripts/bench_settle.py                    # both tables, 1,000 replicates per row
    python scripts/bench_settle.py --reps 300 --score # the study's score intervals (slower)
"""
from __future__ import annotations

import argparse
import math
import time
from statistics import NormalDist

import numpy as np

from tourney_sim.simulate.stats import intervals as stats

ALPHA = 0.05 / 30
MARGIN = 0.02
CAP = 2_000_000
POWER = 0.8
LEVELS = (("search", 250), ("heuristic (quick)", 2000), ("heuristic (standard)", 20000))
EFFECTS = (0.0, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1)
_nd = NormalDist()


def former(estimate: float, sd: float, deals: int, alpha: float, margin: float, power: float = POWER) -> float:
    """The rule this replaced (issue 39): the normal sample sizes at the effect taken one standard
    error closer to 0 (a difference) or as observed (equivalence), the smaller, unrounded."""
    se = sd / math.sqrt(deals)
    zp = _nd.inv_cdf(power)
    cd, ce = _nd.inv_cdf(1 - alpha / 2), _nd.inv_cdf(1 - alpha)
    e = abs(estimate) - se
    differ = ((cd + zp) * sd / e) ** 2 if e > 0 else math.inf
    a = abs(estimate)
    z_eq = _nd.inv_cdf(1 - (1 - power) / 2) if a == 0 else zp
    equiv = ((ce + z_eq) * sd / (margin - a)) ** 2 if a < margin else math.inf
    m = min(differ, equiv)
    return m if math.isinf(m) else max(0, math.ceil(m - deals))


def current(estimate: float, sd: float, deals: int, alpha: float, margin: float, window: float) -> float:
    return stats.deals_to_settle(estimate, sd, deals, alpha, margin, POWER, window=window).either


def moments(plus, minus, n):
    mean = (plus - minus) / n
    var = ((plus + minus) - n * mean ** 2) / np.maximum(n - 1, 1)
    return mean, np.sqrt(np.maximum(var, 0))


def settled_normal(plus, minus, n, alpha=ALPHA, margin=MARGIN):
    mean, sd = moments(plus, minus, n)
    se = sd / np.sqrt(n)
    cd, ce = _nd.inv_cdf(1 - alpha / 2), _nd.inv_cdf(1 - alpha)
    return (np.abs(mean) >= cd * se) | (np.abs(mean) + ce * se < margin)


def settled_score(plus, minus, n, alpha=ALPHA, margin=MARGIN):
    """As the study tests it: the score interval at 1 - alpha excludes 0, or the one at
    1 - 2 alpha lies within +-margin (stats.mean_interval, stats.equivalent)."""
    out = []
    for a, b, m in zip(np.atleast_1d(plus), np.atleast_1d(minus), np.atleast_1d(n)):
        x = np.r_[np.ones(int(a)), -np.ones(int(b)), np.zeros(int(m - a - b))]
        t = stats.mean_interval(x, 1 - alpha, stats.DIFFERENCE)
        if t.low > 0 or t.high < 0:
            out.append(True)
            continue
        e = stats.mean_interval(x, 1 - 2 * alpha, stats.DIFFERENCE)
        out.append(stats.equivalent(e.low, e.high, margin))
    return np.array(out, bool)


def realised(deals: int, effect: float, reps: int, rule, settled, seed: int):
    """(share of replicates unsettled, the figures given, realised power among them, share given)."""
    rng = np.random.default_rng([seed, deals, int(round(effect * 1e4))])
    pw, pl = 0.25 + effect / 2, 0.25 - effect / 2
    c = rng.multinomial(deals, [pw, pl, 1 - pw - pl], size=reps)
    plus, minus = c[:, 0], c[:, 1]
    open_ = ~settled(plus, minus, np.full(reps, deals))
    plus, minus = plus[open_], minus[open_]
    mean, sd = moments(plus, minus, deals)
    figures = np.array([rule(m, s, deals) for m, s in zip(mean, sd)], float)
    given = np.isfinite(figures) & (figures <= CAP)
    if not given.any():
        return open_.mean(), figures, math.nan, 0.0
    more = figures[given].astype(np.int64)
    p0, m0 = plus[given], minus[given]
    p1 = p0 + rng.binomial(more, pw)
    m1 = m0 + rng.binomial(more - (p1 - p0), pl / (1 - pw))
    ok = settled(p1, m1, deals + more)
    return open_.mean(), figures, float(ok.mean()), float(given.mean())


def spread(figures) -> str:
    f = figures[np.isfinite(figures)]
    if not len(f):
        return "none"
    lo, mid, hi = np.percentile(f, [5, 50, 95], method="nearest")
    inf = np.mean(~np.isfinite(figures))
    return f"{lo:,.0f} / {mid:,.0f} / {hi:,.0f}" + (f" ({100 * inf:.0f}% none)" if inf else "")


def power_table(reps: int, window: float, score: bool, seed: int = 7) -> list[dict]:
    settled = settled_score if score else settled_normal
    print("| level | deals | true effect | unsettled | before: figure 5% / median / 95% | before: realised "
          "| after: figure 5% / median / 95% | after: realised | after: given |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for level, deals in LEVELS:
        for effect in EFFECTS:
            t = time.perf_counter()
            o, fb, pb, _ = realised(deals, effect, reps, lambda m, s, n: former(m, s, n, ALPHA, MARGIN), settled, seed)
            if o < 0.05:
                continue
            _, fa, pa, ga = realised(deals, effect, reps, lambda m, s, n: current(m, s, n, ALPHA, MARGIN, window),
                                     settled, seed)
            rows.append({"level": level, "deals": deals, "effect": effect, "unsettled": o, "before": pb, "after": pa,
                         "given": ga})
            print(f"| {level} | {deals:,} | {100 * effect:+.1f} pp | {100 * o:.0f}% | {spread(fb)} | {100 * pb:.0f}% | "
                  f"{spread(fa)} | {100 * pa:.0f}% | {100 * ga:.0f}% |  <!-- {time.perf_counter() - t:.0f} s -->",
                  flush=True)
    return rows


def stability_table(window: float) -> None:
    """The largest ratio of the figures of two estimates a step apart, over estimates from 0 up
    to where the deals played settle a difference (SD 0.7)."""
    sd = 0.7
    cd = _nd.inv_cdf(1 - ALPHA / 2)
    print("\n| deals | estimates one SE apart: before | after | estimates within 2 SE of 0, one SE apart: before "
          "| after | 0.1 SE apart: after | after: smallest / largest figure |")
    print("|---|---|---|---|---|---|---|")
    for _, deals in LEVELS:
        se = sd / math.sqrt(deals)
        worst = {"b1": 1.0, "a1": 1.0, "b2": 1.0, "a2": 1.0, "a01": 1.0}
        figs = []
        for e in np.linspace(0, (cd - 1) * se, 80):
            a0 = current(e, sd, deals, ALPHA, MARGIN, window)
            figs.append(a0)
            pairs = {"a1": (a0, current(e + se, sd, deals, ALPHA, MARGIN, window)),
                     "b1": (former(e, sd, deals, ALPHA, MARGIN), former(e + se, sd, deals, ALPHA, MARGIN)),
                     "a01": (a0, current(e + 0.1 * se, sd, deals, ALPHA, MARGIN, window))}
            if e + se <= 2 * se:
                pairs["a2"], pairs["b2"] = pairs["a1"], pairs["b1"]
            for k, (x, y) in pairs.items():
                if x > 0 and y > 0:
                    worst[k] = max(worst[k], math.inf if math.isinf(max(x, y)) else max(x, y) / min(x, y))
        f = [x for x in figs if x > 0]

        def r(k):
            return "unbounded" if math.isinf(worst[k]) else f"{worst[k]:.1f}"
        print(f"| {deals:,} | {r('b1')} | {r('a1')} | {r('b2')} | {r('a2')} | {r('a01')} "
              f"| {min(f):,.0f} / {max(f):,.0f} |")


def _power(effect: float, n: float, sd: float = 0.7) -> float:
    """The chance that n deals in all settle a question of true effect ``effect`` (normal)."""
    se = sd / math.sqrt(n)
    cd, ce = _nd.inv_cdf(1 - ALPHA / 2), _nd.inv_cdf(1 - ALPHA)
    a, e = cd * se, MARGIN - ce * se
    d = NormalDist(effect, se)
    p = (1 - d.cdf(a)) + d.cdf(-a)
    if e > 0:
        p += d.cdf(min(e, a)) - d.cdf(-min(e, a))
    return p


def band_table(sd: float = 0.7) -> None:
    """Why no figure can keep every true effect's realised power inside 75-90% (see the module's 3)."""
    print("\n| deals played | can tell 0 from 1 pp (total variation) | deals in all at which a true 1 pp effect "
          "settles 75% | there: true 0 settles | true 0.5 pp | true 2 pp |")
    print("|---|---|---|---|---|---|")
    n75 = next(n for n in range(1000, 200_000, 100) if _power(0.01, n, sd) >= 0.75)
    for _, deals in LEVELS:
        tv = 2 * _nd.cdf(0.005 / (sd / math.sqrt(deals))) - 1
        print(f"| {deals:,} | {100 * tv:.0f}% | {n75:,} | {100 * _power(0.0, n75, sd):.0f}% | "
              f"{100 * _power(0.005, n75, sd):.0f}% | {100 * _power(0.02, n75, sd):.0f}% |")
    print("\n| deals in all | " + " | ".join(f"true {100 * e:+.1f} pp" for e in EFFECTS[:6]) + " |")
    print("|---|" + "---|" * 6)
    for n in (10_000, 20_000, 30_000, 35_000, 40_000, 45_000):
        print(f"| {n:,} | " + " | ".join(f"{100 * _power(e, n, sd):.0f}%" for e in EFFECTS[:6]) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000, help="replicates per row")
    ap.add_argument("--window", type=float, default=stats.SETTLE_WINDOW,
                    help="standard errors of the estimate the plan guards against")
    ap.add_argument("--score", action="store_true", help="test with the study's score intervals (slower)")
    a = ap.parse_args()
    rows = power_table(a.reps, a.window, a.score)
    inside = [r for r in rows if 0.75 <= r["after"] <= 0.90]
    print(f"\nafter: realised power {min(r['after'] for r in rows):.0%} to {max(r['after'] for r in rows):.0%}; "
          f"75-90% in {len(inside)} of {len(rows)} rows (before: {min(r['before'] for r in rows):.0%} to "
          f"{max(r['before'] for r in rows):.0%}, {sum(0.75 <= r['before'] <= 0.9 for r in rows)} of {len(rows)})")
    # every question given a number, over the effects of the table (each as likely), pooled per level
    for level, _ in LEVELS:
        mine = [r for r in rows if r["level"] == level]
        w = sum(r["unsettled"] for r in mine)
        pooled = {k: sum(r["unsettled"] * r[k] for r in mine) / w for k in ("before", "after")}
        print(f"pooled over the effects, {level}: realised power before {pooled['before']:.0%}, "
              f"after {pooled['after']:.0%}")
    stability_table(a.window)
    band_table()


if __name__ == "__main__":
    main()
