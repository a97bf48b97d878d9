"""Scores of a fitted tree on a set of rows: accuracy and confusion matrix, or RMSE / MAE / R².

Plain numpy over label arrays so the numbers can be checked against scikit-learn in tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dtcore.base import BaseTreeEstimator
from dtcore.schema import label_of


@dataclass(frozen=True)
class ClassificationScores:
    n: int
    accuracy: float
    labels: tuple[str, ...]  # row/column order of the confusion matrix
    confusion: np.ndarray  # confusion[i, j]: true labels[i] predicted labels[j]


@dataclass(frozen=True)
class RegressionScores:
    n: int
    rmse: float
    mae: float
    r2: float


def classification_scores(
    truth: ArrayLike, predicted: ArrayLike, classes: Sequence[object]
) -> ClassificationScores:
    """Labels compare as text (``label_of``), so 1, 1.0 and "1" are the same class."""
    t_text, t_codes = _label_codes(truth)
    p_text, p_codes = _label_codes(predicted)
    labels = [str(c) for c in classes]
    labels += sorted(set(t_text) - set(labels))  # classes only seen outside training
    index = {c: i for i, c in enumerate(labels)}
    cm = np.zeros((len(labels), len(labels)), dtype=np.int64)
    n = int(t_codes.size)
    if n:
        t = np.array([index[v] for v in t_text], dtype=np.int64)[t_codes]
        p = np.array([index[v] for v in p_text], dtype=np.int64)[p_codes]
        np.add.at(cm, (t, p), 1)
        acc = float(np.mean(t == p))  # one index per label: the same index is the same text
    else:
        acc = float("nan")
    return ClassificationScores(n, acc, tuple(labels), cm)


def _label_codes(values: ArrayLike) -> tuple[list[str], np.ndarray]:
    """(the distinct ``label_of`` texts of ``values``, each cell's index among them). A column
    of text (what the app's targets and predictions are) is labelled once per distinct string;
    other cells one by one (1, 1.0 and True are equal keys but not equal labels)."""
    cells = np.asarray(values, dtype=object).ravel()
    if pd.api.types.infer_dtype(cells, skipna=False) == "string":
        codes, uniques = pd.factorize(cells)
        texts = np.array([label_of(u) for u in uniques], dtype=object)
    else:
        codes = np.arange(cells.size)
        texts = np.array([label_of(v) for v in cells.tolist()], dtype=object)
    merged, distinct = pd.factorize(texts)  # " a" and "a" are one label
    return [str(v) for v in distinct], merged[codes]


def regression_scores(truth: ArrayLike, predicted: ArrayLike) -> RegressionScores:
    t = np.asarray(truth, dtype=np.float64).ravel()
    p = np.asarray(predicted, dtype=np.float64).ravel()
    if not t.size:
        return RegressionScores(0, float("nan"), float("nan"), float("nan"))
    err = t - p
    ss_tot = float(np.sum((t - t.mean()) ** 2))
    r2 = 1.0 - float(np.sum(err**2)) / ss_tot if ss_tot > 0 else float("nan")
    return RegressionScores(int(t.size), float(np.sqrt(np.mean(err**2))), float(np.mean(np.abs(err))), r2)


def split_scores(
    est: BaseTreeEstimator,
    X: np.ndarray,
    y_raw: np.ndarray,
    rows: dict[str, np.ndarray],
    classification: bool,
) -> dict[str, ClassificationScores | RegressionScores]:
    """Scores of ``est`` on every non-empty row split (name → positions into ``X``/``y_raw``): the
    one scoring pass behind a trained model and a tree with forced splits."""
    scores: dict[str, ClassificationScores | RegressionScores] = {}
    for name, idx in rows.items():
        if idx.size == 0:
            continue
        pred = est.predict(X[idx])
        if classification:
            scores[name] = classification_scores(y_raw[idx], pred, est.schema_.classes or ())  # display order
        else:
            truth = pd.to_numeric(pd.Series(y_raw[idx]), errors="coerce").to_numpy(dtype=float)
            scores[name] = regression_scores(truth, pred)
    return scores


@dataclass(frozen=True)
class RegressionPoints:
    """A regression tree on one row split, per row: the true value, the prediction and the leaf
    each row lands in (``leaf`` is -1 where C4.5-style sharing spreads a row, never for CART)."""

    truth: np.ndarray
    predicted: np.ndarray
    leaf: np.ndarray


def regression_points(est: BaseTreeEstimator, X_raw: np.ndarray, y_raw: np.ndarray) -> RegressionPoints:
    """What the predicted-vs-actual, residual and leaf-value charts draw, for rows ``X_raw``."""
    truth = pd.to_numeric(pd.Series(y_raw), errors="coerce").to_numpy(dtype=float)
    return RegressionPoints(truth, np.asarray(est.predict(X_raw), dtype=float), np.asarray(est.apply(X_raw)))
