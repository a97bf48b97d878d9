"""XGBoost's JSON model read into dtcore (``dtcore.load_model``): each tree predicts the leaf
values XGBoost's own trees give (``pred_leaf``) exactly, and the margin within float32
rounding; NaN defaults and categorical splits included; round trip through dtcore's JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest
import xgboost as xgb

import dtcore
from dtcore.export import load_model as load_dtcore_json
from dtcore.export import save_model
from dtcore.export.origin import RAW_SCORE
from tests.dtcore.importers import boosted_data as D


def leaf_values(model_file, booster, X, i, categorical=False):
    """What XGBoost's tree i gives each row: the value of the leaf it reaches (``pred_leaf``)."""
    leaves = booster.predict(xgb.DMatrix(X, enable_categorical=categorical), pred_leaf=True)
    if leaves.ndim == 1:
        leaves = leaves[:, None]
    tree = json.loads(model_file.read_text())["learner"]["gradient_booster"]["model"]["trees"][i]
    return np.asarray(tree["split_conditions"], dtype=np.float64)[leaves[:, i].astype(int)]


@pytest.mark.parametrize(
    "data, model",
    [
        (D.cancer, xgb.XGBClassifier(n_estimators=3, max_depth=3)),
        (D.iris, xgb.XGBClassifier(n_estimators=2, max_depth=3)),
        (D.diabetes, xgb.XGBRegressor(n_estimators=3, max_depth=4)),
    ],
    ids=["binary", "multiclass", "regression"],
)
def test_each_tree_predicts_xgboosts_leaf_values(data, model, tmp_path):
    X, y = data()
    model.set_params(n_jobs=1, random_state=0)
    model.fit(X, y)
    path = tmp_path / "m.json"
    model.save_model(path)
    booster = model.get_booster()
    n = len(json.loads(path.read_text())["learner"]["gradient_booster"]["model"]["trees"])
    for i in range(n):
        est = dtcore.load_model(path, tree=i)
        np.testing.assert_array_equal(est.predict(X), leaf_values(path, booster, X, i))
        assert est.origin_.leaf_values == RAW_SCORE and est.origin_.member == i
        assert "not a probability" in est.origin_.note
    # the margin route: a one-round slice's margin is base_score's margin plus this tree's leaf
    rounds = booster.num_boosted_rounds()
    per = n // rounds
    margin = booster[rounds - 1 : rounds].predict(xgb.DMatrix(X), output_margin=True)
    margin = margin if margin.ndim == 1 else margin[:, per - 1]  # the last tree scores the last class
    base = margin - leaf_values(path, booster, X, n - 1).astype(np.float32)
    assert np.ptp(base) <= 1e-6 * max(1.0, float(np.abs(margin).max()))  # one constant: base_score
    np.testing.assert_allclose(est.predict(X) + base[0], margin, rtol=1e-6, atol=1e-6)  # float32 sums


def test_a_multiclass_tree_says_which_class_it_scores(tmp_path):
    X, y = D.iris()
    model = xgb.XGBClassifier(n_estimators=2, max_depth=2, n_jobs=1).fit(X, y)
    path = tmp_path / "m.json"
    model.save_model(path)
    assert [dtcore.load_model(path, tree=i).origin_.output for i in range(6)] == ["0", "1", "2"] * 2
    assert dtcore.load_model(path).schema_.names == ["f0", "f1", "f2", "f3"]


def test_categorical_splits_and_missing_categories(tmp_path):
    df, y = D.categorical_frame()
    model = xgb.XGBClassifier(
        n_estimators=3, max_depth=3, enable_categorical=True, tree_method="hist", n_jobs=1
    )
    model.fit(df, y)
    path = tmp_path / "c.json"
    model.save_model(path)
    booster = model.get_booster()
    saw_category_test = False
    for i in range(3):
        est = dtcore.load_model(path, tree=i)
        assert est.schema_.names == ["a", "c"]
        assert est.schema_.features[1].categories == ("v", "w", "x", "y", "z")
        np.testing.assert_array_equal(est.predict(df), leaf_values(path, booster, df, i, categorical=True))
        saw_category_test |= any(est.tree_.is_categorical_test(n) for n in range(est.node_count))
        back = load_dtcore_json(_saved(est, tmp_path))
        np.testing.assert_array_equal(back.predict(df), est.predict(df))
        assert back.origin_ == est.origin_
    assert saw_category_test


def _saved(est, tmp_path):
    p = tmp_path / "dt.json"
    save_model(est, p)
    return p


def test_a_tree_index_out_of_range_is_refused(tmp_path):
    X, y = D.iris()
    model = xgb.XGBRegressor(n_estimators=2, max_depth=2, n_jobs=1).fit(X, y)
    path = tmp_path / "m.json"
    model.save_model(path)
    with pytest.raises(ValueError, match="has 2 trees"):
        dtcore.load_model(path, tree=5)


def test_rows_at_every_split_condition_take_xgboosts_side(tmp_path):
    """Values at, just below and just above each ``split_condition`` (where float32 rounding and
    ``<`` against dtcore's ``≤`` decide) reach XGBoost's leaf."""
    X, y = D.diabetes()
    model = xgb.XGBRegressor(n_estimators=2, max_depth=4, n_jobs=1).fit(X, y)
    path = tmp_path / "m.json"
    model.save_model(path)
    trees = json.loads(path.read_text())["learner"]["gradient_booster"]["model"]["trees"]
    rows = []
    for t in trees:
        for node, left in enumerate(t["left_children"]):
            if left < 0:
                continue
            c = np.float32(t["split_conditions"][node])
            for v in (
                float(c),
                np.nextafter(float(c), -np.inf),
                np.nextafter(float(c), np.inf),
                float(c) - 3e-9,
            ):
                row = np.nan_to_num(X[0]).copy()
                row[t["split_indices"][node]] = v
                rows.append(row)
    rows = np.array(rows)
    for i in range(len(trees)):
        est = dtcore.load_model(path, tree=i)
        np.testing.assert_array_equal(est.predict(rows), leaf_values(path, model.get_booster(), rows, i))
