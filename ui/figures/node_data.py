"""A node's data as dtreeviz shows it: the node's split feature over its training rows, by class,
with the threshold marked (stacked bars per category for a categorical test; for regression the
target against the feature with each child's mean), and the class counts of each child.

The rows and their (C4.5-fractional) weights are ``dtcore.explain``'s ``NodeData`` (``Tree.reach``);
the histogram is the split explorer's ``class_histogram`` and the bars ``static_charts.children_svg``,
so the Splits page and these charts agree. All of them static SVG from the server.
"""

from __future__ import annotations

import numpy as np

from dtcore.explain import NodeData
from dtcore.export import PALETTE, branches, condition_text
from dtcore.export.thresholds import node_thresholds
from dtcore.schema import Schema
from dtcore.tree import Tree
from ui.views.text import html_text as x

from .regression import MAX_POINTS, boxes_svg, scatter_svg
from .splits import Histogram, class_histogram
from .static_charts import (
    children_svg,
    legend_rows,
    n,
    padded_range,
    threshold_mark,
    x_ticks,
    y_plot,
)
from .style import plain

#: px: the section's wider column (3 of 5) at 1 400 px; the chart shrinks with it
WIDTH = 640


def node_feature_svg(nd: NodeData, *, texts: dict) -> str:
    """The split feature of ``nd.node`` over the node's rows, as static SVG (nothing in it is
    clicked; Plotly drew it before, the one chart of the Train page that still loaded Plotly;
    issue 26). ``nd``: ``explain.NodeData`` of a test node; ``texts``: translated ``count``,
    ``threshold``, ``mean``, ``value``, ``missing`` (and the box tooltips' ``rows``, ``median``,
    ``quartiles``, ``whiskers``). A categorical test: class counts per category (the children
    chart) or, for regression, a box of the target per category; a continuous one: the class
    histogram (regression: the rows as points and each child's mean) with the threshold dashed."""
    tree, schema = nd.tree, nd.schema
    i = nd.node
    j = int(tree.feature[i])
    feat = schema.features[j]
    x_values = nd.X[:, j]
    classes = schema.classes
    if feat.is_categorical:
        codes = np.where(np.isnan(x_values), len(feat.categories), x_values).astype(np.int64)
        labels = [*feat.categories, texts["missing"]]
        if classes is not None:
            counts = np.zeros((len(labels), len(classes)))
            np.add.at(counts, (codes, nd.y.astype(np.int64)), nd.w)
            shown = counts.sum(axis=1) > 0
            names = [f"{feat.name} = {lab}" for lab, keep in zip(labels, shown) if keep]
            return children_svg(names, counts[shown], list(classes), texts["count"], label_max=280)
        groups = [(labels[c], nd.y[codes == c], None) for c in range(len(labels)) if (codes == c).any()]
        return boxes_svg(groups, schema.target, feat.name, texts, width=WIDTH)
    cuts = [float(c) for c in tree.cuts_of(i) if np.isfinite(c)]
    marks = [(c, f"{texts['threshold']} {shown}") for c, shown in zip(cuts, node_thresholds(tree, i, 4))]
    if classes is not None:
        hist = class_histogram(x_values, nd.y, nd.w, len(classes))
        return histogram_svg(hist, list(classes), feat.name, texts["count"], marks)
    known = ~np.isnan(x_values)
    lo, hi = (float(np.nanmin(x_values)), float(np.nanmax(x_values))) if known.any() else (0.0, 1.0)
    edges = [lo, *cuts, hi]
    means = [
        (edges[k], edges[k + 1], mean, f"#{int(child)} {texts['mean']} {plain(mean)}")
        for k, child in enumerate(tree.children_of(i))
        if k + 1 < len(edges)
        for mean in [float(tree.value[child, 0])]
    ]
    return scatter_svg(
        x_values[known], nd.y[known], feat.name, schema.target, marks=marks, segments=means, width=WIDTH
    )


