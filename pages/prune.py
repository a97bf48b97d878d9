"""Pruning page: pick a method and its parameter, see the tree before and after side by side,
the metrics before/after and the charts of size against error (α path, CF)."""

import streamlit as st

from dtcore.pruning.alpha_selection import only_when_asked
from ui.figures import pruning as pf
from ui.sections import prune_trees
from ui.sections.cv_switch import cv_asked
from ui.sections.long_table import long_table
from ui.sections.pruning import (
    cached_alpha_curves,
    cached_alpha_values,
    cached_cf_curves,
    cached_prune,
    model_key,
    set_alpha,
    snap_alpha_setting,
)
from ui.services import pruning as pv
from ui.services import roles as R
from ui.services.training import TrainingError
from ui.state import boundary, model, report_mode, state, url
from ui.state.frame import run_page
from ui.state.state import t
from ui.views import prune_table
from ui.views import pruning as pviews
from ui.views import tree as treeview
from ui.views.pruning import fmt_alpha, fmt_error
from ui.views.text import md_escape, training_error

#: the sample with Zhou's training / validation rows (§4.3): REP keeping its ties draws figure 4.7
TEXTBOOK_PRUNING_SAMPLE = "watermelon_2.0_split"


# -- widgets -----------------------------------------------------------------------------------


def method_panel(res):
    """Method and its parameters; returns (method, alpha, cf, REP's tie rule)."""
    methods = pv.methods_for(res.task)
    for key in ("prune_alpha", "prune_cf", "prune_cv", "prune_one_se"):
        url.default(key)
    native = pv.natural_method(res.algorithm, res.task)
    url.follow("prune_method", methods, native)
    report = report_mode.active()  # no controls: the settings come from the URL (no empty columns)
    # the whole row: an option label ("… · native to C4.5") is one line in the box and must fit
    method = report_mode.control(
        st.selectbox,
        t("prune.method"),
        methods,
        key="prune_method",
        width=480,
        help=t("prune.method_help"),
        **url.KEEP,
        on_change=url.mark_chosen,
        args=("prune_method",),
        format_func=state.fixed_labels(
            methods,
            lambda m: (
                t("prune.method." + m)
                + (t("prune.native", algorithm=t("algo." + res.algorithm)) if m == native else "")
            ),
        ),
    )
    st.caption(t("prune.about." + method))
    if res.task != R.CLASSIFICATION:
        st.info(t("prune.regression_note"), icon=":material/info:")
    alpha, cf = 0.0, float(url.setting("prune_cf"))
    if method == "ccp":
        values = cached_alpha_values(model_key(res), res)
        snap_alpha_setting(values)
        c1, c2, c3 = st.columns([4, 1, 1], vertical_alignment="bottom") if not report else (st, st, st)
        if len(values) > 1:
            alpha = report_mode.control(
                c1.select_slider,
                t("prune.alpha"),
                values,
                key="prune_alpha",
                format_func=fmt_alpha,
                help=t("prune.alpha_help"),
                **url.KEEP,
            )
        else:
            alpha = values[0]
            c1.caption(t("prune.nothing"))
        report_mode.control(
            c2.number_input, t("prune.cv"), 0, 50, step=1, key="prune_cv", help=t("prune.cv_help"), **url.KEEP
        )
        report_mode.control(
            c3.checkbox, t("prune.one_se"), key="prune_one_se", help=t("prune.one_se_help"), **url.KEEP
        )
    elif method == "ebp":
        cf = report_mode.control(
            st.slider,
            t("prune.cf"),
            0.01,
            0.5,
            step=0.01,
            key="prune_cf",
            help=t("prune.cf_help"),
            **url.KEEP,
        )
    on_tie = url.keep_valid("prune_rep_ties", pv.TIE_RULES, pv.TIE_RULES[0])
    if method == "rep":
        on_tie = rep_ties_control(res)
    return method, float(alpha), float(cf), on_tie


def rep_ties_control(res):
    """REP's tie rule: prune (SPEC §8, Occam's razor) or keep (the textbook's figure 4.7); on the
    textbook's pruning sample, with ID3 (the book's tree), a note says which one draws the figure."""
    rule = report_mode.control(
        st.radio,
        t("prune.rep_ties"),
        pv.TIE_RULES,
        key="prune_rep_ties",
        horizontal=True,
        help=t("prune.rep_ties_help"),
        format_func=state.fixed_labels(
            pv.TIE_RULES, lambda v: t("prune.rep_ties." + v), key="prune_rep_ties"
        ),
        **url.KEEP,
    )
    data = state.current_data()
    if data.source == "sample" and data.name == TEXTBOOK_PRUNING_SAMPLE and res.algorithm == "id3":
        st.caption(t("prune.rep_ties.textbook"))
    return rule


