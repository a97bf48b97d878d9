"""ID3's level-wise growth (dtcore.id3.growth) grows the tree a node-at-a-time growth grows.

The reference is the recursion ID3 used before (``tests/dtcore/id3_recursion.py``: each node, each
feature scored alone). Best-first growth, which decides one node at a time through the grower,
makes every split under a leaf limit no tree reaches. All three must give the same flat arrays
bit for bit, also when the level-wise path scores a depth in chunks of one node. The data mix
categorical, binned and threshold features, missing values (rows shared out over the branches)
and fractional weights."""

import numpy as np
import pytest

from dtcore.cart.estimator import CARTClassifier
from dtcore.export.tree_check import check_tree
from dtcore.id3 import growth
from dtcore.id3.estimator import ID3Classifier
from dtcore.node_rows import _may_miss, walk_tests
from tests.dtcore.id3_recursion import grow_recursively

FIELDS = (
    "feature", "parent", "depth", "missing_branch", "value", "weighted_n", "n_samples", "impurity",
    "child_ptr", "children", "cut_ptr", "cuts", "cat_size", "cat_ptr", "cat_code", "cat_branch",
)  # fmt: skip


def table(seed: int, n: int = 400):
    rng = np.random.default_rng(seed)
    cats = rng.integers(0, 4, size=(n, 3))
    nums = np.round(rng.normal(size=(n, 2)), 1)
    X = np.empty((n, 5), dtype=object)
    X[:, :3] = np.array(["a", "b", "c", "d"], dtype=object)[cats]
    X[:, 3:] = nums
    y = np.where(cats[:, 0] + (nums[:, 0] > 0) + rng.integers(0, 2, n) > 2, "yes", "no").astype(object)
    X[rng.random(X.shape) < 0.08] = None
    w = rng.choice([0.5, 1.0, 2.0], n)
    kinds = ["categorical"] * 3 + ["continuous"] * 2
    return X, y, w, kinds


def est_class(est, label):
    return list(est.schema_.classes).index(label)


def assert_same_tree(a, b):
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and np.array_equal(x, y, equal_nan=True), f


CASES = [
    dict(continuous="threshold"),
    dict(continuous="threshold", criterion="gain_ratio", min_samples_leaf=3),
    dict(continuous="intervals", max_depth=3),
    dict(continuous="equal_frequency", n_bins=4, min_impurity_decrease=0.005),
    dict(continuous="equal_width", min_samples_split=10),
]


