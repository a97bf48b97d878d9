"""Split reports (dtcore.explain): SPEC §10 numbers, the report's choice equals the fitted tree's
test at every node, and its scores equal what the builders computed."""

import numpy as np
import pytest

from dtcore import explain
from dtcore.cli import prepare_training
from dtcore.data.readers import read_table
from dtcore.entropy.cutpoints import score_textbook_cuts
from dtcore.estimators import make_estimator
from dtcore.routing import SplitTest
from dtcore.schema import encode_classes
from tests.datasets import DATA
from tests.dtcore.one_node_cuts import c45_node_cuts

SAMPLES = {
    "watermelon_3.0": ("好瓜", ["编号"]),
    "watermelon_2.0_missing": ("好瓜", ["编号"]),
    "buys_computer": ("buys_computer", ["RID"]),
    "regression_toy5": ("y", []),
    "iris": ("class", []),
    "vote": ("Class", []),
    "credit-g": ("class", []),
    "diabetes": ("target", []),
    "labor": ("class", []),
}


def fit(name, algo, **params):
    target, ignore = SAMPLES[name]
    table = read_table(DATA / f"{name}.csv")
    X, y, feats, kinds, cats, classes, task = prepare_training(table, target, ignore=ignore)
    est = make_estimator(algo, task, **params)
    est.fit(
        X,
        y,
        feature_names=feats,
        feature_kinds=kinds or None,
        categories=cats or None,
        classes=classes,
        target_name=target,
    )
    Xe = est.encode(X)
    ye = encode_classes(y, est.schema_.classes)[0] if task == "classification" else np.asarray(y, float)
    return est, Xe, ye


def by_name(rep):
    return {r.name: r for r in rep.features}


@pytest.mark.parametrize(
    "algo,params", [("id3", {"continuous": "threshold"}), ("c45", {}), ("cart", {"criterion": "entropy"})]
)
def test_watermelon_3_root_curves_have_the_spec_best_cuts(algo, params):
    est, X, y = fit("watermelon_3.0", algo, **params)
    rep = explain.split_report(est, X, y, None, 0)
    f = by_name(rep)
    for name, cut, gain in (("密度", 0.3815, 0.262), ("含糖率", 0.126, 0.349)):
        cand = f[name].candidates
        k = f[name].best
        assert cand.threshold[k] == pytest.approx(cut)
        assert cand.score[k] == pytest.approx(gain, abs=0.002)
        assert cand.score[k] == pytest.approx(np.max(cand.score[cand.eligible]))
    # 16 distinct values → 15 cuts on the curve (C4.5 marks the ones failing MinSplit = 2)
    assert f["密度"].candidates.threshold.size == 16
    if algo == "c45":
        elig = f["密度"].candidates.eligible
        assert not elig[0] and not elig[-1] and elig[1:-1].all()
        assert f["密度"].mdl_penalty == pytest.approx(np.log2(elig.sum()) / 17)
        assert f["密度"].test.cuts == (0.36,)  # the largest training value ≤ 0.3815
    assert rep.features[rep.chosen].name == ("含糖率" if algo == "cart" else "纹理")


def test_buys_computer_root_arithmetic_prints_the_spec_numbers():
    est, X, y = fit("buys_computer", "id3")
    rep = explain.split_report(est, X, y, None, 0)
    f = by_name(rep)
    for name, gain in (("age", 0.247), ("income", 0.029), ("student", 0.152), ("credit_rating", 0.048)):
        assert f[name].gain == pytest.approx(gain, abs=0.002)
    assert rep.features[rep.chosen].name == "age"
    nd = explain.explainer_data(est, X, y, None, 0)
    ar = explain.arithmetic(nd, f["age"].test, rep)
    assert ar.kind == "entropy" and not ar.missing
    assert ar.ent_D == pytest.approx(0.940, abs=0.001)
    assert ar.gain == pytest.approx(0.247, abs=0.001)
    assert ar.iv == pytest.approx(1.577, abs=0.001)
    assert ar.gain_ratio == pytest.approx(0.156, abs=0.001)
    assert ar.branch_weights.tolist() == [5, 4, 5]
    assert ar.branch_entropy == pytest.approx([0.971, 0.0, 0.971], abs=0.001)


