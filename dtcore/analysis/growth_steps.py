"""Step-through growth: the order a builder split its nodes and the order pruning removed them,
kept as fitted data, and the tree after any step (the one home of "the tree at step k").

Every estimator records, when it is fitted (:func:`record`):

* ``grown_tree_`` — the tree as grown, before C4.5's collapse and any pruning (the same object
  as ``tree_`` when nothing was removed). Every node id below is an id of this tree
  (pre-order), so a step names a node even after pruning removed it from ``tree_``.
* ``build_order_`` — its test nodes in the order the builder split them; ``build_rule_`` says
  which order that is:

  - ``"level"``: CART's level-wise builder, level by level, left to right;
  - ``"best_first"``: CART and ID3 under ``max_leaf_nodes``, the order the nodes left the
    priority queue (largest impurity decrease / weighted gain first);
  - ``"depth_first"``: ID3's stack (pre-order), and C4.5. Our C4.5 grower works level by level
    for speed, but release 8 grows depth-first (``FormTree`` recursion) and the tree does not
    depend on the order the nodes are grown in, so C4.5 records the pre-order of the grown
    tree's tests: the order in which release 8 makes the splits.

  A node is split after its parent, so the first k entries always form a tree whose tests are
  exactly those k nodes.
* ``prune_steps_`` — what pruning removed, in order (:class:`PruneStep`): C4.5's collapse
  (top-down, as J48 applies it after growth; release 8 collapses each subtree as soon as it is
  grown, which removes the same nodes), then error-based pruning's decisions in its bottom-up
  order (a subtree replaced by a leaf, or by its largest branch: subtree raising), or CART's
  weakest-link steps up to ``ccp_alpha``.

:func:`step_tree` gives the tree after step k (``0 ≤ k ≤ n_steps``): for k ≤ G (G = number of
splits) the grown tree with only its first k splits made (``pruning.collapse`` of the others);
beyond, the fully grown tree after the first k − G pruning steps. The last step equals
``tree_``. A raised subtree takes its parent's place and all the parent's rows, so its class
counts change: a raising step carries the raised subtree's re-fitted statistics (``refit``),
which makes the replay exact without the training data (and so works on a loaded model).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dtcore.export.tree_check import check_growth
from dtcore.pruning.collapse import collapse
from dtcore.tree import Tree, TreeAssembler

BUILD_RULES = ("level", "best_first", "depth_first")
PRUNE_KINDS = ("collapse", "leaf", "raise", "ccp")


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
        if not isinstance(node, int) or not isinstance(branch, int) or not _whole(node) or not _whole(branch):
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


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and bool(np.isfinite(v))


def _refit_row(r: Any) -> bool:
    return (
        isinstance(r, list)
        and len(r) == 5
        and _whole(r[0])
        and isinstance(r[1], list)
        and all(_number(v) and v >= 0 for v in r[1])
        and _number(r[2])
        and r[2] >= 0
        and _whole(r[3])
        and r[3] >= 0
        and _number(r[4])
    )


# =============================================================================================
# recording (the estimators call these when fitted)


def record(est: Any, grown: Tree, order: np.ndarray, rule: str, steps: list[PruneStep] | None = None) -> None:
    """Set ``grown_tree_``, ``build_order_``, ``build_rule_``, ``prune_steps_`` on ``est``."""
    est.grown_tree_ = grown
    est.build_order_ = np.asarray(order, dtype=np.int64)
    est.build_rule_ = rule
    est.prune_steps_ = list(steps or [])


def ccp_steps(grown: Tree, alpha: float) -> list[PruneStep]:
    """The weakest-link steps that pruning to ``alpha`` takes, with the α of each."""
    from dtcore.pruning.ccp import cost_complexity_path, nodes_to_collapse

    path = cost_complexity_path(grown)
    nodes = nodes_to_collapse(path, alpha)
    return [
        PruneStep(
            "ccp",
            int(n),
            {
                "alpha": float(path.ccp_alphas[k + 1]),
                "leaves_after": float(path.n_leaves[k + 1]),
                "impurity_after": float(path.impurities[k + 1]),
            },
        )
        for k, n in enumerate(nodes.tolist())
    ]


def collapse_steps(undone: list[tuple[int, float, float]]) -> list[PruneStep]:
    """C4.5's collapse decisions (ids already the grown tree's)."""
    return [
        PruneStep("collapse", int(i), {"subtree_errors": float(a), "node_errors": float(b)})
        for i, a, b in undone
    ]


def ebp_steps(report: Any, to_grown: np.ndarray) -> list[PruneStep]:
    """Error-based pruning's events as steps; ``to_grown`` maps the pruned input tree's ids to
    the grown tree's."""
    out = []
    for k, ev in enumerate(report.events):
        node = int(to_grown[ev["node"]])
        if ev["action"] == "leaf":
            nums = {
                "leaf_estimate": ev["estimated_errors_after"],
                "subtree_estimate": ev["estimated_errors_before"],
                "branch_estimate": ev.get("branch_estimated_errors"),
            }
            out.append(PruneStep("leaf", node, nums))
        else:
            nums = {
                "branch_estimate": ev["branch_estimated_errors"],
                "subtree_estimate": ev["estimated_errors_before"],
                "leaf_estimate": ev.get("leaf_estimated_errors"),
            }
            refit = [[int(to_grown[i]), c, wn, ns, imp] for i, c, wn, ns, imp in report.refits.get(k, [])]
            out.append(PruneStep("raise", node, nums, int(to_grown[ev["branch"]]), refit))
    return out


