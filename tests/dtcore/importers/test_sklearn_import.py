"""scikit-learn's trees read into dtcore (``dtcore.from_sklearn``) predict exactly what their
source predicts, NaN routing and HGB's categories included, and round-trip through dtcore's JSON."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import ensemble, tree
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris

import dtcore
from dtcore.export import load_model as load_dtcore_json
from dtcore.export import save_model
from dtcore.export.origin import CLASS_COUNTS, MEAN_TARGET, RAW_SCORE
from dtcore.importers.assemble import float32_le_cut, float32_lt_cut


def with_nans(X, every=9, seed=0):
    X = np.array(X, dtype=np.float64)
    rng = np.random.default_rng(seed)
    X[rng.random(X.shape) < 1 / every] = np.nan
    return X


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return with_nans(X), y


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return with_nans(X[:, :8], every=12), y


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return with_nans(X, every=15), y


def round_trip(est, tmp_path):
    path = tmp_path / "m.json"
    save_model(est, path)
    return load_dtcore_json(path)


@pytest.mark.parametrize("cls", [tree.DecisionTreeClassifier, tree.ExtraTreeClassifier])
@pytest.mark.parametrize("data", ["iris", "cancer"])
def test_single_classifier_predicts_what_scikit_learn_predicts(cls, data, request, tmp_path):
    X, y = request.getfixturevalue(data)
    sk = cls(random_state=0, min_samples_leaf=2).fit(X, y)
    est = dtcore.from_sklearn(sk)
    assert est.get_n_leaves() == sk.get_n_leaves() and est.get_depth() == sk.get_depth()
    np.testing.assert_array_equal(est.predict(X), sk.predict(X))
    np.testing.assert_array_equal(est.predict_proba(X), sk.predict_proba(X))
    assert est.origin_.leaf_values == CLASS_COUNTS and est.origin_.member is None
    # leaves hold weighted class counts (scikit-learn ≥ 1.4 stores fractions): the root holds y's counts
    np.testing.assert_array_equal(est.tree_.value[0], np.bincount(y))
    back = round_trip(est, tmp_path)
    assert back.origin_ == est.origin_
    np.testing.assert_array_equal(back.predict_proba(X), sk.predict_proba(X))
    assert [str(c) for c in back.predict(X)] == [str(c) for c in sk.predict(X)]


@pytest.mark.parametrize("cls", [tree.DecisionTreeRegressor, tree.ExtraTreeRegressor])
def test_single_regressor_predicts_what_scikit_learn_predicts(cls, diabetes, tmp_path):
    X, y = diabetes
    sk = cls(random_state=0, max_depth=7).fit(X, y)
    est = dtcore.from_sklearn(sk)
    np.testing.assert_array_equal(est.predict(X), sk.predict(X))
    assert est.origin_.leaf_values == MEAN_TARGET
    np.testing.assert_array_equal(round_trip(est, tmp_path).predict(X), sk.predict(X))


def test_thresholds_route_as_scikit_learns_float32_comparison():
    """Rows at and next to every threshold (where float32 rounding decides) take scikit-learn's side."""
    X, y = load_iris(return_X_y=True)
    sk = tree.DecisionTreeClassifier(random_state=0).fit(X, y)
    t = sk.tree_
    inner = np.flatnonzero(t.children_left >= 0)
    rows = []
    for i in inner:
        thr = t.threshold[i]
        for x in (
            thr,
            np.nextafter(thr, -np.inf),
            np.nextafter(thr, np.inf),
            float(np.float32(thr)),
            thr + 3e-8,
            thr - 3e-8,
        ):
            row = X[0].copy()
            row[t.feature[i]] = x
            rows.append(row)
    rows = np.array(rows)
    np.testing.assert_array_equal(dtcore.from_sklearn(sk).predict_proba(rows), sk.predict_proba(rows))


def test_the_float32_cuts_agree_with_numpys_rounding_everywhere():
    rng = np.random.default_rng(1)
    for thr in np.r_[rng.normal(size=200) * 10.0 ** rng.integers(-8, 8, 200), 0.0, -0.0, 1.0, 2.45]:
        t = float32_le_cut(float(thr))
        c = np.float32(thr)
        near = [np.nextafter(float(c), -np.inf), float(c), np.nextafter(float(c), np.inf)]
        up = np.nextafter(c, np.float32(np.inf))
        mid = (float(c) + float(up)) / 2
        xs = np.array(near + [mid, np.nextafter(mid, -np.inf), np.nextafter(mid, np.inf), float(thr)])
        np.testing.assert_array_equal(xs <= t, xs.astype(np.float32) <= thr)
        t_lt = float32_lt_cut(float(c))
        np.testing.assert_array_equal(xs <= t_lt, xs.astype(np.float32) < c)


