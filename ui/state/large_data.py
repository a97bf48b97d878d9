"""The large-data source in a session (``ui.services.large_data`` does the work): the source of
the current data, opening one (the Data page's Open button, a link), the Dask fit, the page gate.

* :func:`source`: the large source of the current data; :func:`on_open` (the Open button's
  callback) and :func:`adopt_link` (a link's ``large`` pattern) open one.
* Train page: :func:`train` (called by ``ui.state.model.train_current``) fits CART with the
  histogram splitter on Dask, cached like any model, with a "levels done / depth" progress bar.
* The other pages (:func:`page_gate`, called by the frame): the Growth, Splits and Pruning pages
  work on the sample and say so; the Compare page (other algorithms, trained in memory) is not
  available for large data.

The Data page's box and notes and the Train page's message are ``ui.sections.large_data``'s.

The Dask client is made once per server process (``st.cache_resource``): a ``LocalCluster`` of
``DTREE_DASK_WORKERS`` (default 2) worker processes, or the scheduler at ``DTREE_DASK_SCHEDULER``;
started in the background (:func:`warm_up`) on the first page a server offering large data draws.
"""

from __future__ import annotations

import contextlib
import threading

import streamlit as st

from dtcore.progress import report, reporting
from ui.services import large_data as L
from ui.services.loading import LoadError
from ui.services.training import TrainingError, TrainingKey, TrainResult
from ui.views.text import md_escape, sentence

from . import url
from .jobs import ProgressBar, heavy_job, wait_notice
from .state import current_data, data, set_data, t
from .url import param_key

#: pages drawn from the full data's model; the others: page_gate
FULL_DATA_PAGES = ("pages/data.py", "pages/train.py")


def source() -> L.LargeSource | None:
    """The large source of the current data (None: the data are a sample file or an upload)."""
    d = data()
    src = st.session_state.get("large_source")
    if d is None or d.source != L.SOURCE or src is None or src.digest != d.digest:
        return None
    return src


# ---------------------------------------------------------------------------------------------
# opening a source


def on_open() -> None:
    """The Open button (a callback: it runs before any widget of the run exists, so the sample
    selector and the Train page's settings can be set here)."""
    pattern = str(st.session_state.get("large_pattern") or "")
    failure = _open(pattern)
    if failure is not None:  # the previous data stay
        st.session_state["large_error"] = (pattern.strip(), *failure)
    else:
        st.session_state.pop("large_error", None)


def _open(pattern: str, keep: set[str] | frozenset[str] = frozenset()) -> tuple[str, dict] | None:
    """Open ``pattern`` as the current data, with the settings large data start with (except
    those in ``keep``, which a link set); (catalogue key, values) of the failure, else None."""
    root = L.configured_root()
    if root is None:
        return ("large.err.off", {})
    try:
        src, loaded = L.open_source(pattern, root)
    except LoadError as exc:
        return (exc.key, exc.params)
    st.session_state.pop("load_error", None)
    set_data(loaded)
    st.session_state["large_source"] = src
    st.session_state["large_pattern"] = src.pattern
    st.session_state["sample"] = None  # no bundled sample is loaded
    st.session_state["upload_version"] = st.session_state.get("upload_version", 0) + 1
    st.session_state["upload_depth_default"] = None
    # Dask grows CART with histograms, every row in training, depth-limited to start with
    starts = {
        "algo": "cart",
        param_key("cart", "splitter"): "hist",
        param_key("cart", "max_depth"): L.DEFAULT_DEPTH,
        param_key("cart", "max_leaf_nodes"): 0,
        "valid": 0,
        "test": 0,
        "split_column": "",
    }
    for key, value in starts.items():
        if key not in keep:
            st.session_state[key] = value
    return None


def adopt_link() -> None:
    """A link made on large data (URL key ``large``: the pattern) opens the same files here,
    once, keeping the settings the link carries; a warning when it cannot."""
    pattern = url.pending("large")
    if pattern is None:
        return
    url.done("large")
    src = source()
    if src is not None and src.pattern == pattern:
        return
    failure = _open(pattern, keep=set(st.query_params))
    if failure is not None:
        st.warning(
            t("large.link_failed", pattern=md_escape(pattern), message=failure_text(*failure)),
            icon=":material/link_off:",
        )


def failure_text(key: str, params: dict) -> str:
    """A refusal's catalogue message with its values (paths: user text) escaped, as a sentence."""
    return sentence(t(key, **{k: md_escape(str(v)) for k, v in params.items()}))


# ---------------------------------------------------------------------------------------------
# training


@st.cache_resource(show_spinner=False)
def _client_box(scheduler: str | None, workers: int) -> list:
    # in a list: a Client is awaitable, which Streamlit would take for an async function's result
    return [L.start_client(scheduler, workers)]


