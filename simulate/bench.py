"""Speed of the compiled kernels: games/s per strategy (every seat playing it), compile apart."""
from __future__ import annotations

import statistics
import time

from tourney_sim.strategies import heuristics

from .games.config import GameConfig
from .matchup import make_matchup, play_block


def bench_game(config: GameConfig, games: int = 100_000, repeats: int = 3,
               strategy_names: list[str] | None = None) -> dict:
    """{"compile_seconds": first call (compile or cache load), "rows": [...]} where each row has
    the strategy, the median games/s and decisions/s of ``repeats`` timed runs of ``games`` games
    of ``config`` (everyone playing it)."""
    game = config.game
    names = strategy_names or heuristics(game)
    first = make_matchup(config, [names[0]], seed=1)
    t0 = time.perf_counter()
    play_block(first, 0, 1)
    compile_seconds = time.perf_counter() - t0
    rows = []
    for name in names:
        m = make_matchup(config, [name], seed=1)
        play_block(m, 0, 10)  # the strategy's own compile / cache load
        rates, moves = [], []
        for r in range(repeats):
            t = time.perf_counter()
            block = play_block(m, r * games, games)
            dt = time.perf_counter() - t
            rates.append(games / dt)
            moves.append(float(block.decisions.sum()) / dt)
        rows.append({"strategy": name, "games_per_s": statistics.median(rates),
                     "decisions_per_s": statistics.median(moves),
                     "decisions_per_game": float(block.decisions.mean())})
    return {"game": game, "players": first.n_players, "games": games, "repeats": repeats,
            "compile_seconds": compile_seconds, "rows": rows}
