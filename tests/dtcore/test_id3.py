"""ID3 and the shared split scoring against SPEC §10 (numbers from the seeds and textbooks)."""

import numpy as np
import pytest

from dtcore.criteria import entropy
from dtcore.entropy.cutpoints import score_textbook_cuts
from dtcore.entropy.discretize import (
    equal_frequency_edges,
    equal_width_edges,
    interval_edges,
    interval_edges_by_column,
    kmeans_edges,
)
from dtcore.entropy.multiway import branch_class_counts, score_multiway
from dtcore.id3.estimator import ID3Classifier
from scripts import compare_j48 as cj
from tests.datasets import DATA

TOL = 0.002


def encoded(name, drop=cj.ID_COLUMNS):
    """(estimator fitted with ID3 just to get the schema, encoded X, y codes)."""
    X, y, kw = cj.load_csv(DATA / name, drop=drop)
    kw["feature_kinds"] = ["categorical"] * X.shape[1]  # 编号 kept as a label, not a number
    est = ID3Classifier().fit(X, y, **kw)
    return (
        est,
        est.encode(X),
        np.searchsorted(np.arange(len(est.classes_)), [list(est.classes_).index(v) for v in y]),
    )


def gains(name, drop=cj.ID_COLUMNS):
    est, Xe, yc = encoded(name, drop)
    out = {}
    for j, f in enumerate(est.schema_.features):
        if f.is_categorical:
            counts, unk = branch_class_counts(
                Xe[:, j], yc, np.ones(len(yc)), len(f.categories), len(est.classes_)
            )
            out[f.name] = score_multiway(counts, unk)
    return est, Xe, yc, out


# -- buys_computer (seed 003) ---------------------------------------------------------------------


def test_buys_computer_gains_iv_ratio():
    est, Xe, yc, s = gains("buys_computer.csv")
    assert entropy(np.bincount(yc)) == pytest.approx(0.940, abs=TOL)
    assert s["age"].gain == pytest.approx(0.247, abs=TOL)
    assert s["income"].gain == pytest.approx(0.029, abs=TOL)
    assert s["student"].gain == pytest.approx(0.152, abs=TOL)
    assert s["credit_rating"].gain == pytest.approx(0.048, abs=TOL)
    assert s["age"].iv == pytest.approx(1.577, abs=TOL)
    assert s["age"].gain / s["age"].iv == pytest.approx(0.156, abs=TOL)
    # no missing values: C4.5's split info (unknown as a branch) equals IV
    assert s["age"].split_info == pytest.approx(s["age"].iv, abs=1e-12)


def test_buys_computer_id3_tree():
    X, y, kw = cj.load_csv(DATA / "buys_computer.csv")
    est = ID3Classifier().fit(X, y, **kw)
    t, f = est.tree_, est.schema_.features
    name = lambda i: f[t.feature[i]].name  # noqa: E731
    assert name(0) == "age"
    youth, middle, senior = (int(c) for c in t.children_of(0))
    assert f[0].categories == ("youth", "middle_aged", "senior")
    assert name(youth) == "student" and t.is_leaf[middle] and name(senior) == "credit_rating"
    cls = lambda i: est.classes_[np.argmax(t.value[i])]  # noqa: E731
    s_no, s_yes = t.children_of(youth)
    assert (cls(s_no), cls(s_yes)) == ("no", "yes") and cls(middle) == "yes"
    fair, excellent = t.children_of(senior)  # categories in order of appearance
    assert f[3].categories == ("fair", "excellent")
    assert (cls(excellent), cls(fair)) == ("no", "yes")
    assert t.get_n_leaves() == 5
    assert est.score(X, y) == 1.0


@pytest.mark.parametrize("weights, iv", [([2, 2], 1.0), ([1, 2, 1], 1.5), ([1, 1, 1, 1], 2.0)])
def test_seed003_split_information(weights, iv):
    counts = np.array([[w, 0] for w in weights], dtype=float)
    assert score_multiway(counts, np.zeros(2)).iv == pytest.approx(iv, abs=1e-12)


# -- watermelon 2.0 / 3.0 (Zhou ch. 4) -----------------------------------------------------------


