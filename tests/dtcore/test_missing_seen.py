"""Tree.saw_missing: which tests met a missing value in training. It equals a brute-force check
over Tree.reach, survives the JSON model and pruning, and DOT says "missing →" only there (old
models without the field keep the label everywhere)."""

import json
import re

import numpy as np
import pytest

from dtcore.export import dumps_model, model_from_dict, to_dot
from dtcore.pruning import prune
from tests.dtcore.whatif_models import fitted

MARK = re.compile(r"<I>missing[^<]* →</I>")  # "missing →", or "missing, 蜷缩 →" with categories


@pytest.mark.parametrize(
    ("sample", "algo"),
    [("watermelon_2.0_missing", "cart"), ("watermelon_2.0_missing", "c45"), ("labor", "c45"),
     ("vote", "cart"), ("penguins", "id3"), ("iris", "cart")],
)  # fmt: skip
def test_saw_missing_equals_the_rows_that_reach_each_test(sample, algo):
    est, _, Xe = fitted(sample, algo)
    tree = est.tree_
    want = np.zeros(tree.node_count, dtype=bool)
    for i in np.flatnonzero(tree.feature >= 0):
        rows, w = tree.reach(Xe, int(i))
        rows = rows[w > 0]
        want[i] = bool(np.any(tree.branch_of(int(i), Xe[rows, tree.feature[i]]) < 0))
    np.testing.assert_array_equal(tree.saw_missing, want)
    assert want.any() == (sample != "iris")


def test_dot_marks_missing_only_where_training_met_it():
    complete, _, _ = fitted("watermelon_3.0", "cart")
    assert not complete.tree_.saw_missing.any()
    assert "missing →" not in to_dot(complete)
    est, _, _ = fitted("watermelon_2.0_missing", "cart")
    dot = to_dot(est)
    tree = est.tree_
    assert len(MARK.findall(dot)) == int(tree.saw_missing.sum()) > 0
    for i in np.flatnonzero(tree.saw_missing):
        child = int(tree.children_of(int(i))[tree.missing_branch[i]])
        assert f'dtedge{i}_{child}", label=<' in dot
        line = next(s for s in dot.splitlines() if f'id="dtedge{i}_{child}"' in s)
        assert MARK.search(line)


def test_json_round_trip_and_old_models():
    est, _, _ = fitted("watermelon_2.0_missing", "cart")
    d = json.loads(dumps_model(est))
    assert d["tree"]["saw_missing"] == est.tree_.saw_missing.tolist()
    again = model_from_dict(d)
    np.testing.assert_array_equal(again.tree_.saw_missing, est.tree_.saw_missing)
    del d["tree"]["saw_missing"]  # a model saved before the field existed
    old = model_from_dict(d)
    assert old.tree_.saw_missing is None
    assert len(MARK.findall(to_dot(old))) == int((old.tree_.feature >= 0).sum())
    d["tree"]["saw_missing"] = [1] * len(d["tree"]["feature"])
    with pytest.raises(ValueError, match="saw_missing"):
        model_from_dict(d)


def test_pruning_keeps_the_flags_of_kept_tests():
    est, X, Xe = fitted("watermelon_2.0_missing", "cart")
    tree = est.tree_
    pruned, _ = prune(tree, "ccp", alpha=0.05)
    assert pruned.saw_missing is not None and pruned.saw_missing.size == pruned.node_count
    assert not pruned.saw_missing[pruned.feature < 0].any()
    assert pruned.saw_missing.sum() <= tree.saw_missing.sum()
    c45, X, Xe = fitted("watermelon_2.0_missing", "c45")
    y = np.array([0] * 8 + [1] * 9)
    raised, _ = prune(c45.tree_, "ebp", X_train=Xe, y_train=y, cf=0.5)
    assert raised.saw_missing is not None and raised.saw_missing.size == raised.node_count


def test_forced_split_trees_know_their_missing_values():
    from dtcore.analysis.forcing import force_split
    from dtcore.explain import tree_test
    from dtcore.schema import encode_classes

    est, X, Xe = fitted("watermelon_2.0_missing", "cart")
    y = encode_classes(["是"] * 8 + ["否"] * 9, est.schema_.classes)[0]
    c45, _, _ = fitted("watermelon_2.0_missing", "c45")
    forced = force_split(est, Xe, y, None, 0, tree_test(c45.tree_, 0))  # C4.5's multiway root test
    assert forced.saw_missing is not None and forced.saw_missing[0]
    for i in np.flatnonzero(forced.feature >= 0):
        rows, w = forced.reach(Xe, int(i))
        lost = forced.branch_of(int(i), Xe[rows[w > 0], forced.feature[i]]) < 0
        assert forced.saw_missing[i] == bool(lost.any())


def reached_missing(tree, Xe, w):
    """The brute force: each test's rows (Tree.reach from the root), of positive weight."""
    want = np.zeros(tree.node_count, dtype=bool)
    for i in np.flatnonzero(tree.feature >= 0):
        rows, share = tree.reach(Xe, int(i))
        rows = rows[(share * (np.ones(len(Xe)) if w is None else w)[rows]) > 0]
        want[i] = bool(np.any(tree.branch_of(int(i), Xe[rows, tree.feature[i]]) < 0))
    return want


def test_cart_routes_every_row_at_once_and_finds_the_same_tests():
    """CART's tests send a row down one branch, so its flags come from routing every row a level
    at a time: the same flags as the brute force, on random tables with missing cells, zero
    weights and categorical tests deep in the tree that lack some categories."""
    from dtcore.cart.estimator import CARTClassifier, CARTRegressor
    from tests.dtcore.random_tables import mixed_table

    rng = np.random.default_rng(4)
    flagged = 0
    for _ in range(40):
        X, kinds, w, classify, signal = mixed_table(rng, rows=(40, 600), cols=(2, 5))
        y = (signal > 0).astype(int) if classify else np.round(signal, 1)
        est = (CARTClassifier if classify else CARTRegressor)().fit(
            X, y, sample_weight=w, feature_kinds=kinds
        )
        want = reached_missing(est.tree_, est.encode(X), w)
        np.testing.assert_array_equal(est.tree_.saw_missing, want)
        flagged += int(want.sum())
    assert flagged > 20


def test_reach_from_an_ancestor_is_reach_from_the_root():
    """A node's rows found from an ancestor's (the Compare page's top-down walk) are its rows:
    those ``node_rows.walk_nodes`` routes there from the root (C4.5's shares of missing values
    included), from every ancestor."""
    from dtcore.c45.estimator import C45Classifier
    from dtcore.node_rows import walk_nodes
    from tests.dtcore.random_tables import mixed_table

    rng = np.random.default_rng(9)
    checked, shared = 0, False
    for _ in range(6):
        X, kinds, _, _, signal = mixed_table(rng, rows=(200, 400), cols=(2, 5))
        est = C45Classifier(prune=False, collapse=False).fit(X, (signal > 0).astype(int), feature_kinds=kinds)
        tree, Xe = est.tree_, est.encode(X)
        truth = {node: (rows, w) for node, rows, w, _ in walk_nodes(tree, Xe)}
        for node, (rows, w) in truth.items():
            shared |= bool(w.min() < 1)
            for top in tree.path_to(node)[:-1]:
                got = tree.reach(Xe, node, (top, *truth[top]))
                keep = got[1] > 0
                np.testing.assert_array_equal(got[0][keep], rows)
                np.testing.assert_allclose(got[1][keep], w, rtol=1e-12)
                checked += 1
    assert checked > 50 and shared  # deep nodes, and shares of missing values, were met
