"""Each of the builders' rules has one home that the builders, the split explorer, the CLI and
the app call: these tests pin the home (the explorer's figure equals the builder's) and check on
the source that no second copy comes back."""

import ast
from pathlib import Path

import numpy as np
import pytest

from dtcore.entropy.cutpoints import mdl_penalty

ROOT = Path(__file__).resolve().parents[2]


def functions(folder: str = "dtcore"):
    """(module path, function node) for every function defined under ``folder``."""
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path.relative_to(ROOT).as_posix(), node


def names_in(node: ast.AST) -> set[str]:
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
    return out


# -- 1. C4.5's MDL penalty ---------------------------------------------------------------------


def test_mdl_penalty_is_written_once():
    """log2(#candidates) appears only in ``cutpoints.mdl_penalty``."""
    homes = []
    for rel, fn in functions():
        for call in ast.walk(fn):
            if not isinstance(call, ast.Call) or "log2" not in names_in(call.func):
                continue
            if any("candidates" in name or name == "n" for a in call.args for name in names_in(a)):
                homes.append((rel, fn.name))
    assert set(homes) == {("dtcore/entropy/cutpoints.py", "mdl_penalty")}, homes


def test_mdl_penalty_values():
    assert mdl_penalty(37, 40.0) == pytest.approx(np.log2(37) / 40)
    assert mdl_penalty(0, 10.0) == 0.0 and mdl_penalty(1, 10.0) == 0.0
    assert np.array_equal(mdl_penalty(np.array([1, 4]), np.array([2.0, 4.0])), [0.0, 0.5])
