"""C4.5 release 8: SPEC §9/§10 numbers, missing values, options, pruning, J48 text form."""

import re
from pathlib import Path

import numpy as np
import pytest

from dtcore.c45 import C45Classifier, snap_threshold, snap_values
from dtcore.criteria import entropy
from dtcore.entropy.cutpoints import pick_j48, xlog2x_table
from dtcore.entropy.multiway import branch_class_counts, score_multiway
from dtcore.estimators import make_estimator
from dtcore.export.j48 import to_j48_text, tree_to_j48_lines
from dtcore.pruning.ebp import add_errs, ebp_prune, estimated_errors, z_value
from dtcore.routing import distribute
from dtcore.tree import Tree
from scripts import compare_j48 as cj
from tests.datasets import DATA
from tests.dtcore.one_node_cuts import c45_node_cuts

TOL = 0.002


def fit(name, **params):
    X, y, kw = cj.load_csv(DATA / name)
    return C45Classifier(**params).fit(X, y, **kw), X, y


# -- AddErrs and z -----------------------------------------------------------------------------


def test_add_errs_worked_values():
    assert z_value(0.25, "c45") == pytest.approx(0.6925, abs=1e-12)
    assert z_value(0.25, "normal") == pytest.approx(0.6745, abs=1e-4)
    assert add_errs(6, 0) == pytest.approx(1.2378, abs=1e-4)
    assert add_errs(1, 0) == pytest.approx(0.75, abs=1e-12)
    assert add_errs(3, 1) == pytest.approx(1.0569, abs=1e-4)
    # e between 0 and 1: linear interpolation between e = 0 and e = 1
    a0, a1 = add_errs(6, 0), add_errs(6, 1)
    assert add_errs(6, 0.25) == pytest.approx(a0 + 0.25 * (a1 - a0))
    # e + 0.5 ≥ N: release 8 adds 0.67·(N − e), Weka N − e
    assert add_errs(2, 1.6) == pytest.approx(0.67 * 0.4)
    assert add_errs(2, 1.6, z="normal") == pytest.approx(0.4)
    assert estimated_errors([0, 0]) == 0.0
    # the general formula with a hand-computed value (N=10, e=2, z²=0.6925²)
    c = 0.6925**2
    pr = (2.5 + c / 2 + np.sqrt(c * (2.5 * (1 - 2.5 / 10) + c / 4))) / (10 + c)
    assert add_errs(10, 2) == pytest.approx(10 * pr - 2)


# -- watermelon 2.0 with missing values (seed 004 §4.2) --------------------------------------------


def _wm_missing():
    est, X, y = fit("watermelon_2.0_missing.csv", prune=False)
    Xe = est.encode(X)
    yc = np.array([list(est.classes_).index(v) for v in y])
    return est, Xe, yc


def test_missing_value_gains():
    est, Xe, yc = _wm_missing()
    feats = est.schema_.features
    j = est.schema_.index("色泽")
    counts, unk = branch_class_counts(Xe[:, j], yc, np.ones(17), len(feats[j].categories), 2)
    assert counts.sum() / 17 == pytest.approx(14 / 17)
    assert entropy(counts.sum(axis=0)) == pytest.approx(0.985, abs=TOL)
    expect = {"色泽": 0.252, "根蒂": 0.171, "敲声": 0.145, "纹理": 0.424, "脐部": 0.289, "触感": 0.006}
    for name, g in expect.items():
        j = est.schema_.index(name)
        counts, unk = branch_class_counts(Xe[:, j], yc, np.ones(17), len(feats[j].categories), 2)
        assert score_multiway(counts, unk).gain == pytest.approx(g, abs=TOL), name
    assert feats[est.tree_.feature[0]].name == "纹理"


def test_rows_8_and_10_go_down_every_branch():
    est, Xe, yc = _wm_missing()
    j = est.schema_.index("纹理")
    branch = np.where(np.isnan(Xe[:, j]), -1, Xe[:, j]).astype(int)
    bw = np.bincount(branch[branch >= 0], minlength=3)
    parts = distribute(branch, np.ones(17), bw)
    for v, share in enumerate((7 / 15, 5 / 15, 3 / 15)):
        pos, w = parts[v]
        for row in (7, 9):  # rows 8 and 10 (1-based)
            assert row in pos
            assert w[list(pos).index(row)] == pytest.approx(share)
    kids = est.tree_.children_of(0)
    assert est.tree_.weighted_n[kids].tolist() == pytest.approx([7 + 14 / 15, 5 + 10 / 15, 3 + 6 / 15])


