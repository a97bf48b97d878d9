"""ID3 (Quinlan 1986): multiway splits chosen by information gain.

* A categorical feature splits into one branch per category (in category order); it is used up
  on its branch.  A category with no rows at a node gets an empty leaf that predicts the
  parent's class distribution (seed 004's case 3; weight 0 in the tree).
* Continuous features, by ``continuous=``:
  ``"intervals"`` — seed 000: edges [min, midpoints…, max] over the whole training set, one
  branch per interval (each distinct training value gets its own interval);
  ``"equal_width"``, ``"equal_frequency"``, ``"kmeans"`` — pre-binning into ``n_bins`` (seed
  002), one branch per bin; these discretised features are used up like categorical ones;
  ``"threshold"`` — a binary test ``x ≤ t`` at the midpoint with the largest gain (SPEC §4);
  the feature stays available below.
* Stop (SPEC §7): one class left, no usable feature, best gain not positive, or a pre-pruning
  limit: ``max_depth``, ``min_samples_split``, ``min_samples_leaf`` (rows, not weight, in every
  non-empty branch or side of a cut, counting the rows whose value is known),
  ``min_impurity_decrease`` (N_t/N · gain), ``max_leaf_nodes`` (best-first growth: the split
  with the largest N_t/N · gain first; a multiway split adds its branch count − 1 leaves, empty
  branches included, and is skipped when that would exceed the limit).
* ``criterion="gain_ratio"`` takes the largest plain ratio (the seed-000 "c45" criterion, no
  average-gain rule; release 8's rule is ``dtcore.c45``).
* Missing values are not part of ID3; we apply C4.5's rule (ρ-weighted gain, rows with an unknown
  value sent down every branch with fractional weight), so ID3 runs on the same data.
"""

from __future__ import annotations

import heapq

import numpy as np

from dtcore import history
from dtcore.base import BaseTreeEstimator
from dtcore.criteria import entropy
from dtcore.entropy.cutpoints import score_textbook_cuts
from dtcore.entropy.discretize import METHODS as BIN_METHODS
from dtcore.entropy.discretize import check_bins
from dtcore.entropy.multiway import branch_class_counts, score_multiway, score_multiway_many
from dtcore.id3.rules import (
    better,
    branch_rows,
    branches_ok,
    branches_ok_many,
    decrease_ok,
    feature_plan,
    is_positive,
    leaf_reason,
    weighted_gain,
)
from dtcore.params import GROWTH_LIMITS, Param
from dtcore.progress import report
from dtcore.routing import DISTRIBUTE, branch_index, distribute_rows
from dtcore.tree import Tree, TreeAssembler

CONTINUOUS_MODES = BIN_METHODS + ("threshold",)

#: a node to grow: (node id, its rows, their weights there, categorical features used above)
_Task = tuple[int, np.ndarray, np.ndarray, frozenset[int]]
#: a node's chosen test: (score, gain, feature, kind, threshold or None, N_t/N · gain)
_Test = tuple[float, float, int, str, float | None, float]


