"""The Train page's tree section for big trees (more than ``focus.SELECTOR_LIMIT`` nodes): the
overview map, search in place of node selectors, and the focused view in the pan/zoom frame.

State: the URL-bound ``node`` is the focused (and selected) node; ``focus_levels`` the depth
window; ``focus_opened`` the summary boxes clicked open (cleared when the focus moves).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ui.figures.overview import overview_svg
from ui.services import find
from ui.services.loading import raw_rows
from ui.state import model, report_mode, state, url
from ui.state.state import t
from ui.views import focus
from ui.views import tree as treeview
from ui.views.picture_scale import TextBounds
from ui.views.text import md_escape

from .tree_frame import picture_frame, tree_frame

WINDOWS = (1, 2, 3, 4, 5, 6)
#: the overview map's height: low enough that the focused view starts above the fold of a
#: 1000 px high window (issue 27)
OVERVIEW_HEIGHT = 260
#: the overview opens fitted to the column's width (its labels are small on purpose), at most that tall
OVERVIEW_BOUNDS = TextBounds(low=1.0, high=40.0, max_height=OVERVIEW_HEIGHT)
SHOW = ("focus", "whole")


def on_fold_pick() -> None:
    """The fold selector's pick: fold exactly that subtree, or unfold it when it was folded (the
    folded set, ``collapse``, is what the URL carries); the selector then shows no pick again."""
    node = st.session_state.get("fold_pick")
    st.session_state["fold_pick"] = None
    if node is None:
        return
    folded = list(st.session_state.get("collapse") or [])
    folded = [n for n in folded if n != node] if node in folded else sorted([*folded, int(node)])
    st.session_state["collapse"] = folded
    url.mark_chosen("collapse")


def focus_on(node: int | None) -> None:
    """Move the focus (and selection) to ``node``; boxes opened under the old focus close."""
    if node is not None:
        st.session_state["node"] = int(node)
        st.session_state["focus_opened"] = []
        st.session_state["focus_show"] = "focus"  # from the whole tree too: show the focused view


def overview_key(node: int) -> str:
    """The overview frame's key: one per focused node (a new picture opens as it should)."""
    return f"tree_overview_{int(node)}"


def on_overview_event(value) -> None:
    """A click on a sector (or a box of the path above them) of the overview map focuses it."""
    click = focus.frame_click(value)
    if click is not None and click[0] == "node":
        focus_on(click[1])


def _hit_picked() -> None:
    focus_on(st.session_state.get("find_hit"))


def on_frame_event(value) -> None:
    """A click in the pan/zoom frame: a node or breadcrumb focuses it, a summary box opens."""
    click = focus.frame_click(value)
    if click is None:
        return
    kind, node = click
    if kind == "more":
        opened = st.session_state.setdefault("focus_opened", [])
        if node not in opened:
            opened.append(node)
    elif kind in ("node", "crumb"):
        focus_on(node)


def on_small_frame_event(value) -> None:
    """A click in a whole-tree picture drawn in the frame: a node is selected, a summary box
    below a folded node unfolds it."""
    click = focus.frame_click(value)
    if click is None:
        return
    kind, node = click
    if kind == "node":
        st.session_state["node"] = node
    elif kind == "more":
        st.session_state["collapse"] = [i for i in st.session_state.get("collapse", []) if i != node]


def draw_tree(
    dot: str,
    tree,
    depth: int | None,
    key: str = "small_frame",
    on_event=None,
    server: bool = False,
    focus_on: Sequence[int] = (),
) -> None:
    """A picture of levels up to ``depth`` (the Train page's; the Pruning page's before and
    after, with their own ``key`` and no click action): in the browser within the node budget,
    drawn by the server in the pan/zoom frame above it, refused past the server's limit
    (``ui.views.focus.whole_tree_mode``). ``server``: by the server within the budget too (the
    node charts: one deterministic SVG by the server's Graphviz, zoomable in the frame).
    ``focus_on``: nodes the picture opens on (the selected node), with the root where there is room."""
    mode = focus.whole_tree_mode(tree, depth)
    handler = on_small_frame_event if on_event is None else on_event
    if mode == "browser" and not server:
        # laid out by the server's ``dot`` too (cached by the DOT, sent once per session): the
        # page's own Graphviz (st.graphviz_chart) cost every cold visit 0.75 MB of script and a
        # WebAssembly layout per rerun (issue 26); fitted to the column, readable, scrolling
        # beyond (issue 27), without the frame's wheel zoom
        tree_frame(dot, key=key, on_event=handler, fixed=True, focus=focus_on)
    elif mode in ("browser", "server"):
        st.caption(t("nav.server", nodes=focus.shown_nodes(tree, depth)))
        tree_frame(dot, key=key, on_event=handler, focus=focus_on)
    else:
        st.warning(t("nav.refuse", nodes=tree.node_count, limit=focus.SERVER_NODE_LIMIT))


