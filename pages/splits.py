"""Splits page: why the tree chose the test at a node, what every alternative would have
scored, the worked arithmetic, and manual tree building (force an alternative, undo it)."""
import numpy as np
import pandas as pd
import streamlit as st

from dtcore import explain
from dtcore.export import PALETTE, REGRESSION_COLOR, node_prediction_index
from ui import roles as R
from ui import report_mode, state, treeview
from ui.forced import training_arrays
from ui.split_figures import children_figure, feature_figure, tree_overview_figure
from ui.split_views import arithmetic_latex, candidate_label, count, num, ranking_rows, describe_test
from ui.state import t
from ui.text import md_escape
from ui.training import TrainingError, supported_params

PLOT_CONFIG = {"displayModeBar": False}
MAX_OPTIONS = 300  # candidates listed in the selector (all of them can be clicked on the curve)


def current_result():
    """The model of the current settings; trained here when the Train page was not visited."""
    res = state.result()
    if res is not None:
        return res
    task = state.task()
    algo = state.setting("algo")
    crit = state.setting(state.criterion_key(algo, task))
    values = {p.name: state.setting(state.param_key(algo, p.name)) for p in supported_params(algo, task)}
    try:
        with st.spinner(t("train.running")):
            state.train_current(algo, crit, values)
    except TrainingError as exc:
        st.error(t("train.failed", message=t(exc.key, **{k: md_escape(v) if isinstance(v, str) else v
                                                           for k, v in exc.params.items()})))
        return None
    return state.result()


def arrays_for(base):
    """Encoded training arrays of the trained model (cached per model)."""
    cached = st.session_state.get("_split_arrays")
    if cached is None or cached[0] != base.key:
        cached = st.session_state["_split_arrays"] = (base.key, training_arrays(base, state.data().df))
    return cached[1]


def report_for(res, X, y, node):
    sig = (res.key, repr(state.forced_ops()), node)
    cached = st.session_state.get("_split_report")
    if cached is None or cached[0] != sig:
        nd = explain.explainer_data(res.estimator, X, y, None, node)
        cached = st.session_state["_split_report"] = (sig, nd, explain.report_for(nd))
    return cached[1], cached[2]


def node_colors(est):
    tree = est.tree_
    if est.schema_.classes is None:
        return [REGRESSION_COLOR] * tree.node_count
    return [PALETTE[node_prediction_index(tree, i) % len(PALETTE)] for i in range(tree.node_count)]


def node_short_label(est, i):
    tree, s = est.tree_, est.schema_
    if tree.feature[i] >= 0:
        return s.features[int(tree.feature[i])].name
    if s.classes is not None:
        return str(s.classes[node_prediction_index(tree, i)])
    return f"{tree.value[i, 0]:.3g}"


def _picked(key):
    """customdata of the first clicked point of a chart, or None."""
    ev = st.session_state.get(key)
    pts = (ev or {}).get("selection", {}).get("points", []) if isinstance(ev, dict) else (
        getattr(getattr(ev, "selection", None), "points", []) if ev is not None else [])
    if not pts:
        return None
    cd = pts[0].get("customdata")
    if isinstance(cd, (list, tuple)):
        cd = cd[0] if cd else None
    return None if cd is None else int(cd)


def on_tree_click():
    node = _picked("split_tree_chart")
    if node is not None:
        st.session_state["split_node"] = st.session_state["node"] = st.session_state["_split_node_seen"] = node


def on_curve_click(key):
    k = _picked(key)
    if k is not None:
        st.session_state["split_candidate"] = k


def tree_panel(res):
    est = res.estimator
    tree = est.tree_
    nodes = list(range(tree.node_count))
    state.default("node")
    if st.session_state["node"] not in nodes:
        st.session_state["node"] = None
    # our own widget key, kept in step with the URL-bound "node" that the Train page's selector
    # uses (one key cannot serve two differently labelled widgets: Streamlit resets it)
    if st.session_state.get("_split_node_seen", -1) != st.session_state["node"]:
        st.session_state["split_node"] = st.session_state["node"]
    root = t("tree.root")
    node = report_mode.control(st.selectbox, t("splits.node"), nodes, key="split_node", index=None,
                               placeholder=t("splits.node_root"),
                               format_func=state.fixed_labels(nodes, lambda i: treeview.node_label(est, i, root)))
    st.session_state["node"] = st.session_state["_split_node_seen"] = node
    node = 0 if node is None else int(node)
    fig = tree_overview_figure(tree, [node_short_label(est, i) for i in nodes], colors=node_colors(est),
                               selected=node, forced=state.forced_nodes(),
                               texts={"title": t("splits.tree_hint")})
    st.plotly_chart(fig, key="split_tree_chart", on_select=on_tree_click, selection_mode="points",
                    config=PLOT_CONFIG)
    return node


