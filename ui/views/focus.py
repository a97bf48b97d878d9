"""The focused view of a big tree: the focused node's ancestors as a compact breadcrumb, its
subtree to a depth window, deeper subtrees folded into one box saying what they hold.

The budgets that keep the browser responsive live here too (one home): how many nodes the
browser may lay out itself, and above how many nodes the node selectors give way to search.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from dtcore import export
from dtcore.base import BaseTreeEstimator
from dtcore.tree import Tree
from ui import i18n

from . import tree as treeview

#: The most nodes a whole-tree picture may have for the browser to lay it out itself
#: (``st.graphviz_chart``: Graphviz compiled to WebAssembly, then the SVG in the page).
#: Measured with bench/bench_browser_budget.py on this machine (2 cores shared with other jobs,
#: headless Chromium; CART trees, every level shown), from the chart element's appearance to the
#: SVG holding every node: 127 nodes 0.50 s, 255 nodes 0.78-1.23 s, 299-359 nodes 1.1-1.4 s,
#: 399 nodes 1.65 s, 799 nodes 1.9 s, 1 199 nodes 3.5 s (from navigation, less a 15-node page's
#: time: 255 nodes +1.0 s, 399 +1.2 s). About 250 nodes take a second. Above this the page
#: draws the picture server-side with the real ``dot`` (cached per model and view) in the
#: pan/zoom frame, or refuses (:data:`SERVER_NODE_LIMIT`). Since issue 26 the server's ``dot``
#: lays out the pictures within it too (fitted to the column, no pan/zoom): the budget now
#: bounds what the browser lays out on a server without ``dot`` and where the caption says so.
BROWSER_NODE_BUDGET = 250
#: The most nodes the server draws with ``dot`` as one picture: ``dot -Tsvg`` took 0.46 s for
#: 633 nodes, 3.4 s for 1 729 (a 4.9 MB SVG) and 12 s for 4 183 on this machine. Above it the
#: whole-tree picture is refused (the overview map and the focused view remain, and downloads).
SERVER_NODE_LIMIT = 2000
#: Above this many nodes the node selectors give way to search (ui/services/find.py): filling a
#: selector with tens of thousands of labels costs seconds per rerun (issue 15).
SELECTOR_LIMIT = 300
#: Levels below the focused node shown by default.
DEFAULT_WINDOW = 3
#: The most levels of breadcrumb drawn above the focused node (the rest is one "…" box).
CRUMBS_SHOWN = 6


def is_big(tree: Tree) -> bool:
    """A tree whose node selectors give way to search and whose picture starts focused."""
    return int(tree.node_count) > SELECTOR_LIMIT


def whole_tree_allowed(tree: Tree, depth: int | None) -> bool:
    """Whether the browser may lay out the picture of levels up to ``depth`` (None: all)."""
    return shown_nodes(tree, depth) <= BROWSER_NODE_BUDGET


def whole_tree_mode(tree: Tree, depth: int | None = None) -> str:
    """How a picture of levels up to ``depth`` is drawn: "browser" (fitted to the column; by the
    browser's own Graphviz only when the server has no ``dot``), "server" (``dot`` to SVG in the
    pan/zoom frame) or "refuse"."""
    n = shown_nodes(tree, depth)
    if n <= BROWSER_NODE_BUDGET:
        return "browser"
    return "server" if n <= SERVER_NODE_LIMIT else "refuse"


def shown_nodes(tree: Tree, depth: int | None) -> int:
    """Boxes drawn for levels up to ``depth``: the nodes there plus one summary box per folded
    subtree (None: every node)."""
    if depth is None:
        return int(tree.node_count)
    inner_at = int(((tree.depth == depth) & (tree.feature >= 0)).sum())
    return int((tree.depth <= depth).sum()) + inner_at


#: what a click in the pan/zoom frame names: a node, a breadcrumb, a summary box, a candidate of
#: the Splits page's score curve (``ui.figures.split_curve``)
CLICK_KINDS = ("node", "crumb", "more", "pick")


def frame_click(value: object) -> tuple[str, int] | None:
    """A click event of the frame, ``"node:12"``, as (kind, node id); None for anything else."""
    kind, sep, num = str(value or "").partition(":")
    if not sep or kind not in CLICK_KINDS or not num.isdigit():
        return None
    return kind, int(num)


def nearby_nodes(tree: Tree, node: int | None) -> list[int]:
    """What a node selector of a big tree lists: the path to ``node``, its children and its
    siblings (the picture's clicks and the search reach the rest); every node for a small tree."""
    if not is_big(tree):
        return list(range(int(tree.node_count)))
    node = int(node) if node is not None and 0 <= int(node) < tree.node_count else 0
    near = set(tree.path_to(node)) | set(tree.children_of(node).tolist())
    if tree.parent[node] >= 0:
        near |= set(tree.children_of(int(tree.parent[node])).tolist())
    return sorted(int(i) for i in near)


@dataclass(frozen=True)
class Window:
    """What the focused view draws: levels ``tree.depth[root]`` to ``last`` below ``root``, and
    the nodes ``unfolded`` past that (the path to a selected deep node, boxes clicked open)."""

    root: int
    last: int
    unfolded: frozenset[int]


def window(
    tree: Tree,
    root: int,
    levels: int = DEFAULT_WINDOW,
    selected: int | None = None,
    opened: Iterable[int] = (),
) -> Window:
    """The focused view at ``root`` showing ``levels`` levels; a ``selected`` node below the
    window has its path unfolded, as have the ``opened`` (clicked) summary boxes."""
    root = int(root) if 0 <= int(root) < tree.node_count else 0
    last = int(tree.depth[root]) + max(int(levels), 0)
    unfolded = {int(i) for i in opened if 0 <= int(i) < tree.node_count}
    if selected is not None and 0 <= int(selected) < tree.node_count:
        path = tree.path_to(int(selected))
        if root in path:
            unfolded |= {i for i in path[path.index(root) :] if tree.depth[i] >= last}
    return Window(root, last, frozenset(unfolded))


def window_nodes(tree: Tree, w: Window) -> np.ndarray:
    """Ids of the nodes the window draws as boxes of their own (pre-order)."""
    sub = tree.subtree(w.root)
    inside = tree.depth[sub] <= w.last
    if w.unfolded:
        # a node past the window is drawn when its parent is drawn and unfolded
        opened = np.zeros(tree.node_count, dtype=bool)
        opened[list(w.unfolded)] = True
        drawn = np.zeros(tree.node_count, dtype=bool)
        drawn[sub[inside]] = True
        for d in range(w.last + 1, int(tree.depth[sub].max()) + 1):  # a loop over levels
            at = sub[tree.depth[sub] == d]
            par = tree.parent[at]
            drawn[at] = drawn[par] & (opened[par] | (tree.depth[par] < w.last))
        return sub[drawn[sub]]
    return sub[inside]


def levels_and_widest(tree: Tree, w: Window) -> tuple[int, int]:
    """(levels drawn, most boxes side by side) of a window, summary boxes included."""
    nodes = window_nodes(tree, w)
    d = tree.depth[nodes] - tree.depth[w.root]
    per = np.bincount(d)
    folded = nodes[(tree.feature[nodes] >= 0) & ~_open(tree, nodes, w)]
    if folded.size:
        more = np.bincount(tree.depth[folded] - tree.depth[w.root] + 1, minlength=per.size + 1)
        per = np.pad(per, (0, more.size - per.size)) + more
    return int(per.size), int(per.max())


def _open(tree: Tree, nodes: np.ndarray, w: Window) -> np.ndarray:
    """Whether each (drawn, internal) node shows its children rather than a summary box."""
    return (tree.depth[nodes] < w.last) | np.isin(nodes, list(w.unfolded))


def focus_dot(
    est: BaseTreeEstimator,
    w: Window,
    *,
    selected: int | None = None,
    forced: Iterable[int] = (),
    rankdir: str | None = None,
    lang: str = i18n.DEFAULT_LANG,
) -> str:
    """DOT of the focused view: breadcrumb boxes (``dtcrumb{i}``, one per ancestor, the edge
    into the next saying the branch taken), then the window's subtree with ids ``dtnode{i}`` and
    summary boxes ``dtmore{i}`` that name the classes they hold. ``rankdir`` None: the layout
    rule of ``ui.views.tree.layout_rule``."""
    tree = est.tree_
    n = tree.node_count
    if rankdir is None:
        rankdir = treeview.layout_rule(*levels_and_widest(tree, w))
    nodes = window_nodes(tree, w)
    drawn_internal = nodes[tree.feature[nodes] >= 0]
    collapsed = drawn_internal[~_open(tree, drawn_internal, w)]
    highlight = [int(selected)] if selected is not None and 0 <= int(selected) < n else []
    highlight += [int(i) for i in forced if 0 <= int(i) < n and int(i) not in highlight]
    dot = export.to_dot(
        est,
        root=w.root,
        collapsed=collapsed.tolist(),
        highlight=highlight,
        rankdir=rankdir,
        words=treeview.dot_words(lang),
        tooltips=True,
        fold_detail=True,
    )
    crumbs = breadcrumb_lines(est, w.root)
    if not crumbs:
        return dot
    body = dot.rstrip().removesuffix("}")
    return body + "\n".join(crumbs) + "\n}\n"


def breadcrumb_lines(est: BaseTreeEstimator, root: int) -> list[str]:
    """DOT lines of the ancestors of ``root``: small boxes ``#i feature``, edges labelled with
    the branch taken; beyond :data:`CRUMBS_SHOWN` levels the top ones become one "#0 ⋯ (k)" box
    (a click on it goes back to the root)."""
    tree, schema = est.tree_, est.schema_
    path = tree.path_to(int(root))
    if len(path) <= 1:
        return []
    ancestors = path[:-1]
    hidden = ancestors[:-CRUMBS_SHOWN] if len(ancestors) > CRUMBS_SHOWN else []
    shown = ancestors[len(hidden) :]
    style = 'shape=box, style="rounded,filled", fillcolor="#f3f3f3", color="#999999", fontsize=9'
    lines = []
    if hidden:
        # the levels above, in one box that leads back to the root
        label = f'<FONT POINT-SIZE="8" COLOR="#555555">#{hidden[0]}</FONT> ⋯ ({len(hidden)})'
        lines.append(f'crumb_top [id="dtcrumb{hidden[0]}", {style}, label=<{label}>];')
        lines.append(f"crumb_top -> crumb{shown[0]} [style=dotted, arrowhead=none];")
    for a, b in zip(shown, shown[1:] + [int(root)]):
        name = schema.features[int(tree.feature[a])].name
        label = f'<FONT POINT-SIZE="8" COLOR="#555555">#{a}</FONT> {export.html_escape(name)}'
        lines.append(f'crumb{a} [id="dtcrumb{a}", {style}, label=<{label}>];')
        cond = treeview.incoming_condition(est, b) or ""
        cond = export.html_escape(cond.removeprefix(name).strip())
        target = f"node{b}" if b == int(root) else f"crumb{b}"
        lines.append(f'crumb{a} -> {target} [id="dtcrumbedge{a}", style=dotted, fontsize=9, label=<{cond}>];')
    same = ["crumb_top"] * bool(hidden) + [f"crumb{a}" for a in shown]
    lines.append("{rank=same; " + "; ".join(same) + ";}")  # one compact row (column in LR)
    return lines
