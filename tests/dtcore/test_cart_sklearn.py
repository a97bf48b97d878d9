"""dtcore CART against scikit-learn (test-only dependency): same trees on numeric data.

scikit-learn casts X to float32, so every X here is float32-representable (cast and cast back).
Exact ties between candidate splits may be broken differently (scikit-learn visits features in a
random order, dtcore takes the lowest index): where the split differs, the comparison asserts
equal improvements and stops in that subtree.  Most cases below are tie-free and assert it.
"""

import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn import datasets  # noqa: E402
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402

from dtcore.cart.estimator import CARTClassifier, CARTRegressor  # noqa: E402
from tests.datasets import DATA  # noqa: E402


def f32(X):
    return np.asarray(X, dtype=np.float32).astype(np.float64)


def _rows_per_node(indptr, indices, n_nodes):
    rows = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
    order = np.lexsort((rows, indices))
    bounds = np.searchsorted(indices[order], np.arange(n_nodes + 1))
    return [frozenset(rows[order][bounds[i] : bounds[i + 1]].tolist()) for i in range(n_nodes)]


def compare_trees(ours, sk, X, classification=True, rtol=1e-9):
    """Walk both trees from the root; return (nodes compared, tie subtrees).

    A different test that sends exactly the same training rows left is the same split (e.g. two
    features that both isolate a class): the walk goes on below it."""
    t, s = ours.tree_, sk.tree_
    W = s.weighted_n_node_samples[0]
    out = {"nodes": 0, "ties": 0, "same_partition": 0}
    ours_rows = _rows_per_node(*ours.decision_path(X), t.node_count)
    dp = sk.decision_path(X).tocsr()
    sk_rows = _rows_per_node(dp.indptr, dp.indices, s.node_count)

    def improvement(wn, imp, wl, il, wr, ir):
        return wn / W * (imp - wl / wn * il - wr / wn * ir)

    stack = [(0, 0)]
    while stack:
        a, b = stack.pop()
        out["nodes"] += 1
        assert t.weighted_n[a] == pytest.approx(s.weighted_n_node_samples[b], rel=1e-9)
        assert t.n_samples[a] == s.n_node_samples[b]
        scale = max(abs(s.impurity[0]), 1e-300)
        assert abs(t.impurity[a] - s.impurity[b]) <= rtol * scale + 1e-12, (a, b)
        if classification:
            frac = t.value[a] / t.value[a].sum()
            np.testing.assert_allclose(frac, s.value[b][0], rtol=1e-9, atol=1e-12)
        else:
            assert t.value[a][0] == pytest.approx(s.value[b][0][0], rel=1e-9, abs=1e-12)
        s_leaf = s.children_left[b] == -1
        assert (t.feature[a] < 0) == s_leaf, f"leaf at ours {a} vs sklearn {b}"
        if s_leaf:
            continue
        kids = t.children_of(a)
        sl, sr = s.children_left[b], s.children_right[b]
        cut = t.cuts_of(a)[0]
        differs = t.feature[a] != s.feature[b] or cut != s.threshold[b]
        if differs and ours_rows[kids[0]] == sk_rows[sr] and ours_rows[kids[1]] == sk_rows[sl]:
            sl, sr = sr, sl  # the same two row sets, sides swapped (another feature, reversed)
        if differs and ours_rows[kids[0]] == sk_rows[sl] and ours_rows[kids[1]] == sk_rows[sr]:
            out["same_partition"] += 1
        elif differs:
            i_ours = improvement(
                t.weighted_n[a],
                t.impurity[a],
                t.weighted_n[kids[0]],
                t.impurity[kids[0]],
                t.weighted_n[kids[1]],
                t.impurity[kids[1]],
            )
            i_sk = improvement(
                s.weighted_n_node_samples[b],
                s.impurity[b],
                s.weighted_n_node_samples[sl],
                s.impurity[sl],
                s.weighted_n_node_samples[sr],
                s.impurity[sr],
            )
            assert i_ours == pytest.approx(i_sk, rel=1e-9, abs=1e-12 * scale), (
                f"split differs at ours {a}: f{t.feature[a]}<={cut} vs f{s.feature[b]}<={s.threshold[b]}"
            )
            out["ties"] += 1
            continue
        else:
            assert (t.missing_branch[a] == 0) == bool(s.missing_go_to_left[b])
        stack.append((kids[0], sl))
        stack.append((kids[1], sr))
    return out


