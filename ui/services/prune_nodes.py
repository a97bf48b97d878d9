"""What each removed subtree weighed in the pruning decision: the figure the method compares, for
the subtree (before) and for what replaced it (after), per node of the grown tree.

- REP: the validation loss (misclassified validation weight, or squared error for regression)
  of the subtree and of the node as a leaf *at the moment REP decided the node*: REP works
  bottom-up, so the subtree it compares is the one already pruned below it, not the grown one
  (``PruneReport.decisions``: each :class:`dtcore.pruning.rep.RepDecision`'s ``subtree_loss``
  and ``leaf_loss``).
- PEP: the pessimistic errors, ``Σ e(leaves) + L/2`` of the grown subtree and ``e(t) + 1/2``.
- EBP: the estimated errors of its own decisions (``PruneReport.events``).
- CCP: the cost R of the branch and of the node as a leaf (``R(t) = N(t)/N · impurity``) at the
  weakest-link step that cut the node: the branch as it stood then, already pruned by the earlier
  steps below it (``cost_complexity_path``), not the grown one.

Every sum over a subtree uses the pre-order block ``node .. end[node]-1`` (vectorised cumsums).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dtcore.pruning.ccp import cost_complexity_path, node_costs
from dtcore.pruning.collapse import subtree_end
from dtcore.pruning.pep import pessimistic_errors
from dtcore.pruning.report import PruneReport
from dtcore.tree import Tree

#: what the before/after figures are, per method (an i18n key ``prune.removed.basis.<basis>``)
BASIS = {"rep": "validation", "pep": "pessimistic", "ebp": "estimated", "ccp": "cost"}


@dataclass
class SubtreeFigures:
    """``before[node]`` / ``after[node]``: the method's figure for the subtree at ``node`` (as the
    method saw it when deciding) and for what took its place; ``basis`` names the figure (a key of :data:`BASIS`' values)."""

    basis: str
    before: dict[int, float] = field(default_factory=dict)
    after: dict[int, float] = field(default_factory=dict)


def _block_sums(tree: Tree, values: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Sum of ``values`` over the leaves of each node's subtree (pre-order block sums)."""
    end = subtree_end(tree)
    leaf_values = np.where(tree.is_leaf, values, 0.0)
    cs = np.concatenate([[0.0], np.cumsum(leaf_values)])
    return cs[end[nodes]] - cs[nodes]


def _branch_costs_when_cut(tree: Tree, cost: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """R of each node's branch at the weakest-link step that cut it: the grown branch's R, plus
    ``R(d) − R(T_d)`` for each topmost descendant ``d`` an earlier step had already cut."""
    grown = _block_sums(tree, cost, np.arange(tree.node_count))
    cut = cost_complexity_path(tree).pruned_node[1:].tolist()
    step = {int(n): k for k, n in enumerate(cut)}
    end = subtree_end(tree)
    out = grown[nodes].copy()
    for j, t in enumerate(nodes.tolist()):
        k = step.get(t, len(cut))
        earlier = [d for d in cut[:k] if t < d < end[t]]  # pre-order block: the descendants
        done = set(earlier)
        for d in earlier:
            a = int(tree.parent[d])
            while a != t and a not in done:  # topmost: no earlier-cut ancestor below t
                a = int(tree.parent[a])
            if a == t:
                out[j] += cost[d] - grown[d]
    return out


def subtree_figures(
    tree: Tree,
    method: str,
    report: PruneReport,
) -> SubtreeFigures:
    """The figures for the nodes pruning collapsed or replaced (``report``: the run's
    :class:`dtcore.pruning.PruneReport` on ``tree``; REP's come from its ``decisions``)."""
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
    if method == "rep":
        # the decision's own figures: the subtree as it stood when REP reached the node
        wanted = set(nodes.tolist())
        for d in report.decisions or []:
            if d.pruned and d.node in wanted:
                out.before[d.node] = float(d.subtree_loss)
                out.after[d.node] = float(d.leaf_loss)
        return out
    if method == "pep":
        leaf_loss, subtree = pessimistic_errors(tree)
        before = subtree[nodes]
    elif method == "ccp":
        leaf_loss = node_costs(tree)
        before = _branch_costs_when_cut(tree, leaf_loss, nodes)
    else:
        return out
    for node, b in zip(nodes.tolist(), before.tolist()):
        out.before[node] = float(b)
        out.after[node] = float(leaf_loss[node])
    return out
