"""The one Plotly style every chart of the app shares: font, white background, no animation."""

from __future__ import annotations

import html

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


def esc(text) -> str:
    """User text (feature, class and category names) inside a Plotly label, tick, hover or title:
    Plotly reads a subset of HTML there (links, bold, ...), so markup characters become entities
    and show as typed. Every figure builder passes user text through here."""
    return html.escape(str(text), quote=False)