def node_summary(res, rep, nd, node):
    est = res.estimator
    path = treeview.node_path(est, node)
    st.markdown(f"**{t('tree.node_path', node=node)}:** " +
                (" → ".join(md_escape(p) for p in path) if path else t("tree.root")))
    if nd.C:
        dist = ", ".join(f"{md_escape(c)}: {count(v)}" for c, v in zip(est.schema_.classes, nd.counts))
        st.markdown(t("splits.node_counts", n=count(nd.N), dist=dist))
    else:
        st.markdown(t("splits.node_mean", n=count(nd.N), mean=num(rep["mean"], 4)))
    s = est.schema_
    if rep["tree_test"] is not None:
        st.markdown(t("splits.tree_test", test=md_escape(describe_test(s, rep["tree_test"]))))
    else:
        st.markdown(t("splits.is_leaf"))
    if rep["chosen"] is not None:
        ch = rep["features"][rep["chosen"]]
        msg = t("splits.algo_choice", test=md_escape(describe_test(s, ch["test"])), score=num(ch["gain"], 4))
        if rep["runner_up"] is not None:
            ru = rep["features"][rep["runner_up"]]
            msg += " " + t("splits.runner_up", test=md_escape(describe_test(s, ru["test"])), score=num(ru["gain"], 4))
        st.markdown(msg)
    if rep["leaf_reason"] is not None:
        st.caption(t("splits.leaf_reason", reason=t("splits.leaf." + rep["leaf_reason"])))
    if rep["selection"].get("average_gain") is not None:
        st.caption(t("splits.c45_rule", avg=num(rep["selection"]["average_gain"], 4)))


def feature_picker(rep, node):
    """The charted feature's index. The widget (and the URL, ``split_feature``) hold its name;
    another node or algorithm starts at the algorithm's choice, except on a session's first view,
    which keeps the feature a shared link names."""
    feats = rep["features"]
    order = list(rep["ranking"]) + [j for j in range(len(feats)) if j not in rep["ranking"]]
    index = {feats[j]["name"]: j for j in order}
    names = list(index)
    key = state.FEATURE_KEY
    ctx = (node, rep["algorithm"])
    seen = st.session_state.get("_split_feature_ctx")
    keep = seen is None and st.session_state.get(key) in index  # first view: the URL's feature
    if (seen != ctx and not keep) or st.session_state.get(key) not in index:
        st.session_state[key] = names[order.index(rep["chosen"])] if rep["chosen"] is not None else names[0]
    st.session_state["_split_feature_ctx"] = ctx

    def label(name):
        rec = feats[index[name]]
        return name + (f" · {num(rec['gain'], 4)}" if rec.get("usable") else "")

    name = report_mode.control(st.selectbox, t("splits.feature"), names, key=key,
                               format_func=state.fixed_labels(names, label), **state.KEEP)
    return index[name]


def feature_chart(rep, nd, j):
    """The chart of feature j (``ui.split_figures.feature_figure``, as the report command draws
    it); clicks on a curve point or subset bar select that candidate."""
    rec = rep["features"][j]
    fig = feature_figure(nd, rep, j, state.lang())
    if fig is None:
        st.info(t("splits.reason." + (rec.get("reason") or "no_test")))
        return
    key = f"split_curve_{node_key(rep)}_{j}_{len(state.forced_ops())}"  # a new tree: a fresh chart
    mode = rec.get("mode")
    if mode == "threshold" and rep["algorithm"] == "c45":
        st.caption(t("splits.c45_cuts", min_split=num(rec.get("min_split", float("nan")), 2),
                     n=rec.get("n_candidates", 0), penalty=num(rec.get("mdl_penalty", 0.0), 4)))
    if mode in ("threshold", "subset"):
        st.plotly_chart(fig, key=key, on_select=lambda: on_curve_click(key), selection_mode="points",
                        config=PLOT_CONFIG)
        st.caption(t("splits.curve_hint" if mode == "threshold" else "splits.subset_hint"))
    else:
        st.plotly_chart(fig, key=key, config=PLOT_CONFIG)


def node_key(rep):
    return f"{rep['node']}"


