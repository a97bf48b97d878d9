"""A table that may run to thousands of rows (REP's decisions, the removed subtrees of a big tree):
its first rows, and the rest sent only when asked for (5 800 decisions of an 11 601-node tree
were 2.1 MB over the websocket on every run of the Pruning page, issue 26)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.state import report_mode
from ui.state.state import t

#: rows shown before the switch asks for the rest
FIRST_ROWS = 200


def long_table(df: pd.DataFrame, key: str, **kwargs) -> None:
    """``df`` as a dataframe keyed ``key``: whole up to :data:`FIRST_ROWS` rows (and in report
    mode), else its first rows with a switch that shows them all."""
    if len(df) <= FIRST_ROWS or report_mode.active():
        st.dataframe(df, key=key, **kwargs)
        return
    everything = st.toggle(t("table.all", n=f"{len(df):,}"), key=f"{key}_all")
    st.dataframe(df if everything else df.head(FIRST_ROWS), key=key, **kwargs)
    if not everything:
        st.caption(t("table.first", shown=FIRST_ROWS, n=f"{len(df):,}"))
