"""The Compare page's session side: the chosen algorithms (kept per task) and the comparison,
cached per data, roles, task, algorithms and row split, run in a heavy-job slot."""

from __future__ import annotations

import streamlit as st

from dtcore.analysis.compare import CV_FOLDS, Comparison
from dtcore.progress import Progress, reporting
from ui.sections.cv_switch import cv_asked
from ui.services import compare as service
from ui.services.training import Split
from ui.state.jobs import ProgressBar, heavy_job
from ui.state.model import fit_text, wait_notice
from ui.state.state import current_data, data, roles, split, t, task
from ui.views.compare import label

KEY = "compare_algos"
CV_KEY = "compare_ask_cv"


@st.cache_resource(max_entries=8, show_spinner=False)
def _cached(
    digest: str,
    roles_key: tuple,
    task: str,
    keys: tuple,
    split_key: tuple,
    model_key: tuple,
    cv: int,
    _df,
    _on_wait=None,
    _progress=None,
):
    extra = None
    if model_key:
        extra = {service.MODEL: (model_key[0], model_key[1], dict(model_key[2]))}
    # a heavy job on a cache miss only; its bars' reports and dtcore's checkpoints are where an
    # abandoned or superseded comparison stops (ui/state/jobs.py)
    with heavy_job(_on_wait, kind="compare"), reporting(_progress):
        return service.run(_df, dict(roles_key), task, list(keys), Split(*split_key), extra, cv)


@st.cache_resource(max_entries=8, show_spinner=False)
def _plan(digest: str, roles_key: tuple, task: str, split_key: tuple, _df) -> service.Plan:
    return service.plan(_df, dict(roles_key), task, Split(*split_key))


def plan() -> service.Plan:
    """The comparison's :class:`~ui.services.compare.Plan` on the current data and split
    (TrainingError propagates)."""
    d, sp = current_data(), split()
    return _plan(d.digest, tuple(roles().items()), task(), (sp.valid, sp.test, sp.seed, sp.column), _df=d.df)


def model_settings() -> tuple | None:
    """(label, algorithm, parameters as sorted items) of the Train & tree model, when there is
    one for the current data and task: a contender of its own."""
    from ui.state.model import base_result

    res, d = base_result(), data()
    if res is None or res.task != task() or d is None or res.key[0] != d.digest:
        return None
    return (f"{res.algorithm} (Train & tree)", res.algorithm, tuple(sorted(res.params.items())))


def prepare_choice(p: service.Plan, settings: tuple | None = None) -> tuple[str, ...]:
    """The options for this task (and the Train & tree model's settings when there is a model);
    the chosen algorithms start at the plan's defaults (and again when the task or data change)."""
    options = service.CHOICES[task()] + ((service.MODEL,) if settings else ())
    marker = (task(), current_data().digest)
    if st.session_state.get("_compare_task") != marker or KEY not in st.session_state:
        st.session_state["_compare_task"] = marker
        st.session_state[KEY] = p.defaults(task())
    else:  # a choice no longer offered (the model's settings without a model) is dropped
        st.session_state[KEY] = [k for k in st.session_state[KEY] if k in options]
    return options


def folds(p: service.Plan) -> int:
    """The cross-validation folds to run: :data:`CV_FOLDS`, on a large table only when asked."""
    return CV_FOLDS if cv_asked(CV_KEY, CV_FOLDS, p.n_train) else 0


def comparison(keys: list[str], settings: tuple | None = None, cv: int = 5) -> Comparison:
    """The comparison of ``keys`` on the current data and split with ``cv`` folds;
    TrainingError propagates."""
    d, sp = current_data(), split()
    notice = wait_notice("compare")
    bar = progress_bar(keys, settings)
    try:
        return _cached(
            d.digest,
            tuple(roles().items()),
            task(),
            tuple(keys),
            (sp.valid, sp.test, sp.seed, sp.column),
            settings if settings and service.MODEL in keys else (),
            cv,
            _df=d.df,
            _on_wait=notice,
            _progress=bar,
        )
    finally:
        notice.clear()
        bar.clear()


def progress_bar(keys: list[str], settings: tuple | None = None) -> ProgressBar:
    """Two bars: the comparison's fits done (each contender on the training rows, then on each
    fold), and the current fit's growth."""
    algorithm = settings[1] if settings else None

    def part(p: Progress) -> str:
        key, _, fold = p.label.partition("/")
        name = label(key, t, algorithm) if key else ""
        if fold:
            return t("progress.compare_fold", algo=name, fold=int(fold) + 1)
        return t("progress.compare_fit", algo=name) if name else t("progress.compare_end")

    def job(p: Progress) -> str:
        return t("progress.compare", done=int(p.done), total=int(p.total), part=part(p))

    def detail(outer: Progress, inner: Progress | None) -> str:
        return fit_text(inner) if inner is not None else part(outer)

    return ProgressBar(job, stages=("compare",), detail=detail)


def focus(c: Comparison, key: str, node: int) -> dict[str, int | None]:
    """The node the same training rows reach in every tree (``service.focus``)."""
    return service.focus(c, current_data().df, roles(), key, node)


def prepare_focus(nodes: list[int], lead: str) -> None:
    """The focus selector forgets a node of another lead tree (or one it no longer has)."""
    if (
        st.session_state.get("_compare_focus_lead") != lead
        or st.session_state.get("compare_focus") not in nodes
    ):
        st.session_state["compare_focus"] = None
    st.session_state["_compare_focus_lead"] = lead
