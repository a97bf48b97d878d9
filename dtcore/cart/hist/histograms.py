"""Histograms of rows per (node, feature, bin), and moving rows one level down: the two things
the histogram grower asks of the data, wherever the data live.

:class:`HistogramSource` is that interface: ``histograms(build, n_build)`` sums the rows of the
nodes being built, ``route(step)`` moves every row to its child after a level's splits.  The
kernels :func:`partial_histograms` and :func:`route_rows` work on one block of rows (bin codes,
targets, weights, the node of each row), so the same grower runs on in-memory arrays
(:class:`InMemoryHistograms`, one block) and on the partitions of a Dask frame (``dtdask``:
one block per partition, partial histograms added up; only histograms travel).

Layout: a histogram is ``(n_build, bins.total, d)`` channel sums plus ``(n_build, bins.total)``
row counts, feature f owning the bins ``bins.offset[f] …`` (its missing bin last).  Channels:
classification ``[w, w·[y = 0], …, w·[y = K−1]]``; regression ``[w, w·y, w·y²]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class Layout:
    """What a block needs to know to build histograms: the bins per feature and the task."""

    n_bins: np.ndarray  # known bins per feature (the missing bin is one more)
    n_classes: int  # 0: regression

    @property
    def offset(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.n_bins + 1)[:-1]]).astype(np.int64)

    @property
    def total(self) -> int:
        return int(np.sum(self.n_bins + 1))

    @property
    def channels(self) -> int:
        return self.n_classes + 1 if self.n_classes else 3


@dataclass(frozen=True)
class RouteStep:
    """A level's splits in bin space, per node slot of the level: the split feature (−1: the
    node was not split, its rows leave), whether each bin of that feature goes left
    (``left[slot, code]``, missing bin included), and the children's slots at the next level
    (−1: the child is a leaf, its rows leave)."""

    feature: np.ndarray  # (n_slots,)
    left: np.ndarray  # (n_slots, max bins + 1) bool
    left_slot: np.ndarray  # (n_slots,)
    right_slot: np.ndarray  # (n_slots,)


class HistogramSource(Protocol):
    """The data as the grower sees them."""

    #: every row weighs 1: the channel sums are whole numbers (exact in any order of addition)
    unit_weights: bool

    def histograms(
        self, build: np.ndarray, n_build: int, slots: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Channel sums and row counts of the rows at every slot s with ``build[s] ≥ 0``, in
        histogram ``build[s]``; with ``slots`` the arrays hold that many histograms, the ones
        past ``n_build`` zero (room for the siblings the grower subtracts, without a copy)."""
        ...

    def route(self, step: RouteStep) -> None:
        """Move every row to its child slot (−1 once it is in a leaf)."""
        ...


