"""The current model in session state: training (cached), the splits forced on it, and the
model a page opened straight from a link trains from the URL's settings."""

from __future__ import annotations

import json

import streamlit as st

from dtcore.explain.records import jsonable
from dtcore.progress import Progress, reporting
from dtcore.routing import SplitTest
from ui.services import roles as R
from ui.services.forcing import apply_forced
from ui.services.loading import raw_rows
from ui.services.metrics import RegressionPoints, regression_points
from ui.services.training import (
    Split,
    TrainingError,
    TrainingKey,
    TrainResult,
    algorithms_for,
    supported_params,
    train,
)

from . import jobs, large_data, opened, url
from .jobs import ProgressBar, WaitNotice, heavy_job
from .state import current_data, data, roles, split, t, task
from .url import criterion_key, param_key, setting


def result() -> TrainResult | None:
    """The current model, with the user's forced splits (Splits page) applied when there are."""
    res = st.session_state.get("result")
    ops = forced_ops(res)
    if res is None or not ops:
        return res
    sig = (res.key, repr(ops))
    cached = st.session_state.get("_forced_result")
    if cached is None or cached[0] != sig:
        out, nodes = apply_forced(res, current_data().df, ops)
        cached = st.session_state["_forced_result"] = (sig, out, nodes)
    return cached[1]


def base_result() -> TrainResult | None:
    """The trained model without forced splits (an opened model file while one is open)."""
    if opened.opened() is not None:
        return opened.result()
    return st.session_state.get("result")


# forced splits: [(node, test), …] for the trained model whose key they carry (another model,
# e.g. after retraining with new settings, starts with none)


def forced_ops(res=None) -> list:
    res = st.session_state.get("result") if res is None else res
    forced = st.session_state.get("forced")
    if opened.opened() is not None:  # an opened model file: the trained model's forced splits are not on it
        return []
    if res is None or not forced or forced.get("key") != res.key:
        return []
    return list(forced["ops"])


def forced_nodes() -> list[int]:
    """Node ids of the forced tests in the current tree (to highlight them)."""
    if not forced_ops():
        return []
    result()
    return list(st.session_state["_forced_result"][2])


def push_forced(node: int, test: dict) -> None:
    res = st.session_state.get("result")
    if res is None or opened.opened() is not None:  # no trained model to force a split on
        return
    st.session_state["forced"] = {"key": res.key, "ops": forced_ops(res) + [(int(node), test)]}


def pop_forced() -> None:
    res = st.session_state.get("result")
    if res is None:  # no model, so no forced split to undo
        return
    ops = forced_ops(res)
    st.session_state["forced"] = {"key": res.key, "ops": ops[:-1]}


@st.cache_resource(max_entries=32, show_spinner=False)
def _train_cached(
    digest: str,
    roles_key: tuple,
    task: str,
    algorithm: str,
    criterion: str,
    values_key: tuple,
    split_key: tuple,
    _df,
    _on_wait=None,
    _progress=None,
) -> TrainResult:
    # cache_resource: the estimator is returned as is (never pickled); nothing mutates it later.
    # The heavy-job slot is taken here, on a cache miss only: a cache hit never waits. The
    # progress bar's redraws are where a superseded or abandoned run stops (ui/state/jobs.py).
    with heavy_job(_on_wait), reporting(_progress or _ignore):
        res = train(_df, dict(roles_key), task, algorithm, criterion, dict(values_key), Split(*split_key))
    res.key = (digest, roles_key, task, algorithm, criterion, values_key, split_key)
    return res


def _ignore(_progress: Progress) -> None:
    pass


def fit_text(p: Progress) -> str:
    """A fit's bar: how many training rows have reached a leaf, nodes, depth."""
    if p.total == p.done or p.stage != "grow":
        return t("progress.finishing", nodes=f"{p.nodes:,}")
    if p.depth:
        return t("progress.grow_rows", share=f"{p.fraction:.0%}", nodes=f"{p.nodes:,}", depth=p.depth)
    return t("progress.grow", nodes=f"{p.nodes:,}")


def progress_bar() -> ProgressBar:
    """The bar a long fit shows (``fit_text``)."""
    return ProgressBar(fit_text)


def wait_notice(kind: str = "train") -> WaitNotice:
    """The notice a session shows while other sessions' heavy jobs hold the slots."""
    return jobs.wait_notice(kind)


