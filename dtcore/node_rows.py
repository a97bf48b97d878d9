"""What a grown tree learns from its own training rows, routed by its own rules (``routing``):

* :func:`walk_tests`: the training rows at each test, walked once from the root (the routing
  rules' own homes: ``Tree.branch_of`` → ``branch_index``, CART's learned ``missing_branch``,
  C4.5's shares by ``routing.distribute_rows``), as ``Tree.reach`` applies them for one node;
  :func:`walk_nodes` also the leaves and each row's weight (the node charts of pictures);
* :func:`missing_seen`: which tests met a missing value in training;
* :func:`cut_neighbours`: the training values on either side of each cut.

**Which tests met a missing value.** Which tests met a missing value in training: per node, whether a training row (weight > 0)
reached it with the tested value missing (or a category with no branch there), so that pictures
say "missing →" only where the model learned or used its missing-value rule.

Filled once after growing (``BaseTreeEstimator.fit_encoded``) on the final tree, from the rows
the tree itself routes (``node_rows.walk_tests``). One pass down the tree, one vectorised step
per node; nothing to do when the data have no missing value.

**Cut neighbours.** The training values on either side of each cut: per cut point of a continuous test, the
largest known value at that node that goes left (≤ the cut) and the smallest that goes right
(> the cut), from the rows of positive weight the tree routes there (``Tree.route``).

They say how far a printed threshold may be rounded without sending a training row the other
way (``export.thresholds``), and where C4.5's stored threshold (release 8: the largest value ≤
the cut in the whole training set) sits relative to the midpoint between them. Computed from
the data after growing, whatever the splitter (the histogram splitter's cut is a bin edge; its
neighbours are still the node's real values), and again wherever rows change their way (error-
based pruning's raised branches, forced splits); pruning by collapse keeps them (a kept node's
rows are unchanged). −inf below / +inf above: no training value on that side; the arrays are
None when not known (a model saved before they were recorded).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from dtcore.progress import checkpoint
from dtcore.routing import distribute_rows, route_rows
from dtcore.tree import Tree


def walk_tests(
    tree: Tree, X: np.ndarray, w: np.ndarray | None = None
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(node, rows, branch) for every test that a row of positive weight reaches: ``rows`` the
    row indices of ``X`` there (a row whose value is missing may reach several), ``branch``
    each row's branch before the missing-value rule (-1: no branch for its value).
    Depth-first, one vectorised step per node."""
    for node, rows, _, branch in walk_nodes(tree, X, w):
        if branch is not None:
            yield node, rows, branch


