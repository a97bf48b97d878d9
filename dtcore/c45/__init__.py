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
* the stored threshold (``threshold=``) is release 8's by default, ``"r8"`` (SPEC §9): the
  midpoint of the node's two neighbouring values computed in single precision, as release 8
  does with its C ``float`` values, then the largest training value whose float32 is ≤ it.
  Single precision because the stored value depends on that rounding and cannot be recovered
  from the float64 midpoint: diabetes ``pedi <= 0.561`` (float32 midpoint = float32(0.561);
  float64 would give 0.56), ``mass <= 27`` (27.0999985 < float32(27.1); float64 would give
  27.1), breast_cancer ``mean radius <= 14.96``.  ``"j48"`` is J48's setSplitPoint, a scan in
  data order with Weka's 1e-6 tolerance (``mean radius <= 14.97``), which the J48 comparisons
  use; ``"midpoint"`` the textbooks' midpoint;
* ``z="normal"`` is Weka's ``Stats.addErrs`` as a whole: the exact normal quantile
  (0.6745 at CF 0.25) and ``N − e`` (not release 8's ``0.67·(N − e)``) when ``e + 0.5 ≥ N``.
  ``z="c45"`` (default) is release 8's AddErrs with its table-interpolated 0.6925.

Release 8 computes in single precision; we use float64 throughout, except for the ``"r8"``
threshold's midpoint (above).

Modules: ``rules`` (the decision rules the builder and ``dtcore.explain`` share), ``growth``
(the level-wise grower and collapse), ``estimator`` (``C45Classifier``).  Error estimates and
error-based pruning are ``dtcore.pruning.ebp``; J48's text form is ``dtcore.export.j48``.
"""

from dtcore.c45.estimator import C45Classifier
from dtcore.c45.growth import GrowthStats
from dtcore.c45.rules import (
    AVERAGE_EPS,
    COLLAPSE_EPS,
    SNAP_TOL,
    THRESHOLD_RULES,
    select_test,
    snap_threshold,
    snap_values,
)

__all__ = [
    "AVERAGE_EPS",
    "COLLAPSE_EPS",
    "C45Classifier",
    "GrowthStats",
    "SNAP_TOL",
    "THRESHOLD_RULES",
    "select_test",
    "snap_threshold",
    "snap_values",
]
