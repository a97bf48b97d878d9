"""The static SVG charts (ui/figures/static_charts.py: the Train page's scores, a test's children):
well-formed SVG, user labels escaped (a hostile name is text, never markup), the same input gives
the same bytes, and the bars and cells show the values given."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dtcore.numbers import fmt_score
from ui.figures.static_charts import children_svg, confusion_svg, importances_svg

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = [
    "<script>alert(1)</script>",
    "a&b",
    '<a href="https://example.org/x">feat</a>',
    "<b onmouseover=alert(1)>ok</b>",
    "\"q'uote",
    "**md** :red[x] $x$ :material/home:",
    "new\n\nline\uffff\x00",
]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == NS + "svg"
    return root


def groups(root: ET.Element) -> list[ET.Element]:
    """The bars or cells: the groups with a <title> and a <rect>."""
    return [g for g in root.iter(NS + "g") if g.find(NS + "rect") is not None]


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(NS + "text")]


def test_importances_bars_largest_on_top_zeros_left_out_values_shown():
    svg = importances_svg(["a", "b", "c", "d"], [0.1, 0.0, 0.6, 0.3], "importance")
    bars = groups(parse(svg))
    assert [g.find(NS + "title").text for g in bars] == ["c: 0.600000", "d: 0.300000", "a: 0.100000"]
    ys = [float(g.find(NS + "rect").get("y")) for g in bars]
    widths = [float(g.find(NS + "rect").get("width")) for g in bars]
    assert ys == sorted(ys)  # top to bottom: largest first
    assert widths[0] > widths[1] > widths[2] > 0
    assert widths[0] / widths[2] == pytest.approx(6, rel=0.01)  # lengths proportional to the values
    assert [texts(g) for g in bars] == [["c", fmt_score(0.6)], ["d", fmt_score(0.3)], ["a", fmt_score(0.1)]]
    assert "importance" in texts(parse(svg))  # the axis title


def test_importances_keep_the_top_ones():
    imp = np.arange(1, 31, dtype=float) / 465
    bars = groups(parse(importances_svg([f"f{i}" for i in range(30)], imp, "importance", top=20)))
    assert [texts(g)[0] for g in bars] == [f"f{i}" for i in range(29, 9, -1)]


def test_confusion_cells_show_the_counts_coloured_by_row_share():
    svg = confusion_svg(["是", "否"], np.array([[3, 1], [0, 4]]), "predicted", "true")
    root = parse(svg)
    cells = groups(root)
    assert [texts(g) for g in cells] == [["3"], ["1"], ["0"], ["4"]]
    assert [g.find(NS + "title").text for g in cells] == [
        "是 → 是: 3 (75.0%)",
        "是 → 否: 1 (25.0%)",
        "否 → 是: 0 (0.0%)",
        "否 → 否: 4 (100.0%)",
    ]
    fills = [g.find(NS + "rect").get("fill") for g in cells]
    assert fills[2] == "#ffffff" and fills[3] == "#4e79a7"  # share 0: white; share 1: the bar colour
    assert {"predicted", "true", "是", "否"} <= set(texts(root))


@pytest.mark.parametrize("label", HOSTILE)
def test_hostile_labels_are_text_never_markup(label):
    imp = importances_svg([label, "ok"], [0.7, 0.3], "imp <b>")
    cm = confusion_svg([label, "ok"], [[1, 0], [0, 1]], "pred & <i>", "true")
    kids = children_svg([label, "ok"], [[2, 1], [0, 3]], [label, "no"], "weight <b>")
    for svg in (imp, cm, kids):
        root = parse(svg)
        tags = {el.tag for el in root.iter()}
        assert tags <= {NS + t for t in ("svg", "g", "title", "rect", "text", "line")}, tags
        assert "<script" not in svg and "<b>" not in svg and "<i>" not in svg
        assert "\n\n" not in svg  # no blank line: Markdown reads the whole SVG as one HTML block
        assert "\x00" not in svg and "\uffff" not in svg
        # Streamlit's Markdown rewrites ":material/" in its whole source, raw HTML too
        assert ":material/" not in svg
    # the full label, as typed (control characters as spaces), in the first bar's tooltip
    shown = label.replace("\n", " ").replace("\uffff", " ").replace("\x00", " ")
    assert groups(parse(imp))[0].find(NS + "title").text == f"{shown}: 0.700000"
    assert groups(parse(cm))[0].find(NS + "title").text == f"{shown} → {shown}: 1 (100.0%)"
    assert f"{shown} · {shown}: 2" in [g.find(NS + "title").text for g in groups(parse(kids))]


def test_script_and_ampersand_escaped_in_the_bytes():
    svg = importances_svg(["<script>", "a&b"], [0.6, 0.4], "importance")
    assert "&lt;script&gt;" in svg and "a&amp;b" in svg
    assert "<script>" not in svg and "a&b" not in svg


def test_long_labels_are_cut_the_tooltip_keeps_them():
    name = "a very long feature name " * 4
    bar = groups(parse(importances_svg([name], [1.0], "importance")))[0]
    assert texts(bar)[0].endswith("…") and len(texts(bar)[0]) < len(name)
    assert bar.find(NS + "title").text == f"{name}: 1.000000"


def test_same_input_same_bytes():
    args = (["x1", "色泽", "<a>"], np.array([0.25, 0.5, 0.25]), "重要性")
    assert importances_svg(*args) == importances_svg(*args)
    assert importances_svg(*args) == importances_svg(list(args[0]), args[1].tolist(), args[2])
    m = [[5, 2, 0], [1, 7, 1], [0, 0, 9]]
    assert confusion_svg(["a", "b", "c"], m, "p", "t") == confusion_svg(
        ("a", "b", "c"), np.array(m), "p", "t"
    )
    assert children_svg(["l", "r"], [[1.5, 2], [3, 0]], ("是", "否"), "w") == children_svg(
        ("l", "r"), np.array([[1.5, 2.0], [3.0, 0.0]]), ["是", "否"], "w"
    )


def segments(svg: str) -> list[tuple[str, float, float, float, str]]:
    """The children chart's bar segments: (tooltip, x, y, width, colour)."""
    out = []
    for g in groups(parse(svg)):
        title = g.find(NS + "title").text
        if ":" in title:  # not a legend swatch nor a branch's label
            r = g.find(NS + "rect")
            out.append((title, float(r.get("x")), float(r.get("y")), float(r.get("width")), r.get("fill")))
    return out