def check_same(ours, sk, X, classification=True, expect_no_ties=False):
    res = compare_trees(ours, sk, X, classification)
    if expect_no_ties:
        assert res["ties"] == 0
    if res["ties"] == 0:
        assert ours.tree_.node_count == sk.tree_.node_count
        assert ours.get_depth() == sk.get_depth()
        if classification:
            np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), atol=1e-12)
            assert (ours.predict(X).astype(str) == sk.predict(X).astype(str)).all()
        else:
            np.testing.assert_allclose(ours.predict(X), sk.predict(X), rtol=1e-12, atol=1e-12)
        if res["same_partition"] == 0:
            np.testing.assert_allclose(
                ours.feature_importances_, sk.feature_importances_, rtol=1e-7, atol=1e-12
            )
    return res


def dyadic_weights(rng, n):
    """Weights k/8: sums are exact in every order.  With arbitrary real weights, scikit-learn's
    running sums can leave a pure node with impurity 3e-16 > EPSILON and split it on float noise;
    no other summation order reproduces that noise."""
    return rng.integers(2, 25, n) / 8.0


CLF_SETTINGS = [
    dict(),
    dict(max_depth=3),
    dict(min_samples_leaf=5),
    dict(min_samples_split=12),
    dict(min_impurity_decrease=0.01),
    dict(max_leaf_nodes=9),
    dict(min_weight_fraction_leaf=0.05),
]


@pytest.mark.parametrize("loader", ["iris", "wine", "breast_cancer", "digits"])
@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
def test_classification_datasets(loader, criterion):
    X, y = getattr(datasets, f"load_{loader}")(return_X_y=True)
    X = f32(X)
    compared = 0
    for kw in CLF_SETTINGS:
        ours = CARTClassifier(criterion=criterion, **kw).fit(X, y)
        sk = DecisionTreeClassifier(criterion=criterion, random_state=0, **kw).fit(X, y)
        compared += check_same(ours, sk, X)["nodes"]
    assert compared > 40


def test_classification_depth_limited_is_tie_free():
    """Large nodes never tie: the whole tree must match, node for node."""
    for loader in ("breast_cancer", "digits", "wine"):
        X, y = getattr(datasets, f"load_{loader}")(return_X_y=True)
        X = f32(X)
        ours = CARTClassifier(max_depth=3).fit(X, y)
        sk = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
        check_same(ours, sk, X, expect_no_ties=True)


@pytest.mark.parametrize("criterion", ["squared_error", "poisson"])
@pytest.mark.parametrize(
    "kw",
    [
        dict(),
        dict(max_depth=4),
        dict(min_samples_leaf=7),
        dict(max_leaf_nodes=15),
        dict(min_impurity_decrease=50.0),
    ],
)
def test_diabetes(criterion, kw):
    X, y = datasets.load_diabetes(return_X_y=True, scaled=False)
    X = f32(X)
    ours = CARTRegressor(criterion=criterion, **kw).fit(X, y)
    sk = DecisionTreeRegressor(criterion=criterion, random_state=0, **kw).fit(X, y)
    check_same(ours, sk, X, classification=False, expect_no_ties=bool(kw))


def test_friedman_mse_grows_the_squared_error_tree():
    """scikit-learn 1.9 maps friedman_mse to squared_error; the proxies rank splits identically."""
    X, y = datasets.load_diabetes(return_X_y=True, scaled=False)
    X = f32(X)
    ours = CARTRegressor(criterion="friedman_mse", min_samples_leaf=5).fit(X, y)
    sk = DecisionTreeRegressor(criterion="squared_error", min_samples_leaf=5, random_state=0).fit(X, y)
    check_same(ours, sk, X, classification=False, expect_no_ties=True)


