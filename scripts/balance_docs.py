"""Regenerate docs/balance/ from the standard studies (or docs/design/ from the standard design
runs, ``--design``): each game's report (HTML and Markdown, with its figures beside it) and a
screenshot of the report's first screen as headless Chromium shows it.

    python scripts/balance_docs.py                      # play every study (standard), then write docs
    python scripts/balance_docs.py --reuse              # studies already in study/<game>: only re-render
    python scripts/balance_docs.py --game cardavia --reuse
    python scripts/balance_docs.py --design             # every design run (standard) -> docs/design/

Playing the four standard studies takes 20-40 minutes on 2 cores, the four design runs about as
long (see the tables of docs/studies.md and docs/design.md); ``--reuse`` renders the reports again from the data (a report is a
function of the data).
The screenshot needs Chromium (``apt-get install chromium``); without it the reports are written
and the screenshots left as they were (said on stderr).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("cardavia", "colleagues", "companeros", "partners")
FIGURES = "report-figures"


@dataclass(frozen=True)
class Job:
    command: str  # the tourney command that plays it
    docs: Path  # where its documents go
    runs: str  # where the runs live by default (ROOT / runs / GAME)
    manifest: str  # its manifest's file name
    writer: str  # the module whose write_report(out, manifest) renders it


JOBS = {
    "study": Job("study", ROOT / "docs" / "balance", "study", "_study.json", "tourney_sim.reports.study_report"),
    "design": Job("design", ROOT / "docs" / "design", "design", "_design.json", "tourney_sim.reports.design"),
}


def play(job: Job, game: str, out: Path, budget: str) -> None:
    subprocess.run(["tourney", job.command, game, "--budget", budget, "--out", str(out), "--overwrite"], check=True)


def render(job: Job, game: str, out: Path) -> None:
    import importlib

    write_report = importlib.import_module(job.writer).write_report
    write_report(out, json.loads((out / job.manifest).read_text()))
    job.docs.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(out / "report.html", job.docs / f"{game}.html")
    md = (out / "report.md").read_text().replace(f"]({FIGURES}/", f"]({game}-figures/")
    (job.docs / f"{game}.md").write_text(md)
    figures = job.docs / f"{game}-figures"
    shutil.rmtree(figures, ignore_errors=True)
    if (out / FIGURES).is_dir():
        shutil.copytree(out / FIGURES, figures)


def screenshot(job: Job, game: str) -> bool:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("no chromium on PATH: screenshots left as they were (apt-get install chromium)", file=sys.stderr)
        return False
    shot = job.docs / "screenshots" / f"{game}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1280,900", f"--screenshot={shot}", (job.docs / f"{game}.html").as_uri()],
                   check=True, capture_output=True)
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ap.add_argument("--design", action="store_true", help="the design runs (docs/design/) instead of the studies")
    ap.add_argument("--reuse", action="store_true", help="render the runs already in --runs")
    ap.add_argument("--runs", "--studies", type=Path, default=None,
                    help="where the runs live (<runs>/<game>; default study/ or design/)")
    ap.add_argument("--budget", default="standard")
    args = ap.parse_args()
    job = JOBS["design" if args.design else "study"]
    runs = args.runs or ROOT / job.runs
    for game in args.game or GAMES:
        out = runs / game
        if not args.reuse:
            play(job, game, out, args.budget)
        render(job, game, out)
        screenshot(job, game)
        where = job.docs.relative_to(ROOT)
        print(f"{game}: {where}/{game}.html, .md, {game}-figures/, screenshots/{game}.png")


if __name__ == "__main__":
    main()
