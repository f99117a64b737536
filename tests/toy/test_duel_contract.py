"""Duel checks itself from its own folder, as any game outside the package can: the library's
``check_game`` with ``TOURNEY_GAME_PATH`` naming this folder (its game, strategies, support module
``support/duel.py`` and golden games ``golden/`` all found beside each other). The registry reads
the variable once, on import: so the check runs in a subprocess with it set."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TOY = Path(__file__).resolve().parent
ROOT = TOY.parents[1]

CODE = """
from tourney_sim.testing import check_game
report = check_game("duel")
print(report.summary())
"""


def test_duel_passes_check_game_from_its_own_folder():
    r = subprocess.run([sys.executable, "-c", CODE], env=dict(os.environ, TOURNEY_GAME_PATH=str(TOY)), cwd=ROOT,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    out = r.stdout
    assert out.startswith("duel: ok"), out
    # its support module and its golden games were found beside its folder: nothing but the
    # components (Duel declares none) is skipped
    assert "golden games" in out and "samples checked" in out and "game invariant" in out, out
    assert [line for line in out.splitlines() if "skipped" in line] == [
        "  skipped: components: the game declares none"], out
