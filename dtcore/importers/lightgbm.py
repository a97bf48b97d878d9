"""LightGBM's models read from their files (LightGBM is never imported): the JSON of
``Booster.dump_model()`` and the text model of ``model_to_string()`` / ``save_model``, one tree
by index.

Routing, kept exactly: LightGBM compares the float64 value, ``x <= threshold`` goes left, as in
dtcore. Its missing values by ``missing_type``: ``NaN``: a NaN goes the ``default_left`` side;
``None``: a NaN is read as 0 and goes where 0 goes; ``Zero``: NaN and 0 go the default side,
which dtcore can hold only when that is the side 0 takes anyway (else the import is refused). A
categorical split sends the categories of its bitset left and everything else right (NaN,
negative codes, codes beyond the bitset). Category labels come from ``pandas_categorical`` (a
DataFrame's category names, in code order), else the codes 0…K-1 that ``feature_infos`` lists.

Leaves hold the tree's raw score (shrinkage included): for a binary model a log-odds
contribution, for multiclass a class's score before the softmax, never a probability; the model
adds every tree's leaf (``average_output``: averages them, random-forest mode).
"""

from __future__ import annotations

import json
from typing import Any

from dtcore.base import BaseTreeEstimator
from dtcore.export.origin import clause
from dtcore.importers.assemble import (
    SourceNode,
    bit_set,
    boosting_member_origin,
    build_tree,
    imported_estimator,
    numbered_features,
)
from dtcore.routing import SplitTest
from dtcore.schema import Schema

ZERO_THRESHOLD = 1e-35  # LightGBM's kZeroThreshold: |x| ≤ this is "zero" for missing_type Zero
MISSING_TYPES = {0: "None", 1: "Zero", 2: "NaN"}


def is_lightgbm_dump(d: object) -> bool:
    return isinstance(d, dict) and isinstance(d.get("tree_info"), list) and d.get("name") == "tree"


def is_lightgbm_text(text: str) -> bool:
    head = text.lstrip()[:200]
    return head.startswith("tree\n") and "version=" in head


def from_lightgbm_dump(d: dict, tree: int = 0) -> BaseTreeEstimator:
    """Tree ``tree`` of a parsed ``dump_model()`` JSON, as a regression tree of raw scores."""
    infos = d.get("tree_info") or []
    i = _index(tree, len(infos))
    names = list(d.get("feature_names") or [])
    n_features = int(d.get("max_feature_idx", len(names) - 1)) + 1
    cat_values = {
        j: [int(v) for v in (d.get("feature_infos", {}).get(name, {}).get("values") or [])]
        for j, name in enumerate(names)
    }
    categories = _categories({j: v for j, v in cat_values.items() if v}, d.get("pandas_categorical"))
    nodes = _dump_nodes(infos[i]["tree_structure"], categories)
    return _estimator(
        d, i, len(infos), nodes, n_features, names or None, categories, "LightGBM model dump (JSON)"
    )


def from_lightgbm_text(text: str, tree: int = 0) -> BaseTreeEstimator:
    """Tree ``tree`` of a LightGBM text model, as a regression tree of raw scores."""
    header, blocks, pandas_categorical = _read_text(text)
    i = _index(tree, len(blocks))
    names = header.get("feature_names", "").split()
    n_features = int(header.get("max_feature_idx", len(names) - 1)) + 1
    cat_values: dict[int, list[int]] = {}
    for j, info in enumerate(header.get("feature_infos", "").split()):
        if not info.startswith("[") and info != "none":
            cat_values[j] = [int(v) for v in info.split(":")]
    categories = _categories(cat_values, pandas_categorical)
    nodes = _text_nodes(blocks[i], categories)
    meta = {
        "objective": header.get("objective", "?"),
        "num_tree_per_iteration": int(header.get("num_tree_per_iteration", "1")),
        "average_output": "average_output" in header,
    }
    return _estimator(
        meta, i, len(blocks), nodes, n_features, names or None, categories, "LightGBM text model"
    )


def _index(tree: int, n: int) -> int:
    if not isinstance(tree, int) or not -n <= tree < n:
        raise ValueError(f"tree={tree!r}: this LightGBM model has {n} trees (0 to {n - 1})")
    return tree % n


