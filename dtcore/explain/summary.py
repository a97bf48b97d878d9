"""The ``splits`` summary: per feature, the best test at one node and its score, as plain data
(what ``python -m dtcore splits`` prints), condensed from ``dtcore.explain.split_report``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, SupportsFloat

import numpy as np
from numpy.typing import ArrayLike

from dtcore.estimators import estimator_class as _cls
from dtcore.export.thresholds import fmt_threshold
from dtcore.schema import Feature, Schema, encode_features, encode_target, infer_schema, target_encoding

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator
    from dtcore.explain.records import Candidates
    from dtcore.routing import SplitTest


def _threshold(t: float, test: SplitTest) -> str:
    """``t`` at 6 digits, or more where the node's values beside the cut need them."""
    below, above = (side or (None,) for side in (test.below, test.above))
    return fmt_threshold(t, 6, below[0], above[0])


def node_splits(
    X: ArrayLike,
    y: ArrayLike,
    features: Iterable[str] | None,
    kinds: Sequence[str | None] | dict[str, str] | None,
    categories: Mapping[str, Iterable[str]] | None,
    classes: Iterable[str] | None,
    task: str,
    target: str,
    *,
    algorithm: str = "cart",
    criterion: str | None = None,
    node: int = 0,
    estimator: BaseTreeEstimator | None = None,
    min_samples_leaf: int | float = 1,
    sample_weight: ArrayLike | None = None,
) -> dict:
    """Per feature, the best test at one node and its score (what ``splits`` prints): a summary
    of ``dtcore.explain.split_report``, whose numbers are the builder's own.

    CART: the best binary test, scored by the weighted impurity decrease (scikit-learn's
    ``min_impurity_decrease`` scale). ID3/C4.5: the multiway test of a categorical feature or the
    best cut of a continuous one, scored by the information gain the algorithm compares (ρ-weighted,
    SPEC §6; C4.5's after the MDL penalty, ``raw_gain`` before it), with the split information
    and gain ratio the algorithm uses. ``threshold`` is the midpoint cut; C4.5 stores the largest
    training value ≤ it (``stored_threshold``). ``best`` is the feature the algorithm's own rule
    picks (C4.5: best ratio among tests with at least average gain). A CART categorical feature
    adds ``split_impurity`` (Σ|D^v|/|D|·I(D^v) of its best subset) and ``one_vs_rest``: every test
    ``a = v`` versus ``a ≠ v`` with its ``split_impurity`` (the textbook's Gini(D, a)) and score.
    ``estimator``: a fitted one for ``node`` > 0; at the root an unfitted one gives the settings.
    """
    from dtcore import explain

    if algorithm in ("id3", "c45") and task != "classification":
        raise ValueError(f"{algorithm} builds classification trees only")
    fitted = estimator is not None and hasattr(estimator, "tree_")
    if estimator is None:
        estimator = _cls(algorithm, task)()
        if algorithm == "id3":
            estimator.set_params(continuous="threshold")
        if algorithm == "cart" and criterion:
            estimator.set_params(criterion=criterion)
        if "min_samples_leaf" in estimator.get_params():
            estimator.set_params(min_samples_leaf=min_samples_leaf)
    if fitted:
        schema = estimator.schema_
    else:
        if node != 0:
            raise ValueError("--node needs a trained tree")
        schema = infer_schema(X, features, kinds or None, categories or None, target=target)
    Xe = encode_features(X, schema)
    if fitted:
        ye = encode_target(schema, y)
    else:
        ye, cls = target_encoding(y, task, classes, schema.missing_tokens, target)
        schema = Schema(schema.features, target, cls, schema.missing_tokens)
        estimator.schema_ = schema
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    try:
        rep = explain.split_report(estimator, Xe, ye, w, node, tree=estimator.tree_ if fitted else None)
    except ValueError as exc:
        if "node" in str(exc):
            raise ValueError(f"--node {node}: {exc}") from None
        raise
    out = []
    for r in rep.features:
        feat = schema.features[r.feature]
        rec: dict[str, object] = {"feature": feat.name, "kind": feat.kind, "test": None, "score": None}
        if r.known_share is not None:
            rec["known_share"] = float(r.known_share)
        test = r.test
        if r.usable and test is not None:
            if algorithm == "cart":
                rec["score"] = _f(r.improvement)
                rec["score_name"] = "impurity_decrease"
                k = r.best
                cand = r.candidates
                assert cand is not None and cand.impurity_left is not None and cand.impurity_right is not None
                rec["impurity_left"] = _finite(cand.impurity_left[k])
                rec["impurity_right"] = _finite(cand.impurity_right[k])
                if feat.is_categorical:
                    assert cand.split_impurity is not None  # CART subsets carry it
                    left = [feat.categories[i] for i, b in enumerate(test.cat_branch or ()) if b == 0]
                    rec["test"] = f"{feat.name} ∈ {{{', '.join(left)}}}"
                    rec["left"] = left
                    rec["missing_left"] = test.missing_branch == 0
                    rec["split_impurity"] = _finite(cand.split_impurity[k])
                    rec["one_vs_rest"] = _one_vs_rest(feat, cand)
                else:
                    assert test.cuts is not None  # a CART test of a continuous feature is one cut
                    t = test.cuts[0]
                    rec["test"] = f"{feat.name} ≤ {_threshold(t, test)}"
                    rec["threshold"] = t
                    rec["missing_left"] = test.missing_branch == 0
            else:
                rec["score"] = _f(r.gain)
                rec["score_name"] = "gain"
                rec["raw_gain"] = _f(r.raw_gain)
                if r.mode == "threshold":
                    t = _f(r.midpoint)
                    rec["test"] = f"{feat.name} ≤ {_threshold(t, test)}"
                    rec["threshold"] = t
                    assert test.cuts is not None  # a threshold test has its cut
                    rec["stored_threshold"] = test.cuts[0]
                    si = _f(r.split_info)
                else:
                    rec["test"] = f"{feat.name} = ?"
                    if r.mode == "multiway":
                        present = np.asarray(r.branch_counts).sum(axis=1) > 0
                        rec["branches"] = [feat.categories[c] for c in np.nonzero(present)[0]]
                    si = _f(r.split_info if algorithm == "c45" else r.iv)
                rec["split_information"] = si
                rec["gain_ratio"] = _f(r.gain_ratio) if si > 0 else None
        out.append(rec)
    best = rep.chosen
    return {
        "node": node,
        "algorithm": algorithm,
        "criterion": rep.criterion,
        "weighted_n": float(rep.weighted_n),
        "n_samples": int(rep.n_samples),
        "best": None if best is None else schema.features[best].name,
        "features": out,
    }


def _one_vs_rest(feat: Feature, cand: Candidates) -> list[dict]:
    """Every one-vs-rest test ``a = v`` of a CART categorical feature (the textbook's), with
    Σ|D^v|/|D|·I(D^v) (Gini(D, a) for gini) and the weighted decrease; the tree keeps the optimal
    subset."""
    ovr, split_imp, decrease = cand.one_vs_rest, cand.split_impurity, cand.improvement
    assert ovr is not None and split_imp is not None and decrease is not None  # CART subsets carry them
    out = []
    for k in np.flatnonzero(ovr >= 0):
        v = feat.categories[int(ovr[k])]
        out.append(
            {
                "test": f"{feat.name} = {v}",
                "category": v,
                "split_impurity": _finite(split_imp[k]),
                "score": _finite(decrease[k]),
            }
        )
    return out


def _f(x: float | None) -> float:
    """A score the report holds for a usable feature's best test."""
    assert x is not None
    return float(x)


def _finite(x: SupportsFloat) -> float | None:
    x = float(x)
    return x if np.isfinite(x) else None
