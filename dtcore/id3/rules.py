"""ID3's decision rules: the one home ``ID3Classifier`` (``dtcore.id3.estimator``) and the split
explorer (``dtcore.explain``) both call, so what the explorer shows is what the builder does (as
``dtcore.c45.rules`` is for C4.5).

* :func:`feature_plan`: how each feature is tested, fixed before growth;
* :func:`leaf_reason`: the stop rules checked before scoring tests;
* :func:`branch_rows` / :func:`branches_ok`: ``min_samples_leaf`` on a multiway test;
* :func:`is_positive` / :func:`better`: a gain that counts, and the tie rule between features;
* :func:`weighted_gain` / :func:`decrease_ok`: the ``min_impurity_decrease`` test on N_t/N · gain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from dtcore.entropy.discretize import edges_for, inner_edges

if TYPE_CHECKING:
    from dtcore.schema import Schema

#: ID3's float-rounding tolerance: a gain must exceed it to count as positive, a later feature
#: must beat the best score by more than it, a branch may hold it less than min_samples_leaf
POSITIVE_GAIN = 1e-12
#: ID3's default test of a continuous feature (``continuous="intervals"``, seed 000) has one
#: branch per distinct training value; with more than this many the tree explodes in width (the
#: 10⁵ × 20 benchmark table, about 6 000 values a column: 19 756 560 nodes, 295 s of CPU), so the
#: app does not compare ID3 by default there (its Train page starts ID3 with a threshold test)
INTERVAL_BRANCHES = 64


def intervals_too_wide(widest: int) -> bool:
    """Whether intervals over a continuous feature with ``widest`` distinct values make too many
    branches (:data:`INTERVAL_BRANCHES`)."""
    return widest > INTERVAL_BRANCHES


def feature_plan(
    schema: Schema, X: np.ndarray, continuous: str, n_bins: int, random_state: int
) -> tuple[dict[int, tuple[str, Any]], dict[str, list[float]]]:
    """How ID3 tests each feature, fixed before growth: (plan, bin edges by feature name).

    ``plan[j]`` is ``("cat", n_branches)`` (one branch per category), ``("bins", inner cuts)``
    (pre-binned continuous feature, one branch per bin) or ``("thr", None)`` (binary cut)."""
    plan: dict[int, tuple[str, Any]] = {}
    bin_edges: dict[str, list[float]] = {}
    for j, f in enumerate(schema.features):
        if f.is_categorical:
            plan[j] = ("cat", len(f.categories))
        elif continuous == "threshold":
            plan[j] = ("thr", None)
        else:
            edges = edges_for(X[:, j], continuous, n_bins, random_state)
            bin_edges[f.name] = edges.tolist()
            plan[j] = ("bins", inner_edges(edges))
    return plan, bin_edges


def leaf_reason(
    counts: np.ndarray, n_rows: int, depth: int, min_samples_split: float, max_depth: int | None
) -> str | None:
    """Why ID3 makes a node a leaf before scoring tests: ``"pure"`` (one class left),
    ``"min_samples_split"`` (fewer rows of positive weight than it), ``"max_depth"``; None: try
    to split.

    Rows, as ``min_samples_leaf`` counts them (:func:`branches_ok`) and scikit-learn counts
    ``min_samples_split``, not weight: with missing values a row reaches a node with a fraction of
    its weight (3 rows of weight 1.678 at watermelon 2.0α's 纹理=清晰 → 脐部=稍凹) and still counts
    as one row."""
    if np.count_nonzero(counts > 0) <= 1:
        return "pure"
    if min_samples_split > n_rows:
        return "min_samples_split"
    if max_depth is not None and depth >= max_depth:
        return "max_depth"
    return None


def branch_rows(branch: np.ndarray, w: np.ndarray, n_branches: int) -> np.ndarray:
    """Rows of positive weight whose known value sends them down each branch (``branch``: float
    with NaN, or int with < 0, for an unknown value; those rows are not counted)."""
    b = np.asarray(branch)
    bi = np.where(np.isnan(b), -1, b).astype(np.int64) if b.dtype.kind == "f" else b.astype(np.int64)
    sel = (bi >= 0) & (bi < n_branches) & (np.asarray(w) > 0)
    return np.bincount(bi[sel], minlength=n_branches)[:n_branches]


def branches_ok(n_rows: np.ndarray, min_samples_leaf: float) -> bool:
    """A multiway test is usable with at least two non-empty branches, each holding
    ``min_samples_leaf`` rows (:func:`branch_rows`; empty branches become empty leaves).

    Rows, as scikit-learn's ``min_samples_leaf`` counts them, not weight: with missing values a
    row reaches a node with a fraction of its weight and still counts as one row."""
    n_rows = np.asarray(n_rows)
    nonempty = n_rows[n_rows > 0]
    return nonempty.size >= 2 and nonempty.min() >= min_samples_leaf - POSITIVE_GAIN


def branches_ok_many(n_rows: np.ndarray, min_samples_leaf: float) -> np.ndarray:
    """:func:`branches_ok` for several tests at once: ``n_rows`` (tests, branches)."""
    n_rows = np.asarray(n_rows)
    nonempty = n_rows > 0
    smallest = np.where(nonempty, n_rows, np.inf).min(axis=1, initial=np.inf)
    return (nonempty.sum(axis=1) >= 2) & (smallest >= min_samples_leaf - POSITIVE_GAIN)


def is_positive(gain: float) -> bool:
    """A gain that counts (exceeds float rounding)."""
    return gain > POSITIVE_GAIN


def better(score: float, best: float | None) -> bool:
    """Whether a feature's score beats the best so far (features in column order: ties keep the
    first)."""
    return best is None or score > best + POSITIVE_GAIN


def weighted_gain(N: float, N_total: float, gain: float) -> float:
    """N_t/N · gain: what ``min_impurity_decrease`` and best-first growth compare."""
    return N / N_total * gain


def decrease_ok(weighted: float, min_impurity_decrease: float) -> bool:
    """Whether a split's N_t/N · gain (:func:`weighted_gain`) reaches ``min_impurity_decrease``."""
    return not weighted < min_impurity_decrease
