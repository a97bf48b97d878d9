"""Plotly figures for the Pruning page: error and leaves along the cost-complexity path, and C4.5's
tree size and estimated error against the confidence factor.

Fixed colours (one per data set, the export palette), no animation, every number rounded the same
way, so the figure JSON is byte-identical for the same model and settings. Errors are step lines over the
path's steps: a subtree serves every α from its own effective α up to the next one. Labels come in
translated by the caller (``labels``: a dict of the few words each chart needs).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dtcore.export import PALETTE
from ui.services.pruning import AlphaCurves, CFCurves

from .style import GRID, base_layout, integer_axis, plain

COLORS = {
    "train": PALETTE[0],
    "valid": PALETTE[1],
    "test": PALETTE[2],
    "cv": PALETTE[3],
    "leaves": PALETTE[4],
    "size": PALETTE[0],
    "estimate": PALETTE[3],
}
BAND = "rgba(225, 87, 89, 0.18)"  # PALETTE[3] (cv) made transparent
CHOSEN = "#333333"
RULE = PALETTE[6]


def _layout(fig: go.Figure, height: int) -> go.Figure:
    # the legend above the plot (below it, it ran into the α tick labels), the chosen mark inside
    base_layout(
        fig, height, top=40, hovermode="closest", legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0)
    )
    fig.update_xaxes(gridcolor=GRID, zeroline=False)
    fig.update_yaxes(gridcolor=GRID, zeroline=False)
    return fig


def _r(values: Iterable[float], digits: int = 10) -> list[float]:
    return [round(float(v), digits) for v in values]


MAX_TICKS = 12


def _alpha_axis(fig: go.Figure, alphas: Sequence[float], title: str) -> None:
    """Path steps evenly spaced, labelled with their α: the effective α grow geometrically, so a
    linear α axis would crowd every step but the last few against 0 (rpart's plotcp does the same)."""
    n = len(alphas)
    every = max(1, -(-n // MAX_TICKS))
    ticks = list(range(0, n, every))
    fig.update_xaxes(
        title_text=title,
        tickmode="array",
        tickvals=ticks,
        ticktext=[plain(alphas[i], 3) for i in ticks],
        range=[-0.5, n - 0.5],
    )


def _step_of(alphas: Sequence[float], alpha: float) -> int:
    """Index of the path step a chosen α prunes to (the largest path α ≤ it)."""
    below = [i for i, a in enumerate(alphas) if a <= alpha + 1e-15]
    return below[-1] if below else 0


def _mark(fig: go.Figure, x: int, text: str) -> None:
    fig.add_vline(x=x, line=dict(color=CHOSEN, width=1.5, dash="dash"))
    fig.add_annotation(
        x=x,
        y=1,
        yref="paper",
        text=text,
        showarrow=False,
        xanchor="left",
        yanchor="top",
        bgcolor="rgba(255,255,255,0.8)",
        font=dict(size=11, color=CHOSEN),
    )


def alpha_error_figure(curves: AlphaCurves, chosen_alpha: float, labels: dict) -> go.Figure:
    """Error of each path subtree on train / validation / test, the k-fold CV error with a ±1 SE
    band (scored at Breiman's β midpoints, drawn at the candidate α it stands for), the CV rule's
    choice as a star and the chosen α as a dashed line. x = path step, ticks = its α.

    ``curves``: :class:`ui.services.pruning.AlphaCurves`; ``labels``: split names, ``cv``, ``band``,
    ``rule``, ``alpha``, ``error``, ``chosen``.
    """
    alphas = _r(curves.alphas)
    x = list(range(len(alphas)))
    info = [[a, n] for a, n in zip(alphas, curves.n_leaves)]
    hover = (
        "α = %{customdata[0]:.4g} · %{customdata[1]} "
        + labels["leaves"]
        + ": %{y:.4g}<extra>%{fullData.name}</extra>"
    )
    fig = go.Figure()
    if curves.cv is not None:
        cv = curves.cv
        err, se = cv.errors.tolist(), cv.ses.tolist()
        upper = _r(e + s for e, s in zip(err, se))
        lower = _r(max(e - s, 0.0) for e, s in zip(err, se))
        fig.add_trace(
            go.Scatter(
                x=x,
                y=upper,
                mode="lines",
                line=dict(width=0, shape="hv"),
                hoverinfo="skip",
                showlegend=False,
                name=labels["band"],
            )
        )
        fig.add_trace(
            go.Scatter(
                x=x,
                y=lower,
                mode="lines",
                line=dict(width=0, shape="hv"),
                fill="tonexty",
                fillcolor=BAND,
                hoverinfo="skip",
                name=labels["band"],
            )
        )
        fig.add_trace(
            go.Scatter(
                x=x,
                y=_r(err),
                mode="lines+markers",
                name=labels["cv"],
                line=dict(color=COLORS["cv"], width=2, shape="hv"),
                marker=dict(size=6),
                customdata=[[a, n, s] for (a, n), s in zip(info, _r(se))],
                hovertemplate="α = %{customdata[0]:.4g} · %{customdata[1]} "
                + labels["leaves"]
                + ": %{y:.4g} ± %{customdata[2]:.3g}<extra>%{fullData.name}</extra>",
            )
        )
        i = cv.index
        fig.add_trace(
            go.Scatter(
                x=[x[i]],
                y=_r([err[i]]),
                mode="markers",
                name=labels["rule"],
                marker=dict(symbol="star", size=15, color=RULE, line=dict(color=CHOSEN, width=1)),
                customdata=[info[i]],
                hovertemplate=hover,
            )
        )
    for split in ("train", "valid", "test"):
        if split in curves.errors:
            fig.add_trace(
                go.Scatter(
                    x=x,
                    y=_r(curves.errors[split]),
                    mode="lines+markers",
                    name=labels[split],
                    line=dict(color=COLORS[split], width=2, shape="hv"),
                    marker=dict(size=5),
                    customdata=info,
                    hovertemplate=hover,
                )
            )
    _mark(fig, _step_of(curves.alphas, chosen_alpha), labels["chosen"])
    _alpha_axis(fig, alphas, labels["alpha"])
    fig.update_yaxes(
        title_text=labels["error"],
        rangemode="tozero",
        tickformat=".0%" if curves.metric == "error_rate" else None,
    )
    return _layout(fig, 400)


def leaves_alpha_figure(curves: AlphaCurves, chosen_alpha: float, labels: dict) -> go.Figure:
    """Leaves of the pruned tree at each path step: a staircase down to the root alone."""
    alphas = _r(curves.alphas)
    fig = go.Figure(
        go.Scatter(
            x=list(range(len(alphas))),
            y=list(curves.n_leaves),
            mode="lines+markers",
            name=labels["leaves"],
            line=dict(color=COLORS["leaves"], width=2, shape="hv"),
            marker=dict(size=5),
            customdata=alphas,
            hovertemplate="α = %{customdata:.4g}: %{y}<extra></extra>",
        )
    )
    _mark(fig, _step_of(curves.alphas, chosen_alpha), labels["chosen"])
    _alpha_axis(fig, alphas, labels["alpha"])
    fig.update_yaxes(
        title_text=labels["leaves"], rangemode="tozero", **integer_axis(max(curves.n_leaves, default=1))
    )
    fig.update_layout(showlegend=False)
    return _layout(fig, 400)


def cf_figure(curves: CFCurves, chosen_cf: float, labels: dict) -> go.Figure:
    """C4.5's error-based pruning at each CF: tree size (nodes, leaves) above, the estimated
    errors (sum of U_CF over the leaves) below; the chosen CF as a dashed line in both."""
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08)
    x = _r(curves.cfs)
    fig.add_trace(
        go.Scatter(
            x=x,
            y=list(curves.nodes),
            mode="lines+markers",
            name=labels["nodes"],
            line=dict(color=COLORS["size"], width=2),
            hovertemplate="%{y}",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=x,
            y=list(curves.leaves),
            mode="lines+markers",
            name=labels["leaves"],
            line=dict(color=COLORS["leaves"], width=2, dash="dot"),
            hovertemplate="%{y}",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=x,
            y=_r(curves.estimated_errors),
            mode="lines+markers",
            name=labels["estimate"],
            line=dict(color=COLORS["estimate"], width=2),
            hovertemplate="%{y:.4g}",
        ),
        row=2,
        col=1,
    )
    for row in (1, 2):
        fig.add_vline(
            x=round(float(chosen_cf), 10), line=dict(color=CHOSEN, width=1.5, dash="dash"), row=row, col=1
        )
    fig.add_annotation(
        x=round(float(chosen_cf), 10),
        y=1,
        yref="paper",
        text=labels["chosen"],
        showarrow=False,
        xanchor="left",
        yanchor="bottom",
        font=dict(size=11, color=CHOSEN),
    )
    fig.update_yaxes(
        title_text=labels["size"],
        rangemode="tozero",
        **integer_axis(max(curves.nodes, default=1)),
        row=1,
        col=1,
    )
    fig.update_yaxes(title_text=labels["estimate"], rangemode="tozero", row=2, col=1)
    fig.update_xaxes(title_text=labels["cf"], row=2, col=1)
    return _layout(fig, 460)