# -- sections ----------------------------------------------------------------------------------


def trees_section(res, method, outcome):
    before, after, rep = outcome.before, outcome.after, outcome.report
    depth = before.get_depth()
    options = ["auto", "all"] + list(range(1, max(depth, 1) + 1))
    url.keep_valid("prune_levels", options, "auto")
    auto = treeview.auto_depth(before)
    report = report_mode.active()
    c1, c0, c2 = st.columns([3, 3, 5], vertical_alignment="bottom") if not report else (st, st, st)
    arrangements = ("auto", "side", "stacked")
    url.keep_valid("prune_arrange", arrangements, "auto")
    arrange = report_mode.control(
        c0.radio,
        t("prune.arrange"),
        arrangements,
        key="prune_arrange",
        horizontal=True,
        format_func=state.fixed_labels(arrangements, lambda v: t("prune.arrange." + v)),
        **url.KEEP,
    )
    levels = report_mode.control(
        c1.selectbox,
        t("prune.levels"),
        options,
        key="prune_levels",
        **url.KEEP,
        format_func=state.fixed_labels(
            options, lambda v: treeview.level_label(v, auto, t), key="prune_levels"
        ),
    )
    shown = auto if levels == "auto" else None if levels == "all" else int(levels)
    if shown is not None and shown < depth:
        c2.info(t("prune.levels_folded", depth=shown))
    dot_before, dot_after = pviews.before_after_dot(
        res.estimator,
        outcome,
        max_depth=shown,
        rankdir=treeview.auto_rankdir(before, shown),
        words=treeview.dot_words(state.lang()),
    )
    title_before = t("prune.before_title", nodes=before.node_count, leaves=before.get_n_leaves())
    title_after = t(
        "prune.after_title",
        method=t("prune.method." + method),
        nodes=after.node_count,
        leaves=after.get_n_leaves(),
    )
    prune_trees.draw_pair(
        [
            ("**" + title_before + "**", dot_before, before, "prune_before"),
            ("**" + title_after + "**", dot_after, after, "prune_after"),
        ],
        shown,
        arrange,
    )
    st.caption(t("prune.tree_legend"))
    if res.algorithm == "c45" and res.params.get("prune") and not model.forced_ops():
        st.caption(t("prune.c45_grown"))
    if not rep.removed:
        st.success(t("prune.nothing"), icon=":material/check:")
    else:
        msg = t("prune.summary", collapsed=len(rep.collapsed), removed=len(rep.removed))
        if rep.raised:
            msg += " " + t("prune.raised", count=len(rep.raised))
        st.markdown(msg)
        removed_section(res, outcome)
    if rep.decisions:
        decisions_section(res, outcome)


def removed_section(res, outcome):
    st.markdown("**" + t("prune.removed.title") + "**")
    note = prune_table.basis_note(outcome, state.lang())
    if note:
        st.caption(note)
    long_table(
        prune_table.removed_table(res.estimator, outcome, state.lang()), "prune_removed", hide_index=True
    )


def decisions_section(res, outcome):
    """REP's decisions node by node, deepest first: the walk-through of Zhou's §4.3.2."""
    st.markdown("**" + t("prune.decisions.title") + "**")
    rule = outcome.report.params.get("on_tie", "prune")
    st.caption(t("prune.decisions.note", rule=t("prune.rep_ties." + rule)))
    long_table(
        prune_table.decisions_table(res.estimator, outcome, state.lang()), "prune_decisions", hide_index=True
    )


def metrics_section(outcome):
    st.subheader(t("prune.metrics_title"))
    st.dataframe(pviews.metrics_table(outcome.report, state.lang()), hide_index=True, width="content")


