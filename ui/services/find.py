"""Find nodes in a big tree: by the feature they test, by the class or value range of leaves,
the leaves with fewest samples, the purest and least pure leaves, and the leaves with the
largest error on the validation rows. Pure numpy over the tree's flat arrays; each query returns
node ids, best first (ties: the lower id), at most ``limit`` of them."""

from __future__ import annotations

import numpy as np

from dtcore.base import BaseTreeEstimator
from dtcore.schema import DataError, encode_target
from dtcore.tree import Tree

#: the searches, in menu order (their words: ``find.query.<name>``)
QUERIES = ("feature", "class", "value", "fewest", "purest", "least_pure", "valid_error")
#: results listed at most
LIMIT = 50


def _ranked(nodes: np.ndarray, key: np.ndarray, limit: int) -> list[int]:
    """``nodes`` ordered by ``key`` ascending, then id; the first ``limit``."""
    order = np.lexsort((nodes, key))
    return [int(i) for i in nodes[order][:limit]]


def _leaves(tree: Tree) -> np.ndarray:
    """Leaves that received training weight (an empty branch has no class or error of its own)."""
    return np.flatnonzero(tree.is_leaf & (tree.weighted_n > 0))


def by_feature(tree: Tree, feature: int, limit: int = LIMIT) -> list[int]:
    """Nodes that test ``feature``, heaviest first."""
    nodes = np.flatnonzero(tree.feature == int(feature))
    return _ranked(nodes, -tree.weighted_n[nodes], limit)


def by_class(tree: Tree, k: int, limit: int = LIMIT) -> list[int]:
    """Leaves whose majority is class ``k``, heaviest first."""
    leaves = _leaves(tree)
    leaves = leaves[tree.node_classes(leaves) == int(k)]
    return _ranked(leaves, -tree.weighted_n[leaves], limit)


def by_value(tree: Tree, lo: float, hi: float, limit: int = LIMIT) -> list[int]:
    """Regression leaves whose value lies in [lo, hi], heaviest first."""
    leaves = _leaves(tree)
    v = tree.value[leaves, 0]
    leaves = leaves[(v >= lo) & (v <= hi)]
    return _ranked(leaves, -tree.weighted_n[leaves], limit)


def fewest_samples(tree: Tree, limit: int = LIMIT) -> list[int]:
    """Leaves with the least training weight."""
    leaves = _leaves(tree)
    return _ranked(leaves, tree.weighted_n[leaves], limit)


def purest(tree: Tree, limit: int = LIMIT) -> list[int]:
    """Leaves with the lowest impurity, heaviest first among equals."""
    leaves = _leaves(tree)
    key = tree.impurity[leaves] - tree.weighted_n[leaves] / (tree.weighted_n.max() * 1e6 + 1.0)
    return _ranked(leaves, key, limit)


def least_pure(tree: Tree, limit: int = LIMIT) -> list[int]:
    """Leaves with the highest impurity."""
    leaves = _leaves(tree)
    return _ranked(leaves, -tree.impurity[leaves], limit)


def validation_error(est: BaseTreeEstimator, X_raw: np.ndarray, y_raw: np.ndarray) -> np.ndarray | None:
    """Per node, the error its leaves make on the rows ``X_raw``/``y_raw`` (validation rows):
    misclassified weight, or the sum of squared errors for regression; a row that missing
    values spread over several leaves counts in each with its share (C4.5). None when there are
    no rows, or their labels cannot be encoded against the model (a class unseen in training)."""
    tree = est.tree_
    if len(y_raw) == 0:
        return None
    try:
        y = encode_target(est.schema_, y_raw)
    except DataError:
        return None
    row, leaf, w = tree.route(est.encode(X_raw))
    if est.schema_.classes is not None:
        wrong = tree.node_classes(leaf) != y[row]
        err = w * wrong
    else:
        err = w * (tree.value[leaf, 0] - y[row]) ** 2
    return np.bincount(leaf, weights=err, minlength=tree.node_count)


def largest_error(tree: Tree, errors: np.ndarray, limit: int = LIMIT) -> list[int]:
    """Leaves with the largest (positive) validation error."""
    leaves = np.flatnonzero(tree.is_leaf & (errors > 0))
    return _ranked(leaves, -errors[leaves], limit)
