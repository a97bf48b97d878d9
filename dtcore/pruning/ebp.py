"""C4.5's error-based pruning (release 8, as Weka's J48) on any classification Tree, and the
error estimates it uses (SPEC §8, §9).

* ``z="c45"`` (default) is release 8's AddErrs with its table-interpolated deviate (0.6925 at
  CF 0.25);
* ``z="normal"`` is Weka's ``Stats.addErrs`` as a whole: the exact normal quantile (0.6745 at
  CF 0.25) and ``N − e`` (not release 8's ``0.67·(N − e)``) when ``e + 0.5 ≥ N``;
* comparisons use Weka's tolerance 1e-6 (``SMALL``), release 8 compares single-precision floats
  exactly; we compute in float64 throughout.

Speed: pruning without missing values adds the other branches' rows to the largest branch's
leaf counts instead of re-routing all rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import NormalDist

import numpy as np
from numpy.typing import ArrayLike

from dtcore.criteria import SMALL, entropy, gini
from dtcore.history import PruneStep
from dtcore.node_rows import missing_seen, record_neighbours
from dtcore.progress import checkpoint
from dtcore.pruning.ebp_nodes import (
    PNode,
    feature_columns,
    rebuild_from_leaves,
    rebuild_tree,
    split_node_rows,
    subtree_stats,
    to_pnodes,
)
from dtcore.routing import branch_index
from dtcore.tree import Tree
from dtcore.walk import Step, run

#: release 8's confidence table (prune.c): CF values and the normal deviates it interpolates
_R8_VAL = (0.0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00)
_R8_DEV = (100.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00)


# =============================================================================================
# error estimates


#: node impurity of the pruned tree, by the criterion the tree was grown with
IMPURITIES = {"entropy": entropy, "gini": gini}


def z_value(cf: float = 0.25, z: float | str = "c45") -> float:
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
            _R8_VAL[i] - _R8_VAL[i - 1]
        )
    raise ValueError(f"z must be 'c45', 'normal' or a number, not {z!r}")


def add_errs(N: float, e: float, cf: float = 0.25, z: float | str = "c45") -> float:
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
    pr = (e + 0.5 + coeff / 2 + math.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / N) + coeff / 4))) / (
        N + coeff
    )
    return N * pr - e


@lru_cache(maxsize=64)
def _z2(cf: float, z: float | str) -> float:
    return z_value(cf, z) ** 2


def estimated_errors(counts: np.ndarray | Sequence[float], cf: float = 0.25, z: float | str = "c45") -> float:
    """Errors of a leaf holding ``counts`` plus AddErrs (0 for an empty leaf)."""
    c = counts.tolist() if isinstance(counts, np.ndarray) else list(counts)
    N = math.fsum(c)
    if abs(N) < SMALL:
        return 0.0
    e = N - max(c)
    return e + add_errs(N, e, cf, z)


# =============================================================================================
# error-based pruning


@dataclass
class EBPReport:
    """What error-based pruning did; node ids are those of the tree given to ``ebp_prune``."""

    kept: list  # kept[new id] = original id
    collapsed: list  # original ids of tests replaced by a leaf
    raised: list  # {"node": replaced test, "branch": raised child, ...}
    events: list  # every decision in order, with sizes and estimated errors
    before: dict  # {"nodes", "leaves", "estimated_errors"}
    after: dict
    cf: float
    z: float
    #: with ``record_refits``: event index of each raise → the raised subtree's statistics when
    #: raised, in pre-order: (original id, class counts, weight, rows, impurity); not in to_dict
    refits: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "kept": self.kept,
            "collapsed": self.collapsed,
            "raised": self.raised,
            "events": self.events,
            "before": self.before,
            "after": self.after,
            "cf": self.cf,
            "z": self.z,
        }


def ebp_prune(
    tree: Tree,
    X: ArrayLike,
    y: ArrayLike,
    w: ArrayLike | None = None,
    cf: float = 0.25,
    z: float | str = "c45",
    subtree_raising: bool = True,
    impurity: str = "entropy",
    record_refits: bool = False,
) -> tuple[Tree, EBPReport]:
    """C4.5's error-based pruning of ``tree`` with its training data; returns (Tree, EBPReport).

    Bottom-up: at a test compare LeafErr (the node as a leaf), TreeErr (sum of the pruned
    children's estimates) and BranchErr (all the node's rows through its largest branch); make
    a leaf if LeafErr ≤ BranchErr + 0.1 and LeafErr ≤ TreeErr + 0.1, else raise the largest
    branch if BranchErr ≤ TreeErr + 0.1 (it is re-fitted to all the node's rows and pruned
    again).  Ties between equally large branches go to the last one, as in both release 8
    and J48.  ``record_refits`` keeps each raised subtree's re-fitted statistics in
    ``EBPReport.refits`` (``dtcore.analysis.growth_steps`` replays the pruning steps with them).  The input tree is not modified; class counts are recomputed from the data, and so
    is each node's ``impurity`` ("entropy", C4.5's; "gini" for a CART tree pruned this way).
    """
    if impurity not in IMPURITIES:
        raise ValueError(
            f"impurity must be one of {sorted(IMPURITIES)} (EBP prunes classification trees), "
            f"not {impurity!r}"
        )
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    w = np.ones(X.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    C = tree.n_classes or tree.value.shape[1]
    zz = z_value(cf, z)
    zmode = z if isinstance(z, str) else zz

    clean_rows = ~np.isnan(X).any(axis=1)
    all_clean = bool(clean_rows.all())
    columns = feature_columns(X)

    def counts_of(idx: np.ndarray, wl: np.ndarray) -> np.ndarray:
        return np.bincount(y[idx], weights=wl, minlength=C)

    known: dict[tuple[float, ...], float] = {}

    def leaf_estimate(counts: np.ndarray) -> float:
        """estimated_errors(counts), remembered: leaves repeat the same few small counts."""
        key = tuple(counts.tolist())
        got = known.get(key)
        if got is None:
            got = known[key] = estimated_errors(key, cf, zmode)
        return got

    def est_counts(idx: np.ndarray, wl: np.ndarray) -> float:
        if idx.size == 0:
            return 0.0
        return leaf_estimate(counts_of(idx, wl))

    # The walks below are generators driven by ``walk.run`` on an explicit stack: each
    # ``yield (child, rows, weights)`` is the recursive call of the textbook form and receives
    # its result, so the order of decisions and of every float operation is the recursive one,
    # and a tree thousands of levels deep does not reach Python's recursion limit.

    def est_branch(node: PNode, idx: np.ndarray, wl: np.ndarray) -> Step[float]:
        """J48's getEstimatedErrorsForBranch: all rows re-routed through ``node``."""
        if node.is_leaf:
            return est_counts(idx, wl)
        parts, _ = split_node_rows(node, columns, idx, wl)
        total: float = 0  # as sum(): int 0 plus the first float
        for c, p in zip(node.children, parts):
            total += yield (c, *p)
        return total

    def leaf_added(node: PNode, idx: np.ndarray, wl: np.ndarray) -> float:
        # node.err is estimated_errors(node.counts) (set together when the leaf was made)
        assert node.counts is not None
        return leaf_estimate(node.counts + counts_of(idx, wl)) - node.err

    def est_added(node: PNode, idx: np.ndarray, wl: np.ndarray) -> Step[float]:
        """Change of ``node``'s estimate when rows are added to it.  Exact shortcut for rows
        with no missing value: routing is then fixed and leaf counts add up."""
        if node.is_leaf:
            return leaf_added(node, idx, wl)
        x = columns[node.feature][idx]
        if node.cat_branch.size:
            return (yield from by_branch(node, branch_index(x, cat_branch=node.cat_branch), idx, wl))
        if node.cuts.size == 1:  # these rows have no missing value: x > t is not (x <= t)
            left = x <= node.cuts[0]
            nl = int(np.count_nonzero(left))
            total = 0.0
            # a leaf child is added here, not by a sub-walk: the same operations, fewer steps
            if nl:
                lo, li, lw = (
                    (node.children[0], idx, wl) if nl == idx.size else (node.children[0], idx[left], wl[left])
                )
                total += leaf_added(lo, li, lw) if lo.is_leaf else (yield (lo, li, lw))
            if nl < idx.size:
                right = ~left if nl else slice(None)
                hi, hi_idx, hi_w = node.children[1], idx[right], wl[right]
                total += leaf_added(hi, hi_idx, hi_w) if hi.is_leaf else (yield (hi, hi_idx, hi_w))
            return total
        return (yield from by_branch(node, branch_index(x, cuts=node.cuts), idx, wl))

    def by_branch(node: PNode, b: np.ndarray, idx: np.ndarray, wl: np.ndarray) -> Step[float]:
        """est_added summed over the children, each given the rows of its branch b."""
        total = 0.0
        for v, c in enumerate(node.children):
            sel = b == v
            if sel.any():
                total += yield (c, idx[sel], wl[sel])
        return total

    collapsed, raised, events = [], [], []
    refits: dict[int, list] = {}

    def prune_leaf(node: PNode, idx: np.ndarray, wl: np.ndarray) -> float:
        checkpoint()  # a node at a time: a stop point in long work (dtcore.progress)
        node.counts = counts_of(idx, wl)
        node.nrows = int(np.count_nonzero(wl > 0))
        node.err = leaf_estimate(node.counts) if idx.size else 0.0
        return node.err

    def prune(node: PNode, idx: np.ndarray, wl: np.ndarray) -> Step[float]:
        if node.is_leaf:
            return prune_leaf(node, idx, wl)
        checkpoint()
        parts, bw = split_node_rows(node, columns, idx, wl)
        tree_err: float = 0  # as sum(): int 0 plus the first float
        for c, p in zip(node.children, parts):  # a leaf child is pruned here, not by a sub-walk
            tree_err += prune_leaf(c, *p) if c.is_leaf else (yield (c, *p))
        big = int(np.nonzero(bw >= bw.max() - SMALL)[0][-1]) if bw.size else 0  # last largest
        if not subtree_raising:
            branch_err = math.inf
        elif all_clean or clean_rows[idx].all():
            child = node.children[big]
            others = [p for v, p in enumerate(parts) if v != big]
            if len(others) == 1:  # a binary test: the other branch's rows as they are
                sib_idx, sib_w = others[0]
            else:
                sib_idx = np.concatenate([p[0] for p in others]) if others else idx[:0]
                sib_w = np.concatenate([p[1] for p in others]) if others else wl[:0]
            if not sib_idx.size:
                added = 0.0
            elif child.is_leaf:
                added = leaf_added(child, sib_idx, sib_w)
            else:
                added = run(est_added, child, sib_idx, sib_w)
            branch_err = child.err + added
        else:
            branch_err = run(est_branch, node.children[big], idx, wl)
        leaf_err = est_counts(idx, wl)
        if leaf_err <= tree_err + 0.1 + SMALL and leaf_err <= branch_err + 0.1 + SMALL:
            events.append(
                {
                    "action": "leaf",
                    "node": node.orig,
                    "size_before": node.size(),
                    "size_after": 1,
                    "estimated_errors_before": tree_err,
                    "estimated_errors_after": leaf_err,
                    "branch_estimated_errors": branch_err if math.isfinite(branch_err) else None,
                }
            )
            collapsed.append(node.orig)
            node.feature, node.children = -1, []
            node.cuts, node.cat_branch = np.empty(0), np.empty(0, np.int32)
            node.counts, node.err = counts_of(idx, wl), leaf_err
            node.nrows = int(np.count_nonzero(wl > 0))
            return leaf_err
        if branch_err <= tree_err + 0.1 + SMALL:
            child = node.children[big]
            raised.append({"node": node.orig, "branch": child.orig})
            ev = {
                "action": "raise",
                "node": node.orig,
                "branch": child.orig,
                "size_before": node.size(),
                "estimated_errors_before": tree_err,
                "branch_estimated_errors": branch_err,
                "leaf_estimated_errors": leaf_err,
            }
            events.append(ev)
            if record_refits:
                refits[len(events) - 1] = subtree_stats(child, columns, y, idx, wl, C)
            node.orig, node.feature, node.cuts = child.orig, child.feature, child.cuts
            node.cat_branch, node.missing_branch = child.cat_branch, child.missing_branch
            node.children = child.children
            result = yield (node, idx, wl)
            ev["size_after"] = node.size()
            ev["estimated_errors_after"] = result
            return result
        node.err = tree_err
        return tree_err

    root = to_pnodes(tree)
    idx = np.nonzero(w > 0)[0]
    # the grown tree's estimate, from its stored leaf counts (empty leaves count 0)
    before_err = float(
        sum(
            estimated_errors(tree.value[i], cf, zmode)
            for i in np.nonzero(tree.is_leaf & (tree.weighted_n > 0))[0]
        )
    )
    before = {"nodes": tree.node_count, "leaves": tree.get_n_leaves(), "estimated_errors": before_err}
    after_err = run(prune, root, idx, w[idx])
    if all_clean or clean_rows[idx].all():
        out, kept = rebuild_from_leaves(root, C)
    else:
        out, kept = rebuild_tree(root, columns, y, w[idx], idx, C)
    if impurity != "entropy":  # the rebuilt tree's impurity is C4.5's entropy
        out.impurity = np.where(out.weighted_n > 0, IMPURITIES[impurity](out.value), 0.0)
    after = {"nodes": out.node_count, "leaves": out.get_n_leaves(), "estimated_errors": after_err}
    out.saw_missing = missing_seen(out, X, w)  # raised branches route other rows: ask the data
    record_neighbours(out, X, w)
    return out, EBPReport(
        kept=kept,
        collapsed=collapsed,
        raised=raised,
        events=events,
        before=before,
        after=after,
        cf=float(cf),
        z=float(zz),
        refits=refits,
    )


def ebp_steps(report: EBPReport, to_grown: np.ndarray) -> list[PruneStep]:
    """Error-based pruning's events as steps; ``to_grown`` maps the pruned input tree's ids to
    the grown tree's."""
    out = []
    for k, ev in enumerate(report.events):
        node = int(to_grown[ev["node"]])
        if ev["action"] == "leaf":
            nums = {
                "leaf_estimate": ev["estimated_errors_after"],
                "subtree_estimate": ev["estimated_errors_before"],
                "branch_estimate": ev.get("branch_estimated_errors"),
            }
            out.append(PruneStep("leaf", node, nums))
        else:
            nums = {
                "branch_estimate": ev["branch_estimated_errors"],
                "subtree_estimate": ev["estimated_errors_before"],
                "leaf_estimate": ev.get("leaf_estimated_errors"),
            }
            refit = [[int(to_grown[i]), c, wn, ns, imp] for i, c, wn, ns, imp in report.refits.get(k, [])]
            out.append(PruneStep("raise", node, nums, int(to_grown[ev["branch"]]), refit))
    return out
