"""Thresholds as printed (issue 16 item 4): a printed threshold never moves across a training
value of its node (the node's values beside each cut: ``Tree.cut_below``/``cut_above``), and
C4.5's stored threshold (release 8: the largest training value ≤ the cut) is shown with the
midpoint the textbook prints (watermelon 3.0: 密度 ≤ 0.36, midpoint 0.3815, SPEC §4/§8)."""

import json

import numpy as np
import pandas as pd
import pytest

from dtcore.estimators import make_estimator
from dtcore.export import DOT_WORDS, dumps_model, model_from_dict, to_dot, to_text
from dtcore.export.thresholds import fmt_midpoint, fmt_threshold, separates
from dtcore.node_rows import cut_neighbours, merge_neighbours
from dtcore.pruning import prune
from tests.datasets import DATA
from tests.dtcore.random_tables import mixed_table
from tests.dtcore.whatif_models import fitted


def close_values():
    """Two classes split between 0.12341 and 0.12343 (midpoint 0.12342): rounding to 3 or 4
    significant digits gives 0.123 / 0.1234, both below 0.12341 — across a training value."""
    x = np.array([0.10, 0.11, 0.12, 0.12341, 0.12343, 0.13, 0.14, 0.15])
    y = np.array(["a", "a", "a", "a", "b", "b", "b", "b"])
    return pd.DataFrame({"x": x, "z": np.arange(8) % 2}), y


def melon():
    df = pd.read_csv(DATA / "watermelon_3.0.csv")
    return df.drop(columns=["编号", "好瓜"]), df["好瓜"]


# -- the formatter --------------------------------------------------------------------------


def test_fewest_digits_that_keep_the_neighbours_apart():
    assert fmt_threshold(0.1235, 3, 0.1234, 0.1236) == "0.1235"  # not 0.124 or 0.123
    assert fmt_threshold(0.12342, 3, 0.12341, 0.12343) == "0.12342"
    assert fmt_threshold(0.3815, 3, 0.36, 0.403) == "0.382"  # 0.36 ≤ 0.382 < 0.403: enough
    assert fmt_threshold(0.36, 3, 0.36, 0.403) == "0.36"  # C4.5's stored value, itself
    assert fmt_threshold(2 / 3, 3) == "0.667"  # nothing known beside it: the precision
    assert fmt_threshold(0.3815, None, 0.36, 0.403) == "0.3815"  # exact
    # a threshold rounded up onto the value above it would send that value left
    assert fmt_threshold(0.99995, 4, 0.9999, 1.0) == "0.99995"
    assert separates(1.0, 1.0, 2.0) and not separates(2.0, 1.0, 2.0)


def test_every_rounding_separates_on_random_neighbours():
    rng = np.random.default_rng(7)
    lo = np.sort(rng.random((300, 2)) * 10.0 ** rng.integers(-4, 5, size=(300, 1)), axis=1)
    lo = lo[lo[:, 0] < lo[:, 1]]
    for a, b in lo:
        mid = (a + b) / 2
        s = fmt_threshold(mid, 3, a, b)
        assert a <= float(s) < b, (a, b, s)


def test_a_cut_at_minus_zero_reads_zero():
    """A file's "-0" is a training value −0.0, and C4.5 snaps its cut to it: "x ≤ 0" is printed."""
    assert fmt_threshold(-0.0) == "0" and fmt_threshold(-0.0, 3, -0.01, 0.01) == "0"
    assert fmt_threshold(-0.001, 3) == "-0.001"


def test_midpoint_shown_exactly_when_one_more_digit_holds_it():
    assert fmt_midpoint(0.3815, 3, 0.36, 0.403) == "0.3815"
    assert fmt_midpoint(0.3815, 4, 0.36, 0.403) == "0.3815"
    assert fmt_midpoint(0.12342, 3, 0.12341, 0.12343) == "0.12342"


# -- the neighbours in the tree ---------------------------------------------------------------


def brute_force_check(tree, Xe):
    """Every cut's neighbours against the rows ``Tree.reach`` sends to its node."""
    assert tree.cut_below is not None and tree.cut_below.shape == tree.cuts.shape
    for i in np.flatnonzero((tree.feature >= 0) & (np.diff(tree.cut_ptr) > 0)):
        rows, w = tree.reach(Xe, int(i))
        x = Xe[rows[w > 0], tree.feature[i]]
        x = x[~np.isnan(x)]
        lo, hi = int(tree.cut_ptr[i]), int(tree.cut_ptr[i + 1])
        for k, c in enumerate(tree.cuts[lo:hi]):
            assert tree.cut_below[lo + k] == (x[x <= c].max() if (x <= c).any() else -np.inf)
            assert tree.cut_above[lo + k] == (x[x > c].min() if (x > c).any() else np.inf)


