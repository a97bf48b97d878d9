"""Impurities and split scores: SPEC §2, §3 and §10 numbers, and the CART scoring identities."""

import csv
from itertools import product

import numpy as np
import pytest

from dtcore import criteria
from dtcore.explain.cart import continuous_candidates
from tests.datasets import DATA


def read_csv(name):
    with open(f"{DATA}/{name}", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def branch_counts(rows, col, target, classes):
    """(branches, classes) count array of a categorical column."""
    values = sorted({r[col] for r in rows})
    return np.array(
        [[sum(1 for r in rows if r[col] == v and r[target] == c) for c in classes] for v in values],
        dtype=float,
    )


@pytest.fixture(scope="module")
def buys():
    hdr, rows = read_csv("buys_computer.csv")
    return hdr, rows


def test_buys_computer_entropy_and_gains(buys):
    hdr, rows = buys
    t = hdr.index("buys_computer")
    classes = ["yes", "no"]
    total = branch_counts(rows, t, t, classes).sum(axis=0)
    assert criteria.entropy(total) == pytest.approx(0.940, abs=0.002)
    expected = {"age": 0.247, "income": 0.029, "student": 0.152, "credit_rating": 0.048}
    for name, gain in expected.items():
        bc = branch_counts(rows, hdr.index(name), t, classes)
        assert criteria.information_gain(bc) == pytest.approx(gain, abs=0.002), name
    age = branch_counts(rows, hdr.index("age"), t, classes)
    assert criteria.split_information(age.sum(axis=1)) == pytest.approx(1.577, abs=0.002)
    assert criteria.gain_ratio(age) == pytest.approx(0.156, abs=0.002)


def test_split_information_examples():
    # seed 003's three example splits: two equal halves, (1/2, 1/4, 1/4), four equal quarters
    assert criteria.split_information([2, 2]) == pytest.approx(1.0)
    assert criteria.split_information([2, 1, 1]) == pytest.approx(1.5)
    assert criteria.split_information([1, 1, 1, 1]) == pytest.approx(2.0)


def test_watermelon_2_gains_and_iv():
    hdr, rows = read_csv("watermelon_2.0.csv")
    t = len(hdr) - 1
    classes = sorted({r[t] for r in rows})
    assert criteria.entropy(branch_counts(rows, t, t, classes).sum(0)) == pytest.approx(0.998, abs=0.002)
    expected = {"色泽": 0.108, "根蒂": 0.143, "敲声": 0.141, "纹理": 0.381, "脐部": 0.289, "触感": 0.006}
    gains = {}
    for name, g in expected.items():
        gains[name] = float(criteria.information_gain(branch_counts(rows, hdr.index(name), t, classes)))
        assert gains[name] == pytest.approx(g, abs=0.002), name
    assert max(gains, key=gains.get) == "纹理"
    ident = branch_counts(rows, hdr.index("编号"), t, classes)
    assert criteria.information_gain(ident) == pytest.approx(0.998, abs=0.002)
    for name, iv in {"编号": 4.087, "触感": 0.874, "色泽": 1.580}.items():
        w = branch_counts(rows, hdr.index(name), t, classes).sum(axis=1)
        assert criteria.split_information(w) == pytest.approx(iv, abs=0.002), name


@pytest.mark.parametrize("col,cut,gain", [("密度", 0.3815, 0.262), ("含糖率", 0.126, 0.349)])
def test_watermelon_3_continuous_best_cut(col, cut, gain):
    """CART's continuous candidates scored with entropy: at the root the weighted impurity
    decrease is the information gain."""
    hdr, rows = read_csv("watermelon_3.0.csv")
    x = np.array([float(r[hdr.index(col)]) for r in rows])
    y = np.array([r[-1] == rows[0][-1] for r in rows], dtype=int)
    c = continuous_candidates(x, y, criterion="entropy", n_classes=2)
    k = int(np.argmax(c["improvement"]))
    assert c["threshold"][k] == pytest.approx(cut, abs=1e-9)
    assert c["improvement"][k] == pytest.approx(gain, abs=0.002)
    assert k == int(np.argmax(c["proxy"]))


def test_gini_and_entropy_of_counts():
    assert criteria.gini([5, 5]) == pytest.approx(0.5)
    assert criteria.gini([9, 5]) == pytest.approx(1 - (9 / 14) ** 2 - (5 / 14) ** 2)
    assert criteria.gini([0, 0]) == 0.0
    np.testing.assert_allclose(criteria.entropy([[4, 4], [8, 0]]), [1.0, 0.0])


def test_channel_impurity_matches_count_functions():
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 20, size=(50, 4)).astype(float)
    stats = np.concatenate([counts.sum(1, keepdims=True), counts], axis=1)
    np.testing.assert_allclose(criteria.channel_impurity("gini", stats), criteria.gini(counts), atol=1e-15)
    np.testing.assert_allclose(
        criteria.channel_impurity("entropy", stats), criteria.entropy(counts), atol=1e-14
    )


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_proxy_is_an_affine_image_of_the_improvement(criterion):
    """improvement · W = w_node · I(node) + proxy, so ranking by the cheap proxy is exact."""
    rng = np.random.default_rng(1)
    x, y, w = rng.normal(size=60), rng.integers(0, 3, 60), rng.uniform(0.5, 2, 60)
    c = continuous_candidates(x, y, w, criterion=criterion, n_classes=3)
    W = w.sum()
    np.testing.assert_allclose(c["improvement"] * W, W * c["impurity"] + c["proxy"], rtol=1e-9, atol=1e-11)


