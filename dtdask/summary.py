"""One pass over the partitions before growing: the schema (column kinds, category labels, classes)
and the bins, from small per-partition summaries merged on the client.

Per partition and column: a categorical column's labels in first-appearance order; a continuous
column's sorted distinct values when there are at most ``DISTINCT_LIMIT`` of them (else none),
and a random sample of its values.  Merged in partition order, the labels come in the order of
their first appearance in the whole table (as ``dtcore.schema.categories_of`` finds them in
memory).  Exactness of the bins: when every partition sent its distinct values, their union is
the column's complete set of distinct values, and ``dtcore.cart.hist.binning.feature_bins`` bins it
exactly whenever it has at most ``max_bins`` groups — the same bins as in memory, so the same
tree as ``splitter="hist"`` in memory.  Otherwise the edges are scikit-learn's quantiles
(``averaged_inverted_cdf``, ``binning.quantile_edges``) of the merged sample: about
``SAMPLE_ROWS`` values, each partition keeping each row with probability
``sample_per_partition / rows`` (seeded by the partition's index).  A partition of at most
``sample_per_partition`` rows sends all of them, so when no partition is larger (a table of at
most ``SAMPLE_ROWS`` rows split evenly) the sample is the whole column and the edges are the
in-memory ones.  Past that the sample is not the in-memory subsample (scikit-learn's
``RandomState(0)`` draw of row numbers, which needs the rows in one place), so the quantile
edges differ a little from in-memory ones; the engine has unit weights only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from dtcore.cart.hist.binning import SAMPLE_ROWS, Bins, FeatureBins, categorical_bins, feature_bins
from dtcore.schema import (
    CATEGORICAL,
    CONTINUOUS,
    MISSING_TOKENS,
    DataError,
    Feature,
    Schema,
    categories_of,
    class_order,
)

DISTINCT_LIMIT = 4096  # distinct values a partition sends per column (more: "many")


def cells(s: pd.Series) -> np.ndarray:
    """A column as an object array with None for pandas' missing markers (NaN, None, pd.NA)."""
    return s.astype(object).where(s.notna(), None).to_numpy(dtype=object)


def column_kind(s: pd.Series) -> str:
    """Numbers (not booleans) are continuous, everything else categorical."""
    if pd.api.types.is_bool_dtype(s.dtype):
        return CATEGORICAL
    return CONTINUOUS if pd.api.types.is_numeric_dtype(s.dtype) else CATEGORICAL


@dataclass
class PartSummary:
    rows: int
    labels: dict[str, tuple[str, ...]] = field(default_factory=dict)  # categorical column → labels
    distinct: dict[str, np.ndarray | None] = field(default_factory=dict)
    sample: dict[str, np.ndarray] = field(default_factory=dict)
    negative_zero: dict[str, bool] = field(default_factory=dict)  # continuous column → a −0.0 seen
    target_labels: tuple[str, ...] = ()
    target_missing: int = 0


@dataclass(frozen=True)
class ContinuousColumn:
    """A partition's continuous column as its summary found it, kept to be binned once the bins
    are known: with at most ``DISTINCT_LIMIT`` distinct values, those and each row's index among
    them (−1: missing; two bytes a row), so a bin code is looked up per distinct value; else
    (or when a −0.0 would be lost: ``pd.factorize`` makes it one value with 0.0) the values."""

    values: np.ndarray | None  # float64, NaN = missing
    uniques: np.ndarray | None
    inverse: np.ndarray | None  # int16 or int32

    def codes(self, fb: FeatureBins) -> np.ndarray:
        """``fb.codes`` of the values (NaN: the missing bin)."""
        if self.uniques is None or self.inverse is None:
            assert self.values is not None
            return fb.codes(self.values)
        table = np.append(fb.codes(self.uniques), fb.n_bins)  # index −1: the missing bin
        return table[self.inverse]

    def real(self) -> np.ndarray:
        """The values, bit for bit."""
        if self.values is not None:
            return self.values
        assert self.uniques is not None and self.inverse is not None
        return np.append(self.uniques, np.nan)[self.inverse]


