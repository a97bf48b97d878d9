"""The Compare page's chart: cross-validated accuracy (or RMSE) per algorithm, a box with every
fold's score as a point (the shared style of ``ui/figures/style.py``)."""

from __future__ import annotations

import plotly.graph_objects as go

from .style import GRID, base_layout, esc

#: one colour per algorithm (not the class colours of the trees)
ALGO_COLORS = ("#4c78a8", "#e45756", "#54a24b", "#b279a2", "#9d755d", "#72b7b2")


def cv_figure(labels: list[str], scores: list[list[float]], axis_title: str) -> go.Figure:
    """One box per algorithm (in the given order), its folds as points beside it."""
    fig = go.Figure()
    for i, (name, vals) in enumerate(zip(labels, scores)):
        fig.add_trace(
            go.Box(
                y=[round(float(v), 10) for v in vals],
                name=esc(name),
                boxpoints="all",
                jitter=0.3,
                pointpos=-1.6,
                marker=dict(color=ALGO_COLORS[i % len(ALGO_COLORS)], size=7),
                line=dict(color=ALGO_COLORS[i % len(ALGO_COLORS)]),
                boxmean=True,
                hovertemplate="%{y:.3f}<extra>" + esc(name) + "</extra>",
            )
        )
    base_layout(fig, 320, top=20, showlegend=False)
    fig.update_yaxes(title_text=esc(axis_title), gridcolor=GRID, zeroline=False)
    fig.update_xaxes(showgrid=False)
    return fig
