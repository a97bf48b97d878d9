"""Pruning page: pick a method and its parameter, see the tree before and after side by side,
the metrics before/after and the charts of size against error (α path, CF)."""
import streamlit as st

from ui import pruning_figures as pf
from ui import pruning_views as pv
from ui import roles as R
from ui import report_mode, state, treeview
from ui.state import t
from ui.text import md_escape
from ui.training import TrainingError, algorithms_for, supported_params

CHART = {"displayModeBar": False}


# -- cached work (keyed on the model's training key: data digest, roles, settings, split) -------

@st.cache_data(max_entries=64, show_spinner=False)
def cached_prune(key, method, alpha, cf, _res, _df):
    return pv.run_prune(_res, pv.encoded_sets(_res, _df), method, alpha=alpha, cf=cf, forced=bool(key[1]))


@st.cache_data(max_entries=32, show_spinner=False)
def cached_alpha_values(key, _res):
    return pv.alpha_values(pv.grown_tree(_res.estimator, forced=bool(key[1])))


@st.cache_data(max_entries=32, show_spinner=False)
def cached_alpha_curves(key, cv, one_se, _res, _df):
    return pv.alpha_curves(_res, pv.encoded_sets(_res, _df), cv_folds=cv, one_se=one_se, forced=bool(key[1]))


@st.cache_data(max_entries=32, show_spinner=False)
def cached_cf_curves(key, _res, _df):
    return pv.cf_curves(_res, pv.encoded_sets(_res, _df), forced=bool(key[1]))


def model_key(res):
    """Cache key of the current model: its training key and the splits forced on it."""
    ops = state.forced_ops()
    return (res.key, bool(ops), repr(ops))


# -- widgets -----------------------------------------------------------------------------------

def fmt_alpha(a):
    return f"{a:.4g}"


def set_alpha(value):
    st.session_state["prune_alpha"] = value


def method_panel(res):
    """Method and its parameters; returns (method, alpha, cf)."""
    methods = pv.methods_for(res.task)
    for key in ("prune_method", "prune_alpha", "prune_cf", "prune_cv", "prune_one_se"):
        state.default(key)
    if st.session_state["prune_method"] not in methods:
        st.session_state["prune_method"] = pv.natural_method(res.algorithm, res.task)
    report = report_mode.active()  # no controls: the settings come from the URL (no empty columns)
    left, right = st.columns([1, 2], vertical_alignment="bottom") if not report else (st, st)
    method = report_mode.control(left.selectbox, t("prune.method"), methods, key="prune_method",
                                 help=t("prune.method_help"), **state.KEEP,
                                 format_func=state.fixed_labels(methods, lambda m: t("prune.method." + m)))
    right.caption(t("prune.about." + method))
    if res.task != R.CLASSIFICATION:
        st.info(t("prune.regression_note"), icon=":material/info:")
    alpha, cf = 0.0, float(st.session_state["prune_cf"])
    if method == "ccp":
        values = cached_alpha_values(model_key(res), res)
        st.session_state["prune_alpha"] = pv.snap_alpha(float(st.session_state["prune_alpha"]), values)
        c1, c2, c3 = st.columns([4, 1, 1], vertical_alignment="bottom") if not report else (st, st, st)
        if len(values) > 1:
            alpha = report_mode.control(c1.select_slider, t("prune.alpha"), values, key="prune_alpha",
                                        format_func=fmt_alpha, help=t("prune.alpha_help"), **state.KEEP)
        else:
            alpha = values[0]
            c1.caption(t("prune.nothing"))
        report_mode.control(c2.number_input, t("prune.cv"), 0, 50, step=1, key="prune_cv", help=t("prune.cv_help"),
                            **state.KEEP)
        report_mode.control(c3.checkbox, t("prune.one_se"), key="prune_one_se", help=t("prune.one_se_help"),
                            **state.KEEP)
    elif method == "ebp":
        cf = report_mode.control(st.slider, t("prune.cf"), 0.01, 0.5, step=0.01, key="prune_cf",
                                 help=t("prune.cf_help"), **state.KEEP)
    return method, float(alpha), float(cf)


# -- sections ----------------------------------------------------------------------------------

