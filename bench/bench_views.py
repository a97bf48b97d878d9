"""Server time of the big-tree views: the overview map and a focused view (issue 12: a
2 000-node tree's overview plus focused view within 300 ms), and the overview at 30 000 nodes.

    .venv/bin/python -m bench.bench_views

Trees: CART without limits on random tables (sizes chosen for about 2 000 and 30 000 nodes).
"overview" builds the overview map's SVG (what the frame is sent); "focus DOT" is the
focused view's DOT (3 levels below a node at depth 4); "focus SVG" adds ``dot -Tsvg`` (cached per
view in the app, so paid once per view). Best of 5 (the machine is shared).
"""

from __future__ import annotations

import time

import numpy as np

from dtcore import export
from dtcore.cart.estimator import CARTClassifier
from ui.figures.overview import overview_svg
from ui.views import focus


def tree_of(rows: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, 4))
    y = np.array(["a", "b", "c"])[(X[:, 0] + rng.normal(size=rows) > 0).astype(int) + (X[:, 1] > 1)]
    return CARTClassifier().fit(X, y)


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    print(f"{'nodes':>6}  {'overview':>9}  {'focus DOT':>9}  {'focus SVG':>9}  {'total':>7}")
    for rows in (5_000, 75_000):
        measure(tree_of(rows))


def measure(est) -> None:
    tree = est.tree_
    node = int(np.flatnonzero(tree.depth == 4)[0])
    texts = {"samples": "samples"}
    t_over = best(lambda: overview_svg(est, selected=node, texts=texts))

    def focused() -> str:
        return focus.focus_dot(est, focus.window(tree, node, focus.DEFAULT_WINDOW), selected=node)

    t_dot = best(focused)
    dot = focused()
    t_svg = best(lambda: export.render(dot, "svg"), repeat=3)
    total = t_over + t_dot + t_svg
    print(
        f"{tree.node_count:6d}  {t_over * 1e3:7.0f}ms  {t_dot * 1e3:7.0f}ms  {t_svg * 1e3:7.0f}ms  "
        f"{total * 1e3:5.0f}ms"
    )


if __name__ == "__main__":
    main()