@pytest.mark.parametrize("algo", ["cart", "c45", "id3"])
def test_neighbours_are_the_node_values_next_to_each_cut(algo):
    X, y = melon()
    est = make_estimator(algo, **({"continuous": "threshold"} if algo == "id3" else {})).fit(X, y)
    brute_force_check(est.tree_, est.encode(X.to_numpy(dtype=object)))


@pytest.mark.parametrize(
    ("sample", "algo"),
    [("labor", "c45"), ("labor", "cart"), ("penguins", "id3"), ("penguins", "c45"), ("iris", "id3"),
     ("breast_cancer", "c45"), ("diabetes", "cart"), ("credit-g", "c45")],
)  # fmt: skip
def test_neighbours_with_missing_values_and_intervals(sample, algo):
    est, _, Xe = fitted(sample, algo)
    brute_force_check(est.tree_, Xe)
    if algo == "c45":  # the grown tree (before collapse and pruning) knows them too
        brute_force_check(est.grown_tree_, Xe)


def test_watermelon_c45_keeps_release_8_and_knows_the_midpoint():
    X, y = melon()
    est = make_estimator("c45").fit(X, y)
    tree = est.tree_
    (i,) = np.flatnonzero((tree.feature >= 0) & (np.diff(tree.cut_ptr) == 1))
    assert tree.cuts_of(int(i)).tolist() == [0.36]  # release 8: a training value, kept
    assert (tree.cut_below[0], tree.cut_above[0]) == (0.36, 0.403)
    assert "tooltip=" not in to_dot(est)  # a picture saved on its own holds no SVG <a>
    dot = to_dot(est, tooltips=True)
    assert 'tooltip="密度 ≤ 0.36 (midpoint 0.3815)"' in dot
    assert "<B>密度 ≤ 0.36</B>" in dot and 'ALIGN="LEFT">≤ 0.36</TD>' in dot
    zh = {**DOT_WORDS, "midpoint": "中点"}
    assert 'tooltip="密度 ≤ 0.36 (中点 0.3815)"' in to_dot(est, words=zh, tooltips=True)
    # CART and ID3 store the midpoint itself: nothing to add
    for algo in ("cart", "id3"):
        assert "tooltip=" not in to_dot(make_estimator(algo).fit(X, y), tooltips=True)


@pytest.mark.parametrize("algo", ["cart", "c45"])
def test_printed_threshold_never_crosses_a_training_value(algo):
    X, y = close_values()
    est = make_estimator(algo, **({"min_cases": 1} if algo == "c45" else {})).fit(X, y)
    t = float(est.tree_.cuts[0])
    assert 0.12341 <= t < 0.12343
    want = "0.12342" if algo == "cart" else "0.12341"
    dot = to_dot(est)  # precision 3
    assert f'ALIGN="LEFT">≤ {want}</TD>' in dot and f'ALIGN="LEFT">&gt; {want}</TD>' in dot
    assert f"x <= {want}" in to_text(est)
    assert "0.123>" not in dot and "0.1234>" not in dot


def test_json_round_trip_old_models_and_validation():
    X, y = melon()
    est = make_estimator("c45").fit(X, y)
    d = json.loads(dumps_model(est))
    assert d["tree"]["cut_below"] == [0.36] and d["tree"]["cut_above"] == [0.403]
    back = model_from_dict(d)
    np.testing.assert_array_equal(back.tree_.cut_below, est.tree_.cut_below)
    np.testing.assert_array_equal(back.tree_.cut_above, est.tree_.cut_above)
    assert to_dot(back, tooltips=True) == to_dot(est, tooltips=True)
    old = json.loads(json.dumps(d))
    for tree in (old["tree"], old.get("growth", {}).get("tree") or {}):
        tree.pop("cut_below", None), tree.pop("cut_above", None)
    was = model_from_dict(old)  # a model saved before the arrays existed
    assert was.tree_.cut_below is None
    assert "tooltip=" not in to_dot(was, tooltips=True) and 'ALIGN="LEFT">≤ 0.36</TD>' in to_dot(was)
    for bad in ([0.5], [0.36, 0.1], [None], [True]):  # above the cut; not one per cut; not numbers
        wrong = json.loads(json.dumps(d))
        wrong["tree"]["cut_below"] = bad
        with pytest.raises(ValueError, match="cut_below"):
            model_from_dict(wrong)
    wrong = json.loads(json.dumps(d))
    wrong["tree"]["cut_above"] = [0.36]  # not above the cut
    with pytest.raises(ValueError, match="cut_"):
        model_from_dict(wrong)
    del wrong["tree"]["cut_above"]  # one without the other
    with pytest.raises(ValueError, match="cut_above"):
        model_from_dict(wrong)
    # no value on a side is written as ±Infinity (strict JSON)
    one = make_estimator("cart").fit(pd.DataFrame({"x": [1.0, 2.0]}), ["a", "b"])
    one.tree_.cut_above[:] = np.inf
    assert model_from_dict(json.loads(dumps_model(one))).tree_.cut_above.tolist() == [np.inf]


