"""Weka J48's text form of a tree (``J48 pruned tree`` body: ``|   `` per level,
``attr = value: class (N/E)``) and the Java/Weka number formatting it needs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from dtcore.criteria import SMALL
from dtcore.export.labels import branch_codes
from dtcore.pruning.ebp import add_errs
from dtcore.schema import Schema
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator


def _java_double(x: float) -> str:
    """Java's Double.toString for the values J48 prints (rounded to 2 decimals)."""
    x = float(x)
    if x == 0:
        return "0.0"
    if 1e-3 <= abs(x) < 1e7:
        s = repr(x)
        return s if ("." in s or "e" in s) else s + ".0"
    m, e = f"{x:.16e}".split("e")
    m = m.rstrip("0").rstrip(".")
    if "." not in m:
        m += ".0"
    return f"{m}E{int(e)}"


def _round2(x: float) -> float:
    return math.floor(x * 100.0 + 0.5) / 100.0  # Java's Math.round(x·100)/100


def weka_double(value: float, digits: int = 6) -> str:
    """Weka's Utils.doubleToString(value, digits): rounded, trailing zeros dropped."""
    temp = value * 10.0**digits
    p = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    if p == 0:
        return "0"
    s = str(abs(p)).rjust(digits + 1, "0")
    s = s[:-digits] + "." + s[-digits:]
    s = s.rstrip("0").rstrip(".")
    return ("-" if p < 0 else "") + s


def _leaf_label(tree: Tree, node: int, classes: Sequence[str], errors: str, cf: float, z: float | str) -> str:
    counts = tree.value[node]
    N = float(tree.weighted_n[node])
    cls = classes[int(np.argmax(counts))]  # Weka's maxClass (the first largest count), as J48 prints it
    text = f"{cls} ({_java_double(_round2(N))}"
    if N > 0:
        e = N - float(counts.max())
        if errors == "estimated":
            e = e + add_errs(N, e, cf, z)
        if e > SMALL:
            text += "/" + _java_double(_round2(e))
    return text + ")"


def _branch_texts(tree: Tree, node: int, schema: Schema) -> list[str]:
    feat = schema.features[int(tree.feature[node])]
    name = feat.name
    if tree.is_categorical_test(node):
        labels = []
        for codes in branch_codes(tree, node):
            cats = [feat.categories[c] for c in codes]
            labels.append(f"{name} = {cats[0]}" if len(cats) == 1 else f"{name} in {{{', '.join(cats)}}}")
        return labels
    cuts = tree.cuts_of(node)
    if cuts.size == 1:
        t = weka_double(float(cuts[0]))
        return [f"{name} <= {t}", f"{name} > {t}"]
    out = [f"{name} <= {weka_double(float(cuts[0]))}"]
    for a, b in zip(cuts[:-1], cuts[1:]):
        out.append(f"{name} in ({weka_double(float(a))}, {weka_double(float(b))}]")
    out.append(f"{name} > {weka_double(float(cuts[-1]))}")
    return out


def tree_to_j48_lines(
    tree: Tree, schema: Schema, errors: str = "actual", cf: float = 0.25, z: float | str = "c45"
) -> list[str]:
    """The tree body exactly as J48 prints it (``|   `` per level, ``attr = value: class (N/E)``)."""
    classes = cast("tuple[str, ...]", schema.classes)  # J48 prints classification trees only
    if tree.is_leaf[0]:
        return [": " + _leaf_label(tree, 0, classes, errors, cf, z)]
    lines = []
    # depth-first on an explicit stack (deep trees need no recursion): a test's branch lines,
    # each followed by its child's subtree; pushed reversed so they pop in branch order
    stack: list[tuple[str, int, int]] = [
        (label, int(child), 0)
        for label, child in reversed(list(zip(_branch_texts(tree, 0, schema), tree.children_of(0))))
    ]
    while stack:
        label, child, depth = stack.pop()
        line = "|   " * depth + label
        if tree.is_leaf[child]:
            lines.append(line + ": " + _leaf_label(tree, child, classes, errors, cf, z))
            continue
        lines.append(line)
        pairs = zip(_branch_texts(tree, child, schema), tree.children_of(child))
        stack.extend((lb, int(c), depth + 1) for lb, c in reversed(list(pairs)))
    return lines


def to_j48_text(estimator: BaseTreeEstimator, errors: str = "actual") -> str:
    """A fitted tree in J48's text form.

    Each leaf reads ``class (N/E)``: N the training weight reaching it (fractional with missing
    values), E its errors — ``errors="actual"`` prints the training errors (what J48 prints),
    ``"estimated"`` the pessimistic estimate e + AddErrs used by pruning (what release 8
    prints after pruning).  The header says which.
    """
    if errors not in ("actual", "estimated"):
        raise ValueError("errors must be 'actual' or 'estimated'")
    estimator._check_fitted()
    tree, schema = estimator.tree_, estimator.schema_
    params = estimator.get_params()
    cf = float(params.get("confidence_factor", 0.25))
    z = params.get("z", "c45")
    pruned = params.get("prune", False)
    title = f"{estimator.algorithm.upper().replace('C45', 'C4.5')} {'pruned' if pruned else 'unpruned'} tree"
    note = (
        "leaf: class (N/E) — N training weight, E actual training errors"
        if errors == "actual"
        else f"leaf: class (N/E) — N training weight, E estimated errors (e + AddErrs, CF={cf})"
    )
    body = tree_to_j48_lines(tree, schema, errors, cf, z)
    return "\n".join(
        [title, "-" * len(title), note, ""]
        + body
        + [
            "",
            f"Number of Leaves  : \t{tree.get_n_leaves()}",
            "",
            f"Size of the tree : \t{tree.node_count}",
            "",
        ]
    )
