"""CART without scikit-learn: SPEC §10 regression walk-through, categorical subset splits (exact
against brute force), mixed data with missing values, parameters and bad input."""

import csv
import json
from itertools import product

import numpy as np
import pytest

from dtcore import criteria
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.estimators import make_estimator
from dtcore.explain.cart import categorical_candidates, continuous_candidates
from dtcore.schema import DataError
from tests.datasets import DATA


def read_csv(name):
    with open(f"{DATA}/{name}", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], np.array(rows[1:], dtype=object)


def root_improvement(tree):
    kids = tree.children_of(0)
    w = tree.weighted_n
    return tree.impurity[0] - sum(w[k] / w[0] * tree.impurity[k] for k in kids)


# -- SPEC §10 regression_toy5 ------------------------------------------------------------------


def test_regression_toy5_walkthrough():
    hdr, data = read_csv("regression_toy5.csv")
    x, y = data[:, 0].astype(float), data[:, 1].astype(float)
    c = continuous_candidates(x, y, criterion="squared_error")
    assert c["impurity"] == pytest.approx(3.76, abs=0.002)
    np.testing.assert_allclose(c["threshold"], [1.5, 2.5, 3.5, 4.5])
    np.testing.assert_allclose(c["improvement"], [1.96, 2.16, 3.227, 1.21], atol=0.002)
    assert c["threshold"][np.argmax(c["proxy"])] == 3.5
    left = x <= 3.5
    cl = continuous_candidates(x[left], y[left], criterion="squared_error")
    assert cl["impurity"] == pytest.approx(0.889, abs=0.002)
    assert cl["threshold"][np.argmax(cl["proxy"])] == 1.5

    model = CARTRegressor().fit(x[:, None], y)
    t = model.tree_
    assert t.cuts_of(0)[0] == 3.5 and t.cuts_of(1)[0] == 1.5
    assert t.impurity[0] == pytest.approx(3.76) and t.impurity[1] == pytest.approx(0.8889, abs=1e-4)
    leaves = t.value[t.is_leaf, 0]  # pre-order: left to right
    np.testing.assert_allclose(leaves, [1, 3, 6])
    np.testing.assert_allclose(model.predict(x[:, None]), [1, 3, 3, 6, 6])


# -- categorical subset splits: exact against every subset ------------------------------------------


def _brute_best(codes, y, w, criterion, n_classes):
    """Best weighted impurity decrease over every 2-partition of the node's categories, the
    missing value being one more category."""
    keys = np.where(np.isnan(codes), -1, codes).astype(int)
    cats = np.unique(keys)
    best = -np.inf
    for bits in product([False, True], repeat=cats.size):
        bits = np.array(bits)
        if bits.all() or not bits.any():
            continue
        left = np.isin(keys, cats[bits])
        parts = [left, ~left]
        if criterion in ("gini", "entropy"):
            imp = getattr(criteria, criterion)
            counts = [np.bincount(y[m], weights=w[m], minlength=n_classes) for m in parts]
            node = imp(np.sum(counts, axis=0))
            dec = node - sum(c.sum() / w.sum() * imp(c) for c in counts)
        else:
            node = criteria.squared_error(y, w)
            dec = node - sum(w[m].sum() / w.sum() * criteria.squared_error(y[m], w[m]) for m in parts)
        best = max(best, float(dec))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_categorical_subset_split_is_exact(seed):
    rng = np.random.default_rng(seed)
    n_cat = int(rng.integers(3, 8))
    n = int(rng.integers(20, 80))
    codes = rng.integers(0, n_cat, n).astype(float)
    if seed % 2:
        codes[rng.random(n) < 0.15] = np.nan
    w = rng.integers(1, 9, n) / 4.0
    task = ["gini", "entropy", "squared_error", "gini3"][seed % 4]
    labels = np.array([f"c{int(c)}" if c == c else "" for c in codes], dtype=object)[:, None]
    if task == "squared_error":
        y = rng.normal(size=n) + codes % 3
        model = CARTRegressor(max_depth=1).fit(labels, y, sample_weight=w, feature_kinds=["categorical"])
        truth = _brute_best(model.encode(labels)[:, 0], y, w, "squared_error", 0)
    else:
        k = 3 if task == "gini3" else 2
        crit = "gini" if task == "gini3" else task
        y = (rng.random(n) < (codes % k + 1) / (k + 1)).astype(int) + rng.integers(0, k - 1, n) * (k > 2)
        y = np.minimum(y, k - 1)
        model = CARTClassifier(criterion=crit, max_depth=1).fit(
            labels, y, sample_weight=w, feature_kinds=["categorical"], classes=[str(i) for i in range(k)]
        )
        truth = _brute_best(model.encode(labels)[:, 0], y, w, crit, k)
    t = model.tree_
    assert t.node_count == 3
    assert t.is_categorical_test(0)
    assert root_improvement(t) == pytest.approx(truth, rel=1e-9, abs=1e-12)
    # the explorer's candidates contain the same best score
    enc = model.encode(labels)[:, 0]
    yc = y if task == "squared_error" else y
    cand = categorical_candidates(
        enc,
        yc,
        w,
        n_categories=len(model.schema_.features[0].categories),
        criterion="squared_error" if task == "squared_error" else crit,
        n_classes=None if task == "squared_error" else (3 if task == "gini3" else 2),
    )
    assert cand["improvement"].max() == pytest.approx(truth, rel=1e-9, abs=1e-12)


