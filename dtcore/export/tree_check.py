"""Is this a tree? The checks a model file's tree passes before anything walks it (a crafted
child index that points back to the root would make prediction loop forever)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dtcore.analysis.growth_steps import PrunedShape

if TYPE_CHECKING:
    from dtcore.history import PruneStep
    from dtcore.tree import Tree


def read_neighbours(d: dict) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The optional ``cut_below``/``cut_above`` lists of a model file (both or neither; their
    lengths and order against the cuts are ``check_tree``'s)."""
    lists = [d.get("cut_below"), d.get("cut_above")]
    if lists == [None, None]:
        return None, None
    out = []
    for name, v in zip(("cut_below", "cut_above"), lists):
        if not isinstance(v, list) or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in v
        ):
            raise ValueError(f"model tree.{name}: not a list of numbers (±Infinity: none), one per cut")
        out.append(np.array(v, dtype=np.float64))
    return out[0], out[1]


def check_tree(tree: Tree) -> None:
    """ValueError naming the field when ``tree``'s arrays do not form a tree: every node but the
    root has one parent that comes before it (so no walk can loop), children point back to their
    parent, depths follow, pointers are monotone and in range, tests have the branches their
    cuts or category tables say, counts are finite and ≥ 0. Vectorised: no Python loop over nodes.
    """

    def bad(field: str, what: str) -> ValueError:
        return ValueError(f"model tree.{field}: {what}")

    n = tree.feature.size
    if n == 0:
        raise bad("feature", "no nodes")
    for name in ("parent", "depth", "missing_branch", "weighted_n", "n_samples", "impurity", "cat_size"):
        if getattr(tree, name).size != n:
            raise bad(name, f"{getattr(tree, name).size} entries for {n} nodes")
    if tree.value.shape[0] != n:
        raise bad("value", "not one row per node")
    for ptr, data in (("child_ptr", "children"), ("cut_ptr", "cuts"), ("cat_ptr", "cat_branch")):
        p = getattr(tree, ptr)
        if p.size != n + 1 or p[0] != 0 or p[-1] != getattr(tree, data).size or np.any(np.diff(p) < 0):
            raise bad(ptr, f"not {n + 1} non-decreasing offsets from 0 to the length of {data}")
    ids = np.arange(n)
    if tree.parent[0] != -1 or np.any(tree.parent[1:] < 0) or np.any(tree.parent[1:] >= ids[1:]):
        raise bad("parent", "the root's parent must be -1 and every other node's an earlier node")
    owner = np.repeat(ids, np.diff(tree.child_ptr))
    kids = tree.children.astype(np.int64)
    if np.any(kids <= owner) or np.any(kids >= n):
        raise bad("children", "a child must be a later node of the tree")
    if np.any(tree.parent[kids] != owner) or np.any(np.bincount(kids, minlength=n)[1:] != 1):
        raise bad("children", "every node but the root must be the child of its parent, once")
    if tree.depth[0] != 0 or np.any(tree.depth[1:] != tree.depth[tree.parent[1:]] + 1):
        raise bad("depth", "a node's depth must be its parent's + 1")
    n_kids = np.diff(tree.child_ptr)
    inner = tree.feature >= 0
    if np.any(tree.feature < -1) or np.any(inner != (n_kids > 0)):
        raise bad("feature", "a leaf has feature -1 and no children, a test a feature and children")
    mb = tree.missing_branch
    if np.any((mb < -1) | (mb >= np.maximum(n_kids, 1))):
        raise bad("missing_branch", "must be -1 (share out) or one of the node's branches")
    if tree.cat_code.size != tree.cat_branch.size:
        raise bad("cat_code", "not one category code per listed branch")
    n_cuts, n_cats = np.diff(tree.cut_ptr), tree.cat_size
    continuous = inner & (n_cats == 0)
    if np.any(n_cuts[~inner] | n_cats[~inner]) or np.any((n_cuts > 0) & (n_cats > 0)):
        raise bad("cut_ptr", "a node has cuts or a category table only when it tests a feature")
    if np.any(n_cuts[continuous] != n_kids[continuous] - 1):
        raise bad("cuts", "a continuous test has one cut fewer than branches")
    # compared, not subtracted: CART's missing-value cut is +inf, and inf - inf would warn
    descending = tree.cuts[1:] < tree.cuts[:-1]
    if np.isnan(tree.cuts).any() or np.any(descending[np.diff(np.repeat(ids, n_cuts)) == 0]):
        raise bad("cuts", "cut points must be numbers, sorted within a node")
    for name in ("cut_below", "cut_above"):
        side = getattr(tree, name)
        if side is not None and side.shape != tree.cuts.shape:
            raise bad(name, "not one number per cut")
    if tree.cut_below is not None and tree.cut_above is not None:
        lo, hi, c = tree.cut_below, tree.cut_above, tree.cuts  # NaN compares False: refused
        ok = (lo <= c) & (lo < np.inf) & ((hi > c) | (hi == np.inf)) & (hi > -np.inf)
        if not np.all(ok):
            raise bad(
                "cut_below", "a cut's neighbours must be numbers with below ≤ cut < above (±Infinity: none)"
            )
    if np.any(n_cats < 0):
        raise bad("cat_size", "a category table's length below 0")
    cat_owner = np.repeat(ids, np.diff(tree.cat_ptr))
    if np.any(tree.cat_branch < 0) or np.any(tree.cat_branch >= n_kids[cat_owner]):
        raise bad("cat_branch", "a category's branch must be -1 or one of the node's branches")
    code = tree.cat_code.astype(np.int64)
    ascending = code[1:] > code[:-1]
    if (
        np.any(code < 0)
        or np.any(code >= n_cats[cat_owner])
        or not np.all(ascending | (np.diff(cat_owner) != 0))
    ):
        raise bad("cat_code", "category codes must lie in the node's table, ascending within a node")
    for name in ("value", "weighted_n", "impurity"):
        if not np.all(np.isfinite(getattr(tree, name))):
            raise bad(name, "holds a value that is not a finite number")
    if np.any(tree.weighted_n < 0):
        raise bad("weighted_n", "a weight below 0")
    if np.any(tree.n_samples < 0):
        raise bad("n_samples", "a row count below 0")
    if tree.n_classes:
        if tree.value.shape[1] != tree.n_classes:
            raise bad(
                "n_classes", f"{tree.n_classes} classes, but tree.value has {tree.value.shape[1]} columns"
            )
        if np.any(tree.value < 0):
            raise bad("value", "a class count below 0")


