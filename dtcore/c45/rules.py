"""C4.5 release 8's decision rules: the one home the builder (``dtcore.c45.growth``) and the
split explorer (``dtcore.explain``) both call, so what the explorer shows is what the builder
does.

* :func:`leaf_reason` / :func:`is_leaf`: a node with fewer than 2·MINOBJS cases, or of one
  class, is a leaf;
* :func:`select_test`: release 8's selection among the scored tests (best gain ratio among
  those with at least the average gain, or plain gain);
* :func:`snap_threshold`: the threshold stored for a continuous cut, by ``threshold=``:
  ``"r8"`` (default, SPEC §9) the largest training value ≤ the float64 midpoint, compared
  strictly; ``"j48"`` J48's setSplitPoint, a scan of the training values in data order that
  moves on only to a value ≤ midpoint (within 1e-6) greater than the kept one by more than 1e-6;
  ``"midpoint"`` the midpoint itself (the textbooks).

Where release 8 and J48 differ in a way that can change a tree's growth, we follow J48 (the
oracle our tests run): comparisons of gains and ratios use Weka's tolerance (``SMALL`` = 1e-6,
``Utils.gr``) where release 8 compares single-precision floats exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from dtcore.criteria import SMALL
from dtcore.entropy.cutpoints import pick_j48

COLLAPSE_EPS = 1e-3  # release 8's Epsilon in FormTree's collapse test (J48 uses the same)
AVERAGE_EPS = 1e-3  # gain ≥ average − ε
SNAP_TOL = 1e-6  # J48's tolerance when snapping a threshold to a training value (threshold="j48")

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


THRESHOLD_RULES = ("r8", "j48", "midpoint")  # the default first


class SnapValues(NamedTuple):
    """A feature's known training values, as :func:`snap_threshold` searches them."""

    sorted: np.ndarray  # ascending
    in_order: np.ndarray  # in training-row order (J48's scan)


def snap_values(column: ArrayLike) -> SnapValues:
    """The known values of a feature's training column (NaN = missing), sorted and in order."""
    column = np.asarray(column, dtype=np.float64)
    known = column[~np.isnan(column)]
    return SnapValues(np.sort(known), known)


def snap_threshold(values: SnapValues, mid: float, threshold: str = "r8") -> float:
    """The threshold stored for a cut at midpoint ``mid`` (``values`` from :func:`snap_values`).

    ``"r8"``: release 8, the largest training value ≤ ``mid`` compared strictly in float64 (the
    midpoint of two decimals can land just below a value equal to the exact midpoint:
    (14.95 + 14.99) / 2 = 14.969999999999999 gives 14.96 on breast_cancer).
    ``"j48"``: J48's setSplitPoint: over the known training values in data order, keep a value
    v with ``v − mid < 1e-6`` (or v ≤ mid) when it exceeds the kept one by more than 1e-6
    (Weka's ``Utils.gr`` / ``smOrEq``).  ``"midpoint"``: ``mid`` itself.
    The node's own partition cannot change: its values next to the cut are > 1e-5 apart.
    """
    if threshold == "midpoint":
        return mid
    s = values.sorted
    if threshold == "r8":
        k = int(np.searchsorted(s, mid, side="right"))
        return float(s[k - 1]) if k > 0 else mid
    if threshold != "j48":
        raise ValueError(f"threshold must be one of {THRESHOLD_RULES}, not {threshold!r}")
    # the values J48 may keep form a prefix of the sorted ones (float subtraction is monotone)
    k = int(np.count_nonzero((s - mid < SNAP_TOL) | (s <= mid)))
    if k == 0:
        return mid
    top = s[k - 1]
    below = int(np.searchsorted(s, top, side="left"))
    # the kept value ends within 1e-6 of the largest one; when no other value is that close the
    # scan must end on it, whatever the order (the common case, no pass over the rows)
    if below == 0 or top - s[below - 1] > SNAP_TOL:
        return float(top)
    v = values.in_order
    g = v[(v - mid < SNAP_TOL) | (v <= mid)]
    return float(g[pick_j48(g, SNAP_TOL, start=-np.inf)])
