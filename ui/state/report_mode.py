"""Report mode: ``?report=1`` turns a page into a clean picture of its output.

Screenshot tests (ours in tests/browser, and users' own) want the tree, the charts and the tables
without Streamlit's chrome (header, toolbar, sidebar, status widget, deploy button, decoration)
and without the controls that produced them. The frame (app.py) calls :func:`apply` once per run;
pages ask :func:`active` and skip their widgets, reading the settings from the URL/session instead
(``ui.state.url.setting``). As a safety net the CSS also hides input widgets of pages that do not ask
yet, and turns off animations, transitions and the blinking caret so pictures settle.

The parameter is not a view setting: ``ui.state.url.write_url`` leaves unknown keys alone, so it
stays in the address bar while the user moves between pages.
"""

from __future__ import annotations

import streamlit as st

PARAM = "report"
_ON = ("1", "true", "yes", "on")

#: Streamlit's chrome and every input widget; outputs (charts, tables, metrics, text) stay
CSS = """
header[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"],
[data-testid="stStatusWidget"], [data-testid="stAppDeployButton"], .stDeployButton,
[data-testid="stMainMenu"], [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stSidebarNav"], [data-testid="stBottom"],
[data-testid="stSelectbox"], [data-testid="stMultiSelect"], [data-testid="stRadio"],
[data-testid="stCheckbox"], [data-testid="stSlider"], [data-testid="stSelectSlider"],
[data-testid="stNumberInput"], [data-testid="stTextInput"], [data-testid="stFileUploader"],
[data-testid="stButton"], [data-testid="stDownloadButton"],
[data-testid="stFormSubmitButton"], [data-testid="stForm"], [data-testid="stPageLink"],
[data-testid="stElementToolbar"], [data-testid="stTooltipIcon"] { display: none !important; }
[data-testid="stMainBlockContainer"], .block-container { padding-top: 1.5rem !important; }
*, *::before, *::after { transition: none !important; animation: none !important;
                         caret-color: transparent !important; scroll-behavior: auto !important; }
"""


def active() -> bool:
    """True when the page is shown as a report (``?report=1``)."""
    try:
        return str(st.query_params.get(PARAM, "")).lower() in _ON
    except Exception:  # outside a Streamlit run (plain imports, unit tests)
        return False


def apply() -> bool:
    """Called by the frame before the page runs: hide the chrome in report mode. Returns active()."""
    on = active()
    if on:
        st.html(f"<style>{CSS}</style>")
    return on


def control(widget, *args, key: str, fallback=None, **kwargs):
    """Draw an input widget; in report mode draw nothing and return the value it would have
    (its session/URL value, else ``fallback``). ``key`` is required: that is where the value lives.

        levels = report_mode.control(col.selectbox, "Levels", options, key="levels")
    """
    if active():
        value = st.session_state.get(key)
        return fallback if value is None else value
    return widget(*args, key=key, **kwargs)
