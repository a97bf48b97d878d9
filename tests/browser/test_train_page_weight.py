"""What the Train page of a big tree puts in the browser (issue 26): the browser's own Graphviz
(WebAssembly, laying the picture out again on every rerun) draws nothing there, the what-if path
comes drawn by the server in a pan/zoom frame, and the overview map is an SVG of only the sectors
it shows (Plotly laid out every sector it was given: all 615 of diabetes' CART tree at first)."""

from __future__ import annotations

from tests.browser.test_screenshots import open_page, script_done
from ui.figures.overview import MAX_DEPTH

OVERVIEW = '[class*="st-key-tree_overview_"]'


def test_big_tree_train_page_has_no_browser_graphviz_and_a_light_overview(page, app_url):
    open_page(page, app_url, "", lang="en", sample="diabetes", algo="cart")
    page.locator(".st-key-focus_frame .dt-frame svg g#dtnode0").wait_for(state="attached", timeout=90_000)
    path = page.locator(".st-key-whatif_path .dt-frame svg g.node").first
    path.wait_for(state="attached", timeout=60_000)
    page.locator(f"{OVERVIEW} .dt-frame svg g.sector").first.wait_for(state="attached", timeout=60_000)
    script_done(page)
    assert page.locator('[data-testid="stGraphVizChart"]').count() == 0
    # the sample's path reaches a leaf of the tree, drawn bold
    assert page.locator('.st-key-whatif_path .dt-frame svg g.edge path[stroke-width="2.5"]').count() >= 3
    page.get_by_text("615 nodes").first.wait_for(state="attached")
    # the root's MAX_DEPTH levels of a binary tree, at most: not the 615 nodes; no Plotly for it
    assert page.locator(f"{OVERVIEW} .dt-frame svg g.sector").count() <= 2**MAX_DEPTH - 1
    assert page.locator(f"{OVERVIEW} .main-svg").count() == 0


def test_the_whatif_path_of_a_big_tree_opens_with_its_leaf_in_view(page, app_url):
    """The path picture of a big tree is larger than its frame: it opens with the leaf the
    sample reaches (outlined) whole inside the frame, not around the root with the answer off
    screen (diabetes' first row ends where the root's window does not reach)."""
    open_page(page, app_url, "", lang="en", sample="diabetes", algo="cart")
    frame = page.locator(".st-key-whatif_path .dt-frame").first
    leaf = frame.locator('svg g[id^=dtnode]:has(path[stroke-width="3"])').first
    leaf.wait_for(state="attached", timeout=90_000)
    script_done(page)
    frame.scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # the frame reopens its view once the page has its width
    stage = frame.locator(".dt-stage").bounding_box()
    box = leaf.bounding_box()
    assert stage is not None and box is not None
    larger = frame.locator("svg").first.evaluate(
        "s => s.viewBox.baseVal.width < s.getBBox().width || s.viewBox.baseVal.height < s.getBBox().height"
    )
    assert larger, "the picture fits its frame: the case needs one larger than the frame"
    assert stage["x"] <= box["x"] and box["x"] + box["width"] <= stage["x"] + stage["width"], (stage, box)
    assert stage["y"] <= box["y"] and box["y"] + box["height"] <= stage["y"] + stage["height"], (stage, box)
