"""The Compare page's session side: the chosen algorithms (kept per task) and the comparison,
cached per data, roles, task, algorithms and row split, run in a heavy-job slot."""

from __future__ import annotations

import streamlit as st

from ui.services import compare as service
from ui.services.training import Split

from .jobs import heavy_job
from .model import wait_notice
from .state import data, roles, split, task

KEY = "compare_algos"


@st.cache_resource(max_entries=8, show_spinner=False)
def _cached(digest: str, roles_key: tuple, task: str, keys: tuple, split_key: tuple, _df, _on_wait=None):
    with heavy_job(_on_wait):
        return service.run(_df, dict(roles_key), task, list(keys), Split(*split_key))


def prepare_choice() -> tuple[str, ...]:
    """The options for this task; the chosen algorithms start at the defaults (and again when
    the task changes)."""
    options = service.CHOICES[task()]
    if st.session_state.get("_compare_task") != task() or any(
        k not in options for k in st.session_state.get(KEY, [])
    ):
        st.session_state["_compare_task"] = task()
        st.session_state[KEY] = service.defaults(task())
    return options


def comparison(keys: list[str]):
    """The comparison of ``keys`` on the current data and split; TrainingError propagates."""
    d, sp = data(), split()
    notice = wait_notice()
    try:
        return _cached(
            d.digest,
            tuple(roles().items()),
            task(),
            tuple(keys),
            (sp.valid, sp.test, sp.seed),
            _df=d.df,
            _on_wait=notice,
        )
    finally:
        notice.clear()
