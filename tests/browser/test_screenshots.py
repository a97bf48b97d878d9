"""Screenshot regression tests: the real app in the system Chromium, element screenshots of the
tree, a gain curve, the pruning before/after and its chart, and the data page, compared with the
stored PNGs in ``tests/snapshots/browser/`` (small pixel tolerance; on failure expected / actual /
diff images land in ``tests/snapshots/_actual/browser/``; ``UPDATE_SNAPSHOTS=1`` rewrites them).

Pages are opened in report mode (``?report=1``: no Streamlit chrome, no controls, no animations),
at a fixed viewport (conftest: 1400×1000, device scale 1, light scheme, UTC, en-US). A picture is
taken when the script has finished, the element is drawn, the web fonts are loaded and two
consecutive screenshots agree. Most sets are Chinese (watermelon): the CJK glyphs must render.
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from tests.snapshots import assert_image_snapshot

LAYER = "browser"
#: belt and braces on top of report mode's own CSS (pages opened without ?report=1 too)
STILL = (
    "*, *::before, *::after { transition: none !important; animation: none !important; "
    "caret-color: transparent !important; }"
)
FRAME = ".dt-frame"  # the server-drawn SVG's frame (ui/sections/tree_frame.py)
#: the Train page's whole-tree picture (a textbook tree: fitted to the column, issue 26)
TRAIN_TREE = f".st-key-small_frame {FRAME}"


def open_page(page, app_url, path: str = "", **params):
    """Open a page by its path ("" is the default page, Train & tree: Streamlit serves the default
    page at / only, and answers /train with a "Page not found" dialog)."""
    page.goto(f"{app_url}/{path}?{urlencode(params)}", wait_until="domcontentloaded")
    page.add_style_tag(content=STILL)


def script_done(page, timeout=30_000):
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout)
    assert page.get_by_text("Page not found").count() == 0, f"{page.url} is not a page of the app"


def at_rest(page, js: str):
    """``js``'s result once the fonts are in and two measures 100 ms apart agree (where a fixed
    wait of 500 ms stood: it waited that long every time, and guessed)."""
    page.evaluate("() => document.fonts.ready.then(() => true)")
    last = page.evaluate(js)
    for _ in range(30):
        page.wait_for_timeout(100)
        now = page.evaluate(js)
        if now == last:
            return now
        last = now
    raise AssertionError(f"the page kept changing: {last}")


def settled_png(page, locator, *, inner: str | None = None, timeout: float = 30.0) -> bytes:
    """A screenshot of ``locator`` once it no longer changes (fonts loaded, script finished,
    ``inner`` drawn inside it, two consecutive pictures identical)."""
    locator.wait_for(state="visible", timeout=timeout * 1000)
    if inner:
        locator.locator(inner).first.wait_for(state="visible", timeout=timeout * 1000)
    page.evaluate("() => document.fonts.ready.then(() => true)")
    deadline = time.monotonic() + timeout
    prev = None
    while True:
        script_done(page)
        locator.scroll_into_view_if_needed()
        png = locator.screenshot(animations="disabled", caret="hide", scale="css")
        if png == prev:
            return png
        if time.monotonic() > deadline:
            raise AssertionError(f"the element kept changing for {timeout:.0f} s")
        prev = png
        page.wait_for_timeout(300)


def test_train_tree_chinese(page, app_url):
    """Watermelon 3.0 with C4.5 (the default view): categorical and continuous tests, CJK labels."""
    open_page(page, app_url, "", report=1, lang="zh", sample="watermelon_3.0")
    tree = page.locator(TRAIN_TREE).first
    png = settled_png(page, tree, inner="svg .node")
    assert page.locator('[data-testid="stHeader"]').first.is_hidden()  # report mode is on
    assert_image_snapshot(LAYER, "train-tree-watermelon3-c45-zh.png", png)


def test_train_tree_cart_english(page, app_url):
    """buys_computer with CART: binary subset tests, English labels, a fixed layout from the URL."""
    open_page(page, app_url, "", report=1, lang="en", sample="buys_computer", algo="cart", layout="TB")
    png = settled_png(page, page.locator(TRAIN_TREE).first, inner="svg .node")
    assert_image_snapshot(LAYER, "train-tree-buys_computer-cart-en.png", png)


def test_data_page_chinese(page, app_url):
    """The data page as a report: the read-only preview and the role table (each a data grid
    drawn on a canvas: shot one by one, so each lies inside the viewport and is fully drawn)."""
    open_page(page, app_url, "data", report=1, lang="zh", sample="watermelon_2.0_missing")
    grids = page.locator('[data-testid="stDataFrame"]')
    grids.nth(1).wait_for(state="visible", timeout=30_000)
    assert page.locator('[data-testid="stSelectbox"], [data-testid="stSlider"]').count() == 0
    preview = page.locator('[data-testid="stExpander"]').first
    assert_image_snapshot(
        LAYER,
        "data-preview-watermelon2missing-zh.png",
        settled_png(page, preview, inner='[data-testid="stDataFrame"] canvas'),
    )
    assert_image_snapshot(
        LAYER, "data-roles-watermelon2missing-zh.png", settled_png(page, grids.nth(1), inner="canvas")
    )


def test_gain_curve_chinese(page, app_url):
    """The split explorer's score curve of 密度 at the root of the watermelon 3.0 C4.5 tree (the
    URL names the feature: the algorithm itself would chart 纹理)."""
    open_page(page, app_url, "splits", report=1, lang="zh", sample="watermelon_3.0", split_feature="密度")
    # the page keys its chart by node and feature index (密度 is feature 6): the server's SVG in
    # the tree frame, its click columns drawn
    chart = page.locator('[class*="st-key-split_curve_0_6"] .dt-frame').first
    png = settled_png(page, chart, inner='.dt-stage svg g[id^="dtpick"]')
    assert_image_snapshot(LAYER, "splits-curve-watermelon3-c45-density-zh.png", png)


def pick_option(page, key: str, index: int) -> str:
    """Open selectbox ``key`` and click its option ``index``; returns the option's text."""
    page.locator(f'.st-key-{key} input[role="combobox"]').click()
    option = page.locator('[role="option"]').nth(index)
    text = option.inner_text()
    option.click()
    return text


