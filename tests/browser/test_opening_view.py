"""Where a picture larger than its frame opens: on the nodes the page is about (``data.focus`` of
``frame.js``), whole, with the root too where the frame has room; before, every picture opened
around the root and the node asked about could lie a frame or more away.

The what-if path's reached leaf (a pan/zoom frame), the Splits page's chosen node (pan/zoom) and
the Train page's selected node (a fixed-scale frame that scrolls)."""

from __future__ import annotations

from tests.browser.test_screenshots import open_page, script_done

#: a node box drawn with the bold outline of a selected node or a reached leaf (penwidth=3)
OUTLINED = 'svg g[id^=dtnode]:has(path[stroke-width="3"])'


def larger_than_its_frame(frame) -> bool:
    return frame.locator("svg").first.evaluate(
        "s => { const v = s.viewBox.baseVal, b = s.getBBox(), r = s.getBoundingClientRect(),"
        " p = s.parentNode.getBoundingClientRect();"
        " return v.width < b.width || v.height < b.height || r.width > p.width || r.height > p.height; }"
    )


def assert_in_view(frame, node) -> None:
    """``node`` lies whole inside the frame's visible stage."""
    frame.scroll_into_view_if_needed()
    frame.page.wait_for_timeout(300)  # a frame reopens its view once the page has its width
    stage = frame.locator(".dt-stage").bounding_box()
    box = node.bounding_box()
    assert stage is not None and box is not None
    assert larger_than_its_frame(frame), "the picture fits its frame: the case needs one larger"
    assert stage["x"] <= box["x"] and box["x"] + box["width"] <= stage["x"] + stage["width"], (stage, box)
    assert stage["y"] <= box["y"] and box["y"] + box["height"] <= stage["y"] + stage["height"], (stage, box)


def test_the_whatif_path_of_a_big_tree_opens_with_its_leaf_in_view(page, app_url):
    """Diabetes' CART tree (615 nodes): its first row's leaf lay 900 px below the frame."""
    open_page(page, app_url, "", lang="en", sample="diabetes", algo="cart")
    frame = page.locator(".st-key-whatif_path .dt-frame").first
    leaf = frame.locator(OUTLINED).first
    leaf.wait_for(state="attached", timeout=90_000)
    script_done(page)
    assert_in_view(frame, leaf)


#: a node of credit-g's CART tree (default settings) that lay outside the window opened around the
#: root: ~1 400 units to its right on the Splits page and on Train & tree
FAR_NODE = 10


def assert_selected_in_view(page, app_url, path: str, frame_key: str) -> None:
    """credit-g's CART tree on ``path``, ``FAR_NODE`` selected (the URL's ``node``: both pages'
    selectors follow it): the node, outlined, lies whole inside the picture's frame ``frame_key``."""
    open_page(page, app_url, path, lang="en", sample="credit-g", algo="cart", node=FAR_NODE)
    frame = page.locator(f".st-key-{frame_key} .dt-frame").first
    chosen = frame.locator(f'svg g#dtnode{FAR_NODE}:has(path[stroke-width="3"])')
    chosen.wait_for(state="attached", timeout=90_000)
    script_done(page)
    assert_in_view(frame, chosen)


def test_the_splits_page_opens_its_picture_on_the_chosen_node(page, app_url):
    """The tree drawn whole to its automatic depth (pan/zoom)."""
    assert_selected_in_view(page, app_url, "splits", "split_frame")


def test_the_train_page_scrolls_its_picture_to_the_selected_node(page, app_url):
    """The tree at a fixed scale in a frame that scrolls."""
    assert_selected_in_view(page, app_url, "", "small_frame")