def alpha_section(res, alpha):
    cv = int(url.setting("prune_cv"))
    one_se = bool(url.setting("prune_one_se"))
    n_train = res.rows["train"].size
    runs = 2 <= cv <= n_train and cv_asked("prune_ask_cv", cv, n_train)  # a switch on a large table
    spinner = t("prune.running_cv", k=cv) if runs else t("prune.running")
    try:
        with st.spinner(spinner, show_time=True):
            curves = cached_alpha_curves(
                model_key(res), cv if runs else 0, one_se, res, state.current_data().df
            )
    except TrainingError as exc:  # no heavy-job slot came free in time
        st.error(t("train.failed", message=training_error(exc, t)))
        return
    rule = t("prune.rule." + ("1-SE" if one_se else "min"))
    if report_mode.active():  # the notes stay, the buttons that set α do not
        b1 = b2 = None
        note = st.container()
    else:
        b1, b2, note = st.columns([1.3, 1.3, 2.4], vertical_alignment="center")  # labels not cut
        if curves.cv is None:  # no cross-validation button: the validation's takes the first place
            b1, b2 = b2, b1
    if curves.cv is not None:
        c = curves.cv
        i = c.index
        if b1 is not None:
            b1.button(
                t("prune.use_cv"),
                on_click=set_alpha,
                args=(c.alpha,),
                icon=":material/done_all:",
                disabled=c.alpha == alpha,
                key="prune_use_cv",
            )
        note.caption(
            t(
                "prune.cv_result",
                k=cv,
                rule=rule,
                alpha=fmt_alpha(c.alpha),
                leaves=int(c.n_leaves[i]),
                error=fmt_error(float(c.errors[i]), curves.metric),
                se=fmt_error(float(c.ses[i]), curves.metric),
            )
        )
    elif cv > n_train:
        note.caption(t("prune.cv_too_many", k=cv, rows=n_train))
    elif cv < 2:
        note.caption(t("prune.cv_off"))
    if curves.valid is not None:
        v = curves.valid
        i = v.index
        if b2 is not None:
            b2.button(
                t("prune.use_valid"),
                on_click=set_alpha,
                args=(v.alpha,),
                icon=":material/rule:",
                disabled=v.alpha == alpha,
                key="prune_use_valid",
            )
        note.caption(
            t(
                "prune.valid_result",
                rule=rule,
                alpha=fmt_alpha(v.alpha),
                leaves=int(v.n_leaves[i]),
                error=fmt_error(float(v.errors[i]), curves.metric),
            )
        )
    labels = pviews.alpha_chart_labels(t, cv, curves.metric)
    left, right = st.columns(2, gap="large")
    with left:
        st.markdown("**" + t("prune.chart.error_alpha") + "**")
        with st.container(key="prune_alpha_error"):
            st.markdown(pf.alpha_error_svg(curves, alpha, labels), unsafe_allow_html=True)
    with right:
        st.markdown("**" + t("prune.chart.leaves_alpha") + "**")
        with st.container(key="prune_leaves_alpha"):
            st.markdown(pf.leaves_alpha_svg(curves, alpha, labels), unsafe_allow_html=True)


def cf_section(res, cf):
    """The CF curve (EBP at each CF of the grid); on a large table only once its section is
    opened (twelve prunings of the tree: with it the page took 10.8 s to open on 10⁵ rows, 1.2 s
    without, at load 4)."""
    if report_mode.active() or not only_when_asked(res.rows["train"].size):
        cf_chart(res, cf)
        return
    box = st.expander(
        t("prune.cf_open", n=len(pv.CF_GRID), rows=f"{res.rows['train'].size:,}"),
        key="prune_cf_open",
        on_change="rerun",
    )
    if box.open:
        with box:
            cf_chart(res, cf)


def cf_chart(res, cf):
    try:
        with st.spinner(t("prune.running"), show_time=True):
            curves = cached_cf_curves(model_key(res), res, state.current_data().df)
    except TrainingError as exc:  # no heavy-job slot came free in time
        st.error(t("train.failed", message=training_error(exc, t)))
        return
    labels = pviews.cf_chart_labels(t)
    st.markdown("**" + t("prune.chart.cf") + "**")
    with st.container(key="prune_cf_chart"):
        st.markdown(pf.cf_svg(curves, cf, labels), unsafe_allow_html=True)


def page():
    st.title(t("prune.title"))
    try:
        res = model.current_model()
    except TrainingError:
        res = None
    if res is None or state.data() is None:
        st.info(t("prune.no_model"))
        if not report_mode.active():
            st.page_link("pages/train.py", label=t("nav.train"), icon=":material/account_tree:")
        return
    st.caption(t("prune.intro"))
    settings = boundary.section("method", method_panel, res)
    if settings is None:
        return
    method, alpha, cf, on_tie = settings
    if method == "rep" and res.rows["valid"].size == 0:
        st.warning(t("prune.needs_valid"))
        if not report_mode.active():
            st.page_link("pages/data.py", label=t("nav.data"), icon=":material/table_view:")
        return
    try:
        with st.spinner(t("prune.running"), show_time=True):
            outcome = cached_prune(model_key(res), method, alpha, cf, res, state.current_data().df, on_tie)
    except TrainingError as exc:  # no heavy-job slot came free in time
        st.error(t("train.failed", message=training_error(exc, t)))
        return
    except (ValueError, NotImplementedError) as exc:
        st.error(t("prune.failed", message=md_escape(str(exc))))
        return
    boundary.section("trees", trees_section, res, method, outcome)
    boundary.section("metrics", metrics_section, outcome)
    if method == "ccp":
        st.subheader(t("prune.charts_title"))
        boundary.section("curves", alpha_section, res, alpha)
    elif method == "ebp":
        st.subheader(t("prune.charts_title"))
        boundary.section("curves", cf_section, res, cf)


run_page(page)  # through app.py's frame on a fresh server, then the URL (ui/state/frame.py)
