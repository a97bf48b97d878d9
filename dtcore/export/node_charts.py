"""Node charts in a tree picture (``to_dot(charts=node_charts(...))``), as dtreeviz draws them:
inside each test the split feature's histogram of the node's training rows, stacked by class,
with the split line (a categorical test: one bar per category, grouped by branch with a line
between the groups; regression: the target against the feature as a grid of shaded cells with
the split line), and each leaf as a class bar whose width says its samples (regression: the
histogram of its target on the range of the whole training target).

They are Graphviz HTML-like tables of coloured cells whose sizes encode the counts: no image,
nothing fetched, only the rectangles a tree picture is drawn with, so the SVG stays one
deterministic file and the app's pan/zoom frame keeps every cell.

The bins, a fixed rule: a continuous test's known values at the node in Sturges' k = ⌈log₂ n⌉ + 1
equal-width bins over their range (n rows; at most ``MAX_BINS``), plus each split line as an
extra edge so no bin straddles it; a bin holds the values in (left edge, right edge], the first
also its left edge. The split line sits midway between the node's largest value that goes left
and its smallest that goes right (where the node's own rows part; C4.5's stored threshold is a
training value, often the node's own smallest). A regression target is cut into ``Y_BINS``
equal-width bins of its range at the node (leaves: of the whole training target). Rows whose
tested value is missing are left out of the histogram (the box's counts still hold them);
counts are the rows' weights there (C4.5's shares of a missing value included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from dtcore.export.labels import html_escape, unwrap_model
from dtcore.node_rows import walk_nodes
from dtcore.numbers import fmt_num
from dtcore.schema import Schema
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

MAX_BINS = 12
Y_BINS = 8
CHART_WIDTH = 120  # points: a test's chart, a leaf's widest bar
CHART_HEIGHT = 36  # points: the tallest column of a test's histogram
CELL_HEIGHT = 5  # points: one target bin of a regression grid
LEAF_HEIGHT = 10  # points: a leaf's bar (classification), its histogram's tallest bin (regression)
SPLIT_COLOR = "#d62728"  # the split line
GROUP_COLOR = "#555555"  # the line between a categorical test's branches
POINT_COLOR = "#2f5d8a"  # a regression chart's cells, darker the more rows (on white)


@dataclass(frozen=True)
class SplitChart:
    """One test's chart: ``counts[c]`` per column (class weights, or the weights per target bin
    from the lowest up for regression), ``widths`` its columns in points, a line after each
    column in ``marks`` (split lines; between branches), ``labels`` the categories under the
    columns (empty for a continuous test, whose axis runs ``low`` … ``high``)."""

    counts: np.ndarray
    widths: tuple[int, ...]
    marks: tuple[int, ...]
    labels: tuple[str, ...] = ()
    low: float = 0.0
    high: float = 0.0


@dataclass(frozen=True)
class NodeCharts:
    """What ``to_dot(charts=...)`` draws: ``tests`` by node id, ``leaves`` (regression: target
    weights per bin of the training target's range) by node id, ``largest_leaf`` the weight
    of the largest leaf (a leaf's bar is that much narrower than ``CHART_WIDTH``)."""

    tests: Mapping[int, SplitChart]
    leaves: Mapping[int, np.ndarray]
    largest_leaf: float
    regression: bool


def bar_widths(counts: ArrayLike, total_width: int) -> list[tuple[int, int]]:
    """(index, width) for each positive count, widths proportional to the counts (at least 1)
    and summing to ``total_width`` exactly (largest remainders first)."""
    counts = np.asarray(counts, dtype=float)
    pos = [k for k in range(len(counts)) if counts[k] > 0]
    if not pos:
        return []
    share = np.array([counts[k] for k in pos], dtype=float)
    exact = share / share.sum() * total_width
    w = np.maximum(np.floor(exact).astype(int), 1)
    extra = total_width - int(w.sum())
    order = sorted(range(len(pos)), key=lambda i: (-(exact[i] - np.floor(exact[i])), i))
    i = 0
    while extra > 0:
        w[order[i % len(order)]] += 1
        extra -= 1
        i += 1
    while extra < 0:  # minimum widths overshot: take from the widest
        j = int(np.argmax(w))
        w[j] -= 1
        extra += 1
    return [(k, int(x)) for k, x in zip(pos, w)]


def sturges_bins(count: int) -> int:
    """Sturges' rule, ⌈log₂ count⌉ + 1 bins for ``count`` values, within 1 … ``MAX_BINS``
    (⌈log₂ c⌉ as the bit length of c − 1: exact, no floating point)."""
    return 1 if count <= 1 else min(MAX_BINS, (count - 1).bit_length() + 1)


def node_charts(
    model: BaseTreeEstimator | Tree,
    X: ArrayLike,
    y: ArrayLike,
    w: ArrayLike | None = None,
    schema: Schema | None = None,
) -> NodeCharts:
    """The charts of every node from the training rows: ``X`` encoded (``est.encode``), ``y``
    class codes (``schema.classes`` order) or target values, ``w`` their weights."""
    tree, schema, _ = unwrap_model(model, schema)
    Xa = np.asarray(X, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    regression = schema.classes is None
    n_classes = 0 if regression else len(schema.classes or ())
    wts = None if w is None else np.asarray(w, dtype=np.float64)
    valid = np.isfinite(ya) & (regression or ((ya >= 0) & (ya < n_classes)))  # a missing target: no row
    if not valid.all():
        Xa, ya, wts = Xa[valid], ya[valid], None if wts is None else wts[valid]
    y_range = (float(ya.min()), float(ya.max())) if ya.size else (0.0, 0.0)
    tests: dict[int, SplitChart] = {}
    leaves: dict[int, np.ndarray] = {}
    for node, rows, rw, _ in walk_nodes(tree, Xa, wts):
        if tree.feature[node] < 0:
            if regression:
                leaves[node] = _target_bins(ya[rows], rw, y_range, 2 * Y_BINS)
            continue
        x = Xa[rows, int(tree.feature[node])]
        if regression:
            ys = ya[rows]
            lo, hi = float(ys.min()), float(ys.max())
            tgt = np.clip(_bin_of(ys, np.linspace(lo, hi, Y_BINS + 1)), 0, Y_BINS - 1)
        else:
            tgt = ya[rows].astype(np.int64)
        n_tgt = Y_BINS if regression else n_classes
        if tree.is_categorical_test(node):
            tests[node] = _categorical_chart(tree, schema, node, x, tgt, rw, n_tgt)
        else:
            tests[node] = _continuous_chart(tree, node, x, tgt, rw, n_tgt)
    leaf_n = tree.weighted_n[tree.is_leaf] if tree.node_count else np.zeros(0)
    return NodeCharts(tests, leaves, float(leaf_n.max()) if leaf_n.size else 0.0, regression)


def _bin_of(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Column of each value: (edge j, edge j+1], the first column also its left edge."""
    return np.clip(np.searchsorted(edges, x, side="left") - 1, 0, max(edges.size - 2, 0))


def _counts(col: np.ndarray, tgt: np.ndarray, rw: np.ndarray, n_cols: int, n_tgt: int) -> np.ndarray:
    flat = np.bincount(col * n_tgt + tgt, weights=rw, minlength=n_cols * n_tgt)
    return flat[: n_cols * n_tgt].reshape(n_cols, n_tgt)


def _continuous_chart(
    tree: Tree, node: int, x: np.ndarray, tgt: np.ndarray, rw: np.ndarray, n_tgt: int
) -> SplitChart:
    known = np.isfinite(x)
    x, tgt, rw = x[known], tgt[known], rw[known]
    if x.size == 0:
        return SplitChart(np.zeros((1, n_tgt)), (CHART_WIDTH,), ())
    lo, hi = float(x.min()), float(x.max())
    lines = []
    for cut in tree.cuts_of(node).tolist():
        left, right = x[x <= cut], x[x > cut]
        if left.size and right.size:
            lines.append((float(left.max()) + float(right.min())) / 2)
    if hi > lo:
        grid = np.linspace(lo, hi, sturges_bins(int(x.size)) + 1)
        near = (hi - lo) * 1e-6  # an edge this close to a split line would be a sliver
        kept = [e for e in grid.tolist() if all(abs(e - m) > near for m in lines)]
        edges = np.array(sorted({*kept, lo, hi, *lines}))
    else:
        edges = np.array([lo, hi])
    col = _bin_of(x, edges)
    n_cols = edges.size - 1
    widths = [wd for _, wd in bar_widths(np.diff(edges), CHART_WIDTH)] if hi > lo else [CHART_WIDTH]
    edge_list = edges.tolist()
    marks = tuple(sorted(edge_list.index(m) - 1 for m in set(lines)))
    return SplitChart(_counts(col, tgt, rw, n_cols, n_tgt), tuple(widths), marks, (), lo, hi)


def _categorical_chart(
    tree: Tree, schema: Schema, node: int, x: np.ndarray, tgt: np.ndarray, rw: np.ndarray, n_tgt: int
) -> SplitChart:
    cats = schema.features[int(tree.feature[node])].categories
    branch_of_cat = tree.cat_branch_of(node)
    order = [c for b in range(int(tree.n_branches[node])) for c in range(len(cats)) if branch_of_cat[c] == b]
    known = np.isfinite(x)
    x, tgt, rw = x[known].astype(np.int64), tgt[known], rw[known]
    column = np.full(len(cats), -1, dtype=np.int64)  # category code → its column (-1: no branch)
    column[np.array(order, dtype=np.int64)] = np.arange(len(order))
    inside = (x >= 0) & (x < len(cats))
    col = np.where(inside, column[np.clip(x, 0, max(len(cats) - 1, 0))], -1)
    keep = col >= 0
    counts = _counts(col[keep], tgt[keep], rw[keep], len(order), n_tgt)
    width = max(8, min(30, CHART_WIDTH // max(len(order), 1)))
    marks = tuple(k for k in range(len(order) - 1) if branch_of_cat[order[k]] != branch_of_cat[order[k + 1]])
    return SplitChart(counts, (width,) * len(order), marks, tuple(cats[c] for c in order))


# =============================================================================================
# drawing: HTML-like tables


def mix_white(color: str, strength: float) -> str:
    """``color`` blended with white (strength 0 = white, 1 = color); needs #rrggbb."""
    if not color.startswith("#"):
        return color
    rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 + (c - 255) * strength):02x}" for c in rgb)


def _cell(width: int, height: int, color: str | None = None) -> str:
    fill = f' BGCOLOR="{color}"' if color else ""
    return f'<TD WIDTH="{width}" HEIGHT="{height}" FIXEDSIZE="TRUE"{fill}></TD>'


_TABLE = '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0">'


def _label_row(chart: SplitChart, precision: int, gaps: bool) -> str:
    """The categories under their bars when they fit (about 6 points a character), or the
    axis's two ends; "" when neither fits."""
    n = len(chart.widths)
    after = [k in chart.marks or (gaps and k < n - 1) for k in range(n)]  # a cell between columns
    if chart.labels:
        if any(len(lab) * 6 > wd for lab, wd in zip(chart.labels, chart.widths)):
            return ""
        cells = []
        for k, (lab, wd) in enumerate(zip(chart.labels, chart.widths)):
            cells.append(
                f'<TD WIDTH="{wd}" FIXEDSIZE="FALSE"><FONT POINT-SIZE="7">{html_escape(lab)}</FONT></TD>'
            )
            if after[k]:
                cells.append("<TD></TD>")
        return "<TR>" + "".join(cells) + "</TR>"
    span = n + sum(after)
    return (
        f'<TR><TD COLSPAN="{span}">{_TABLE}<TR>'
        f'<TD ALIGN="LEFT"><FONT POINT-SIZE="7">{fmt_num(chart.low, precision)}</FONT></TD>'
        f'<TD ALIGN="RIGHT"><FONT POINT-SIZE="7">{fmt_num(chart.high, precision)}</FONT></TD>'
        "</TR></TABLE></TD></TR>"
    )


def _mark_cell(chart: SplitChart, height: int) -> str:
    color, width = (GROUP_COLOR, 1) if chart.labels else (SPLIT_COLOR, 2)
    return _cell(width, height, color)


def _between(chart: SplitChart, k: int, height: int) -> str:
    """What follows column k of a histogram: its line, a 1-point gap between bars, or nothing
    after the last."""
    if k in chart.marks:
        return _mark_cell(chart, height)
    return _cell(1, height) if k < len(chart.widths) - 1 else ""


def split_chart_html(chart: SplitChart, colors: Sequence[str], precision: int) -> str:
    """A test's chart as an HTML-like table: class-stacked columns (classification, ``colors``
    by class) or a grid of cells shaded by weight (regression)."""
    if colors:
        totals = chart.counts.sum(axis=1).tolist()
        top = max(totals, default=0.0)
        body = (
            "<TR>" + "".join(_stack(chart, k, totals[k], top, colors) for k in range(len(totals))) + "</TR>"
        )
    else:
        body = _grid(chart)
    label = _label_row(chart, precision, gaps=bool(colors))
    return f"{_TABLE}{body}{label}</TABLE>"


def _stack(chart: SplitChart, k: int, total: float, top: float, colors: Sequence[str]) -> str:
    """Column k of a histogram (class 0 at the bottom; ``total`` its weight, ``top`` the
    tallest column's) and the line after it, if any."""
    width = chart.widths[k]
    height = 0 if top <= 0 or total <= 0 else max(1, round(CHART_HEIGHT * total / top))
    parts = [(cls, h) for cls, h in bar_widths(chart.counts[k], height) if h > 0] if height else []
    rows: list[tuple[int, str | None]] = [(CHART_HEIGHT - height, None)] if height < CHART_HEIGHT else []
    rows += [(h, colors[cls]) for cls, h in reversed(parts)]
    inner = "".join(f"<TR>{_cell(width, h, col)}</TR>" for h, col in rows)
    out = f'<TD VALIGN="BOTTOM">{_TABLE}{inner}</TABLE></TD>'
    return out + _between(chart, k, CHART_HEIGHT)


def _grid(chart: SplitChart) -> str:
    """A regression test's target (rows, the highest bin on top) against its feature (columns)."""
    top = float(chart.counts.max()) if chart.counts.size else 0.0
    rows = []
    for b in range(chart.counts.shape[1] - 1, -1, -1):
        cells = []
        for k, wd in enumerate(chart.widths):
            c = float(chart.counts[k, b])
            cells.append(
                _cell(wd, CELL_HEIGHT, mix_white(POINT_COLOR, 0.2 + 0.8 * c / top) if c > 0 else "#ffffff")
            )
            if k in chart.marks:
                cells.append(_mark_cell(chart, CELL_HEIGHT))
        rows.append("<TR>" + "".join(cells) + "</TR>")
    return "".join(rows)


def leaf_bar_html(counts: np.ndarray, n: float, largest: float, colors: Sequence[str]) -> str:
    """A leaf's class bar, as wide as its samples are of the largest leaf's (at least 4 points)."""
    width = max(4, round(CHART_WIDTH * n / largest)) if largest > 0 else CHART_WIDTH
    cells = "".join(_cell(wd, LEAF_HEIGHT, colors[k]) for k, wd in bar_widths(counts, width))
    return f"{_TABLE}<TR>{cells}</TR></TABLE>" if cells else ""


def leaf_histogram_html(bins: np.ndarray) -> str:
    """A regression leaf's target histogram (bins over the training target's range)."""
    top = float(bins.max()) if bins.size else 0.0
    width = CHART_WIDTH // max(bins.size, 1)
    cols = []
    for c in bins.tolist():
        h = 0 if top <= 0 or c <= 0 else max(1, round(LEAF_HEIGHT * 2 * c / top))
        rows: list[tuple[int, str | None]] = (
            [(LEAF_HEIGHT * 2 - h, None)] if h < LEAF_HEIGHT * 2 else []
        ) + ([(h, POINT_COLOR)] if h else [])
        inner = "".join(f"<TR>{_cell(width, hh, col)}</TR>" for hh, col in rows)
        cols.append(f'<TD VALIGN="BOTTOM">{_TABLE}{inner}</TABLE></TD>')
    return f"{_TABLE}<TR>{''.join(cols)}</TR></TABLE>"


def _target_bins(ys: np.ndarray, rw: np.ndarray, y_range: tuple[float, float], n_bins: int) -> np.ndarray:
    lo, hi = y_range
    if ys.size == 0:
        return np.zeros(n_bins)
    col = np.zeros(ys.size, dtype=np.int64) if hi <= lo else _bin_of(ys, np.linspace(lo, hi, n_bins + 1))
    return np.bincount(col, weights=rw, minlength=n_bins)[:n_bins]
