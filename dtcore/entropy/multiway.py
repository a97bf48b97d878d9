"""Scoring a multiway split (one branch per category or interval) with C4.5's missing-value rule.

Shared by ID3 and C4.5.  With D̃ the rows whose value is known (SPEC §6):

    Gain = ρ · (Ent(D̃) − Σ_v r̃_v Ent(D̃^v)),  ρ = known weight / node weight

and the split information counts the unknown rows as one more branch (C4.5 release 8, SPEC §9):
``info([K_1..K_V, N−K]) / N``; with no missing values both reduce to the textbook formulas.
Training then sends a row with an unknown value down every branch v with weight ``w · K_v / K``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dtcore.criteria import SMALL, entropy, split_information
from dtcore.tree import Tree


@dataclass
class MultiwayScore:
    counts: np.ndarray  # (V, C) weighted class counts of known rows per branch
    unknown: np.ndarray  # (C,) weighted class counts of rows with the value unknown
    gain: float  # ρ-weighted information gain
    split_info: float  # unknown rows as an extra branch
    gain_ratio: float  # gain / split_info (0 when split_info is 0)
    iv: float  # textbook IV over the known branches only

    @property
    def branch_weights(self) -> np.ndarray:
        return self.counts.sum(axis=1)

    @property
    def known_weight(self) -> float:
        return float(self.counts.sum())

    @property
    def node_weight(self) -> float:
        return float(self.counts.sum() + self.unknown.sum())


def branch_class_counts(
    branch: ArrayLike, y: ArrayLike, w: ArrayLike, n_branches: int, n_classes: int
) -> tuple[np.ndarray, np.ndarray]:
    """Weighted class counts per branch; ``branch`` is float (NaN = unknown) or int (<0 = unknown).

    Returns ((V, C) counts of known rows, (C,) counts of unknown rows)."""
    b = np.asarray(branch)
    if b.dtype.kind == "f":
        known = ~np.isnan(b)
        bi = np.where(known, b, -1).astype(np.int64)
    else:
        bi = b.astype(np.int64)
    known = (bi >= 0) & (bi < n_branches)
    y = np.asarray(y, dtype=np.int64)
    w = np.asarray(w, dtype=np.float64)
    counts = np.bincount(
        bi[known] * n_classes + y[known], weights=w[known], minlength=n_branches * n_classes
    ).reshape(n_branches, n_classes)
    unknown = np.bincount(y[~known], weights=w[~known], minlength=n_classes)
    return counts, unknown


@dataclass(frozen=True)
class BranchCounts:
    """:func:`branch_class_counts` of F features at k nodes at once, test t = node · F + feature."""

    counts: np.ndarray  # (k·F, V, C) weighted class counts of known rows per branch
    unknown: np.ndarray  # (k·F, C) weighted class counts of rows with the value unknown
    rows: np.ndarray  # (k·F, V) rows of positive weight per branch (``id3.rules.branch_rows``)


def branch_class_counts_many(
    codes: np.ndarray, y: np.ndarray, w: np.ndarray, node: np.ndarray, k: int, n_branches: int, n_classes: int
) -> BranchCounts:
    """The counts of F multiway tests with ``n_branches`` branches each at k nodes, one
    ``bincount`` per kind of count over every (row, feature) cell (a level-wise grower's node
    count no longer multiplies numpy's fixed cost per call).

    ``codes`` (m, F) the branch of each row under each test (< 0 or ≥ V: unknown), ``y`` class
    codes, ``w`` weights and ``node`` (< k) each row's node, rows grouped by node. Each count
    adds its rows' weights in row order, as :func:`branch_class_counts` adds a node's rows, so
    the numbers are the same bit for bit."""
    m, F = codes.shape
    V, C, KF = n_branches, n_classes, k * F
    known = (codes >= 0) & (codes < V)
    test = node[:, None] * F + np.arange(F)  # (node, feature) of each cell
    slot = test * V + np.where(known, codes, 0)  # (node, feature, branch)
    y_col = np.asarray(y, dtype=np.int64)[:, None]
    w_cells = np.repeat(np.asarray(w, dtype=np.float64), F)
    # a cell that does not belong in a count goes to one bin past the end, then dropped
    cell = np.where(known, slot * C + y_col, KF * V * C).ravel()
    counts = np.bincount(cell, weights=w_cells, minlength=KF * V * C + 1)[: KF * V * C]
    lost = np.where(known, KF * C, test * C + y_col).ravel()
    unknown = np.bincount(lost, weights=w_cells, minlength=KF * C + 1)[: KF * C]
    counted = np.where(known & (np.asarray(w)[:, None] > 0), slot, KF * V).ravel()
    n_rows = np.bincount(counted, minlength=KF * V + 1)[: KF * V]
    return BranchCounts(counts.reshape(KF, V, C), unknown.reshape(KF, C), n_rows.reshape(KF, V))


def _info(counts: ArrayLike) -> float:
    """Σ n·log2(n) form used by C4.5/J48: total·Ent (weight × bits)."""
    counts = np.asarray(counts, dtype=np.float64)
    return float(counts.sum() * entropy(counts))


def score_multiway(counts: ArrayLike, unknown: ArrayLike) -> MultiwayScore:
    """Gain (with ρ), split information (unknown as a branch), gain ratio and plain IV."""
    counts = np.asarray(counts, dtype=np.float64)
    unknown = np.asarray(unknown, dtype=np.float64)
    K = counts.sum()
    N = K + unknown.sum()
    bw = counts.sum(axis=1)
    if K <= 0 or N <= 0:
        return MultiwayScore(counts, unknown, 0.0, 0.0, 0.0, 0.0)
    old = _info(counts.sum(axis=0))
    # every branch's Σ n·log2(n) in one vectorised call (a node may have 10⁵ branches), summed
    # in branch order as before
    new = sum((counts.sum(axis=1) * entropy(counts)).tolist())
    numerator = (old - new) * (1.0 - (N - K) / N)  # J48's order of operations
    gain = 0.0 if abs(numerator) < SMALL else numerator / K
    split_ent = float(split_information(np.append(bw, N - K))) * N  # weight × bits
    ratio = 0.0 if abs(split_ent) < SMALL else gain / (split_ent / N)
    iv = float(split_information(bw))
    return MultiwayScore(counts, unknown, gain, split_ent / N, ratio, iv)


@dataclass(frozen=True)
class MultiwayScores:
    """:func:`score_multiway`'s numbers for several tests at once, one entry per test."""

    gain: np.ndarray
    split_info: np.ndarray
    gain_ratio: np.ndarray
    iv: np.ndarray


def score_multiway_many(counts: ArrayLike, unknown: ArrayLike) -> MultiwayScores:
    """:func:`score_multiway` for F tests with the same branch count at once (ID3 scores every
    categorical feature of a node in one call instead of F): ``counts`` (F, V, C), ``unknown``
    (F, C).  The same operations in the same order on each test's numbers (reductions over
    the same lengths, the branch sum left to right as Python's ``sum``), so each entry equals
    :func:`score_multiway`'s bit for bit."""
    counts = np.asarray(counts, dtype=np.float64)
    unknown = np.asarray(unknown, dtype=np.float64)
    F, V, C = counts.shape
    K = counts.reshape(F, V * C).sum(axis=1)
    N = K + unknown.sum(axis=1)
    bw = counts.sum(axis=2)
    total = counts.sum(axis=1)  # per class over the branches, row by row as numpy adds them
    old = total.sum(axis=1) * entropy(total)
    per_branch = bw * entropy(counts)
    new = np.zeros(F)
    for v in range(V):  # left to right, as ``sum`` over the branch list
        new = new + per_branch[:, v]
    with np.errstate(divide="ignore", invalid="ignore"):
        numerator = (old - new) * (1.0 - (N - K) / N)
        gain = np.where(np.abs(numerator) < SMALL, 0.0, numerator / K)
        split_ent = split_information(np.concatenate([bw, (N - K)[:, None]], axis=1)) * N
        ratio = np.where(np.abs(split_ent) < SMALL, 0.0, gain / (split_ent / N))
        info = split_ent / N
    iv = split_information(bw)
    empty = (K <= 0) | (N <= 0)
    zero = np.zeros(F)
    return MultiwayScores(
        np.where(empty, zero, gain),
        np.where(empty, zero, info),
        np.where(empty, zero, ratio),
        np.where(empty, zero, iv),
    )


def reasonable_branches(branch_weights: ArrayLike, min_cases: float) -> int:
    """Branches holding at least ``min_cases`` weight (C4.5 needs two of them)."""
    return int(np.sum(np.asarray(branch_weights) >= min_cases - SMALL))


def reasonable_branches_many(branch_weights: np.ndarray, min_cases: float) -> np.ndarray:
    """Whether each test (a row of ``branch_weights``, tests × branches) has the two branches of
    at least ``min_cases`` weight C4.5 needs (:func:`reasonable_branches` ≥ 2)."""
    return np.sum(branch_weights >= min_cases - SMALL, axis=1) >= 2


def set_entropy_impurity(tree: Tree) -> Tree:
    """Node impurity = entropy of the class counts, for all nodes in one vectorised call
    (0 for empty leaves, whose counts are the parent's)."""
    tree.impurity = np.where(tree.weighted_n > 0, entropy(tree.value), 0.0)
    return tree
