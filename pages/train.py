"""Train page: the tree first, its algorithm and settings in the sidebar (a form, so a slider
tick does not retrain), then scores, importances and downloads."""

import streamlit as st

from dtcore import export
from dtcore.numbers import fmt_metric, fmt_pct
from ui.figures.regression import (
    MAX_LEAVES,
    MAX_POINTS,
    leaf_values_svg,
    predicted_actual_svg,
    residuals_svg,
)
from ui.figures.static_charts import confusion_svg, importances_svg
from ui.i18n import option_label
from ui.sections import downloads, large_data, navigation, opened_model, splits, whatif
from ui.services import roles as R
from ui.services.split import LIMIT_DEPTH_ABOVE_ROWS, UNPRUNED_BY_DEFAULT
from ui.services.training import TrainingError, algorithms_for, criteria, supported_params
from ui.state import boundary, model, opened, report_mode, state, url
from ui.state.frame import run_page
from ui.state.state import t
from ui.views import focus
from ui.views import tree as treeview
from ui.views.text import md_escape, training_error

SPLITS = ("train", "valid", "test")
#: the scores' order in the headline: held-out rows first (training accuracy flatters a big tree)
HEADLINE_ORDER = ("test", "valid", "train")
LAYOUTS = ("auto", "TB", "LR")


def param_widget(algo, p, lang):
    key = url.param_key(algo, p.name)
    url.default(key)
    label = t(f"param.{p.name}")
    hint = t(f"help.{p.name}")
    if p.kind == "select":
        return st.selectbox(
            label,
            p.options,
            key=key,
            format_func=state.fixed_labels(p.options, lambda v: option_label(p.name, v, lang), key=key),
            help=hint,
            **url.KEEP,
        )
    if p.kind == "bool":
        return st.checkbox(label, key=key, help=hint, **url.KEEP)
    if p.kind == "int":
        return st.number_input(label, int(p.lo), int(p.hi), step=int(p.step), key=key, help=hint, **url.KEEP)
    return st.number_input(
        label, float(p.lo), float(p.hi), step=float(p.step), key=key, format="%.3f", help=hint, **url.KEEP
    )


def settings_panel(task):
    """Draw the settings; return (algorithm, criterion, values, submitted)."""
    lang = state.lang()
    algos = algorithms_for(task)
    url.keep_valid("algo", algos, algos[0])
    if report_mode.active():  # no controls: the settings come from the URL (or their defaults)
        algo = url.setting("algo")
        values = {p.name: url.setting(url.param_key(algo, p.name)) for p in supported_params(algo, task)}
        return algo, url.setting(url.criterion_key(algo, task)), values, False
    # in the sidebar, so that the tree is the first thing on the page (issue 27)
    with st.sidebar:
        st.subheader(t("train.settings"))
        # the algorithm sits outside the form: changing it must redraw the parameters it has
        algo = st.selectbox(
            t("train.algorithm"),
            algos,
            key="algo",
            format_func=state.fixed_labels(algos, lambda a: t("algo." + a)),
            help=t("train.algorithm_help"),
            **url.KEEP,
        )
        st.caption(t("train.form_hint") if task == R.CLASSIFICATION else t("train.regression_only_cart"))
        params = supported_params(algo, task)
        with st.form("train_form", border=True):
            crits = criteria(algo, task)
            ckey = url.criterion_key(algo, task)
            url.default(ckey)
            criterion = st.selectbox(
                t("train.criterion"),
                crits,
                key=ckey,
                **url.KEEP,
                format_func=state.fixed_labels(crits, lambda c: option_label("criterion", c, lang), key=ckey),
            )
            values = {p.name: param_widget(algo, p, lang) for p in params}
            submitted = st.form_submit_button(
                t("train.button"), type="primary", width="stretch", icon=":material/park:"
            )
    return algo, criterion, values, submitted


def ensure_model(algo, criterion, values, submitted):
    """The model of the current settings (trained when they have none yet); None after an error."""
    try:
        return model.settled_model(algo, criterion, values, submitted)
    except TrainingError as exc:
        st.error(t("train.failed", message=training_error(exc, t)))
    return None


