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

import numpy as np

from dtcore import history
from dtcore.base import BaseTreeEstimator
from dtcore.entropy.discretize import METHODS as BIN_METHODS
from dtcore.entropy.discretize import check_bins
from dtcore.id3.growth import Limits, grow
from dtcore.id3.rules import feature_plan
from dtcore.params import GROWTH_LIMITS, Param
from dtcore.tree import Tree

CONTINUOUS_MODES = BIN_METHODS + ("threshold",)


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
        # per feature: ("cat", n_branches) | ("bins", cuts) | ("thr", None)
        self.plan_, self.bin_edges_ = feature_plan(schema, X, self.continuous, self.n_bins, self.random_state)
        limits = Limits(
            self.criterion,
            self.min_samples_split,
            self.min_samples_leaf,
            self.max_depth,
            self.min_impurity_decrease,
        )
        y = np.asarray(y, dtype=np.int64)
        w = np.asarray(sample_weight, dtype=np.float64)
        tree, order = grow(X, y, w, self.plan_, len(schema.classes), limits, self.max_leaf_nodes)
        rule = "depth_first" if self.max_leaf_nodes is None else "best_first"
        history.record(self, tree, order, rule)  # ID3 never prunes
        return tree
