"""The Train page's what-if section and node data figure: the sample editor's widgets and state.

The sample is explained by the current model (``res.estimator``): editing it never retrains.
The editor's values live in ``st.session_state["_whatif_values"]``; filling in a data row replaces
them and starts a new generation of widget keys (``whatif_<gen>_<feature>``), so the widgets
take the new values as their defaults instead of fighting the Session State API.
"""

from __future__ import annotations

import streamlit as st

from dtcore import explain
from ui.figures.node_data import node_children_svg, node_feature_svg, points_thinned
from ui.figures.regression import MAX_POINTS
from ui.services.loading import raw_rows
from ui.state.state import current_data, fixed_labels, lang, t
from ui.views import focus
from ui.views import tree as treeview
from ui.views import whatif as views
from ui.views.text import md_escape, pre_html, table_html

from .splits import arrays_for
from .tree_frame import tree_frame

SPLITS = ("train", "valid", "test")
COLUMNS = 3  # editor inputs per row
#: the key of the path picture's pan/zoom frame
PATH_FRAME = "whatif_frame"
#: the node data section's expander (its state: open)
NODE_DATA_OPEN = "nodedata_open"
#: the value editor's expander (its state: open)
EDITOR_OPEN = "whatif_edit_open"
#: the editor opens by itself when it has at most this many inputs (a textbook tree's few)
EDITOR_OPEN_UP_TO = 6


def _fill(est, features, position) -> None:
    """Put data row ``position`` (of the DataFrame) into the editor."""
    raw = raw_rows(current_data().df.iloc[[position]], features)[0]  # that row only, not the frame
    st.session_state["_whatif_values"] = views.field_values(est, raw)
    st.session_state["_whatif_gen"] = st.session_state.get("_whatif_gen", 0) + 1


def _editor(est, res) -> list:
    """The row picker and, while its section is open, one input per feature the tree tests
    (the others keep the row's values: they cannot change the prediction); returns every
    feature's value."""
    fields = views.fields(est)
    sig = tuple(f.name for f in fields)
    names = [s for s in SPLITS if res.rows[s].size]
    if st.session_state.get("_whatif_sig") != sig or "_whatif_values" not in st.session_state:
        st.session_state["_whatif_sig"] = sig
        _fill(est, res.features, int(res.rows["train"][0]))
    a, b, c = st.columns([2, 1.5, 1.5], vertical_alignment="bottom")  # room for the button's label
    split = a.selectbox(
        t("whatif.split"),
        names,
        key="whatif_split",
        format_func=fixed_labels(names, lambda s: t("metrics." + s), key="whatif_split"),
    )
    rows = res.rows[split]
    if st.session_state.get("whatif_row", 0) > rows.size - 1:  # another split may be shorter
        st.session_state["whatif_row"] = int(rows.size) - 1
    pos = int(b.number_input(t("whatif.row"), 0, int(rows.size) - 1, step=1, key="whatif_row"))
    position = int(rows[min(pos, rows.size - 1)])
    c.button(t("whatif.fill"), key="whatif_fill", on_click=_fill, args=(est, res.features, position))
    df = current_data().df
    st.caption(
        t(
            "whatif.row_caption",
            index=md_escape(df.index[position]),
            target=md_escape(res.target),
            truth=md_escape(df[res.target].iloc[position]),
        )
    )
    values = list(st.session_state["_whatif_values"])
    used = set(est.tree_.feature[est.tree_.feature >= 0].tolist())  # others never change it
    shown = [f for f in fields if f.index in used]
    # drawn and sent only while open (closed at first when the tree tests many features):
    # twenty number inputs were a tenth of the browser's work each time Train & tree was
    # drawn on a 20-feature upload (issue 26); the values typed stay in ``_whatif_values``
    box = st.expander(
        t("whatif.edit", count=len(shown)),
        expanded=len(shown) <= EDITOR_OPEN_UP_TO,
        key=EDITOR_OPEN,
        on_change="rerun",
    )
    if box.open:
        with box:
            if len(shown) < len(fields):
                st.caption(t("whatif.unused", count=len(fields) - len(shown)))
            _inputs(shown, values)
        st.session_state["_whatif_values"] = values
    return values


def _inputs(shown, values: list) -> None:
    """One input per feature in ``shown``, three to a row; ``values`` takes what they hold."""
    gen = st.session_state.get("_whatif_gen", 0)
    missing = t("whatif.missing")
    cells = st.columns(COLUMNS)
    for k, f in enumerate(shown):
        key = f"whatif_{gen}_{f.index}"
        v = values[f.index]
        with cells[k % COLUMNS]:
            if f.categorical:
                opts = [None, *f.categories]
                values[f.index] = st.selectbox(
                    md_escape(f.name),
                    opts,
                    index=opts.index(v) if v in opts else 0,
                    key=key,
                    format_func=fixed_labels(opts, lambda o: missing if o is None else str(o), key=key),
                )
            else:
                values[f.index] = st.number_input(
                    md_escape(f.name), value=v, key=key, format="%g", placeholder=missing
                )


