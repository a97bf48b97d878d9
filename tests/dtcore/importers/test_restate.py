"""``dtcore.importers.restate``: an imported tree's node statistics recomputed from labelled rows.
Given the rows a scikit-learn tree was fitted on, it gives back scikit-learn's own counts,
weights and impurities; the tests and predictions stay; pruning then runs on it."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import ensemble, tree
from sklearn.datasets import load_diabetes, load_iris

import dtcore
from dtcore.export import dumps_model
from dtcore.importers import model_from_text, restate
from dtcore.pruning import prune
from dtcore.pruning.ccp import cost_complexity_path
from dtcore.schema import DataError


def with_nans(X, every=9, seed=0):
    X = np.array(X, dtype=np.float64)
    rng = np.random.default_rng(seed)
    X[rng.random(X.shape) < 1 / every] = np.nan
    return X


def blanked(est):
    """The imported tree with every statistic wiped: what restate gives back comes from the rows."""
    t = est.tree_
    t.value[:] = 0.0
    t.weighted_n[:] = 0.0
    t.n_samples[:] = 0
    t.impurity[:] = 0.0
    return est


def same_tests(a, b):
    for name in (
        "feature",
        "parent",
        "children",
        "child_ptr",
        "cuts",
        "cut_ptr",
        "missing_branch",
        "cat_branch",
    ):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("nans", [False, True])
def test_classifier_restated_on_its_training_rows_gives_back_scikit_learns_counts(criterion, nans):
    X, y = load_iris(return_X_y=True)
    X = with_nans(X) if nans else X
    sk = tree.DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    imported = dtcore.from_sklearn(sk)
    est = restate(blanked(dtcore.from_sklearn(sk)), X, y)
    t, s = est.tree_, sk.tree_
    same_tests(t, imported.tree_)
    np.testing.assert_array_equal(t.n_samples, s.n_node_samples)
    np.testing.assert_array_equal(t.weighted_n, s.weighted_n_node_samples)
    # scikit-learn ≥ 1.4 stores fractions; the counts are those fractions times the node's weight
    np.testing.assert_array_equal(t.value, np.rint(s.value[:, 0, :] * s.weighted_n_node_samples[:, None]))
    np.testing.assert_allclose(t.value / t.weighted_n[:, None], s.value[:, 0, :], rtol=0, atol=1e-15)
    np.testing.assert_allclose(t.impurity, s.impurity, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(est.predict(X), sk.predict(X))
    np.testing.assert_array_equal(est.predict_proba(X), sk.predict_proba(X))
    assert est.origin_.statistics_rows == len(y) and "from these rows" in est.origin_.statistics_note
    assert imported.origin_.statistics_rows is None  # the input is not changed
    assert est.criterion == criterion


@pytest.mark.parametrize("criterion", ["squared_error", "absolute_error", "poisson"])
def test_regressor_restated_gives_back_means_and_impurities(criterion):
    X, y = load_diabetes(return_X_y=True)
    sk = tree.DecisionTreeRegressor(criterion=criterion, max_depth=5, random_state=0).fit(X, y)
    est = restate(blanked(dtcore.from_sklearn(sk)), X, y)
    t, s = est.tree_, sk.tree_
    np.testing.assert_array_equal(t.n_samples, s.n_node_samples)
    np.testing.assert_allclose(t.value[:, 0], s.value[:, 0, 0], rtol=1e-12)
    np.testing.assert_allclose(t.impurity, s.impurity, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(est.predict(X), sk.predict(X), rtol=1e-12)


def test_pruning_runs_on_a_restated_tree_and_ccp_matches_scikit_learns_path():
    X, y = load_iris(return_X_y=True)
    rng = np.random.default_rng(1)
    order = rng.permutation(len(y))
    tr, va = order[:100], order[100:]
    sk = tree.DecisionTreeClassifier(random_state=0).fit(X[tr], y[tr])
    est = restate(blanked(dtcore.from_sklearn(sk)), X[tr], y[tr])
    path = cost_complexity_path(est.tree_)
    np.testing.assert_allclose(
        path.ccp_alphas, sk.cost_complexity_pruning_path(X[tr], y[tr]).ccp_alphas, rtol=1e-9, atol=1e-12
    )
    Xe, ye = est.encode(X), y  # iris's labels 0, 1, 2 are the class codes
    for method, kw in (
        ("rep", {"X_valid": Xe[va], "y_valid": ye[va]}),
        ("pep", {}),
        ("ccp", {"alpha": float(path.ccp_alphas[len(path.ccp_alphas) // 2])}),
    ):
        pruned, report = prune(est.tree_, method, X_train=Xe[tr], y_train=ye[tr], **kw)
        assert pruned.node_count <= est.tree_.node_count
        assert report.method == method
    # the same α on scikit-learn's own pruning gives the same number of leaves
    alpha = float(path.ccp_alphas[len(path.ccp_alphas) // 2])
    pruned, _ = prune(est.tree_, "ccp", alpha=alpha)
    sk_pruned = tree.DecisionTreeClassifier(random_state=0, ccp_alpha=alpha).fit(X[tr], y[tr])
    assert pruned.get_n_leaves() == sk_pruned.get_n_leaves()


def test_rows_a_node_never_sees_leave_it_predicting_its_parents_class():
    X, y = load_iris(return_X_y=True)
    sk = tree.DecisionTreeClassifier(random_state=0).fit(X, y)
    some = np.flatnonzero(y != 2)  # no virginica: the virginica leaves see no row
    est = restate(dtcore.from_sklearn(sk), X[some], y[some])
    t = est.tree_
    empty = np.flatnonzero(t.n_samples == 0)
    assert empty.size > 0
    for node in empty.tolist():
        assert t.weighted_n[node] == 0 and t.impurity[node] == 0
        np.testing.assert_array_equal(t.value[node], t.value[t.parent[node]])
    assert t.value[0].tolist() == [50.0, 50.0, 0.0]
    assert est.origin_.statistics_rows == some.size


def test_a_boosted_member_keeps_its_raw_scores_and_gets_its_row_counts():
    X, y = load_iris(return_X_y=True)
    gb = ensemble.GradientBoostingClassifier(n_estimators=3, max_depth=2, random_state=0).fit(X, y)
    imported = dtcore.from_sklearn(gb, tree=1, output=2)
    est = restate(blanked(dtcore.from_sklearn(gb, tree=1, output=2)), X, None)
    t, s = est.tree_, gb.estimators_[1, 2].tree_
    np.testing.assert_array_equal(t.n_samples, s.n_node_samples)
    np.testing.assert_array_equal(t.weighted_n, s.weighted_n_node_samples)
    # the values are kept (here: the blanked zeros), so predict still gives the raw score the
    # source gave: never a class count that the member does not predict
    assert not t.value.any()
    fresh = restate(imported, X, y)
    np.testing.assert_array_equal(fresh.tree_.value, imported.tree_.value)
    np.testing.assert_array_equal(fresh.tree_.impurity, imported.tree_.impurity)
    np.testing.assert_array_equal(fresh.predict(X), imported.predict(X))
    assert "raw scores" in fresh.origin_.statistics_note


def test_restated_origin_round_trips_through_the_model_file():
    X, y = load_iris(return_X_y=True)
    est = restate(dtcore.from_sklearn(tree.DecisionTreeClassifier(max_depth=2).fit(X, y)), X, y)
    back = model_from_text(dumps_model(est))
    assert back.origin_ == est.origin_ and back.origin_.statistics_rows == 150
    np.testing.assert_array_equal(back.tree_.value, est.tree_.value)
    # a tree never restated writes no statistics keys (files written before stay the same)
    plain = dtcore.from_sklearn(tree.DecisionTreeClassifier(max_depth=2).fit(X, y))
    assert "statistics_rows" not in dumps_model(plain)


def test_refusals_name_what_is_wrong():
    X, y = load_iris(return_X_y=True)
    own = dtcore.CARTClassifier(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="not imported"):
        restate(own, X, y)
    est = dtcore.from_sklearn(tree.DecisionTreeClassifier(max_depth=2).fit(X, y))
    with pytest.raises(DataError, match="labels"):
        restate(est, X, None)
    with pytest.raises(DataError, match="not among the classes"):
        restate(est, X, np.where(y == 2, 7, y))
    with pytest.raises(DataError, match="features"):
        restate(est, X[:, :2], y)
