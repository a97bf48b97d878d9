"""The project's import graph, read from the source (docs/architecture.md): no cycles, counting
the imports inside functions and under ``TYPE_CHECKING``; no module loaded by a name string; no
private name imported across modules; dtcore's top-level modules are its kernels, built on
numpy and each other only."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.source_trees import parsed

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dtcore", "dtdask", "ui", "pages")


@dataclass(frozen=True)
class Module:
    name: str
    path: Path

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"


def project_modules() -> dict[str, Module]:
    out = {}
    for top in PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = Module(name, path)
    out["app"] = Module("app", ROOT / "app.py")
    return out


MODULES = project_modules()


def absolute_target(module: Module, node: ast.ImportFrom) -> str:
    """The module an ``from … import`` names, with relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.name.split(".")
    if not module.is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: Module) -> list[tuple[str, str, int]]:
    """Every project module ``module`` imports, anywhere in the file: (target, imported name or
    "" for a plain import, line)."""
    tree = parsed(module.path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    out.append((alias.name, "", node.lineno))
        elif isinstance(node, ast.ImportFrom):
            target = absolute_target(module, node)
            if target.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.append((sub, "", node.lineno) if sub in MODULES else (target, alias.name, node.lineno))
    return out


def graph() -> dict[str, set[str]]:
    """module → the project modules it imports (a package's own ``__init__`` counts as a module)."""
    return {
        name: {t for t, _, _ in imports_of(m) if t in MODULES and t != name} for name, m in MODULES.items()
    }


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    counter = 0
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(g[child]))))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_counting_function_level_and_type_checking_imports():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


#: modules that call importlib on purpose, and why (never for the project's own modules)
DYNAMIC_IMPORTS = {
    "dtcore/conventions.py": "scikit-learn's Tags, loaded only when scikit-learn itself asks for them",
}


def test_no_project_module_is_loaded_by_a_name_string():
    for m in MODULES.values():
        rel = m.path.relative_to(ROOT).as_posix()
        tree = parsed(m.path)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name not in ("import_module", "__import__", "spec_from_file_location"):
                continue
            assert rel in DYNAMIC_IMPORTS, f"{rel}:{node.lineno} loads a module by name ({name})"
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    assert arg.value.split(".")[0] not in PACKAGES, f"{rel}:{node.lineno}: {arg.value}"


def test_no_private_name_is_imported_from_another_module():
    bad = [
        f"{m.path.relative_to(ROOT)}:{line}: {target}.{name}"
        for m in MODULES.values()
        for target, name, line in imports_of(m)
        if name.startswith("_")
        and not name.startswith("__")
        or (not name and target.rsplit(".", 1)[-1].startswith("_") and not target.endswith("__"))
    ]
    assert not bad, "private names imported across modules:\n" + "\n".join(bad)


#: dtcore's public API modules, which may import any part of dtcore (the registry of estimators
#: by name needs the algorithms' classes); every other top-level module is a kernel
API_MODULES = {"dtcore", "dtcore.__main__", "dtcore.estimators"}


def top_level_dtcore() -> list[Module]:
    return [
        m for n, m in MODULES.items() if n.count(".") == 1 and n.startswith("dtcore.") and not m.is_package
    ]


@pytest.mark.parametrize("module", top_level_dtcore(), ids=lambda m: m.name)
def test_top_level_dtcore_modules_import_only_top_level_modules_numpy_and_the_standard_library(module):
    if module.name in API_MODULES:
        return
    tree = parsed(module.path)
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    assert roots <= set(sys.stdlib_module_names) | {"numpy", "dtcore"}, roots
    for target, _, line in imports_of(module):
        assert target.count(".") <= 1 and target not in ("dtcore",) or target in API_MODULES, (
            f"{module.name}:{line} imports {target}, below the top level"
        )
        kernel = MODULES.get(target)
        assert kernel is None or not kernel.is_package, f"{module.name}:{line} imports the package {target}"


def test_dtcore_has_a_short_top_level():
    names = sorted(m.name for m in top_level_dtcore() if m.name not in API_MODULES)
    assert len(names) <= 12, f"{len(names)} top-level kernels: {names}"
