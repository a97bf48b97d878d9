"""Server time of one what-if change on big trees: explaining a sample (path, C4.5 shares,
mixing, counterfactuals for every feature on the path) and writing the what-if DOT (subtrees off
the path folded) — what the Train page redoes when an editor value changes; nothing is retrained.

    PYTHONPATH=. .venv/bin/python bench/bench_whatif.py        # CART on 5 000 / 20 000 random rows, C4.5 with missing values

Times are the median of 20 samples (rows of the training data, a share of them with holes).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from dtcore.c45 import C45Classifier
from dtcore.cart.estimator import CARTClassifier
from dtcore.explain.prediction import explain_prediction
from dtcore.export import to_dot


def data(n, p, seed=0, holes=0.0, decimals=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)).round(decimals)
    y = (X[:, 0] + 0.5 * X[:, 1] * X[:, 2] + rng.normal(scale=0.8, size=n) > 0).astype(int)
    if holes:
        X[rng.random(X.shape) < holes] = np.nan
    return X, y


def measure(est, X):
    tree = est.tree_
    times_ex, times_dot = [], []
    for x in X[:20]:
        t0 = time.perf_counter()
        ex = explain_prediction(est, x)
        t1 = time.perf_counter()
        inner = np.flatnonzero(tree.feature >= 0)
        on = set(ex.path_nodes)
        to_dot(est, collapsed=[int(i) for i in inner if int(i) not in on], path=ex.edge_notes())
        t2 = time.perf_counter()
        times_ex.append(t1 - t0)
        times_dot.append(t2 - t1)
    return statistics.median(times_ex) * 1e3, statistics.median(times_dot) * 1e3


def main():
    print(f"{'model':<38} {'nodes':>7} {'explain ms':>11} {'dot ms':>8}")
    for name, est, (X, y) in [
        ("CART, 5 000 rows × 10, full", CARTClassifier(), data(5000, 10)),
        ("CART, 20 000 rows × 10, full", CARTClassifier(), data(20000, 10)),
        (
            "C4.5 unpruned, 5 000 × 10, 10 % missing",
            C45Classifier(prune=False),
            data(5000, 10, holes=0.1, decimals=1),
        ),
    ]:
        est.fit(X, y)
        Xq = X.copy()
        Xq[::3, :5] = np.nan  # samples with missing values too
        ex_ms, dot_ms = measure(est, Xq)
        print(f"{name:<38} {est.tree_.node_count:>7} {ex_ms:>11.1f} {dot_ms:>8.1f}")


if __name__ == "__main__":
    main()
