"""Splits page: why the tree chose the test at a node, what every alternative would have
scored, the worked arithmetic, and manual tree building (force an alternative, undo it)."""

import functools

import streamlit as st

from dtcore import explain
from ui.figures.split_curve import branch_bars_svg, threshold_curve_svg
from ui.figures.splits import feature_figure
from ui.figures.static_charts import children_svg
from ui.sections import navigation
from ui.sections import splits as explorer
from ui.sections.tree_frame import picture_frame
from ui.services import roles as R
from ui.services.training import TrainingError
from ui.state import boundary, model, report_mode, state, url
from ui.state.frame import run_page
from ui.state.state import t
from ui.views import focus
from ui.views import tree as treeview
from ui.views.arithmetic import ARITHMETIC_KEY, FORMULA_CSS, arithmetic_latex
from ui.views.picture_scale import TextBounds
from ui.views.splits import (
    candidate_label,
    candidate_order,
    children_table,
    children_values,
    count,
    describe_test,
    feature_score,
    num,
    one_vs_rest_rows,
    ranking_rows,
    tie_note,
)
from ui.views.text import TextTable, md_escape, table_html, training_error

PLOT_CONFIG = {"displayModeBar": False}
#: a table taller than this scrolls in its box (about ten rows, as st.dataframe showed them):
#: plain HTML tables, not st.dataframe's grid, whose scripts a cold visit fetched (issue 26)
TABLE_HEIGHT = "24rem"
#: the score curve opens fitted to the column's width, at most 15/14 of its own size (a chart has no
#: node text: the frame counts 14 px; its 13 px labels stay under 14 px), centred in a wider column
CURVE_BOUNDS = TextBounds(low=1.0, high=15.0, max_height=900)
MAX_OPTIONS = 300  # candidates listed in the selector (all of them can be clicked on the curve)


def tree_panel(res):
    est = res.estimator
    tree = est.tree_
    nodes = focus.nearby_nodes(tree, explorer.node_in_view())  # a big tree: its neighbourhood
    explorer.prepare_node_widget(nodes)
    root = t("tree.root")
    node = report_mode.control(
        st.selectbox,
        t("splits.node"),
        nodes,
        key="split_node",
        index=None,
        placeholder=t("splits.node_root"),
        format_func=state.fixed_labels(nodes, lambda i: treeview.node_label(est, i, root), key="split_node"),
    )
    explorer.node_chosen(node)
    node = 0 if node is None else int(node)
    on_click = functools.partial(explorer.on_frame_click, big=focus.is_big(tree))
    navigation.splits_tree(res, node, model.forced_nodes(), on_click, hint=t("nav.splits_hint"))
    return node


def node_summary(res, rep, nd, node):
    est = res.estimator
    path = treeview.node_path(est, node)
    st.markdown(
        f"**{t('tree.node_path', node=node)}:** "
        + (" → ".join(md_escape(p) for p in path) if path else t("tree.root"))
    )
    if nd.C:
        dist = ", ".join(f"{md_escape(c)}: {count(v)}" for c, v in zip(est.schema_.classes, nd.counts))
        st.markdown(t("splits.node_counts", n=count(nd.N), dist=dist))
    else:
        st.markdown(t("splits.node_mean", n=count(nd.N), mean=num(rep.mean, 4)))
    s = est.schema_
    if rep.tree_test is not None:
        st.markdown(t("splits.tree_test", test=md_escape(describe_test(s, rep.tree_test, t=t))))
    else:
        st.markdown(t("splits.is_leaf"))
    if rep.chosen is not None:
        ch = rep.features[rep.chosen]
        quantity = t("splits.score." + rep.score_name)  # the number the algorithm ranks by, named
        msg = t(
            "splits.algo_choice",
            test=md_escape(describe_test(s, ch.test, t=t)),
            quantity=quantity,
            score=num(feature_score(ch, rep.score_name), 4),
        )
        if rep.runner_up is not None:
            ru = rep.features[rep.runner_up]
            msg += " " + t(
                "splits.runner_up",
                test=md_escape(describe_test(s, ru.test, t=t)),
                quantity=quantity,
                score=num(feature_score(ru, rep.score_name), 4),
            )
        st.markdown(msg)
        tie = tie_note(rep, t)
        if tie is not None:  # the column order decided: say so where the choice is shown
            st.caption(tie)
    if rep.leaf_reason is not None:
        st.caption(t("splits.leaf_reason", reason=t("splits.leaf." + rep.leaf_reason)))
    if rep.selection.average_gain is not None:
        st.caption(t("splits.c45_rule", avg=num(rep.selection.average_gain, 4)))


