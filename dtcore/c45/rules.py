"""C4.5 release 8's decision rules: the one home the builder (``dtcore.c45.growth``) and the
split explorer (``dtcore.explain``) both call, so what the explorer shows is what the builder
does.

* :func:`leaf_reason` / :func:`is_leaf`: a node with fewer than 2·MINOBJS cases, or of one
  class, is a leaf;
* :func:`select_test`: release 8's selection among the scored tests (best gain ratio among
  those with at least the average gain, or plain gain);
* :func:`snap_threshold`: the threshold stored for a continuous cut, by ``threshold=``:
  ``"r8"`` (default, SPEC §9) release 8's: the midpoint of the two neighbouring values computed
  in single precision (release 8 holds values as C ``float``), then the largest training value
  whose float32 is ≤ it; ``"j48"`` J48's setSplitPoint, a scan of the training values in data order that
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
from dtcore.entropy.cutpoints import cut_midpoint, pick_j48

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
    sorted_single: np.ndarray  # ``sorted`` as float32, release 8's ``float`` (still ascending)


def snap_values(column: ArrayLike) -> SnapValues:
    """The known values of a feature's training column (NaN = missing), sorted and in order."""
    column = np.asarray(column, dtype=np.float64)
    known = column[~np.isnan(column)]
    s = np.sort(known)
    with np.errstate(over="ignore"):  # beyond float32's range: ±inf, as a C float would hold
        single = s.astype(np.float32)
    return SnapValues(s, known, single)


def r8_midpoint(lo: float, hi: float) -> np.float32:
    """Release 8's cut between neighbours ``lo`` < ``hi``: ``(Val[i] + Val[i+1]) / 2`` with
    ``float`` (single-precision) values, computed in float32.  It is not the float64 midpoint
    rounded to float32 (rounding once more can land on the other side of a value), so it is
    taken from the two values."""
    with np.errstate(over="ignore"):
        return (np.float32(lo) + np.float32(hi)) / np.float32(2)


def snap_threshold(values: SnapValues, lo: float, hi: float, threshold: str = "r8") -> float:
    """The threshold stored for a cut between a node's neighbouring values ``lo`` < ``hi``
    (``values`` from :func:`snap_values`; the midpoint is ``cutpoints.cut_midpoint(lo, hi)``).

    ``"r8"``: release 8, which holds values as single-precision ``float``: its midpoint
    :func:`r8_midpoint`, then the largest training value v with float32(v) ≤ that midpoint
    (GreatestValueBelow).  The float32 rounding decides the stored value: diabetes' pedi
    between 0.557 and 0.565 gives 0.56099999 = float32(0.561), so 0.561 (the float64 midpoint
    0.5609999999999999 gives 0.56); mass between 26.8 and 27.4 gives 27.0999985 <
    float32(27.1), so 27 (float64: 27.1); breast_cancer's mean radius between 14.95 and 14.99 gives
    14.9699993 < float32(14.97), so 14.96.  The value is kept below ``hi`` (in float64), so the
    node's partition is the one scored even where float32 cannot tell ``lo`` and ``hi`` apart
    (release 8 would not have cut between them).
    ``"j48"``: J48's setSplitPoint: over the known training values in data order, keep a value
    v with ``v − mid < 1e-6`` (or v ≤ mid) when it exceeds the kept one by more than 1e-6
    (Weka's ``Utils.gr`` / ``smOrEq``).  ``"midpoint"``: ``mid`` itself.
    The node's own partition cannot change: its values next to the cut are > 1e-5 apart.
    """
    if threshold not in THRESHOLD_RULES:
        raise ValueError(f"threshold must be one of {THRESHOLD_RULES}, not {threshold!r}")
    mid = float(cut_midpoint(lo, hi))
    if threshold == "midpoint":
        return mid
    s = values.sorted
    if threshold == "r8":
        # float32 is monotone, so the values with float32(v) ≤ the midpoint are a prefix
        k = int(np.searchsorted(values.sorted_single, r8_midpoint(lo, hi), side="right"))
        k = min(k, int(np.searchsorted(s, hi, side="left")))
        return float(s[k - 1]) if k > 0 else mid
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
