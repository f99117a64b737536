"""``tourney train``: the apprentice learned from the search, round by round (issue 41).

The apprentice is a linear policy: it plays the legal move whose features (the game's
``features.py``, read from the deciding seat's views only) score highest under its weights. A
training run finds the weights by imitating the search (DAgger / expert iteration: Ross et al.
2011, Anthony et al. 2017):

1. *collect*: play games and, at a share of the decisions, record every legal move's features and
   the move the search (``ismcts`` at ``label_iterations``, more than it plays with) chooses
   there. Round 0 plays the game's strong heuristic (``against``); later rounds play the current
   apprentice with some exploration, so the search labels the positions the student reaches;
2. *fit*: the weights that make the search's choices most likely under a softmax over each
   decision's moves (conditional logit, L2-penalised, ``scipy.optimize`` L-BFGS), on every
   round's positions so far;
3. *evaluate*: the new weights against ``against`` on ``eval_deals`` fresh deals, in every seat
   (field seatings, as ``tourney tune`` plays a candidate), paired with the best weights so far
   on the same deals; the new weights become the best if they win more.

Everything is seeded: the games of round r are games ``r * GAMES_PER_ROUND ..`` of the seed, each
label drawn from its own stream, and the fit is deterministic, so the same command gives the same
weights bit for bit. The directory holds ``_train.json`` (the manifest: every round's figures),
``round-<r>/positions.npz`` (its features and labels, plain arrays), ``round-<r>.toml`` and
``best.toml`` (weights as a strategy setting: ``--strategy apprentice@DIR/best.toml``) and
``report.md`` (the learning curve and the largest weights in words). A run killed at any moment
resumes from its last finished round (``--resume``).
"""
from __future__ import annotations

import importlib
import math
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from . import __version__
from .backends import SOURCES, open_backend
from .errors import TourneyError
from .games.config import GameConfig
from .jobdir import Job, JobKind, Outcome, now, option, read_job, run_job, write_json
from .results import DatasetError
from .seeding import FIRST_SEAT_STREAM, new_stream
from .stats.intervals import paired_summary
from .stepper import KernelGame
from .tune import Field, candidate_seatings

TRAIN_FILE = "_train.json"
TRAIN_FORMAT = "tourney-train/1"
TRAIN = JobKind("training run", TRAIN_FILE, TRAIN_FORMAT,
                ("format", "game", "players", "options", "seed", "rounds", "positions", "label_iterations",
                 "sample", "explore", "l2", "against", "eval_deals", "sources"))
#: game indices of round r start at r * GAMES_PER_ROUND (each round's games are new deals)
GAMES_PER_ROUND = 1_000_000
#: the label stream of a decision: FIRST_SEAT_STREAM + this + its place in the game
LABEL_STREAM = 1000
BEST_FILE = "best.toml"


class TrainError(TourneyError):
    """A training request that cannot run; one line."""


@dataclass(frozen=True)
class TrainRequest:
    """What a training run is asked: the options of ``tourney train`` (and ``api.train``) besides
    the game and where it runs, declared once with their flags and help."""

    players: Optional[int] = option(None, "Number of players (default: 4, or the game's only count).",
                                    "--players", "-p")
    rules: list[str] = option((), "Rule option key=value: the table the apprentice learns; repeatable.", "--rule")
    components: list[str] = option((), "One component value KEY=VALUE of that table; repeatable.", "--component")
    rounds: int = option(4, "Rounds of collect, label, fit, evaluate.", "--rounds", "-r")
    positions: int = option(3000, "Decisions the search labels per round.", "--positions", "-n")
    label_iterations: Optional[int] = option(None, "The search's iterations per label (default: twice its "
                                             "playing budget).")
    sample: float = option(0.3, "Share of the decisions of a collected game that are labelled.")
    explore: float = option(0.1, "Chance that the apprentice plays a random legal move while collecting.")
    l2: float = option(0.01, "L2 penalty of the fit, per weight.")
    against: Optional[str] = option(None, "The strategy it is measured against (default: the study's heuristic "
                                    "level, the game's strongest).")
    eval_deals: int = option(1000, "Fresh deals of each round's evaluation, per seating.")
    seed: int = option(0, "Seed of the games, the labels and the evaluation.", "--seed", "-s")