def whatif_section(res) -> None:
    """Ask the current tree about a sample: editor, prediction, path, mixing, counterfactuals,
    then the node data figure (while its section is open)."""
    est = res.estimator
    st.subheader(t("whatif.title"))
    st.caption(t("whatif.intro"))
    left, right = st.columns([3, 2], gap="large")
    with left:
        values = _editor(est, res)
        words = {k: t(f"whatif.word.{k}") for k in ("missing", "or", "any", "known")}
        ex = views.explain(est, values, words)
        st.markdown(f"**{t('whatif.counterfactuals')}**")
        if ex.counterfactuals:
            st.markdown(table_html(views.counterfactual_table(ex, t)), unsafe_allow_html=True)
            st.caption(t("whatif.counterfactuals_caption"))
        else:
            st.caption(t("whatif.no_path_features"))
    with right:
        st.metric(t("whatif.prediction"), md_escape(ex.prediction))  # the value is Markdown
        probs = views.probabilities_table(ex, t)
        if probs is not None:
            st.markdown(table_html(probs), unsafe_allow_html=True)
        st.markdown(f"**{t('whatif.leaves')}**")
        st.markdown(table_html(views.leaves_table(ex, t)), unsafe_allow_html=True)
    st.markdown(f"**{t('whatif.path')}**")
    with st.container(key="whatif_path"):  # a stable hook (st-key-whatif_path) for the browser tests
        # laid out by the server's ``dot`` (cached by the DOT) and sent once per session, then by
        # its digest: the browser's own Graphviz laid it out again on every rerun, 1-2 s of
        # browser CPU per click on a 1 300-node tree (issue 26)
        tree_frame(
            views.whatif_dot(est, ex, lang(), missing=t("whatif.missing")),
            key=PATH_FRAME,
            on_event=on_path_click,
            focus=[r.leaf for r in ex.leaves],  # a big tree's path opens with its end in view
        )
    st.caption(t("whatif.path_caption"))
    st.markdown(f"**{t('whatif.mixing')}**")
    with st.container(key="whatif_mixing"):
        st.markdown(pre_html(ex.mixing), unsafe_allow_html=True)
    node_data_section(res, [n for n in ex.path_nodes if est.tree_.feature[n] >= 0])


def on_path_click(value) -> None:
    """A click on a node of the path picture opens the node data section below on that node
    (when it is a test the node data selector lists; ``node_data_section`` falls back otherwise)."""
    click = focus.frame_click(value)
    if click is not None and click[0] == "node":
        st.session_state["nodedata_node"] = click[1]
        st.session_state[NODE_DATA_OPEN] = True


def node_data_section(res, path_tests) -> None:
    """The dtreeviz-style figure of a chosen test node (default: the deepest test on the path)."""
    inner = treeview.internal_nodes(res.estimator)
    if not inner:
        return
    # drawn and sent only while open: its two Plotly charts were laid out again on every rerun
    # of the page, a language switch or a page switch and back (issue 26)
    box = st.expander(t("nodedata.title"), key=NODE_DATA_OPEN, on_change="rerun")
    if not box.open:
        return
    with box:
        _node_data(res, inner, path_tests)


def _node_data(res, inner: list[int], path_tests) -> None:
    """The open node data section: the node selector and the figure of its data."""
    est = res.estimator
    tree = est.tree_
    if st.session_state.get("nodedata_node") not in inner:
        st.session_state["nodedata_node"] = path_tests[-1] if path_tests else inner[0]
    root = t("tree.root")
    if len(inner) > focus.SELECTOR_LIMIT:  # a big tree: the tests on the sample's path only
        inner = path_tests or inner[:1]
        if st.session_state["nodedata_node"] not in inner:
            st.session_state["nodedata_node"] = inner[-1]
    node = st.selectbox(
        t("nodedata.node"),
        inner,
        key="nodedata_node",
        format_func=fixed_labels(inner, lambda i: treeview.node_label(est, i, root), key="nodedata_node"),
    )
    X, y = arrays_for(res)
    nd = explain.explainer_data(est, X, y, None, int(node))
    texts = {
        "count": t("nodedata.count"),
        "threshold": t("nodedata.threshold"),
        "mean": t("nodedata.mean"),
        "value": tree_feature_name(est, int(node)),
        "missing": t("whatif.missing"),
        **{k: t("regfit." + k) for k in ("rows", "median", "quartiles", "whiskers")},
    }
    a, b = st.columns([3, 2], gap="large")
    with a.container(key="nodedata_feature"):  # static SVG too: the section loads no Plotly (issue 26)
        st.markdown(node_feature_svg(nd, texts=texts), unsafe_allow_html=True)
    with b.container(key="nodedata_children"):  # static SVG: nothing in it is clicked (issue 26)
        st.markdown(node_children_svg(tree, est.schema_, int(node), texts=texts), unsafe_allow_html=True)
    st.caption(t("nodedata.caption"))
    if (rows := points_thinned(nd)) is not None:
        st.caption(t("nodedata.thinned", shown=f"{MAX_POINTS:,}", rows=f"{rows:,}"))


def tree_feature_name(est, node: int) -> str:
    return est.schema_.features[int(est.tree_.feature[node])].name
