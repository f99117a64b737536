#!/usr/bin/env python
"""How much of the search's edge can a policy over the apprentice's features hold? (issue 41)

Plays ``--games`` games, half with the guide and half with the shipped apprentice in every seat,
and at every decision with a choice asks a large search (``--label-iterations``, every legal move
valued on the same sampled deals) what each move is worth. A move's *advantage* is its value less
the mean of its decision's moves; a policy's *played value* is the mean advantage of the moves it
plays. Measured on held-out games (every fifth), for:

- the guide, the shipped apprentice, and the search at its playing budget (what the study's strong
  level plays): the yardsticks. The apprentice's share of the search's edge in played value is
  what ``scripts/bench_apprentice.py`` measures in won games (36% against 36% at Compañeros 3p);
- the apprentice's own fit (``tourney train``'s: the best on held-out decisions of the imitation,
  the value fits and the regression of the search's values), fitted here on the other games'
  labels, over the features alone, over the features and their curves (``x |x|``, what the
  apprentice weighs since 2026-12-06), and over those and every product of two features (the
  interactions a linear score cannot weigh unless they are features): what a linear score can
  reach on these labels;
- gradient-boosted trees over the same features (scikit-learn, if installed: ``pip install
  scikit-learn``), additive (stumps: each feature's own curve, no interaction) and with
  interactions, and a network of one hidden layer (16 and 64 units, the features standardised):
  whether a richer policy over the same features would hold more.

A research measurement, never a test. The fits see a few thousand decisions, the shipped weights
some hundred thousand (at a smaller label budget): compare the fits with each other.

Usage: python scripts/apprentice_ceiling.py companeros --players 3 [--games 400] [--label-iterations 1000]
       [--save labels.npz]
       python scripts/apprentice_ceiling.py companeros --players 3 --load labels.npz   (the fits only)
"""
from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def label(task: tuple) -> dict:
    """Games ``first .. first + count`` of the task: each decision's features (with the guide's
    flag last), the big search's value of every move, and the moves the guide, the apprentice and
    the playing search choose."""
    game, players, player, iterations, seed, first, count = task
    from tourney_sim.simulate import train
    from tourney_sim.simulate.games.config import GameConfig
    from tourney_sim.simulate.seeding import new_stream
    from tourney_sim.simulate.stepper import KernelGame
    from tourney_sim.strategies import resolve
    config = GameConfig.build(game, players)
    features = train.features_of(game)
    playing, big, apprentice, search = resolve(
        game, [player, f"ismcts:iterations={iterations},candidates=0,margin=0", "apprentice", "ismcts"], config=config)
    values_fn, big_row, search_row = train.search_values_of(game), big.param_row(), search.param_row()
    guide = train.guide_of(game)
    guide_row, apprentice_row, no_stream = guide.param_row(), apprentice.param_row(), np.zeros(4, np.uint64)
    f = features.N_FEATURES
    rows, starts, q, chosen, games = [], [0], [], [], []
    for g_no in range(first, first + count):
        g = KernelGame(config.spec, config.params(), seed, g_no)
        step = 0
        while (seat := g.to_move()) >= 0:
            n = g._legal()
            if n > 1:
                public, private = g.m.public_view(g.state), g.m.private_view(g.state, seat)
                x = np.zeros((n, f + 1))
                features.move_features(public, private, g.moves, n, x)
                picks = (int(guide.fn(public, private, g.moves, n, no_stream, guide_row)),
                         int(apprentice.fn(public, private, g.moves, n, no_stream.copy(), apprentice_row)),
                         int(search.fn(public, private, g.moves, n, new_stream(seed, g_no, 50_000 + step), search_row)))
                x[picks[0], f] = 1.0
                found = np.full(n, np.nan)
                values_fn(public, private, g.moves, n, new_stream(seed, g_no, 60_000 + step), big_row, found)
                rows.append(x.astype(np.float32))
                starts.append(starts[-1] + n)
                q.append(found.astype(np.float32))
                chosen.append(picks)
                games.append(g_no)
            g.apply(g.choose(playing))
            step += 1
    return {"X": np.concatenate(rows), "starts": np.array(starts), "q": np.concatenate(q),
            "chosen": np.array(chosen, np.int64), "game": np.array(games, np.int64)}


