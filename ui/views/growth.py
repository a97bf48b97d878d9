"""Step-through growth as DOT and captions (no Streamlit): the tree after step k with its newest
split (or the node a pruning step replaced) in bold, and what the step did, in words."""

from __future__ import annotations

from typing import Any

import numpy as np

from dtcore import export
from dtcore.analysis.growth_steps import StepTree
from dtcore.export.labels import impurity_name
from dtcore.numbers import fmt_score, fmt_score_fine
from dtcore.tree import Tree
from ui.services.growth import SplitInfo

from .text import Translate, md_escape
from .tree import auto_depth, dot_words, node_path


def step_dot(est: Any, st: StepTree, lang: str) -> str:
    """DOT of the tree after the step (node ids hidden: they are not the fitted tree's), folded
    by the Train page's rule (``auto_depth``, ui/views/tree.py); a step's node below the fold
    is drawn with its branches and the path down to it (each node on it with its branches, the
    ones off the path folded), not every level down to it: the newest split of a 1 300-node C4.5
    tree at depth 17 opened 1 100 boxes, a 3.5 MB SVG that ``dot`` took seconds to lay out
    (issue 26)."""
    tree = st.tree
    depth = auto_depth(tree)
    collapsed: list[int] = []
    if depth is not None and st.shown >= 0 and int(tree.depth[st.shown]) >= depth:
        collapsed = fold_off_path(tree, depth, st.shown)
        depth = None
    highlight = [st.shown] if st.shown >= 0 else []
    return export.to_dot(
        tree,
        est.schema_,
        max_depth=depth,
        collapsed=collapsed,
        highlight=highlight,
        words=dot_words(lang),
        tooltips=True,
        show_ids=False,
        graph_name="growth",
        criterion=impurity_name(est),
    )


def fold_off_path(tree: Tree, depth: int, node: int) -> list[int]:
    """The tests to fold for a picture of levels to ``depth`` that opens the path to ``node``
    and ``node`` itself: every test at ``depth`` or deeper except those on that path (the walk
    draws no node below a folded one, so the deeper ones off the path are never reached)."""
    opened = np.zeros(tree.node_count, dtype=bool)
    opened[tree.path_to(int(node))] = True
    return np.flatnonzero((tree.depth >= depth) & (tree.feature >= 0) & ~opened).tolist()


def _count(v: float) -> str:
    return f"{v:g}" if float(v).is_integer() else f"{v:.2f}"


def path_text(est: Any, node: int, root: str) -> str:
    """Branch conditions from the root to a node of the grown tree (thresholds as the tree
    prints them). ``est``: ``Any``, as its ``grown_tree_`` is not declared on BaseTreeEstimator."""
    return " → ".join(node_path(est, node, tree=est.grown_tree_)) or root


def split_caption(t: Translate, k: int, total: int, info: SplitInfo, path: str) -> str:
    """ "Split 3 of 5, at 纹理 = 清晰: tests 根蒂 (gain ratio 0.263); runner-up 脐部 (0.187);
    moves 9 rows into = 蜷缩: 5 · = 稍蜷: 3 · = 硬挺: 1"."""
    moved = " · ".join(
        f"{md_escape(lab)}: {_count(w)}" for lab, w in zip(info.branch_labels, info.branch_weights)
    )
    text = t(
        "growth.split",
        k=k,
        total=total,
        path=md_escape(path),
        feature=md_escape(info.feature),
        score_name=t("growth.score." + info.score_name),
        score=fmt_score_fine(info.score),
        moved=moved,
        rows=_count(sum(info.branch_weights)),
    )
    if info.runner_up is not None:
        text += " " + t(
            "growth.runner_up", feature=md_escape(info.runner_up), score=fmt_score_fine(info.runner_up_score)
        )
    return text


def prune_caption(t: Translate, j: int, total: int, st: StepTree, path: str) -> str:
    """Why pruning step j removed its subtree, with the numbers it compared."""
    p = st.prune
    assert p is not None
    n = {k: fmt_score(v) for k, v in p.numbers.items()}
    head = t("growth.prune_head", j=j, total=total, path=md_escape(path))
    if p.kind == "collapse":
        body = t("growth.prune.collapse", subtree=n["subtree_errors"], node=n["node_errors"])
    elif p.kind == "leaf":
        body = t(
            "growth.prune.leaf",
            leaf=n["leaf_estimate"],
            subtree=n["subtree_estimate"],
            branch=n.get("branch_estimate", "–"),
        )
    elif p.kind == "raise":
        body = t(
            "growth.prune.raise",
            branch=n["branch_estimate"],
            subtree=n["subtree_estimate"],
            leaf=n.get("leaf_estimate", "–"),
        )
    else:
        body = t(
            "growth.prune.ccp", alpha=f"{p.numbers['alpha']:.4g}", leaves=int(p.numbers["leaves_after"] or 0)
        )
    return head + " " + body
