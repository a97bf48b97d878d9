"""Indented text rules in the style of scikit-learn's ``export_text``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dtcore.export.labels import (
    branches,
    condition_text,
    is_empty,
    node_prediction_indices,
    plain_text,
    unwrap_model,
)
from dtcore.numbers import fmt_num, fmt_weight
from dtcore.schema import Schema
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator


def to_text(
    model: BaseTreeEstimator | Tree,
    schema: Schema | None = None,
    *,
    max_depth: int = 10,
    precision: int = 4,
    show_weights: bool = False,
    spacing: int = 3,
) -> str:
    """Indented rules in the style of scikit-learn's ``export_text`` (ASCII operators so the
    rules paste into code; numbers at ``precision`` significant digits)."""
    tree, schema, _ = unwrap_model(model, schema)
    if spacing < 1:
        raise ValueError("spacing must be ≥ 1")
    classes = schema.classes
    predicted = node_prediction_indices(tree)
    right = "|" + "-" * spacing + " "
    pad = "|" + " " * spacing
    out: list[str] = []
    lines: list[str] = []  # branch lines waiting on the stack below (by index)

    def leaf_text(i: int) -> str:
        if classes is not None:
            text = f"class: {plain_text(classes[predicted[i]])}"
            if show_weights:
                text = "weights: [" + ", ".join(fmt_weight(v) for v in tree.value[i]) + "] " + text
        else:
            text = "value: [" + ", ".join(fmt_num(v, precision) for v in tree.value[i]) + "]"
        if is_empty(tree, i):
            text += " (empty: parent's majority)" if classes is not None else " (empty)"
        return text

    # depth-first on an explicit stack (deep trees need no recursion): an item is a line to
    # print or a node to open; a node's branch lines and their subtrees are pushed reversed
    stack: list[tuple[str, int, int]] = [("node", 0, 0)] if tree.node_count else []
    while stack:
        kind, i, level = stack.pop()
        indent = pad * level
        if kind == "line":
            out.append(indent + right + lines[i])
            continue
        if tree.feature[i] < 0:
            out.append(indent + right + leaf_text(i))
            continue
        if level >= max_depth:
            sub = tree.subtree(i)
            depth = int(tree.depth[sub].max() - tree.depth[i])
            out.append(indent + right + f"truncated branch of depth {depth}")
            continue
        name = plain_text(schema.features[int(tree.feature[i])].name)
        todo: list[tuple[str, int, int]] = []
        for b in branches(tree, schema, i, precision):
            line = f"{name} {plain_text(condition_text(b, ascii_ops=True))}"
            if b.missing and b.op != "missing":
                line += " or missing"
                if b.also:
                    line += " (also " + ", ".join(plain_text(c) for c in b.also) + ")"
            lines.append(line)
            todo += [("line", len(lines) - 1, level), ("node", b.child, level + 1)]
        stack.extend(reversed(todo))
    return "\n".join(out) + "\n"
