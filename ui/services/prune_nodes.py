"""What each removed subtree weighed in the pruning decision: the figure the method compares, for
the grown subtree (before) and for what replaced it (after), per node of the grown tree.

- REP: the validation loss (misclassified validation weight, or squared error for regression)
  of the grown subtree's leaves and of the node as a leaf (``dtcore.pruning.losses``).
- PEP: the pessimistic errors, ``Σ e(leaves) + L/2`` of the grown subtree and ``e(t) + 1/2``.
- EBP: the estimated errors of its own decisions (``PruneReport.events``).
- CCP: the cost R of the grown subtree and of the node as a leaf (``R(t) = N(t)/N · impurity``).

Every sum over a subtree uses the pre-order block ``node .. end[node]-1`` (vectorised cumsums).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dtcore.pruning.ccp import node_costs
from dtcore.pruning.collapse import subtree_end
from dtcore.pruning.losses import node_losses
from dtcore.pruning.pep import pessimistic_errors
from dtcore.pruning.report import PruneReport
from dtcore.tree import Tree

#: what the before/after figures are, per method (an i18n key ``prune.removed.basis.<basis>``)
BASIS = {"rep": "validation", "pep": "pessimistic", "ebp": "estimated", "ccp": "cost"}


@dataclass
class SubtreeFigures:
    """``before[node]`` / ``after[node]``: the method's figure for the grown subtree at ``node``
    and for what took its place; ``basis`` names the figure (a key of :data:`BASIS`' values)."""

    basis: str
    before: dict[int, float] = field(default_factory=dict)
    after: dict[int, float] = field(default_factory=dict)


def _block_sums(tree: Tree, values: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Sum of ``values`` over the leaves of each node's subtree (pre-order block sums)."""
    end = subtree_end(tree)
    leaf_values = np.where(tree.is_leaf, values, 0.0)
    cs = np.concatenate([[0.0], np.cumsum(leaf_values)])
    return cs[end[nodes]] - cs[nodes]


def subtree_figures(
    tree: Tree,
    method: str,
    report: PruneReport,
    valid: tuple[np.ndarray | None, np.ndarray | None] | None = None,
) -> SubtreeFigures:
    """The figures for the nodes pruning collapsed or replaced (``report``: the run's
    :class:`dtcore.pruning.PruneReport` on ``tree``; ``valid``: encoded (X, y) for REP)."""
    out = SubtreeFigures(BASIS.get(method, ""))
    nodes = np.array(sorted(set(report.collapsed) | {int(r["node"]) for r in report.raised}), dtype=np.int64)
    if nodes.size == 0:
        return out
    if method == "ebp":
        for ev in report.events or []:
            node = int(ev["node"])
            if "estimated_errors_before" in ev and "estimated_errors_after" in ev:
                out.before[node] = float(ev["estimated_errors_before"])
                out.after[node] = float(ev["estimated_errors_after"])
        return out
    if method == "pep":
        leaf_loss, subtree = pessimistic_errors(tree)
        before = subtree[nodes]
    elif method == "ccp":
        leaf_loss = node_costs(tree)
        before = _block_sums(tree, leaf_loss, nodes)
    elif method == "rep" and valid is not None and valid[0] is not None and valid[1] is not None:
        leaf_loss, _ = node_losses(tree, valid[0], valid[1])
        before = _block_sums(tree, leaf_loss, nodes)
    else:
        return out
    for node, b in zip(nodes.tolist(), before.tolist()):
        out.before[node] = float(b)
        out.after[node] = float(leaf_loss[node])
    return out
