"""The exact CART builder's memory bounds (issue 28, fit memory 10⁶ × 20): it picks each node's
winner with ``best_cuts``, which scores a bounded chunk of candidates at a time instead of listing
them all, partitions its permutations in place, and reads a big table where it lies instead of
copying it feature-major. None of that may change a tree: the winners are ``scan_sorted``'s first
maxima, and trees grown with tiny chunks and the strided layout equal the default ones."""

import numpy as np
import pytest

from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.cart.grower import Grower
from dtcore.cart.splitter import best_cuts, prepare_scan, scan_sorted
from dtcore.export import dumps_model
from tests.dtcore.random_tables import mixed_table


def sorted_segments(rng, n_seg, d_kind, criterion):
    """Random segments, each sorted by value with NaN last, and their channels."""
    lens = rng.integers(1, 40, n_seg)
    xs_parts, g_parts = [], []
    for L in lens:
        x = rng.normal(size=L)  # distinct values: most positions are cuts (the dense scan)
        if rng.random() < 0.5:
            x = np.round(x, int(rng.integers(0, 3)))  # ties: fewer cuts than positions
        x[rng.random(L) < (0.2 if rng.random() < 0.5 else 0.0)] = np.nan
        xs_parts.append(np.sort(x))  # NaN sorts last
        w = rng.choice([1.0, 0.5, 2.0], L) if d_kind == "weighted" else np.ones(L)
        if criterion in ("gini", "entropy"):
            k = rng.integers(0, 3, L)
            g = np.zeros((4, L))
            g[0] = w
            g[1 + k, np.arange(L)] = w
        else:
            y = np.round(rng.gamma(2.0, size=L), 1)
            g = np.stack([w, y if criterion == "absolute_error" else w * y])
        g_parts.append(g)
    start = np.concatenate([[0], np.cumsum(lens)[:-1]])
    return np.concatenate(xs_parts), np.concatenate(g_parts, axis=1), start, lens


def first_maxima(c, n_seg):
    """The reference: in scan_sorted's list order (variant, then position), each segment's
    first candidate with the largest proxy."""
    out = {}
    for s in range(n_seg):
        at = np.flatnonzero(c.segment == s)
        if at.size and np.isfinite(c.proxy[at]).any():
            k = at[int(np.argmax(c.proxy[at]))]
            out[s] = (c.proxy[k], c.index[k], c.variant[k], c.n_left[k], c.n_right[k])
    return out


@pytest.mark.parametrize(
    "criterion", ["gini", "entropy", "squared_error", "friedman_mse", "poisson", "absolute_error"]
)
def test_winners_are_the_lists_first_maxima_whatever_the_chunk(criterion):
    rng = np.random.default_rng(5)
    compared = 0
    for trial in range(30):
        xs, G, start, lens = sorted_segments(
            rng, int(rng.integers(1, 12)), "weighted" if trial % 2 else "unit", criterion
        )
        if criterion == "absolute_error":
            xs = np.nan_to_num(xs)  # no missing values there, as in scikit-learn
            order = np.concatenate(
                [s + np.argsort(xs[s : s + L], kind="stable") for s, L in zip(start, lens)]
            )
            xs, G = xs[order], G[:, order]
        msl = int(rng.choice([1, 1, 3]))
        mwl = float(rng.choice([0.0, 0.0, 2.5]))
        c = scan_sorted(
            prepare_scan(xs, G, start, lens, criterion), min_samples_leaf=msl, min_weight_leaf=mwl
        )
        want = first_maxima(c, start.size)
        for chunk in (1, 2, 7, 1 << 18):
            scan = prepare_scan(xs, G, start, lens, criterion)
            got = best_cuts(scan, min_samples_leaf=msl, min_weight_leaf=mwl, chunk=chunk)
            found = {s for s in range(start.size) if got.proxy[s] > -np.inf}
            assert found == set(want)
            for s, (proxy, index, variant, nl, nr) in want.items():
                assert (got.proxy[s], got.index[s], got.variant[s], got.n_left[s], got.n_right[s]) == (
                    proxy,
                    index,
                    variant,
                    nl,
                    nr,
                ), (criterion, chunk, s)
                compared += 1
    assert compared > 100


def random_fit_cases(rng, count):
    for _ in range(count):
        X, kinds, w, classify, signal = mixed_table(rng, rows=(30, 500), cols=(1, 6))
        y = (signal > 0).astype(int) + (signal > 1) if classify else np.round(signal, 1)
        params = dict(
            max_leaf_nodes=[None, None, 9][int(rng.integers(0, 3))], min_samples_leaf=int(rng.choice([1, 2]))
        )
        yield (CARTClassifier if classify else CARTRegressor), params, X, y, w, kinds


def test_trees_are_the_same_with_tiny_chunks_and_the_table_read_in_place(monkeypatch):
    rng = np.random.default_rng(11)
    cases = list(random_fit_cases(rng, 40))
    default = [
        dumps_model(E(**kw).fit(X, y, sample_weight=w, feature_kinds=k)) for E, kw, X, y, w, k in cases
    ]
    monkeypatch.setattr(Grower, "SCAN_CHUNK", 3)
    monkeypatch.setattr(Grower, "FEATURE_MAJOR_BYTES", 0)  # every table read in place, strided
    bounded = [
        dumps_model(E(**kw).fit(X, y, sample_weight=w, feature_kinds=k)) for E, kw, X, y, w, k in cases
    ]
    assert bounded == default
    # and the layouts the strided path meets: a row-major table, a column-major one, a view
    X = np.random.default_rng(2).normal(size=(300, 4))
    y = (X[:, 1] + X[:, 2] > 0).astype(int)
    trees = {dumps_model(CARTClassifier().fit(A, y)) for A in (X, np.asfortranarray(X), X[:, ::-1][:, ::-1])}
    assert len(trees) == 1