def test_many_categories_multiclass_heuristic_is_valid():
    """Above EXACT_SUBSET_LIMIT categories with 3 classes the per-class orderings are a heuristic:
    never better than the exact optimum, and here (class-pure categories) it finds it."""
    rng = np.random.default_rng(11)
    n_cat = 14
    codes = rng.integers(0, n_cat, 300)
    y = codes % 3
    labels = np.array([f"v{c}" for c in codes], dtype=object)[:, None]
    m = CARTClassifier(max_depth=1).fit(labels, y, feature_kinds=["categorical"])
    enc = m.encode(labels)[:, 0]
    truth = _brute_best(enc, y, np.ones(300), "gini", 3)
    assert root_improvement(m.tree_) == pytest.approx(truth, rel=1e-12)
    # deeper: class-pure leaves from categorical splits only
    assert CARTClassifier().fit(labels, y, feature_kinds=["categorical"]).score(labels, y) == 1.0


def test_categorical_branches_and_unseen_labels():
    X = np.array([["a"], ["b"], ["c"], ["a"], ["b"], ["c"], ["d"], ["d"]], dtype=object)
    y = np.array(["y", "n", "y", "y", "n", "y", "n", "n"], dtype=object)
    m = CARTClassifier().fit(X, y, feature_kinds=["categorical"])
    t = m.tree_
    assert t.node_count == 3
    branch = t.cat_branch_of(0)
    cats = m.schema_.features[0].categories
    side = dict(zip(cats, branch))
    assert side["a"] == side["c"] != side["b"] == side["d"]
    assert list(m.predict(X)) == list(y)
    # unseen label and missing: treated as missing, routed to the side with more rows (no crash)
    out = m.predict(np.array([["zz"], [""]], dtype=object))
    assert len(out) == 2


# -- mixed data with missing values ------------------------------------------------------------------


def test_penguins_mixed_with_missing_values():
    hdr, data = read_csv("penguins.csv")
    y, X = data[:, 0], data[:, 1:]
    m = CARTClassifier(max_depth=5, min_samples_leaf=2).fit(X, y, feature_names=hdr[1:])
    kinds = {f.name: f.kind for f in m.schema_.features}
    assert kinds["island"] == "categorical" and kinds["sex"] == "categorical"
    assert kinds["bill_length_mm"] == "continuous"
    assert m.score(X, y) > 0.97
    assert np.isclose(m.predict_proba(X).sum(axis=1), 1).all()
    t = m.tree_
    # every internal node has a learned missing branch (0 or 1), never "distribute"
    assert set(t.missing_branch[~t.is_leaf].tolist()) <= {0, 1}
    # a regression tree on the same mixed data
    mass = np.array([float(v) if v else np.nan for v in data[:, hdr.index("body_mass_g")]])
    ok = ~np.isnan(mass)
    r = CARTRegressor(max_depth=4).fit(np.delete(X, 4, axis=1)[ok], mass[ok])
    assert r.score(np.delete(X, 4, axis=1)[ok], mass[ok]) > 0.8


def test_watermelon_3_mixed_features():
    hdr, data = read_csv("watermelon_3.0.csv")
    X, y = data[:, 1:-1], data[:, -1]
    m = CARTClassifier(criterion="entropy").fit(X, y, feature_names=hdr[1:-1])
    assert m.score(X, y) == 1.0
    names = [hdr[1:-1][f] for f in m.tree_.feature[~m.tree_.is_leaf]]
    assert set(names) <= set(hdr[1:-1])


# -- builder invariants ---------------------------------------------------------------------------------


def test_tree_arrays_are_preorder_and_consistent():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    for kw in (dict(), dict(max_leaf_nodes=12)):
        t = CARTClassifier(**kw).fit(X, y).tree_
        for node in range(t.node_count):
            kids = t.children_of(node)
            if t.is_leaf[node]:
                assert kids.size == 0
                continue
            assert kids[0] == node + 1  # pre-order: left child follows its parent
            assert (t.parent[kids] == node).all() and (t.depth[kids] == t.depth[node] + 1).all()
            assert t.weighted_n[kids].sum() == pytest.approx(t.weighted_n[node])
            np.testing.assert_allclose(t.value[kids].sum(axis=0), t.value[node])
    # the noise-free quadrant rule is learnt exactly with 6 leaves, whatever the leaf budget
    assert CARTClassifier(max_leaf_nodes=12).fit(X, y).get_n_leaves() == 6
    assert CARTClassifier(max_leaf_nodes=4).fit(X, y).get_n_leaves() == 4


