"""``tourney tune``: the strongest settings of a strategy's parameters, found with optuna.

A *trial* is one setting of the candidate's parameters, played against every strategy of the
field (``against``) in a duplicate mini-tournament: for each opponent, every *seating* of the
candidate against it (team games: the candidate's team at the even seats, then at the odd seats;
otherwise: the candidate in each seat in turn, the opponent in all others), each on the same
``deals`` deals (seed ``seed``, deal i = game i). Every trial plays the *same* deals (common random
numbers), so the difference between two trials is their settings, not their luck.

The objective is the candidate's mean result over all those games: its win rate (a shared first
place counts as a win; in team games the team's), or with ``objective="margin"`` its score minus
the mean score of the others at the table (the sign turned for games where the lowest score wins).

optuna proposes the settings (TPE or CMA-ES, seeded). Its study lives in the output directory
(``study.journal``, an optuna journal file: ``optuna.load_study(study_name="tune",
storage=JournalStorage(JournalFileBackend(path)))`` reads it), so ``resume`` continues after a
kill. Reproducibility: the first trial is the strategy's defaults; the sampler of trial k is
seeded from (seed, k) and sees only the finished trials, so the same command gives the same
study, whether it ran in one go or was killed and resumed (a trial cut short by the kill is
marked failed and played again).

At the end, a *confirmation* on fresh deals (seed ``confirm_seed``, ``confirm_deals`` deals): the
best setting and the defaults each play the same seatings against the same field on the same
deals; the per-deal difference of their results gives a paired mean with its 95% interval and a
two-sided p-value (t-test over deals). Over-fitting to the tuning deals shows as a confirmation
far below the tuning figure.

The directory: ``_tune.json`` (format ``tourney-tune/1``: the request, every trial, the best
setting, the confirmation), ``study.journal``, ``best.toml`` (``tourney run --strategy
NAME@best.toml``), and ``confirmation/best`` and ``confirmation/defaults`` (ordinary datasets,
one per seating, that ``tourney report`` and ``tourney verify`` read).
"""
from __future__ import annotations

import shutil
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

import numpy as np

from tourney_sim.strategies import Strategy, StrategyError, resolve, short_names
from tourney_sim.strategies.params import Param, file_label

from . import __version__
from .backends import SOURCES, open_backend
from .errors import TourneyError
from .games.config import GameConfig
from .jobdir import Job, JobKind, Outcome, now, option, read_job, run_job
from .matchup import make_matchup
from .results import DatasetError
from .runner import DEFAULT_CHUNK, fit_chunk
from .stats.intervals import paired_summary
from .stats.measures import MEASURES, candidate_result, names

TUNE_FILE = "_tune.json"
TUNE_FORMAT = "tourney-tune/1"
STUDY_FILE = "study.journal"
STUDY_NAME = "tune"
#: the best setting, as ``NAME@DIR/best.toml`` reads it (its short name: NAME@best)
BEST_FILE = "best.toml"
SAMPLERS = ("tpe", "cmaes")
OBJECTIVES = names("tune")
#: suggested real values are rounded to this many significant digits (short labels, exact TOML)
DIGITS = 4
#: what a resumed study must share with the one it continues
RESUME_KEYS = ("game", "players", "options", "strategy", "tuned", "against", "deals", "seed",
               "sampler", "objective", "sources")
#: a tuning run as a job directory
TUNE = JobKind("tuning run", TUNE_FILE, TUNE_FORMAT, RESUME_KEYS)


class TuneError(TourneyError):
    """A bad tuning request; the message is one line for the user."""


# ----------------------------------------------------------------------------- the field
def candidate_seatings(n_players: int, team_game: bool) -> list[tuple[int, ...]]:
    """The seats the candidate holds in each seating: its team at the even, then at the odd
    seats (team games); else each seat in turn."""
    if team_game:
        return [tuple(range(0, n_players, 2)), tuple(range(1, n_players, 2))]
    return [(k,) for k in range(n_players)]


