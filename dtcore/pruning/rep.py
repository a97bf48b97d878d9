"""Reduced-error pruning (SPEC §8, seed 002): bottom-up on a validation set.

A subtree becomes a leaf when the validation loss of the node as a leaf is not larger than the
loss of the subtree's (already pruned) leaves.  The loss at a node is the validation weight that
reaches it (fractional under C4.5's missing-value routing) misclassified by the node's majority
class, or the squared error around its value for regression.

A tie (the leaf's loss equals the subtree's) is decided by ``on_tie``:

- ``"prune"`` (SPEC §8, seed 002, Quinlan's and Esposito et al.'s REP): Occam's razor, the
  smaller tree wins.  Subtrees no validation row reaches have loss 0 on both sides and go too.
- ``"keep"`` (Zhou, 机器学习 §4.3.2, figure 4.7): the subtree stays when the validation accuracy
  is unchanged ("验证集精度仍为71.4%，因此，可以不进行剪枝"); it is pruned only when the accuracy
  rises.  The book's footnote says real algorithms usually prune there; it keeps the subtree so
  that the figure has something to show.

Nodes are examined deepest first, left to right within a depth (the book's order ⑥ ⑤ ② ③ ①);
each decision depends only on the node's own subtree, so the order changes the reported
accuracies along the way, not the pruned tree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal, get_args

import numpy as np
from numpy.typing import ArrayLike

from dtcore.pruning.losses import node_losses
from dtcore.tree import Tree

RTOL = 1e-9

TieRule = Literal["prune", "keep"]
#: the tie rules, the default (SPEC §8's) first
TIE_RULES: tuple[str, ...] = get_args(TieRule)

#: why a node was pruned or kept (the ``reason`` of a :class:`RepDecision`)
LOWER, TIE, UNREACHED, HIGHER = "lower", "tie", "unreached", "higher"


@dataclass(frozen=True)
class RepDecision:
    """One node REP examined: its validation loss as a leaf and as the (pruned) subtree below it,
    what was decided and why, and the whole validation set's error (the loss per unit of
    validation weight, the book's 1 − accuracy) with the subtree and with the node as a leaf,
    every decision before this one applied (the book's "剪枝前" and "剪枝后" accuracies)."""

    node: int
    leaf_loss: float
    subtree_loss: float
    pruned: bool
    reason: str  # LOWER: the leaf does better; TIE / UNREACHED: equal (no row reaches it); HIGHER
    on_tie: str
    error_with_subtree: float
    error_as_leaf: float
    metric: str  # "error_rate" (classification: the error is 1 − accuracy) or "mse"

    @property
    def note(self) -> str:
        """The decision in words (the command line's report; the app says it in both languages)."""
        return decision_note(self.pruned, self.reason, self.metric)

    def to_dict(self) -> dict:
        return {**asdict(self), "note": self.note}


def decision_note(pruned: bool, reason: str, metric: str = "error_rate") -> str:
    """ "pruned: accuracy unchanged (Occam)", "kept: accuracy unchanged (the book's rule)", …
    (a regression tree's figure is the validation error, not an accuracy)."""
    figure = "accuracy" if metric == "error_rate" else "validation error"
    verb, rule = ("pruned", "Occam") if pruned else ("kept", "the book's rule")
    return {
        LOWER: f"pruned: {figure} {'rises' if metric == 'error_rate' else 'falls'}",
        HIGHER: f"kept: {figure} would {'fall' if metric == 'error_rate' else 'rise'}",
        TIE: f"{verb}: {figure} unchanged ({rule})",
        UNREACHED: f"{verb}: no validation row reaches it ({rule})",
    }[reason]


def check_tie_rule(on_tie: str) -> str:
    """``on_tie`` if it is a tie rule, else ValueError naming both."""
    if on_tie not in TIE_RULES:
        raise ValueError(
            f"REP's tie rule on_tie must be 'prune' (SPEC §8: Occam's razor, the default) or "
            f"'keep' (Zhou's figure 4.7: keep the subtree when the accuracy is unchanged), not {on_tie!r}"
        )
    return on_tie


def rep_decisions(
    tree: Tree,
    X_valid: ArrayLike,
    y_valid: ArrayLike,
    w_valid: ArrayLike | None = None,
    on_tie: str = "prune",
) -> list[RepDecision]:
    """Every internal node's decision, in the order REP makes them (deepest first)."""
    check_tie_rule(on_tie)
    leaf_loss, weight = node_losses(tree, X_valid, y_valid, w_valid)
    sub_loss = leaf_loss.copy()
    total_weight = float(weight[0]) if tree.node_count else 0.0
    scale = total_weight if total_weight > 0 else 1.0
    total = float(leaf_loss[tree.is_leaf].sum())  # the grown tree's validation loss
    metric = "error_rate" if tree.n_classes > 0 else "mse"
    ids = np.arange(tree.node_count)
    order = ids[np.lexsort((ids, -tree.depth.astype(np.int64)))]  # deepest first: children first
    out = []
    for i in order[~tree.is_leaf[order]].tolist():
        below = float(sub_loss[tree.children_of(i)].sum())
        leaf = float(leaf_loss[i])
        # fractional (C4.5) weights make exact ties differ by rounding, hence RTOL
        if abs(leaf - below) <= RTOL * max(below, leaf, 1.0):
            reason = UNREACHED if weight[i] <= 0 else TIE
            prune_it = on_tie == "prune"
        else:
            reason = LOWER if leaf < below else HIGHER
            prune_it = reason == LOWER
        with_subtree, as_leaf = total / scale, (total + leaf - below) / scale
        if prune_it:
            total += leaf - below  # sub_loss[i] stays leaf_loss[i]
        else:
            sub_loss[i] = below
        out.append(RepDecision(i, leaf, below, prune_it, reason, on_tie, with_subtree, as_leaf, metric))
    return out


def rep_nodes(
    tree: Tree,
    X_valid: ArrayLike,
    y_valid: ArrayLike,
    w_valid: ArrayLike | None = None,
    on_tie: str = "prune",
) -> np.ndarray:
    """Ids of the nodes REP collapses (the topmost ones; their descendants go with them)."""
    return topmost_pruned(tree, rep_decisions(tree, X_valid, y_valid, w_valid, on_tie))


def topmost_pruned(tree: Tree, decisions: list[RepDecision]) -> np.ndarray:
    """The pruned nodes of ``decisions`` no pruned ancestor takes away, in id order."""
    pruned = np.zeros(tree.node_count, dtype=bool)
    pruned[[d.node for d in decisions if d.pruned]] = True
    top = [i for i in np.nonzero(pruned)[0] if not _has_pruned_ancestor(tree, i, pruned)]
    return np.array(top, dtype=np.int64)


def _has_pruned_ancestor(tree: Tree, i: int | np.integer, pruned: np.ndarray) -> bool:
    p = tree.parent[i]
    while p >= 0:
        if pruned[p]:
            return True
        p = tree.parent[p]
    return False