def feature_picker(rep, node):
    """The charted feature's index. The widget (and the URL, ``split_feature``) hold its name;
    another node or algorithm starts at the algorithm's choice, except on a session's first view,
    which keeps the feature a shared link names."""
    feats = rep.features
    order = list(rep.ranking) + [j for j in range(len(feats)) if j not in rep.ranking]
    index = {feats[j].name: j for j in order}
    names = list(index)
    explorer.prepare_feature_widget(rep, node, names, index, order)

    def label(name):
        rec = feats[index[name]]
        return name + (f" · {num(rec.gain, 4)}" if rec.usable else "")

    name = report_mode.control(
        st.selectbox,
        t("splits.feature"),
        names,
        key=url.FEATURE_KEY,
        format_func=state.fixed_labels(names, label, key=url.FEATURE_KEY),
        **url.KEEP,
    )
    return index[name]


def feature_chart(rep, nd, j):
    """The chart of feature j: a continuous feature's score curve as the server's SVG in the tree
    frame and a multiway test's branches as a static chart (``ui.figures.split_curve``), CART's
    subsets as ``ui.figures.splits.feature_figure``'s Plotly bars (the report command draws all
    three with Plotly); a click on a curve column or a subset bar selects that candidate."""
    rec = rep.features[j]
    mode = rec.mode
    picked = explorer.previewed_candidate(rep, j)
    # a continuous feature's curve: an SVG from the server in the tree frame (no Plotly, issue 26)
    curve = threshold_curve_svg(nd, rep, j, state.lang(), picked=picked) if mode == "threshold" else None
    # a multiway test's branches: the static children chart (nothing in it is clicked)
    bars = branch_bars_svg(nd, rep, j, state.lang()) if mode in ("multiway", "intervals") else None
    # CART's subsets: Plotly's bars (a click on one previews it)
    fig = feature_figure(nd, rep, j, state.lang(), picked=picked) if mode == "subset" else None
    if fig is None and curve is None and bars is None:
        st.info(t("splits.reason." + (rec.reason or "no_test")))
        return
    key = f"split_curve_{node_key(rep)}_{j}_{len(model.forced_ops())}"  # a new tree: a fresh chart
    if mode == "threshold" and rep.algorithm == "c45":
        min_split = rec.min_split if rec.min_split is not None else float("nan")
        st.caption(
            t(
                "splits.c45_cuts",
                min_split=num(min_split, 2),
                n=rec.n_candidates if rec.n_candidates is not None else 0,
                penalty=num(rec.mdl_penalty if rec.mdl_penalty is not None else 0.0, 4),
            )
        )
    if curve is not None:
        picture_frame(curve, key=key, on_event=explorer.on_curve_pick, bounds=CURVE_BOUNDS, fixed=True)
        st.caption(t("splits.curve_hint"))
    elif bars is not None:
        with st.container(key=key):
            st.markdown(bars, unsafe_allow_html=True)
    else:
        st.plotly_chart(
            fig,
            key=key,
            on_select=lambda: explorer.on_curve_click(key),
            selection_mode="points",
            config=PLOT_CONFIG,
        )
        st.caption(t("splits.subset_hint"))
        ovr = one_vs_rest_rows(rec, nd.schema, t)
        if len(ovr) > 1:
            st.caption(t("splits.one_vs_rest"))
            st.markdown(table_html(TextTable.of_rows(ovr), max_height=TABLE_HEIGHT), unsafe_allow_html=True)


def node_key(rep):
    return f"{rep.node}"


def candidate_picker(rep, nd, j):
    rec = rep.features[j]
    s = nd.schema
    cand = rec.candidates
    if cand is None or rec.mode in ("multiway", "intervals"):
        return rec.test
    order = candidate_order(cand.score, MAX_OPTIONS)
    if not order:
        return None
    order = explorer.prepare_candidate_widget(rep, j, rec, order, len(cand.score))
    ineligible = t("splits.mark.ineligible")
    k = report_mode.control(
        st.selectbox,
        t("splits.candidate"),
        order,
        key="split_candidate",
        format_func=state.fixed_labels(
            order,
            lambda k: (
                candidate_label(rec, k, s, rep.algorithm)
                + (f" · {ineligible}" if not cand.eligible[k] else "")
            ),
            key="split_candidate",
        ),
    )
    return explain.candidate_test(nd, rep, j, int(k))


