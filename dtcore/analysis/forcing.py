"""Manual tree building: put a chosen test at a node and regrow what lies below it (as Weka's
UserClassifier lets a user do), leaving the original tree untouched.

The node keeps its place and statistics; its old subtree is dropped; each child of the forced
test is regrown by the same estimator (same parameters) on the rows and weights that reach that
child (``Tree.reach`` for the node, then the test's own routing, C4.5's fractional spreading of
missing values included), and the regrown subtrees are grafted in. Node ids before the forced
node do not change (pre-order), so the forced node keeps its id.

Where the regrown subtree can differ from what growing the whole tree with that test would give,
and what we do about it:

* ID3 and C4.5 refit on *all* training rows with zero weight outside the child, so everything
  computed from the whole training set stays the same (ID3's bin edges, C4.5's threshold
  snapping and its "many values" rule); CART refits on the child's rows only, because it
  counts rows whatever their weight;
* limits measured from the root are translated to the child: ``max_depth`` minus the child's
  depth, ``min_impurity_decrease`` (and CART's ``min_weight_fraction_leaf`` and ``ccp_alpha``)
  scaled by root weight / child weight, CART's fractional ``min_samples_*`` fixed to the row
  counts they meant on the whole data;
* ``max_leaf_nodes`` (best-first growth) applies to each regrown subtree on its own;
* C4.5's collapse and error-based pruning run on each regrown subtree (as they would bottom-up),
  not again on the ancestors.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from dtcore.explain import NodeData, children_rows, same_test, tree_test
from dtcore.node_rows import missing_seen, record_neighbours
from dtcore.routing import SplitTest
from dtcore.tree import Tree, TreeAssembler

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator
    from dtcore.cart.estimator import CARTBase


def _sub_params(
    est: BaseTreeEstimator, nd: NodeData, child_weight: float, child_depth: int
) -> dict[str, Any] | None:
    """The estimator's parameters for regrowing a child (see the module docstring); None when
    the limits leave no room to split (the child is a leaf)."""
    params = est.get_params()
    scale = nd.W_root / child_weight if child_weight > 0 else 1.0
    if "max_depth" in params and params["max_depth"] is not None:
        left = int(params["max_depth"]) - child_depth
        if left < (1 if est.algorithm == "cart" else 0):
            return None
        params["max_depth"] = left
    if "min_impurity_decrease" in params:
        params["min_impurity_decrease"] = float(params["min_impurity_decrease"]) * scale
    if est.algorithm == "cart":
        gp = cast("CARTBase", est)._params_for(nd.X_all.shape[0], nd.w_all, nd.C)
        params["min_samples_leaf"] = int(gp.min_samples_leaf)
        params["min_samples_split"] = int(max(gp.min_samples_split, 2))
        mwf = float(params.get("min_weight_fraction_leaf", 0.0)) * scale
        if mwf > 0.5:
            return None
        params["min_weight_fraction_leaf"] = mwf
        params["ccp_alpha"] = float(params.get("ccp_alpha", 0.0)) * scale
    return params


def _regrow(
    est: BaseTreeEstimator, nd: NodeData, rows: np.ndarray, weights: np.ndarray, child_depth: int
) -> Tree | None:
    """A fitted subtree for one child, or None (make it a leaf)."""
    wsum = float(weights.sum())
    params = _sub_params(est, nd, wsum, child_depth)
    if params is None:
        return None
    sub = type(est)(**params)
    try:
        if est.algorithm == "cart":
            sub.fit_encoded(nd.X_all[rows], nd.y_all[rows], nd.schema, weights)
        else:
            w = np.zeros(nd.X_all.shape[0])
            np.add.at(w, rows, weights)
            sub.fit_encoded(nd.X_all, nd.y_all, nd.schema, w)
    except ValueError:  # e.g. nothing left to split on: keep the child as a leaf
        return None
    return sub.tree_


def _leaf_stats(nd: NodeData, rows: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, float, float]:
    y = nd.y_all[rows]
    wsum = float(weights.sum())
    if nd.C:
        counts = np.bincount(y.astype(np.int64), weights=weights, minlength=nd.C)
        from dtcore.criteria import entropy, gini

        crit = getattr(nd.est, "criterion", "entropy")
        imp = float(gini(counts) if crit == "gini" else entropy(counts))
        return counts, wsum, imp
    mean = float(np.sum(weights * y) / wsum) if wsum > 0 else 0.0
    return np.array([mean]), wsum, float(np.sum(weights * (y - mean) ** 2) / wsum) if wsum > 0 else 0.0


def force_split(
    est: BaseTreeEstimator,
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray | None,
    node: int,
    test: SplitTest,
    tree: Tree | None = None,
) -> Tree:
    """A new Tree equal to ``tree`` (default ``est.tree_``) except that ``node`` tests ``test``
    (a :class:`SplitTest`, as ``dtcore.explain`` builds them)
    and its children are regrown. X, y: the encoded training data the tree was grown on."""
    tree = est.tree_ if tree is None else tree
    nd = NodeData(est, X, y, sample_weight, node, tree)
    parts = children_rows(nd, test)
    if sum(1 for pos, cw in parts if cw.sum() > 0) < 2:
        raise ValueError("the forced test must send training rows down at least two branches")
    n_out = tree.value.shape[1]
    asm = TreeAssembler(n_out, tree.n_classes)

    def copy_sub(src: Tree, i: int, parent: int) -> None:
        """Copy src's subtree at i under ``parent`` (explicit stack, children in branch order)."""
        stack = [(i, parent)]
        while stack:
            k, par = stack.pop()
            new = asm.add_node(par, src.value[k], src.weighted_n[k], src.n_samples[k], src.impurity[k])
            if k == node and src is tree:
                grow_forced(new)
                continue
            if src.feature[k] < 0:
                continue
            t = src.split_test(k)
            assert t is not None  # k is a test node (feature ≥ 0)
            asm.set_split(
                new, t.feature, cuts=t.cuts, cat_branch=t.cat_branch, missing_branch=t.missing_branch
            )
            # pushed reversed, popped (and appended to the parent) in branch order
            for c in reversed(src.children_of(k).tolist()):
                stack.append((c, new))

    def grow_forced(new: int) -> None:
        asm.set_split(
            new, test.feature, cuts=test.cuts, cat_branch=test.cat_branch, missing_branch=test.missing_branch
        )
        for pos, cw in parts:
            rows = nd.rows[pos]
            if cw.sum() <= 0:
                # empty branch: a leaf predicting the parent's distribution (seed 004, case 3)
                asm.add_node(new, tree.value[node], 0.0, 0, 0.0)
                continue
            sub = _regrow(est, nd, rows, cw, nd.depth + 1)
            if sub is None:
                value, wsum, imp = _leaf_stats(nd, rows, cw)
                asm.add_node(new, value, wsum, int(np.count_nonzero(cw > 0)), imp)
            else:
                copy_sub(sub, 0, new)

    copy_sub(tree, 0, -1)
    out = asm.build()
    out.saw_missing = missing_seen(out, nd.X_all, nd.w_all)
    record_neighbours(out, nd.X_all, nd.w_all)
    return out


