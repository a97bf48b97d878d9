"""DataFrame + roles + settings → fitted estimator, row split and scores (no Streamlit here).

The Train page draws widgets from :data:`PARAMS` and calls :func:`train`; pruning pages reuse
:func:`split_rows` through ``TrainResult.rows`` so every page agrees on which rows are training,
validation and test. Failures raise :class:`TrainingError` with a catalogue key.
"""

from __future__ import annotations

import gc
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from dtcore import estimators as registry
from dtcore.base import BaseTreeEstimator
from dtcore.data import rowsplit
from dtcore.estimators import make_estimator
from dtcore.params import Param  # noqa: F401  (re-exported: the Train page draws these)
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, categories_of

from . import roles as R
from .loading import is_missing_cell, number_rows, raw_rows
from .metrics import ClassificationScores, RegressionScores, split_scores

#: algorithm names in menu order, from dtcore's registry
ALGORITHMS = tuple(sorted(registry.ALGORITHMS))


class TrainingError(Exception):
    def __init__(self, key: str, **params: object) -> None:
        super().__init__(f"{key}: {params}")
        self.key = key
        self.params = params


#: parameters per algorithm (besides criterion), in display order: dtcore's declarations
PARAMS: dict[str, tuple[Param, ...]] = {a: registry.ui_params(a) for a in ALGORITHMS}


def criteria(algorithm: str, task: str) -> tuple[str, ...]:
    return registry.criteria(algorithm, task)


def algorithms_for(task: str) -> tuple[str, ...]:
    return tuple(a for a in ALGORITHMS if criteria(a, task))


def supported_params(algorithm: str, task: str) -> tuple[Param, ...]:
    """The parameters the estimator for this algorithm and task really has (none when the
    algorithm does not grow trees for the task)."""
    if not criteria(algorithm, task):
        return ()
    names = set(registry.estimator_class(algorithm, task)._param_names())
    return tuple(p for p in PARAMS.get(algorithm, ()) if p.name in names)


def estimator_params(algorithm: str, task: str, criterion: str, values: dict) -> dict[str, Any]:
    """Widget values → constructor keyword arguments (0 → None where 0 means "no limit")."""
    out: dict[str, Any] = {"criterion": criterion}
    for p in supported_params(algorithm, task):
        v = values.get(p.name, p.default)
        if p.kind == "int":
            v = int(v)
            if p.zero_is_none and v == 0:
                v = None
        elif p.kind == "float":
            v = float(v)
        elif p.kind == "bool":
            v = bool(v)
        out[p.name] = v
    return out


# ---------------------------------------------------------------------------------------------
# row split


@dataclass(frozen=True)
class Split:
    valid: int = 0  # percent of rows
    test: int = 0  # percent of rows
    seed: int = 0
    column: str = ""  # a column naming each row's set (train / valid / test): then it decides


def split_rows(
    positions: np.ndarray, split: Split, strata: np.ndarray | None = None, df: pd.DataFrame | None = None
) -> dict[str, np.ndarray]:
    """Seeded train/validation/test split of row positions, stratified by class when given
    (``dtcore.data.rowsplit.split_rows``, which the command line's ``compare`` also uses); or, when
    ``split.column`` names a column of ``df``, the sets that column names for each row."""
    if split.column and df is not None and split.column in df.columns:
        try:
            return rowsplit.rows_from_marks(positions, df[split.column].to_numpy(dtype=object), split.column)
        except ValueError as exc:
            raise TrainingError("train.err.split_column", detail=str(exc)) from None
    return rowsplit.split_rows(positions, split.valid, split.test, split.seed, strata)


# ---------------------------------------------------------------------------------------------
# training


#: what ``TrainResult.key`` holds once trained: (data digest, roles, task, algorithm, criterion,
#: parameter values, split), all hashable; ``ui.session.model.training_key`` builds it
TrainingKey = tuple[str, tuple, str, str, str, tuple, tuple]


@dataclass
class TrainResult:
    estimator: BaseTreeEstimator
    algorithm: str
    task: str
    params: dict
    split: Split
    target: str
    features: list[str]
    kinds: list[str]
    rows: dict[str, np.ndarray]  # row positions in the DataFrame per split
    scores: dict[str, ClassificationScores | RegressionScores]  # split name → its scores
    dropped: int = 0  # rows left out because their target is missing
    seconds: float = 0.0
    key: tuple = field(default=())


