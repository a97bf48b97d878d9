"""The error boundary in process: a forced failure of one section of Train & tree is caught, the
page shows the short message once and every other section (issue 27, item 2)."""

from __future__ import annotations

from tests.app.apptest import start
from tests.app.frame_pictures import tree_svgs
from ui import i18n
from ui.state import boundary


def test_forced_section_failure_is_contained(monkeypatch):
    monkeypatch.delenv(boundary.RAISE_ENV)
    monkeypatch.setenv(boundary.FAULTS_ENV, "1")
    at = start(None, fail="scores", sample="watermelon_3.0")
    assert not at.exception
    assert [e.value for e in at.error] == [i18n.translate("app.section_failed", "en")]
    assert tree_svgs(at)  # the tree, before the failed section
    assert any(s.value == i18n.translate("whatif.title", "en") for s in at.subheader)  # after it


def test_without_the_test_switch_the_parameter_does_nothing(monkeypatch):
    monkeypatch.delenv(boundary.RAISE_ENV)
    monkeypatch.delenv(boundary.FAULTS_ENV, raising=False)
    at = start(None, fail="scores", sample="watermelon_3.0")
    assert not at.exception and not at.error


def test_in_page_tests_a_failing_section_raises(monkeypatch):
    monkeypatch.setenv(boundary.FAULTS_ENV, "1")  # RAISE_ENV is "raise" (tests/app/conftest.py)
    at = start(None, fail="scores", sample="watermelon_3.0")
    assert at.exception and "forced to fail" in at.exception[0].value
