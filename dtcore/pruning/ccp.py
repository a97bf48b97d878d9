"""Minimal cost-complexity pruning (Breiman et al.; CART): the weakest-link path and pruning to α.

``R(t) = weighted_n[t] / weighted_n[root] · impurity[t]`` and ``R_α(T) = R(T) + α·|leaves(T)|``,
computed step for step as scikit-learn's ``_cost_complexity_prune`` does (same node order, same
float operations, first node on ties) so that the path equals ``cost_complexity_pruning_path``
on the same grown tree and ``prune_to_alpha`` equals fitting with ``ccp_alpha``.  The only
generalisation is to multiway trees: a node's α is ``(R(t) − R(T_t)) / (leaves(T_t) − 1)`` as in
Breiman, whatever its number of branches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcore.history import PruneStep
from dtcore.pruning.collapse import collapse, subtree_end
from dtcore.tree import Tree


@dataclass
class CostComplexityPath:
    """Step k: the effective α at which it prunes, the total leaf impurity R(T) and the number
    of leaves after it, and the node it collapses (-1 at step 0, the unpruned tree)."""

    ccp_alphas: np.ndarray
    impurities: np.ndarray
    n_leaves: np.ndarray
    pruned_node: np.ndarray

    def to_dict(self) -> dict:
        return {
            "ccp_alphas": self.ccp_alphas.tolist(),
            "impurities": self.impurities.tolist(),
            "n_leaves": self.n_leaves.tolist(),
            "pruned_node": self.pruned_node.tolist(),
        }


def node_costs(tree: Tree) -> np.ndarray:
    """``R(t) = N(t)/N · impurity(t)``: each node's cost as a leaf (a subtree's is its leaves' sum)."""
    return tree.weighted_n * tree.impurity / tree.weighted_n[0]


def cost_complexity_path(tree: Tree) -> CostComplexityPath:
    """The whole weakest-link sequence, down to the root alone."""
    n = tree.node_count
    is_leaf = tree.is_leaf
    r_node = node_costs(tree)
    parent = tree.parent
    end = subtree_end(tree)

    # leaf impurity and leaf count of every branch, accumulated leaf by leaf as scikit-learn does
    r_branch = np.zeros(n)
    n_leaves = np.zeros(n, dtype=np.int64)  # 0 at leaves, as in scikit-learn
    for leaf in np.nonzero(is_leaf)[0]:
        r_branch[leaf] = r_node[leaf]
        current = r_node[leaf]
        i = leaf
        while i != 0:
            i = parent[i]
            r_branch[i] += current
            n_leaves[i] += 1

    candidate = ~is_leaf
    alphas, impurities, leaves, pruned = [0.0], [r_branch[0]], [max(n_leaves[0], 1)], [-1]
    while candidate[0]:
        idx = np.nonzero(candidate)[0]
        # a node over a single leaf (multiway trees only) costs no leaf: divide by 1 instead of 0
        alpha = (r_node[idx] - r_branch[idx]) / np.maximum(n_leaves[idx] - 1, 1)
        best = int(idx[np.argmin(alpha)])  # first minimum: scikit-learn's strict '<' scan
        candidate[best : end[best]] = False
        n_pruned_leaves = n_leaves[best] - 1
        n_leaves[best] = 0
        r_diff = r_node[best] - r_branch[best]
        r_branch[best] = r_node[best]
        i = parent[best]
        while i != -1:
            n_leaves[i] -= n_pruned_leaves
            r_branch[i] += r_diff
            i = parent[i]
        alphas.append(float(alpha.min()))
        impurities.append(r_branch[0])
        leaves.append(max(n_leaves[0], 1))
        pruned.append(best)
    return CostComplexityPath(
        np.array(alphas),
        np.array(impurities),
        np.array(leaves, dtype=np.int64),
        np.array(pruned, dtype=np.int64),
    )


def nodes_to_collapse(path: CostComplexityPath, alpha: float) -> np.ndarray:
    """Nodes pruned by the steps taken at ``alpha``: every step until the first whose effective
    α exceeds it (scikit-learn's stopping rule; α = 0 prunes nothing, as in scikit-learn)."""
    if alpha < 0 or not np.isfinite(alpha):
        raise ValueError(f"alpha must be a finite number ≥ 0, got {alpha}")
    if alpha == 0.0:
        return np.empty(0, dtype=np.int64)
    over = np.nonzero(path.ccp_alphas[1:] > alpha)[0]
    steps = over[0] if over.size else path.ccp_alphas.size - 1
    return path.pruned_node[1 : 1 + steps]


def prune_to_alpha(
    tree: Tree, alpha: float, path: CostComplexityPath | None = None
) -> tuple[Tree, np.ndarray, np.ndarray]:
    """The subtree minimising R_α: returns ``(pruned, kept, collapsed)`` (ids in ``tree``)."""
    path = cost_complexity_path(tree) if path is None else path
    nodes = nodes_to_collapse(path, alpha)
    pruned, kept = collapse(tree, nodes)
    return pruned, kept, nodes


def ccp_steps(grown: Tree, alpha: float) -> list[PruneStep]:
    """The weakest-link steps that pruning to ``alpha`` takes, with the α of each."""
    path = cost_complexity_path(grown)
    nodes = nodes_to_collapse(path, alpha)
    return [
        PruneStep(
            "ccp",
            int(n),
            {
                "alpha": float(path.ccp_alphas[k + 1]),
                "leaves_after": float(path.n_leaves[k + 1]),
                "impurity_after": float(path.impurities[k + 1]),
            },
        )
        for k, n in enumerate(nodes.tolist())
    ]
