"""The training rows at each test of a fitted tree, walked once from the root: the routing
rules' own homes (``Tree.branch_of`` → ``branch_index``, CART's learned ``missing_branch``,
C4.5's shares by ``multiway.distribute_rows``), as ``Tree.reach`` applies them for one node.
``missing_seen`` reads the tree's tests off this walk."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from dtcore.entropy.multiway import distribute_rows
from dtcore.tree import Tree


def walk_tests(
    tree: Tree, X: np.ndarray, w: np.ndarray | None = None
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(node, rows, branch) for every test that a row of positive weight reaches: ``rows`` the
    row indices of ``X`` there (a row whose value is missing may reach several), ``branch``
    each row's branch before the missing-value rule (-1: no branch for its value).
    Depth-first, one vectorised step per node."""
    weights = np.ones(X.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    start = np.flatnonzero(weights > 0)
    stack = [(0, start, weights[start])] if tree.node_count else []
    while stack:
        node, rows, rw = stack.pop()
        if tree.feature[node] < 0 or rows.size == 0:
            continue
        branch = tree.branch_of(node, X[rows, tree.feature[node]])
        yield node, rows, branch.copy()
        mb = int(tree.missing_branch[node])
        if mb >= 0:
            branch[branch < 0] = mb
        kids = tree.children_of(node)
        parts, _ = distribute_rows(branch, rw, kids.size)
        for child, (pos, cw) in zip(kids.tolist(), parts):
            keep = cw > 0
            stack.append((child, rows[pos[keep]], cw[keep]))