def test_missing_values_arithmetic_has_rho_and_known_entropy():
    est, X, y = fit("watermelon_2.0_missing", "c45", prune=False, min_cases=1)
    rep = explain.split_report(est, X, y, None, 0)
    f = by_name(rep)
    expected = {"色泽": 0.252, "根蒂": 0.171, "敲声": 0.145, "纹理": 0.424, "脐部": 0.289, "触感": 0.006}
    for name, gain in expected.items():
        assert f[name].gain == pytest.approx(gain, abs=0.002), name
    nd = explain.explainer_data(est, X, y, None, 0)
    ar = explain.arithmetic(nd, f["色泽"].test, rep)
    assert ar.rho == pytest.approx(14 / 17)
    assert ar.ent_known == pytest.approx(0.985, abs=0.001)
    assert ar.gain == pytest.approx(ar.gain_textbook)
    # C4.5's split information counts the unknown rows as one more branch
    assert ar.split_info > ar.iv
    # the children of 纹理: rows 8 and 10 spread with 7/15, 5/15, 3/15
    kids = explain.children_summary(nd, f["纹理"].test)
    assert [k.weight for k in kids] == pytest.approx([7 + 14 / 15, 5 + 10 / 15, 3 + 6 / 15])


def test_regression_toy5_candidates_are_the_spec_mse_decreases():
    est, X, y = fit("regression_toy5", "cart")
    rep = explain.split_report(est, X, y, None, 0)
    c = rep.features[0].candidates
    assert c.threshold.tolist() == [1.5, 2.5, 3.5, 4.5]
    assert c.score == pytest.approx([1.96, 2.16, 3.227, 1.21], abs=0.002)
    assert rep.features[0].best == 2
    nd = explain.explainer_data(est, X, y, None, 0)
    ar = explain.arithmetic(nd, rep.features[0].test, rep)
    assert ar.kind == "mse" and ar.impurity == pytest.approx(3.76)
    assert ar.branch_impurity[0] == pytest.approx(0.889, abs=0.001)
    left = explain.split_report(est, X, y, None, 1)
    assert left.features[0].test.cuts == (1.5,)


CASES = [
    ("watermelon_3.0", "c45", {}),
    ("watermelon_3.0", "c45", {"prune": False, "min_cases": 1}),
    ("watermelon_2.0_missing", "c45", {"prune": False, "collapse": False, "min_cases": 1}),
    ("vote", "c45", {"prune": False}),
    ("credit-g", "c45", {}),
    ("labor", "c45", {"prune": False}),
    ("watermelon_3.0", "id3", {"continuous": "threshold"}),
    ("watermelon_3.0", "id3", {}),
    ("buys_computer", "id3", {}),
    ("iris", "id3", {"continuous": "equal_width"}),
    ("vote", "id3", {"criterion": "gain_ratio"}),
    ("watermelon_3.0", "cart", {}),
    ("iris", "cart", {}),
    ("vote", "cart", {"criterion": "entropy"}),
    ("credit-g", "cart", {"max_depth": 6}),
    ("diabetes", "cart", {"max_depth": 6}),
    ("diabetes", "cart", {"criterion": "friedman_mse", "max_depth": 4}),
]


