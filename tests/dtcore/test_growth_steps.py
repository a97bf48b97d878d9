"""Build order and pruning order as fitted data (``dtcore.analysis.growth_steps``): each builder's order,
the tree after k steps, the replay of the pruning steps, the model file round trip."""

import json

import numpy as np
import pytest

from dtcore.analysis import growth_steps as gs
from dtcore.cli import prepare_training
from dtcore.data.readers import read_table
from dtcore.estimators import make_estimator
from dtcore.export.model_json import dumps_model, model_from_dict
from tests.datasets import DATA


def fit(name, algorithm, target, ignore=(), **params):
    X, y, feats, kinds, cats, classes, task = prepare_training(read_table(DATA / name), target, ignore=ignore)
    est = make_estimator(algorithm, task, **params).fit(
        X, y, feature_names=feats, feature_kinds=kinds or None, categories=cats or None, classes=classes
    )
    return est


CASES = [
    ("watermelon_2.0.csv", "id3", "好瓜", ("编号",), {}, "depth_first"),
    ("watermelon_3.0.csv", "c45", "好瓜", ("编号",), {}, "depth_first"),
    ("watermelon_2.0.csv", "cart", "好瓜", ("编号",), {}, "level"),
    ("breast_cancer.csv", "cart", "class", (), {"max_leaf_nodes": 8}, "best_first"),
    ("vote.csv", "id3", "Class", (), {"max_leaf_nodes": 6}, "best_first"),
    ("labor.csv", "c45", "class", (), {}, "depth_first"),
    ("credit-g.csv", "c45", "class", (), {}, "depth_first"),
    ("breast_cancer.csv", "cart", "class", (), {"ccp_alpha": 0.01}, "level"),
    ("vote.csv", "c45", "Class", (), {}, "depth_first"),
]


