"""Fractional ``min_samples_leaf``/``min_samples_split`` are shares of every training row, rows of
weight 0 included, as scikit-learn computes them (``ceil(fraction · X.shape[0])``); dtcore used to
take the share of the positive-weight rows only and grow other trees on such data."""

import math
import warnings

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from tests.dtcore.test_cart_sklearn import check_same, dyadic_weights, f32

FRACTIONS = [
    dict(min_samples_leaf=0.03),
    dict(min_samples_leaf=0.07),
    dict(min_samples_split=0.15),
    dict(min_samples_split=0.3),
    dict(min_samples_leaf=0.02, min_samples_split=0.2),
    dict(min_samples_leaf=0.04, max_leaf_nodes=12),
]


def weighted_data(seed, n=300, zero_share=0.4):
    rng = np.random.default_rng(seed)
    X = f32(rng.normal(size=(n, 4)))
    w = dyadic_weights(rng, n)
    w[rng.random(n) < zero_share] = 0.0
    return rng, X, w


@pytest.mark.parametrize("kw", FRACTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_classifier_with_zero_weights_and_fractional_limits_is_sklearns(criterion, kw):
    rng, X, w = weighted_data(700)
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.7, size=X.shape[0]) > 0).astype(int)
    ours = CARTClassifier(criterion=criterion, **kw).fit(X, y, sample_weight=w)
    sk = DecisionTreeClassifier(criterion=criterion, random_state=0, **kw).fit(X, y, sample_weight=w)
    res = check_same(ours, sk, X)
    assert res["ties"] == 0 and res["nodes"] > 3
    assert ours.tree_.node_count == sk.tree_.node_count


@pytest.mark.parametrize("kw", FRACTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
@pytest.mark.parametrize("criterion", ["squared_error", "friedman_mse", "absolute_error", "poisson"])
def test_regressor_with_zero_weights_and_fractional_limits_is_sklearns(criterion, kw):
    rng, X, w = weighted_data(800)
    y = np.exp(0.5 * X[:, 0]) + rng.uniform(size=X.shape[0])  # positive: poisson takes it too
    ours = CARTRegressor(criterion=criterion, **kw).fit(X, y, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # friedman_mse is deprecated there
        sk = DecisionTreeRegressor(criterion=criterion, random_state=0, **kw).fit(X, y, sample_weight=w)
    res = check_same(ours, sk, X, classification=False)
    assert res["ties"] == 0 and res["nodes"] > 3
    assert ours.tree_.node_count == sk.tree_.node_count


def test_the_limit_is_a_share_of_every_row():
    """300 rows of which about 120 weigh 0: min_samples_leaf=0.07 is ceil(0.07·300) = 21 rows,
    not ceil(0.07·180) = 13; the smallest leaf says which."""
    _, X, w = weighted_data(700)
    y = (X[:, 0] > 0).astype(int)
    est = CARTClassifier(min_samples_leaf=0.07).fit(X, y, sample_weight=w)
    leaves = est.tree_.n_samples[est.tree_.is_leaf]
    assert leaves.min() >= math.ceil(0.07 * X.shape[0])


def test_the_histogram_splitter_takes_the_same_share():
    """Integer features (fewer distinct values than bins): ``splitter="hist"`` grows the exact
    tree, so it must equal scikit-learn's too."""
    rng = np.random.default_rng(900)
    n = 300
    X = rng.integers(0, 40, size=(n, 3)).astype(np.float64)
    w = dyadic_weights(rng, n)
    w[rng.random(n) < 0.4] = 0.0
    y = (X[:, 0] + rng.normal(scale=8, size=n) > 20).astype(int)
    for kw in (dict(min_samples_leaf=0.07), dict(min_samples_split=0.3)):
        ours = CARTClassifier(splitter="hist", **kw).fit(X, y, sample_weight=w)
        sk = DecisionTreeClassifier(random_state=0, **kw).fit(X, y, sample_weight=w)
        res = check_same(ours, sk, X)
        assert res["ties"] == 0, kw
        assert ours.tree_.node_count == sk.tree_.node_count, kw