def tree_section(res):
    est = res.estimator
    tree = est.tree_
    if focus.is_big(tree):  # search, overview map and a focused view instead of node selectors
        return navigation.big_tree_section(res)
    depth = tree.get_depth()
    auto = treeview.auto_depth(tree)
    root = t("tree.root")
    # in report mode nothing is drawn in these (report_mode.control): no empty row either
    c1, c0, c2, c3 = st.columns([1, 1, 2, 2]) if not report_mode.active() else [st] * 4
    for key in ("levels", "layout", "collapse", "node"):
        url.default(key)
    level_options = ["auto", "all"] + list(range(1, max(depth, 1) + 1))
    inner = treeview.internal_nodes(est)
    nodes = list(range(tree.node_count))
    # settings from the URL or an earlier tree may not fit this tree: drop what does not
    url.keep_valid("levels", level_options, "auto")
    url.keep_only("collapse", inner)
    url.keep_valid("node", nodes, None)
    levels = report_mode.control(
        c1.selectbox,
        t("tree.depth_window"),
        level_options,
        key="levels",
        help=t("tree.depth_help"),
        format_func=state.fixed_labels(
            level_options, lambda v: treeview.level_label(v, auto, t), key="levels"
        ),
        **url.KEEP,
    )
    shown = auto if levels == "auto" else None if levels == "all" else int(levels)
    layout = report_mode.control(
        c0.selectbox,
        t("tree.layout"),
        LAYOUTS,
        key="layout",
        format_func=state.fixed_labels(LAYOUTS, lambda v: t("tree.layout." + v)),
        **url.KEEP,
    )
    rankdir = treeview.auto_rankdir(tree, shown) if layout == "auto" else layout
    url.default("node_charts")
    charts_on = report_mode.control(
        c0.toggle, t("tree.node_charts"), key="node_charts", help=t("tree.node_charts_help"), **url.KEEP
    )
    node_labels = state.fixed_labels(nodes, lambda i: treeview.node_label(est, i, root), key="node")
    collapsed = list(st.session_state.get("collapse") or [])
    if not report_mode.active():  # one node per pick: it folds, or unfolds when folded (no loose
        # multi-selection that folded a dozen subtrees on one Enter)
        c2.selectbox(
            t("tree.fold"),
            inner,
            index=None,
            key="fold_pick",
            placeholder=t("tree.fold_placeholder"),
            format_func=state.fixed_labels(
                inner,
                lambda i: ("▸ " if i in collapsed else "") + treeview.node_label(est, i, root),
                key="fold_pick",
            ),
            on_change=navigation.on_fold_pick,
        )
        c2.caption(
            t("tree.folded", nodes=", ".join(f"#{n}" for n in collapsed))
            if collapsed
            else t("tree.collapse_none")
        )
    selected = report_mode.control(
        c3.selectbox,
        t("tree.node"),
        nodes,
        index=None,
        key="node",
        placeholder=t("tree.node_none"),
        format_func=node_labels,
        **url.KEEP,
    )
    if levels == "auto" and auto is not None:
        st.info(t("tree.large", nodes=tree.node_count, depth=auto))
    forced = model.forced_nodes()
    charts = splits.tree_charts(res) if charts_on else None
    dot = treeview.tree_dot(
        est, shown, collapsed, selected, rankdir, state.lang(), forced=forced, charts=charts
    )
    # past the browser's node budget (or with node charts): drawn by the server
    navigation.draw_tree(dot, tree, shown, server=charts_on, focus_on=() if selected is None else (selected,))
    if treeview.ROUTED_MARK in dot:  # a second line "missing, 清脆 →" under some edge labels
        st.caption(t("tree.routed_legend", missing=treeview.dot_words(state.lang())["missing"]))
    if forced:
        st.caption(t("splits.forced_on_train", nodes=", ".join(f"#{i}" for i in forced)))
    st.caption(t("tree.legend" if res.task == R.CLASSIFICATION else "tree.legend_reg"))
    if (tie := splits.root_tie_note(res)) is not None:  # the root's test won a tie by column order
        st.caption(tie)
    if selected is not None:
        path = treeview.node_path(est, selected)
        st.markdown(
            f"**{t('tree.node_path', node=selected)}:** "
            + (" → ".join(md_escape(p) for p in path) if path else root)
        )
    return dot


