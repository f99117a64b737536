"""The packages import in one direction: engine <- strategies <- datasets <- statistics <-
orchestration <- reports <- api <- CLI <- command (the layers contract of ``[tool.importlinter]`` in pyproject.toml), and no
modules import one another round in a circle (its second contract, and here every module at once).

``lint-imports`` runs from the repository root, as anyone runs it: pyproject's contract types
(``tests/support/import_graph.py``) read the package from the folders pyproject maps into it."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from .support.import_graph import ROOT, circle, cycles, package_dirs, package_graph

CONFIG = ROOT / "pyproject.toml"
#: modules outside every layer: the package's own __init__ and __main__, and simulate's __init__
UNLAYERED = {"tourney_sim", "tourney_sim.__main__", "tourney_sim.simulate"}


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` as run from the repository ``root`` (no cache written there)."""
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(lint), "--no-cache"], cwd=root, capture_output=True, text=True, timeout=300)


def repository_copy(where: Path) -> Path:
    """What ``lint-imports`` reads of the repository, copied under ``where``: pyproject.toml, the
    folders it maps into the package and the contract types of tests/support."""
    shutil.copy(CONFIG, where / "pyproject.toml")
    for folder in package_dirs().values():
        shutil.copytree(folder, where / folder.relative_to(ROOT), dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (where / "tests" / "support").mkdir(parents=True)
    for name in ("__init__.py", "support/__init__.py", "support/import_graph.py"):
        shutil.copy(ROOT / "tests" / name, where / "tests" / name)
    return where


def test_the_contracts_are_kept():
    r = lint_imports(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 kept, 0 broken" in r.stdout


def _jobdir_appended(tmp_path, code: str):
    """A copy of the repository with ``code`` appended to simulate/jobdir.py, and lint-imports run
    on it: (the copy, the finished process)."""
    where = repository_copy(tmp_path)
    jobdir = where / "simulate" / "jobdir.py"
    jobdir.write_text(jobdir.read_text() + code)
    return where, lint_imports(where)


def test_an_import_against_the_layers_breaks_the_contract(tmp_path):
    """The contract bites: orchestration importing the reports is named and fails the check."""
    _, r = _jobdir_appended(tmp_path, "\nfrom tourney_sim.reports import render  # noqa: E402\n")
    assert r.returncode != 0
    assert "tourney_sim.simulate.jobdir -> tourney_sim.reports.render" in r.stdout, r.stdout


def test_the_datasets_sit_below_the_statistics(tmp_path):
    """The statistics layer reads the datasets, never the other way round: jobdir (the datasets'
    layer) importing the statistics is named and fails the check."""
    _, r = _jobdir_appended(tmp_path, "\nfrom tourney_sim.simulate.stats import load  # noqa: E402\n")
    assert r.returncode != 0
    assert "tourney_sim.simulate.jobdir -> tourney_sim.simulate.stats.load" in r.stdout, r.stdout


def test_an_import_circle_breaks_the_contract(tmp_path):
    """A circle inside a package fails the check, even through an import inside a function (as
    ``detect`` once imported every kind of job)."""
    where, r = _jobdir_appended(tmp_path, "\n\ndef _kinds():\n    from . import jobs  # noqa: F401\n")
    assert r.returncode != 0
    assert "No cycles are allowed in tourney_sim.simulate." in r.stdout, r.stdout
    graph = package_graph(where)
    (found,) = cycles(graph)
    named = circle(graph, found)
    assert [line.split(" (line")[0] for line in named] == ["tourney_sim.simulate.jobdir -> tourney_sim.simulate.jobs",
                                                           "tourney_sim.simulate.jobs -> tourney_sim.simulate.jobdir"]
    assert named[0].endswith("from . import jobs  # noqa: F401)"), named


def test_no_modules_import_round_in_a_circle():
    """Every module at once (a package's __init__ and the modules inside it, modules of different
    packages): no circle, imports inside functions included."""
    graph = package_graph()
    found = cycles(graph)
    assert not found, "import circles:\n" + "\n\n".join("\n".join(circle(graph, c)) for c in found)


def test_every_module_sits_in_a_layer():
    """A new module of the orchestration is named in the layers contract, or it escapes it."""
    contract = next(c for c in tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
                    if c["name"].startswith("engine <- strategies"))
    layers = [name.strip() for layer in contract["layers"] for name in layer.replace("|", ":").split(":")]
    outside = sorted(m for m in package_graph().modules
                     if m not in UNLAYERED and not any(m == x or m.startswith(x + ".") for x in layers))
    assert not outside, f"modules in no layer of pyproject's [tool.importlinter]: {', '.join(outside)}"
