"""The model the user opened on the Data page (``ui.services.opened``), in session state: while
one is open the Train page shows it instead of training."""

from __future__ import annotations

import streamlit as st

from ui.services.opened import OpenedModel, OpenError, open_model


def opened() -> OpenedModel | None:
    return st.session_state.get("opened_model")


def open_error() -> tuple[str, str, dict] | None:
    """(file name, catalogue key, parameters) of the last file that failed to open."""
    return st.session_state.get("opened_error")


def take_model_upload(uploaded, tree: int) -> None:
    """Open a newly uploaded model file (or the same file with another member) once; on failure
    keep what was open and remember why."""
    if uploaded is None:
        return
    seen = (uploaded.file_id, int(tree))
    if st.session_state.get("opened_seen") == seen:
        return
    st.session_state["opened_seen"] = seen
    try:
        st.session_state["opened_model"] = open_model(uploaded.name, uploaded.getvalue(), int(tree))
        st.session_state.pop("opened_error", None)
    except OpenError as exc:
        st.session_state["opened_error"] = (uploaded.name, exc.key, exc.params)


def close() -> None:
    """Back to training on the data: the opened model is forgotten and its upload box emptied."""
    for key in ("opened_model", "opened_error", "opened_seen"):
        st.session_state.pop(key, None)
    st.session_state["opened_version"] = st.session_state.get("opened_version", 0) + 1


def upload_key() -> str:
    """The model upload box's key: a new one after :func:`close` (which is how it is emptied)."""
    return f"open_model_{st.session_state.get('opened_version', 0)}"
