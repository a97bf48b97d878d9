"""LightGBM's models read into dtcore (``dtcore.load_model``): the ``dump_model()`` JSON and the
text model give trees that predict exactly LightGBM's own per-tree raw score
(``predict(start_iteration=i, num_iteration=1, raw_score=True)``), NaN defaults and categorical
splits included; round trip through dtcore's JSON."""

from __future__ import annotations

import json

import lightgbm as lgb
import numpy as np
import pytest

import dtcore
from dtcore.export import load_model as load_dtcore_json
from dtcore.export import save_model
from dtcore.export.origin import RAW_SCORE
from tests.dtcore.importers import boosted_data as D

SMALL = dict(n_estimators=3, num_leaves=6, min_child_samples=5, verbose=-1, n_jobs=1, random_state=0)


def files(booster, tmp_path):
    """The text model and the dump JSON of ``booster``."""
    text, dump = tmp_path / "m.txt", tmp_path / "m.json"
    booster.save_model(text)
    dump.write_text(json.dumps(booster.dump_model()), encoding="utf-8")
    return text, dump


def tree_score(booster, X, i):
    """LightGBM's own raw output of tree i (iteration i // per_iteration, class i % per_iteration)."""
    per = booster.num_model_per_iteration()
    raw = booster.predict(X, start_iteration=i // per, num_iteration=1, raw_score=True)
    return raw if raw.ndim == 1 else raw[:, i % per]


@pytest.mark.parametrize(
    "data, model",
    [
        (D.cancer, lgb.LGBMClassifier(**SMALL)),
        (D.iris, lgb.LGBMClassifier(**SMALL)),
        (D.diabetes, lgb.LGBMRegressor(**SMALL)),
    ],
    ids=["binary", "multiclass", "regression"],
)
def test_each_tree_predicts_lightgbms_raw_score(data, model, tmp_path):
    X, y = data()
    booster = model.fit(X, y).booster_
    n = booster.num_trees()
    for path in files(booster, tmp_path):
        for i in range(n):
            est = dtcore.load_model(path, tree=i)
            np.testing.assert_array_equal(est.predict(X), tree_score(booster, X, i))
            assert est.origin_.leaf_values == RAW_SCORE and est.origin_.member == i
    assert est.schema_.names == booster.feature_name()


def test_categorical_splits_from_a_frame_by_label(tmp_path):
    df, y = D.categorical_frame()
    booster = lgb.LGBMClassifier(**SMALL, min_data_per_group=5, cat_smooth=1).fit(df, y).booster_
    for path in files(booster, tmp_path):
        for i in range(3):
            est = dtcore.load_model(path, tree=i)
            assert est.schema_.features[1].categories == ("v", "w", "x", "y", "z")
            assert any(est.tree_.is_categorical_test(n) for n in range(est.node_count))
            np.testing.assert_array_equal(est.predict(df), tree_score(booster, df, i))
            dt = tmp_path / "dt.json"
            save_model(est, dt)
            back = load_dtcore_json(dt)
            np.testing.assert_array_equal(back.predict(df), tree_score(booster, df, i))
            assert back.origin_ == est.origin_


def test_categorical_codes_from_an_array(tmp_path):
    rng = np.random.default_rng(3)
    n = 500
    X = np.c_[rng.integers(0, 7, n), rng.normal(size=n)].astype(float)
    X[rng.random(n) < 0.1, 0] = np.nan
    y = np.isin(X[:, 0], [1, 4, 5]) * 2.0 + X[:, 1]
    booster = (
        lgb.LGBMRegressor(**SMALL, min_data_per_group=5, cat_smooth=1)
        .fit(X, y, categorical_feature=[0])
        .booster_
    )
    for path in files(booster, tmp_path):
        est = dtcore.load_model(path, tree=1)
        assert est.schema_.features[0].categories == tuple(str(c) for c in range(7))
        np.testing.assert_array_equal(est.predict(X), tree_score(booster, X, 1))


def test_missing_as_zero_is_refused_where_dtcore_cannot_route_zero(tmp_path):
    """zero_as_missing: LightGBM sends 0 and NaN the default way; a split whose default is not
    the side 0 takes cannot be held, and the message says why."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 2))
    X[rng.random(400) < 0.3, 0] = 0.0
    y = (X[:, 0] > 0.1).astype(float) + (X[:, 0] == 0) * 3
    booster = lgb.LGBMRegressor(**SMALL, zero_as_missing=True).fit(X, y).booster_
    text, _ = files(booster, tmp_path)
    outcomes = []
    for i in range(booster.num_trees()):
        try:
            est = dtcore.load_model(text, tree=i)
        except ValueError as exc:
            assert "missing_type Zero" in str(exc) and "zero_as_missing" in str(exc)
            outcomes.append("refused")
        else:
            np.testing.assert_array_equal(est.predict(X), tree_score(booster, X, i))
            outcomes.append("exact")
    assert "refused" in outcomes


def test_a_one_leaf_tree_and_files_that_are_not_models(tmp_path):
    X, _ = D.iris()
    booster = lgb.LGBMRegressor(**SMALL).fit(X, np.full(len(X), 2.0)).booster_
    for path in files(booster, tmp_path):
        est = dtcore.load_model(path, tree=0)
        assert est.node_count == 1
        np.testing.assert_array_equal(est.predict(X), tree_score(booster, X, 0))
    other = tmp_path / "o.json"
    other.write_text('{"tree_info": 3}', encoding="utf-8")
    with pytest.raises(ValueError, match="not a dtcore model.*XGBoost JSON model"):
        dtcore.load_model(other)
    text = tmp_path / "t.txt"
    text.write_text("plain words\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        dtcore.load_model(text)
