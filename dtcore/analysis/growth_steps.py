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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from dtcore.history import FittedTree, PruneStep
from dtcore.pruning.collapse import collapse
from dtcore.tree import Tree, TreeAssembler

# =============================================================================================
# replay


#: what a fitted estimator holds of its growth history (with ``tree_``)
HISTORY_ATTRS = ("tree_", "grown_tree_", "build_order_", "prune_steps_")


def records_history(est: object) -> bool:
    """``est`` holds the attributes of a growth history (whether it still ends in its ``tree_``:
    :func:`has_history`)."""
    return all(hasattr(est, a) for a in HISTORY_ATTRS)


def has_history(est: object, replay: Callable[[Any, int], StepTree] | None = None) -> bool:
    """True when ``est`` holds a growth history that ends in its current ``tree_`` (a tree edited
    afterwards — forced splits, a pruning run — has none). ``replay``: how to get its last step
    (default :func:`step_tree`; the app passes its cached replay)."""
    if not records_history(est):
        return False
    fitted = cast(FittedTree, est)  # the attributes just checked
    final = (replay or step_tree)(fitted, n_steps(fitted)).tree
    return same_structure(final, fitted.tree_)


def same_structure(a: Tree, b: Tree) -> bool:
    """The same tests in the same places (statistics not compared)."""
    return (
        a.node_count == b.node_count
        and np.array_equal(a.feature, b.feature)
        and np.array_equal(a.child_ptr, b.child_ptr)
        and np.array_equal(a.cuts, b.cuts)
        and np.array_equal(a.cat_branch, b.cat_branch)
    )


def n_growth_steps(est: FittedTree) -> int:
    return int(est.build_order_.size)


def n_steps(est: FittedTree) -> int:
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


def step_tree(est: FittedTree, k: int) -> StepTree:
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


class PrunedShape:
    """The grown tree's structure as pruning steps leave it: the one home of what a step does
    (a leaf, collapse or ccp step empties its node's branches; a raise puts the branch in the
    node's place, with the node's parent and all its rows) and of which steps fit (``apply``).
    A raise may name a node's grandchild in the grown tree: release 8 re-prunes a raised
    subtree, so a branch raised earlier can itself be raised into its new parent's place."""

    def __init__(self, grown: Tree) -> None:
        self.root = 0
        self.kids: dict[int, list[int]] = {
            i: grown.children_of(i).tolist() for i in np.flatnonzero(~grown.is_leaf).tolist()
        }
        self.parent: list[int] = grown.parent.astype(np.int64).tolist()
        self.stats: dict[int, tuple[list[float], float, int, float]] = {}

    def holds(self, i: int) -> bool:
        """``i`` is a node of the tree as the steps so far left it."""
        while i != self.root:
            p = self.parent[i]
            if p < 0 or i not in self.kids.get(p, []):
                return False
            i = p
        return True

    def apply(self, s: PruneStep) -> str | None:
        """Take step ``s``; or, without changing anything, why it does not fit this tree."""
        if not 0 <= s.node < len(self.parent) or not self.kids.get(s.node) or not self.holds(s.node):
            return "a step must name a test of the tree the earlier steps left"
        if s.kind != "raise":
            self.kids[s.node] = []
            return None
        if s.branch not in self.kids[s.node]:
            return "a raised branch must be a child of its node in the tree the earlier steps left"
        p = self.parent[s.node] if s.node != self.root else -1
        if p < 0:
            self.root = s.branch
        else:
            self.kids[p] = [s.branch if c == s.node else c for c in self.kids[p]]
        self.parent[s.branch] = p
        for i, counts, wn, ns, imp in s.refit or []:
            self.stats[int(i)] = (counts, float(wn), int(ns), float(imp))
        return None


def replay(grown: Tree, steps: list[PruneStep]) -> tuple[Tree, np.ndarray]:
    """``grown`` after the pruning ``steps``: (tree, kept). Steps that only replace subtrees by
    leaves are one ``collapse``; a raise rebuilds the tree from the working structure
    (:class:`PrunedShape`; a step that does not fit it is a ValueError)."""
    if not any(s.kind == "raise" for s in steps):
        return collapse(grown, [s.node for s in steps])
    shape = PrunedShape(grown)
    for s in steps:
        why = shape.apply(s)
        if why is not None:
            raise ValueError(f"pruning step {s.kind} at node {s.node}: {why}")
    root, kids, stats = shape.root, shape.kids, shape.stats
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
