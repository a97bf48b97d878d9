"""``C45Classifier``: C4.5 release 8 as an estimator (growth, collapse, error-based pruning)."""

from __future__ import annotations

import numpy as np

from dtcore import history
from dtcore.base import BaseTreeEstimator
from dtcore.c45.growth import Grower, collapse_undone
from dtcore.c45.rules import THRESHOLD_RULES
from dtcore.entropy.multiway import set_entropy_impurity
from dtcore.params import Param

# the module, not its names: dtcore.pruning.ebp imports dtcore.c45.growth, so whichever of the
# two packages is imported first, the other is then partly initialised
from dtcore.pruning import ebp
from dtcore.pruning.collapse import collapse
from dtcore.tree import Tree


class C45Classifier(BaseTreeEstimator):
    """Quinlan's C4.5 release 8 (and Weka's J48), with named textbook variants.

    Categorical features split one branch per category, continuous ones at one threshold; rows
    with a missing value go down every branch with fractional weights; the grown tree is
    collapsed and pruned by error-based pruning (``dtcore.pruning.ebp``). The package docstring
    of ``dtcore.c45`` lists where we follow J48 rather than release 8, and why.

    Parameters
    ----------
    criterion : {"gain_ratio", "gain"}, default="gain_ratio"
        "gain_ratio": release 8's rule, the best gain ratio among the tests with at least the
        average gain; "gain": the largest gain, no average rule.
    threshold : {"r8", "j48", "midpoint"}, default="r8"
        The stored threshold of a continuous cut: "r8", release 8's, the largest training
        value ≤ the midpoint, with the midpoint and the comparison in single precision as
        release 8 computes them (its values are C ``float``; the float32 rounding decides
        which value is stored, e.g. diabetes' pedi <= 0.561 where float64 gives 0.56); "j48",
        J48's value (its data-order scan with a 1e-6 tolerance); or "midpoint", the midpoint
        itself (the textbooks); see ``dtcore.c45.rules.snap_threshold``.
    mdl_penalty : bool, default=True
        Subtract log2(candidate cuts)/N from a continuous feature's gain (release 8).
    min_cases : float, default=2
        MINOBJS (``-m`` in release 8, ``-M`` in J48): at least two branches must hold this
        much weight.
    confidence_factor : float, default=0.25
        CF of error-based pruning; smaller prunes more.
    z : {"c45", "normal"} or float, default="c45"
        The deviate for CF: release 8's interpolated table, the exact normal quantile (J48),
        or a number.
    subtree_raising : bool, default=True
        Let pruning replace a test by its largest branch.
    prune : bool, default=True
        Run error-based pruning after growth.
    collapse : bool, default=True
        Undo splits that do not reduce the training errors (release 8's collapse).

    Attributes
    ----------
    tree_ : Tree
        The fitted (collapsed, pruned) tree as flat arrays.
    unpruned_tree_ : Tree
        The tree before error-based pruning.
    pruning_report_ : EBPReport or None
        What pruning did (None when ``prune=False``).
    grown_tree_, build_order_, build_rule_, prune_steps_
        The tree as grown, its splits in release 8's depth-first order, and the collapse and
        pruning steps that lead to ``tree_`` (``dtcore.history``).
    growth_stats_ : GrowthStats
        How often each feature was split on during growth.
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
    >>> from dtcore.c45 import C45Classifier
    >>> X = np.array([["sunny", 85], ["sunny", 80], ["overcast", 83], ["rain", 70],
    ...               ["rain", 68], ["rain", 65], ["overcast", 64], ["sunny", 72],
    ...               ["sunny", 69], ["rain", 75], ["sunny", 75], ["overcast", 72],
    ...               ["overcast", 81], ["rain", 71]], dtype=object)
    >>> y = ["no", "no", "yes", "yes", "yes", "no", "yes", "no", "yes", "yes", "yes", "yes",
    ...      "yes", "no"]
    >>> clf = C45Classifier(prune=False).fit(X, y, feature_names=["outlook", "humidity"])
    >>> clf.predict(np.array([["sunny", 90]], dtype=object)).tolist(), clf.get_n_leaves()
    (['no'], 4)
    """

    _task = "classification"
    algorithm = "c45"
    _criteria = ("gain_ratio", "gain")  # the default first
    ui_params: tuple[Param, ...] = (
        Param("threshold", "select", "r8", THRESHOLD_RULES),
        Param("mdl_penalty", "bool", True),
        Param("min_cases", "int", 2, lo=1, hi=1000, step=1),
        Param("prune", "bool", True),
        Param("confidence_factor", "float", 0.25, lo=0.001, hi=0.5, step=0.01),
        Param("z", "select", "c45", ("c45", "normal")),
        Param("subtree_raising", "bool", True),
        Param("collapse", "bool", True),
    )

    def __init__(
        self,
        criterion: str = "gain_ratio",
        threshold: str = "r8",
        mdl_penalty: bool = True,
        min_cases: float = 2,
        confidence_factor: float = 0.25,
        z: float | str = "c45",
        subtree_raising: bool = True,
        prune: bool = True,
        collapse: bool = True,
    ) -> None:
        self.criterion = criterion
        self.threshold = threshold
        self.mdl_penalty = mdl_penalty
        self.min_cases = min_cases
        self.confidence_factor = confidence_factor
        self.z = z
        self.subtree_raising = subtree_raising
        self.prune = prune
        self.collapse = collapse

    def _validate_params(self) -> None:
        if self.criterion not in ("gain_ratio", "gain"):
            raise ValueError(f"criterion must be 'gain_ratio' or 'gain', not {self.criterion!r}")
        if self.threshold not in THRESHOLD_RULES:
            raise ValueError(f"threshold must be one of {list(THRESHOLD_RULES)}, not {self.threshold!r}")
        if not (isinstance(self.min_cases, (int, float)) and self.min_cases >= 1):
            raise ValueError(f"min_cases must be a number ≥ 1, not {self.min_cases!r}")
        if not 0 < float(self.confidence_factor) < 1:
            raise ValueError("confidence_factor must be between 0 and 1 (C4.5's default is 0.25)")
        ebp.z_value(float(self.confidence_factor), self.z)

    def _grow(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> Tree:
        grower = Grower(self, X, y, sample_weight)
        asm = grower.grow()
        self.growth_stats_ = grower.stats
        grown = set_entropy_impurity(asm.build())
        steps: list[history.PruneStep] = []
        tree, kept = grown, np.arange(grown.node_count)
        if self.collapse:
            undone = [(asm.new_ids[i], a, b) for i, a, b in collapse_undone(asm)]
            if undone:
                steps = history.collapse_steps(undone)
                tree, kept = collapse(grown, [u[0] for u in undone])
        self.unpruned_tree_ = tree
        self.pruning_report_ = None
        if self.prune:
            tree, self.pruning_report_ = ebp.ebp_prune(
                tree,
                X,
                y,
                sample_weight,
                cf=float(self.confidence_factor),
                z=self.z,
                subtree_raising=bool(self.subtree_raising),
                record_refits=True,
            )
            steps += ebp.ebp_steps(self.pruning_report_, kept)
        # release 8 grows depth-first: its split order is the grown tree's pre-order
        history.record(self, grown, np.flatnonzero(~grown.is_leaf), "depth_first", steps)
        return tree
