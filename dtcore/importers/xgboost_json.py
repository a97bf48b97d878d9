"""XGBoost's JSON model (``Booster.save_model("m.json")``), one tree by index, read from the
file (XGBoost is never imported).

Routing, kept exactly: XGBoost sends a row left when ``float32(x) < split_condition``; dtcore
sends it to branch 0 when ``x ≤ t`` on the float64 value, so t is the float64 cut below which
exactly those x fall (``assemble.float32_lt_cut``: the float32 just below the condition, then the
float64 rounding boundary above it). A missing value goes to the ``default_left`` side. A
categorical split lists the categories that go right; every other category goes left. Category
labels come from the model's ``cats`` entry (XGBoost ≥ 3 stores a DataFrame's category names),
else the codes 0…K-1, K one more than the largest code any split of the model names; a label
outside them reads as missing (the default side), where XGBoost would send an unseen code left.

Leaves hold the tree's raw output (learning rate included): a margin contribution (log-odds for
``binary:logistic``, a class's score before the softmax for ``multi:softprob``), which the model
adds to ``base_score`` (in margin space) and to every other tree's leaf. ``sum_hessian`` is a
node's weight; the file keeps no row counts (0) and no impurity (0).
"""

from __future__ import annotations

from typing import Any

from dtcore.base import BaseTreeEstimator
from dtcore.export.origin import clause
from dtcore.importers.assemble import (
    SourceNode,
    boosting_member_origin,
    build_tree,
    float32_lt_cut,
    imported_estimator,
    numbered_features,
)
from dtcore.routing import SplitTest
from dtcore.schema import Schema


def is_xgboost_json(d: object) -> bool:
    return isinstance(d, dict) and isinstance(d.get("learner"), dict) and "gradient_booster" in d["learner"]


def from_xgboost_json(d: dict, tree: int = 0) -> BaseTreeEstimator:
    """Tree ``tree`` of an XGBoost JSON model (parsed), as a regression tree of raw scores."""
    learner = d["learner"]
    booster = learner["gradient_booster"]
    name = booster.get("name")
    if name == "dart":
        booster = booster["gbtree"]
    elif name != "gbtree":
        raise ValueError(
            f"cannot import an XGBoost {name!r} booster: only tree boosters (gbtree, dart) have trees"
        )
    model = booster["model"]
    trees = model["trees"]
    n = len(trees)
    if not isinstance(tree, int) or not -n <= tree < n:
        raise ValueError(f"tree={tree!r}: this XGBoost model has {n} trees (0 to {n - 1})")
    i = tree % n
    t = trees[i]
    if int(t.get("tree_param", {}).get("size_leaf_vector", "1") or 1) > 1:
        raise ValueError(
            "cannot import an XGBoost multi-output tree (vector leaves): dtcore leaves hold one value"
        )
    n_features = int(learner.get("learner_model_param", {}).get("num_feature", 0)) or _max_feature(trees) + 1
    names = learner.get("feature_names") or [f"f{j}" for j in range(n_features)]  # XGBoost's own names
    types = learner.get("feature_types") or []
    cat_features = {j for j, kind in enumerate(types) if kind == "c"}
    categories = _categories(model, trees, cat_features)
    nodes = _nodes(t, categories)
    group = (model.get("tree_info") or [0] * n)[i]
    objective = learner.get("objective", {}).get("name", "?")
    n_class = int(learner.get("learner_model_param", {}).get("num_class", "0") or 0)
    output = str(group) if n_class > 1 else None
    base = learner.get("learner_model_param", {}).get("base_score")
    clauses = (
        clause("xgb_leaves", objective=objective),
        clause("xgb_sum", base=base),
        *((clause("xgb_dart"),) if name == "dart" else ()),
        clause("xgb_statistics"),
    )
    origin = boosting_member_origin("XGBoost JSON model", i, n, output, clauses)
    schema = Schema(numbered_features(n_features, names, categories), "margin contribution", None)
    return imported_estimator(build_tree(nodes, 0), schema, origin)


def _max_feature(trees: list[dict]) -> int:
    return max((max(t["split_indices"], default=0) for t in trees), default=0)


def _node_categories(t: dict) -> dict[int, list[int]]:
    """node id → the category codes its split sends right."""
    out: dict[int, list[int]] = {}
    cats = t.get("categories", [])
    for node, start, size in zip(
        t.get("categories_nodes", []), t.get("categories_segments", []), t.get("categories_sizes", [])
    ):
        out[int(node)] = [int(c) for c in cats[int(start) : int(start) + int(size)]]
    return out


def _categories(model: dict, trees: list[dict], cat_features: set[int]) -> dict[int, list[str]]:
    """Labels of each categorical feature in code order: the stored names, else 0…K-1."""
    out: dict[int, list[str]] = {}
    stored = _stored_names(model.get("cats"))
    for j in sorted(cat_features):
        if stored.get(j):
            out[j] = stored[j]
            continue
        top = -1
        for t in trees:
            for node, codes in _node_categories(t).items():
                if int(t["split_indices"][node]) == j and codes:
                    top = max(top, max(codes))
        out[j] = [str(c) for c in range(top + 1)] or ["0"]
    return out


def _stored_names(cats: Any) -> dict[int, list[str]]:
    """XGBoost ≥ 3's ``cats.enc``: per feature, UTF-8 bytes of the category names cut at
    ``offsets`` (a feature of numeric categories stores ``values`` without offsets: no names)."""
    out: dict[int, list[str]] = {}
    if not isinstance(cats, dict):
        return out
    for j, enc in enumerate(cats.get("enc") or []):
        if not isinstance(enc, dict):
            continue
        offsets, values = enc.get("offsets") or [], enc.get("values") or []
        if len(offsets) >= 2:
            raw = bytes(int(v) & 0xFF for v in values)
            out[j] = [raw[a:b].decode("utf-8", "replace") for a, b in zip(offsets[:-1], offsets[1:])]
    return out


def _nodes(t: dict, categories: dict[int, list[str]]) -> list[SourceNode]:
    left, right = t["left_children"], t["right_children"]
    feature, cond = t["split_indices"], t["split_conditions"]
    default_left = t["default_left"]
    split_type = t.get("split_type") or [0] * len(left)
    weight = t.get("base_weights") or cond
    hess = t.get("sum_hessian") or [0.0] * len(left)
    right_cats = _node_categories(t)
    nodes = []
    for i in range(len(left)):
        if int(left[i]) < 0:
            nodes.append(SourceNode((float(cond[i]),), float(hess[i])))
            continue
        j = int(feature[i])
        mb = 0 if default_left[i] else 1
        if int(split_type[i]) == 1:
            go_right = set(right_cats.get(i, []))
            table = tuple(1 if c in go_right else 0 for c in range(len(categories[j])))
            test = SplitTest(j, cat_branch=table, missing_branch=mb)
        else:
            test = SplitTest(j, cuts=(float32_lt_cut(float(cond[i])),), missing_branch=mb)
        nodes.append(
            SourceNode((float(weight[i]),), float(hess[i]), test=test, children=(int(left[i]), int(right[i])))
        )
    return nodes