def test_watermelon2_gains_and_root():
    est, Xe, yc, s = gains("watermelon_2.0.csv")
    assert entropy(np.bincount(yc)) == pytest.approx(0.998, abs=TOL)
    expect = {"色泽": 0.108, "根蒂": 0.143, "敲声": 0.141, "纹理": 0.381, "脐部": 0.289, "触感": 0.006}
    for k, v in expect.items():
        assert s[k].gain == pytest.approx(v, abs=TOL), k
    X, y, kw = cj.load_csv(DATA / "watermelon_2.0.csv")
    tree = ID3Classifier().fit(X, y, **kw).tree_
    assert est.schema_.features[tree.feature[0]].name == "纹理"


def test_watermelon2_identifier_gain_and_iv():
    est, Xe, yc, s = gains("watermelon_2.0.csv", drop=())
    assert s["编号"].gain == pytest.approx(0.998, abs=TOL)
    assert s["编号"].iv == pytest.approx(4.087, abs=TOL)
    assert s["触感"].iv == pytest.approx(0.874, abs=TOL)
    assert s["色泽"].iv == pytest.approx(1.580, abs=TOL)
    # ID3 with the identifier kept picks it at the root: why gain ratio exists
    X, y, kw = cj.load_csv(DATA / "watermelon_2.0.csv", drop=())
    kw["feature_kinds"] = ["categorical"] * X.shape[1]
    tree = ID3Classifier().fit(X, y, **kw).tree_
    assert tree.feature[0] == 0 and tree.get_n_leaves() == 17


def test_watermelon3_continuous_cuts():
    X, y, kw = cj.load_csv(DATA / "watermelon_3.0.csv")
    est = ID3Classifier(continuous="threshold").fit(X, y, **kw)
    Xe = est.encode(X)
    yc = np.array([list(est.classes_).index(v) for v in y])
    for name, cut, gain in (("密度", 0.3815, 0.262), ("含糖率", 0.126, 0.349)):
        j = est.schema_.index(name)
        o = np.argsort(Xe[:, j], kind="stable")
        sc = score_textbook_cuts(Xe[o, j][None], yc[o][None], np.ones((1, len(o))), float(len(o)), 2)
        assert sc.midpoint[0] == pytest.approx(cut, abs=1e-9)
        assert sc.gain[0] == pytest.approx(gain, abs=TOL)
    t = est.tree_
    assert est.schema_.features[t.feature[0]].name == "纹理"
    # the textbook tree (Zhou fig. 4.8): 清晰 → 密度 ≤ 0.3815 (否) / > (是)
    clear = int(t.children_of(0)[0])
    assert est.schema_.features[t.feature[clear]].name == "密度"
    assert t.cuts_of(clear).tolist() == pytest.approx([0.3815])
    assert est.score(X, y) == 1.0


# -- discretisation (seed 000, seed 002) ----------------------------------------------------------


def test_seed000_interval_edges():
    x = np.array([[3, 4, 5, 6, 7], [2, 2, 3, 5, 8], [3, 3, 8, 8, 9.0]])
    assert interval_edges_by_column(x) == {
        0: [2.0, 2.5, 3.0],
        1: [2.0, 2.5, 3.5, 4.0],
        2: [3.0, 4.0, 6.5, 8.0],
        3: [5.0, 5.5, 7.0, 8.0],
        4: [7.0, 7.5, 8.5, 9.0],
    }


def test_prebinning_edges():
    x = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 100.0, np.nan])
    assert equal_width_edges(x, 3).tolist() == pytest.approx([1, 34, 67, 100])
    ef = equal_frequency_edges(x, 2)
    assert ef[0] == 1 and ef[-1] == 100 and ef[1] == pytest.approx(5.5)
    km = kmeans_edges(x, 2, random_state=0)
    assert km[0] == 1 and km[-1] == 100 and 9 < km[1] < 100  # 100 is its own cluster
    assert np.array_equal(kmeans_edges(x, 2, random_state=0), km)  # seeded: reproducible
    assert interval_edges(np.array([np.nan])).size == 0


