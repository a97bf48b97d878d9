#!/usr/bin/env python
"""C4.5 fit time against Weka's J48 on synthetic numeric data (20 features, 3 classes).

    .venv/bin/python bench/bench_c45.py                 # 10^4 and 10^5 rows
    .venv/bin/python bench/bench_c45.py --rows 10000    # one size

The data: 20 standard-normal features, the class from two noisy linear scores (so the tree is
large, as on real data); seeded.  J48 is timed end to end (``java … J48 -t FILE -no-cv -v``,
JVM start and ARFF parsing included, as a user would run it); ours is timed for ``fit`` on the
float matrix (data already in memory).  Both trees are compared line by line in J48's text form.
Target: our time ≤ 1/4 of J48's, with the same tree.  Times are best-of-N wall clock.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from dtcore.c45 import C45Classifier
from dtcore.data.arff import write_arff
from dtcore.export.j48 import tree_to_j48_lines
from scripts.compare_j48 import compare_lines, java_available, run_j48

ROOT = Path(__file__).resolve().parents[1]


def make_data(n: int, p: int = 20, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.standard_normal((n, p)), 4)
    a = X[:, :5] @ rng.standard_normal(5) + 0.7 * rng.standard_normal(n)
    b = X[:, 5:10] @ rng.standard_normal(5) + 0.7 * rng.standard_normal(n)
    y = np.where(a > 0.5, 0, np.where(b > 0, 1, 2))
    return X, np.array(["c0", "c1", "c2"], dtype=object)[y]


def bench(n: int, pruned: bool = True, repeat: int = 3, j48_repeat: int = 2):
    """Best-of-``repeat`` wall time for ours, best-of-``j48_repeat`` for J48 (the machine may
    be shared: the minimum is the least disturbed run)."""
    X, y = make_data(n)
    names = [f"x{i}" for i in range(X.shape[1])]
    params = {"z": "normal"} if pruned else {"prune": False}
    params["threshold"] = "j48"  # J48's stored threshold, to compare the text with J48's
    est = None
    t_ours = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        est = C45Classifier(**params).fit(X, y, feature_names=names, classes=("c0", "c1", "c2"))
        t_ours.append(time.perf_counter() - t0)
    rows = np.concatenate([X.astype(object), y[:, None]], axis=1)
    text = write_arff(
        None,
        names + ["class"],
        ["continuous"] * 20 + ["categorical"],
        rows,
        {"class": ("c0", "c1", "c2")},
        relation="bench",
    )
    result = {
        "rows": n,
        "ours_s": min(t_ours),
        "nodes": est.tree_.node_count,
        "leaves": est.tree_.get_n_leaves(),
    }
    reason = java_available()
    if reason:
        result["j48"] = f"not run: {reason}"
        return result
    t_j48 = []
    for _ in range(j48_repeat):
        t0 = time.perf_counter()
        theirs, _ = run_j48(text, unpruned=not pruned)
        t_j48.append(time.perf_counter() - t0)
    result["j48_s"] = min(t_j48)
    ours = tree_to_j48_lines(est.tree_, est.schema_)
    diffs = compare_lines(ours, theirs)
    result["same_tree"] = not diffs
    result["diffs"] = diffs[:3]
    result["ratio"] = result["ours_s"] / result["j48_s"]
    return result


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, nargs="*", default=[10_000, 100_000])
    ap.add_argument("--unpruned", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="runs of ours (best time kept)")
    ap.add_argument("--j48-repeat", type=int, default=2, help="runs of J48 (best time kept)")
    args = ap.parse_args(argv)
    for n in args.rows:
        r = bench(n, pruned=not args.unpruned, repeat=args.repeat, j48_repeat=args.j48_repeat)
        line = f"rows={n:>7d}  ours={r['ours_s']:.2f}s  nodes={r['nodes']}  leaves={r['leaves']}"
        if "j48_s" in r:
            line += f"  J48={r['j48_s']:.2f}s  ours/J48={r['ratio']:.2f}  same tree: {r['same_tree']}"
            for d in r["diffs"]:
                line += "\n    " + d
        else:
            line += "  " + r["j48"]
        print(line, flush=True)


if __name__ == "__main__":
    main()