def trees_section(res, method, outcome):
    before, after, rep = outcome.before, outcome.after, outcome.report
    depth = before.get_depth()
    state.default("prune_levels")
    options = ["auto", "all"] + list(range(1, max(depth, 1) + 1))
    if st.session_state["prune_levels"] not in options:
        st.session_state["prune_levels"] = "auto"
    auto = treeview.auto_depth(before, budget=63, row=12)
    report = report_mode.active()
    c1, c0, c2 = st.columns([1, 1, 3], vertical_alignment="bottom") if not report else (st, st, st)
    state.default("prune_arrange")
    arrangements = ("side", "stacked")
    if st.session_state["prune_arrange"] not in arrangements:
        st.session_state["prune_arrange"] = "side"
    arrange = report_mode.control(c0.radio, t("prune.arrange"), arrangements, key="prune_arrange", horizontal=True,
                                  format_func=state.fixed_labels(arrangements, lambda v: t("prune.arrange." + v)),
                                  **state.KEEP)
    levels = report_mode.control(c1.selectbox, t("prune.levels"), options, key="prune_levels", **state.KEEP,
                                 format_func=state.fixed_labels(options, lambda v: (
                                     (t("tree.depth_auto", depth=auto) if auto is not None
                                      else t("tree.depth_auto_all")) if v == "auto"
                                     else t("tree.depth_all") if v == "all" else str(v))))
    shown = auto if levels == "auto" else None if levels == "all" else int(levels)
    if shown is not None and shown < depth:
        c2.info(t("prune.levels_folded", depth=shown))
    dot_before, dot_after = pv.before_after_dot(res.estimator, outcome, max_depth=shown,
                                                rankdir=treeview.auto_rankdir(before, shown),
                                                words=treeview.dot_words(state.lang()))
    if arrange == "side":
        left, right = st.columns(2, gap="medium", border=True)
    else:
        left, right = st.container(border=True), st.container(border=True)
    with left:
        st.markdown("**" + t("prune.before_title", nodes=before.node_count, leaves=before.get_n_leaves()) + "**")
        st.graphviz_chart(dot_before, width="content")
    with right:
        st.markdown("**" + t("prune.after_title", method=t("prune.method." + method), nodes=after.node_count,
                             leaves=after.get_n_leaves()) + "**")
        st.graphviz_chart(dot_after, width="content")
    st.caption(t("prune.tree_legend"))
    if res.algorithm == "c45" and res.params.get("prune") and not state.forced_ops():
        st.caption(t("prune.c45_grown"))
    if not rep.removed:
        st.success(t("prune.nothing"), icon=":material/check:")
    else:
        msg = t("prune.summary", collapsed=len(rep.collapsed), removed=len(rep.removed))
        if rep.raised:
            msg += " " + t("prune.raised", count=len(rep.raised))
        st.markdown(msg)


def metrics_section(outcome):
    st.subheader(t("prune.metrics_title"))
    st.dataframe(pv.metrics_table(outcome.report, state.lang()), hide_index=True, width="content")


def fmt_err(value, metric):
    return pv.fmt_error(value, metric)


