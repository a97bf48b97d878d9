"""docs/architecture.md stays true to the code: its module tables name every dtcore and dtdask
module and nothing that is not there, and its table of which folder may import which covers every
import between folders that the source makes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_import_graph import API_MODULES, MODULES, graph

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def table_rows(heading: str) -> list[list[str]]:
    """The body rows of the first table after ``heading``, as lists of cells."""
    section = DOC[DOC.index(heading) :]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("| ---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows and not line.startswith("|"):
            break
    return rows[1:]  # the header row


def documented_modules(heading: str) -> set[str]:
    out = set()
    for folder_cell, text in table_rows(heading):
        folder = folder_cell.strip("`")
        for name in re.findall(r"`([a-z_0-9]+\.py)`", text):
            out.add(f"{folder}{name}")
    return out


def source_modules(top: str) -> set[str]:
    return {p.relative_to(ROOT).as_posix() for p in (ROOT / top).rglob("*.py") if p.name != "__init__.py"} | {
        f"{top}/__init__.py"
    }


@pytest.mark.parametrize(
    "heading, top",
    [("## dtcore: the algorithms", "dtcore"), ("## dtdask: the Dask engine", "dtdask")],
)
def test_the_module_tables_name_every_module_and_only_real_ones(heading, top):
    doc = documented_modules(heading)
    real = source_modules(top)
    if top == "dtdask":
        real.discard("dtdask/__init__.py")
    assert not doc - real, f"named in docs/architecture.md but not in the source: {sorted(doc - real)}"
    assert not real - doc, f"missing from docs/architecture.md's table: {sorted(real - doc)}"


def folder_of(name: str) -> str:
    """A dtcore module's layer as the doc's import table names it."""
    parts = name.split(".")
    if parts[0] == "dtdask":
        return "`dtdask`"
    if name in API_MODULES:
        return "API"
    if len(parts) == 2 and not MODULES[name].is_package:
        return "kernels"
    if parts[1] == "cart" and len(parts) > 2 and parts[2] == "hist":
        return "`cart/hist`"
    return f"`{parts[1]}`"


def allowed() -> dict[str, set[str]]:
    out = {}
    for folder, may in table_rows("### Which folder may import which"):
        names = set(re.findall(r"`[a-z_/0-9]+`|\bAPI\b", may))
        out[folder] = names | {"kernels", folder}
    return out


def test_every_import_between_folders_is_in_the_doc_table():
    table = allowed()
    bad = []
    for name, targets in graph().items():
        if not name.startswith(("dtcore", "dtdask")):
            continue
        src = folder_of(name)
        assert src in table, f"{src} (of {name}) has no row in docs/architecture.md's import table"
        for t in targets:
            if t.startswith("dtcore") and folder_of(t) not in table[src]:
                bad.append(f"{name} → {t} ({src} → {folder_of(t)})")
    assert not bad, "imports the doc's table does not allow:\n" + "\n".join(bad)


def test_the_doc_table_allows_nothing_the_code_does_not_do():
    """A line of the table that no import needs is stale: it would hide a layering change."""
    used: dict[str, set[str]] = {}
    for name, targets in graph().items():
        if name.startswith(("dtcore", "dtdask")):
            used.setdefault(folder_of(name), set()).update(
                folder_of(t) for t in targets if t.startswith("dtcore")
            )
    for folder, may in allowed().items():
        extra = may - used.get(folder, set()) - {"kernels", folder}
        assert not extra, f"docs/architecture.md lets {folder} import {sorted(extra)}, which no module does"