@dataclass
class Field:
    """Where a setting is played: the game, the opponents, the seatings, the deals."""

    config: GameConfig  # the game as tuned
    against: list[str]  # opponent labels
    seed: int
    deals: int
    objective: str
    seatings: list[tuple[int, ...]] = field(default_factory=list)

    def tables(self, label: str) -> list[tuple[str, list[str], tuple[int, ...]]]:
        """(name, seats, the candidate's seats) of every table the setting ``label`` plays: per
        opponent, per seating."""
        out = []
        for i, opponent in enumerate(self.against):
            for j, mine in enumerate(self.seatings):
                seats = [label if s in mine else opponent for s in range(self.config.players)]
                out.append((f"o{i}-s{j}", seats, mine))
        return out

    def play(self, candidate: Strategy, directory: Path, backend, chunk_size: int | None = None) -> np.ndarray:
        """The candidate's result per table and deal, float[tables, deals]; each table is an
        ordinary dataset under ``directory`` (replaced), the candidate in it under its label."""
        from .runner import run
        rows = []
        for name, seats, mine in self.tables(candidate.label):
            m = make_matchup(self.config, seats, seed=self.seed, rotate=False, settings=short_names([candidate]))
            out = directory / name
            if out.exists():
                shutil.rmtree(out)
            run(m, self.deals, out, chunk_size=chunk_size, progress=False, backend=backend, command=None)
            rows.append(candidate_result(out, self.config.players, list(mine), self.deals, self.objective,
                                         self.config.spec.better))
        return np.vstack(rows)


# ----------------------------------------------------------------------------- optuna
def _optuna():
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # a trial cut short by Ctrl-C: no traceback
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


def open_study(out: Path, create: bool, name: str = STUDY_NAME, file: str = STUDY_FILE,
               directions: list[str] | None = None):
    """The optuna study in ``out / file`` (a journal file: resumable after a kill), made when
    ``create`` (one direction, maximise, unless ``directions`` names several)."""
    optuna = _optuna()
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend
    storage = JournalStorage(JournalFileBackend(str(out / file)))
    if create:
        if directions:
            return optuna.create_study(study_name=name, storage=storage, directions=directions)
        return optuna.create_study(study_name=name, storage=storage, direction="maximize")
    return optuna.load_study(study_name=name, storage=storage)


def fail_stale(study, waiting: bool = False) -> list:
    """Mark the trials a kill cut short (still running in the journal; ``waiting``: also those
    enqueued and not yet started) failed, so they are played again under the next number;
    returns them."""
    optuna = _optuna()
    states = (optuna.trial.TrialState.RUNNING,) + ((optuna.trial.TrialState.WAITING,) if waiting else ())
    stale = [t for t in study.get_trials(deepcopy=False) if t.state in states]
    for t in stale:
        study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
    return stale


