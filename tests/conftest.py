"""Markers by where a test lives, and no silent skips in CI.

``app``: runs the Streamlit pages in process (AppTest, tests/app/); ``browser``: drives the real
app in headless Chromium; ``oracle``: runs Weka's J48 (Debian's weka) as the reference; ``slow``:
one test takes more than ~5 s here. Select with ``-m``: ``make test-fast`` runs
``-m "not browser and not app and not slow and not oracle"``. Under ``CI=true`` every tool is installed by
``make test``, so a skipped test can only mean a broken set-up or feature: it fails instead.

Every fit a test makes is saved as a JSON model and loaded back (``tests/model_round_trip.py``):
the test fails when the loaded tree or growth history differs from the fitted one.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.model_round_trip import every_fit_round_tripped, take_failures

HERE = Path(__file__).resolve().parent
ORACLE_FILES = {"test_j48.py"}
#: measured with ``pytest --durations=30`` on the 2-core machine
SLOW_FILES = {"test_screenshots.py", "test_report_cli.py", "test_properties.py"}
SLOW_TESTS = {"test_outputs_identical_across_processes"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(str(item.fspath)).resolve()
        rel = path.relative_to(HERE)
        if rel.parts[0] == "browser":
            item.add_marker(pytest.mark.browser)
        if rel.parts[0] == "app":
            item.add_marker(pytest.mark.app)
        if path.name in ORACLE_FILES:
            item.add_marker(pytest.mark.oracle)
        if path.name in SLOW_FILES or item.originalname in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") == "true" and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped in CI, where every tool is installed: {reason}"


@pytest.fixture(scope="session", autouse=True)
def _every_fit_saved_and_loaded():
    with every_fit_round_tripped():
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Fail the test whose call (or whose fixtures' setup, since the last test) made a fit that
    did not survive save and load."""
    outcome = yield
    found = take_failures()
    if found and outcome.excinfo is None:
        outcome.force_exception(
            AssertionError("a fitted model changed through save and load:\n" + "\n".join(found))
        )