def test_prediction_mixes_branches_for_missing_and_unseen_values():
    est, X, y = fit("watermelon_2.0_missing.csv", prune=False)
    t = est.tree_
    kids = [int(k) for k in t.children_of(0)]
    share = t.weighted_n[kids] / t.weighted_n[0]
    # a row with 纹理 missing and values sending it to a known leaf in every branch
    row = np.array([["乌黑", "蜷缩", "浊响", None, "凹陷", "硬滑"]], dtype=object)
    p = est.predict_proba(row)[0]
    expect = np.zeros(2)
    for k, s in zip(kids, share):
        node = k
        while not t.is_leaf[node]:  # walk by the row's known values
            f = t.feature[node]
            code = est.schema_.features[f].categories.index(row[0, f])
            node = int(t.children_of(node)[t.cat_branch_of(node)[code]])
        expect += s * t.value[node] / t.value[node].sum()
    assert p == pytest.approx(expect[[est.schema_.classes.index(c) for c in est.classes_]])
    assert p.sum() == pytest.approx(1.0)
    unseen = row.copy()
    unseen[0, 3] = "斑驳"  # a texture never seen in training
    assert est.predict_proba(unseen)[0] == pytest.approx(p)
    # every value missing: the root distribution weighted down the whole tree
    allmiss = np.array([[None] * 6], dtype=object)
    pa = est.predict_proba(allmiss)[0]
    assert pa.sum() == pytest.approx(1.0) and est.predict(allmiss)[0] in est.classes_


# -- continuous features: MinSplit, MDL, snapping -------------------------------------------------


def test_watermelon3_cut_snapped_to_a_training_value():
    est, X, y = fit("watermelon_3.0.csv", prune=False)
    t = est.tree_
    cont = [i for i in range(t.node_count) if not t.is_leaf[i] and not t.is_categorical_test(i)]
    assert cont
    dens = est.schema_.index("密度")
    values = set(est.encode(X)[:, dens].tolist())
    for i in cont:
        assert t.cuts_of(i)[0] in set(est.encode(X)[:, t.feature[i]].tolist())
    (mid,) = [i for i in cont if t.feature[i] == dens]
    assert t.cuts_of(mid)[0] == 0.36 and 0.36 in values  # midpoint 0.3815 → 0.360
    est_mid, _, _ = fit("watermelon_3.0.csv", prune=False, threshold="midpoint")
    tm = est_mid.tree_
    assert [
        tm.cuts_of(i)[0] for i in range(tm.node_count) if not tm.is_leaf[i] and not tm.is_categorical_test(i)
    ] == [pytest.approx(0.3815)]


def near_midpoint_data(larger_first):
    """x cut at 0.8333355 (midpoint of 0.5 and 1.166671) under z = p; under z = q the values
    0.833335 (≤ the midpoint) and 0.833336 (5e-7 above it, 1e-6 above the other), in either
    data order."""
    near = [("q", 0.833336, "C"), ("q", 0.833335, "C")]
    if not larger_first:
        near = near[::-1]
    rows = [("p", 0.5, "A")] * 2 + near + [("p", 0.5, "A")] * 2 + [("p", 1.166671, "B")] * 4
    rows += [("q", 0.2, "C"), ("q", 2.0, "C")] * 2
    X = np.array([[z, x] for z, x, _ in rows], dtype=object)
    kw = dict(feature_names=["z", "x"], feature_kinds=["categorical", "continuous"])
    return X, [c for *_, c in rows], kw


def _cut_lines(est, name):
    return [line for line in tree_to_j48_lines(est.tree_, est.schema_) if f"{name} <=" in line]


@pytest.mark.parametrize("larger_first", [False, True])
def test_threshold_rules_r8_j48_midpoint(larger_first):
    """r8 (default): the largest training value ≤ the float32 midpoint; j48: J48's data-order
    scan with its 1e-6 tolerance (0.833335 when it comes first: 0.833336 is not greater by more
    than 1e-6; 0.833336 when it comes first); midpoint: the midpoint."""
    X, y, kw = near_midpoint_data(larger_first)
    cut = {
        thr: C45Classifier(threshold=thr, prune=False).fit(X, y, **kw).tree_.cuts[0]
        for thr in ("r8", "j48", "midpoint")
    }
    assert C45Classifier().threshold == "r8"
    assert cut["r8"] == 0.833335
    assert cut["j48"] == (0.833336 if larger_first else 0.833335)
    assert cut["midpoint"] == pytest.approx(0.8333355, abs=1e-12)
    with pytest.raises(ValueError, match="threshold"):
        C45Classifier(threshold="c45").fit(X, y, **kw)


