"""The Splits page's session state: its cached explainer data, the clicked node and candidate,
and which feature and candidate its selectors show."""

from __future__ import annotations

import streamlit as st

from dtcore import explain
from dtcore.export.node_charts import node_charts
from ui.services.forcing import training_arrays
from ui.state.model import forced_ops
from ui.state.state import current_data, t
from ui.state.url import FEATURE_KEY, default
from ui.views.focus import frame_click
from ui.views.splits import tie_note

#: Above this many training rows the tree's caption does not score the root's tests again for
#: a tie (the Splits page still says it): the caption must not slow a big model's page.
TIE_NOTE_ROWS = 20_000


def arrays_for(base):
    """Encoded training arrays of the trained model (cached per model)."""
    cached = st.session_state.get("_split_arrays")
    if cached is None or cached[0] != base.key:
        cached = st.session_state["_split_arrays"] = (base.key, training_arrays(base, current_data().df))
    return cached[1]


def tree_charts(res):
    """The node charts of the current tree from its training rows (cached per tree)."""
    sig = (res.key, repr(forced_ops()))
    cached = st.session_state.get("_tree_charts")
    if cached is None or cached[0] != sig:
        X, y = arrays_for(res)
        cached = st.session_state["_tree_charts"] = (sig, node_charts(res.estimator, X, y))
    return cached[1]


def report_for(res, X, y, node):
    """(explainer data, split report) at ``node`` of the current tree (cached per tree and node)."""
    sig = (res.key, repr(forced_ops()), node)
    cached = st.session_state.get("_split_report")
    if cached is None or cached[0] != sig:
        nd = explain.explainer_data(res.estimator, X, y, None, node)
        cached = st.session_state["_split_report"] = (sig, nd, explain.report_for(nd))
    return cached[1], cached[2]


def root_tie_note(res) -> str | None:
    """The tree's caption when the root's test tied with another ("色泽 and 脐部 tie at
    information gain 0.2755; the first column wins (色泽)."), else None; the Splits page's
    cached report of the root, so the Splits page opens on it for free."""
    if res.rows["train"].size > TIE_NOTE_ROWS or res.estimator.tree_.node_count < 2:
        return None
    if getattr(res.estimator, "origin_", None) is not None:  # imported: another library broke its ties
        return None
    X, y = arrays_for(res)
    _, rep = report_for(res, X, y, 0)
    return tie_note(rep, t)


def forget_report() -> None:
    """After the tree changed (a forced split made or undone)."""
    st.session_state.pop("_split_report", None)


def _picked(key):
    """customdata of the first clicked point of a chart, or None."""
    ev = st.session_state.get(key)
    pts = (
        (ev or {}).get("selection", {}).get("points", [])
        if isinstance(ev, dict)
        else (getattr(getattr(ev, "selection", None), "points", []) if ev is not None else [])
    )
    if not pts:
        return None
    cd = pts[0].get("customdata")
    if isinstance(cd, (list, tuple)):
        cd = cd[0] if cd else None
    return None if cd is None else int(cd)


def on_tree_click():
    node = _picked("split_tree_chart")
    if node is not None:
        st.session_state["split_node"] = st.session_state["node"] = st.session_state["_split_node_seen"] = (
            node
        )


def on_frame_click(value, big: bool = False) -> None:
    """A click in the clickable tree (``ui.sections.tree_frame``): a node (or a breadcrumb above
    a big tree's focused view) is selected, a summary box opens. A big tree's picture is the
    focused view Train & tree draws (``navigation.focused_dot``): its boxes are that view's
    (``focus_opened``), closed again when the selection moves, as there (``big``)."""
    click = frame_click(value)
    if click is None:
        return
    kind, node = click
    if kind in ("node", "crumb") and (kind == "node" or big):
        st.session_state["split_node"] = st.session_state["node"] = st.session_state["_split_node_seen"] = (
            node
        )
        if big:
            st.session_state["focus_opened"] = []
    elif kind == "more":
        opened = st.session_state.setdefault("focus_opened" if big else "split_opened", [])
        if node not in opened:
            opened.append(node)


def on_curve_pick(value) -> None:
    """A click on the score curve (``ui.figures.split_curve``: ``"pick:K"``) previews candidate K."""
    click = frame_click(value)
    if click is not None and click[0] == "pick":
        st.session_state["split_candidate"] = click[1]


def on_curve_click(key):
    k = _picked(key)
    if k is not None:
        st.session_state["split_candidate"] = k


def node_in_view():
    """The node the selector is about to show: its own (just picked) value, unless the URL-bound
    ``node`` was changed elsewhere since (see :func:`prepare_node_widget`)."""
    node = st.session_state.get("node")
    if (
        st.session_state.get("_split_node_seen", -1) == node
        and st.session_state.get("split_node") is not None
    ):
        return st.session_state["split_node"]
    return node


def prepare_node_widget(nodes) -> None:
    """Before the node selector: the URL-bound ``node`` fits this tree, and the selector's own
    key (``split_node``) follows it when it changed elsewhere (one key cannot serve two
    differently labelled widgets, the Train page's and this one: Streamlit resets it), or when
    Streamlit dropped it (another page ran: without this a second visit showed the root and
    moved Train's focus there too)."""
    default("node")
    if st.session_state["node"] not in nodes:
        st.session_state["node"] = None
    if (
        st.session_state.get("_split_node_seen", -1) != st.session_state["node"]
        or "split_node" not in st.session_state
    ):
        st.session_state["split_node"] = st.session_state["node"]


def node_chosen(node) -> None:
    """After the node selector: its value is the URL-bound node."""
    st.session_state["node"] = st.session_state["_split_node_seen"] = node


def prepare_feature_widget(rep, node, names, index, order) -> None:
    """The charted feature (by name, URL-bound): another node or algorithm starts at the
    algorithm's choice, except on a session's first view, which keeps the feature a shared link
    names."""
    key = FEATURE_KEY
    ctx = (node, rep.algorithm)
    seen = st.session_state.get("_split_feature_ctx")
    keep = seen is None and st.session_state.get(key) in index  # first view: the URL's feature
    if (seen != ctx and not keep) or st.session_state.get(key) not in index:
        st.session_state[key] = names[order.index(rep.chosen)] if rep.chosen is not None else names[0]
    st.session_state["_split_feature_ctx"] = ctx


def previewed_candidate(rep, j) -> int | None:
    """The candidate the selector below the chart previews (clicked on the chart or picked
    there), for the chart to ring; None before the selector has a value for this node and feature."""
    if st.session_state.get("_split_candidate_ctx") != (rep.node, j, repr(forced_ops())):
        return None
    k = st.session_state.get("split_candidate")
    return int(k) if k is not None else None


def prepare_candidate_widget(rep, j, rec, order, n_candidates) -> list:
    """The candidate selector starts at the best candidate of a new node/feature/tree and keeps a
    clicked one listed; returns the options (``order`` plus the clicked one when missing)."""
    ctx = (rep.node, j, repr(forced_ops()))
    if st.session_state.get("_split_candidate_ctx") != ctx:
        st.session_state["_split_candidate_ctx"] = ctx
        st.session_state["split_candidate"] = rec.best if rec.best is not None else order[0]
    cur = st.session_state.get("split_candidate")
    if cur is not None and cur not in order and 0 <= cur < n_candidates:
        order.append(int(cur))
    if cur not in order:
        st.session_state["split_candidate"] = order[0]
    return order
