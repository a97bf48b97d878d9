"""C4.5 release 8's growth (Quinlan), as Weka's J48 does it, and the collapse that follows.

The decision rules (stop, selection, threshold) are ``dtcore.c45.rules``'; this module applies
them to every node.  Where J48 and release 8 differ we follow J48 (the package docstring lists
the deviations); here: collapse is applied top-down after growth (J48) rather than bottom-up
during growth (release 8); both compare the subtree's leaf errors with the node's errors −
``COLLAPSE_EPS``.

Speed: the rows are sorted once per continuous feature at the root; a node keeps its rows in
that order, children filter them (no re-sorting).  Growth is level by level: all nodes of a
depth are scored in one ``score_cuts_batch`` call (cumulative class counts over the
concatenated blocks, per-node maxima with ``reduceat``) and, with unit weights and no missing
values, their binary cuts are applied in one stable partition of the level's blocks
(``Grower._split_level``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from dtcore.c45.rules import (
    COLLAPSE_EPS,
    SnapValues,
    is_leaf,
    many_values,
    select_test,
    snap_threshold,
    snap_values,
)
from dtcore.criteria import entropy
from dtcore.entropy.cutpoints import BatchCutScores, score_cuts_batch, xlog2x_table
from dtcore.entropy.multiway import (
    branch_class_counts_many,
    reasonable_branches_many,
    score_multiway_many,
)
from dtcore.progress import checkpoint, report
from dtcore.routing import DISTRIBUTE, branch_index, distribute_rows
from dtcore.schema import Schema
from dtcore.tree import TreeAssembler


class GrowthSettings(Protocol):
    """What the grower reads of its estimator (``C45Classifier`` is one): its fitted schema and
    the growth settings. A Protocol, so this module needs no import of the estimator."""

    schema_: Schema
    min_cases: float
    threshold: str
    mdl_penalty: bool
    criterion: str


#: counts (nodes × features × branches × classes) made by one ``bincount`` when a level's
#: categorical tests are scored: a chunk of the level's nodes at a time
CHUNK_CELLS = 1 << 21

#: a scored test: (feature, "cont" or "cat", gain, gain ratio, {"midpoint", "lo", "hi"} or {})
_Candidate = tuple[int, str, float, float, dict[str, float]]
#: the test chosen at a node: (kind, feature, info)
_Chosen = tuple[str, int, dict[str, float]]


@dataclass
class _Task:
    node: int
    rows: np.ndarray  # global row indices
    w: np.ndarray  # their weights at this node (fractional for unknown values)
    order: np.ndarray | None  # (Fc, n) local positions sorted by each continuous feature
    used: frozenset[int]  # categorical features tested on the path
    unit: bool = False  # every weight is 1 (integer counts: the fast scoring path)
    R: np.ndarray | None = None  # (Fc, n) the same as global row ids: rows[order]

    # ``rows`` is ascending, so either of ``order`` and ``R`` gives the other: the fast split
    # path filters ``R`` only and the rare general path recovers ``order`` by a search
    def sorted_ids(self) -> np.ndarray:
        if self.R is None:
            self.R = self.rows[self.order]
        return self.R

    def local_order(self) -> np.ndarray:
        if self.order is None:
            assert self.R is not None  # a task holds order or R
            self.order = np.searchsorted(self.rows, self.R)
        return self.order


@dataclass
class GrowthStats:
    nodes: int = 0
    splits: dict[int, int] = field(default_factory=dict)


class Grower:
    """Level-wise growth over presorted index blocks (sorted once at the root, then filtered)."""

    def __init__(self, est: GrowthSettings, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
        self.est = est
        self.X = X
        self.y = np.asarray(y, dtype=np.int64)
        self.w = np.asarray(w, dtype=np.float64)
        schema = est.schema_
        assert schema.classes is not None  # C4.5 is a classifier: the schema has classes
        self.C = len(schema.classes)
        self.cat = [j for j, f in enumerate(schema.features) if f.is_categorical]
        self.n_cats = {j: len(schema.features[j].categories) for j in self.cat}
        # the categorical features by category count (their places in self.cat): a group's
        # tests are counted together by ``_score_categorical``
        self.cat_groups: dict[int, list[int]] = {}
        for i, j in enumerate(self.cat):
            self.cat_groups.setdefault(self.n_cats[j], []).append(i)
        self.cont = np.array(
            [j for j, f in enumerate(schema.features) if not f.is_categorical], dtype=np.int64
        )
        self.m = float(est.min_cases)
        n_all = X.shape[0]
        # attributes with many values (≥ 0.3 × rows) stay out of the average gain unless all are
        self.many_values = {j: many_values(self.n_cats[j], n_all) for j in self.cat}
        self.multi_val = len(self.cont) == 0 and all(self.many_values.values())
        self.stats = GrowthStats()
        # continuous columns stored feature-major: a node's sorted values are one gather
        self.Xt = np.ascontiguousarray(X[:, self.cont].T)
        self.table = xlog2x_table(n_all) if np.any(self.w == 1.0) else None
        self._sorted_all: dict[int, SnapValues] = {}
        self.y8 = self.y.astype(np.int8) if self.C < 127 else self.y
        self._side = np.zeros(n_all, dtype=bool)  # scratch: side of each row at a split
        # the last scored level's blocks: (R, starts, lengths, unit)
        self._level: tuple[np.ndarray, np.ndarray, np.ndarray, bool] | None = None

    # -- thresholds ------------------------------------------------------------------------
    def _snap(self, j: int, info: dict[str, float]) -> float:
        """The stored threshold of a cut of feature j between the node's values ``info["lo"]``
        and ``info["hi"]`` (``rules.snap_threshold``: release 8's needs the two values)."""
        if self.est.threshold == "midpoint":
            return info["midpoint"]
        if j not in self._sorted_all:
            self._sorted_all[j] = snap_values(self.X[:, j])
        return snap_threshold(self._sorted_all[j], info["lo"], info["hi"], self.est.threshold)

    # -- main loop -------------------------------------------------------------------------
    def grow(self) -> TreeAssembler:
        """Level by level: every node of a depth is scored in one batch (``score_cuts_batch``),
        then split one by one (the result does not depend on the order nodes are grown in)."""
        asm = TreeAssembler(self.C, self.C)
        keep = np.nonzero(self.w > 0)[0]
        rows = keep
        w = self.w[keep]
        if self.cont.size:
            # the order inside ties does not matter: counts are only read between distinct
            # values (so the faster unstable sort gives the same tree)
            order = np.argsort(self.Xt[:, rows], axis=1).astype(np.int64, copy=False)
        else:
            order = np.empty((0, rows.size), dtype=np.int64)
        counts = np.bincount(self.y[rows], weights=w, minlength=self.C)
        root = asm.add_node(-1, counts, counts.sum(), rows.size, float(entropy(counts)))
        level = [_Task(root, rows, w, order, frozenset(), bool((w == 1.0).all()))]
        depth = 0
        while level:
            # rows in this level's nodes have not reached a leaf yet (fractional rows count once)
            open_rows = sum(t.rows.size for t in level)
            report("grow", max(rows.size - open_rows, 0), rows.size, len(asm), depth)
            depth += 1
            todo = []
            for t in level:
                counts = asm.node(t.node)["value"]
                N = float(counts.sum())
                if is_leaf(N, counts, self.m):
                    continue  # too few cases, or one class: a leaf
                todo.append((t, N))
            if not todo:
                break
            batch = self._score_level(todo)
            scores: list[list[_Candidate]] | None = None
            if batch is not None:  # per node: Python lists of its valid features' numbers
                cont = self.cont.tolist()
                g, r, mid, lo, hi = (
                    a.T.tolist() for a in (batch.gain, batch.gain_ratio, batch.midpoint, batch.lo, batch.hi)
                )
                scores = [
                    [
                        (
                            cont[k],
                            "cont",
                            g[s][k],
                            r[s][k],
                            {"midpoint": mid[s][k], "lo": lo[s][k], "hi": hi[s][k]},
                        )
                        for k in np.flatnonzero(v).tolist()
                    ]
                    for s, v in enumerate(batch.valid.T)
                ]
            cat_scores = self._score_categorical(todo)
            chosen = [self._choose(N, scores, cat_scores, s) for s, (_t, N) in enumerate(todo)]
            kids: list[list[_Task] | None] = [None] * len(todo)
            if self._level is not None and self._level[3]:
                # unit weights and no missing value at this level: every continuous cut is
                # split in one vectorised pass
                fast = [s for s, b in enumerate(chosen) if b is not None and b[0] == "cont"]
                if fast:
                    for s, k in zip(fast, self._split_level(asm, todo, chosen, fast)):
                        kids[s] = k
            level = []
            for s, (t, _N) in enumerate(todo):
                node_kids = kids[s]
                best = chosen[s]
                if node_kids is None and best is not None:
                    node_kids = self._split(asm, t, best)
                if node_kids:
                    level.extend(node_kids)
        self.stats.nodes = len(asm)
        return asm

    def _split_level(
        self,
        asm: TreeAssembler,
        todo: Sequence[tuple[_Task, float]],
        chosen: Sequence[_Chosen | None],
        fast: list[int] | np.ndarray,
    ) -> list[list[_Task]]:
        """Binary cuts of the nodes ``fast`` (indices into ``todo``) in one pass: unit weights
        and no missing values, so every row goes to one side.  Each feature's sorted block of a
        node is partitioned stably (left rows first), so the children's blocks are contiguous
        column ranges, still sorted; the same tree as ``_split`` node by node."""
        assert self._level is not None  # set by _score_level for this level
        R, starts, lengths, _ = self._level
        fast = np.asarray(fast)
        thr = np.empty(fast.size)
        feat = np.empty(fast.size, dtype=np.int64)
        for i, s in enumerate(fast.tolist()):
            _, j, info = chosen[s]
            thr[i] = self._snap(j, info)
            feat[i] = j
            asm.set_split(todo[s][0].node, j, cuts=[thr[i]], missing_branch=DISTRIBUTE)
            self.stats.splits[j] = self.stats.splits.get(j, 0) + 1
        # the columns of the chosen nodes, as one (F, T) block with segments 0..S-1
        ln = lengths[fast]
        cols = np.concatenate([np.arange(starts[s], starts[s] + lengths[s]) for s in fast.tolist()])
        Rc = R[:, cols] if cols.size != R.shape[1] else R
        T = Rc.shape[1]
        seg = np.repeat(np.arange(fast.size), ln)
        st = np.concatenate(([0], np.cumsum(ln)[:-1]))
        rows0 = Rc[0]
        right_row = ~(self.X[rows0, feat[seg]] <= thr[seg])  # as _split: x ≤ t goes left
        self._side[rows0] = right_row
        nl = np.bincount(seg, weights=~right_row, minlength=fast.size).astype(np.int64)
        # I = lefts up to and including an entry (along its row); B = left rows of earlier
        # nodes.  A left entry goes to st + (I − 1 − B), a right one to st + nl + (its rights
        # before it in the node) = col + nl + B − I: both are I plus a per-column constant
        B = np.repeat(np.cumsum(nl) - nl, ln)
        P = np.repeat(st, ln) - B - 1
        Q = np.arange(T) + np.repeat(nl, ln) + B
        left = ~self._side[Rc]  # (F, T) side of each entry
        I = np.cumsum(left, axis=1, dtype=np.int64)
        newpos = np.where(left, I + P, Q - I)
        out = np.empty_like(Rc)
        np.put_along_axis(out, newpos, Rc, axis=1)
        # children's rows in ascending order and their class counts
        rows_asc = np.concatenate([todo[s][0].rows for s in fast.tolist()])
        r_right = self._side[rows_asc]
        key = 2 * seg + r_right
        order = np.argsort(key, kind="stable")
        rows_sorted = rows_asc[order]
        counts = np.bincount(key * self.C + self.y[rows_asc], minlength=2 * fast.size * self.C)
        counts = counts.reshape(2 * fast.size, self.C).astype(np.float64)
        result = []
        for i, s in enumerate(fast.tolist()):
            t = todo[s][0]
            a, m, b = int(st[i]), int(st[i] + nl[i]), int(st[i] + ln[i])
            kids = []
            for side, (lo, hi) in enumerate(((a, m), (m, b))):
                cnt = hi - lo
                child = asm.add_node(t.node, counts[2 * i + side], float(cnt), cnt, 0.0)
                kids.append(_Task(child, rows_sorted[lo:hi], np.ones(cnt), None, t.used, True, out[:, lo:hi]))
            result.append(kids)
        return result

    def _score_level(self, todo: Sequence[tuple[_Task, float]]) -> BatchCutScores | None:
        """Continuous cuts of every node in ``todo`` (one batch); None without such features."""
        self._level = None
        if not self.cont.size:
            return None
        R = np.concatenate([t.sorted_ids() for t, _ in todo], axis=1)
        lengths = np.array([t.rows.size for t, _ in todo])
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        V = self.Xt[np.arange(self.cont.size)[:, None], R]
        Y = self.y8.take(R)
        N = np.array([n for _, n in todo])
        unit = self.table is not None and all(t.unit for t, _ in todo) and not np.isnan(V).any()
        self._level = (R, starts, lengths, unit)
        W = (
            None
            if unit
            else np.concatenate(
                [np.ones(t.sorted_ids().shape) if t.unit else t.w[t.local_order()] for t, _ in todo],
                axis=1,
            )
        )
        return score_cuts_batch(
            V,
            Y,
            W,
            starts,
            N,
            self.C,
            min_cases=self.m,
            mdl=bool(self.est.mdl_penalty),
            unit_table=self.table if unit else None,
        )

    def _split(self, asm: TreeAssembler, t: _Task, best: _Chosen) -> list[_Task]:
        kind, j, info = best
        rec = asm.node(t.node)
        counts = rec["value"]
        y_loc = self.y[t.rows]
        x = self.X[t.rows, j]
        if kind == "cat":
            V = self.n_cats[j]
            branch = branch_index(x, cat_branch=np.arange(V))
            asm.set_split(t.node, j, cat_branch=np.arange(V), missing_branch=DISTRIBUTE)
            used = t.used | {j}
        else:
            thr = self._snap(j, info)
            branch = branch_index(x, cuts=[thr])
            V = 2
            asm.set_split(t.node, j, cuts=[thr], missing_branch=DISTRIBUTE)
            used = t.used
        kids = []
        n = t.rows.size
        if kind == "cont" and t.unit and not np.isnan(x).any():
            # fast path: a binary cut, unit weights, nothing missing; the children's sorted
            # blocks are the parent's filtered by side (a boolean mask keeps each row's order)
            right = branch.astype(bool)
            R = t.sorted_ids()
            self._side[t.rows] = right
            lab = self._side[R]  # (F, n) side of each entry
            nr = int(np.count_nonzero(right))
            for side, sel, cnt in ((0, ~right, n - nr), (1, right, nr)):
                pos = np.nonzero(sel)[0]
                ccounts: np.ndarray = np.bincount(y_loc[pos], minlength=self.C).astype(np.float64)
                child = asm.add_node(
                    t.node, ccounts, float(cnt), cnt, 0.0
                )  # see multiway.set_entropy_impurity
                cR = R[~lab if side == 0 else lab].reshape(R.shape[0], cnt)
                kids.append(_Task(child, t.rows[pos], t.w[pos], None, used, True, cR))
            self.stats.splits[j] = self.stats.splits.get(j, 0) + 1
            return kids
        o = t.local_order()
        parts, _ = distribute_rows(branch, t.w, V)
        child_orders = _child_orders(o, branch, parts) if o.shape[0] else None
        for v, (pos, cw) in enumerate(parts):
            if pos.size == 0:
                # empty branch: a leaf predicting the parent's class distribution (weight 0)
                asm.add_node(t.node, counts, 0.0, 0, 0.0)
                continue
            ccounts = np.bincount(y_loc[pos], weights=cw, minlength=self.C)
            child = asm.add_node(
                t.node, ccounts, ccounts.sum(), int(np.count_nonzero(cw > 0)), 0.0
            )  # see multiway.set_entropy_impurity
            if child_orders is not None:
                corder = child_orders[v]
            elif o.shape[0]:
                member = np.zeros(n, dtype=bool)
                member[pos] = True
                remap = np.full(n, -1, dtype=np.int64)
                remap[pos] = np.arange(pos.size)
                corder = remap[o[member[o]].reshape(o.shape[0], pos.size)]
            else:
                corder = np.empty((0, pos.size), dtype=np.int64)
            kids.append(_Task(child, t.rows[pos], cw, corder, used, bool((cw == 1.0).all())))
        self.stats.splits[j] = self.stats.splits.get(j, 0) + 1
        return kids

    def _score_categorical(self, todo: Sequence[tuple[_Task, float]]) -> list[list[_Candidate]]:
        """Every node's usable categorical tests (those with two branches of ``min_cases``
        weight), scored for the whole level at once: the features with the same category count
        are counted together (``branch_class_counts_many``, the same numbers as node by node)
        and scored by one ``score_multiway_many`` call, in chunks of :data:`CHUNK_CELLS`."""
        out: list[list[_Candidate]] = [[] for _ in todo]
        if not self.cat:
            return out
        rows = np.concatenate([t.rows for t, _ in todo])
        w = np.concatenate([t.w for t, _ in todo])
        sizes = np.array([t.rows.size for t, _ in todo])
        node = np.repeat(np.arange(len(todo)), sizes)
        bounds = np.r_[0, np.cumsum(sizes)]
        used = np.array([[j in t.used for j in self.cat] for t, _ in todo], dtype=bool).reshape(len(todo), -1)
        found: list[tuple[int, int, int, float, float]] = []  # (node, place in self.cat, j, gain, ratio)
        for V, places in self.cat_groups.items():
            feats = np.array([self.cat[i] for i in places])
            step = max(1, CHUNK_CELLS // max(1, feats.size * V * self.C))
            for a in range(0, len(todo), step):
                b = min(len(todo), a + step)
                lo, hi = bounds[a], bounds[b]
                x = self.X[rows[lo:hi, None], feats[None, :]]
                codes = np.where(np.isnan(x), -1, x).astype(np.int64)
                bc = branch_class_counts_many(
                    codes, self.y[rows[lo:hi]], w[lo:hi], node[lo:hi] - a, b - a, V, self.C
                )
                sc = score_multiway_many(bc.counts, bc.unknown)
                ok = reasonable_branches_many(bc.counts.sum(axis=2), self.m).reshape(b - a, feats.size)
                ok &= ~used[a:b][:, places]
                gain = sc.gain.reshape(b - a, feats.size).tolist()
                ratio = sc.gain_ratio.reshape(b - a, feats.size).tolist()
                for s, f in zip(*np.nonzero(ok)):
                    found.append((a + int(s), places[f], self.cat[places[f]], gain[s][f], ratio[s][f]))
                checkpoint()
        for s, _, j, g, r in sorted(found):  # per node, in column order
            out[s].append((j, "cat", g, r, {}))
        return out

    def _choose(
        self,
        N: float,
        scores: Sequence[Sequence[_Candidate]] | None,
        cat_scores: Sequence[Sequence[_Candidate]],
        s: int,
    ) -> _Chosen | None:
        """Release 8's selection rule over node s's scored features; None → leaf."""
        est = self.est
        # (feature, kind, gain, ratio, info); ``scores[s]``: the node's continuous candidates
        cands = list(scores[s]) if scores is not None else []
        cands.extend(cat_scores[s])
        if not cands:
            return None
        cands.sort(key=lambda c: c[0])  # column order decides ties
        pick = select_test(
            [c[2] for c in cands],
            [c[3] for c in cands],
            [c[1] == "cont" or self.multi_val or not self.many_values[c[0]] for c in cands],
            est.criterion,
        ).best
        if pick is None:
            return None
        best = cands[pick]
        return best[1], best[0], best[4]


def collapse_undone(asm: TreeAssembler) -> list[tuple[int, float, float]]:
    """Undo splits whose leaves make no fewer training errors than the node itself (−0.001);
    returns the undone nodes top-down: (assembler id, the subtree's leaf errors, the node's)."""

    def own_errors(i: int) -> float:
        rec = asm.node(i)
        return 0.0 if rec["weighted_n"] <= 0 else rec["weighted_n"] - float(rec["value"].max())

    leaf_err: dict[int, float] = {}
    order, stack = [], [0]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(asm.node(i)["children"])
    for i in reversed(order):
        kids = asm.node(i)["children"]
        leaf_err[i] = sum(leaf_err[k] for k in kids) if kids else own_errors(i)
    undone = []
    stack = [0]
    while stack:
        i = stack.pop()
        kids = asm.node(i)["children"]
        if not kids:
            continue
        if leaf_err[i] >= own_errors(i) - COLLAPSE_EPS:
            undone.append((i, leaf_err[i], own_errors(i)))
            asm.make_leaf(i)
        else:
            stack.extend(kids)
    return undone


def _child_orders(o: np.ndarray, branch: np.ndarray, parts: list) -> list[np.ndarray] | None:
    """Each child's sorted orders (``o`` filtered to the child's rows, renumbered), for all
    children at once when every row has a branch: a stable sort of the branch labels along each
    order groups the children, so a split into V branches costs O(F·n log n), not O(V·F·n).
    None when some row goes to several children (an unknown value): the caller's loop does it."""
    if (branch < 0).any():
        return None
    remap = np.empty(branch.size, dtype=np.int64)
    for pos, _ in parts:
        remap[pos] = np.arange(pos.size)
    grouped = np.take_along_axis(o, np.argsort(branch[o], axis=1, kind="stable"), axis=1)
    bounds = np.concatenate([[0], np.cumsum([pos.size for pos, _ in parts])])
    return [remap[grouped[:, bounds[v] : bounds[v + 1]]] for v in range(len(parts))]
