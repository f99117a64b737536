"""docs/components.md's key-by-key tables are the games' declarations (scripts/components_doc.py)."""
import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "components_doc.py"


def _script():
    spec = importlib.util.spec_from_file_location("components_doc", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_components_doc_is_current():
    doc = _script()
    text = doc.DOC.read_text()
    assert doc.current_doc(text) == text, "run python scripts/components_doc.py --update"
    for game in ("colleagues",):
        assert f"(`{game}`)" in text


def test_the_generated_tables_follow_the_declarations():
    doc = _script()
    assert doc.runs([1, 1, 1, 1, 2, 2, 3]) == "1 ×4, 2 ×2, 3"
    assert doc.runs(list(range(1, 61))) == "1–60"
    assert doc.runs([2, 3, 7, 0, 0]) == "2, 3, 7, 0 ×2"
    stale = doc.DOC.read_text().replace("| 0 to 99 | 9 |", "| 0 to 98 | 9 |")
    assert doc.current_doc(stale) != stale