def splits_tree(res, node: int, forced, on_event, hint: str = "") -> None:
    """The Splits page's clickable tree. A big tree: the focused view of ``node`` as Train &
    tree draws it (:func:`focused_dot`: the same picture, so the page already holds it and
    going there sends no picture again; issue 26). A small one: the tree to the automatic
    depth from the root, the path to the selected node unfolded and highlighted; summary boxes
    open on click."""
    est = res.estimator
    tree = est.tree_
    if focus.is_big(tree):
        dot = focused_dot(res, node, forced)
    else:
        auto = treeview.auto_depth(tree)
        levels = tree.get_depth() if auto is None else auto
        w = focus.window(tree, 0, levels, selected=node, opened=st.session_state.get("split_opened", []))
        dot = focus.focus_dot(est, w, selected=node, forced=forced, lang=state.lang())
    # the big tree's focused view starts at the node; the whole one opens with the node in view
    shown = () if focus.is_big(tree) else (node,)
    tree_frame(dot, key="split_frame", on_event=on_event, height=460, hint=hint, focus=shown)


def opened_boxes(res) -> list[int]:
    """The summary boxes clicked open in the focused view (``focus_opened``), emptied when the
    tree is another (boxes opened in another tree mean nothing here)."""
    sig = (res.key, repr(model.forced_ops()))
    if st.session_state.get("_focus_tree") != sig:
        st.session_state["_focus_tree"] = sig
        st.session_state["focus_opened"] = []
    return st.session_state.setdefault("focus_opened", [])


def focused_dot(res, node: int, forced, levels: int | None = None, rankdir: str | None = None) -> str:
    """The focused view of ``node``: ``levels`` below it (the window's selector, else its
    default), the boxes clicked open, the chosen layout (``rankdir``, else the URL's). The one
    home of that picture: Train & tree and the Splits page draw the same DOT of a big tree."""
    if levels is None:
        levels = st.session_state.get("focus_levels", focus.DEFAULT_WINDOW)
    if rankdir is None:
        layout = st.session_state.get("layout", "auto")
        rankdir = None if layout == "auto" else layout
    est = res.estimator
    w = focus.window(est.tree_, node, levels, selected=node, opened=opened_boxes(res))
    return focus.focus_dot(est, w, selected=node, forced=forced, rankdir=rankdir, lang=state.lang())


def validation_errors(res):
    """Per-node validation error of the current model (cached per model), or None."""
    sig = (res.key, repr(model.forced_ops()))
    cached = st.session_state.get("_valid_errors")
    if cached is None or cached[0] != sig:
        df = state.current_data().df
        rows = res.rows.get("valid")
        errors = None
        if rows is not None and rows.size:
            X = raw_rows(df, res.features)[rows]
            y = df[res.target].to_numpy(dtype=object)[rows]
            errors = find.validation_error(res.estimator, X, y)
        cached = st.session_state["_valid_errors"] = (sig, errors)
    return cached[1]


def find_panel(res) -> None:
    """The search row: what to look for, its parameter, and the hits (each focuses the view)."""
    est = res.estimator
    tree, schema = est.tree_, est.schema_
    queries = [q for q in find.QUERIES if q != ("value" if schema.classes is not None else "class")]
    c1, c2, c3 = st.columns([2, 2, 3], vertical_alignment="bottom")
    query = c1.selectbox(
        t("nav.find"),
        queries,
        key="find_query",
        format_func=state.fixed_labels(queries, lambda q: t("nav.query." + q), key="find_query"),
    )
    hits: list[int] = []
    if query == "feature":
        names = list(range(len(schema.features)))
        j = c2.selectbox(
            t("nav.feature"),
            names,
            key="find_feature",
            format_func=state.fixed_labels(names, lambda i: schema.features[i].name, key="find_feature"),
        )
        hits = find.by_feature(tree, j)
    elif query == "class":
        ks = list(range(len(schema.classes)))
        k = c2.selectbox(
            t("nav.class"),
            ks,
            key="find_class",
            format_func=state.fixed_labels(ks, lambda i: str(schema.classes[i]), key="find_class"),
        )
        hits = find.by_class(tree, k)
    elif query == "value":
        lo, hi = float(tree.value[:, 0].min()), float(tree.value[:, 0].max())
        if hi <= lo:
            hi = lo + 1.0
        rng = c2.slider(t("nav.range"), lo, hi, (lo, hi), key="find_range")
        hits = find.by_value(tree, rng[0], rng[1])
    elif query == "valid_error":
        errors = validation_errors(res)
        if errors is None:
            c2.caption(t("nav.no_valid"))
        else:
            hits = find.largest_error(tree, errors)
    else:
        hits = {"fewest": find.fewest_samples, "purest": find.purest, "least_pure": find.least_pure}[query](
            tree
        )
    if st.session_state.get("find_hit") not in hits:
        st.session_state["find_hit"] = None
    c3.selectbox(
        t("nav.results", count=len(hits)),
        hits,
        index=None,
        key="find_hit",
        placeholder=t("nav.pick"),
        on_change=_hit_picked,
        format_func=state.fixed_labels(
            hits,
            lambda i: t(
                "nav.hit",
                node=i,
                text=treeview.node_short_label(est, i),
                samples=f"{tree.weighted_n[i]:.4g}",
            ),
            key="find_hit",
        ),
    )


