"""Error-based pruning's working tree (``PNode``), how it routes rows, and the rebuilds of a
flat ``Tree`` from it (``dtcore.pruning.ebp`` prunes; this module holds its tree plumbing)."""

from __future__ import annotations

import numpy as np

from dtcore.criteria import entropy
from dtcore.entropy.multiway import set_entropy_impurity
from dtcore.routing import branch_index, distribute_rows
from dtcore.tree import Tree, TreeAssembler


class PNode:
    __slots__ = (
        "orig",
        "feature",
        "cuts",
        "cat_branch",
        "missing_branch",
        "children",
        "counts",
        "err",
        "nrows",
    )

    def __init__(
        self,
        orig: int,
        feature: int,
        cuts: np.ndarray,
        cat_branch: np.ndarray,
        missing_branch: int,
        children: list[PNode],
    ) -> None:
        self.orig, self.feature, self.cuts = orig, feature, cuts
        self.cat_branch, self.missing_branch, self.children = cat_branch, missing_branch, children
        self.counts: np.ndarray | None = None  # class counts at a leaf after pruning it
        self.err = 0.0  # estimated errors of the pruned subtree
        self.nrows = 0  # rows (positive weight) at a leaf after pruning it

    @property
    def is_leaf(self) -> bool:
        return self.feature < 0 or not self.children

    def size(self) -> int:
        """Nodes in this subtree (explicit stack: deep trees need no recursion)."""
        n, stack = 0, [self]
        while stack:
            node = stack.pop()
            n += 1
            stack.extend(node.children)
        return n


def to_pnodes(tree: Tree, root: int = 0) -> PNode:
    """The subtree of ``root`` as _PNodes (iterative: deep trees need no recursion)."""

    def make(i: int) -> PNode:
        return PNode(
            i,
            int(tree.feature[i]),
            tree.cuts_of(i).copy(),
            tree.cat_branch_of(i).copy(),
            int(tree.missing_branch[i]),
            [],
        )

    top = make(root)
    stack = [top]
    while stack:
        node = stack.pop()
        for c in tree.children_of(node.orig):
            child = make(int(c))
            node.children.append(child)
            stack.append(child)
    return top


