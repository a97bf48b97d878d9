"""splitter="hist"'s bin edges are scikit-learn 1.9's HistGradientBoosting bins
(``_BinMapper(n_bins=max_bins + 1).bin_thresholds_``) float for float: exact midpoints up to
``max_bins`` distinct values, ``averaged_inverted_cdf`` percentiles past that, weighted
percentiles with sample weights, rows of zero weight and NaN left out, and scikit-learn's
2·10⁵-row subsample (``RandomState(0)``, with replacement, probabilities ∝ weight)."""

import numpy as np
import pytest
from sklearn.ensemble._hist_gradient_boosting.binning import _BinMapper

from dtcore.cart.estimator import CARTClassifier
from dtcore.cart.hist.binning import SAMPLE_ROWS, SAMPLE_SEED, fit_bins, fit_transform


def data_sets():
    """name → (X, sample_weight or None, max_bins)."""
    rng = np.random.default_rng(11)
    n = 6000
    cont = np.column_stack([rng.normal(size=n), rng.exponential(size=n), rng.random(n) * 1e6])
    few = np.column_stack(
        [rng.integers(0, 40, n), np.round(rng.random(n) * 8) / 4, rng.integers(0, 255, n)]
    ).astype(float)
    ties = np.round(rng.exponential(size=n) * 30)
    ties[rng.random(n) < 0.3] = 7.0  # one value over many percentiles
    top = rng.normal(size=n)
    top[rng.random(n) < 0.2] = top.max()  # the largest value over the last percentiles
    tied = np.column_stack([ties, top, np.round(rng.normal(size=n), 2)])
    nan = rng.normal(size=(n, 3))
    nan[rng.random((n, 3)) < 0.15] = np.nan
    nan[:, 2] = np.round(nan[:, 2] * 3)  # few distinct values and NaN
    w = rng.integers(1, 6, n).astype(float)
    w_zeros = rng.random(n) * 3
    w_zeros[rng.random(n) < 0.2] = 0.0
    big = SAMPLE_ROWS + 50_000
    large = np.column_stack([rng.normal(size=big), np.round(rng.exponential(size=big) * 100)])
    large[rng.random(big) < 0.05, 0] = np.nan
    return {
        "continuous": (cont, None, 255),
        "continuous, 32 bins": (cont, None, 32),
        "few distinct values": (few, None, 255),
        "ties": (tied, None, 64),
        "NaN": (nan, None, 255),
        "weighted": (cont, w, 255),
        "weighted ties": (tied, w, 64),
        "zero weights and NaN": (nan, w_zeros, 128),
        "subsampled": (large, None, 255),
        "subsampled, weighted": (large, rng.integers(1, 4, big).astype(float), 255),
    }


CASES = data_sets()


@pytest.mark.parametrize("name", list(CASES))
def test_edges_are_scikit_learns(name):
    X, w, max_bins = CASES[name]
    ref = _BinMapper(n_bins=max_bins + 1, random_state=SAMPLE_SEED).fit(X, sample_weight=w)
    ours = fit_bins(X, [0] * X.shape[1], max_bins, sample_weight=w)
    same, codes = fit_transform(X, [0] * X.shape[1], max_bins, sample_weight=w)
    for j, fb in enumerate(ours.features):
        np.testing.assert_array_equal(fb.edges, ref.bin_thresholds_[j], err_msg=f"{name}, feature {j}")
        assert fb.edges.dtype == np.float64
        assert fb.n_bins == ref.n_bins_non_missing_[j]
        np.testing.assert_array_equal(same.features[j].edges, fb.edges)
    assert {f.kind for f in ours.features} <= {"exact", "quantile"}
    if w is None or np.all(w > 0):  # scikit-learn's codes too (NaN: its last bin, ours n_bins)
        mine = ours.transform(X).T.astype(np.int64)
        theirs = ref.transform(X).astype(np.int64)
        missing = np.isnan(X)
        np.testing.assert_array_equal(mine[~missing], theirs[~missing])
        np.testing.assert_array_equal(codes, ours.transform(X))


def test_equal_weights_bin_as_no_weights():
    X, _, max_bins = CASES["continuous"]
    ref = _BinMapper(n_bins=max_bins + 1).fit(X).bin_thresholds_
    ours = fit_bins(X, [0, 0, 0], max_bins, sample_weight=np.full(X.shape[0], 2.5)).features
    for fb, r in zip(ours, ref, strict=True):
        np.testing.assert_array_equal(fb.edges, r)


def test_values_within_1e_7_share_a_bin_unlike_scikit_learn():
    """The one rule kept from the exact splitter: no cut between values within 1e-7."""
    x = np.array([1.0, 1.0 + 5e-8, 2.0, 3.0, 3.0])[:, None]
    ours = fit_bins(x, [0], 255).features[0]
    ref = _BinMapper(n_bins=256).fit(x).bin_thresholds_[0]
    a = 1.0 + 5e-8
    np.testing.assert_array_equal(ref, [(1.0 + a) / 2, (a + 2.0) / 2, 2.5])
    np.testing.assert_array_equal(ours.edges, ref[1:])
    assert ours.kind == "exact" and ours.n_bins == 3


def test_a_weighted_hist_fit_splits_at_the_weighted_edges():
    X, w, _ = CASES["weighted"]
    y = (X[:, 0] + 0.3 * X[:, 1] > 0.5).astype(int)
    est = CARTClassifier(splitter="hist", max_depth=5, max_bins=32).fit(X, y, sample_weight=w)
    edges = [fb.edges for fb in fit_bins(X, [0, 0, 0], 32, sample_weight=w).features]
    unweighted = [fb.edges for fb in fit_bins(X, [0, 0, 0], 32).features]
    t = est.tree_
    inner = np.flatnonzero(t.feature >= 0)
    assert inner.size >= 5
    for node in inner:
        assert t.cuts_of(node)[0] in set(edges[t.feature[node]].tolist())
    assert any(not np.array_equal(a, b) for a, b in zip(edges, unweighted, strict=True))