def scores_section(res):
    est = res.estimator
    st.subheader(t("metrics.title"))
    cols = st.columns(3 + len(res.scores))
    for col, name in zip(cols, [s for s in HEADLINE_ORDER if s in res.scores]):
        sc = res.scores[name]
        if res.task == R.CLASSIFICATION:
            col.metric(f"{t('metrics.accuracy')} · {t('metrics.' + name)}", fmt_pct(sc.accuracy))
            col.caption(f"{t('metrics.n')}: {sc.n}")
        else:
            col.metric(f"{t('metrics.rmse')} · {t('metrics.' + name)}", fmt_metric(sc.rmse))
            col.caption(
                f"{t('metrics.mae')} {fmt_metric(sc.mae)} · {t('metrics.r2')} {fmt_metric(sc.r2)} · "
                f"{t('metrics.n')}: {sc.n}"
            )
    data = state.data()
    if set(res.scores) == {"train"} and data is not None and data.source == "upload":
        st.caption(t("defaults.training_only"))
    rest = cols[len(res.scores) :]
    rest[0].metric(t("metrics.nodes"), est.node_count)
    rest[1].metric(t("metrics.depth"), est.get_depth())
    rest[2].metric(t("metrics.leaves"), est.get_n_leaves())
    left, right = st.columns(2, gap="large")
    with left:
        st.markdown(f"**{t('metrics.importances')}**")
        imp = est.feature_importances_
        if imp.size and imp.max() > 0:
            # static SVG from the server: no Plotly script to fetch and run (issue 26)
            with st.container(key="importances"):
                st.markdown(
                    importances_svg(res.features, imp, t("metrics.importance")), unsafe_allow_html=True
                )
        else:
            st.caption(t("metrics.no_importance"))
    with right:
        if res.task == R.CLASSIFICATION:
            names = [s for s in SPLITS if s in res.scores]
            which = report_mode.control(
                st.radio,
                t("metrics.confusion_split"),
                names,
                horizontal=True,
                key="cm_split",
                fallback=names[-1],
                format_func=state.fixed_labels(names, lambda s: t("metrics." + s), key="cm_split"),
                index=len(names) - 1,
            )
            sc = res.scores[which]
            st.markdown(f"**{t('metrics.confusion', split=t('metrics.' + which))}**")
            with st.container(key="confusion"):
                st.markdown(
                    confusion_svg(sc.labels, sc.confusion, t("metrics.predicted"), t("metrics.true")),
                    unsafe_allow_html=True,
                )


def downloads_section(res):
    est = res.estimator
    st.subheader(t("download.title"))
    stem = f"tree-{res.algorithm}"
    # every payload is built when its button is clicked, not on each run (a 30 000-node tree's
    # JSON and DOT take seconds to write)
    downloads.download_row(st.columns(5), est, stem, ("json", "dot", "svg", "png", "rules"))
    downloads.download_row(st.columns(5), est, stem, ("pdf", "html", "python", "sql"))
    downloads.pictures_note(est)
    # written and sent only while open: a 30 000-node tree's rules are megabytes (issue 26)
    rules = st.expander(t("rules.title"), key="rules_open", on_change="rerun")
    if rules.open:
        with rules:
            st.code(export.to_text(est), language=None)