def check_growth(grown: Tree, order: np.ndarray, steps: list[PruneStep]) -> None:
    """ValueError unless ``order`` lists each test of ``grown`` once, parents first, and every
    step fits the tree as the earlier steps left it (a test of it; a raise: one of that test's
    branches there), by the replay's own rules (``growth_steps.PrunedShape``): the model file's
    ``growth`` entry before anything replays it."""
    tests = np.flatnonzero(~grown.is_leaf)
    if order.size != tests.size or not np.array_equal(np.sort(order), tests):
        raise ValueError("model growth.build_order: must list each test of the grown tree once")
    rank = np.full(grown.node_count, -1, dtype=np.int64)
    rank[order] = np.arange(order.size)
    par = grown.parent[order[1:]] if order.size else order
    if order.size and (order[0] != 0 or np.any(rank[par] >= np.arange(1, order.size))):
        raise ValueError("model growth.build_order: a node must come after its parent")
    n = grown.node_count
    width = grown.value.shape[1]
    shape = PrunedShape(grown)
    for s in steps:
        if not 0 <= s.node < n or grown.is_leaf[s.node]:
            raise ValueError("model growth.prune_steps: a step must name a test of the grown tree")
        if s.kind == "raise" and not 0 <= s.branch < n:
            raise ValueError("model growth.prune_steps: a raised branch must be a node of the grown tree")
        for r in s.refit or []:
            if not 0 <= r[0] < n or len(r[1]) != width:
                raise ValueError("model growth.prune_steps: a refit row names no node or has the wrong width")
        why = shape.apply(s)
        if why is not None:
            raise ValueError(f"model growth.prune_steps: {why}")
