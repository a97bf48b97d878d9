"""Bins of every feature: at most ``max_bins`` per feature plus one for missing values.

The edges are scikit-learn 1.9's (``ensemble._hist_gradient_boosting.binning._BinMapper`` with
``n_bins=max_bins + 1``, its ``bin_thresholds_``), without importing it:

* Rows of zero weight are left out, then NaN.  A continuous feature whose known values form at
  most ``max_bins`` groups is binned **exactly**: one bin per group, the edges the midpoints
  between neighbouring groups (``hi[b]/2 + lo[b+1]/2``, scikit-learn's ``(a + b)/2``: the same
  float).  A group is distinct values whose sorted neighbours lie within
  ``cart.splitter.FEATURE_THRESHOLD`` (1e-7) of each other (the exact splitter never cuts
  there); with values further apart a group is one value, scikit-learn's rule.  A bin keeps its
  smallest and largest value (``lo``, ``hi``).
* Otherwise by **quantiles**: the percentiles ``100·k/max_bins`` (k = 1 … max_bins − 1) by
  ``np.percentile(method="averaged_inverted_cdf")``, or with sample weights scikit-learn's
  weighted averaged inverted CDF (:func:`weighted_percentiles`); duplicates dropped, capped at
  ``ALMOST_INF``.  Bin b holds ``edges[b−1] < x ≤ edges[b]``; a bin may be empty (the largest
  value tied over more than one percentile).
* Past ``SAMPLE_ROWS`` rows the quantiles come from scikit-learn's subsample: ``SAMPLE_ROWS``
  rows drawn with replacement by ``np.random.RandomState(SAMPLE_SEED).choice`` (probabilities
  ∝ weight), then unweighted — ``_BinMapper(random_state=0)``'s draw.
* A categorical feature's bins are its category codes.
* Missing values (NaN) go to one more bin, the last: code ``n_bins``.

Where the edges differ from scikit-learn's, on purpose (so that ``splitter="hist"`` grows the
exact splitter's tree): distinct values within 1e-7 of a neighbour share a bin (scikit-learn
bins them apart, and bins by quantiles when they number more than ``max_bins``); exact bins hold
every value of the column, not only the subsample's; an exact edge is the smaller neighbour when
``a/2 + b/2`` rounds up to b or overflows (scikit-learn keeps b, or caps at ``ALMOST_INF``).
Weights that are all equal bin as no weights (scikit-learn fitted without ``sample_weight``).

Thresholds (:meth:`FeatureBins.threshold`): a cut between the node's non-empty bins b and b′
(b < b′, the bins between them empty at that node) is, for an exact feature, the exact
splitter's midpoint ``hi[b]/2 + lo[b′]/2`` (``cart.splitter.midpoints``); for a quantile feature the
upper edge of bin b, ``edges[b]``.  So when every feature has at most ``max_bins`` distinct
values (further apart than 1e-7), ``splitter="hist"`` sees the same candidates with the same
thresholds as ``splitter="best"``.

The edges are a function of (complete distinct values, or a sample): :func:`feature_bins` takes
them from wherever they were gathered, in memory or across the partitions of a Dask frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dtcore.cart.splitter import FEATURE_THRESHOLD, midpoints

DEFAULT_MAX_BINS = 255
SAMPLE_ROWS = 200_000  # past this many rows the quantiles come from a subsample (scikit-learn's)
SAMPLE_SEED = 0  # the subsample's RandomState seed (scikit-learn's _BinMapper(random_state=0))
ALMOST_INF = 1e300  # scikit-learn's cap on an edge (only a split on NaN may be +inf)


@dataclass(frozen=True)
class FeatureBins:
    """How one feature's values map to bins."""

    kind: str  # "exact", "quantile" or "categorical"
    n_bins: int  # known bins; the missing bin is code n_bins
    edges: np.ndarray  # continuous: n_bins − 1 upper edges, bin = searchsorted(edges, x, "left")
    lo: np.ndarray  # exact: smallest value of each bin
    hi: np.ndarray  # exact: largest value of each bin

    def codes(self, x: np.ndarray) -> np.ndarray:
        """Bin code of every value (int64), NaN → ``n_bins``."""
        x = np.asarray(x, dtype=np.float64)
        nan = np.isnan(x)
        if self.kind == "categorical":
            code = np.where(nan, self.n_bins, np.nan_to_num(x, nan=0.0)).astype(np.int64)
            return np.where((code < 0) | (code > self.n_bins), self.n_bins, code)
        out = edge_codes(self.edges, x)
        out[nan] = self.n_bins
        return out

    def threshold(self, b: np.ndarray, b_next: np.ndarray) -> np.ndarray:
        """Thresholds of cuts between known bins b and b_next (the next non-empty one)."""
        if self.kind == "exact":
            return midpoints(self.hi[b], self.lo[b_next])
        return self.edges[b].astype(np.float64)


