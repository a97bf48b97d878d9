"""The training values on either side of each cut: per cut point of a continuous test, the
largest known value at that node that goes left (≤ the cut) and the smallest that goes right
(> the cut), from the rows of positive weight the tree routes there (``Tree.route``).

They say how far a printed threshold may be rounded without sending a training row the other
way (``export.thresholds``), and where C4.5's stored threshold (release 8: the largest value ≤
the cut in the whole training set) sits relative to the midpoint between them. Computed from
the data after growing, whatever the splitter (the histogram splitter's cut is a bin edge; its
neighbours are still the node's real values), and again wherever rows change their way (error-
based pruning's raised branches, forced splits); pruning by collapse keeps them (a kept node's
rows are unchanged). −inf below / +inf above: no training value on that side; the arrays are
None when not known (a model saved before they were recorded).
"""

from __future__ import annotations

import numpy as np

from dtcore.tree import Tree


def cut_neighbours(tree: Tree, X: np.ndarray, w: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(below, above), each parallel to ``tree.cuts``: at cut k of node i, the largest known
    value of the tested feature among node i's training rows that is ≤ the cut, and the
    smallest one that is > it (−inf, +inf when there is none).

    The rows of positive weight are routed once (``Tree.route``, which hands over, at each
    step, the rows standing at continuous tests with their value and branch: a row with a
    missing value reaches every branch of positive share); each step is two vectorised
    reductions (no loop over nodes or rows)."""
    X = np.asarray(X, dtype=np.float64)
    below = np.full(tree.cuts.size, -np.inf)
    above = np.full(tree.cuts.size, np.inf)
    if tree.cuts.size == 0 or X.shape[0] == 0:
        return below, above
    weights = np.ones(X.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    n_cuts = np.diff(tree.cut_ptr)

    def visit(node: np.ndarray, v: np.ndarray, b: np.ndarray, share: np.ndarray) -> None:
        start, count, on = tree.cut_ptr[node], n_cuts[node], share > 0
        le = on & (b < count)  # v ≤ cut b: a value below it
        np.maximum.at(below, start[le] + b[le], v[le])
        gt = on & (b > 0)  # v > cut b − 1: a value above it
        np.minimum.at(above, start[gt] + b[gt] - 1, v[gt])

    tree.route(X[weights > 0], on_continuous=visit)
    # several cuts (ID3's intervals): the largest value ≤ cut k may lie in an interval below k
    for j in np.flatnonzero(n_cuts > 1).tolist():
        seg = slice(int(tree.cut_ptr[j]), int(tree.cut_ptr[j + 1]))
        below[seg] = np.maximum.accumulate(below[seg])
        above[seg] = np.minimum.accumulate(above[seg][::-1])[::-1]
    return below, above


def values_beside(x: np.ndarray, cuts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cut, the largest known value of ``x`` that is ≤ it and the smallest that is > it
    (−inf, +inf: none): the node's values next to its cuts."""
    x = np.asarray(x, dtype=np.float64)
    cuts = np.asarray(cuts, dtype=np.float64)
    if cuts.size == 1:  # a binary test: two masked reductions, no sort (NaN is neither side)
        left, right = x[x <= cuts[0]], x[x > cuts[0]]
        return (
            np.array([left.max() if left.size else -np.inf]),
            np.array([right.min() if right.size else np.inf]),
        )
    xs = np.unique(x[~np.isnan(x)])
    if xs.size == 0:
        return np.full(cuts.size, -np.inf), np.full(cuts.size, np.inf)
    k = np.searchsorted(xs, cuts, side="right")  # xs[:k] ≤ cut < xs[k:]
    below = np.where(k > 0, xs[np.maximum(k - 1, 0)], -np.inf)
    above = np.where(k < xs.size, xs[np.minimum(k, xs.size - 1)], np.inf)
    return below, above


def record_neighbours(tree: Tree, X: np.ndarray, w: np.ndarray | None = None) -> Tree:
    """Store :func:`cut_neighbours` on ``tree`` (``cut_below``/``cut_above``); returns it."""
    tree.cut_below, tree.cut_above = cut_neighbours(tree, X, w)
    return tree


def merge_neighbours(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The neighbours over all rows from those of disjoint row blocks (Dask partitions): the
    largest value below, the smallest above (±inf where no block has one)."""
    lows = np.asarray([p[0] for p in parts], dtype=np.float64)
    highs = np.asarray([p[1] for p in parts], dtype=np.float64)
    return lows.max(axis=0), highs.min(axis=0)