def test_r8_threshold_on_breast_cancer():
    """Release 8's float32 midpoint (14.95 + 14.99)/2 = 14.9699993 < float32(14.97), so
    ``mean radius <= 14.96``; J48's tolerance gives 14.97."""
    X, y, kw = cj.load(DATA / "breast_cancer.csv", "class")
    r8 = _cut_lines(C45Classifier().fit(X, y, **kw), "mean radius")
    j48 = _cut_lines(C45Classifier(threshold="j48").fit(X, y, **kw), "mean radius")
    assert any(line.endswith("mean radius <= 14.96") for line in r8), r8
    assert any(line.endswith("mean radius <= 14.97") for line in j48), j48


WEKA_EXAMPLES = Path("/usr/share/doc/weka/examples")

#: release 8's stored thresholds: (file, target, feature, the node's neighbours lo / hi, stored)
R8_CASES = [
    ("diabetes.arff", None, "pedi", 0.557, 0.565, 0.561),  # float32 midpoint = float32(0.561)
    ("diabetes.arff", None, "mass", 26.8, 27.4, 27.0),  # float32 midpoint < float32(27.1)
    ("breast_cancer.csv", "class", "mean radius", 14.95, 14.99, 14.96),
    ("segment-challenge.arff", None, "vedge-mean", 0.277778, 0.388889, 0.333333),
]


def _data_path(file):
    path = DATA / file if (DATA / file).exists() else WEKA_EXAMPLES / file
    if not path.exists():
        pytest.skip(f"{path} is not installed")
    return path


@pytest.mark.parametrize("file, target, name, lo, hi, stored", R8_CASES, ids=[c[2] for c in R8_CASES])
@pytest.mark.parametrize("prune", [True, False], ids=["pruned", "unpruned"])
def test_r8_threshold_from_the_single_precision_midpoint(file, target, name, lo, hi, stored, prune):
    """threshold="r8" (default) computes the midpoint of the node's two neighbouring values in
    float32, as release 8 does with C ``float``, then stores the largest training value whose
    float32 is ≤ it: release 8 (and J48) store pedi <= 0.561 and mass <= 27, where the float64
    midpoint would give 0.56 (0.5609999999999999) and 27.1 (exactly 27.1)."""
    X, y, kw = cj.load(_data_path(file), target)
    est = C45Classifier(prune=prune).fit(X, y, **kw)
    tree, j = est.tree_, est.schema_.index(name)
    at = [
        int(tree.cut_ptr[i])
        for i in np.flatnonzero(tree.feature == j)
        if tree.cut_ptr[i + 1] > tree.cut_ptr[i]
        and (tree.cut_below[tree.cut_ptr[i]], tree.cut_above[tree.cut_ptr[i]]) == (lo, hi)
    ]
    assert at, f"no {name} cut between {lo} and {hi}"
    assert [float(tree.cuts[k]) for k in at] == [stored] * len(at)


def test_explorer_snaps_like_the_builder_in_single_precision():
    """The split explorer stores the same r8 threshold as the builder (pedi <= 0.561), both for
    the node's chosen test and for a candidate picked by index."""
    from dtcore import explain
    from dtcore.explain.arithmetic import candidate_test
    from dtcore.schema import encode_classes

    X, y, kw = cj.load(_data_path("diabetes.arff"))
    est = C45Classifier(prune=False).fit(X, y, **kw)
    tree, j = est.tree_, est.schema_.index("pedi")
    node = next(
        int(i)
        for i in np.flatnonzero(tree.feature == j)
        if tree.cut_ptr[i + 1] > tree.cut_ptr[i] and tree.cut_below[tree.cut_ptr[i]] == 0.557
    )
    Xe, ye = est.encode(X), encode_classes(y, est.schema_.classes)[0]
    rep = explain.split_report(est, Xe, ye, None, node)
    rec = rep.features[j]
    assert rep.chosen == j and rec.test.cuts == (0.561,)
    nd = explain.explainer_data(est, Xe, ye, None, node)
    assert candidate_test(nd, rep, j, rec.best).cuts == (0.561,)


