"""Compare page: ID3, C4.5 and CART on the same data and row split; trees side by side with the
path to their first disagreement in bold, that disagreement in words and numbers, scores,
cross-validation, agreement and the rows they disagree on."""

import streamlit as st

from dtcore.analysis.compare import Comparison
from dtcore.analysis.compare_records import Note
from ui.figures.compare import cv_svg
from ui.sections import compare as S
from ui.sections.tree_frame import tree_frame
from ui.services import roles as R
from ui.services.training import TrainingError
from ui.state import boundary, report_mode, state
from ui.state.frame import run_page
from ui.state.state import t
from ui.views import compare as V
from ui.views import focus as focus_nodes
from ui.views import tree as treeview
from ui.views.text import TextTable, md_escape, table_html, training_error


def trees_section(c: Comparison) -> None:
    st.subheader(t("compare.trees"))
    lead = c.entries[0]
    # a big tree's selector lists the neighbourhood of its pick (1 313 labels were 28 KB on every
    # run, issue 26); picking a node moves the neighbourhood with it
    nodes = focus_nodes.nearby_nodes(lead.estimator.tree_, st.session_state.get("compare_focus"))
    S.prepare_focus(nodes, repr((lead.key, c.rows["train"].size, lead.nodes)))
    picked = report_mode.control(
        st.selectbox,
        t("compare.focus", algo=V.label(lead.key, t, lead.algorithm)),
        nodes,
        key="compare_focus",
        index=None,
        placeholder=t("compare.focus_none"),
        format_func=state.fixed_labels(
            nodes, lambda i: treeview.node_label(lead.estimator, i, t("tree.root")), key="compare_focus"
        ),
    )
    focus = None
    if picked is not None:
        focus = S.focus(c, lead.key, int(picked))
    # one above the other, each as wide as the page: side by side in thirds of it, a 14-node
    # tree's text was 4 px (issue 27)
    for e, dot in zip(c.entries, V.tree_dots(c, state.lang(), focus)):
        with st.container(border=True):
            st.markdown(f"**{V.label(e.key, t, e.algorithm)}**")
            if focus is not None and focus.get(e.key) is None:
                st.caption(t("compare.focus_missing"))
            # laid out by the server's ``dot`` (cached, sent once per session), not in the page;
            # a click selects nothing (the focus is the selector above)
            tree_frame(dot, key=f"compare_{e.key}", fixed=True)


# the few-row tables are plain HTML (``table_html``), not st.dataframe's canvas grid: four grids
# were a tenth of the page's browser CPU (issue 26); the rows the algorithms disagree on (up to
# 200) keep the grid, which draws only the rows in view


def first_section(c: Comparison, notes: list[Note]) -> None:
    st.subheader(t("compare.first"))
    if len(c.entries) < 2:
        st.caption(t("compare.first.one"))
        return
    if c.first is None:
        st.success(t("compare.first.none"))
        return
    st.markdown(V.where_text(c, t))
    for sentence in V.first_sentences(c, notes, t):
        st.markdown("- " + sentence)
    st.caption(t("compare.first.scores"))
    st.markdown(table_html(TextTable.of_frame(V.scores_at_first(c, t))), unsafe_allow_html=True)


def scores_section(c: Comparison) -> None:
    st.subheader(t("compare.scores"))
    st.markdown(table_html(TextTable.of_frame(V.scores_table(c, t))), unsafe_allow_html=True)
    if c.cv_folds >= 2:
        metric = t("compare.metric." + V.metrics(c.task)[0])
        st.markdown("**" + t("compare.cv", metric=metric, k=c.cv_folds) + "**")
        words = {w: t("compare.cv." + w) for w in ("mean", "median", "quartiles", "range")}
        words["fold"] = t("compare.cv.fold", k="{k}")
        svg = cv_svg(
            [V.label(e.key, t, e.algorithm) for e in c.entries], [e.cv for e in c.entries], metric, words
        )
        with st.container(key="compare_cv"):  # static SVG from the server: no Plotly (issue 26)
            st.markdown(svg, unsafe_allow_html=True)


def agreement_section(c: Comparison) -> None:
    st.subheader(t("compare.agreement"))
    st.caption(t("compare.agreement.caption", rows=t("compare.rows." + c.agree_on)))
    st.markdown(
        table_html(TextTable.of_frame(V.agreement_table(c, t), index_header="")), unsafe_allow_html=True
    )
    n = int(c.disagree_rows.size)
    st.markdown("**" + t("compare.disagree", n=n) + "**")
    if n == 0:
        st.caption(t("compare.disagree.none"))
    else:
        st.dataframe(
            V.disagree_table(c, state.current_data().df, R.features_of(state.roles()), t), hide_index=True
        )


def page():
    st.title(t("compare.title"))
    if state.data() is None:
        st.info(t("compare.no_data"))
        return
    st.caption(t("compare.intro"))
    try:
        plan = S.plan()
    except TrainingError as exc:
        st.error(training_error(exc, t))
        return
    model_settings = S.model_settings()
    options = S.prepare_choice(plan, model_settings)
    algorithm = model_settings[1] if model_settings else None
    keys = report_mode.control(
        st.multiselect,
        t("compare.algorithms"),
        list(options),
        key=S.KEY,
        format_func=state.fixed_labels(list(options), lambda k: V.label(k, t, algorithm), key=S.KEY),
    )
    keys = [k for k in options if k in (keys or [])]
    if not keys:
        st.info(t("compare.pick_two"))
        return
    for slow in plan.slow(state.task()):  # a warning when chosen anyway, else why it is not a default
        say, why = (st.warning, "chosen") if slow in keys else (st.caption, "left_out")
        say(
            t(
                f"compare.slow.{slow}.{why}",
                feature=md_escape(plan.widest),
                n=f"{plan.widest_values:,}",
                rows=f"{plan.n_train:,}",
            )
        )
    folds = S.folds(plan)
    try:
        c = S.comparison(keys, model_settings, folds)  # its progress bars say how far it is
    except TrainingError as exc:
        st.error(training_error(exc, t))
        return
    except (ValueError, MemoryError) as exc:
        st.error(t("compare.failed", message=md_escape(str(exc))))
        return
    notes = c.notes()
    boundary.section("trees", trees_section, c)
    boundary.section("first", first_section, c, notes)
    boundary.section("scores", scores_section, c)
    boundary.section("agreement", agreement_section, c)


run_page(page)  # through app.py's frame on a fresh server, then the URL (ui/state/frame.py)
