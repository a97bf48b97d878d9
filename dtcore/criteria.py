"""Impurity functions and split scores, vectorised: every function takes arrays of (weighted)
class counts whose last axis is the class, so one call scores every candidate split at once.

Logs are base 2 (bits), as in the textbooks and in scikit-learn.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike


def _xlog2x(p: np.ndarray) -> np.ndarray:
    """p·log2(p) with 0·log 0 = 0."""
    p = np.asarray(p, dtype=np.float64)
    out = np.zeros_like(p)
    pos = p > 0
    out[pos] = p[pos] * np.log2(p[pos])
    return out


def entropy(counts: ArrayLike) -> np.ndarray:
    """Ent(D) = -Σ p_k log2 p_k over the last axis (0 for an empty node)."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    return -_xlog2x(counts / safe[..., None]).sum(axis=-1)


def gini(counts: ArrayLike) -> np.ndarray:
    """Gini(D) = 1 - Σ p_k² over the last axis (0 for an empty node)."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    p = counts / safe[..., None]
    return np.where(total > 0, 1.0 - (p * p).sum(axis=-1), 0.0)


CLASSIFICATION_IMPURITY = {"entropy": entropy, "log_loss": entropy, "gini": gini}


def split_information(branch_weights: ArrayLike) -> np.ndarray:
    """IV(a) = -Σ |D^v|/|D| log2(|D^v|/|D|), branches on the last axis."""
    return entropy(branch_weights)


def children_impurity(
    branch_counts: ArrayLike, impurity: Callable[[np.ndarray], np.ndarray] = entropy
) -> np.ndarray:
    """Σ_v |D^v|/|D| · I(D^v) for counts shaped (..., branches, classes)."""
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    w = branch_counts.sum(axis=-1)
    total = w.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    return (w / safe[..., None] * impurity(branch_counts)).sum(axis=-1)


def information_gain(branch_counts: ArrayLike) -> np.ndarray:
    """Gain(D,a) = Ent(D) - Σ_v |D^v|/|D| Ent(D^v), for counts shaped (..., branches, classes)."""
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    return entropy(branch_counts.sum(axis=-2)) - children_impurity(branch_counts, entropy)


def gain_ratio(branch_counts: ArrayLike) -> np.ndarray:
    """Gain / IV; NaN where IV = 0 (one non-empty branch is never a valid test)."""
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    iv = split_information(branch_counts.sum(axis=-1))
    gain = information_gain(branch_counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(iv > 0, gain / np.where(iv > 0, iv, 1.0), np.nan)


# ---------------------------------------------------------------------------------------------
# CART split scoring on "stat channels", as scikit-learn's criteria compute it.
#
# A node or a candidate child is summarised by a channel vector whose last axis holds
#   classification: [weight, weighted count of class 0, ..., of class K-1]
#   regression:     [weight, Σ w·y, (optionally) Σ w·y²]
# Every function below is vectorised over the leading axes, so one call scores every candidate
# threshold of a feature for every node of a tree level.  The operation order follows
# scikit-learn's ``_criterion.pyx`` so that, with integer weights, proxies are bit-identical and
# exact ties resolve the same way (first position wins).

CLASSIFICATION_CRITERIA = ("gini", "entropy", "log_loss")
REGRESSION_CRITERIA = ("squared_error", "friedman_mse", "absolute_error", "poisson")

_LN2 = np.log(2.0)
EPSILON = float(np.finfo(np.float64).eps)
#: Weka's Utils.SMALL: J48 treats numbers closer than this as equal (gains, weights, ratios).
SMALL = 1e-6


def class_impurity(criterion: str, stats: np.ndarray, positive: bool = False) -> np.ndarray:
    """Gini or entropy (bits) from channels [w, c_0..c_{K-1}], class loop in sklearn's order.

    ``positive``: the caller needs the impurity only where the weight is > 0 (the rest may come
    out NaN), so the check for empty nodes is skipped: the same bits wherever w > 0."""
    w = stats[..., 0]
    if criterion == "gini":
        K = stats.shape[-1] - 1
        if K == 0:
            return np.zeros(w.shape)
        c = stats[..., 1]
        sq = c * c  # = 0 + c·c: the same bits as summing from zero
        for k in range(2, K + 1):
            c = stats[..., k]
            sq += c * c
        if positive or (np.ndim(w) and (w > 0).all()):  # the usual case: no masking passes
            sq /= w * w
            return np.subtract(1.0, sq, out=sq)
        safe = np.where(w > 0, w, 1.0)
        return np.where(w > 0, 1.0 - sq / (safe * safe), 0.0)
    safe = w if positive else np.where(w > 0, w, 1.0)  # 0/0 is NaN, never > 0: no term
    ent = np.zeros(w.shape)
    for k in range(1, stats.shape[-1]):
        p = stats[..., k] / safe
        pos = p > 0
        term = np.zeros(w.shape)
        np.multiply(p, np.log(np.where(pos, p, 1.0)) / _LN2, out=term, where=pos)
        ent = ent - term
    return ent


def channel_impurity(criterion: str, stats: np.ndarray) -> np.ndarray:
    """Impurity of nodes given their channel sums (regression needs the Σw·y² channel)."""
    if criterion in CLASSIFICATION_CRITERIA:
        return class_impurity(criterion, stats)
    if criterion in ("squared_error", "friedman_mse"):
        w = stats[..., 0]
        safe = np.where(w > 0, w, 1.0)
        mean = stats[..., 1] / safe
        return np.where(w > 0, stats[..., 2] / safe - mean * mean, 0.0)
    raise ValueError(f"channel_impurity: {criterion!r} needs the rows, not channel sums")


def proxy_improvement(
    criterion: str, left: np.ndarray, right: np.ndarray, positive: bool = False
) -> np.ndarray:
    """scikit-learn's ``proxy_impurity_improvement``: larger is better; ranks the candidates of
    one node exactly as the real improvement does, but is cheaper (constants dropped).

    For squared_error the regression channel may hold y minus any per-node constant: the proxy
    then shifts by a per-node constant and ranks candidates identically.  -inf = forbidden split
    (poisson with a child whose Σy ≤ ε). ``positive``: :func:`class_impurity`'s.
    """
    wl, wr = left[..., 0], right[..., 0]
    if criterion in CLASSIFICATION_CRITERIA:
        il = class_impurity(criterion, left, positive)
        ir = class_impurity(criterion, right, positive)
        return -wr * ir - wl * il
    sl, sr = left[..., 1], right[..., 1]
    if criterion == "squared_error":
        return sl * sl / wl + sr * sr / wr
    if criterion == "friedman_mse":
        diff = wr * sl - wl * sr
        return diff * diff / (wl * wr)
    if criterion == "poisson":
        ok = (sl > EPSILON) & (sr > EPSILON)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = sl * np.log(sl / wl) + sr * np.log(sr / wr)
        return np.where(ok, out, -np.inf)
    raise ValueError(f"no proxy for criterion {criterion!r}")


def impurity_improvement(
    criterion: str,
    w_total: float,
    w_node: np.ndarray | float,
    impurity: np.ndarray | float,
    w_left: np.ndarray | float,
    impurity_left: np.ndarray | float,
    w_right: np.ndarray | float,
    impurity_right: np.ndarray | float,
    sum_left: np.ndarray | float | None = None,
    sum_right: np.ndarray | float | None = None,
) -> np.ndarray:
    """The weighted impurity decrease N_t/N·(I − N_L/N_t·I_L − N_R/N_t·I_R) used by
    ``min_impurity_decrease`` and best-first growth, for every criterion.

    friedman_mse included: scikit-learn 1.9 maps it to squared_error (this decrease); its own
    score n_L·n_R/n_t·(mean_L − mean_R)² is :func:`friedman_score`, which the split explorer
    shows.  ``sum_left`` / ``sum_right`` are accepted for callers that pass them and unused.
    """
    w_node = np.asarray(w_node, dtype=np.float64)
    return (w_node / w_total) * (
        impurity - w_right / w_node * impurity_right - w_left / w_node * impurity_left
    )


def friedman_score(
    w_left: np.ndarray | float,
    w_right: np.ndarray | float,
    sum_left: np.ndarray | float,
    sum_right: np.ndarray | float,
) -> np.ndarray:
    """Friedman's improvement n_L·n_R/(n_L+n_R)·(mean_L − mean_R)² from the children's weights
    and Σw·y (any common shift of y gives the same score); not divided by the total weight."""
    wl, wr = np.asarray(w_left, dtype=np.float64), np.asarray(w_right, dtype=np.float64)
    diff = wr * sum_left - wl * sum_right
    return diff * diff / (wl * wr * (wl + wr))


def squared_error(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Weighted MSE around the weighted mean (CART regression node impurity)."""
    y = np.asarray(y, dtype=np.float64)
    w = np.ones_like(y) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    mean = np.sum(w * y) / np.sum(w)
    return float(np.sum(w * (y - mean) ** 2) / np.sum(w))


