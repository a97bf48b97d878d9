"""A selectbox whose option labels come from the model shows the new model's label after a
retrain (issue 16, item 8): "Show levels" said "auto (≤ 3)" over a tree of depth 3 drawn whole,
because a keyed widget keeps its identity and the browser kept the label it had drawn."""

from __future__ import annotations

from tests.browser.test_screenshots import open_page, script_done


def shown_value(page, key: str) -> str:
    """The text a selectbox shows as its value (its input's value in the browser)."""
    return page.locator(f".st-key-{key} input").first.input_value()


def test_show_levels_label_follows_the_retrained_tree(page, app_url):
    open_page(page, app_url, "", lang="en", sample="credit-g", algo="cart")
    page.locator(".st-key-levels input").first.wait_for(state="attached", timeout=60_000)
    script_done(page, timeout=60_000)
    # the full tree is too big to draw whole (folded to depth 4 by the fold rule of issue 27)
    assert shown_value(page, "levels") == "auto (≤ 4)"
    depth = page.get_by_role("spinbutton", name="Max depth (0 = no limit)")
    depth.fill("3")
    page.get_by_role("button", name="Train").click()
    page.get_by_text("CART · 15 nodes").first.wait_for(timeout=60_000)
    script_done(page, timeout=60_000)
    assert shown_value(page, "levels") == "auto (all)"
    depth.fill("0")
    page.get_by_role("button", name="Train").click()
    page.get_by_text("depth 3 · 8 leaves").first.wait_for(state="detached", timeout=60_000)
    script_done(page, timeout=60_000)
    assert shown_value(page, "levels") == "auto (≤ 4)"
