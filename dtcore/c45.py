"""C4.5 release 8 (Quinlan), which Weka's J48 reimplements: growth, collapse, error-based pruning.

Defaults reproduce release 8 (SPEC §9): gain ratio with the average-gain rule, MINOBJS = 2, at
least two branches with MINOBJS weight, MinSplit and the MDL penalty for continuous cuts,
thresholds snapped to the largest training value ≤ the midpoint, unknown values as an extra
branch of the split information, fractional weights for missing values, collapse, and
error-based pruning (CF = 0.25) with subtree raising.

Where release 8 and J48 differ in a way that can change a tree, we follow J48 (the oracle our
tests run) and say so:

* comparisons use Weka's tolerance 1e-6 (``Utils.gr``/``smOrEq``) for gains, ratios, weights
  and error estimates; among continuous cuts J48 keeps an earlier cut unless a later one is
  better by more than 1e-6 (``cutpoints.pick_j48``); release 8 compares single-precision
  floats exactly;
* collapse is applied top-down after growth (J48) rather than bottom-up during growth (release
  8); both compare the subtree's leaf errors with the node's errors − 0.001;
* the stored threshold is the largest training value ≤ midpoint + 1e-6 (J48's setSplitPoint),
  not strictly ≤ the float64 midpoint (SPEC §9): (14.95 + 14.99)/2 = 14.969999999999999 must
  snap to the value 14.97 (breast_cancer);
* ``z="normal"`` is Weka's ``Stats.addErrs`` as a whole: the exact normal quantile
  (0.6745 at CF 0.25) and ``N − e`` (not release 8's ``0.67·(N − e)``) when ``e + 0.5 ≥ N``.
  ``z="c45"`` (default) is release 8's AddErrs with its table-interpolated 0.6925.

Release 8 computes in single precision; we use float64 throughout.

Speed: the rows are sorted once per continuous feature at the root; a node keeps its rows in
that order, children filter them (no re-sorting).  Growth is level by level: all nodes of a
depth are scored in one ``score_cuts_batch`` call (cumulative class counts over the
concatenated blocks, per-node maxima with ``reduceat``) and, with unit weights and no missing
values, their binary cuts are applied in one stable partition of the level's blocks
(``_Grower._split_level``).  Pruning without missing values adds the other branches' rows to
the largest branch's leaf counts instead of re-routing all rows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from .base import BaseTreeEstimator
from .criteria import entropy
from .cutpoints import score_cuts_batch, xlog2x_table
from .multiway import SMALL, branch_class_counts, distribute, reasonable_branches, score_multiway
from .tree import DISTRIBUTE, Tree, TreeAssembler

#: release 8's confidence table (prune.c): CF values and the normal deviates it interpolates
_R8_VAL = (0.0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00)
_R8_DEV = (100.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00)

COLLAPSE_EPS = 1e-3   # release 8's Epsilon in FormTree's collapse test (J48 uses the same)
AVERAGE_EPS = 1e-3    # gain ≥ average − ε
SNAP_TOL = 1e-6       # J48's tolerance when snapping a threshold to a training value


# =============================================================================================
# error estimates

def z_value(cf: float = 0.25, z="c45") -> float:
    """The normal deviate for confidence factor ``cf``: release 8's table interpolation
    (``"c45"``), the exact quantile (``"normal"``, Weka), or a number given directly."""
    if not isinstance(z, str):
        return float(z)
    if not 0 < cf < 1:
        raise ValueError(f"confidence_factor must be in (0, 1), not {cf!r}")
    if z == "normal":
        return NormalDist().inv_cdf(1.0 - cf)
    if z == "c45":
        i = 0
        while cf > _R8_VAL[i]:
            i += 1
        return _R8_DEV[i - 1] + (_R8_DEV[i] - _R8_DEV[i - 1]) * (cf - _R8_VAL[i - 1]) / (
            _R8_VAL[i] - _R8_VAL[i - 1])
    raise ValueError(f"z must be 'c45', 'normal' or a number, not {z!r}")


def add_errs(N: float, e: float, cf: float = 0.25, z="c45") -> float:
    """Extra errors so that ``e + add_errs`` is the upper confidence limit of the error count.

    Release 8's AddErrs (``z="c45"``) or Weka's Stats.addErrs (``z="normal"``)."""
    if z == "normal":  # Weka's Stats.addErrs
        if e < 1:
            base = N * (1.0 - cf ** (1.0 / N))
            return base if e == 0 else base + e * (add_errs(N, 1.0, cf, z) - base)
        if e + 0.5 >= N:
            return max(N - e, 0.0)
    else:  # release 8's AddErrs
        if e < 1e-6:
            return N * (1.0 - math.exp(math.log(cf) / N))
        if e < 0.9999:
            base = N * (1.0 - math.exp(math.log(cf) / N))
            return base + e * (add_errs(N, 1.0, cf, z) - base)
        if e + 0.5 >= N:
            return 0.67 * (N - e)
    coeff = _z2(cf, z)
    pr = (e + 0.5 + coeff / 2 + math.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / N) + coeff / 4))
          ) / (N + coeff)
    return N * pr - e


@lru_cache(maxsize=64)
def _z2(cf, z) -> float:
    return z_value(cf, z) ** 2


def estimated_errors(counts, cf: float = 0.25, z="c45") -> float:
    """Errors of a leaf holding ``counts`` plus AddErrs (0 for an empty leaf)."""
    c = counts.tolist() if isinstance(counts, np.ndarray) else list(counts)
    N = math.fsum(c)
    if abs(N) < SMALL:
        return 0.0
    e = N - max(c)
    return e + add_errs(N, e, cf, z)


# =============================================================================================
# the estimator

class C45Classifier(BaseTreeEstimator):
    """Quinlan's C4.5 release 8 (and Weka's J48), with named textbook variants.

    criterion: "gain_ratio" (release 8: best ratio among tests with at least average gain) or
        "gain" (largest gain, no average rule).
    threshold: "c45" (largest training value ≤ the midpoint, release 8) or "midpoint".
    mdl_penalty: subtract log2(#candidate cuts)/N from a continuous feature's gain (release 8).
    min_cases: MINOBJS (-m in release 8, -M in J48).
    confidence_factor, z: error-based pruning's CF and deviate ("c45" table, "normal" = J48).
    subtree_raising, prune, collapse: the post-growth steps (all on by default).
    """

    _task = "classification"
    algorithm = "c45"

    def __init__(self, criterion="gain_ratio", threshold="c45", mdl_penalty=True, min_cases=2,
                 confidence_factor=0.25, z="c45", subtree_raising=True, prune=True, collapse=True):
        self.criterion = criterion
        self.threshold = threshold
        self.mdl_penalty = mdl_penalty
        self.min_cases = min_cases
        self.confidence_factor = confidence_factor
        self.z = z
        self.subtree_raising = subtree_raising
        self.prune = prune
        self.collapse = collapse

    def _validate_params(self):
        if self.criterion not in ("gain_ratio", "gain"):
            raise ValueError(f"criterion must be 'gain_ratio' or 'gain', not {self.criterion!r}")
        if self.threshold not in ("c45", "midpoint"):
            raise ValueError(f"threshold must be 'c45' or 'midpoint', not {self.threshold!r}")
        if not (isinstance(self.min_cases, (int, float)) and self.min_cases >= 1):
            raise ValueError(f"min_cases must be a number ≥ 1, not {self.min_cases!r}")
        if not 0 < float(self.confidence_factor) < 1:
            raise ValueError("confidence_factor must be between 0 and 1 (C4.5's default is 0.25)")
        z_value(float(self.confidence_factor), self.z)

    def _grow(self, X, y, sample_weight) -> Tree:
        grower = _Grower(self, X, y, sample_weight)
        asm = grower.grow()
        self.growth_stats_ = grower.stats
        if self.collapse:
            _collapse(asm)
        tree = _set_impurity(asm.build())
        self.unpruned_tree_ = tree
        self.pruning_report_ = None
        if self.prune:
            tree, self.pruning_report_ = ebp_prune(
                tree, X, y, sample_weight, cf=float(self.confidence_factor), z=self.z,
                subtree_raising=bool(self.subtree_raising))
        return tree


# =============================================================================================
# growth

@dataclass
class _Task:
    node: int
    rows: np.ndarray        # global row indices
    w: np.ndarray           # their weights at this node (fractional for unknown values)
    order: np.ndarray | None  # (Fc, n) local positions sorted by each continuous feature
    used: frozenset         # categorical features tested on the path
    unit: bool = False      # every weight is 1 (integer counts: the fast scoring path)
    R: np.ndarray | None = None  # (Fc, n) the same as global row ids: rows[order]

    # ``rows`` is ascending, so either of ``order`` and ``R`` gives the other: the fast split
    # path filters ``R`` only and the rare general path recovers ``order`` by a search
    def sorted_ids(self) -> np.ndarray:
        if self.R is None:
            self.R = self.rows[self.order]
        return self.R

    def local_order(self) -> np.ndarray:
        if self.order is None:
            self.order = np.searchsorted(self.rows, self.R)
        return self.order


@dataclass
class GrowthStats:
    nodes: int = 0
    splits: dict = field(default_factory=dict)


class _Grower:
    """Level-wise growth over presorted index blocks (sorted once at the root, then filtered)."""

    def __init__(self, est: C45Classifier, X, y, w):
        self.est = est
        self.X = X
        self.y = np.asarray(y, dtype=np.int64)
        self.w = np.asarray(w, dtype=np.float64)
        schema = est.schema_
        self.C = len(schema.classes)
        self.cat = [j for j, f in enumerate(schema.features) if f.is_categorical]
        self.n_cats = {j: len(schema.features[j].categories) for j in self.cat}
        self.cont = np.array([j for j, f in enumerate(schema.features) if not f.is_categorical],
                             dtype=np.int64)
        self.m = float(est.min_cases)
        n_all = X.shape[0]
        # attributes with many values (≥ 0.3 × rows) stay out of the average gain unless all are
        self.many_values = {j: self.n_cats[j] >= 0.3 * n_all for j in self.cat}
        self.multi_val = len(self.cont) == 0 and all(self.many_values.values())
        self.stats = GrowthStats()
        # continuous columns stored feature-major: a node's sorted values are one gather
        self.Xt = np.ascontiguousarray(X[:, self.cont].T)
        self.table = xlog2x_table(n_all) if np.any(self.w == 1.0) else None
        self._sorted_all = {}
        self.y8 = self.y.astype(np.int8) if self.C < 127 else self.y
        self._side = np.zeros(n_all, dtype=bool)   # scratch: side of each row at a split
        self._level = None                           # the last scored level's blocks

    # -- thresholds ------------------------------------------------------------------------
    def _snap(self, j: int, mid: float) -> float:
        """Largest training value of feature j that is ≤ the midpoint (release 8's threshold)."""
        if self.est.threshold == "midpoint":
            return mid
        if j not in self._sorted_all:
            col = self.X[:, j]
            self._sorted_all[j] = np.sort(col[~np.isnan(col)])
        s = self._sorted_all[j]
        # Deviation from "compare strictly" (SPEC §9), as J48's setSplitPoint: values up to 1e-6
        # above the float64 midpoint count, because the midpoint of two decimals can land just
        # below a training value equal to the exact midpoint ((14.95 + 14.99) / 2 =
        # 14.969999999999999 while 14.97 is a value: breast_cancer).  The node's own partition
        # cannot change: its values next to the cut are more than 1e-5 apart.
        k = np.searchsorted(s, mid + SNAP_TOL, side="right")
        return float(s[k - 1]) if k > 0 else mid

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
        while level:
            todo = []
            for t in level:
                counts = asm.node(t.node)["value"]
                N = float(counts.sum())
                if N < 2 * self.m - SMALL or abs(N - counts.max()) < SMALL:
                    continue  # too few cases, or one class: a leaf
                todo.append((t, N))
            if not todo:
                break
            scores = self._score_level(todo)
            if scores is not None:  # per node: Python lists of its valid features' numbers
                cont = self.cont.tolist()
                g, r, mid = (a.T.tolist() for a in (scores.gain, scores.gain_ratio,
                                                     scores.midpoint))
                scores = [[(cont[k], "cont", g[s][k], r[s][k], {"midpoint": mid[s][k]})
                           for k in np.flatnonzero(v).tolist()]
                          for s, v in enumerate(scores.valid.T)]
            chosen = [self._choose(t, N, scores, s) for s, (t, N) in enumerate(todo)]
            kids = [None] * len(todo)
            if self._level is not None and self._level[3]:
                # unit weights and no missing value at this level: every continuous cut is
                # split in one vectorised pass
                fast = [s for s, b in enumerate(chosen) if b is not None and b[0] == "cont"]
                if fast:
                    for s, k in zip(fast, self._split_level(asm, todo, chosen, fast)):
                        kids[s] = k
            level = []
            for s, (t, N) in enumerate(todo):
                if kids[s] is None and chosen[s] is not None:
                    kids[s] = self._split(asm, t, chosen[s])
                if kids[s]:
                    level.extend(kids[s])
        self.stats.nodes = len(asm)
        return asm

    def _split_level(self, asm: TreeAssembler, todo, chosen, fast) -> list[list[_Task]]:
        """Binary cuts of the nodes ``fast`` (indices into ``todo``) in one pass: unit weights
        and no missing values, so every row goes to one side.  Each feature's sorted block of a
        node is partitioned stably (left rows first), so the children's blocks are contiguous
        column ranges, still sorted; the same tree as ``_split`` node by node."""
        R, starts, lengths, _ = self._level
        fast = np.asarray(fast)
        thr = np.empty(fast.size)
        feat = np.empty(fast.size, dtype=np.int64)
        for i, s in enumerate(fast.tolist()):
            _, j, info = chosen[s]
            thr[i] = self._snap(j, info["midpoint"])
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
        right_row = ~(self.X[rows0, feat[seg]] <= thr[seg])   # as _split: x ≤ t goes left
        self._side[rows0] = right_row
        nl = np.bincount(seg, weights=~right_row, minlength=fast.size).astype(np.int64)
        # I = lefts up to and including an entry (along its row); B = left rows of earlier
        # nodes.  A left entry goes to st + (I − 1 − B), a right one to st + nl + (its rights
        # before it in the node) = col + nl + B − I: both are I plus a per-column constant
        B = np.repeat(np.cumsum(nl) - nl, ln)
        P = np.repeat(st, ln) - B - 1
        Q = np.arange(T) + np.repeat(nl, ln) + B
        left = ~self._side[Rc]                                  # (F, T) side of each entry
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
                kids.append(_Task(child, rows_sorted[lo:hi], np.ones(cnt), None, t.used, True,
                                  out[:, lo:hi]))
            result.append(kids)
        return result

    def _score_level(self, todo):
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
        unit = (self.table is not None and all(t.unit for t, _ in todo)
                and not np.isnan(V).any())
        self._level = (R, starts, lengths, unit)
        W = None if unit else np.concatenate(
            [np.ones(t.R.shape) if t.unit else t.w[t.local_order()] for t, _ in todo], axis=1)
        return score_cuts_batch(V, Y, W, starts, N, self.C, min_cases=self.m,
                                mdl=bool(self.est.mdl_penalty),
                                unit_table=self.table if unit else None)

    def _split(self, asm: TreeAssembler, t: _Task, best) -> list[_Task]:
        kind, j, info = best
        rec = asm.node(t.node)
        counts = rec["value"]
        y_loc = self.y[t.rows]
        x = self.X[t.rows, j]
        if kind == "cat":
            branch = np.where(np.isnan(x), -1, x).astype(np.int64)
            V = self.n_cats[j]
            asm.set_split(t.node, j, cat_branch=np.arange(V), missing_branch=DISTRIBUTE)
            used = t.used | {j}
        else:
            thr = self._snap(j, info["midpoint"])
            branch = np.where(np.isnan(x), -1, np.where(x <= thr, 0, 1)).astype(np.int64)
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
            lab = self._side[R]                                  # (F, n) side of each entry
            nr = int(np.count_nonzero(right))
            for side, sel, cnt in ((0, ~right, n - nr), (1, right, nr)):
                pos = np.nonzero(sel)[0]
                ccounts = np.bincount(y_loc[pos], minlength=self.C).astype(np.float64)
                child = asm.add_node(t.node, ccounts, float(cnt), cnt, 0.0)  # see _set_impurity
                cR = R[~lab if side == 0 else lab].reshape(R.shape[0], cnt)
                kids.append(_Task(child, t.rows[pos], t.w[pos], None, used, True, cR))
            self.stats.splits[j] = self.stats.splits.get(j, 0) + 1
            return kids
        o = t.local_order()
        known = branch >= 0
        bw = np.bincount(branch[known], weights=t.w[known], minlength=V)
        parts = distribute(branch, t.w, bw)
        for v, (pos, cw) in enumerate(parts):
            if pos.size == 0:
                # empty branch: a leaf predicting the parent's class distribution (weight 0)
                asm.add_node(t.node, counts, 0.0, 0, 0.0)
                continue
            ccounts = np.bincount(y_loc[pos], weights=cw, minlength=self.C)
            child = asm.add_node(t.node, ccounts, ccounts.sum(), int(np.count_nonzero(cw > 0)),
                                 0.0)  # see _set_impurity
            if o.shape[0]:
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

    def _choose(self, t: _Task, N, scores, s):
        """Release 8's selection rule over the node's scored features; None → leaf."""
        est = self.est
        # (feature, kind, gain, ratio, info); ``scores[s]``: the node's continuous candidates
        cands = list(scores[s]) if scores is not None else []
        if self.cat:
            y_loc = self.y[t.rows]
            for j in self.cat:
                if j in t.used:
                    continue
                x = self.X[t.rows, j]
                counts, unknown = branch_class_counts(x, y_loc, t.w, self.n_cats[j], self.C)
                if reasonable_branches(counts.sum(axis=1), self.m) < 2:
                    continue
                sc = score_multiway(counts, unknown)
                cands.append((j, "cat", sc.gain, sc.gain_ratio, {}))
        if not cands:
            return None
        cands.sort(key=lambda c: c[0])  # column order decides ties
        if est.criterion == "gain":
            best, best_val = None, 0.0
            for c in cands:
                if c[2] - best_val > SMALL:
                    best, best_val = c, c[2]
        else:
            pool = [c for c in cands if c[1] == "cont" or self.multi_val
                    or not self.many_values[c[0]]]
            avg = sum(c[2] for c in pool) / len(pool) if pool else 1e6
            best, best_val = None, 0.0
            for c in cands:
                if c[2] >= avg - AVERAGE_EPS and c[3] - best_val > SMALL:
                    best, best_val = c, c[3]
        if best is None:
            return None
        return best[1], best[0], best[4]


def _set_impurity(tree: Tree) -> Tree:
    """Node impurity = entropy of the class counts, for all nodes in one vectorised call
    (0 for empty leaves, whose counts are the parent's)."""
    tree.impurity = np.where(tree.weighted_n > 0, entropy(tree.value), 0.0)
    return tree


def _collapse(asm: TreeAssembler):
    """Undo splits whose leaves make no fewer training errors than the node itself (−0.001)."""
    def own_errors(i):
        rec = asm.node(i)
        return 0.0 if rec["weighted_n"] <= 0 else rec["weighted_n"] - float(rec["value"].max())

    leaf_err = {}
    order, stack = [], [0]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(asm.node(i)["children"])
    for i in reversed(order):
        kids = asm.node(i)["children"]
        leaf_err[i] = sum(leaf_err[k] for k in kids) if kids else own_errors(i)
    stack = [0]
    while stack:
        i = stack.pop()
        kids = asm.node(i)["children"]
        if not kids:
            continue
        if leaf_err[i] >= own_errors(i) - COLLAPSE_EPS:
            asm.make_leaf(i)
        else:
            stack.extend(kids)


# =============================================================================================
# error-based pruning on any Tree

class _PNode:
    __slots__ = ("orig", "feature", "cuts", "cat_branch", "missing_branch", "children",
                 "counts", "err", "nrows")

    def __init__(self, orig, feature, cuts, cat_branch, missing_branch, children):
        self.orig, self.feature, self.cuts = orig, feature, cuts
        self.cat_branch, self.missing_branch, self.children = cat_branch, missing_branch, children
        self.counts = None   # class counts at a leaf after pruning it
        self.err = 0.0       # estimated errors of the pruned subtree
        self.nrows = 0       # rows (positive weight) at a leaf after pruning it

    @property
    def is_leaf(self):
        return self.feature < 0 or not self.children

    def size(self):
        return 1 + sum(c.size() for c in self.children)


def _to_pnodes(tree: Tree, i: int = 0) -> _PNode:
    kids = [_to_pnodes(tree, int(c)) for c in tree.children_of(i)]
    return _PNode(i, int(tree.feature[i]), tree.cuts_of(i).copy(), tree.cat_branch_of(i).copy(),
                  int(tree.missing_branch[i]), kids)


def _split_rows(node: _PNode, X, idx, w):
    """Rows (and weights) of each branch of ``node``, unknown values shared as in training."""
    x = X[idx, node.feature]
    V = len(node.children)
    known = ~np.isnan(x)
    if node.cuts.size == 1 and known.all():  # fast path: binary cut, nothing missing
        left = x <= node.cuts[0]
        right = ~left
        parts = [(idx[left], w[left]), (idx[right], w[right])]
        return parts, np.array([parts[0][1].sum(), parts[1][1].sum()])
    branch = np.full(idx.size, -1, dtype=np.int64)
    if node.cat_branch.size:
        code = np.where(known, x, -1).astype(np.int64)
        ok = known & (code >= 0) & (code < node.cat_branch.size)
        branch[ok] = node.cat_branch[code[ok]]
    else:
        branch[known] = np.searchsorted(node.cuts, x[known], side="left")
    if node.missing_branch >= 0:
        branch[branch < 0] = node.missing_branch
    ok = branch >= 0
    bw = np.bincount(branch[ok], weights=w[ok], minlength=V)
    return [(idx[p], cw) for p, cw in distribute(branch, w, bw)], bw


@dataclass
class EBPReport:
    """What error-based pruning did; node ids are those of the tree given to ``ebp_prune``."""

    kept: list            # kept[new id] = original id
    collapsed: list       # original ids of tests replaced by a leaf
    raised: list          # {"node": replaced test, "branch": raised child, ...}
    events: list          # every decision in order, with sizes and estimated errors
    before: dict          # {"nodes", "leaves", "estimated_errors"}
    after: dict
    cf: float
    z: float

    def to_dict(self) -> dict:
        return {"kept": self.kept, "collapsed": self.collapsed, "raised": self.raised,
                "events": self.events, "before": self.before, "after": self.after,
                "cf": self.cf, "z": self.z}


def ebp_prune(tree: Tree, X, y, w=None, cf: float = 0.25, z="c45", subtree_raising: bool = True):
    """C4.5's error-based pruning of ``tree`` with its training data; returns (Tree, EBPReport).

    Bottom-up: at a test compare LeafErr (the node as a leaf), TreeErr (sum of the pruned
    children's estimates) and BranchErr (all the node's rows through its largest branch); make
    a leaf if LeafErr ≤ BranchErr + 0.1 and LeafErr ≤ TreeErr + 0.1, else raise the largest
    branch if BranchErr ≤ TreeErr + 0.1 (it is re-fitted to all the node's rows and pruned
    again).  Ties between equally large branches go to the last one, as in both release 8
    and J48.  The input tree is not modified; class counts are recomputed from the data.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    w = np.ones(X.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    C = tree.n_classes or tree.value.shape[1]
    zz = z_value(cf, z)
    zmode = z if isinstance(z, str) else zz

    clean_rows = ~np.isnan(X).any(axis=1)

    def counts_of(idx, wl):
        return np.bincount(y[idx], weights=wl, minlength=C)

    def est_counts(idx, wl):
        if idx.size == 0:
            return 0.0
        return estimated_errors(counts_of(idx, wl), cf, zmode)

    def est_branch(node, idx, wl):
        """J48's getEstimatedErrorsForBranch: all rows re-routed through ``node``."""
        if node.is_leaf:
            return est_counts(idx, wl)
        parts, _ = _split_rows(node, X, idx, wl)
        return sum(est_branch(c, *p) for c, p in zip(node.children, parts))

    def est_added(node, idx, wl):
        """Change of ``node``'s estimate when rows are added to it.  Exact shortcut for rows
        with no missing value: routing is then fixed and leaf counts add up."""
        if node.is_leaf:
            # node.err is estimated_errors(node.counts) (set together when the leaf was made)
            return estimated_errors(node.counts + counts_of(idx, wl), cf, zmode) - node.err
        x = X[idx, node.feature]
        if node.cat_branch.size:
            return by_branch(node, node.cat_branch[x.astype(np.int64)], idx, wl)
        if node.cuts.size == 1:  # these rows have no missing value: x > t is not (x <= t)
            left = x <= node.cuts[0]
            nl = int(np.count_nonzero(left))
            total = 0.0
            if nl:
                total += (est_added(node.children[0], idx, wl) if nl == idx.size
                          else est_added(node.children[0], idx[left], wl[left]))
            if nl < idx.size:
                right = ~left if nl else slice(None)
                total += est_added(node.children[1], idx[right], wl[right])
            return total
        return by_branch(node, np.searchsorted(node.cuts, x, side="left"), idx, wl)

    def by_branch(node, b, idx, wl):
        """est_added summed over the children, each given the rows of its branch b."""
        total = 0.0
        for v, c in enumerate(node.children):
            sel = b == v
            if sel.any():
                total += est_added(c, idx[sel], wl[sel])
        return total

    collapsed, raised, events = [], [], []

    def prune(node, idx, wl):
        if node.is_leaf:
            node.counts = counts_of(idx, wl)
            node.nrows = int(np.count_nonzero(wl > 0))
            node.err = estimated_errors(node.counts, cf, zmode) if idx.size else 0.0
            return node.err
        parts, bw = _split_rows(node, X, idx, wl)
        tree_err = sum(prune(c, *p) for c, p in zip(node.children, parts))
        big = int(np.nonzero(bw >= bw.max() - SMALL)[0][-1]) if bw.size else 0  # last largest
        if not subtree_raising:
            branch_err = math.inf
        elif clean_rows[idx].all():
            child = node.children[big]
            others = [p for v, p in enumerate(parts) if v != big]
            sib_idx = np.concatenate([p[0] for p in others]) if others else idx[:0]
            sib_w = np.concatenate([p[1] for p in others]) if others else wl[:0]
            branch_err = child.err + (est_added(child, sib_idx, sib_w) if sib_idx.size else 0.0)
        else:
            branch_err = est_branch(node.children[big], idx, wl)
        leaf_err = est_counts(idx, wl)
        if leaf_err <= tree_err + 0.1 + SMALL and leaf_err <= branch_err + 0.1 + SMALL:
            events.append({"action": "leaf", "node": node.orig, "size_before": node.size(),
                           "size_after": 1, "estimated_errors_before": tree_err,
                           "estimated_errors_after": leaf_err})
            collapsed.append(node.orig)
            node.feature, node.children = -1, []
            node.cuts, node.cat_branch = np.empty(0), np.empty(0, np.int32)
            node.counts, node.err = counts_of(idx, wl), leaf_err
            node.nrows = int(np.count_nonzero(wl > 0))
            return leaf_err
        if branch_err <= tree_err + 0.1 + SMALL:
            child = node.children[big]
            raised.append({"node": node.orig, "branch": child.orig})
            ev = {"action": "raise", "node": node.orig, "branch": child.orig,
                  "size_before": node.size(), "estimated_errors_before": tree_err,
                  "branch_estimated_errors": branch_err}
            events.append(ev)
            node.orig, node.feature, node.cuts = child.orig, child.feature, child.cuts
            node.cat_branch, node.missing_branch = child.cat_branch, child.missing_branch
            node.children = child.children
            result = prune(node, idx, wl)
            ev["size_after"] = node.size()
            ev["estimated_errors_after"] = result
            return result
        node.err = tree_err
        return tree_err

    root = _to_pnodes(tree)
    idx = np.nonzero(w > 0)[0]
    # the grown tree's estimate, from its stored leaf counts (empty leaves count 0)
    before_err = float(sum(estimated_errors(tree.value[i], cf, zmode)
                           for i in np.nonzero(tree.is_leaf & (tree.weighted_n > 0))[0]))
    before = {"nodes": tree.node_count, "leaves": tree.get_n_leaves(),
              "estimated_errors": before_err}
    after_err = prune(root, idx, w[idx])
    if clean_rows[idx].all():
        out, kept = _rebuild_from_leaves(root, C)
    else:
        out, kept = _rebuild(root, X, y, w[idx], idx, C)
    after = {"nodes": out.node_count, "leaves": out.get_n_leaves(), "estimated_errors": after_err}
    return out, EBPReport(kept=kept, collapsed=collapsed, raised=raised, events=events,
                          before=before, after=after, cf=float(cf), z=float(zz))


def _copy_test(asm: TreeAssembler, i: int, node: _PNode):
    """Give assembler node i the test of pruned node ``node``."""
    if node.cat_branch.size:
        asm.set_split(i, node.feature, cat_branch=node.cat_branch, missing_branch=node.missing_branch)
    else:
        asm.set_split(i, node.feature, cuts=node.cuts, missing_branch=node.missing_branch)


def _rebuild(root: _PNode, X, y, w, idx, C):
    """A Tree from pruned nodes, with counts recomputed by routing the training rows."""
    asm = TreeAssembler(C, C)
    kept = []

    def add(node, parent, idx, wl, parent_counts):
        if idx.size == 0 and parent >= 0:
            i = asm.add_node(parent, parent_counts, 0.0, 0, 0.0)
        else:
            counts = np.bincount(y[idx], weights=wl, minlength=C)
            i = asm.add_node(parent, counts, counts.sum(), int(np.sum(wl > 0)),
                             float(entropy(counts)))
            parent_counts = counts
        kept.append(node.orig)
        if node.is_leaf:
            return
        _copy_test(asm, i, node)
        if idx.size:
            parts, _ = _split_rows(node, X, idx, wl)
        else:
            parts = [(idx, wl)] * len(node.children)
        for c, p in zip(node.children, parts):
            add(c, i, p[0], p[1], parent_counts)

    add(root, -1, idx, w, None)
    return asm.build(), kept


def _rebuild_from_leaves(root: _PNode, C):
    """A Tree from pruned nodes when no value is missing: every row reaches one leaf, so a
    test's counts are the sum of its children's (the leaves' counts were set by pruning)."""
    totals = {}

    def up(node):
        if node.is_leaf:
            totals[id(node)] = (node.counts, node.nrows)
        else:
            parts = [up(c) for c in node.children]
            totals[id(node)] = (sum(p[0] for p in parts), sum(p[1] for p in parts))
        return totals[id(node)]

    up(root)
    asm = TreeAssembler(C, C)
    kept = []

    def add(node, parent, parent_counts):
        counts, nrows = totals[id(node)]
        wn = float(counts.sum())
        if nrows == 0 and wn <= 0 and parent >= 0:
            i = asm.add_node(parent, parent_counts, 0.0, 0, 0.0)
        else:
            i = asm.add_node(parent, counts, wn, nrows, 0.0)
            parent_counts = counts
        kept.append(node.orig)
        if node.is_leaf:
            return
        _copy_test(asm, i, node)
        for c in node.children:
            add(c, i, parent_counts)

    add(root, -1, None)
    return _set_impurity(asm.build()), kept


# =============================================================================================
# J48's text form

def _java_double(x: float) -> str:
    """Java's Double.toString for the values J48 prints (rounded to 2 decimals)."""
    x = float(x)
    if x == 0:
        return "0.0"
    if 1e-3 <= abs(x) < 1e7:
        s = repr(x)
        return s if ("." in s or "e" in s) else s + ".0"
    m, e = f"{x:.16e}".split("e")
    m = m.rstrip("0").rstrip(".")
    if "." not in m:
        m += ".0"
    return f"{m}E{int(e)}"


def _round2(x: float) -> float:
    return math.floor(x * 100.0 + 0.5) / 100.0  # Java's Math.round(x·100)/100


def weka_double(value: float, digits: int = 6) -> str:
    """Weka's Utils.doubleToString(value, digits): rounded, trailing zeros dropped."""
    temp = value * 10.0 ** digits
    p = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    if p == 0:
        return "0"
    s = str(abs(p)).rjust(digits + 1, "0")
    s = s[:-digits] + "." + s[-digits:]
    s = s.rstrip("0").rstrip(".")
    return ("-" if p < 0 else "") + s


def _leaf_label(tree: Tree, node: int, classes, errors: str, cf, z) -> str:
    counts = tree.value[node]
    N = float(tree.weighted_n[node])
    cls = classes[int(np.argmax(counts))]
    text = f"{cls} ({_java_double(_round2(N))}"
    if N > 0:
        e = N - float(counts.max())
        if errors == "estimated":
            e = e + add_errs(N, e, cf, z)
        if e > SMALL:
            text += "/" + _java_double(_round2(e))
    return text + ")"


def _branch_texts(tree: Tree, node: int, schema) -> list[str]:
    feat = schema.features[int(tree.feature[node])]
    name = feat.name
    if tree.is_categorical_test(node):
        cb = tree.cat_branch_of(node)
        nb = len(tree.children_of(node))
        labels = []
        for b in range(nb):
            cats = [feat.categories[c] for c in range(cb.size) if cb[c] == b]
            labels.append(f"{name} = {cats[0]}" if len(cats) == 1
                          else f"{name} in {{{', '.join(cats)}}}")
        return labels
    cuts = tree.cuts_of(node)
    if cuts.size == 1:
        t = weka_double(float(cuts[0]))
        return [f"{name} <= {t}", f"{name} > {t}"]
    out = [f"{name} <= {weka_double(float(cuts[0]))}"]
    for a, b in zip(cuts[:-1], cuts[1:]):
        out.append(f"{name} in ({weka_double(float(a))}, {weka_double(float(b))}]")
    out.append(f"{name} > {weka_double(float(cuts[-1]))}")
    return out


def tree_to_j48_lines(tree: Tree, schema, errors: str = "actual", cf: float = 0.25,
                      z="c45") -> list[str]:
    """The tree body exactly as J48 prints it (``|   `` per level, ``attr = value: class (N/E)``)."""
    classes = schema.classes
    if tree.is_leaf[0]:
        return [": " + _leaf_label(tree, 0, classes, errors, cf, z)]
    lines = []

    def walk(node, depth):
        for label, child in zip(_branch_texts(tree, node, schema), tree.children_of(node)):
            child = int(child)
            line = "|   " * depth + label
            if tree.is_leaf[child]:
                lines.append(line + ": " + _leaf_label(tree, child, classes, errors, cf, z))
            else:
                lines.append(line)
                walk(child, depth + 1)

    walk(0, 0)
    return lines


def to_j48_text(estimator, errors: str = "actual") -> str:
    """A fitted tree in J48's text form.

    Each leaf reads ``class (N/E)``: N the training weight reaching it (fractional with missing
    values), E its errors — ``errors="actual"`` prints the training errors (what J48 prints),
    ``"estimated"`` the pessimistic estimate e + AddErrs used by pruning (what release 8
    prints after pruning).  The header says which.
    """
    if errors not in ("actual", "estimated"):
        raise ValueError("errors must be 'actual' or 'estimated'")
    estimator._check_fitted()
    tree, schema = estimator.tree_, estimator.schema_
    params = estimator.get_params()
    cf = float(params.get("confidence_factor", 0.25))
    z = params.get("z", "c45")
    pruned = params.get("prune", False)
    title = f"{estimator.algorithm.upper().replace('C45', 'C4.5')} {'pruned' if pruned else 'unpruned'} tree"
    note = ("leaf: class (N/E) — N training weight, E actual training errors" if errors == "actual"
            else "leaf: class (N/E) — N training weight, E estimated errors (e + AddErrs, "
                 f"CF={cf})")
    body = tree_to_j48_lines(tree, schema, errors, cf, z)
    return "\n".join([title, "-" * len(title), note, ""] + body + [
        "", f"Number of Leaves  : \t{tree.get_n_leaves()}", "",
        f"Size of the tree : \t{tree.node_count}", ""])