def candidate_picker(rep, nd, j):
    rec = rep["features"][j]
    s = nd.schema
    if "candidates" not in rec or rec.get("mode") in ("multiway", "intervals"):
        return rec.get("test")
    cand = rec["candidates"]
    sc = np.asarray(cand["score"], dtype=float)
    if sc.size == 0:
        return None
    order = [int(k) for k in np.argsort(-np.where(np.isfinite(sc), sc, -np.inf), kind="stable")[:MAX_OPTIONS]]
    ctx = (rep["node"], j, repr(state.forced_ops()))
    if st.session_state.get("_split_candidate_ctx") != ctx:
        st.session_state["_split_candidate_ctx"] = ctx
        st.session_state["split_candidate"] = rec.get("best") if rec.get("best") is not None else order[0]
    cur = st.session_state.get("split_candidate")
    if cur is not None and cur not in order and 0 <= cur < sc.size:
        order.append(int(cur))
    if cur not in order:
        st.session_state["split_candidate"] = order[0]
    ineligible = t("splits.mark.ineligible")
    k = report_mode.control(st.selectbox, t("splits.candidate"), order, key="split_candidate",
                            format_func=state.fixed_labels(order, lambda k: candidate_label(rec, k, s, rep["algorithm"])
                                                           + (f" · {ineligible}" if not cand["eligible"][k] else "")))
    return explain.candidate_test(nd, rep, j, int(k))


def preview(res, rep, nd, node, test):
    s = nd.schema
    st.markdown(f"#### {t('splits.preview', test=md_escape(describe_test(s, test)))}")
    kids = explain.children_summary(nd, test)
    classes = list(s.classes) if s.classes is not None else None
    labels = [k["label"] for k in kids]
    if classes is not None:
        vals = np.array([k["class_counts"] for k in kids])
    else:
        vals = np.array([[k["weight"]] for k in kids])
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.plotly_chart(children_figure(labels, vals, classes=classes, texts={"count": t("splits.weight")}),
                        key=f"split_children_{node}", config=PLOT_CONFIG)
    with right:
        table = pd.DataFrame({t("splits.col.branch"): labels, t("splits.weight"): [k["weight"] for k in kids],
                              t("splits.col.rows"): [k["n_rows"] for k in kids]})
        if classes is None:
            table[t("splits.col.mean")] = [k["mean"] for k in kids]
        st.dataframe(table, hide_index=True)
    st.markdown(f"**{t('splits.arithmetic')}**")
    ar = explain.arithmetic(nd, test, rep)
    lines = arithmetic_latex(ar, t)
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
    same = explain.same_test(test, rep["tree_test"])
    n_nonempty = sum(1 for k in kids if k["weight"] > 0)
    c1, c2 = st.columns([2, 2])
    disabled = same or n_nonempty < 2
    if c1.button(t("splits.force", node=node), type="primary", disabled=disabled, key="split_force",
                 icon=":material/call_split:"):
        state.push_forced(node, test)
        st.session_state.pop("_split_report", None)
        st.rerun()
    if same:
        c1.caption(t("splits.force_same"))
    elif n_nonempty < 2:
        c1.caption(t("splits.force_empty"))
    ops = state.forced_ops()
    if ops:
        if c2.button(t("splits.undo", n=len(ops)), key="split_undo", icon=":material/undo:"):
            state.pop_forced()
            st.session_state.pop("_split_report", None)
            st.rerun()
        c2.caption(t("splits.forced_list", nodes=", ".join(f"#{i}" for i in state.forced_nodes())))


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
    res = current_result()
    if res is None:
        return
    base = state.base_result()
    X, y = arrays_for(base)
    st.caption(t("splits.model", algorithm=t("algo." + res.algorithm), nodes=res.estimator.node_count))
    top_left, top_right = st.columns([3, 2], gap="large")
    with top_left:
        node = tree_panel(res)
    nd, rep = report_for(res, X, y, node)
    with top_right:
        node_summary(res, rep, nd, node)
    st.subheader(t("splits.ranking"))
    st.dataframe(pd.DataFrame(ranking_rows(rep, nd.schema, t)), hide_index=True)
    if not rep["features"]:
        st.info(t("splits.no_rows"))
        return
    st.subheader(t("splits.candidates"))
    j = feature_picker(rep, node)
    feature_chart(rep, nd, j)
    test = candidate_picker(rep, nd, j)
    if test is None:
        return
    kids = preview(res, rep, nd, node, test)
    forcing_controls(res, rep, nd, node, test, kids)


state.require_frame("pages/splits.py")
page()
# the URL shows this run's settings as soon as the page has drawn them; the frame writes it again
# after the sidebar, but a page can also run without the frame (AppTest reruns only the page)
state.write_url()
