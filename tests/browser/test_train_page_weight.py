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
