"""How a row goes through a node's test: the test record (:class:`SplitTest`), the branch a value
takes (:func:`branch_index`, the single home of that rule) and C4.5's sharing of a row whose value
is missing over every branch (:func:`distribute_rows`, the single home of the K_v/K shares), and
the tight descent of whole blocks of rows through a tree of binary numeric tests
(:func:`descend_binary`, what ``Tree.predict`` uses when no value is missing).
``dtcore.tree`` applies them to whole trees; the builders, pruning, the explorer and the exports
call them here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import ArrayLike

from dtcore.criteria import SMALL
from dtcore.progress import checkpoint

DISTRIBUTE = -1  # missing_branch value: send missing values down every branch
#: a node, the rows of a table that reach it and their weights (``Tree.reach``)
Reached = tuple[int, np.ndarray, np.ndarray]


def branch_index(
    x: ArrayLike,
    cuts: ArrayLike | None = None,
    cat_branch: ArrayLike | None = None,
    missing_branch: int = DISTRIBUTE,
) -> np.ndarray:
    """Branch taken by each value ``x`` under one test: the single home of this rule (the
    builders' grow steps, ``Tree.branch_of``/``reach``, error-based pruning and the split
    explorer call it; ``Tree.route`` and CART's level-wise ``cart.grower.Grower.route`` are the
    vectorised-over-nodes forms).

    ``cat_branch`` given: a categorical test, code c goes to ``cat_branch[c]`` (-1 or a code
    outside the table: no branch).  Else a continuous test: ``searchsorted(cuts, x, "left")``
    (``x ≤ t`` is branch 0).  Missing values and values with no branch get ``missing_branch``
    when it is ≥ 0, else -1 (the caller shares them out: ``routing.distribute_rows``).
    """
    x = np.asarray(x, dtype=np.float64)
    out = np.full(x.shape, -1, dtype=np.int64)
    known = ~np.isnan(x)
    if cat_branch is not None:
        table = np.asarray(cat_branch, dtype=np.int64)
        code = np.where(known, x, -1).astype(np.int64)
        ok = known & (code >= 0) & (code < table.size)
        out[ok] = table[code[ok]]
    else:
        out[known] = np.searchsorted(np.asarray(cuts, dtype=np.float64), x[known], side="left")
    if missing_branch >= 0:
        out[out < 0] = missing_branch
    return out


@dataclass(frozen=True)
class SplitTest:
    """One node's test, as ``TreeAssembler.set_split`` takes it and :meth:`Tree.split_test` gives
    it: a continuous test has ``cuts`` (``cat_branch`` None), a categorical one ``cat_branch``
    (``cuts`` None); ``missing_branch`` is the branch of missing values or :data:`DISTRIBUTE`.

    ``below``/``above`` (the node's training values next to each cut, None where there is none)
    and ``midpoint`` (C4.5: the midpoint cut when the stored threshold is not it) are what the
    split explorer adds so that a threshold prints unambiguously; they do not change the routing.
    Sequences are kept as tuples (the record is hashable and cannot change under a caller).
    """

    feature: int
    cuts: tuple[float, ...] | None = None
    cat_branch: tuple[int, ...] | None = None
    missing_branch: int = DISTRIBUTE
    below: tuple[float | None, ...] | None = None
    above: tuple[float | None, ...] | None = None
    midpoint: float | None = None

    def __post_init__(self) -> None:
        # normalise what builders hand over (lists, numpy arrays and scalars) to plain values
        put = object.__setattr__
        put(self, "feature", int(self.feature))
        put(self, "missing_branch", int(self.missing_branch))
        if self.cuts is not None:
            put(self, "cuts", tuple(float(c) for c in np.atleast_1d(np.asarray(self.cuts, dtype=np.float64))))
        if self.cat_branch is not None:
            put(self, "cat_branch", tuple(int(b) for b in self.cat_branch))
        for side in ("below", "above"):
            values = getattr(self, side)
            if values is not None:
                put(self, side, tuple(None if v is None else float(v) for v in values))
        if self.midpoint is not None:
            put(self, "midpoint", float(self.midpoint))

    @property
    def is_categorical(self) -> bool:
        return self.cat_branch is not None

    def to_dict(self) -> dict[str, Any]:
        """The plain dict the app's URL and the JSON reports hold: ``feature``, ``cuts``,
        ``cat_branch``, ``missing_branch`` always (lists or None), then ``below``, ``above`` and
        ``midpoint`` when known."""
        out: dict[str, Any] = {
            "feature": self.feature,
            "cuts": None if self.cuts is None else list(self.cuts),
            "cat_branch": None if self.cat_branch is None else list(self.cat_branch),
            "missing_branch": self.missing_branch,
        }
        if self.below is not None:
            out["below"] = list(self.below)
        if self.above is not None:
            out["above"] = list(self.above)
        if self.midpoint is not None:
            out["midpoint"] = self.midpoint
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SplitTest:
        """The test of ``to_dict`` output (a forced split read back from the app's URL)."""
        return cls(
            feature=d["feature"],
            cuts=d.get("cuts"),
            cat_branch=d.get("cat_branch"),
            missing_branch=d.get("missing_branch", DISTRIBUTE),
            below=d.get("below"),
            above=d.get("above"),
            midpoint=d.get("midpoint"),
        )


def distribute(
    branch: ArrayLike, w: ArrayLike, branch_weights: ArrayLike
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Rows and weights of each child: known rows go to their branch, unknown rows to every
    branch with weight ``w · K_v / K`` (uniform shares when no value is known, as J48).

    ``branch``: int array, -1 = unknown.  Returns a list of (row positions, weights) per branch;
    a branch with no weight gets empty arrays.
    """
    branch = np.asarray(branch, dtype=np.int64)
    w = np.asarray(w, dtype=np.float64)
    bw = np.asarray(branch_weights, dtype=np.float64)
    V = bw.size
    K = bw.sum()
    share = bw / K if K > SMALL else np.full(V, 1.0 / max(V, 1))
    # rows grouped by branch once (a stable sort keeps each branch's rows in row order), so a
    # node with many branches costs O(n log n + V · unknown), not O(V · n)
    order = np.argsort(branch, kind="stable")
    bounds = np.searchsorted(branch[order], np.arange(V + 1), side="left")
    unknown = np.flatnonzero(branch < 0)
    wu = w[unknown]
    out = []
    for v in range(V):
        known = order[bounds[v] : bounds[v + 1]]
        if not unknown.size:
            out.append((known, w[known]))
            continue
        cu = wu * share[v]
        has = cu > 0
        pos = np.concatenate([known, unknown[has]])
        cw = np.concatenate([w[known], cu[has]])
        rank = np.argsort(pos, kind="stable")
        out.append((pos[rank], cw[rank]))
    return out


def distribute_rows(
    branch: ArrayLike, w: ArrayLike, n_branches: int
) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Per branch (row positions, weights) and the branch weights K_v: rows with a branch
    (``routing.branch_index``) go to it, rows with -1 to every branch as in :func:`distribute`.
    With ``routing.branch_index`` this is the one implementation of routing a node's rows."""
    branch = np.asarray(branch, dtype=np.int64)
    w = np.asarray(w, dtype=np.float64)
    known = branch >= 0
    bw = np.bincount(branch[known], weights=w[known], minlength=n_branches)
    return distribute(branch, w, bw), bw


class FlatTree(Protocol):
    """The flat arrays :func:`descend_binary` reads (``dtcore.tree.Tree`` has them)."""

    feature: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    cuts: np.ndarray
    cut_ptr: np.ndarray
    children: np.ndarray
    child_ptr: np.ndarray

    @property
    def node_count(self) -> int: ...


#: rows descended together by ``descend_binary``: their working arrays stay in the CPU's cache
DESCENT_BLOCK = 1 << 14


def descend_binary(tree: FlatTree, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(leaf, missing) of each row of a C-contiguous X through a tree whose tests are all binary
    continuous (one cut, two children): ``missing`` marks rows that met a NaN at a test on their
    path, whose ``leaf`` is meaningless.

    Every node gets two slots (2i: "x ≤ t", 2i+1: "x > t") holding the slot of the child
    each branch reaches, and a leaf's slots point at the leaf itself (reading its parent's
    feature again), so a step is ``slot = child_slot[slot + (x > t)]`` for every row of a
    block, ``depth`` steps. The values read are summed per row: NaN survives a sum, so a NaN sum
    is a row that met one (one addition per step instead of a scan of every column). Blocks of
    :data:`DESCENT_BLOCK` rows keep the working arrays in cache; preallocated buffers and
    ``take(mode="clip")`` (indices are in range by construction) avoid allocations and checks."""
    n, p = X.shape
    nodes = tree.node_count
    leaf = np.zeros(n, dtype=np.intp)
    missing = np.zeros(n, dtype=bool)
    steps = int(tree.depth.max()) if nodes else 0
    if steps == 0 or n == 0:
        return leaf, missing
    internal = np.flatnonzero(tree.feature >= 0)
    feat = np.repeat(np.maximum(tree.feature[tree.parent], 0).astype(np.intp), 2)  # leaves: parent's
    feat[2 * internal] = tree.feature[internal]
    thr = np.zeros(2 * nodes)
    thr[2 * internal] = tree.cuts[tree.cut_ptr[internal]]
    kid = np.repeat(2 * np.arange(nodes, dtype=np.intp), 2)  # leaves: both slots to themselves
    first = tree.child_ptr[internal]
    kid[2 * internal] = 2 * tree.children[first]
    kid[2 * internal + 1] = 2 * tree.children[first + 1]
    root_feature, root_cut = int(feat[0]), float(thr[0])
    flat = X.reshape(-1)
    m = min(DESCENT_BLOCK, n)
    offsets = np.arange(m, dtype=np.intp) * p
    slot, pos, x, t, seen = (
        np.empty(m, np.intp),
        np.empty(m, np.intp),
        np.empty(m),
        np.empty(m),
        np.empty(m),
    )
    right = np.empty(m, dtype=bool)
    for start in range(0, n, DESCENT_BLOCK):
        checkpoint()
        k = min(DESCENT_BLOCK, n - start)
        if k < m:
            slot, pos, x, t, seen, right = slot[:k], pos[:k], x[:k], t[:k], seen[:k], right[:k]
            offsets = offsets[:k]
        base = offsets + start * p
        # the root: one feature and one cut for every row
        np.add(base, root_feature, out=pos)
        flat.take(pos, out=seen, mode="clip")
        np.greater(seen, root_cut, out=right)
        np.copyto(pos, right)
        kid.take(pos, out=slot, mode="clip")
        for _ in range(steps - 1):
            feat.take(slot, out=pos, mode="clip")
            pos += base
            flat.take(pos, out=x, mode="clip")
            seen += x
            thr.take(slot, out=t, mode="clip")
            np.greater(x, t, out=right)
            np.add(slot, right, out=pos)
            kid.take(pos, out=slot, mode="clip")
        np.right_shift(slot, 1, out=leaf[start : start + k])
        np.isnan(seen, out=missing[start : start + k])
    return leaf, missing


class RoutedTree(FlatTree, Protocol):
    """What :func:`route_rows` reads beyond :class:`FlatTree` (``dtcore.tree.Tree`` has it)."""

    cat_size: np.ndarray
    missing_branch: np.ndarray
    weighted_n: np.ndarray

    def cat_lookup(self) -> Callable[[np.ndarray, np.ndarray], np.ndarray]: ...


def route_rows(
    tree: RoutedTree,
    X: ArrayLike,
    on_continuous: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], object] | None = None,
    on_lost: Callable[[np.ndarray], object] | None = None,
    on_level: Callable[[np.ndarray, np.ndarray, np.ndarray], object] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``Tree.route``: (row, leaf, weight) of every row through every test at once, one level
    per step (the branch rule of :func:`branch_index`, the shares of :func:`distribute`).
    ``on_lost(nodes)`` is called at every step with the tests that rows met with no branch for
    their value (one entry per such row), before the missing-value rule sends them on.
    ``on_level(rows, nodes, weights)`` is called at every step with every (row, node, weight)
    standing at that depth, in the order the leaves among them are emitted
    (``pruning.path_losses`` replays a pruned tree's sums from it)."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    rows = np.arange(n)
    nodes = np.zeros(n, dtype=np.int64)
    weights = np.ones(n)
    out_r, out_n, out_w = [], [], []
    max_cuts = int(np.diff(tree.cut_ptr).max()) if tree.node_count else 0
    cat_branch_at = tree.cat_lookup()
    while rows.size:
        checkpoint()  # one step down for every row: where long work can be stopped
        if on_level is not None:
            on_level(rows, nodes, weights)
        feat = tree.feature[nodes]
        leaf = feat < 0
        if leaf.any():
            out_r.append(rows[leaf])
            out_n.append(nodes[leaf])
            out_w.append(weights[leaf])
            keep = ~leaf
            rows, nodes, weights, feat = rows[keep], nodes[keep], weights[keep], feat[keep]
            if not rows.size:
                break
        x = X[rows, feat]
        branch = np.full(rows.shape, -1, dtype=np.int64)
        known = ~np.isnan(x)
        # categorical tests
        is_cat = tree.cat_size[nodes] > 0
        sel = is_cat & known
        if sel.any():
            branch[sel] = cat_branch_at(nodes[sel], x[sel].astype(np.int64))
        # continuous tests: branch = number of cuts strictly below x
        sel = ~is_cat & known
        if sel.any():
            start = tree.cut_ptr[nodes[sel]]
            count = tree.cut_ptr[nodes[sel] + 1] - start
            xs = x[sel]
            b = np.zeros(xs.shape, dtype=np.int64)
            for k in range(max_cuts):  # loop over cut index (a handful), not over rows
                has = count > k
                b[has] += xs[has] > tree.cuts[start[has] + k]
            branch[sel] = b
            if on_continuous is not None:
                on_continuous(nodes[sel], xs, b, weights[sel])
        # missing or unroutable: the learned branch, else every branch
        lost = branch < 0
        if lost.any():
            if on_lost is not None:
                on_lost(nodes[lost])
            mb = tree.missing_branch[nodes[lost]]
            branch[lost] = mb
        spread = branch < 0
        step = ~spread
        new_r = [rows[step]]
        new_n = [tree.children[tree.child_ptr[nodes[step]] + branch[step]]]
        new_w = [weights[step]]
        if spread.any():
            r, nd, w = rows[spread], nodes[spread], weights[spread]
            nb = tree.child_ptr[nd + 1] - tree.child_ptr[nd]
            rep = np.repeat(np.arange(r.size), nb)
            offs = np.arange(rep.size) - np.repeat(np.cumsum(nb) - nb, nb)
            kids = tree.children[tree.child_ptr[nd][rep] + offs]
            kid_w = tree.weighted_n[kids]
            tot = np.bincount(rep, weights=kid_w, minlength=r.size)
            share = np.where(tot[rep] > 0, kid_w / np.where(tot[rep] > 0, tot[rep], 1), 1.0 / nb[rep])
            new_r.append(r[rep])
            new_n.append(kids)
            new_w.append(w[rep] * share)
        rows, nodes, weights = np.concatenate(new_r), np.concatenate(new_n), np.concatenate(new_w)
    if not out_r:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0)
    return np.concatenate(out_r), np.concatenate(out_n), np.concatenate(out_w)
