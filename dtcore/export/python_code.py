"""A fitted tree as a runnable, dependency-free Python module: ``predict(row)`` (the class label or
the value) and, for classification, ``predict_proba(row)`` (a dict class → probability).

``row`` is a dict of feature name → value. The generated code reads it as the model reads data
(``dtcore.schema``): None, NaN and the model's missing tokens are missing; a category is matched
by its label text (outer blanks dropped, 3.0 read as "3"); a label the model never saw, or one
with no branch at a test, is treated like a missing value. Missing values follow the model's rule
exactly: CART's learned direction, or C4.5's (SPEC §6): the row goes down every branch, weighted
by the branch's share of the node's training weight, and the leaves' distributions are mixed — so
the generated function gives the model's ``predict_proba`` (to float rounding) on every row.

Every piece of user text (feature names, labels, classes) enters the code as a Python literal
(``repr``), never as code or a comment; the output is deterministic (pre-order node ids, exact
float literals). One function per test node keeps nesting flat; a tree deeper than Python's
recursion limit (about 1 000 levels) cannot be run this way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dtcore.export.labels import branch_codes, unwrap_model
from dtcore.schema import Schema
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

_HELPERS = '''
_INF = float("inf")


def _missing(v):
    if v is None:
        return True
    if isinstance(v, float) and v != v:
        return True
    return isinstance(v, str) and v.strip() in MISSING_TOKENS


def _label(v):
    """The category label of a value, None when missing."""
    if _missing(v):
        return None
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 2**53 else repr(v)
    return str(v)


def _number(v, name):
    """The number of a value, None when missing."""
    if _missing(v):
        return None
    if isinstance(v, bool):
        raise ValueError(f"feature {name!r} is continuous; {v!r} is not a number")
    try:
        x = float(v.strip() if isinstance(v, str) else v)
    except (TypeError, ValueError):
        raise ValueError(f"feature {name!r} is continuous; {v!r} is not a number") from None
    if x != x:
        return None
    if x in (_INF, -_INF):
        raise ValueError(f"feature {name!r} holds an infinite value")
    return x


def _mix(parts):
    """C4.5's rule for a missing value: the branches' results, weighted by their shares."""
    out = [0.0] * N_OUTPUTS
    for share, result in parts:
        for k in range(N_OUTPUTS):
            out[k] += share * result[k]
    return tuple(out)
'''


def _lit(x: float) -> str:
    """An exact float literal (``repr`` round-trips); infinities through ``_INF``."""
    x = float(x)
    if x == float("inf"):
        return "_INF"
    if x == float("-inf"):
        return "-_INF"
    return repr(x)


def _tuple(items: list[str]) -> str:
    """A tuple literal: ``(a, b)``, ``(a,)`` or ``()``."""
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _result(tree: Tree, dist: list[tuple[float, ...]], i: int) -> str:
    """The expression for child i: a leaf's tuple, or a call of its test's function."""
    if tree.feature[i] < 0:
        return _tuple([_lit(p) for p in dist[i]])
    return f"_node{i}(row)"


def _node_function(tree: Tree, schema: Schema, i: int, dist: list[tuple[float, ...]]) -> list[str]:
    j = int(tree.feature[i])
    feat = schema.features[j]
    kids = [int(k) for k in tree.children_of(i)]
    name = repr(feat.name)
    lines = [f"def _node{i}(row):"]
    if feat.is_categorical:
        lines.append(f"    v = _label(row.get({name}))")
        for child, codes in zip(kids, branch_codes(tree, i), strict=True):
            labels = [feat.categories[c] for c in codes if c < len(feat.categories)]
            if not labels:
                continue
            test = (
                f"v == {labels[0]!r}" if len(labels) == 1 else f"v in ({', '.join(repr(s) for s in labels)})"
            )
            lines += [f"    if {test}:", f"        return {_result(tree, dist, child)}"]
    else:
        lines.append(f"    x = _number(row.get({name}), {name})")
        lines.append("    if x is not None:")
        cuts = tree.cuts_of(i)
        for k, child in enumerate(kids):
            if k < cuts.size:
                lines += [
                    f"        if x <= {_lit(cuts[k])}:",
                    f"            return {_result(tree, dist, child)}",
                ]
            else:
                lines.append(f"        return {_result(tree, dist, child)}")
    mb = int(tree.missing_branch[i])
    if mb >= 0:  # CART: the learned direction
        lines.append(f"    return {_result(tree, dist, kids[mb])}")
    else:  # C4.5: every branch, by its share of the training weight (as Tree.route)
        w = tree.weighted_n[kids]
        tot = float(w.sum())
        shares = [float(v) / tot if tot > 0 else 1.0 / len(kids) for v in w]
        parts = [f"({_lit(s)}, {_result(tree, dist, c)})" for s, c in zip(shares, kids) if s > 0]
        lines += ["    return _mix((", *(f"        {p}," for p in parts), "    ))"]
    return lines


def to_python(model: BaseTreeEstimator | Tree, schema: Schema | None = None) -> str:
    """The Python source of ``predict(row)`` (and ``predict_proba(row)`` for classification)."""
    tree, schema, est = unwrap_model(model, schema)
    classifier = schema.classes is not None
    values = tree.leaf_distribution() if classifier else tree.value[:, :1]
    dist = [tuple(float(v) for v in row) for row in values]
    algorithm = getattr(est, "algorithm", "?")
    task = "classification" if classifier else "regression"
    out = [
        f'"""A decision tree exported by dtcore ({algorithm}, {task}): predict(row), row a dict of',
        "feature name -> value (None, NaN or a missing token = missing). Pure Python, no imports.",
        '"""',
        "",
        f"FEATURES = {_tuple([repr(f.name) for f in schema.features])}",
        f"TARGET = {schema.target!r}",
        f"MISSING_TOKENS = {_tuple([repr(t) for t in schema.missing_tokens])}",
    ]
    if classifier:
        out.append(f"CLASSES = {_tuple([repr(c) for c in schema.classes or ()])}")
    out.append(f"N_OUTPUTS = {len(dist[0]) if dist else 1}")
    out.append(_HELPERS)
    for i in range(tree.node_count):
        if tree.feature[i] >= 0:
            out += ["", *_node_function(tree, schema, i, dist), ""]
    root = _result(tree, dist, 0) if tree.node_count else "(0.0,)"
    out.append("")
    if classifier:
        out += [
            "def predict_proba(row):",
            '    """The class probabilities of one row, as a dict class -> probability."""',
            f"    return dict(zip(CLASSES, {root}))",
            "",
            "",
            "def predict(row):",
            '    """The predicted class of one row (ties: the class declared first)."""',
            f"    p = {root}",
            "    return CLASSES[p.index(max(p))]",
        ]
    else:
        out += [
            "def predict(row):",
            '    """The predicted value of one row."""',
            f"    return {root}[0]",
        ]
    return "\n".join(out) + "\n"