def preview(res, rep, nd, node, test):
    s = nd.schema
    st.markdown(f"#### {t('splits.preview', test=md_escape(describe_test(s, test, t=t)))}")
    kids = explain.children_summary(nd, test)
    classes = list(s.classes) if s.classes is not None else None
    labels, vals = children_values(kids, classes)
    left, right = st.columns([3, 2], gap="large")
    with left.container(key="split_children"):  # static SVG: nothing in it is clicked (issue 26)
        st.markdown(children_svg(labels, vals, classes, t("splits.weight")), unsafe_allow_html=True)
    with right:
        st.markdown(
            table_html(children_table(kids, classes, t), max_height=TABLE_HEIGHT), unsafe_allow_html=True
        )
    st.markdown(f"**{t('splits.arithmetic')}**")
    st.html(FORMULA_CSS)  # a formula wider than its column scrolls: no term is cut off
    ar = explain.arithmetic(nd, test, rep)
    lines = arithmetic_latex(ar, t)
    with st.container(key=ARITHMETIC_KEY):  # two columns from 1 400 px, else one (FORMULA_CSS)
        cols = st.columns(2, gap="large")
    half = (len(lines) + 1) // 2
    for i, (caption, formula) in enumerate(lines):
        with cols[0 if i < half else 1]:
            st.caption(caption)
            st.latex(formula)
    return kids


def forcing_controls(res, rep, nd, node, test, kids):
    if report_mode.active():  # a report shows the model, not the buttons that change it
        return
    same = explain.same_test(test, rep.tree_test)
    n_nonempty = sum(1 for k in kids if k.weight > 0)
    c1, c2 = st.columns([2, 2])
    disabled = same or n_nonempty < 2
    if c1.button(
        t("splits.force", node=node),
        type="primary",
        disabled=disabled,
        key="split_force",
        icon=":material/call_split:",
    ):
        model.push_forced(node, test)
        explorer.forget_report()
        st.rerun()
    if same:
        c1.caption(t("splits.force_same"))
    elif n_nonempty < 2:
        c1.caption(t("splits.force_empty"))
    ops = model.forced_ops()
    if ops:
        if c2.button(t("splits.undo", n=len(ops)), key="split_undo", icon=":material/undo:"):
            model.pop_forced()
            explorer.forget_report()
            st.rerun()
        c2.caption(t("splits.forced_list", nodes=", ".join(f"#{i}" for i in model.forced_nodes())))


def data_link():
    if not report_mode.active():
        st.page_link("pages/data.py", label=t("nav.data"), icon=":material/table_view:")


def page():
    st.title(t("splits.title"))
    st.caption(t("splits.intro"))
    data = state.data()
    if data is None:
        st.info(t("train.no_data"))
        data_link()
        return
    if R.errors(data.df, state.roles(), state.task()):
        st.error(t("train.fix_roles"))
        data_link()
        return
    try:
        res = model.current_model()
    except TrainingError as exc:
        st.error(t("train.failed", message=training_error(exc, t)))
        return
    if res is None:
        return
    base = model.base_result()
    X, y = explorer.arrays_for(base)
    st.caption(t("splits.model", algorithm=t("algo." + res.algorithm), nodes=res.estimator.node_count))
    top_left, top_right = st.columns([3, 2], gap="large")
    with top_left:
        node = boundary.section("tree", tree_panel, res, fallback=0)
    nd, rep = explorer.report_for(res, X, y, node)
    with top_right:
        boundary.section("summary", node_summary, res, rep, nd, node)
    boundary.section("ranking", ranking_section, rep, nd)
    if not rep.features:
        st.info(t("splits.no_rows"))
        return
    boundary.section("candidates", candidates_section, res, rep, nd, node)


def ranking_section(rep, nd):
    st.subheader(t("splits.ranking"))
    rows = ranking_rows(rep, nd.schema, t)
    st.markdown(table_html(TextTable.of_rows(rows), max_height=TABLE_HEIGHT), unsafe_allow_html=True)


def candidates_section(res, rep, nd, node):
    """Every candidate of one feature, the chosen one's preview and arithmetic, the forcing."""
    st.subheader(t("splits.candidates"))
    j = feature_picker(rep, node)
    feature_chart(rep, nd, j)
    test = candidate_picker(rep, nd, j)
    if test is None:
        return
    kids = preview(res, rep, nd, node, test)
    forcing_controls(res, rep, nd, node, test, kids)


run_page(page)  # through app.py's frame on a fresh server, then the URL (ui/state/frame.py)