def split_node_rows(
    node: PNode, X: np.ndarray, idx: np.ndarray, w: np.ndarray
) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Rows (and weights) of each branch of ``node``, unknown values shared as in training
    (``routing.branch_index`` + ``routing.distribute_rows``; a binary cut with nothing missing
    takes a shortcut with the same partition)."""
    x = X[idx, node.feature]
    V = len(node.children)
    known = ~np.isnan(x)
    if node.cuts.size == 1 and known.all():  # fast path: binary cut, nothing missing
        left = x <= node.cuts[0]
        right = ~left
        parts = [(idx[left], w[left]), (idx[right], w[right])]
        return parts, np.array([parts[0][1].sum(), parts[1][1].sum()])
    branch = branch_index(
        x,
        cuts=None if node.cat_branch.size else node.cuts,
        cat_branch=node.cat_branch if node.cat_branch.size else None,
        missing_branch=node.missing_branch,
    )
    parts, bw = distribute_rows(branch, w, V)
    return [(idx[p], cw) for p, cw in parts], bw


def subtree_stats(
    root: PNode, X: np.ndarray, y: np.ndarray, idx: np.ndarray, w: np.ndarray, C: int
) -> list[tuple[int, list[float], float, int, float]]:
    """The statistics of ``root``'s subtree with the rows ``idx`` (weights ``w``) routed through
    it, in pre-order, as ``rebuild_tree`` computes them (an empty node: its parent's counts, weight 0)."""
    out = []
    stack: list[tuple[PNode, np.ndarray, np.ndarray, np.ndarray | None]] = [(root, idx, w, None)]
    while stack:
        node, ix, wl, parent_counts = stack.pop()
        if ix.size == 0 and parent_counts is not None:
            out.append((node.orig, parent_counts.tolist(), 0.0, 0, 0.0))
        else:
            counts = np.bincount(y[ix], weights=wl, minlength=C)
            out.append(
                (node.orig, counts.tolist(), float(counts.sum()), int(np.sum(wl > 0)), float(entropy(counts)))
            )
            parent_counts = counts
        if node.is_leaf:
            continue
        parts = split_node_rows(node, X, ix, wl)[0] if ix.size else [(ix, wl)] * len(node.children)
        for c, p in reversed(list(zip(node.children, parts))):
            stack.append((c, p[0], p[1], parent_counts))
    return out


def _copy_test(asm: TreeAssembler, i: int, node: PNode) -> None:
    """Give assembler node i the test of pruned node ``node``."""
    if node.cat_branch.size:
        asm.set_split(i, node.feature, cat_branch=node.cat_branch, missing_branch=node.missing_branch)
    else:
        asm.set_split(i, node.feature, cuts=node.cuts, missing_branch=node.missing_branch)


def rebuild_tree(
    root: PNode, X: np.ndarray, y: np.ndarray, w: np.ndarray, idx: np.ndarray, C: int
) -> tuple[Tree, list[int]]:
    """A Tree from pruned nodes, with counts recomputed by routing the training rows."""
    asm = TreeAssembler(C, C)
    kept = []

    # pre-order on an explicit stack (children pushed reversed, so added in branch order)
    stack: list[tuple[PNode, int, np.ndarray, np.ndarray, np.ndarray | None]] = [(root, -1, idx, w, None)]
    while stack:
        node, parent, idx, wl, parent_counts = stack.pop()
        if idx.size == 0 and parent >= 0:
            assert parent_counts is not None  # only the root (parent -1) is added without them
            i = asm.add_node(parent, parent_counts, 0.0, 0, 0.0)
        else:
            counts = np.bincount(y[idx], weights=wl, minlength=C)
            i = asm.add_node(parent, counts, counts.sum(), int(np.sum(wl > 0)), float(entropy(counts)))
            parent_counts = counts
        kept.append(node.orig)
        if node.is_leaf:
            continue
        _copy_test(asm, i, node)
        if idx.size:
            parts, _ = split_node_rows(node, X, idx, wl)
        else:
            parts = [(idx, wl)] * len(node.children)
        for c, p in reversed(list(zip(node.children, parts))):
            stack.append((c, i, p[0], p[1], parent_counts))
    return asm.build(), kept


def rebuild_from_leaves(root: PNode, C: int) -> tuple[Tree, list[int]]:
    """A Tree from pruned nodes when no value is missing: every row reaches one leaf, so a
    test's counts are the sum of its children's (the leaves' counts were set by pruning)."""
    order, stack = [], [root]  # pre-order: parents before children
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(node.children)
    totals: dict[int, tuple[np.ndarray, int]] = {}
    for node in reversed(order):  # children before parents: totals flow up
        if node.is_leaf:
            assert node.counts is not None  # pruning set the counts of every leaf
            totals[id(node)] = (node.counts, node.nrows)
        else:
            parts = [totals[id(c)] for c in node.children]
            counts = sum(p[0] for p in parts)
            assert isinstance(counts, np.ndarray)  # a test has children: a sum of arrays
            totals[id(node)] = (counts, sum(p[1] for p in parts))
    asm = TreeAssembler(C, C)
    kept = []
    # pre-order on an explicit stack (children pushed reversed, so added in branch order)
    todo: list[tuple[PNode, int, np.ndarray | None]] = [(root, -1, None)]
    while todo:
        node, parent, parent_counts = todo.pop()
        counts, nrows = totals[id(node)]
        wn = float(counts.sum())
        if nrows == 0 and wn <= 0 and parent >= 0:
            assert parent_counts is not None  # only the root (parent -1) is added without them
            i = asm.add_node(parent, parent_counts, 0.0, 0, 0.0)
        else:
            i = asm.add_node(parent, counts, wn, nrows, 0.0)
            parent_counts = counts
        kept.append(node.orig)
        if node.is_leaf:
            continue
        _copy_test(asm, i, node)
        todo.extend((c, i, parent_counts) for c in reversed(node.children))
    return set_entropy_impurity(asm.build()), kept
