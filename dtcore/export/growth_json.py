"""The model file's optional ``growth`` entry (docs/model-json.md): a fit's recorded history
(``dtcore.history``) as JSON and back, checked against the grown tree before it is replayed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from dtcore.analysis.growth_steps import has_history
from dtcore.base import BaseTreeEstimator
from dtcore.export.tree_check import check_growth
from dtcore.history import BUILD_RULES, FittedTree, PruneStep, record, whole_number
from dtcore.tree import Tree


def growth_to_dict(est: object, tree_json: Callable[[Tree], dict[str, Any]]) -> dict[str, Any] | None:
    """The ``growth`` entry: build order and rule, pruning steps, and the grown tree's arrays
    (``tree_json`` makes them JSON; null when it is the final tree)."""
    if not hasattr(est, "build_order_") or not hasattr(est, "grown_tree_"):
        return None
    if not has_history(est):
        return None
    fitted = cast(FittedTree, est)  # has_history checked the attributes
    grown = fitted.grown_tree_
    return {
        "build_order": fitted.build_order_.tolist(),
        "build_rule": fitted.build_rule_,
        "prune_steps": [s.to_dict() for s in fitted.prune_steps_],
        "grown_tree": None if grown is fitted.tree_ else tree_json(grown),
    }


def growth_from_dict(est: BaseTreeEstimator, d: Any, tree_from_json: Callable[[Any], Tree]) -> None:
    """Set the growth attributes from a ``growth`` entry, checked: ids in range, the order a
    top-down order of the grown tree's tests, the steps replaying to the model's tree. ``d``
    (and what ``tree_from_json`` reads) is the model file's JSON as read: any value, checked here."""
    if not isinstance(d, dict):
        raise ValueError("model file: growth must be an object")
    grown = est.tree_ if d.get("grown_tree") is None else tree_from_json(d["grown_tree"])
    order = d.get("build_order")
    if not isinstance(order, list) or not all(whole_number(v) for v in order):
        raise ValueError("model growth.build_order: not a list of node ids")
    rule = d.get("build_rule")
    if rule not in BUILD_RULES:
        raise ValueError(f"model growth.build_rule: must be one of {list(BUILD_RULES)}")
    steps_raw = d.get("prune_steps", [])
    if not isinstance(steps_raw, list):
        raise ValueError("model growth.prune_steps: not a list")
    steps = [PruneStep.from_dict(s) for s in steps_raw]
    arr = np.array(order, dtype=np.int64)
    check_growth(grown, arr, steps)
    record(est, grown, arr, str(rule), steps)
    if not has_history(est):
        raise ValueError("model growth: the pruning steps do not lead to the model's tree")