def features_of(game: str):
    """The game's features module (``simulate/games/<game>/features.py``), or TrainError."""
    try:
        return importlib.import_module(f"tourney_sim.simulate.games.{game}.features")
    except ModuleNotFoundError:
        raise TrainError(f"{game} declares no apprentice features (simulate/games/{game}/features.py)") from None


# ----------------------------------------------------------------------------- the fit
def fit(X: np.ndarray, mask: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, dict]:
    """Conditional logit: the weights w maximising sum_i log softmax(X[i] @ w)[y[i]] - l2 |w|^2
    over decisions i (``X[i, k]`` move k's features, ``mask[i, k]`` whether move k exists).
    Returns (w, {"log_loss", "agreement"}: mean negative log-likelihood and the share of
    decisions where w's best move is the label)."""
    from scipy.optimize import minimize

    n, _, f = X.shape
    rows = np.arange(n)

    def loss(w):
        s = np.where(mask, X @ w, -np.inf)
        top = s.max(axis=1, keepdims=True)
        e = np.where(mask, np.exp(s - top), 0.0)
        z = e.sum(axis=1)
        p = e / z[:, None]
        nll = -(s[rows, y] - top[:, 0] - np.log(z)).sum() / n
        grad = -(X[rows, y] - np.einsum("ik,ikf->if", p, np.where(mask[..., None], X, 0.0))).sum(axis=0) / n
        return nll + l2 * w @ w, grad + 2 * l2 * w

    res = minimize(loss, np.zeros(f), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    w = res.x
    return w, {"log_loss": float(loss(w)[0] - l2 * w @ w), "agreement": agreement(X, mask, y, w)}


def agreement(X: np.ndarray, mask: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Share of the decisions where the weights' best move (the first of equal scores, as the
    apprentice plays) is the label."""
    if len(y) == 0:
        return math.nan
    s = np.where(mask, X @ w, -np.inf)
    return float((s.argmax(axis=1) == y).mean())


# ----------------------------------------------------------------------------- the job
class TrainJob(Job):
    """``tourney train`` (see the module docstring)."""

    kind = TRAIN

    def __init__(self, config: GameConfig, r: TrainRequest, *, workers: int | None, scheduler: str | None,
                 progress: bool):
        from tourney_sim.strategies import resolve
        from .study import BUDGETS, level_strategies
        self.config, self.r, self.workers, self.scheduler, self.progress = config, r, workers, scheduler, progress
        self.features = features_of(config.game)
        for name, v, least, most in (("--rounds", r.rounds, 1, 50), ("--positions", r.positions, 10, 1_000_000),
                                     ("--eval-deals", r.eval_deals, 2, 1_000_000)):
            if not least <= v <= most:
                raise TrainError(f"{name} must be from {least:,} to {most:,}, got {v:,}")
        for name, v in (("--sample", r.sample), ("--explore", r.explore)):
            if not 0.0 <= v <= 1.0 or (name == "--sample" and v == 0.0):
                raise TrainError(f"{name} must be a share from 0 to 1, got {v}")
        if r.l2 < 0:
            raise TrainError(f"--l2 must be 0 or more, got {r.l2}")
        (search,) = resolve(config.game, ["ismcts"])
        iterations = r.label_iterations or 2 * int(search.settings()["iterations"])
        (self.labeller,) = resolve(config.game, [f"ismcts:iterations={iterations}"])
        self.iterations = iterations
        self.against = r.against or level_strategies(config.game, BUDGETS["standard"])["heuristic"]
        (self.opponent,) = resolve(config.game, [self.against])
        (self.student,) = resolve(config.game, ["apprentice:explore=0"])  # its weights set per round
        self.backend = None

    def prepare(self, old: dict | None) -> dict:
        r, c = self.r, self.config
        return {"format": TRAIN_FORMAT, "tool": "tourney", "tool_version": __version__, "game": c.game,
                "players": c.players, "options": c.options, "rules": c.rules, "seed": r.seed, "rounds": r.rounds,
                "positions": r.positions, "label_iterations": self.iterations, "sample": r.sample,
                "explore": r.explore, "l2": r.l2, "against": self.opponent.setting, "eval_deals": r.eval_deals,
                "features": [name for name, _ in self.features.FEATURES], "sources": SOURCES,
                "command": self.command, "status": "running", "created": now(), "history": [], "best": None}

    def adopt(self, old: dict, manifest: dict) -> list[str]:
        manifest["history"], manifest["best"] = old.get("history") or [], old.get("best")
        return [f"resuming: {len(manifest['history'])} of {self.r.rounds} rounds done"]

    # ------------------------------------------------------------------ one round
    def collect(self, k: int, weights: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Round ``k``'s labelled decisions: (X, mask, y), played by the heuristic (``weights``
        None) or the apprentice with those weights and exploration."""
        c, r, f = self.config, self.r, self.features.N_FEATURES
        spec, params = c.spec, c.params()
        player = self.opponent if weights is None else self.student.with_settings(
            {**dict(zip(self.features_names(), weights)), "explore": r.explore})
        label_row, label_fn = self.labeller.param_row(), self.labeller.fn
        sample_rng = np.random.default_rng([r.seed, k, 7])
        feats, labels = [], []
        game = k * GAMES_PER_ROUND
        bar = _bar(r.positions, self.progress, f"round {k}: labelling")
        try:
            while len(labels) < r.positions:
                g = KernelGame(spec, params, r.seed, game)
                step = 0
                while (seat := g.to_move()) >= 0:
                    n = g._legal()
                    if n > 1 and sample_rng.random() < r.sample and len(labels) < r.positions:
                        public, private = g.m.public_view(g.state), g.m.private_view(g.state, seat)
                        out = np.zeros((n, f))
                        self.features.move_features(public, private, g.moves, n, out)
                        rng = new_stream(r.seed, game, FIRST_SEAT_STREAM + LABEL_STREAM + step)
                        feats.append(out)
                        labels.append(int(label_fn(public, private, g.moves, n, rng, label_row)))
                        bar.update(1)
                    g.apply(g.choose(player))
                    step += 1
                game += 1
        finally:
            bar.close()
        width = max(len(x) for x in feats)
        X = np.zeros((len(feats), width, f))
        mask = np.zeros((len(feats), width), bool)
        for i, x in enumerate(feats):
            X[i, :len(x)], mask[i, :len(x)] = x, True
        return X, mask, np.array(labels, np.int64)

    def features_names(self) -> list[str]:
        return [name for name, _ in self.features.FEATURES]

    def setting(self, weights) -> object:
        return self.student.with_settings(dict(zip(self.features_names(), (float(w) for w in weights))))

    def evaluate(self, k: int, weights, best) -> dict:
        """Round ``k``'s weights against the opponent on fresh deals, paired with ``best``'s."""
        c, r = self.config, self.r
        seatings = candidate_seatings(c.players, c.spec.team_game)
        where = self.dir.path / f"round-{k}" / "evaluation"
        field = Field(c, [self.opponent.label], r.seed + 1 + k, r.eval_deals, "win", seatings)
        mine = field.play(self.setting(weights), where / "new", self.backend)
        out = {"win_rate": float(mine.mean()), "win_ci": paired_summary(mine, mine)["best_ci"]}
        if best is not None:
            theirs = field.play(self.setting(best), where / "best", self.backend)
            out["against_best"] = paired_summary(mine, theirs)
        shutil.rmtree(where, ignore_errors=True)
        return out

    def play(self, manifest: dict) -> str:
        r = self.r
        self.backend = open_backend(self.workers, self.scheduler)
        try:
            for k in range(len(manifest["history"]), r.rounds):
                best = np.array(manifest["best"]["weights"]) if manifest["best"] else None
                X, mask, y = self.collect(k, best)
                round_dir = self.dir.path / f"round-{k}"
                round_dir.mkdir(exist_ok=True)
                np.savez(round_dir / "positions.npz", X=X, mask=mask, y=y)
                Xs, masks, ys = self.positions(k + 1)
                w, figures = fit(Xs, masks, ys, r.l2)
                # how often the best weights so far already agreed with the search on the new positions
                held_out = agreement(X, mask, y, best) if best is not None else None
                ev = self.evaluate(k, w, best)
                better = best is None or ev["against_best"]["difference"] > 0
                entry = {"round": k, "positions": int(len(y)), "fit": figures, "best_agreement_on_new": held_out,
                         "evaluation": ev, "weights": [float(x) for x in w], "kept": bool(better)}
                (self.dir.path / f"round-{k}.toml").write_text(weights_toml(self, w, f"round {k}"))
                manifest["history"].append(entry)
                if better:
                    manifest["best"] = {"round": k, "weights": entry["weights"], "win_rate": ev["win_rate"]}
                    (self.dir.path / BEST_FILE).write_text(weights_toml(self, w, f"best: round {k}"))
                self.dir.write(manifest)  # a run killed from here on keeps this round
        finally:
            self.close()
        return "complete"

    def positions(self, rounds: int):
        """Every labelled decision of the first ``rounds`` rounds (DAgger aggregates them)."""
        parts = [np.load(self.dir.path / f"round-{k}" / "positions.npz", allow_pickle=False) for k in range(rounds)]
        width = max(p["X"].shape[1] for p in parts)
        f = self.features.N_FEATURES
        X = np.concatenate([np.pad(p["X"], ((0, 0), (0, width - p["X"].shape[1]), (0, 0))) for p in parts]) \
            if parts else np.zeros((0, width, f))
        mask = np.concatenate([np.pad(p["mask"], ((0, 0), (0, width - p["mask"].shape[1]))) for p in parts])
        y = np.concatenate([p["y"] for p in parts])
        return X, mask, y

    def report(self, manifest: dict) -> str:
        text = report_text(manifest, self.features.FEATURES)
        (self.dir.path / "report.md").write_text(text)
        return text.split("\n\n")[1] if "\n\n" in text else text

    def close(self) -> None:
        if self.backend is not None:
            self.backend.close()
            self.backend = None


def weights_toml(job: TrainJob, weights, what: str) -> str:
    """Weights as a strategy setting file: ``--strategy apprentice@FILE``."""
    c = job.config
    lines = [f"# tourney train: {what}, {c.game} at {c.players} players"
             + (f", rules {', '.join(c.rules)}" if c.rules else ", the shipped rules and components"),
             f"# made by: {job.command}" if job.command else "# made with the tourney_sim API",
             'strategy = "apprentice"', "", "[params]"]
    lines += [f"{name} = {float(w)!r}" for name, w in zip(job.features_names(), weights)]
    return "\n".join(lines) + "\n"


def report_text(manifest: dict, features) -> str:
    """The learning curve and the largest weights, in Markdown."""
    best = manifest.get("best") or {}
    lines = [f"# The apprentice of {manifest['game']} at {manifest['players']} players", ""]
    if best:
        lines.append(f"Best weights: round {best['round']}, winning {best['win_rate']:.1%} of its games against "
                     f"{manifest['against']} in every seat (fresh deals). Play them: `--strategy apprentice@DIR/best.toml`.")
    lines += ["", "| round | positions | agrees with the search (fit) | log loss | win rate vs "
              f"{manifest['against']} [95%] | against the best so far [95%] | kept |", "|---|---|---|---|---|---|---|"]
    for h in manifest["history"]:
        ev = h["evaluation"]
        d = ev.get("against_best")
        vs = (f"{d['difference']:+.1%} [{d['difference_ci'][0]:+.1%}, {d['difference_ci'][1]:+.1%}]"
              if d else "(first)")
        lines.append(f"| {h['round']} | {h['positions']:,} | {h['fit']['agreement']:.1%} | {h['fit']['log_loss']:.3f} | "
                     f"{ev['win_rate']:.1%} [{ev['win_ci'][0]:.1%}, {ev['win_ci'][1]:.1%}] | {vs} | "
                     f"{'yes' if h['kept'] else 'no'} |")
    if best:
        meaning = dict(features)
        ranked = sorted(zip(manifest["features"], best["weights"]), key=lambda t: -abs(t[1]))
        lines += ["", "## What it weighs most", ""]
        lines += [f"- {name} ({w:+.2f}): {'prefers' if w > 0 else 'avoids'} {meaning.get(name, name)}"
                  for name, w in ranked[:8]]
    return "\n".join(lines) + "\n"


def _bar(total: int, enabled: bool, desc: str):
    import sys

    from tqdm import tqdm
    return tqdm(total=total, disable=not enabled, unit="label", desc=desc, file=sys.stderr)


def read_train(directory: Path) -> dict:
    return read_job(TRAIN, directory, DatasetError)


def train(config: GameConfig, out: Path, request: TrainRequest | None = None, *, workers: int | None = None,
          scheduler: str | None = None, resume: bool = False, overwrite: bool = False, progress: bool = True,
          command: str | None = None) -> Outcome:
    """Train the apprentice of ``config``'s table into ``out`` (see the module docstring)."""
    job = TrainJob(config, request or TrainRequest(), workers=workers, scheduler=scheduler, progress=progress)
    return run_job(job, out, resume=resume, overwrite=overwrite, command=command)


__all__ = ["TRAIN", "TrainRequest", "TrainJob", "train", "fit", "read_train", "write_json"]
