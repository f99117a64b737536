"""``tourney train``: the apprentice learned from the search, round by round (issue 41).

The apprentice is a linear policy: it plays the legal move whose features (the game's
``features.py``, read from the deciding seat's views only) and their curves score highest under
its weights (``simulate/policy.py``). A
training run finds the weights by imitating the search (DAgger / expert iteration: Ross et al.
2011, Anthony et al. 2017):

1. *collect*: play games and, at a share of the decisions, record every legal move's features and
   the move the search (``ismcts`` at ``label_iterations``, more than it plays with) chooses
   there. Round 0 plays the game's strong heuristic (``against``); later rounds play the current
   apprentice with some exploration, so the search labels the positions the student reaches.
   The label budget is the game's (its spec's ``label_scale`` times the playing iterations,
   ``USUAL_LABEL_SCALE`` = 2 by default; a round then labels 30,000 x 2 / scale decisions):
   Colleagues' decisions offer some twenty moves, and at twice the budget a move's value rested
   on a few play-outs: no fit left the guide (at 2 players, the same features fitted to labels of 16 times the budget beat
   dodger-tuned by 4.3 pp);
2. *fit*, on every round's positions so far, over the features, the guide's flag and each
   feature's curve (``x |x|``: :func:`design`): the imitation (the weights that make the search's
   choices most likely under a softmax over each decision's moves: a conditional logit,
   L2-penalised, ``scipy.optimize`` L-BFGS); with ``target`` value (the default), also the value
   fit from there (the weights that maximise the search's own value of the moves such a softmax
   plays: each move's mean reward in the search, less its decision's mean) and the regression of
   those values (least squares); the one whose moves the search values most on held-out
   decisions is made again on all of them (:func:`fit_policy`). Imitating the choices treats every
   disagreement alike; the values say which ones cost (Compañeros, 4 players, the same 30,000
   labels: +3.7 pp over greedy-tuned imitating, +10.0 pp with the values);
3. *evaluate*: the new weights against ``against`` on ``eval_deals`` fresh deals, in every seat
   (field seatings, as ``tourney tune`` plays a candidate), paired with the best weights so far
   on the same deals; the new weights become the best unless they play measurably worse
   (:func:`keeps`).

Everything is seeded: the games of round r are games ``r * GAMES_PER_ROUND ..`` of the seed, which
decisions are labelled is drawn from each game's own stream and each label from its decision's, and
the fit is deterministic, so the same command gives the same weights bit for bit, whatever the
number of workers (they label a few games a task; a round keeps its first ``positions`` in game
order). The directory holds ``_train.json`` (the manifest: every round's figures),
``round-<r>/positions.npz`` (its features and labels, plain arrays), ``round-<r>.toml`` and
``best.toml`` (weights as a strategy setting with the table they were trained for: ``--strategy
apprentice@DIR``; another table refuses them) and
``report.md`` (the learning curve and the largest weights in words). A run killed at any moment
resumes from its last finished round (``--resume``).
"""
from __future__ import annotations

import importlib
import json
import math
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

import numpy as np

from . import __version__
from .backends import SOURCES, open_backend
from .errors import TourneyError
from .games import get_game
from .games.spec import USUAL_LABEL_SCALE
from .games.config import GameConfig
from .jobdir import Job, JobKind, Outcome, now, option, read_job, run_job, write_json
from .policy import curve_name
from .results import DatasetError
from .seeding import FIRST_SEAT_STREAM, new_stream
from .stats.intervals import paired_summary
from .stepper import KernelGame
from .tune import Field, candidate_seatings

TRAIN_FILE = "_train.json"
TRAIN_FORMAT = "tourney-train/2"  # /2: the search's values of each move, the value fit
TRAIN = JobKind("training run", TRAIN_FILE, TRAIN_FORMAT,
                ("format", "game", "players", "options", "seed", "rounds", "positions", "label_iterations",
                 "sample", "explore", "target", "l2", "value_l2", "against", "eval_deals", "start", "sources"))
