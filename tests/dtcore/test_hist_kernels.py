"""The histogram CART's fast kernels against plain references: bin codes by the cell table
(``edge_codes``, ``Bins.transform`` a block of rows at a time) against ``np.searchsorted``,
``partial_histograms`` against ``np.add.at`` sums, ``route_rows`` against per-row indexing."""

import numpy as np
import pytest

from dtcore.cart.hist import binning
from dtcore.cart.hist.binning import Bins, FeatureBins, categorical_bins, edge_codes, edge_table, fit_bins
from dtcore.cart.hist.histograms import Layout, RouteStep, partial_histograms, route_rows


def columns(rng, n):
    """Columns the table must bin like a binary search: uniform, normal, skewed (few cells hold
    most edges: the fallback), ties, infinities, signed zeros, huge magnitudes."""
    return {
        "uniform": rng.random(n),
        "normal": rng.normal(size=n),
        "lognormal": rng.lognormal(0, 3, n),
        "ties": np.round(rng.normal(size=n) * 10) / 10,
        "integers": rng.integers(-5, 300, n).astype(float),
        "extremes": np.r_[rng.random(n - 6), [-np.inf, np.inf, -0.0, 0.0, 1e308, -1e308]],
    }


@pytest.mark.parametrize("seed", range(6))
def test_edge_codes_are_searchsorted(seed):
    rng = np.random.default_rng(seed)
    tables = 0
    for name, x in columns(rng, 4000).items():
        for n_edges in (1, 5, 15, 16, 40, 254):
            edges = np.unique(rng.choice(x[np.isfinite(x)], n_edges))
            if seed % 2 and name == "extremes":  # an edge capped at ALMOST_INF
                edges = np.unique(np.r_[edges, 1e300])
            tables += edge_table(edges) is not None
            np.testing.assert_array_equal(
                edge_codes(edges, x), np.searchsorted(edges, x, side="left"), err_msg=f"{name}, {n_edges}"
            )
    assert tables > 0  # the table itself was exercised, not only the fallback


def test_edge_table_falls_back_where_it_does_not_pay():
    assert edge_table(np.arange(5.0)) is None  # few edges: a short binary search
    assert edge_table(np.r_[np.arange(40.0) * 1e-6, 1e6]) is None  # edges crowded in one cell
    assert edge_table(np.r_[-1e308, np.arange(40.0), 1e308]) is None  # the span overflows
    table = edge_table(np.linspace(0, 1, 200))
    assert table is not None and table.per_cell <= binning.TABLE_MAX_PER_CELL


def reference_codes(bins: Bins, X: np.ndarray) -> np.ndarray:
    out = np.empty((len(bins.features), X.shape[0]), np.int64)
    for j, fb in enumerate(bins.features):
        x = X[:, j]
        if fb.kind == "categorical":
            code = np.where(np.isnan(x), fb.n_bins, np.nan_to_num(x)).astype(np.int64)
            out[j] = np.where((code < 0) | (code > fb.n_bins), fb.n_bins, code)
        else:
            out[j] = np.where(np.isnan(x), fb.n_bins, np.searchsorted(fb.edges, x, side="left"))
    return out


@pytest.mark.parametrize("block_rows", [7, 1000, binning.BLOCK_ROWS])
def test_transform_by_blocks_gives_the_binary_search_codes(monkeypatch, block_rows):
    monkeypatch.setattr(binning, "BLOCK_ROWS", block_rows)
    rng = np.random.default_rng(3)
    n = 3000
    cols = list(columns(rng, n).values())
    cat = rng.integers(0, 6, n).astype(float)
    X = np.column_stack(cols[:3] + [cat] + cols[3:] + [np.full(n, 2.5)])
    X[rng.random(X.shape) < 0.05] = np.nan
    X[:, -1] = 2.5  # a constant column: one bin
    ncat = [0, 0, 0, 6, 0, 0, 0, 0]
    bins = fit_bins(X, ncat, 64)
    codes = bins.transform(X)
    np.testing.assert_array_equal(codes, reference_codes(bins, X))
    assert codes.dtype == np.uint8
    # a subset of the columns by table: the others by their own codes
    sub = Bins(tuple(bins.features[j] for j in (0, 1, 4)))
    np.testing.assert_array_equal(sub.transform(X[:, [0, 1, 4]]), reference_codes(sub, X[:, [0, 1, 4]]))


