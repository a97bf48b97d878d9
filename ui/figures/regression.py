"""Plotly figures of a regression tree's fit (Train page): predicted against actual, residuals,
and the training values in each leaf, as dtreeviz shows them.

Large splits are thinned to ``MAX_POINTS`` rows by a fixed stride (deterministic pictures; the
caption says so); the box plots use every row.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from dtcore.export import PALETTE

from .style import GRID, base_layout, esc, plain

MAX_POINTS = 4000
POINT = PALETTE[0]
LINE = "#888888"
#: the leaves drawn in the leaf-value chart: the largest ones
MAX_LEAVES = 24


def thinned(n: int) -> np.ndarray:
    """Positions of at most MAX_POINTS of ``n`` rows, evenly strided."""
    return np.arange(n) if n <= MAX_POINTS else np.linspace(0, n - 1, MAX_POINTS).round().astype(np.int64)


def _scatter_layout(fig: go.Figure, x_title: str, y_title: str) -> go.Figure:
    base_layout(fig, 380, showlegend=False, hovermode="closest")
    fig.update_xaxes(title_text=esc(x_title), gridcolor=GRID, zeroline=False)
    fig.update_yaxes(title_text=esc(y_title), gridcolor=GRID, zeroline=False)
    return fig


def _finite(truth: ArrayLike, predicted: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The rows whose true value and prediction are both numbers."""
    t = np.asarray(truth, dtype=float)
    p = np.asarray(predicted, dtype=float)
    keep = np.isfinite(t) & np.isfinite(p)
    return t[keep], p[keep]


def _points(x: np.ndarray, y: np.ndarray, x_name: str, y_name: str) -> go.Scatter:
    """At most MAX_POINTS of the rows as markers (evenly strided), hover naming both axes."""
    idx = thinned(x.size)
    return go.Scatter(
        x=x[idx].round(10).tolist(),
        y=y[idx].round(10).tolist(),
        mode="markers",
        marker=dict(color=POINT, size=5, opacity=0.6),
        hovertemplate=f"{esc(x_name)} %{{x}} · {esc(y_name)} %{{y}}<extra></extra>",
    )


def predicted_actual_figure(truth: ArrayLike, predicted: ArrayLike, texts: dict) -> go.Figure:
    """One point per row (true value across, prediction up) and the line where they agree."""
    t, p = _finite(truth, predicted)
    lo = float(min(t.min(initial=0.0), p.min(initial=0.0))) if t.size else 0.0
    hi = float(max(t.max(initial=1.0), p.max(initial=1.0))) if t.size else 1.0
    fig = go.Figure(
        [
            go.Scatter(
                x=[lo, hi], y=[lo, hi], mode="lines", line=dict(color=LINE, dash="dash"), hoverinfo="skip"
            ),
            _points(t, p, texts["actual"], texts["predicted"]),
        ]
    )
    return _scatter_layout(fig, texts["actual"], texts["predicted"])


def residuals_figure(truth: ArrayLike, predicted: ArrayLike, texts: dict) -> go.Figure:
    """Residual (true − predicted) of each row against its prediction, with the zero line."""
    t, p = _finite(truth, predicted)
    fig = go.Figure(_points(p, t - p, texts["predicted"], texts["residual"]))
    fig.add_hline(y=0, line=dict(color=LINE, dash="dash"))
    return _scatter_layout(fig, texts["predicted"], texts["residual"])


def leaf_values_figure(leaf: ArrayLike, truth: ArrayLike, leaf_value: dict, texts: dict) -> go.Figure:
    """A box of the rows' true values per leaf (the MAX_LEAVES largest, by rows, in node order),
    with the leaf's prediction as a diamond: how spread each leaf's rows are around its value."""
    leaf = np.asarray(leaf)
    t = np.asarray(truth, dtype=float)
    ok = (leaf >= 0) & np.isfinite(t)
    leaf, t = leaf[ok], t[ok]
    ids, counts = np.unique(leaf, return_counts=True)
    top = np.sort(ids[np.argsort(-counts, kind="stable")[:MAX_LEAVES]])
    fig = go.Figure()
    for i in top.tolist():
        vals = t[leaf == i]
        fig.add_trace(
            go.Box(
                y=vals.round(10).tolist(),
                name=f"#{i}",
                marker_color=POINT,
                boxpoints=False,
                hovertemplate=f"#{i}: %{{y}}<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[f"#{i}" for i in top.tolist()],
            y=[round(float(leaf_value[i]), 10) for i in top.tolist()],
            mode="markers",
            marker=dict(symbol="diamond", size=9, color="#d62728"),
            name=esc(texts["leaf_value"]),
            text=[plain(leaf_value[i]) for i in top.tolist()],
            hovertemplate=f"{esc(texts['leaf_value'])} %{{text}}<extra></extra>",
        )
    )
    base_layout(fig, 380, showlegend=False, hovermode="closest")
    fig.update_xaxes(title_text=esc(texts["leaf"]), type="category")
    fig.update_yaxes(title_text=esc(texts["actual"]), gridcolor=GRID, zeroline=False)
    return fig
