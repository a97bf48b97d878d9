"""The parsed source files the architecture and rule-home tests read: each file parsed once per
test process (a dozen tests walk the same sources; they only read the trees)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the Python file ``path``."""
    return ast.parse(Path(path).read_text(encoding="utf-8"))
