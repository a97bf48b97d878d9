"""scikit-learn's trees read by duck typing (scikit-learn is never imported): a single
``DecisionTree*``/``ExtraTree*`` from its ``tree_`` arrays, one member of a ``RandomForest*``,
``ExtraTrees*`` or ``GradientBoosting*`` the same way, one predictor of a
``HistGradientBoosting*`` from its ``nodes`` record array and categorical bitsets.

Routing is kept exactly: scikit-learn's trees round X to float32 and send ``x <= threshold``
left, so each threshold becomes the float64 cut with the same outcome for every float64 x
(``assemble.float32_le_cut``); HGB compares float64 values with ``num_threshold`` (the real
threshold, not the bin index), kept as it is. NaN follows ``missing_go_to_left``.

What a leaf holds: class counts (single trees and forest members: ``tree_.value`` × the node's
weight, as scikit-learn ≥ 1.4 stores fractions), the mean target (regressors), or for boosted
members a raw score: a ``GradientBoosting*`` member's leaf is its own output before the
ensemble multiplies it by ``learning_rate``; an HGB predictor's leaf already includes the
learning rate. For classifiers that score is a log-odds contribution (binary: of the second
class; multiclass: of class k, before the softmax), never a probability.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dtcore.base import BaseTreeEstimator
from dtcore.criteria import CLASSIFICATION_CRITERIA, REGRESSION_CRITERIA
from dtcore.export.origin import CLASS_COUNTS, MEAN_TARGET, RAW_SCORE, ModelOrigin, NoteClause, clause
from dtcore.importers.assemble import (
    SourceNode,
    bit_set,
    build_tree,
    float32_le_cut,
    imported_estimator,
    numbered_features,
)
from dtcore.routing import SplitTest
from dtcore.schema import Schema, is_missing, label_of

FORESTS = ("RandomForestClassifier", "RandomForestRegressor", "ExtraTreesClassifier", "ExtraTreesRegressor")
SINGLE = ("DecisionTreeClassifier", "DecisionTreeRegressor", "ExtraTreeClassifier", "ExtraTreeRegressor")
BOOSTED = ("GradientBoostingClassifier", "GradientBoostingRegressor")
HISTOGRAM = ("HistGradientBoostingClassifier", "HistGradientBoostingRegressor")


def from_sklearn(
    estimator: Any, tree: int = 0, output: int | None = None, target: str = "y"
) -> BaseTreeEstimator:
    """A fitted dtcore estimator holding the tree of a fitted scikit-learn model (or a pipeline's
    last step is the caller's to pass): the model itself for a single tree, member ``tree`` of
    an ensemble; for a boosted multiclass model, ``output`` picks the class (default 0).
    Feature names come from ``feature_names_in_``, class names from ``classes_``."""
    kind = type(estimator).__name__
    if not hasattr(estimator, "n_features_in_"):
        raise ValueError(f"{kind} is not fitted (it has no n_features_in_): fit it first")
    names = _names(estimator)
    if kind in SINGLE:
        origin = ModelOrigin(f"scikit-learn {kind}", _leaf_kind(estimator))
        return _single(estimator, names, target, origin, getattr(estimator, "classes_", None))
    if kind in FORESTS:
        members = list(estimator.estimators_)
        i = _member(tree, len(members), kind)
        origin = ModelOrigin(
            f"scikit-learn {kind}",
            _leaf_kind(estimator),
            member=i,
            n_members=len(members),
            clauses=(clause("forest_probabilities" if _is_classifier(estimator) else "forest_predictions"),),
        )
        return _single(members[i], names, target, origin, getattr(estimator, "classes_", None))
    if kind in BOOSTED:
        grid = np.asarray(estimator.estimators_, dtype=object)
        i = _member(tree, grid.shape[0], kind)
        k = _output(output, grid.shape[1], kind)
        score, out_name = _score_of(estimator, k, grid.shape[1])
        origin = ModelOrigin(
            f"scikit-learn {kind}",
            RAW_SCORE,
            member=i,
            n_members=grid.shape[0],
            output=out_name,
            clauses=(
                _score_clause("gb", score, out_name),
                clause("gb_learning_rate", rate=estimator.learning_rate),
            ),
        )
        return _single(grid[i, k], names, _score_target(score), origin, None)
    if kind in HISTOGRAM:
        return _histogram(estimator, tree, output, names)
    raise ValueError(
        f"cannot import a {kind}: dtcore reads scikit-learn's {', '.join(SINGLE + FORESTS + BOOSTED + HISTOGRAM)}"
    )


def _is_classifier(est: Any) -> bool:
    return hasattr(est, "classes_")


def _leaf_kind(est: Any) -> str:
    return CLASS_COUNTS if _is_classifier(est) else MEAN_TARGET


def _names(est: Any) -> list[str] | None:
    names = getattr(est, "feature_names_in_", None)
    return None if names is None else [str(n) for n in names]


def _member(i: int, n: int, kind: str) -> int:
    if not isinstance(i, (int, np.integer)) or not -n <= int(i) < n:
        raise ValueError(f"tree={i!r}: this {kind} has {n} trees (0 to {n - 1})")
    return int(i) % n


def _output(k: int | None, n: int, kind: str) -> int:
    if k is None:
        return 0
    if not -n <= int(k) < n:
        raise ValueError(f"output={k!r}: this {kind}'s trees score {n} output(s) (0 to {n - 1})")
    return int(k) % n


def _score_of(est: Any, k: int, n_outputs: int) -> tuple[str, str | None]:
    """(what a boosted member's leaf holds: "log_odds" towards a class, "softmax" (a class's raw
    score before the softmax) or "raw" (a regressor's), the class it scores)."""
    classes = getattr(est, "classes_", None)
    if classes is None:
        return "raw", None
    labels = [label_of(c) for c in classes]
    cls = labels[1] if n_outputs == 1 and len(labels) == 2 else labels[k]
    return ("log_odds" if n_outputs == 1 else "softmax"), cls


def _score_clause(family: str, score: str, label: str | None) -> NoteClause:
    """The clause of the note that says what a ``family`` ("gb", "hgb") member's leaf holds."""
    return clause(f"{family}_{score}") if label is None else clause(f"{family}_{score}", label=repr(label))


def _score_target(score: str) -> str:
    return "log-odds contribution" if score == "log_odds" else "raw score"


def _single(
    model: Any, names: list[str] | None, target: str, origin: ModelOrigin, classes: Any
) -> BaseTreeEstimator:
    """A tree with a scikit-learn ``tree_`` (a single tree, a forest member, a boosting stage);
    ``classes``: the class values of its ``value`` columns (None: a regression tree)."""
    t = model.tree_
    if int(t.n_outputs) != 1:
        raise ValueError(f"cannot import a tree with {t.n_outputs} outputs: dtcore trees predict one target")
    left = np.asarray(t.children_left)
    right = np.asarray(t.children_right)
    feature = np.asarray(t.feature)
    threshold = np.asarray(t.threshold, dtype=np.float64)
    value = np.asarray(t.value, dtype=np.float64)[:, 0, :]
    wn = np.asarray(t.weighted_n_node_samples, dtype=np.float64)
    rows = np.asarray(t.n_node_samples)
    impurity = np.asarray(t.impurity, dtype=np.float64)
    missing_left = getattr(t, "missing_go_to_left", None)
    is_clf = classes is not None
    if is_clf:
        counts = _class_counts(value, wn)
    n_features = int(t.n_features)
    nodes = []
    for i in range(left.size):
        v = tuple(counts[i]) if is_clf else (float(value[i, 0]),)
        test = None
        kids: tuple[int, ...] = ()
        if left[i] >= 0:
            kids = (int(left[i]), int(right[i]))
            # NaN: scikit-learn's learned side; an older model (no missing_go_to_left) refused NaN,
            # here it takes the heavier child, as scikit-learn ≥ 1.3 does for unseen NaN
            if missing_left is not None:
                mb = 0 if missing_left[i] else 1
            else:
                mb = 0 if wn[left[i]] >= wn[right[i]] else 1
            test = SplitTest(int(feature[i]), cuts=(float32_le_cut(float(threshold[i])),), missing_branch=mb)
        nodes.append(SourceNode(v, float(wn[i]), int(rows[i]), float(impurity[i]), test, kids))
    n_classes = len(classes) if is_clf else 0
    schema = Schema(
        numbered_features(n_features, names, {}),
        target,
        tuple(label_of(c) for c in classes) if is_clf else None,
    )
    est = imported_estimator(build_tree(nodes, n_classes), schema, origin)
    crit = getattr(model, "criterion", None)  # how its impurities were measured (restate keeps it)
    if not origin.is_raw_score and crit in (CLASSIFICATION_CRITERIA if is_clf else REGRESSION_CRITERIA):
        est.set_params(criterion=crit)
    if is_clf:
        _keep_class_values(est, classes)
    return est


def _class_counts(value: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Weighted class counts per node from ``tree_.value`` (fractions since scikit-learn 1.4,
    counts before): the row's shares times the node's weight, snapped to whole numbers where they
    are whole up to rounding, so that counts / total gives back scikit-learn's probabilities."""
    tot = value.sum(axis=1, keepdims=True)
    counts = value / np.where(tot > 0, tot, 1.0) * weight[:, None]
    whole = np.round(counts)
    return np.where(np.abs(counts - whole) <= 1e-9 * np.maximum(1.0, np.abs(counts)), whole, counts)


def _keep_class_values(est: BaseTreeEstimator, classes: Any) -> None:
    """``predict`` returns the source's own class values (numbers stay numbers), columns of
    ``predict_proba`` in its ``classes_`` order, as scikit-learn's model does."""
    values = np.asarray(classes)
    est._class_values = values
    est._proba_columns = np.arange(values.size)
    est.classes_ = values


def _histogram(est: Any, tree: int, output: int | None, names: list[str] | None) -> BaseTreeEstimator:
    """One predictor of a ``HistGradientBoosting*``: ``_predictors[tree][output].nodes``."""
    kind = type(est).__name__
    predictors = est._predictors
    i = _member(tree, len(predictors), kind)
    k = _output(output, len(predictors[i]), kind)
    pred = predictors[i][k]
    order, categories = _hist_columns(est)
    nodes_arr = pred.nodes
    bitsets = np.asarray(pred.raw_left_cat_bitsets)
    nodes = []
    for node in nodes_arr:
        test = None
        kids: tuple[int, ...] = ()
        if not node["is_leaf"]:
            j = order[int(node["feature_idx"])]
            mb = 0 if node["missing_go_to_left"] else 1
            kids = (int(node["left"]), int(node["right"]))
            if node["is_categorical"]:
                words = bitsets[int(node["bitset_idx"])].tolist()
                table = tuple(0 if bit_set(words, c) else 1 for c in range(len(categories[j])))
                test = SplitTest(j, cat_branch=table, missing_branch=mb)
            else:
                test = SplitTest(j, cuts=(float(node["num_threshold"]),), missing_branch=mb)
        count = int(node["count"])
        nodes.append(SourceNode((float(node["value"]),), float(count), count, 0.0, test, kids))
    score, out_name = _score_of(est, k, len(predictors[i]))
    origin = ModelOrigin(
        f"scikit-learn {kind}",
        RAW_SCORE,
        member=i,
        n_members=len(predictors),
        output=out_name,
        impurities=False,
        clauses=(_score_clause("hgb", score, out_name), clause("hgb_baseline"), clause("hgb_statistics")),
    )
    schema = Schema(numbered_features(est.n_features_in_, names, categories), _score_target(score), None)
    return imported_estimator(build_tree(nodes, 0), schema, origin)


def _hist_columns(est: Any) -> tuple[list[int], dict[int, Sequence[str]]]:
    """HGB's predictors read X after its ``_preprocessor`` (categorical columns ordinal-encoded
    and moved first): the original column of each predictor column, and the categories of each
    categorical column in code order (the encoder's ``categories_``)."""
    pre = getattr(est, "_preprocessor", None)
    n = int(est.n_features_in_)
    if pre is None:
        return list(range(n)), {}
    order: list[int] = []
    categories: dict[int, Sequence[str]] = {}
    for _name, transformer, columns in pre.transformers_:
        if transformer == "drop":
            continue
        cols = np.asarray(columns)
        idx = np.flatnonzero(cols).tolist() if cols.dtype == bool else [int(c) for c in cols.tolist()]
        cats = getattr(transformer, "categories_", None)
        if cats is not None:
            for j, labels in zip(idx, cats):
                values = list(labels)
                # a missing value sorts last among the encoder's categories and encodes to NaN: no code
                if values and is_missing(values[-1]):
                    values.pop()
                categories[j] = [label_of(c) for c in values]
        order.extend(idx)
    if sorted(order) != list(range(n)):
        raise ValueError(
            f"{type(est).__name__}: its preprocessor's columns do not cover the {n} features once"
        )
    return order, categories
