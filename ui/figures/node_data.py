"""A node's data as dtreeviz shows it: the node's split feature over its training rows, by class,
with the threshold marked (stacked bars per category for a categorical test; for regression the
target against the feature with each child's mean), and the class counts of each child.

The rows and their (C4.5-fractional) weights are ``dtcore.explain``'s ``NodeData`` (``Tree.reach``);
the histogram is the split explorer's ``class_histogram`` and the bars its ``value_bars_figure``
and ``static_charts.children_svg``, so the Splits page and these figures agree.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dtcore.explain import NodeData
from dtcore.export import PALETTE, REGRESSION_COLOR, branches, condition_text
from dtcore.export.thresholds import node_thresholds
from dtcore.schema import Schema
from dtcore.tree import Tree

from .splits import CHOSEN, class_histogram, split_figure_layout, value_bars_figure
from .static_charts import children_svg
from .style import GRID, esc, plain


def node_feature_figure(nd: NodeData, *, texts: dict) -> go.Figure:
    """The split feature of ``nd.node`` over the node's rows. ``nd``: ``explain.NodeData`` of a
    test node; ``texts``: translated ``count``, ``threshold``, ``mean``, ``value``, ``missing``."""
    tree, schema = nd.tree, nd.schema
    i = nd.node
    j = int(tree.feature[i])
    feat = schema.features[j]
    x = nd.X[:, j]
    classes = schema.classes
    if feat.is_categorical:
        codes = np.where(np.isnan(x), len(feat.categories), x).astype(np.int64)
        labels = [*feat.categories, texts["missing"]]
        groups = len(classes) if classes is not None else 1
        key = nd.y.astype(np.int64) if classes is not None else np.zeros(x.size, np.int64)
        counts = np.zeros((len(labels), groups))
        np.add.at(counts, (codes, key), nd.w)
        shown = counts.sum(axis=1) > 0
        names = [lab for lab, s in zip(labels, shown) if s]
        if classes is not None:
            fig = value_bars_figure(names, counts[shown], classes=classes, texts=texts)
        else:
            fig = go.Figure(go.Box(x=[esc(labels[c]) for c in codes], y=nd.y, marker_color=REGRESSION_COLOR))
            fig.update_xaxes(title_text=esc(feat.name), type="category")
            fig.update_yaxes(title_text=esc(schema.target), gridcolor=GRID)
            fig = split_figure_layout(fig, 320)
        fig.update_xaxes(title_text=esc(feat.name))
        return fig
    cuts = tree.cuts_of(i)
    fig = go.Figure()
    if classes is not None:
        centres, widths, counts = class_histogram(x, nd.y, nd.w, len(classes))
        for k, c in enumerate(classes):
            fig.add_trace(
                go.Bar(
                    x=centres,
                    y=counts[k],
                    width=widths,
                    name=esc(c),
                    marker_color=PALETTE[k % len(PALETTE)],
                    hovertemplate=f"{esc(feat.name)} %{{x:.4g}} · {esc(c)}: %{{y:.4g}}<extra></extra>",
                )
            )
        fig.update_layout(barmode="stack")
        fig.update_yaxes(title_text=esc(texts["count"]), gridcolor=GRID)
    else:
        known = ~np.isnan(x)
        fig.add_trace(
            go.Scatter(
                x=x[known],
                y=nd.y[known],
                mode="markers",
                marker=dict(color=REGRESSION_COLOR, size=6, opacity=0.7),
                showlegend=False,
                hovertemplate=f"{esc(feat.name)} %{{x:.4g}}<br>{esc(schema.target)} %{{y:.4g}}<extra></extra>",
            )
        )
        lo, hi = (float(np.nanmin(x)), float(np.nanmax(x))) if known.any() else (0.0, 1.0)
        edges = [lo, *[float(c) for c in cuts if np.isfinite(c)], hi]
        for k, child in enumerate(tree.children_of(i)):
            if k + 1 >= len(edges):
                break
            mean = float(tree.value[child, 0])
            fig.add_trace(
                go.Scatter(
                    x=[edges[k], edges[k + 1]],
                    y=[mean, mean],
                    mode="lines",
                    line=dict(color="#333333", width=2.5),
                    showlegend=False,
                    hovertemplate=f"{esc(texts['mean'])} {mean:.4g}<extra></extra>",
                )
            )
        fig.update_yaxes(title_text=esc(schema.target), gridcolor=GRID)
    for c, shown in zip(cuts, node_thresholds(tree, i, 4)):
        if np.isfinite(c):
            fig.add_vline(
                x=float(c),
                line=dict(color=CHOSEN, width=2, dash="dash"),
                annotation_text=f"{esc(texts['threshold'])} {shown}",
                annotation_position="top",
            )
    fig.update_xaxes(title_text=esc(feat.name))
    fig = split_figure_layout(fig, 340)
    # room above the plot: the legend on top, the threshold's label under it
    fig.update_layout(margin=dict(t=70), legend=dict(y=1.14, traceorder="normal"))
    return fig


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
