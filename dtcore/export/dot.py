"""Graphviz DOT of a fitted tree: HTML-like labels with escaped user text, a fixed palette and
fonts, pre-order node ids and stable element ids, so the same model gives byte-identical DOT."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from dtcore.export.labels import (
    Branch,
    branches,
    condition_text,
    dot_string,
    html_escape,
    impurity_name,
    is_empty,
    node_prediction_indices,
    unwrap_model,
)
from dtcore.export.node_charts import (
    NodeCharts,
    bar_widths,
    leaf_bar_html,
    leaf_histogram_html,
    mix_white,
    split_chart_html,
)
from dtcore.export.origin import HESSIAN
from dtcore.export.thresholds import midpoint_text
from dtcore.export.words import complete_words
from dtcore.numbers import fmt_num, fmt_weight
from dtcore.routing import DISTRIBUTE
from dtcore.schema import Schema
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

#: First choice renders Chinese with the installed fonts-noto-cjk; the rest are fallbacks for
#: other systems (a comma list works for pango/fontconfig and as a CSS font-family in SVG).
FONTNAME = (
    "Noto Sans CJK SC,Noto Sans CJK JP,Source Han Sans SC,Microsoft YaHei,PingFang SC,"
    "WenQuanYi Micro Hei,Noto Sans,DejaVu Sans,sans-serif"
)

#: Fixed class palette (Tableau 10): class k gets colour k, so pictures are stable across runs.
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#b07aa1",
    "#76b7b2",
    "#edc948",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
REGRESSION_COLOR = "#e58139"
_EDGE_GAP = 6  # points between an edge and its label
#: the room between two lines of an edge label, in points (``_edge_label``)
_EDGE_LINE_SPACER = '<TR><TD COLSPAN="2" HEIGHT="3"></TD></TR>'


_COLOR_RE = re.compile(r"^(#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$")


def class_palette(classes: Iterable[str], class_colors: dict | None = None) -> list[str]:
    """One colour per class: the fixed palette by class index, overridden by ``class_colors``."""
    out = []
    for k, c in enumerate(classes):
        col = (class_colors or {}).get(c, PALETTE[k % len(PALETTE)])
        if not _COLOR_RE.match(str(col)):
            raise ValueError(f"colour {col!r} for class {c!r} must be #rrggbb or a colour name")
        out.append(str(col))
    return out


#: The words inside a DOT picture; pass ``words=`` to ``to_dot`` to draw it in another language
#: (every key is needed; ``{n}`` and ``{leaves}`` are filled in for "more").
DOT_WORDS = {
    "samples": "samples",
    "hessian": "hessian sum",  # a boosted tree's node weight (XGBoost, LightGBM): no count of rows
    "class": "class",
    "value": "value",
    "empty": "empty",
    "parents_majority": "parent's majority",
    "parents_value": "(parent's)",
    "more": "{n} more nodes<BR/>({leaves} leaves)",
    "missing": "missing",
    "more_labels": "… {n} more",  # after the labels an edge names, when it has more
    "midpoint": "midpoint",  # C4.5's tooltip: "密度 ≤ 0.36 (midpoint 0.3815)"
    # the impurity a node shows, by the name ``impurity_name`` gives it
    "gini": "gini",
    "entropy": "entropy",
    "squared_error": "squared_error",
    "friedman_mse": "friedman_mse",
    "absolute_error": "absolute_error",
    "poisson": "poisson",
}


@dataclass
class _DotStyle:
    precision: int
    impurity: str  # its name; "" when the tree holds none (an imported file kept no impurities)
    colors: list[str]
    show_ids: bool
    value_range: tuple[float, float]
    words: dict
    predicted: np.ndarray  # each node's class (``node_prediction_indices``)
    c45: bool = False  # C4.5 tests tell the midpoint beside release 8's threshold (a tooltip)
    charts: NodeCharts | None = None  # node charts (``node_charts``) instead of the plain bar
    weight: str = "samples"  # the word of a node's weight: "hessian" for a boosting library's hessian sums


def to_dot(
    model: BaseTreeEstimator | Tree,
    schema: Schema | None = None,
    *,
    max_depth: int | None = None,
    collapsed: Iterable[int] = (),
    highlight: Iterable[int] = (),
    ghost: Iterable[int] = (),
    class_colors: dict | None = None,
    rankdir: str = "TB",
    precision: int = 3,
    criterion: str | None = None,
    show_ids: bool = True,
    legend: bool = True,
    fontname: str = FONTNAME,
    graph_name: str = "tree",
    words: dict | None = None,
    path: Mapping[tuple[int, int], str] | None = None,
    root: int = 0,
    fold_detail: bool = False,
    tooltips: bool = False,
    charts: NodeCharts | None = None,
) -> str:
    """Graphviz DOT of a fitted tree with HTML-like labels.

    ``model`` is a fitted estimator or a ``Tree`` (then ``schema`` is required). ``max_depth``
    shows nodes to that depth and folds each deeper subtree into one summary box, as does
    ``collapsed`` (node ids) below the named nodes; ``ghost`` nodes get a dashed grey outline, a
    grey fill and dashed edges into them (what a pruning removes), ``highlight`` nodes a bold
    outline (new leaves, forced splits).
    ``precision`` is the significant digits of thresholds and impurities; ``words`` replaces
    ``DOT_WORDS`` (the app's language; the words are escaped like user text, except the ``<BR/>``
    of "more"). ``root`` draws only that node's subtree (``max_depth`` stays the tree's own
    depth); ``fold_detail`` has each summary box also name the classes (leaves per class) or the
    value range it holds. ``tooltips`` gives a C4.5 test whose stored threshold (release 8: a
    training value) is not the midpoint cut the tooltip "密度 ≤ 0.36 (midpoint 0.3815)"; off by
    default, since Graphviz writes a tooltip as an SVG ``<a>`` element, which a picture saved
    on its own should not hold (the app's views turn it on).

    The SVG that Graphviz makes from this keeps stable element ids for the app to hook into:
    ``dtnode{i}`` (node i), ``dtedge{i}_{j}`` (edge i → j), ``dtmore{i}`` (the summary box
    below a folded node i) and ``dtlegend``.

    ``path`` draws a sample's way through the tree (``explain.prediction``'s ``edge_notes``):
    its edges (parent, child) bold with the note (the sample's value, a C4.5 share such as
    "missing · 7/15") under the condition, every other node and edge faded.

    ``charts`` (``dtcore.export.node_charts.node_charts`` of the training rows) draws the
    split feature's histogram inside each test and each leaf's bar sized by its samples
    (regression: its target's histogram); None (the default) draws the plain boxes, byte for
    byte as without the option.
    """
    tree, schema, est = unwrap_model(model, schema)
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError(f"rankdir must be TB, LR, BT or RL, not {rankdir!r}")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", graph_name):
        raise ValueError(f"graph_name must be a plain identifier, not {graph_name!r}")
    if max_depth is not None and max_depth < 0:
        raise ValueError("max_depth must be ≥ 0")
    collapsed, highlight, ghost = ({int(i) for i in s} for s in (collapsed, highlight, ghost))
    on_path = {0} | {int(c) for _, c in path} if path is not None else set()
    classes = schema.classes
    vals = tree.value[:, 0] if tree.node_count else np.zeros(1)
    origin = getattr(est, "origin_", None)
    style = _DotStyle(
        precision=int(precision),
        impurity="" if origin is not None and not origin.impurities else impurity_name(est, criterion),
        colors=class_palette(classes, class_colors) if classes is not None else [],
        show_ids=show_ids,
        value_range=(float(vals.min()), float(vals.max())) if classes is None else (0.0, 0.0),
        words=_dot_words(words),
        c45=tooltips and getattr(est, "algorithm", None) == "c45",
        charts=charts,
        predicted=node_prediction_indices(tree),
        weight="hessian" if origin is not None and origin.node_weight == HESSIAN else "samples",
    )
    font = fontname.replace("\\", "").replace('"', "")
    lines = [
        f"digraph {graph_name} {{",
        f'graph [rankdir={rankdir}, fontname="{font}", bgcolor="white", pad="0.2", '
        'nodesep="0.3", ranksep="0.5", ordering="out"];',
        f'node [shape=box, style="rounded,filled", fontname="{font}", fontsize=11, '
        'color="#555555", penwidth=1, margin="0.06,0.04"];',
        f'edge [fontname="{font}", fontsize=10, color="#666666", fontcolor="#333333", arrowsize=0.7];',
    ]
    if legend and classes is not None and tree.node_count:
        rows = "".join(
            f'<TR><TD WIDTH="12" HEIGHT="12" FIXEDSIZE="TRUE" BGCOLOR="{style.colors[k]}"></TD>'
            f'<TD ALIGN="LEFT">{html_escape(c)}</TD></TR>'
            for k, c in enumerate(classes)
        )
        lines.append(
            f'legend [id="dtlegend", shape=plaintext, style="", label=<<TABLE BORDER="0" CELLBORDER="0" '
            f'CELLSPACING="2" CELLPADDING="1"><TR><TD COLSPAN="2" ALIGN="LEFT"><B>'
            f"{html_escape(schema.target)}</B></TD></TR>{rows}</TABLE>>];"
        )
        lines.append(f"{{rank=same; legend; node{int(root)};}}")
    stack = [int(root)] if tree.node_count else []
    while stack:  # pre-order walk (ids ascend) so the output order is fixed
        i = stack.pop()
        folded = tree.feature[i] >= 0 and (
            i in collapsed or (max_depth is not None and tree.depth[i] >= max_depth)
        )
        lines.append(
            _dot_node(
                tree, schema, i, style, i in highlight, i in ghost, path is not None and i not in on_path
            )
        )
        if tree.feature[i] < 0:
            continue
        if folded:
            sub = tree.subtree(i)[1:]
            n_leaves = int(tree.is_leaf[sub].sum())
            lines.append(
                f'node{i}_more [id="dtmore{i}", style="rounded,dashed", fillcolor="white", color="#888888", '
                f'fontcolor="#444444", label=<{style.words["more"].format(n=len(sub), leaves=n_leaves)}'
                f"{_fold_summary(tree, schema, sub, style) if fold_detail else ''}>];"
            )
            lines.append(f'node{i} -> node{i}_more [id="dtedge{i}_more", style=dashed];')
            continue
        for b in branches(tree, schema, i, style.precision):
            label = [_edge_condition(b, style.words)]
            # "missing →" only where training met a missing value (unknown for old models)
            saw = tree.saw_missing is None or bool(tree.saw_missing[i])
            routed = ([style.words["missing"]] if saw else []) + _shown_labels(b.also, style.words)
            if b.missing and b.op != "missing" and routed:
                label.append(f'<FONT POINT-SIZE="9"><I>{", ".join(routed)} →</I></FONT>')
            faded = ', style=dashed, color="#9e9e9e", fontcolor="#757575"' if b.child in ghost else ""
            if path is not None and (i, b.child) in path:  # the sample's way: bold, with its note
                faded += ', penwidth=2.5, color="#111111"'
                label.append(f"<B>{html_escape(path[(i, b.child)])}</B>")
            elif path is not None:
                faded += ', color="#d5d5d5", fontcolor="#b0b0b0"'
            lines.append(
                f'node{i} -> node{b.child} [id="dtedge{i}_{b.child}"{faded}, label=<{_edge_label(label)}>];'
            )
        stack.extend(reversed(tree.children_of(i).tolist()))
    lines.append("}")
    return "\n".join(lines) + "\n"


#: the most category labels an edge names; a longer list names its first ``EDGE_LABELS_CUT`` and
#: counts the rest ("… 2 494 more"): a CART test over 10⁵ labels wrote every label of its
#: subset on the edge (the rules and the model file keep them all)
EDGE_LABELS_SHOWN = 12
EDGE_LABELS_CUT = 10


def _shown_labels(labels: tuple, words: dict) -> list[str]:
    """The labels, escaped; past ``EDGE_LABELS_SHOWN``, the first ``EDGE_LABELS_CUT`` and a
    count of the others."""
    if len(labels) <= EDGE_LABELS_SHOWN:
        return [html_escape(str(c)) for c in labels]
    shown = [html_escape(str(c)) for c in labels[:EDGE_LABELS_CUT]]
    return [*shown, words["more_labels"].format(n=len(labels) - EDGE_LABELS_CUT)]


def _edge_condition(b: Branch, words: dict) -> str:
    """The branch's test as the edge writes it: a long category subset cut to its first labels."""
    if b.op != "in" or len(b.values) <= EDGE_LABELS_SHOWN:
        return html_escape(condition_text(b))
    return f"∈ {{{', '.join(_shown_labels(b.values, words))}}}"


def _edge_label(lines: list[str]) -> str:
    """An edge's label as a table: an empty first column keeps the text clear of the edge
    (Graphviz routes it along the label's left side, and a slanting edge would cross a label
    that starts there), and one padded row per line, with a spacer row between lines, keeps a
    second line (the italic "missing →", a sample's note) from overprinting the first: ``dot``
    sets rows 1.2 font sizes apart, the CJK fonts' boxes are about 1.45 of it."""
    rows = _EDGE_LINE_SPACER.join(
        f'<TR><TD WIDTH="{_EDGE_GAP}"></TD><TD ALIGN="LEFT">{line}</TD></TR>' for line in lines
    )
    return f'<TABLE BORDER="0" CELLBORDER="0" CELLPADDING="1" CELLSPACING="0">{rows}</TABLE>'


def _fold_summary(tree: Tree, schema: Schema, sub: np.ndarray, s: _DotStyle) -> str:
    """What a folded subtree holds: its leaves per predicted class (most first, at most 4 named),
    or the range of its leaf values; "" when it has no leaves."""
    leaves = sub[tree.is_leaf[sub] & (tree.weighted_n[sub] > 0)]  # empty leaves hold no class
    if leaves.size == 0:
        return ""
    if schema.classes is None:
        vals = tree.value[leaves, 0]
        return f"<BR/>{fmt_num(vals.min(), s.precision)} … {fmt_num(vals.max(), s.precision)}"
    per = np.bincount(tree.node_classes(leaves), minlength=len(schema.classes))
    order = sorted(np.flatnonzero(per).tolist(), key=lambda k: (-int(per[k]), k))
    parts = [
        f'<FONT COLOR="{s.colors[k]}">■</FONT> {html_escape(schema.classes[k])} ×{int(per[k])}'
        for k in order[:4]
    ]
    if len(order) > 4:
        parts.append("…")
    return '<BR/><FONT POINT-SIZE="9">' + " · ".join(parts) + "</FONT>"


def _dot_words(words: Mapping[str, str] | None) -> dict:
    """DOT_WORDS with the caller's words, escaped (they may come from an editable catalogue)."""
    if words is None:
        return DOT_WORDS
    out = {k: html_escape(v) for k, v in complete_words(DOT_WORDS, words).items()}
    more = "<BR/>".join(html_escape(part) for part in str(words["more"]).split("<BR/>"))
    for key in ("n", "leaves"):  # the placeholders survive escaping
        more = more.replace(f"&#123;{key}&#125;", "{" + key + "}")
    out["more"] = more
    return out


def _dot_node(
    tree: Tree, schema: Schema, i: int, s: _DotStyle, bold: bool, ghosted: bool, faded: bool = False
) -> str:
    classes = schema.classes
    rows = []
    prefix = f'<FONT POINT-SIZE="8" COLOR="#555555">#{i}</FONT> ' if s.show_ids else ""
    empty = is_empty(tree, i)
    leaf = tree.feature[i] < 0
    if not leaf:
        title = f"<B>{html_escape(_node_test(tree, schema, i, s.precision))}</B>"
    elif empty:
        title = f"<B><I>{s.words['empty']}</I></B>"
    elif classes is not None:
        title = f"<B>{s.words['class']} = {html_escape(classes[s.predicted[i]])}</B>"
    else:
        title = f"<B>{s.words['value']} = {fmt_num(tree.value[i, 0], s.precision)}</B>"
    rows.append(prefix + title)
    if empty:
        if classes is not None:
            rows.append(f"{s.words['parents_majority']}: {html_escape(classes[s.predicted[i]])}")
        else:
            rows.append(
                f"{s.words['value']} = {fmt_num(tree.value[i, 0], s.precision)} {s.words['parents_value']}"
            )
    else:
        if s.weight == "hessian" and tree.n_samples[i] > 0:  # LightGBM keeps the rows too
            rows.append(f"{s.words['samples']} = {int(tree.n_samples[i])}")
        rows.append(f"{s.words[s.weight]} = {fmt_weight(tree.weighted_n[i])}")
        if classes is not None:
            counts = tree.value[i]
            if len(classes) <= 4:
                rows.append(" · ".join(f"{html_escape(c)} {fmt_weight(v)}" for c, v in zip(classes, counts)))
            else:
                rows.append("value = &#91;" + ", ".join(fmt_weight(v) for v in counts) + "&#93;")
            if s.charts is None:
                bar = "".join(
                    f'<TD WIDTH="{w}" HEIGHT="6" FIXEDSIZE="TRUE" BGCOLOR="{s.colors[k]}"></TD>'
                    for k, w in bar_widths(counts, 100)
                )
                rows.append(
                    f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0" '
                    f'FIXEDSIZE="TRUE" WIDTH="100" HEIGHT="6">'
                    f"<TR>{bar}</TR></TABLE>"
                )
            elif leaf:
                rows.append(leaf_bar_html(counts, float(tree.weighted_n[i]), s.charts.largest_leaf, s.colors))
        if s.charts is not None and not leaf and i in s.charts.tests:
            rows.append(split_chart_html(s.charts.tests[i], s.colors, s.precision))
        elif s.charts is not None and leaf and i in s.charts.leaves:
            rows.append(leaf_histogram_html(s.charts.leaves[i]))
        if s.impurity:
            name = s.words.get(s.impurity, html_escape(s.impurity))  # words are escaped already
            rows.append(f"{name} = {fmt_num(tree.impurity[i], s.precision)}")
        if not leaf:
            if classes is not None:
                rows.append(f"{s.words['class']} = {html_escape(classes[s.predicted[i]])}")
            else:
                rows.append(f"{s.words['value']} = {fmt_num(tree.value[i, 0], s.precision)}")
    body = "".join(f"<TR><TD>{r}</TD></TR>" for r in rows)
    label = f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{body}</TABLE>'
    # a ghost (removed by pruning) keeps its outline but loses its class colour
    fill = "#f7f7f7" if ghosted else _node_fill(tree, i, s, classes)
    if faded:  # off a sample's path
        fill = mix_white(fill, 0.3)
    attrs = [f'id="dtnode{i}"', f'fillcolor="{fill}"']
    if faded and not ghosted:
        attrs += ['color="#d5d5d5"', 'fontcolor="#a0a0a0"']
    styles = ["rounded", "filled"]
    if ghosted:
        styles.append("dashed")
        attrs += ['color="#9e9e9e"', 'fontcolor="#757575"', "penwidth=1.5"]
    elif empty:
        styles.append("dashed")
    if bold:
        attrs.append("penwidth=3")
        if not ghosted:
            attrs.append('color="#111111"')
    attrs.insert(1, f'style="{",".join(styles)}"')
    tip = midpoint_text(tree, schema, i, s.precision, s.words["midpoint"]) if s.c45 and not leaf else None
    if tip is not None:
        attrs.append(f'tooltip="{dot_string(tip)}"')
    return f"node{i} [{', '.join(attrs)}, label=<{label}>];"


def _node_fill(tree: Tree, i: int, s: _DotStyle, classes: Sequence[str] | None) -> str:
    """Majority-class colour, stronger the purer the node (white at a uniform distribution)."""
    if is_empty(tree, i):
        return "#f5f5f5"
    if classes is None:
        lo, hi = s.value_range
        t = 0.5 if hi <= lo else (float(tree.value[i, 0]) - lo) / (hi - lo)
        return mix_white(REGRESSION_COLOR, 0.08 + 0.6 * t)
    counts = tree.value[i]
    tot = counts.sum()
    k = int(s.predicted[i])
    n = len(classes)
    p = counts[k] / tot if tot > 0 else 1.0 / n
    purity = 1.0 if n <= 1 else max(0.0, (p - 1.0 / n) / (1.0 - 1.0 / n))
    return mix_white(s.colors[k], 0.1 + 0.55 * purity)


def _node_test(tree: Tree, schema: Schema, i: int, precision: int) -> str:
    """The question a node asks: ``密度 ≤ 0.381`` for a binary test, the feature name otherwise.
    A categorical test that spreads missing values down every branch is ID3's or C4.5's multiway
    test (one branch per value): titled by its feature like any multiway test, also on a
    two-valued feature (``触感``, not ``触感 = 硬滑``); CART's subset tests send missing values
    one way (``missing_branch`` ≥ 0)."""
    name = schema.features[int(tree.feature[i])].name
    bs = branches(tree, schema, i, precision)
    multiway = tree.is_categorical_test(i) and int(tree.missing_branch[i]) == DISTRIBUTE
    if len(bs) == 2 and bs[0].op in ("le", "eq", "in") and not multiway:
        return f"{name} {condition_text(bs[0])}"
    return name
