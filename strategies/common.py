"""What every game's strategies share: the random strategy, and the search's rollout policies."""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from tourney_sim.simulate.kernel import STRATEGY_SIGNATURE
from tourney_sim.simulate.params import MAX_PARAMS, Param
from tourney_sim.simulate.search import rollout_player
from tourney_sim.simulate.seeding import below

if TYPE_CHECKING:
    from . import Strategy


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def random_move(public, private, moves, n_moves, rng, params):
    """Uniformly random legal move from the seat's own stream."""
    return below(rng, n_moves)


def rollout_policies(heuristics) -> tuple[tuple[str, ...], np.ndarray, object]:
    """A game's play-out policies for its search, from its heuristics (``Strategy`` values, each
    declared once, in the game's ``STRATEGIES`` too): ``random``, each heuristic at its default
    setting, then each one's tuned setting shipped as ``tuned/GAME-NAME.toml`` (``NAME-tuned``: the
    same values as the built-in strategy of that name).

    Returns (names, rows, rollout): ``rows[p]`` (float64[MAX_PARAMS]) are policy p's parameter
    values; ``rollout`` plays a policy's decision (``simulate.search.rollout_player``), for the
    game's ``ismcts`` to hand to ``search.ismcts`` with ``rows``."""
    from . import TUNED_DIR, tuned

    names, rows, kinds = ["random"], [np.zeros(MAX_PARAMS, np.float64)], [0]
    for kind, heuristic in enumerate(heuristics, 1):
        names.append(heuristic.name)
        rows.append(heuristic.param_row())
        kinds.append(kind)
    for kind, heuristic in enumerate(heuristics, 1):
        path = TUNED_DIR / f"{heuristic.game}-{heuristic.name}.toml"
        if path.exists():
            setting = tuned(heuristic, path)
            names.append(setting.name)
            rows.append(setting.param_row())
            kinds.append(kind)
    player = rollout_player(tuple(h.fn for h in heuristics), np.array(kinds, np.int64))
    return tuple(names), np.array(rows), player


# ----------------------------------------------------------------------------- the apprentice (issue 41)
#: the largest weight an apprentice's feature may carry (features are scaled to about [-1, 1])
WEIGHT_LIMIT = 100.0


def apprentice(game: str) -> Strategy:
    """The game's apprentice: the linear policy over its features
    (``simulate/games/<game>/features.py``: ``apprentice``, :func:`tourney_sim.simulate.policy.linear_choice`)
    whose weights are its parameters, one per feature (named and explained as the feature is),
    then ``explore``. The bare name plays the weights shipped for the table's player count
    (:func:`shipped_weights`: the game's ``apprentice-<N>p.toml``, made by ``tourney train`` on
    the shipped rules and components); ``apprentice@DIR`` a training run's."""
    import importlib

    from . import Strategy
    features = importlib.import_module(f"tourney_sim.simulate.games.{game}.features")
    if features.N_FEATURES >= MAX_PARAMS:
        raise ValueError(f"{features.__name__}: {features.N_FEATURES} features; at most {MAX_PARAMS - 1} "
                         f"(one parameter is the exploration)")
    params = tuple(Param.real(name, 0.0, -WEIGHT_LIMIT, WEIGHT_LIMIT, f"weight of: {meaning}")
                   for name, meaning in features.FEATURES) + (
        Param.real("explore", 0.0, 0.0, 1.0, "chance of a random legal move instead (training only)"),)
    base = Strategy(game, "apprentice", "linear policy over the game's features, learned from the search by "
                    "`tourney train`: the weights shipped for the table's player count, or a training "
                    "run's (apprentice@DIR)", features.apprentice, params=params,
                    needs_setting="the apprentice has no weights of its own: give a training run's, "
                                  "apprentice@DIR (`tourney train`)")
    return replace(base, for_table=partial(shipped_weights, base, Path(features.__file__).parent))


def shipped_path(folder: Path, players: int) -> Path:
    """Where the weights shipped for ``players`` players are: ``apprentice-<N>p.toml`` in the game's folder."""
    return folder / f"apprentice-{players}p.toml"


def shipped_weights(base: Strategy, folder: Path, config) -> Strategy:
    """The apprentice ``base`` with the weights shipped for ``config``'s player count (refused by
    ``strategies.check_table`` when ``config`` is not the table they were trained on), named
    ``apprentice``; StrategyError naming ``tourney train`` when none are shipped."""
    from . import StrategyError
    from .params import read_toml
    path = shipped_path(folder, config.players)
    if not path.exists():
        raise StrategyError(f"strategy {base.name}: no weights are shipped for {config.game} at {config.players} "
                            f"players: train them with `tourney train {config.game} {config.command_args()} "
                            f"--out DIR` and play {base.name}@DIR")
    values, _, made_for = read_toml(str(path), base.name, f"strategy {base.name}")
    return replace(base.with_settings(values), short_name=base.name, table=made_for)
