"""Growth page: the current model's tree after each split, in the builder's order, then after
each pruning step; a step slider and a play button. Playing, the picture's frame reports each
step a second after the browser has drawn it and the stepper (a fragment) moves on then, so the
slider never runs ahead of the picture; without Graphviz's ``dot`` on the server the browser lays
the picture out and a fragment rerunning itself each second plays instead."""

import streamlit as st

from ui.sections import growth as S
from ui.sections.tree_frame import server_draws, tree_frame
from ui.services import growth as G
from ui.services.training import TrainingError
from ui.state import boundary, model, report_mode, state
from ui.state.frame import run_page
from ui.state.state import t
from ui.views import growth as V
from ui.views.picture_scale import STEADY


def caption(res, est, st_tree, k, splits, prunes):
    if st_tree.k == 0:
        st.markdown(t("growth.start"))
        return
    path = V.path_text(est, st_tree.node, t("tree.root"))
    if st_tree.phase == "grow":
        X, y = S.arrays(res)
        info = G.split_info(est, X, y, st_tree.node)
        st.markdown(V.split_caption(t, k, splits, info, path))
    else:
        st.markdown(V.prune_caption(t, k - splits, prunes, st_tree, path))
    node = G.final_node(est, st_tree.node)
    if node is None:
        st.caption(t("growth.pruned_later"))
    elif (
        st_tree.phase == "grow"
        and not report_mode.active()
        and st.button(t("growth.explore"), key="growth_explore", icon=":material/query_stats:")
    ):
        S.open_in_explorer(node)


def stepper(res):
    est = res.estimator
    splits, prunes = G.n_steps(est)
    total = splits + prunes
    timed = not server_draws()  # the browser-drawn picture cannot report: a clock plays
    if S.playing() and timed:
        S.advance(total)
    left, right = st.columns([6, 1], vertical_alignment="bottom")
    with left:
        k = report_mode.control(
            st.slider, t("growth.step"), 0, max(total, 1), key=S.STEP_KEY, disabled=total == 0, fallback=total
        )
    with right:
        if not report_mode.active():
            label = t("growth.pause") if S.playing() else t("growth.play")
            icon = ":material/pause:" if S.playing() else ":material/play_arrow:"
            # the callback sets the step before the slider exists; a clock's full rerun (re)sets it
            if (
                st.button(
                    label,
                    key="growth_play",
                    icon=icon,
                    width="stretch",
                    on_click=S.toggle_play,
                    args=(total,),
                )
                and timed
            ):
                st.rerun()
    S.drawn(k)
    st.caption(t("growth.phase", splits=splits, prunes=prunes))
    st_tree = S.step(est, k)
    caption(res, est, st_tree, k, splits, prunes)
    # one scale for every step (the lone root is not drawn at 40 px, the last tree at 4 px); the
    # server draws it and the frame swaps the picture in (the browser laid each step out anew
    # in 1-2 s, issue 27), then reports it drawn while playing (S.step_drawn); a click selects
    # nothing: the picture's node ids are the grown tree's, and the caption's button opens the
    # newest split in the explorer
    tree_frame(
        V.step_dot(est, st_tree, state.lang()),
        key="growth_tree",
        bounds=STEADY,
        fixed=True,
        step=k,
        advance_ms=S.PLAY_STEP_MS if S.playing() else None,
        on_drawn=lambda shown: S.step_drawn(shown, total),
    )


def guarded_stepper(res):
    """The stepper in its error boundary (the fragment reruns this alone while playing)."""
    boundary.section("steps", stepper, res)


def page():
    st.title(t("growth.title"))
    try:
        res = model.current_model()
    except TrainingError:
        res = None
    if res is None or state.data() is None:
        st.info(t("growth.no_model"))
        if not report_mode.active():
            st.page_link("pages/train.py", label=t("nav.train"), icon=":material/account_tree:")
        return
    res, current = S.model_for_steps(res)
    if res is None:
        st.info(t("growth.no_model"))
        return
    if not current:
        st.info(t("growth.no_history"))
    st.caption(t("growth.intro", rule=t("growth.rule." + res.estimator.build_rule_)))
    splits, prunes = G.n_steps(res.estimator)
    S.prepare_step(res, splits + prunes)
    clock = S.PLAY_STEP_MS / 1000 if S.playing() and not server_draws() else None
    st.fragment(guarded_stepper, run_every=clock)(res)


run_page(page)  # through app.py's frame on a fresh server, then the URL (ui/state/frame.py)
