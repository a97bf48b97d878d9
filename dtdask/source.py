"""The histogram source of a Dask frame: ``dtcore.cart.hist.histograms.HistogramSource`` over
partitions held by the workers.

The files are read once: each partition is summarised and kept on the workers as far encoded
as it can be before the summaries are merged (``scan_partition``); once the schema and the bins
are known it becomes a ``Block`` (``encode_scanned``: dtcore's schema rules, then the bins'
codes, looked up per distinct value), persisted on the workers (bin codes, targets, and the real values of the
features whose cut neighbours need them) with each row's node slot.  Per level, every partition
builds its partial histograms (``dtcore.cart.hist.histograms.partial_histograms``), Dask adds
them up in a tree of sums on the workers, and the client receives one histogram; routing runs on
the workers (``route_rows``) and only the level's splits (a few arrays per node) travel there.
Rows never leave the workers.

What the fitted tree records from its rows (``dtcore.node_rows``: which tests met a missing
value, the real values beside each cut) is found while the rows are routed (``level_facts``, a
few numbers per node and partition), so no pass after the last level reads the data again.
A cut's neighbours are the largest value going left and the smallest going right: read from the
rows' values where the block keeps them (``ValueTable.raw_row``), else from the bin codes: the
highest bin going left and the lowest going right, when each bin of the feature holds a single
value (exact bins fitted on these rows, ``keeps_values``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import dask
import numpy as np
import pandas as pd

from dtcore.cart.hist.binning import Bins, FeatureBins, code_dtype
from dtcore.cart.hist.histograms import Layout, RouteStep, partial_histograms, route_rows
from dtcore.schema import (
    CATEGORICAL,
    MISSING_TOKENS,
    Feature,
    Schema,
    encode_features,
    is_missing,
    target_encoding,
)
from dtdask.summary import ContinuousColumn, PartSummary, cells, summarize_columns


@dataclass(frozen=True)
class Block:
    """One partition as the workers hold it while the tree grows."""

    codes: np.ndarray  # (n_features, rows) bin codes
    y: np.ndarray  # class codes (int32) or targets (float64)
    raw: np.ndarray  # (n_kept, rows) float64: the values of the features ValueTable.raw_row keeps


@dataclass(frozen=True)
class ValueTable:
    """What a partition needs to find the values beside a cut, per feature."""

    n_bins: np.ndarray  # known bins (the missing bin is this code)
    continuous: np.ndarray  # bool
    raw_row: np.ndarray  # row of Block.raw holding the feature's values (−1: not kept)
    lo: np.ndarray  # (n_features, max bins) smallest value of each bin (exact bins kept by codes)
    hi: np.ndarray  # (n_features, max bins) largest value of each bin


@dataclass(frozen=True)
class LevelFacts:
    """Per node slot of a level, over one partition's rows (or all of them, merged)."""

    seen_missing: np.ndarray  # bool: a row met the slot's test with its value missing
    below: np.ndarray  # largest known value going left (−inf: none)
    above: np.ndarray  # smallest known value going right (+inf: none)


def keeps_values(fb: FeatureBins, fitted_here: bool, negative_zero: bool) -> bool:
    """Whether the rows' real values are needed beside the codes for a feature's cut neighbours:
    a continuous feature's codes name its values only when each exact bin holds one value, the
    bins were fitted on these rows (``fitted_here``; given bins may put other values in a bin)
    and no −0.0 was seen (``negative_zero``: then 0.0 and −0.0 share a bin but are two values)."""
    if fb.kind == "categorical":
        return False
    if fb.kind == "quantile" or not fitted_here:
        return True
    return bool(np.any(fb.lo != fb.hi) or (negative_zero and (np.any(fb.lo == 0) or np.any(fb.hi == 0))))


def value_table(bins: Bins, fitted_here: bool, negative_zero: list[bool]) -> ValueTable:
    """The table of ``bins`` (``negative_zero``: per feature, whether a partition saw a −0.0)."""
    keep = [keeps_values(fb, fitted_here, z) for fb, z in zip(bins.features, negative_zero, strict=True)]
    width = max([fb.n_bins for fb in bins.features] + [1])
    lo = np.full((len(keep), width), np.nan)
    hi = np.full((len(keep), width), np.nan)
    for j, fb in enumerate(bins.features):
        if fb.kind == "exact":
            lo[j, : fb.lo.size], hi[j, : fb.hi.size] = fb.lo, fb.hi
    raw_row = np.cumsum(keep) - 1
    return ValueTable(
        bins.n_bins,
        np.array([fb.kind != "categorical" for fb in bins.features], dtype=bool),
        np.where(keep, raw_row, -1).astype(np.int64),
        lo,
        hi,
    )


