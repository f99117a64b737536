"""The golden games of ``tests/golden/`` (written by ``scripts/golden.py``) and of ``golden/`` beside
each folder of games on ``TOURNEY_GAME_PATH`` (e.g. ``tests/toy/golden/``), found by their files:
each names its game, and the tests read what they need from it, with no list of games or cases."""
from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def golden_files() -> list[Path]:
    from tourney_sim.simulate.games import GAME_PATH
    return sorted(GOLDEN.glob("*.json")) + sorted(p for d in GAME_PATH for p in (Path(d) / "golden").glob("*.json"))


def read(path: Path) -> dict:
    return json.loads(path.read_text())


def lists_legal_moves(trace: dict) -> bool:
    return any("legal" in entry for entry in trace["history"])


def first_with_legal_moves() -> dict[str, Path]:
    """Game name -> its first golden file (by name) that lists the legal moves of each decision."""
    first: dict[str, Path] = {}
    for path in golden_files():
        trace = read(path)
        if lists_legal_moves(trace):
            first.setdefault(trace["game"], path)
    return first