def with_tree(est: BaseTreeEstimator, tree: Tree) -> BaseTreeEstimator:
    """A shallow copy of ``est`` holding ``tree`` (the original estimator is not modified)."""
    out = copy.copy(est)
    out.tree_ = tree
    return out


def replay(
    est: BaseTreeEstimator,
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray | None,
    ops: Iterable[tuple[int, SplitTest]],
) -> tuple[object, list[int]]:
    """Apply forced splits in order; ``ops`` = [(node, test), …], each node id referring to the
    tree produced by the ops before it. Returns (new estimator, forced node ids in the final
    tree). A forced node deeper than a later forced node is dropped from the list when that
    later force replaces its subtree."""
    cur = est
    forced: list[int] = []
    for node, test in ops:
        tree = force_split(cur, X, y, sample_weight, int(node), test, tree=cur.tree_)
        old = cur.tree_.subtree(int(node))
        shift = tree.node_count - cur.tree_.node_count
        # ids before the node keep their place, those inside its old subtree are gone, those
        # after it move by the change in size
        forced = [f if f < old[0] else f + shift for f in forced if not old[0] <= f <= old[-1]]
        forced.append(int(node))
        cur = with_tree(cur, tree)
    return cur, forced


def is_forced_test(est: BaseTreeEstimator, node: int, test: SplitTest) -> bool:
    """Does ``est``'s tree hold ``test`` at ``node``?"""
    return same_test(tree_test(est.tree_, node), test)
