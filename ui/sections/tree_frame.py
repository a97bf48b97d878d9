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

import functools
import hashlib
import shutil
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import streamlit as st

import dtcore
from dtcore import export
from dtcore.export.html import ASSETS, asset_text
from ui.state.state import t
from ui.views.focus import BROWSER_NODE_BUDGET
from ui.views.picture_scale import FITTED, TextBounds
from ui.views.text import md_escape

HTML = (
    '<div class="dt-frame"><div class="dt-hint"></div><button class="dt-fit" type="button">fit</button>'
    '<div class="dt-stage"></div></div>'
)
HEIGHT = 560

#: the app's components, as a component package names them ("dtcore.<name>"): their scripts are
#: files of dtcore/export/assets that the server serves (``_serve_assets``), so the page fetches
#: frame.js once over HTTP instead of receiving its 17 KB in every frame message whose data
#: changed (three per language switch back on a big tree's Train page: 51 KB; issue 26). Their
#: style stays inline (1 KB): with the stylesheet served too, one run in five under load opened a
#: fixed-scale textbook tree a few pixels too wide (test_readable_trees), most likely the script
#: measuring the frame before the served style applied; with it inline, 0 failures in 6 loops.
PACKAGE = "dtcore"
FRAME_NAME, FIT_NAME = f"{PACKAGE}.dt_tree_frame", f"{PACKAGE}.dt_tree_fit"


def _serve_assets() -> None:
    """Declare dtcore/export/assets the asset directory of both components on the component
    registry in use (the server's; AppTest makes one per test), as the ``[tool.streamlit.component]``
    table of an installed component package would. Streamlit's registry API (1.67, pinned in
    requirements.txt); at once when declared already."""
    from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager
    from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest

    registry = get_bidi_component_manager()
    if registry.get_component_asset_root(FRAME_NAME) is not None:
        return
    manifest = ComponentManifest(
        name=PACKAGE,
        version=dtcore.__version__,
        components=[
            ComponentConfig(name=n.split(".", 1)[1], asset_dir=ASSETS.name) for n in (FRAME_NAME, FIT_NAME)
        ],
    )
    registry.register_from_manifest(manifest, ASSETS.parent)


class Components(NamedTuple):
    frame: Callable[..., Any]
    fit: Callable[..., Any]


@functools.cache
def _components() -> Components:
    """The components' mount commands, made at the first mount (in a script run, where the
    registry that resolves their file names is the server's)."""
    _serve_assets()
    return Components(
        frame=st.components.v2.component(FRAME_NAME, html=HTML, css=asset_text("frame.css"), js="frame.js"),
        #: fits the browser-drawn picture (``st.graphviz_chart``) in the same keyed container
        fit=st.components.v2.component(FIT_NAME, html="<span></span>", js="fit.js"),
    )


def _mount(component: str, **kwargs: Any) -> None:
    """Mount ``component`` ("frame" or "fit"); a new registry (AppTest's next test) learns
    the files first."""
    _serve_assets()
    getattr(_components(), component)(**kwargs)


def server_draws() -> bool:
    """Whether this server has Graphviz's ``dot`` (``tree_frame`` shows its SVG); else the
    browser lays small pictures out (``fitted_chart``)."""
    return shutil.which("dot") is not None


def fitted_chart(dot: str, key: str, bounds: TextBounds = FITTED) -> None:
    """``st.graphviz_chart`` of ``dot`` (the browser lays it out) opened fitted to the column's
    width with its node text within ``bounds`` (``ui.views.picture_scale``); past them it keeps
    the bound and scrolls inside its box."""
    with st.container(key=f"dtfit_{key}"):
        st.graphviz_chart(dot, width="content")
        _mount("fit", key=f"dtfitjs_{key}", data=bounds.as_data())


#: session state: digests of the SVGs this session's page holds (oldest first, at most
#: :data:`HELD_PICTURES`); the frame's script keeps as many in the page (``frame.js``)
SENT_KEY = "_tree_frame_sent"
HELD_PICTURES = 24


@st.cache_data(max_entries=16, show_spinner=False)  # a 2 000-node picture is ~5 MB
def svg_of(dot: str) -> str:
    """The SVG of a DOT picture through ``dot -Tsvg`` (cached by the DOT text)."""
    return export.render(dot, "svg").decode("utf-8")


@st.cache_data(max_entries=64, show_spinner=False)
def svg_digest(svg: str) -> str:
    """The picture's name in the page's cache: the SVG's SHA-256, shortened."""
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()[:32]


def picture_payload(svg: str) -> dict[str, str | None]:
    """What the frame is sent for ``svg``: its digest, and the SVG itself unless this session's page
    holds it already. A rerun that shows the same picture (a page switch and back,
    a language switch back, a click elsewhere) then costs a few bytes instead of the picture,
    and the page draws it from its own cache without parsing it again (issue 26). Nothing is
    recorded here: :func:`picture_sent` does, once the element has left (a rerun can stop the
    script inside the call that sends it, before the message is queued)."""
    digest = svg_digest(svg)
    held = digest in st.session_state.get(SENT_KEY, ())
    return {"digest": digest, "svg": None if held else svg}