@pytest.mark.parametrize("kw", [dict(min_impurity_decrease=5.0), dict(max_leaf_nodes=20, min_samples_leaf=3)])
def test_friedman_mse_limits_as_sklearn(kw):
    """scikit-learn 1.9 treats friedman_mse as squared_error for min_impurity_decrease and the
    best-first order too (diabetes with min_impurity_decrease=5: 263 nodes, not 787)."""
    X, y = datasets.load_diabetes(return_X_y=True, scaled=False)
    X = f32(X)
    ours = CARTRegressor(criterion="friedman_mse", **kw).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # friedman_mse is deprecated there
        sk = DecisionTreeRegressor(criterion="friedman_mse", random_state=0, **kw).fit(X, y)
    check_same(ours, sk, X, classification=False, expect_no_ties=True)
    if "min_impurity_decrease" in kw:
        assert ours.tree_.node_count == sk.tree_.node_count == 263


def _random_regression(rng, n, p):
    X = f32(rng.normal(size=(n, p)) * rng.uniform(0.1, 100, p))
    y = X[:, 0] / X[:, 0].std() + np.sin(X[:, 1 % p]) + rng.normal(size=n)
    return X, y


@pytest.mark.parametrize("seed", range(6))
def test_random_regression_weighted(seed):
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(80, 600)), int(rng.integers(1, 8))
    X, y = _random_regression(rng, n, p)
    w = dyadic_weights(rng, n)
    kw = [
        dict(min_samples_leaf=4),
        dict(max_depth=5),
        dict(max_leaf_nodes=20, min_samples_leaf=3),
        dict(min_samples_split=15, min_samples_leaf=3),
        dict(min_impurity_decrease=0.005, min_samples_leaf=3),
        dict(min_weight_fraction_leaf=0.02),
    ][seed]
    ours = CARTRegressor(**kw).fit(X, y, sample_weight=w)
    sk = DecisionTreeRegressor(random_state=0, **kw).fit(X, y, sample_weight=w)
    check_same(ours, sk, X, classification=False, expect_no_ties=True)


@pytest.mark.parametrize("seed", range(6))
def test_random_classification_weighted(seed):
    """Continuous random weights make exact ties between different partitions impossible."""
    rng = np.random.default_rng(100 + seed)
    n, p, K = int(rng.integers(100, 600)), int(rng.integers(2, 8)), int(rng.integers(2, 5))
    X = f32(rng.normal(size=(n, p)))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.7, size=n), np.linspace(-1, 1, K - 1))
    w = dyadic_weights(rng, n)
    kw = [
        dict(min_samples_leaf=5),
        dict(max_depth=4),
        dict(max_leaf_nodes=12, min_samples_leaf=4),
        dict(min_samples_split=20, min_samples_leaf=4),
        dict(min_impurity_decrease=0.002, min_samples_leaf=4),
        dict(criterion="entropy", min_samples_leaf=4),
    ][seed]
    ours = CARTClassifier(**kw).fit(X, y, sample_weight=w)
    sk = DecisionTreeClassifier(random_state=0, **kw).fit(X, y, sample_weight=w)
    check_same(ours, sk, X, expect_no_ties=True)


def test_random_fully_grown_with_ties():
    """Fully grown trees on unweighted data do meet exact ties; all other nodes must match."""
    rng = np.random.default_rng(7)
    total = {"nodes": 0, "ties": 0}
    for _ in range(4):
        X = f32(rng.normal(size=(300, 5)))
        y = rng.integers(0, 3, 300)
        res = check_same(CARTClassifier().fit(X, y), DecisionTreeClassifier(random_state=0).fit(X, y), X)
        for k in total:
            total[k] += res[k]
    assert total["nodes"] > 200
    assert total["ties"] < total["nodes"] / 4