def test_regression_node_impurities():
    y = np.array([1, 3, 3, 6, 6.0])
    assert criteria.squared_error(y) == pytest.approx(3.76)
    assert criteria.weighted_median(y) == 3.0
    assert criteria.absolute_error(y) == pytest.approx((2 + 0 + 0 + 3 + 3) / 5)
    # even total weight reached exactly: mean of the two middle values
    assert criteria.weighted_median([1.0, 2.0, 10.0, 11.0]) == pytest.approx(6.0)
    assert criteria.weighted_median([1.0, 2.0, 10.0], [1, 1, 3]) == 10.0
    yp = np.array([0.0, 1, 2, 5])
    mean = yp.mean()
    expect = sum(v * np.log(v / mean) for v in yp if v > 0) / 4
    assert criteria.half_poisson_deviance(yp) == pytest.approx(expect)
    assert criteria.half_poisson_deviance([0.0, 0.0]) == np.inf


def test_squared_error_improvement_and_friedman_score():
    """For a cut: MSE decrease = n_L·n_R/n² (mean_L − mean_R)²; friedman = n_L·n_R/n (…)²."""
    y = np.array([1, 3, 3, 6, 6.0])
    c = continuous_candidates(np.arange(1, 6.0), y, criterion="squared_error")
    for k, nl in enumerate(range(1, 5)):
        left, right = y[:nl], y[nl:]
        d = (left.mean() - right.mean()) ** 2
        assert c["improvement"][k] == pytest.approx(nl * (5 - nl) / 25 * d)
    f = continuous_candidates(np.arange(1, 6.0), y, criterion="friedman_mse")
    for k, nl in enumerate(range(1, 5)):
        d = (y[:nl].mean() - y[nl:].mean()) ** 2
        assert f["friedman"][k] == pytest.approx(nl * (5 - nl) / 5 * d)
    # scikit-learn 1.9: friedman_mse's improvement (min_impurity_decrease) is squared_error's
    np.testing.assert_allclose(f["improvement"], c["improvement"], rtol=1e-12)
    np.testing.assert_array_equal(np.argsort(f["proxy"]), np.argsort(c["proxy"]))


def test_poisson_proxy_forbids_children_without_counts():
    left = np.array([[2.0, 0.0], [2.0, 1.0]])
    right = np.array([[3.0, 4.0], [3.0, 3.0]])
    p = criteria.proxy_improvement("poisson", left, right)
    assert p[0] == -np.inf and np.isfinite(p[1])
    # proxy = Σ_children s·log(mean) (constants dropped): check the finite one by hand
    assert p[1] == pytest.approx(1 * np.log(1 / 2) + 3 * np.log(3 / 3))


def test_brute_force_gini_of_split_matches_children_impurity():
    """Gini(D, a) = Σ |D^v|/|D| Gini(D^v) (SPEC §2) for every 2-branch split of a small set."""
    y = np.array([0, 1, 1, 0, 2, 2, 1])
    for mask in product([0, 1], repeat=y.size):
        m = np.array(mask, bool)
        if m.all() or not m.any():
            continue
        bc = np.array([np.bincount(y[m], minlength=3), np.bincount(y[~m], minlength=3)], float)
        manual = m.mean() * criteria.gini(bc[0]) + (1 - m.mean()) * criteria.gini(bc[1])
        assert criteria.children_impurity(bc, criteria.gini) == pytest.approx(manual)


def test_prefix_and_suffix_absolute_errors_brute_force():
    """The vectorised weighted medians of every prefix/suffix of every segment (absolute_error)."""
    from dtcore.cart.absolute_error import prefix_suffix_abs_errors

    rng = np.random.default_rng(2)
    for trial in range(20):
        m = int(rng.integers(1, 30))
        y = rng.integers(0, 5, m).astype(float) if trial % 2 else rng.normal(size=m)
        w = rng.integers(1, 4, m) / 2.0 if trial % 3 else np.ones(m)
        lens = np.array([l for l in (m // 3, m - m // 3) if l > 0])
        starts = np.r_[0, np.cumsum(lens)[:-1]]
        pre, suf = prefix_suffix_abs_errors(y, w, starts, lens)
        for s0, L in zip(starts, lens):
            for i in range(s0, s0 + L):
                head, tail = slice(s0, i + 1), slice(i, s0 + L)
                assert pre[i] == pytest.approx(criteria.absolute_error(y[head], w[head]) * w[head].sum())
                assert suf[i] == pytest.approx(criteria.absolute_error(y[tail], w[tail]) * w[tail].sum())
