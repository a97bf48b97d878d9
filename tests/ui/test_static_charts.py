"""The Train page's static SVG score charts (ui/figures/static_charts.py): well-formed SVG, user
labels escaped (a hostile name is text, never markup), the same input gives the same bytes, and
the bars and cells show the values given."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dtcore.numbers import fmt_score
from ui.figures.static_charts import confusion_svg, importances_svg

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
    for svg in (imp, cm):
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
