"""Data page: pick a sample or upload a file, preview it, type its columns, set the row split."""

from collections.abc import Callable
from typing import Any

import streamlit as st

from ui.i18n import translate
from ui.sections import large_data, opened_model
from ui.services import roles as R
from ui.services.loading import UPLOAD_TYPES, sample_catalogue
from ui.services.split import split_columns, split_counts
from ui.state import boundary, report_mode, state, url
from ui.state.frame import run_page
from ui.state.state import t
from ui.views.tables import role_edits, role_grid_height, role_table
from ui.views.text import md_escape, sentence

PREVIEW_ROWS = 50


def source_section():
    catalogue = sample_catalogue()
    left, right = st.columns(2, gap="large")
    with right:  # read first: an upload made in this run changes what the left column shows
        uploaded = st.file_uploader(
            t("data.upload"), type=UPLOAD_TYPES, help=t("data.upload_help"), key=state.upload_widget_key()
        )
        if state.is_new_upload(uploaded):  # an Excel file of 10⁵ rows takes some 12 s to read
            with st.spinner(t("data.reading", name=md_escape(uploaded.name))):
                state.take_upload(uploaded)
    with left:
        url.default("sample")
        lang = state.lang()
        st.selectbox(
            t("data.sample"),
            list(catalogue),
            format_func=state.fixed_labels(list(catalogue), lambda s: catalogue[s].title(lang)),
            key="sample",
            placeholder=large_data.sample_placeholder()
            or t("data.sample_placeholder"),  # an uploaded file is loaded: no sample is
            help=t("data.sample_help"),
            on_change=state.on_sample_change,
            **url.KEEP,
        )
    err = state.load_error()
    if err:
        name, key, params = err
        st.error(t("data.load_failed", name=md_escape(name), message=md_escape(sentence(t(key, **params)))))


def preview_section(data):
    df = data.df
    source = t("data.source." + data.source)
    st.markdown(
        t(
            "data.current",
            name=md_escape(state.data_title(data)),
            source=source,
            rows=df.shape[0],
            cols=df.shape[1],
        )
    )
    fmt = data.fmt.upper()
    st.caption(
        t("data.read_as", fmt=fmt, encoding=data.encoding)
        if data.encoding
        else t("data.read_as_binary", fmt=fmt)
    )
    with st.expander(t("data.preview", n=min(PREVIEW_ROWS, df.shape[0])), expanded=report_mode.active()):
        st.dataframe(df.head(PREVIEW_ROWS), hide_index=True)