def _client(scheduler: str | None, workers: int):
    return _client_box(scheduler, workers)[0]


_warm_lock = threading.Lock()
_warm_started: set[tuple[str | None, int]] = set()


def warm_up() -> None:
    """Start the server's Dask client in the background, once per server process (and cluster),
    when the server offers large data (``DTREE_LARGE_DATA_DIR`` names a folder): called after
    each page is drawn and by the Data page's large-data box, so that the local cluster's worker
    processes are up, the engine imported in them, by the time a user has named files and
    trains (the fit waits for a start still under way: ``st.cache_resource`` computes a value
    once)."""
    if L.configured_root() is None:
        return
    key = (L.scheduler_address(), L.worker_count())
    with _warm_lock:
        if key in _warm_started:
            return
        _warm_started.add(key)
    threading.Thread(target=_start_quietly, args=key, name="dtree-dask-warm-up", daemon=True).start()


def _start_quietly(address: str | None, workers: int) -> None:
    # a failure is not cached: the fit starts the client again and says what failed
    with contextlib.suppress(Exception):
        _client(address, workers)


def dask_client():
    """The server process's Dask client (made on first use; made again if it has closed)."""
    workers, address = L.worker_count(), L.scheduler_address()
    try:
        client = _client(address, workers)
        if client.status not in ("running", "connecting"):
            _client_box.clear()
            client = _client(address, workers)
    except (OSError, TimeoutError) as exc:
        raise TrainingError("large.err.cluster", detail=str(exc)[:300]) from None
    return client


@st.cache_resource(max_entries=8, show_spinner=False)
def _fit_cached(
    digest: str,
    roles_key: tuple,
    task_name: str,
    algorithm: str,
    criterion: str,
    values_key: tuple,
    split_key: tuple,
    _src=None,
    _df=None,
    _on_wait=None,
    _progress=None,
) -> TrainResult:
    values = dict(values_key)
    depth = int(values.get("max_depth") or 0)

    def on_level(done: int) -> None:  # a stop point too (ui/state/jobs.py)
        report("grow", done, depth or done + 1, depth=done)

    with heavy_job(_on_wait, kind="large"), reporting(_progress):
        if _progress is not None:
            _progress.start()
        client = dask_client() if algorithm == "cart" else None
        res = L.fit_large(
            _src, _df, dict(roles_key), task_name, algorithm, criterion, values, client, on_level
        )
    res.key = (digest, roles_key, task_name, algorithm, criterion, values_key, split_key)
    return res


class LevelBar(ProgressBar):
    """The bar of a Dask fit: levels grown of the depth limit, shown from the start (the pass that
    bins every feature comes before the first level and takes a while on many rows)."""

    def __init__(self, depth: int, src: L.LargeSource | None):
        super().__init__(lambda p: t("large.progress", done=p.depth, depth=depth if depth else "—"))
        self._first = (
            t("large.progress_start", rows=f"{src.rows:,}", files=src.n_files) if src is not None else ""
        )

    def start(self) -> None:
        self._show(lambda slot: slot.progress(0.0, text=self._first))


def train(key: TrainingKey) -> TrainResult:
    """Fit (or fetch from the cache) the model of ``key`` (``model.training_key``) on Dask."""
    src = source()
    values = dict(key[5])
    notice = wait_notice("large")
    bar = LevelBar(int(values.get("max_depth") or 0), src)
    try:
        return _fit_cached(*key, _src=src, _df=current_data().df, _on_wait=notice, _progress=bar)
    finally:
        notice.clear()
        bar.clear()


#: what each page does with large data: works on the sample (its own words), or is not available
SAMPLE_PAGES = {
    "pages/growth.py": "large.page.growth",
    "pages/splits.py": "large.page.splits",
    "pages/prune.py": "large.page.prune",
}
UNAVAILABLE_PAGES = {"pages/compare.py": "nav.compare"}


def page_gate(path: str) -> bool:
    """Before a page (called by the frame): a link's large data are opened (:func:`adopt_link`);
    with large data, a page that needs rows in memory
    says that it works on the sample; a page that cannot is replaced by a notice (False: do not
    draw the page). Every page is listed in one of the tables above or in FULL_DATA_PAGES."""
    adopt_link()
    src = source()
    if src is None or path in FULL_DATA_PAGES:
        return True
    values = {"shown": f"{src.sample_rows:,}", "rows": f"{src.rows:,}", "files": src.n_files}
    if path in UNAVAILABLE_PAGES:
        st.title(t(UNAVAILABLE_PAGES[path]))
        st.info(t("large.page.unavailable", **values), icon=":material/database:")
        st.page_link("pages/train.py", label=t("nav.train"), icon=":material/account_tree:")
        return False
    st.info(t(SAMPLE_PAGES.get(path, "large.page.sample"), **values), icon=":material/database:")
    return True
