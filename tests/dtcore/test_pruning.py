"""Post-pruning (SPEC §8): CCP against scikit-learn, REP/PEP by their definitions, properties on
random trees (the original is untouched, nothing is added, the result is a subtree)."""

from __future__ import annotations

import csv
import dataclasses
import importlib
import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from dtcore.export.model_json import tree_from_dict
from dtcore.pruning import (
    choose_alpha_cv,
    choose_alpha_validation,
    collapse,
    cost_complexity_path,
    estimator_grower,
    prune,
    prune_to_alpha,
)
from dtcore.pruning.alpha_selection import candidate_alphas, fold_ids
from dtcore.pruning.ccp import nodes_to_collapse
from dtcore.pruning.losses import node_losses
from dtcore.routing import DISTRIBUTE
from dtcore.tree import Tree, TreeAssembler
from tests.cli_runner import run_cli

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"


# ---------------------------------------------------------------------------------------------
# helpers


def read_numeric(name):
    """A sample CSV: float features, last column the target (class labels as codes if text)."""
    with open(SAMPLES / name, encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:]
    # float32 values, as scikit-learn sees them, so both sides route rows identically
    X = np.array([[float(v) for v in r[:-1]] for r in rows]).astype(np.float32).astype(np.float64)
    target = [r[-1] for r in rows]
    try:
        y = np.array([float(v) for v in target])
    except ValueError:
        labels = sorted(set(target))
        y = np.array([labels.index(v) for v in target])
    return X, y


def sk_to_tree(est) -> Tree:
    """A fitted scikit-learn tree as a dtcore Tree (classifier values: fractions → weighted counts)."""
    t = est.tree_
    clf = hasattr(est, "classes_")
    n_classes = len(est.classes_) if clf else 0
    asm = TreeAssembler(n_outputs=n_classes if clf else 1, n_classes=n_classes)

    def add(i, parent):
        value = t.value[i, 0] * t.weighted_n_node_samples[i] if clf else t.value[i, 0, :1]
        k = asm.add_node(parent, value, t.weighted_n_node_samples[i], t.n_node_samples[i], t.impurity[i])
        if t.children_left[i] != -1:
            asm.set_split(
                k,
                int(t.feature[i]),
                cuts=[t.threshold[i]],
                missing_branch=0 if t.missing_go_to_left[i] else 1,
            )
            add(t.children_left[i], k)
            add(t.children_right[i], k)

    add(0, -1)
    return asm.build()


def random_tree(rng, X, y, n_classes, max_depth=5) -> Tree:
    """A random multiway tree on data with missing values, C4.5-style: missing rows go down every
    branch with the known rows' shares, so prediction spreads them too."""
    asm = TreeAssembler(n_outputs=n_classes, n_classes=n_classes)

    def grow(rows, w, parent, depth):
        counts = np.bincount(y[rows], weights=w, minlength=n_classes)
        p = counts / counts.sum() if counts.sum() > 0 else counts
        k = asm.add_node(parent, counts, w.sum(), int((w > 0).sum()), 1 - np.sum(p**2))
        if depth >= max_depth or rows.size < 4 or w.sum() <= 0 or rng.random() < 0.15:
            return
        f = int(rng.integers(X.shape[1]))
        x = X[rows, f]
        known = ~np.isnan(x)
        values = np.unique(x[known])
        branch = np.full(x.shape, -1)
        if f >= 3:  # categorical codes 0..2: multiway or a binary subset
            table = [0, 1, 2] if rng.random() < 0.5 else [0, 1, 0]
            test = dict(cat_branch=table, missing_branch=DISTRIBUTE)
            branch[known] = np.array(table)[x[known].astype(int)]
            nb = max(table) + 1
        else:
            if values.size < 2:
                return
            cuts = np.sort(
                rng.choice(values[:-1], size=min(int(rng.integers(1, 3)), values.size - 1), replace=False)
            )
            mb = DISTRIBUTE if rng.random() < 0.6 else int(rng.integers(len(cuts) + 1))
            test = dict(cuts=cuts, missing_branch=mb)
            branch[known] = np.searchsorted(cuts, x[known], side="left")
            if mb >= 0:
                branch[~known] = mb
            nb = len(cuts) + 1
        kw = np.bincount(branch[branch >= 0], weights=w[branch >= 0], minlength=nb)
        if kw.sum() <= 0:
            return
        asm.set_split(k, f, **test)
        share = kw / kw.sum()
        for b in range(nb):
            sel = (branch == b) | (branch < 0)
            grow(rows[sel], np.where(branch[sel] < 0, w[sel] * share[b], w[sel]), k, depth + 1)

    grow(np.arange(X.shape[0]), np.ones(X.shape[0]), -1, 0)
    return asm.build()


def random_data(rng, n, n_classes=3, missing=0.1):
    X = np.column_stack([rng.normal(size=(n, 3)), rng.integers(0, 3, size=(n, 2))]).astype(float)
    y = ((X[:, 0] > 0).astype(int) + (X[:, 3] == 1) + rng.integers(0, 2, n)) % n_classes
    X[rng.random(X.shape) < missing] = np.nan
    return X, y


