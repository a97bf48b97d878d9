"""The model the user opened on the Data page (``ui.services.opened``), in session state: while
one is open the Train page shows it instead of training, and the pages that take the current
model (Pruning, Splits) take it, restated on the Data page's data when they hold its columns."""

from __future__ import annotations

import streamlit as st

from ui.services.opened import OnData, OpenedModel, OpenError, on_data, open_model
from ui.services.training import TrainResult
from ui.state.state import data, split, target


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
    for key in ("opened_model", "opened_error", "opened_seen", "_opened_on_data"):
        st.session_state.pop(key, None)
    st.session_state["opened_version"] = st.session_state.get("opened_version", 0) + 1


def upload_key() -> str:
    """The model upload box's key: a new one after :func:`close` (which is how it is emptied)."""
    return f"open_model_{st.session_state.get('opened_version', 0)}"


def with_data() -> OnData | None:
    """The opened model on the current data (None when no model is open), computed once per
    model, data and row split in the session."""
    om = opened()
    if om is None:
        return None
    d = data()
    sp = split()
    sig = (om.digest, om.tree, None if d is None else d.digest, sp, target())
    cached = st.session_state.get("_opened_on_data")
    if cached is None or cached[0] != sig:
        cached = st.session_state["_opened_on_data"] = (
            sig,
            on_data(om, None if d is None else d.df, sp, sig[2] or "", target()),
        )
    return cached[1]


def result() -> TrainResult | None:
    """The opened model as the pages take a trained one; None without fitting data."""
    od = with_data()
    return None if od is None else od.result
