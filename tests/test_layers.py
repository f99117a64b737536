"""The packages import in one direction: engine <- strategies <- orchestration <- reports <- api
<- CLI <- command (the layers contract of ``[tool.importlinter]`` in pyproject.toml).

import-linter reads the package from its files; ``pyproject.toml`` maps the repository's folders
into ``tourney_sim``, which an editable install does with an import hook import-linter cannot
follow. So the test lays the sources out as the wheel installs them (the same mapping) and runs
``lint-imports`` on that copy."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"


def installed_layout(where: Path) -> Path:
    """The sources under ``where`` as ``tourney_sim`` is installed (pyproject's package-dir)."""
    package_dir = tomllib.loads(CONFIG.read_text())["tool"]["setuptools"]["package-dir"]
    for name, folder in package_dir.items():
        shutil.copytree(ROOT / folder, where.joinpath(*name.split(".")), dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return where


def lint_imports(where: Path) -> subprocess.CompletedProcess:
    lint = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(where)}
    return subprocess.run([str(lint), str(CONFIG)], cwd=where, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_layers_contract_is_kept(tmp_path):
    r = lint_imports(installed_layout(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 kept, 0 broken" in r.stdout


def test_an_import_against_the_layers_breaks_the_contract(tmp_path):
    """The contract bites: orchestration importing the reports is named and fails the check."""
    where = installed_layout(tmp_path)
    jobdir = where / "tourney_sim" / "simulate" / "jobdir.py"
    jobdir.write_text(jobdir.read_text() + "\nfrom tourney_sim.reports import load  # noqa: E402\n")
    r = lint_imports(where)
    assert r.returncode != 0
    assert "tourney_sim.simulate.jobdir -> tourney_sim.reports.load" in r.stdout, r.stdout
