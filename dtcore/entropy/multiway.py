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


def reasonable_branches(branch_weights: ArrayLike, min_cases: float) -> int:
    """Branches holding at least ``min_cases`` weight (C4.5 needs two of them)."""
    return int(np.sum(np.asarray(branch_weights) >= min_cases - SMALL))


def set_entropy_impurity(tree: Tree) -> Tree:
    """Node impurity = entropy of the class counts, for all nodes in one vectorised call
    (0 for empty leaves, whose counts are the parent's)."""
    tree.impurity = np.where(tree.weighted_n > 0, entropy(tree.value), 0.0)
    return tree
