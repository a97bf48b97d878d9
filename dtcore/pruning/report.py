"""What a pruning run did, in plain data the app and the command line can show.

Node ids in ``collapsed``, ``removed`` and ``raised`` are those of the original tree;
``kept[new] = old`` maps the pruned tree's nodes back, so a view can ghost the removed nodes in
the "before" tree and mark the new leaves in the "after" tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from dtcore.pruning.collapse import shape_of
from dtcore.pruning.losses import error, is_classifier
from dtcore.pruning.rep import RepDecision
from dtcore.tree import Tree


@dataclass
class PruneReport:
    method: str
    params: dict
    collapsed: list[int]  # internal nodes of the original that are leaves now
    raised: list[dict]  # subtree raising (EBP): {"node": replaced, "branch": raised child}
    kept: list[int]  # kept[new_id] = original id
    removed: list[int]  # original ids no longer in the tree
    before: dict  # {"nodes", "leaves", "depth"}
    after: dict
    metric: str  # "error_rate" or "mse"
    errors: dict = field(default_factory=dict)  # set name → {"before": e, "after": e}
    alpha_choice: dict | None = None  # CCP with α chosen on validation / by CV
    events: list | None = None  # EBP: each decision with its estimated errors
    #: REP: each node examined, in order, with its losses, pruned or kept and why (its tie rule)
    decisions: list[RepDecision] | None = None

    def to_dict(self) -> dict:
        return {
            "method": self.method,
            "params": self.params,
            "collapsed": self.collapsed,
            "raised": self.raised,
            "kept": self.kept,
            "removed": self.removed,
            "before": self.before,
            "after": self.after,
            "metric": self.metric,
            "errors": self.errors,
            "alpha_choice": self.alpha_choice,
            "events": self.events,
            "decisions": None if self.decisions is None else [d.to_dict() for d in self.decisions],
        }


def make_report(
    method: str,
    params: dict,
    original: Tree,
    pruned: Tree,
    kept: ArrayLike,
    *,
    datasets: dict | None = None,
    raised: Iterable[dict] = (),
    alpha_choice: dict | None = None,
    events: list | None = None,
    decisions: list[RepDecision] | None = None,
) -> PruneReport:
    """``datasets``: name → (X, y, w or None), the sets whose error is measured before/after."""
    kept = np.asarray(kept, dtype=np.int64)
    was_test = ~original.is_leaf[kept]
    collapsed = kept[was_test & pruned.is_leaf]
    removed = np.setdiff1d(np.arange(original.node_count), kept)
    errors = {}
    for name, (X, y, w) in (datasets or {}).items():
        if X is None or y is None or len(y) == 0:
            continue
        errors[name] = {"before": error(original, X, y, w), "after": error(pruned, X, y, w)}
    return PruneReport(
        method=method,
        params=dict(params),
        collapsed=collapsed.tolist(),
        raised=[dict(r) for r in raised],
        kept=kept.tolist(),
        removed=removed.tolist(),
        before=shape_of(original),
        after=shape_of(pruned),
        metric="error_rate" if is_classifier(original) else "mse",
        errors=errors,
        alpha_choice=alpha_choice,
        events=events,
        decisions=decisions,
    )
