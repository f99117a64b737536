"""``--until-decided``: play in batches and stop as soon as the question is settled.

Each question is a mean of independent per-deal values in [-1, 1] (deals never span batches, so
batches add independent observations, kept in the order they were played). After every batch,
each question's anytime-valid interval (the betting confidence sequence of Waudby-Smith & Ramdas
2023, :func:`tourney_sim.reports.stats.anytime_interval`, tuned to the tournament's cap) is
recomputed; because it is valid at every deal simultaneously and in finite samples, looking after
each batch does not inflate the error rate, and the chance that *any* stated conclusion is wrong
stays below ``alpha`` (split over the questions by Bonferroni). A study passes its family's
per-question level as ``alpha``, so what a tournament decides its report calls settled.

Questions:

- tournament, ``strength``: for each pair of strategies, the paired win-rate difference over the
  deals where they meet. Settled when its interval is above 0 (a stronger), below 0 (b
  stronger), or inside +-margin (equally strong, within the margin).
- sweep, ``balance``: for each rule variant, the win-rate differences between every two seats
  (teams in team games) give an interval for the variant's largest seat gap (1 - balance). Two
  variants are settled when one's gap interval lies wholly below the other's (that variant is
  fairer), or when the two gaps cannot differ by more than the margin (equally fair).
"""
from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np

from . import analysis
from .stats import RunningMean, anytime_interval, decide, largest_gap


