"""One import package, tourney_sim (issue 16): the built wheel installs nothing else at the top
level, the installed distribution says so, and no code, test or document uses the old names."""
import importlib.metadata
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAPPED = ("simulate", "strategies", "reports")


def test_installed_distribution_has_one_top_level_package():
    dist = importlib.metadata.distribution("tourney-sim")
    assert dist.read_text("top_level.txt").split() == ["tourney_sim"]
    assert [ep.value for ep in dist.entry_points if ep.name == "tourney"] == ["tourney_sim.command:main"]


@pytest.mark.slow
def test_wheel_holds_only_tourney_sim_and_every_source_file(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for folder in ("tourney_sim", *MAPPED):
        shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path / "dist"), str(src)], check=True, cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("tourney_sim-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"tourney_sim"}
    # every source file of the mapped folders is in the wheel, under tourney_sim/ (a sub-package
    # missing from pyproject.toml's list would be left out silently)
    for folder in MAPPED:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                assert f"tourney_sim/{path.relative_to(ROOT).as_posix()}" in names, path


@pytest.mark.slow
def test_old_top_level_names_do_not_import_outside_the_checkout(tmp_path):
    code = ("import importlib.util, sys; "
            "print([n for n in ('simulate', 'strategies', 'reports') if importlib.util.find_spec(n)]); "
            "import tourney_sim.cli, tourney_sim.strategies, tourney_sim.reports.render")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_python_dash_m_runs_the_cli(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tourney_sim", "games"], cwd=tmp_path, capture_output=True,
                         text=True, check=True)
    listed = [line.split()[0] for line in out.stdout.splitlines() if line and not line[0].isspace()]
    assert listed == ["cardavia", "colleagues", "companeros", "partners"]  # every game folder, by name


OLD_IMPORT = re.compile(r"^\s*(from|import)\s+(simulate|strategies|reports)\b|python -m (simulate)\b", re.M)


def test_no_old_imports_in_code_tests_or_docs():
    files = subprocess.run(["git", "ls-files", "*.py", "*.md", "*.toml"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    offenders = [f for f in files if OLD_IMPORT.search((ROOT / f).read_text(encoding="utf-8"))]
    assert offenders == []


@pytest.mark.slow
def test_start_skips_numbas_blas_check_and_scipy_still_imports(tmp_path):
    """numba's BLAS check imported scipy.linalg on every start (simulate/__init__.py); without
    plug-ins installed tourney answers it "none", and scipy imports normally afterwards."""
    code = ("import sys, tourney_sim.simulate, numba.np.arraymath as a; "
            "print('scipy' in sys.modules, a._HAVE_BLAS); "
            "import scipy.linalg, scipy.stats; print(scipy.stats.norm.cdf(0.0))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "0.5"]
