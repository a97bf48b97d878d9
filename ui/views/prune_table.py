"""The Pruning page's table of removed subtrees: one row per subtree pruning took away (a test
made a leaf, or, in C4.5's subtree raising, a test replaced by its largest branch), with its
test, its path from the root, its training samples, the nodes and leaves it lost, and the figure
the method judged it by, before and after (``ui.services.prune_nodes``).

Cells are plain text (a data grid shows them as typed: feature and category names are user data
and are never read as markup here)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from dtcore.base import BaseTreeEstimator
from dtcore.numbers import fmt_num, fmt_weight
from dtcore.pruning.collapse import subtree_end
from dtcore.pruning.rep import RepDecision
from dtcore.tree import Tree
from ui.i18n import translate
from ui.services.pruning import PruneOutcome
from ui.views.pruning import fmt_error

from . import tree as treeview

COLUMNS = ("node", "test", "path", "samples", "nodes", "leaves", "replaced", "before", "after")


def _leaf_counts_and_sizes(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """Leaves and nodes under each node: its pre-order block ``i .. end[i]-1``, summed by cumsum."""
    end = subtree_end(tree)
    cs = np.concatenate([[0], np.cumsum(tree.is_leaf.astype(np.int64))])
    starts = np.arange(tree.node_count)
    return cs[end] - cs[starts], end - starts


class _Paths:
    """Branch conditions from the root to a node of ``tree``, each condition computed once."""

    def __init__(self, est: BaseTreeEstimator, tree: Tree) -> None:
        self.est, self.tree = est, tree
        self.memo: dict[int, list[str]] = {0: []}

    def __call__(self, node: int) -> list[str]:
        chain = []
        i = int(node)
        while i not in self.memo:
            chain.append(i)
            i = int(self.tree.parent[i])
        path = self.memo[i]
        for j in reversed(chain):
            cond = treeview.incoming_condition(self.est, j, tree=self.tree)
            path = [*path, cond if cond is not None else ""]
            self.memo[j] = path
        return self.memo[int(node)]


def removed_rows(est: BaseTreeEstimator, outcome: PruneOutcome) -> list[dict[str, Any]]:
    """The removed subtrees as plain values, in node order (ids of the grown tree)."""
    tree, rep = outcome.before, outcome.report
    schema = est.schema_
    raised = {int(r["node"]): int(r["branch"]) for r in rep.raised}
    nodes = sorted(set(int(i) for i in rep.collapsed) | set(raised))
    if not nodes:
        return []
    (leaves, sizes), paths = _leaf_counts_and_sizes(tree), _Paths(est, tree)
    figures = outcome.figures
    rows = []
    for i in nodes:
        branch = raised.get(i)
        feature = int(tree.feature[i])
        rows.append(
            {
                "node": i,
                "test": schema.features[feature].name if feature >= 0 else "",
                "path": paths(i),
                "samples": float(tree.weighted_n[i]),
                "nodes": int(sizes[i] - (1 if branch is None else sizes[branch])),
                "leaves": (int(leaves[i]), 1 if branch is None else int(leaves[branch])),
                "branch": branch,
                "before": None if figures is None else figures.before.get(i),
                "after": None if figures is None else figures.after.get(i),
            }
        )
    return rows


def _num(v: float | None) -> str:
    return "–" if v is None else fmt_num(v, 4)


def removed_table(est: BaseTreeEstimator, outcome: PruneOutcome, lang: str) -> pd.DataFrame:
    """The table the page shows (words in ``lang``; an empty frame when nothing was removed)."""

    def tr(key: str, **v: object) -> str:
        return translate(key, lang, **v)

    rows = []
    for r in removed_rows(est, outcome):
        rows.append(
            (
                f"#{r['node']}",
                r["test"],
                " → ".join(r["path"]) if r["path"] else tr("tree.root"),
                fmt_weight(r["samples"]),
                str(r["nodes"]),
                f"{r['leaves'][0]} → {r['leaves'][1]}",
                tr("prune.removed.leaf")
                if r["branch"] is None
                else tr("prune.removed.branch", node=r["branch"]),
                _num(r["before"]),
                _num(r["after"]),
            )
        )
    return pd.DataFrame(rows, columns=[tr("prune.removed.col." + c) for c in COLUMNS])


def basis_note(outcome: PruneOutcome, lang: str) -> str:
    """What the before/after columns hold for this run's method (one sentence)."""
    basis = outcome.figures.basis if outcome.figures is not None else ""
    if not basis:
        return ""
    regression = outcome.report.metric == "mse"
    return translate(
        "prune.removed.basis." + basis + ("_mse" if regression and basis == "validation" else ""), lang
    )


DECISION_COLUMNS = ("node", "test", "path", "with_subtree", "as_leaf", "decision")


def _whole_set(decision: RepDecision, error: float) -> str:
    """The validation set's figure as the book prints it: accuracy 71.4 %, or the MSE."""
    return fmt_error(1 - error if decision.metric == "error_rate" else error, decision.metric)


def decisions_table(est: BaseTreeEstimator, outcome: PruneOutcome, lang: str) -> pd.DataFrame:
    """REP's decisions in the order it made them: each test, the validation accuracy (MSE for
    regression) with its subtree and with it as a leaf, and what was done and why."""

    def tr(key: str, **v: object) -> str:
        return translate(key, lang, **v)

    tree, decisions = outcome.before, outcome.report.decisions or []
    schema, paths = est.schema_, _Paths(est, tree)
    regression = bool(decisions) and decisions[0].metric != "error_rate"
    rows = []
    for d in decisions:
        path = paths(d.node)
        rows.append(
            (
                f"#{d.node}",
                schema.features[int(tree.feature[d.node])].name,
                " → ".join(path) if path else tr("tree.root"),
                _whole_set(d, d.error_with_subtree),
                _whole_set(d, d.error_as_leaf),
                tr(
                    f"prune.decision.{d.reason}.{'pruned' if d.pruned else 'kept'}"
                    + ("_mse" if regression else "")
                ),
            )
        )
    suffix = "_mse" if regression else ""
    names = [tr("prune.removed.col." + c) for c in DECISION_COLUMNS[:3]]
    names += [tr(f"prune.decisions.col.{c}{suffix}") for c in DECISION_COLUMNS[3:5]]
    names.append(tr("prune.decisions.col.decision"))
    return pd.DataFrame(rows, columns=names)