@pytest.mark.parametrize("mode", ["intervals", "equal_width", "equal_frequency", "kmeans"])
def test_interval_modes_split_multiway_and_use_the_feature_up(mode):
    X, y, kw = cj.load_csv(DATA / "watermelon_3.0.csv")
    est = ID3Classifier(continuous=mode, n_bins=4).fit(X, y, **kw)
    t = est.tree_
    for i in np.nonzero(~t.is_leaf)[0]:
        path, p = [], int(t.parent[i])
        while p >= 0:
            path.append(int(t.feature[p]))
            p = int(t.parent[p])
        assert t.feature[i] not in path  # used up on its branch
        if not est.schema_.features[t.feature[i]].is_categorical:
            edges = est.bin_edges_[est.schema_.features[t.feature[i]].name]
            assert t.cuts_of(i).tolist() == pytest.approx(edges[1:-1])
            assert len(t.children_of(i)) == len(edges) - 1


def test_intervals_mode_gives_each_value_its_interval():
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    est = ID3Classifier(continuous="intervals").fit(X, ["a", "b", "a", "b"])
    assert est.tree_.cuts_of(0).tolist() == [1.5, 2.5, 3.5]
    assert list(est.predict([[1.2], [2.2], [3.9], [0.0], [9.0]])) == ["a", "b", "b", "a", "b"]


# -- stop rules, empty branches, unseen values ----------------------------------------------------


def test_empty_branch_is_a_leaf_with_the_parents_majority():
    # 'c' is a declared category that never reaches the 'x = p' branch
    X = np.array([["p", "a"], ["p", "b"], ["p", "a"], ["q", "c"], ["q", "a"], ["p", "b"]], dtype=object)
    y = ["yes", "no", "yes", "no", "no", "no"]
    est = ID3Classifier().fit(X, y, feature_names=["x", "z"])
    t = est.tree_
    assert est.schema_.features[t.feature[0]].name == "z"
    kid_c = int(t.children_of(0)[2])  # z = c: only one row, class no
    assert t.weighted_n[kid_c] == 1
    est2 = ID3Classifier().fit(
        X[[0, 1, 2, 5]],
        [y[i] for i in (0, 1, 2, 5)],
        feature_names=["x", "z"],
        categories={"z": ("a", "b", "c")},
    )
    t2 = est2.tree_
    empty = int(t2.children_of(0)[2])
    assert t2.is_leaf[empty] and t2.weighted_n[empty] == 0
    assert t2.value[empty].tolist() == t2.value[0].tolist()  # parent's distribution
    # parent majority: 2 yes / 2 no → tie → first declared class ("yes")
    assert est2.predict(np.array([["p", "c"]], dtype=object))[0] == "yes"


def test_unseen_category_is_treated_as_missing():
    X, y, kw = cj.load_csv(DATA / "buys_computer.csv")
    est = ID3Classifier().fit(X, y, **kw)
    row_unseen = np.array([["ancient", "high", "no", "fair"]], dtype=object)
    row_missing = np.array([[None, "high", "no", "fair"]], dtype=object)
    p1, p2 = est.predict_proba(row_unseen), est.predict_proba(row_missing)
    assert np.allclose(p1, p2) and p1.sum() == pytest.approx(1.0)
    # mixing: youth (5/14) → student=no → 'no'; middle (4/14) → yes; senior (5/14) → fair → yes
    yes = list(est.classes_).index("yes")
    assert p1[0, yes] == pytest.approx(9 / 14)


def test_prepruning_limits():
    X, y, kw = cj.load_csv(DATA / "buys_computer.csv")
    assert ID3Classifier(max_depth=1).fit(X, y, **kw).get_depth() == 1
    assert ID3Classifier(max_depth=0).fit(X, y, **kw).tree_.node_count == 1
    # the senior/youth subsets have 5 rows: min_samples_split=6 stops there
    assert ID3Classifier(min_samples_split=6).fit(X, y, **kw).get_depth() == 1
    # root gain 0.247 × 14/14 passes 0.2, the second-level ones (0.971 × 5/14 = 0.347) too
    assert ID3Classifier(min_impurity_decrease=0.2).fit(X, y, **kw).get_depth() == 2
    assert ID3Classifier(min_impurity_decrease=0.25).fit(X, y, **kw).get_depth() == 0


def test_single_class_and_gain_ratio_criterion():
    est = ID3Classifier().fit(np.array([["a"], ["b"]], dtype=object), ["x", "x"])
    assert est.tree_.node_count == 1
    X, y, kw = cj.load_csv(DATA / "watermelon_2.0.csv", drop=())
    kw["feature_kinds"] = ["categorical"] * X.shape[1]
    # plain gain ratio still prefers 纹理 (0.381/1.448) over 编号 (0.998/4.087)
    t = ID3Classifier(criterion="gain_ratio").fit(X, y, **kw).tree_
    assert t.feature[0] == 4


