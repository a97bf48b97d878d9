"""The one Plotly style every chart of the app shares: font, white background, no animation."""

from __future__ import annotations

import html
import math
from typing import SupportsFloat

import numpy as np
import plotly.graph_objects as go

#: CJK first, so Chinese labels render in the same face as Latin ones
FONT = "Noto Sans CJK SC, Noto Sans, sans-serif"
GRID = "#eeeeee"


def base_layout(fig: go.Figure, height: int, top: int = 30, **extra: object) -> go.Figure:
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
    # plain numbers on every axis: 0.0008 and 25,490, never "800μ" or "2.549e+04"
    fig.update_xaxes(exponentformat="none", separatethousands=True)
    fig.update_yaxes(exponentformat="none", separatethousands=True)
    return fig


def plain(value: SupportsFloat, digits: int = 4) -> str:
    """A number for a label: ``digits`` significant digits in positional notation, thousands
    separated, integers above 10⁴ whole (0.0008123, 1.333, 25,490); "–" when not finite."""
    v = float(value)
    if not math.isfinite(v):
        return "–"
    if abs(v) < 1e-12:  # floating-point noise around zero
        return "0"
    if abs(v) >= 10**digits:
        return f"{v:,.0f}"
    text = np.format_float_positional(v, precision=digits, unique=False, fractional=False, trim="-")
    sign, body = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, _, frac = body.partition(".")
    return sign + f"{int(whole):,}" + ("." + frac if frac else "")


def integer_axis(axis_max: float, ticks: int = 6) -> dict:
    """Axis settings for counts (leaves, nodes): whole-number ticks at a round step (1, 2, 5,
    10, 20, 50, …: the smallest giving at most about ``ticks`` intervals up to ``axis_max``)."""
    need = float(axis_max) / ticks if axis_max > 0 else 1.0
    base = 1
    while True:
        step = next((m * base for m in (1, 2, 5) if m * base >= need), 0)
        if step:
            break
        base *= 10
    return dict(tick0=0, dtick=step, tickformat=",d")


def esc(text: object) -> str:
    """User text (feature, class and category names) inside a Plotly label, tick, hover or title:
    Plotly reads a subset of HTML there (links, bold, ...), so markup characters become entities
    and show as typed. Every figure builder passes user text through here."""
    return html.escape(str(text), quote=False)