def test_pruning_keeps_them_and_ebp_raising_asks_the_data():
    est, X, Xe = fitted("watermelon_2.0_missing", "cart")
    tree = est.tree_
    pruned, kept = prune(tree, "ccp", alpha=0.02)
    for new in np.flatnonzero((pruned.feature >= 0) & (np.diff(pruned.cut_ptr) > 0)):
        old = int(kept[new])
        a, b = (
            slice(pruned.cut_ptr[new], pruned.cut_ptr[new + 1]),
            slice(tree.cut_ptr[old], tree.cut_ptr[old + 1]),
        )
        np.testing.assert_array_equal(pruned.cut_below[a], tree.cut_below[b])
    c45, X, Xe = fitted("watermelon_2.0_missing", "c45")
    y = np.array([0] * 8 + [1] * 9)
    raised, _ = prune(c45.tree_, "ebp", X_train=Xe, y_train=y, cf=0.5)
    below, above = cut_neighbours(raised, Xe)
    np.testing.assert_array_equal(raised.cut_below, below)
    np.testing.assert_array_equal(raised.cut_above, above)


def test_growth_steps_and_the_histogram_splitter():
    from dtcore.analysis.growth_steps import n_steps, step_tree

    X, y = melon()
    est = make_estimator("cart").fit(X, y)
    for k in range(n_steps(est) + 1):
        st = step_tree(est, k)
        assert st.tree.cut_below is not None and st.tree.cut_below.shape == st.tree.cuts.shape
    # the histogram splitter cuts at a bin edge; beside it stand the node's real values
    rng = np.random.default_rng(3)
    x = rng.random(400)
    hist = make_estimator("cart", splitter="hist", max_bins=8, max_depth=1).fit(
        pd.DataFrame({"x": x}), np.where(x > 0.37, "b", "a")
    )
    c = float(hist.tree_.cuts[0])
    lo, hi = float(hist.tree_.cut_below[0]), float(hist.tree_.cut_above[0])
    assert lo == x[x <= c].max() and hi == x[x > c].min()


def test_dask_partitions_merge_to_the_whole():
    a = (np.array([0.1, -np.inf]), np.array([0.5, 0.9]))
    b = (np.array([0.2, 0.3]), np.array([np.inf, 0.8]))
    lo, hi = merge_neighbours([a, b])
    assert lo.tolist() == [0.2, 0.3] and hi.tolist() == [0.5, 0.8]


@pytest.mark.parametrize("seed", range(4))
def test_exact_cart_reads_the_neighbours_off_its_scan(seed):
    """Exact CART hands the values beside each cut over from its split scan (the winner's sorted
    neighbours): they equal what routing every training row again finds (``cut_neighbours``), bit
    for bit, with missing values (learned directions, "missing alone" splits), zero and
    fractional weights, categorical tests, best-first growth, α-pruning and regression."""
    from dtcore.cart.estimator import CARTClassifier, CARTRegressor

    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(40):
        X, kinds, w, classify, signal = mixed_table(rng, rows=(20, 400), cols=(1, 5))
        y = (signal > 0).astype(int) if classify else np.round(signal, 1)
        params = dict(
            max_leaf_nodes=[None, None, 7][int(rng.integers(0, 3))],
            ccp_alpha=[0.0, 0.0, 0.01][int(rng.integers(0, 3))],
        )
        est = (CARTClassifier if classify else CARTRegressor)(**params).fit(
            X, y, sample_weight=w, feature_kinds=kinds
        )
        Xe = est.encode(X)
        for tree in {id(t): t for t in (est.tree_, est.grown_tree_)}.values():
            below, above = cut_neighbours(tree, Xe, None if w is None else w)
            np.testing.assert_array_equal(tree.cut_below, below)
            np.testing.assert_array_equal(tree.cut_above, above)
            checked += tree.cuts.size
    assert checked > 200
