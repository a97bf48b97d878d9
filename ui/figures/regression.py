"""A regression tree's fit on the Train page as static SVG drawn by the server (issue 26):
predicted against actual, residuals, and the true values in each leaf, as dtreeviz shows them.

Plotly drew them before: on a 10⁵-row table the Train page then loaded Plotly's script, was sent
every leaf's values for the browser to find their quartiles (435 KB), and cost the browser 2.8 s
of CPU. Nothing in them is clicked. Large splits are thinned to ``MAX_POINTS`` rows by a fixed
stride (deterministic pictures; the caption says so); a point has its own tooltip when there are
at most ``TIP_POINTS``. The boxes use every row: quartiles, median and whiskers (the furthest
values within 1.5 × the interquartile range, as Plotly drew them) are computed here, and each
box's tooltip gives them. Fixed float formatting, the app's font: the same input, the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from dtcore.export import PALETTE
from ui.views.text import html_text as x

from .static_charts import (
    MUTED,
    box_stats,
    fit,
    n,
    padded_range,
    threshold_mark,
    x_ticks,
    y_plot,
)
from .style import plain

MAX_POINTS = 4000
#: at most this many points get a tooltip each (past it the points are one path: 4 000 tooltips
#: would be most of the chart's bytes)
TIP_POINTS = 400
POINT = PALETTE[0]
LINE = "#888888"
DIAMOND = "#d62728"
#: the leaves drawn in the leaf-value chart: the largest ones
MAX_LEAVES = 24
SCATTER_WIDTH = 520  # px: half the page at 1 400 px (the two scatter plots sit side by side)
LEAVES_WIDTH = 1040  # px: across the page
HEIGHT = 360


def thinned(n: int) -> np.ndarray:
    """Positions of at most MAX_POINTS of ``n`` rows, evenly strided."""
    return np.arange(n) if n <= MAX_POINTS else np.linspace(0, n - 1, MAX_POINTS).round().astype(np.int64)


def _finite(truth: ArrayLike, predicted: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The rows whose true value and prediction are both numbers."""
    t = np.asarray(truth, dtype=float)
    p = np.asarray(predicted, dtype=float)
    keep = np.isfinite(t) & np.isfinite(p)
    return t[keep], p[keep]


def scatter_svg(
    xs: ArrayLike,
    ys: ArrayLike,
    x_title: str,
    y_title: str,
    *,
    diagonal: bool = False,
    zero: bool = False,
    marks: Sequence[tuple[float, str]] = (),
    segments: Sequence[tuple[float, float, float, str]] = (),
    width: int = SCATTER_WIDTH,
) -> str:
    """One point per row (at most MAX_POINTS, evenly strided), ``diagonal``: the dashed line where
    y = x (predicted against actual), ``zero``: a dashed line at y = 0 (residuals); ``marks``:
    (x, label) dashed red verticals labelled at the top (a test's threshold); ``segments``: (x0,
    x1, y, tooltip) dark horizontal lines (a child's mean over its range)."""
    xv, yv = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    idx = thinned(xv.size)
    xv, yv = xv[idx], yv[idx]
    x_lo, x_hi = padded_range([xv, np.array([m[0] for m in marks])])
    seg_y = np.array([sg[2] for sg in segments])
    y_lo, y_hi = padded_range([yv, np.zeros(1), seg_y] if zero else [yv, seg_y])
    out, left, right, top, bottom, py = y_plot(
        width, HEIGHT, y_lo, y_hi, y_title, x_title, f"{y_title} / {x_title}"
    )

    def px(v: float) -> float:
        return left + (float(v) - x_lo) / (x_hi - x_lo) * (right - left)

    out += x_ticks(px, x_lo, x_hi, bottom)
    if diagonal:
        a, b = max(x_lo, y_lo), min(x_hi, y_hi)
        if b > a:
            out.append(
                f'<line x1="{n(px(a))}" y1="{n(py(a))}" x2="{n(px(b))}" y2="{n(py(b))}" stroke="{LINE}"'
                f' stroke-dasharray="6 4"/>'
            )
    if zero:
        out.append(
            f'<line x1="{n(left)}" y1="{n(py(0.0))}" x2="{n(right)}" y2="{n(py(0.0))}" stroke="{LINE}"'
            f' stroke-dasharray="6 4"/>'
        )
    for x0, x1, sy, tip in segments:
        out.append(
            f'<line x1="{n(px(x0))}" y1="{n(py(sy))}" x2="{n(px(x1))}" y2="{n(py(sy))}" stroke="#333333"'
            f' stroke-width="2.5"><title>{x(tip)}</title></line>'
        )
    for mx, label in marks:
        out += threshold_mark(px(mx), top, bottom, label)
    if xv.size <= TIP_POINTS:
        out.append(f'<g fill="{POINT}" fill-opacity="0.6">')
        for a, b in zip(xv.tolist(), yv.tolist()):
            out.append(
                f'<circle cx="{n(px(a))}" cy="{n(py(b))}" r="3"><title>{x(x_title)} {x(plain(a))} · '
                f"{x(y_title)} {x(plain(b))}</title></circle>"
            )
        out.append("</g>")
    elif xv.size:
        dots = "".join(f"M{n(px(a))} {n(py(b))}h0" for a, b in zip(xv.tolist(), yv.tolist()))
        out.append(
            f'<path d="{dots}" stroke="{POINT}" stroke-opacity="0.6" stroke-width="5" stroke-linecap="round"/>'
        )
    out.append("</svg>")
    return "\n".join(out)


def predicted_actual_svg(truth: ArrayLike, predicted: ArrayLike, texts: dict) -> str:
    """One point per row (true value across, prediction up) and the line where they agree."""
    t, p = _finite(truth, predicted)
    return scatter_svg(t, p, texts["actual"], texts["predicted"], diagonal=True)