@dataclass(frozen=True)
class Bins:
    """Every feature's bins, and the flat layout of a histogram over them: feature f owns bins
    ``offset[f] … offset[f] + n_bins_f`` (the last one its missing bin)."""

    features: tuple[FeatureBins, ...]

    @property
    def n_bins(self) -> np.ndarray:
        return np.array([f.n_bins for f in self.features], dtype=np.int64)

    @property
    def offset(self) -> np.ndarray:
        size = self.n_bins + 1
        return np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)

    @property
    def total(self) -> int:
        return int(np.sum(self.n_bins + 1))

    @property
    def exact(self) -> bool:
        """True when no continuous feature is binned by quantiles."""
        return all(f.kind != "quantile" for f in self.features)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """(n_features, n_rows) bin codes, the smallest unsigned type that holds them."""
        X = np.asarray(X, dtype=np.float64)
        top = int(self.n_bins.max()) if self.features else 0
        out = np.empty((len(self.features), X.shape[0]), dtype=code_dtype(top))
        fast = [
            j
            for j, fb in enumerate(self.features)
            if fb.kind != "categorical" and edge_table(fb.edges) is not None
        ]
        if fast:
            table_codes(X, fast, [self.features[j].edges for j in fast], out)
        for j, fb in enumerate(self.features):  # a loop over features
            if j not in fast:
                out[j] = fb.codes(X[:, j])
        return out


#: edges below which ``edge_codes`` binary-searches (a short search costs less than its table)
TABLE_MIN_EDGES = 16
#: cells per edge of ``edge_codes``' table, and the most edges one cell may hold before it
#: falls back to the binary search (skewed columns, whose edges crowd into a few cells)
TABLE_CELLS_PER_EDGE = 8
TABLE_MAX_PER_CELL = 3


@dataclass(frozen=True)
class EdgeTable:
    """A continuous feature's codes by table instead of a binary search per value: equal cells
    over [edges[0], edges[-1]], the count of edges below each cell, the most edges in one cell.

    Exact: a value's cell, ``⌊(v − lo)·scale⌋`` clipped to [0, m − 1], is a non-decreasing
    function of v (each float operation is), so an edge in a lower cell than x lies below x and
    one in a higher cell above it: x's code (the edges below x, ``searchsorted(edges, x,
    "left")``) is the count of edges in lower cells plus those of its own cell below x, at most
    ``per_cell`` comparisons."""

    lo: float
    scale: float
    m: int  # cells
    below: np.ndarray  # (m,) edges in lower cells
    per_cell: int

    def cells(self, v: np.ndarray) -> np.ndarray:
        return _cells(v, self.lo, self.scale, self.m - 1)


def _cells(
    v: np.ndarray, lo: float | np.ndarray, scale: float | np.ndarray, top: int | np.ndarray
) -> np.ndarray:
    """``EdgeTable.cells`` (broadcast over a block's columns: one feature per column)."""
    with np.errstate(over="ignore", invalid="ignore"):
        t = np.subtract(v, lo)
        t *= scale
    np.fmax(t, 0.0, out=t)  # NaN → 0 (fmax drops NaN); its code is set apart
    np.fmin(t, top, out=t)
    return t.astype(np.int64)


def edge_table(edges: np.ndarray) -> EdgeTable | None:
    """The table of increasing ``edges``; None where a binary search is the better choice: few
    edges, or edges crowded into a few cells (a skewed column)."""
    ne = edges.size
    if ne < TABLE_MIN_EDGES:
        return None
    m = TABLE_CELLS_PER_EDGE * ne
    lo = float(edges[0])
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        scale = m / (float(edges[-1]) - lo)
    if not (np.isfinite(scale) and scale > 0):
        return None
    edge_cell = _cells(edges, lo, scale, m - 1)
    per_cell = int(np.bincount(edge_cell, minlength=m).max())
    if per_cell > TABLE_MAX_PER_CELL:
        return None
    return EdgeTable(lo, scale, m, np.searchsorted(edge_cell, np.arange(m), side="left"), per_cell)