class Sequential:
    """The stopping rule of ``--until-decided`` (:class:`tourney_sim.simulate.tournament.StoppingRule`).

    ``alpha``: the chance that any conclusion of this tournament is wrong (Bonferroni over its
    questions: :attr:`per_test_alpha` each); ``margin``: "equal within +-margin" (a win-rate
    difference); ``cap``: the deals the tournament plays at most, to which the sequence is tuned
    (when None: the seatings' planned games, read from their manifests at the first batch)."""

    def __init__(self, question: str, alpha: float = 0.05, margin: float = 0.02, cap: int | None = None):
        if question not in ("strength", "balance"):
            raise ValueError(question)
        if not (0 < alpha < 1):
            raise ValueError("alpha must be between 0 and 1")
        if not (margin > 0):
            raise ValueError("margin must be positive")
        self.question = question
        self.alpha = alpha
        self.margin = margin
        self.cap = cap
        self.running: dict[tuple, RunningMean] = {}
        self.deals = 0
        self.batches = 0
        self._intervals = None  # computed once per batch

    # ------------------------------------------------------------------ feeding
    def observations(self, configs) -> dict[tuple, np.ndarray]:
        """Per-deal values of every question in a batch of games."""
        obs: dict[tuple, np.ndarray] = {}
        for cfg in configs:
            if self.question == "strength":
                counts = analysis.strategy_counts(cfg)
                ids = analysis.player_strategy_ids(cfg)
                for i, a in enumerate(ids):
                    for b in ids[i + 1:]:
                        per_deal, _, games = analysis.pair_differences(cfg, a, b, counts)
                        if games:
                            key = (cfg.label, cfg.names[a], cfg.names[b])
                            obs[key] = np.concatenate([obs.get(key, np.zeros(0)), per_deal])
            else:
                names, wd, gd = analysis.unit_deal_rates(cfg)
                rates = wd / gd[:, None]
                for u, v in itertools.combinations(range(len(names)), 2):
                    key = (cfg.label, names[u], names[v])
                    obs[key] = np.concatenate([obs.get(key, np.zeros(0)), rates[:, u] - rates[:, v]])
        return obs

    def add_datasets(self, datasets, new_files=None) -> None:
        """A tournament's batch (:class:`tourney_sim.simulate.tournament.StoppingRule`): every seating as
        (directory, manifest, variant), of which only the part files in ``new_files`` (resolved
        directory -> [part path, ...]) are read."""
        from .load import Source, load_sources
        if self.cap is None:  # the deals each seating is to play: fixed before any is seen
            self.cap = max((int(m.get("games") or 0) for _, m, _ in datasets), default=0) or None
        self.add(load_sources([Source(Path(d), m, variant=v) for d, m, v in datasets], new_files))

    def add(self, configs) -> None:
        obs = self.observations(configs)
        for key, x in obs.items():
            self.running.setdefault(key, RunningMean(self.cap)).add(x)
        self.deals += max((len(x) for x in obs.values()), default=0)
        self.batches += 1
        self._intervals = None

    # ------------------------------------------------------------------ deciding
    @property
    def per_test_alpha(self) -> float:
        return self.alpha / max(1, len(self.running))

    def intervals(self) -> dict[tuple, tuple[float, float, float, int]]:
        if self._intervals is not None:
            return self._intervals
        a = self.per_test_alpha
        out = {}
        for key, r in self.running.items():
            t = anytime_interval(r.values, a, self.cap)
            out[key] = (t.estimate, t.low, t.high, t.n)
        self._intervals = out
        return out

    def results(self) -> list[dict]:
        iv = self.intervals()
        if self.question == "strength":
            rows = []
            for (label, a, b), (mean, low, high, n) in iv.items():
                d = decide(low, high, self.margin)
                text = {"positive": f"{a} is stronger than {b}", "negative": f"{b} is stronger than {a}",
                        "equivalent": f"{a} and {b} are equally strong within +-{self.margin:g}",
                        None: f"{a} v {b}: not decided"}[d]
                rows.append({"config": label, "question": f"{a} v {b}", "estimate": mean, "low": low,
                             "high": high, "deals": n, "decision": d, "text": text})
            return rows
        # balance: a gap interval per variant, then every two variants compared
        by_variant: dict[str, list] = {}
        for (label, _, _), (mean, low, high, n) in iv.items():
            by_variant.setdefault(label, []).append((low, high, n))
        gaps = {label: [*largest_gap([(lo, hi) for lo, hi, _ in rows]), max(n for _, _, n in rows)]
                for label, rows in by_variant.items()}
        rows = []
        labels = list(gaps)
        for x, y in itertools.combinations(labels, 2):
            (lx, hx, nx), (ly, hy, ny) = gaps[x], gaps[y]
            if hx < ly:
                d, text = "first_fairer", f"{x} is fairer than {y}"
            elif hy < lx:
                d, text = "second_fairer", f"{y} is fairer than {x}"
            elif max(hx - ly, hy - lx) < self.margin:
                d, text = "equivalent", f"{x} and {y} are equally fair within +-{self.margin:g}"
            else:
                d, text = None, f"{x} v {y}: not decided"
            rows.append({"config": f"{x} | {y}", "question": f"largest seat gap: {x} v {y}",
                         "estimate": None, "gap_first": [lx, hx], "gap_second": [ly, hy],
                         "deals": min(nx, ny), "decision": d, "text": text})
        if len(labels) == 1:  # a single variant: settle its gap against the margin
            (lx, hx, nx) = gaps[labels[0]]
            d = "fair" if hx < self.margin else ("unfair" if lx > self.margin else None)
            rows.append({"config": labels[0], "question": "largest seat gap", "estimate": None,
                         "gap_first": [lx, hx], "deals": nx, "decision": d,
                         "text": {"fair": f"largest seat gap below {self.margin:g}",
                                  "unfair": f"largest seat gap above {self.margin:g}",
                                  None: "largest seat gap: not decided"}[d]})
        return rows

    @property
    def decided(self) -> bool:
        rows = self.results()
        return bool(rows) and all(r["decision"] is not None for r in rows)

    def summary(self) -> dict:
        return {"question": self.question, "alpha": self.alpha, "margin": self.margin,
                "method": "betting confidence sequence (Waudby-Smith & Ramdas 2023), tuned to the cap, "
                          "Bonferroni over the questions",
                "per_test_alpha": self.per_test_alpha, "deals": self.deals, "batches": self.batches,
                "decided": self.decided, "results": _clean(self.results())}


def _clean(rows):
    out = []
    for r in rows:
        out.append({k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()})
    return out
