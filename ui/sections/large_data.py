"""The large-data source's page sections (``ui.state.large_data`` holds the source and the fit).

* Data page: :func:`source_section` (a path or glob under ``DTREE_LARGE_DATA_DIR``; nothing is
  drawn when the variable is unset), :func:`sample_placeholder`, :func:`sample_notice` (a sample of
  M rows in K files), :func:`split_note` (Dask trains on every row: no held-out split).
* Train page: :func:`trained_message` says what was trained on what.
"""

from __future__ import annotations

import streamlit as st

from ui.services import large_data as L
from ui.services.training import TrainResult
from ui.state.large_data import failure_text, on_open, source, warm_up
from ui.state.state import t
from ui.views.text import md_escape


def source_section() -> None:
    """The "large data on the server" box (only when the operator configured a folder)."""
    root = L.configured_root()
    if root is None:
        return
    warm_up()  # the Dask cluster starts (if the page before did not) while the user names the files
    src = source()
    with st.expander(t("large.title"), expanded=src is not None, icon=":material/database:"):
        st.caption(t("large.help"))
        with st.form("large_form", border=False):
            left, right = st.columns([4, 1], vertical_alignment="bottom")
            left.text_input(
                t("large.pattern"), key="large_pattern", placeholder="*.parquet", help=t("large.pattern_help")
            )
            right.form_submit_button(
                t("large.open"), on_click=on_open, width="stretch", icon=":material/folder_open:"
            )
        err = st.session_state.get("large_error")
        if err:
            pattern, key, params = err
            st.error(t("large.failed", pattern=md_escape(pattern), message=failure_text(key, params)))


def sample_placeholder() -> str | None:
    """The bundled-sample box's placeholder while large data are loaded (None: not loaded)."""
    return t("large.sample_placeholder") if source() is not None else None


def sample_notice() -> None:
    src = source()
    if src is not None:
        st.info(
            t("large.sample_note", shown=f"{src.sample_rows:,}", rows=f"{src.rows:,}", files=src.n_files),
            icon=":material/database:",
        )


def split_note() -> bool:
    """For large data, a note instead of the row split (True when drawn)."""
    if source() is None:
        return False
    st.subheader(t("data.split"))
    st.caption(t("large.split_note"))
    return True


def trained_message(res: TrainResult) -> str | None:
    """What the Train page says under the settings for a large-data model (None: not one)."""
    src = source()
    if src is None:
        return None
    return t(
        "large.trained",
        rows=f"{src.rows:,}",
        files=src.n_files,
        seconds=f"{res.seconds:.1f}",
        shown=f"{src.sample_rows:,}",
    )
