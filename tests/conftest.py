"""Markers by where a test lives, and no silent skips in CI.

``app``: runs the Streamlit pages in process (AppTest, tests/app/); ``browser``: drives the real
app in headless Chromium; ``oracle``: runs Weka's J48 (Debian's weka) as the reference; ``slow``:
one test takes more than ~5 s here. Select with ``-m``: ``make test-fast`` runs
``-m "not browser and not app and not slow and not oracle"``. Under ``CI=true`` every tool is installed by
``make test``, so a skipped test can only mean a broken set-up or feature: it fails instead.

Every fit a test makes is saved as a JSON model and loaded back (``tests/model_round_trip.py``):
the test fails when the loaded tree or growth history differs from the fitted one.

Under ``-n`` the tests of a file that share a module-scoped fixture run on one xdist worker
(``loadgroup``, ``pytest_configure`` below), so that the fixture is made once per run.
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


#: fixture scopes made once per process: a test using one is sent to xdist's workers with the rest
#: of its file (``xdist_group``), so that the fixture is not made again on the other worker
SHARED_SCOPES = {"module", "package", "class"}


def pytest_configure(config):
    """``-n`` distributes by ``loadgroup`` instead of ``load``: like ``load`` for every test, but
    the tests of a file with a module-scoped fixture (a built site, a wheel, a Dask cluster, two
    report processes, a 2 000-level tree) go to one worker, largest groups first, instead of
    being split between the two workers, each making the fixture. ``--dist`` given explicitly as
    anything but ``load`` is kept."""
    if getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadgroup"
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and workerinput.get("loadgroup"):
        config.option.loadgroup = True  # a worker re-reads the command line: ``-n`` means ``load``


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Tell each xdist worker that the run is by ``loadgroup`` (it names its tests' groups)."""
    node.workerinput["loadgroup"] = node.config.option.dist == "loadgroup"


def _shares_a_fixture(item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope in SHARED_SCOPES for defs in info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the groups into the test ids
def pytest_collection_modifyitems(config, items):
    grouping = config.pluginmanager.hasplugin("xdist")
    for item in items:
        if grouping and _shares_a_fixture(item):
            item.add_marker(pytest.mark.xdist_group(str(Path(str(item.fspath)).relative_to(HERE))))
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