def alpha_section(res, alpha):
    cv = int(st.session_state["prune_cv"])
    one_se = bool(st.session_state["prune_one_se"])
    n_train = res.rows["train"].size
    spinner = t("prune.running_cv", k=cv) if cv >= 2 else t("prune.running")
    with st.spinner(spinner, show_time=True):
        curves = cached_alpha_curves(model_key(res), cv if 2 <= cv <= n_train else 0, one_se, res, state.data().df)
    rule = t("prune.rule." + ("1-SE" if one_se else "min"))
    if report_mode.active():  # the notes stay, the buttons that set α do not
        b1 = b2 = None
        note = st.container()
    else:
        b1, b2, note = st.columns([1, 1, 3], vertical_alignment="center")
    if curves.cv is not None:
        c = curves.cv
        i = c["index"]
        if b1 is not None:
            b1.button(t("prune.use_cv"), on_click=set_alpha, args=(c["alpha"],), icon=":material/done_all:",
                      disabled=c["alpha"] == alpha, key="prune_use_cv")
        note.caption(t("prune.cv_result", k=cv, rule=rule, alpha=fmt_alpha(c["alpha"]), leaves=c["n_leaves"][i],
                       error=fmt_err(c["errors"][i], curves.metric), se=fmt_err(c["ses"][i], curves.metric)))
    elif cv > n_train:
        note.caption(t("prune.cv_too_many", k=cv, rows=n_train))
    else:
        note.caption(t("prune.cv_off"))
    if curves.valid is not None:
        v = curves.valid
        i = v["index"]
        if b2 is not None:
            b2.button(t("prune.use_valid"), on_click=set_alpha, args=(v["alpha"],), icon=":material/rule:",
                      disabled=v["alpha"] == alpha, key="prune_use_valid")
        note.caption(t("prune.valid_result", rule=rule, alpha=fmt_alpha(v["alpha"]), leaves=v["n_leaves"][i],
                       error=fmt_err(v["errors"][i], curves.metric)))
    labels = {s: t("metrics." + s) for s in pv.SETS}
    labels.update({k: t("prune.label." + k) for k in ("band", "rule", "alpha", "chosen", "leaves")})
    labels["cv"] = t("prune.label.cv", k=cv)
    labels["error"] = t("prune.error_rate" if curves.metric == "error_rate" else "prune.mse")
    left, right = st.columns(2, gap="large")
    with left:
        st.markdown("**" + t("prune.chart.error_alpha") + "**")
        st.plotly_chart(pf.alpha_error_figure(curves, alpha, labels), config=CHART, key="prune_alpha_error")
    with right:
        st.markdown("**" + t("prune.chart.leaves_alpha") + "**")
        st.plotly_chart(pf.leaves_alpha_figure(curves, alpha, labels), config=CHART, key="prune_leaves_alpha")


def cf_section(res, cf):
    with st.spinner(t("prune.running"), show_time=True):
        curves = cached_cf_curves(model_key(res), res, state.data().df)
    labels = {k: t("prune.label." + k) for k in ("nodes", "leaves", "size", "estimate", "cf", "chosen")}
    st.markdown("**" + t("prune.chart.cf") + "**")
    st.plotly_chart(pf.cf_figure(curves, cf, labels), config=CHART, key="prune_cf_chart")


def current_model():
    """The trained model; a link opened straight on this page trains one from the URL's settings."""
    res = state.result()
    data = state.data()
    if res is not None or data is None or R.errors(data.df, state.roles(), state.task()):
        return res
    task = state.task()
    algos = algorithms_for(task)
    algo = state.setting("algo") if state.setting("algo") in algos else algos[0]
    criterion = state.setting(state.criterion_key(algo, task))
    values = {p.name: state.setting(state.param_key(algo, p.name)) for p in supported_params(algo, task)}
    try:
        with st.spinner(t("train.running"), show_time=True):
            return state.train_current(algo, criterion, values)
    except (TrainingError, ImportError):
        return None


def page():
    st.title(t("prune.title"))
    res = current_model()
    if res is None or state.data() is None:
        st.info(t("prune.no_model"))
        if not report_mode.active():
            st.page_link("pages/train.py", label=t("nav.train"), icon=":material/account_tree:")
        return
    st.caption(t("prune.intro"))
    method, alpha, cf = method_panel(res)
    if method == "rep" and res.rows["valid"].size == 0:
        st.warning(t("prune.needs_valid"))
        if not report_mode.active():
            st.page_link("pages/data.py", label=t("nav.data"), icon=":material/table_view:")
        return
    try:
        with st.spinner(t("prune.running"), show_time=True):
            outcome = cached_prune(model_key(res), method, alpha, cf, res, state.data().df)
    except (ValueError, NotImplementedError) as exc:
        st.error(t("prune.failed", message=md_escape(str(exc))))
        return
    trees_section(res, method, outcome)
    metrics_section(outcome)
    if method == "ccp":
        st.subheader(t("prune.charts_title"))
        alpha_section(res, alpha)
    elif method == "ebp":
        st.subheader(t("prune.charts_title"))
        cf_section(res, cf)


state.require_frame("pages/prune.py")
page()
# the URL shows this run's settings as soon as the page has drawn them; the frame writes it again
# after the sidebar, but a page can also run without the frame (AppTest reruns only the page)
state.write_url()