def picture_sent(digest: str) -> None:
    """Record that the page now holds ``digest`` (the most recently shown last, as many as the
    page keeps)."""
    sent: list[str] = st.session_state.setdefault(SENT_KEY, [])
    if digest in sent:
        sent.remove(digest)
    sent.append(digest)
    del sent[:-HELD_PICTURES]


def forget_picture(digest: object) -> None:
    """The page reports a picture it was told it holds but does not (its cache was emptied, a
    reload kept the session): the next run sends it whole."""
    sent = st.session_state.get(SENT_KEY) or []
    if digest in sent:
        sent.remove(digest)


def tree_frame(dot: str, *, key: str, bounds: TextBounds = FITTED, **options: Any) -> None:
    """Draw ``dot`` in the frame: laid out by the server's ``dot`` and shown by
    :func:`picture_frame` (``options``: its settings); without ``dot`` on the server, a small
    picture is laid out by the browser instead (``fitted_chart``)."""

    try:
        if not server_draws():  # not a picture cached before ``dot`` went: the page plays by that
            export.render("", "svg")  # raises GraphvizMissing with its message
        svg = svg_of(dot)
    except export.GraphvizMissing as exc:
        # no ``dot`` on this server: the browser draws the picture if it is small enough
        if dot.count('id="dtnode') + dot.count('id="dtmore') <= BROWSER_NODE_BUDGET:
            fitted_chart(dot, key, bounds)
        else:
            st.warning(t("download.no_graphviz", message=md_escape(str(exc))))
        return
    picture_frame(svg, key=key, bounds=bounds, **options)


def picture_frame(
    svg: str,
    *,
    key: str,
    on_event=None,
    height: int = HEIGHT,
    hint: str = "",
    bounds: TextBounds = FITTED,
    fixed: bool = False,
    basis: tuple[float, float] | None = None,
    same_height: bool = False,
    step: int | None = None,
    advance_ms: int | None = None,
    on_drawn=None,
    focus: Sequence[int] = (),
) -> None:
    """Show ``svg`` (a Graphviz picture, or another the app draws with the same node ids: the
    overview map) in the frame, sent once per session, then by its digest. ``on_event(value)``
    runs (as a callback) on a click (None: a click does nothing, the picture only scrolls and
    drags). ``hint``: a line of text in the frame's top left corner (set as text, never as markup). The picture
    opens fitted to the frame's width with its node text within ``bounds``, the frame as tall
    as the picture up to ``bounds.max_height`` (``height`` when no dot is drawn); ``basis``: the
    size in SVG units to fit instead of the picture's own (several frames at one scale), and
    ``same_height``: the frame as tall as that basis, not as its own picture (side by side).
    ``fixed``: the picture keeps that scale and scrolls and drags inside the frame (no wheel
    zoom, no "fit"); else pan/zoom. ``step``: the number of a picture in a sequence (Growth's
    steps), set on the frame as ``data-step`` once this picture is in place; with ``advance_ms``
    the page reports it back that long after (``on_drawn(step)`` runs as a callback), so a
    player moves on when the browser has drawn the step, not on a clock of its own. ``focus``:
    nodes the picture opens on, whole, with the root where there is room (a what-if's leaves)."""

    def changed():
        value = st.session_state.get(key)
        clicked = (
            value.get("clicked")
            if value is not None and hasattr(value, "get")
            else getattr(value, "clicked", None)
        )
        if on_event is not None:
            on_event(clicked)

    def missing() -> None:
        value = st.session_state.get(key)
        digest = (
            value.get("missing")
            if value is not None and hasattr(value, "get")
            else getattr(value, "missing", None)
        )
        forget_picture(digest)

    def drawn() -> None:
        value = st.session_state.get(key)
        shown = (
            value.get("drawn")
            if value is not None and hasattr(value, "get")
            else getattr(value, "drawn", None)
        )
        if on_drawn is not None:
            on_drawn(shown)

    payload = picture_payload(svg)
    _mount(
        "frame",
        key=key,
        data={
            **payload,
            "fit": t("nav.fit"),
            "height": int(height),
            "hint": hint,
            "bounds": bounds.as_data(),
            "fixed": bool(fixed),
            "basis": None if basis is None else [round(float(v), 3) for v in basis],
            "same_height": bool(same_height),
            "step": None if step is None else int(step),
            "advance_ms": None if advance_ms is None else int(advance_ms),
            "focus": [int(n) for n in focus],
        },
        on_clicked_change=changed,
        on_missing_change=missing,
        on_drawn_change=drawn,
    )
    picture_sent(svg_digest(svg))  # only now: the element is queued for the page
