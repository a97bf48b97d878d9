"""The histogram source of a Dask frame: ``dtcore.cart.hist.histograms.HistogramSource`` over
partitions held by the workers.

Each partition is encoded once (``encode_block``: dtcore's schema rules, then the bins' codes)
and persisted on the workers as a block (bin codes, targets) with each row's node slot.  Per
level, every partition builds its partial histograms (``dtcore.cart.hist.histograms
.partial_histograms``), Dask adds them up in a tree of sums on the workers, and the client
receives one histogram; routing runs on the workers (``route_rows``) and only the level's splits
(a few arrays per node) travel there.  Rows never leave the workers.
"""

from __future__ import annotations

from typing import Any

import dask
import numpy as np
import pandas as pd

from dtcore.cart.hist.binning import Bins
from dtcore.cart.hist.histograms import Layout, RouteStep, partial_histograms, route_rows
from dtcore.schema import Schema, encode_features, target_encoding
from dtdask.summary import cells


def encode_values(df: pd.DataFrame, schema: Schema) -> np.ndarray:
    """The float64 matrix the tree reads, of one partition's feature columns: numbers as they
    are (missing: NaN), labels as category codes; only the categorical columns go through
    Python objects."""
    X = np.empty((len(df), len(schema.features)))
    for j, feat in enumerate(schema.features):  # a loop over columns
        col = df[feat.name]
        if feat.is_categorical:
            one = Schema((feat,), schema.target, None, schema.missing_tokens)
            X[:, j] = encode_features(cells(col)[:, None], one)[:, 0]
        else:
            X[:, j] = col.to_numpy(dtype=np.float64, na_value=np.nan)
    return X


def encode_block(df: pd.DataFrame, schema: Schema, bins: Bins, task: str) -> tuple[np.ndarray, np.ndarray]:
    """(bin codes (n_features, rows), encoded targets) of one partition."""
    X = encode_values(df, schema)
    y, _ = target_encoding(
        cells(df[schema.target]) if task == "classification" else df[schema.target].to_numpy(),
        task,
        schema.classes,
        schema.missing_tokens,
        schema.target,
    )
    y = y.astype(np.int32) if task == "classification" else y.astype(np.float64)
    return bins.transform(X), y


def _histograms(
    block: tuple[np.ndarray, np.ndarray], node: np.ndarray, build: np.ndarray, n_build: int, layout: Layout
) -> np.ndarray:
    """A partition's channel sums; with unit weights the row counts are channel 0, so they do
    not travel."""
    codes, y = block
    return partial_histograms(codes, y, None, node, build, n_build, layout)[0]


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a + b


def _route(block: tuple[np.ndarray, np.ndarray], node: np.ndarray, step: RouteStep) -> np.ndarray:
    return route_rows(block[0], node, step).astype(np.int32)


def _root_nodes(block: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    return np.zeros(block[1].size, np.int32)


class DaskHistograms:
    """Blocks and node slots as persisted Dask objects; ``client`` None: dask's default scheduler."""

    def __init__(self, blocks: list[Any], layout: Layout, client: Any = None) -> None:
        self.client = client
        self.layout = layout
        self.blocks = self._persist(blocks)
        self.nodes = self._persist([dask.delayed(_root_nodes)(b) for b in self.blocks])

    def _persist(self, objs: list[Any]) -> list[Any]:
        if self.client is not None:
            return list(self.client.persist(objs))
        return list(dask.persist(*objs))

    def _compute(self, obj: Any) -> Any:
        if self.client is not None:
            return self.client.compute(obj).result()
        return dask.compute(obj)[0]

    def histograms(self, build: np.ndarray, n_build: int) -> tuple[np.ndarray, np.ndarray]:
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
        return H, H[..., 0].astype(np.int64)

    def route(self, step: RouteStep) -> None:
        old = self.nodes
        self.nodes = self._persist(
            [dask.delayed(_route)(b, nd, step) for b, nd in zip(self.blocks, old, strict=True)]
        )
        del old