#: game indices of round r start at r * GAMES_PER_ROUND (each round's games are new deals)
GAMES_PER_ROUND = 1_000_000
#: the label stream of a decision: FIRST_SEAT_STREAM + this + its place in the game
LABEL_STREAM = 1000
#: games a worker labels per task
GAMES_PER_TASK = 4
#: the most labelled decisions a run may hold (rounds x positions): what the fit keeps in memory,
#: some 100-900 bytes each (every legal move's features, float32)
MOST_POSITIONS = 500_000
BEST_FILE = "best.toml"
#: the ridge of :func:`regression`, per decision row (on held-out decisions, 1e-5 .. 1e-4 fit
#: alike, 1e-2 lost most of the curves' gain: scripts/apprentice_ceiling.py's data)
REGRESSION_RIDGE = 1e-4
#: what the weights are fitted to (``--target``)
TARGETS = ("value", "choice")


class TrainError(TourneyError):
    """A training request that cannot run; one line."""


#: a round's labels at the usual label budget (``USUAL_LABEL_SCALE`` times the search's playing
#: iterations)
POSITIONS_AT_USUAL = 30_000


def label_scale(game: str) -> int:
    """How many times its playing iterations the game's search labels a decision with (its spec's
    ``label_scale``: ``USUAL_LABEL_SCALE``, more where a decision offers many moves)."""
    return get_game(game).label_scale


def labels_for(game: str, positions: int) -> int:
    """``positions`` labels at the usual label budget, as many as cost the same at the game's
    (at least 10)."""
    return max(10, int(round(positions * USUAL_LABEL_SCALE / label_scale(game))))


@dataclass(frozen=True)
class TrainRequest:
    """What a training run is asked: the options of ``tourney train`` (and ``api.train``) besides
    the game and where it runs, declared once with their flags and help."""

    players: Optional[int] = option(None, "Number of players (default: 4, or the game's only count).",
                                    "--players", "-p")
    rules: list[str] = option((), "Rule option key=value: the table the apprentice learns; repeatable.", "--rule")
    components: list[str] = option((), "One component value KEY=VALUE of that table; repeatable.", "--component")
    rounds: int = option(6, "Rounds of collect, label, fit, evaluate.", "--rounds", "-r")
    positions: Optional[int] = option(None, f"Decisions the search labels per round (default: {POSITIONS_AT_USUAL:,}, "
                                      "as many fewer as the game labels with a larger search, so a round costs the "
                                      "same: its label_scale, docs/apprentice.md).", "--positions", "-n")
    label_iterations: Optional[int] = option(None, f"The search's iterations per label (default: {USUAL_LABEL_SCALE} "
                                             "times its playing budget, more where the game's decisions need it: "
                                             "its label_scale).")
    sample: float = option(0.3, "Share of the decisions of a collected game that are labelled.")
    explore: float = option(0.1, "Chance that the apprentice plays a random legal move while collecting.")
    target: str = option("value", "What the weights are fitted to: value (the search's value of the moves the "
                         "policy plays, starting from the imitation) or choice (the search's choices only).")
    l2: float = option(0.01, "L2 penalty of the imitation fit, per weight.")
    value_l2: float = option(1e-5, "L2 penalty of the value fit, per weight.")
    against: Optional[str] = option(None, "The strategy it is measured against (default: the study's heuristic "
                                    "level, the game's strongest).")
    eval_deals: int = option(2000, "Fresh deals of each round's evaluation, per seating.")
    start: Optional[str] = option(None, "Weights to start from: a weights file or training run (its best.toml), or "
                                  "\"shipped\" (the weights shipped for this player count, whatever the table). "
                                  "Round 0 then plays them (exploring) instead of the heuristic, and they stay the "
                                  "best until a round's weights play at least as well on this table: retraining "
                                  "for a changed table (default: start from the heuristic).")
    seed: int = option(0, "Seed of the games, the labels and the evaluation.", "--seed", "-s")


def search_values_of(game: str):
    """The game's search reporting what it found (``strategies/<game>.py``: ``ismcts_values``,
    the ``ismcts`` strategy with a ``values`` array: each root move's mean reward)."""
    from tourney_sim.strategies import BUILTIN_MODULES
    return importlib.import_module(BUILTIN_MODULES[game]).ismcts_values


def guide_of(game: str):
    """The game's apprentice's guide (``strategies.common.GUIDES``): a strategy."""
    from tourney_sim.strategies import available
    from tourney_sim.strategies.common import GUIDES
    available(game)  # imports the game's strategies, which declare it
    return GUIDES[game]


def shipped_file(game: str, players: int) -> Path:
    """Where the apprentice weights shipped for ``game`` at ``players`` are (whether or not they exist)."""
    from tourney_sim.strategies.common import shipped_path
    return shipped_path(Path(features_of(game).__file__).parent, players)


