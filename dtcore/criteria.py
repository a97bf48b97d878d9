"""Impurity functions and split scores, vectorised: every function takes arrays of (weighted)
class counts whose last axis is the class, so one call scores every candidate split at once.

Logs are base 2 (bits), as in the textbooks and in scikit-learn.
"""
from __future__ import annotations

import numpy as np


def _xlog2x(p: np.ndarray) -> np.ndarray:
    """p·log2(p) with 0·log 0 = 0."""
    p = np.asarray(p, dtype=np.float64)
    out = np.zeros_like(p)
    pos = p > 0
    out[pos] = p[pos] * np.log2(p[pos])
    return out


def entropy(counts) -> np.ndarray:
    """Ent(D) = -Σ p_k log2 p_k over the last axis (0 for an empty node)."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    return -_xlog2x(counts / safe[..., None]).sum(axis=-1)


def gini(counts) -> np.ndarray:
    """Gini(D) = 1 - Σ p_k² over the last axis (0 for an empty node)."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    p = counts / safe[..., None]
    return np.where(total > 0, 1.0 - (p * p).sum(axis=-1), 0.0)


CLASSIFICATION_IMPURITY = {"entropy": entropy, "log_loss": entropy, "gini": gini}


def split_information(branch_weights) -> np.ndarray:
    """IV(a) = -Σ |D^v|/|D| log2(|D^v|/|D|), branches on the last axis."""
    return entropy(branch_weights)


def children_impurity(branch_counts, impurity=entropy) -> np.ndarray:
    """Σ_v |D^v|/|D| · I(D^v) for counts shaped (..., branches, classes)."""
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    w = branch_counts.sum(axis=-1)
    total = w.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    return (w / safe[..., None] * impurity(branch_counts)).sum(axis=-1)


def information_gain(branch_counts) -> np.ndarray:
    """Gain(D,a) = Ent(D) - Σ_v |D^v|/|D| Ent(D^v), for counts shaped (..., branches, classes)."""
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    return entropy(branch_counts.sum(axis=-2)) - children_impurity(branch_counts, entropy)


def gain_ratio(branch_counts) -> np.ndarray:
    """Gain / IV; NaN where IV = 0 (one non-empty branch is never a valid test)."""
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    iv = split_information(branch_counts.sum(axis=-1))
    gain = information_gain(branch_counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(iv > 0, gain / np.where(iv > 0, iv, 1.0), np.nan)