@pytest.mark.parametrize("seed", range(8))
def test_missing_values_match_sklearn(seed):
    """Learned direction for NaN (scikit-learn ≥ 1.3): missing right / all-known-left / missing left."""
    rng = np.random.default_rng(200 + seed)
    n, p = int(rng.integers(100, 500)), int(rng.integers(1, 6))
    X = f32(rng.normal(size=(n, p)))
    X[rng.random((n, p)) < rng.uniform(0.05, 0.4)] = np.nan
    if seed % 3 == 0:  # constant known values plus missing ones: still splittable
        X[:, 0] = np.where(np.isnan(X[:, 0]), np.nan, 1.0)
    w = dyadic_weights(rng, n)
    if seed % 2:
        y = rng.normal(size=n) + np.nan_to_num(X[:, 0])
        kw = dict(min_samples_leaf=3) if seed % 4 == 1 else dict(max_leaf_nodes=10)
        ours = CARTRegressor(**kw).fit(X, y, sample_weight=w)
        sk = DecisionTreeRegressor(random_state=0, **kw).fit(X, y, sample_weight=w)
        check_same(ours, sk, X, classification=False, expect_no_ties=True)
    else:
        y = (np.nan_to_num(X[:, 0], nan=0.3) + rng.normal(size=n) > 0).astype(int) + (seed % 4 == 2)
        kw = dict(min_samples_leaf=3) if seed % 4 == 0 else dict(max_depth=5, min_samples_leaf=3)
        ours = CARTClassifier(**kw).fit(X, y, sample_weight=w)
        sk = DecisionTreeClassifier(random_state=0, **kw).fit(X, y, sample_weight=w)
        check_same(ours, sk, X, expect_no_ties=True)
    # rows with NaN in a feature never seen missing in training follow the larger child
    Xt = X.copy()
    Xt[:5] = np.nan
    if seed % 2:
        np.testing.assert_allclose(ours.predict(Xt), sk.predict(Xt), rtol=1e-12)
    else:
        np.testing.assert_allclose(ours.predict_proba(Xt), sk.predict_proba(Xt), atol=1e-12)


def test_regression_toy10_every_split_as_sklearn():
    data = np.genfromtxt(f"{DATA}/regression_toy10.csv", delimiter=",", names=True)
    X, y = data["x1"][:, None], data["y"]
    for kw in (dict(), dict(max_depth=1), dict(max_depth=2), dict(max_leaf_nodes=4)):
        ours = CARTRegressor(**kw).fit(X, y)
        sk = DecisionTreeRegressor(random_state=0, **kw).fit(X, y)
        check_same(ours, sk, X, classification=False, expect_no_ties=True)
    # Li Hang's example: the first split is s = 6 (x ≤ 6 versus x ≥ 7), i.e. the cut 6.5
    assert CARTRegressor(max_depth=1).fit(X, y).tree_.cuts[0] == 6.5


def test_single_class_is_one_leaf_like_sklearn():
    X = f32(np.random.default_rng(0).normal(size=(20, 3)))
    y = np.ones(20, dtype=int)
    ours = CARTClassifier().fit(X, y)
    sk = DecisionTreeClassifier().fit(X, y)
    assert ours.tree_.node_count == sk.tree_.node_count == 1
    assert (ours.predict(X) == 1).all()


def test_friedman_warning_is_sklearns_only():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        X, y = datasets.load_diabetes(return_X_y=True)
        CARTRegressor(criterion="friedman_mse", max_depth=2).fit(f32(X), y)


@pytest.mark.parametrize("kw", [dict(max_depth=4), dict(max_leaf_nodes=12)])
def test_absolute_error_diabetes(kw):
    X, y = datasets.load_diabetes(return_X_y=True, scaled=False)
    X = f32(X)
    ours = CARTRegressor(criterion="absolute_error", **kw).fit(X, y)
    sk = DecisionTreeRegressor(criterion="absolute_error", random_state=0, **kw).fit(X, y)
    check_same(ours, sk, X, classification=False, expect_no_ties=True)


@pytest.mark.parametrize("seed", range(3))
def test_absolute_error_random_weighted(seed):
    """Medians of weighted prefixes/suffixes (the midpoint rule when half the weight is hit)."""
    rng = np.random.default_rng(300 + seed)
    X = f32(rng.normal(size=(250, 4)))
    y = X[:, 0] + rng.normal(size=250)
    w = dyadic_weights(rng, 250)
    ours = CARTRegressor(criterion="absolute_error", min_samples_leaf=3).fit(X, y, sample_weight=w)
    sk = DecisionTreeRegressor(criterion="absolute_error", min_samples_leaf=3, random_state=0).fit(
        X, y, sample_weight=w
    )
    res = check_same(ours, sk, X, classification=False)
    assert res["nodes"] > 100 and res["ties"] <= 1


