"""The Compare page's work (no Streamlit): the chosen algorithms on the app's data, roles and
row split (the training service's ``split_rows``, so Compare sees the same training,
validation and test rows as Train & tree), through ``dtcore.analysis.compare``."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dtcore.analysis import compare as C
from dtcore.schema import CATEGORICAL, categories_of

from . import roles as R
from .loading import is_missing_cell, raw_rows
from .training import Split, TrainingError, columns_to_train, split_rows

#: what the page offers per task, the defaults first
CHOICES = {
    R.CLASSIFICATION: ("id3", "c45", "cart", "cart-entropy"),
    R.REGRESSION: C.REGRESSION_KEYS,
}


def defaults(task: str) -> list[str]:
    return list(C.DEFAULTS[task])


#: the key of the contender with the Train & tree model's own settings
MODEL = "model"


def run(
    df: pd.DataFrame,
    roles: dict[str, str],
    task: str,
    keys: list[str],
    split: Split,
    extra: dict | None = None,
) -> C.Comparison:
    """Compare ``keys`` on the rows whose target is known, split as the training service splits."""
    target, features, kinds = columns_to_train(df, roles, task)
    y_all = df[target].to_numpy(dtype=object)
    keep = np.flatnonzero([not is_missing_cell(v) for v in y_all])
    rows = split_rows(keep, split, y_all[keep] if task == R.CLASSIFICATION else None, df)
    if rows["train"].size == 0:
        raise TrainingError("train.err.no_rows")
    cats = {
        f: categories_of(df[f].to_numpy(dtype=object)) for f, k in zip(features, kinds) if k == CATEGORICAL
    }
    fit_kw = dict(feature_names=features, feature_kinds=kinds, categories=cats, target_name=target)
    try:
        return C.compare(
            raw_rows(df, features), y_all, rows, task=task, keys=keys, fit_kw=fit_kw, extra=extra
        )
    except ValueError as exc:
        raise TrainingError("train.err.params", detail=str(exc)) from None


def focus(
    c: C.Comparison, df: pd.DataFrame, roles: dict[str, str], key: str, node: int
) -> dict[str, int | None]:
    """The node each tree reaches with the training rows of ``node`` in ``key``'s tree."""
    X = raw_rows(df, R.features_of(roles))[c.rows["train"]]
    return C.same_rows_nodes(c, key, node, X)
