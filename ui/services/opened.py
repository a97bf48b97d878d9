"""A model file opened in the app (no pickles: dtcore JSON, XGBoost/LightGBM JSON or LightGBM
text, PMML), read through ``dtcore.importers.model_from_text``; errors become catalogue keys.
With data holding its columns (``on_data``), its statistics are recomputed from the training
rows (``dtcore.importers.restate``) and it is scored as a trained model is."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from dtcore.base import BaseTreeEstimator
from dtcore.importers import model_from_text, restate
from dtcore.schema import DataError
from ui.services.loading import is_missing_cell, raw_rows
from ui.services.metrics import split_scores
from ui.services.training import Split, TrainingError, TrainResult, split_rows

#: the file types the "Open a model" box takes
MODEL_TYPES = ("json", "txt", "pmml", "xml")
#: larger model files are refused before they are read (a tree of 100 000 nodes is far smaller)
MAX_MODEL_BYTES = 64 * 1024 * 1024


class OpenError(ValueError):
    """A model file the app cannot open: a catalogue key and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(f"{key}: {params}")
        self.key = key
        self.params = params


@dataclass(frozen=True)
class OpenedModel:
    """The model of one opened file: its name, content digest, the member picked, the estimator."""

    name: str
    digest: str
    tree: int
    estimator: BaseTreeEstimator


def open_model(name: str, data: bytes, tree: int = 0) -> OpenedModel:
    """The tree ``tree`` of the model file ``data``; :class:`OpenError` when it cannot be read."""
    if len(data) > MAX_MODEL_BYTES:
        raise OpenError("opened.too_big", mb=MAX_MODEL_BYTES // (1024 * 1024))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise OpenError("opened.not_text") from None
    try:
        est = model_from_text(text, tree, name)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        # the importers' ValueErrors name what cannot map; a damaged file's structure errors
        # (a missing key, a wrong type) are told in one line, never as a traceback
        detail = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
        raise OpenError("opened.failed", detail=detail) from None
    return OpenedModel(name, hashlib.sha256(data).hexdigest(), tree, est)


# ---------------------------------------------------------------------------------------------
# the opened model on the Data page's data


@dataclass(frozen=True)
class OnData:
    """What the data loaded on the Data page give an opened model. ``estimator``: the model to
    draw (its statistics recomputed from the training rows when the data fit, else as the file
    holds them); ``result``: the model as the Train page's sections take a trained one (scores
    on every row split), None without data, when they lack columns, or for a raw-score tree
    (its leaves are no prediction of the target); ``lacking``: the model's columns the data do
    not have; ``target``: the data's target column standing in for the model's, which the data
    lack (scikit-learn keeps no target name: a tree fitted on a column 贵不贵 calls it y), else
    None; ``rows``: how many rows the statistics come from (0: the file's own); ``changed``:
    leaves whose prediction the recomputed statistics changed (the data are not the model's
    training rows); ``error``: (catalogue key, parameters) when the data do not fit the model's
    classes or categories."""

    estimator: BaseTreeEstimator
    result: TrainResult | None = None
    lacking: tuple[str, ...] = ()
    target: str | None = None
    rows: int = 0
    changed: int = 0
    error: tuple[str, dict] | None = None


def needed_columns(est: BaseTreeEstimator) -> list[str]:
    """The columns an opened model reads: its features, and its target unless it is a raw score."""
    origin = est.origin_
    raw = origin is not None and origin.is_raw_score
    return list(est.schema_.names) + ([] if raw else [est.schema_.target])


def changed_leaves(before: BaseTreeEstimator, after: BaseTreeEstimator) -> int:
    """Leaves that predict another class (or value) once their statistics come from the rows."""
    a, b = before.tree_, after.tree_
    leaves = np.flatnonzero(a.is_leaf)
    if a.n_classes:
        return int(np.count_nonzero(a.node_classes(leaves) != b.node_classes(leaves)))
    return int(np.count_nonzero(~np.isclose(a.value[leaves, 0], b.value[leaves, 0], rtol=1e-9, atol=0)))


def stand_in_target(est: BaseTreeEstimator, columns: pd.Index, data_target: str | None) -> str | None:
    """The data's target column, when it can stand in for the model's: the data hold every feature
    of the model but not its target's name, and their target is none of those features."""
    schema = est.schema_
    if data_target is None or data_target not in columns or schema.target in columns:
        return None
    if data_target in schema.names or any(c not in columns for c in schema.names):
        return None
    return data_target


def on_data(
    om: OpenedModel,
    df: pd.DataFrame | None,
    split: Split,
    data_digest: str = "",
    data_target: str | None = None,
) -> OnData:
    """The opened model on ``df``: restated on the split's training rows, scored on every split.
    ``data_target``: the target chosen on the Data page, read when the data lack the model's
    (``stand_in_target``)."""
    est = om.estimator
    if df is None:
        return OnData(est)
    stand_in = stand_in_target(est, df.columns, data_target)  # when set, the data hold the rest
    lacking = () if stand_in else tuple(c for c in needed_columns(est) if c not in df.columns)
    if lacking:
        return OnData(est, lacking=lacking)
    schema = est.schema_
    features = list(schema.names)
    origin = est.origin_
    raw = origin is not None and origin.is_raw_score
    X = raw_rows(df, features)
    target = stand_in or schema.target
    try:
        if raw:  # the rows reaching each node, counted; its leaves keep their raw scores
            restated = restate(est, X, None)
            return OnData(restated, rows=int(restated.tree_.n_samples[0]))
        y = df[target].to_numpy(dtype=object)
        keep = np.flatnonzero([not is_missing_cell(v) for v in y])
        clf = schema.is_classifier
        rows = split_rows(keep, split, y[keep] if clf else None, df)
        tr = rows["train"]
        if tr.size == 0:
            return OnData(est, error=("opened.data_no_rows", {}))
        # a dtcore model file (no origin) holds its own training statistics: used as it is
        model = est if origin is None else restate(est, X[tr], y[tr])
        if stand_in is not None and model is not est:
            # the restated tree predicts the stand-in column: its pictures, legend, rules and
            # downloads name it (they said "y" beside a caption saying 贵不贵 stands in for y)
            model.schema_ = replace(model.schema_, target=stand_in)
        scores = split_scores(model, X, y, rows, clf)
    except (DataError, TrainingError, ValueError) as exc:
        return OnData(est, target=stand_in, error=("opened.data_failed", {"detail": str(exc)}))
    kinds = [f.kind for f in schema.features]
    res = TrainResult(
        model,
        "cart",
        "classification" if clf else "regression",
        model.get_params(),
        split,
        target,
        features,
        kinds,
        rows,
        scores,
        dropped=int(len(y) - keep.size),
        key=(
            "opened",
            om.digest,
            om.tree,
            data_digest,
            target,
            (split.valid, split.test, split.seed, split.column),
        ),
    )
    n = 0 if origin is None else int(tr.size)
    return OnData(
        model, res, target=stand_in, rows=n, changed=0 if origin is None else changed_leaves(est, model)
    )
