"""Bins of every feature: at most ``max_bins`` per feature plus one for missing values.

* A continuous feature whose known values form at most ``max_bins`` groups is binned
  **exactly**: one bin per group of values, a group being distinct values whose sorted
  neighbours lie within ``cart.splitter.FEATURE_THRESHOLD`` (1e-7) of each other (the exact
  splitter never cuts there either; with values further apart, a group is one value).  A bin
  keeps its smallest and largest value (``lo``, ``hi``).
* Otherwise the feature is binned by **quantiles**: ``max_bins − 1`` edges at the midpoints of
  the sample's percentiles (as scikit-learn's HistGradientBoosting does), bin b holding
  ``edges[b−1] < x ≤ edges[b]``.
* A categorical feature's bins are its category codes.
* Missing values (NaN) go to one more bin, the last: code ``n_bins``.

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
SAMPLE_ROWS = 200_000  # rows the quantiles of a large feature are taken from (as scikit-learn)


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
        out = np.searchsorted(self.edges, x, side="left").astype(np.int64, copy=False)
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
        for j, fb in enumerate(self.features):  # a loop over features
            out[j] = fb.codes(X[:, j])
        return out


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


def quantile_edges(sample: np.ndarray, max_bins: int, is_sorted: bool = False) -> np.ndarray:
    """Up to ``max_bins − 1`` increasing edges: the sample's percentiles, each the midpoint of
    its two nearest order statistics (``np.percentile(method="midpoint")``)."""
    s = sample[~np.isnan(sample)]
    if not is_sorted:
        s = np.sort(s)
    if s.size == 0:
        return np.zeros(0)
    pos = np.linspace(0, 100, max_bins + 1)[1:-1] / 100 * (s.size - 1)
    edges = np.unique(s[np.floor(pos).astype(np.int64)] / 2 + s[np.ceil(pos).astype(np.int64)] / 2)
    return edges[edges < s[-1]]  # the largest value lies in the last bin


def feature_bins(
    distinct: np.ndarray | None, sample: np.ndarray, max_bins: int, sample_sorted: bool = False
) -> FeatureBins:
    """A continuous feature's bins from its complete sorted distinct known values (None when
    there are too many to gather) and a sample of its values (for the quantiles)."""
    if distinct is not None:
        lo, hi = value_groups(np.asarray(distinct, dtype=np.float64))
        if lo.size <= max_bins:
            return FeatureBins("exact", max(int(lo.size), 1), hi[:-1], lo, hi)
    edges = quantile_edges(np.asarray(sample, dtype=np.float64), max_bins, sample_sorted)
    return FeatureBins("quantile", int(edges.size) + 1, edges, np.zeros(0), np.zeros(0))


def categorical_bins(n_categories: int) -> FeatureBins:
    return FeatureBins("categorical", int(n_categories), np.zeros(0), np.zeros(0), np.zeros(0))


def fit_bins(
    X: np.ndarray,
    n_categories: Sequence[int],
    max_bins: int = DEFAULT_MAX_BINS,
    sample_rows: int = SAMPLE_ROWS,
) -> Bins:
    """The bins of an in-memory matrix (category codes as floats, NaN = missing).

    A feature's distinct values come from a fixed subsample first: when it already holds more
    than ``max_bins`` groups, the feature is binned by the subsample's quantiles; else the
    whole column is checked against the subsample's groups and, if a value is not among them,
    its full ``np.unique`` decides (so "exact" always means all the column's values)."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    rows = np.arange(n)
    if n > sample_rows:
        rows = np.sort(np.random.default_rng(0).choice(n, sample_rows, replace=False))
    out = []
    for j, nc in enumerate(n_categories):  # a loop over features
        if nc > 0:
            out.append(categorical_bins(nc))
            continue
        col = X[:, j]
        sample = col[rows]
        known = np.sort(sample[~np.isnan(sample)])
        d_sample = known[np.r_[True, known[1:] != known[:-1]]] if known.size else known
        lo, _ = value_groups(d_sample)
        if lo.size > max_bins:
            out.append(feature_bins(None, known, max_bins, sample_sorted=True))
            continue
        fb = feature_bins(d_sample, known, max_bins, sample_sorted=True)
        if rows.size < n and not _covers(fb, col):
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
    X: np.ndarray, n_categories: Sequence[int], max_bins: int = DEFAULT_MAX_BINS
) -> tuple[Bins, np.ndarray]:
    """``fit_bins`` and ``Bins.transform`` in one go: the same bins and codes.  Up to
    ``SAMPLE_ROWS`` rows every column is argsorted once, which gives both its distinct values
    and, by ``searchsorted`` on the sorted values (much faster than on unsorted ones), its codes."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    if n > SAMPLE_ROWS:
        bins = fit_bins(X, n_categories, max_bins)
        return bins, bins.transform(X)
    Xt = np.ascontiguousarray(X.T)
    top = max([max_bins] + [int(c) for c in n_categories])
    codes = np.empty(Xt.shape, dtype=code_dtype(top))
    out = []
    for j, nc in enumerate(n_categories):  # a loop over features
        if nc > 0:
            fb = categorical_bins(nc)
            codes[j] = fb.codes(Xt[j])
        else:
            order = np.argsort(Xt[j])  # NaN last
            xs = Xt[j][order]
            known = xs[: n - int(np.isnan(xs).sum())]
            d = known[np.r_[True, known[1:] != known[:-1]]] if known.size else known
            fb = feature_bins(d, known, max_bins, sample_sorted=True)
            codes[j, order] = fb.codes(xs)
        out.append(fb)
    bins = Bins(tuple(out))
    return bins, codes.astype(code_dtype(int(bins.n_bins.max()) if out else 0), copy=False)
