"""C4.5 release 8's decision rules: the one home the builder (``dtcore.c45.growth``) and the
split explorer (``dtcore.explain``) both call, so what the explorer shows is what the builder
does.

* :func:`leaf_reason` / :func:`is_leaf`: a node with fewer than 2·MINOBJS cases, or of one
  class, is a leaf;
* :func:`select_test`: release 8's selection among the scored tests (best gain ratio among
  those with at least the average gain, or plain gain);
* :func:`snap_threshold`: the threshold stored for a continuous cut.

Where release 8 and J48 differ in a way that can change a tree, we follow J48 (the oracle our
tests run): comparisons of gains and ratios use Weka's tolerance (``SMALL`` = 1e-6,
``Utils.gr``) where release 8 compares single-precision floats exactly, and the stored
threshold is the largest training value ≤ midpoint + ``SNAP_TOL`` (J48's setSplitPoint), not
strictly ≤ the float64 midpoint (see :func:`snap_threshold`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ..multiway import SMALL

COLLAPSE_EPS = 1e-3  # release 8's Epsilon in FormTree's collapse test (J48 uses the same)
AVERAGE_EPS = 1e-3  # gain ≥ average − ε
SNAP_TOL = 1e-6  # J48's tolerance when snapping a threshold to a training value

#: a categorical feature with at least this share of the rows as values stays out of the
#: average gain (unless every feature is such a one)
MANY_VALUES_SHARE = 0.3


# =============================================================================================
# stop rule


def leaf_reason(N: float, counts: np.ndarray, min_cases: float) -> str | None:
    """Why release 8 makes a node of weight ``N`` and class ``counts`` a leaf before scoring
    tests: ``"min_cases"`` (N < 2·MINOBJS), ``"pure"`` (one class), None (try to split)."""
    if 2 * min_cases - SMALL > N:
        return "min_cases"
    if abs(N - counts.max()) < SMALL:
        return "pure"
    return None


def is_leaf(N: float, counts: np.ndarray, min_cases: float) -> bool:
    """True when :func:`leaf_reason` stops the node."""
    return leaf_reason(N, counts, min_cases) is not None


# =============================================================================================
# selection


def many_values(n_categories: int, n_rows: int) -> bool:
    """A categorical feature with many values (≥ 0.3 × training rows): kept out of the average
    gain unless all features are such (release 8's MultiVal)."""
    return n_categories >= MANY_VALUES_SHARE * n_rows


class Selection(NamedTuple):
    best: int | None  # index into the candidates, None: no test (a leaf)
    average: float | None  # the average gain over the pool (None for criterion="gain")
    above_average: list | None  # per candidate: gain ≥ average − AVERAGE_EPS


def select_test(
    gains: Sequence[float], ratios: Sequence[float], in_pool: Sequence[bool], criterion: str = "gain_ratio"
) -> Selection:
    """Release 8's choice among a node's usable tests, given in feature (column) order — the
    order decides ties: a later test must be better by more than ``SMALL``.

    ``criterion="gain_ratio"``: the average gain over the tests ``in_pool`` (1e6 if none), then
    the best gain ratio among the tests whose gain ≥ average − ``AVERAGE_EPS``.
    ``criterion="gain"``: the largest gain (no average rule).  A test must beat 0 by more than
    ``SMALL``; else ``best`` is None.
    """
    best, best_val = None, 0.0
    if criterion == "gain":
        for k, g in enumerate(gains):
            if g - best_val > SMALL:
                best, best_val = k, g
        return Selection(best, None, None)
    pool = [g for g, p in zip(gains, in_pool) if p]
    avg = sum(pool) / len(pool) if pool else 1e6
    above = []
    for k, (g, r) in enumerate(zip(gains, ratios)):
        ok = g >= avg - AVERAGE_EPS
        above.append(ok)
        if ok and r - best_val > SMALL:
            best, best_val = k, r
    return Selection(best, avg, above)


# =============================================================================================
# thresholds


def sorted_known(column: ArrayLike) -> np.ndarray:
    """A feature's known training values, sorted (what :func:`snap_threshold` searches)."""
    column = np.asarray(column)
    return np.sort(column[~np.isnan(column)])


def snap_threshold(sorted_values: np.ndarray, mid: float, threshold: str = "c45") -> float:
    """The threshold stored for a cut at midpoint ``mid``: the largest training value of the
    feature (``sorted_values``, from :func:`sorted_known`) that is ≤ the midpoint (release 8),
    or the midpoint itself when ``threshold="midpoint"``."""
    if threshold == "midpoint":
        return mid
    # Deviation from "compare strictly" (SPEC §9), as J48's setSplitPoint: values up to 1e-6
    # above the float64 midpoint count, because the midpoint of two decimals can land just
    # below a training value equal to the exact midpoint ((14.95 + 14.99) / 2 =
    # 14.969999999999999 while 14.97 is a value: breast_cancer).  The node's own partition
    # cannot change: its values next to the cut are more than 1e-5 apart.
    k = np.searchsorted(sorted_values, mid + SNAP_TOL, side="right")
    return float(sorted_values[k - 1]) if k > 0 else mid
