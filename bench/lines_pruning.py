"""Pruning speed on a big tree (issue 28): error-based pruning and CCP with 10-fold CV.

    .venv/bin/python -m bench.lines_pruning              # both lines, alone
    .venv/bin/python -m bench.bench_library              # with the library table (make bench)

The tree: ``CARTClassifier`` fully grown on ``bench_cart.make_data(10⁵, 20, "classification")``
(seeded; about 24 000 nodes, the size of issue 28's 23 711-node tree). The lines:

* **EBP**: ``ebp_prune`` of that tree with its training rows (C4.5's error-based pruning with
  subtree raising, CF 0.25, Gini impurity for the pruned CART tree), best of the rounds;
* **CCP with 10-fold CV**: ``choose_alpha_cv`` with 10 folds (Breiman: every fold tree grown
  fully by the same CART settings, its cost-complexity path, each scored at the β midpoints of
  the whole tree's path), one round (it takes tens of seconds); the note gives the CPU seconds
  spent growing the fold trees (``dtcore/cart``) and the rest (``dtcore/pruning``).

There is no peer: the "peer" column holds issue 28's goal in CPU seconds, so the ratio is ours
over the goal and the line meets it at ≤ 1.
"""

from __future__ import annotations

import time

import numpy as np

from bench.bench_cart import make_data
from dtcore.cart.estimator import CARTClassifier
from dtcore.pruning import choose_alpha_cv
from dtcore.pruning.ebp import ebp_prune
from dtcore.tree import Tree

#: issue 28's goals, CPU seconds
EBP_GOAL = 2.0
CCP_CV_GOAL = 15.0


def pruning_data(rows: int = 100_000, features: int = 20) -> tuple[np.ndarray, np.ndarray, Tree]:
    """The rows and the fully grown CART tree both lines prune (deterministic: seeded data)."""
    X, y = make_data(rows, features, "classification")
    return X, y, CARTClassifier().fit(X, y).tree_


def pruning_lines(rounds: int, only: list[str] | None = None, rows: int = 100_000) -> list:
    """The two lines as ``bench.bench_library.Line`` objects, each row printed as it is
    measured (as the library table's loop prints its own); none when ``only`` names other lines
    (``rows``: fewer for a quick look)."""
    from bench.bench_library import Line, Timing, best, table, timed  # the table imports this module

    if only:
        return []
    X, y, tree = pruning_data(rows)
    nodes = f"{tree.node_count:,}".replace(",", " ")
    lines = []

    t_ebp = None
    for _ in range(max(rounds, 1)):
        t, (pruned, _) = timed(lambda: ebp_prune(tree, X, y, impurity="gini"))
        t_ebp = best(t_ebp, t)
    assert t_ebp is not None
    lines.append(
        Line(
            f"EBP, {nodes}-node tree",
            t_ebp,
            Timing(EBP_GOAL, EBP_GOAL),
            "goal (no peer)",
            1.0,
            f"{pruned.node_count} nodes after; best of {max(rounds, 1)}",
        )
    )
    for row in table(lines[-1:])[2:]:
        print(row, flush=True)

    growing = [0.0]

    def grow(Xf: np.ndarray, yf: np.ndarray, wf: np.ndarray | None) -> Tree:
        c = time.process_time()
        fold = CARTClassifier().fit(Xf, yf, sample_weight=wf).tree_
        growing[0] += time.process_time() - c
        return fold

    t_cv, choice = timed(lambda: choose_alpha_cv(grow, X, y, k=10, tree=tree))
    lines.append(
        Line(
            f"CCP with 10-fold CV, {nodes}-node tree",
            t_cv,
            Timing(CCP_CV_GOAL, CCP_CV_GOAL),
            "goal (no peer)",
            1.0,
            f"growing the 10 fold trees {growing[0]:.1f} s CPU, the rest {t_cv.cpu - growing[0]:.1f} s; "
            f"α {choice.alpha:.3g} ({choice.n_leaves[choice.index]} leaves); one round",
        )
    )
    for row in table(lines[-1:])[2:]:
        print(row, flush=True)
    return lines


if __name__ == "__main__":
    from bench.bench_library import table

    print("\n".join(table([])), flush=True)
    pruning_lines(1)
