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

from dtcore.tree import Tree


def pessimistic_errors(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """Per node, the corrected errors PEP compares: as a leaf, ``e(t) + 1/2``; its grown
    subtree, ``E' = Σ e(leaves) + L/2`` (leaves: ``e(t) + 1/2`` both)."""
    if tree.n_classes <= 0:
        raise ValueError(
            "pessimistic error pruning counts misclassifications: it applies to "
            "classification trees only; use method 'ccp' or 'rep' for regression"
        )
    leaf_err = tree.weighted_n - tree.value.max(axis=1)
    sub_err = np.where(tree.is_leaf, leaf_err, 0.0)
    leaves = tree.is_leaf.astype(np.float64)
    for i in range(tree.node_count - 1, 0, -1):  # children come after parents: totals flow up
        p = tree.parent[i]
        sub_err[p] += sub_err[i]
        leaves[p] += leaves[i]
    return leaf_err + 0.5, sub_err + 0.5 * leaves


def pep_nodes(tree: Tree) -> np.ndarray:
    as_leaf, subtree = pessimistic_errors(tree)
    collapsed = []
    stack = [0]
    while stack:
        i = stack.pop()
        if tree.is_leaf[i]:
            continue
        N = tree.weighted_n[i]
        corrected = subtree[i]
        se = np.sqrt(max(corrected * (N - corrected), 0.0) / N) if N > 0 else 0.0
        if as_leaf[i] <= corrected + se:
            collapsed.append(i)
        else:
            stack.extend(reversed(tree.children_of(i).tolist()))
    return np.array(sorted(collapsed), dtype=np.int64)
