"""Error-based pruning's working tree (``PNode``), how it routes rows, and the rebuilds of a
flat ``Tree`` from it (``dtcore.pruning.ebp`` prunes; this module holds its tree plumbing)."""

from __future__ import annotations

import numpy as np

from dtcore.criteria import entropy
from dtcore.entropy.multiway import set_entropy_impurity
from dtcore.routing import DISTRIBUTE, branch_index, distribute_rows
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
    """The subtree of ``root`` as PNodes (iterative: deep trees need no recursion). Every
    node's cuts and categorical table are views of copies of the flat arrays (a PNode's
    arrays are its own: pruning replaces them, never writes them)."""

    def pieces(data: np.ndarray, ptr: np.ndarray) -> list[np.ndarray]:
        data, bounds = data.copy(), ptr.tolist()
        return [data[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    cuts = pieces(tree.cuts, tree.cut_ptr)
    cat_branch = pieces(tree.cat_branch, tree.cat_ptr)
    feature, missing = tree.feature.tolist(), tree.missing_branch.tolist()
    child_ptr, children = tree.child_ptr.tolist(), tree.children.tolist()

    def make(i: int) -> PNode:
        return PNode(i, feature[i], cuts[i], cat_branch[i], missing[i], [])

    top = make(root)
    stack = [top]
    while stack:
        node = stack.pop()
        for c in children[child_ptr[node.orig] : child_ptr[node.orig + 1]]:
            child = make(c)
            node.children.append(child)
            stack.append(child)
    return top


def feature_columns(X: np.ndarray) -> np.ndarray:
    """``X`` with each feature's values contiguous (``columns[f][rows]`` gathers a few rows
    several times faster than ``X[rows, f]`` on a row-major table)."""
    return np.ascontiguousarray(X.T)


def split_node_rows(
    node: PNode, columns: np.ndarray, idx: np.ndarray, w: np.ndarray
) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Rows (and weights) of each branch of ``node``, unknown values shared as in training
    (``routing.branch_index`` + ``routing.distribute_rows``; a binary cut with nothing missing
    takes a shortcut with the same partition). ``columns``: ``feature_columns(X)``."""
    x = columns[node.feature][idx]
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
    root: PNode, columns: np.ndarray, y: np.ndarray, idx: np.ndarray, w: np.ndarray, C: int
) -> list[tuple[int, list[float], float, int, float]]:
    """The statistics of ``root``'s subtree with the rows ``idx`` (weights ``w``) routed through
    it, in pre-order, as ``rebuild_tree`` computes them (an empty node: its parent's counts, weight 0);
    ``columns``: ``feature_columns(X)``."""
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
        parts = split_node_rows(node, columns, ix, wl)[0] if ix.size else [(ix, wl)] * len(node.children)
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
    root: PNode, columns: np.ndarray, y: np.ndarray, w: np.ndarray, idx: np.ndarray, C: int
) -> tuple[Tree, list[int]]:
    """A Tree from pruned nodes, with counts recomputed by routing the training rows
    (``columns``: ``feature_columns(X)``)."""
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
            parts, _ = split_node_rows(node, columns, idx, wl)
        else:
            parts = [(idx, wl)] * len(node.children)
        for c, p in reversed(list(zip(node.children, parts))):
            stack.append((c, i, p[0], p[1], parent_counts))
    return asm.build(), kept


def _ptr(lengths: list[int]) -> np.ndarray:
    p = np.zeros(len(lengths) + 1, dtype=np.int64)
    p[1:] = np.cumsum(lengths)
    return p


def rebuild_from_leaves(root: PNode, C: int) -> tuple[Tree, list[int]]:
    """A Tree from pruned nodes when no value is missing: every row reaches one leaf, so a
    test's counts are the sum of its children's (the leaves' counts were set by pruning).

    Built as flat arrays, a level at a time: what ``TreeAssembler`` builds from the same nodes
    added in pre-order (a test's counts summed over its children in branch order from 0, an
    empty node given its parent's counts and weight 0), without a record per node."""
    order: list[PNode] = []  # pre-order: parents before children, children in branch order
    parent: list[int] = []
    stack: list[tuple[PNode, int]] = [(root, -1)]
    while stack:
        node, up = stack.pop()
        parent.append(up)
        here = len(order)
        order.append(node)
        stack.extend((c, here) for c in reversed(node.children))
    n = len(order)
    par = np.array(parent, dtype=np.int64)
    depth = np.zeros(n, dtype=np.int64)
    for i in range(1, n):  # a parent precedes its children
        depth[i] = depth[parent[i]] + 1
    is_leaf = np.array([node.is_leaf for node in order], dtype=bool)
    counts = np.zeros((n, C))
    nrows = np.zeros(n, dtype=np.int64)
    leaves = np.flatnonzero(is_leaf)
    if leaves.size:
        for i in leaves.tolist():  # pruning set the counts of every leaf
            assert order[i].counts is not None
        counts[leaves] = np.array([order[i].counts for i in leaves.tolist()], dtype=np.float64).reshape(-1, C)
        nrows[leaves] = [order[i].nrows for i in leaves.tolist()]
    by_depth = np.argsort(depth, kind="stable")  # per level, in pre-order: siblings in branch order
    starts = np.searchsorted(depth[by_depth], np.arange(int(depth.max()) + 2))
    for d in range(starts.size - 2, 0, -1):  # deepest first: a level's sums are complete
        at = by_depth[starts[d] : starts[d + 1]]
        np.add.at(counts, par[at], counts[at])  # in order: 0 + first child + second + …
        np.add.at(nrows, par[at], nrows[at])
    weighted_n = counts.sum(axis=1)
    empty = (nrows == 0) & (weighted_n <= 0) & (par >= 0)
    value = counts.copy()
    for d in range(1, starts.size - 1):  # top-down: an empty node takes its parent's counts
        at = by_depth[starts[d] : starts[d + 1]]
        at = at[empty[at]]
        value[at] = value[par[at]]
    weighted_n[empty] = 0.0
    nrows[empty] = 0
    tests = [node for node in order if not node.is_leaf]
    test_cuts = [node.cuts if not node.cat_branch.size else node.cuts[:0] for node in tests]
    test_cats = [node.cat_branch for node in tests]  # dense tables: kept sparse in the Tree
    test_codes = [np.flatnonzero(c >= 0).astype(np.int32) for c in test_cats]
    cut_len = np.zeros(n, dtype=np.int64)
    cat_len = np.zeros(n, dtype=np.int64)
    cat_size = np.zeros(n, dtype=np.int64)
    child_len = np.zeros(n, dtype=np.int64)
    test_ids = np.flatnonzero(~is_leaf)
    cut_len[test_ids] = [c.size for c in test_cuts]
    cat_size[test_ids] = [c.size for c in test_cats]
    cat_len[test_ids] = [c.size for c in test_codes]
    child_len[test_ids] = [len(node.children) for node in tests]
    # pre-order: the children of the tests are every node but the root, in order of their parent
    children = np.argsort(par[1:], kind="stable") + 1
    tree = Tree(
        feature=np.array([-1 if node.is_leaf else node.feature for node in order], dtype=np.int32),
        parent=par.astype(np.int32),
        depth=depth.astype(np.int32),
        missing_branch=np.array(
            [DISTRIBUTE if node.is_leaf else node.missing_branch for node in order], dtype=np.int32
        ),
        value=value,
        weighted_n=weighted_n,
        n_samples=nrows,
        impurity=np.zeros(n),
        child_ptr=_ptr(child_len.tolist()),
        children=children.astype(np.int32),
        cut_ptr=_ptr(cut_len.tolist()),
        cuts=np.concatenate([np.empty(0), *test_cuts]).astype(np.float64),
        cat_size=cat_size,
        cat_ptr=_ptr(cat_len.tolist()),
        cat_code=np.concatenate([np.empty(0, np.int32), *test_codes]),
        cat_branch=np.concatenate(
            [np.empty(0, np.int32), *(c[k] for c, k in zip(test_cats, test_codes))]
        ).astype(np.int32),
        n_classes=C,
    )
    return set_entropy_impurity(tree), [node.orig for node in order]
