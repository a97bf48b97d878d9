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

from .style import base_layout, esc

#: levels the icicle shows at once (a click on a sector drills into it, as Plotly does)
MAX_DEPTH = 6
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


def node_color_values(tree) -> np.ndarray:
    """Per node, its position on :func:`class_colorscale`: class band plus purity within it."""
    k_n = tree.value.shape[1]
    tot = tree.value.sum(axis=1)
    k = np.argmax(tree.value, axis=1)
    p = np.where(tot > 0, tree.value.max(axis=1) / np.where(tot > 0, tot, 1.0), 1.0 / k_n)
    purity = np.clip((p - 1.0 / k_n) / (1.0 - 1.0 / k_n), 0.0, 1.0) if k_n > 1 else np.ones_like(p)
    return (k + purity * 0.999) / k_n


def node_tests(tree, schema) -> np.ndarray:
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


def _start_level(tree, selected: int | None, up: int = 3) -> str | None:
    """The sector the icicle opens at: ``up`` levels above the selected node (None: the root)."""
    if selected is None or not 0 <= int(selected) < tree.node_count:
        return None
    path = tree.path_to(int(selected))
    start = path[max(len(path) - 1 - up, 0)]
    return None if start == 0 else str(start)


def overview_figure(est, *, selected: int | None = None, texts: dict, height: int = 420) -> go.Figure:
    """The icicle of ``est``'s tree; ``customdata[0]`` = node id (a click focuses that node).
    ``texts``: "samples", "node", "leaf" words (the UI language)."""
    tree, schema = est.tree_, est.schema_
    n = tree.node_count
    ids = np.arange(n).astype(str)
    parents = np.where(tree.parent >= 0, tree.parent, 0).astype(str).astype(object)
    parents[0] = ""
    classes = schema.classes
    tests = node_tests(tree, schema)
    if classes is not None:
        colors = export.class_palette(classes)
        cnames = np.array([esc(c) for c in classes], dtype=object)
        leaf_text = cnames[np.argmax(tree.value, axis=1)]
        marker = dict(colors=node_color_values(tree), colorscale=class_colorscale(colors), cmin=0.0, cmax=1.0)
        dist = "<br>".join(f"{cnames[k]}: %{{customdata[{k + 2}]:.4g}}" for k in range(len(classes)))
        extra = tree.value
    else:
        leaf_text = np.char.mod("%.4g", tree.value[:, 0]).astype(object)
        marker = dict(colors=tree.value[:, 0], colorscale="Oranges", showscale=False)
        dist = f"{esc(texts.get('mean', 'mean'))}: %{{customdata[2]:.4g}}"
        extra = tree.value[:, :1]
    labels = np.where(tree.feature >= 0, tests, leaf_text)
    # the selected node framed in dark grey; the others with white hairlines between sectors
    width = np.full(n, 0.5)
    line = np.full(n, "#ffffff", dtype=object)
    if selected is not None and 0 <= int(selected) < n:
        width[int(selected)], line[int(selected)] = 3.0, "#111111"
    marker["line"] = dict(width=width, color=line)
    custom = np.column_stack([np.arange(n), tree.weighted_n, extra])
    hover = (
        f"#%{{customdata[0]}} · %{{label}}<br>{esc(texts['samples'])}: %{{customdata[1]:.4g}}<br>"
        + dist
        + "<extra></extra>"
    )
    fig = go.Figure(
        go.Icicle(
            ids=ids,
            parents=parents,
            values=np.where(tree.feature < 0, tree.weighted_n, 0.0),
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
