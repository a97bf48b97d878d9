"""Turning internal nodes into leaves: the one tree surgery REP, PEP and CCP need.

A pruned tree keeps a subset of the original nodes, unchanged except that the collapsed ones lose
their test and children; because node ids are in pre-order, a node's descendants are the
contiguous block ``node+1 .. end[node]-1`` and keeping the survivors in their old order is again a
pre-order numbering.  ``kept[new] = old`` lets a view ghost the removed nodes.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from dtcore.routing import DISTRIBUTE
from dtcore.tree import LEAF, Tree


def subtree_end(tree: Tree) -> np.ndarray:
    """end[i]: one past the last descendant of node i (pre-order ⇒ descendants are i+1..end-1)."""
    n = tree.node_count
    size = np.ones(n, dtype=np.int64)
    depth = np.asarray(tree.depth, dtype=np.int64)
    # one vectorised step per level, deepest first (a Growth replay of a 10⁵-node tree calls this
    # on every step): a level's sizes are complete once every deeper level has been added
    by_depth = np.argsort(depth, kind="stable")
    starts = np.searchsorted(depth[by_depth], np.arange(int(depth.max()) + 2 if n else 0))
    for d in range(starts.size - 2, 0, -1):
        at = by_depth[starts[d] : starts[d + 1]]
        np.add.at(size, tree.parent[at], size[at])
    return np.arange(n) + size


def _gather(ptr: np.ndarray, data: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CSR slices of ``nodes`` concatenated, with the new pointer array."""
    lengths = ptr[nodes + 1] - ptr[nodes]
    new_ptr = np.zeros(nodes.size + 1, dtype=np.int64)
    new_ptr[1:] = np.cumsum(lengths)
    idx = np.repeat(ptr[nodes] - new_ptr[:-1], lengths) + np.arange(new_ptr[-1])
    return new_ptr, data[idx]


def collapse(tree: Tree, nodes: ArrayLike) -> tuple[Tree, np.ndarray]:
    """A new tree in which every node in ``nodes`` is a leaf (its descendants dropped).

    Returns ``(pruned, kept)`` with ``kept[new_id] = old_id``.  The input tree is not modified.
    Collapsing a leaf, or a node already below a collapsed one, changes nothing.
    """
    n = tree.node_count
    cut = np.zeros(n, dtype=bool)
    cut[np.asarray(nodes, dtype=np.int64)] = True
    cut &= ~tree.is_leaf
    end = subtree_end(tree)
    drop = np.zeros(n + 1, dtype=np.int64)  # difference array: +1 at i+1, -1 at end[i]
    for i in np.nonzero(cut)[0]:
        drop[i + 1] += 1
        drop[end[i]] -= 1
    keep = np.cumsum(drop[:n]) == 0
    kept = np.nonzero(keep)[0]
    new_id = np.full(n, -1, dtype=np.int64)
    new_id[kept] = np.arange(kept.size)
    leaf_now = tree.is_leaf[kept] | cut[kept]
    tests = kept[~leaf_now]

    def csr(ptr: np.ndarray, data: np.ndarray, dtype: DTypeLike) -> tuple[np.ndarray, np.ndarray]:
        p = np.zeros(kept.size + 1, dtype=np.int64)
        sub_ptr, sub = _gather(ptr, data, tests)
        lengths = np.zeros(kept.size, dtype=np.int64)
        lengths[~leaf_now] = np.diff(sub_ptr)
        p[1:] = np.cumsum(lengths)
        return p, sub.astype(dtype)

    child_ptr, children = csr(tree.child_ptr, tree.children, np.int32)
    children = new_id[children].astype(np.int32)
    cut_ptr, cuts = csr(tree.cut_ptr, tree.cuts, np.float64)
    # a kept test keeps its rows, so its cuts keep their neighbouring training values
    near = [
        None if a is None else csr(tree.cut_ptr, a, np.float64)[1] for a in (tree.cut_below, tree.cut_above)
    ]
    cat_ptr, cat_branch = csr(tree.cat_ptr, tree.cat_branch, np.int32)
    cat_code = csr(tree.cat_ptr, tree.cat_code, np.int32)[1]
    parent = tree.parent[kept].astype(np.int64)
    parent = np.where(parent >= 0, new_id[np.maximum(parent, 0)], -1).astype(np.int32)
    pruned = Tree(
        feature=np.where(leaf_now, LEAF, tree.feature[kept]).astype(np.int32),
        parent=parent,
        depth=tree.depth[kept].copy(),
        missing_branch=np.where(leaf_now, DISTRIBUTE, tree.missing_branch[kept]).astype(np.int32),
        value=tree.value[kept].copy(),
        weighted_n=tree.weighted_n[kept].copy(),
        n_samples=tree.n_samples[kept].copy(),
        impurity=tree.impurity[kept].copy(),
        child_ptr=child_ptr,
        children=children,
        cut_ptr=cut_ptr,
        cuts=cuts,
        cat_size=np.where(leaf_now, 0, tree.cat_size[kept]).astype(np.int64),
        cat_ptr=cat_ptr,
        cat_code=cat_code,
        cat_branch=cat_branch,
        n_classes=tree.n_classes,
        saw_missing=None if tree.saw_missing is None else tree.saw_missing[kept] & ~leaf_now,
        cut_below=near[0],
        cut_above=near[1],
    )
    return pruned, kept


def shape_of(tree: Tree) -> dict:
    """Size figures a report compares before and after."""
    return {"nodes": tree.node_count, "leaves": tree.get_n_leaves(), "depth": tree.get_depth()}
