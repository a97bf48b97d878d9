"""Switching English → 中文 → English never raises, on any page (issue 27, item 1).

A selection widget whose options are translated used to keep its value as the label the browser
had drawn: after a switch that label was no longer an option and came back as the value
(``KeyError: 'training'`` in the what-if section, ``KeyError: 'nodes testing a feature'`` in the
Find panel of a big tree). Each page is reached with a trained tree (one session walks them
through the sidebar, as a user does), the language is switched there and back, and the page must
show no exception, no error box of a section, and its content again.
"""

from __future__ import annotations

import pytest

from tests.browser.test_picture_resend import nav
from tests.browser.test_screenshots import at_rest, open_page, script_done
from ui import i18n

#: page path → the catalogue key of its title, which it shows once drawn (a blank page cannot pass)
PAGES = {
    "data": "data.title",
    "": "train.title",
    "splits": "splits.title",
    "prune": "prune.title",
    "growth": "growth.title",
    "compare": "compare.title",
}
#: the textbook tree (C4.5 on watermelon 3.0), and a big CART tree (615 nodes: the Find panel)
CASES = {
    "watermelon": {"sample": "watermelon_3.0", "algo": "c45"},
    "big": {"sample": "diabetes", "algo": "cart"},
}
BIG_PAGES = ("", "splits", "data", "prune")
#: what a section's error boundary says (ui/sections/boundary.py), in both languages
SECTION_FAILED = [i18n.translate("app.section_failed", lang) for lang in i18n.LANGS]


#: the sidebar's name of each language
LANG_OF = {"中文": "zh", "English": "en"}


def switch_language(page, name: str, path: str) -> None:
    """Switch the sidebar's language to ``name`` and wait until /``path``'s title is drawn in it and
    the run has ended (a wait begun before the rerun could end on the page of the language before)."""
    page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label').filter(has_text=name).click()
    title = i18n.translate(PAGES[path], LANG_OF[name])
    page.locator('[data-testid="stMain"] h1').filter(has_text=title).first.wait_for(
        state="visible", timeout=120_000
    )
    script_done(page, timeout=120_000)


def problems(page) -> list[str]:
    """Every exception, traceback or failed-section box on the page, as text."""
    found = [el.inner_text()[:300] for el in page.locator('[data-testid="stException"]').all()]
    body = page.locator('[data-testid="stMain"]').inner_text()
    for word in ("Traceback", "KeyError", *SECTION_FAILED):
        if word in body:
            at = body.index(word)
            found.append(body[max(0, at - 150) : at + 300])
    return found


def settle(page, path: str) -> None:
    page.locator('[data-testid="stMain"] h1').first.wait_for(state="visible", timeout=120_000)
    page.wait_for_timeout(500)
    script_done(page, timeout=120_000)


#: every button label on the page whose text is wider than the button shows it (an ellipsis)
CUT_LABELS = """() => [...document.querySelectorAll('[data-testid="stMain"] button .stMarkdownEllipsis')]
  .map(d => {
    const shown = d.getBoundingClientRect().width, css = d.style.cssText;
    d.style.width = 'max-content'; d.style.maxWidth = 'none'; d.style.flex = 'none';
    const full = d.getBoundingClientRect().width;
    d.style.cssText = css;
    return [d.innerText, Math.round(full), Math.round(shown)];
  }).filter(([, full, shown]) => shown > 0 && full > shown + 1)"""


def nav_to(page, path: str) -> None:
    """Go to /``path`` through the sidebar's link, as a user moves between pages (the session,
    its data and its tree stay), and wait until its title is drawn and the run has ended."""
    nav(page, path)  # the default page, Train & tree, links to "/": path ""
    title = i18n.translate(PAGES[path], "en")
    page.locator('[data-testid="stMain"] h1').filter(has_text=title).first.wait_for(
        state="visible", timeout=120_000
    )
    script_done(page, timeout=120_000)


@pytest.mark.browser
@pytest.mark.parametrize("case", list(CASES))
def test_language_round_trip_raises_nothing(page, app_url, case):
    """On every page in turn (reached through the sidebar, one session), the page raises nothing
    before, during and after the round trip, and no button's label is cut in either language
    (issue 27: "填入这一…" in the what-if, "Back to th…" in the big tree's focused view at 1400 px)."""
    paths = list(PAGES) if case == "watermelon" else list(BIG_PAGES)
    open_page(page, app_url, paths[0], lang="en", **CASES[case])
    settle(page, paths[0])
    for i, path in enumerate(paths):
        if i:
            nav_to(page, path)
        assert problems(page) == [], f"/{path} before the switch: {problems(page)}"
        assert at_rest(page, CUT_LABELS) == [], f"/{path}"
        for name in ("中文", "English"):
            switch_language(page, name, path)
            assert problems(page) == [], f"after switching to {name} on /{path}: {problems(page)}"
            assert at_rest(page, CUT_LABELS) == [], f"/{path} in {name}"
        assert page.locator('[data-testid="stMain"] h1').first.inner_text() == i18n.translate(
            PAGES[path], "en"
        )


@pytest.mark.browser
def test_find_panel_keeps_its_query_across_the_switch(page, app_url):
    """The Find panel's query is kept as its id: 'purest leaves' stays picked, in either language."""
    open_page(page, app_url, "", lang="en", **CASES["big"])
    settle(page, "")
    script_done(page, timeout=120_000)
    page.locator(".st-key-find_query input").first.click()
    page.get_by_role("option", name=i18n.translate("nav.query.purest", "en")).click()
    script_done(page, timeout=120_000)
    for name, lang in (("中文", "zh"), ("English", "en")):
        switch_language(page, name, "")
        assert problems(page) == [], problems(page)
        shown = page.locator(".st-key-find_query input").first.input_value()
        assert shown == i18n.translate("nav.query.purest", lang)


@pytest.mark.browser
@pytest.mark.parametrize(
    ("path", "params"),
    [("prune", {"sample": "watermelon_3.0", "algo": "cart", "prune_method": "ccp", "valid": 20})],
    ids=["prune-ccp"],
)
def test_no_button_label_is_cut(page, app_url, path, params):
    """Issue 27: "Use the validation …" at 1400 px (every page's buttons, with the textbook tree
    and a big one, are checked by ``test_language_round_trip_raises_nothing``)."""
    open_page(page, app_url, path, lang="en", **params)
    settle(page, path)
    page.locator('[data-testid="stMain"] button').first.wait_for(state="visible", timeout=60_000)
    assert at_rest(page, CUT_LABELS) == []
    for name in ("中文", "English"):
        switch_language(page, name, path)
        assert at_rest(page, CUT_LABELS) == [], name
