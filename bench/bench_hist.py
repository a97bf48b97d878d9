"""Fit time of dtcore's histogram CART (``splitter="hist"``) against scikit-learn, and the Dask
engine on Parquet files that a 2-worker cluster with 2 GB per worker reads.

    .venv/bin/python -m bench.bench_hist                 # in memory: 10^5 and 10^6 rows × 20
    .venv/bin/python -m bench.bench_hist --sizes 100000  # one size
    .venv/bin/python -m bench.bench_hist --dask          # 10^7 rows × 20 as Parquet, on Dask
    .venv/bin/python -m bench.bench_hist --dask --rows 2000000   # a quicker Dask run

In memory (depth ≤ 10, 3 classes, 80/20 split): the ratio of the hist fit time to scikit-learn's
exact ``DecisionTreeClassifier`` (target ≤ 0.3) and to ``HistGradientBoostingClassifier
(max_iter=1, learning_rate=1, max_depth=10, max_leaf_nodes=None, early_stopping=False)`` (one
tree per class: an anchor for histogram growth in compiled code, not the same model), and the
held-out accuracy of each.  Times are the best of 3 below 10^6 rows, one fit at 10^6 (the
machine is shared: read the ratios, measured side by side, rather than the seconds).

Dask: the Parquet files (generated here in a temporary folder, removed afterwards) are fitted on
a ``LocalCluster`` of 2 single-thread worker processes with ``memory_limit="2GB"``; reported:
the wall time (cluster start-up excluded), each worker's peak resident memory (its
``ru_maxrss``), and the same-tree check: the Dask fit on the first 10^6 rows (2 files) against
the in-memory hist fit of those rows.  The features take 200 values each (≤ max_bins), so both
bin exactly and must grow the same tree.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from dtcore.cart.estimator import CARTClassifier

DEPTH = 10
P = 20


def make_data(n, p=P, seed=0, levels=None):
    rng = np.random.default_rng(seed)
    X = rng.random((n, p), dtype=np.float32).astype(np.float64)
    if levels:
        X = np.floor(X * levels) / levels
    signal = X[:, 0] + X[:, 1] * X[:, 2] + np.sin(6 * X[:, 3]) + 0.5 * X[:, 4] * X[:, 5]
    noisy = signal + 0.3 * rng.normal(size=n)
    return X, np.digitize(noisy, np.quantile(noisy, [0.33, 0.66]))


def timed(make, X, y, repeat):
    best, model = float("inf"), None
    for _ in range(repeat):
        m = make()
        t = time.perf_counter()
        m.fit(X, y)
        best = min(best, time.perf_counter() - t)
        model = m
    return best, model


def in_memory(sizes):
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.tree import DecisionTreeClassifier

    print(f"in memory: {P} features, 3 classes, max_depth={DEPTH}, fit times in s (best of 3 below 10^6)")
    head = (
        f"{'rows':>9} {'sk exact':>9} {'hist':>7} {'hist/sk':>8} {'HGB':>7} {'hist/HGB':>9} "
        f"{'acc sk':>7} {'acc hist':>8} {'diff pts':>8}"
    )
    print(head)
    for n in sizes:
        X, y = make_data(int(n / 0.8))
        cut = n
        Xtr, ytr, Xte, yte = X[:cut], y[:cut], X[cut:], y[cut:]
        rep = 3 if n < 1_000_000 else 1
        t_sk, sk = timed(lambda: DecisionTreeClassifier(max_depth=DEPTH, random_state=0), Xtr, ytr, rep)
        t_h, h = timed(lambda: CARTClassifier(splitter="hist", max_depth=DEPTH), Xtr, ytr, rep)
        t_g, _ = timed(
            lambda: HistGradientBoostingClassifier(
                max_iter=1, learning_rate=1, max_depth=DEPTH, max_leaf_nodes=None, early_stopping=False
            ),
            Xtr,
            ytr,
            rep,
        )
        acc_sk = float(np.mean(sk.predict(Xte) == yte))
        acc_h = float(np.mean(h.predict(Xte) == yte))
        print(
            f"{n:>9} {t_sk:>9.2f} {t_h:>7.2f} {t_h / t_sk:>8.2f} {t_g:>7.2f} {t_h / t_g:>9.2f} "
            f"{100 * acc_sk:>7.2f} {100 * acc_h:>8.2f} {100 * (acc_h - acc_sk):>+8.2f}"
        )


def write_parquet(folder: Path, rows: int, per_file: int) -> list[Path]:
    import pandas as pd

    files = []
    for i, start in enumerate(range(0, rows, per_file)):
        m = min(per_file, rows - start)
        X, y = make_data(m, seed=1000 + i, levels=200)
        df = pd.DataFrame(X, columns=[f"x{j}" for j in range(P)])
        df["y"] = y
        path = folder / f"part-{i:04d}.parquet"
        df.to_parquet(path)
        files.append(path)
    return files


def on_dask(rows: int, per_file: int = 500_000):
    import resource

    import pandas as pd

    from dtdask import connect, fit_dask

    folder = Path(tempfile.mkdtemp(prefix="bench_hist_"))
    try:
        t = time.perf_counter()
        files = write_parquet(folder, rows, per_file)
        print(
            f"dask: {rows} rows × {P} in {len(files)} Parquet files ({time.perf_counter() - t:.1f} s to write)"
        )
        with connect(memory_limit="2GB") as client:
            levels = []
            t = time.perf_counter()
            est = fit_dask(
                [str(f) for f in files], "y", client=client, max_depth=DEPTH, on_level=levels.append
            )
            wall = time.perf_counter() - t
            peaks = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
            print(f"  wall time {wall:.1f} s for {len(levels)} levels, {est.tree_.node_count} nodes")
            for addr, kb in sorted(peaks.items()):
                print(f"  peak memory of worker {addr}: {kb / 1024:.0f} MiB (limit 2 GB)")
            # same-tree check on the first 10^6 rows
            sample = files[: max(1, 1_000_000 // per_file)]
            small = fit_dask([str(f) for f in sample], "y", client=client, max_depth=DEPTH)
        df = pd.concat([pd.read_parquet(f) for f in sample])
        mem = CARTClassifier(splitter="hist", max_depth=DEPTH)
        mem.fit(df.drop(columns="y").to_numpy(), df["y"].to_numpy())
        a, b = small.tree_, mem.tree_
        same = (
            a.node_count == b.node_count
            and np.array_equal(a.feature, b.feature)
            and np.array_equal(a.cuts, b.cuts)
            and np.array_equal(a.value, b.value)
        )
        print(f"  same tree as in memory on the first {len(df)} rows: {same} ({a.node_count} nodes)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--dask", action="store_true", help="the Dask run instead of the in-memory one")
    ap.add_argument("--rows", type=int, default=10_000_000, help="rows of the Dask run")
    args = ap.parse_args()
    if args.dask:
        on_dask(args.rows)
    else:
        in_memory(args.sizes)


if __name__ == "__main__":
    main()
