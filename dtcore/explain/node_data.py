"""The rows reaching one node (with C4.5's fractional weights) and the per-algorithm settings the
explorer needs to score them: held once here so every candidate builder reads the same data."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from dtcore.criteria import entropy, gini
from dtcore.export.thresholds import midpoint_note
from dtcore.id3 import rules as id3_rules
from dtcore.node_rows import values_beside
from dtcore.routing import Reached, SplitTest


class NodeData:
    """The rows reaching one node and what the algorithm needs to score them.

    ``est``: the estimator (its schema and settings); X, y, w: the encoded training data; ``tree``:
    the tree whose node it is (None: the root of an unfitted estimator); ``known``: an
    ancestor's rows when the caller has them (``Tree.reach``'s start). The node's rows are
    ``rows`` (indices into X) with weights ``w`` (the fractional shares ``Tree.reach`` gives,
    ``share``, times the rows' weights);
    ``X``/``y`` are those rows, ``N`` their weight, ``counts`` their class counts (None for
    regression), ``used`` the features a multiway test above already used.
    """

    def __init__(
        self, est: Any, X: Any, y: Any, w: Any, node: int = 0, tree: Any = None, known: Reached | None = None
    ) -> None:
        self.est = est
        self.schema = est.schema_
        self.algorithm: str = est.algorithm
        self.task = "classification" if self.schema.is_classifier else "regression"
        self.X_all = np.asarray(X, dtype=np.float64)
        self.y_all = np.asarray(y)
        self.w_all = np.ones(self.X_all.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
        self.tree = tree
        self.node = int(node)
        self.id3_plan_cache: dict | None = None
        if tree is not None:
            if not 0 <= self.node < tree.node_count:
                raise ValueError(f"node {node}: the tree has nodes 0..{tree.node_count - 1}")
            rows, share = tree.reach(self.X_all, self.node, known)
            wn = self.w_all[rows] * share
            self.depth = int(tree.depth[self.node])
        else:
            if self.node != 0:
                raise ValueError("a node other than the root needs a trained tree")
            rows, share = np.arange(self.X_all.shape[0]), np.ones(self.X_all.shape[0])
            wn = self.w_all.copy()
            self.depth = 0
        keep = wn > 0
        self.rows, self.w, self.share = rows[keep], wn[keep], share[keep]
        self.X = self.X_all[self.rows]
        self.y = self.y_all[self.rows]
        self.N = float(self.w.sum())
        self.W_root = float(self.w_all[self.w_all > 0].sum())
        self.C = len(self.schema.classes) if self.schema.is_classifier else 0
        self.counts: Any
        if self.C:
            self.y = self.y.astype(np.int64)
            self.counts = np.bincount(self.y, weights=self.w, minlength=self.C)
        else:
            self.y = self.y.astype(np.float64)
            self.counts = None
        self.used = self._used_on_path()

    def _used_on_path(self) -> set[int]:
        """Features used up above this node: multiway tests (ID3, C4.5) and ID3's binned ones."""
        if self.tree is None or self.algorithm == "cart":
            return set()
        used = set()
        for a in self.tree.path_to(self.node)[:-1]:
            j = int(self.tree.feature[a])
            if (
                self.tree.is_categorical_test(a)
                or self.tree.cuts_of(a).size != 1
                or (self.algorithm == "id3" and id3_plan(self)[j][0] == "bins")
            ):
                used.add(j)
        return used


def id3_plan(nd: NodeData) -> Any:
    """ID3's per-feature plan ("cat", n) | ("bins", cuts) | ("thr", None): the fitted ``plan_``,
    or for an unfitted estimator (root report) the plan ``fit`` would make from these data."""
    est = nd.est
    plan = getattr(est, "plan_", None)
    if plan is None:
        plan = nd.id3_plan_cache
    if plan is None:
        plan = id3_rules.feature_plan(nd.schema, nd.X_all, est.continuous, est.n_bins, est.random_state)[0]
        nd.id3_plan_cache = plan
    return plan


def cart_params(nd: NodeData) -> Any:
    """CART's resolved growth parameters (``_params_for``: fractions as counts, the criterion)."""
    return nd.est._params_for(nd.X_all.shape[0], nd.w_all, nd.C)


def criterion(nd: NodeData) -> str:
    """The impurity the node's numbers use: CART's criterion, else entropy."""
    if nd.algorithm == "cart":
        return str(cart_params(nd).criterion)
    return "entropy"


def feats_impurity(nd: NodeData) -> float:
    """The node's impurity under the algorithm's criterion."""
    if nd.C:
        crit = criterion(nd)
        return float(gini(nd.counts) if crit == "gini" else entropy(nd.counts))
    if nd.N <= 0:
        return 0.0
    mean = float(np.sum(nd.w * nd.y) / nd.N)
    return float(np.sum(nd.w * (nd.y - mean) ** 2) / nd.N)


def with_neighbours(nd: NodeData, test: SplitTest | None) -> SplitTest | None:
    """``test`` with, for a continuous test, the node's training values next to each cut
    (``below``, ``above``: how far its threshold may be rounded, ``export.thresholds``) and, for
    C4.5, the ``midpoint`` cut when the stored threshold (release 8: a training value) is not it."""
    if test is None or not test.cuts:
        return test
    x = nd.X[nd.w > 0, test.feature]
    below, above = values_beside(x, np.asarray(test.cuts, dtype=np.float64))
    # JSON-safe: None where the node has no value on that side
    sides = (tuple(float(v) if np.isfinite(v) else None for v in a) for a in (below, above))
    out = dataclasses.replace(test, below=next(sides), above=next(sides))
    if nd.algorithm == "c45" and len(test.cuts) == 1:
        mid = midpoint_note(float(test.cuts[0]), float(below[0]), float(above[0]))
        if mid is not None:
            out = dataclasses.replace(out, midpoint=mid)
    return out
