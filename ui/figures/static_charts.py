"""Charts nothing in which is clicked, as static SVG drawn by the server (issue 26): the Train
page's score charts (the feature importances' bars, the confusion matrix) and a test's children
(the Splits page's preview, the node data). Plotly drew them before: its 4.7 MB script was fetched,
compiled and run on every first visit and its layout ran again on every rerun (a language
switch), for charts that never change in the browser.

Pure functions, deterministic output (the same input gives the same bytes): fixed float
formatting, the app's font, no ids. Every user label (feature and class names) is XML-escaped and
cut to fit with "…"; a ``<title>`` on each bar and cell carries the full label and the exact value
as the browser's tooltip. Its bottom margin undoes the -1rem Streamlit's Markdown container
ends with (the chart's last 16 px were covered by what follows). The SVG is one HTML block of lines (``block``), so Markdown reads none
of its text (``st.markdown(..., unsafe_allow_html=True)``: ``st.html`` drops SVG elements)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from dtcore.export import PALETTE, REGRESSION_COLOR
from dtcore.numbers import fmt_fixed, fmt_pct, fmt_score
from ui.views.splits import count
from ui.views.text import html_text as x

from .style import FONT, GRID

BAR_COLOR = PALETTE[0]
INK = "#31333f"  # Streamlit's text colour
MUTED = "#555555"
SIZE = 13  # px, the font size of the Plotly charts
WIDTH = 440  # px, the chart's width at most: half the page at 1 400 px (it shrinks with its column)
LABEL_MAX = 180  # px, the widest label column before a label is cut
ROW = 28  # px per bar
CELL_MIN, CELL_MAX = 36, 90  # px, a confusion cell's side


def n(v: float) -> str:
    """A coordinate with one decimal at most (fixed, so the output is byte-identical)."""
    s = f"{float(v):.1f}"
    return s[:-2] if s.endswith(".0") else s


def text_width(text: str, size: float = SIZE) -> float:
    """An estimate of ``text``'s width in px: wide (CJK) characters an em, others 0.6 em."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else 0.6 * size for c in str(text))


def fit(text: str, width: float, size: float = SIZE) -> str:
    """``text`` cut with "…" to about ``width`` px."""
    text = str(text)
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def y_title_lines(title: str, length: float, size: float = SIZE) -> list[str]:
    """A y axis title as it is drawn along an axis of ``length`` px: one line when it fits, else
    two, split at the space nearest its middle (between any two characters when it has none, as
    a Chinese title), each cut with "…" only if it is still too long ("impurity decrease at this
    node" along a 220 px score panel was cut to "…at this n…")."""
    title = str(title)
    if text_width(title, size) <= length or len(title) < 2:
        return [fit(title, length, size)]
    spaces = [i for i, c in enumerate(title) if c == " "]
    cuts = [(title[:i], title[i + 1 :]) for i in spaces] or [
        (title[:i], title[i:]) for i in range(1, len(title))
    ]
    first, second = min(cuts, key=lambda c: max(text_width(c[0], size), text_width(c[1], size)))
    return [fit(first, length, size), fit(second, length, size)]


def y_title_band(lines: Sequence[str]) -> float:
    """px left of the tick labels for a rotated y title of these lines (:func:`y_title_lines`)."""
    return 24.0 if len(lines) < 2 else 40.0


def y_title_svg(lines: Sequence[str], mid: float) -> str:
    """The rotated y title centred at height ``mid``: one line at x 14, two at x 12 and 28."""
    xs = [14.0] if len(lines) < 2 else [12.0, 28.0]
    return "".join(
        f'<text x="{n(cx)}" y="{n(mid)}" text-anchor="middle" transform="rotate(-90 {n(cx)} {n(mid)})">'
        f"{x(line)}</text>"
        for cx, line in zip(xs, lines, strict=False)
    )


def mix(share: float, color: str = BAR_COLOR) -> str:
    """White to ``color`` by ``share`` (0..1), as #rrggbb."""
    s = min(max(float(share), 0.0), 1.0)
    rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 + (c - 255) * s):02x}" for c in rgb)


