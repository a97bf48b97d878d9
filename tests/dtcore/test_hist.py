"""splitter="hist": the same tree as the exact splitter when every feature has at most max_bins
distinct values (classification and regression, categorical features, missing values, weights),
bin edges otherwise; the binning rules, the histogram kernels, parameters and errors."""

import json

import numpy as np
import pytest

from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.cart.hist.binning import (
    Bins,
    FeatureBins,
    categorical_bins,
    fit_bins,
    fit_transform,
    value_groups,
)
from dtcore.cart.hist.histograms import Layout, partial_histograms
from dtcore.cart.hist.scoring import best_splits
from dtcore.export import dumps_model, model_from_dict


def make_data(seed, task, n=2500, missing=True, categorical=True, levels=(3, 60)):
    """Integer-valued features (≤ 60 distinct values), a categorical column, NaN cells."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.random((n, 5)) * rng.integers(*levels, 5), 0)
    if missing:
        X[rng.random((n, 5)) < 0.1] = np.nan
    kinds = ["continuous"] * 5
    Xo = X.astype(object)
    signal = np.nan_to_num(X[:, 0]) + 0.5 * np.nan_to_num(X[:, 1]) + 3 * rng.normal(size=n)
    if categorical:
        c = rng.choice(list("abcdefg"), n).astype(object)
        c[rng.random(n) < 0.05] = None
        Xo = np.column_stack([Xo, c])
        kinds.append("categorical")
        signal = signal + 10 * (c == "a") - 5 * (c == "d")
    if task == "classification":
        return Xo, np.digitize(signal, np.quantile(signal, [0.3, 0.6])), kinds
    return Xo, signal, kinds


def assert_same_tree(a, b):
    ta, tb = a.tree_, b.tree_
    assert ta.node_count == tb.node_count
    for name in ("feature", "parent", "depth", "missing_branch", "n_samples", "children", "cuts"):
        np.testing.assert_array_equal(getattr(ta, name), getattr(tb, name), err_msg=name)
    np.testing.assert_array_equal(ta.cat_ptr, tb.cat_ptr)
    np.testing.assert_array_equal(ta.cat_branch, tb.cat_branch)
    np.testing.assert_allclose(ta.value, tb.value, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ta.impurity, tb.impurity, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ta.weighted_n, tb.weighted_n, rtol=1e-12)


CLASSIFICATION_CASES = [
    (seed, crit, missing, categorical, depth)
    for seed, (missing, categorical) in enumerate(
        [(False, False), (True, False), (False, True), (True, True)]
    )
    for crit in ("gini", "entropy", "log_loss")
    for depth in (4, None)
]


@pytest.mark.parametrize("seed,criterion,missing,categorical,depth", CLASSIFICATION_CASES)
def test_classification_grows_the_exact_tree(seed, criterion, missing, categorical, depth):
    X, y, kinds = make_data(seed, "classification", missing=missing, categorical=categorical)
    params = dict(criterion=criterion, max_depth=depth, min_samples_leaf=2)
    exact = CARTClassifier(**params).fit(X, y, feature_kinds=kinds)
    hist = CARTClassifier(splitter="hist", **params).fit(X, y, feature_kinds=kinds)
    assert_same_tree(exact, hist)
    np.testing.assert_array_equal(exact.predict(X), hist.predict(X))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("criterion", ["squared_error", "friedman_mse"])
@pytest.mark.parametrize("depth,leaf", [(6, 5), (None, 20)])
def test_regression_grows_the_exact_tree(seed, criterion, depth, leaf):
    """Regression sums are added in another order than the exact scan's, so nodes of a few rows
    where two features give the same partition (a tie up to rounding) could go either way: the
    cases stay clear of that (a depth limit, or larger leaves)."""
    X, y, kinds = make_data(seed, "regression", missing=seed % 2 == 1, categorical=seed >= 2)
    params = dict(criterion=criterion, max_depth=depth, min_samples_leaf=leaf)
    exact = CARTRegressor(**params).fit(X, y, feature_kinds=kinds)
    hist = CARTRegressor(splitter="hist", **params).fit(X, y, feature_kinds=kinds)
    assert_same_tree(exact, hist)
    np.testing.assert_allclose(exact.predict(X), hist.predict(X), rtol=1e-9)


def test_more_classes_weights_and_growth_limits_match_the_exact_tree():
    rng = np.random.default_rng(7)
    n = 3000
    X = rng.integers(0, 40, (n, 4)).astype(float)
    X[rng.random((n, 4)) < 0.05] = np.nan
    codes = rng.integers(0, 5, n).astype(float)  # 5 categories, 4 classes: every subset scanned
    X = np.column_stack([X, codes])
    y = (np.nan_to_num(X[:, 0]) // 10 + (codes == 2)).astype(int) % 4
    w = rng.integers(1, 4, n).astype(float)
    params = dict(
        max_depth=7, min_samples_split=10, min_weight_fraction_leaf=0.01, min_impurity_decrease=1e-4
    )
    kinds = ["continuous"] * 4 + ["categorical"]
    exact = CARTClassifier(**params).fit(X, y, w, feature_kinds=kinds)
    hist = CARTClassifier(splitter="hist", **params).fit(X, y, w, feature_kinds=kinds)
    assert_same_tree(exact, hist)


def test_many_distinct_values_give_bin_edge_thresholds_and_a_close_tree():
    rng = np.random.default_rng(3)
    X = rng.random((20_000, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] + 0.1 * rng.normal(size=X.shape[0]) > 0.8).astype(int)
    hist = CARTClassifier(splitter="hist", max_depth=6, max_bins=32).fit(X, y)
    bins = fit_bins(X, [0] * 4, 32)
    assert all(f.kind == "quantile" and f.n_bins <= 32 for f in bins.features)
    t = hist.tree_
    for node in np.flatnonzero(t.feature >= 0):  # every threshold is one of its feature's edges
        assert t.cuts_of(node)[0] in set(bins.features[t.feature[node]].edges.tolist())
    exact = CARTClassifier(max_depth=6).fit(X, y)
    assert abs(hist.score(X, y) - exact.score(X, y)) < 0.01


def test_binning_rules():
    x = np.array([3.0, 1.0, np.nan, 1.0 + 5e-8, 2.0, 3.0])
    lo, hi = value_groups(np.unique(x[~np.isnan(x)]))
    np.testing.assert_array_equal(lo, [1.0, 2.0, 3.0])  # 1 and 1+5e-8: one group (no cut there)
    np.testing.assert_array_equal(hi, [1.0 + 5e-8, 2.0, 3.0])
    bins = fit_bins(np.column_stack([x, [0, 1, 2, np.nan, 1, 0]]), [0, 3], max_bins=255)
    fx, fc = bins.features
    assert fx.kind == "exact" and fx.n_bins == 3 and fc.kind == "categorical" and fc.n_bins == 3
    np.testing.assert_array_equal(bins.transform(np.column_stack([x, [0, 1, 2, np.nan, 1, 0]])), [
        [2, 0, 3, 0, 1, 2],
        [0, 1, 2, 3, 1, 0],
    ])  # fmt: skip
    assert fx.threshold(np.array([0]), np.array([1]))[0] == (1.0 + 5e-8) / 2 + 1.0
    # more groups than bins: quantile edges, every row in a bin, the largest value in the last
    big = np.arange(1000.0)
    q = fit_bins(big[:, None], [0], max_bins=10).features[0]
    assert q.kind == "quantile" and q.n_bins == 10
    assert q.codes(big).max() == 9 and np.all(np.diff(q.codes(big)) >= 0)


def test_fit_transform_gives_fit_bins_and_transform():
    X, _, kinds = make_data(2, "classification", n=3000)
    Xe = CARTClassifier().fit(X, np.zeros(3000, int), feature_kinds=kinds).encode(X)
    Xe[:, 2] = np.random.default_rng(0).normal(size=3000)  # a quantile-binned column too
    ncat = [0] * 5 + [7]
    bins, codes = fit_transform(Xe, ncat, 64)
    ref = fit_bins(Xe, ncat, 64)
    assert [f.kind for f in bins.features] == [f.kind for f in ref.features]
    assert bins.features[2].kind == "quantile"
    for a, b in zip(bins.features, ref.features, strict=True):
        np.testing.assert_array_equal(a.edges, b.edges)
    np.testing.assert_array_equal(codes, ref.transform(Xe))


def test_exact_binning_checks_every_row_past_the_sample():
    x = np.zeros(300_000)
    x[-1] = 5.0  # one value the 200 000-row sample may miss
    f = fit_bins(x[:, None], [0], max_bins=255, sample_rows=1000).features[0]
    assert f.kind == "exact" and f.n_bins == 2


def test_partial_histograms_add_up_over_blocks():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 4, (2, 100)).astype(np.uint8)
    y = rng.integers(0, 3, 100)
    node = rng.integers(-1, 2, 100)
    layout = Layout(np.array([3, 3]), 3)
    build = np.array([0, 1])
    H, N = partial_histograms(codes, y, None, node, build, 2, layout)
    H1, N1 = partial_histograms(codes[:, :40], y[:40], None, node[:40], build, 2, layout)
    H2, N2 = partial_histograms(codes[:, 40:], y[40:], None, node[40:], build, 2, layout)
    np.testing.assert_array_equal(H, H1 + H2)
    np.testing.assert_array_equal(N, N1 + N2)
    assert N[0, :4].sum() == np.sum(node == 0) and N[1, 4:].sum() == np.sum(node == 1)
    assert H[0, 0, 1] == np.sum((node == 0) & (codes[0] == 0) & (y == 0))


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_whole_sums_over_non_empty_bins_choose_the_dense_sums_splits(criterion):
    """Rows weighing 1 (whole sums): the cumulative sums over the non-empty bins only choose
    every node's split as the sums over every bin do, with many sparse nodes, missing values,
    a categorical feature between continuous ones and features of different bin counts."""
    rng = np.random.default_rng(1)
    n, n_nodes = 3000, 60
    n_bins = np.array([40, 40, 40, 5, 40, 12])
    exact = [
        FeatureBins("exact", int(b), np.arange(b - 1) + 0.5, np.arange(b) * 1.0, np.arange(b) * 1.0)
        for b in n_bins
    ]
    bins = Bins(tuple(categorical_bins(5) if j == 3 else fb for j, fb in enumerate(exact)))
    codes = np.stack([rng.integers(0, nb + 1, n) for nb in n_bins]).astype(np.uint8)  # code nb: missing
    y = rng.integers(0, 3, n)
    node = rng.integers(-1, n_nodes, n)
    H, cnt = partial_histograms(codes, y, None, node, np.arange(n_nodes), n_nodes, Layout(n_bins, 3))
    dense = best_splits(H, cnt, bins, criterion, None, 1, 0.0, whole=False)
    sparse = best_splits(H, cnt, bins, criterion, None, 1, 0.0, whole=True)
    assert (dense.proxy > -np.inf).sum() > n_nodes // 2
    assert set(dense.feature.tolist()) >= {0, 1, 3}  # continuous and categorical winners
    for name in ("proxy", "feature", "threshold", "missing_left", "left", "present"):
        np.testing.assert_array_equal(getattr(sparse, name), getattr(dense, name), err_msg=name)


def test_parameters_are_scikit_learn_style_and_survive_json():
    from sklearn.base import clone

    est = CARTClassifier(splitter="hist", max_bins=64, max_depth=3)
    assert clone(est).get_params()["splitter"] == "hist" and clone(est).max_bins == 64
    X, y, kinds = make_data(0, "classification", n=500)
    est.fit(X, y, feature_kinds=kinds)
    again = model_from_dict(json.loads(dumps_model(est)))
    assert again.get_params()["splitter"] == "hist"
    np.testing.assert_array_equal(again.predict(X).astype(str), est.predict(X).astype(str))
    assert json.loads(dumps_model(est))["params"]["max_bins"] == 64


@pytest.mark.parametrize(
    "est,message",
    [
        (CARTRegressor(splitter="hist", criterion="poisson"), "supports the criteria"),
        (CARTRegressor(splitter="hist", criterion="absolute_error"), "supports the criteria"),
        (CARTClassifier(splitter="hist", max_leaf_nodes=8), "max_leaf_nodes"),
        (CARTClassifier(splitter="fast"), "splitter must be one of"),
        (CARTClassifier(splitter="hist", max_bins=1), "max_bins"),
    ],
)
def test_unsupported_settings_say_so(est, message):
    with pytest.raises(ValueError, match=message):
        est.fit(
            [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1] if est._task == "classification" else [0.0, 0, 1, 1]
        )


def test_levels_too_large_to_hold_are_built_in_chunks_of_nodes(monkeypatch):
    """A fully grown tree whose levels exceed the histogram budget: built and scored in chunks
    of nodes, without subtraction after them, it is still the exact splitter's tree."""
    from dtcore.cart.hist import grower

    X, y, kinds = make_data(4, "classification", n=6000)
    exact = CARTClassifier().fit(X, y, feature_kinds=kinds)
    bins = fit_bins(exact.encode(X), [0] * 5 + [7])
    monkeypatch.setattr(grower, "KEEP_LIMIT", 8 * bins.total * 5)  # 8 nodes per chunk
    assert grower._chunk_nodes(bins, 3) == 8
    hist = CARTClassifier(splitter="hist").fit(X, y, feature_kinds=kinds)
    assert hist.tree_.node_count > 500
    assert_same_tree(exact, hist)
