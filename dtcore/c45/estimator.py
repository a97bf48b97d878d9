"""``C45Classifier``: C4.5 release 8 as an estimator (growth, collapse, error-based pruning)."""
from __future__ import annotations

from ..base import BaseTreeEstimator
from ..params import Param
# the module, not its names: dtcore.pruning.ebp imports dtcore.c45.growth, so whichever of the
# two packages is imported first, the other is then partly initialised
from ..pruning import ebp
from ..tree import Tree
from .growth import _collapse, _Grower, _set_impurity


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
    _criteria = ("gain_ratio", "gain")  # the default first
    ui_params: tuple[Param, ...] = (
        Param("threshold", "select", "c45", ("c45", "midpoint")),
        Param("mdl_penalty", "bool", True),
        Param("min_cases", "int", 2, lo=1, hi=1000, step=1),
        Param("prune", "bool", True),
        Param("confidence_factor", "float", 0.25, lo=0.001, hi=0.5, step=0.01),
        Param("z", "select", "c45", ("c45", "normal")),
        Param("subtree_raising", "bool", True),
        Param("collapse", "bool", True),
    )

    def __init__(self, criterion: str = "gain_ratio", threshold: str = "c45", mdl_penalty: bool = True,
                 min_cases: float = 2, confidence_factor: float = 0.25, z: float | str = "c45",
                 subtree_raising: bool = True, prune: bool = True, collapse: bool = True) -> None:
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
        ebp.z_value(float(self.confidence_factor), self.z)

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
            tree, self.pruning_report_ = ebp.ebp_prune(
                tree, X, y, sample_weight, cf=float(self.confidence_factor), z=self.z,
                subtree_raising=bool(self.subtree_raising))
        return tree