def leaf_sum_error(tree, X, y):
    """REP's validation error straight from routing: weight at each leaf not of its majority."""
    r, leaf, w = tree.route(X)
    return float(np.sum(w * (np.argmax(tree.value[leaf], axis=1) != y[r])))


def assert_valid_subtree(orig: Tree, pruned: Tree, kept):
    kept = np.asarray(kept)
    assert pruned.node_count == kept.size <= orig.node_count
    assert np.all(np.diff(kept) > 0) and kept[0] == 0  # pre-order kept, root kept
    for new, old in enumerate(kept):
        p = pruned.parent[new]
        assert (p == -1) == (orig.parent[old] == -1)
        if p >= 0:
            assert kept[p] == orig.parent[old]
        np.testing.assert_array_equal(pruned.value[new], orig.value[old])
        assert pruned.depth[new] == orig.depth[old]
        if not pruned.is_leaf[new]:
            assert pruned.feature[new] == orig.feature[old]
            np.testing.assert_array_equal(pruned.cuts_of(new), orig.cuts_of(old))
            np.testing.assert_array_equal(pruned.cat_branch_of(new), orig.cat_branch_of(old))
            assert pruned.missing_branch[new] == orig.missing_branch[old]
            np.testing.assert_array_equal(kept[pruned.children_of(new)], orig.children_of(old))


# ---------------------------------------------------------------------------------------------
# cost-complexity pruning against scikit-learn


@pytest.fixture(scope="module")
def breast_cancer():
    return read_numeric("breast_cancer.csv")


@pytest.fixture(scope="module")
def diabetes():
    return read_numeric("diabetes.csv")