def points_thinned(nd: NodeData) -> int | None:
    """The rows ``node_feature_svg`` draws as points when it shows only ``MAX_POINTS`` of them (a
    regression tree's continuous test on more rows), else None: the caption says so."""
    j = int(nd.tree.feature[nd.node])
    if nd.schema.classes is not None or nd.schema.features[j].is_categorical:
        return None
    rows = int(np.count_nonzero(~np.isnan(nd.X[:, j])))
    return rows if rows > MAX_POINTS else None


def node_children_svg(tree: Tree, schema: Schema, node: int, *, texts: dict, precision: int = 4) -> str:
    """The class counts (regression: weight, with the mean in the label) of each child, as the
    Splits page's static children chart (``static_charts.children_svg``)."""
    bs = branches(tree, schema, node, precision)
    name = schema.features[int(tree.feature[node])].name
    labels = [f"#{b.child} {name} {condition_text(b)}" for b in bs]
    kids = [b.child for b in bs]
    if schema.classes is not None:
        values = tree.value[kids]
    else:
        values = tree.weighted_n[kids][:, None]
        labels = [f"{lab} ({texts['mean']} {plain(tree.value[k, 0])})" for lab, k in zip(labels, kids)]
    return children_svg(labels, values, schema.classes, texts["count"])


def histogram_svg(
    hist: Histogram,
    classes: list[str],
    x_title: str,
    y_title: str,
    marks: list[tuple[float, str]],
) -> str:
    """``class_histogram``'s bars stacked by class (a legend of the classes above), ``marks``
    (threshold, label) dashed; each bar's tooltip its class, its value (a bar per distinct
    value) or its bin's range, and its weight."""
    centres, widths, counts = hist.centres, hist.widths, hist.counts
    rows = legend_rows(classes, WIDTH - 60)
    stacks = counts.sum(axis=0) if counts.size else np.zeros(1)
    x_lo, x_hi = padded_range([centres - widths / 2, centres + widths / 2, np.array([m[0] for m in marks])])
    legend_h = 20 * len(rows)
    out, left, right, top, bottom, py = y_plot(
        WIDTH,
        360 + legend_h,
        0.0,
        max(float(stacks.max()), 1e-9) * 1.12,
        y_title,
        x_title,
        x_title,
        top=16.0 + legend_h,
    )

    def px(v: float) -> float:
        return left + (float(v) - x_lo) / (x_hi - x_lo) * (right - left)

    base = np.zeros(centres.size)
    for k, name in enumerate(classes):
        color = PALETTE[k % len(PALETTE)]
        for c, w, v, b0 in zip(centres.tolist(), widths.tolist(), counts[k].tolist(), base.tolist()):
            if v <= 0:
                continue
            x0, x1 = px(c - w / 2), px(c + w / 2)
            where = f"= {plain(c)}" if hist.by_value else f"{plain(c - w / 2)} … {plain(c + w / 2)}"
            out.append(
                f'<rect x="{n(x0)}" y="{n(py(b0 + v))}" width="{n(max(x1 - x0, 0.5))}" height="{n(py(b0) - py(b0 + v))}"'
                f' fill="{color}"><title>{x(name)} · {x(x_title)} {x(where)}: {x(plain(v))}</title></rect>'
            )
        base = base + counts[k]
    out += x_ticks(px, x_lo, x_hi, bottom)
    for mx, label in marks:
        out += threshold_mark(px(mx), top, bottom, label)
    for r, row in enumerate(rows):  # the legend, above the plot
        for k, lx in row:
            ly = 6 + 20 * r
            sx = left + lx
            out.append(
                f'<rect x="{n(sx)}" y="{n(ly)}" width="11" height="11" fill="{PALETTE[k % len(PALETTE)]}"/>'
            )
            out.append(f'<text x="{n(sx + 16)}" y="{n(ly + 10)}">{x(classes[k])}</text>')
    out.append("</svg>")
    return "\n".join(out)