def nice_step(top: float, ticks: int = 5) -> float:
    """The smallest of 1, 2, 5 × 10^k giving at most ``ticks`` intervals up to ``top``."""
    need = top / ticks if top > 0 else 1.0
    base = 10.0 ** np.floor(np.log10(need))
    return next(float(m * base) for m in (1, 2, 5, 10) if m * base >= need * (1 - 1e-9))


def nice_ticks(lo: float, hi: float, ticks: int = 6) -> tuple[list[float], float]:
    """Round tick values inside [lo, hi] (about ``ticks``) and their step."""
    span = hi - lo
    if span <= 0:
        return [lo], 1.0
    step = nice_step(span, ticks)
    out = []
    v = float(np.ceil(lo / step - 1e-9)) * step
    while v <= hi + 1e-9 * span:
        out.append(0.0 if abs(v) < step * 1e-9 else v)
        v += step
    return out, step


def box_stats(values: np.ndarray) -> tuple[float, float, float, float, float]:
    """(lower whisker, Q1, median, Q3, upper whisker): quartiles by linear interpolation, each
    whisker the furthest value within 1.5 × the interquartile range of its quartile."""
    q1, med, q3 = (float(v) for v in np.percentile(values, [25, 50, 75]))
    reach = 1.5 * (q3 - q1)
    low = float(values[values >= q1 - reach].min())
    high = float(values[values <= q3 + reach].max())
    return low, q1, med, q3, high


def svg_open(width: float, height: float, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="dt-static-chart" role="img"'
        f' aria-label="{x(label)}" viewBox="0 0 {n(width)} {n(height)}" width="{n(width)}"'
        f' height="{n(height)}" style="display:block;max-width:100%;height:auto;margin-bottom:1rem" font-family="{FONT}"'
        f' font-size="{SIZE}" fill="{INK}">'
    )


def grid_row(left: float, right: float, y: float, label: str) -> list[str]:
    """A horizontal grid line across a plot at ``y`` and its tick label left of ``left``."""
    return [
        f'<line x1="{n(left)}" y1="{n(y)}" x2="{n(right)}" y2="{n(y)}" stroke="{GRID}"/>',
        f'<text x="{n(left - 6)}" y="{n(y + 4.5)}" text-anchor="end" fill="{MUTED}">{x(label)}</text>',
    ]


def star_points(cx: float, cy: float, r: float = 8.0) -> str:
    """A five-pointed star's points around (cx, cy), outer radius ``r``."""
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = np.pi / 2 + k * np.pi / 5
        pts.append(f"{n(cx + rad * np.cos(a))},{n(cy - rad * np.sin(a))}")
    return " ".join(pts)


def value_axis(left: float, scale: float, vmax: float, top: float, height: float) -> list[str]:
    """A horizontal value axis from 0 to ``vmax`` (``scale`` px per unit from ``left``): a grid
    line over the plot (``top``, ``height``) and a tick label under it at every nice step."""
    out = []
    step = nice_step(vmax)
    k = 0
    while k * step <= vmax * (1 + 1e-9):
        gx = left + k * step * scale
        out.append(f'<line x1="{n(gx)}" y1="{top}" x2="{n(gx)}" y2="{top + height}" stroke="{GRID}"/>')
        out.append(
            f'<text x="{n(gx)}" y="{top + height + 16}" text-anchor="middle" fill="{MUTED}">'
            f"{x(fmt_axis(k * step, step))}</text>"
        )
        k += 1
    return out


