"""The vectorised pruning code against slow, straightforward references on random trees.

``cost_complexity_path`` walks up from every leaf and rescans every candidate at every step in
the reference (scikit-learn's ``_cost_complexity_prune`` as written); the fast one must give the
same path bit for bit (same α, same R(T), same collapsed nodes), so that ties break alike.
Error-based pruning's flat rebuild (``rebuild_from_leaves``) must give the tree that adding the
pruned nodes one at a time to a ``TreeAssembler`` gives.
"""

from __future__ import annotations

import numpy as np
import pytest

import dtcore.pruning.ebp as ebp_module
from dtcore.c45 import C45Classifier
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.criteria import entropy
from dtcore.pruning.ccp import CostComplexityPath, cost_complexity_path, node_costs
from dtcore.pruning.collapse import subtree_end
from dtcore.pruning.ebp import ebp_prune
from dtcore.pruning.ebp_nodes import PNode, rebuild_from_leaves
from dtcore.schema import encode_features
from dtcore.tree import Tree, TreeAssembler


def reference_path(tree: Tree) -> CostComplexityPath:
    """scikit-learn's weakest-link loop as written: leaf-by-leaf sums, a full rescan per step."""
    n = tree.node_count
    is_leaf = tree.is_leaf
    r_node = node_costs(tree)
    parent = tree.parent
    end = subtree_end(tree)
    r_branch = np.zeros(n)
    n_leaves = np.zeros(n, dtype=np.int64)
    for leaf in np.nonzero(is_leaf)[0]:
        r_branch[leaf] = r_node[leaf]
        i = leaf
        while i != 0:
            i = parent[i]
            r_branch[i] += r_node[leaf]
            n_leaves[i] += 1
    candidate = ~is_leaf
    alphas, impurities, leaves, pruned = [0.0], [r_branch[0]], [max(n_leaves[0], 1)], [-1]
    while candidate[0]:
        idx = np.nonzero(candidate)[0]
        alpha = (r_node[idx] - r_branch[idx]) / np.maximum(n_leaves[idx] - 1, 1)
        best = int(idx[np.argmin(alpha)])
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
        np.array(alphas), np.array(impurities), np.array(leaves, dtype=np.int64), np.array(pruned)
    )


def random_trees():
    """Binary CART trees (classification, weighted, regression, rounded targets full of ties) and
    multiway C4.5 trees, small enough to run the reference quickly."""
    out = []
    for seed in range(6):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(40, 400))
        X = np.round(rng.normal(size=(n, 4)), 1)
        y = rng.integers(0, 3, n)
        w = rng.uniform(0.2, 3.0, n) if seed % 2 else None
        out.append(CARTClassifier(criterion=("gini", "entropy")[seed % 2]).fit(X, y, sample_weight=w).tree_)
        out.append(CARTRegressor().fit(X, np.round(X[:, 0] + rng.normal(size=n), seed % 3)).tree_)
        cats = np.array(["a", "b", "c", "d"], dtype=object)[rng.integers(0, 4, (n, 2))]
        Xc = np.concatenate([cats, X[:, :2].astype(object)], axis=1)
        c45 = C45Classifier(prune=False, collapse=False).fit(
            Xc, y, feature_kinds=["categorical", "categorical", "continuous", "continuous"]
        )
        out.append(c45.tree_)
    return out