@pytest.mark.parametrize("name,algo,params", CASES)
def test_the_report_chooses_the_test_the_tree_holds_at_every_node(name, algo, params):
    est, X, y = fit(name, algo, **params)
    tree = est.tree_
    inner = np.nonzero(tree.feature >= 0)[0]
    assert inner.size >= 1
    for node in inner:
        rep = explain.split_report(est, X, y, None, int(node))
        assert rep.weighted_n == pytest.approx(tree.weighted_n[node])
        assert rep.leaf_reason is None, (node, rep.leaf_reason)
        chosen = rep.features[rep.chosen]
        assert explain.same_test(chosen.test, rep.tree_test), (node, chosen.test, rep.tree_test)
        if algo == "cart":
            # the reported weighted decrease is the one the tree's impurities give
            kids = tree.children_of(node)
            dec = (
                tree.weighted_n[node] * tree.impurity[node]
                - np.sum(tree.weighted_n[kids] * tree.impurity[kids])
            ) / tree.weighted_n[0]
            assert chosen.improvement == pytest.approx(dec, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(
    "name,algo,params",
    [
        ("watermelon_3.0", "c45", {"prune": False, "min_cases": 1}),
        ("vote", "cart", {}),
        ("iris", "id3", {"continuous": "threshold"}),
    ],
)
def test_the_builder_would_stop_at_every_leaf(name, algo, params):
    est, X, y = fit(name, algo, **params)
    for node in np.nonzero(est.tree_.feature < 0)[0]:
        assert explain.split_report(est, X, y, None, int(node)).leaf_reason is not None


@pytest.mark.parametrize(
    "name,rules",
    [
        ("credit-g", "c45"),
        ("labor", "c45"),
        ("watermelon_3.0", "c45"),
        ("iris", "textbook"),
        ("diabetes", "c45"),
    ],
)
def test_every_cut_gain_matches_score_cuts_best(name, rules):
    """cut_gains scores every cut; its best is the builders' best cut and raw gain (C4.5:
    ``score_cuts_batch``, ID3: ``score_textbook_cuts``)."""
    if name == "diabetes":
        est, X, _ = fit(name, "cart", max_depth=1)
        y = (np.asarray(fit(name, "cart", max_depth=1)[2]) > 140).astype(np.int64)
    else:
        est, X, y = fit(name, "c45" if rules == "c45" else "id3")
    rng = np.random.default_rng(0)
    C = int(y.max()) + 1
    for trial in range(3):
        rows = np.sort(
            rng.choice(
                X.shape[0], size=min(X.shape[0], max(15, X.shape[0] * (trial + 1) // 4)), replace=False
            )
        )
        w = rng.uniform(0.2, 2.0, rows.size) if trial == 2 else np.ones(rows.size)
        for j, f in enumerate(est.schema_.features):
            if f.is_categorical:
                continue
            x, yy = X[rows, j], y[rows]
            N = float(w.sum())
            cg = explain.cut_gains(x, yy, w, N, C, rules=rules)
            order = np.argsort(x, kind="stable")
            args = x[order][None], yy[order][None], w[order][None], N, C
            sc = c45_node_cuts(*args, mdl=False) if rules == "c45" else score_textbook_cuts(*args)
            D = np.where(cg.eligible, cg.gain, -np.inf)
            if not sc.valid[0]:
                assert not np.isfinite(D).any() or D.max() <= 1e-6
                continue
            k = explain.pick_j48(D) if rules == "c45" else int(np.argmax(D))
            assert cg.gain[k] == sc.raw_gain[0]
            assert cg.midpoint[k] == sc.midpoint[0]
            assert cg.n_candidates == sc.n_candidates[0]


def test_untrained_root_report_and_json():
    est, X, y = fit("watermelon_3.0", "c45")
    blank = make_estimator("c45", "classification")
    blank.schema_ = est.schema_
    rep = explain.split_report(blank, X, y, None, 0, tree=None)
    assert rep.tree_test is None and rep.features[rep.chosen].name == "纹理"
    import json

    text = json.dumps(explain.jsonable(rep), ensure_ascii=False, allow_nan=False)
    assert "含糖率" in text
    with pytest.raises(ValueError, match="node"):
        explain.split_report(est, X, y, None, est.tree_.node_count)


def test_friedman_score_stays_visible_in_the_explorer():
    """friedman_mse splits by the weighted MSE decrease (scikit-learn 1.9); the explorer still
    shows Friedman's n_L·n_R/n·(mean_L − mean_R)² for every candidate and the best test."""
    est, X, y = fit("diabetes", "cart", criterion="friedman_mse", max_depth=2)
    rep = explain.split_report(est, X, y, None, 0)
    chosen = rep.features[rep.chosen]
    c = chosen.candidates
    assert c.friedman is not None and c.friedman.shape == c.proxy.shape
    wl, wr = c.weight_left, c.weight_right
    k = chosen.best
    x = X[:, chosen.feature]
    yv = np.asarray(y, dtype=float)
    left = x <= c.threshold[k]
    expect = wl[k] * wr[k] / (wl[k] + wr[k]) * (yv[left].mean() - yv[~left].mean()) ** 2
    assert chosen.friedman == pytest.approx(expect, rel=1e-9)
    assert "friedman" in rep.to_dict()["features"][rep.chosen]


# Li Hang, Statistical Learning Methods, table 5.1 (the loan applications): 年龄, 有工作,
# 有自己的房子, 信贷情况 → 类别
LOAN = """年龄,有工作,有自己的房子,信贷情况,类别
青年,否,否,一般,否
青年,否,否,好,否
青年,是,否,好,是
青年,是,是,一般,是
青年,否,否,一般,否
中年,否,否,一般,否
中年,否,否,好,否
中年,是,是,好,是
中年,否,是,非常好,是
中年,否,是,非常好,是
老年,否,是,非常好,是
老年,否,是,好,是
老年,是,否,好,是
老年,是,否,非常好,是
老年,否,否,一般,否
"""


def loan_cart(tmp_path):
    p = tmp_path / "loan.csv"
    p.write_text(LOAN, encoding="utf-8")
    X, y, feats, kinds, cats, classes, task = prepare_training(read_table(p), "类别")
    est = make_estimator("cart", task).fit(
        X, y, feature_names=feats, feature_kinds=kinds or None, categories=cats or None, classes=classes
    )
    return est, est.encode(X), encode_classes(y, est.schema_.classes)[0]


def test_cart_lists_every_one_vs_rest_gini_next_to_the_optimal_subset(tmp_path):
    """Li Hang's Gini(D, A=a) for every category (example 5.4): Breiman's ordering alone never
    shows 年龄=中年 (0.48) or 信贷情况=好 (0.47); the explorer lists them, the tree keeps the
    optimal subset."""
    est, X, y = loan_cart(tmp_path)
    rep = explain.split_report(est, X, y, None, 0)
    f = by_name(rep)
    expect = {
        "年龄": {"青年": 0.44, "中年": 0.48, "老年": 0.44},
        "有工作": {"是": 0.32},  # two categories: 是 versus 否 is one test
        "有自己的房子": {"是": 0.27},
        "信贷情况": {"一般": 0.32, "好": 0.47, "非常好": 0.36},
    }
    for name, ginis in expect.items():
        rec = f[name]
        cand = rec.candidates
        cats = est.schema_.features[rec.feature].categories
        got = {}
        for k in np.flatnonzero(cand.one_vs_rest >= 0):
            label = cats[int(cand.one_vs_rest[k])]
            got["是" if label == "否" and len(cats) == 2 else label] = float(cand.split_impurity[k])
        assert got == pytest.approx(ginis, abs=0.005), name
        # the builder's candidates come first and hold the chosen (optimal) subset
        assert cand.eligible[rec.best]
        assert cand.split_impurity[rec.best] <= min(ginis.values()) + 1e-12
    assert rep.features[rep.chosen].name == "有自己的房子"
    assert explain.same_test(rep.features[rep.chosen].test, rep.tree_test)


def test_branch_labels_name_cart_missing_values_alone_branch():
    """CART's test that sends the missing values alone one way has no category on that branch:
    it reads "is missing", not an empty set."""
    from dtcore.schema import infer_schema

    schema = infer_schema(np.array([["n"], ["y"]], dtype=object), ["vote"], {"vote": "categorical"})
    test = SplitTest(0, cat_branch=(1, 1), missing_branch=0)
    assert explain.branch_labels(schema, test) == ["is missing", "∈ {n, y}"]
