"""A browser snapshot of the what-if path: watermelon 2.0α with C4.5, the row whose texture is
missing filled into the sample editor, so the sample goes down every branch of the root with the
branch's share written on the edge (the Train page, not report mode: the what-if section is
interactive). The server's ``dot`` draws it, in the pan/zoom frame (issue 26)."""

from __future__ import annotations

import re
import time

from tests.browser.test_screenshots import LAYER, open_page, script_done, settled_png
from tests.snapshots import assert_image_snapshot


def test_whatif_path_chinese(page, app_url):
    # tall enough that nothing scrolls: a scrolled element lands on sub-pixel offsets
    page.set_viewport_size({"width": 1400, "height": 4000})
    open_page(page, app_url, "", lang="zh", sample="watermelon_2.0_missing", algo="c45")
    script_done(page)
    row = page.locator(".st-key-whatif_row input")
    caption = page.get_by_text(re.compile("^数据表第")).first
    before = caption.inner_text()
    row.fill("7")
    row.press("Enter")
    # the rerun has drawn row 7 (its caption), so the button fills row 7: a click before it
    # filled the row the button was drawn with, and the path then had no missing value (a
    # full run once read no "缺失 · 7/15")
    deadline = time.monotonic() + 30
    while caption.inner_text() == before:
        assert time.monotonic() < deadline, "the row picker's rerun never drew row 7"
        page.wait_for_timeout(50)
    script_done(page)
    page.locator(".st-key-whatif_fill button").click()
    page.wait_for_timeout(500)
    script_done(page)
    path = page.locator(".st-key-whatif_path")
    png = settled_png(page, path, inner=".dt-frame svg .node")
    text = path.locator(".dt-frame svg").first.text_content() or ""
    for share in ("缺失 · 7/15", "缺失 · 1/3", "缺失 · 1/5"):
        assert share in text, text
    assert_image_snapshot(LAYER, "whatif-path-watermelon2missing-c45-zh.png", png)