# =============================================================================================
# replay


def has_history(est: Any) -> bool:
    """True when ``est`` holds a growth history that ends in its current ``tree_`` (a tree edited
    afterwards — forced splits, a pruning run — has none)."""
    if not all(hasattr(est, a) for a in ("tree_", "grown_tree_", "build_order_", "prune_steps_")):
        return False
    final = step_tree(est, n_steps(est)).tree
    return same_structure(final, est.tree_)


def same_structure(a: Tree, b: Tree) -> bool:
    """The same tests in the same places (statistics not compared)."""
    return (
        a.node_count == b.node_count
        and np.array_equal(a.feature, b.feature)
        and np.array_equal(a.child_ptr, b.child_ptr)
        and np.array_equal(a.cuts, b.cuts)
        and np.array_equal(a.cat_branch, b.cat_branch)
    )


def n_growth_steps(est: Any) -> int:
    return int(est.build_order_.size)


def n_steps(est: Any) -> int:
    """Splits plus pruning steps."""
    return n_growth_steps(est) + len(est.prune_steps_)


@dataclass
class StepTree:
    """The tree after step ``k``: ``tree`` and ``kept`` (its node → grown tree id); ``phase``
    "grow" or "prune"; ``node`` the grown id of the step's node (the newest split, or the node a
    pruning step replaced; -1 at step 0), ``shown`` its id in ``tree`` (for a raise, the raised
    branch that took its place), ``prune`` the pruning step."""

    k: int
    tree: Tree
    kept: np.ndarray
    phase: str
    node: int = -1
    shown: int = -1
    prune: PruneStep | None = None


def step_tree(est: Any, k: int) -> StepTree:
    """The tree after the first ``k`` steps (clipped to 0..``n_steps``)."""
    grown: Tree = est.grown_tree_
    order: np.ndarray = est.build_order_
    G = int(order.size)
    k = max(0, min(int(k), n_steps(est)))
    if k <= G:
        tree, kept = collapse(grown, order[k:])
        node = int(order[k - 1]) if k else -1
        return StepTree(k, tree, kept, "grow", node, _position(kept, node))
    steps: list[PruneStep] = est.prune_steps_[: k - G]
    tree, kept = replay(grown, steps)
    last = steps[-1]
    shown = last.branch if last.kind == "raise" else last.node
    return StepTree(k, tree, kept, "prune", last.node, _position(kept, shown), last)