def test_best_first_respects_max_leaf_nodes_and_depth():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 3))
    y = X[:, 0] + rng.normal(size=300)
    for k in (2, 5, 17):
        assert CARTRegressor(max_leaf_nodes=k).fit(X, y).get_n_leaves() == k
    assert CARTRegressor(max_leaf_nodes=50, max_depth=3).fit(X, y).get_depth() <= 3


def test_stop_rules():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(500, 3))
    y = X[:, 0] + rng.normal(size=500)
    t = CARTRegressor(min_samples_leaf=20).fit(X, y).tree_
    assert t.n_samples[t.is_leaf].min() >= 20
    t = CARTRegressor(min_samples_split=60).fit(X, y).tree_
    assert t.n_samples[~t.is_leaf].min() >= 60
    t = CARTRegressor(max_depth=3).fit(X, y).tree_
    assert t.get_depth() == 3
    deep = CARTRegressor().fit(X, y).tree_
    few = CARTRegressor(min_impurity_decrease=0.01).fit(X, y).tree_
    assert few.node_count < deep.node_count
    # fully grown on distinct x: every leaf is pure
    assert (deep.impurity[deep.is_leaf] <= criteria.EPSILON).all()


def test_explorer_best_is_the_builders_root_split():
    rng = np.random.default_rng(6)
    X = np.round(rng.normal(size=(200, 3)), 1)
    X[rng.random((200, 3)) < 0.1] = np.nan
    y = (np.nan_to_num(X[:, 1]) + rng.normal(size=200) > 0).astype(int)
    m = CARTClassifier(max_depth=1).fit(X, y)
    best = []
    for j in range(3):
        c = continuous_candidates(X[:, j], y, criterion="gini", n_classes=2)
        k = int(np.argmax(c["proxy"]))
        best.append((c["proxy"][k], -j, c["threshold"][k], c["missing_left"][k]))
    proxy, negj, thr, mleft = max(best)
    t = m.tree_
    assert t.feature[0] == -negj and t.cuts_of(0)[0] == thr
    assert (t.missing_branch[0] == 0) == mleft


def test_deterministic_json():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(300, 5))
    y = rng.integers(0, 3, 300)
    a = json.dumps(CARTClassifier(max_depth=6).fit(X, y).tree_.to_dict())
    b = json.dumps(CARTClassifier(max_depth=6).fit(X, y).tree_.to_dict())
    assert a == b


def test_registry_and_params():
    m = make_estimator("cart", "regression", max_depth=3)
    assert isinstance(m, CARTRegressor) and m.get_params()["max_depth"] == 3
    c = CARTClassifier(criterion="log_loss", random_state=1)
    assert c.get_params()["criterion"] == "log_loss"
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    assert c.fit(X, [0, 0, 1, 1]).tree_.node_count == 3


# -- bad input -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kw,word",
    [
        (dict(max_depth=0), "max_depth"),
        (dict(max_depth=2.5), "max_depth"),
        (dict(min_samples_split=1), "min_samples_split"),
        (dict(min_samples_leaf=0), "min_samples_leaf"),
        (dict(min_weight_fraction_leaf=0.7), "min_weight_fraction_leaf"),
        (dict(min_impurity_decrease=-1), "min_impurity_decrease"),
        (dict(max_leaf_nodes=1), "max_leaf_nodes"),
        (dict(criterion="mse"), "criterion"),
        (dict(ccp_alpha=-1.0), "ccp_alpha"),
    ],
)
def test_bad_parameters(kw, word):
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match=word):
        CARTClassifier(**kw).fit(X, [0, 1, 1]) if "criterion" not in kw else CARTRegressor(**kw).fit(
            X, [0.0, 1.0, 2.0]
        )


def test_bad_data():
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(DataError):
        CARTClassifier().fit(X, [0, 1])
    with pytest.raises(DataError):
        CARTClassifier().fit(np.zeros((0, 2)), [])
    with pytest.raises(DataError):
        CARTRegressor().fit(X, ["a", "b", "c"])
    with pytest.raises(ValueError, match="poisson"):
        CARTRegressor(criterion="poisson").fit(X, [-1.0, 2.0, 3.0])
    with pytest.raises(DataError):
        CARTClassifier().fit(np.array([[np.inf], [1.0]]), [0, 1])
    with pytest.raises(ValueError, match="absolute_error"):
        CARTRegressor(criterion="absolute_error").fit(np.array([[np.nan], [1.0], [2.0]]), [0.0, 1, 2])
    with pytest.raises(ValueError, match="absolute_error"):
        CARTRegressor(criterion="absolute_error").fit(np.array([["a"], ["b"]], dtype=object), [0.0, 1])


def test_single_class_gives_one_leaf():
    m = CARTClassifier().fit(np.arange(6.0)[:, None], ["a"] * 6)
    assert m.tree_.node_count == 1 and list(m.predict([[3.0]])) == ["a"]