def joined(parts: list[dict]) -> dict:
    offsets = np.cumsum([0] + [len(p["X"]) for p in parts[:-1]])
    return {"X": np.concatenate([p["X"] for p in parts]),
            "starts": np.concatenate([[0]] + [p["starts"][1:] + o for p, o in zip(parts, offsets)]),
            "q": np.concatenate([p["q"] for p in parts]),
            "chosen": np.concatenate([p["chosen"] for p in parts]),
            "game": np.concatenate([p["game"] for p in parts])}


def subset(d: dict, keep: np.ndarray) -> dict:
    """The decisions ``keep`` (a boolean per decision) of a joined set."""
    lengths = np.diff(d["starts"])
    rows = np.repeat(keep, lengths)
    return {"X": d["X"][rows], "starts": np.concatenate([[0], np.cumsum(lengths[keep])]), "q": d["q"][rows],
            "chosen": d["chosen"][keep], "game": d["game"][keep]}


def value_of_choices(d: dict, column: int) -> float:
    from tourney_sim.simulate.train import advantages
    a = advantages(d["starts"], d["q"])
    return float(a[d["starts"][:-1] + d["chosen"][:, column]].mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=400, help="games played (half by the guide, half by the apprentice)")
    ap.add_argument("--label-iterations", type=int, default=1000, help="the big search's iterations a decision")
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--save", help="also write the labelled decisions to this .npz (X, starts, q, chosen, game)")
    ap.add_argument("--load", help="fit and measure on decisions a --save wrote (same game and players), "
                                   "without labelling again")
    args = ap.parse_args()
    from tourney_sim.simulate import train
    from tourney_sim.simulate.games import game_names
    if args.game not in game_names():
        sys.exit(f"error: no game {args.game!r} (games: {', '.join(game_names())})")
    if not 10 <= args.games <= 100_000 or args.label_iterations < 1 or args.workers < 1:
        sys.exit("error: --games must be from 10 to 100,000, --label-iterations and --workers at least 1")
    from tourney_sim.simulate.games import get_game
    spec = get_game(args.game)
    if not spec.min_players <= args.players <= spec.max_players:
        sys.exit(f"error: {args.game} is played by {spec.min_players} to {spec.max_players} players, "
                 f"not {args.players}")
    if args.load and args.save:
        sys.exit("error: --load reads decisions that --save wrote: give one of them")
    if args.load:
        d = loaded(args.load, train.features_of(args.game).N_FEATURES + 1)
        report(args, d, f"read from {args.load}")
        return
    if args.save:  # before the hour of labelling, not after it
        from pathlib import Path
        save = Path(args.save if args.save.endswith(".npz") else args.save + ".npz")
        existed = save.exists()
        try:
            save.open("ab").close()  # the one sure test (root passes os.access anywhere)
        except OSError as exc:
            sys.exit(f"error: --save {args.save}: cannot write there ({exc.strerror}); give a .npz path "
                     f"in a writable folder")
        if not existed:
            save.unlink()
    guide = train.guide_of(args.game).label
    chunk = max(1, args.games // (4 * args.workers))
    tasks = [(args.game, args.players, guide if first < args.games // 2 else "apprentice", args.label_iterations,
              args.seed, first, min(chunk, args.games - first)) for first in range(0, args.games, chunk)]
    with ProcessPoolExecutor(args.workers) as pool:
        d = joined(list(pool.map(label, tasks)))
    if args.save:
        np.savez_compressed(args.save, **d)
    report(args, d, f"from {args.games} games labelled by ismcts:iterations={args.label_iterations}")


def loaded(path: str, width: int) -> dict:
    """The labelled decisions a ``--save`` wrote, checked (no pickles: plain arrays only)."""
    import zipfile
    from pathlib import Path
    if not Path(path).is_file():
        sys.exit(f"error: --load {path}: no such file (give the .npz a --save wrote)")
    if not zipfile.is_zipfile(path):
        sys.exit(f"error: --load {path}: not a .npz archive (give the file a --save wrote)")
    try:
        with np.load(path, allow_pickle=False) as f:
            d = {k: f[k] for k in ("X", "starts", "q", "chosen", "game")}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        sys.exit(f"error: --load {path}: not labelled decisions written by --save ({exc})")
    X, starts = d["X"], d["starts"]
    decisions = len(starts) - 1
    if X.ndim != 2 or X.shape[1] != width:
        sys.exit(f"error: --load {path}: not this game's labelled decisions (its features have {width - 1} "
                 f"columns and the guide's flag; the file's rows have shape {X.shape[1:]})")
    if (starts.ndim != 1 or decisions < 1 or starts[0] != 0 or starts[-1] != len(X) or np.any(np.diff(starts) < 1)
            or d["q"].shape != (len(X),) or d["chosen"].shape != (decisions, 3) or d["game"].shape != (decisions,)):
        sys.exit(f"error: --load {path}: its arrays do not fit together (X, starts, q, chosen, game as --save "
                 f"writes them)")
    held = d["game"] % 5 == 0
    if held.all() or not held.any():
        sys.exit(f"error: --load {path}: fitting needs decisions of held-out games (every fifth) and of the others")
    return d


def report(args, d: dict, source: str) -> None:
    """Fit every policy on four fifths of the games' decisions and print the played value of each
    on the held-out fifth."""
    from tourney_sim.simulate import train
    held = d["game"] % 5 == 0
    fit_on, test = subset(d, ~held), subset(d, held)
    a_fit = train.advantages(fit_on["starts"], fit_on["q"])
    a_test = train.advantages(test["starts"], test["q"])
    guide_col = d["X"].shape[1] - 1
    figures = {"guide": value_of_choices(test, 0), "shipped apprentice": value_of_choices(test, 1),
               "search at its playing budget": value_of_choices(test, 2)}
    y = np.array([int(np.nanargmax(fit_on["q"][s:e])) for s, e in zip(fit_on["starts"][:-1], fit_on["starts"][1:])])
    f = guide_col
    curves_fit, curves_test = train.fitted_columns(train.design(fit_on["X"], f), f), train.design(test["X"], f)
    pairs = [(i, j) for i in range(f) for j in range(i + 1, f)
             if np.any(fit_on["X"][:, i] * fit_on["X"][:, j] != 0)]  # products that are ever not 0

    def products(X):
        return np.stack([X[:, i] * X[:, j] for i, j in pairs], axis=1).astype(np.float32)
    for name, X_fit, X_test in (
            ("tourney train's fit, the features alone", fit_on["X"], test["X"]),
            ("tourney train's fit, the features and their curves", curves_fit, curves_test),
            ("tourney train's fit, the features, their curves and every product of two",
             np.hstack([curves_fit, products(fit_on["X"])]), np.hstack([curves_test, products(test["X"])]))):
        w, _ = train.fit_policy(X_fit, fit_on["starts"], fit_on["q"], y, 1e-3, 1e-5, f)
        figures[name] = train.played_value(X_test, test["starts"], test["q"], w)
    try:
        from sklearn.ensemble import HistGradientBoostingRegressor
    except ImportError:
        print("(scikit-learn not installed: no boosted-tree figures; pip install scikit-learn)")
    else:
        for name, leaves, rounds in (("boosted stumps (each feature's curve, additive)", 2, 600),
                                     ("boosted trees of 3 leaves (pairs of features)", 3, 600),
                                     ("boosted trees of 31 leaves (interactions)", 31, 300)):
            model = HistGradientBoostingRegressor(max_iter=rounds, learning_rate=0.05, max_leaf_nodes=leaves,
                                                  random_state=0).fit(fit_on["X"], a_fit)
            scores = model.predict(test["X"])[:, None].astype(np.float32)
            figures[name] = train.played_value(scores, test["starts"], test["q"], np.ones(1))
        from sklearn.neural_network import MLPRegressor
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        for units in (16, 64):
            model = make_pipeline(StandardScaler(), MLPRegressor(
                hidden_layer_sizes=(units,), alpha=1e-4, early_stopping=True, max_iter=200,
                random_state=0)).fit(fit_on["X"], a_fit)
            scores = model.predict(test["X"])[:, None].astype(np.float32)
            figures[f"one hidden layer of {units} units"] = train.played_value(scores, test["starts"], test["q"],
                                                                                np.ones(1))
    figures["best move"] = float(np.maximum.reduceat(a_test, test["starts"][:-1]).mean())
    base, top = figures["guide"], figures["search at its playing budget"]
    print(f"{args.game}, {args.players} players: {len(d['chosen']):,} decisions {source}; fitted on "
          f"{len(fit_on['chosen']):,}, held out {len(test['chosen']):,} (every fifth game)")
    print("| policy | played value (mean advantage) | share of the search's gain over the guide |")
    print("|---|---|---|")
    for name, v in figures.items():
        print(f"| {name} | {v:.4f} | {100 * (v - base) / (top - base):.0f}% |")


if __name__ == "__main__":
    main()
