"""The Pruning page's charts as static SVG drawn by the server (issue 26): error and leaves along
the cost-complexity path, and C4.5's tree size and estimated errors against the confidence factor.

Nothing in them is clicked: Plotly drew them before, and opening the Pruning page on a 10⁴-node
tree spent 0.44 s of browser CPU in Plotly for them (``bench.profile_train_page --tree 1 --steps
prune``). Fixed colours (the export palette), fixed float formatting, so the same model and
settings give the same bytes. Errors are staircases over the path's steps: a subtree serves every
α from its own effective α up to the next one. A path step (a CF of the grid) is one column with a
``<title>``, the browser's tooltip: its α, leaves and every curve's value there. Labels come in
translated by the caller (``labels``: a dict of the few words each chart needs) and are
XML-escaped here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dtcore.export import PALETTE
from dtcore.numbers import fmt_fixed, fmt_pct
from ui.services.pruning import AlphaCurves, CFCurves
from ui.views.text import html_text as x

from .static_charts import (
    INK,
    MUTED,
    SIZE,
    fit,
    fmt_axis,
    grid_row,
    legend_rows,
    n,
    nice_step,
    star_points,
    svg_open,
    text_width,
    y_title_band,
    y_title_lines,
    y_title_svg,
)
from .style import plain

COLORS = {
    "train": PALETTE[0],
    "valid": PALETTE[1],
    "test": PALETTE[2],
    "cv": PALETTE[3],
    "leaves": PALETTE[4],
    "size": PALETTE[0],
    "estimate": PALETTE[3],
}
BAND = "#e15759"  # PALETTE[3] (cv), drawn at BAND_OPACITY
BAND_OPACITY = 0.18
CHOSEN = "#333333"
RULE = PALETTE[6]

WIDTH = 520  # px: half the page at 1 400 px (the α charts sit side by side; the SVG shrinks with its column)
WIDE = 880  # px: the CF chart, alone across the page
PLOT_HEIGHT = 250  # px, one panel
MAX_TICKS = 12
#: above this many points a curve is drawn without its dots (the line alone, the columns' tooltips stay)
DOT_LIMIT = 200
#: the most columns (tooltips) and staircase steps a path's chart draws, about 3 px each: a longer
#: path (thousands of steps on a 10⁴-node tree, 340 KB of SVG drawn step by step) is drawn by
#: groups of consecutive steps, each its curves' range at its first step and a tooltip of ranges
MAX_COLUMNS = 160


def step_groups(n: int, limit: int = MAX_COLUMNS) -> list[tuple[int, int]]:
    """Consecutive positions [start, stop) in at most ``limit`` groups of equal size (the last
    shorter): one group per position when they are few."""
    size = max(1, -(-n // limit))
    return [(a, min(a + size, n)) for a in range(0, n, size)]


@dataclass(frozen=True)
class Curve:
    """One line of a panel: ``y`` per x position; ``step``: a staircase (each value held up to the
    next position); ``dash``: dotted."""

    name: str
    y: Sequence[float]
    color: str
    step: bool = False
    dash: bool = False


@dataclass(frozen=True)
class Panel:
    """A plot area: its curves, the ±1 SE band (lower, upper), the CV rule's star (a position on
    the first curve), the y axis title, and how its ticks read (a share as a percentage, whole
    counts)."""

    curves: list[Curve]
    y_title: str
    band: tuple[Sequence[float], Sequence[float]] | None = None
    star: int | None = None
    percent: bool = False
    integer: bool = False


def _y_ticks(panel: Panel) -> tuple[float, float]:
    """(axis top, tick step): from 0 to a round value at or above every value drawn."""
    values = [float(v) for c in panel.curves for v in c.y]
    if panel.band is not None:
        values += [float(v) for v in panel.band[1]]
    vmax = max([v for v in values if v == v] + [0.0])
    if vmax <= 0:
        vmax = 1.0
    step = nice_step(vmax)
    if panel.integer:
        step = max(1.0, float(round(step)))
    top = step * -(-vmax // step)
    return top, step


def _tick_label(v: float, step: float, panel: Panel) -> str:
    if panel.percent:
        digits = max(0, -math.floor(math.log10(step * 100) + 1e-9))
        return fmt_fixed(v * 100, digits) + "%"
    if panel.integer:
        return f"{int(round(v)):,}"
    return fmt_axis(v, step)


def tip_text(tip: str) -> str:
    """A tooltip's lines, escaped, joined by a line-feed entity (a raw line break would end the
    Markdown HTML block the SVG is sent in)."""
    return "&#10;".join(x(line) for line in tip.split("\n"))


def _staircase(
    px: Sequence[float], py: Sequence[float], groups: Sequence[tuple[int, int]], right: float
) -> str:
    """Path data of a staircase through the points, the last value held to ``right``; a group of
    several points is drawn at its first point's x as its whole range, ending at its last value."""
    out = [f"M{n(px[0])} {n(py[0])}"]
    for a, b in groups:
        if a:
            out.append(f"H{n(px[a])}V{n(py[a])}")
        if b - a > 1:
            seg = py[a:b]
            out.append(f"V{n(min(seg))}V{n(max(seg))}V{n(seg[-1])}")
    out.append(f"H{n(right)}")
    return "".join(out)


