"""Why every page ends with :func:`run_page`: a shared link must open inside app.py's frame.

Streamlit (checked on 1.67, ``runtime/pages_manager.py``) serves a folder named ``pages/`` next to
the main script the legacy way (multipage v1: ``PagesManager.uses_pages_directory``) until some
session of the server process has called ``st.navigation``; only that clears the flag, for the
whole process. So the first link to ``/data`` that a freshly started server gets runs pages/data.py
alone: no sidebar, no defaults, no URL seeding. ``client.showSidebarNavigation = false`` does not
help (it only hides the legacy page list; the page still runs without the frame; tried on a fresh
server). Only a folder with another name would let Streamlit skip the legacy mode altogether.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

from . import large_data
from .boundary import section
from .model import url_extras
from .url import write_url

#: the folder of app.py, which page paths are relative to
ROOT = Path(__file__).resolve().parents[2]


def require_frame(page: str) -> None:
    """Run a page only inside app.py's frame.

    Until some session has run app.py (which calls ``st.navigation``), Streamlit serves a
    ``pages/`` folder the legacy way: a shared link to ``/data`` on a freshly started server would
    run pages/data.py alone, without the sidebar, defaults or URL seeding. Detour through the frame
    and let it come back here.
    """
    if not st.session_state.get("_frame"):
        st.session_state["_want_page"] = page
        st.switch_page("app.py", query_params={k: st.query_params[k] for k in st.query_params})


def enter_frame(pages: dict) -> None:
    """Called by app.py after ``st.navigation``: mark the frame, finish a detour from a page."""
    st.session_state["_frame"] = True
    wanted = st.session_state.pop("_want_page", None)
    if wanted in pages:
        st.switch_page(pages[wanted], query_params={k: st.query_params[k] for k in st.query_params})


def page_path(page: Callable) -> str:
    """``pages/<name>.py`` of the file that defines the page function."""
    path = Path(page.__code__.co_filename).resolve()
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return f"pages/{path.name}"


def run_page(page: Callable[[], None]) -> None:
    """The whole tail of a page file: detour through the frame when the page runs without it
    (:func:`require_frame`), draw the page, then put this run's settings in the URL. The frame
    writes the URL again after the sidebar, but a page can also run without the frame (AppTest
    reruns only the page), and the address bar should match what the page has just drawn."""
    require_frame(page_path(page))
    if large_data.page_gate(page_path(page)):  # large data: the page says it uses the sample
        section("page", page)  # the last boundary: whatever a section's own did not catch
    write_url(url_extras())
    large_data.warm_up()  # the page drawn: a server offering large data starts its Dask cluster
