"""An imported tree's node statistics recomputed from labelled rows (``restate``): the rows are
routed through the tree's own tests (``node_rows.walk_nodes``, the routing every fitted tree
uses), and each node's counts, weight, rows and impurity (with the estimator's criterion) come
from the rows that reach it. The tests stay as they are; the origin record says the statistics
now come from those rows. Given the rows a scikit-learn tree was fitted on, this gives back that
tree's own counts: the views, pruning and scores that need a node's training rows then work on
an imported tree as on one dtcore grew.

What a leaf predicts follows its statistics, as in a tree dtcore grows: a classification leaf
the majority of its rows' classes, a regression leaf their mean (median for ``absolute_error``).
A node no row reaches keeps its parent's value with weight 0 (C4.5's empty branch), so it
predicts what its parent would. A boosted member's leaves hold a raw score, which is what the
tree predicts and not a statistic of any rows: restating it recounts the rows and weight at each
node and keeps every value and impurity (its predictions stay the raw scores); turning it into
a class-count tree would make ``predict`` say something the source never predicted."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
from numpy.typing import ArrayLike

from dtcore.base import BaseTreeEstimator
from dtcore.criteria import (
    absolute_error,
    class_impurity,
    half_poisson_deviance,
    squared_error,
    weighted_median,
)
from dtcore.export.origin import ROWS, ModelOrigin
from dtcore.node_rows import missing_seen, record_neighbours, walk_nodes
from dtcore.schema import DataError, encode_target
from dtcore.tree import Tree


def restate(
    estimator: BaseTreeEstimator,
    X: ArrayLike,
    y: ArrayLike | None,
    sample_weight: ArrayLike | None = None,
) -> BaseTreeEstimator:
    """A copy of the imported ``estimator`` whose node statistics come from the rows ``X``
    (raw rows, as ``predict`` takes them) with labels ``y`` and optional weights; the input is
    not changed. ``y`` may be None only for a raw-score tree (only its rows are recounted).
    Raises ValueError for a tree with no origin record (a tree dtcore grew already holds its
    own training statistics) and DataError for rows or labels that do not fit the model."""
    origin = getattr(estimator, "origin_", None)
    if not isinstance(origin, ModelOrigin):
        raise ValueError(
            "restate: this tree was not imported (no origin_): it holds its own training statistics"
        )
    Xe = estimator.encode(X)
    n = Xe.shape[0]
    if n == 0:
        raise DataError("restate: no rows to recompute the statistics from")
    w = _weights(sample_weight, n)
    tree = estimator.tree_.copy()
    if origin.is_raw_score:
        _recount(tree, Xe, w)
        note = "row counts and weights from these rows; leaves keep their raw scores, impurities as the source gave"
    else:
        if y is None:
            raise DataError(
                f"restate: the labels ({estimator.schema_.target}) are needed to recompute the statistics"
            )
        y_enc = encode_target(estimator.schema_, y)  # a missing or unknown label: DataError
        if y_enc.shape[0] != n:
            raise DataError(f"restate: X has {n} rows but y has {y_enc.shape[0]}")
        if not (w > 0).any():
            raise DataError("restate: every sample weight is zero")
        criterion = str(getattr(estimator, "criterion", "gini" if tree.n_classes else "squared_error"))
        if tree.n_classes:
            _restate_classes(tree, Xe, y_enc.astype(np.int64), w, criterion)
        else:
            _restate_values(tree, Xe, y_enc.astype(np.float64), w, criterion)
        note = "counts, values and impurities from these rows"
    tree.saw_missing = missing_seen(tree, Xe, w)
    record_neighbours(tree, Xe, w)
    out = copy.copy(estimator)
    out.tree_ = tree
    out.origin_ = dataclasses.replace(
        origin,
        statistics_rows=int(np.count_nonzero(w > 0)),
        statistics_note=note,
        node_weight=ROWS,  # weights are these rows' now, impurities computed unless only counted
        impurities=origin.impurities or not origin.is_raw_score,
    )
    return out


def _weights(sample_weight: ArrayLike | None, n: int) -> np.ndarray:
    if sample_weight is None:
        return np.ones(n)
    w = np.asarray(sample_weight, dtype=np.float64).ravel()
    if w.shape[0] != n:
        raise DataError(f"restate: sample_weight has {w.shape[0]} entries for {n} rows")
    if not np.all(np.isfinite(w)) or (w < 0).any():
        raise DataError("restate: sample_weight must be finite and non-negative")
    return w


def _reset_counts(tree: Tree) -> None:
    tree.weighted_n[:] = 0.0
    tree.n_samples[:] = 0


def _recount(tree: Tree, Xe: np.ndarray, w: np.ndarray) -> None:
    """Rows and weight per node only (a raw-score tree: values and impurities kept)."""
    _reset_counts(tree)
    for node, _rows, rw, _ in walk_nodes(tree, Xe, w):
        tree.weighted_n[node] = rw.sum()
        tree.n_samples[node] = rw.size


def _unreached_from_parent(tree: Tree, reached: np.ndarray) -> None:
    """A node no row reaches predicts what its parent does (pre-order: the parent comes first)."""
    for node in np.flatnonzero(~reached).tolist():
        parent = int(tree.parent[node])
        if parent >= 0:
            tree.value[node] = tree.value[parent]
        tree.impurity[node] = 0.0


def _restate_classes(tree: Tree, Xe: np.ndarray, y: np.ndarray, w: np.ndarray, criterion: str) -> None:
    _reset_counts(tree)
    tree.value[:] = 0.0
    reached = np.zeros(tree.node_count, dtype=bool)
    k = tree.value.shape[1]
    for node, rows, rw, _ in walk_nodes(tree, Xe, w):
        counts = np.bincount(y[rows], weights=rw, minlength=k)
        tree.value[node] = counts
        tree.weighted_n[node] = rw.sum()
        tree.n_samples[node] = rw.size
        tree.impurity[node] = float(class_impurity(criterion, np.r_[rw.sum(), counts]))
        reached[node] = True
    _unreached_from_parent(tree, reached)


def _restate_values(tree: Tree, Xe: np.ndarray, y: np.ndarray, w: np.ndarray, criterion: str) -> None:
    _reset_counts(tree)
    reached = np.zeros(tree.node_count, dtype=bool)
    for node, rows, rw, _ in walk_nodes(tree, Xe, w):
        yv = y[rows]
        if criterion == "absolute_error":
            tree.value[node, 0] = weighted_median(yv, rw)
            tree.impurity[node] = absolute_error(yv, rw)
        else:
            tree.value[node, 0] = float(np.sum(rw * yv) / np.sum(rw))
            tree.impurity[node] = (
                half_poisson_deviance(yv, rw) if criterion == "poisson" else squared_error(yv, rw)
            )
        tree.weighted_n[node] = rw.sum()
        tree.n_samples[node] = rw.size
        reached[node] = True
    _unreached_from_parent(tree, reached)
