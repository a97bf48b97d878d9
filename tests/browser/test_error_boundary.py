"""A section that raises shows one short message, not a traceback, and the rest of the page stays
(issue 27, item 2). The test server honours ``?fail=<section>`` (``DTREE_TEST_FAULTS=1``, set in
conftest; ``ui/state/boundary.py``): the what-if section of Train & tree is made to fail."""

from __future__ import annotations

import tomllib

from tests.browser.conftest import ROOT
from tests.browser.test_screenshots import open_page, script_done
from ui import i18n


def test_config_hides_error_details():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["client"]["showErrorDetails"] == "none"


def test_a_failing_section_shows_a_short_message_and_the_rest_of_the_page(page, app_url, app_log):
    open_page(page, app_url, "", lang="en", sample="watermelon_3.0", algo="c45", fail="whatif")
    message = i18n.translate("app.section_failed", "en")
    page.get_by_text(message).first.wait_for(state="visible", timeout=120_000)
    script_done(page, timeout=120_000)
    main = page.locator('[data-testid="stMain"]')
    body = main.inner_text()
    assert body.count(message) == 1  # only the forced section failed
    assert page.locator('[data-testid="stException"]').count() == 0
    for leak in ("Traceback", "ForcedFailure", 'File "', str(ROOT), ".py", "Ask Google", "ChatGPT"):
        assert leak not in body, leak
    # the sections before and after it are drawn: the tree, the scores, the downloads
    main.locator(".st-key-small_frame .dt-frame svg .node").first.wait_for(state="visible")
    for key in ("metrics.importances", "download.title"):
        assert i18n.translate(key, "en") in body, key
    assert i18n.translate("whatif.title", "en") not in body  # the failed section's own content
    # the page still works: another sample trains and draws without the message
    log = app_log.read_text(errors="replace")
    assert "page section 'whatif' failed" in log
    assert "Traceback (most recent call last)" in log and "ForcedFailure" in log