def encode_target(col: pd.Series, schema: Schema, task: str) -> np.ndarray:
    """A partition's target as the histograms read it: class codes (int32) or values (float64).

    A typed (not object) column of class labels is labelled once per distinct value (its codes
    are the labels' classes, gathered back by ``pd.factorize``'s codes), not cell by cell; a
    missing or unknown label goes the cell-by-cell way, which names the rows in its error."""
    if task != "classification":
        y, _ = target_encoding(col.to_numpy(), task, None, schema.missing_tokens, schema.target)
        return y.astype(np.float64)
    if not pd.api.types.is_object_dtype(col.dtype):
        inverse, uniques = pd.factorize(col, use_na_sentinel=True)
        distinct = cells(pd.Series(uniques))
        if (inverse >= 0).all() and not any(is_missing(v, schema.missing_tokens) for v in distinct):
            codes, _ = target_encoding(distinct, task, schema.classes, schema.missing_tokens, schema.target)
            return codes.astype(np.int32)[inverse]
    y, _ = target_encoding(cells(col), task, schema.classes, schema.missing_tokens, schema.target)
    return y.astype(np.int32)


@dataclass(frozen=True)
class Scanned:
    """One partition as the first pass leaves it on the workers, encoded as far as it can be
    before the partitions' summaries are merged: continuous columns as ``ContinuousColumn``,
    categorical ones as codes of the partition's own labels (its summary's ``labels``, NaN:
    missing), the target as codes of its own classes (``target_labels``) or as values."""

    continuous: dict[str, ContinuousColumn]
    local_codes: dict[str, np.ndarray]
    y: np.ndarray | None  # None: a target cell is missing (the merge refuses the table)


def scan_partition(
    df: pd.DataFrame,
    features: list[str],
    kinds: dict[str, str],
    target: str,
    task: str,
    seed: int,
    n_sample: int,
) -> tuple[PartSummary, Scanned]:
    """One partition's summary (``dtdask.summary``) and the partition kept for ``encode_scanned``:
    the Parquet files are read once before the tree grows."""
    summary, continuous = summarize_columns(df, features, kinds, target, task, seed, n_sample)
    local = {}
    for name in features:
        if kinds[name] == CATEGORICAL:
            own = Schema((Feature(name, CATEGORICAL, summary.labels[name]),), target, None, MISSING_TOKENS)
            local[name] = encode_features(cells(df[name])[:, None], own)[:, 0]
    y = None
    if not summary.target_missing:
        own_classes = summary.target_labels if task == "classification" else None
        y = encode_target(df[target], Schema((), target, own_classes, MISSING_TOKENS), task)
    return summary, Scanned(continuous, local, y)


def encode_scanned(
    part: Scanned,
    labels: dict[str, tuple[str, ...]],
    classes: tuple[str, ...],
    schema: Schema,
    bins: Bins,
    table: ValueTable,
) -> Block:
    """The ``Block`` of a scanned partition: its own category and class codes mapped to the
    schema's (``labels``, ``classes``: its summary's, in its own code order), the continuous
    columns' bin codes looked up per distinct value; the same codes as ``bins.transform`` of
    the rows encoded by ``schema``."""
    assert part.y is not None  # the merge refused a missing target
    n = part.y.size
    top = int(bins.n_bins.max()) if bins.features else 0
    codes = np.empty((len(bins.features), n), dtype=code_dtype(top))
    raw = np.empty((int((table.raw_row >= 0).sum()), n))
    for j, (feat, fb) in enumerate(zip(schema.features, bins.features, strict=True)):  # a loop over columns
        if feat.is_categorical:
            index = {c: float(i) for i, c in enumerate(feat.categories or ())}
            to_schema = np.array([index[c] for c in labels[feat.name]] + [np.nan])
            own = part.local_codes[feat.name]
            codes[j] = fb.codes(to_schema[np.where(np.isnan(own), -1, own).astype(np.intp)])
            continue
        column = part.continuous[feat.name]
        codes[j] = column.codes(fb)
        if table.raw_row[j] >= 0:
            raw[table.raw_row[j]] = column.real()
    y = part.y
    if schema.classes is not None:
        index_c = {c: i for i, c in enumerate(schema.classes)}
        y = np.array([index_c[c] for c in classes], dtype=np.int32)[part.y]
    return Block(codes, y, raw)


def _histograms(
    block: Block, node: np.ndarray, build: np.ndarray, n_build: int, layout: Layout
) -> np.ndarray:
    """A partition's channel sums; with unit weights the row counts are channel 0, so they do
    not travel."""
    return partial_histograms(block.codes, block.y, None, node, build, n_build, layout)[0]


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a + b