def _target_missing(col: pd.Series) -> np.ndarray:
    """``is_missing_cell`` of every cell: NaN in a number column; else once per distinct cell
    (``pd.factorize`` codes pandas' own missing cells -1, and those are missing cells)."""
    if isinstance(col.dtype, np.dtype) and col.dtype.kind in "fiu":
        return np.isnan(col.to_numpy(dtype=np.float64))
    cells = col.to_numpy(dtype=object)
    try:
        codes, uniques = pd.factorize(cells)
    except TypeError:  # unhashable cells: one look per cell
        return np.array([is_missing_cell(v) for v in cells], dtype=bool)
    flags = np.array([is_missing_cell(u) for u in uniques] + [True], dtype=bool)
    return flags[codes]  # code -1: the last flag


def columns_to_train(df: pd.DataFrame, roles: dict[str, str], task: str) -> tuple[str, list[str], list[str]]:
    """(target, features, their kinds) of ``roles``, or ``TrainingError`` for the first role
    error (no target, a constant target, …): the check every trainer makes first."""
    errs = R.errors(df, roles, task)
    if errs:
        e = errs[0]
        raise TrainingError("roles." + e.code, column=e.column or "", count=e.count)
    target = R.target_of(roles)
    if target is None:  # role_errors reports a missing target first; this keeps that promise
        raise TrainingError("roles.no_target", column="", count=0)
    features = R.features_of(roles)
    kinds = [CONTINUOUS if roles[f] == R.CONTINUOUS else CATEGORICAL for f in features]
    return target, features, kinds


def known_target_rows(
    df: pd.DataFrame, target: str, task: str, split: Split
) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """(the target's cells, the positions of the rows whose target is known, those positions per
    split name): what Train & tree and Compare both learn from; TrainingError without a
    training row."""
    keep = np.nonzero(~_target_missing(df[target]))[0]
    y_all = df[target].to_numpy(dtype=object)
    rows = split_rows(keep, split, y_all[keep] if task == R.CLASSIFICATION else None, df)
    if rows["train"].size == 0:
        raise TrainingError("train.err.no_rows")
    return y_all, keep, rows


def train(
    df: pd.DataFrame,
    roles: dict[str, str],
    task: str,
    algorithm: str,
    criterion: str,
    values: dict,
    split: Split,
) -> TrainResult:
    """Fit ``algorithm`` on the training rows and score it on every split."""
    target, features, kinds = columns_to_train(df, roles, task)
    if algorithm not in algorithms_for(task):
        raise TrainingError("train.err.algorithm_task", algorithm=algorithm, task=task)
    y_all, keep, rows = known_target_rows(df, target, task, split)
    tr = rows["train"]
    if task == R.CLASSIFICATION and len(set(map(str, y_all[tr]))) < 2:
        raise TrainingError("train.err.single_class", column=target)
    params = estimator_params(algorithm, task, criterion, values)
    cats = {
        f: categories_of(df[f].to_numpy(dtype=object)) for f, k in zip(features, kinds) if k == CATEGORICAL
    }
    try:
        est = make_estimator(algorithm, task, **params)
    except (TypeError, ValueError) as exc:
        raise TrainingError("train.err.params", detail=str(exc)) from None
    X = number_rows(df, features) if all(k == CONTINUOUS for k in kinds) else raw_rows(df, features)
    t0 = time.perf_counter()
    failed: TrainingError | None = None
    try:
        est.fit(
            X[tr], y_all[tr], feature_names=features, feature_kinds=kinds, categories=cats, target_name=target
        )
    except DataError as exc:
        raise TrainingError("train.err.data", detail=str(exc)) from None
    except ValueError as exc:
        raise TrainingError("train.err.params", detail=str(exc)) from None
    except MemoryError as exc:
        # the frames of the failed fit hold its arrays: clear them and raise outside this
        # block (no __context__), so nothing of the run outlives the message
        traceback.clear_frames(exc.__traceback__)
        failed = TrainingError("train.err.memory", detail=str(exc))
    if failed is not None:
        del est
        gc.collect()
        raise failed
    seconds = time.perf_counter() - t0
    scores = split_scores(est, X, y_all, rows, task == R.CLASSIFICATION)
    return TrainResult(
        est,
        algorithm,
        task,
        params,
        split,
        target,
        features,
        kinds,
        rows,
        scores,
        int(len(df) - keep.size),
        seconds,
    )
