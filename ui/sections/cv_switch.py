"""The switch that asks for cross-validation on a large table (Compare, Pruning's α curves):
above ``alpha_selection.ASKED_ROWS`` training rows the k more fits wait for it, and until it is on
a caption says why."""

from __future__ import annotations

import streamlit as st

from dtcore.pruning.alpha_selection import only_when_asked
from ui.state import report_mode
from ui.state.state import t


def cv_asked(key: str, k: int, n_train: int) -> bool:
    """Whether to run ``k``-fold cross-validation on ``n_train`` training rows: always on a small
    table (and in report mode, which draws no switch), else as the switch ``key`` says."""
    if not only_when_asked(n_train) or report_mode.active():
        return True
    rows = f"{n_train:,}"
    asked = st.toggle(t("cv.ask", k=k), key=key, help=t("cv.ask.help", k=k, rows=rows))
    if not asked:
        st.caption(t("cv.off", k=k, rows=rows))
    return asked
