"""The overview map of a whole tree: a Plotly icicle, legible at thousands of nodes.

Area = training weight, colour = majority class (its band of the colour scale, lighter the less
pure the node) or the mean for regression, hover = the node's test, samples and distribution.
Built from the tree's flat arrays at once: no per-node Python work beyond the id and label
strings Plotly needs (bench/bench_views.py times it).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dtcore import export
from dtcore.base import BaseTreeEstimator
from dtcore.schema import Schema
from dtcore.tree import Tree

from .style import base_layout, esc

#: levels the icicle shows at once (a click on a sector drills into it, as Plotly does)
MAX_DEPTH = 6
#: the most sectors sent to the browser: Plotly's icicle lays out every sector it is given (all
#: 31 449 nodes of a generated tree froze Chromium here for minutes). Page open to drawn icicle
#: for that tree, page start included: 3.9 s with 60 sectors, 4.0 s with 800, 5.5 s with 2 000.
#: Deeper levels are folded into their ancestors, except around the selected node
#: (:func:`overview_nodes`); the icicle shows :data:`MAX_DEPTH` levels at a time anyway.
NODE_LIMIT = 1000
#: lightest tint of a class colour (purity 0); full colour at purity 1
LIGHT = 0.25


def _tints(color: str, steps: int = 5) -> list[tuple[float, str]]:
    rgb = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)
    out = []
    for s in np.linspace(LIGHT, 1.0, steps):
        mixed = np.round(255 + (rgb - 255) * s).astype(int)
        out.append((float(s), "#" + "".join(f"{c:02x}" for c in mixed)))
    return out


def class_colorscale(colors: list[str]) -> list[list]:
    """Class k owns the band [k, k+1) / K of the scale, light to full colour."""
    k_n = len(colors)
    scale: list[list] = []
    for k, col in enumerate(colors):
        tints = _tints(col)
        lo, hi = k / k_n, (k + 1) / k_n
        for j, (_, hexcol) in enumerate(tints):
            pos = lo + (hi - lo) * j / (len(tints) - 1) * 0.999
            scale.append([pos, hexcol])
    scale[-1][0] = 1.0
    return scale


def node_color_values(tree: Tree) -> np.ndarray:
    """Per node, its position on :func:`class_colorscale`: class band plus purity within it."""
    k_n = tree.value.shape[1]
    tot = tree.value.sum(axis=1)
    k = np.argmax(tree.value, axis=1)
    p = np.where(tot > 0, tree.value.max(axis=1) / np.where(tot > 0, tot, 1.0), 1.0 / k_n)
    purity = np.clip((p - 1.0 / k_n) / (1.0 - 1.0 / k_n), 0.0, 1.0) if k_n > 1 else np.ones_like(p)
    return (k + purity * 0.999) / k_n


def node_tests(tree: Tree, schema: Schema) -> np.ndarray:
    """The test each node asks, as short text: ``x ≤ 0.5`` for one continuous cut, the feature
    name for other tests, "" at leaves (vectorised over nodes)."""
    names = np.array([esc(f.name) for f in schema.features] + [""], dtype=object)
    feat = np.where(tree.feature >= 0, tree.feature, len(names) - 1)
    out = names[feat]
    one_cut = (np.diff(tree.cut_ptr) == 1) & (tree.feature >= 0)
    if one_cut.any():
        cuts = tree.cuts[tree.cut_ptr[:-1][one_cut]]
        out[one_cut] = out[one_cut] + " ≤ " + np.char.mod("%.4g", cuts).astype(object)
    return out


def overview_nodes(tree: Tree, selected: int | None = None, limit: int = NODE_LIMIT) -> np.ndarray:
    """The nodes the icicle draws (ascending ids): the :data:`MAX_DEPTH` levels it shows from
    the root, fewer where more would pass ``limit``, plus, around the selected node, the path
    to the icicle's starting sector with the siblings along it and that sector's subtree for
    the :data:`MAX_DEPTH` levels shown from it. Plotly lays out and puts in the page every
    sector it is given, shown or not (all 615 of diabetes' CART tree for 63 seen): the levels
    below those it can show were most of the Train page's browser CPU on each rerun (issue 26).
    A drawn node has all its children drawn or none, so areas stay true."""
    n = tree.node_count
    per_level = np.bincount(tree.depth, minlength=int(tree.depth.max()) + 1)
    within = np.cumsum(per_level) <= limit
    cutoff = int(np.flatnonzero(within)[-1]) if within.any() else 0
    keep = tree.depth <= min(cutoff, MAX_DEPTH - 1)
    start = _start_level(tree, selected)
    if start is not None:
        s = int(start)
        for p in tree.path_to(s)[:-1]:
            keep[tree.children_of(p)] = True
        sub = tree.subtree(s)
        keep[sub[tree.depth[sub] <= tree.depth[s] + MAX_DEPTH - 1]] = True
    keep[0] = n > 0
    return np.flatnonzero(keep)


def _start_level(tree: Tree, selected: int | None, up: int = 3) -> str | None:
    """The sector the icicle opens at: ``up`` levels above the selected node (None: the root)."""
    if selected is None or not 0 <= int(selected) < tree.node_count:
        return None
    path = tree.path_to(int(selected))
    start = path[max(len(path) - 1 - up, 0)]
    return None if start == 0 else str(start)


def overview_figure(
    est: BaseTreeEstimator, *, selected: int | None = None, texts: dict, height: int = 420
) -> go.Figure:
    """The icicle of ``est``'s tree; ``customdata[0]`` = node id (a click focuses that node).
    ``texts``: "samples", "node", "leaf" words (the UI language)."""
    tree, schema = est.tree_, est.schema_
    nodes = overview_nodes(tree, selected)
    n = nodes.size
    ids = nodes.astype(str)
    parents = np.where(tree.parent[nodes] >= 0, tree.parent[nodes], 0).astype(str).astype(object)
    parents[0] = ""
    drawn = np.zeros(tree.node_count, dtype=bool)
    drawn[nodes] = True
    has_drawn_child = np.zeros(tree.node_count, dtype=bool)
    has_drawn_child[tree.parent[nodes[1:]]] = True
    # a sector's own area: a drawn node without drawn children holds its whole weight
    own = np.where(has_drawn_child[nodes], 0.0, tree.weighted_n[nodes])
    value = tree.value[nodes]
    classes = schema.classes
    tests = node_tests(tree, schema)[nodes]
    if classes is not None:
        colors = export.class_palette(classes)
        cnames = np.array([esc(c) for c in classes], dtype=object)
        leaf_text = cnames[np.argmax(value, axis=1)]
        marker = dict(
            colors=node_color_values(tree)[nodes], colorscale=class_colorscale(colors), cmin=0.0, cmax=1.0
        )
        dist = "<br>".join(f"{cnames[k]}: %{{customdata[{k + 2}]:.4g}}" for k in range(len(classes)))
        extra = value
    else:
        leaf_text = np.char.mod("%.4g", value[:, 0]).astype(object)
        # the whole tree's range, not that of the sectors sent: a value keeps its colour
        marker = dict(
            colors=value[:, 0],
            colorscale="Oranges",
            showscale=False,
            cmin=float(tree.value[:, 0].min()),
            cmax=float(tree.value[:, 0].max()),
        )
        dist = f"{esc(texts.get('mean', 'mean'))}: %{{customdata[2]:.4g}}"
        extra = value[:, :1]
    labels = np.where(tree.feature[nodes] >= 0, tests, leaf_text)
    # the selected node framed in dark grey; the others with white hairlines between sectors
    width = np.full(n, 0.5)
    line = np.full(n, "#ffffff", dtype=object)
    if selected is not None and 0 <= int(selected) < tree.node_count and drawn[int(selected)]:
        at = int(np.searchsorted(nodes, int(selected)))
        width[at], line[at] = 3.0, "#111111"
    marker["line"] = dict(width=width, color=line)
    custom = np.column_stack([nodes, tree.weighted_n[nodes], extra])
    hover = (
        f"#%{{customdata[0]}} · %{{label}}<br>{esc(texts['samples'])}: %{{customdata[1]:.4g}}<br>"
        + dist
        + "<extra></extra>"
    )
    fig = go.Figure(
        go.Icicle(
            ids=ids,
            parents=parents,
            values=own,
            labels=labels,
            branchvalues="remainder",  # a node's area is its leaves' weight: no rounding clash
            customdata=custom,
            hovertemplate=hover,
            marker=marker,
            maxdepth=MAX_DEPTH,
            tiling=dict(orientation="v"),
            sort=False,
            pathbar=dict(visible=True, thickness=18),
            level=_start_level(tree, selected),
        )
    )
    return base_layout(fig, height, top=10)