def walk_nodes(
    tree: Tree, X: np.ndarray, w: np.ndarray | None = None
) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray | None]]:
    """(node, rows, weights, branch) for every node (test or leaf) that a row of positive
    weight reaches: ``weights`` each row's weight there (C4.5's shares of a missing value),
    ``branch`` as :func:`walk_tests` gives it, None at a leaf. Depth-first."""
    weights = np.ones(X.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    start = np.flatnonzero(weights > 0)
    stack = [(0, start, weights[start])] if tree.node_count else []
    while stack:
        checkpoint()
        node, rows, rw = stack.pop()
        if rows.size == 0:
            continue
        if tree.feature[node] < 0:
            yield node, rows, rw, None
            continue
        branch = tree.branch_of(node, X[rows, tree.feature[node]])
        yield node, rows, rw, branch.copy()
        mb = int(tree.missing_branch[node])
        if mb >= 0:
            branch[branch < 0] = mb
        kids = tree.children_of(node)
        parts, _ = distribute_rows(branch, rw, kids.size)
        for child, (pos, cw) in zip(kids.tolist(), parts):
            keep = cw > 0
            stack.append((child, rows[pos[keep]], cw[keep]))


def any_missing(X: np.ndarray, cols: np.ndarray) -> bool:
    """Whether a column of ``cols`` holds a NaN, without copying those columns out of a
    row-major table: a NaN makes its column's sum NaN. (A finite table's sums can overflow to
    ±inf, and +inf + −inf is NaN too: then the columns are looked at themselves.)"""
    if X.shape[0] == 0 or cols.size == 0:
        return False
    if not np.isnan(X.sum(axis=0)[cols]).any():
        return False
    return bool(np.isnan(X[:, cols]).any())


#: (test, code) pairs looked up at once by ``_may_miss``
LOOKUP_CHUNK = 1 << 16


def _may_miss(tree: Tree, X: np.ndarray) -> bool:
    """Could any row meet a test with no branch for its value? Not when the tested columns hold
    no NaN and every category code in a tested column has a branch at each test of it (looked
    up for every (test, code) pair of a feature at once, in chunks of :data:`LOOKUP_CHUNK`)."""
    inner = np.flatnonzero(tree.feature >= 0)
    if inner.size == 0:
        return False
    if any_missing(X, np.unique(tree.feature[inner])):
        return True
    cat_tests = inner[tree.cat_size[inner] > 0]
    if cat_tests.size == 0:
        return False
    lookup = tree.cat_lookup()
    for j in np.unique(tree.feature[cat_tests]).tolist():
        codes = np.unique(X[:, j]).astype(np.int64)
        tests = cat_tests[tree.feature[cat_tests] == j]
        step = max(1, LOOKUP_CHUNK // max(codes.size, 1))
        for a in range(0, tests.size, step):
            part = tests[a : a + step]
            if (lookup(np.repeat(part, codes.size), np.tile(codes, part.size)) < 0).any():
                return True
    return False


def missing_seen(tree: Tree, X: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """Bool per node: a training row of positive weight reached this test with no branch for
    its value (leaves: False)."""
    X = np.asarray(X, dtype=np.float64)
    seen = np.zeros(tree.node_count, dtype=bool)
    if not _may_miss(tree, X):
        return seen
    if (tree.missing_branch[tree.feature >= 0] >= 0).all():
        # every test sends a row down one branch (CART's learned direction): all rows are routed
        # a level at a time (a walk node by node took 20 s on two 70 000-node trees whose deep
        # categorical tests lack some categories)
        def mark(nodes: np.ndarray) -> None:
            seen[nodes] = True

        kept = None if w is None else np.asarray(w) > 0  # rows of weight 0 take no part
        route_rows(tree, X if kept is None or kept.all() else X[kept], on_lost=mark)
        return seen
    for node, _, branch in walk_tests(tree, X, w):
        seen[node] = bool((branch < 0).any())
    return seen


def cut_neighbours(tree: Tree, X: np.ndarray, w: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(below, above), each parallel to ``tree.cuts``: at cut k of node i, the largest known
    value of the tested feature among node i's training rows that is ≤ the cut, and the
    smallest one that is > it (−inf, +inf when there is none).

    The rows of positive weight are routed once (``Tree.route``, which hands over, at each
    step, the rows standing at continuous tests with their value and branch: a row with a
    missing value reaches every branch of positive share); each step is two vectorised
    reductions (no loop over nodes or rows)."""
    X = np.asarray(X, dtype=np.float64)
    below = np.full(tree.cuts.size, -np.inf)
    above = np.full(tree.cuts.size, np.inf)
    if tree.cuts.size == 0 or X.shape[0] == 0:
        return below, above
    weights = np.ones(X.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    n_cuts = np.diff(tree.cut_ptr)

    def visit(node: np.ndarray, v: np.ndarray, b: np.ndarray, share: np.ndarray) -> None:
        start, count, on = tree.cut_ptr[node], n_cuts[node], share > 0
        le = on & (b < count)  # v ≤ cut b: a value below it
        np.maximum.at(below, start[le] + b[le], v[le])
        gt = on & (b > 0)  # v > cut b − 1: a value above it
        np.minimum.at(above, start[gt] + b[gt] - 1, v[gt])

    rows = X if (weights > 0).all() else X[weights > 0]  # no copy of a 10⁶-row table: 0.2 s
    tested = np.unique(tree.feature[tree.feature >= 0])
    if tree.has_only_binary_tests() and not any_missing(rows, tested):
        # the general router's visits in the same order (rows in order at every node), so even
        # which of two equal values (0.0 and -0.0) is kept does not change
        _binary_neighbours(tree, rows, below, above)
    else:
        tree.route(rows, on_continuous=visit)
    # several cuts (ID3's intervals): the largest value ≤ cut k may lie in an interval below k
    for j in np.flatnonzero(n_cuts > 1).tolist():
        seg = slice(int(tree.cut_ptr[j]), int(tree.cut_ptr[j + 1]))
        below[seg] = np.maximum.accumulate(below[seg])
        above[seg] = np.minimum.accumulate(above[seg][::-1])[::-1]
    return below, above


def _binary_neighbours(tree: Tree, X: np.ndarray, below: np.ndarray, above: np.ndarray) -> None:
    """:func:`cut_neighbours`' reductions for a tree of one-cut continuous tests and rows with no
    missing value on a tested feature: rows walked level by level with a few array operations
    per level (``Tree.route``'s general step costs several times more). A row's value goes to
    its cut's ``below`` or, past one spare slot, ``above``: each side's reduction visits the
    rows in order, with no copies of the rows of each side."""
    nodes, n_cuts = tree.node_count, tree.cuts.size
    inner = np.flatnonzero(tree.feature >= 0)
    feat = np.maximum(tree.feature, 0).astype(np.intp)
    thr = np.zeros(nodes)
    thr[inner] = tree.cuts[tree.cut_ptr[inner]]
    kid = np.zeros(2 * nodes, dtype=np.intp)  # 2i: the child x ≤ t goes to, 2i + 1: x > t
    kid[2 * inner] = tree.children[tree.child_ptr[inner]]
    kid[2 * inner + 1] = tree.children[tree.child_ptr[inner] + 1]
    cut = tree.cut_ptr[:-1].astype(np.intp)
    low = np.append(below, -np.inf)  # slot n_cuts: the values that went right
    high = np.append(above, np.inf)  # slot n_cuts: the values that went left
    rows = np.arange(X.shape[0])
    node = np.zeros(X.shape[0], dtype=np.intp)  # the root is a test: the caller has cuts
    # a row-major table is read by flat positions (``take``: several times faster than
    # indexing X by (row, column) pairs)
    flat, width = (X.reshape(-1), X.shape[1]) if X.flags.c_contiguous else (None, 0)
    while rows.size:
        checkpoint()
        x = flat.take(rows * width + feat[node]) if flat is not None else X[rows, feat[node]]
        goes_right = x > thr[node]
        at = cut[node]
        np.maximum.at(low, np.where(goes_right, n_cuts, at), x)
        np.minimum.at(high, np.where(goes_right, at, n_cuts), x)
        node = kid[2 * node + goes_right]
        on = tree.feature[node] >= 0
        if not on.all():
            rows, node = rows[on], node[on]
    below[:] = low[:n_cuts]
    above[:] = high[:n_cuts]


def values_beside(x: np.ndarray, cuts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cut, the largest known value of ``x`` that is ≤ it and the smallest that is > it
    (−inf, +inf: none): the node's values next to its cuts."""
    x = np.asarray(x, dtype=np.float64)
    cuts = np.asarray(cuts, dtype=np.float64)
    if cuts.size == 1:  # a binary test: two masked reductions, no sort (NaN is neither side)
        left, right = x[x <= cuts[0]], x[x > cuts[0]]
        return (
            np.array([left.max() if left.size else -np.inf]),
            np.array([right.min() if right.size else np.inf]),
        )
    xs = np.unique(x[~np.isnan(x)])
    if xs.size == 0:
        return np.full(cuts.size, -np.inf), np.full(cuts.size, np.inf)
    k = np.searchsorted(xs, cuts, side="right")  # xs[:k] ≤ cut < xs[k:]
    below = np.where(k > 0, xs[np.maximum(k - 1, 0)], -np.inf)
    above = np.where(k < xs.size, xs[np.minimum(k, xs.size - 1)], np.inf)
    return below, above


def record_neighbours(tree: Tree, X: np.ndarray, w: np.ndarray | None = None) -> Tree:
    """Store :func:`cut_neighbours` on ``tree`` (``cut_below``/``cut_above``); returns it."""
    tree.cut_below, tree.cut_above = cut_neighbours(tree, X, w)
    return tree


def merge_neighbours(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The neighbours over all rows from those of disjoint row blocks (Dask partitions): the
    largest value below, the smallest above (±inf where no block has one)."""
    lows = np.asarray([p[0] for p in parts], dtype=np.float64)
    highs = np.asarray([p[1] for p in parts], dtype=np.float64)
    return lows.max(axis=0), highs.min(axis=0)
