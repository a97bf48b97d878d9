"""Errors of a tree on a data set, per node and per row.

Classification loss is 0/1 (misclassified weight), regression loss is the squared error; rows
carry their sample weight, and a row that C4.5 spreads over several branches (missing value)
counts at each node with the fraction of its weight that reaches it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dtcore.tree import Tree


def is_classifier(tree: Tree) -> bool:
    return tree.n_classes > 0


def node_prediction(tree: Tree) -> np.ndarray:
    """What each node would predict as a leaf: its class (``Tree.node_classes``, as prediction
    reads it) or its value."""
    if is_classifier(tree):
        return tree.node_classes()
    return tree.value[:, 0]


def node_pairs(tree: Tree, X: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, node, weight) for every node each row reaches, root included."""
    r, node, w = tree.route(np.asarray(X, dtype=np.float64))
    rows, nodes, weights = [r], [node], [w]
    while node.size:
        up = tree.parent[node]
        has = up >= 0
        r, node, w = r[has], up[has].astype(np.int64), w[has]
        if node.size:
            rows.append(r)
            nodes.append(node)
            weights.append(w)
    return np.concatenate(rows), np.concatenate(nodes), np.concatenate(weights)


def prediction_losses(tree: Tree, y: ArrayLike, pred: np.ndarray) -> np.ndarray:
    """Each row's loss for the prediction ``pred``: 0/1 (classification) or the squared error."""
    if is_classifier(tree):
        return (np.asarray(y) != pred).astype(np.float64)
    return (np.asarray(y, dtype=np.float64) - pred) ** 2


def node_losses(
    tree: Tree, X: ArrayLike, y: ArrayLike, w: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Per node: the loss of the rows reaching it if it predicted as a leaf, and their weight.

    Routing to a node does not depend on what lies below it, so these figures hold for every
    pruned version of the tree that keeps the node.
    """
    y = np.asarray(y)
    w = np.ones(y.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    r, node, frac = node_pairs(tree, X)
    weight = frac * w[r]
    loss = prediction_losses(tree, y[r], node_prediction(tree)[node]) * weight
    n = tree.node_count
    return np.bincount(node, weights=loss, minlength=n), np.bincount(node, weights=weight, minlength=n)


def row_losses(tree: Tree, X: ArrayLike, y: ArrayLike) -> np.ndarray:
    """Loss of each row under the tree's actual prediction (class of the mixed distribution)."""
    X = np.asarray(X, dtype=np.float64)
    if is_classifier(tree):
        pred = np.argmax(tree.predict_proba(X), axis=1)
    else:
        pred = tree.predict_value(X)
    return prediction_losses(tree, y, pred)


def error(tree: Tree, X: ArrayLike, y: ArrayLike, w: np.ndarray | None = None) -> float:
    """Weighted error rate (classification) or mean squared error (regression)."""
    loss = row_losses(tree, X, y)
    if loss.size == 0:
        return float("nan")
    return float(np.average(loss, weights=w))
