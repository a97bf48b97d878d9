"""Step-through growth of the current model (no Streamlit): the tree after step k, from the
history dtcore recorded when it was fitted (``dtcore.analysis.growth_steps``), and the newest split's
scores from the split explorer (``dtcore.explain``)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from dtcore import explain
from dtcore.analysis import growth_steps as gs

# ``Any``: the growth history (``grown_tree_``, ``prune_steps_``) is set by the estimators that
# record it, not declared on BaseTreeEstimator (dtcore.analysis.growth_steps takes ``Any`` too)


#: the step trees replayed lately, per estimator (dropped with it): a run of the page replays the
#: fitted tree's step for ``has_history`` and ``final_node`` besides the step shown, and the next
#: run (the step's report that it was drawn, a click) shows the same steps again; one replay of a
#: 2 000-node C4.5 tree's ~2 000 steps costs 0.1-0.2 s (issue 26). Each estimator's entry holds
#: the history objects it was replayed from: an estimator given another history replays anew.
_STEPS: weakref.WeakKeyDictionary[Any, tuple[tuple, dict[int, gs.StepTree]]] = weakref.WeakKeyDictionary()
#: step trees kept per estimator besides the fitted tree's
STEPS_KEPT = 8


def has_history(est: Any) -> bool:
    """``gs.has_history``, on the cached replay of the last step."""
    return gs.has_history(est, replay=step)


def n_steps(est: Any) -> tuple[int, int]:
    """(splits, pruning steps)."""
    return gs.n_growth_steps(est), len(est.prune_steps_)


def step(est: Any, k: int) -> gs.StepTree:
    """``gs.step_tree(est, k)``, cached per estimator (:data:`_STEPS`)."""
    last = gs.n_steps(est)
    k = max(0, min(int(k), last))
    source = (est.grown_tree_, est.build_order_, est.prune_steps_)
    try:
        held = _STEPS.get(est)
    except TypeError:  # not weakly referable: no cache
        return gs.step_tree(est, k)
    if held is None or any(a is not b for a, b in zip(held[0], source)):
        held = _STEPS[est] = (source, {})
    kept = held[1]
    hit = kept.pop(k, None)
    if hit is None:
        hit = gs.step_tree(est, k)
    kept[k] = hit  # newest last
    older = [j for j in kept if j != last]
    for j in older[: max(0, len(older) - STEPS_KEPT)]:
        kept.pop(j, None)
    return hit


def final_node(est: Any, grown_node: int) -> int | None:
    """The id in the fitted tree (the one the Splits page shows) of a grown tree's node; None
    when pruning removed it."""
    last = step(est, gs.n_steps(est))
    hit = np.flatnonzero(last.kept == int(grown_node))
    return int(hit[0]) if hit.size else None


@dataclass
class SplitInfo:
    """The newest split: its test's score, the runner-up feature and score (the explorer's
    ``runner_up``), and the rows (weight) each branch received."""

    feature: str
    score_name: str
    score: float | None
    runner_up: str | None
    runner_up_score: float | None
    branch_weights: list[float]
    branch_labels: list[str]


def split_info(est: Any, X: np.ndarray, y: np.ndarray, grown_node: int) -> SplitInfo:
    """The split report at ``grown_node`` of the grown tree, on the training arrays X, y."""
    grown = est.grown_tree_
    rep = explain.split_report(est, X, y, None, int(grown_node), tree=grown)
    j = int(grown.feature[grown_node])
    r = rep.runner_up_to(j)
    kids = grown.children_of(int(grown_node))
    test = explain.tree_test(grown, int(grown_node))
    return SplitInfo(
        feature=est.schema_.features[j].name,
        score_name=rep.score_name,
        score=rep.score_of(j),
        runner_up=None if r is None else rep.features[r].name,
        runner_up_score=None if r is None else rep.score_of(r),
        branch_weights=[float(w) for w in grown.weighted_n[kids]],
        branch_labels=explain.branch_labels(est.schema_, test) if test is not None else [],
    )