@pytest.mark.parametrize(
    "criterion,seed,weighted", [("gini", 0, False), ("entropy", 1, False), ("gini", 2, True)]
)
def test_ccp_path_equals_sklearn_breast_cancer(breast_cancer, criterion, seed, weighted):
    X, y = breast_cancer
    w = np.random.default_rng(seed).uniform(0.5, 2.0, y.size) if weighted else None
    est = DecisionTreeClassifier(criterion=criterion, random_state=seed).fit(X, y, sample_weight=w)
    expected = est.cost_complexity_pruning_path(X, y, sample_weight=w)
    path = cost_complexity_path(sk_to_tree(est))
    assert path.ccp_alphas.size == expected.ccp_alphas.size > 5
    np.testing.assert_allclose(path.ccp_alphas, expected.ccp_alphas, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(path.impurities, expected.impurities, rtol=1e-12, atol=1e-15)
    assert path.n_leaves[0] == est.get_n_leaves() and path.n_leaves[-1] == 1
    assert np.all(np.diff(path.n_leaves) < 0)


@pytest.mark.parametrize("params", [{"min_samples_leaf": 1}, {"min_samples_leaf": 5, "max_depth": 6}])
def test_ccp_path_equals_sklearn_diabetes(diabetes, params):
    X, y = diabetes
    est = DecisionTreeRegressor(random_state=0, **params).fit(X, y)
    expected = est.cost_complexity_pruning_path(X, y)
    path = cost_complexity_path(sk_to_tree(est))
    assert path.ccp_alphas.size == expected.ccp_alphas.size > 5
    np.testing.assert_allclose(path.ccp_alphas, expected.ccp_alphas, rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(path.impurities, expected.impurities, rtol=1e-10)


def _same_structure(ours: Tree, theirs: Tree):
    assert ours.node_count == theirs.node_count
    for name in ("feature", "parent", "depth", "child_ptr", "children", "cuts", "weighted_n"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
    np.testing.assert_allclose(ours.value, theirs.value, rtol=1e-12)


def test_prune_to_alpha_equals_sklearn_ccp_alpha(breast_cancer, diabetes):
    for (X, y), cls in ((breast_cancer, DecisionTreeClassifier), (diabetes, DecisionTreeRegressor)):
        full = cls(random_state=0, min_samples_leaf=3).fit(X, y)
        tree = sk_to_tree(full)
        alphas = full.cost_complexity_pruning_path(X, y).ccp_alphas
        picks = sorted({float(a) for a in alphas[[1, 2, len(alphas) // 3, len(alphas) // 2, -2, -1]]})
        picks += [float(np.sqrt(alphas[3] * alphas[4]))]  # between two steps
        for a in picks:
            ours, kept, _ = prune_to_alpha(tree, a)
            theirs = sk_to_tree(cls(random_state=0, min_samples_leaf=3, ccp_alpha=a).fit(X, y))
            _same_structure(ours, theirs)
            assert_valid_subtree(tree, ours, kept)
        assert prune_to_alpha(tree, 0.0)[0].node_count == tree.node_count  # sklearn: α=0 is no-op
        assert prune_to_alpha(tree, float(alphas[-1]))[0].node_count == 1


def test_prune_to_alpha_rejects_negative_alpha(breast_cancer):
    X, y = breast_cancer
    tree = sk_to_tree(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y))
    with pytest.raises(ValueError, match="alpha"):
        prune_to_alpha(tree, -0.1)


def test_alpha_on_validation_scores_each_candidate_like_sklearn(breast_cancer):
    X, y = breast_cancer
    rng = np.random.default_rng(0)
    valid = rng.random(y.size) < 0.3
    Xt, yt, Xv, yv = X[~valid], y[~valid], X[valid], y[valid]
    full = DecisionTreeClassifier(random_state=0).fit(Xt, yt)
    tree = sk_to_tree(full)
    choice = choose_alpha_validation(tree, Xv, yv)
    for a, err in zip(
        choice.alphas[:: max(1, choice.alphas.size // 6)], choice.errors[:: max(1, choice.alphas.size // 6)]
    ):
        if a > 0:
            sk = DecisionTreeClassifier(random_state=0, ccp_alpha=a).fit(Xt, yt)
            assert err == pytest.approx(1 - sk.score(Xv, yv), abs=1e-12)
    assert choice.errors[choice.index] == choice.errors.min()
    assert np.all(choice.errors[choice.index + 1 :] > choice.errors.min())  # the smallest such tree
    one = choose_alpha_validation(tree, Xv, yv, one_se=True)
    assert one.index >= one.best_index
    assert one.errors[one.index] <= one.errors[one.best_index] + one.ses[one.best_index] + 1e-12
    assert np.all(one.errors[one.index + 1 :] > one.errors[one.best_index] + one.ses[one.best_index])
    # standard error of a 0/1 loss is sqrt(p(1-p)/n)
    p = one.errors[one.best_index]
    assert one.ses[one.best_index] == pytest.approx(math.sqrt(p * (1 - p) / yv.size))


def grown(tree: Tree) -> dict:
    """A tree's nodes and statistics without what a fit adds to ``tree_`` alone (the training
    values beside each cut, whether a node saw missing values)."""
    return {k: v for k, v in tree.to_dict().items() if k not in ("cut_below", "cut_above", "saw_missing")}


def test_fold_trees_are_grown_as_the_pruned_tree_was(breast_cancer):
    """One rule for CV's fold trees (``estimator_grower``), which the CLI, the app and the tests
    call: α is forced to 0, and C4.5's own EBP stays on for the CLI (it prunes ``tree_``) and goes
    off for the app's Pruning page (it prunes ``unpruned_tree_``)."""
    from dtcore import C45Classifier
    from dtcore.cart.estimator import CARTClassifier

    X, y = breast_cancer
    c45 = C45Classifier().fit(X, y)
    assert c45.unpruned_tree_.node_count > c45.tree_.node_count  # EBP pruned something
    as_fitted = estimator_grower(c45, c45.schema_)(X, y, None)
    unpruned = estimator_grower(c45, c45.schema_, unpruned=True)(X, y, None)
    assert as_fitted.to_dict() == c45.tree_.to_dict()
    assert grown(unpruned) == grown(c45.unpruned_tree_)
    cart = CARTClassifier(ccp_alpha=0.01).fit(X, y)
    whole = estimator_grower(cart, cart.schema_)(X, y, None)
    assert whole.to_dict() == CARTClassifier().fit(X, y).tree_.to_dict()
    assert whole.node_count > cart.tree_.node_count


def test_alpha_by_cross_validation_matches_manual_sklearn_cv(breast_cancer):
    X, y = breast_cancer

    def grow(Xg, yg, wg):
        return sk_to_tree(DecisionTreeClassifier(random_state=0, min_samples_leaf=2).fit(Xg, yg, wg))

    k = 4
    choice = choose_alpha_cv(grow, X, y, k=k, one_se=False, seed=3)
    folds = fold_ids(y, k, seed=3)
    # stratified: every fold gets its share of each class
    for f in range(k):
        assert abs(np.mean(y[folds == f]) - np.mean(y)) < 0.02
    alphas = choice.alphas
    betas = np.append(np.sqrt(alphas[:-1] * alphas[1:]), alphas[-1])
    np.testing.assert_allclose(choice.scored_at, betas)
    for j in (1, alphas.size // 2, alphas.size - 2):
        wrong = 0
        for f in range(k):
            test = folds == f
            sk = DecisionTreeClassifier(random_state=0, min_samples_leaf=2, ccp_alpha=betas[j])
            sk.fit(X[~test], y[~test])
            wrong += np.sum(sk.predict(X[test]) != y[test])
        assert choice.errors[j] == pytest.approx(wrong / y.size, abs=1e-12)
    assert choice.alpha == alphas[choice.index]
    # the chosen α is one of the full tree's own path values
    full_path = cost_complexity_path(grow(X, y, None)).ccp_alphas
    assert np.any(np.isclose(full_path, choice.alpha, rtol=0, atol=0))


def test_ccp_on_random_multiway_trees_is_monotone():
    rng = np.random.default_rng(5)
    for _ in range(20):
        X, y = random_data(rng, 200)
        tree = random_tree(rng, X, y, 3)
        if tree.node_count == 1:
            continue
        path = cost_complexity_path(tree)
        assert np.all(np.diff(path.ccp_alphas) >= -1e-12)  # weakest link: α never decreases
        assert np.all(np.diff(path.impurities) >= -1e-12)
        assert path.n_leaves[0] == tree.get_n_leaves() and path.n_leaves[-1] == 1
        for a in path.ccp_alphas[1::3]:
            pruned, kept, _ = prune_to_alpha(tree, max(float(a), 1e-300), path)
            assert_valid_subtree(tree, pruned, kept)


# ---------------------------------------------------------------------------------------------
# reduced-error pruning


def test_rep_never_raises_validation_error_on_random_data():
    rng = np.random.default_rng(11)
    for trial in range(40):
        n_classes = int(rng.integers(2, 4))
        X, y = random_data(rng, 300, n_classes, missing=0.0 if trial % 2 else 0.15)
        Xv, yv = random_data(rng, 150, n_classes, missing=0.0 if trial % 2 else 0.15)
        if trial % 4 < 2:
            tree = random_tree(rng, X, y, n_classes)
        else:
            Xf = np.nan_to_num(X)
            tree = sk_to_tree(DecisionTreeClassifier(random_state=trial, max_depth=8).fit(Xf, y))
            Xv = np.nan_to_num(Xv)
        snapshot = json.dumps(tree.to_dict())
        pruned, report = prune(tree, "rep", X_valid=Xv, y_valid=yv)
        assert json.dumps(tree.to_dict()) == snapshot  # original untouched
        assert leaf_sum_error(pruned, Xv, yv) <= leaf_sum_error(tree, Xv, yv) + 1e-9
        if not np.isnan(Xv).any():  # one leaf per row: the prediction error is that error
            assert report.errors["validation"]["after"] <= report.errors["validation"]["before"]
        assert pruned.node_count <= tree.node_count
        assert_valid_subtree(tree, pruned, report.kept)
        # REP stops only where every remaining subtree beats its node as a leaf
        leaf_loss, _ = node_losses(pruned, Xv, yv)
        for i in np.nonzero(~pruned.is_leaf)[0]:
            below = pruned.subtree(i)
            below = below[pruned.is_leaf[below]]
            assert leaf_loss[i] > leaf_loss[below].sum() * (1 + 1e-9) + 1e-9


def test_rep_hand_example():
    # root [5,6] (class 1), x0 ≤ 0: left leaf [1,5] (class 1); right [4,1] (class 0) splits at
    # x0 ≤ 5 into leaves [4,0] and [0,1].
    asm = TreeAssembler(2, 2)
    root = asm.add_node(-1, [5, 6], 11, 11, 0.5)
    asm.set_split(root, 0, cuts=[0.0])
    asm.add_node(root, [1, 5], 6, 6, 0.28)
    right = asm.add_node(root, [4, 1], 5, 5, 0.32)
    asm.set_split(right, 0, cuts=[5.0])
    asm.add_node(right, [4, 0], 4, 4, 0.0)
    asm.add_node(right, [0, 1], 1, 1, 0.0)
    tree = asm.build()
    # validation rows (x, class): (-1, 1) left, right; (6, 0) and (7, 0) reach leaf [0,1]: wrong;
    # (1, 0) reaches leaf [4,0]: right.  Right node as a leaf (class 0): 0 errors < 2 → pruned.
    # Root as a leaf (class 1): 3 errors > 0 → kept.
    Xv = np.array([[-1.0], [6.0], [7.0], [1.0]])
    yv = np.array([1, 0, 0, 0])
    pruned, report = prune(tree, "rep", X_valid=Xv, y_valid=yv)
    assert report.collapsed == [2] and report.removed == [3, 4] and report.kept == [0, 1, 2]
    assert pruned.node_count == 3
    assert report.errors["validation"] == {"before": 0.5, "after": 0.0}
    # a validation set reaching only the left side: the unreached right subtree goes (0 ≤ 0),
    # and then the root as a leaf (class 1) errs no more than its two leaves
    pruned, report = prune(tree, "rep", X_valid=np.array([[-2.0]]), y_valid=np.array([1]))
    assert report.collapsed == [0] and pruned.node_count == 1


def test_rep_regression_never_raises_validation_sse(diabetes):
    X, y = diabetes
    rng = np.random.default_rng(2)
    for trial in range(5):
        valid = rng.random(y.size) < 0.4
        tree = sk_to_tree(DecisionTreeRegressor(random_state=trial, max_depth=7).fit(X[~valid], y[~valid]))
        pruned, report = prune(
            tree, "rep", X_valid=X[valid], y_valid=y[valid], X_train=X[~valid], y_train=y[~valid]
        )
        e = report.errors["validation"]
        assert e["after"] <= e["before"] * (1 + 1e-12)
        assert report.metric == "mse" and pruned.node_count < tree.node_count
        assert report.errors["train"]["after"] >= report.errors["train"]["before"]
        assert_valid_subtree(tree, pruned, report.kept)


# ---------------------------------------------------------------------------------------------
# pessimistic error pruning


def _pep_tree():
    """root [12,8]: left leaf [10,2]; right [2,6] split into leaves [0,5] and [2,1]."""
    asm = TreeAssembler(2, 2)
    root = asm.add_node(-1, [12, 8], 20, 20, 0.48)
    asm.set_split(root, 0, cuts=[0.0])
    asm.add_node(root, [10, 2], 12, 12, 0.28)
    right = asm.add_node(root, [2, 6], 8, 8, 0.375)
    asm.set_split(right, 1, cuts=[0.0])
    asm.add_node(right, [0, 5], 5, 5, 0.0)
    asm.add_node(right, [2, 1], 3, 3, 0.44)
    return asm.build()


def test_pep_hand_example():
    # root: leaf 8 + 0.5 = 8.5; subtree (2 + 0 + 1) + 3/2 = 4.5, SE = sqrt(4.5·15.5/20) = 1.8675
    #   → 8.5 > 6.37: kept.  right: leaf 2.5; subtree 1 + 1 = 2, SE = sqrt(2·6/8) = 1.2247
    #   → 2.5 ≤ 3.22: pruned.
    pruned, report = prune(_pep_tree(), "pep")
    assert report.collapsed == [2] and report.removed == [3, 4]
    assert pruned.node_count == 3 and pruned.get_n_leaves() == 2
    assert report.after == {"nodes": 3, "leaves": 2, "depth": 1}
    assert report.before == {"nodes": 5, "leaves": 3, "depth": 2}


def test_pep_is_top_down():
    # root [9,3] over A [8,1] and B [1,2], each split into two pure leaves (N = 12).
    # Root first, against the grown subtree: leaf 3 + 0.5 = 3.5 > 4·0.5 + sqrt(2·10/12) = 3.29:
    # kept.  A: 1.5 ≤ 1 + sqrt(1·8/9) = 1.94, B: 1.5 ≤ 1 + sqrt(1·2/3) = 1.82: both pruned.
    # (Bottom-up would then prune the root too: 3.5 ≤ 3 + sqrt(3·9/12) = 4.5.)
    asm = TreeAssembler(2, 2)
    root = asm.add_node(-1, [9, 3], 12, 12, 0.375)
    asm.set_split(root, 0, cuts=[0.0])
    for counts in ([8, 1], [1, 2]):
        c = asm.add_node(root, counts, sum(counts), sum(counts), 0.3)
        asm.set_split(c, 1, cuts=[0.0])
        asm.add_node(c, [counts[0], 0], counts[0], counts[0], 0.0)
        asm.add_node(c, [0, counts[1]], counts[1], counts[1], 0.0)
    tree = asm.build()
    pruned, report = prune(tree, "pep")
    assert report.collapsed == [1, 4] and pruned.node_count == 3


def test_pep_refuses_regression(diabetes):
    X, y = diabetes
    tree = sk_to_tree(DecisionTreeRegressor(max_depth=2).fit(X, y))
    with pytest.raises(ValueError, match="classification"):
        prune(tree, "pep")


# ---------------------------------------------------------------------------------------------
# the common interface


def test_every_method_returns_a_valid_subtree_and_leaves_the_original():
    rng = np.random.default_rng(21)
    for _trial in range(10):
        X, y = random_data(rng, 300)
        Xv, yv = random_data(rng, 100)
        tree = random_tree(rng, X, y, 3, max_depth=6)
        snapshot = json.dumps(tree.to_dict())
        for method, kw in (("rep", {}), ("pep", {}), ("ccp", {"alpha": 0.01}), ("ccp", {})):
            pruned, report = prune(
                tree,
                method,
                X_train=X,
                y_train=y,
                X_valid=Xv,
                y_valid=yv,
                X_test=Xv[:50],
                y_test=yv[:50],
                **kw,
            )
            assert json.dumps(tree.to_dict()) == snapshot
            assert_valid_subtree(tree, pruned, report.kept)
            assert report.before["nodes"] == tree.node_count
            assert report.after["nodes"] == pruned.node_count <= tree.node_count
            assert sorted(report.kept + report.removed) == list(range(tree.node_count))
            for c in report.collapsed:
                assert not tree.is_leaf[c] and pruned.is_leaf[report.kept.index(c)]
            assert set(report.errors) == {"train", "validation", "test"}
            json.dumps(report.to_dict(), allow_nan=False)


def test_collapse_nested_and_leaf_nodes():
    tree = _pep_tree()
    pruned, kept = collapse(tree, [2, 3, 1])  # 3 is below 2, 1 is a leaf
    assert kept.tolist() == [0, 1, 2]
    assert pruned.is_leaf.tolist() == [False, True, True]
    assert pruned.children.tolist() == [1, 2] and pruned.cuts.tolist() == [0.0]


def test_prune_asks_for_what_it_needs():
    tree = _pep_tree()
    with pytest.raises(ValueError, match="validation"):
        prune(tree, "rep")
    with pytest.raises(ValueError, match="alpha"):
        prune(tree, "ccp")
    with pytest.raises(ValueError, match="unknown pruning method"):
        prune(tree, "magic")
    with pytest.raises(ValueError, match="grow"):
        prune(tree, "ccp", cv=3, X_train=np.zeros((20, 2)), y_train=np.zeros(20, int))


def test_ebp_is_c45s_pruner():
    """EBP is delegated to dtcore.c45.ebp_prune; until that exists, asking for it says so."""
    tree = _pep_tree()
    X = np.array([[-1.0, 0.0]] * 12 + [[1.0, -1.0]] * 5 + [[1.0, 1.0]] * 3)
    y = np.array([0] * 10 + [1] * 2 + [1] * 5 + [0, 0, 1])
    has_c45 = importlib.util.find_spec("dtcore.pruning.ebp") is not None
    if not has_c45 or not hasattr(importlib.import_module("dtcore.pruning.ebp"), "ebp_prune"):
        with pytest.raises(NotImplementedError, match="dtcore.c45.ebp_prune"):
            prune(tree, "ebp", X_train=X, y_train=y)
        return
    snapshot = json.dumps(tree.to_dict())
    pruned, report = prune(tree, "ebp", X_train=X, y_train=y, cf=0.25)
    assert json.dumps(tree.to_dict()) == snapshot
    assert pruned.node_count <= tree.node_count
    assert report.method == "ebp" and report.params["cf"] == 0.25


# ---------------------------------------------------------------------------------------------
# with dtcore's own learners


def test_ccp_path_of_our_cart_equals_sklearn(breast_cancer, diabetes):
    from dtcore.cart.estimator import CARTClassifier, CARTRegressor
    from dtcore.schema import Feature, Schema

    for (X, y), ours, theirs in (
        (breast_cancer, CARTClassifier, DecisionTreeClassifier),
        (diabetes, CARTRegressor, DecisionTreeRegressor),
    ):
        clf = ours is CARTClassifier
        schema = Schema(
            tuple(Feature(f"x{j}", "continuous") for j in range(X.shape[1])), "y", ("0", "1") if clf else None
        )
        tree = ours(min_samples_leaf=2).fit_encoded(X, y, schema).tree_
        sk = theirs(min_samples_leaf=2, random_state=0).fit(X, y)
        expected = sk.cost_complexity_pruning_path(X, y)
        path = cost_complexity_path(tree)
        np.testing.assert_allclose(path.ccp_alphas, expected.ccp_alphas, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(path.impurities, expected.impurities, rtol=1e-9, atol=1e-12)
        a = float(expected.ccp_alphas[len(expected.ccp_alphas) // 2])
        pruned, _, _ = prune_to_alpha(tree, a)
        assert (
            pruned.node_count
            == theirs(min_samples_leaf=2, random_state=0, ccp_alpha=a).fit(X, y).tree_.node_count
        )


def _vote():
    from dtcore.data.readers import read_table
    from dtcore.schema import encode_classes

    table = read_table(SAMPLES / "vote.csv")
    names = table.names[:-1]
    return table.rows[:, :-1], table.column(table.names[-1]), names, table.names[-1], encode_classes


def test_ebp_through_prune_is_c45s_own_pruning():
    from dtcore.c45 import C45Classifier

    X, y, names, target, encode_classes = _vote()
    grown = C45Classifier(prune=False).fit(X, y, feature_names=names, target_name=target)
    Xe = grown.encode(X)
    ye, _ = encode_classes(y, grown.schema_.classes)
    tree = grown.tree_
    snapshot = json.dumps(tree.to_dict())
    for raising in (True, False):
        pruned, report = prune(tree, "ebp", X_train=Xe, y_train=ye, subtree_raising=raising)
        c45 = C45Classifier(subtree_raising=raising).fit(X, y, feature_names=names, target_name=target)
        assert pruned.to_dict() == c45.tree_.to_dict()
        assert json.dumps(tree.to_dict()) == snapshot
        assert report.after["nodes"] == pruned.node_count < tree.node_count
        assert report.params["z"] == pytest.approx(0.6925)
        assert sorted(report.kept + report.removed) == list(range(tree.node_count))
        assert report.errors["train"]["after"] >= report.errors["train"]["before"]
        if not raising:
            assert report.raised == []
            assert_valid_subtree(tree, _with_values_of(pruned, tree, report.kept), report.kept)


def _with_values_of(pruned: Tree, orig: Tree, kept) -> Tree:
    """EBP recomputes counts from the data; compare structure only."""
    d = pruned.to_dict()
    d["value"] = orig.value[kept].tolist()
    return tree_from_dict(d)


# ---------------------------------------------------------------------------------------------
# the command line


def _cli(*args):
    return run_cli(*args)


def test_cli_prune_and_path(tmp_path):
    from dtcore.export import load_model

    src = SAMPLES / "breast_cancer.csv"
    with open(src, encoding="utf-8") as f:
        lines = f.read().splitlines()
    rng = np.random.default_rng(0)
    is_valid = rng.random(len(lines) - 1) < 0.3
    train, valid = tmp_path / "train.csv", tmp_path / "valid.csv"
    train.write_text("\n".join([lines[0]] + [l for l, v in zip(lines[1:], is_valid) if not v]) + "\n")
    valid.write_text("\n".join([lines[0]] + [l for l, v in zip(lines[1:], is_valid) if v]) + "\n")
    model = tmp_path / "model.json"
    proc = _cli("train", train, "--target", "class", "--out", model)
    assert proc.returncode == 0, proc.stderr
    grown = load_model(model).tree_

    proc = _cli("prune", model, "--path")
    assert proc.returncode == 0, proc.stderr
    path = json.loads(proc.stdout)
    expected = cost_complexity_path(grown)
    np.testing.assert_array_equal(path["ccp_alphas"], expected.ccp_alphas)
    np.testing.assert_array_equal(path["impurities"], expected.impurities)
    assert path["n_leaves"][0] == grown.get_n_leaves() and path["n_leaves"][-1] == 1

    out = tmp_path / "pruned.json"
    for args in (
        ["--method", "ccp", "--alpha", path["ccp_alphas"][-3]],
        ["--method", "ccp", "--cv", 3, "--one-se"],
        ["--method", "ccp", "--validation", valid],
        ["--method", "rep", "--validation", valid],
        ["--method", "pep"],
    ):
        proc = _cli("prune", model, train, *args, "--out", out)
        assert proc.returncode == 0, (args, proc.stderr)
        report = json.loads(proc.stdout)
        pruned = load_model(out).tree_
        assert report["after"]["nodes"] == pruned.node_count <= grown.node_count
        assert report["before"]["nodes"] == grown.node_count
        assert_valid_subtree(grown, pruned, report["kept"])
        if "--validation" in args:
            assert set(report["errors"]) == {"train", "validation"}
        if args[1] == "rep":
            assert report["errors"]["validation"]["after"] <= report["errors"]["validation"]["before"]
    assert report["method"] == "pep"
    proc = _cli("prune", model, train, "--method", "rep", "--out", out)
    assert proc.returncode == 2 and "validation" in proc.stderr and "Traceback" not in proc.stderr


def test_ebp_on_a_gini_tree_keeps_gini_impurities():
    """EBP recomputes class counts; a CART (gini) tree must keep gini as its node impurity (it
    was relabelled entropy: "gini = 0.998" at watermelon 3.0's root, "gini = 1.58" on iris)."""
    from dtcore.cart.estimator import CARTClassifier
    from dtcore.criteria import entropy, gini
    from dtcore.pruning import prune

    X, y = load_iris_like()
    est = CARTClassifier(criterion="gini").fit(X, y)
    Xe = est.encode(X)
    codes = np.searchsorted(est.classes_.astype(str), np.asarray(y).astype(str))
    pruned, _ = prune(est.tree_, "ebp", X_train=Xe, y_train=codes, impurity="gini")
    live = pruned.weighted_n > 0
    assert np.allclose(pruned.impurity[live], gini(pruned.value[live]))
    assert pruned.impurity.max() <= 1.0
    as_entropy, _ = prune(est.tree_, "ebp", X_train=Xe, y_train=codes)  # C4.5's own: entropy
    assert np.allclose(as_entropy.impurity[live], entropy(as_entropy.value[live]))
    with pytest.raises(ValueError, match="impurity"):
        prune(est.tree_, "ebp", X_train=Xe, y_train=codes, impurity="squared_error")


def load_iris_like():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 4))
    y = np.array(["setosa", "versicolor", "virginica"])[
        np.argmax(X[:, :3] + 0.8 * rng.normal(size=(150, 3)), axis=1)
    ]
    return X, y


# ---------------------------------------------------------------------------------------------
# every subtree of the path scored in one pass


def _brute_force_errors(tree, path, alphas, X, y):
    from dtcore.pruning.losses import error

    return np.array([error(collapse(tree, nodes_to_collapse(path, float(a)))[0], X, y) for a in alphas])


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_path_errors_equal_scoring_each_pruned_subtree(task):
    from dtcore.cart.estimator import CARTClassifier, CARTRegressor
    from dtcore.pruning.alpha_selection import errors_along_path
    from dtcore.pruning.path_losses import path_losses, steps_at

    rng = np.random.default_rng(4)
    X = rng.normal(size=(1600, 4))
    X[rng.random(X.shape) < 0.08] = np.nan  # CART's learned missing direction: one leaf per row
    noise = rng.normal(size=1600)
    if task == "classification":
        y = (np.nan_to_num(X[:, 0]) + noise > 0).astype(int)
        tree = CARTClassifier(min_samples_leaf=2).fit(X[:1200], y[:1200]).tree_
    else:
        y = 3 * np.nan_to_num(X[:, 1]) + noise
        tree = CARTRegressor(min_samples_leaf=3).fit(X[:1200], y[:1200]).tree_
    path = cost_complexity_path(tree)
    alphas = candidate_alphas(path)
    assert steps_at(path, alphas).tolist() == [nodes_to_collapse(path, float(a)).size for a in alphas]
    assert path_losses(tree, path, X[1200:], y[1200:]) is not None
    fast = errors_along_path(tree, path, alphas, X[1200:], y[1200:])
    np.testing.assert_allclose(fast, _brute_force_errors(tree, path, alphas, X[1200:], y[1200:]), rtol=1e-12)


def _spread_rows_case(seed: int):
    """A grown C4.5 tree (three classes) and held-out rows, a tenth of their values missing:
    many rows are spread over branches (C4.5's missing-value rule)."""
    from dtcore.c45 import C45Classifier

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(600, 4)).astype(float)
    y = ((X[:, 0] + X[:, 1] + rng.integers(0, 3, 600)) > 4).astype(int) + (rng.random(600) < 0.2)
    X[rng.random(X.shape) < 0.1] = np.nan
    tree = C45Classifier(prune=False, collapse=False, min_cases=1).fit(X[:400], y[:400]).tree_
    rows, _, share = tree.route(X[400:])
    assert np.unique(rows[share < 1]).size > 20  # the case has spread rows
    return tree, X[400:], y[400:], rng


def _each_subtree_sums(tree, path, X, y, w):
    """(Σ w·loss, Σ w·loss²) of every subtree on the path, each pruned and predicted anew."""
    from dtcore.pruning.losses import row_losses

    out = []
    for s in range(path.ccp_alphas.size):
        loss = row_losses(collapse(tree, path.pruned_node[1 : 1 + s])[0], X, y)
        out.append((np.sum(w * loss), np.sum(w * loss * loss)))
    return np.array(out).T


@pytest.mark.parametrize("seed", [9, 10, 11])
def test_path_errors_of_a_c45_tree_with_spread_rows_equal_scoring_each_pruned_subtree(seed):
    """A C4.5 row spread over several branches is predicted by the mix of the nodes its weight
    ends at: replayed in one pass, every subtree's errors are those of pruning and predicting it
    (unweighted: the same counts exactly)."""
    from dtcore.pruning.alpha_selection import errors_along_path
    from dtcore.pruning.path_losses import path_losses

    tree, X, y, _ = _spread_rows_case(seed)
    path = cost_complexity_path(tree)
    alphas = candidate_alphas(path)
    assert path.ccp_alphas.size > 20
    wl, wl2, _ = path_losses(tree, path, X, y)
    np.testing.assert_array_equal(np.array([wl, wl2]), _each_subtree_sums(tree, path, X, y, np.ones(y.size)))
    fast = errors_along_path(tree, path, alphas, X, y)
    np.testing.assert_array_equal(fast, _brute_force_errors(tree, path, alphas, X, y))


def test_path_losses_of_spread_rows_with_weights_and_of_a_regression_tree():
    """Row weights, and a regression tree of the same shape (its node values drawn at random):
    a spread row's prediction is the weighted mix of values, as ``predict_value`` sums it."""
    from dtcore.pruning.path_losses import path_losses

    tree, X, y, rng = _spread_rows_case(12)
    path = cost_complexity_path(tree)
    w = rng.uniform(0.1, 3.0, size=y.size)
    wl, wl2, _ = path_losses(tree, path, X, y, w)
    np.testing.assert_allclose(np.array([wl, wl2]), _each_subtree_sums(tree, path, X, y, w), rtol=1e-12)
    reg = dataclasses.replace(tree, value=rng.normal(size=(tree.node_count, 1)), n_classes=0)
    target = rng.normal(size=y.size)
    wl, wl2, _ = path_losses(reg, path, X, target, w)
    np.testing.assert_allclose(np.array([wl, wl2]), _each_subtree_sums(reg, path, X, target, w), rtol=1e-12)


def test_a_leaf_whose_counts_tie_as_probabilities_scores_as_it_predicts():
    """Two class weights an ulp apart can divide to the same probability: the tree then
    predicts the first class, and the path's losses (and REP's node losses) score that."""
    from dtcore.pruning.losses import node_prediction, row_losses
    from dtcore.pruning.path_losses import path_losses

    tree, X, y, _ = _spread_rows_case(9)
    leaves, counts = np.unique(tree.apply(X), return_counts=True)
    leaf = int(leaves[np.argmax(counts)])  # the leaf most held-out rows reach
    value = tree.value.copy()
    value[leaf] = [7.588758, np.nextafter(7.588758, np.inf), 7.0]
    tied = dataclasses.replace(tree, value=value)
    dist = tied.leaf_distribution()[leaf]
    assert value[leaf, 1] > value[leaf, 0] and dist[1] == dist[0]  # the tie the case needs
    assert node_prediction(tied)[leaf] == np.argmax(tied.predict_proba(X[tied.apply(X) == leaf][:1])) == 0
    reach = tied.apply(X) == leaf
    assert np.isin(y[reach], [0, 1]).any()  # rows whose loss depends on the class taken
    wl, _, _ = path_losses(tied, cost_complexity_path(tied), X, y)
    assert wl[0] == np.sum(row_losses(tied, X, y))


def test_path_losses_of_rows_spread_everywhere_in_small_blocks_at_chosen_steps(monkeypatch):
    """Rows with every value missing reach every leaf: their terms are summed in blocks of rows
    (here a few dozen terms at a time), and only the stretches holding a step asked for."""
    import dtcore.pruning.path_losses as pl

    monkeypatch.setattr(pl, "_PAIRS", 40)
    tree, X, y, _ = _spread_rows_case(10)
    X = X.copy()
    X[:5] = np.nan
    path = cost_complexity_path(tree)
    last = path.ccp_alphas.size - 1
    steps = np.array([0, 3, 3, 7, last // 2, last])
    wl, wl2, w_sum = pl.path_losses(tree, path, X, y, steps=steps)
    ref = _each_subtree_sums(tree, path, X, y, np.ones(y.size))
    np.testing.assert_array_equal(np.array([wl, wl2]), ref[:, steps])
    assert w_sum.tolist() == [float(y.size)] * steps.size