def test_r8_snap_keeps_the_node_partition_where_float32_cannot_tell_the_values_apart():
    """1000.00001 and 1000.00003 are one float32 (1000.0): release 8 would not cut between
    them; the stored threshold stays below ``hi`` so the cut the node scored is kept."""
    values = snap_values([1000.00001, 1000.00003, 999.0, 1001.0])
    assert np.float32(1000.00001) == np.float32(1000.00003)
    assert snap_threshold(values, 1000.00001, 1000.00003) == 1000.00001
    assert snap_threshold(values, 999.0, 1000.00001, "midpoint") == pytest.approx(999.500005)


def test_minsplit_and_mdl_penalty():
    # 40 rows, 2 classes: MinSplit = clamp(0.1·40/2, 2, 25) = 2
    x = np.arange(40, dtype=float)
    y = (x >= 20).astype(int)
    V = x[None]
    sc = c45_node_cuts(V, y[None], np.ones((1, 40)), 40.0, 2)
    assert sc.n_candidates[0] == 40 - 3  # cuts leaving ≥ 2 rows each side
    assert sc.raw_gain[0] == pytest.approx(1.0)
    assert sc.gain[0] == pytest.approx(1.0 - np.log2(37) / 40)
    assert sc.midpoint[0] == 19.5
    no_mdl = c45_node_cuts(V, y[None], np.ones((1, 40)), 40.0, 2, mdl=False)
    assert no_mdl.gain[0] == pytest.approx(1.0)
    # 600 rows, 2 classes: MinSplit = 25 (clamped)
    x = np.arange(600, dtype=float)
    sc = c45_node_cuts(x[None], (x >= 10).astype(int)[None], np.ones((1, 600)), 600.0, 2)
    assert sc.n_candidates[0] == 600 - 49
    assert sc.left_weight[0] >= 25
    # weights path (fractional) gives the same numbers as the integer path
    f = c45_node_cuts(x[None], (x >= 300).astype(int)[None], None, 600.0, 2, unit_table=xlog2x_table(600))
    g = c45_node_cuts(
        np.r_[x, np.nan][None],
        np.r_[(x >= 300).astype(int), 0][None],
        np.r_[np.ones(600), 1e-9][None],
        600.0 + 1e-9,
        2,
    )
    assert g.midpoint[0] == f.midpoint[0] and g.gain[0] == pytest.approx(f.gain[0], abs=1e-8)


def test_values_closer_than_1e5_are_not_separated():
    x = np.array([1.0, 1.0, 1.000001, 1.000002, 2, 2, 2, 2.0])
    y = np.array([0, 0, 1, 1, 1, 1, 1, 1])
    sc = c45_node_cuts(x[None], y[None], np.ones((1, 8)), 8.0, 2)
    assert sc.midpoint[0] == pytest.approx((1.000002 + 2) / 2)


def test_pick_j48_follows_weka_scan():
    g = np.array([0.5, 0.5 + 0.9e-6, 0.5 + 1.8e-6, 0.1])
    assert pick_j48(g) == 2  # J48 moves on only when better by > 1e-6
    assert pick_j48(np.array([0.3, 0.3, 0.2])) == 0
    assert pick_j48(np.array([0.0, 5e-7])) == -1
    assert pick_j48(np.array([0.1, 0.2, 0.2 + 5e-7, 0.1])) == 1
    rng = np.random.default_rng(1)
    for _ in range(200):  # against a literal transcription of the scan
        g = np.round(rng.random(30) * 4e-6, 8) + 0.5
        best, kept = -1, 0.0
        for i, v in enumerate(g):
            if v - kept > 1e-6:
                best, kept = i, v
        assert pick_j48(g) == best


# -- selection rule and options ------------------------------------------------------------------


def test_average_gain_rule_and_criterion_option():
    X, y, kw = cj.load_csv(DATA / "watermelon_2.0.csv", drop=())
    kw["feature_kinds"] = ["categorical"] * X.shape[1]
    # 编号 has the highest gain but 17 values ≥ 0.3·17: left out of the average; the ratio
    # winner among above-average gains is 纹理
    est = C45Classifier(prune=False).fit(X, y, **kw)
    assert est.schema_.features[est.tree_.feature[0]].name == "纹理"
    # 编号's branches hold 1 row each: never two branches with MINOBJS = 2, so never a test
    assert 0 not in est.tree_.feature
    assert C45Classifier(criterion="gain", min_cases=1, prune=False).fit(X, y, **kw).tree_.feature[0] == 0


