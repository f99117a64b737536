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
from tourney_sim.simulate.policy import curve_name
from tourney_sim.simulate.search import rollout_player
from tourney_sim.simulate.seeding import below

if TYPE_CHECKING:
    from . import Strategy


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def random_move(public, private, moves, n_moves, rng, params):
    """Uniformly random legal move from the seat's own stream."""
    return below(rng, n_moves)


def rollout_policies(heuristics, apprentice=None) -> tuple[tuple[str, ...], np.ndarray, object]:
    """A game's play-out policies for its search, from its heuristics (``Strategy`` values, each
    declared once, in the game's ``STRATEGIES`` too): ``random``, each heuristic at its default
    setting, then each one's tuned setting shipped as ``tuned/GAME-NAME.toml`` (``NAME-tuned``: the
    same values as the built-in strategy of that name), then, given the game's ``apprentice``,
    its weights shipped for each player count (``apprentice-<N>p``) and ``apprentice``: the
    shipped weights of the table played (:func:`search_for_table` names the row; unresolved, the
    game's default player count's).

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
    fns = [h.fn for h in heuristics]
    if apprentice is not None:
        fns.append(apprentice.fn)
        from tourney_sim.simulate.games import get_game
        shipped = shipped_tables(apprentice)
        for players in sorted(shipped):
            names.append(rollout_name(apprentice, players))
            rows.append(shipped[players].param_row())
            kinds.append(len(fns))
        default = shipped.get(get_game(apprentice.game).player_count(None))
        names.append(apprentice.name)
        rows.append(default.param_row() if default else np.zeros(MAX_PARAMS, np.float64))
        kinds.append(len(fns) if default else 0)
    player = rollout_player(tuple(fns), np.array(kinds, np.int64))
    return tuple(names), np.array(rows), player


# ----------------------------------------------------------------------------- the apprentice (issue 41)
#: the largest weight an apprentice's feature may carry (features are scaled to about [-1, 1])
WEIGHT_LIMIT = 100.0


def guide_of(heuristics, name: str) -> Strategy:
    """The apprentice's guide: the heuristic ``name`` (one of ``heuristics``) at its shipped tuned
    setting (``tuned/GAME-NAME.toml``; its defaults without one), the game's strong heuristic."""
    from . import TUNED_DIR, tuned
    (heuristic,) = [h for h in heuristics if h.name == name]
    path = TUNED_DIR / f"{heuristic.game}-{heuristic.name}.toml"
    return tuned(heuristic, path) if path.exists() else heuristic


#: game -> its apprentice's guide (:func:`apprentice`): what a training run labels it with
GUIDES: dict[str, Strategy] = {}


def apprentice(game: str, fn, guide: Strategy) -> Strategy:
    """The game's apprentice: ``fn``, the game's :func:`tourney_sim.simulate.policy.guided_choice`
    over its features (``simulate/games/<game>/features.py``) guided by ``guide``
    (:func:`guide_of`), whose weights are its parameters: one per feature (named and explained
    as the feature is), ``guide`` (for the move the guide plays), ``explore``, then one per
    feature's curve (``curve_<feature>``: x |x|; 0 unless a training run fits it). The bare name
    plays the weights shipped for the table's player count (:func:`shipped_weights`: the game's
    ``apprentice-<N>p.toml``, made by ``tourney train`` on the shipped rules and components);
    ``apprentice@DIR`` a training run's."""
    import importlib

    from . import Strategy
    features = importlib.import_module(f"tourney_sim.simulate.games.{game}.features")
    if 2 * features.N_FEATURES + 2 > MAX_PARAMS:
        raise ValueError(f"{features.__name__}: {features.N_FEATURES} features; at most {(MAX_PARAMS - 2) // 2} "
                         f"(a weight for each feature and its curve, the guide's weight and the exploration)")
    params = tuple(Param.real(name, 0.0, -WEIGHT_LIMIT, WEIGHT_LIMIT, f"weight of: {meaning}")
                   for name, meaning in features.FEATURES) + (
        Param.real("guide", 0.0, -WEIGHT_LIMIT, WEIGHT_LIMIT, f"weight of: the move {guide.label} plays (the guide)"),
        Param.real("explore", 0.0, 0.0, 1.0, "chance of a random legal move instead (training only)")) + tuple(
        Param.real(curve_name(name), 0.0, -WEIGHT_LIMIT, WEIGHT_LIMIT, f"weight of: {name} x |{name}|, its curve")
        for name, _ in features.FEATURES)
    GUIDES[game] = guide
    base = Strategy(game, "apprentice", f"linear policy over the game's features, their curves and {guide.label}'s choice, "
                    "learned from the search by `tourney train`: the weights shipped for the table's player "
                    "count, or a training run's (apprentice@DIR)", fn, params=params,
                    needs_setting="the apprentice has no weights of its own: give a training run's, "
                                  "apprentice@DIR (`tourney train`)")
    return replace(base, for_table=partial(shipped_weights, Path(features.__file__).parent))