@pytest.mark.parametrize("tree", random_trees())
def test_path_equals_the_reference_bit_for_bit(tree):
    fast, slow = cost_complexity_path(tree), reference_path(tree)
    assert fast.ccp_alphas.size > 1 or tree.node_count == 1
    for name in ("ccp_alphas", "impurities", "n_leaves", "pruned_node"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


def test_path_of_a_single_leaf():
    tree = CARTClassifier().fit(np.zeros((5, 1)), np.zeros(5, dtype=int)).tree_
    path = cost_complexity_path(tree)
    assert path.ccp_alphas.tolist() == [0.0] and path.n_leaves.tolist() == [1]
    assert path.pruned_node.tolist() == [-1]


def reference_rebuild(root: PNode, C: int) -> tuple[Tree, list[int]]:
    """Pruned nodes added one at a time in pre-order to a TreeAssembler."""
    order, stack = [], [root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(node.children)
    totals: dict[int, tuple[np.ndarray, int]] = {}
    for node in reversed(order):
        if node.is_leaf:
            totals[id(node)] = (node.counts, node.nrows)
        else:
            parts = [totals[id(c)] for c in node.children]
            totals[id(node)] = (sum(p[0] for p in parts), sum(p[1] for p in parts))
    asm = TreeAssembler(C, C)
    kept = []
    todo: list = [(root, -1, None)]
    while todo:
        node, parent, parent_counts = todo.pop()
        counts, nrows = totals[id(node)]
        wn = float(counts.sum())
        if nrows == 0 and wn <= 0 and parent >= 0:
            i = asm.add_node(parent, parent_counts, 0.0, 0, 0.0)
        else:
            i = asm.add_node(parent, counts, wn, nrows, 0.0)
            parent_counts = counts
        kept.append(node.orig)
        if node.is_leaf:
            continue
        if node.cat_branch.size:
            asm.set_split(i, node.feature, cat_branch=node.cat_branch, missing_branch=node.missing_branch)
        else:
            asm.set_split(i, node.feature, cuts=node.cuts, missing_branch=node.missing_branch)
        todo.extend((c, i, parent_counts) for c in reversed(node.children))
    tree = asm.build()
    tree.impurity = np.where(tree.weighted_n > 0, entropy(tree.value), 0.0)
    return tree, kept


FIELDS = [
    "feature",
    "parent",
    "depth",
    "missing_branch",
    "value",
    "weighted_n",
    "n_samples",
    "impurity",
    "child_ptr",
    "children",
    "cut_ptr",
    "cuts",
    "cat_ptr",
    "cat_branch",
]


def test_flat_rebuild_equals_the_assembler(monkeypatch):
    """Error-based pruning's working trees after pruning, clean rows only: binary CART trees
    with and without weights, multiway C4.5 trees with categorical tests, raising on and off;
    zero-weight rows leave empty leaves behind."""
    roots: list[tuple[PNode, int]] = []
    raised = empty = 0

    def capture(root: PNode, C: int) -> tuple[Tree, list[int]]:
        roots.append((root, C))
        return rebuild_from_leaves(root, C)

    monkeypatch.setattr(ebp_module, "rebuild_from_leaves", capture)
    for seed in range(5):
        rng = np.random.default_rng(10 + seed)
        n = int(rng.integers(60, 500))
        X = np.round(rng.normal(size=(n, 3)), 1)
        y = rng.integers(0, 3, n)
        w = np.where(rng.random(n) < 0.2, 0.0, rng.uniform(0.5, 2.0, n)) if seed % 2 else None
        cart = CARTClassifier().fit(X, y, sample_weight=w).tree_
        cats = np.array(list("abcdefgh"), dtype=object)[rng.integers(0, 8, (n, 2))]
        Xc = np.concatenate([cats, X[:, :2].astype(object)], axis=1)
        c45 = C45Classifier(prune=False, collapse=False).fit(
            Xc, y, w, feature_kinds=["categorical", "categorical", "continuous", "continuous"]
        )
        for tree, data in ((cart, X), (c45.tree_, encode_features(Xc, c45.schema_))):
            for raising, cf in ((True, 0.25), (False, 0.5)):
                raised += len(ebp_prune(tree, data, y, w, cf=cf, subtree_raising=raising)[1].raised)
    assert len(roots) == 20 and raised > 0
    assert any(root.cat_branch.size for root, _ in roots)  # categorical tests were kept
    for root, C in roots:
        fast, kept = rebuild_from_leaves(root, C)
        slow, kept_slow = reference_rebuild(root, C)
        assert kept == kept_slow
        for name in FIELDS:
            a, b = getattr(fast, name), getattr(slow, name)
            assert a.dtype == b.dtype and np.array_equal(a, b), name
        assert fast.n_classes == slow.n_classes
        empty += int(np.sum(fast.weighted_n[1:] == 0))
    assert empty > 0  # empty branches took their parent's counts