def _same_tree(a, b):
    assert gs.same_structure(a, b)
    for name in ("value", "weighted_n", "impurity"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(a.n_samples, b.n_samples)
    np.testing.assert_array_equal(a.missing_branch, b.missing_branch)


@pytest.mark.parametrize("name,algorithm,target,ignore,params,rule", CASES)
def test_steps_grow_then_prune_to_the_fitted_tree(name, algorithm, target, ignore, params, rule):
    est = fit(name, algorithm, target, ignore, **params)
    assert est.build_rule_ == rule
    grown, order = est.grown_tree_, est.build_order_
    # every test of the grown tree once, each after its parent
    assert sorted(order.tolist()) == np.flatnonzero(~grown.is_leaf).tolist()
    rank = {n: i for i, n in enumerate(order.tolist())}
    assert all(rank[int(grown.parent[n])] < rank[n] for n in order.tolist() if n)
    G = gs.n_growth_steps(est)
    for k in range(G + 1):
        st = gs.step_tree(est, k)
        assert int((~st.tree.is_leaf).sum()) == k  # exactly k splits made
        assert st.phase == "grow"
        if k:
            assert st.tree.feature[st.shown] == grown.feature[order[k - 1]]
    _same_tree(gs.step_tree(est, G).tree, grown)
    n = gs.n_steps(est)
    prev = G
    for k in range(G + 1, n + 1):
        st = gs.step_tree(est, k)
        assert st.phase == "prune" and st.prune is est.prune_steps_[k - G - 1]
        assert st.tree.node_count < gs.step_tree(est, k - 1).tree.node_count
        prev = k
    assert prev == n
    _same_tree(gs.step_tree(est, n).tree, est.tree_)
    assert gs.has_history(est)


def test_level_order_is_level_by_level_and_depth_first_is_preorder():
    cart = fit("breast_cancer.csv", "cart", "class")
    depths = cart.grown_tree_.depth[cart.build_order_]
    assert np.all(np.diff(depths) >= 0)
    id3 = fit("watermelon_2.0.csv", "id3", "好瓜", ("编号",))
    assert id3.build_order_.tolist() == np.flatnonzero(~id3.tree_.is_leaf).tolist()


def test_best_first_takes_the_largest_decrease_first():
    est = fit("breast_cancer.csv", "cart", "class", max_leaf_nodes=8)
    t = est.grown_tree_
    gain = []
    for n in est.build_order_.tolist():
        kids = t.children_of(n)
        gain.append(t.weighted_n[n] * t.impurity[n] - float((t.weighted_n[kids] * t.impurity[kids]).sum()))
    # a node popped later was either created later or had a smaller decrease
    assert gain[0] == max(gain)


def test_unpruned_models_keep_one_tree():
    est = fit("watermelon_2.0.csv", "cart", "好瓜", ("编号",))
    assert est.grown_tree_ is est.tree_ and est.prune_steps_ == []


def test_prune_step_reasons_carry_numbers():
    est = fit("labor.csv", "c45", "class")
    kinds = {s.kind for s in est.prune_steps_}
    assert "raise" in kinds and "leaf" in kinds
    for s in est.prune_steps_:
        if s.kind == "leaf":
            assert s.numbers["leaf_estimate"] <= s.numbers["subtree_estimate"] + 0.1 + 1e-6
        if s.kind == "raise":
            assert s.numbers["branch_estimate"] <= s.numbers["subtree_estimate"] + 0.1 + 1e-6
            assert s.refit and s.refit[0][0] == s.branch
    ccp = fit("breast_cancer.csv", "cart", "class", ccp_alpha=0.01)
    alphas = [s.numbers["alpha"] for s in ccp.prune_steps_]
    assert alphas == sorted(alphas) and alphas[-1] <= 0.01
    c45 = fit("credit-g.csv", "c45", "class")
    col = [s for s in c45.prune_steps_ if s.kind == "collapse"]
    assert col and all(s.numbers["subtree_errors"] >= s.numbers["node_errors"] - 0.001 for s in col)


def test_collapse_through_the_surgery_equals_the_assembler_collapse():
    """C4.5's collapsed tree is now ``pruning.collapse`` of the grown tree: the same tree as
    making the nodes leaves in the assembler (the former path)."""
    from dtcore.c45.growth import Grower, collapse_undone
    from dtcore.entropy.multiway import set_entropy_impurity

    est = fit("credit-g.csv", "c45", "class", prune=False)
    X, y, feats, kinds, cats, classes, _ = prepare_training(read_table(DATA / "credit-g.csv"), "class")
    asm = Grower(
        est, est.encode(X), np.array([list(est.schema_.classes).index(v) for v in y]), np.ones(len(y))
    ).grow()
    collapse_undone(asm)
    _same_tree(set_entropy_impurity(asm.build()), est.tree_)


@pytest.mark.parametrize("name,algorithm,target,ignore,params", [c[:5] for c in CASES])
def test_model_json_round_trip(name, algorithm, target, ignore, params):
    est = fit(name, algorithm, target, ignore, **params)
    text = dumps_model(est)
    d = json.loads(text)
    assert d["version"] == 1 and d["growth"]["build_rule"] == est.build_rule_
    back = model_from_dict(d)
    assert back.build_order_.tolist() == est.build_order_.tolist()
    assert [s.to_dict() for s in back.prune_steps_] == [s.to_dict() for s in est.prune_steps_]
    for k in range(gs.n_steps(est) + 1):
        _same_tree(gs.step_tree(back, k).tree, gs.step_tree(est, k).tree)
    assert dumps_model(back) == text


def test_old_model_files_without_growth_still_load():
    est = fit("watermelon_2.0.csv", "c45", "好瓜", ("编号",))
    d = json.loads(dumps_model(est))
    del d["growth"]
    back = model_from_dict(d)
    assert not gs.has_history(back)
    assert "growth" not in json.loads(dumps_model(back))


@pytest.mark.parametrize(
    "damage,message",
    [
        (lambda g: g.update(build_order=[1, 0]), "build_order"),
        (lambda g: g.update(build_order=g["build_order"][:-1]), "build_order"),
        (lambda g: g.update(build_rule="random"), "build_rule"),
        (lambda g: g["prune_steps"].append({"kind": "leaf", "node": 10**6}), "prune_steps"),
        (lambda g: g["prune_steps"].append({"kind": "explode", "node": 0}), "prune_steps"),
        (lambda g: g.update(prune_steps=[]), "do not lead"),
        (lambda g: g.update(grown_tree={"feature": [0]}), "lacks"),
    ],
)
def test_damaged_growth_entries_are_refused(damage, message):
    est = fit("credit-g.csv", "c45", "class")
    d = json.loads(dumps_model(est))
    damage(d["growth"])
    with pytest.raises(ValueError, match=message):
        model_from_dict(d)


def test_an_edited_tree_has_no_history():
    from dtcore.pruning.collapse import collapse

    est = fit("breast_cancer.csv", "cart", "class")
    est.tree_ = collapse(est.tree_, [1])[0]
    assert not gs.has_history(est)
    assert "growth" not in json.loads(dumps_model(est))