@pytest.mark.parametrize("cls", [ensemble.RandomForestClassifier, ensemble.ExtraTreesClassifier])
def test_a_forest_member_predicts_what_the_member_predicts(cls, iris):
    X, y = iris
    forest = cls(n_estimators=3, max_depth=4, random_state=0).fit(X, y)
    for i in range(3):
        est = dtcore.from_sklearn(forest, tree=i)
        np.testing.assert_array_equal(est.predict_proba(X), forest.estimators_[i].predict_proba(X))
        np.testing.assert_array_equal(
            est.predict(X), forest.classes_[forest.estimators_[i].predict(X).astype(int)]
        )
        assert (est.origin_.member, est.origin_.n_members) == (i, 3)
    assert "averages" in est.origin_.note


@pytest.mark.parametrize("cls", [ensemble.RandomForestRegressor, ensemble.ExtraTreesRegressor])
def test_a_forest_regressor_member(cls, diabetes):
    X, y = diabetes
    forest = cls(n_estimators=2, max_depth=5, random_state=0).fit(X, y)
    est = dtcore.from_sklearn(forest, tree=-1)
    np.testing.assert_array_equal(est.predict(X), forest.estimators_[1].predict(X))
    assert est.origin_.member == 1


def test_gradient_boosting_members_hold_raw_scores(iris, cancer, diabetes):
    X, y = load_iris(return_X_y=True)
    gb = ensemble.GradientBoostingClassifier(n_estimators=3, max_depth=2, random_state=0).fit(X, y)
    for i in range(3):
        for k in range(3):
            est = dtcore.from_sklearn(gb, tree=i, output=k)
            np.testing.assert_array_equal(est.predict(X), gb.estimators_[i, k].predict(X))
            assert est.origin_.leaf_values == RAW_SCORE and est.origin_.output == str(k)
            assert "not a probability" in est.origin_.note and "learning_rate" in est.origin_.note
            assert not hasattr(est, "predict_proba")
    Xb, yb = cancer
    Xb = np.nan_to_num(Xb)  # GradientBoosting refuses NaN
    gbb = ensemble.GradientBoostingClassifier(n_estimators=2, max_depth=3, random_state=0).fit(Xb, yb)
    est = dtcore.from_sklearn(gbb, tree=1)
    np.testing.assert_array_equal(est.predict(Xb), gbb.estimators_[1, 0].predict(Xb))
    assert est.origin_.output == "1" and "log-odds" in est.origin_.note
    Xr, yr = diabetes
    Xr = np.nan_to_num(Xr)
    gbr = ensemble.GradientBoostingRegressor(n_estimators=2, max_depth=3, random_state=0).fit(Xr, yr)
    np.testing.assert_array_equal(
        dtcore.from_sklearn(gbr, tree=1).predict(Xr), gbr.estimators_[1, 0].predict(Xr)
    )


def hgb_raw(model, X, i, k):
    """The predictor's own raw output on X (after the model's own preprocessing)."""
    Xp = X if model._preprocessor is None else model._preprocessor.transform(X)
    known, f_idx = model._bin_mapper.make_known_categories_bitsets()
    return model._predictors[i][k].predict(np.asarray(Xp, dtype=np.float64), known, f_idx, 1)


def test_hist_gradient_boosting_with_nan_and_categories(tmp_path):
    rng = np.random.default_rng(0)
    n = 500
    X = np.c_[rng.normal(size=n), rng.integers(0, 6, n), rng.normal(size=n)].astype(float)
    X[rng.random(n) < 0.1, 0] = np.nan
    X[rng.random(n) < 0.1, 1] = np.nan
    y = ((X[:, 1] % 3 == 0) ^ (np.nan_to_num(X[:, 0]) > 0.2)).astype(int) + (X[:, 2] > 1)
    hgb = ensemble.HistGradientBoostingClassifier(
        max_iter=3, max_leaf_nodes=8, categorical_features=[1], random_state=0
    )
    hgb.fit(X, y)
    category_tests = 0
    for i in range(3):
        for k in range(3):
            est = dtcore.from_sklearn(hgb, tree=i, output=k)
            np.testing.assert_array_equal(est.predict(X), hgb_raw(hgb, X, i, k))
            category_tests += sum(est.tree_.is_categorical_test(n) for n in range(est.node_count))
    assert est.schema_.features[1].is_categorical
    assert category_tests > 0  # the categorical bitsets became category tables
    assert est.origin_.leaf_values == RAW_SCORE and "learning rate included" in est.origin_.note
    back = round_trip(est, tmp_path)
    np.testing.assert_array_equal(back.predict(X), hgb_raw(hgb, X, 2, 2))


