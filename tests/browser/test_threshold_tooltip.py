"""In the real browser: C4.5's test 密度 ≤ 0.36 (release 8's stored value) carries the textbook's
midpoint 0.3815 as the node's tooltip, which survives the frame's cleaning of the SVG, and a
click on the node (inside the tooltip's link wrapper) still selects it (issue 16 item 4)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from tests.browser.test_navigation import FRAME, frame_ready
from tests.browser.test_screenshots import open_page, script_done


def test_c45_threshold_tooltip_names_the_midpoint(page, app_url):
    open_page(page, app_url, "splits", lang="zh")  # watermelon 3.0, C4.5
    frame_ready(page, 1)
    link = page.locator(f"{FRAME} g#dtnode1 a").first
    assert link.get_attribute("xlink:title") == "密度 ≤ 0.36 (中点 0.3815)"
    assert page.locator(f"{FRAME} g#dtnode0 a").count() == 0  # a categorical test: no tooltip
    page.locator(f"{FRAME} g#dtnode1").click()
    page.get_by_text("到节点 #1 的路径").first.wait_for(state="visible", timeout=30_000)
    script_done(page)
    assert parse_qs(urlsplit(page.url).query).get("node") == ["1"], page.url
