"""``--until-decided``: play in batches and stop as soon as the question is settled.

Each question is a mean of independent per-deal values in [-1, 1] (deals never span batches, so
batches add independent observations, kept in the order they were played). After every batch,
each question's anytime-valid interval (the betting confidence sequence of Waudby-Smith & Ramdas
2023, :func:`tourney_sim.simulate.stats.intervals.anytime_interval`, tuned to the tournament's cap) is
recomputed; because it is valid at every deal simultaneously and in finite samples, looking after
each batch does not inflate the error rate, and the chance that *any* stated conclusion is wrong
stays below ``alpha`` (split over the questions by Bonferroni). A study passes its family's
per-question level as ``alpha``, so what a tournament decides its report calls settled.

The tournament's manifest records everything the test read (``until_decided``: the level, the
margin, the bets -- the level and the deals they are tuned to --, the deals seen at each look,
the number of questions); its report replays the test from the data with exactly those
(:meth:`Sequential.replay`), so each pair's p-value, interval and decision in the report are the
ones that stopped the run, never recomputed with other bets (bets tuned to 0.05 give another
capital process, hence another p-value, for a question that stopped at alpha / questions).

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
from .intervals import MeanTest, RunningMean, anytime_interval, decide, largest_gap


class Sequential:
    """The stopping rule of ``--until-decided`` (:class:`tourney_sim.simulate.tournament.StoppingRule`).

    ``alpha``: the chance that any conclusion of this tournament is wrong (Bonferroni over its
    questions: :attr:`per_test_alpha` each); ``margin``: "equal within +-margin" (a win-rate
    difference); ``cap``: the deals the tournament plays at most, to which the sequence is tuned
    (when None: the seatings' planned games, read from their manifests at the first batch);
    ``bets_alpha``: the level the plug-in bets are tuned to (None: :attr:`per_test_alpha`, the
    level each question is read at; a replay passes the recorded one)."""

    def __init__(self, question: str, alpha: float = 0.05, margin: float = 0.02, cap: int | None = None,
                 bets_alpha: float | None = None):
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
        self.bets_alpha = bets_alpha
        self.running: dict[tuple, RunningMean] = {}
        self.deals = 0
        self.batches = 0
        self.looks: list[int] = []  # the deals seen after each batch (when the rule looked)
        self._per_test_alpha: float | None = None  # a replay: the recorded level
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
        self.looks.append(self.deals)
        self._intervals = None

    # ------------------------------------------------------------------ deciding
    @property
    def per_test_alpha(self) -> float:
        if self._per_test_alpha is not None:
            return self._per_test_alpha
        return self.alpha / max(1, len(self.running))

    @property
    def bets(self) -> dict:
        """What the plug-in bets are tuned to: a level and a number of deals."""
        return {"alpha": self.bets_alpha or self.per_test_alpha, "cap": self.cap}

    def test(self, values) -> MeanTest:
        """One question's anytime-valid test as this rule reads it: the betting confidence
        sequence at :attr:`per_test_alpha`, its bets tuned to :attr:`bets`; (estimate, low, high,
        anytime p-value of "the mean is 0", deals). The stop and the report both call this."""
        bets = self.bets
        return anytime_interval(values, self.per_test_alpha, bets["cap"], tune_alpha=bets["alpha"])

    def intervals(self) -> dict[tuple, MeanTest]:
        if self._intervals is not None:
            return self._intervals
        out = {key: self.test(r.values) for key, r in self.running.items()}
        self._intervals = out
        return out

    def results(self) -> list[dict]:
        iv = self.intervals()
        if self.question == "strength":
            rows = []
            for (label, a, b), (mean, low, high, p, n) in iv.items():
                d = decide(low, high, self.margin)
                text = {"positive": f"{a} is stronger than {b}", "negative": f"{b} is stronger than {a}",
                        "equivalent": f"{a} and {b} are equally strong within +-{self.margin:g}",
                        None: f"{a} v {b}: not decided"}[d]
                rows.append({"config": label, "question": f"{a} v {b}", "pair": [a, b], "estimate": mean,
                             "low": low, "high": high, "p_value": p, "deals": n, "decision": d, "text": text})
            return rows
        # balance: a gap interval per variant, then every two variants compared
        by_variant: dict[str, list] = {}
        for (label, _, _), (mean, low, high, _, n) in iv.items():
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
        """What the manifest records (``until_decided``): enough to replay the test exactly."""
        return {"question": self.question, "alpha": self.alpha, "margin": self.margin,
                "method": "betting confidence sequence (Waudby-Smith & Ramdas 2023), tuned to the cap, "
                          "Bonferroni over the questions",
                "per_test_alpha": self.per_test_alpha, "questions": len(self.running), "bets": self.bets,
                "deals": self.deals, "batches": self.batches, "looks": list(self.looks),
                "decided": self.decided, "results": _clean(self.results())}

    # ------------------------------------------------------------------ the report
    @classmethod
    def replay(cls, record: dict, configs) -> Sequential:
        """The test a tournament stopped with, read again from its data: ``record`` is its
        manifest's ``until_decided`` (:meth:`summary` plus how it stopped), ``configs`` the
        tournament's seatings loaded (all of them, nothing else). Every question gets the
        recorded level, margin and bets, and the deals the rule had seen when it stopped (a run
        interrupted inside a batch holds more); each pair is oriented as the rule oriented it.
        So :meth:`results` gives the decisions, intervals and p-values that stopped the run.

        A record written before the bets were recorded gets what the rule did then: bets tuned
        to the per-question level and the tournament's cap (``cap``)."""
        bets = record.get("bets") or {}
        seq = cls(record["question"], record["alpha"], record["margin"], bets.get("cap") or record.get("cap"),
                  bets.get("alpha") or record.get("per_test_alpha"))
        seq._per_test_alpha = record.get("per_test_alpha")
        deals = record.get("deals")
        flipped = set()  # the keys the rule had the other way round
        if record["question"] == "strength":
            for row in record.get("results") or []:
                pair = row.get("pair") or row["question"].split(" v ", 1)
                flipped.add((row["config"], *pair[::-1]))
        for key, x in seq.observations(configs).items():
            if key in flipped:
                key, x = (key[0], key[2], key[1]), -x  # exactly the rule's values (a - b = -(b - a))
            seq.running[key] = RunningMean(seq.cap)
            seq.running[key].add(x if deals is None else x[:deals])
        seq.deals = max((r.n for r in seq.running.values()), default=0)
        seq.batches = int(record.get("batches") or 0)
        seq.looks = list(record.get("looks") or [])
        return seq

    def pairwise(self, table, label: str):
        """The report's pairwise table of configuration ``label`` (:func:`analysis.pairwise_table`)
        with each pair this test read given the test's own figures: the anytime-valid interval
        (at :attr:`per_test_alpha`, so all hold together at 1 - alpha), the anytime p-value with
        the same bets, its Bonferroni adjustment over the questions, and the decision the run
        stopped with; "significant" is that decision (a winner). ``table.attrs["sequential"]``
        says so for the layout. Pairs the test did not read keep their fixed-sample figures."""
        rows = {frozenset(r["pair"]): r for r in self.results() if r["config"] == label}
        out = table.copy()
        out["decision"] = None
        out["decision"] = out["decision"].astype(object)
        questions = max(1, len(self.running))
        for i, row in out.iterrows():
            r = rows.get(frozenset((row.a, row.b)))
            if r is None:
                continue
            sign = 1.0 if list(r["pair"]) == [row.a, row.b] else -1.0
            low, high = sorted((sign * r["low"], sign * r["high"]))
            out.loc[i, ["diff", "ci_low", "ci_high", "p_value", "deals"]] = [sign * r["estimate"], low, high,
                                                                              r["p_value"], r["deals"]]
            out.loc[i, "p_holm"] = min(1.0, r["p_value"] * questions)
            out.loc[i, "significant"] = r["decision"] in ("positive", "negative")
            out.at[i, "decision"] = r["text"]
        out.attrs["sequential"] = {"alpha": self.alpha, "per_test_alpha": self.per_test_alpha,
                                   "questions": questions, "margin": self.margin, "pairs": len(rows)}
        return out


def stopping_rule(question: str, alpha: float, margin: float) -> Sequential:
    """The stopping rule of an ``--until-decided`` tournament or study stage
    (:class:`tourney_sim.simulate.tournament.StoppingRule`): the sequential test of ``question``
    ("strength" or "balance") at ``alpha`` with the margin ``margin``. What
    :func:`tourney_sim.simulate.study.run_study` asks (``stopping_rule``)."""
    return Sequential(question, alpha, margin)


def replay_tournament(path, record: dict, sources, configs) -> tuple[Sequential, dict]:
    """The ``--until-decided`` test of the tournament in ``path`` (its manifest's ``record``),
    replayed from its data (:meth:`Sequential.replay`) for a report of ``sources`` loaded as
    ``configs``. Returns the test and, for each configuration of the report that holds this
    tournament's data and nothing else, ``id(config) -> the label the test knows it by``. When the
    report merges the tournament with other datasets its seatings are loaded again, alone (the
    test read nothing else), and no configuration of the report is the test's."""
    from dataclasses import replace

    from .load import _label_configs, load_sources
    where = Path(path).resolve()
    own = [s for s in sources if s.tournament_path is not None and Path(s.tournament_path).resolve() == where]
    ids = {id(s) for s in own}
    mine = [c for c in configs if any(id(s) in ids for s in c.sources)]
    pure = (bool(mine) and all(id(s) in ids for c in mine for s in c.sources)
            and sum(len(c.sources) for c in mine) == len(own))
    if pure:  # the report's own configurations, labelled as the test labelled them (alone)
        alone = [replace(c) for c in mine]
        _label_configs(alone)
        labels = {id(c): a.label for c, a in zip(mine, alone)}
    else:
        alone, labels = load_sources(own), {}
    return Sequential.replay(record, alone), labels


def disagreements(seq: Sequential, record: dict) -> list[str]:
    """The questions whose replayed decision is not the recorded one (the data changed since the
    run stopped, or the run was made by a tourney that read them otherwise)."""
    said = {(r["config"], r["question"]): r.get("decision") for r in record.get("results") or []}
    return [f"{r['config']}: {r['question']}" for r in seq.results()
            if (r["config"], r["question"]) in said and said[(r["config"], r["question"])] != r["decision"]]


def _clean(rows):
    out = []
    for r in rows:
        out.append({k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()})
    return out
