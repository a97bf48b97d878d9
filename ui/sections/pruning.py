"""The Pruning page's session side: its Streamlit caches of pruning runs and curves (keyed on the
model's training key and the splits forced on it) and the α setting its buttons and path snap."""

from __future__ import annotations

import streamlit as st

from dtcore.progress import Progress, reporting
from ui.services import pruning as pv
from ui.state.jobs import ProgressBar, heavy_job
from ui.state.model import fit_text, forced_ops, wait_notice
from ui.state.state import t


@st.cache_data(max_entries=64, show_spinner=False)
def _prune(key, method, alpha, cf, on_tie, _res, _df, _on_wait=None):
    # EBP's subtree raising and REP on a big tree take seconds: a heavy job on a cache miss only
    with heavy_job(_on_wait, kind="prune"):
        sets = pv.encoded_sets(_res, _df)
        return pv.run_prune(_res, sets, method, alpha=alpha, cf=cf, on_tie=on_tie, forced=bool(key[1]))


def cached_prune(key, method, alpha, cf, res, df, on_tie="prune"):
    """The pruning run (cached); JobTimeout (a TrainingError) when no heavy-job slot came free.
    ``on_tie``: REP's tie rule (the other methods ignore it)."""
    return _with_wait_notice(
        "prune", _prune, key, method, alpha, cf, on_tie if method == "rep" else "prune", res, df
    )


@st.cache_data(max_entries=32, show_spinner=False)
def cached_alpha_values(key, _res):
    return pv.alpha_values(pv.grown_tree(_res.estimator, forced=bool(key[1])))


@st.cache_data(max_entries=32, show_spinner=False)
def _alpha_curves(key, cv, one_se, _res, _df, _on_wait=None, _progress=None):
    # the cross-validation regrows the tree per fold: a heavy job (slot taken on a cache miss only);
    # a bar says which fold is growing, and its redraws are where an abandoned run stops
    with heavy_job(_on_wait, kind="cv"), reporting(_progress or _quiet):
        return pv.alpha_curves(
            _res, pv.encoded_sets(_res, _df), cv_folds=cv, one_se=one_se, forced=bool(key[1])
        )


def cached_alpha_curves(key, cv, one_se, res, df):
    """The α curves (cached); JobTimeout (a TrainingError) when no heavy-job slot came free."""
    bar = ProgressBar(
        lambda p: t("progress.fold", fold=int(p.done) + 1, folds=int(p.total)),
        stages=("cv",),
        detail=lambda outer, inner: fit_text(inner) if inner is not None else "",
    )
    try:
        return _with_wait_notice("cv", _alpha_curves, key, cv, one_se, res, df, _progress=bar)
    finally:
        bar.clear()


def _quiet(_progress: Progress) -> None:
    pass


@st.cache_data(max_entries=32, show_spinner=False)
def _cf_curves(key, _res, _df, _on_wait=None, _progress=None):
    # one EBP run per CF on the grid: a heavy job on a cache miss only, a bar per CF
    with heavy_job(_on_wait, kind="cf"), reporting(_progress or _quiet):
        return pv.cf_curves(_res, pv.encoded_sets(_res, _df), forced=bool(key[1]))


def cached_cf_curves(key, res, df):
    """The CF curves (cached); JobTimeout (a TrainingError) when no heavy-job slot came free."""
    bar = ProgressBar(lambda p: t("progress.cf", cf=p.label, done=int(p.done) + 1, total=int(p.total)))
    try:
        return _with_wait_notice("cf", _cf_curves, key, res, df, _progress=bar)
    finally:
        bar.clear()


def _with_wait_notice(kind, cached, *args, **kwargs):
    """Call a cached heavy function with the waiting notice, removed once it returns."""
    notice = wait_notice(kind)
    try:
        return cached(*args, _on_wait=notice, **kwargs)
    finally:
        notice.clear()


def model_key(res):
    """Cache key of the current model: its training key and the splits forced on it."""
    ops = forced_ops()
    return (res.key, bool(ops), repr(ops))


def set_alpha(value):
    st.session_state["prune_alpha"] = value


def snap_alpha_setting(values) -> None:
    """The α setting (from the URL or another model) moved onto a value of this tree's path."""
    st.session_state["prune_alpha"] = pv.snap_alpha(float(st.session_state["prune_alpha"]), values)