def _position(kept: np.ndarray, node: int) -> int:
    hit = np.flatnonzero(kept == node)
    return int(hit[0]) if hit.size else -1


def replay(grown: Tree, steps: list[PruneStep]) -> tuple[Tree, np.ndarray]:
    """``grown`` after the pruning ``steps``: (tree, kept). Steps that only replace subtrees by
    leaves are one ``collapse``; a raise rebuilds the tree from the working structure."""
    if not any(s.kind == "raise" for s in steps):
        return collapse(grown, [s.node for s in steps])
    kids: dict[int, list[int]] = {
        i: grown.children_of(i).tolist() for i in np.flatnonzero(~grown.is_leaf).tolist()
    }
    parent = grown.parent.astype(np.int64).tolist()
    root = 0
    stats: dict[int, tuple[list[float], float, int, float]] = {}
    for s in steps:
        if s.kind != "raise":
            kids[s.node] = []
            continue
        p = parent[s.node] if s.node != root else -1
        if p < 0:
            root = s.branch
        else:
            kids[p] = [s.branch if c == s.node else c for c in kids[p]]
        parent[s.branch] = p
        for i, counts, wn, ns, imp in s.refit or []:
            stats[int(i)] = (counts, float(wn), int(ns), float(imp))
    asm = TreeAssembler(grown.value.shape[1], grown.n_classes)
    kept: list[int] = []
    stack: list[tuple[int, int]] = [(root, -1)]
    while stack:
        i, par = stack.pop()
        if i in stats:
            value, wn, ns, imp = stats[i]
        else:
            value, wn, ns, imp = (
                grown.value[i].tolist(),
                float(grown.weighted_n[i]),
                int(grown.n_samples[i]),
                float(grown.impurity[i]),
            )
        new = asm.add_node(par, value, wn, ns, imp)
        kept.append(i)
        ch = kids.get(i, [])
        if ch:
            if grown.is_categorical_test(i):
                asm.set_split(
                    new,
                    int(grown.feature[i]),
                    cat_branch=grown.cat_branch_of(i),
                    missing_branch=int(grown.missing_branch[i]),
                )
            else:
                asm.set_split(
                    new,
                    int(grown.feature[i]),
                    cuts=grown.cuts_of(i),
                    missing_branch=int(grown.missing_branch[i]),
                )
            stack.extend((c, new) for c in reversed(ch))
    return asm.build(), np.array(kept, dtype=np.int64)


# =============================================================================================
# JSON (the model file's optional "growth" entry, docs/model-json.md)


def growth_to_dict(est: Any, tree_json: Any) -> dict[str, Any] | None:
    """The ``growth`` entry: build order and rule, pruning steps, and the grown tree's arrays
    (``tree_json`` makes them JSON; null when it is the final tree)."""
    if not hasattr(est, "build_order_") or not hasattr(est, "grown_tree_"):
        return None
    if not has_history(est):
        return None
    grown = est.grown_tree_
    return {
        "build_order": est.build_order_.tolist(),
        "build_rule": est.build_rule_,
        "prune_steps": [s.to_dict() for s in est.prune_steps_],
        "grown_tree": None if grown is est.tree_ else tree_json(grown),
    }


def growth_from_dict(est: Any, d: Any, tree_from_json: Any) -> None:
    """Set the growth attributes from a ``growth`` entry, checked: ids in range, the order a
    top-down order of the grown tree's tests, the steps replaying to the model's tree."""
    if not isinstance(d, dict):
        raise ValueError("model file: growth must be an object")
    grown = est.tree_ if d.get("grown_tree") is None else tree_from_json(d["grown_tree"])
    order = d.get("build_order")
    if not isinstance(order, list) or not all(_whole(v) for v in order):
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