@pytest.mark.parametrize("path, key", [("", "node"), ("splits", "split_node")])
def test_picked_node_is_in_the_address_bar_when_the_run_ends(page, app_url, path, key):
    """The URL names the node the run just drew, not the one before (Train and Splits pages)."""
    open_page(page, app_url, path, sample="iris", algo="cart")
    script_done(page)
    for index in (2, 1, 4):
        text = pick_option(page, key, index)
        # the run that drew this node is over (both pages write "Path to node #i" for it)
        page.get_by_text(f"Path to node #{index}:").first.wait_for(state="visible", timeout=30_000)
        script_done(page)
        assert text.startswith(f"#{index} ")
        assert parse_qs(urlsplit(page.url).query).get("node") == [str(index)], page.url


def test_prune_before_after_chinese(page, app_url):
    """EBP (CF 0.05) on the unpruned watermelon 2.0 C4.5 tree: before and after side by side (the
    removed subtree ghosted), and the CF chart."""
    open_page(
        page,
        app_url,
        "prune",
        report=1,
        lang="zh",
        sample="watermelon_2.0",
        c45_prune=0,
        prune_method="ebp",
        prune_cf=0.05,
    )
    # both pictures server-drawn in their frames at one common scale (issue 16.6)
    pair = page.locator('[data-testid="stHorizontalBlock"]').filter(has=page.locator(FRAME)).last
    pair.locator(FRAME).nth(1).locator("svg .node").first.wait_for(state="visible", timeout=30_000)
    png = settled_png(page, pair, inner=f"{FRAME} svg .node")
    assert_image_snapshot(LAYER, "prune-before-after-watermelon2-c45-ebp-zh.png", png)
    chart = page.locator(".st-key-prune_cf_chart")
    png = settled_png(page, chart, inner="svg.dt-static-chart")
    assert_image_snapshot(LAYER, "prune-cf-chart-watermelon2-c45-zh.png", png)


def test_compare_trees_and_cv_english(page, app_url):
    """The Compare page on watermelon 2.0: ID3, C4.5 and CART one above the other, each fitted to
    the page's width (issue 27; the root, their first disagreement, in bold), and the
    cross-validation chart."""
    open_page(page, app_url, "compare", report=1, lang="en", sample="watermelon_2.0")
    page.locator(f"{FRAME} svg .node").nth(0).wait_for(state="visible", timeout=60_000)
    for name in ("id3", "c45", "cart"):
        frame = page.locator(f".st-key-compare_{name} {FRAME}").first
        png = settled_png(page, frame, inner="svg .node")
        assert_image_snapshot(LAYER, f"compare-tree-{name}-watermelon2-en.png", png)
    chart = page.locator(".st-key-compare_cv")
    png = settled_png(page, chart, inner="svg.dt-static-chart circle")  # the server's SVG
    assert_image_snapshot(LAYER, "compare-cv-watermelon2-en.png", png)


def test_growth_step_two_chinese(page, app_url):
    """The Growth page after the second split of the watermelon 3.0 C4.5 tree (the step from the
    URL): two tests, the newest in bold."""
    open_page(page, app_url, "growth", report=1, lang="zh", sample="watermelon_3.0", growth_step=2)
    page.get_by_text("第 2 次分裂").first.wait_for(state="visible", timeout=60_000)
    png = settled_png(page, page.locator(FRAME).first, inner="svg .node")  # the server's SVG
    assert_image_snapshot(LAYER, "growth-step2-watermelon3-c45-zh.png", png)
