"""The Compare page's work (no Streamlit): the chosen algorithms on the app's data, roles and
row split (the training service's ``split_rows``, so Compare sees the same training,
validation and test rows as Train & tree), through ``dtcore.analysis.compare``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from dtcore.analysis import compare as C
from dtcore.schema import CATEGORICAL, CONTINUOUS, categories_of

from . import roles as R
from .loading import raw_rows
from .training import Split, TrainingError, columns_to_train, known_target_rows

#: what the page offers per task, the defaults first
CHOICES = {
    R.CLASSIFICATION: ("id3", "c45", "cart", "cart-entropy"),
    R.REGRESSION: C.REGRESSION_KEYS,
}


@dataclass(frozen=True)
class Plan:
    """What the page decides before comparing: the training rows' count (cross-validation waits
    to be asked: ``alpha_selection.only_when_asked``) and the continuous feature with the most distinct training
    values (ID3's default test has one branch per value: ``id3.rules.intervals_too_wide``)."""

    n_train: int
    widest: str = ""
    widest_values: int = 0

    def defaults(self, task: str) -> list[str]:
        return list(C.default_keys(task, self.widest_values, self.n_train))

    def slow(self, task: str) -> tuple[str, ...]:
        """The ``task``'s contenders left out of the defaults here (``C.slow``)."""
        return C.slow(task, self.widest_values, self.n_train)


def plan(df: pd.DataFrame, roles: dict[str, str], task: str, split: Split) -> Plan:
    """The :class:`Plan` of comparing on ``df``; TrainingError as :func:`run` raises it."""
    target, features, kinds, _, rows = _rows(df, roles, task, split)
    tr = rows["train"]
    widths = [(int(df[f].iloc[tr].nunique()), f) for f, k in zip(features, kinds) if k == CONTINUOUS]
    n, name = max(widths, key=lambda w: w[0]) if widths else (0, "")  # the first widest
    return Plan(int(tr.size), name, n)


def _rows(
    df: pd.DataFrame, roles: dict[str, str], task: str, split: Split
) -> tuple[str, list[str], list[str], np.ndarray, dict[str, np.ndarray]]:
    """(target, features, kinds, target cells, row positions per split): the rows whose target
    is known, split as the training service splits."""
    target, features, kinds = columns_to_train(df, roles, task)
    y_all, _, rows = known_target_rows(df, target, task, split)
    return target, features, kinds, y_all, rows


#: the key of the contender with the Train & tree model's own settings
MODEL = "model"


def run(
    df: pd.DataFrame,
    roles: dict[str, str],
    task: str,
    keys: list[str],
    split: Split,
    extra: dict | None = None,
    cv: int = 5,
) -> C.Comparison:
    """Compare ``keys`` on the rows whose target is known, split as the training service splits,
    with ``cv``-fold cross-validation on the training rows (below 2: none)."""
    target, features, kinds, y_all, rows = _rows(df, roles, task, split)
    cats = {
        f: categories_of(df[f].to_numpy(dtype=object)) for f, k in zip(features, kinds) if k == CATEGORICAL
    }
    fit_kw = dict(feature_names=features, feature_kinds=kinds, categories=cats, target_name=target)
    try:
        return C.compare(
            raw_rows(df, features), y_all, rows, task=task, keys=keys, fit_kw=fit_kw, extra=extra, cv=cv
        )
    except ValueError as exc:
        raise TrainingError("train.err.params", detail=str(exc)) from None


def focus(
    c: C.Comparison, df: pd.DataFrame, roles: dict[str, str], key: str, node: int
) -> dict[str, int | None]:
    """The node each tree reaches with the training rows of ``node`` in ``key``'s tree."""
    X = raw_rows(df, R.features_of(roles))[c.rows["train"]]
    return C.same_rows_nodes(c, key, node, X)
