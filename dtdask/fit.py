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

from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.cart.hist.binning import Bins
from dtcore.cart.hist.histograms import Layout
from dtcore.data.roles import CLASSIFICATION, infer_task
from dtcore.node_rows import cut_neighbours, merge_neighbours, missing_seen
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, Schema
from dtdask.profiles import profile_frame
from dtdask.source import DaskHistograms, encode_block, encode_values
from dtdask.summary import column_kind, merge, sample_per_partition, summarize


def read_frame(source: Any, columns: Sequence[str] | None = None) -> dd.DataFrame:
    """A Dask DataFrame as it is, or the Parquet files of a path, a glob or a list of them."""
    if isinstance(source, dd.DataFrame):
        return source if columns is None else source[list(columns)]
    return dd.read_parquet(source, columns=None if columns is None else list(columns))


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
) -> CARTClassifier | CARTRegressor:
    """Grow a CART tree with histograms over the partitions of ``source`` (a Dask DataFrame or
    Parquet path/glob); ``params`` are CART's (criterion, max_depth, min_samples_leaf, …,
    max_bins); ``task`` None: the one the target implies (``dtcore.data.roles.infer_task``, as in
    memory).  ``client``: a ``distributed.Client`` (None: the current default scheduler).
    ``on_level(depth)`` is called after each level (progress)."""
    ddf = read_frame(source)
    if target not in ddf.columns:
        raise DataError(f"no column {target!r}; the columns are {list(ddf.columns)}")
    # the task a target implies: dtcore's rule, on the target's profile gathered from the partitions
    task = task or infer_task(profile_frame(ddf, [target], client)[target])
    est = (CARTClassifier if task == CLASSIFICATION else CARTRegressor)(**{**params, "splitter": "hist"})
    kinds = {**{c: CATEGORICAL for c in categorical}, **{c: CONTINUOUS for c in continuous}}
    schema, fitted_bins, n, _, _ = prepare(ddf, target, task, int(est.max_bins), features, kinds, client)
    bins = bins or fitted_bins
    cols = schema.names + [target]
    blocks = [dask.delayed(encode_block)(p, schema, bins, task) for p in ddf[cols].to_delayed()]
    layout = Layout(bins.n_bins, len(schema.classes or ()))
    est.fit_histograms(DaskHistograms(blocks, layout, client), bins, schema, n, on_level)
    # what needs the rows, as the in-memory fit records it: which tests met a missing value (each
    # partition's answer, or-ed: only booleans travel) and the real values beside each cut
    parts = [dask.delayed(_seen_block)(p, est) for p in ddf[schema.names].to_delayed()]
    found = dask.compute(*parts) if client is None else client.gather(client.compute(parts))
    est.tree_.saw_missing = np.logical_or.reduce(np.asarray([f[0] for f in found], dtype=bool), axis=0)
    est.tree_.cut_below, est.tree_.cut_above = merge_neighbours([f[1] for f in found])
    return est


def _seen_block(df: Any, est: Any) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """``missing_seen`` and ``cut_neighbours`` of the fitted tree on one partition's rows
    (pandas' NA cells missing), encoded column by column as the histograms' rows were
    (``encode_values``), not through an object copy of the whole partition."""
    X = encode_values(df, est.schema_)
    return missing_seen(est.tree_, X), cut_neighbours(est.tree_, X)