class ID3Classifier(BaseTreeEstimator):
    """ID3 (Quinlan 1986): multiway splits chosen by information gain, with the options the
    module docstring describes (continuous features, pre-pruning limits, missing values).

    Parameters
    ----------
    criterion : {"gain", "gain_ratio"}, default="gain"
        Information gain, or the plain gain ratio (no average-gain rule).
    continuous : {"intervals", "equal_width", "equal_frequency", "kmeans", "threshold"}, default="intervals"
        How a continuous feature is tested: one branch per interval between distinct training
        values, one branch per pre-computed bin, or a binary ``x ≤ t`` at the best midpoint.
    n_bins : int, default=5
        Bins for the pre-binning modes.
    random_state : int, default=0
        Seed of the k-means binning.
    max_depth : int or None, default=None
        Deepest level a node may sit at (the root is depth 0).
    min_samples_split : float, default=2
        Fewest rows a node needs to be split.
    min_samples_leaf : float, default=1
        Fewest rows every non-empty branch must keep: rows whose value sends them there, counted
        as rows (as scikit-learn does) even when missing values gave them a fractional weight.
    min_impurity_decrease : float, default=0.0
        A split's N_t/N · gain must reach this.
    max_leaf_nodes : int or None, default=None
        Grow best-first (largest N_t/N · gain first) up to this many leaves.

    Attributes
    ----------
    tree_ : Tree
        The fitted tree as flat arrays.
    grown_tree_, build_order_, build_rule_, prune_steps_
        The same tree, its splits in the order made (depth first, or best first under
        ``max_leaf_nodes``); no pruning steps (``dtcore.history``).
    plan_ : dict
        Per feature index, how it is tested (:func:`feature_plan`'s ``("cat", n)`` /
        ``("bins", cuts)`` / ``("thr", None)``), fixed before growth.
    bin_edges_ : dict
        Pre-binned features' edges by feature name.
    schema_ : Schema
        Feature names and kinds, category labels, class labels, missing-value tokens.
    classes_ : ndarray
        Class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of str
        Feature names seen during fit.

    Examples
    --------
    >>> import numpy as np
    >>> from dtcore.id3.estimator import ID3Classifier
    >>> X = np.array([["sunny"], ["sunny"], ["overcast"], ["rain"], ["rain"], ["overcast"]],
    ...              dtype=object)
    >>> clf = ID3Classifier().fit(X, ["no", "no", "yes", "yes", "no", "yes"],
    ...                           feature_names=["outlook"])
    >>> clf.predict(np.array([["overcast"]], dtype=object)).tolist(), clf.get_n_leaves()
    (['yes'], 3)
    """

    _task = "classification"
    algorithm = "id3"
    _criteria = ("gain", "gain_ratio")  # the default first
    # ID3 proper has no continuous features; the app's default is the binary threshold (SPEC §4)
    # because "intervals" (one branch per distinct value) makes unreadably wide trees on real data
    ui_params: tuple[Param, ...] = (
        Param(
            "continuous",
            "select",
            "threshold",
            ("threshold", "intervals", "equal_width", "equal_frequency", "kmeans"),
        ),
        Param("n_bins", "int", 5, lo=2, hi=20, step=1),
    ) + GROWTH_LIMITS

    def __init__(
        self,
        criterion: str = "gain",
        continuous: str = "intervals",
        n_bins: int = 5,
        random_state: int = 0,
        max_depth: int | None = None,
        min_samples_split: float = 2,
        min_samples_leaf: float = 1,
        min_impurity_decrease: float = 0.0,
        max_leaf_nodes: int | None = None,
    ) -> None:
        self.criterion = criterion
        self.continuous = continuous
        self.n_bins = n_bins
        self.random_state = random_state
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes

    def _validate_params(self) -> None:
        if self.criterion not in self._criteria:
            raise ValueError(f"criterion must be 'gain' or 'gain_ratio', not {self.criterion!r}")
        if self.continuous not in CONTINUOUS_MODES:
            raise ValueError(f"continuous must be one of {CONTINUOUS_MODES}, not {self.continuous!r}")
        check_bins(self.n_bins)  # also when no feature is binned: the parameter is wrong either way
        if self.max_depth is not None and (int(self.max_depth) != self.max_depth or self.max_depth < 0):
            raise ValueError("max_depth must be None or an integer ≥ 0")
        if self.min_samples_split < 2:
            raise ValueError("min_samples_split must be ≥ 2")
        if self.min_samples_leaf < 1:
            raise ValueError("min_samples_leaf must be ≥ 1")
        if self.min_impurity_decrease < 0:
            raise ValueError("min_impurity_decrease must be ≥ 0")
        if self.max_leaf_nodes is not None and (
            int(self.max_leaf_nodes) != self.max_leaf_nodes or self.max_leaf_nodes < 2
        ):
            raise ValueError("max_leaf_nodes must be None or an integer ≥ 2")

    # -- fitting -------------------------------------------------------------------------------
    def _grow(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> Tree:
        schema = self.schema_
        assert schema.classes is not None  # ID3 is a classifier: the schema has classes
        C = len(schema.classes)
        y = np.asarray(y, dtype=np.int64)
        w = np.asarray(sample_weight, dtype=np.float64)
        # per feature: ("cat", n_branches) | ("bins", cuts) | ("thr", None)
        self.plan_, self.bin_edges_ = feature_plan(schema, X, self.continuous, self.n_bins, self.random_state)
        self._C, self._N_total = C, float(w[w > 0].sum())
        asm = TreeAssembler(C, C)
        rows = np.nonzero(w > 0)[0]
        counts = np.bincount(y[rows], weights=w[rows], minlength=C)
        root = asm.add_node(-1, counts, counts.sum(), rows.size, float(entropy(counts)))
        task: _Task = (root, rows, w[rows], frozenset())
        if self.max_leaf_nodes is None:
            stack = [task]
            settled = 0  # rows that have reached a leaf
            while stack:
                report("grow", settled, rows.size, len(asm))
                t = stack.pop()
                best = self._find(asm, X, y, *t)
                if best is not None:
                    stack.extend(reversed(self._apply(asm, X, y, *t, best)))
                else:
                    settled += t[1].size
            return self._record(asm, "depth_first")
        # best-first: the largest weighted gain N_t/N · gain is split first
        heap: list[tuple[float, int, _Task, _Test]] = []
        tick, leaves = 0, 1
        best = self._find(asm, X, y, *task)
        if best is not None:
            heapq.heappush(heap, (-best[5], tick, task, best))
        while heap:
            report("grow", leaves - 1, self.max_leaf_nodes - 1, len(asm))
            _, _, t, best = heapq.heappop(heap)
            n_branches = self._n_branches(best[2])
            if leaves - 1 + n_branches > self.max_leaf_nodes:
                continue
            leaves += n_branches - 1
            for kid in self._apply(asm, X, y, *t, best):
                kb = self._find(asm, X, y, *kid)
                if kb is not None:
                    tick += 1
                    heapq.heappush(heap, (-kb[5], tick, kid, kb))
        return self._record(asm, "best_first")

    def _record(self, asm: TreeAssembler, rule: str) -> Tree:
        """The built tree, its split order recorded (``dtcore.history``; ID3 never prunes)."""
        tree = asm.build()
        history.record(self, tree, asm.split_order(), rule)
        return tree

    def _n_branches(self, j: int) -> int:
        kind, arg = self.plan_[j]
        return arg if kind == "cat" else (2 if kind == "thr" else arg.size + 1)

    def _branches(self, j: int, x: np.ndarray) -> tuple[np.ndarray, int]:
        """Branch index of each value for feature j (-1 = missing)."""
        kind, arg = self.plan_[j]
        if kind == "cat":
            return branch_index(x, cat_branch=np.arange(arg)), arg
        return branch_index(x, cuts=arg), arg.size + 1

    def _find(
        self,
        asm: TreeAssembler,
        X: np.ndarray,
        y: np.ndarray,
        node: int,
        rows: np.ndarray,
        wl: np.ndarray,
        used: frozenset[int],
    ) -> _Test | None:
        """The best test at a node, or None when a stop rule makes it a leaf."""
        rec = asm.node(node)
        counts = rec["value"]
        N = float(counts.sum())
        C = self._C
        if leaf_reason(counts, int(rec["n_samples"]), rec["depth"], self.min_samples_split, self.max_depth):
            return None
        y_loc = y[rows]
        best: tuple[float, float, int, str, float | None] | None = None  # (score, gain, j, kind, payload)
        scored = self._score_categorical(X, y_loc, rows, wl, used)
        for j, (kind, _arg) in self.plan_.items():
            if j in used:
                continue
            if j in scored:
                found = scored[j]
                if (
                    found is not None
                    and is_positive(found[0])
                    and better(found[1], None if best is None else best[0])
                ):
                    best = (found[1], found[0], j, kind, None)
                continue
            x = X[rows, j]
            if kind == "thr":
                order = np.argsort(x, kind="stable")
                sc = score_textbook_cuts(
                    x[order][None, :],
                    y_loc[order][None, :],
                    wl[order][None, :],
                    N,
                    C,
                    min_leaf=float(self.min_samples_leaf),
                )
                if not sc.valid[0]:
                    continue
                gain = float(sc.gain[0])
                iv = float(sc.split_info[0])
                score = gain if self.criterion == "gain" else (gain / iv if iv > 0 else 0.0)
                payload = float(sc.midpoint[0])
            else:
                b, V = self._branches(j, x)
                bc, unk = branch_class_counts(b, y_loc, wl, V, C)
                if not branches_ok(branch_rows(b, wl, V), self.min_samples_leaf):
                    continue
                s = score_multiway(bc, unk)
                gain = s.gain
                score = gain if self.criterion == "gain" else (gain / s.iv if s.iv > 0 else 0.0)
                payload = None
            if not is_positive(gain):
                continue
            if better(score, None if best is None else best[0]):  # ties: first in column order
                best = (score, gain, j, kind, payload)
        if best is None:
            return None
        weighted = weighted_gain(N, self._N_total, best[1])
        if not decrease_ok(weighted, self.min_impurity_decrease):
            return None
        return best + (weighted,)

    def _score_categorical(
        self, X: np.ndarray, y_loc: np.ndarray, rows: np.ndarray, wl: np.ndarray, used: frozenset[int]
    ) -> dict[int, tuple[float, float] | None]:
        """(gain, score) of every unused categorical feature at a node, None where the test is
        not usable (``branches_ok``): the features with the same category count are counted by
        one ``bincount`` and scored by one :func:`score_multiway_many` call, which gives
        :func:`score_multiway`'s numbers exactly (a node's fixed numpy cost paid once, not once
        per feature)."""
        groups: dict[int, list[int]] = {}
        for j, (kind, arg) in self.plan_.items():
            if kind == "cat" and j not in used:
                groups.setdefault(int(arg), []).append(j)
        out: dict[int, tuple[float, float] | None] = {}
        C = self._C
        for V, feats in groups.items():
            F = len(feats)
            codes = X[rows][:, feats]  # (rows, F), flattened row by row: each bin adds in row order
            b = np.where(np.isnan(codes), -1, codes).astype(np.int64)
            known = (b >= 0) & (b < V)
            slot = b + np.arange(F) * V  # (feature, branch) of each cell
            y_col = y_loc[:, None]
            w_cells = np.repeat(wl, F)
            # cells that do not belong in a count go to one bin past the end, then dropped
            cell = np.where(known, slot * C + y_col, F * V * C).ravel()
            counts = np.bincount(cell, weights=w_cells, minlength=F * V * C + 1)[: F * V * C]
            lost = np.where(known, F * C, np.arange(F) * C + y_col).ravel()
            unknown = np.bincount(lost, weights=w_cells, minlength=F * C + 1)[: F * C]
            counted = np.where(known & (wl[:, None] > 0), slot, F * V).ravel()
            n_rows = np.bincount(counted, minlength=F * V + 1)[: F * V].reshape(F, V)
            s = score_multiway_many(counts.reshape(F, V, C), unknown.reshape(F, C))
            usable = branches_ok_many(n_rows, self.min_samples_leaf).tolist()
            gains, ivs = s.gain.tolist(), s.iv.tolist()
            for f, j in enumerate(feats):
                if not usable[f]:
                    out[j] = None
                    continue
                gain, iv = gains[f], ivs[f]
                score = gain if self.criterion == "gain" else (gain / iv if iv > 0 else 0.0)
                out[j] = (gain, score)
        return out

    def _apply(
        self,
        asm: TreeAssembler,
        X: np.ndarray,
        y: np.ndarray,
        node: int,
        rows: np.ndarray,
        wl: np.ndarray,
        used: frozenset[int],
        best: _Test,
    ) -> list[_Task]:
        """Make ``node`` the chosen test and add its children (empty branches as leaves)."""
        _, gain, j, kind, payload, _ = best
        counts = asm.node(node)["value"]
        C = self._C
        y_loc = y[rows]
        x = X[rows, j]
        if kind == "thr":
            assert payload is not None  # a threshold test carries its cut
            b = branch_index(x, cuts=[payload])
            V = 2
            asm.set_split(node, j, cuts=[payload], missing_branch=DISTRIBUTE)
            child_used = used
        else:
            b, V = self._branches(j, x)
            if kind == "cat":
                asm.set_split(node, j, cat_branch=np.arange(V), missing_branch=DISTRIBUTE)
            else:
                asm.set_split(node, j, cuts=self.plan_[j][1], missing_branch=DISTRIBUTE)
            child_used = used | {j}
        kids = []
        for pos, cw in distribute_rows(b, wl, V)[0]:
            if pos.size == 0:
                asm.add_node(node, counts, 0.0, 0, 0.0)  # empty branch: parent's distribution
                continue
            cc = np.bincount(y_loc[pos], weights=cw, minlength=C)
            child = asm.add_node(node, cc, cc.sum(), int(np.sum(cw > 0)), float(entropy(cc)))
            kids.append((child, rows[pos], cw, child_used))
        return kids
