"""Exact CART against scikit-learn where issue 28 set goals beyond 10³ rows: 10⁴ rows, fully grown
trees on 10⁵ rows, and the memory a fit takes on 10⁶ rows.

    .venv/bin/python -m bench.lines_exact                # these lines, alone
    .venv/bin/python -m bench.bench_library              # with the library table (make bench)

The data: ``bench_cart.make_data`` (20 float32-representable features, 3 classes or a noisy
regression target; seeded). The lines:

* **10⁴ rows**: ``CARTClassifier`` / ``CARTRegressor`` at depth 8 and fully grown against
  scikit-learn's ``DecisionTree*`` (goal ≤ 1.0× CPU), timed alternately, best of the rounds;
* **fully grown, 10⁵ rows**: the same, classification and regression (goal ≤ 0.8×);
* **fit memory, 10⁶ × 20**: the peak resident memory a depth-8 classification fit adds to a
  process that holds the data (goal ≤ 2× scikit-learn's). Each library fits in a fresh Python
  process that makes the data, then resets the kernel's high-water mark (``/proc/self/clear_refs``)
  and reads it back after the fit (``VmHWM`` − ``VmRSS`` before): what the fit itself held at
  its peak, the data, the interpreter and the imports excluded. scikit-learn's share includes
  its float32 copy of X (76 MB here).
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import subprocess
import sys
from pathlib import Path

from bench.bench_cart import make_data

ROOT = Path(__file__).resolve().parents[1]
MEMORY_ROWS = 1_000_000


def exact_lines(rounds: int, show=print) -> list:
    """The time lines, then the memory line, as ``bench.bench_library.Line`` objects (each row
    printed by ``show`` as it is measured)."""
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    from bench.bench_library import Line, interleave, table  # the table imports this module
    from dtcore.cart.estimator import CARTClassifier, CARTRegressor

    lines = []
    cases = [(10_000, task, depth, 1.0) for task in ("classification", "regression") for depth in (8, None)]
    cases += [(100_000, task, None, 0.8) for task in ("classification", "regression")]
    for n, task, depth, goal in cases:
        X, y = make_data(n, 20, task)
        Ours, Sk = (
            (CARTClassifier, DecisionTreeClassifier)
            if task == "classification"
            else (CARTRegressor, DecisionTreeRegressor)
        )
        t_ours, t_sk, e_ours, e_sk = interleave(
            lambda E=Ours, d=depth, X=X, y=y: E(max_depth=d).fit(X, y),
            lambda E=Sk, d=depth, X=X, y=y: E(max_depth=d, random_state=0).fit(X, y),
            rounds,
        )
        rows = f"10{'⁴' if n == 10_000 else '⁵'}"
        lines.append(
            Line(
                f"exact CART fit, {rows} rows × 20, {task}, {'fully grown' if depth is None else f'depth {depth}'}",
                t_ours,
                t_sk,
                "scikit-learn",
                goal,
                f"nodes {e_ours.tree_.node_count}/{e_sk.tree_.node_count}",
            )
        )
        for row in table(lines[-1:])[2:]:
            show(row)
    lines.append(memory_line())
    for row in table(lines[-1:])[2:]:
        show(row)
    return lines


def memory_line():
    from bench.bench_library import Line, Memory

    ours, peer = (fit_memory(who) for who in ("dtcore", "scikit-learn"))
    return Line(
        "fit memory, 10⁶ rows × 20, depth 8, beyond the data",
        Memory(ours["beyond_mb"]),
        Memory(peer["beyond_mb"]),
        "scikit-learn",
        2.0,
        f"peak resident {ours['peak_mb']:.0f} / {peer['peak_mb']:.0f} MB with the data "
        f"({ours['data_mb']:.0f} MB); nodes {ours['nodes']}/{peer['nodes']}",
    )


def fit_memory(who: str) -> dict:
    """Run one fit in a fresh interpreter (``--memory-child``) and read its report."""
    out = subprocess.run(
        [sys.executable, "-m", "bench.lines_exact", "--memory-child", who],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _status_mb(field: str) -> float:
    text = Path("/proc/self/status").read_text()
    match = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    assert match, f"{field} not in /proc/self/status (Linux only)"
    return int(match.group(1)) / 1024


def memory_child(who: str) -> None:
    X, y = make_data(MEMORY_ROWS, 20, "classification")
    if who == "dtcore":
        from dtcore.cart.estimator import CARTClassifier

        est = CARTClassifier(max_depth=8)
    else:
        from sklearn.tree import DecisionTreeClassifier

        est = DecisionTreeClassifier(max_depth=8, random_state=0)
    gc.collect()
    before = _status_mb("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # the high-water mark starts again from here
    est.fit(X, y)
    peak = _status_mb("VmHWM")
    nodes = int(est.tree_.node_count)
    print(
        json.dumps({"beyond_mb": peak - before, "peak_mb": peak, "data_mb": X.nbytes / 2**20, "nodes": nodes})
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--memory-child", choices=("dtcore", "scikit-learn"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.memory_child:
        memory_child(args.memory_child)
        return
    from bench.bench_library import table

    print("\n".join(table([])), flush=True)
    exact_lines(args.repeat, show=lambda row: print(row, flush=True))


if __name__ == "__main__":
    main()