def continuous_column(x: np.ndarray) -> tuple[ContinuousColumn, np.ndarray | None, bool]:
    """(the column as kept, its sorted distinct known values or None past ``DISTINCT_LIMIT``,
    whether it holds a −0.0)."""
    negative_zero = bool(np.any(np.signbit(x) & (x == 0)))
    head = x[: 4 * DISTINCT_LIMIT]
    if x.size > head.size and np.unique(head[~np.isnan(head)]).size > DISTINCT_LIMIT:
        # past the limit already in its first rows (np.unique and pd.factorize both count 0.0
        # and −0.0 as one value): no hashing of the whole column
        return ContinuousColumn(x, None, None), None, negative_zero
    inverse, uniques = pd.factorize(x, use_na_sentinel=True)  # hashing: O(rows), not a sort
    if uniques.size > DISTINCT_LIMIT:
        return ContinuousColumn(x, None, None), None, negative_zero
    small = inverse.astype(np.int16 if uniques.size < 2**15 else np.int32)
    # pd.factorize keeps one of 0.0 and −0.0: the values too when a −0.0 would be lost
    kept = ContinuousColumn(x if negative_zero else None, np.asarray(uniques, dtype=np.float64), small)
    return kept, np.sort(np.asarray(uniques, dtype=np.float64)), negative_zero


def summarize(
    df: pd.DataFrame,
    features: list[str],
    kinds: dict[str, str],
    target: str,
    task: str,
    seed: int,
    n_sample: int,
) -> PartSummary:
    """The summary of one partition (``n_sample``: about how many of its rows to sample)."""
    return summarize_columns(df, features, kinds, target, task, seed, n_sample)[0]


def summarize_columns(
    df: pd.DataFrame,
    features: list[str],
    kinds: dict[str, str],
    target: str,
    task: str,
    seed: int,
    n_sample: int,
) -> tuple[PartSummary, dict[str, ContinuousColumn]]:
    """``summarize``, and the continuous columns as it found them (``ContinuousColumn``)."""
    out = PartSummary(len(df))
    kept: dict[str, ContinuousColumn] = {}
    rng = np.random.default_rng(seed)
    take = rng.random(len(df)) < min(1.0, n_sample / max(len(df), 1))
    for name in features:
        col = df[name]
        if kinds[name] == CATEGORICAL:
            out.labels[name] = categories_of(cells(col))
            continue
        x = col.to_numpy(dtype=np.float64, na_value=np.nan)
        kept[name], out.distinct[name], out.negative_zero[name] = continuous_column(x)
        out.sample[name] = x[take]
    y = df[target]
    out.target_missing = int(y.isna().sum())
    if task == "classification":
        out.target_labels = labels_of(y)
    return out, kept


def labels_of(col: pd.Series) -> tuple[str, ...]:
    """``categories_of`` the column's cells; of a typed (not object) column's distinct values in
    order of first appearance (``pd.factorize``), which are the same labels in the same order."""
    if pd.api.types.is_object_dtype(col.dtype):
        return categories_of(cells(col))
    return categories_of(cells(pd.Series(pd.factorize(col, use_na_sentinel=True)[1])))


def merge_labels(parts: list[tuple[str, ...]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(label for p in parts for label in p))


def merge(
    parts: list[PartSummary],
    features: list[str],
    kinds: dict[str, str],
    target: str,
    task: str,
    max_bins: int,
) -> tuple[Schema, Bins, int]:
    """(schema, bins, rows) of the whole table from the partitions' summaries."""
    feats, fbins = [], []
    for name in features:
        if kinds[name] == CATEGORICAL:
            cats = merge_labels([p.labels[name] for p in parts])
            feats.append(Feature(name, CATEGORICAL, cats))
            fbins.append(categorical_bins(len(cats)))
            continue
        feats.append(Feature(name, CONTINUOUS))
        ds = [p.distinct[name] for p in parts]
        distinct = (
            None
            if any(d is None for d in ds)
            else np.unique(np.concatenate([d for d in ds if d is not None] + [np.zeros(0)]))
        )
        sample = np.concatenate([p.sample[name] for p in parts] + [np.zeros(0)])
        fbins.append(feature_bins(distinct, sample, max_bins))
    classes = None
    if task == "classification":
        classes = class_order(merge_labels([p.target_labels for p in parts]))
    missing = sum(p.target_missing for p in parts)
    if missing:
        raise DataError(
            f"target {target!r} is missing in {missing} row(s); drop those rows or fill in the target"
        )
    schema = Schema(tuple(feats), target, classes, MISSING_TOKENS)
    return schema, Bins(tuple(fbins)), sum(p.rows for p in parts)


def sample_per_partition(n_partitions: int) -> int:
    """Rows each partition samples, so that the merged sample holds about ``SAMPLE_ROWS``."""
    return -(-SAMPLE_ROWS // max(n_partitions, 1))
