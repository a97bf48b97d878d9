"""The layers of docs/architecture.md, checked on the source: imports go one way only
(pages → ui → dtcore; in ui, sections → state), dtcore imports numpy and the standard library
only, and only ui/state, ui/sections (and the pages) touch Streamlit."""

import ast
import sys
from pathlib import Path

import pytest

from tests.source_trees import parsed

ROOT = Path(__file__).resolve().parents[1]


def imported_roots(path: Path) -> set[str]:
    """Top-level names of every absolute import in a file (relative imports stay inside)."""
    tree = parsed(path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", files("dtcore"), ids=lambda p: str(p.relative_to(ROOT)))
def test_dtcore_imports_numpy_and_the_standard_library_only(path):
    foreign = imported_roots(path) - set(sys.stdlib_module_names) - {"numpy", "dtcore"}
    assert not foreign, f"{path.relative_to(ROOT)} imports {sorted(foreign)}"


#: the folders of ui that may import Streamlit: the state, and the page sections
STREAMLIT_FOLDERS = ("ui/state", "ui/sections")


@pytest.mark.parametrize("folder", ["ui/services", "ui/views", "ui/figures"])
def test_only_the_state_and_the_sections_touch_streamlit(folder):
    for path in files(folder):
        assert "streamlit" not in imported_roots(path), path.relative_to(ROOT)


def test_no_ui_module_outside_state_and_sections_imports_streamlit():
    for path in files("ui"):
        if not any(path.is_relative_to(ROOT / folder) for folder in STREAMLIT_FOLDERS):
            assert "streamlit" not in imported_roots(path), path.relative_to(ROOT)


def imported_modules(path: Path) -> set[str]:
    """Dotted names of every absolute import in a file, and of ``from x import y``'s ``x.y``."""
    tree = parsed(path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return out


def test_the_state_imports_no_page_section():
    """Sections read and write the state; the state never draws a section."""
    for path in files("ui/state"):
        sections = {m for m in imported_modules(path) if m == "ui.sections" or m.startswith("ui.sections.")}
        assert not sections, f"{path.relative_to(ROOT)} imports {sorted(sections)}"


@pytest.mark.parametrize("folder", ["ui/services", "ui/views"])
def test_services_and_views_draw_no_figures(folder):
    for path in files(folder):
        assert "plotly" not in imported_roots(path), path.relative_to(ROOT)


def test_nothing_below_the_pages_imports_a_page_and_dtcore_imports_no_app_code():
    for path in files("ui") + files("dtcore"):
        roots = imported_roots(path)
        assert "pages" not in roots and "app" not in roots, path.relative_to(ROOT)
        if path.is_relative_to(ROOT / "dtcore"):
            assert "ui" not in roots, path.relative_to(ROOT)


#: the one module of the app that talks to Dask (the large-data source, ui/services/large_data.py);
#: every other page and ui module works in memory and reaches Dask only through it
DASK_USERS = {"ui/services/large_data.py"}
DASK_ROOTS = {"dtdask", "dask", "distributed"}


def test_only_the_large_data_service_imports_dask_and_dtdask_imports_no_app_code():
    for path in files("ui") + files("pages") + [ROOT / "app.py"]:
        rel = path.relative_to(ROOT).as_posix()
        if rel not in DASK_USERS:
            assert not imported_roots(path) & DASK_ROOTS, rel
    for path in files("dtdask"):
        assert not imported_roots(path) & {"ui", "pages", "app", "streamlit"}, path.relative_to(ROOT)
    for path in files("dtcore"):
        assert "dtdask" not in imported_roots(path), path.relative_to(ROOT)


#: modules allowed past the size limit, with the reason (docs/architecture.md)
LONG_MODULES = {
    "dtcore/cart/grower.py": "CART's level-wise builder: one vectorised kernel over a whole level",
    "dtcore/cart/splitter.py": "CART's candidate scans, vectorised over positions and the nodes of a level",
    "dtcore/entropy/cutpoints.py": "every cut of every feature at every node of a level, in one numpy pass",
}


def test_modules_stay_small():
    paths = files("dtcore") + files("ui") + files("pages") + [ROOT / "app.py"]
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        assert n <= 500 or rel in LONG_MODULES, f"{rel} has {n} lines: split it by what it holds"