def regression_section(res):
    """How a regression tree fits: predicted against actual, residuals, each leaf's values."""
    names = [s for s in HEADLINE_ORDER if s in res.scores]
    st.subheader(t("regfit.title"))
    which = report_mode.control(
        st.radio,
        t("regfit.split"),
        names,
        horizontal=True,
        key="regfit_split",
        fallback=names[0],
        format_func=state.fixed_labels(names, lambda s: t("metrics." + s), key="regfit_split"),
    )
    pts = model.regression_points_for(res, which)
    words = (
        "actual",
        "predicted",
        "residual",
        "leaf",
        "leaf_value",
        "rows",
        "median",
        "quartiles",
        "whiskers",
    )
    texts = {k: t("regfit." + k) for k in words}
    # static SVG from the server: nothing in them is clicked (issue 26: Plotly's were 2.8 s of
    # browser CPU at 10⁵ rows)
    left, right = st.columns(2, gap="large")
    with left.container(key="regfit_pa"):
        st.markdown(f"**{t('regfit.predicted_actual')}**")
        st.markdown(predicted_actual_svg(pts.truth, pts.predicted, texts), unsafe_allow_html=True)
    with right.container(key="regfit_res"):
        st.markdown(f"**{t('regfit.residuals')}**")
        st.markdown(residuals_svg(pts.truth, pts.predicted, texts), unsafe_allow_html=True)
    if pts.truth.size > MAX_POINTS:
        st.caption(t("regfit.thinned", shown=f"{MAX_POINTS:,}", rows=f"{pts.truth.size:,}"))
    st.markdown(f"**{t('regfit.leaves', top=MAX_LEAVES)}**")
    values = res.estimator.tree_.value[:, 0]
    with st.container(key="regfit_leaves"):
        st.markdown(
            leaf_values_svg(pts.leaf, pts.truth, dict(enumerate(values.tolist())), texts),
            unsafe_allow_html=True,
        )


def page():
    st.title(t("train.title"))
    if (om := opened.opened()) is not None:  # a model file opened on the Data page: shown, not trained
        if (res := opened_model.train_view(om)) is not None:  # with data: the trained tree's sections
            result_sections(res)
        return
    data = state.data()
    if data is None:
        st.info(t("train.no_data"))
        st.page_link("pages/data.py", label=t("nav.data"), icon=":material/table_view:")
        return
    task = state.task()
    errors = R.errors(data.df, state.roles(), task)
    if errors:
        st.error(t("train.fix_roles"))
        for e in errors:
            st.markdown("- " + t("roles." + e.code, column=md_escape(e.column or ""), count=e.count))
        st.page_link("pages/data.py", label=t("nav.data"), icon=":material/table_view:")
        return
    notice = st.container()
    res = boundary.section("settings", lambda: ensure_model(*settings_panel(task)))
    if res is None:
        return
    with notice:
        if (
            not model.user_trained()
            and not report_mode.active()
            and data.source == "sample"
            and data.name == url.DEFAULT_SAMPLE
            and res.algorithm == url.DEFAULT_ALGORITHM
            and url.pending("upload") is None  # a link made on an upload has its own notice
        ):
            st.info(t("train.welcome"), icon=":material/lightbulb:")
    msg = large_data.trained_message(res) or t(
        "train.trained",
        algorithm=t("algo." + res.algorithm),
        rows=res.rows["train"].size,
        seconds=f"{res.seconds:.2f}",
    )
    if res.dropped:
        msg += " " + t("train.dropped", count=res.dropped)
    if not report_mode.active():  # the timing would make every report picture different
        st.caption(msg)
    depth = state.upload_depth_default()
    if (
        depth
        and res.algorithm in UNPRUNED_BY_DEFAULT
        and res.estimator.get_params().get("max_depth") == depth
    ):
        st.caption(t("defaults.depth_limited", depth=depth, rows=LIMIT_DEPTH_ABOVE_ROWS))
    result_sections(res)


def result_sections(res):
    """The tree, scores, what-if and downloads of a model (trained, or opened with data)."""
    boundary.section("tree", tree_section, res)
    boundary.section("scores", scores_section, res)
    if res.task == R.REGRESSION:
        boundary.section("regression", regression_section, res)
    if not report_mode.active():
        boundary.section("whatif", whatif.whatif_section, res)
        boundary.section("downloads", downloads_section, res)


run_page(page)  # through app.py's frame on a fresh server, then the URL (ui/state/frame.py)
