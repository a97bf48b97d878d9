"""Forcing a test at a node (dtcore.analysis.forcing): the tree changes only there, the children are what
the estimator grows on their rows, and forcing the algorithm's own choice changes nothing."""

import numpy as np
import pytest

from dtcore import explain
from dtcore.analysis import forcing
from dtcore.estimators import make_estimator
from dtcore.routing import SplitTest
from tests.dtcore.test_explain import fit


def subtree_dict(tree, node):
    """Structure of the subtree at ``node`` with ids made relative (for comparing grafts)."""
    ids = tree.subtree(node)
    base = int(ids[0])
    return [
        (
            int(tree.feature[i]),
            tree.cuts_of(i).tolist(),
            tree.cat_branch_of(i).tolist(),
            [int(c) - base for c in tree.children_of(i)],
            np.round(tree.value[i], 9).tolist(),
        )
        for i in ids
    ]


@pytest.mark.parametrize(
    "name,algo,params",
    [
        ("watermelon_3.0", "c45", {}),
        ("watermelon_3.0", "cart", {}),
        ("buys_computer", "id3", {}),
        ("diabetes", "cart", {"max_depth": 5}),
        ("watermelon_2.0_missing", "c45", {"prune": False, "min_cases": 1}),
        ("vote", "id3", {"max_depth": 3}),
    ],
)
def test_forcing_the_algorithms_own_choice_gives_the_same_tree(name, algo, params):
    est, X, y = fit(name, algo, **params)
    tree = est.tree_
    for node in np.nonzero(tree.feature >= 0)[0][:4]:
        test = explain.tree_test(tree, int(node))
        new = forcing.force_split(est, X, y, None, int(node), test)
        a, b = new.to_dict(), tree.to_dict()
        for key in a:  # weights spread over branches may differ in the last bit: compare floats closely
            if key in ("value", "weighted_n", "impurity", "cuts"):
                assert np.allclose(a[key], b[key], rtol=1e-12, atol=1e-12), (node, key)
            else:
                assert a[key] == b[key], (node, key)


def test_forcing_the_runner_up_regrows_children_on_their_rows():
    est, X, y = fit("buys_computer", "id3")
    before = est.tree_.to_dict()
    rep = explain.split_report(est, X, y, None, 0)
    test = rep.features[rep.runner_up].test
    assert rep.features[rep.runner_up].name == "student"
    new = forcing.force_split(est, X, y, None, 0, test)
    assert est.tree_.to_dict() == before  # the original is untouched
    assert explain.same_test(explain.tree_test(new, 0), test)  # the root tests student now
    student = X[:, test.feature]
    for b, child in enumerate(new.children_of(0)):
        rows = np.nonzero(student == b)[0]
        ref = make_estimator("id3", "classification").fit_encoded(X[rows], y[rows], est.schema_).tree_
        assert subtree_dict(new, int(child)) == subtree_dict(ref, 0)
        assert new.weighted_n[child] == rows.size


def test_forcing_below_the_root_keeps_the_rest_and_the_node_id():
    est, X, y = fit("watermelon_3.0", "cart")
    tree = est.tree_
    node = int(np.nonzero(tree.feature >= 0)[0][1])
    rep = explain.split_report(est, X, y, None, node)
    alt = next(j for j in rep.ranking if j != rep.chosen)
    test = rep.features[alt].test
    new = forcing.force_split(est, X, y, None, node, test)
    assert explain.same_test(explain.tree_test(new, node), test)
    before = tree.subtree(node)
    # nodes before the forced one are the same nodes
    for i in range(node):
        assert new.feature[i] == tree.feature[i] and new.weighted_n[i] == tree.weighted_n[i]
    # nodes after its old subtree come back shifted, unchanged
    shift = new.node_count - tree.node_count
    for i in range(int(before[-1]) + 1, tree.node_count):
        assert new.feature[i + shift] == tree.feature[i]
        assert np.array_equal(new.value[i + shift], tree.value[i])
    # every training row still reaches exactly one leaf of weight 1
    r, leaf, w = new.route(X)
    assert np.bincount(r, weights=w).tolist() == [1.0] * X.shape[0]


def test_forcing_with_missing_values_spreads_their_weight():
    est, X, y = fit("watermelon_2.0_missing", "c45", prune=False, min_cases=1)
    rep = explain.split_report(est, X, y, None, 0)
    f = {r.name: r for r in rep.features}
    new = forcing.force_split(est, X, y, None, 0, f["色泽"].test)
    kids = new.children_of(0)
    assert new.weighted_n[kids].sum() == pytest.approx(17)
    assert not np.allclose(new.weighted_n[kids], np.round(new.weighted_n[kids]))  # fractional
    p = new.predict_proba(X)
    assert np.allclose(p.sum(axis=1), 1)


def test_replay_tracks_forced_ids_and_refuses_useless_tests():
    est, X, y = fit("watermelon_3.0", "c45", prune=False, min_cases=1)
    rep = explain.split_report(est, X, y, None, 0)
    ops = [(0, rep.features[rep.runner_up].test)]
    est1, forced = forcing.replay(est, X, y, None, ops)
    assert forced == [0] and est1 is not est and est.tree_ is not est1.tree_
    parent = int(np.nonzero(est1.tree_.feature >= 0)[0][1])  # a test below the forced root
    rep2 = explain.split_report(est1, X, y, None, parent)
    ops.append((parent, rep2.features[rep2.ranking[-1]].test))
    est2, forced2 = forcing.replay(est, X, y, None, ops)
    assert forced2 == [0, parent]
    assert forcing.is_forced_test(est2, parent, ops[1][1])
    # a cut above every value sends all rows one way
    with pytest.raises(ValueError, match="two branches"):
        forcing.force_split(est, X, y, None, 0, SplitTest(6, cuts=(99.0,), missing_branch=-1))