def overview_panel(res, node: int) -> None:
    """The overview map (``ui.figures.overview.overview_svg``) in a tree frame, fitted to the
    column's width: a click on a sector focuses its node."""
    texts = {"samples": t("dot.samples"), "mean": t("nav.mean")}
    with st.expander(t("nav.overview"), expanded=True):
        st.caption(t("nav.overview_help"))
        picture_frame(
            overview_svg(res.estimator, selected=node, texts=texts),
            key=overview_key(node),
            on_event=on_overview_event,
            bounds=OVERVIEW_BOUNDS,
            fixed=True,
        )


def big_tree_section(res) -> str:
    """The tree section of a big tree; returns the DOT drawn."""
    est = res.estimator
    tree = est.tree_
    url.default("node")
    if st.session_state.get("node") is None or not 0 <= int(st.session_state["node"]) < tree.node_count:
        st.session_state["node"] = 0
    opened_boxes(res)  # emptied first when the tree is another
    node = int(st.session_state["node"])
    st.caption(t("nav.big", nodes=tree.node_count))
    if not report_mode.active():
        find_panel(res)
    overview_panel(res, node)
    report = report_mode.active()
    # the buttons' columns fit their labels ("Back to the root" was cut to "Back to th…")
    c1, c2, c3, c4, c5 = (
        st.columns([2, 2, 1.6, 1.4, 1.6], vertical_alignment="bottom") if not report else [st] * 5
    )
    show = report_mode.control(
        c1.segmented_control,
        t("nav.show"),
        SHOW,
        default="focus",
        key="focus_show",
        fallback="focus",
        format_func=state.fixed_labels(SHOW, lambda v: t("nav.show." + v), key="focus_show"),
    )
    st.session_state.setdefault("focus_levels", focus.DEFAULT_WINDOW)
    # kept on other pages (``url.KEEP``): the Splits page draws the same focused view
    levels = report_mode.control(c2.selectbox, t("nav.window"), WINDOWS, key="focus_levels", **url.KEEP)
    layouts = ("auto", "TB", "LR")
    url.keep_valid("layout", layouts, "auto")
    layout = report_mode.control(
        c3.selectbox,
        t("tree.layout"),
        layouts,
        key="layout",
        format_func=state.fixed_labels(layouts, lambda v: t("tree.layout." + v), key="layout"),
        **url.KEEP,
    )
    if not report:
        parent = int(tree.parent[node])
        c4.button(t("nav.up"), on_click=focus_on, args=(parent,), disabled=parent < 0, width="stretch")
        c5.button(t("nav.root"), on_click=focus_on, args=(0,), disabled=node == 0, width="stretch")
    rankdir = None if layout == "auto" else layout
    forced = model.forced_nodes()
    if show == "whole":
        mode = focus.whole_tree_mode(tree)
        if mode == "refuse":
            st.warning(t("nav.refuse", nodes=tree.node_count, limit=focus.SERVER_NODE_LIMIT))
            return ""
        dot = treeview.tree_dot(
            est, None, (), node, rankdir or treeview.auto_rankdir(tree, None), state.lang(), forced=forced
        )
        st.caption(t("nav.server", nodes=tree.node_count))
        tree_frame(dot, key="whole_frame", on_event=on_frame_event)
        return dot
    dot = focused_dot(res, node, forced, levels=levels, rankdir=rankdir)
    path = treeview.node_path(est, node)
    st.markdown(
        f"**{t('nav.focus', node=node)}:** "
        + (" → ".join(md_escape(p) for p in path) if path else t("tree.root"))
    )
    tree_frame(dot, key="focus_frame", on_event=on_frame_event)
    return dot