def features_of(game: str):
    """The game's features module (``simulate/games/<game>/features.py``), or TrainError."""
    try:
        return importlib.import_module(f"tourney_sim.simulate.games.{game}.features")
    except ModuleNotFoundError:
        raise TrainError(f"{game} declares no apprentice features (simulate/games/{game}/features.py)") from None


# ----------------------------------------------------------------------------- the fit
# Labelled decisions are stored ragged: ``X`` (moves, features) float32, every decision's moves
# one after another; ``starts`` (decisions + 1) where each decision's rows begin; ``y`` the
# labelled move's place among its decision's rows. Memory is the moves that exist, no padding.
def fit(X: np.ndarray, starts: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, dict]:
    """Conditional logit: the weights w maximising sum_i log softmax(scores of decision i's
    moves)[y[i]] - l2 |w|^2 over decisions i, a move's score ``X[row] @ w``. Returns (w,
    {"log_loss", "agreement"}: mean negative log-likelihood and the share of decisions where w's
    best move is the label)."""
    from scipy.optimize import minimize

    n, f = len(y), X.shape[1]
    first = starts[:-1]
    group = np.repeat(np.arange(n), np.diff(starts))
    chosen = first + y

    def loss(w):
        s = (X @ w.astype(np.float32)).astype(np.float64)
        top = np.maximum.reduceat(s, first)
        e = np.exp(s - top[group])
        z = np.add.reduceat(e, first)
        nll = -(s[chosen] - top - np.log(z)).sum() / n
        g = e / z[group]
        g[chosen] -= 1.0
        grad = (g.astype(np.float32) @ X).astype(np.float64) / n
        return nll + l2 * w @ w, grad + 2 * l2 * w

    res = minimize(loss, np.zeros(f), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    w = res.x
    return w, {"log_loss": float(loss(w)[0] - l2 * w @ w), "agreement": agreement(X, starts, y, w)}


def fit_values(X: np.ndarray, starts: np.ndarray, q: np.ndarray, l2: float, w0: np.ndarray,
               limit: float = 100.0) -> tuple[np.ndarray, dict]:
    """The weights w maximising the search's value of the moves a softmax over the scores
    ``X[row] @ w`` plays: mean over decisions of sum_k pi_k A_k, with A_k move k's mean reward
    as the search found it (``q``) less the decision's mean, in units of the advantages' spread;
    a move the search did not try counts as its decision's worst. L2-penalised, from ``w0`` (the
    imitation's weights: the objective is not convex), each weight within ±``limit`` (the
    apprentice's parameter range). Returns (w, {"value": the objective in reward units, "gain":
    its gain over ``w0``})."""
    from scipy.optimize import minimize

    n = len(starts) - 1
    first = starts[:-1]
    group = np.repeat(np.arange(n), np.diff(starts))
    a = advantages(starts, q)
    scale = float(a.std()) or 1.0
    a = a / scale

    def loss(w):
        s = (X @ w.astype(np.float32)).astype(np.float64)
        top = np.maximum.reduceat(s, first)
        e = np.exp(s - top[group])
        p = e / np.add.reduceat(e, first)[group]
        value = np.add.reduceat(p * a, first)
        g = p * (a - value[group])
        grad = (g.astype(np.float32) @ X).astype(np.float64) / n
        return -value.mean() + l2 * w @ w, -grad + 2 * l2 * w

    start = -loss(w0)[0] + l2 * w0 @ w0
    res = minimize(loss, np.clip(np.asarray(w0, np.float64), -limit, limit), jac=True, method="L-BFGS-B",
                   bounds=[(-limit, limit)] * X.shape[1], options={"maxiter": 500})
    w = res.x
    end = -loss(w)[0] + l2 * w @ w
    return w, {"value": end * scale, "gain": (end - start) * scale}


def advantages(starts: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Each move's value as the search found it less its decision's mean (float64, one per row);
    a move the search did not try counts as its decision's worst, a decision it did not search
    (every value missing) has none."""
    n = len(starts) - 1
    first = starts[:-1]
    group = np.repeat(np.arange(n), np.diff(starts))
    q = q.astype(np.float64)
    tried = ~np.isnan(q)
    lowest = np.minimum.reduceat(np.where(tried, q, np.inf), first)
    q = np.where(tried, q, lowest[group])
    q = np.where(np.isfinite(q), q, 0.0)
    return q - (np.add.reduceat(q, first) / np.diff(starts))[group]


def played_value(X: np.ndarray, starts: np.ndarray, q: np.ndarray, w: np.ndarray) -> float:
    """The mean advantage (:func:`advantages`) of the moves the weights play (each decision's
    best-scored, the first of equals): what the policy itself gains by the search's values."""
    first = starts[:-1]
    group = np.repeat(np.arange(len(first)), np.diff(starts))
    s = X.astype(np.float64) @ np.asarray(w, np.float64)
    top = np.maximum.reduceat(s, first)
    rows = np.where(s == top[group], np.arange(len(s)), len(s))
    return float(advantages(starts, q)[np.minimum.reduceat(rows, first)].mean())


def regression(X: np.ndarray, starts: np.ndarray, q: np.ndarray, ridge: float = REGRESSION_RIDGE,
               largest: float = 10.0) -> np.ndarray:
    """The weights whose score best predicts each move's advantage (:func:`advantages`): least
    squares, ridge ``ridge`` per decision row, convex and exact. A score predicting the search's
    values needs no softmax's temperature, and noisy labels average out; its best-scored move is
    the policy's. Scaled so that the largest weight is ``largest`` (the moves played do not change)."""
    A = X.astype(np.float64)
    gram = A.T @ A + ridge * len(A) * np.eye(A.shape[1])
    w = np.linalg.solve(gram, A.T @ advantages(starts, q))
    top = float(np.abs(w).max())
    return w * (largest / top) if top > 0 else w


def decisions_subset(X: np.ndarray, starts: np.ndarray, q: np.ndarray, keep: np.ndarray):
    """(rows, starts, values) of the decisions ``keep`` (a boolean per decision) of a ragged set."""
    lengths = np.diff(starts)
    rows = np.repeat(keep, lengths)
    return X[rows], np.concatenate([[0], np.cumsum(lengths[keep])]), q[rows]


def fit_policy(X: np.ndarray, starts: np.ndarray, q: np.ndarray, y: np.ndarray, l2: float, value_l2: float,
               guide: int, limit: float = 100.0) -> tuple[np.ndarray, dict]:
    """The weights of the fit whose own moves (not a softmax's) the search values most on decisions
    it did not see (:func:`played_value` on every fifth decision, each fit made on the others),
    made again on every decision. The fits: the imitation (:func:`fit`, L2 ``l2``); the value fit
    (:func:`fit_values`, L2 ``value_l2``) from the imitation's weights, and from the same without
    the guide's (column ``guide``: the imitation leans on the guide so hard that the fit from there
    may never leave it); the regression of the search's values (:func:`regression`). Held-out
    decisions, not the fitted ones, choose: the value fit maximises the very figure it would be
    chosen by, label noise included (Compañeros at 3 players, 2 rounds: it won in-sample, the
    regression on held-out games)."""
    def unguided(w):
        w = np.array(w, np.float64)
        w[guide] = 0.0
        return w

    fits = {  # name: (X, starts, q, y, the imitation's weights) -> weights
        "imitation": lambda X, starts, q, y, imitation: imitation,
        "value fit from the imitation": lambda X, starts, q, y, imitation:
            fit_values(X, starts, q, value_l2, imitation, limit)[0],
        "value fit from the imitation without the guide": lambda X, starts, q, y, imitation:
            fit_values(X, starts, q, value_l2, unguided(imitation), limit)[0],
        "regression of the search's values": lambda X, starts, q, y, imitation:
            np.clip(regression(X, starts, q), -limit, limit),
    }

    n = len(starts) - 1
    held = np.arange(n) % 5 == 4
    Xa, sa, qa = decisions_subset(X, starts, q, ~held)
    Xb, sb, qb = decisions_subset(X, starts, q, held)
    imitation = fit(Xa, sa, y[~held], l2)[0]
    scored = []  # (held-out value, fitted decisions' value, name)
    for name, make in fits.items():
        w = make(Xa, sa, qa, y[~held], imitation)
        scored.append((played_value(Xb, sb, qb, w), played_value(Xa, sa, qa, w), name))
    # where the held-out decisions cannot tell fits apart (they play the same moves there: in
    # Colleagues, whose labels value only the guide's favourite moves, often all of them), the
    # fitted decisions do; then the first
    best_value, _, chosen = max(scored, key=lambda t: t[:2])
    w = fits[chosen](X, starts, q, y, fit(X, starts, y, l2)[0])  # made again on every decision
    return w, {"start": chosen, "held_out_played_value": best_value,
               "held_out": {name: value for value, _, name in scored}, "played_value": played_value(X, starts, q, w)}


def design(X: np.ndarray, f: int) -> np.ndarray:
    """The stored rows (``f`` features, then whether the guide plays the move) as the weights read
    them: the features, the guide's flag, then each feature's curve ``x |x|`` (the apprentice's
    parameters in order, :func:`tourney_sim.strategies.common.apprentice`)."""
    features = X[:, :f]
    return np.hstack([X[:, :f + 1], features * np.abs(features)]).astype(np.float32)


def fitted_columns(X: np.ndarray, f: int) -> np.ndarray:
    """``X`` (the columns of :func:`design`) as the fits see it: the curve of a feature whose
    every value is -1, 0 or 1 in these rows (a yes/no feature) is the feature itself, so its
    column is zeroed and its weight fitted as 0 (an L2 or ridge penalty and a zero column give
    exactly 0): the feature's own weight says it once, where two equal columns split it (the
    report showed Colleagues' ``grey_reveal`` +2.12 and ``curve_grey_reveal`` +2.12). Scores of
    the weights on :func:`design`'s rows are the kernel's."""
    curves = X[:, f + 1:2 * f + 1]
    same = np.all(curves == X[:, :f], axis=0)
    if not same.any():
        return X
    out = X.copy()
    out[:, f + 1:2 * f + 1][:, same] = 0.0
    return out


def agreement(X: np.ndarray, starts: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Share of the decisions where the weights' best move (the first of equal scores, as the
    apprentice plays) is the label."""
    if len(y) == 0:
        return math.nan
    first = starts[:-1]
    group = np.repeat(np.arange(len(y)), np.diff(starts))
    s = X.astype(np.float64) @ np.asarray(w, np.float64)
    top = np.maximum.reduceat(s, first)
    rows = np.where(s == top[group], np.arange(len(s)), len(s))
    return float((np.minimum.reduceat(rows, first) - first == y).mean())


def label_games(task: dict, first_game: int, n_games: int) -> dict:
    """The labelled decisions of games ``first_game ..`` (``n_games``) of a round (a worker's
    task): each game played by ``task["player"]`` (a setting text) and, at a share
    ``task["sample"]`` of its decisions with more than one move (drawn from the game's own
    stream), every legal move's features and the move the search (``task["label"]``) chooses,
    from the decision's own stream. Depends only on the task and the game indices."""
    from tourney_sim.strategies import resolve
    config = GameConfig.from_record(task["game"], task["players"], task["options"], rules=task["rules"])
    features = features_of(config.game)
    player, labeller = resolve(config.game, [task["player"], task["label"]])
    label_row, label_fn = labeller.param_row(), search_values_of(config.game)
    guide = guide_of(config.game)
    guide_row, no_stream = guide.param_row(), np.zeros(4, np.uint64)  # the guides draw nothing
    spec, params, seed, f = config.spec, config.params(), task["seed"], features.N_FEATURES
    rows, starts, labels, games, values = [], [0], [], [], []
    for game in range(first_game, first_game + n_games):
        sample_rng = np.random.default_rng([seed, game, 7])
        g = KernelGame(spec, params, seed, game)
        step = 0
        while (seat := g.to_move()) >= 0:
            n = g._legal()
            if n > 1 and sample_rng.random() < task["sample"]:
                public, private = g.m.public_view(g.state), g.m.private_view(g.state, seat)
                x = np.zeros((n, f))
                features.move_features(public, private, g.moves, n, x)
                out = np.zeros((n, f + 1))  # the features, then whether the guide plays the move
                out[:, :f] = x
                out[guide.fn(public, private, g.moves, n, no_stream, guide_row), f] = 1.0
                rng = new_stream(seed, game, FIRST_SEAT_STREAM + LABEL_STREAM + step)
                rows.append(out.astype(np.float32))
                starts.append(starts[-1] + n)
                found = np.full(n, np.nan)
                labels.append(int(label_fn(public, private, g.moves, n, rng, label_row, found)))
                values.append(found.astype(np.float32))
                games.append(game)
            g.apply(g.choose(player))
            step += 1
    return {"X": np.concatenate(rows) if rows else np.zeros((0, f + 1), np.float32),
            "starts": np.array(starts, np.int64), "y": np.array(labels, np.int64), "game": np.array(games, np.int64),
            "q": np.concatenate(values) if values else np.zeros(0, np.float32)}


def join(parts: list[dict], limit: int | None = None) -> dict:
    """Labelled decisions of several parts, in order, one ragged set; the first ``limit`` only."""
    X, starts, y, games, q, offset = [], [np.zeros(1, np.int64)], [], [], [], 0
    for p in parts:
        X.append(p["X"])
        q.append(p["q"])
        starts.append(p["starts"][1:] + offset)
        offset += len(p["X"])
        y.append(p["y"])
        games.append(p["game"])
    out = {"X": np.concatenate(X), "starts": np.concatenate(starts), "y": np.concatenate(y),
           "game": np.concatenate(games), "q": np.concatenate(q)}
    if limit is not None and len(out["y"]) > limit:
        end = out["starts"][limit]
        out = {"X": out["X"][:end], "starts": out["starts"][:limit + 1], "y": out["y"][:limit],
               "game": out["game"][:limit], "q": out["q"][:end]}
    return out


# ----------------------------------------------------------------------------- the job
class TrainJob(Job):
    """``tourney train`` (see the module docstring)."""

    kind = TRAIN

    def __init__(self, config: GameConfig, r: TrainRequest, *, workers: int | None, scheduler: str | None,
                 progress: bool):
        from tourney_sim.strategies import resolve
        from .study import BUDGETS, level_strategies
        if r.positions is None:  # the game's default: as many labels as its label budget affords
            r = replace(r, positions=labels_for(config.game, POSITIONS_AT_USUAL))
        self.config, self.r, self.workers, self.scheduler, self.progress = config, r, workers, scheduler, progress
        self.features = features_of(config.game)
        for name, v, least, most in (("--rounds", r.rounds, 1, 50), ("--positions", r.positions, 10, MOST_POSITIONS),
                                     ("--eval-deals", r.eval_deals, 2, 1_000_000)):
            if not least <= v <= most:
                raise TrainError(f"{name} must be from {least:,} to {most:,}, got {v:,}")
        if r.rounds * r.positions > MOST_POSITIONS:
            raise TrainError(f"--rounds x --positions must be at most {MOST_POSITIONS:,} labelled decisions "
                             f"(the fit holds them all in memory), got {r.rounds * r.positions:,}")
        for name, v in (("--sample", r.sample), ("--explore", r.explore)):
            if not 0.0 <= v <= 1.0 or (name == "--sample" and v == 0.0):
                raise TrainError(f"{name} must be a share from 0 to 1, got {v}")
        if r.l2 < 0 or r.value_l2 < 0:
            raise TrainError(f"--l2 and --value-l2 must be 0 or more, got {r.l2} and {r.value_l2}")
        if r.target not in TARGETS:
            raise TrainError(f"--target must be one of {', '.join(TARGETS)}, got {r.target!r}")
        (search,) = resolve(config.game, ["ismcts"])
        most = next(p.high for p in search.params if p.name == "iterations")
        if r.label_iterations is not None and not 1 <= r.label_iterations <= most:
            raise TrainError(f"--label-iterations must be from 1 to {most:,}, got {r.label_iterations:,}")
        iterations = r.label_iterations or label_scale(config.game) * int(search.settings()["iterations"])
        (self.labeller,) = resolve(config.game, [f"ismcts:iterations={iterations}"])
        self.iterations = iterations
        self.against = r.against or level_strategies(config.game, BUDGETS["standard"])["heuristic"]
        (self.opponent,) = resolve(config.game, [self.against])
        (self.student,) = resolve(config.game, ["apprentice:explore=0"])  # its weights set per round
        self.limit = min(p.high for p in self.student.params if p.name != "explore")
        self.start = None if r.start is None else self.start_weights(r.start)
        self.backend = None

    def start_weights(self, start: str) -> list[float]:
        """The weights ``--start`` names, in the features' order: a weights file (or a training
        run's folder: its best.toml) made for this game, or ``shipped``: those shipped for this
        player count (made for the shipped table; a start need not be this table's)."""
        from tourney_sim.strategies import StrategyError
        from tourney_sim.strategies.params import ParamError, read_toml
        c = self.config
        path = str(shipped_file(c.game, c.players)) if start == "shipped" else start
        if start == "shipped" and not Path(path).exists():
            raise TrainError(f"--start shipped: no weights are shipped for {c.game} at {c.players} players")
        try:
            values, _, made_for = read_toml(path, self.student.name, "--start")
            if made_for is not None and made_for.get("game") != c.game:
                raise TrainError(f"--start: {path} holds weights for {made_for.get('game')}, not {c.game}")
            # weights from before the curves had none: theirs are 0, as they played
            missing = [name for name in self.features_names()[:self.features.N_FEATURES + 1] if name not in values]
            if missing:
                raise TrainError(f"--start: {path} holds no weight for {', '.join(missing[:3])}"
                                 + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
                                 + " (give a weights file tourney train wrote, or \"shipped\")")
            settings = self.student.with_settings(values, "--start").settings()
        except (ParamError, StrategyError) as exc:
            raise TrainError(str(exc)) from None
        return [float(settings[name]) for name in self.features_names()]

    def prepare(self, old: dict | None) -> dict:
        r, c = self.r, self.config
        return {"format": TRAIN_FORMAT, "tool": "tourney", "tool_version": __version__, "game": c.game,
                "players": c.players, "options": c.options, "rules": c.rules, "seed": r.seed, "rounds": r.rounds,
                "positions": r.positions, "label_iterations": self.iterations, "sample": r.sample,
                "explore": r.explore, "target": r.target, "l2": r.l2, "value_l2": r.value_l2,
                "against": self.opponent.setting, "eval_deals": r.eval_deals, "start": self.start,
                "start_from": r.start,
                "features": self.features_names(), "guide": guide_of(c.game).label, "sources": SOURCES,
                "command": self.command, "status": "running", "created": now(), "history": [], "best": None}

    def adopt(self, old: dict, manifest: dict) -> list[str]:
        manifest["history"], manifest["best"] = old.get("history") or [], old.get("best")
        return [f"resuming: {len(manifest['history'])} of {self.r.rounds} rounds done"]

    def begin(self, manifest: dict) -> None:
        super().begin(manifest)
        if self.start is not None and manifest["best"] is None:
            # the start is the best until a round plays at least as well on this table
            manifest["best"] = {"round": None, "weights": list(self.start), "win_rate": None}
            (self.dir.path / BEST_FILE).write_text(weights_toml(self, self.start, f"the start ({self.r.start}), "
                                                               "no round's weights kept yet"))
            self.dir.write(manifest)

    # ------------------------------------------------------------------ one round
    def collect(self, k: int, weights: np.ndarray | None) -> dict:
        """Round ``k``'s labelled decisions (ragged: see :func:`fit`), played by the heuristic
        (``weights`` None) or the apprentice with those weights and exploration: the first
        ``positions`` of games ``k * GAMES_PER_ROUND ..`` in order, labelled on the workers a few
        games a task. Which decisions they are does not depend on the workers or their order."""
        c, r = self.config, self.r
        player = self.opponent if weights is None else self.student.with_settings(
            {**dict(zip(self.features_names(), (float(w) for w in weights))), "explore": r.explore})
        task = {"game": c.game, "players": c.players, "options": c.options, "rules": c.rules, "seed": r.seed,
                "sample": r.sample, "player": player.setting, "label": self.labeller.setting}
        done: dict[int, dict] = {}
        have = 0

        def tasks():
            batch = 0
            while have < r.positions:  # read lazily: stops once the finished tasks hold enough
                yield batch, (task, k * GAMES_PER_ROUND + batch * GAMES_PER_TASK, GAMES_PER_TASK)
                batch += 1

        bar = _bar(r.positions, self.progress, f"round {k}: labelling")

        def on_done(batch: int, part: dict) -> None:
            nonlocal have
            done[batch] = part
            have += len(part["y"])
            bar.update(min(len(part["y"]), r.positions - bar.n))

        try:
            self.backend.map(label_games, tasks(), on_done)
        finally:
            bar.close()
        return join([done[b] for b in sorted(done)], r.positions)

    def features_names(self) -> list[str]:
        """The weights' names, as the apprentice's parameters: the features, the guide, then the
        features' curves (the columns of :func:`design`)."""
        names = [name for name, _ in self.features.FEATURES]
        return names + ["guide"] + [curve_name(name) for name in names]

    def setting(self, weights) -> object:
        return self.student.with_settings(dict(zip(self.features_names(), (float(w) for w in weights))))

    def evaluate(self, k: int, weights, best) -> dict:
        """Round ``k``'s weights against the opponent on fresh deals, paired with ``best``'s and
        with the opponent's own games in the same seats (everyone the opponent, same deals): what
        the weights win is read against what the opponent itself wins there, not against an even
        share (draws and games nobody wins leave it below 1 / seatings)."""
        c, r = self.config, self.r
        seatings = candidate_seatings(c.players, c.spec.team_game)
        where = self.dir.path / f"round-{k}" / "evaluation"
        field = Field(c, [self.opponent.label], r.seed + 1 + k, r.eval_deals, "win", seatings)
        mine = field.play(self.setting(weights), where / "new", self.backend)
        itself = field.play(self.opponent, where / "opponent", self.backend)
        out = {"win_rate": float(mine.mean()), "win_ci": paired_summary(mine, mine)["best_ci"],
               "opponent_win_rate": float(itself.mean()), "against_opponent": paired_summary(mine, itself)}
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
                new = self.collect(k, best)
                round_dir = self.dir.path / f"round-{k}"
                round_dir.mkdir(exist_ok=True)
                np.savez(round_dir / "positions.npz", **new)
                everything = self.positions(k + 1)
                f = self.features.N_FEATURES
                X = design(everything["X"], f)
                fitted = fitted_columns(X, f)
                w, figures = fit(fitted, everything["starts"], everything["y"], r.l2)
                if r.target == "value":
                    w, valued = fit_policy(fitted, everything["starts"], everything["q"], everything["y"], r.l2,
                                           r.value_l2, f, self.limit)
                    figures = {**figures, "imitation_agreement": figures["agreement"], "value_start": valued["start"],
                               "played_value": valued["played_value"],
                               "held_out_played_value": valued["held_out"],
                               "agreement": agreement(X, everything["starts"], everything["y"], w)}
                del X, fitted
                # how often the weights so far already agreed with the search on the new positions
                held_out = (agreement(design(new["X"], f), new["starts"], new["y"], best)
                            if best is not None else None)
                ev = self.evaluate(k, w, best)
                kept = best is None or keeps(ev["against_best"])
                entry = {"round": k, "positions": int(len(new["y"])), "fit": figures,
                         "best_agreement_on_new": held_out, "evaluation": ev, "weights": [float(x) for x in w],
                         "kept": bool(kept)}
                (self.dir.path / f"round-{k}.toml").write_text(weights_toml(self, w, f"round {k}"))
                manifest["history"].append(entry)
                if kept:
                    manifest["best"] = {"round": k, "weights": entry["weights"], "win_rate": ev["win_rate"]}
                    (self.dir.path / BEST_FILE).write_text(weights_toml(self, w, f"best: round {k}"))
                self.dir.write(manifest)  # a run killed from here on keeps this round
        finally:
            self.close()
        return "complete"

    def positions(self, rounds: int) -> dict:
        """Every labelled decision of the first ``rounds`` rounds (DAgger aggregates them)."""
        return join([dict(np.load(self.dir.path / f"round-{k}" / "positions.npz", allow_pickle=False))
                     for k in range(rounds)])

    def close(self) -> None:
        if self.backend is not None:
            self.backend.close()
            self.backend = None


def keeps(against_best: dict) -> bool:
    """Whether a round's new weights replace the best so far: unless they play measurably worse
    on the same deals (the difference's 95% interval below 0). They are fitted on every position
    so far, the newest played by the student itself, so they are expected to be at least as good;
    the evaluation guards against a fit that is not, without chasing noise either way (a
    positive difference that is noise would otherwise win whenever it appears)."""
    return against_best["difference_ci"][1] >= 0.0


def weights_toml(job: TrainJob, weights, what: str) -> str:
    """Weights as a strategy setting file (``--strategy apprentice@FILE``), with the table they
    were trained for (``[table]``: a game of another table refuses them)."""
    c = job.config
    lines = [f"# tourney train: {what}, {c.describe()}",
             f"# made by: {job.command}" if job.command else "# made with the tourney_sim API",
             'strategy = "apprentice"', "", "[table]", f"game = {json.dumps(c.game)}", f"players = {c.players}",
             f"rules = [{', '.join(json.dumps(rule) for rule in c.rules)}]", f"id = {json.dumps(c.table_id)}",
             "", "[params]"]
    lines += [f"{name} = {float(w)!r}" for name, w in zip(job.features_names(), weights)]
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