def test_hist_gradient_boosting_regressor_from_a_frame_keeps_names_and_string_categories():
    rng = np.random.default_rng(2)
    n = 400
    colour = rng.choice(["red", "green", "blue", "dark blue"], n).astype(object)
    colour[rng.random(n) < 0.1] = np.nan
    df = pd.DataFrame({"size": rng.normal(size=n), "colour": pd.Categorical(colour)})
    df.loc[rng.random(n) < 0.1, "size"] = np.nan
    y = df["size"].fillna(0).to_numpy() * 2 + (df["colour"] == "blue").to_numpy() * 3
    hgb = ensemble.HistGradientBoostingRegressor(
        max_iter=2, max_leaf_nodes=6, categorical_features="from_dtype"
    ).fit(df, y)
    est = dtcore.from_sklearn(hgb, tree=1)
    assert est.schema_.names == ["size", "colour"]
    assert set(est.schema_.features[1].categories) == {"red", "green", "blue", "dark blue"}
    np.testing.assert_array_equal(est.predict(df), hgb_raw(hgb, df, 1, 0))


def test_feature_and_class_names_come_from_the_estimator():
    X, y = load_iris(return_X_y=True, as_frame=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    sk = tree.DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, names)
    est = dtcore.from_sklearn(sk)
    assert est.schema_.names == list(X.columns)
    assert est.schema_.classes == ("setosa", "versicolor", "virginica")
    np.testing.assert_array_equal(est.predict(X), sk.predict(X))


def test_what_cannot_be_imported_is_refused_in_words():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="not fitted"):
        dtcore.from_sklearn(tree.DecisionTreeClassifier())
    forest = ensemble.RandomForestClassifier(n_estimators=2, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="has 2 trees"):
        dtcore.from_sklearn(forest, tree=2)
    multi = tree.DecisionTreeRegressor(max_depth=2).fit(X, np.c_[y, y])
    with pytest.raises(ValueError, match="2 outputs"):
        dtcore.from_sklearn(multi)
    with pytest.raises(ValueError, match="cannot import a LinearRegression"):
        from sklearn.linear_model import LinearRegression

        dtcore.from_sklearn(LinearRegression().fit(X, y))


def test_save_writes_a_dtcore_model_that_loads_back_with_its_origin(tmp_path, iris):
    X, y = iris
    gb = ensemble.HistGradientBoostingClassifier(max_iter=2, max_leaf_nodes=5).fit(X, y)
    est = dtcore.from_sklearn(gb, tree=1, output=2)
    path = tmp_path / "m.json"
    est.save(path)
    back = dtcore.load_model(path)
    assert back.origin_ == est.origin_ and back.origin_.is_raw_score
    np.testing.assert_array_equal(back.predict(X), hgb_raw(gb, X, 1, 2))
    back.save(tmp_path / "again.json")  # an imported tree loaded back can be saved again
    assert (tmp_path / "again.json").read_text() == path.read_text()
    with pytest.raises(ValueError, match="one tree"):
        dtcore.load_model(path, tree=1)


def test_class_and_sample_weights_keep_scikit_learns_probabilities(cancer):
    X, y = cancer
    w = np.random.default_rng(5).uniform(0.2, 3.0, y.size)
    sk = tree.DecisionTreeClassifier(class_weight={0: 2.5, 1: 1.0}, max_depth=5, random_state=0).fit(
        X, y, sample_weight=w
    )
    est = dtcore.from_sklearn(sk)
    np.testing.assert_allclose(est.predict_proba(X), sk.predict_proba(X), rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(est.predict(X), sk.predict(X))
    # the weighted counts of the root are scikit-learn's weighted class totals
    np.testing.assert_allclose(
        est.tree_.value[0], [np.sum(w[y == c]) * (2.5 if c == 0 else 1.0) for c in (0, 1)]
    )


def test_a_constant_target_gives_a_one_leaf_tree():
    X, _ = load_iris(return_X_y=True)
    sk = tree.DecisionTreeRegressor().fit(X, np.full(len(X), 4.0))
    est = dtcore.from_sklearn(sk)
    assert est.node_count == 1
    np.testing.assert_array_equal(est.predict(X), sk.predict(X))
