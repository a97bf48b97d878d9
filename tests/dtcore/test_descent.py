"""The tight binary descent (``Tree.single_path_leaves``) against the general level-wise router
(``Tree.route``): every prediction method gives what routing every row the general way gives,
on trees it serves (numeric CART and C4.5, NaN in some rows) and on trees it leaves to the router
(categorical and multiway tests); and the level walk behind ``cut_neighbours`` on numeric trees."""

from __future__ import annotations

import numpy as np
import pytest

from dtcore.c45 import C45Classifier
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.id3.estimator import ID3Classifier
from dtcore.node_rows import cut_neighbours, values_beside
from dtcore.routing import DESCENT_BLOCK
from dtcore.tree import Tree


def routed_proba(tree: Tree, X: np.ndarray) -> np.ndarray:
    """predict_proba the general way: every row through ``route``, leaves mixed by weight."""
    r, leaf, w = tree.route(X)
    out = np.zeros((X.shape[0], tree.value.shape[1]))
    np.add.at(out, r, tree.leaf_distribution()[leaf] * w[:, None])
    return out


def routed_apply(tree: Tree, X: np.ndarray) -> np.ndarray:
    r, leaf, w = tree.route(X)
    order = np.lexsort((-w, r))
    r, leaf = r[order], leaf[order]
    first = np.r_[True, r[1:] != r[:-1]]
    out = np.empty(X.shape[0], dtype=np.int64)
    out[r[first]] = leaf[first]
    return out


def meets_nan(tree: Tree, row: np.ndarray) -> bool:
    """Whether the row, walked one node at a time, reaches a test of a missing value."""
    node = 0
    while tree.feature[node] >= 0:
        v = row[tree.feature[node]]
        if np.isnan(v):
            return True
        node = int(tree.children_of(node)[int(v > tree.cuts_of(node)[0])])
    return False


def data(n: int, p: int, seed: int, missing: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, p)), 2)
    y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int) + (X[:, 3] > 1)
    X_test = np.round(rng.normal(size=(3 * DESCENT_BLOCK // 2, p)), 2)  # two blocks, one partial
    for M in (X, X_test):
        M[rng.random(M.shape) < missing] = np.nan
    return X, y, X_test


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("missing", [0.0, 0.02])
@pytest.mark.parametrize(
    "make", [lambda: CARTClassifier(max_depth=6), lambda: CARTClassifier(), lambda: C45Classifier()]
)
def test_classifier_descent_equals_router(make, seed, missing):
    X, y, X_test = data(600, 5, seed, missing)
    est = make().fit(X, y)
    tree = est.tree_
    leaf, rest = tree.single_path_leaves(X_test)
    with_nan = np.flatnonzero(np.isnan(X_test).any(axis=1)).tolist()
    assert np.array_equal(rest, [i for i in with_nan if meets_nan(tree, X_test[i])])
    proba = routed_proba(tree, X_test)
    assert np.array_equal(tree.predict_proba(X_test), proba)
    assert np.array_equal(tree.predict_column(X_test), np.argmax(proba, axis=1))
    assert np.array_equal(tree.apply(X_test), routed_apply(tree, X_test))
    single = np.setdiff1d(np.arange(X_test.shape[0]), rest)
    assert np.array_equal(leaf[single], routed_apply(tree, X_test)[single])


@pytest.mark.parametrize("missing", [0.0, 0.05])
def test_regressor_descent_equals_router(missing):
    X, _, X_test = data(800, 4, 3, missing)
    y = np.nan_to_num(X[:, 0]) * 2 + np.nan_to_num(X[:, 1])
    tree = CARTRegressor(min_samples_leaf=3).fit(X, y).tree_
    r, leaf, w = tree.route(X_test)
    expected = np.bincount(r, weights=tree.value[leaf, 0] * w, minlength=X_test.shape[0])
    assert np.array_equal(tree.predict_value(X_test), expected)


def test_categorical_and_multiway_trees_take_the_router():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 3, size=(300, 3)).astype(object)
    y = (X[:, 0] == 1) | (X[:, 1] == 2)
    for est in (ID3Classifier(), CARTClassifier(), C45Classifier()):
        est.fit(X, y, feature_kinds=["categorical"] * 3)
        Xe = est.encode(X)
        _, rest = est.tree_.single_path_leaves(Xe)
        if est.tree_.node_count > 1:
            assert rest.size == X.shape[0]  # categorical tests: every row the general way
        assert np.array_equal(est.tree_.predict_proba(Xe), routed_proba(est.tree_, Xe))
        assert np.array_equal(est.tree_.apply(Xe), routed_apply(est.tree_, Xe))


def test_a_single_leaf_and_no_rows():
    X = np.zeros((5, 2))
    tree = CARTClassifier().fit(X, [1, 1, 1, 1, 1]).tree_
    assert tree.node_count == 1
    assert np.array_equal(tree.apply(X), np.zeros(5, dtype=np.int64))
    assert tree.predict_proba(np.empty((0, 2))).shape == (0, 1)


@pytest.mark.parametrize("seed", [0, 1])
def test_cut_neighbours_of_a_binary_tree_are_each_nodes_own_values(seed):
    """The level walk ``cut_neighbours`` takes on numeric trees without missing values gives,
    at every cut, the node's own training values beside it (``values_beside`` on ``reach``)."""
    X, y, _ = data(700, 4, seed, 0.0)
    tree = CARTClassifier(min_samples_leaf=2).fit(X, y).tree_
    below, above = cut_neighbours(tree, X)
    for node in np.flatnonzero(tree.feature >= 0).tolist():
        rows, _ = tree.reach(X, node)
        b, a = values_beside(X[rows, tree.feature[node]], tree.cuts_of(node))
        k = int(tree.cut_ptr[node])
        assert (below[k], above[k]) == (b[0], a[0])