def weighted_median(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """scikit-learn's weighted median: the smallest y whose cumulative weight reaches half;
    when it reaches exactly half, the mean of that y and the next one."""
    y = np.asarray(y, dtype=np.float64)
    w = np.ones_like(y) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    order = np.argsort(y, kind="stable")
    ys, cw = y[order], np.cumsum(w[order])
    half = cw[-1] / 2.0
    k = int(np.searchsorted(cw, half, side="left"))
    if cw[k] == half and k + 1 < ys.size:
        return float((ys[k] + ys[k + 1]) / 2.0)
    return float(ys[k])


def absolute_error(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Weighted mean absolute deviation from the weighted median."""
    y = np.asarray(y, dtype=np.float64)
    w = np.ones_like(y) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    return float(np.sum(w * np.abs(y - weighted_median(y, w))) / np.sum(w))


def half_poisson_deviance(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Σ w·y·log(y/ȳ) / Σ w (scikit-learn's poisson impurity); inf when Σy ≤ ε."""
    y = np.asarray(y, dtype=np.float64)
    w = np.ones_like(y) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    s = np.sum(w * y)
    if s <= EPSILON:
        return float("inf")
    mean = s / np.sum(w)
    pos = y > 0
    return float(np.sum(w[pos] * y[pos] * np.log(y[pos] / mean)) / np.sum(w))
