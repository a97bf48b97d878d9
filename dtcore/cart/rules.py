"""CART's growth settings and stop rules (scikit-learn's): the one home the builders (exact,
``dtcore.cart.grower``, and histogram, ``dtcore.cart.hist``; vectorised over a level's nodes)
and the split explorer (``dtcore.explain``, one node) call.

A node is a leaf when depth ≥ max_depth, rows < min_samples_split, rows < 2·min_samples_leaf,
weight < 2·min_weight_leaf, impurity ≤ EPSILON, no valid split exists, or the best split's
weighted impurity decrease + EPSILON < min_impurity_decrease.  A split with zero decrease is
still made (as scikit-learn does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from dtcore.criteria import EPSILON

NodeValues = np.ndarray | float  # arrays over nodes (the builders) or one node's number


@dataclass
class GrowParams:
    criterion: str = "gini"
    n_classes: int = 0  # 0: regression
    max_depth: int = 2**31 - 1
    min_samples_split: int = 2  # already max(min_samples_split, 2·min_samples_leaf)
    min_samples_leaf: int = 1
    min_weight_leaf: float = 0.0
    min_impurity_decrease: float = 0.0
    max_leaf_nodes: int | None = None


def pretest_rules(
    p: GrowParams, depth: NodeValues, n_rows: NodeValues, weighted_n: NodeValues, impurity: NodeValues
) -> tuple[tuple[str, Any], ...]:
    """scikit-learn's tests made before searching a split, as (reason, hit) pairs in the order a
    report names them.  Arguments are arrays over nodes (the builders) or one node's numbers."""
    return (
        ("max_depth", depth >= p.max_depth),
        ("min_samples_split", (n_rows < p.min_samples_split) | (n_rows < 2 * p.min_samples_leaf)),
        ("min_weight_leaf", weighted_n < 2 * p.min_weight_leaf),
        ("pure", impurity <= EPSILON),
    )


def leaf_by_pretest(
    p: GrowParams, depth: NodeValues, n_rows: NodeValues, weighted_n: NodeValues, impurity: NodeValues
) -> Any:
    """True where a pre-split test (:func:`pretest_rules`) makes the node a leaf."""
    hit = False
    for _, h in pretest_rules(p, depth, n_rows, weighted_n, impurity):
        hit = hit | h
    return hit


def pretest_reason(
    p: GrowParams, depth: NodeValues, n_rows: NodeValues, weighted_n: NodeValues, impurity: NodeValues
) -> str | None:
    """For one node: the first pre-split test that makes it a leaf, None if none does."""
    for reason, h in pretest_rules(p, depth, n_rows, weighted_n, impurity):
        if h:
            return reason
    return None


def decrease_ok(p: GrowParams, improvement: NodeValues) -> Any:
    """The best split is made when its weighted impurity decrease + EPSILON ≥
    min_impurity_decrease (a zero decrease still splits, as in scikit-learn)."""
    return improvement + EPSILON >= p.min_impurity_decrease
