"""A DataFrame at predict time is read by its column names, as scikit-learn reads it: columns in
another order, renamed or missing raise ValueError with scikit-learn's message, where they used to
be read by position (iris with its columns reversed agreed with the model on 28 % of the rows)."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.utils.estimator_checks import check_dataframe_column_names_consistency

from dtcore.c45 import C45Classifier
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.export.model_json import dumps_model, model_from_dict
from dtcore.id3.estimator import ID3Classifier

ESTIMATORS = [CARTClassifier, CARTRegressor, C45Classifier, ID3Classifier]
CLASSIFIERS = [CARTClassifier, C45Classifier, ID3Classifier]


def iris_frame():
    X, y = load_iris(return_X_y=True, as_frame=True)
    return X, y.to_numpy()


def methods(est, y):
    """Every method that reads X, by name."""
    out = {
        "predict": est.predict,
        "apply": est.apply,
        "decision_path": est.decision_path,
        "score": lambda X: est.score(X, y),
    }
    if hasattr(est, "predict_proba"):
        out["predict_proba"] = est.predict_proba
    return out


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_sklearns_own_column_names_check(cls):
    check_dataframe_column_names_consistency(cls.__name__, cls())


@pytest.mark.parametrize("cls", CLASSIFIERS, ids=lambda c: c.__name__)
def test_reversed_renamed_or_missing_columns_raise_in_every_method(cls):
    X, y = iris_frame()
    est = cls().fit(X, y)
    reversed_ = X[X.columns[::-1]]
    renamed = X.set_axis([c.upper() for c in X.columns], axis=1)
    fewer = X[X.columns[:3]]
    for call in methods(est, y).values():
        with pytest.raises(ValueError, match="same order as they were in fit"):
            call(reversed_)
        with pytest.raises(ValueError, match=r"unseen at fit time:\n- PETAL LENGTH \(CM\)\n"):
            call(renamed)
        with pytest.raises(ValueError, match=r"yet now missing:\n- petal width \(cm\)\n"):
            call(fewer)


def test_the_regressor_checks_names_too():
    X, y = iris_frame()
    Xr, yr = X[X.columns[1:]], X[X.columns[0]].to_numpy()
    est = CARTRegressor().fit(Xr, yr)
    for call in methods(est, yr).values():
        with pytest.raises(ValueError, match="same order as they were in fit"):
            call(Xr[Xr.columns[::-1]])


@pytest.mark.parametrize("cls", CLASSIFIERS, ids=lambda c: c.__name__)
def test_matching_frames_and_plain_arrays_are_read_as_before(cls):
    X, y = iris_frame()
    est = cls().fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        by_frame = est.predict(X)
        by_array = est.predict(X.to_numpy())  # fitted with names, given an array: by position
    assert (by_frame == by_array).all()
    assert est.score(X, y) == est.score(X.to_numpy(), y)


def test_more_than_five_names_are_listed_with_an_ellipsis():
    X = pd.DataFrame(np.arange(70.0).reshape(10, 7) % 3, columns=[f"f{i}" for i in range(7)])
    y = np.arange(10) % 2
    est = CARTClassifier().fit(X, y)
    other = X.set_axis([f"g{i}" for i in range(7)], axis=1)
    with pytest.raises(ValueError, match=r"unseen at fit time:\n(- g\d\n){5}- \.\.\.\n"):
        est.predict(other)


def test_frames_without_string_names_are_read_by_position_as_in_sklearn():
    X, y = iris_frame()
    numbered = X.set_axis(range(4), axis=1)
    est = CARTClassifier().fit(numbered, y)
    # integer column labels are no feature names for scikit-learn: no check, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (est.predict(numbered[[3, 2, 1, 0]]) == est.predict(numbered.to_numpy()[:, ::-1])).all()


def test_fitted_on_an_array_a_frame_warns_and_is_read_by_position():
    X, y = iris_frame()
    est = CARTClassifier().fit(X.to_numpy(), y)
    with pytest.warns(UserWarning, match="X has feature names, but CARTClassifier was fitted without"):
        pred = est.predict(X)
    assert (pred == est.predict(X.to_numpy())).all()


def test_explicit_feature_names_and_loaded_models_are_checked():
    X, y = iris_frame()
    names = list(X.columns)
    est = CARTClassifier().fit(X.to_numpy(), y, feature_names=names)
    with pytest.raises(ValueError, match="same order"):
        est.predict(X[names[::-1]])
    loaded = model_from_dict(json.loads(dumps_model(est)))
    with pytest.raises(ValueError, match="same order"):
        loaded.predict(X[names[::-1]])
    assert (loaded.predict(X).astype(str) == est.predict(X).astype(str)).all()
