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
from dtcore.cart.hist.histograms import Layout, RouteStep
from dtcore.data.roles import CLASSIFICATION, infer_task
from dtcore.node_rows import merge_neighbours
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, Schema
from dtcore.tree import Tree
from dtdask.profiles import profile_frame
from dtdask.source import DaskHistograms, LevelFacts, encode_scanned, scan_partition, value_table
from dtdask.summary import PartSummary, column_kind, merge, sample_per_partition, summarize


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
    names, kinds = plan_columns(ddf, target, features, kinds)
    parts = ddf.to_delayed()
    k = sample_per_partition(len(parts))
    summ = [dask.delayed(summarize)(p, names, kinds, target, task, i, k) for i, p in enumerate(parts)]
    got = dask.compute(*summ) if client is None else client.gather(client.compute(summ))
    schema, bins, n = merge(list(got), names, kinds, target, task, max_bins)
    return schema, bins, n, names, kinds


def plan_columns(
    ddf: dd.DataFrame, target: str, features: Sequence[str] | None, kinds: dict[str, str] | None
) -> tuple[list[str], dict[str, str]]:
    """The feature names (every column but the target when None) and each one's kind (numbers
    continuous, anything else categorical, unless ``kinds`` says)."""
    if target not in ddf.columns:
        raise DataError(f"no column {target!r}; the columns are {list(ddf.columns)}")
    names = [c for c in ddf.columns if c != target] if features is None else list(features)
    return names, {**{n: column_kind(ddf[n]._meta) for n in names}, **(kinds or {})}


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
    names, kinds = plan_columns(ddf, target, features, kinds)
    # one read of the files: each partition summarised and kept, encoded as far as it can be
    # before the summaries are merged (dtdask.source.scan_partition)
    parts = ddf[names + [target]].to_delayed()
    k = sample_per_partition(len(parts))
    scans = _persist(
        client,
        [
            dask.delayed(scan_partition, nout=2)(p, names, kinds, target, task, i, k)
            for i, p in enumerate(parts)
        ],
    )
    summaries: list[PartSummary] = _gather(client, [s[0] for s in scans])
    scanned = _persist(client, [s[1] for s in scans])
    del scans
    schema, fitted_bins, n = merge(summaries, names, kinds, target, task, int(est.max_bins))
    negative_zero = [any(p.negative_zero.get(f, False) for p in summaries) for f in schema.names]
    table = value_table(bins or fitted_bins, bins is None, negative_zero)
    bins = bins or fitted_bins
    blocks = [
        dask.delayed(encode_scanned)(sc, summ.labels, summ.target_labels, schema, bins, table)
        for sc, summ in zip(scanned, summaries, strict=True)
    ]
    del scanned  # the workers drop each scanned partition once its block is made
    layout = Layout(bins.n_bins, len(schema.classes or ()))
    source = DaskHistograms(blocks, layout, table, client)
    est.fit_histograms(source, bins, schema, n, on_level)
    # what needs the rows, as the in-memory fit records it (which tests met a missing value, the
    # real values beside each cut): found on the workers as the rows were routed, level by level
    # (the last level's tests, grown after the last routing, from the rows' last slots)
    paths = slot_paths(source.steps)
    by_path = node_paths(est.tree_)
    last = last_step(est.tree_, bins, paths[-1], by_path)
    if last is None:
        paths.pop()  # no test among them
    else:
        source.last_facts(last)
    record_facts(est.tree_, paths, by_path, source.gather_facts())
    return est


def _persist(client: Any, objs: list[Any]) -> list[Any]:
    return list(dask.persist(*objs)) if client is None else list(client.persist(objs))


def _gather(client: Any, objs: list[Any]) -> list[Any]:
    return list(dask.compute(*objs)) if client is None else list(client.gather(client.compute(objs)))


def slot_paths(steps: list[RouteStep]) -> list[list[int]]:
    """Each level's slots as paths from the root (1; a node p's children 2p and 2p + 1, in the
    order the tree keeps them: left, right): the grower numbers slots its own way, the tree in
    pre-order; a path names the same node in both (and survives pruning)."""
    levels = [[1]]
    for step in steps:
        here = levels[-1]
        nxt = [0] * int(max(step.left_slot.max(initial=-1), step.right_slot.max(initial=-1)) + 1)
        for s in np.flatnonzero(step.feature >= 0).tolist():  # a loop over split nodes
            for kid, slot in enumerate((int(step.left_slot[s]), int(step.right_slot[s]))):
                if slot >= 0:
                    nxt[slot] = 2 * here[s] + kid
        levels.append(nxt)
    return levels


def node_paths(tree: Tree) -> dict[int, int]:
    """{path: node} of the tree's nodes (pre-order: a parent comes before its children)."""
    path = np.zeros(tree.node_count, dtype=object)
    path[0] = 1
    for n in np.flatnonzero(tree.feature >= 0).tolist():
        for kid, c in enumerate(tree.children_of(n).tolist()):
            path[c] = 2 * path[n] + kid
    return {int(p): i for i, p in enumerate(path.tolist())}


def last_step(tree: Tree, bins: Bins, paths: list[int], by_path: dict[int, int]) -> RouteStep | None:
    """The tests of the slots the rows last reached, as a routing step (None: none of them is
    a test).  A continuous test sends bin c left when its values lie at or below the cut (an
    exact bin's largest value, a quantile bin's upper edge): the bins the grower sent left."""
    width = int(bins.n_bins.max()) + 1
    feature = np.full(len(paths), -1, np.int64)
    left = np.zeros((len(paths), width), dtype=bool)
    for s, p in enumerate(paths):  # a loop over the level's nodes
        node = by_path.get(p, -1)
        if node < 0 or tree.feature[node] < 0:
            continue
        j = int(tree.feature[node])
        feature[s] = j
        fb = bins.features[j]
        if fb.kind == "categorical":
            continue  # only whether a value was missing is asked of a categorical test
        upper = fb.hi if fb.kind == "exact" else np.append(fb.edges, np.inf)
        left[s, : upper.size] = upper <= tree.cuts_of(node)[0]
    if not (feature >= 0).any():
        return None
    none = np.full(len(paths), -1, np.int64)
    return RouteStep(feature, left, none, none)


def record_facts(
    tree: Tree, paths: list[list[int]], by_path: dict[int, int], facts: list[list[LevelFacts]]
) -> None:
    """``saw_missing``, ``cut_below`` and ``cut_above`` of the tree from each level's facts (the
    partitions' merged: or-ed, the largest below, the smallest above)."""
    tree.saw_missing = np.zeros(tree.node_count, dtype=bool)
    tree.cut_below, tree.cut_above = np.full(tree.cuts.size, -np.inf), np.full(tree.cuts.size, np.inf)
    for level, parts in zip(paths, facts, strict=True):
        seen = np.logical_or.reduce([f.seen_missing for f in parts])
        below, above = merge_neighbours([(f.below, f.above) for f in parts])
        for s, p in enumerate(level):  # a loop over the level's nodes
            node = by_path.get(p, -1)
            if node < 0 or tree.feature[node] < 0:
                continue
            tree.saw_missing[node] = seen[s]
            if tree.cut_ptr[node + 1] > tree.cut_ptr[node]:
                k = int(tree.cut_ptr[node])
                tree.cut_below[k], tree.cut_above[k] = below[s], above[s]