@pytest.mark.parametrize("params", CASES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("seed", [0, 1])
def test_a_depth_at_a_time_grows_the_tree_one_node_at_a_time_grows(params, seed, monkeypatch):
    X, y, w, kinds = table(seed)
    one_by_one = ID3Classifier(max_leaf_nodes=10**9, **params).fit(X, y, sample_weight=w, feature_kinds=kinds)
    levels = ID3Classifier(**params).fit(X, y, sample_weight=w, feature_kinds=kinds)
    monkeypatch.setattr(growth, "CHUNK_CELLS", 1)  # one node per scoring pass
    chunked = ID3Classifier(**params).fit(X, y, sample_weight=w, feature_kinds=kinds)
    assert levels.tree_.node_count > 10
    assert (levels.tree_.weighted_n % 1 != 0).any()  # missing values shared out fractional weight
    codes = np.array([est_class(levels, v) for v in y])
    assert_same_tree(levels.tree_, grow_recursively(levels, levels.encode(X), codes, w))
    assert_same_tree(levels.tree_, one_by_one.tree_)
    assert_same_tree(levels.tree_, chunked.tree_)
    check_tree(levels.tree_)
    # depth first: the splits in pre-order; best first: every test once, in the order made
    inner = np.flatnonzero(levels.tree_.feature >= 0)
    np.testing.assert_array_equal(levels.build_order_, inner)
    assert levels.build_rule_ == "depth_first" and one_by_one.build_rule_ == "best_first"
    assert sorted(one_by_one.build_order_.tolist()) == inner.tolist()


def test_empty_branches_are_leaves_with_the_parents_counts_and_no_weight():
    X, y, w, kinds = table(3)
    t = ID3Classifier(continuous="intervals").fit(X[:60], y[:60], feature_kinds=kinds).tree_
    empty = np.flatnonzero(t.weighted_n == 0)
    assert empty.size  # 60 rows cannot fill every interval of every node
    np.testing.assert_array_equal(t.value[empty], t.value[t.parent[empty]])
    assert (
        (t.feature[empty] == -1).all() and (t.n_samples[empty] == 0).all() and (t.impurity[empty] == 0).all()
    )


def may_miss_one_test_at_a_time(tree, X):
    """The check as written before it was vectorised: each categorical test's dense table."""
    inner = np.flatnonzero(tree.feature >= 0)
    if inner.size == 0:
        return False
    if np.isnan(X[:, np.unique(tree.feature[inner])]).any():
        return True
    for i in inner[tree.cat_size[inner] > 0].tolist():
        c = np.unique(X[:, tree.feature[i]]).astype(np.int64)
        table = tree.cat_branch_of(i)
        if np.any(c >= table.size) or np.any(c < 0) or np.any(table[c[c < table.size]] < 0):
            return True
    return False


@pytest.mark.parametrize("algo", ["id3", "cart"])
def test_may_miss_looks_every_code_up_at_every_categorical_test(algo):
    rng = np.random.default_rng(4)
    X = np.array(list("abcdefg"), dtype=object)[rng.integers(0, 7, size=(300, 3))]
    y = np.where((X[:, 0] == "a") | (X[:, 1] == "b") | (rng.random(300) < 0.2), "yes", "no")
    est = (ID3Classifier() if algo == "id3" else CARTClassifier()).fit(X, y)
    Xe = est.encode(X)
    tree = est.tree_
    got = _may_miss(tree, Xe)
    assert got == may_miss_one_test_at_a_time(tree, Xe)
    # CART's tables list the codes that reached each test; ID3's list every category
    assert got == (algo == "cart")
    walked = np.zeros(tree.node_count, dtype=bool)
    for node, _, branch in walk_tests(tree, Xe):
        walked[node] = bool((branch < 0).any())
    np.testing.assert_array_equal(tree.saw_missing, walked)


def test_one_node_rules_are_their_many_node_forms():
    """The rules the grower applies a depth at a time give what the one-node forms give."""
    from dtcore.id3.rules import better, better_many, leaf_reason, leaf_reasons, test_score

    scores, best = np.array([1.0 + 1e-13, 1.0 + 1e-11, 0.5]), np.array([1.0, 1.0, -np.inf])
    assert better_many(scores, best).tolist() == [False, True, True]
    assert [better(s, None if b == -np.inf else b) for s, b in zip(scores, best)] == [False, True, True]
    counts = np.array([[3.0, 0.0], [2.0, 2.0], [2.0, 2.0], [2.0, 1.0]])
    n_rows = np.array([3, 4, 1, 3])
    codes = leaf_reasons(counts, n_rows, 2, min_samples_split=2, max_depth=2).tolist()
    assert codes == [1, 3, 2, 3]  # pure first, then too few rows, then the depth limit
    assert [leaf_reason(c, n, 2, 2, 2) for c, n in zip(counts, n_rows)] == [
        "pure", "max_depth", "min_samples_split", "max_depth",
    ]  # fmt: skip
    assert leaf_reason(counts[1], 4, 1, 2, 2) is None
    gain, iv = np.array([0.2, 0.3]), np.array([0.5, 0.0])
    assert (
        test_score(gain, iv, "gain_ratio").tolist() == [0.4, 0.0] == [test_score(0.2, 0.5, "gain_ratio"), 0.0]
    )
    assert test_score(gain, iv, "gain") is gain


@pytest.mark.parametrize("algo", ["id3", "c45"])
def test_a_categorical_column_with_no_category_is_never_tested(algo):
    """A column typed categorical whose every cell is missing has no category (no branch): the
    level-wise scoring of its tests must not divide by its size (hypothesis found it)."""
    from dtcore.c45 import C45Classifier

    X = np.empty((40, 2), dtype=object)
    X[:, 0] = None
    X[:, 1] = np.array(["a", "b"], dtype=object)[np.arange(40) % 2]
    y = np.where(np.arange(40) % 2 == 0, "yes", "no")
    est = (ID3Classifier() if algo == "id3" else C45Classifier(prune=False)).fit(
        X, y, feature_kinds=["categorical", "categorical"]
    )
    assert est.tree_.feature[0] == 1 and est.tree_.node_count == 3