def shipped_tables(apprentice: Strategy) -> dict:
    """{players: the apprentice with the weights shipped for them} for every shipped weights file."""
    folder = apprentice.for_table.args[0]
    found = {}
    for path in sorted(folder.glob("apprentice-*p.toml")):
        players = path.stem[len("apprentice-"):-1]
        if players.isdigit():
            found[int(players)] = _read_weights(apprentice, path)
    return found


def rollout_name(apprentice: Strategy, players: int) -> str:
    """The search's play-out policy of the apprentice's weights shipped for ``players``."""
    return f"{apprentice.name}-{players}p"


def search_for_table(search: Strategy, config) -> Strategy:
    """The search ``search`` for the table ``config``: play-outs by ``apprentice`` (the setting
    ``rollout=apprentice``) become those by the apprentice's weights shipped for the table's
    player count, refused by name when the table is not the one they were trained on."""
    from . import StrategyError, available, check_table
    if search.settings().get("rollout") != "apprentice":
        return search
    apprentice = available(search.game)["apprentice"]
    try:
        check_table(apprentice.for_table(apprentice, config), config)
    except StrategyError as exc:
        raise StrategyError(f"{search.label} plays out with the apprentice's shipped weights: "
                            f"{str(exc).removeprefix('strategy apprentice: ')}") from None
    return replace(search.with_settings({"rollout": rollout_name(apprentice, config.players)}),
                   short_name=search.short_name)


def shipped_path(folder: Path, players: int) -> Path:
    """Where the weights shipped for ``players`` players are: ``apprentice-<N>p.toml`` in the game's folder."""
    return folder / f"apprentice-{players}p.toml"


def shipped_weights(folder: Path, apprentice: Strategy, config) -> Strategy:
    """The apprentice for the table ``config``: the bare name (no values given) plays the weights
    shipped for its player count (refused by ``strategies.check_table`` when ``config`` is not the
    table they were trained on), named ``apprentice``; StrategyError naming ``tourney train`` when
    none are shipped. Given weights stay."""
    from . import StrategyError
    if apprentice.values:
        return apprentice
    path = shipped_path(folder, config.players)
    if not path.exists():
        raise StrategyError(f"strategy {apprentice.name}: no weights are shipped for {config.game} at "
                            f"{config.players} players: train them with `tourney train {config.game} "
                            f"{config.command_args()} --out DIR` and play {apprentice.name}@DIR")
    return _read_weights(apprentice, path)


def _read_weights(apprentice: Strategy, path: Path) -> Strategy:
    from . import StrategyError
    from .params import read_toml
    values, _, made_for = read_toml(str(path), apprentice.name, f"strategy {apprentice.name}")
    if made_for is None:
        raise StrategyError(f"strategy {apprentice.name}: {path} names no [table]: shipped weights must")
    return replace(apprentice.with_settings(values), short_name=apprentice.name, table=made_for)