def partial_histograms(
    codes: np.ndarray,
    y: np.ndarray,
    w: np.ndarray | None,
    node: np.ndarray,
    build: np.ndarray,
    n_build: int,
    layout: Layout,
    slots: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Histograms of one block of rows: ``codes`` (n_features, m) bin codes, ``y`` class codes
    or targets, ``w`` weights (None: all 1), ``node`` each row's slot (−1: in a leaf);
    ``slots``: :meth:`HistogramSource.histograms`'.

    One ``np.bincount`` per feature and channel over combined indices, every feature's bins
    padded to the widest feature's so that the (node, class) part of the index is computed once
    per block and each feature adds only its codes; classification puts the class first
    (class, node, bin), so one count also gives the row counts.  Each bin's sums are added in
    row order, as one bincount per feature and channel adds them."""
    slot_build = np.append(np.asarray(build, dtype=np.int64), -1)  # slot −1 → −1
    local = slot_build[node]
    rows = np.flatnonzero(local >= 0)
    if rows.size < local.size:
        local, codes, y = local[rows], codes[:, rows], y[rows]
        w = None if w is None else w[rows]
    K, d, TB = layout.n_classes, layout.channels, layout.total
    width = int(layout.n_bins.max()) + 1 if layout.n_bins.size else 1
    H = np.zeros((max(n_build, slots or 0), TB, d))
    N = np.zeros((H.shape[0], TB), np.int64)
    Hb, Nb = H[:n_build], N[:n_build]  # the histograms built here
    if K:
        base = (np.asarray(y, dtype=np.intp) * n_build + local) * width
        size = K * n_build * width
    else:
        base = local * width
        size = n_build * width
        yv = np.asarray(y, dtype=np.float64)
        wy = yv if w is None else w * yv
        wyy = wy * yv
    key = np.empty(base.size, np.intp)
    for j, (o, nb) in enumerate(zip(layout.offset, layout.n_bins, strict=True)):  # features
        s = int(nb) + 1
        np.add(base, codes[j], out=key)
        if K:
            c = np.bincount(key, weights=w, minlength=size).reshape(K, n_build, width)[:, :, :s]
            for k in range(K):  # a class at a time: long inner loops (a transposed copy of the
                Hb[:, o : o + s, 1 + k] = c[k]  # whole block ran 3-element ones, 2.5× slower)
            total = c.sum(axis=0) if K > 1 else c[0]  # without weights: whole counts
            Hb[:, o : o + s, 0] = total
            if w is None:
                Nb[:, o : o + s] = total
            else:
                n_c = np.bincount(key, minlength=size).reshape(K, n_build, width)[:, :, :s]
                Nb[:, o : o + s] = n_c.sum(axis=0)
        else:
            cnt = np.bincount(key, minlength=size).reshape(n_build, width)[:, :s]
            Nb[:, o : o + s] = cnt
            Hb[:, o : o + s, 0] = (
                cnt if w is None else np.bincount(key, w, size).reshape(n_build, width)[:, :s]
            )
            Hb[:, o : o + s, 1] = np.bincount(key, wy, size).reshape(n_build, width)[:, :s]
            Hb[:, o : o + s, 2] = np.bincount(key, wyy, size).reshape(n_build, width)[:, :s]
    return H, N


def route_rows(codes: np.ndarray, node: np.ndarray, step: RouteStep) -> np.ndarray:
    """Each row's slot at the next level (−1: in a leaf) under a level's splits: one table
    (slot, code) → next slot, read at each row's split feature's code (rows in a leaf, or at a
    node not split, read a row of −1)."""
    n_slots, width = step.left.shape
    go = np.full((n_slots + 1, width), -1, np.int64)  # the last row: slot −1 (in a leaf)
    split = step.feature >= 0
    go[:n_slots] = np.where(step.left, step.left_slot[:, None], step.right_slot[:, None])
    go[:n_slots][~split] = -1
    feat = np.append(np.where(split, step.feature, 0), 0)[node]  # slot −1 → the last entry
    n = node.size
    flat = feat * n
    flat += np.arange(n)
    code = codes.reshape(-1).take(flat) if codes.flags.c_contiguous else codes[feat, np.arange(n)]
    at = node * width  # slot −1 → −width: the last row of ``go``
    at += code
    return go.reshape(-1).take(at)


class InMemoryHistograms:
    """The histogram source of arrays in memory: one block, each row's slot kept between levels."""

    def __init__(self, codes: np.ndarray, y: np.ndarray, w: np.ndarray, layout: Layout) -> None:
        self.codes = codes
        self.y = y
        self.w = None if bool(np.all(w == 1.0)) else w
        self.unit_weights = self.w is None
        self.layout = layout
        self.node = np.zeros(codes.shape[1], np.int64)

    def histograms(
        self, build: np.ndarray, n_build: int, slots: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        return partial_histograms(self.codes, self.y, self.w, self.node, build, n_build, self.layout, slots)

    def route(self, step: RouteStep) -> None:
        self.node = route_rows(self.codes, self.node, step)