def roles_section(data):
    df = data.df
    roles = state.roles()
    lang = state.lang()
    version = state.roles_version()
    st.subheader(t("data.roles"))
    st.caption(t("data.roles_help"))
    target = R.target_of(roles)
    columns = [str(c) for c in df.columns]
    report = report_mode.active()  # a picture of the roles: no selectors, a read-only table
    if not report:
        c1, c2 = st.columns(2)
        key = f"target_{version}"
        c1.selectbox(
            t("data.target"),
            columns,
            index=columns.index(target) if target in columns else None,
            key=key,
            on_change=state.on_target_change,
            args=(key,),
        )
        key = f"task_{version}"
        tasks = [R.CLASSIFICATION, R.REGRESSION]
        c2.radio(
            t("data.task"),
            tasks,
            index=tasks.index(state.task()),
            key=key,
            horizontal=True,
            format_func=state.fixed_labels(tasks, lambda v: t("task." + v), key=key),
            help=t("data.task_help"),
            on_change=state.on_task_change,
            args=(key,),
        )
    issues = R.warnings(df, roles)
    errors = R.errors(df, roles, state.task())
    table = role_table(df, roles, issues + errors, lang)
    editor_key = f"roles_editor_{version}"
    # the two grids take different keywords (the editor's are added below): typed as one callable
    editor: Callable[..., Any] = st.data_editor if not report else st.dataframe
    edited = editor(
        table,
        key=editor_key,
        hide_index=True,
        width="stretch",
        height=role_grid_height(len(table)),
        **(
            {}
            if report
            else {
                "num_rows": "fixed",
                "disabled": ["column", "values", "distinct", "missing", "example", "note"],
            }
        ),
        column_config={
            "column": st.column_config.TextColumn(t("data.col.column")),
            "role": st.column_config.SelectboxColumn(
                t("data.col.role"),
                options=list(R.ROLES),
                required=True,
                format_func=lambda r: translate(f"role.{r}", lang),
            ),
            "values": st.column_config.TextColumn(t("data.col.type")),
            "distinct": st.column_config.NumberColumn(t("data.col.distinct")),
            "missing": st.column_config.NumberColumn(t("data.col.missing")),
            "example": st.column_config.TextColumn(t("data.col.example")),
            "note": st.column_config.TextColumn(t("data.col.note")),
        },
    )
    edits = role_edits(table, edited) if not report else None
    if edits:  # apply, then redraw a fresh editor (its edit state would otherwise pile up)
        state.set_roles(R.apply_edits(roles, edits, df))
        state.renew_role_widgets()
        st.rerun()
    for e in errors:
        st.error(t("roles." + e.code, column=md_escape(e.column or ""), count=e.count))
    serious = [i for i in issues if i.code not in ("missing",)]
    for w in serious:
        st.warning(t("roles." + w.code, column=md_escape(w.column or ""), count=w.count))
    missing = [i for i in issues if i.code == "missing"]
    if missing:
        st.caption(t("roles.missing_summary", count=len(missing), rows=sum(i.count for i in missing)))
    return not errors


def split_section(data):
    st.subheader(t("data.split"))
    st.caption(t("data.split_help"))
    for key in ("valid", "test", "seed", "split_column"):
        url.default(key)
    by = [""] + split_columns(data.df)
    url.keep_valid("split_column", by, "")
    if not report_mode.active():  # in a report the counts below are the picture
        if len(by) > 1:  # a column names each row's set (the textbook's own split)
            st.selectbox(
                t("data.split_by"),
                by,
                key="split_column",
                format_func=state.fixed_labels(by, lambda c: c or t("data.split_random")),
                on_change=state.on_split_column_change,
                **url.KEEP,
            )
        if not state.split().column:
            c1, c2, c3 = st.columns(3)
            c1.slider(t("data.valid"), 0, 50, step=5, key="valid", **url.KEEP)
            c2.slider(t("data.test"), 0, 50, step=5, key="test", **url.KEEP)
            c3.number_input(t("data.seed"), 0, 2**31 - 1, step=1, key="seed", **url.KEEP)
        else:
            st.caption(t("data.split_by_column", column=md_escape(state.split().column)))
    target = state.target()
    if target:
        counts = split_counts(data.df, target, state.task(), state.split())
        st.caption(t("data.split_counts", train=counts["train"], valid=counts["valid"], test=counts["test"]))


def page():
    st.title(t("data.title"))
    if not report_mode.active():
        boundary.section("source", source_section)
        boundary.section("large_source", large_data.source_section)  # Parquet on the server, if allowed
        boundary.section("reopen_notice", opened_model.reopen_notice)
        boundary.section("open_model", opened_model.open_box)  # a model trained elsewhere (no pickles)
    data = state.data()
    if data is None:
        st.info(t("side.no_data"))
        return
    boundary.section("preview", preview_section, data)
    large_data.sample_notice()
    ok = boundary.section("roles", roles_section, data, fallback=False)
    if not large_data.split_note():  # large data: every row trains
        boundary.section("split", split_section, data)
    if ok and not report_mode.active():
        st.page_link(
            "pages/train.py", label=t("data.next", page=t("nav.train")), icon=":material/arrow_forward:"
        )


run_page(page)  # through app.py's frame on a fresh server, then the URL (ui/state/frame.py)
