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


def set_entropy_impurity(tree: Tree) -> Tree:
    """Node impurity = entropy of the class counts, for all nodes in one vectorised call
    (0 for empty leaves, whose counts are the parent's)."""
    tree.impurity = np.where(tree.weighted_n > 0, entropy(tree.value), 0.0)
    return tree