def edge_codes(edges: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``np.searchsorted(edges, x, "left")`` (int64) for increasing ``edges`` and values that
    are not NaN (a NaN's code is the caller's to set): by :class:`EdgeTable` where it pays, a
    few passes without branches, several times faster than the binary search on 10⁶ values."""
    table = edge_table(edges)
    if table is None:
        return np.searchsorted(edges, x, side="left").astype(np.int64, copy=False)
    padded = np.r_[edges, np.full(table.per_cell, np.inf)]
    at = table.below.take(table.cells(x))
    out = at.copy()
    for i in range(table.per_cell):  # at most TABLE_MAX_PER_CELL passes over the values
        if i:
            at += 1
        out += padded.take(at) < x
    return out


#: rows per block of ``table_codes`` (a block's columns are read in place, its temporaries
#: stay in cache)
BLOCK_ROWS = 1 << 14


def table_codes(X: np.ndarray, cols: list[int], edges: list[np.ndarray], out: np.ndarray) -> bool:
    """``out[cols[i]] = `` the codes of ``X[:, cols[i]]`` under ``edges[i]`` (NaN →
    ``edges[i].size + 1``, the missing bin), every column of a block of rows at once on the
    row-major block, by :class:`EdgeTable`s (no strided pass per column).  False, and nothing
    written, when a column's edges have no table.

    The features' padded edges and cell counts sit end to end, each count offset to its
    feature's edges; a comparison past a cell's own edges meets a higher edge or the padding
    (+inf), which is never below x."""
    tables = [edge_table(e) for e in edges]
    if any(t is None for t in tables):
        return False
    tabs = [t for t in tables if t is not None]
    k = max(t.per_cell for t in tabs)
    padded = [np.r_[e, np.full(k, np.inf)] for e in edges]
    pad_at = np.cumsum([0] + [p.size for p in padded])[:-1]
    below = np.concatenate([t.below + o for t, o in zip(tabs, pad_at, strict=True)])
    cell_at = np.cumsum([0] + [t.m for t in tabs])[:-1]
    flat = np.concatenate(padded)
    lo, scale, top, missing, pad_at, cell_at = (
        np.array(v)[:, None]
        for v in (
            [t.lo for t in tabs],
            [t.scale for t in tabs],
            [t.m - 1 for t in tabs],
            [e.size + 1 for e in edges],
            pad_at,
            cell_at,
        )
    )
    sub = np.asarray(cols)
    whole = sub.size == X.shape[1] and bool(np.all(sub == np.arange(X.shape[1])))
    for a in range(0, X.shape[0], BLOCK_ROWS):  # a loop over blocks of rows
        rows = X[a : a + BLOCK_ROWS] if whole else X[a : a + BLOCK_ROWS, sub]
        block = np.ascontiguousarray(rows.T)  # (features, rows): long inner loops
        at = _cells(block, lo, scale, top)
        at += cell_at
        at = below.take(at)
        code = at - pad_at
        for i in range(k):  # at most TABLE_MAX_PER_CELL passes
            if i:
                at += 1
            code += flat.take(at) < block
        nan = np.isnan(block)
        if nan.any():
            code = np.where(nan, missing, code)
        out[sub, a : a + BLOCK_ROWS] = code
    return True


def code_dtype(top: int) -> type[np.unsignedinteger]:
    """The smallest unsigned type holding codes 0 … top."""
    return np.uint8 if top < 256 else np.uint16 if top < 65536 else np.uint32


def value_groups(distinct: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) of the groups of sorted distinct values whose neighbours lie within
    ``FEATURE_THRESHOLD`` (the exact splitter's "no cut here" rule)."""
    if distinct.size == 0:
        return distinct, distinct
    new = np.empty(distinct.size, dtype=bool)
    new[0] = True
    np.greater(distinct[1:], distinct[:-1] + FEATURE_THRESHOLD, out=new[1:])
    start = np.flatnonzero(new)
    end = np.r_[start[1:], distinct.size] - 1
    return distinct[start], distinct[end]


def percentile_ranks(max_bins: int) -> np.ndarray:
    """The percentiles the quantile edges sit at: ``100·k/max_bins``, k = 1 … max_bins − 1."""
    return np.linspace(0, 100, num=max_bins + 1)[1:-1]


def weighted_percentiles(values: np.ndarray, weights: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """scikit-learn 1.9's ``utils.stats._weighted_percentile(average=True)`` of 1-D values with
    positive weights, float for float: the first value whose cumulative weight reaches
    ``rank/100 · total``, or the mean of it and the next one when it reaches it exactly (within
    machine epsilon).  The values are argsorted as scikit-learn does (numpy's default, unstable
    sort), since the order of tied values' weights decides which cumulative weights exist."""
    order = np.argsort(values)
    v, w = values[order], weights[order]
    cdf = np.cumsum(w)
    target = ranks / 100 * cdf[-1]
    target = np.where(target == 0, np.nextafter(target, target + 1), target)
    last = v.size - 1
    i = np.minimum(np.searchsorted(cdf, target), last)
    above = cdf[i] - target > np.finfo(np.float64).eps
    return np.where(above, v[i], (v[i] + v[np.minimum(i + 1, last)]) / 2)


def quantile_edges(
    sample: np.ndarray,
    max_bins: int,
    sample_weight: np.ndarray | None = None,
    is_sorted: bool = False,
) -> np.ndarray:
    """scikit-learn 1.9's ``_find_binning_thresholds``: the increasing edges of a sample (NaN and
    zero-weight values left out): the midpoints of its distinct values when it has at most
    ``max_bins`` of them, else its percentiles (:func:`percentile_ranks`) by
    ``averaged_inverted_cdf``, weighted when ``sample_weight`` is given; duplicates dropped,
    capped at ``ALMOST_INF``.  ``is_sorted``: the sample is sorted (unweighted only)."""
    keep = ~np.isnan(sample)
    if sample_weight is not None:
        keep &= sample_weight != 0
    s = sample[keep]
    if sample_weight is not None:
        w = sample_weight[keep]
        order = np.argsort(s)  # scikit-learn sorts first, then again inside the percentile
        s, w = s[order], w[order]
    elif not is_sorted:
        s = np.sort(s)
    distinct = s[np.r_[True, s[1:] != s[:-1]]] if s.size else s
    if distinct.size <= 1:
        return np.zeros(0)
    if distinct.size <= max_bins:
        edges = (distinct[:-1] + distinct[1:]) / 2
    elif sample_weight is None:
        edges = np.percentile(s, percentile_ranks(max_bins), method="averaged_inverted_cdf")
    else:
        edges = weighted_percentiles(s, w, percentile_ranks(max_bins))
    edges = np.unique(edges)
    return np.minimum(edges, ALMOST_INF)


def feature_bins(
    distinct: np.ndarray | None,
    sample: np.ndarray,
    max_bins: int,
    sample_weight: np.ndarray | None = None,
    sample_sorted: bool = False,
) -> FeatureBins:
    """A continuous feature's bins from its complete sorted distinct known values (None when
    there are too many to gather) and a sample of its values (for the quantiles; with
    ``sample_weight``, weighted ones)."""
    if distinct is not None:
        lo, hi = value_groups(np.asarray(distinct, dtype=np.float64))
        if lo.size <= max_bins:
            return FeatureBins("exact", max(int(lo.size), 1), midpoints(hi[:-1], lo[1:]), lo, hi)
    sample = np.asarray(sample, dtype=np.float64)
    edges = quantile_edges(sample, max_bins, sample_weight, sample_sorted)
    return FeatureBins("quantile", int(edges.size) + 1, edges, np.zeros(0), np.zeros(0))


def percentile_weights(sample_weight: np.ndarray | None, n: int) -> np.ndarray | None:
    """The weights the bins follow: None without weights or when they are all equal (equal
    weights give the same quantiles; scikit-learn fitted without ``sample_weight``)."""
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight, dtype=np.float64).reshape(-1)
    if w.size != n:
        raise ValueError(f"sample_weight has {w.size} values for {n} rows")
    return None if n == 0 or bool(np.all(w == w[0])) else w


def subsample_rows(n: int, sample_rows: int, weights: np.ndarray | None) -> np.ndarray | None:
    """scikit-learn's subsample for the quantiles past ``sample_rows`` rows (else None):
    ``sample_rows`` row numbers drawn with replacement, with probabilities ∝ weight, by
    ``np.random.RandomState(SAMPLE_SEED).choice`` — sorted, which changes no quantile."""
    if n <= sample_rows:
        return None
    p = None if weights is None else weights / np.sum(weights)
    rows = np.random.RandomState(SAMPLE_SEED).choice(n, sample_rows, p=p, replace=True)
    return np.sort(rows)


def categorical_bins(n_categories: int) -> FeatureBins:
    return FeatureBins("categorical", int(n_categories), np.zeros(0), np.zeros(0), np.zeros(0))


def fit_bins(
    X: np.ndarray,
    n_categories: Sequence[int],
    max_bins: int = DEFAULT_MAX_BINS,
    sample_rows: int = SAMPLE_ROWS,
    sample_weight: np.ndarray | None = None,
) -> Bins:
    """The bins of an in-memory matrix (category codes as floats, NaN = missing), rows of zero
    weight left out.

    Up to ``sample_rows`` rows a feature's bins come from all its values.  Past that the
    quantiles come from scikit-learn's subsample (:func:`subsample_rows`, unweighted), and its
    distinct values first: when it already holds more than ``max_bins`` groups, the feature is
    binned by the subsample's quantiles; else the whole column is checked against the
    subsample's groups and, if a value is not among them, its full ``np.unique`` decides (so
    "exact" always means all the column's values)."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    w = percentile_weights(sample_weight, n)
    rows = subsample_rows(n, sample_rows, w)
    seen = None if w is None else w != 0  # the rows whose values count
    # the subsample's rows gathered once, by whole rows (a gather per column reads a cache line
    # of X per value), then one contiguous column per feature
    sampled = None if rows is None else np.ascontiguousarray(X[rows].T)
    out = []
    for j, nc in enumerate(n_categories):  # a loop over features
        if nc > 0:
            out.append(categorical_bins(nc))
            continue
        col = X[:, j] if seen is None else X[seen, j]
        if rows is None:
            known = np.sort(col[~np.isnan(col)])
            distinct = known[np.r_[True, known[1:] != known[:-1]]] if known.size else known
            if w is None:  # the sorted known values are the percentiles' sample (no second sort)
                out.append(feature_bins(distinct, known, max_bins, sample_sorted=True))
            else:
                out.append(feature_bins(distinct, col, max_bins, w[seen]))
            continue
        assert sampled is not None
        sample = sampled[j]
        known = np.sort(sample[~np.isnan(sample)])
        d_sample = known[np.r_[True, known[1:] != known[:-1]]] if known.size else known
        lo, _ = value_groups(d_sample)
        if lo.size > max_bins:
            out.append(feature_bins(None, known, max_bins, sample_sorted=True))
            continue
        fb = feature_bins(d_sample, known, max_bins, sample_sorted=True)
        if not _covers(fb, col):
            full = col[~np.isnan(col)]
            fb = feature_bins(np.unique(full), known, max_bins, sample_sorted=True)
        out.append(fb)
    return Bins(tuple(out))


def _covers(fb: FeatureBins, col: np.ndarray) -> bool:
    """Whether every known value of ``col`` lies inside one of an exact binning's groups."""
    if fb.kind != "exact":
        return False
    known = col[~np.isnan(col)]
    code = np.minimum(np.searchsorted(fb.hi, known, side="left"), fb.hi.size - 1)
    return bool(np.all((known >= fb.lo[code]) & (known <= fb.hi[code])))


def fit_transform(
    X: np.ndarray,
    n_categories: Sequence[int],
    max_bins: int = DEFAULT_MAX_BINS,
    sample_weight: np.ndarray | None = None,
) -> tuple[Bins, np.ndarray]:
    """``fit_bins`` and ``Bins.transform`` in one go (the codes by :class:`EdgeTable`, which
    costs less than the argsort a search over sorted values would need)."""
    bins = fit_bins(X, n_categories, max_bins, sample_weight=sample_weight)
    return bins, bins.transform(X)
