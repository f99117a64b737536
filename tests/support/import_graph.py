"""The import graph of ``tourney_sim`` as it is installed, for ``lint-imports`` (the contracts of
``[tool.importlinter]`` in pyproject.toml) and ``tests/test_layers.py``.

pyproject maps the repository's folders into the one package ``tourney_sim`` (``package-dir``:
``simulate/`` is ``tourney_sim.simulate``, ``reports/`` is ``tourney_sim.reports``, ...).
import-linter (grimp under it) reads a package from its folder, and ``lint-imports`` puts the
working directory first on ``sys.path``: run from the repository root it finds the folder
``tourney_sim/`` alone, whatever the install (an editable install's import hook, or even its link
tree, comes after it), and misses the package's other folders. So pyproject's contracts use the
contract types here (its ``contract_types``): import-linter's own, checked on
:func:`package_graph`, every mapped folder read where it is under the name it is installed as.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import grimp
from grimp.application.config import settings
from grimp.application.ports.packagefinder import AbstractPackageFinder
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.layers import LayersContract

#: the repository: the folder holding pyproject.toml and tests/
ROOT = Path(__file__).resolve().parents[2]


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Each package pyproject maps to a folder (``[tool.setuptools] package-dir``) -> the folder."""
    config = tomllib.loads((root / "pyproject.toml").read_text())
    return {name: root / folder for name, folder in config["tool"]["setuptools"]["package-dir"].items()}


class _MappedFinder(AbstractPackageFinder):
    """grimp's package finder, answering from pyproject's map instead of the import system."""

    def __init__(self, dirs: dict[str, Path]):
        self.dirs = dirs

    def determine_package_directories(self, package_name: str, file_system) -> set[str]:
        return {str(self.dirs[package_name])}


def package_graph(root: Path = ROOT) -> grimp.ImportGraph:
    """Every import of ``tourney_sim``'s modules, as installed: each folder pyproject maps, under
    its package name (a module's imports inside functions too)."""
    dirs = package_dirs(root)
    finder = settings.PACKAGE_FINDER
    settings.configure(PACKAGE_FINDER=_MappedFinder(dirs))
    try:
        return grimp.build_graph(*dirs, cache_dir=None)
    finally:
        settings.configure(PACKAGE_FINDER=finder)


def cycles(graph: grimp.ImportGraph, package: str = "tourney_sim") -> list[list[str]]:
    """The import circles among the modules of ``package``: each group of modules that import one
    another round (a strongly connected component of more than one module), sorted."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    inside = set(modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & inside) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups = []
    for start in modules:  # Tarjan's algorithm, without recursion
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        work = [(start, iter(edges[start]))]
        while work:
            node, todo = work[-1]
            step = next(todo, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    work.append((step, iter(edges[step])))
                elif step in stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = [stack.pop()]
                while group[-1] != node:
                    group.append(stack.pop())
                if len(group) > 1:
                    groups.append(sorted(group))
    return sorted(groups)


def circle(graph: grimp.ImportGraph, group: list[str]) -> list[str]:
    """The shortest import circle through modules of ``group`` (one of :func:`cycles`), one import
    a line: ``importer -> imported (line N: the line)``, the last back to the first importer."""
    members = set(group)
    best: list[str] | None = None
    for start in group:  # breadth first from each module, back to itself
        came: dict[str, str] = {}
        frontier = [start]
        while frontier and start not in came:
            nxt = []
            for m in frontier:
                for w in sorted(graph.find_modules_directly_imported_by(m) & members):
                    if w not in came:
                        came[w] = m
                        nxt.append(w)
            frontier = nxt
        path = [start]
        while len(path) == 1 or path[-1] != start:
            path.append(came[path[-1]])
        path.reverse()  # start -> ... -> start
        if best is None or len(path) < len(best):
            best = path
    lines = []
    for importer, imported in zip(best, best[1:]):
        d = graph.get_import_details(importer=importer, imported=imported)[0]
        lines.append(f"{importer} -> {imported} (line {d['line_number']}: {d['line_contents']})")
    return lines


class Layers(LayersContract):
    """import-linter's ``layers`` contract on the whole package (:func:`package_graph`)."""

    def check(self, graph, verbose):
        return super().check(package_graph(), verbose)


class AcyclicSiblings(AcyclicSiblingsContract):
    """import-linter's ``acyclic_siblings`` contract on the whole package (:func:`package_graph`)."""

    def check(self, graph, verbose):
        return super().check(package_graph(), verbose)