def training_key(algorithm: str, criterion: str, values: dict) -> TrainingKey:
    d = current_data()
    sp = split()
    return (
        d.digest,
        tuple(roles().items()),
        task(),
        algorithm,
        criterion,
        tuple(sorted(values.items())),
        (sp.valid, sp.test, sp.seed, sp.column),
    )


def train_current(algorithm: str, criterion: str, values: dict) -> TrainResult:
    """Train (or fetch from the cache) and remember the result; TrainingError propagates."""
    key = training_key(algorithm, criterion, values)
    if large_data.source() is not None:  # Parquet on the server: CART on Dask, every row
        res = large_data.train(key)
    else:
        notice, bar = wait_notice(), progress_bar()
        try:
            res = _train_cached(*key, _df=current_data().df, _on_wait=notice, _progress=bar)
        finally:
            notice.clear()
            bar.clear()
    st.session_state["result"] = res
    st.session_state.pop("train_error", None)
    adopt_linked_forced(res)
    return res


def url_extras() -> dict[str, str]:
    """The URL's values beyond the widget settings (``url.EXTRA_KEYS``): the forced splits of
    the current model, compact JSON; the uploaded file's name (the receiver is told to upload it)."""
    out = {}
    ops = forced_ops()
    if ops:
        out["forced"] = json.dumps(
            [[int(n), jsonable(test)] for n, test in ops], separators=(",", ":"), ensure_ascii=False
        )
    d = data()
    if d is not None and d.source == "upload":
        out["upload"] = d.name
    src = large_data.source()
    if src is not None:  # the files on the server: a link opens the same pattern
        out["large"] = src.pattern
    om = st.session_state.get("opened_model")
    if om is not None:  # an opened model file: the receiver is told which file to open again
        out["model"] = om.name
    return out


def adopt_linked_forced(res: TrainResult) -> None:
    """A link's forced splits, applied to the first model trained after it opened: kept when
    they replay on this tree, else dropped with a warning naming the value."""
    text = url.pending("forced")
    if text is None:
        return
    url.done("forced")
    try:
        ops = [(int(n), SplitTest.from_dict(test)) for n, test in json.loads(text)]
        apply_forced(res, current_data().df, ops)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        st.warning(t("url.bad_forced", value=text[:80]), icon=":material/link_off:")
        return
    st.session_state["forced"] = {"key": res.key, "ops": ops}


def user_trained() -> bool:
    """Whether the user pressed Train in this session (the welcome notice goes away then)."""
    return bool(st.session_state.get("user_trained"))


def settled_model(algorithm: str, criterion: str, values: dict, submitted: bool = False) -> TrainResult:
    """The model of these settings: the current one when it was trained with them, else trained
    now (first visit, new data, Train pressed). TrainingError propagates; the old model is then
    forgotten."""
    if submitted:
        st.session_state["user_trained"] = True
    res = result()
    if res is not None and res.key == training_key(algorithm, criterion, values):
        return res
    try:
        with st.spinner(t("train.running"), show_time=True):
            trained = train_current(algorithm, criterion, values)
        return result() or trained  # with the splits a link forced on it, if any
    except TrainingError:
        st.session_state.pop("result", None)
        raise


def current_model() -> TrainResult | None:
    """The current model (an opened model file while one is open, on the data when they fit);
    a link opened straight on a page that needs one (the Train page not visited) trains it
    from the URL's settings. None without data or with role errors;
    TrainingError propagates."""
    if opened.opened() is not None:  # a model file opened on the Data page: it, on the data
        return opened.result()
    res = result()
    d = data()
    if res is not None or d is None or R.errors(d.df, roles(), task()):
        return res
    tk = task()
    algos = algorithms_for(tk)
    algo = setting("algo") if setting("algo") in algos else algos[0]
    criterion = setting(criterion_key(algo, tk))
    values = {p.name: setting(param_key(algo, p.name)) for p in supported_params(algo, tk)}
    with st.spinner(t("train.running"), show_time=True):
        train_current(algo, criterion, values)
    return result()


@st.cache_data(max_entries=16, show_spinner=False)
def _regression_points(key, split_name: str, _res, _df) -> RegressionPoints:
    idx = _res.rows[split_name]
    return regression_points(
        _res.estimator, raw_rows(_df, _res.features)[idx], _df[_res.target].to_numpy(dtype=object)[idx]
    )


def regression_points_for(res: TrainResult, split_name: str) -> RegressionPoints:
    """True values, predictions and leaves of a regression model on one row split (cached per
    model, forced splits and split)."""
    return _regression_points((res.key, repr(forced_ops())), split_name, res, current_data().df)
