"""Plotly figures of a model's scores (Train page): feature importances and the confusion matrix.

Fixed colours (the class palette of ``dtcore.export``), no animation, text labels on the marks so
the numbers are readable without hovering; axis titles come in translated by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from dtcore.export import PALETTE
from dtcore.numbers import fmt_score

from .style import GRID, base_layout, esc

BAR_COLOR = PALETTE[0]


def _layout(fig: go.Figure, height: int) -> go.Figure:
    return base_layout(fig, height, showlegend=False)


def importances_figure(
    names: Sequence[str], importances: ArrayLike, axis_title: str, top: int = 20
) -> go.Figure:
    """Horizontal bars, largest on top; zero-importance features are left out."""
    imp = np.asarray(importances, dtype=float)
    order = [i for i in np.argsort(-imp, kind="stable") if imp[i] > 0][:top]
    order = order[::-1]  # plotly draws the first bar at the bottom
    fig = go.Figure(
        go.Bar(
            x=[float(imp[i]) for i in order],
            y=[esc(names[i]) for i in order],
            orientation="h",
            marker_color=BAR_COLOR,
            text=[fmt_score(imp[i]) for i in order],
            textposition="auto",
            hovertemplate="%{y}: %{x:.4f}<extra></extra>",
        )
    )
    fig.update_xaxes(
        title_text=axis_title,
        range=[0, max(1e-9, float(imp.max()) * 1.05)] if imp.size else None,
        gridcolor=GRID,
    )
    fig.update_yaxes(automargin=True)
    return _layout(fig, 120 + 28 * len(order))


def confusion_figure(labels: Sequence[str], matrix: ArrayLike, x_title: str, y_title: str) -> go.Figure:
    """Counts with row shares as colour, so a small class's errors are as visible as a large one's."""
    m = np.asarray(matrix, dtype=float)
    share = m / np.maximum(m.sum(axis=1, keepdims=True), 1)
    labels = [esc(v) for v in labels]
    fig = go.Figure(
        go.Heatmap(
            z=share,
            x=labels,
            y=labels,
            zmin=0,
            zmax=1,
            colorscale=[[0, "#ffffff"], [1, BAR_COLOR]],
            showscale=False,
            text=[[str(int(v)) for v in row] for row in m],
            texttemplate="%{text}",
            textfont=dict(size=14),
            hovertemplate="%{y} → %{x}: %{text}<extra></extra>",
            xgap=2,
            ygap=2,
        )
    )
    fig.update_xaxes(title_text=x_title, side="bottom", type="category")
    fig.update_yaxes(title_text=y_title, autorange="reversed", type="category")
    return _layout(fig, 140 + 40 * len(labels))
