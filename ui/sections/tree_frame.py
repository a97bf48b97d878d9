"""The pan/zoom/click frame: a Streamlit component (``st.components.v2``) showing an SVG that
the real Graphviz ``dot`` drew on the server (cached per picture, so per model and view), in a
fixed-height frame with wheel zoom, drag pan and a "fit" button. A click on a node, breadcrumb
or summary box comes back to Python as ``"node:N"``, ``"crumb:N"`` or ``"more:N"``.

The frame's own script and style live in ``dtcore/export/assets/`` (hand-written, no library, no
network; the standalone HTML page reads them there too); the SVG is parsed as XML and only the elements and attributes Graphviz draws with are
kept (an allow-list) before it is shown, and its text is user text escaped by
``dtcore.export.labels`` on its way into the DOT.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dtcore import export
from ui.state.state import t
from ui.views.focus import BROWSER_NODE_BUDGET
from ui.views.text import md_escape

ASSETS = Path(export.__file__).with_name("assets")
HTML = (
    '<div class="dt-frame"><div class="dt-hint"></div><button class="dt-fit" type="button">fit</button>'
    '<div class="dt-stage"></div></div>'
)
HEIGHT = 560

_FRAME = st.components.v2.component(
    "dt_tree_frame",
    html=HTML,
    css=(ASSETS / "frame.css").read_text(encoding="utf-8"),
    js=(ASSETS / "frame.js").read_text(encoding="utf-8"),
)


@st.cache_data(max_entries=16, show_spinner=False)  # a 2 000-node picture is ~5 MB
def svg_of(dot: str) -> str:
    """The SVG of a DOT picture through ``dot -Tsvg`` (cached by the DOT text)."""
    return export.render(dot, "svg").decode("utf-8")


def tree_frame(
    dot: str, *, key: str, on_event, height: int = HEIGHT, hint: str = "", scale: float | None = None
) -> None:
    """Draw ``dot`` in the frame; ``on_event(value)`` runs (as a callback) on a click. ``hint``:
    a line of text in the frame's top left corner (set as text, never as markup). ``scale``:
    pixels per SVG unit, fixed (the picture scrolls and drags inside the frame, no wheel zoom
    and no "fit"), so that pictures in several frames share one scale; None: fitted, pan/zoom."""

    def changed():
        value = st.session_state.get(key)
        clicked = (
            value.get("clicked")
            if value is not None and hasattr(value, "get")
            else getattr(value, "clicked", None)
        )
        on_event(clicked)

    try:
        svg = svg_of(dot)
    except export.GraphvizMissing as exc:
        # no ``dot`` on this server: the browser draws the picture if it is small enough
        if dot.count('id="dtnode') + dot.count('id="dtmore') <= BROWSER_NODE_BUDGET:
            st.graphviz_chart(dot, width="content")
        else:
            st.warning(t("download.no_graphviz", message=md_escape(str(exc))))
        return
    _FRAME(
        key=key,
        data={
            "svg": svg,
            "fit": t("nav.fit"),
            "height": int(height),
            "hint": hint,
            "scale": None if scale is None else round(float(scale), 6),
        },
        on_clicked_change=changed,
    )
