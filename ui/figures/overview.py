"""The overview map of a whole tree: an icicle, legible at thousands of nodes.

Area = training weight, colour = majority class (lighter the less pure the node) or the mean for
regression, tooltip = the node's test, samples and distribution. ``overview_svg`` draws it as an
SVG for the tree frame (a click on a sector focuses its node; issue 26: Plotly's icicle was most
of the Train page's browser CPU on a big tree, its 4.7 MB script compiled and run for it);
only the sectors it shows are drawn (:data:`MAX_DEPTH` levels from its opening sector), laid out
from the tree's flat arrays a level at a time.
"""

from __future__ import annotations

import numpy as np

from dtcore import export
from dtcore.base import BaseTreeEstimator
from dtcore.schema import Schema
from dtcore.tree import Tree
from ui.views.text import html_text as x

from .static_charts import fit, mix, n, text_width
from .style import FONT, plain

#: levels the icicle shows at once (a click on a sector focuses it, and the map opens above it)
MAX_DEPTH = 6
#: lightest tint of a class colour (purity 0); full colour at purity 1
LIGHT = 0.25


def node_purity(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """Per node, its majority class and its purity, 0 (classes even) to 1 (one class)."""
    k_n = tree.value.shape[1]
    k = tree.node_classes()
    p = tree.leaf_distribution().max(axis=1)  # the majority's share (uniform when empty)
    purity = np.clip((p - 1.0 / k_n) / (1.0 - 1.0 / k_n), 0.0, 1.0) if k_n > 1 else np.ones_like(p)
    return k, purity


def node_tests(tree: Tree, schema: Schema) -> np.ndarray:
    """The test each node asks, as short text: ``x ≤ 0.5`` for one continuous cut, the feature
    name for other tests, "" at leaves (vectorised over nodes)."""
    names = np.array([f.name for f in schema.features] + [""], dtype=object)
    feat = np.where(tree.feature >= 0, tree.feature, len(names) - 1)
    out = names[feat]
    one_cut = (np.diff(tree.cut_ptr) == 1) & (tree.feature >= 0)
    if one_cut.any():
        cuts = tree.cuts[tree.cut_ptr[:-1][one_cut]]
        out[one_cut] = out[one_cut] + " ≤ " + np.char.mod("%.4g", cuts).astype(object)
    return out


def start_sector(tree: Tree, selected: int | None, up: int = 3) -> int:
    """The sector the icicle opens at: ``up`` levels above the selected node (the root when
    nothing is selected)."""
    if selected is None or not 0 <= int(selected) < tree.node_count:
        return 0
    path = tree.path_to(int(selected))
    return int(path[max(len(path) - 1 - up, 0)])


#: the icicle's size in its own units (the frame fits its width to the column's)
OVERVIEW_WIDTH = 1000
ROW_HEIGHT = 34
PATH_ROW = 20  # the path to the opening sector, above it
LABEL_SIZE = 12
#: a sector narrower than this many units is not drawn (nor what is below it)
MIN_SECTOR = 0.6
#: Plotly's "Oranges", light to dark, for a regression tree's means
ORANGES = ("#fff5eb", "#fdd0a2", "#fd8d3c", "#d94801", "#7f2704")


def _oranges(t: float) -> str:
    t = min(max(float(t), 0.0), 1.0) * (len(ORANGES) - 1)
    k = min(int(t), len(ORANGES) - 2)
    a, b = ORANGES[k], ORANGES[k + 1]
    f = t - k
    rgb = [
        round(int(a[i : i + 2], 16) + (int(b[i : i + 2], 16) - int(a[i : i + 2], 16)) * f) for i in (1, 3, 5)
    ]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _ink(color: str) -> str:
    """Black or white text, whichever reads on ``color``."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def sector_layout(
    tree: Tree, start: int, levels: int = MAX_DEPTH
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(nodes, row, x0, width) of the icicle's sectors from ``start`` down ``levels`` levels, in
    units of :data:`OVERVIEW_WIDTH`: a node's children share its width by their training weight,
    in branch order; sectors narrower than :data:`MIN_SECTOR` are left out with their subtrees."""
    nodes, rows, xs, ws = (
        [np.array([start])],
        [np.zeros(1, np.int64)],
        [np.zeros(1)],
        [np.full(1, float(OVERVIEW_WIDTH))],
    )
    cur, x0, w = nodes[0], xs[0], ws[0]
    counts = np.diff(tree.child_ptr)
    for depth in range(1, levels):
        k = counts[cur]
        if not k.any():
            break
        parent_at = np.repeat(np.arange(cur.size), k)
        starts = tree.child_ptr[cur]
        kids = tree.children[
            np.repeat(starts, k) + (np.arange(k.sum()) - np.repeat(np.cumsum(k) - k, k))
        ].astype(np.int64)
        wn = np.maximum(tree.weighted_n[kids], 0.0)
        total = np.bincount(parent_at, weights=wn, minlength=cur.size)
        share = np.where(
            total[parent_at] > 0,
            wn / np.where(total[parent_at] > 0, total[parent_at], 1.0),
            1.0 / np.maximum(k[parent_at], 1),
        )
        width = w[parent_at] * share
        before = np.cumsum(width) - width  # the widths of earlier children of the level
        first = np.cumsum(k) - k  # each parent's first child in the level
        offset = before - before[first[parent_at]]
        keep = width >= MIN_SECTOR
        cur, x0, w = kids[keep], (x0[parent_at] + offset)[keep], width[keep]
        nodes.append(cur)
        rows.append(np.full(cur.size, depth, np.int64))
        xs.append(x0)
        ws.append(w)
    return np.concatenate(nodes), np.concatenate(rows), np.concatenate(xs), np.concatenate(ws)


def overview_svg(est: BaseTreeEstimator, *, selected: int | None = None, texts: dict) -> str:
    """The icicle of ``est``'s tree as SVG, opening :data:`MAX_DEPTH` levels from three levels
    above the selected node (framed in dark grey), the path to that sector in a row above it.
    Every sector (and path box) is ``<g id="dtnodeN">``: the tree frame sends a click on it as
    "node:N". ``texts``: "samples" and "mean" words (the UI language). User text (feature and
    class names) is XML-escaped; the tooltip is the ``<a>``'s ``xlink:title``, which the frame's
    sanitiser keeps."""
    tree, schema = est.tree_, est.schema_
    s = start_sector(tree, selected)
    nodes, rows, x0, width = sector_layout(tree, s)
    tests = node_tests(tree, schema)
    classes = schema.classes
    value = tree.value
    if classes is not None:
        colors = export.class_palette(classes)
        k_major, purity = node_purity(tree)
    else:
        lo, hi = float(value[:, 0].min()), float(value[:, 0].max())
    path = tree.path_to(s)[:-1] if s else []
    top = PATH_ROW if path else 0
    height = top + ROW_HEIGHT * (int(rows.max()) + 1 if rows.size else 1)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' viewBox="0 0 {OVERVIEW_WIDTH} {height}" width="{OVERVIEW_WIDTH}" height="{height}"'
        f' font-family="{FONT}">'
    ]

    def label_of(i: int) -> str:
        if tree.feature[i] >= 0:
            return str(tests[i])
        return str(classes[k_major[i]]) if classes is not None else plain(value[i, 0])

    def tip_of(i: int) -> str:
        lines = [f"#{i} · {label_of(i)}", f"{texts['samples']}: {float(tree.weighted_n[i]):.4g}"]
        if classes is not None:
            lines += [f"{c}: {float(value[i, k]):.4g}" for k, c in enumerate(classes)]
        else:
            lines.append(f"{texts.get('mean', 'mean')}: {float(value[i, 0]):.4g}")
        return "&#10;".join(x(line) for line in lines)

    # the path to the opening sector: a box per ancestor, left to right; as many of the nearest
    # as fit, after the root and "…" when the path is longer
    boxes = [(int(i), fit(f"#{i} {label_of(int(i))}", 180, 11)) for i in path]
    widths = [text_width(text, 11) + 12 for _, text in boxes]
    if sum(widths) + 4 * len(widths) > OVERVIEW_WIDTH:
        room = OVERVIEW_WIDTH - widths[0] - 4 - (text_width("…", 11) + 16)
        keep: list[int] = []
        for j in range(len(boxes) - 1, 0, -1):
            if sum(widths[k] + 4 for k in keep) + widths[j] + 4 > room:
                break
            keep.append(j)
        chosen_boxes = [0, -1, *sorted(keep)]
    else:
        chosen_boxes = list(range(len(boxes)))
    cursor = 0.0
    for j in chosen_boxes:
        if j < 0:
            out.append(f'<text x="{n(cursor + 2)}" y="{PATH_ROW - 7}" font-size="11" fill="#555555">…</text>')
            cursor += text_width("…", 11) + 12
            continue
        i, text = boxes[j]
        w = widths[j]
        out.append(
            f'<g id="dtnode{int(i)}" class="sector"><a xlink:title="{tip_of(int(i))}">'
            f'<rect x="{n(cursor)}" y="1" width="{n(w)}" height="{PATH_ROW - 4}" rx="3" fill="#f0f2f6" stroke="#cccccc"/>'
            f'<text x="{n(cursor + 6)}" y="{PATH_ROW - 7}" font-size="11" fill="#31333f">{x(text)}</text></a></g>'
        )
        cursor += w + 4
    order = sorted(range(nodes.size), key=lambda j: int(nodes[j]) == selected)  # the framed one on top
    for i, r, a, w in ((int(nodes[j]), int(rows[j]), float(x0[j]), float(width[j])) for j in order):
        if classes is not None:
            color = mix(LIGHT + (1.0 - LIGHT) * float(purity[i]), colors[int(k_major[i]) % len(colors)])
        else:
            color = _oranges((float(value[i, 0]) - lo) / (hi - lo) if hi > lo else 0.5)
        chosen = selected is not None and i == int(selected)
        stroke = ' stroke="#111111" stroke-width="3"' if chosen else ' stroke="#ffffff" stroke-width="1"'
        y = top + r * ROW_HEIGHT
        label = fit(label_of(i), w - 8, LABEL_SIZE) if w >= 24 else ""
        text = (
            f'<text x="{n(a + w / 2)}" y="{n(y + ROW_HEIGHT / 2 + 4)}" text-anchor="middle"'
            f' font-size="{LABEL_SIZE}" fill="{_ink(color)}">{x(label)}</text>'
            if label and label != "…"
            else ""
        )
        out.append(
            f'<g id="dtnode{i}" class="sector"><a xlink:title="{tip_of(i)}">'
            f'<rect x="{n(a)}" y="{n(y)}" width="{n(w)}" height="{ROW_HEIGHT}" fill="{color}"{stroke}/>'
            f"{text}</a></g>"
        )
    out.append("</svg>")
    return "\n".join(out)