def residuals_svg(truth: ArrayLike, predicted: ArrayLike, texts: dict) -> str:
    """Residual (true − predicted) of each row against its prediction, with the zero line."""
    t, p = _finite(truth, predicted)
    return scatter_svg(p, t - p, texts["predicted"], texts["residual"], zero=True)


def largest_leaves(leaf: np.ndarray, limit: int = MAX_LEAVES) -> np.ndarray:
    """The ``limit`` leaves holding the most rows, in node order."""
    ids, counts = np.unique(leaf, return_counts=True)
    return np.sort(ids[np.argsort(-counts, kind="stable")[:limit]])


def leaf_values_svg(leaf: ArrayLike, truth: ArrayLike, leaf_value: dict, texts: dict) -> str:
    """A box of the rows' true values per leaf (the MAX_LEAVES largest, by rows, in node order),
    with the leaf's prediction as a diamond: how spread each leaf's rows are around its value."""
    leaf_a = np.asarray(leaf)
    t = np.asarray(truth, dtype=float)
    ok = (leaf_a >= 0) & np.isfinite(t)
    leaf_a, t = leaf_a[ok], t[ok]
    top_leaves = largest_leaves(leaf_a).tolist()
    order = np.argsort(leaf_a, kind="stable")
    starts = np.searchsorted(leaf_a[order], top_leaves, side="left")
    stops = np.searchsorted(leaf_a[order], top_leaves, side="right")
    groups = [(f"#{i}", t[order[a:b]], float(leaf_value[i])) for i, a, b in zip(top_leaves, starts, stops)]
    return boxes_svg(groups, texts["actual"], texts["leaf"], texts, marker_name=texts["leaf_value"])


def boxes_svg(
    groups: Sequence[tuple[str, np.ndarray, float | None]],
    y_title: str,
    x_title: str,
    texts: dict,
    marker_name: str = "",
    width: int = LEAVES_WIDTH,
) -> str:
    """A box per (label, values, marker) group, left to right: quartiles, the median, whiskers
    (``box_stats``), the marker (a value of the group's, e.g. a leaf's prediction) as a red
    diamond; each box's tooltip its label, rows, marker (named ``marker_name``), median,
    quartiles and whiskers (``texts``: ``rows``, ``median``, ``quartiles``, ``whiskers``)."""
    groups = [(label, np.asarray(v, dtype=float), m) for label, v, m in groups]
    groups = [(label, v[np.isfinite(v)], m) for label, v, m in groups]
    groups = [g for g in groups if g[1].size]
    stats = [box_stats(v) for _, v, _ in groups]
    marks = np.array([m for _, _, m in groups if m is not None])
    y_lo, y_hi = padded_range([np.array([v for st in stats for v in (st[0], st[4])]), marks])
    out, left, right, top, bottom, py = y_plot(width, HEIGHT, y_lo, y_hi, y_title, x_title, x_title)
    slot = (right - left) / max(len(groups), 1)
    half = min(slot * 0.3, 24)
    for k, ((label, vals, marker), (low, q1, med, q3, high)) in enumerate(zip(groups, stats)):
        cx = left + slot * (k + 0.5)
        lines = [f"{label} · {vals.size:,} {texts['rows']}"]
        if marker is not None:
            lines.append(f"{marker_name} {plain(marker)}")
        lines += [
            f"{texts['median']} {plain(med)}",
            f"{texts['quartiles']} {plain(q1)} – {plain(q3)}",
            f"{texts['whiskers']} {plain(low)} – {plain(high)}",
        ]
        out.append(f"<g><title>{'&#10;'.join(x(line) for line in lines)}</title>")
        out.append(
            f'<rect x="{n(cx - slot / 2)}" y="{n(top)}" width="{n(slot)}" height="{n(bottom - top)}"'
            f' fill="#ffffff" fill-opacity="0"/>'
        )
        out.append(
            f'<line x1="{n(cx)}" y1="{n(py(high))}" x2="{n(cx)}" y2="{n(py(q3))}" stroke="{POINT}"/>'
            f'<line x1="{n(cx)}" y1="{n(py(q1))}" x2="{n(cx)}" y2="{n(py(low))}" stroke="{POINT}"/>'
        )
        for w in (low, high):
            out.append(
                f'<line x1="{n(cx - half / 2)}" y1="{n(py(w))}" x2="{n(cx + half / 2)}" y2="{n(py(w))}"'
                f' stroke="{POINT}"/>'
            )
        out.append(
            f'<rect x="{n(cx - half)}" y="{n(py(q3))}" width="{n(2 * half)}" height="{n(max(py(q1) - py(q3), 0.5))}"'
            f' fill="{POINT}" fill-opacity="0.35" stroke="{POINT}"/>'
        )
        out.append(
            f'<line x1="{n(cx - half)}" y1="{n(py(med))}" x2="{n(cx + half)}" y2="{n(py(med))}" stroke="{POINT}"'
            f' stroke-width="2"/>'
        )
        if marker is not None:
            vy = py(marker)
            out.append(
                f'<polygon points="{n(cx)},{n(vy - 6)} {n(cx + 6)},{n(vy)} {n(cx)},{n(vy + 6)} {n(cx - 6)},{n(vy)}"'
                f' fill="{DIAMOND}"/>'
            )
        out.append("</g>")
        out.append(
            f'<text x="{n(cx)}" y="{n(bottom + 17)}" text-anchor="middle" fill="{MUTED}">'
            f"{x(fit(label, slot))}</text>"
        )
    out.append("</svg>")
    return "\n".join(out)
