"""The Compare page's chart as static SVG drawn by the server (issue 26): cross-validated accuracy
(or RMSE) per algorithm, a box of its folds' scores (quartiles, median, the mean dashed) with every
fold as a point beside it. Nothing in it is clicked: Plotly drew it before, and it was what loaded
Plotly's script on the Compare page. Each fold's point and each box carry their numbers as the
browser's tooltip (``<title>``); labels are escaped, floats printed fixed: the same scores, the
same bytes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ui.views.text import html_text as x

from .static_charts import MUTED, box_stats, fit, n, padded_range, y_plot
from .style import plain

#: one colour per algorithm (not the class colours of the trees)
ALGO_COLORS = ("#4c78a8", "#e45756", "#54a24b", "#b279a2", "#9d755d", "#72b7b2")
WIDTH = 1040  # px: across the page (it shrinks with its column)
HEIGHT = 320
SLOT_MAX = 320  # px: the most room an algorithm gets (two algorithms do not stretch across)


def cv_svg(labels: Sequence[str], scores: Sequence[Sequence[float]], axis_title: str, texts: dict) -> str:
    """One box per algorithm (in the given order), its folds as points to its left, spread
    evenly (no random jitter). ``texts``: the translated ``fold`` (with ``{k}``), ``mean``,
    ``median``, ``quartiles`` and ``range``."""
    folds = [np.asarray(v, dtype=float) for v in scores]
    folds = [f[np.isfinite(f)] for f in folds]
    y_lo, y_hi = padded_range(folds)
    out, left, right, top, bottom, py = y_plot(WIDTH, HEIGHT, y_lo, y_hi, axis_title, "", axis_title)
    slot = min((right - left) / max(len(labels), 1), SLOT_MAX)
    start = left + ((right - left) - slot * len(labels)) / 2
    half = min(slot * 0.2, 48)
    for i, (name, vals) in enumerate(zip(labels, folds)):
        color = ALGO_COLORS[i % len(ALGO_COLORS)]
        cx = start + slot * (i + 0.62)
        out.append(
            f'<text x="{n(cx)}" y="{n(bottom + 17)}" text-anchor="middle" fill="{MUTED}">{x(fit(name, slot))}</text>'
        )
        if not vals.size:
            continue
        low, q1, med, q3, high = box_stats(vals)
        mean = float(vals.mean())
        tip = "&#10;".join(
            x(line)
            for line in (
                name,
                f"{texts['mean']} {plain(mean)}",
                f"{texts['median']} {plain(med)}",
                f"{texts['quartiles']} {plain(q1)} – {plain(q3)}",
                f"{texts['range']} {plain(float(vals.min()))} – {plain(float(vals.max()))}",
            )
        )
        out.append(f'<g stroke="{color}"><title>{tip}</title>')
        out.append(
            f'<line x1="{n(cx)}" y1="{n(py(high))}" x2="{n(cx)}" y2="{n(py(q3))}"/>'
            f'<line x1="{n(cx)}" y1="{n(py(q1))}" x2="{n(cx)}" y2="{n(py(low))}"/>'
        )
        for w in (low, high):
            out.append(
                f'<line x1="{n(cx - half / 2)}" y1="{n(py(w))}" x2="{n(cx + half / 2)}" y2="{n(py(w))}"/>'
            )
        out.append(
            f'<rect x="{n(cx - half)}" y="{n(py(q3))}" width="{n(2 * half)}" height="{n(max(py(q1) - py(q3), 0.5))}"'
            f' fill="{color}" fill-opacity="0.3"/>'
        )
        out.append(
            f'<line x1="{n(cx - half)}" y1="{n(py(med))}" x2="{n(cx + half)}" y2="{n(py(med))}" stroke-width="2"/>'
        )
        out.append(
            f'<line x1="{n(cx - half)}" y1="{n(py(mean))}" x2="{n(cx + half)}" y2="{n(py(mean))}"'
            f' stroke-dasharray="4 3"/>'
        )
        out.append("</g>")
        # the folds to the box's left, spread over a strip as wide as the box
        strip = (
            cx - half - 8 - half * np.linspace(0.0, 1.0, vals.size)
            if vals.size > 1
            else [cx - half - 8 - half / 2]
        )
        out.append(f'<g fill="{color}">')
        for k, (v, px) in enumerate(zip(vals.tolist(), strip)):
            fold = texts["fold"].format(k=k + 1)
            out.append(
                f'<circle cx="{n(float(px))}" cy="{n(py(v))}" r="3.5"><title>{x(name)} · {x(fold)}: {x(plain(v))}</title></circle>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
