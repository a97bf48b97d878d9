"""The Splits page's score curve as an SVG drawn by the server, shown in the tree frame (issue
26): every candidate cut of a continuous feature at a node, its score against its threshold (top)
over the class histogram of the feature's values there (bottom, same x axis).

Plotly drew it before, and the Splits page was where Plotly's 4.7 MB script was first loaded and
run: 0.6 of the page's 1.8 s of browser CPU at 10⁵ rows (``bench.profile_train_page --steps
splits``). A click picks a candidate: the plot is cut into at most :data:`MAX_COLUMNS` columns
across its width, each a ``<g id="dtpickK">`` (K: the best eligible candidate in it, a click sends
``"pick:K"``) with its tooltip (``xlink:title``, the one the frame's sanitiser keeps): one
candidate's threshold and score, or a column's range and best. Fixed colours, fixed float
formatting: the same input gives the same bytes. Labels come in translated (``texts``) and are
XML-escaped here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from dtcore.criteria import entropy
from dtcore.explain import NodeData, SplitReport, branch_labels
from dtcore.export import PALETTE, REGRESSION_COLOR
from ui.views.splits import num
from ui.views.text import html_text as x

from .splits import Histogram, class_histogram, curve_texts, decimate, second_best
from .static_charts import (
    INK,
    MUTED,
    SIZE,
    children_svg,
    fit,
    fmt_axis,
    grid_row,
    legend_rows,
    n,
    nice_step,
    star_points,
    text_width,
    x_ticks,
    y_title_band,
    y_title_lines,
    y_title_svg,
)
from .style import FONT, plain

LINE = "#4e79a7"
INELIGIBLE = "#b8b8b8"
CHOSEN = "#d62728"
RUNNER = "#9467bd"
PICKED = "#111111"  # the candidate being previewed: a dark ring

WIDTH = 1040  # px: the page's main column at 1 400 px; the frame fits it to the column (at most 1.07×)
SCORE_HEIGHT = 220  # px, the score panel
HIST_HEIGHT = 110  # px, the histogram panel
#: the most click columns across the plot (about 6 px each at full width): every candidate its own
#: column when there are fewer; past that a column picks its best candidate (the selector below the
#: chart lists them all)
MAX_COLUMNS = 160
#: at most this many drawn points get a dot (past it the line alone: a band of dots reads as noise)
DOT_LIMIT = 200
#: the widest legend entry (px) before its name is cut with "…" (no tooltip: the frame keeps none
#: but a link's, and class names are the histogram's only key)
LEGEND_MAX = 420
#: the prefix of a click column's id (``frame.js`` sends ``"pick:K"``, ``ui.views.focus``)
PICK_PREFIX = "dtpick"


def _diamond(cx: float, cy: float, r: float) -> str:
    return f"{n(cx)},{n(cy - r)} {n(cx + r)},{n(cy)} {n(cx)},{n(cy + r)} {n(cx - r)},{n(cy)}"


def _ring(cx: float, cy: float, r: float) -> str:
    """Path data of a circle (two arcs)."""
    return f"M{n(cx - r)} {n(cy)}a{n(r)} {n(r)} 0 1 0 {n(2 * r)} 0a{n(r)} {n(r)} 0 1 0 {n(-2 * r)} 0"


def pick_columns(
    px: np.ndarray, score: np.ndarray, eligible: np.ndarray, limit: int = MAX_COLUMNS
) -> list[tuple[int, np.ndarray]]:
    """The click columns over candidates at pixel positions ``px``: (pick, members) per column,
    left to right, ``pick`` its best eligible candidate (its best if none is eligible) and
    ``members`` the candidates it holds. Candidates are binned by pixel into at most ``limit``
    equal slices of the plot; every candidate is its own column when they are fewer and apart."""
    order = np.argsort(px, kind="stable")
    if order.size == 0:
        return []
    lo, hi = float(px[order[0]]), float(px[order[-1]])
    bins = np.zeros(order.size, dtype=np.int64)
    if hi > lo:
        bins = np.minimum(((px[order] - lo) / (hi - lo) * limit).astype(np.int64), limit - 1)
    rank = np.where(eligible[order] & np.isfinite(score[order]), score[order], -np.inf)
    fallback = np.where(np.isfinite(score[order]), score[order], -np.inf)
    out = []
    starts = np.flatnonzero(np.r_[True, bins[1:] != bins[:-1]])
    for a, b in zip(starts, np.r_[starts[1:], order.size]):
        members = order[a:b]
        pool = rank[a:b] if np.isfinite(rank[a:b]).any() else fallback[a:b]
        out.append((int(members[int(np.argmax(pool))]), members))
    return out


def curve_svg(
    threshold: ArrayLike,
    score: ArrayLike,
    eligible: ArrayLike,
    chosen: int | None,
    runner: int | None,
    hist: Histogram,
    drawn: np.ndarray,
    *,
    classes: Sequence[str] | None,
    texts: dict,
    stored: float | None = None,
    picked: int | None = None,
) -> str:
    """The chart: ``drawn`` the candidate indices whose points the line goes through (all, or a
    decimated envelope: ``ui.figures.splits.decimate``); ``chosen``/``runner``/``picked``:
    candidate indices or None (the algorithm's cut a red star, the runner-up a purple diamond,
    the previewed one a dark ring); ``hist``: the feature's ``class_histogram``;
    ``stored``: the threshold the tree stores when it is not the chosen midpoint (C4.5), dotted
    in the histogram; ``texts``: the translated words of ``curve_texts``."""
    xs = np.asarray(threshold, dtype=np.float64)
    s = np.asarray(score, dtype=np.float64)
    ok = np.asarray(eligible, dtype=bool)
    centres, widths, counts = hist.centres, hist.widths, hist.counts
    finite = s[np.isfinite(s)]
    top = float(finite.max()) if finite.size else 1.0
    bottom = min(float(finite.min()) if finite.size else 0.0, 0.0)
    span = max(top - bottom, 1e-9)
    y_lo, y_hi = bottom - 0.02 * span, top + 0.18 * span
    y_step = nice_step(y_hi - y_lo, 5)
    y_ticks = [
        k * y_step for k in range(math.ceil(y_lo / y_step - 1e-9), math.floor(y_hi / y_step + 1e-9) + 1)
    ]
    stacks = counts.sum(axis=0) if counts.size else np.zeros(0)
    c_max = float(stacks.max()) if stacks.size and stacks.max() > 0 else 1.0
    c_step = nice_step(c_max, 3)
    c_top = c_step * math.ceil(c_max / c_step - 1e-9)

    labels_w = max([text_width(fmt_axis(v, y_step)) for v in y_ticks] + [text_width(fmt_axis(c_top, c_step))])
    titles = [y_title_lines(texts["score"], SCORE_HEIGHT), y_title_lines(texts["count"], HIST_HEIGHT)]
    left, right = max(y_title_band(t) for t in titles) + labels_w + 8, WIDTH - 16
    entries = [("line", texts["candidates"], LINE)]
    if (~ok).any():
        entries.append(("open", texts["ineligible"], INELIGIBLE))
    if runner is not None:
        entries.append(("diamond", texts["runner"], RUNNER))
    if chosen is not None:
        entries.append(("star", texts["chosen"], CHOSEN))
    if picked is not None and picked not in (chosen, runner):
        entries.append(("ring", texts["picked"], PICKED))
    if classes is not None:
        entries += [("bar", str(c), PALETTE[k % len(PALETTE)]) for k, c in enumerate(classes)]
    rows = legend_rows([e[1] for e in entries], WIDTH - 20, LEGEND_MAX)
    s_top = 10 + 20 * len(rows) + 8
    s_bot = s_top + SCORE_HEIGHT
    h_top = s_bot + 20
    h_bot = h_top + HIST_HEIGHT
    height = h_bot + 46

    edges = [float(xs.min()), float(xs.max())] if xs.size else [0.0, 1.0]
    if centres.size:
        edges += [float((centres - widths / 2).min()), float((centres + widths / 2).max())]
    lo, hi = min(edges), max(edges)
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    pad = (hi - lo) * 0.02
    lo, hi = lo - pad, hi + pad

    def px(v: ArrayLike) -> np.ndarray:
        return left + (np.asarray(v, dtype=np.float64) - lo) / (hi - lo) * (right - left)

    def sy(v: float) -> float:
        return s_bot - (float(v) - y_lo) / (y_hi - y_lo) * SCORE_HEIGHT

    def hy(v: float) -> float:
        return h_bot - float(v) / c_top * HIST_HEIGHT

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' viewBox="0 0 {WIDTH} {n(height)}" width="{WIDTH}" height="{n(height)}"'
        f' font-family="{FONT}" font-size="{SIZE}" fill="{INK}">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{n(height)}" fill="#ffffff"/>',
    ]
    for r, row in enumerate(rows):
        ly = 10 + 20 * r
        for k, lx in row:
            kind, name, color = entries[k]
            sx, cy = 10 + lx, ly + 7.5
            if kind == "line":
                out.append(
                    f'<line x1="{n(sx)}" y1="{n(cy)}" x2="{n(sx + 12)}" y2="{n(cy)}" stroke="{color}" stroke-width="2"/>'
                )
            elif kind == "bar":
                out.append(f'<rect x="{n(sx)}" y="{n(ly + 2)}" width="12" height="11" fill="{color}"/>')
            elif kind == "star":
                out.append(
                    f'<polygon points="{star_points(sx + 6, cy, 6)}" fill="{color}" stroke="#ffffff"/>'
                )
            elif kind == "diamond":
                out.append(f'<polygon points="{_diamond(sx + 6, cy, 5)}" fill="{color}" stroke="#ffffff"/>')
            else:  # an open circle: ineligible, or the previewed ring
                width = 2 if kind == "ring" else 1.5
                out.append(
                    f'<path d="{_ring(sx + 6, cy, 4.5)}" fill="none" stroke="{color}" stroke-width="{width}"/>'
                )
            out.append(f'<text x="{n(sx + 16)}" y="{n(ly + 12)}">{x(fit(name, LEGEND_MAX))}</text>')
    # grids and y axes
    for v in y_ticks:
        out += grid_row(left, right, sy(v), fmt_axis(v, y_step))
    if y_lo < 0 < y_hi:
        out.append(f'<line x1="{n(left)}" y1="{n(sy(0))}" x2="{n(right)}" y2="{n(sy(0))}" stroke="#cccccc"/>')
    k = 0
    while k * c_step <= c_top * (1 + 1e-9):
        out += grid_row(left, right, hy(k * c_step), fmt_axis(k * c_step, c_step))
        k += 1
    for title, a, b in zip(titles, (s_top, h_top), (s_bot, h_bot), strict=True):
        out.append(y_title_svg(title, (a + b) / 2))
    # the histogram: stacked bars by class
    base = np.zeros(centres.size)
    for k in range(counts.shape[0]):
        color = PALETTE[k % len(PALETTE)] if classes is not None else REGRESSION_COLOR
        for c, w, v, b0 in zip(centres, widths, counts[k], base):
            if v <= 0:
                continue
            x0, x1 = float(px(c - w / 2)), float(px(c + w / 2))
            out.append(
                f'<rect x="{n(x0)}" y="{n(hy(b0 + v))}" width="{n(max(x1 - x0, 0.5))}"'
                f' height="{n(hy(b0) - hy(b0 + v))}" fill="{color}"/>'
            )
        base = base + counts[k]
    # the marked cuts across both panels, C4.5's stored threshold in the histogram
    for mark, color in ((runner, RUNNER), (chosen, CHOSEN)):
        if mark is not None:
            cx = float(px(xs[mark]))
            out.append(
                f'<line x1="{n(cx)}" y1="{n(s_top)}" x2="{n(cx)}" y2="{n(h_bot)}" stroke="{color}"'
                f' stroke-width="1" stroke-dasharray="5 4"/>'
            )
    if stored is not None and chosen is not None and stored != xs[chosen]:
        cx = float(px(stored))
        out.append(
            f'<line x1="{n(cx)}" y1="{n(h_top)}" x2="{n(cx)}" y2="{n(h_bot)}" stroke="{CHOSEN}"'
            f' stroke-width="1.5" stroke-dasharray="2 3"/>'
        )
    # the curve: eligible points joined in threshold order, ineligible ones as open circles
    drawn = np.asarray(drawn, dtype=np.int64)
    el = drawn[ok[drawn] & np.isfinite(s[drawn])]
    el = el[np.argsort(xs[el], kind="stable")]
    ex, ey = px(xs[el]), [sy(v) for v in s[el]]
    if el.size:
        d = "M" + "L".join(f"{n(a)} {n(b)}" for a, b in zip(ex, ey))
        out.append(f'<path d="{d}" fill="none" stroke="{LINE}" stroke-width="1.5"/>')
        if el.size <= DOT_LIMIT:
            dots = "".join(f"M{n(a)} {n(b)}h0" for a, b in zip(ex, ey))
            out.append(f'<path d="{dots}" stroke="{LINE}" stroke-width="5" stroke-linecap="round"/>')
    bad = drawn[~ok[drawn] & np.isfinite(s[drawn])]
    if bad.size:
        rings = "".join(_ring(float(px(xs[k])), sy(s[k]), 3) for k in bad)
        out.append(f'<path d="{rings}" fill="none" stroke="{INELIGIBLE}" stroke-width="1.5"/>')
    # the marks and their labels ("x · score"), leaning away from each other when both are shown
    lean = {}
    if chosen is not None and runner is not None and chosen != runner:
        a, b = sorted((chosen, runner), key=lambda k: xs[k])
        lean = {a: "end", b: "start"}
    for mark, color, kind in (
        (runner, RUNNER, "diamond"),
        (chosen, CHOSEN, "star"),
        (picked, PICKED, "ring"),
    ):
        if mark is None or not np.isfinite(s[mark]) or (kind == "ring" and mark in (chosen, runner)):
            continue
        k = mark
        cx, cy = float(px(xs[k])), sy(s[k])
        if kind == "star":
            out.append(f'<polygon points="{star_points(cx, cy, 8)}" fill="{color}" stroke="#ffffff"/>')
        elif kind == "diamond":
            out.append(f'<polygon points="{_diamond(cx, cy, 7)}" fill="{color}" stroke="#ffffff"/>')
        else:
            out.append(f'<path d="{_ring(cx, cy, 7.5)}" fill="none" stroke="{color}" stroke-width="2"/>')
            continue
        anchor = lean.get(k, "middle")
        tx = cx
        if anchor != "middle":  # over its own mark, and clear of the other's label
            mid = (float(px(xs[chosen])) + float(px(xs[runner]))) / 2
            tx = min(cx + 4, mid - 3) if anchor == "end" else max(cx - 4, mid + 3)
        out.append(
            f'<text x="{n(tx)}" y="{n(cy - 12)}" text-anchor="{anchor}" fill="{color}">'
            f"{x(plain(xs[k]))} · {x(num(s[k], 3))}</text>"
        )
    # the x axis under the histogram
    out += x_ticks(lambda v: float(px(v)), lo, hi, h_bot)
    out.append(f'<line x1="{n(left)}" y1="{n(h_bot)}" x2="{n(right)}" y2="{n(h_bot)}" stroke="{MUTED}"/>')
    out.append(
        f'<text x="{n((left + right) / 2)}" y="{n(height - 8)}" text-anchor="middle">{x(fit(texts["threshold"], 400))}</text>'
    )
    # the click columns, over everything (painted, invisible; a hovered one shows, frame.css)
    columns = pick_columns(px(xs), s, ok)
    picks = [float(px(xs[k])) for k, _ in columns]
    bounds = [left] + [(a + b) / 2 for a, b in zip(picks, picks[1:])] + [right]
    out.append('<g fill="#4e79a7" fill-opacity="0">')
    for (k, members), x0, x1 in zip(columns, bounds, bounds[1:]):
        out.append(
            f'<g id="{PICK_PREFIX}{k}" class="pick"><a xlink:title="{_tip(members, k, xs, s, ok, texts)}">'
            f'<rect x="{n(x0)}" y="{n(s_top)}" width="{n(max(x1 - x0, 0.5))}" height="{SCORE_HEIGHT}"/></a></g>'
        )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def _tip(members: np.ndarray, k: int, xs: np.ndarray, s: np.ndarray, ok: np.ndarray, texts: dict) -> str:
    """A column's tooltip (an attribute value, escaped): its one candidate, or its range and the
    candidate a click picks."""
    name, score = texts["threshold"], texts["score"]

    def one(j: int) -> str:
        tail = "" if ok[j] else f" ({texts['ineligible']})"
        return f"{name} ≤ {plain(xs[j], 6)} · {score} {num(s[j], 4)}{tail}"

    if members.size == 1:
        return x(one(k))
    tail = "" if ok[k] else f" ({texts['ineligible']})"
    span = f"{name} ≤ {plain(xs[members].min(), 6)} … {plain(xs[members].max(), 6)} ({members.size} × {texts['candidates']})"
    return x(span) + "&#10;" + x(f"{texts['best']}: ≤ {plain(xs[k], 6)} · {num(s[k], 4)}{tail}")


def threshold_curve_svg(
    nd: NodeData, rep: SplitReport, j: int, lang: str = "en", picked: int | None = None
) -> str | None:
    """The curve of continuous feature ``j`` at the report's node as the Splits page shows it
    (None: the feature has no threshold candidates here); the same marks, decimation and words as
    ``ui.figures.splits.feature_figure``, which the report command exports."""
    rec = rep.features[j]
    cand = rec.candidates
    if rec.mode != "threshold" or cand is None or cand.threshold is None or cand.eligible is None:
        return None
    s = nd.schema
    sc = np.asarray(cand.score, dtype=float)
    sc = np.where(np.isfinite(sc), sc, np.nan)
    runner = second_best(sc, cand.eligible, rec.best)
    stored = rec.test.cuts[0] if rec.test and rec.test.cuts else None
    return curve_svg(
        cand.threshold,
        sc,
        cand.eligible,
        rec.best,
        runner,
        class_histogram(nd.X[:, j], nd.y, nd.w, nd.C),
        decimate(sc, keep=(rec.best, runner, picked)),
        classes=list(s.classes) if s.classes is not None else None,
        texts=curve_texts(rep, rec, lang),
        stored=stored,
        picked=picked,
    )


def branch_bars_svg(nd: NodeData, rep: SplitReport, j: int, lang: str = "en") -> str | None:
    """The class counts in each branch of feature ``j``'s multiway test at the report's node,
    each branch's entropy in its label, as the static children chart (``children_svg``: nothing
    in it is clicked, so no Plotly); None: not a multiway test of a classification tree."""
    rec = rep.features[j]
    s = nd.schema
    if (
        rec.mode not in ("multiway", "intervals")
        or rec.branch_counts is None
        or s.classes is None
        or rec.test is None
    ):
        return None
    counts = np.asarray(rec.branch_counts, dtype=float)
    labels = branch_labels(s, rec.test)[: counts.shape[0]]
    texts = curve_texts(rep, rec, lang)
    # the entropy first: a long category is cut with "…", never the number
    names = [f"{texts['entropy']} {num(e, 3)} · {label}" for label, e in zip(labels, entropy(counts))]
    return children_svg(names, counts, list(s.classes), texts["count"], label_max=280)
