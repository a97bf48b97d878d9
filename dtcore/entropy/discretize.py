"""Turning a continuous column into intervals, so ID3/C4.5 can split it multiway.

Every function returns the full edge list ``[min, inner edges…, max]`` of one column (missing
values ignored).  A tree uses the *inner* edges as the cuts of an interval test:
interval k holds ``edges[k] < x ≤ edges[k+1]`` (the first one also holds x = min), which is
``searchsorted(inner, x, side="left")`` in ``dtcore.tree``.

* ``interval_edges`` — seed 000 (§8.6.1): sorted distinct values, their midpoints, min and max,
  so every distinct training value gets an interval of its own.  Deviation: the seed rounds the
  midpoints to 4 decimals; we keep them in full float64 (rounding could put an edge on a value).
* ``equal_width_edges`` / ``equal_frequency_edges`` / ``kmeans_edges`` — the pre-binning options
  of seed 002.  Duplicate edges (ties, constant columns) are dropped, so a bin is never empty by
  construction.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

METHODS = ("intervals", "equal_width", "equal_frequency", "kmeans")


def _known(x: ArrayLike) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64).ravel()
    return x[~np.isnan(x)]


def interval_edges(x: ArrayLike) -> np.ndarray:
    """[min, midpoints of adjacent distinct values…, max] (seed 000)."""
    v = np.unique(_known(x))
    if v.size == 0:
        return np.empty(0)
    return np.concatenate(([v[0]], (v[:-1] + v[1:]) / 2.0, [v[-1]]))


def interval_edges_by_column(X: ArrayLike) -> dict[int, list[float]]:
    """Seed 000's ``_get_feature_values``: column index → edge list."""
    X = np.asarray(X, dtype=np.float64)
    return {j: interval_edges(X[:, j]).tolist() for j in range(X.shape[1])}


def equal_width_edges(x: ArrayLike, n_bins: int) -> np.ndarray:
    """n_bins intervals of equal width between min and max."""
    check_bins(n_bins)
    v = _known(x)
    if v.size == 0:
        return np.empty(0)
    lo, hi = float(v.min()), float(v.max())
    if lo == hi:
        return np.array([lo, hi])
    return np.linspace(lo, hi, n_bins + 1)


def equal_frequency_edges(x: ArrayLike, n_bins: int) -> np.ndarray:
    """Quantile edges (about the same number of rows per interval); tied quantiles merge."""
    check_bins(n_bins)
    v = _known(x)
    if v.size == 0:
        return np.empty(0)
    edges = np.quantile(v, np.linspace(0.0, 1.0, n_bins + 1))
    return np.unique(edges)


def kmeans_edges(x: ArrayLike, n_bins: int, random_state: int = 0, max_iter: int = 100) -> np.ndarray:
    """1-D k-means (Lloyd's algorithm, seeded k-means++ start); edges are midpoints between
    adjacent sorted centres."""
    check_bins(n_bins)
    v = _known(x)
    if v.size == 0:
        return np.empty(0)
    distinct = np.unique(v)
    k = min(n_bins, distinct.size)
    lo, hi = float(v.min()), float(v.max())
    if k <= 1:
        return np.array([lo, hi])
    rng = np.random.default_rng(random_state)
    centres = [rng.choice(distinct)]
    for _ in range(1, k):  # k-means++: next centre with probability ∝ squared distance
        d2 = np.min((distinct[:, None] - np.array(centres)[None, :]) ** 2, axis=1)
        centres.append(
            distinct[rng.choice(distinct.size, p=d2 / d2.sum())]
            if d2.sum() > 0
            else distinct[rng.integers(distinct.size)]
        )
    c = np.sort(np.array(centres, dtype=np.float64))
    for _ in range(max_iter):
        mids = (c[:-1] + c[1:]) / 2.0
        label = np.searchsorted(mids, v, side="left")
        sums = np.bincount(label, weights=v, minlength=c.size)
        cnt = np.bincount(label, minlength=c.size)
        new = np.where(cnt > 0, sums / np.maximum(cnt, 1), c)
        new = np.sort(new)
        if np.allclose(new, c, rtol=0, atol=1e-12 * max(1.0, hi - lo)):
            c = new
            break
        c = new
    c = np.unique(c)
    inner = (c[:-1] + c[1:]) / 2.0
    return np.concatenate(([lo], inner, [hi]))


def edges_for(x: ArrayLike, method: str, n_bins: int = 5, random_state: int = 0) -> np.ndarray:
    """Dispatch by method name (one of METHODS)."""
    if method == "intervals":
        return interval_edges(x)
    if method == "equal_width":
        return equal_width_edges(x, n_bins)
    if method == "equal_frequency":
        return equal_frequency_edges(x, n_bins)
    if method == "kmeans":
        return kmeans_edges(x, n_bins, random_state)
    raise ValueError(f"unknown discretisation {method!r}; choose one of {METHODS}")


def inner_edges(edges: ArrayLike) -> np.ndarray:
    """The cut points a tree stores: the edges without min and max."""
    e = np.asarray(edges, dtype=np.float64)
    return e[1:-1] if e.size > 2 else np.empty(0)


def check_bins(n_bins: float) -> None:
    """The one rule for a bin count (the binning functions and ID3's parameters check it)."""
    if int(n_bins) != n_bins or n_bins < 2:
        raise ValueError(f"n_bins must be an integer ≥ 2, not {n_bins!r}")
