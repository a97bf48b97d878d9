"""The loss of every subtree on the cost-complexity path, in one pass over the data.

Pruning the path's first ``s`` steps collapses the nodes ``pruned_node[1..s]``. Call ``c[u]``
the step at which node ``u`` becomes a leaf (0 for a leaf of the grown tree, never for a node
that an ancestor's collapse removes first) and ``m[u]`` the smallest ``c`` among ``u`` and its
ancestors. After ``s`` steps a row is predicted by the shallowest node of its path with
``c ≤ s``; so node ``u`` predicts every row that reaches it for ``c[u] ≤ s < m[parent(u)]`` and
no other time. Each node's loss (the rows reaching it, scored by its own prediction:
``losses.node_pairs``) is added over that interval of steps by a difference array, which gives
every subtree's total loss without building any of them: O(rows × depth + nodes + steps)
instead of one collapse and one prediction pass per α.

This holds when every row reaches exactly one leaf (CART, and C4.5 trees on rows without
missing values at their tests). A C4.5 row spread over several branches is predicted by the
mixed distribution of its leaves, which no per-node sum gives: ``path_losses`` returns None
then, and the callers score each subtree as before.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dtcore.pruning.ccp import CostComplexityPath
from dtcore.pruning.losses import is_classifier, node_pairs, node_prediction
from dtcore.tree import Tree


def steps_at(path: CostComplexityPath, alphas: ArrayLike) -> np.ndarray:
    """Steps taken at each α: ``nodes_to_collapse(path, α).size``, for many α at once."""
    alphas = np.asarray(alphas, dtype=np.float64)
    # "every step until the first whose α exceeds it": the first step over α is the first
    # over α of the running maximum, which is sorted
    running = np.maximum.accumulate(path.ccp_alphas[1:]) if path.ccp_alphas.size > 1 else np.empty(0)
    steps = np.searchsorted(running, alphas, side="right")
    steps[alphas == 0.0] = 0  # α = 0 prunes nothing (scikit-learn's rule)
    return steps


def _predicting_interval(tree: Tree, path: CostComplexityPath) -> tuple[np.ndarray, np.ndarray]:
    """(first, stop) per node: the node predicts for its rows after ``first ≤ s < stop`` steps."""
    n = tree.node_count
    never = path.ccp_alphas.size  # past the last step
    first = np.where(tree.is_leaf, 0, never).astype(np.int64)
    steps = np.arange(path.pruned_node.size)
    pruned = path.pruned_node[1:]
    first[pruned[::-1]] = steps[1:][::-1]  # the earliest step, should a node recur
    lowest = first.copy()  # min of first over the node and its ancestors, top-down by depth
    depth = tree.depth.astype(np.int64)
    for d in range(1, int(depth.max(initial=0)) + 1):
        level = np.flatnonzero(depth == d)
        lowest[level] = np.minimum(lowest[level], lowest[tree.parent[level]])
    stop = np.full(n, never, dtype=np.int64)
    has_parent = tree.parent >= 0
    stop[has_parent] = lowest[tree.parent[has_parent]]
    return first, stop


def path_losses(
    tree: Tree,
    path: CostComplexityPath,
    X: ArrayLike,
    y: ArrayLike,
    w: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Per number of steps ``s`` (0 … last): the weighted sums Σ w·loss and Σ w·loss² over the
    rows, and Σ w; the loss is 0/1 (classification) or the squared error (regression), as
    ``losses.row_losses`` scores each row. None when some row reaches several leaves."""
    y = np.asarray(y)
    n_rows = y.shape[0]
    w = np.ones(n_rows) if w is None else np.asarray(w, dtype=np.float64)
    rows, nodes, frac = node_pairs(tree, X)
    leaves_per_row = np.bincount(rows[tree.is_leaf[nodes]], minlength=n_rows)
    if np.any(frac != 1.0) or np.any(leaves_per_row != 1):
        return None  # a row spread over branches (C4.5's missing values)
    pred = node_prediction(tree)[nodes]
    if is_classifier(tree):
        loss = (y[rows] != pred).astype(np.float64)
        loss2 = loss
    else:
        loss = (np.asarray(y, dtype=np.float64)[rows] - pred) ** 2
        loss2 = loss * loss
    weight = w[rows]
    n = tree.node_count
    per_node = (
        np.bincount(nodes, weights=weight * loss, minlength=n),
        np.bincount(nodes, weights=weight * loss2, minlength=n),
    )
    first, stop = _predicting_interval(tree, path)
    live = first < stop
    totals = []
    size = path.ccp_alphas.size + 1
    for sums in per_node:  # +sum where a node starts predicting, −sum where it stops
        diff = np.bincount(first[live], sums[live], size) - np.bincount(stop[live], sums[live], size)
        totals.append(np.cumsum(diff[:-1]))
    return totals[0], totals[1], np.full(path.ccp_alphas.size, float(w.sum()))