def test_buys_computer_c45_tree_and_text():
    est, X, y = fit("buys_computer.csv")
    text = to_j48_text(est)
    assert "C4.5 pruned tree" in text and "E actual training errors" in text
    lines = tree_to_j48_lines(est.tree_, est.schema_)
    assert lines[0] == "age = youth"
    assert lines[1] == "|   student = no: no (3.0)"
    assert "age = middle_aged: yes (4.0)" in lines
    est_text = to_j48_text(est, errors="estimated")
    assert "E estimated errors" in est_text
    # estimated errors of a pure 4-row leaf: AddErrs(4, 0)
    assert f"yes (4.0/{round(add_errs(4, 0), 2)})" in est_text


def test_j48_text_format_with_fractional_weights():
    est, X, y = fit("watermelon_2.0_missing.csv", prune=False)
    lines = tree_to_j48_lines(est.tree_, est.schema_)
    pat = re.compile(r"^(\|   )*\S+ = \S+(: \S+ \(\d+\.\d+(/\d+\.\d+)?\))?$")
    assert all(pat.match(line) for line in lines), lines
    assert "纹理 = 模糊: 否 (3.4/0.2)" in lines  # 3 rows + 2·3/15, 0.2 errors from row 8/10


def test_options_change_the_tree_as_documented():
    base, X, y = fit("breast_cancer.csv", prune=False)
    assert fit("breast_cancer.csv", prune=False, min_cases=20)[0].tree_.node_count < base.tree_.node_count
    pruned = fit("breast_cancer.csv")[0]
    assert pruned.tree_.node_count < base.tree_.node_count
    no_raise = fit("breast_cancer.csv", subtree_raising=False)[0]
    assert no_raise.pruning_report_.raised == []
    low_cf = fit("breast_cancer.csv", confidence_factor=0.05)[0]
    assert low_cf.tree_.node_count <= pruned.tree_.node_count
    with pytest.raises(ValueError, match="criterion"):
        C45Classifier(criterion="gini").fit(X, y)
    with pytest.raises(ValueError, match="z must be"):
        C45Classifier(z="t").fit(X, y)
    assert isinstance(make_estimator("c45", z="normal"), C45Classifier)


def test_collapse_removes_useless_subtrees():
    # the split on x separates nothing the majority class does not already get right
    X = np.array([[0.0], [1], [2], [3], [4], [5], [6], [7], [8], [9]])
    y = ["a", "a", "b", "a", "a", "a", "a", "b", "a", "a"]
    grown = C45Classifier(prune=False, collapse=False, mdl_penalty=False).fit(X, y)
    kept = C45Classifier(prune=False, mdl_penalty=False).fit(X, y)
    assert kept.tree_.node_count == 1
    assert grown.tree_.node_count >= kept.tree_.node_count


# -- error-based pruning on a Tree ----------------------------------------------------------------


def test_ebp_prune_report_and_original_untouched():
    est, X, y = fit("breast_cancer.csv", prune=False)
    Xe = est.encode(X)
    yc = np.array([list(est.schema_.classes).index(v) for v in y])
    before = est.tree_.to_dict()
    pruned, rep = ebp_prune(est.tree_, Xe, yc, None, cf=0.25, z="normal")
    assert est.tree_.to_dict() == before
    assert isinstance(pruned, Tree) and pruned.node_count < est.tree_.node_count
    assert rep.before["nodes"] == est.tree_.node_count and rep.after["nodes"] == pruned.node_count
    assert rep.after["estimated_errors"] <= rep.before["estimated_errors"] + 1e-9
    assert len(rep.kept) == pruned.node_count
    for c in rep.collapsed:
        assert not est.tree_.is_leaf[c] and pruned.is_leaf[rep.kept.index(c)]
    for ev in rep.events:
        assert ev["size_after"] < ev["size_before"]
    # the same as C4.5's own pruned tree (z normal)
    own = fit("breast_cancer.csv", z="normal")[0].tree_
    assert pruned.to_dict() == own.to_dict()
    # weights sum and class counts stay consistent after raising
    for i in np.nonzero(~pruned.is_leaf)[0]:
        kids = pruned.children_of(i)
        assert pruned.weighted_n[kids].sum() == pytest.approx(pruned.weighted_n[i])


