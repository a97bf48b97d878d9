"""What each node of a fitted tree says, written for people: numbers, escaped user text, branch
conditions and predictions, shared by every export format (JSON, DOT, text rules, J48)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from dtcore.export.thresholds import node_thresholds
from dtcore.schema import Schema
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

_IMPURITY_NAMES = {
    "gini": "gini",
    "entropy": "entropy",
    "log_loss": "entropy",
    "gain_ratio": "entropy",
    "gain": "entropy",
    "information_gain": "entropy",
    "squared_error": "squared_error",
    "friedman_mse": "friedman_mse",
    "absolute_error": "absolute_error",
    "poisson": "poisson",
}


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: code points XML 1.0 does not allow beyond the controls (lone surrogates, U+FFFE, U+FFFF):
#: Graphviz's HTML labels and SVG are XML, so one of them makes ``dot`` fail "not well-formed"
_NON_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")
_HTML_ESCAPES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
    "[": "&#91;",
    "]": "&#93;",
    "{": "&#123;",
    "}": "&#125;",
    "|": "&#124;",
    "\\": "&#92;",
}
_HTML_RE = re.compile("[" + re.escape("".join(_HTML_ESCAPES)) + "]")


def html_escape(text: object) -> str:
    """Text safe inside a Graphviz HTML-like label: markup characters become entities, and so do
    the record/escString characters ``[ ] { } | \\``; control characters become spaces and code
    points XML does not allow become U+FFFD."""
    text = _NON_XML.sub("\ufffd", _CONTROL.sub(" ", str(text)))
    return _HTML_RE.sub(lambda m: _HTML_ESCAPES[m.group(0)], text)


def dot_string(text: object) -> str:
    """User text inside a double-quoted DOT attribute (a tooltip): one line, ``"`` and ``\\``
    escaped so that Graphviz's escString sequences (``\\N``, ``\\l``) stay literal."""
    return plain_text(text).replace("\\", "\\\\").replace('"', '\\"')


def plain_text(text: object) -> str:
    """User text on one line (text rules): newlines and control characters become spaces, code
    points no text file should hold (lone surrogates, U+FFFE, U+FFFF) become U+FFFD."""
    return _NON_XML.sub("\ufffd", _CONTROL.sub(" ", str(text)))


@dataclass(frozen=True)
class Branch:
    """One outgoing branch: ``op`` is le/gt/interval/eq/in, ``operand`` plain (unescaped) text."""

    index: int
    child: int
    op: str
    operand: str
    values: tuple  # the cut(s) or category labels, exact, for JSON
    missing: bool  # missing values (and categories without a branch) go this way
    also: tuple = ()  # categories with no branch of their own, routed here like missing values


_SYMBOLS = {
    "le": "≤",
    "gt": ">",
    "interval": "∈",
    "eq": "=",
    "in": "∈",
    "known": "is known",
    "missing": "is missing",
}
_ASCII = {
    "le": "<=",
    "gt": "> ",
    "interval": "in",
    "eq": "=",
    "in": "in",
    "known": "is known",
    "missing": "is missing",
}


def branch_codes(tree: Tree, node: int) -> list[list[int]]:
    """The category codes each branch of the categorical test at ``node`` takes, ascending: one
    stable sort of its table. The one home of that grouping for ``branches`` and the code
    exports (a scan of the table per branch is quadratic in the labels: with 10⁵ labels, each
    its own branch, the Python and SQL exports ran for minutes)."""
    cb = tree.cat_branch_of(node)
    n_kids = len(tree.children_of(node))
    order = np.argsort(cb, kind="stable")
    bounds = np.searchsorted(cb[order], np.arange(n_kids + 1)).tolist()
    codes = order.tolist()
    return [codes[bounds[k] : bounds[k + 1]] for k in range(n_kids)]