@pytest.mark.parametrize("loader,alpha", [("breast_cancer", 0.002), ("breast_cancer", 0.01), ("wine", 0.02)])
def test_ccp_alpha_prunes_like_sklearn(loader, alpha):
    X, y = getattr(datasets, f"load_{loader}")(return_X_y=True)
    X = f32(X)
    ours = CARTClassifier(ccp_alpha=alpha).fit(X, y)
    sk = DecisionTreeClassifier(random_state=0, ccp_alpha=alpha).fit(X, y)
    assert ours.tree_.node_count < CARTClassifier().fit(X, y).tree_.node_count
    check_same(ours, sk, X)


def test_ccp_alpha_regression_like_sklearn():
    X, y = datasets.load_diabetes(return_X_y=True)
    X = f32(X)
    ours = CARTRegressor(ccp_alpha=50.0, min_samples_leaf=3).fit(X, y)
    sk = DecisionTreeRegressor(random_state=0, ccp_alpha=50.0, min_samples_leaf=3).fit(X, y)
    check_same(ours, sk, X, classification=False)


def test_decision_path_is_sklearns_csr():
    """Same CSR arrays as scikit-learn's decision_path: paths root first, pre-order ids."""
    X, y = datasets.load_breast_cancer(return_X_y=True)
    X = f32(X)
    ours = CARTClassifier(max_depth=3).fit(X, y)
    sk = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    check_same(ours, sk, X, expect_no_ties=True)
    indptr, indices = ours.decision_path(X)
    dp = sk.decision_path(X).tocsr()
    np.testing.assert_array_equal(indptr, dp.indptr)
    np.testing.assert_array_equal(indices, dp.indices)


def test_zero_weights_small_example():
    """Rows of zero weight take no part in the split search (scikit-learn drops them)."""
    X, y, w = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1], [1.0, 1.0, 0.0, 1.0]
    ours = CARTClassifier().fit(X, y, sample_weight=w)
    sk = DecisionTreeClassifier(random_state=0).fit(X, y, sample_weight=w)
    assert ours.tree_.cuts[0] == sk.tree_.threshold[0] == 2.0
    assert (ours.tree_.missing_branch[0] == 0) == bool(sk.tree_.missing_go_to_left[0])
    check_same(ours, sk, np.asarray(X), expect_no_ties=True)
    Xr, yr, wr = [[0.0], [1.0], [2.0], [3.0], [4.0]], [1.0, 2.0, 3.0, 4.0, 10.0], [1, 1, 1, 1, 0]
    ours_r = CARTRegressor(criterion="absolute_error").fit(Xr, yr, sample_weight=wr)
    sk_r = DecisionTreeRegressor(criterion="absolute_error", random_state=0).fit(Xr, yr, sample_weight=wr)
    check_same(ours_r, sk_r, np.asarray(Xr), classification=False)


@pytest.mark.parametrize(
    "criterion", ["gini", "entropy", "log_loss", "squared_error", "friedman_mse", "absolute_error", "poisson"]
)
@pytest.mark.parametrize("kw", [dict(min_samples_leaf=3), dict(max_leaf_nodes=10, min_samples_leaf=2)])
def test_zero_weights_match_sklearn(criterion, kw):
    """Weighted data with a quarter of zero weights: same trees, row counts and values."""
    rng = np.random.default_rng(400 + len(criterion))
    n = 300
    X = f32(rng.normal(size=(n, 4)))
    w = dyadic_weights(rng, n)
    w[rng.random(n) < 0.25] = 0.0
    if criterion in ("gini", "entropy", "log_loss"):
        y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.7, size=n) > 0).astype(int)
        ours = CARTClassifier(criterion=criterion, **kw).fit(X, y, sample_weight=w)
        sk = DecisionTreeClassifier(criterion=criterion, random_state=0, **kw).fit(X, y, sample_weight=w)
        res = check_same(ours, sk, X)
    else:
        y = np.exp(0.5 * X[:, 0]) + rng.uniform(size=n)  # positive: poisson takes it too
        ours = CARTRegressor(criterion=criterion, **kw).fit(X, y, sample_weight=w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # friedman_mse is deprecated there
            sk = DecisionTreeRegressor(criterion=criterion, random_state=0, **kw).fit(X, y, sample_weight=w)
        res = check_same(ours, sk, X, classification=False)
    assert res["ties"] <= 1 and res["nodes"] > 10  # k/8 weights can tie exactly in a small node
    assert ours.tree_.n_samples[0] == sk.tree_.n_node_samples[0] == int((w > 0).sum())
