"""The real app on a free local port, driven by the system Chromium through Playwright."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scripts.app_server import CHROMIUM, AppDidNotStart, free_port, launch_chromium, start_app, stop_app
from scripts.app_server import CHROMIUM_ARGS as BASE_ARGS

ROOT = Path(__file__).resolve().parents[2]
#: the screenshots' fixed rendering on top of the common flags
CHROMIUM_ARGS = [
    *BASE_ARGS,
    "--font-render-hinting=none",
    "--force-color-profile=srgb",
    "--hide-scrollbars",
]
VIEWPORT = {"width": 1400, "height": 1000}


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    port = free_port()
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    # DTREE_TEST_FAULTS: ?fail=<section> forces a section's error boundary (ui/state/boundary.py)
    try:
        proc = start_app(port, log, env={"DTREE_TEST_FAULTS": "1"})
    except AppDidNotStart as exc:
        pytest.fail(str(exc))
    yield f"http://127.0.0.1:{port}"
    stop_app(proc)


@pytest.fixture(scope="session")
def app_log(app_url, tmp_path_factory) -> Path:
    """The test server's log (its stdout and stderr)."""
    return next(tmp_path_factory.getbasetemp().glob("streamlit*/server.log"))


@pytest.fixture(scope="session")
def browser():
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's chromium (make test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = launch_chromium(pw, CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shared_context(browser):
    """One browser context for the session's pages: each test's page is a new tab, so a new
    Streamlit session, but the app's scripts come from the context's cache, compiled once (a new
    context per test paid the whole cold load and Chromium's window set-up, ~2 s of CPU each)."""
    ctx = browser.new_context(
        viewport=VIEWPORT,
        device_scale_factor=1,
        reduced_motion="reduce",
        locale="en-US",
        timezone_id="UTC",
        color_scheme="light",
    )
    yield ctx
    ctx.close()


@pytest.fixture(scope="session")
def kept_tab(shared_context):
    """The tab the tests of this worker share, one after another (a list: a test that closes it
    gets the next test a new one)."""
    return [shared_context.new_page()]


@pytest.fixture
def page(shared_context, kept_tab):
    """A tab kept from test to test: each test's ``goto`` is a new document and a new Streamlit
    session, but the tab's renderer and its compiled scripts stay (a new tab per test cost the
    browser ~1 s more CPU a page load, ~100 loads a run). After the test its routes go, its
    viewport comes back and it leaves the app (about:blank), which ends its session. A test that
    listens to the page's events (``page.on``, a CDP session) takes ``fresh_page``: listeners
    cannot be taken back from outside."""
    if kept_tab[0].is_closed():
        kept_tab[0] = shared_context.new_page()
    pg = kept_tab[0]
    yield pg
    for opened in shared_context.pages:  # any page the test opened
        if opened is not pg:
            opened.close()
    if not pg.is_closed():
        pg.unroute_all(behavior="ignoreErrors")
        pg.set_viewport_size(VIEWPORT)
        pg.goto("about:blank")
    shared_context.clear_cookies()


@pytest.fixture
def fresh_page(shared_context, kept_tab):
    """A new tab of its own, closed after the test (with any it opened): for tests that add
    event listeners."""
    pg = shared_context.new_page()
    yield pg
    for opened in shared_context.pages:
        if opened is not kept_tab[0]:
            opened.close()
    shared_context.clear_cookies()
