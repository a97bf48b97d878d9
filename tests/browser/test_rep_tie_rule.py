"""Issue 27.7 in the browser: on the textbook's watermelon 2.0 training / validation rows (ID3,
REP), clicking "keep" on the tie rule turns the after tree from the 脐部 stump (4 nodes) into
Zhou's figure 4.7 (10 nodes), in English and 中文, and the choice stays after a language switch."""

from __future__ import annotations

import pytest

from tests.browser.test_screenshots import open_page, script_done

FRAME = ".dt-frame"
RULE = ".st-key-prune_rep_ties"
#: the "keep" option's label, by the name of its language in the sidebar
KEEP = {"English": "keep (the textbook", "中文": "保留（教材图"}


def after_nodes(page) -> int:
    """Nodes of the after picture (the second frame) once the run has finished."""
    script_done(page, timeout=60_000)
    frame = page.locator(FRAME).nth(1)
    frame.locator("svg g.node").first.wait_for(state="attached", timeout=60_000)
    return frame.locator("svg g.node:not(#dtlegend)").count()  # the tree's nodes, not its legend


def wait_for_nodes(page, n: int) -> int:
    """The after picture's node count, waiting up to 30 s for it to become ``n``."""
    for _ in range(60):
        got = after_nodes(page)
        if got == n:
            return got
        page.wait_for_timeout(500)
    return got


@pytest.mark.parametrize(
    ("lang", "keep", "other"), [("en", "keep (the textbook", "中文"), ("zh", "保留（教材图", "English")]
)
def test_keep_draws_figure_4_7(page, app_url, lang, keep, other):
    open_page(
        page, app_url, "prune", lang=lang, sample="watermelon_2.0_split", algo="id3", prune_method="rep"
    )
    page.locator(RULE).wait_for(state="visible", timeout=60_000)
    assert after_nodes(page) == 4  # the default, SPEC §8's rule: the 脐部 stump
    page.locator(RULE).get_by_text(keep).click()
    assert wait_for_nodes(page, 10) == 10  # figure 4.7
    # the address bar is rewritten at the end of the run, after the picture: wait for it
    page.wait_for_function("() => location.search.includes('prune_rep_ties=keep')", timeout=30_000)
    assert "prune_rep_ties=keep" in page.url
    page.get_by_text(other, exact=True).click()  # the language switch in the sidebar
    # the rule redrawn in the other language (a check made before would read the old page, or
    # the radio mid-redraw with no option checked, as one run under load did)
    page.locator(RULE).get_by_text(KEEP[other]).wait_for(state="visible", timeout=60_000)
    script_done(page, timeout=60_000)
    assert wait_for_nodes(page, 10) == 10  # the rule is an id, not its label
    checked = page.locator(f"{RULE} input[type=radio]:checked")
    assert checked.count() == 1 and checked.evaluate("(e) => e.closest('label').innerText").startswith(
        KEEP[other]
    )
    assert page.get_by_text("Traceback").count() == 0