def test_transform_with_wide_codes():
    """More than 255 bins: uint16 codes, still by the table."""
    rng = np.random.default_rng(4)
    x = rng.random(5000)
    edges = np.unique(np.quantile(x, np.linspace(0, 1, 600)[1:-1]))
    fb = FeatureBins("quantile", edges.size + 1, edges, np.zeros(0), np.zeros(0))
    bins = Bins((fb, categorical_bins(3)))
    X = np.column_stack([x, rng.integers(0, 3, 5000)])
    codes = bins.transform(X)
    assert codes.dtype == np.uint16
    np.testing.assert_array_equal(codes, reference_codes(bins, X))


def reference_histograms(codes, y, w, node, build, n_build, layout):
    """Every row's channels added to its (node, feature bin) cell by np.add.at (row order)."""
    K, d, TB = layout.n_classes, layout.channels, layout.total
    H = np.zeros((n_build, TB, d))
    N = np.zeros((n_build, TB), np.int64)
    slot = np.append(build, -1)[node]
    rows = np.flatnonzero(slot >= 0)
    ww = np.ones(node.size) if w is None else w
    for j, o in enumerate(layout.offset):
        cell = (slot[rows], o + codes[j, rows].astype(np.int64))
        np.add.at(N, cell, 1)
        np.add.at(H[..., 0], cell, ww[rows])
        if K:
            for k in range(K):
                mine = y[rows] == k
                np.add.at(H[..., 1 + k], (cell[0][mine], cell[1][mine]), ww[rows][mine])
        else:
            np.add.at(H[..., 1], cell, ww[rows] * y[rows])
            np.add.at(H[..., 2], cell, ww[rows] * y[rows] * y[rows])
    return H, N


@pytest.mark.parametrize("n_classes", [0, 1, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_partial_histograms_are_the_row_sums(n_classes, weighted):
    rng = np.random.default_rng(5)
    n, n_bins = 2000, np.array([5, 17, 1, 9])
    codes = np.stack([rng.integers(0, b + 1, n) for b in n_bins]).astype(np.uint8)
    y = rng.integers(0, n_classes, n) if n_classes else rng.normal(size=n)
    w = rng.random(n) * 3 if weighted else None
    node = rng.integers(-1, 6, n)
    build = np.array([2, -1, 0, 1, -1, 3])
    layout = Layout(n_bins, n_classes)
    H, N = partial_histograms(codes, y, w, node, build, 4, layout)
    H_ref, N_ref = reference_histograms(codes, y, w, node, build, 4, layout)
    np.testing.assert_array_equal(N, N_ref)
    np.testing.assert_allclose(H, H_ref, rtol=1e-12, atol=1e-12)
    if not weighted:  # whole counts: exact in any order
        np.testing.assert_array_equal(H[..., 0], N)


def test_route_rows_follows_each_rows_split():
    rng = np.random.default_rng(6)
    n, n_slots, width = 3000, 5, 8
    codes = rng.integers(0, width, (3, n)).astype(np.uint8)
    node = rng.integers(-1, n_slots, n)
    feature = np.array([2, -1, 0, 1, 0])
    left = rng.random((n_slots, width)) < 0.5
    left_slot = np.array([0, -1, 2, -1, 4])
    right_slot = np.array([1, -1, -1, 3, 5])
    out = route_rows(codes, node, RouteStep(feature, left, left_slot, right_slot))
    expect = np.full(n, -1)
    for i in range(n):  # the reference: one row at a time
        s = node[i]
        if s >= 0 and feature[s] >= 0:
            expect[i] = left_slot[s] if left[s, codes[feature[s], i]] else right_slot[s]
    np.testing.assert_array_equal(out, expect)
    # rows given as int32 slots (the Dask blocks keep them so) route alike
    np.testing.assert_array_equal(
        route_rows(codes, node.astype(np.int32), RouteStep(feature, left, left_slot, right_slot)), expect
    )