def test_subtree_raising_happens_and_refits_counts():
    est, X, y = fit("breast_cancer.csv", prune=False)
    Xe = est.encode(X)
    yc = np.array([list(est.classes_).index(v) for v in y])
    pruned, rep = ebp_prune(est.tree_, Xe, yc, None, cf=0.25, z="normal")
    leaves = pruned.is_leaf
    assert pruned.value[leaves].sum() == pytest.approx(len(y))
    assert rep.to_dict()["cf"] == 0.25
    # with raising off nothing is raised and the tree is at least as large
    p2, rep2 = ebp_prune(est.tree_, Xe, yc, None, cf=0.25, z="normal", subtree_raising=False)
    assert rep2.raised == [] and p2.node_count >= pruned.node_count


def test_z_c45_vs_normal_differ_only_in_estimates():
    a = fit("watermelon_2.0_missing.csv")[0]
    b = fit("watermelon_2.0_missing.csv", z="normal")[0]
    assert a.pruning_report_.z == pytest.approx(0.6925) and b.pruning_report_.z == pytest.approx(
        0.6745, abs=1e-4
    )


# -- the fast paths agree with the general ones ---------------------------------------------------


def _random_level(rng, n_nodes=6, F=4, C=3, missing=False):
    starts, N = [], []
    pos = 0
    Vs, Ys, Ws = [], [], []
    for _ in range(n_nodes):
        n = int(rng.integers(1, 60))
        vals = np.round(rng.normal(size=(n, F)), 1)  # ties on purpose
        if missing:
            vals[rng.random((n, F)) < 0.1] = np.nan
        cls = rng.integers(0, C, size=n)
        order = np.argsort(vals, axis=0, kind="stable").T  # NaN last, as the grower sorts
        Vs.append(np.take_along_axis(vals.T, order, axis=1))
        Ys.append(cls[order])
        Ws.append(np.ones((F, n)))
        starts.append(pos)
        pos += n
        N.append(float(n))
    return (
        np.concatenate(Vs, 1),
        np.concatenate(Ys, 1),
        np.concatenate(Ws, 1),
        np.array(starts),
        np.array(N),
        Vs,
        Ys,
        Ws,
    )


@pytest.mark.parametrize("missing", [False, True])
def test_batch_scoring_equals_node_by_node(missing):
    from dtcore.entropy.cutpoints import score_cuts_batch, xlog2x_table

    rng = np.random.default_rng(7)
    for _ in range(20):
        V, Y, W, starts, N, Vs, Ys, Ws = _random_level(rng, missing=missing)
        b = score_cuts_batch(V, Y, W, starts, N, 3)
        if not missing:
            u = score_cuts_batch(V, Y, W, starts, N, 3, unit_table=xlog2x_table(int(N.max())))
            assert np.array_equal(u.valid, b.valid)
            assert np.allclose(u.gain[b.valid], b.gain[b.valid], atol=1e-12)
            assert np.array_equal(u.midpoint[b.valid], b.midpoint[b.valid])
            assert np.array_equal(u.n_candidates, b.n_candidates)
        for s in range(len(Vs)):
            one = c45_node_cuts(Vs[s], Ys[s], Ws[s], N[s], 3)
            assert np.array_equal(one.valid, b.valid[:, s])
            assert np.allclose(one.gain, b.gain[:, s], atol=1e-12)
            assert np.allclose(one.gain_ratio, b.gain_ratio[:, s], atol=1e-12)
            v = one.valid
            assert np.array_equal(one.midpoint[v], b.midpoint[v, s])


def test_pruning_shortcuts_agree_with_full_rerouting():
    """Without missing values pruning adds leaf counts instead of re-routing rows; an extra
    all-missing column (never tested) forces the general path, which must give the same tree."""
    est, X, y = fit("breast_cancer.csv", prune=False)
    Xe = est.encode(X)
    yc = np.array([list(est.classes_).index(v) for v in y])
    fast, rf = ebp_prune(est.tree_, Xe, yc, None, z="normal")
    Xn = np.concatenate([Xe, np.full((len(yc), 1), np.nan)], axis=1)
    slow, rs = ebp_prune(est.tree_, Xn, yc, None, z="normal")
    assert fast.to_dict() == slow.to_dict()
    assert rf.kept == rs.kept and rf.raised == rs.raised
    assert rf.after["estimated_errors"] == pytest.approx(rs.after["estimated_errors"])