def _spaced(
    ticks: list[tuple[float, str]], px: Callable[[float], float], gap: float = 10
) -> list[tuple[float, str]]:
    """Every k-th tick, the smallest k whose labels keep ``gap`` px between them (α labels are
    wide: 0.0000141)."""
    for every in range(1, len(ticks) + 1):
        kept = ticks[::every]
        if all(
            px(b[0]) - text_width(b[1]) / 2 - px(a[0]) - text_width(a[1]) / 2 >= gap
            for a, b in zip(kept, kept[1:])
        ):
            return kept
    return ticks[:1]


def line_chart_svg(
    panels: list[Panel],
    xs: Sequence[float],
    ticks: list[tuple[float, str]],
    x_title: str,
    tips: Sequence[str],
    *,
    chosen: float | None,
    chosen_label: str,
    legend: list[tuple[str, str, str]],
    step_columns: bool,
    label: str,
    panel_height: int = PLOT_HEIGHT,
    width: int = WIDTH,
    groups: Sequence[tuple[int, int]] | None = None,
) -> str:
    """Panels one above the other over one x axis (data positions ``xs``, labelled ``ticks``);
    ``tips[g]``: the tooltip of group g of ``groups`` (consecutive positions; default one per
    position; several only with ``step_columns``), a column of the plot; ``chosen``: a dashed line at
    that x in every panel, named once; ``legend``: (kind "line" / "dash" / "band" / "star", name,
    colour). ``step_columns``: each position's column reaches to the next (staircases), else it
    is centred on it. ``panel_height``: px per panel, ``width``: the chart's (it shrinks with its
    column)."""
    groups = [(i, i + 1) for i in range(len(xs))] if groups is None else list(groups)
    assert step_columns or len(groups) == len(xs), "only staircases are drawn by groups"
    y_label_w = 0.0
    for p in panels:
        top, step = _y_ticks(p)
        k = 0
        while k * step <= top * (1 + 1e-9):
            y_label_w = max(y_label_w, text_width(_tick_label(k * step, step, p)))
            k += 1
    titles = [y_title_lines(p.y_title, panel_height) for p in panels]
    left = max(y_title_band(t) for t in titles) + y_label_w + 8  # the rotated y title, the tick labels
    right = width - 14
    names = [name for _, name, _ in legend]
    rows = legend_rows(names, width - 20)
    plot_top = 10 + 20 * len(rows) + (16 if chosen is not None else 0)
    gap = 28
    height = plot_top + len(panels) * panel_height + (len(panels) - 1) * gap + 50
    lo, hi = float(min(xs)), float(max(xs))
    if step_columns or hi == lo:  # a staircase's step reaches half a position either side
        lo, hi = lo - 0.5, hi + 0.5
    else:
        pad = (hi - lo) * 0.03
        lo, hi = lo - pad, hi + pad

    def px(v: float) -> float:
        return left + (float(v) - lo) / (hi - lo) * (right - left)

    out = [svg_open(width, height, label)]
    for r, row in enumerate(rows):
        y = 10 + 20 * r
        for k, lx in row:
            kind, name, color = legend[k]
            sx = 10 + lx
            out.append(f"<g><title>{x(name)}</title>")
            if kind == "band":
                out.append(
                    f'<rect x="{n(sx)}" y="{n(y + 2)}" width="12" height="11" fill="{color}"'
                    f' fill-opacity="{BAND_OPACITY}"/>'
                )
            elif kind == "star":
                out.append(
                    f'<polygon points="{star_points(sx + 6, y + 7.5, 6)}" fill="{color}" stroke="{CHOSEN}"/>'
                )
            else:
                dash = ' stroke-dasharray="2 3"' if kind == "dash" else ""
                out.append(
                    f'<line x1="{n(sx)}" y1="{n(y + 7.5)}" x2="{n(sx + 12)}" y2="{n(y + 7.5)}"'
                    f' stroke="{color}" stroke-width="2"{dash}/>'
                )
            out.append(f'<text x="{n(sx + 16)}" y="{n(y + 12)}">{x(fit(name, 180))}</text>')
            out.append("</g>")
    bottom = plot_top
    for i, p in enumerate(panels):
        ptop = plot_top + i * (panel_height + gap)
        pbot = ptop + panel_height
        bottom = pbot
        top, step = _y_ticks(p)

        def py(v: float, ptop: float = ptop, top: float = top) -> float:
            return ptop + panel_height - float(v) / top * panel_height

        k = 0
        while k * step <= top * (1 + 1e-9):
            out += grid_row(left, right, py(k * step), _tick_label(k * step, step, p))
            k += 1
        out.append(y_title_svg(titles[i], (ptop + pbot) / 2))
        xp = [px(v) for v in xs]
        if p.band is not None:  # by group: its highest upper and lowest lower bound
            gx = [xp[a] for a, _ in groups]
            low = [min(p.band[0][a:b]) for a, b in groups]
            up = [max(p.band[1][a:b]) for a, b in groups]
            ones = [(k, k + 1) for k in range(len(groups))]
            upper = _staircase(gx, [py(v) for v in up], ones, px(hi))
            lower_pts = [(px(hi), py(low[-1]))]
            for j in range(len(gx) - 1, 0, -1):
                lower_pts += [(gx[j], py(low[j])), (gx[j], py(low[j - 1]))]
            lower_pts.append((gx[0], py(low[0])))
            back = "".join(f"L{n(a)} {n(b)}" for a, b in lower_pts)
            out.append(
                f'<path d="{upper}{back}Z" fill="{BAND}" fill-opacity="{BAND_OPACITY}" stroke="none"/>'
            )
        for c in p.curves:
            ys = [py(v) for v in c.y]
            dash = ' stroke-dasharray="2 3"' if c.dash else ""
            if c.step:
                d = _staircase(xp, ys, groups, px(hi))
            else:
                d = "M" + "L".join(f"{n(a)} {n(b)}" for a, b in zip(xp, ys))
            out.append(f'<path d="{d}" fill="none" stroke="{c.color}" stroke-width="2"{dash}/>')
            if len(xp) <= DOT_LIMIT and len(groups) == len(
                xp
            ):  # a dot per point: zero-length strokes with round caps
                dots = "".join(f"M{n(a)} {n(b)}h0" for a, b in zip(xp, ys))
                out.append(f'<path d="{dots}" stroke="{c.color}" stroke-width="6" stroke-linecap="round"/>')
        if p.star is not None:
            sx, sy = xp[p.star], py(p.curves[0].y[p.star])
            out.append(f'<polygon points="{star_points(sx, sy)}" fill="{RULE}" stroke="{CHOSEN}"/>')
        if chosen is not None:
            cx = px(chosen)
            out.append(
                f'<line x1="{n(cx)}" y1="{n(ptop)}" x2="{n(cx)}" y2="{n(pbot)}" stroke="{CHOSEN}"'
                f' stroke-width="1.5" stroke-dasharray="5 4"/>'
            )
        # one tooltip column per group of positions, over everything drawn (painted, invisible)
        out.append('<g fill="#000" fill-opacity="0">')
        for (g0, g1), tip in zip(groups, tips):
            if step_columns:
                a, b = xp[g0], xp[g1] if g1 < len(xp) else px(hi)
            else:
                a = (xp[g0 - 1] + xp[g0]) / 2 if g0 else px(lo)
                b = (xp[g0] + xp[g0 + 1]) / 2 if g0 + 1 < len(xp) else px(hi)
            out.append(
                f'<rect x="{n(a)}" y="{n(ptop)}" width="{n(max(b - a, 0.5))}" height="{panel_height}">'
                f"<title>{tip_text(tip)}</title></rect>"
            )
        out.append("</g>")
    if chosen is not None:
        cx = px(chosen)
        out.append(
            f'<text x="{n(cx + 4)}" y="{n(plot_top - 5)}" font-size="{SIZE - 2}" fill="{CHOSEN}">'
            f"{x(chosen_label)}</text>"
        )
    for pos, text in _spaced(ticks, px):
        tx = px(pos)
        out.append(
            f'<line x1="{n(tx)}" y1="{n(bottom)}" x2="{n(tx)}" y2="{n(bottom + 4)}" stroke="{MUTED}"/>'
        )
        out.append(
            f'<text x="{n(tx)}" y="{n(bottom + 17)}" text-anchor="middle" fill="{MUTED}">{x(text)}</text>'
        )
    out.append(f'<line x1="{n(left)}" y1="{n(bottom)}" x2="{n(right)}" y2="{n(bottom)}" stroke="{MUTED}"/>')
    out.append(
        f'<text x="{n((left + right) / 2)}" y="{n(height - 8)}" text-anchor="middle" fill="{INK}">{x(x_title)}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


def step_of(alphas: Sequence[float], alpha: float) -> int:
    """Index of the path step a chosen α prunes to (the largest path α ≤ it)."""
    below = [i for i, a in enumerate(alphas) if a <= alpha + 1e-15]
    return below[-1] if below else 0


def alpha_ticks(alphas: Sequence[float]) -> list[tuple[float, str]]:
    """Path steps evenly spaced, labelled with their α: the effective α grow geometrically, so a
    linear α axis would crowd every step but the last few against 0 (rpart's plotcp does the same)."""
    every = max(1, -(-len(alphas) // MAX_TICKS))
    return [(float(i), plain(alphas[i], 3)) for i in range(0, len(alphas), every)]


def _span(values: Sequence, fmt: Callable[[Any], str]) -> str:
    """One value, or the range (lowest – highest) of a group's values."""
    lo, hi = fmt(min(values)), fmt(max(values))
    return lo if lo == hi else f"{lo} – {hi}"


def _alpha_span(alphas: Sequence[float], a: int, b: int) -> str:
    return f"α = {alphas[a]:.4g}" if b - a == 1 else f"α = {alphas[a]:.4g} – {alphas[b - 1]:.4g}"


def _fmt(v: float, metric: str) -> str:
    return fmt_pct(v) if metric == "error_rate" else f"{float(v):.4g}"


def alpha_error_svg(curves: AlphaCurves, chosen_alpha: float, labels: dict) -> str:
    """Error of each path subtree on train / validation / test, the k-fold CV error with a ±1 SE
    band (scored at Breiman's β midpoints, drawn at the candidate α it stands for), the CV rule's
    choice as a star and the chosen α as a dashed line. x = path step, ticks = its α.

    ``curves``: :class:`ui.services.pruning.AlphaCurves`; ``labels``: split names, ``cv``, ``band``,
    ``rule``, ``alpha``, ``error``, ``chosen``, ``leaves``."""
    alphas = list(curves.alphas)
    xs = [float(i) for i in range(len(alphas))]
    drawn: list[Curve] = []
    legend: list[tuple[str, str, str]] = []
    band = None
    star = None
    if curves.cv is not None:
        err, se = curves.cv.errors.tolist(), curves.cv.ses.tolist()
        band = ([max(e - s, 0.0) for e, s in zip(err, se)], [e + s for e, s in zip(err, se)])
        drawn.append(Curve(labels["cv"], err, COLORS["cv"], step=True))
        legend += [("band", labels["band"], BAND), ("line", labels["cv"], COLORS["cv"])]
        legend.append(("star", labels["rule"], RULE))
        star = curves.cv.index
    for split in ("train", "valid", "test"):
        if split in curves.errors:
            drawn.append(Curve(labels[split], curves.errors[split], COLORS[split], step=True))
            legend.append(("line", labels[split], COLORS[split]))
    groups = step_groups(len(alphas))
    tips = []
    for a, b in groups:
        lines = [f"{_alpha_span(alphas, a, b)} · {_span(curves.n_leaves[a:b], str)} {labels['leaves']}"]
        for c in drawn:
            text = f"{c.name}: {_span(c.y[a:b], lambda v: _fmt(v, curves.metric))}"
            if curves.cv is not None and c.name == labels["cv"] and b - a == 1:
                text += f" ± {_fmt(curves.cv.ses[a], curves.metric)}"
            lines.append(text)
        if star is not None and a <= star < b:
            lines.append(labels["rule"])
        tips.append("\n".join(lines))
    panel = Panel(drawn, labels["error"], band=band, star=star, percent=curves.metric == "error_rate")
    return line_chart_svg(
        [panel],
        xs,
        alpha_ticks(alphas),
        labels["alpha"],
        tips,
        chosen=float(step_of(alphas, chosen_alpha)),
        chosen_label=labels["chosen"],
        legend=legend,
        step_columns=True,
        label=labels["error"],
        groups=groups,
    )


def leaves_alpha_svg(curves: AlphaCurves, chosen_alpha: float, labels: dict) -> str:
    """Leaves of the pruned tree at each path step: a staircase down to the root alone."""
    alphas = list(curves.alphas)
    leaves = [float(v) for v in curves.n_leaves]
    groups = step_groups(len(alphas))
    tips = [
        f"{_alpha_span(alphas, a, b)}: {_span(curves.n_leaves[a:b], str)} {labels['leaves']}"
        for a, b in groups
    ]
    panel = Panel(
        [Curve(labels["leaves"], leaves, COLORS["leaves"], step=True)], labels["leaves"], integer=True
    )
    return line_chart_svg(
        [panel],
        [float(i) for i in range(len(alphas))],
        alpha_ticks(alphas),
        labels["alpha"],
        tips,
        chosen=float(step_of(alphas, chosen_alpha)),
        chosen_label=labels["chosen"],
        legend=[],
        step_columns=True,
        label=labels["leaves"],
        groups=groups,
    )


def cf_svg(curves: CFCurves, chosen_cf: float, labels: dict) -> str:
    """C4.5's error-based pruning at each CF: tree size (nodes, leaves dotted) above, the
    estimated errors (sum of U_CF over the pruned tree's leaves) below; the chosen CF as a
    dashed line in both."""
    cfs = [float(v) for v in curves.cfs]
    size = Panel(
        [
            Curve(labels["nodes"], [float(v) for v in curves.nodes], COLORS["size"]),
            Curve(labels["leaves"], [float(v) for v in curves.leaves], COLORS["leaves"], dash=True),
        ],
        labels["size"],
        integer=True,
    )
    est = Panel(
        [Curve(labels["estimate"], [float(v) for v in curves.estimated_errors], COLORS["estimate"])],
        labels["estimate"],
    )
    tips = [
        f"CF {plain(c)}\n{labels['nodes']}: {curves.nodes[i]}\n{labels['leaves']}: {curves.leaves[i]}\n"
        f"{labels['estimate']}: {float(curves.estimated_errors[i]):.4g}"
        for i, c in enumerate(cfs)
    ]
    span = max(cfs) - min(cfs) if cfs else 1.0
    step = nice_step(span, 6) if span > 0 else 1.0
    first = step * -(-min(cfs) // step) if cfs else 0.0
    ticks = []
    k = 0
    while cfs and first + k * step <= max(cfs) * (1 + 1e-9):
        v = first + k * step
        ticks.append((v, plain(v, 3)))
        k += 1
    return line_chart_svg(
        [size, est],
        cfs,
        ticks,
        labels["cf"],
        tips,
        chosen=float(chosen_cf),
        chosen_label=labels["chosen"],
        legend=[
            ("line", labels["nodes"], COLORS["size"]),
            ("dash", labels["leaves"], COLORS["leaves"]),
            ("line", labels["estimate"], COLORS["estimate"]),
        ],
        step_columns=False,
        label=labels["cf"],
        panel_height=170,
        width=WIDE,
    )
