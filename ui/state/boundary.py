"""The error boundary of a page section: an unexpected exception there stays in that section.

A page is drawn as a few sections (the tree, the scores, the what-if...). Each runs through
:func:`section`: when it raises, the traceback goes to the server's log, the section shows one
short translated message instead (no traceback, no server paths: ``client.showErrorDetails`` is
off in ``.streamlit/config.toml`` for anything that escapes), and the sections after it are still
drawn, so the page stays usable. Streamlit's own control flow (``st.rerun``, ``st.stop``,
``st.switch_page``) raises ``BaseException`` subclasses, which pass through untouched.

Two switches, both environment variables of the server process (a user cannot set them):

- ``DTREE_SECTION_ERRORS=raise``: no boundary, the exception propagates (the in-process page tests
  set it, so a section that raises still fails them);
- ``DTREE_TEST_FAULTS=1``: the URL parameter ``?fail=<section name>`` makes that section raise
  :class:`ForcedFailure` (the browser tests' way to check the boundary; ignored without it).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar, overload

import streamlit as st
from streamlit.logger import get_logger

from ui.state.state import t

RAISE_ENV = "DTREE_SECTION_ERRORS"
FAULTS_ENV = "DTREE_TEST_FAULTS"
FAIL_PARAM = "fail"

_LOG = get_logger(__name__)
T = TypeVar("T")


class ForcedFailure(RuntimeError):
    """The failure ``?fail=<section>`` asks for when ``DTREE_TEST_FAULTS=1``."""


def forced(name: str) -> bool:
    """Whether this run asks section ``name`` to fail (only ever on a test server)."""
    if os.environ.get(FAULTS_ENV) != "1":
        return False
    try:
        return st.query_params.get(FAIL_PARAM) == name
    except Exception:  # outside a Streamlit run
        return False


@overload
def section(name: str, draw: Callable[..., T], *args, fallback: T, **kwargs) -> T: ...
@overload
def section(name: str, draw: Callable[..., T], *args, **kwargs) -> T | None: ...
def section(name, draw, *args, fallback=None, **kwargs):
    """``draw(*args, **kwargs)`` inside the boundary named ``name``; on an unexpected exception,
    log it, show the short message and return ``fallback``."""
    try:
        if forced(name):
            raise ForcedFailure(f"section {name!r} forced to fail (?{FAIL_PARAM}={name})")
        return draw(*args, **kwargs)
    except Exception:
        if os.environ.get(RAISE_ENV) == "raise":
            raise
        _LOG.exception("page section %r failed", name)
        st.error(t("app.section_failed"), icon=":material/error:")
        return fallback