def _categories(values: dict[int, list[int]], pandas_categorical: Any) -> dict[int, list[str]]:
    """Labels in code order of each categorical feature: ``pandas_categorical`` lists them for
    the category-dtype columns in column order (used when those are all the categorical
    features); else the codes 0…K-1 seen in training."""
    out: dict[int, list[str]] = {}
    lists = pandas_categorical if isinstance(pandas_categorical, list) else []
    if len(lists) != len(values):  # some categorical columns were not of category dtype: the
        lists = []  # lists cannot be matched to features by position, so the codes stand
    for n, j in enumerate(sorted(values)):
        if n < len(lists) and isinstance(lists[n], list):
            out[j] = [str(c) for c in lists[n]]
        else:
            out[j] = [str(c) for c in range(max(max(values[j]), 0) + 1)]
    return out


def _numeric_test(j: int, threshold: float, default_left: bool, missing_type: str) -> SplitTest:
    zero_left = threshold >= 0.0
    if missing_type == "NaN":
        mb = 0 if default_left else 1
    elif missing_type == "None":
        mb = 0 if zero_left else 1  # LightGBM reads NaN as 0
    else:  # Zero: NaN and |x| ≤ 1e-35 go the default side
        # every |x| ≤ 1e-35 takes one side under the threshold only outside [-1e-35, 1e-35)
        all_left, all_right = threshold >= ZERO_THRESHOLD, threshold < -ZERO_THRESHOLD
        if not ((all_left and default_left) or (all_right and not default_left)):
            raise ValueError(
                f"cannot import a LightGBM split on feature {j} with missing_type Zero whose default "
                f"side ({'left' if default_left else 'right'}) is not the side 0 takes: dtcore routes 0 "
                "by its value (train with zero_as_missing=False)"
            )
        mb = 0 if default_left else 1
    return SplitTest(j, cuts=(float(threshold),), missing_branch=mb)


def _categorical_test(j: int, left_codes: set[int], categories: dict[int, list[str]]) -> SplitTest:
    n = len(categories.get(j, ()))
    if n == 0:
        raise ValueError(f"the LightGBM model splits feature {j} by category but lists no categories for it")
    return SplitTest(j, cat_branch=tuple(0 if c in left_codes else 1 for c in range(n)), missing_branch=1)


def _dump_nodes(node: dict, categories: dict[int, list[str]]) -> list[SourceNode]:
    """The nodes of a dump's nested ``tree_structure``, the root first (an explicit stack: a deep
    tree does not reach Python's recursion limit)."""
    stack: list[tuple[dict, int, int]] = [(node, -1, 0)]  # (node, parent position, side)
    kids: dict[int, list[int]] = {}
    raw: list[tuple[dict, SplitTest | None]] = []
    test: SplitTest | None
    while stack:
        nd, parent, side = stack.pop()
        me = len(raw)
        if "leaf_value" in nd:
            raw.append((nd, None))
        else:
            j = int(nd["split_feature"])
            if nd.get("decision_type") == "==":
                codes = {int(c) for c in str(nd["threshold"]).split("||") if c != ""}
                test = _categorical_test(j, codes, categories)
            else:
                test = _numeric_test(
                    j,
                    float(nd["threshold"]),
                    bool(nd.get("default_left")),
                    str(nd.get("missing_type", "None")),
                )
            raw.append((nd, test))
            kids[me] = [-1, -1]
            stack.append((nd["right_child"], me, 1))
            stack.append((nd["left_child"], me, 0))
        if parent >= 0:
            kids[parent][side] = me
    out: list[SourceNode] = []
    for pos, (nd, test) in enumerate(raw):
        if test is None:
            out.append(
                SourceNode(
                    (float(nd["leaf_value"]),),
                    float(nd.get("leaf_weight", 0.0)),
                    int(nd.get("leaf_count", 0)),
                )
            )
        else:
            out.append(
                SourceNode(
                    (float(nd.get("internal_value", 0.0)),),
                    float(nd.get("internal_weight", 0.0)),
                    int(nd.get("internal_count", 0)),
                    test=test,
                    children=tuple(kids[pos]),
                )
            )
    return out


