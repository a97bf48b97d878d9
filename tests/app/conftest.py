"""The in-process page tests see a section's exception: its error boundary re-raises here
(``ui/state/boundary.py``), so ``assert not at.exception`` still fails on a broken section, and
the exception keeps its message (the app's config redacts it for users)."""

from __future__ import annotations

import pytest
import streamlit as st

from ui.state.boundary import RAISE_ENV


@pytest.fixture(autouse=True)
def _sections_raise(monkeypatch):
    monkeypatch.setenv(RAISE_ENV, "raise")
    st.set_option("client.showErrorDetails", "full")
