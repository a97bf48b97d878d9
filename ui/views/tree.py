"""How the pages show a tree: which levels, which node is selected, how nodes are named.

The DOT itself comes from ``dtcore.export.to_dot`` (one renderer for app, CLI and files); this
module only decides its options and writes the short node names used in selectors and paths.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from dtcore import export
from dtcore.base import BaseTreeEstimator
from dtcore.export.node_charts import NodeCharts
from dtcore.tree import Tree
from ui import i18n

from .text import Translate

#: The fold rule (its one home: Train, Pruning, Compare, Growth and Splits all fold by it): a tree
#: opens whole unless it has more boxes than this in all, or in one row. Pictures open fitted to
#: their frame's width with node text at least ``ui.views.picture_scale.MIN_TEXT_PX`` and scroll
#: beyond (issue 27): 63 boxes (a full binary tree of depth 5; breast cancer's 35-node CART tree
#: of depth 5) stay readable at 1400 px, 16 side by side fold (drawn left to right they are a
#: column of 16 boxes, about 1 200 px at 10 px text).
COMFORTABLE_NODES = 63
COMFORTABLE_ROW = 16


def auto_depth(tree: Tree, budget: int = COMFORTABLE_NODES, row: int = COMFORTABLE_ROW) -> int | None:
    """None (show all) when the whole tree fits the budgets, else the deepest level D such that
    the boxes drawn (nodes to depth D plus one summary box per folded subtree) fit them; 0 (the
    root and one summary box) when even the first level is too wide (ID3 on many distinct values)."""
    per_level = np.bincount(tree.depth, minlength=tree.get_depth() + 1)
    if tree.node_count <= budget and per_level.max() <= row:
        return None
    inner = np.bincount(tree.depth[tree.feature >= 0], minlength=per_level.size)
    best = 0
    for d in range(1, per_level.size):  # a loop over levels (a handful)
        widest = max(int(per_level[: d + 1].max()), int(inner[d]))
        total = int(per_level[: d + 1].sum() + inner[d])
        if widest > row or total > budget:
            break
        best = d
    return best


def widest_row(tree: Tree, depth: int | None) -> int:
    """Most boxes drawn side by side in one row when showing levels up to ``depth``."""
    per_level = np.bincount(tree.depth, minlength=tree.get_depth() + 1)
    if depth is None:
        return int(per_level.max())
    inner = int(((tree.depth == depth) & (tree.feature >= 0)).sum())
    return max(int(per_level[: depth + 1].max()), inner)


#: the layout rule's limits: more boxes side by side than WIDE_ROW, or more levels than DEEP
#: with rows at most NARROW_ROW wide, and the tree is drawn left to right
WIDE_ROW = 5
DEEP = 6
NARROW_ROW = 2


def layout_rule(levels: int, widest: int) -> str:
    """The one rule for the automatic layout: left-to-right when rows get wide (labels stay
    readable and the page grows downwards instead of shrinking the picture) or when a deep
    narrow tree would be a tall thin column; top-down otherwise."""
    if widest > WIDE_ROW or (levels > DEEP and widest <= NARROW_ROW):
        return "LR"
    return "TB"


def auto_rankdir(tree: Tree, depth: int | None, row: int = WIDE_ROW) -> str:
    """:func:`layout_rule` for the whole tree shown to ``depth`` (None: all levels)."""
    levels = (tree.get_depth() if depth is None else min(depth, tree.get_depth())) + 1
    widest = widest_row(tree, depth)
    if widest > row:
        return "LR"
    return layout_rule(levels, widest)


def incoming_condition(
    est: BaseTreeEstimator, node: int, precision: int = 3, tree: Tree | None = None
) -> str | None:
    """``纹理 = 清晰`` for the branch that leads into ``node`` (None at the root) of ``tree``
    (default: the model's own)."""
    tree = est.tree_ if tree is None else tree
    schema = est.schema_
    parent = int(tree.parent[node])
    if parent < 0:
        return None
    name = schema.features[int(tree.feature[parent])].name
    for b in export.branches(tree, schema, parent, precision):
        if b.child == node:
            return f"{name} {export.condition_text(b)}"
    return name


def node_path(est: BaseTreeEstimator, node: int, tree: Tree | None = None) -> list[str]:
    """Branch conditions from the root down to ``node`` of ``tree`` (default: the model's own)."""
    tree = est.tree_ if tree is None else tree
    out = []
    i = int(node)
    while tree.parent[i] >= 0:
        cond = incoming_condition(est, i, tree=tree)
        if cond is not None:  # None only at the root, which the loop never reaches
            out.append(cond)
        i = int(tree.parent[i])
    return out[::-1]


def node_label(est: BaseTreeEstimator, node: int, root_text: str) -> str:
    cond = incoming_condition(est, node)
    return f"#{node} · {cond if cond is not None else root_text}"


def internal_nodes(est: BaseTreeEstimator) -> list[int]:
    return [int(i) for i in np.nonzero(est.tree_.feature >= 0)[0]]


def dot_words(lang: str) -> dict[str, str]:
    """The picture's own words (samples, class, …) in the UI language."""
    return {key: i18n.translate(f"dot.{key}", lang) for key in export.DOT_WORDS}


def download_words(lang: str) -> dict[str, str] | None:
    """The words of a downloaded picture in the UI language; None where they are dtcore's own
    (English), so that such a download is byte for byte what ``dtcore export`` writes (words
    passed in are escaped: "parent's" would be written "parent&#39;s")."""
    words = dot_words(lang)
    return None if words == export.DOT_WORDS else words


def tree_dot(
    est: BaseTreeEstimator,
    depth: int | None,
    collapsed: Iterable[int] = (),
    selected: int | None = None,
    rankdir: str = "TB",
    lang: str = i18n.DEFAULT_LANG,
    forced: Iterable[int] = (),
    charts: NodeCharts | None = None,
) -> str:
    """The DOT the page shows: levels up to ``depth``, ``collapsed`` folded, ``selected`` and
    ``forced`` (nodes whose test the user forced on the Splits page) bold, ``charts``
    (``dtcore.export.node_charts`` of the training rows) drawn inside the boxes."""
    n = est.tree_.node_count
    collapsed = [int(i) for i in collapsed if 0 <= int(i) < n]
    highlight = [int(selected)] if selected is not None and 0 <= int(selected) < n else []
    highlight += [int(i) for i in forced if 0 <= int(i) < n and int(i) not in highlight]
    if highlight[:1] and depth is not None and est.tree_.depth[highlight[0]] > depth:
        # the selected node sits inside a folded subtree: unfold its path
        collapsed = sorted(set(collapsed) | set(fold_frontier(est.tree_, depth, highlight[0])))
        depth = None
    return export.to_dot(
        est,
        max_depth=depth,
        collapsed=collapsed,
        highlight=highlight,
        rankdir=rankdir,
        words=dot_words(lang),
        tooltips=True,
        charts=charts,
    )


def fold_frontier(tree: Tree, depth: int, selected: int) -> list[int]:
    """The nodes to fold so that levels up to ``depth`` show, plus the path to ``selected``
    (unfolded, its siblings on the way folded): what ``max_depth=depth`` folds, less the path."""
    path = tree.path_to(int(selected))
    on_path = np.zeros(tree.node_count, dtype=bool)
    on_path[path] = True
    internal = tree.feature >= 0
    frontier = internal & (tree.depth == depth) & ~on_path
    deep_path = [p for p in path if tree.depth[p] >= depth and internal[p]]
    kids = np.concatenate([tree.children_of(p) for p in deep_path]) if deep_path else np.zeros(0, int)
    kids = kids[internal[kids] & ~on_path[kids]]
    return sorted(set(np.flatnonzero(frontier).tolist()) | set(kids.tolist()))


#: what ``dtcore.export.dot`` writes after the values routed down an edge besides its own test
#: (missing values, categories unseen at the node): the page explains the notation when present
ROUTED_MARK = " →</I>"


def level_label(value: object, auto: int | None, t: Translate) -> str:
    """A "levels shown" option as text: "auto (…)", "all" or the number. ``t``: translation."""
    if value == "auto":
        return t("tree.depth_auto", depth=auto) if auto is not None else t("tree.depth_auto_all")
    return t("tree.depth_all") if value == "all" else str(value)


def node_colors(est: BaseTreeEstimator) -> list[str]:
    """Each node's colour: its predicted class's in the export palette (one colour for regression)."""
    tree = est.tree_
    if est.schema_.classes is None:
        return [export.REGRESSION_COLOR] * tree.node_count
    return [export.PALETTE[k % len(export.PALETTE)] for k in export.node_prediction_indices(tree).tolist()]


def node_short_label(est: BaseTreeEstimator, i: int) -> str:
    """A node in a word: its feature, else its predicted class or value."""
    tree, s = est.tree_, est.schema_
    if tree.feature[i] >= 0:
        return s.features[int(tree.feature[i])].name
    if s.classes is not None:
        return str(s.classes[export.node_prediction_index(tree, i)])
    return f"{tree.value[i, 0]:.3g}"
