"""Pessimistic error pruning (Quinlan 1987, "Simplifying decision trees"; SPEC §8).

From the training counts stored in the tree (no data needed): a node as a leaf makes
``e(t) = weighted_n − majority`` errors, corrected to ``e(t) + 1/2``; its subtree T_t makes
``E' = Σ e(leaves) + L/2`` with L leaves, standard error ``SE = sqrt(E'·(N − E')/N)``.  The
subtree is replaced by a leaf when ``e(t) + 1/2 ≤ E' + SE``.

Order: top-down, as in Quinlan's paper: the root is examined first, and once a subtree is
replaced its own subtrees are never looked at.  Top-down is the original method, and it is the
order that makes the test meaningful: E' always refers to the grown subtree, so a node's decision
does not depend on decisions taken below it.  Classification trees only.
"""

from __future__ import annotations

import numpy as np

from ..tree import Tree


def pep_nodes(tree: Tree) -> np.ndarray:
    if tree.n_classes <= 0:
        raise ValueError(
            "pessimistic error pruning counts misclassifications: it applies to "
            "classification trees only; use method 'ccp' or 'rep' for regression"
        )
    n = tree.node_count
    leaf_err = tree.weighted_n - tree.value.max(axis=1)
    sub_err = np.where(tree.is_leaf, leaf_err, 0.0)
    leaves = tree.is_leaf.astype(np.float64)
    for i in range(n - 1, 0, -1):  # children come after parents: totals flow up to the root
        p = tree.parent[i]
        sub_err[p] += sub_err[i]
        leaves[p] += leaves[i]
    return _top_down(tree, leaf_err, sub_err, leaves)


def _top_down(tree: Tree, leaf_err: np.ndarray, sub_err: np.ndarray, leaves: np.ndarray) -> np.ndarray:
    collapsed = []
    stack = [0]
    while stack:
        i = stack.pop()
        if tree.is_leaf[i]:
            continue
        N = tree.weighted_n[i]
        corrected = sub_err[i] + 0.5 * leaves[i]
        se = np.sqrt(max(corrected * (N - corrected), 0.0) / N) if N > 0 else 0.0
        if leaf_err[i] + 0.5 <= corrected + se:
            collapsed.append(i)
        else:
            stack.extend(reversed(tree.children_of(i).tolist()))
    return np.array(sorted(collapsed), dtype=np.int64)