def branches(tree: Tree, schema: Schema, node: int, precision: int | None = None) -> list[Branch]:
    """The branches of an internal node, with conditions written at ``precision``."""
    kids = tree.children_of(node)
    mb = int(tree.missing_branch[node])
    out = []
    if tree.is_categorical_test(node):
        cats = schema.features[int(tree.feature[node])].categories
        orphans = unassigned_categories(tree, schema, node) if mb >= 0 else ()
        for k, (child, codes) in enumerate(zip(kids, branch_codes(tree, node), strict=True)):
            labels = tuple(cats[c] if c < len(cats) else f"#{c}" for c in codes)
            if len(labels) == 1:
                op, operand = "eq", labels[0]
            else:
                op, operand = "in", "{" + ", ".join(labels) + "}"
            out.append(Branch(k, int(child), op, operand, labels, mb == k, orphans if mb == k else ()))
        return out
    cuts = tree.cuts_of(node)
    if len(cuts) == 1 and cuts[0] == np.inf and len(kids) == 2:
        # CART's "missing values alone" split: every known value left, missing ones right
        return [
            Branch(0, int(kids[0]), "known", "", (np.inf,), mb == 0),
            Branch(1, int(kids[1]), "missing", "", (np.inf,), mb == 1),
        ]
    s = node_thresholds(tree, node, precision)  # never rounded across a training value
    for k, child in enumerate(kids):
        vals: tuple[float, ...]
        if k == 0:
            op, operand, vals = "le", s[0], (float(cuts[0]),)
        elif k == len(cuts):
            op, operand, vals = "gt", s[-1], (float(cuts[-1]),)
        else:
            op, operand, vals = "interval", f"({s[k - 1]}, {s[k]}]", (float(cuts[k - 1]), float(cuts[k]))
        out.append(Branch(k, int(child), op, operand, vals, mb == k))
    return out


def condition_text(b: Branch, ascii_ops: bool = False) -> str:
    return f"{(_ASCII if ascii_ops else _SYMBOLS)[b.op]} {b.operand}".rstrip()


def unassigned_categories(tree: Tree, schema: Schema, node: int) -> tuple[str, ...]:
    """Categories with no branch at a categorical test (they are routed like missing values)."""
    if not tree.is_categorical_test(node):
        return ()
    cats = schema.features[int(tree.feature[node])].categories
    cb = tree.cat_branch_of(node)[: len(cats)]
    return tuple(map(cats.__getitem__, np.flatnonzero(cb < 0).tolist()))  # C speed: 10⁵ labels


def prediction_sources(tree: Tree, nodes: np.ndarray) -> np.ndarray:
    """The node whose class each of ``nodes`` predicts: the one home of the empty-node rule. A
    node predicts its own class; an empty node (weight 0) its nearest non-empty ancestor's, as
    ID3/C4.5 label empty branches (the root's own when every ancestor is empty)."""
    source = np.array(nodes, dtype=np.intp)
    empty = tree.value.sum(axis=1) <= 0
    while True:  # a step up per pass: as many passes as the longest run of empty ancestors (few)
        up = empty[source] & (tree.parent[source] >= 0)
        if not up.any():
            return source
        source[up] = tree.parent[source[up]]


def node_prediction_index(tree: Tree, node: int) -> int:
    """The class a node predicts (``Tree.node_classes`` of its :func:`prediction_sources`)."""
    return int(tree.node_classes(int(prediction_sources(tree, np.array([node]))[0])))


def node_prediction_indices(tree: Tree) -> np.ndarray:
    """:func:`node_prediction_index` of every node at once (a per-node export reads it here)."""
    return tree.node_classes()[prediction_sources(tree, np.arange(tree.node_count))]


def is_empty(tree: Tree, node: int) -> bool:
    return bool(tree.weighted_n[node] <= 0)


def unwrap_model(
    model: BaseTreeEstimator | Tree, schema: Schema | None
) -> tuple[Tree, Schema, BaseTreeEstimator | None]:
    """(tree, schema, estimator or None) from an estimator or a bare Tree plus its Schema."""
    if isinstance(model, Tree):
        if schema is None:
            raise ValueError("a bare Tree needs its Schema: pass schema=...")
        return model, schema, None
    if not hasattr(model, "tree_"):
        raise ValueError(f"{type(model).__name__} is not fitted: call fit first")
    return model.tree_, schema or model.schema_, model


def impurity_name(estimator: BaseTreeEstimator | None = None, criterion: str | None = None) -> str:
    """The name to print next to node impurity (the criterion the node impurity is measured by)."""
    if criterion is None and estimator is not None:
        criterion = estimator.get_params().get("criterion")
        if criterion is None and getattr(estimator, "algorithm", "") in ("id3", "c45"):
            criterion = "entropy"
    if criterion is None:
        return "impurity"
    return _IMPURITY_NAMES.get(str(criterion), str(criterion))
