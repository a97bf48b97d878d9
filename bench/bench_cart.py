"""Fit time of dtcore's CART against scikit-learn on the same random data.

    .venv/bin/python bench/bench_cart.py            # 10^3 … 10^6 rows (fully grown skipped at 10^6)
    .venv/bin/python bench/bench_cart.py --quick    # a small subset, seconds
    .venv/bin/python bench/bench_cart.py --full-1e6 # also fully grown trees at 10^6 rows (slow)

X is float32-representable (scikit-learn casts to float32), so both grow the same tree.
"same nodes" compares node counts; "same splits %" is the share of internal nodes with equal
feature and threshold in pre-order (scikit-learn's depth-first builder numbers nodes in pre-order
too).  Below 100 %: small nodes where two features give the same or an equally good partition
(exact ties, broken by scikit-learn's random feature order and by dtcore's lowest index; the test
suite checks those are true ties); NaN: the shapes differ, which follows from such ties in fully
grown trees.  Small fits are timed best of 3 (the machine is shared).  Peak memory is dtcore's,
by tracemalloc (numpy reports its buffers to it), in a second fit below 10^6 rows so that tracing
does not slow the timed one.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import numpy as np

from dtcore.cart.estimator import CARTClassifier, CARTRegressor


def make_data(n, p, task, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, p), dtype=np.float32).astype(np.float64)
    signal = X[:, 0] + X[:, 1] * X[:, 2] + np.sin(6 * X[:, 3 % p])
    noisy = signal + 0.3 * rng.normal(size=n)
    if task == "classification":
        return X, np.digitize(noisy, np.quantile(noisy, [0.33, 0.66]))
    return X, noisy


def same_splits(ours, sk) -> float:
    """Share of internal nodes (pre-order) with the same feature and threshold, in %."""
    t, s = ours.tree_, sk.tree_
    if t.node_count != s.node_count:
        return float("nan")
    internal = t.feature >= 0
    if not np.array_equal(internal, s.feature >= 0):
        return float("nan")
    if not internal.any():
        return 100.0
    same = (t.feature[internal] == s.feature[internal]) & (t.cuts == s.threshold[internal])
    return 100.0 * float(same.mean())


def run(n, p, task, depth):
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    X, y = make_data(n, p, task)
    Ours, Sk = (
        (CARTClassifier, DecisionTreeClassifier)
        if task == "classification"
        else (CARTRegressor, DecisionTreeRegressor)
    )
    repeat = 3 if n <= 10000 else 1  # small fits: best of 3 (the machine is shared)
    t_sk = t_ours = np.inf
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        sk = Sk(max_depth=depth, random_state=0).fit(X, y)
        t_sk = min(t_sk, time.perf_counter() - t0)
    big = n >= 1000000  # tracemalloc slows small fits a lot: time and measure separately
    if big:
        tracemalloc.start()
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        ours = Ours(max_depth=depth).fit(X, y)
        t_ours = min(t_ours, time.perf_counter() - t0)
    if not big:
        tracemalloc.start()
        Ours(max_depth=depth).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return dict(
        rows=n,
        features=p,
        task=task[:5],
        depth="full" if depth is None else depth,
        sk=t_sk,
        ours=t_ours,
        ratio=t_ours / t_sk,
        peak_mb=peak / 2**20,
        nodes=f"{ours.tree_.node_count}/{sk.tree_.node_count}",
        same_nodes=ours.tree_.node_count == sk.tree_.node_count,
        same_splits=same_splits(ours, sk),
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^3 and 10^4 rows, plus 10^5×20 depth 8")
    ap.add_argument("--full-1e6", action="store_true", help="also fully grown trees at 10^6 rows")
    ap.add_argument("--rows", type=int, nargs="*", help="only these row counts")
    args = ap.parse_args(argv)
    if args.rows:
        plan = [
            (n, p, t, d)
            for n in args.rows
            for p in (10, 20)
            for t in ("classification", "regression")
            for d in (None, 8)
            if not (n >= 1000000 and d is None and not args.full_1e6)
        ]
    elif args.quick:
        plan = [
            (n, p, t, d)
            for n in (1000, 10000)
            for p in (10, 20)
            for t in ("classification", "regression")
            for d in (None, 8)
        ]
        plan += [(100000, 20, "classification", 8)]
    else:
        plan = [
            (n, p, t, d)
            for n in (1000, 10000, 100000, 1000000)
            for p in (10, 20)
            for t in ("classification", "regression")
            for d in (None, 8)
            if not (n == 1000000 and d is None and not args.full_1e6)
        ]
    head = (
        f"{'rows':>8} {'feat':>4} {'task':>5} {'depth':>5} {'sklearn s':>9} {'dtcore s':>9} "
        f"{'ratio':>6} {'peak MB':>8} {'nodes ours/sk':>14} {'same nodes':>10} {'same splits %':>14}"
    )
    print(head)
    print("-" * len(head))
    for n, p, t, d in plan:
        r = run(n, p, t, d)
        print(
            f"{r['rows']:>8} {r['features']:>4} {r['task']:>5} {str(r['depth']):>5} {r['sk']:>9.3f} "
            f"{r['ours']:>9.3f} {r['ratio']:>6.2f} {r['peak_mb']:>8.1f} {r['nodes']:>14} "
            f"{str(r['same_nodes']):>10} {r['same_splits']:>14.1f}",
            flush=True,
        )
    if not args.full_1e6 and any(n >= 1000000 for n, *_ in plan):
        print("(fully grown trees at 10^6 rows skipped: pass --full-1e6)")


if __name__ == "__main__":
    main()
