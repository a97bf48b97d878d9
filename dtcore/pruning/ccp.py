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


#: at most this many leaf costs gathered at once by ``branch_costs`` (bounds its memory on deep trees)
_BLOCK = 1 << 20


def branch_costs(tree: Tree, r_node: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(R(T_t), leaves(T_t))`` of every node (0 leaves at a leaf, as in scikit-learn).

    scikit-learn walks up from each leaf in node order adding its cost to every ancestor, so a
    test's R(T_t) is its leaves' costs added one at a time, in node order, from 0.0.  Ids are in
    pre-order, so a test's leaves are a contiguous run of the leaves in id order; the tests are
    taken largest first and every test still adding adds its next leaves in one ``cumsum`` along
    rows (an accumulation is sequential: the same float operations, so the same sums)."""
    n = tree.node_count
    is_leaf = tree.is_leaf
    leaves = np.flatnonzero(is_leaf)
    first = np.searchsorted(leaves, np.arange(n))  # the leaves of t: leaves[first[t]:stop[t]]
    stop = np.searchsorted(leaves, subtree_end(tree))
    n_leaves = np.where(is_leaf, 0, stop - first).astype(np.int64)
    r_branch = np.where(is_leaf, r_node, 0.0)
    tests = np.flatnonzero(~is_leaf)
    if tests.size == 0:
        return r_branch, n_leaves
    tests = tests[np.argsort(-n_leaves[tests], kind="stable")]
    count, start = n_leaves[tests], first[tests]
    leaf_cost = r_node[leaves]
    acc = np.zeros(tests.size)
    j = 0  # leaves added so far by every test still adding
    while j < count[0]:
        active = int(np.searchsorted(-count, -j))  # tests with more than j leaves
        upto = min(int(count[active - 1]), j + max(1, _BLOCK // active))
        block = leaf_cost[start[:active, None] + np.arange(j, upto)]
        acc[:active] = np.cumsum(np.column_stack([acc[:active], block]), axis=1)[:, -1]
        j = upto
    r_branch[tests] = acc
    return r_branch, n_leaves


def cost_complexity_path(tree: Tree) -> CostComplexityPath:
    """The whole weakest-link sequence, down to the root alone.

    Each step collapses the first test of smallest α; only the collapsed test's ancestors
    change their R(T_t) and leaf count, so only their α are recomputed (in Python floats: the
    same IEEE operations as numpy's), and the collapsed subtree's tests leave the candidates
    (α = ∞).  One ``argmin`` per step instead of a rescan of every candidate."""
    is_leaf = tree.is_leaf
    r_node = node_costs(tree)
    r_branch, n_leaves = branch_costs(tree, r_node)
    alphas, impurities, leaves, pruned = [0.0], [float(r_branch[0])], [max(int(n_leaves[0]), 1)], [-1]
    tests = np.flatnonzero(~is_leaf)
    # a node over a single leaf (multiway trees only) costs no leaf: divide by 1 instead of 0
    alpha = (r_node[tests] - r_branch[tests]) / np.maximum(n_leaves[tests] - 1, 1)  # per test
    place = np.full(tree.node_count, -1, dtype=np.int64)
    place[tests] = np.arange(tests.size)
    test_end = np.searchsorted(tests, subtree_end(tree)[tests]).tolist()  # tests[k:test_end[k]]: k's subtree
    node_of, place_of = tests.tolist(), place.tolist()
    parent, rn, rb, nl = tree.parent.tolist(), r_node.tolist(), r_branch.tolist(), n_leaves.tolist()
    while tests.size:
        k = int(np.argmin(alpha))  # first minimum: scikit-learn's strict '<' scan
        best = node_of[k]
        alphas.append(float(alpha[k]))
        alpha[k : test_end[k]] = np.inf
        n_pruned_leaves = nl[best] - 1
        nl[best] = 0
        r_diff = rn[best] - rb[best]
        rb[best] = rn[best]
        i = parent[best]
        while i != -1:
            nl[i] -= n_pruned_leaves
            rb[i] += r_diff
            alpha[place_of[i]] = (rn[i] - rb[i]) / max(nl[i] - 1, 1)
            i = parent[i]
        impurities.append(rb[0])
        leaves.append(max(nl[0], 1))
        pruned.append(best)
        if best == 0:
            break
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
