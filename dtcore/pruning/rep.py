"""Reduced-error pruning (SPEC §8, seed 002): bottom-up on a validation set.

A subtree becomes a leaf when the validation loss of the node as a leaf is not larger than the
loss of the subtree's (already pruned) leaves.  The loss at a node is the validation weight that
reaches it (fractional under C4.5's missing-value routing) misclassified by the node's majority
class, or the squared error around its value for regression.  Subtrees no validation row reaches
have loss 0 on both sides and are pruned, as in Quinlan's and Esposito et al.'s REP.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dtcore.pruning.losses import node_losses
from dtcore.tree import Tree

RTOL = 1e-9


def rep_nodes(
    tree: Tree, X_valid: ArrayLike, y_valid: ArrayLike, w_valid: ArrayLike | None = None
) -> np.ndarray:
    """Ids of the nodes REP collapses (the topmost ones; their descendants go with them)."""
    leaf_loss, _ = node_losses(tree, X_valid, y_valid, w_valid)
    sub_loss = leaf_loss.copy()
    pruned = np.zeros(tree.node_count, dtype=bool)
    for i in range(tree.node_count - 1, -1, -1):  # reverse pre-order: children before parents
        if tree.is_leaf[i]:
            continue
        below = sub_loss[tree.children_of(i)].sum()
        # ties prune; fractional (C4.5) weights make exact ties differ by rounding, hence RTOL
        if leaf_loss[i] <= below + RTOL * max(below, leaf_loss[i], 1.0):
            pruned[i] = True  # sub_loss[i] stays leaf_loss[i]
        else:
            sub_loss[i] = below
    # keep only the topmost collapsed nodes
    top = [i for i in np.nonzero(pruned)[0] if not _has_pruned_ancestor(tree, i, pruned)]
    return np.array(top, dtype=np.int64)


def _has_pruned_ancestor(tree: Tree, i: int | np.integer, pruned: np.ndarray) -> bool:
    p = tree.parent[i]
    while p >= 0:
        if pruned[p]:
            return True
        p = tree.parent[p]
    return False
