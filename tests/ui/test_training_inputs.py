"""What training hands the estimators: a float matrix for number columns (the same model and scores
as the object rows give), missing targets and scores computed per distinct cell (the same as cell by
cell)."""

import numpy as np
import pandas as pd
import pytest

from dtcore.export.model_json import dumps_model
from dtcore.schema import label_of
from ui.services import roles as R
from ui.services import training
from ui.services.loading import is_missing_cell, number_rows, raw_rows
from ui.services.metrics import classification_scores, split_scores
from ui.services.training import Split, make_estimator, train


def numeric_frame(n: int = 600, seed: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=(n, 3)), 2)
    x[rng.random(n) < 0.1, 1] = np.nan  # missing cells in a number column
    y = np.where(x[:, 0] + rng.normal(scale=0.5, size=n) > 0, "yes", "no").astype(object)
    y[:7] = None  # rows without a target
    y[7:9] = " ? "
    return pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "k": rng.integers(0, 9, n), "c": x[:, 2], "y": y})


def test_number_rows_are_the_object_rows_as_floats():
    df = numeric_frame()
    X = number_rows(df, ["a", "b", "k"])
    assert X.dtype == np.float64
    ref = raw_rows(df, ["a", "b", "k"])
    assert np.array_equal(X, ref.astype(np.float64), equal_nan=True)
    df.loc[3, "c"] = np.inf  # the object rows' message names the row: they are kept
    assert number_rows(df, ["a", "c"]).dtype == object
    assert number_rows(df, ["a", "y"]).dtype == object


@pytest.mark.parametrize("algorithm", ["c45", "cart", "id3"])
def test_training_on_number_rows_gives_the_object_rows_model(algorithm):
    df = numeric_frame()
    roles = R.infer_roles(df, "y")
    task = R.infer_task(df, "y")
    crit = training.criteria(algorithm, task)[0]
    res = train(df, roles, task, algorithm, crit, {}, Split(20, 20, 3))
    assert res.dropped == 9
    est = make_estimator(algorithm, task, **training.estimator_params(algorithm, task, crit, {}))
    X = raw_rows(df, res.features)
    y = df["y"].to_numpy(dtype=object)
    tr = res.rows["train"]
    est.fit(X[tr], y[tr], feature_names=res.features, feature_kinds=res.kinds, target_name="y")
    assert dumps_model(res.estimator) == dumps_model(est)
    want = split_scores(est, X, y, res.rows, True)
    for name, s in want.items():
        got = res.scores[name]
        assert (got.n, got.accuracy, got.labels) == (s.n, s.accuracy, s.labels)
        assert np.array_equal(got.confusion, s.confusion)


@pytest.mark.parametrize(
    "cells",
    [
        ["yes", None, " NA ", "no", "?", "", "yes", float("nan")],
        [1.0, np.nan, 3.0],
        [1, 2, 3],
        ["a", pd.NA, "b", pd.NaT, 0, 0.0, True],
    ],
)
def test_missing_targets_are_the_cell_by_cell_ones(cells):
    col = pd.Series(cells, dtype=object if any(isinstance(c, str) for c in cells) else None)
    want = [is_missing_cell(v) for v in col.to_numpy(dtype=object)]
    assert training._target_missing(col).tolist() == want


def test_scores_label_each_distinct_cell_as_label_of_does():
    truth = ["1", 1, 1.0, " a", "a", True, "True", 2.5, "b "]
    pred = ["1", "1", "a", "a", "b", "True", "True", "2.5", "b"]  # predictions are classes
    sc = classification_scores(np.array(truth, dtype=object), np.array(pred, dtype=object), ["a", "1"])
    t = [label_of(v) for v in truth]
    p = [label_of(v) for v in pred]
    assert sc.labels == ("a", "1", *sorted(set(t) - {"a", "1"}))
    assert sc.accuracy == pytest.approx(np.mean([a == b for a, b in zip(t, p)]))
    index = {c: i for i, c in enumerate(sc.labels)}
    cm = np.zeros_like(sc.confusion)
    for a, b in zip(t, p):
        cm[index[a], index[b]] += 1
    assert np.array_equal(sc.confusion, cm)