def importances_svg(names: Sequence[str], importances: ArrayLike, axis_title: str, top: int = 20) -> str:
    """Horizontal bars, largest on top, each with its value (three decimals); zero-importance
    features are left out. A ``<title>`` per bar: the name and the value to six decimals."""
    imp = np.asarray(importances, dtype=float)
    order = [int(i) for i in np.argsort(-imp, kind="stable") if imp[i] > 0][:top]
    labels = [str(names[i]) for i in order]
    left = 10 + min(LABEL_MAX, max((text_width(s) for s in labels), default=0)) + 8
    right = WIDTH - 10
    vmax = max(1e-9, float(imp.max()) * 1.05) if imp.size else 1.0
    plot_top, plot_h = 10, ROW * len(order)
    height = plot_top + plot_h + 50
    scale = (right - left) / vmax
    out = [svg_open(WIDTH, height, axis_title)]
    out.extend(value_axis(left, scale, vmax, plot_top, plot_h))
    for row, (i, label) in enumerate(zip(order, labels)):
        v = float(imp[i])
        y = plot_top + row * ROW
        w = v * scale
        shown = fmt_score(v)
        out.append(f"<g><title>{x(label)}: {v:.6f}</title>")
        out.append(
            f'<text x="{n(left - 8)}" y="{n(y + ROW / 2 + 4.5)}" text-anchor="end">{x(fit(label, LABEL_MAX))}</text>'
        )
        out.append(
            f'<rect x="{n(left)}" y="{n(y + 3)}" width="{n(w)}" height="{ROW - 6}" fill="{BAR_COLOR}"/>'
        )
        inside = w >= text_width(shown) + 10
        tx, anchor, color = (left + w - 5, "end", "#ffffff") if inside else (left + w + 5, "start", INK)
        out.append(
            f'<text x="{n(tx)}" y="{n(y + ROW / 2 + 4.5)}" text-anchor="{anchor}" fill="{color}">{x(shown)}</text>'
        )
        out.append("</g>")
    out.append(
        f'<text x="{n((left + right) / 2)}" y="{height - 8}" text-anchor="middle">{x(axis_title)}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


def fmt_axis(v: float, step: float) -> str:
    """A tick label with as many decimals as the step needs (0, 0.2, 0.05)."""
    digits = max(0, -int(np.floor(np.log10(step) + 1e-9))) if step < 1 else 0
    text = fmt_fixed(v, digits)
    return text.rstrip("0").rstrip(".") if "." in text else text


def confusion_svg(labels: Sequence[str], matrix: ArrayLike, x_title: str, y_title: str) -> str:
    """Counts in cells coloured by the row's share (a small class's errors show as much as a
    large one's): true classes down, predicted across. A ``<title>`` per cell: the true and the
    predicted class, the count and its share of the row."""
    m = np.asarray(matrix, dtype=np.int64).reshape(len(labels), len(labels))
    share = m / np.maximum(m.sum(axis=1, keepdims=True), 1)
    names = [str(v) for v in labels]
    k = len(names)
    left = 34 + min(LABEL_MAX, max((text_width(s) for s in names), default=0)) + 8
    cell = max(CELL_MIN, min(CELL_MAX, (WIDTH - left - 10) / max(k, 1)))
    col_label = cell - 4  # a column label fits its cell's width
    top = 10
    bottom = top + cell * k
    height = bottom + 50
    width = left + cell * k + 10
    out = [svg_open(width, height, f"{y_title} / {x_title}")]
    for r in range(k):
        for c in range(k):
            cx, cy = left + c * cell, top + r * cell
            count, s = int(m[r, c]), float(share[r, c])
            out.append(f"<g><title>{x(names[r])} → {x(names[c])}: {count} ({x(fmt_pct(s))})</title>")
            out.append(
                f'<rect x="{n(cx + 1)}" y="{n(cy + 1)}" width="{n(cell - 2)}" height="{n(cell - 2)}"'
                f' fill="{mix(s)}"/>'
            )
            out.append(
                f'<text x="{n(cx + cell / 2)}" y="{n(cy + cell / 2 + 5)}" text-anchor="middle"'
                f' font-size="14" fill="{"#ffffff" if s > 0.5 else INK}">{count}</text>'
            )
            out.append("</g>")
    for i, name in enumerate(names):
        mid = top + i * cell + cell / 2
        out.append(f"<g><title>{x(name)}</title>")
        out.append(
            f'<text x="{n(left - 8)}" y="{n(mid + 4.5)}" text-anchor="end">{x(fit(name, LABEL_MAX))}</text>'
        )
        out.append("</g>")
        out.append(f"<g><title>{x(name)}</title>")
        out.append(
            f'<text x="{n(left + i * cell + cell / 2)}" y="{n(bottom + 17)}" text-anchor="middle">'
            f"{x(fit(name, col_label))}</text>"
        )
        out.append("</g>")
    out.append(
        f'<text x="{n(left + cell * k / 2)}" y="{n(height - 8)}" text-anchor="middle">{x(x_title)}</text>'
    )
    mid = top + cell * k / 2
    out.append(
        f'<text x="14" y="{n(mid)}" text-anchor="middle" transform="rotate(-90 14 {n(mid)})">{x(y_title)}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


def legend_rows(
    names: Sequence[str], width: float, label_max: float = LABEL_MAX
) -> list[list[tuple[int, float]]]:
    """The legend's entries (index, x) in rows that fit ``width``: a swatch, the name (cut at
    ``label_max`` px), a gap."""
    rows: list[list[tuple[int, float]]] = [[]]
    cursor = 0.0
    for i, name in enumerate(names):
        w = 16 + min(label_max, text_width(name)) + 14
        if rows[-1] and cursor + w > width:
            rows.append([])
            cursor = 0.0
        rows[-1].append((i, cursor))
        cursor += w
    return rows


def children_svg(
    labels: Sequence[str],
    values: ArrayLike,
    classes: Sequence[str] | None,
    axis_title: str,
    label_max: float = LABEL_MAX,
) -> str:
    """A test's children, one horizontal bar per branch, first branch on top: stacked by class
    (the tree's class colours, a legend above) or, for regression (``classes`` None, one value
    per branch), the branch's weight. A count is printed in its segment where it fits; a
    ``<title>`` per segment names the branch, the class and the count. The Splits page's and the
    node data's children chart, which Plotly drew before: nothing in it is clicked (issue 26).
    ``label_max``: the widest branch label (px) before it is cut with "…"."""
    vals = np.asarray(values, dtype=float).reshape(len(labels), -1)
    names = [str(v) for v in labels]
    class_names = [str(c) for c in classes] if classes is not None else []
    colors = (
        [PALETTE[k % len(PALETTE)] for k in range(vals.shape[1])]
        if classes is not None
        else [REGRESSION_COLOR]
    )
    left = 10 + min(label_max, max((text_width(s) for s in names), default=0)) + 8
    right = WIDTH - 10
    legend = legend_rows(class_names, WIDTH - 20) if class_names else []
    plot_top = 10 + 20 * len(legend)
    plot_h = ROW * len(names)
    height = plot_top + plot_h + 50
    totals = vals.sum(axis=1) if vals.size else np.zeros(0)
    vmax = max(1e-9, float(totals.max()) * 1.05) if totals.size else 1.0
    scale = (right - left) / vmax
    out = [svg_open(WIDTH, height, axis_title)]
    for r, row in enumerate(legend):
        y = 10 + 20 * r
        for k, lx in row:
            out.append(f"<g><title>{x(class_names[k])}</title>")
            out.append(f'<rect x="{n(10 + lx)}" y="{n(y + 2)}" width="11" height="11" fill="{colors[k]}"/>')
            out.append(
                f'<text x="{n(10 + lx + 16)}" y="{n(y + 12)}">{x(fit(class_names[k], LABEL_MAX))}</text>'
            )
            out.append("</g>")
    out.extend(value_axis(left, scale, vmax, plot_top, plot_h))
    for r, name in enumerate(names):
        y = plot_top + r * ROW
        out.append(f"<g><title>{x(name)}</title>")
        out.append(
            f'<text x="{n(left - 8)}" y="{n(y + ROW / 2 + 4.5)}" text-anchor="end">{x(fit(name, label_max))}</text>'
        )
        out.append("</g>")
        start = left
        for c in range(vals.shape[1]):
            v = float(vals[r, c])
            if v <= 0:
                continue
            w = v * scale
            shown = count(v)
            what = f"{x(name)} · {x(class_names[c])}" if class_names else x(name)
            out.append(f"<g><title>{what}: {x(shown)}</title>")
            out.append(
                f'<rect x="{n(start)}" y="{n(y + 3)}" width="{n(w)}" height="{ROW - 6}" fill="{colors[c]}"/>'
            )
            if w >= text_width(shown) + 8:
                out.append(
                    f'<text x="{n(start + w / 2)}" y="{n(y + ROW / 2 + 4.5)}" text-anchor="middle"'
                    f' fill="#ffffff">{x(shown)}</text>'
                )
            out.append("</g>")
            start += w
    out.append(
        f'<text x="{n((left + right) / 2)}" y="{height - 8}" text-anchor="middle">{x(axis_title)}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


def padded_range(values: Sequence[np.ndarray]) -> tuple[float, float]:
    """The span of every value given, padded by 4 % (a constant: ±0.5)."""
    every = np.concatenate([np.asarray(v, dtype=float).ravel() for v in values] + [np.zeros(0)])
    if not every.size:
        return 0.0, 1.0
    lo, hi = float(every.min()), float(every.max())
    if hi <= lo:
        return lo - 0.5, hi + 0.5
    pad = (hi - lo) * 0.04
    return lo - pad, hi + pad


def y_plot(
    width: float,
    height: float,
    y_lo: float,
    y_hi: float,
    y_title: str,
    x_title: str,
    label: str,
    top: float = 12.0,
) -> tuple[list[str], float, float, float, float, Callable[[float], float]]:
    """A chart's opening, its y grid from ``y_lo`` to ``y_hi`` and both axis titles: (parts, left,
    right, top, bottom, py: a value's y); ``top``: the plot's top (room above it for a legend)."""
    y_ticks, y_step = nice_ticks(y_lo, y_hi)
    right, bottom = width - 14, height - 44.0
    title = y_title_lines(y_title, bottom - top)
    left = y_title_band(title) + max(text_width(fmt_axis(v, y_step)) for v in y_ticks) + 8

    def py(v: float) -> float:
        return bottom - (float(v) - y_lo) / (y_hi - y_lo) * (bottom - top)

    out = [svg_open(width, height, label)]
    for v in y_ticks:
        out += grid_row(left, right, py(v), fmt_axis(v, y_step))
    out.append(y_title_svg(title, (top + bottom) / 2))
    out.append(f'<line x1="{n(left)}" y1="{n(bottom)}" x2="{n(right)}" y2="{n(bottom)}" stroke="{MUTED}"/>')
    out.append(
        f'<text x="{n((left + right) / 2)}" y="{n(height - 8)}" text-anchor="middle" fill="{INK}">'
        f"{x(fit(x_title, right - left))}</text>"
    )
    return out, left, right, top, bottom, py


#: a test's threshold in the node data charts (the split explorer's chosen-cut red)
MARK = "#d62728"


def threshold_mark(x_px: float, top: float, bottom: float, label: str) -> list[str]:
    """A dashed red vertical at ``x_px`` from ``top`` to ``bottom``, ``label`` beside its top."""
    return [
        f'<line x1="{n(x_px)}" y1="{n(top)}" x2="{n(x_px)}" y2="{n(bottom)}" stroke="{MARK}" stroke-width="2"'
        f' stroke-dasharray="6 4"/>',
        f'<text x="{n(x_px + 4)}" y="{n(top + 12)}" fill="{MARK}">{x(label)}</text>',
    ]


def x_ticks(px: Callable[[float], float], lo: float, hi: float, bottom: float) -> list[str]:
    """Tick marks and labels of a numeric x axis from ``lo`` to ``hi`` under ``bottom``
    (``px``: a value's x)."""
    out = []
    ticks, step = nice_ticks(lo, hi)
    for v in ticks:
        tx = float(px(v))
        out.append(
            f'<line x1="{n(tx)}" y1="{n(bottom)}" x2="{n(tx)}" y2="{n(bottom + 4)}" stroke="{MUTED}"/>'
        )
        out.append(
            f'<text x="{n(tx)}" y="{n(bottom + 17)}" text-anchor="middle" fill="{MUTED}">{x(fmt_axis(v, step))}</text>'
        )
    return out
