"""ID3's decision rules: the one home ``ID3Classifier`` (``dtcore.id3.estimator``) and the split
explorer (``dtcore.explain``) both call, so what the explorer shows is what the builder does (as
``dtcore.c45.rules`` is for C4.5).

* :func:`feature_plan`: how each feature is tested, fixed before growth;
* :func:`leaf_reason` / :func:`leaf_reasons`: the stop rules checked before scoring tests;
* :func:`branch_rows` / :func:`branches_ok` / :func:`branches_ok_many`: ``min_samples_leaf`` on a
  multiway test;
* :func:`is_positive` / :func:`better` / :func:`better_many`: a gain that counts, and the tie
  rule between features;
* :func:`test_score`: the gain or the plain gain ratio, what the tie rule compares;
* :func:`weighted_gain` / :func:`decrease_ok`: the ``min_impurity_decrease`` test on N_t/N · gain.

The level-wise grower (``dtcore.id3.growth``) applies each rule to a whole depth at once: a
rule's one-node form is defined through its many-node form, or one body serves both.
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


#: :func:`leaf_reasons`' codes, by position: 0 is "try to split"
LEAF_REASONS = (None, "pure", "min_samples_split", "max_depth")


def leaf_reason(
    counts: np.ndarray, n_rows: int, depth: int, min_samples_split: float, max_depth: int | None
) -> str | None:
    """Why ID3 makes a node a leaf before scoring tests: ``"pure"`` (one class left),
    ``"min_samples_split"`` (fewer rows of positive weight than it), ``"max_depth"``; None: try
    to split (:func:`leaf_reasons` for one node).

    Rows, as ``min_samples_leaf`` counts them (:func:`branches_ok`) and scikit-learn counts
    ``min_samples_split``, not weight: with missing values a row reaches a node with a fraction of
    its weight (3 rows of weight 1.678 at watermelon 2.0α's 纹理=清晰 → 脐部=稍凹) and still counts
    as one row."""
    code = leaf_reasons(np.asarray(counts)[None, :], np.array([n_rows]), depth, min_samples_split, max_depth)
    return LEAF_REASONS[int(code[0])]


def leaf_reasons(
    counts: np.ndarray, n_rows: np.ndarray, depth: int, min_samples_split: float, max_depth: int | None
) -> np.ndarray:
    """:func:`leaf_reason` for the nodes of one depth at once: ``counts`` (nodes, classes),
    ``n_rows`` (nodes,); an index into :data:`LEAF_REASONS` per node (the first rule that holds)."""
    pure = np.count_nonzero(np.asarray(counts) > 0, axis=1) <= 1
    few = min_samples_split > np.asarray(n_rows)
    deep = max_depth is not None and depth >= max_depth
    return np.where(pure, 1, np.where(few, 2, 3 if deep else 0))


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


def is_positive(gain: Any) -> Any:
    """A gain that counts (exceeds float rounding); elementwise on an array."""
    return gain > POSITIVE_GAIN


def better(score: float, best: float | None) -> bool:
    """Whether a feature's score beats the best so far (features in column order: ties keep the
    first); :func:`better_many` for one node."""
    return bool(better_many(np.float64(score), np.float64(-np.inf if best is None else best)))


def better_many(score: Any, best: Any) -> Any:
    """:func:`better` for many nodes at once; ``best`` is −inf where a node has none yet."""
    return score > best + POSITIVE_GAIN


def test_score(gain: Any, iv: Any, criterion: str) -> Any:
    """What ID3 compares between a node's tests: the gain (``criterion="gain"``) or the plain
    gain ratio, 0 where the split information is 0 (elementwise on arrays)."""
    if criterion == "gain":
        return gain
    if isinstance(gain, np.ndarray):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(iv > 0, gain / iv, 0.0)
    return gain / iv if iv > 0 else 0.0


def weighted_gain(N: Any, N_total: float, gain: Any) -> Any:
    """N_t/N · gain: what ``min_impurity_decrease`` and best-first growth compare (elementwise
    on arrays)."""
    return N / N_total * gain


def decrease_ok(weighted: Any, min_impurity_decrease: float) -> Any:
    """Whether a split's N_t/N · gain (:func:`weighted_gain`) reaches ``min_impurity_decrease``
    (elementwise on an array)."""
    if isinstance(weighted, np.ndarray):
        return ~(weighted < min_impurity_decrease)
    return not weighted < min_impurity_decrease
