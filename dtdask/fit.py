"""Fit a dtcore CART model (``splitter="hist"``) on a Dask DataFrame or a Parquet path/glob.

The result is an ordinary ``CARTClassifier`` / ``CARTRegressor``: same tree arrays, same JSON
model file, same views as a model fitted in memory.  Unit sample weights only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import dask
import dask.dataframe as dd
import numpy as np

from dtcore.base import BaseTreeEstimator
from dtcore.cart.estimator import level_split_order
from dtcore.cart.hist import grow_hist
from dtcore.cart.hist.binning import Bins
from dtcore.cart.hist.histograms import Layout
from dtcore.cut_neighbours import cut_neighbours, merge_neighbours
from dtcore.estimators import make_estimator
from dtcore.missing_seen import missing_seen
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, Schema
from dtdask.source import DaskHistograms, encode_block, encode_values
from dtdask.summary import column_kind, merge, sample_per_partition, summarize


def read_frame(source: Any, columns: Sequence[str] | None = None) -> dd.DataFrame:
    """A Dask DataFrame as it is, or the Parquet files of a path, a glob or a list of them."""
    if isinstance(source, dd.DataFrame):
        return source if columns is None else source[list(columns)]
    return dd.read_parquet(source, columns=None if columns is None else list(columns))


def infer_task(ddf: dd.DataFrame, target: str) -> str:
    """A float target is regression; anything else (integers, labels, booleans) classification."""
    return "regression" if ddf[target].dtype.kind == "f" else "classification"


def prepare(
    ddf: dd.DataFrame,
    target: str,
    task: str,
    max_bins: int,
    features: Sequence[str] | None = None,
    kinds: dict[str, str] | None = None,
    client: Any = None,
) -> tuple[Schema, Bins, int, list[str], dict[str, str]]:
    """Schema, bins and row count from one pass of per-partition summaries."""
    if target not in ddf.columns:
        raise DataError(f"no column {target!r}; the columns are {list(ddf.columns)}")
    names = [c for c in ddf.columns if c != target] if features is None else list(features)
    kinds = {**{n: column_kind(ddf[n]._meta) for n in names}, **(kinds or {})}
    parts = ddf.to_delayed()
    k = sample_per_partition(len(parts))
    summ = [dask.delayed(summarize)(p, names, kinds, target, task, i, k) for i, p in enumerate(parts)]
    got = dask.compute(*summ) if client is None else client.gather(client.compute(summ))
    schema, bins, n = merge(list(got), names, kinds, target, task, max_bins)
    return schema, bins, n, names, kinds


def fit_dask(
    source: Any,
    target: str,
    *,
    task: str | None = None,
    features: Sequence[str] | None = None,
    categorical: Sequence[str] = (),
    continuous: Sequence[str] = (),
    client: Any = None,
    on_level: Callable[[int], object] | None = None,
    bins: Bins | None = None,
    **params: Any,
) -> BaseTreeEstimator:
    """Grow a CART tree with histograms over the partitions of ``source`` (a Dask DataFrame or
    Parquet path/glob); ``params`` are CART's (criterion, max_depth, min_samples_leaf, …,
    max_bins).  ``client``: a ``distributed.Client`` (None: the current default scheduler).
    ``on_level(depth)`` is called after each level (progress)."""
    ddf = read_frame(source)
    task = task or infer_task(ddf, target)
    est: Any = make_estimator("cart", task, **{**params, "splitter": "hist"})
    est._validate_params()
    kinds = {**{c: CATEGORICAL for c in categorical}, **{c: CONTINUOUS for c in continuous}}
    schema, fitted_bins, n, _, _ = prepare(ddf, target, task, int(est.max_bins), features, kinds, client)
    bins = bins or fitted_bins
    cols = schema.names + [target]
    blocks = [dask.delayed(encode_block)(p, schema, bins, task) for p in ddf[cols].to_delayed()]
    n_classes = len(schema.classes or ()) if task == "classification" else 0
    layout = Layout(bins.n_bins, n_classes)
    src = DaskHistograms(blocks, layout, client)
    grow_params = est._params_for(n, np.array([float(n)]), n_classes)
    grown = grow_hist(src, bins, grow_params, on_level)
    est._set_schema(schema)
    # the same tail as the in-memory fit: pruning at ccp_alpha, the recorded growth, and which
    # tests met a missing value (each partition's answer, or-ed: only booleans travel)
    est.tree_ = est._finish_growth(grown, level_split_order(grown), "level")
    parts = [dask.delayed(_seen_block)(p, est) for p in ddf[schema.names].to_delayed()]
    found = dask.compute(*parts) if client is None else client.gather(client.compute(parts))
    est.tree_.saw_missing = np.logical_or.reduce(np.asarray([f[0] for f in found], dtype=bool), axis=0)
    # the real values beside each cut (a bin edge here): each partition's, merged
    est.tree_.cut_below, est.tree_.cut_above = merge_neighbours([f[1] for f in found])
    return est


def _seen_block(df: Any, est: Any) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """``missing_seen`` and ``cut_neighbours`` of the fitted tree on one partition's rows
    (pandas' NA cells missing), encoded column by column as the histograms' rows were
    (``encode_values``), not through an object copy of the whole partition."""
    X = encode_values(df, est.schema_)
    return missing_seen(est.tree_, X), cut_neighbours(est.tree_, X)
