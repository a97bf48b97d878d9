"""The Growth page's session state: the step slider's value (kept in range for the model), the
play switch, the training arrays the captions score on, and the jump to the split explorer."""

from __future__ import annotations

import streamlit as st

from ui.services import growth as G
from ui.services.forcing import training_arrays
from ui.state.jobs import stoppable
from ui.state.state import current_data

STEP_KEY = "growth_step"
PLAY_KEY = "growth_playing"
#: set when Play is pressed, cleared once a step has been drawn: the runs between (the click's,
#: interrupted by its full rerun, and that rerun) show the step Play started at instead of
#: advancing twice before any picture (Play skipped step 1, issue 27)
HOLD_KEY = "_growth_hold"
#: how long a step stays on screen while playing, from when the browser has drawn it
PLAY_STEP_MS = 1000


def model_for_steps(res):
    """The result whose estimator holds a growth history: the current one, else (forced splits
    edited it) the trained one; with whether it is the current one."""
    from ui.state.model import base_result

    if G.has_history(res.estimator):
        return res, True
    base = base_result()
    if base is not None and G.has_history(base.estimator):
        return base, False
    return None, False


def prepare_step(res, total: int) -> None:
    """Before the slider: a new model starts at its last step (the fitted tree), except the
    session's first, which keeps the step a shared link names (URL key ``growth_step``; -1 is
    the last step); the value stays within 0..total."""
    seen = st.session_state.get("_growth_model")
    if seen != res.key:
        st.session_state["_growth_model"] = res.key
        st.session_state[PLAY_KEY] = False
        if seen is not None or int(st.session_state.get(STEP_KEY, -1)) < 0:
            st.session_state[STEP_KEY] = total
    value = int(st.session_state.get(STEP_KEY, total))
    st.session_state[STEP_KEY] = total if value < 0 else max(0, min(value, total))


def step(est, k: int):
    """The tree after step ``k`` (``G.step``); a replay superseded by the next step or page ends
    at dtcore's next stop point (``stoppable``: no place in the queue, the play moves on a second
    after each step is drawn)."""
    with stoppable():
        return G.step(est, k)


def playing() -> bool:
    return bool(st.session_state.get(PLAY_KEY))


def advance(total: int) -> None:
    """One step further on the clock's run (no ``dot`` on the server: the browser lays the
    picture out and cannot report it drawn); the end stops the play (a full rerun drops the
    clock). Not before the step Play started at has been drawn (``HOLD_KEY``)."""
    if st.session_state.get(HOLD_KEY):
        return
    k = int(st.session_state.get(STEP_KEY, 0))
    if k >= total:
        st.session_state[PLAY_KEY] = False
        st.rerun()
    st.session_state[STEP_KEY] = k + 1


def step_drawn(shown, total: int) -> None:
    """The page drew step ``shown`` ``PLAY_STEP_MS`` ago (the picture's frame says so): while
    playing, on to the next step; the end stops the play. A report of a step the slider has
    left (the user moved it, a newer run drew another) is ignored: that step reports itself."""
    if not playing() or shown is None:
        return
    k = int(st.session_state.get(STEP_KEY, 0))
    if int(shown) != k:
        return
    if k >= total:
        st.session_state[PLAY_KEY] = False
    else:
        st.session_state[STEP_KEY] = k + 1


def toggle_play(total: int) -> None:
    """Play from the start when at the end; pause when playing, on the step last drawn (a click
    that crossed a timed run can carry the slider's previous value)."""
    now = not playing()
    if now and int(st.session_state.get(STEP_KEY, 0)) >= total:
        st.session_state[STEP_KEY] = 0
    elif not now and "_growth_drawn" in st.session_state:
        st.session_state[STEP_KEY] = st.session_state["_growth_drawn"]
    st.session_state[PLAY_KEY] = now
    st.session_state[HOLD_KEY] = now


def drawn(k: int) -> None:
    """Remember the step this run drew (see :func:`toggle_play`); playing may go on from it."""
    st.session_state["_growth_drawn"] = int(k)
    st.session_state.pop(HOLD_KEY, None)


def arrays(res):
    """Encoded training arrays of ``res`` (cached per model)."""
    cached = st.session_state.get("_growth_arrays")
    if cached is None or cached[0] != res.key:
        cached = st.session_state["_growth_arrays"] = (res.key, training_arrays(res, current_data().df))
    return cached[1]


def open_in_explorer(node: int) -> None:
    """Select ``node`` (an id of the fitted tree) for the Splits page and go there."""
    st.session_state["node"] = int(node)
    st.session_state[PLAY_KEY] = False
    st.switch_page("pages/splits.py")
