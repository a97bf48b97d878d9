"""The one Plotly style every chart of the app shares: font, white background, no animation."""

from __future__ import annotations

import plotly.graph_objects as go

#: CJK first, so Chinese labels render in the same face as Latin ones
FONT = "Noto Sans CJK SC, Noto Sans, sans-serif"
GRID = "#eeeeee"


def base_layout(fig: go.Figure, height: int, top: int = 30, **extra) -> go.Figure:
    """Height, margins (``top`` leaves room for a title or legend), font, white paper, no
    transition; ``extra`` layout settings follow in the order given (the figure JSON keeps it)."""
    fig.update_layout(
        height=height,
        margin=dict(l=10, r=10, t=top, b=10),
        font=dict(family=FONT, size=13),
        plot_bgcolor="white",
        paper_bgcolor="white",
        transition={"duration": 0},
        **extra,
    )
    return fig
