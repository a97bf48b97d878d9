"""A fitted tree as one SQL ``SELECT``: a ``CASE WHEN`` over the leaves for the prediction and, for
classification, one per class for its probability (standard SQL; tested in SQLite).

The columns are the model's features by name: numbers (INTEGER/REAL) for continuous features,
the category labels as text for categorical ones, and **NULL for a missing value** (a label the
model never saw, or one with no branch at a test, is treated like NULL). NULL handling:

* CART: a NULL follows the direction the split learned for missing values — the model's own
  rule, so the SQL gives the model's prediction on every row.
* C4.5 / ID3 tests that share a missing value out over every branch (SPEC §6) cannot be written
  as one ``CASE``: the SQL sends the NULL down the branch with the **largest training weight**
  (the first such branch on ties) instead. On rows whose route meets no such NULL the SQL equals
  the model; on the others it equals the model with that majority-branch rule
  (:func:`majority_branch_tree`), which may differ from the model's mixed prediction.

Each leaf is one ``WHEN`` holding the conditions on its path (no nesting, so deep trees do not
hit SQL expression depth limits soon). Identifiers are double-quoted with ``"`` doubled, labels
single-quoted with ``'`` doubled, numbers written exactly (``repr``); text holding a NUL
character cannot be written in SQL and is refused. The output is deterministic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dtcore.export.labels import branch_codes, unwrap_model
from dtcore.schema import Schema
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

TRUE, FALSE = "(1 = 1)", "(1 = 0)"


def quote_identifier(name: str) -> str:
    if "\x00" in name:
        raise ValueError(f"the name {name!r} holds a NUL character, which SQL cannot quote")
    return '"' + name.replace('"', '""') + '"'


def quote_text(text: str) -> str:
    if "\x00" in text:
        raise ValueError(f"the label {text!r} holds a NUL character, which SQL cannot quote")
    return "'" + text.replace("'", "''") + "'"


def _num(x: float) -> str:
    return repr(float(x))


def majority_branch_tree(tree: Tree) -> Tree:
    """The tree with every share-out test (``missing_branch`` -1) sending missing values to its
    heaviest branch (first on ties): the rule the SQL export writes."""
    out = tree.copy()
    for i in np.flatnonzero((tree.feature >= 0) & (tree.missing_branch < 0)):
        kids = tree.children_of(int(i))
        out.missing_branch[i] = int(np.argmax(tree.weighted_n[kids]))
    return out


def _condition(
    tree: Tree, schema: Schema, node: int, branch: int, missing_to: int, codes: list[list[int]] | None
) -> str:
    """The SQL condition of taking ``branch`` at ``node`` (missing values go to ``missing_to``);
    ``codes``: a categorical test's ``branch_codes`` (the caller groups a test once), else None."""
    feat = schema.features[int(tree.feature[node])]
    col = quote_identifier(feat.name)
    if feat.is_categorical:
        assert codes is not None
        n = len(feat.categories)
        if branch == missing_to:  # its labels, NULL, and every label with no branch here
            others = sorted(c for b, g in enumerate(codes) if b != branch for c in g if c < n)
            if not others:
                return TRUE
            labels = (feat.categories[c] for c in others)
            return f"({col} IS NULL OR {col} NOT IN ({', '.join(quote_text(s) for s in labels)}))"
        mine = [feat.categories[c] for c in codes[branch] if c < n]
        if not mine:
            return FALSE
        return f"{col} IN ({', '.join(quote_text(s) for s in mine)})"
    cuts = tree.cuts_of(node)
    parts = []
    if branch > 0:
        lo = float(cuts[branch - 1])
        if lo == np.inf:
            parts.append(FALSE)
        else:
            parts.append(f"{col} > {_num(lo)}")
    if branch < cuts.size and float(cuts[branch]) != np.inf:
        parts.append(f"{col} <= {_num(cuts[branch])}")
    known = " AND ".join(parts) if parts else f"{col} IS NOT NULL"
    if branch == missing_to:
        return f"({col} IS NULL OR ({known}))"
    return f"({known})" if len(parts) > 1 else known


def _leaf_conditions(tree: Tree, schema: Schema) -> list[tuple[int, str]]:
    """(leaf, the AND of the conditions on its path), leaves in pre-order."""
    rule = majority_branch_tree(tree)
    # each node's branch at its parent, and each (node, branch) condition written once: a test
    # with 10⁵ branches sits on 10⁵ leaves' paths
    per_parent = np.diff(tree.child_ptr)
    branch_at = np.zeros(tree.node_count, np.int64)
    branch_at[tree.children] = np.arange(tree.children.size) - np.repeat(tree.child_ptr[:-1], per_parent)
    written: dict[tuple[int, int], str] = {}
    grouped: dict[int, list[list[int]]] = {}  # a categorical test's codes per branch, once
    out = []
    for leaf in np.flatnonzero(tree.feature < 0):
        path = tree.path_to(int(leaf))
        conds = []
        for parent, child in zip(path[:-1], path[1:]):
            key = (int(parent), int(branch_at[child]))
            if key not in written:
                codes = None
                if tree.is_categorical_test(key[0]):
                    if key[0] not in grouped:
                        grouped[key[0]] = branch_codes(tree, key[0])
                    codes = grouped[key[0]]
                written[key] = _condition(tree, schema, *key, int(rule.missing_branch[parent]), codes)
            conds.append(written[key])
        out.append((int(leaf), " AND ".join(conds) if conds else TRUE))
    return out


def _case(whens: list[tuple[str, str]], alias: str) -> str:
    body = "\n".join(f"    WHEN {c}\n      THEN {v}" for c, v in whens)
    return f"  CASE\n{body}\n  END AS {quote_identifier(alias)}"


def to_sql(model: BaseTreeEstimator | Tree, schema: Schema | None = None, *, table: str = "data") -> str:
    """``SELECT <prediction>[, <probability per class>] FROM "table";`` (see the module's notes)."""
    tree, schema, est = unwrap_model(model, schema)
    leaves = _leaf_conditions(tree, schema)
    algorithm = getattr(est, "algorithm", "?")
    spreads = bool(np.any((tree.feature >= 0) & (tree.missing_branch < 0)))
    head = [
        f"-- A decision tree exported by dtcore ({algorithm}) as SQL.",
        "-- Columns: numbers for continuous features, labels as text for categorical ones, NULL = missing.",
    ]
    if spreads:
        head.append(
            "-- NULL at a test that shares missing values out over every branch (C4.5, SPEC 6): this SQL "
            "follows the branch with the largest training weight instead (the model mixes all branches)."
        )
    else:
        head.append(
            "-- NULL follows the direction each split learned for missing values (the model's own rule)."
        )
    cols = []
    if schema.classes is not None:
        classes = schema.classes
        dist = tree.leaf_distribution()
        # the model's prediction: the first most probable class of the leaf's predict_proba row
        predicted = tree.node_classes()
        label = [(c, quote_text(classes[int(predicted[leaf])])) for leaf, c in leaves]
        cols.append(_case(label, "prediction"))
        for k, name in enumerate(classes):
            cols.append(_case([(c, _num(dist[leaf, k])) for leaf, c in leaves], f"proba_{name}"))
    else:
        cols.append(_case([(c, _num(tree.value[leaf, 0])) for leaf, c in leaves], "prediction"))
    return "\n".join(head) + "\nSELECT\n" + ",\n".join(cols) + f"\nFROM {quote_identifier(table)};\n"
