"""Forced splits (manual tree building) applied to a training result, without Streamlit.

The app keeps a list of forced tests per trained model (``ui.state.model``); this module replays them
on the trained estimator (``dtcore.analysis.forcing.replay``) and rescores the new tree on the same row
split, so every page (tree, scores, downloads) shows the tree with the user's choices in it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pandas as pd

from dtcore.analysis.forcing import replay
from dtcore.base import BaseTreeEstimator
from dtcore.routing import SplitTest
from dtcore.schema import encode_target

from . import roles as R
from .loading import raw_rows
from .metrics import ClassificationScores, RegressionScores, split_scores
from .training import TrainResult


def training_arrays(res: TrainResult, df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(encoded X, encoded y) of the training rows of ``res``, as the estimator saw them."""
    est = res.estimator
    tr = res.rows["train"]
    rows = df.iloc[tr]
    numeric = not any(f.is_categorical for f in est.schema_.features) and all(
        isinstance(rows[c].dtype, np.dtype) and rows[c].dtype.kind in "fiu" for c in res.features
    )
    # numeric columns straight to float64 (the encoder's fast path, the values the object path
    # gives cell by cell): 10⁵ rows × 20 in a few ms instead of 0.2-0.4 s (issue 26)
    X = est.encode(rows[res.features].to_numpy(np.float64) if numeric else raw_rows(rows, res.features))
    y_raw = df[res.target].to_numpy(dtype=object)[tr]
    return X, encode_target(est.schema_, y_raw)


def rescore(
    res: TrainResult, df: pd.DataFrame, est: BaseTreeEstimator
) -> dict[str, ClassificationScores | RegressionScores]:
    """``est``'s scores on the row splits of ``res`` (same rows, same scoring as training)."""
    X = raw_rows(df, res.features)
    y_all = df[res.target].to_numpy(dtype=object)
    return split_scores(est, X, y_all, res.rows, res.task == R.CLASSIFICATION)


def apply_forced(
    res: TrainResult,
    df: pd.DataFrame,
    ops: Sequence[tuple[int, SplitTest]],
    arrays: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[TrainResult, list[int]]:
    """(TrainResult with the forced tree and its scores, forced node ids in that tree).
    ``ops``: [(node, test), …] in the order they were made; the key stays the trained one."""
    if not ops:
        return res, []
    X, y = training_arrays(res, df) if arrays is None else arrays
    est, nodes = replay(res.estimator, X, y, None, ops)
    assert isinstance(est, BaseTreeEstimator)  # a changed copy of res.estimator (dtcore types it object)
    out = dataclasses.replace(res, estimator=est, scores=rescore(res, df, est))
    return out, nodes
