"""Which tests met a missing value in training: per node, whether a training row (weight > 0)
reached it with the tested value missing (or a category with no branch there), so that pictures
say "missing →" only where the model learned or used its missing-value rule.

Filled once after growing (``BaseTreeEstimator.fit_encoded``) on the final tree, from the rows
the tree itself routes (``node_rows.walk_tests``). One pass down the tree, one vectorised step
per node; nothing to do when the data have no missing value.
"""

from __future__ import annotations

import numpy as np

from dtcore.node_rows import walk_tests
from dtcore.tree import Tree


def _may_miss(tree: Tree, X: np.ndarray) -> bool:
    """Could any row meet a test with no branch for its value? Not when the tested columns hold
    no NaN and every category code in a tested column has a branch at each test of it."""
    inner = np.flatnonzero(tree.feature >= 0)
    if inner.size == 0:
        return False
    cols = np.unique(tree.feature[inner])
    if np.isnan(X[:, cols]).any():
        return True
    codes: dict[int, np.ndarray] = {}
    for i in inner[np.diff(tree.cat_ptr)[inner] > 0].tolist():  # categorical tests
        j = int(tree.feature[i])
        if j not in codes:
            codes[j] = np.unique(X[:, j]).astype(np.int64)
        table = tree.cat_branch_of(i)
        c = codes[j]
        if np.any(c >= table.size) or np.any(c < 0) or np.any(table[c[c < table.size]] < 0):
            return True
    return False


def missing_seen(tree: Tree, X: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """Bool per node: a training row of positive weight reached this test with no branch for
    its value (leaves: False)."""
    X = np.asarray(X, dtype=np.float64)
    seen = np.zeros(tree.node_count, dtype=bool)
    if not _may_miss(tree, X):
        return seen
    for node, _, branch in walk_tests(tree, X, w):
        seen[node] = bool((branch < 0).any())
    return seen
