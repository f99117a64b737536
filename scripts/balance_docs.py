"""Regenerate docs/balance/ from the standard studies: each game's report (HTML and Markdown, with
its figures beside it) and a screenshot of the report's first screen as headless Chromium shows it.

    python scripts/balance_docs.py                      # play every study (standard), then write docs
    python scripts/balance_docs.py --reuse              # studies already in study/<game>: only re-render
    python scripts/balance_docs.py --game cardavia --reuse

Playing the four standard studies takes 20-40 minutes on 2 cores (see the README's study table);
``--reuse`` renders the reports again from the studies' data (a report is a function of the data).
The screenshot needs Chromium (``apt-get install chromium``); without it the reports are written
and the screenshots left as they were (said on stderr).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "balance"
GAMES = ("cardavia", "colleagues", "companeros", "partners")
FIGURES = "report-figures"


def play(game: str, out: Path, budget: str) -> None:
    subprocess.run(["tourney", "study", game, "--budget", budget, "--out", str(out), "--overwrite"], check=True)


def render(game: str, out: Path) -> None:
    from tourney_sim.reports.study_report import write_report
    from tourney_sim.simulate.study import STUDY_FILE

    write_report(out, json.loads((out / STUDY_FILE).read_text()))
    shutil.copyfile(out / "report.html", DOCS / f"{game}.html")
    md = (out / "report.md").read_text().replace(f"]({FIGURES}/", f"]({game}-figures/")
    (DOCS / f"{game}.md").write_text(md)
    figures = DOCS / f"{game}-figures"
    shutil.rmtree(figures, ignore_errors=True)
    if (out / FIGURES).is_dir():
        shutil.copytree(out / FIGURES, figures)


def screenshot(game: str) -> bool:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("no chromium on PATH: screenshots left as they were (apt-get install chromium)", file=sys.stderr)
        return False
    shot = DOCS / "screenshots" / f"{game}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1280,900", f"--screenshot={shot}", (DOCS / f"{game}.html").as_uri()],
                   check=True, capture_output=True)
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ap.add_argument("--reuse", action="store_true", help="render the studies already in --studies")
    ap.add_argument("--studies", type=Path, default=ROOT / "study", help="where the studies live (study/<game>)")
    ap.add_argument("--budget", default="standard")
    args = ap.parse_args()
    for game in args.game or GAMES:
        out = args.studies / game
        if not args.reuse:
            play(game, out, args.budget)
        render(game, out)
        screenshot(game)
        print(f"{game}: docs/balance/{game}.html, .md, {game}-figures/, screenshots/{game}.png")


if __name__ == "__main__":
    main()