def test_children_stack_each_branch_by_class_first_branch_on_top():
    svg = children_svg(["纹理 = 清晰", "纹理 = 模糊"], np.array([[7, 2], [0, 3.5]]), ["是", "否"], "weight")
    segs = segments(svg)
    assert [s[0] for s in segs] == ["纹理 = 清晰 · 是: 7", "纹理 = 清晰 · 否: 2", "纹理 = 模糊 · 否: 3.500"]
    (_, x0, y0, w0, c0), (_, x1, y1, w1, c1), (_, x2, y2, w2, c2) = segs
    assert y0 == y1 < y2  # one row per branch, the first on top; the empty 是 of 模糊 is not drawn
    assert x1 == pytest.approx(x0 + w0, abs=0.1)  # stacked: 否 starts where 是 ends
    assert w0 / w1 == pytest.approx(3.5, rel=0.02) and w2 / w1 == pytest.approx(1.75, rel=0.02)
    assert c0 != c1 and c1 == c2  # a class keeps its colour across branches
    root = parse(svg)
    assert {"是", "否", "weight"} <= set(texts(root))  # the legend, the axis title
    assert "7" in texts(root) and "3.500" in texts(root)  # counts printed where they fit


def test_children_of_a_regression_test_are_one_bar_each():
    segs = segments(children_svg(["≤ 3 (mean 2.5)", "> 3 (mean 7.1)"], [[120.5], [30]], None, "weight"))
    assert [s[0] for s in segs] == ["≤ 3 (mean 2.5): 120.500", "> 3 (mean 7.1): 30"]
    assert segs[0][4] == segs[1][4] and segs[0][3] / segs[1][3] == pytest.approx(120.5 / 30, rel=0.02)


def test_pre_html_shows_user_lines_as_typed():
    """The what-if's mixing lines in a <pre>: markup, colons and line breaks inside a label stay
    text (and one HTML line, so no blank line ends the Markdown HTML block)."""
    import html
    import re

    from ui.views.text import pre_html

    lines = ["w(<b>x</b>) = 1/3 × :material/home: & more", "p\nq", "$y$"]
    out = pre_html(lines)
    assert "\n" not in out and "<b>" not in out and ":material/" not in out
    inner = re.fullmatch(r'<div class="dt-pre" style="[^"]*">(.*)</div>', out).group(1)
    assert html.unescape(inner).split("\n") == ["w(<b>x</b>) = 1/3 × :material/home: & more", "p q", "$y$"]