def sampler_for(kind: str, seed: int, k: int, space: list[Param], n_trials: int):
    """The sampler that proposes trial k: seeded from (seed, k), so a resumed study proposes
    what an uninterrupted one would have."""
    optuna = _optuna()
    s = (seed * 1_000_003 + k * 7_919) % (2**32 - 1)
    startup = max(5, min(20, n_trials // 5))
    if kind == "tpe":
        return optuna.samplers.TPESampler(seed=s, n_startup_trials=startup)
    numeric = {p.name: p.default for p in space if p.kind != "choice"}
    sigma = 1 / 6  # optuna scales every dimension to [0, 1]: a sixth of each range
    return optuna.samplers.CmaEsSampler(x0=numeric or None, sigma0=sigma, seed=s, n_startup_trials=0,
                                        warn_independent_sampling=False)


def suggest(trial, p: Param):
    """The value of ``p`` for this trial, as a setting holds it."""
    if p.kind == "choice":
        return trial.suggest_categorical(p.name, list(p.choices))
    if p.kind == "int":
        return trial.suggest_int(p.name, int(p.low), int(p.high))
    v = trial.suggest_float(p.name, p.low, p.high)
    return min(p.high, max(p.low, float(f"{v:.{DIGITS}g}")))


# ----------------------------------------------------------------------------- the run
def toml_text(strategy: Strategy, game: str, comment: list[str]) -> str:
    """A setting as a TOML file that ``NAME@file.toml`` reads (every parameter's value)."""
    lines = [f"# {c}" for c in comment]
    lines += [f'strategy = "{strategy.name}"', f'game = "{game}"', "", "[params]"]
    for p in strategy.params:
        v = strategy.settings()[p.name]
        text = f'"{v}"' if p.kind == "choice" else str(int(v)) if p.kind == "int" else repr(float(v))
        lines.append(f"{p.name} = {text}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class TuneRequest:
    """What a tuning run is asked: the options of ``tourney tune`` (and ``api.tune``) besides the
    game and where it runs, declared once with their flags and help."""

    strategy: str = option(..., "The strategy to tune (a setting such as NAME@file.toml is the starting point); "
                           "see `tourney strategies GAME --params`.", "--strategy")
    against: list[str] = option((), "A strategy of the field it is tuned against; repeat it. Every trial plays "
                                "every one of them on the same deals.", "--against")
    trials: int = option(100, "Settings to try (the first is the starting setting).", "--trials", "-t")
    deals: int = option(2000, "Deals per trial, each played in every seating against every --against strategy; "
                        "the same deals for every trial.", "--deals", "-n")
    seed: int = option(0, "Seed of the tuning deals and of the sampler.", "--seed", "-s")
    players: Optional[int] = option(None, "Number of players (default: 4, or the game's only count).",
                                    "--players", "-p")
    rules: list[str] = option((), "Rule option key=value (see `tourney games`); repeatable.", "--rule")
    components: list[str] = option((), "One component value KEY=VALUE set over the defaults or --rule "
                                   "components=FILE, e.g. tokens.plus10=12 or work.values[3]=2 (a list entry, from "
                                   "1); repeatable. Keys: docs/components.md.", "--component")
    params: list[str] = option((), "Tune only this parameter; repeatable (default: all of the strategy's "
                               "parameters).", "--param")
    sampler: str = option("tpe", "optuna sampler: tpe (any parameters) or cmaes (CMA-ES, for real and integer "
                          "parameters).")
    objective: str = option("win", "win: the mean win rate against the field; margin: the mean score margin over "
                            "the other players.")
    confirm_deals: Optional[int] = option(None, "Fresh deals on which the best setting is confirmed against the "
                                          "starting one (default: 5 x --deals).")
    confirm_seed: Optional[int] = option(None, "Seed of the confirmation deals (default: --seed + 1).")


class TuneJob(Job):
    """``tourney tune``: trials of a strategy's settings against a field, then the best one
    confirmed on fresh deals (see :func:`tune`)."""

    kind = TUNE

    def __init__(self, config: GameConfig, strategy, against, *, trials, deals, seed, sampler, objective,
                 params, confirm_deals, confirm_seed, workers, scheduler, progress):
        game, spec, n_players = config.game, config.spec, config.players
        if sampler not in SAMPLERS:
            raise TuneError(f"--sampler must be one of {', '.join(SAMPLERS)}, got {sampler!r}")
        if objective not in OBJECTIVES:
            raise TuneError(f"--objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        if trials < 1 or deals < 1:
            raise TuneError("--trials and --deals must be positive")
        confirm_deals = 5 * deals if confirm_deals is None else confirm_deals
        if confirm_deals < 2:
            raise TuneError(f"--confirm-deals must be at least 2, got {confirm_deals}")
        fit_chunk(deals, None, DEFAULT_CHUNK, "--deals")  # more than a dataset holds: refused
        fit_chunk(confirm_deals, None, DEFAULT_CHUNK, "--confirm-deals")
        if not (0 <= seed < 2**64):
            raise TuneError(f"--seed must be an integer from 0 to {2**64 - 1}, got {seed}")
        confirm_seed = (seed + 1) % 2**64 if confirm_seed is None else confirm_seed
        if confirm_seed == seed:
            raise TuneError("--confirm-seed must differ from --seed: the confirmation plays fresh deals")
        (base,) = resolve(game, [strategy])
        if not base.params:
            raise TuneError(f"strategy {base.name!r} has no parameters to tune "
                            f"(see `tourney strategies {game} --params`)")
        by_name = {p.name: p for p in base.params}
        names = params or [p.name for p in base.params]
        unknown = [n for n in names if n not in by_name]
        if unknown:
            raise StrategyError(f"strategy {base.name}: no parameter {unknown[0]!r} "
                                f"(parameters: {', '.join(by_name)})")
        if not against:
            raise TuneError("give the field to tune against with --against (one or more strategies)")
        field_labels = [s.setting for s in resolve(game, list(against))]
        field_names = [s.name for s in resolve(game, list(against))]
        if base.name in field_names:
            raise TuneError(f"{base.name!r} is both the candidate and in --against: the field must be other "
                            f"strategies (a trial could play the very setting it meets)")
        if len(set(field_labels)) != len(field_labels):
            raise TuneError("a strategy is given twice in --against")
        self.config, self.game, self.base = config, game, base
        self.space = [by_name[n] for n in names]
        self.field_labels, self.seatings = field_labels, candidate_seatings(n_players, spec.team_game)
        self.trials, self.deals, self.seed, self.sampler, self.objective = trials, deals, seed, sampler, objective
        self.confirm_deals, self.confirm_seed = confirm_deals, confirm_seed
        self.workers, self.scheduler, self.progress = workers, scheduler, progress
        self.request = {"game": game, "players": n_players, "options": config.options, "strategy": base.setting,
                        "tuned": names, "against": field_labels, "deals": deals, "seed": seed,
                        "sampler": sampler, "objective": objective, "sources": SOURCES}
        self.backend = None

    def prepare(self, old: dict | None) -> dict:
        self.resuming = old is not None
        return {"format": TUNE_FORMAT, "tool": "tourney", "tool_version": __version__, **self.request,
                "space": [{"name": p.name, "kind": p.kind, "low": p.low, "high": p.high,
                           "choices": list(p.choices), "default": p.default, "help": p.help} for p in self.space],
                "base_setting": self.base.settings(), "seatings": [list(s) for s in self.seatings],
                "trials": self.trials, "confirm_deals": self.confirm_deals, "confirm_seed": self.confirm_seed,
                "command": self.command, "status": "running", "created": now()}

    def play(self, manifest: dict) -> str:
        out, base, space, trials = self.dir.path, self.base, self.space, self.trials
        study = open_study(out, create=not self.resuming or not (out / STUDY_FILE).exists())
        optuna = _optuna()
        stale = fail_stale(study)  # cut short by a kill: played again under the next number
        if not self.resuming or not study.trials:
            study.enqueue_trial({p.name: p.default if p.kind != "real" else float(p.default) for p in space})
        done = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
        if self.resuming:
            self.notes.append(f"resuming: {len(done)} of {trials} trials done"
                              + (f", {len(stale)} cut short by the interruption played again" if stale else ""))
        tune_field = Field(self.config, self.field_labels, self.seed, self.deals, self.objective,
                           self.seatings)
        work = out / "trials"
        self.backend = backend = open_backend(self.workers, self.scheduler)
        backend.check(make_matchup(self.config, [base.setting] + self.field_labels[:1],
                                   seed=self.seed).describe())

        def objective_fn(trial):
            setting = base.with_settings({p.name: suggest(trial, p) for p in space})
            trial.set_user_attr("label", setting.label)
            trial.set_user_attr("setting", setting.settings())
            return float(tune_field.play(setting, work, backend).mean())

        bar = None
        try:
            if self.progress:
                from tqdm import tqdm
                bar = tqdm(total=trials, initial=min(len(done), trials), unit="trial", desc="tuning",
                           dynamic_ncols=True)
            for k in range(len(done), trials):
                study.sampler = sampler_for(self.sampler, self.seed, k, space, trials)
                study.optimize(objective_fn, n_trials=1, catch=())
                if bar is not None:
                    best = study.best_trial
                    bar.set_postfix_str(f"best {best.value:.4f}: {best.user_attrs['label']}", refresh=False)
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
        done = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
        # trials are numbered by their place among the finished ones (optuna's own numbers also
        # count a trial cut short by an interruption)
        best_k = max(range(len(done)), key=lambda k: (done[k].value, -k))
        best_trial = done[best_k]
        best = replace(base.with_settings(best_trial.user_attrs["setting"]),
                       short_name=file_label(base.name, BEST_FILE))  # as NAME@DIR/best.toml reads it
        manifest["history"] = [{"trial": k, "value": t.value, "label": t.user_attrs["label"],
                                "setting": t.user_attrs["setting"]} for k, t in enumerate(done)]
        manifest["best"] = {"trial": best_k, "value": best_trial.value, "label": best.setting,
                            "name": best.label, "setting": best.settings()}
        manifest["start"] = {"trial": 0, "value": done[0].value, "label": base.label}
        self.best = best
        # the confirmation: best and the starting setting on fresh deals, paired
        if self.progress:
            print(f"confirming {best.label} against {base.label} on {self.confirm_deals:,} fresh deals "
                  f"(seed {self.confirm_seed})", flush=True)
        confirm = Field(self.config, self.field_labels, self.confirm_seed, self.confirm_deals,
                        self.objective, self.seatings)
        if best.setting == base.setting:
            a = b = confirm.play(base, out / "confirmation" / "defaults", backend)
        else:
            a = confirm.play(best, out / "confirmation" / "best", backend)
            b = confirm.play(base, out / "confirmation" / "defaults", backend)
        manifest["confirmation"] = paired_summary(a, b)
        return "complete"

    def report(self, manifest: dict) -> str:
        """``best.toml``: the best setting, with what it was found and confirmed by."""
        out = self.dir.path
        shutil.rmtree(out / "trials", ignore_errors=True)
        c, best, b = manifest["confirmation"], self.best, manifest["best"]
        (out / BEST_FILE).write_text(toml_text(best, self.game, [
            f"tourney tune: the best setting of {self.base.name} found in {len(manifest['history'])} trials "
            f"(trial {b['trial']}, tuning {self.objective} {b['value']:.4f}; start {manifest['start']['value']:.4f})",
            f"confirmation on {c['deals']:,} fresh deals: {c['difference']:+.4f} "
            f"[{c['difference_ci'][0]:+.4f}, {c['difference_ci'][1]:+.4f}] against the start, p = {c['p_value']:.3g}",
            f"made by: {self.command}" if self.command else "made with the tourney_sim API"]))
        return ""

    def close(self) -> None:
        if self.backend is not None:
            self.backend.close()
            self.backend = None


def tune(game: str | GameConfig, strategy: str, against: list[str], out: Path, *, n_players: int | None = None,
         rules=(), trials: int = 100, deals: int = 2000, seed: int = 0, sampler: str = "tpe",
         objective: str = "win", params: list[str] | None = None, confirm_deals: int | None = None,
         confirm_seed: int | None = None, workers: int | None = None, scheduler: str | None = None,
         overwrite: bool = False, resume: bool = False, progress: bool = True,
         command: str | None = None) -> Outcome:
    """Tune ``strategy``'s parameters against the field ``against`` (see the module docstring).

    ``game``: its configuration as built at the edge (or the game's name with ``n_players`` and
    ``rules``, built here). ``params``: the names to tune (default: all; the others stay as
    ``strategy`` sets them). Errors (nothing written): RuleError, StrategyError/ParamError,
    TuneError, OutputError."""
    config = game if isinstance(game, GameConfig) else GameConfig.build(game, n_players, list(rules))
    job = TuneJob(config, strategy, against, trials=trials, deals=deals, seed=seed,
                  sampler=sampler, objective=objective, params=params, confirm_deals=confirm_deals,
                  confirm_seed=confirm_seed, workers=workers, scheduler=scheduler, progress=progress)
    return run_job(job, out, resume=resume, overwrite=overwrite, command=command)


def read_tune(directory: Path) -> dict:
    return read_job(TUNE, directory, DatasetError)


def best_name(t: dict) -> str:
    """The best setting's short name (``guard@best``; its values are in ``t["best"]["setting"]``)."""
    return t["best"].get("name") or t["best"]["label"]


def summary_text(t: dict) -> str:
    """The findings of a finished tuning run in a few lines."""
    if t.get("status") != "complete":
        return f"tuning of {t['strategy']} ({t['game']}) is {t.get('status')}: continue it with --resume"
    c, best, start = t["confirmation"], t["best"], t["start"]
    unit = MEASURES[t["objective"]].wording
    verdict = ("better than the start" if c["p_value"] < 0.01 and c["difference"] > 0 else
               "worse than the start" if c["p_value"] < 0.01 else
               "not distinguishable from the start at p < 0.01")
    return "\n".join([
        f"{t['game']}: tuned {t['strategy']} ({', '.join(t['tuned'])}) against {', '.join(t['against'])}: "
        f"{len(t['history'])} trials x {t['deals']:,} deals x {len(t['seatings']) * len(t['against'])} tables",
        f"  best: {best_name(t)} (trial {best['trial']}), tuning {unit} {best['value']:.4f} "
        f"(start {start['value']:.4f})",
        f"  confirmation on {c['deals']:,} fresh deals: best {c['best']:.4f} [{c['best_ci'][0]:.4f}, "
        f"{c['best_ci'][1]:.4f}], start {c['defaults']:.4f} [{c['defaults_ci'][0]:.4f}, {c['defaults_ci'][1]:.4f}]",
        f"  difference {c['difference']:+.4f} [{c['difference_ci'][0]:+.4f}, {c['difference_ci'][1]:+.4f}], "
        f"p = {c['p_value']:.3g}: {verdict}",
    ])
