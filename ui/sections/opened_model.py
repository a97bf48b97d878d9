"""The "Open a model" box of the Data page and the Train page's view of an opened model: what
its leaves hold (a boosted tree's raw score is said to be one); with data holding its columns,
the model restated on them for the trained tree's own sections (scores, node data, what-if,
downloads, the Pruning page), else the file's tree, its rules, a dtcore JSON, standalone page and
picture downloads, and which views need data."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dtcore import export
from ui.sections import downloads, navigation
from ui.services.opened import MODEL_TYPES, OnData, OpenedModel, needed_columns
from ui.services.training import TrainResult
from ui.state import opened as opened_state
from ui.state import report_mode, state, url
from ui.state.state import t
from ui.views import tree as treeview
from ui.views.origin import origin_words
from ui.views.text import md_escape, sentence


def open_box() -> None:
    """Data page: the model upload, the member index, the open model and its Close button."""
    om = opened_state.opened()
    with st.expander(t("opened.box"), expanded=om is not None or opened_state.open_error() is not None):
        c1, c2 = st.columns([3, 1])
        uploaded = c1.file_uploader(
            t("opened.upload"),
            type=list(MODEL_TYPES),
            help=t("opened.upload_help"),
            key=opened_state.upload_key(),
        )
        tree = c2.number_input(
            t("opened.tree"), 0, 100_000, 0, step=1, key="opened_tree", help=t("opened.tree_help")
        )
        opened_state.take_model_upload(uploaded, int(tree))
        err = opened_state.open_error()
        if err:
            name, key, params = err
            st.error(
                t("opened.failed_title", name=md_escape(name), message=md_escape(sentence(t(key, **params))))
            )
        om = opened_state.opened()
        st.caption(t("opened.data_hint"))
        if om is not None:
            st.markdown(current_line(om))
            st.button(t("opened.close"), on_click=opened_state.close, key="opened_close")
            st.page_link("pages/train.py", label=t("nav.train"), icon=":material/arrow_forward:")


def reopen_notice() -> None:
    """A link made while a model file was open says which file to open again (files are not in links)."""
    name = url.pending("model")
    if name is not None and opened_state.opened() is None:
        st.info(t("opened.reopen", name=md_escape(name)), icon=":material/link:")


def source_text(om: OpenedModel) -> str:
    origin = om.estimator.origin_
    if origin is None:
        return t("algo." + om.estimator.algorithm)
    return origin.title(origin_words(state.lang()))


def current_line(om: OpenedModel) -> str:
    return t("opened.current", name=md_escape(om.name), source=md_escape(source_text(om)))


def train_view(om: OpenedModel) -> TrainResult | None:
    """Train page, a model open: what it is and what its leaves hold. With data holding its
    columns, the model restated on their training rows is returned (the page draws the trained
    tree's sections with it); else its tree as the file holds it, its rules and downloads, and
    which views need data."""
    od = opened_state.with_data() or OnData(om.estimator)
    est = od.estimator
    tree = est.tree_
    st.subheader(t("opened.title"))
    c1, c2 = st.columns([3, 2], vertical_alignment="center")
    c1.markdown(current_line(om))
    c2.button(t("opened.close"), on_click=opened_state.close, key="opened_close_train")
    origin = est.origin_
    if origin is not None and origin.is_raw_score:
        words = t("opened.raw_score")
        if origin.output is not None:
            words += " " + t("opened.output", output=md_escape(origin.output))
        st.info(words, icon=":material/info:")
    if origin is not None and origin.note:
        st.caption(t("opened.note", note=md_escape(origin.note_text(origin_words(state.lang())))))
    used = sorted({est.schema_.names[j] for j in tree.feature[tree.feature >= 0].tolist()})
    st.caption(
        t(
            "opened.summary",
            nodes=tree.node_count,
            leaves=tree.get_n_leaves(),
            depth=tree.get_depth(),
            features=md_escape(", ".join(used) or "—"),
        )
    )
    data_notes(od, om.estimator.schema_.target)
    if od.result is not None:
        if not report_mode.active():
            st.page_link("pages/prune.py", label=t("opened.prune_link"), icon=":material/content_cut:")
        return od.result
    depth = treeview.auto_depth(tree)
    dot = treeview.tree_dot(est, depth, rankdir=treeview.auto_rankdir(tree, depth), lang=state.lang())
    navigation.draw_tree(dot, tree, depth, key="opened_frame")
    with st.expander(t("opened.rules")):
        st.code(export.to_text(est), language=None)
    st.download_button(
        t("opened.download"),
        export.dumps_model(est),
        file_name=f"{Path(om.name).stem}-tree{om.tree}.json",
        mime="application/json",
        key="opened_download",
    )
    # the file's tree as a page of its own (it says what the tree is), as pictures and as DOT
    stem = f"{Path(om.name).stem}-tree{om.tree}"
    downloads.download_row(st.columns(4), est, stem, ("html", "svg", "png", "dot"))
    downloads.pictures_note(est)
    return None


def data_notes(od: OnData, model_target: str) -> None:
    """Where the statistics shown come from, and what the data lack for the other views
    (``model_target``: the target's name in the model file, which a stand-in replaces)."""
    columns = ", ".join(md_escape(c) for c in needed_columns(od.estimator))
    if od.target is not None:
        st.caption(
            t(
                "opened.target_stand_in",
                model=md_escape(model_target),
                data=md_escape(od.target),
            )
        )
    if od.error is not None:
        key, params = od.error
        st.warning(
            t(key, **{k: md_escape(sentence(str(v))) for k, v in params.items()}), icon=":material/warning:"
        )
    elif od.lacking:
        st.info(
            t("opened.lacking", columns=", ".join(md_escape(c) for c in od.lacking)), icon=":material/info:"
        )
    elif od.rows and od.result is None:  # a raw-score tree: its rows counted, its scores kept
        st.caption(t("opened.raw_counted", rows=f"{od.rows:,}"))
    elif od.result is not None:
        held_out = any(od.result.rows[s].size for s in ("valid", "test"))
        if od.rows:
            st.caption(t("opened.restated" if held_out else "opened.restated_all", rows=f"{od.rows:,}"))
        else:
            st.caption(t("opened.own_statistics"))
        if od.changed:
            st.warning(t("opened.changed", count=od.changed), icon=":material/warning:")
        return
    if state.data() is None:
        st.info(t("opened.needs_data", columns=columns), icon=":material/info:")
