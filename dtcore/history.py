"""What a fit records of its own growth, as fitted data every estimator keeps: the order the
builder split its nodes (``build_order_``, ``build_rule_``), the tree as grown (``grown_tree_``)
and what pruning removed, in order (``prune_steps_``, :class:`PruneStep`). The builders and the
pruning methods write it; ``dtcore.analysis.growth_steps`` replays it (the tree at step k) and
``dtcore.export.growth_json`` stores it in a model file. See ``growth_steps`` for the meaning of
each build rule and step kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

BUILD_RULES = ("level", "best_first", "depth_first")
PRUNE_KINDS = ("collapse", "leaf", "raise", "ccp")


class FittedTree(Protocol):
    """A fitted estimator with its recorded growth (every dtcore estimator after ``fit``; the
    attributes are set by :func:`record`, so the estimator classes do not declare them)."""

    @property
    def tree_(self) -> Tree: ...
    @property
    def grown_tree_(self) -> Tree: ...
    @property
    def build_order_(self) -> np.ndarray: ...
    @property
    def build_rule_(self) -> str: ...
    @property
    def prune_steps_(self) -> list[PruneStep]: ...


@dataclass
class PruneStep:
    """One pruning step; ids are ``grown_tree_``'s.

    ``kind``: "collapse" (C4.5's collapse: the subtree's leaves make no fewer training errors
    than the node), "leaf" (error-based pruning makes the node a leaf), "raise" (error-based
    pruning replaces the node by its largest branch ``branch``), "ccp" (the weakest link at
    effective α). ``numbers``: the figures the decision compared (see :func:`reason_numbers`).
    ``refit`` (raise only): the raised subtree's statistics once it holds all the node's rows,
    pre-order rows ``[id, class counts or [value], weight, rows, impurity]``."""

    kind: str
    node: int
    numbers: dict[str, float | None] = field(default_factory=dict)
    branch: int = -1
    refit: list[list[Any]] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "node": self.node, "numbers": dict(self.numbers)}
        if self.kind == "raise":
            d["branch"] = self.branch
            d["refit"] = self.refit or []
        return d

    @classmethod
    def from_dict(cls, d: Any) -> PruneStep:
        if not isinstance(d, dict) or d.get("kind") not in PRUNE_KINDS:
            raise ValueError(f"model growth.prune_steps: {d!r} is not a pruning step")
        node, branch = d.get("node"), d.get("branch", -1)
        if (
            not isinstance(node, int)
            or not isinstance(branch, int)
            or not whole_number(node)
            or not whole_number(branch)
        ):
            raise ValueError("model growth.prune_steps: node and branch must be whole numbers")
        nums = d.get("numbers", {})
        if not isinstance(nums, dict) or not all(
            isinstance(k, str) and (v is None or (_number(v))) for k, v in nums.items()
        ):
            raise ValueError("model growth.prune_steps: numbers must map names to numbers")
        refit = d.get("refit")
        if refit is not None and (not isinstance(refit, list) or not all(_refit_row(r) for r in refit)):
            raise ValueError(
                "model growth.prune_steps: refit rows must be [id, counts, weight, rows, impurity]"
            )
        return cls(
            str(d["kind"]),
            int(node),
            {k: (None if v is None else float(v)) for k, v in nums.items()},
            int(branch),
            refit,
        )


def whole_number(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and bool(np.isfinite(v))


def _refit_row(r: Any) -> bool:
    return (
        isinstance(r, list)
        and len(r) == 5
        and whole_number(r[0])
        and isinstance(r[1], list)
        and all(_number(v) and v >= 0 for v in r[1])
        and _number(r[2])
        and r[2] >= 0
        and whole_number(r[3])
        and r[3] >= 0
        and _number(r[4])
    )


def record(
    est: BaseTreeEstimator, grown: Tree, order: np.ndarray, rule: str, steps: list[PruneStep] | None = None
) -> None:
    """Set ``grown_tree_``, ``build_order_``, ``build_rule_``, ``prune_steps_`` on ``est`` (after
    which it is a :class:`FittedTree`; the classes do not declare them, hence ``setattr``)."""
    setattr(est, "grown_tree_", grown)  # noqa: B010
    setattr(est, "build_order_", np.asarray(order, dtype=np.int64))  # noqa: B010
    setattr(est, "build_rule_", rule)  # noqa: B010
    setattr(est, "prune_steps_", list(steps or []))  # noqa: B010


def collapse_steps(undone: list[tuple[int, float, float]]) -> list[PruneStep]:
    """C4.5's collapse decisions (ids already the grown tree's)."""
    return [
        PruneStep("collapse", int(i), {"subtree_errors": float(a), "node_errors": float(b)})
        for i, a, b in undone
    ]