def _read_text(text: str) -> tuple[dict[str, str], list[dict[str, str]], Any]:
    """(header keys, one key → value dict per ``Tree=`` block, pandas_categorical or None)."""
    header: dict[str, str] = {}
    blocks: list[dict[str, str]] = []
    current = header
    pandas_categorical = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("pandas_categorical:"):
            pandas_categorical = json.loads(line[len("pandas_categorical:") :] or "null")
            continue
        if line == "end of trees" or line.startswith("feature_importances:") or line == "parameters:":
            current = {}
            continue
        if line.startswith("Tree="):
            current = {}
            blocks.append(current)
            continue
        if "=" in line:
            key, _, value = line.partition("=")
            current[key] = value
        elif line and current is header:
            header[line] = ""
    if not blocks:
        raise ValueError("the LightGBM text model holds no Tree= blocks")
    return header, blocks, pandas_categorical


def _floats(block: dict[str, str], key: str) -> list[float]:
    return [float(v) for v in block.get(key, "").split()]


def _ints(block: dict[str, str], key: str) -> list[int]:
    return [int(v) for v in block.get(key, "").split()]


def _text_nodes(block: dict[str, str], categories: dict[int, list[str]]) -> list[SourceNode]:
    """Internal nodes first (0…L-2), then the leaves (L-1…); a child < 0 is leaf ~child."""
    if int(block.get("is_linear", "0") or 0):
        raise ValueError("cannot import a LightGBM linear tree: its leaves hold linear models")
    leaf_value = _floats(block, "leaf_value")
    n_leaves = int(block.get("num_leaves", len(leaf_value)))
    leaf_weight = _floats(block, "leaf_weight") or [0.0] * n_leaves
    leaf_count = _ints(block, "leaf_count") or [0] * n_leaves
    n_inner = n_leaves - 1
    inner: list[SourceNode] = []
    if n_inner:
        feature = _ints(block, "split_feature")
        threshold = _floats(block, "threshold")
        decision = _ints(block, "decision_type")
        left, right = _ints(block, "left_child"), _ints(block, "right_child")
        value = _floats(block, "internal_value") or [0.0] * n_inner
        weight = _floats(block, "internal_weight") or [0.0] * n_inner
        count = _ints(block, "internal_count") or [0] * n_inner
        bounds, words = _ints(block, "cat_boundaries"), _ints(block, "cat_threshold")

        def pos(child: int) -> int:
            return child if child >= 0 else n_inner + ~child

        for k in range(n_inner):
            j, dt = feature[k], decision[k]
            if dt & 1:  # categorical: threshold indexes cat_boundaries
                c = int(threshold[k])
                bits = words[bounds[c] : bounds[c + 1]]
                codes = {code for code in range(32 * len(bits)) if bit_set(bits, code)}
                test = _categorical_test(j, codes, categories)
            else:
                test = _numeric_test(j, threshold[k], bool(dt & 2), MISSING_TYPES[(dt >> 2) & 3])
            inner.append(
                SourceNode(
                    (value[k],), weight[k], count[k], test=test, children=(pos(left[k]), pos(right[k]))
                )
            )
    leaves = [SourceNode((leaf_value[k],), leaf_weight[k], leaf_count[k]) for k in range(n_leaves)]
    return inner + leaves


def _estimator(
    meta: dict,
    i: int,
    n: int,
    nodes: list[SourceNode],
    n_features: int,
    names: list[str] | None,
    categories: dict[int, list[str]],
    source: str,
) -> BaseTreeEstimator:
    per_iteration = int(meta.get("num_tree_per_iteration", 1) or 1)
    output = str(i % per_iteration) if per_iteration > 1 else None
    clauses = (
        clause("lgb_leaves", objective=meta.get("objective", "?")),
        clause("lgb_averages" if meta.get("average_output") else "lgb_adds"),
        clause("lgb_statistics"),
    )
    origin = boosting_member_origin(source, i, n, output, clauses)
    schema = Schema(numbered_features(n_features, names, categories), "raw score", None)
    return imported_estimator(build_tree(nodes, 0), schema, origin)
