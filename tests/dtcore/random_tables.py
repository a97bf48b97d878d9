"""Random CART training tables shared by the tests that compare two ways of growing the same
tree: rounded normal columns (tied values), missing cells in half the tables, a categorical
first column in 30 % of them, zero and fractional weights in half, and a signal in the last
column that a class or a regression target is made from."""

from __future__ import annotations

import numpy as np


def mixed_table(rng: np.random.Generator, rows: tuple[int, int], cols: tuple[int, int]):
    """(X, feature kinds or None, weights or None, whether to classify, signal)."""
    n, p = int(rng.integers(*rows)), int(rng.integers(*cols))
    X = np.round(rng.normal(size=(n, p)), int(rng.integers(0, 3)))
    if rng.random() < 0.5:
        X[rng.random(X.shape) < 0.15] = np.nan
    kinds = None
    if p > 1 and rng.random() < 0.3:
        X[:, 0] = rng.integers(0, 4, n)
        kinds = ["categorical"] + ["continuous"] * (p - 1)
    w = None if rng.random() < 0.5 else rng.choice([0.0, 0.5, 1.0, 3.0], n)
    classify = rng.random() < 0.6
    signal = np.nan_to_num(X[:, -1]) + rng.normal(size=n)
    return X, kinds, w, classify, signal
