"""How often each of the reports' 95% intervals holds the truth, measured by simulation.

Every interval family the reports and studies print, on per-deal outcomes drawn with a known
truth (Bernoulli and multinomial outcomes are enough: the intervals only see per-deal values):

- seat win rates (deal-clustered Wilson), at 1/3, 1/2 and near 0;
- paired win-rate differences (the score interval), with win rates near 1 (0.98, 0.99, 1.0) and
  near 0, and in the middle; the t interval it replaced, for contrast;
- the balance figure near and at a tie (simultaneous pairwise intervals);
- the balance figure a rule option gains, paired on the same deals: near a tie under both rule
  sets, an option that fixes a gap (two teams, with draws), one that changes nothing, a 4-seat
  game; the unpaired interval it replaced, for contrast (``--family gain`` runs these alone);
- sequential questions (the betting confidence sequence tuned to the cap) under the study's look
  schedule at caps 60 / 300 / 1,200, stopped once decided; the asymptotic sequence it replaced,
  for contrast;
- with ``--real``: the balance figure on real Compañeros 3-player random play, in disjoint
  replicates of a big run whose pooled figure stands in for the truth.

    python scripts/bench_coverage.py --real          # a Markdown table
    python scripts/bench_coverage.py --reps 100      # a quick look
    python scripts/bench_coverage.py --family gain   # the balance gained alone

``--reps`` (default 1,000) is the replicates of the slowest families (the balance figure, the
real data); paired differences and sequential questions get twice as many, seat win rates (one
vectorised call) twenty times as many, plus their exact coverage (a binomial sum).

A valid method covers at 95% or more (within the binomial noise of the replicates, about
0.7 points at 1,000); the table gives the width too, the price of over-covering.
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tourney_sim.reports import stats
from tourney_sim.reports import synthetic as sy

# the study budgets' sequential tournaments: (cap, first batch), simulate/study.py's BUDGETS
SCHEDULES = [(60, 20), (300, 50), (1200, 100)]


def old_asymptotic_cs(x, alpha: float, looks, margin: float = 0.02, t_opt: int = 5000):
    """The replaced interval, for contrast: the asymptotic confidence sequence with the sample SD
    plugged in, tuned to 5,000 deals. Returns (missed the truth at the stop, deals at the stop)."""
    a = alpha / 2
    rho2 = (2 * math.log(1 / a) + math.log(1 + 2 * math.log(1 / a))) / t_opt
    reps = x.shape[0]
    stopped = np.full(reps, -1)
    for k, n in enumerate(looks):
        mean = x[:, :n].mean(axis=1)
        sd = x[:, :n].std(axis=1, ddof=1)
        r = sd * np.sqrt(2 * (n * rho2 + 1) / (n * n * rho2) * np.log(np.sqrt(n * rho2 + 1) / a))
        low, high = mean - r, mean + r
        decided = (low > 0) | (high < 0) | ((low > -margin) & (high < margin))
        stopped[(stopped < 0) & decided] = k
    stopped[stopped < 0] = len(looks) - 1
    return stopped


def old_sequential_coverage(p_win, p_loss, cap, first_batch, reps, rng, alpha=0.05) -> sy.Coverage:
    x = sy.paired_outcomes(p_win, p_loss, cap, reps, rng)
    truth = p_win - p_loss
    looks = sy.look_schedule(cap, first_batch)
    a = alpha / 2
    rho2 = (2 * math.log(1 / a) + math.log(1 + 2 * math.log(1 / a))) / 5000
    stop = old_asymptotic_cs(x, alpha, looks)
    at = np.array(looks)[stop]
    covered, widths = 0, []
    for i in range(reps):
        n = at[i]
        mean, sd = x[i, :n].mean(), x[i, :n].std(ddof=1)
        r = sd * math.sqrt(2 * (n * rho2 + 1) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1) / a))
        covered += mean - r <= truth <= mean + r
        widths.append(2 * r)
    return sy.Coverage("sequential", f"+1 {p_win:g}, -1 {p_loss:g} (mean {truth:+.3g}), alpha {alpha:g} "
                       "[old asymptotic CS]", cap, reps, covered / reps, float(np.mean(widths)),
                       f"stopped at {at.mean():.0f} deals on average")


def simulated(reps: int, seed: int) -> list[sy.Coverage]:
    rng = np.random.default_rng(seed)
    out = []
    for probs in ([1, 1, 1], [1, 1], [0.02, 0.49, 0.49]):
        for deals in (60, 300, 1200):
            out.append(sy.seat_rate_coverage(probs, deals, 20 * reps, rng))  # vectorised: cheap
    for p_win, p_loss in ((0.98, 0.0), (0.99, 0.0), (1.0, 0.0), (0.99, 0.01), (0.02, 0.0), (0.3, 0.25)):
        for deals in (60, 300, 1200):
            out.append(sy.paired_coverage(p_win, p_loss, deals, 2 * reps, rng))
    out.append(sy.paired_coverage(0.99, 0.0, 300, 2 * reps, rng, method="t"))
    out.append(sy.paired_coverage(0.98, 0.0, 60, 2 * reps, rng, method="t"))
    for probs, deals in (([1, 1, 1], 300), ([1, 1, 1], 2000), ([1, 1], 1200), ([1, 1, 1, 1], 300),
                         ([0.34, 0.33, 0.33], 2000), ([0.505, 0.495], 5000)):
        out.append(sy.balance_coverage(probs, deals, reps, rng))
    out += gain_family(reps, rng)
    for cap, first in SCHEDULES:
        for p_win, p_loss in ((0.98, 0.0), (0.99, 0.0), (1.0, 0.0), (0.55, 0.45), (0.3, 0.3)):
            out.append(sy.sequential_coverage(p_win, p_loss, cap, first, 2 * reps, rng))
        out.append(sy.sequential_coverage(0.55, 0.45, cap, first, 2 * reps, rng, alpha=0.005))
    for cap, first in SCHEDULES:
        out.append(old_sequential_coverage(0.99, 0.0, cap, first, 2 * reps, rng))
    return out


#: the balance gained: (what, default's chances, option's, chance a deal plays out the same, draws
#: under each, deal counts); each unit's chance of winning alone, normalised
GAIN_SCENARIOS = [
    ("a tie under both", [1, 1, 1], [1, 1, 1], 0.8, (0.0, 0.0), (50, 500)),
    ("near a tie under both", [0.34, 0.33, 0.33], [0.33, 0.34, 0.33], 0.8, (0.0, 0.0), (500,)),
    ("fixes a gap, 2 teams", [0.28, 0.72], [0.5, 0.5], 0.3, (0.04, 0.03), (50, 500, 2000)),
    ("changes nothing", [0.4, 0.3, 0.3], [0.4, 0.3, 0.3], 1.0, (0.0, 0.0), (500,)),
    ("4 seats, narrows a gap", [0.3, 0.25, 0.25, 0.2], [0.26, 0.25, 0.25, 0.24], 0.7, (0.0, 0.0), (500,)),
    ("widens a gap, 2 teams", [0.5, 0.5], [0.45, 0.55], 0.6, (0.05, 0.05), (500,)),
]


def gain_family(reps: int, rng, show=None) -> list[sy.Coverage]:
    """Every scenario of the balance gained (``show``: called with each row as it is done)."""
    rows = []
    for what, pd, po, same, shared, counts in GAIN_SCENARIOS:
        for deals in counts:
            rows.append(sy.gain_coverage(pd, po, same, deals, reps, rng, shared=shared, what=what))
            if show:
                show(rows[-1])
    return rows


def real_balance(reps: int, deals: int = 1000, seed: int = 11) -> sy.Coverage:
    """Compañeros, 3 players, everyone random: ``reps`` disjoint blocks of ``deals`` deals of one
    run; the pooled balance figure stands in for the truth."""
    from tourney_sim import api
    from tourney_sim.reports import analysis, load
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        api.run("companeros", ["random"], players=3, games=reps * deals, seed=seed, out=out, workers=1,
                progress=False)
        (cfg,) = load.load([out])
        names, wd, gd = analysis.unit_deal_rates(cfg)
    rates = wd / gd[:, None]
    p = rates.mean(axis=0)
    truth = 1 - (p.max() - p.min())
    covered, widths = 0, []
    for r in range(reps):
        block = rates[r * deals:(r + 1) * deals]
        low, high = stats.balance_interval(block)
        covered += low <= truth <= high
        widths.append(high - low)
    return sy.Coverage("balance figure", f"real: Compañeros 3 players, random (pooled balance {truth:.4f})",
                       deals, reps, covered / reps, float(np.mean(widths)))


def table(rows: list[sy.Coverage]) -> str:
    head = ["family", "truth", "deals (cap)", "replicates", "covered", "mean width", "note"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r.row()) + " |" for r in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=1000, help="replicates of the balance figure's scenarios "
                    "(default 1,000; the other families get more)")
    ap.add_argument("--seed", type=int, default=2029)
    ap.add_argument("--real", action="store_true", help="also the balance figure on real Compañeros play")
    ap.add_argument("--family", choices=["all", "gain"], default="all",
                    help="every family (default) or only the balance gained by a rule option")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.family == "gain":
        rows = gain_family(args.reps, np.random.default_rng(args.seed),
                           show=lambda r: print("| " + " | ".join(r.row()) + " |", file=sys.stderr, flush=True))
    else:
        rows = simulated(args.reps, args.seed)
    if args.real:
        rows.append(real_balance(min(args.reps, 300)))
    print(table(rows))
    print(f"\n{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