def test_missing_values_in_id3_follow_c45_rule():
    X, y, kw = cj.load_csv(DATA / "watermelon_2.0_missing.csv")
    est = ID3Classifier().fit(X, y, **kw)
    assert est.schema_.features[est.tree_.feature[0]].name == "纹理"
    kids = est.tree_.children_of(0)
    assert est.tree_.weighted_n[kids].tolist() == pytest.approx([7 + 14 / 15, 5 + 10 / 15, 3 + 6 / 15])


def test_max_leaf_nodes_grows_best_first():
    X, y, kw = cj.load_csv(DATA / "buys_computer.csv")
    full = ID3Classifier().fit(X, y, **kw)
    assert ID3Classifier(max_leaf_nodes=100).fit(X, y, **kw).tree_.to_dict() == full.tree_.to_dict()
    # the age split makes 3 leaves; the next split (youth→student or senior→credit_rating,
    # both weighted gain 5/14·0.971) adds one leaf: the first one created wins
    t4 = ID3Classifier(max_leaf_nodes=4).fit(X, y, **kw).tree_
    assert t4.get_n_leaves() == 4
    youth = int(t4.children_of(0)[0])
    assert not t4.is_leaf[youth] and t4.is_leaf[t4.children_of(0)[2]]
    # 2 leaves are not enough for a 3-way split on age: the root stays a leaf
    assert ID3Classifier(max_leaf_nodes=2).fit(X, y, **kw).tree_.node_count == 1
    with pytest.raises(ValueError, match="max_leaf_nodes"):
        ID3Classifier(max_leaf_nodes=1).fit(X, y, **kw)


def test_min_samples_leaf_counts_rows_not_fractional_weight():
    """At 纹理=清晰 of watermelon 2.0 with missing values a 脐部 branch holds one row with 7/15 of
    its weight; min_samples_leaf (default 1) counts it as a row, so 脐部 (gain .484) beats 触感
    (.348), as textbook ID3 and C4.5's own rules choose; the split explorer agrees."""
    from dtcore import explain

    X, y, kw = cj.load_csv(DATA / "watermelon_2.0_missing.csv")
    est = ID3Classifier().fit(X, y, **kw)
    t, names = est.tree_, [f.name for f in est.schema_.features]
    clear = int(t.children_of(0)[est.schema_.features[t.feature[0]].categories.index("清晰")])
    assert names[t.feature[clear]] == "脐部"
    yc = np.array([list(est.classes_).index(v) for v in y])
    rep = explain.split_report(est, est.encode(X), yc, None, clear)
    assert rep.features[rep.chosen].name == "脐部"
    assert rep.features[rep.chosen].gain == pytest.approx(0.484, abs=TOL)
    assert explain.same_test(rep.features[rep.chosen].test, rep.tree_test)
    # a floor of 2 rows still refuses it (one 脐部 branch holds a single row)
    t2 = ID3Classifier(min_samples_leaf=2).fit(X, y, **kw).tree_
    clear2 = int(t2.children_of(0)[est.schema_.features[t2.feature[0]].categories.index("清晰")])
    assert t2.feature[clear2] < 0 or names[t2.feature[clear2]] != "脐部"


def test_min_samples_leaf_counts_rows_for_cuts():
    """Threshold cuts: each side needs min_samples_leaf rows, whatever their weights."""
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = ["a", "a", "b", "b"]
    w = [0.6, 0.6, 0.6, 0.6]  # 1.2 of weight a side, 2 rows a side
    est = ID3Classifier(continuous="threshold", min_samples_leaf=2).fit(X, y, sample_weight=w)
    assert est.tree_.cuts_of(0).tolist() == [2.5]


def test_a_bad_bin_count_is_refused_even_when_no_feature_is_binned():
    """Found by the property test: ``n_bins=0`` passed when every feature was categorical (the
    binning, which checked it, never ran)."""
    X = [["a"], ["b"], ["a"], ["b"]]
    for bad in (0, 1, 2.5):
        with pytest.raises(ValueError, match="n_bins must be an integer ≥ 2"):
            ID3Classifier(n_bins=bad).fit(X, ["p", "q", "p", "q"], feature_kinds=["categorical"])