def level_facts(block: Block, node: np.ndarray, step: RouteStep, table: ValueTable) -> LevelFacts:
    """What one partition's rows say about a level's tests (``step``): per slot whether a row
    met the test with its value missing (its code is the feature's missing bin; a training row's
    category always has a branch), and for a continuous test the largest known value going left
    and the smallest going right (rows in order, as ``dtcore.node_rows`` visits them)."""
    n_slots = step.feature.size
    seen = np.zeros(n_slots, dtype=bool)
    below, above = np.full(n_slots, -np.inf), np.full(n_slots, np.inf)
    n = node.size
    feat = np.append(step.feature, -1)[node]
    rows = np.flatnonzero(feat >= 0)
    s, f = node[rows], feat[rows]
    # the (feature, row) cells read as flat takes of the C-ordered arrays (2-D fancy indexing
    # costs several times more)
    code = _cells_at(block.codes, f, rows, n).astype(np.int64)
    missing = code == table.n_bins[f]
    seen[s[missing]] = True
    known = ~missing & table.continuous[f]
    if not known.all():
        s, f, code, rows = s[known], f[known], code[known], rows[known]
    at = s.astype(np.int64) * step.left.shape[1]
    at += code
    go = np.ascontiguousarray(step.left).reshape(-1).take(at)
    raw_row = table.raw_row[f]
    held = raw_row >= 0
    if held.any():  # the values themselves
        every = bool(held.all())
        x = _cells_at(block.raw, raw_row if every else raw_row[held], rows if every else rows[held], n)
        g, sh = (go, s) if every else (go[held], s[held])
        np.maximum.at(below, sh[g], x[g])
        np.minimum.at(above, sh[~g], x[~g])
    if not held.all():  # one value per bin: the highest bin going left, the lowest going right
        c, g, sc = code[~held], go[~held], s[~held]
        hi_code, lo_code = np.full(n_slots, -1), np.full(n_slots, np.iinfo(np.int64).max)
        np.maximum.at(hi_code, sc[g], c[g])
        np.minimum.at(lo_code, sc[~g], c[~g])
        fs = np.maximum(step.feature, 0)
        left_ok, right_ok = hi_code >= 0, lo_code < np.iinfo(np.int64).max
        below[left_ok] = table.hi[fs[left_ok], hi_code[left_ok]]
        above[right_ok] = table.lo[fs[right_ok], lo_code[right_ok]]
    return LevelFacts(seen, below, above)


def _cells_at(a: np.ndarray, row: np.ndarray, col: np.ndarray, n: int) -> np.ndarray:
    """``a[row, col]`` of a 2-D array of ``n`` columns."""
    if not a.flags.c_contiguous:
        return a[row, col]
    flat = row.astype(np.int64) * n
    flat += col
    return a.reshape(-1).take(flat)


def _route(
    block: Block, node: np.ndarray, step: RouteStep, table: ValueTable
) -> tuple[np.ndarray, LevelFacts]:
    return route_rows(block.codes, node, step).astype(np.int32), level_facts(block, node, step, table)


def _root_nodes(block: Block) -> np.ndarray:
    return np.zeros(block.y.size, np.int32)


class DaskHistograms:
    """Blocks and node slots as persisted Dask objects; ``client`` None: dask's default scheduler.

    ``steps`` and ``facts``: every level's routing step and, per partition, its ``LevelFacts``
    (persisted on the workers until ``gather_facts``)."""

    unit_weights = True  # the partitions' rows carry no weights

    def __init__(self, blocks: list[Any], layout: Layout, table: ValueTable, client: Any = None) -> None:
        self.client = client
        self.layout = layout
        self.table = table
        self.blocks = self._persist(blocks)
        self.nodes = self._persist([dask.delayed(_root_nodes)(b) for b in self.blocks])
        self.steps: list[RouteStep] = []
        self.facts: list[list[Any]] = []

    def _persist(self, objs: list[Any]) -> list[Any]:
        if self.client is not None:
            return list(self.client.persist(objs))
        return list(dask.persist(*objs))

    def _compute(self, obj: Any) -> Any:
        if self.client is not None:
            return self.client.compute(obj).result()
        return dask.compute(obj)[0]

    def histograms(
        self, build: np.ndarray, n_build: int, slots: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        parts = [
            dask.delayed(_histograms)(b, nd, build, n_build, self.layout)
            for b, nd in zip(self.blocks, self.nodes, strict=True)
        ]
        while len(parts) > 1:  # a tree of sums on the workers
            nxt = [dask.delayed(_add)(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
            if len(parts) % 2:
                nxt.append(parts[-1])
            parts = nxt
        H = self._compute(parts[0])
        if slots is not None and slots > n_build:  # room for the subtracted siblings
            H = np.concatenate([H, np.zeros((slots - n_build,) + H.shape[1:])])
        return H, H[..., 0].astype(np.int64)

    def route(self, step: RouteStep) -> None:
        routed = self._persist(
            [
                dask.delayed(_route, nout=2)(b, nd, step, self.table)
                for b, nd in zip(self.blocks, self.nodes, strict=True)
            ]
        )
        self.nodes = self._persist([r[0] for r in routed])
        self.steps.append(step)
        self.facts.append(self._persist([r[1] for r in routed]))

    def last_facts(self, step: RouteStep) -> None:
        """The facts of the last level's tests (grown after the rows were last routed)."""
        self.steps.append(step)
        self.facts.append(
            self._persist(
                [
                    dask.delayed(level_facts)(b, nd, step, self.table)
                    for b, nd in zip(self.blocks, self.nodes, strict=True)
                ]
            )
        )

    def gather_facts(self) -> list[list[LevelFacts]]:
        """Every level's facts, per partition, brought to the client (a few numbers per node)."""
        flat = [f for level in self.facts for f in level]
        got = (
            list(self.client.gather(self.client.compute(flat)))
            if self.client is not None
            else list(dask.compute(*flat))
        )
        per = len(self.blocks)
        return [got[i * per : (i + 1) * per] for i in range(len(self.facts))]
