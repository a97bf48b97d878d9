"""Issue 27 item 4 in the browser: the "Node charts" option of Train & tree draws the histograms
inside the tree's boxes, in the SVG on the page (the server's Graphviz, kept by the frame's
sanitiser); off, the boxes hold no chart."""

from __future__ import annotations

import pytest

from dtcore.export.node_charts import SPLIT_COLOR
from tests.browser.test_screenshots import open_page, script_done

pytestmark = pytest.mark.browser

FRAME = ".dt-frame"
#: the fill colours inside each node box of the frame's SVG, by node id
FILLS = """(frame) => Object.fromEntries(Array.from(frame.querySelectorAll('svg g.node[id^="dtnode"]'))
    .map((g) => [g.id, Array.from(g.querySelectorAll('polygon')).map((p) => p.getAttribute('fill'))]))"""


def test_node_charts_are_drawn_in_the_pages_svg(page, app_url):
    open_page(page, app_url, "", sample="watermelon_3.0", algo="c45", node_charts=1)
    script_done(page, timeout=60_000)
    frame = page.locator(FRAME).first
    frame.locator("svg g.node").first.wait_for(state="attached", timeout=60_000)
    fills = frame.evaluate(FILLS)
    # C4.5 on watermelon 3.0: 纹理 at the root (a bar per category), 密度 ≤ 0.36 below 清晰
    assert set(fills) == {f"dtnode{i}" for i in range(6)}
    assert SPLIT_COLOR in fills["dtnode1"]  # the split line of the continuous test
    root = fills["dtnode0"]
    assert root.count("#4e79a7") == 2 and root.count("#f28e2b") == 3  # 是 in 清晰, 稍糊; 否 in all 3
    leaf = fills["dtnode3"]  # 密度 > 0.36: 7 rows, all 是: one bar
    assert leaf.count("#4e79a7") == 1
    # the bars are real cells of the picture: the root's tallest class cell is 36 units high
    heights = frame.evaluate(
        """(frame) => Array.from(frame.querySelectorAll('svg g#dtnode0 polygon'))
        .filter((p) => p.getAttribute('fill') === '#4e79a7').map((p) => p.getBBox().height)"""
    )
    assert max(heights) == pytest.approx(28, abs=0.6)  # 7 of the tallest bar's 9 rows · 36


def test_without_the_option_the_boxes_hold_no_chart(page, app_url):
    open_page(page, app_url, "", sample="watermelon_3.0", algo="c45")
    script_done(page, timeout=60_000)
    svg = page.locator(".st-key-small_frame .dt-frame svg").first
    svg.wait_for(state="attached", timeout=60_000)
    assert SPLIT_COLOR not in svg.evaluate("(s) => s.outerHTML")
    toggle = page.get_by_text("Node charts")
    assert toggle.count() == 1
