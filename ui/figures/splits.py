"""Plotly figures for the split explorer, built by pure functions from plain arrays.

Fixed colours (the class palette of ``dtcore.export`` for classes, fixed marks for the chosen
cut and the runner-up), no animation, so the figure JSON is a stable snapshot. Every curve point
carries its candidate index in ``customdata``, so a click maps back to the candidate even after
decimation. Axis titles and hover texts come in translated (and are user text: Plotly renders
hover/labels as text with a small HTML subset, so labels are HTML-escaped here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dtcore.criteria import entropy
from dtcore.explain import FeatureSplits, NodeData, SplitReport, branch_labels
from dtcore.export import PALETTE, REGRESSION_COLOR
from ui import i18n
from ui.views.splits import candidate_label, num

from .style import GRID, base_layout, esc, plain

LINE = "#4e79a7"
INELIGIBLE = "#b8b8b8"
CHOSEN = "#d62728"
RUNNER = "#9467bd"
PICKED = "#111111"  # the candidate being previewed: a dark ring / outline

#: above this many candidates a curve is decimated (min and max per bucket, the best kept exact):
#: 500 buckets on a chart some 800 px wide draw the same envelope as 4 000 points did, in SVG.
#: Measured on the Splits page at 10⁵ rows (bench.profile_train_page): 4 000 points in WebGL
#: 2.9 s of browser CPU, 1 000 in WebGL 2.4 s (the context's set-up), 1 000 in SVG 1.3 s.
MAX_POINTS = 1000
#: a continuous feature with at most this many distinct values gets one histogram bar per value
DISTINCT_BARS = 60
HIST_BINS = 40


def split_figure_layout(fig: go.Figure, height: int) -> go.Figure:
    return base_layout(
        fig,
        height,
        top=40,
        hovermode="closest",
        clickmode="event+select",
        dragmode=False,
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, font=dict(size=12)),
    )


def decimate(score: np.ndarray, max_points: int = MAX_POINTS, keep: Sequence[int | None] = ()) -> np.ndarray:
    """Indices to draw: all when few; else per bucket of consecutive candidates its minimum and
    maximum (the curve's envelope), plus ``keep`` (chosen, runner-up), sorted. The global
    maximum is always among them, exactly."""
    n = score.size
    if n <= max_points:
        return np.arange(n)
    buckets = max_points // 2
    size = -(-n // buckets)
    pad = buckets * size - n
    s = np.concatenate([score, np.full(pad, np.nan)]).reshape(buckets, size)
    filled = np.where(np.isnan(s), -np.inf, s)
    hi = np.argmax(filled, axis=1) + np.arange(buckets) * size
    lo = np.argmin(np.where(np.isnan(s), np.inf, s), axis=1) + np.arange(buckets) * size
    idx = np.concatenate([hi, lo, np.asarray([k for k in keep if k is not None], dtype=np.int64)])
    return np.unique(idx[idx < n])


class Histogram(NamedTuple):
    """A feature's known values at a node, by class: bar centres and widths, ``counts`` (n_classes
    or 1, B), and ``by_value``: one bar per distinct value (its centre is that value; its width
    only draws it) rather than equal-width bins (a bar covers centre ± width / 2)."""

    centres: np.ndarray
    widths: np.ndarray
    counts: np.ndarray
    by_value: bool


def class_histogram(
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    n_classes: int,
    distinct_bars: int = DISTINCT_BARS,
    bins: int = HIST_BINS,
) -> Histogram:
    """The class histogram of a feature's known values at a node: one bar per distinct value when
    few, else equal-width bins."""
    x = np.asarray(x, dtype=np.float64)
    w = np.ones(x.size) if w is None else np.asarray(w, dtype=np.float64)
    known = ~np.isnan(x)
    x, w = x[known], w[known]
    y = np.asarray(y)[known]
    groups = max(n_classes, 1)
    key = y.astype(np.int64) if n_classes else np.zeros(x.size, np.int64)
    if x.size == 0:
        return Histogram(np.zeros(0), np.zeros(0), np.zeros((groups, 0)), True)
    uniq, inv = np.unique(x, return_inverse=True)
    if uniq.size <= distinct_bars:
        gap = np.diff(uniq).min() if uniq.size > 1 else max(abs(uniq[0]) * 0.1, 1.0)
        counts = np.zeros((groups, uniq.size))
        np.add.at(counts, (key, inv), w)
        return Histogram(uniq, np.full(uniq.size, gap * 0.8), counts, True)
    edges = np.linspace(uniq[0], uniq[-1], bins + 1)
    b = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, bins - 1)
    counts = np.zeros((groups, bins))
    np.add.at(counts, (key, b), w)
    return Histogram((edges[:-1] + edges[1:]) / 2, np.diff(edges), counts, False)


def curve_figure(
    threshold, score, eligible, chosen, runner, hist, *, classes, texts: dict, stored=None, picked=None
) -> go.Figure:
    """Score against threshold (top) over the class histogram of the feature at the node
    (bottom, same x axis). ``chosen``/``runner``: candidate indices or None; ``hist``: the
    output of :func:`class_histogram`; ``classes``: class labels (None for regression);
    ``texts``: translated ``score``, ``threshold``, ``count``, ``chosen``, ``runner``,
    ``ineligible``, ``candidates``; ``stored``: the threshold the tree stores when it is not the
    midpoint (C4.5), drawn as a dotted line; ``picked``: the candidate being previewed (clicked
    or chosen below the chart), ringed."""
    x = np.asarray(threshold, dtype=np.float64)
    s = np.asarray(score, dtype=np.float64)
    ok = np.asarray(eligible, dtype=bool)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.64, 0.36], vertical_spacing=0.04)
    idx = decimate(s, keep=(chosen, runner, picked))
    el = idx[ok[idx]]
    fig.add_trace(
        go.Scatter(
            x=x[el],
            y=s[el],
            customdata=el,
            mode="lines+markers",
            name=texts["candidates"],
            line=dict(color=LINE, width=1.5, shape="linear"),
            marker=dict(color=LINE, size=5),
            unselected=dict(marker=dict(opacity=0.75)),
            hovertemplate=f"{esc(texts['threshold'])} %{{x:.6g}}<br>{esc(texts['score'])} %{{y:.4f}}<extra></extra>",
        ),
        row=1,
        col=1,
    )
    bad = idx[~ok[idx]]
    fig.add_trace(
        go.Scatter(
            x=x[bad],
            y=s[bad],
            customdata=bad,
            mode="markers",
            name=texts["ineligible"],
            marker=dict(color=INELIGIBLE, size=6, symbol="circle-open"),
            visible=True if bad.size else "legendonly",
            hovertemplate=f"{esc(texts['ineligible'])}<br>%{{x:.6g}} → %{{y:.4f}}<extra></extra>",
        ),
        row=1,
        col=1,
    )
    # two marked cuts side by side: each label leans away from the other, so that close cuts
    # (x0 ≤ −0.0245 and ≤ 0.0245) do not print their labels over each other
    lean = {}
    if chosen is not None and runner is not None and chosen != runner:
        left, right = sorted((chosen, runner), key=lambda k: x[k])
        lean = {left: "top left", right: "top right"}
    for k, name, color, symbol in (
        (runner, texts["runner"], RUNNER, "diamond"),
        (chosen, texts["chosen"], CHOSEN, "star"),
        (picked, texts.get("picked", ""), PICKED, "circle-open"),
    ):
        if k is None or (symbol == "circle-open" and k in (chosen, runner)):
            continue
        fig.add_trace(
            go.Scatter(
                x=[x[k]],
                y=[s[k]],
                customdata=[int(k)],
                mode="markers+text",
                name=name,
                text=[f"{plain(x[k])} · {num(s[k], 3)}"],
                textposition=lean.get(k, "top center"),
                textfont=dict(color=color),
                marker=dict(color=color, size=15, symbol=symbol, line=dict(color="white", width=1)),
                unselected=dict(marker=dict(opacity=1.0), textfont=dict(color=color)),
                hovertemplate=f"{esc(name)}<br>%{{x:.6g}} → %{{y:.4f}}<extra></extra>",
            ),
            row=1,
            col=1,
        )
    centres, widths, counts = hist.centres, hist.widths, hist.counts
    groups = counts.shape[0]
    for k in range(groups):
        label = str(classes[k]) if classes is not None else texts["count"]
        color = PALETTE[k % len(PALETTE)] if classes is not None else REGRESSION_COLOR
        fig.add_trace(
            go.Bar(
                x=centres,
                y=counts[k],
                width=widths,
                name=esc(label),
                marker_color=color,
                showlegend=classes is not None,
                legendgroup="classes",
                hovertemplate=f"{esc(label)}: %{{y:.4g}}<extra></extra>",
            ),
            row=2,
            col=1,
        )
    fig.update_layout(barmode="stack", bargap=0)
    # vertical marks after every trace (plotly skips shapes on subplots that are still empty)
    for k, color in ((runner, RUNNER), (chosen, CHOSEN)):
        if k is not None:
            fig.add_vline(x=float(x[k]), line=dict(color=color, width=1, dash="dash"), row="all", col=1)
    if stored is not None and chosen is not None and stored != x[chosen]:
        fig.add_vline(x=float(stored), line=dict(color=CHOSEN, width=1.5, dash="dot"), row=2, col=1)
    top = float(np.nanmax(s)) if s.size else 1.0
    bottom = float(np.nanmin(s)) if s.size else 0.0
    span = max(top - min(bottom, 0.0), 1e-9)
    fig.update_yaxes(
        title_text=esc(texts["score"]),
        range=[min(bottom, 0.0) - 0.02 * span, top + 0.18 * span],
        gridcolor=GRID,
        zeroline=True,
        zerolinecolor="#cccccc",
        row=1,
        col=1,
    )
    fig.update_yaxes(title_text=esc(texts["count"]), gridcolor=GRID, row=2, col=1)
    fig.update_xaxes(gridcolor=GRID, row=1, col=1)
    fig.update_xaxes(title_text=esc(texts["threshold"]), gridcolor=GRID, row=2, col=1)
    return split_figure_layout(fig, 460)


def candidate_bars_figure(labels, score, eligible, chosen, runner, *, texts: dict, picked=None) -> go.Figure:
    """One horizontal bar per candidate test of a categorical feature (CART's subset cuts),
    best on top; chosen and runner-up coloured, the previewed one (``picked``) outlined;
    ``customdata`` = candidate index."""
    s = np.asarray(score, dtype=np.float64)
    ok = np.asarray(eligible, dtype=bool)
    order = np.argsort(-s, kind="stable")[:30][::-1]  # plotly draws the first bar at the bottom
    colors = [
        CHOSEN if k == chosen else RUNNER if k == runner else LINE if ok[k] else INELIGIBLE for k in order
    ]
    fig = go.Figure(
        go.Bar(
            x=s[order],
            y=[f"{esc(labels[k])}" for k in order],
            orientation="h",
            marker_color=colors,
            customdata=order,
            text=[num(s[k], 4) for k in order],
            textposition="auto",
            hovertemplate="%{y}<br>" + esc(texts["score"]) + " %{x:.4f}<extra></extra>",
        )
    )
    if picked is not None and picked in order:
        fig.update_traces(
            marker_line=dict(
                color=[PICKED if k == picked else "rgba(0,0,0,0)" for k in order],
                width=[3 if k == picked else 0 for k in order],
            )
        )
    fig.update_xaxes(title_text=esc(texts["score"]), gridcolor=GRID)
    fig.update_yaxes(automargin=True, type="category")
    return split_figure_layout(fig, 120 + 30 * order.size)


def value_bars_figure(labels, counts, *, classes, texts: dict, entropies=None) -> go.Figure:
    """Stacked class counts per value (branch) of a multiway test, with each branch's entropy
    written above its bar; ``customdata`` = branch index."""
    counts = np.asarray(counts, dtype=np.float64)
    names = [esc(v) for v in labels]
    fig = go.Figure()
    for k in range(counts.shape[1]):
        fig.add_trace(
            go.Bar(
                x=names,
                y=counts[:, k],
                name=esc(classes[k]),
                customdata=np.arange(len(names)),
                marker_color=PALETTE[k % len(PALETTE)],
                hovertemplate=f"%{{x}} · {esc(classes[k])}: %{{y:.4g}}<extra></extra>",
            )
        )
    if entropies is not None:
        tot = counts.sum(axis=1)
        fig.add_trace(
            go.Scatter(
                x=names,
                y=tot,
                mode="text",
                showlegend=False,
                hoverinfo="skip",
                text=[f"{texts['entropy']} {num(e, 3)}" for e in entropies],  # a pure branch: 0.000
                textposition="top center",
            )
        )
        fig.update_yaxes(range=[0, float(tot.max()) * 1.25 if tot.size else 1])
    fig.update_layout(barmode="stack")
    fig.update_xaxes(type="category", title_text=esc(texts["value"]))
    fig.update_yaxes(title_text=esc(texts["count"]), gridcolor=GRID)
    return split_figure_layout(fig, 320)


# ---------------------------------------------------------------------------------------------
# one feature's chart at a node, as the Splits page and the report command draw it


def second_best(score: np.ndarray, eligible: np.ndarray | None, best: int | None) -> int | None:
    """Index of the best eligible candidate other than ``best`` (the runner-up mark)."""
    s = np.where(np.asarray(eligible, bool) & np.isfinite(score), score, -np.inf)
    if best is not None and 0 <= best < s.size:
        s = s.copy()
        s[best] = -np.inf
    if s.size == 0 or not np.isfinite(s).any():
        return None
    return int(np.argmax(s))


def curve_texts(rep: SplitReport, rec: FeatureSplits, lang: str) -> dict[str, str]:
    def t(key: str) -> str:
        return i18n.translate(key, lang)

    score = "splits.score." + rep.score_name if rep.algorithm == "cart" else "splits.score.gain"
    return {
        "score": t(score),
        "threshold": rec.name,
        "count": t("splits.weight"),
        "chosen": t("splits.mark.chosen"),
        "runner": t("splits.mark.runner_up"),
        "ineligible": t("splits.mark.ineligible"),
        "candidates": t("splits.mark.candidates"),
        "picked": t("splits.mark.picked"),
        "best": t("splits.mark.column_pick"),
        "entropy": "Ent",
        "value": rec.name,
    }


def feature_figure(
    nd: NodeData, rep: SplitReport, j: int, lang: str = "en", picked: int | None = None
) -> go.Figure | None:
    """The chart of feature j at the report's node: a score curve over a continuous feature's
    thresholds, CART's subset bars, or the class counts per branch of a multiway test (None: the
    feature has no candidate test here). ``nd``/``rep`` come from ``dtcore.explain``."""
    rec = rep.features[j]
    s = nd.schema
    classes = list(s.classes) if s.classes is not None else None
    texts = curve_texts(rep, rec, lang)
    mode = rec.mode
    cand = rec.candidates
    if mode == "threshold" and cand is not None:
        sc = np.asarray(cand.score, dtype=float)
        runner = second_best(sc, cand.eligible, rec.best)
        hist = class_histogram(nd.X[:, j], nd.y, nd.w, nd.C)
        stored = rec.test.cuts[0] if rec.test and rec.test.cuts else None
        return curve_figure(
            cand.threshold,
            np.where(np.isfinite(sc), sc, np.nan),
            cand.eligible,
            rec.best,
            runner,
            hist,
            classes=classes,
            texts=texts,
            stored=stored,
            picked=picked,
        )
    if mode == "subset" and cand is not None:
        labels = [
            candidate_label(rec, k, s, rep.algorithm).rsplit(" · ", 1)[0] for k in range(len(cand.score))
        ]
        runner = second_best(np.asarray(cand.score, float), cand.eligible, rec.best)
        return candidate_bars_figure(
            labels, cand.score, cand.eligible, rec.best, runner, texts=texts, picked=picked
        )
    if (
        mode in ("multiway", "intervals")
        and rec.branch_counts is not None
        and classes is not None
        and rec.test is not None
    ):
        labels = branch_labels(s, rec.test)
        counts = np.asarray(rec.branch_counts)
        return value_bars_figure(
            labels[: counts.shape[0]], counts, classes=classes, texts=texts, entropies=entropy(counts)
        )
    return None
