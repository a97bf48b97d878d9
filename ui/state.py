"""Session state shared by every page, and the settings that travel in the URL.

Two kinds of state:

* **Non-widget keys** (``data``, ``roles``, ``task``, ``result``…) hold what must survive page
  switches and errors: the loaded table, its typing, the fitted model. Pages read them through
  the helpers below and never create widgets with these keys.
* **URL-bound widget keys** (:func:`url_defaults`) define a view: language, sample, split,
  algorithm, criterion, limits, shown levels, selected node. The frame seeds them from the URL
  once per session (:func:`seed_from_url`) and writes them back after every run
  (:func:`write_url`), so the address bar can be copied and reopened. Their widgets keep their
  value across page switches (``persist_state="session"``); a page that needs one whose widget
  is on another page reads it with :func:`setting`.
"""
from __future__ import annotations

import streamlit as st

from . import i18n
from . import roles as R
from .loading import LoadedData, load_sample, sample_catalogue
from .training import ALGORITHMS, PARAMS, Split, TrainResult, criteria, train

DEFAULT_SAMPLE = "watermelon_3.0"
DEFAULT_ALGORITHM = "c45"

#: widgets that define a view keep their value across page switches (see module docstring)
KEEP = {"persist_state": "session"}
#: the Splits page's feature selector; its URL value is a feature name, taken as text
FEATURE_KEY = "split_feature"


# ---------------------------------------------------------------------------------------------
# URL binding
#
# Streamlit's own ``bind="query-params"`` stores a selectbox's *displayed* text in the URL, which
# changes with the language; here the URL holds stable ids ("c45", "iris", "gini") instead.

def criterion_key(algorithm: str, task: str) -> str:
    return f"{algorithm}_criterion" if task == R.CLASSIFICATION else f"{algorithm}_reg_criterion"


def param_key(algorithm: str, name: str) -> str:
    return f"{algorithm}_{name}"


def url_defaults() -> dict:
    """Every URL-bound key with its default value (the type of the default is the key's type)."""
    d = {"lang": i18n.DEFAULT_LANG, "sample": DEFAULT_SAMPLE, "valid": 0, "test": 0, "seed": 0,
         "algo": DEFAULT_ALGORITHM, "levels": "auto", "layout": "auto", "collapse": [], "node": None}
    # Pruning page: method, CCP's α / CV folds / 1-SE rule, EBP's confidence factor, the trees' layout
    d.update({"prune_method": "ebp", "prune_alpha": 0.0, "prune_cv": 10, "prune_one_se": True,
              "prune_cf": 0.25, "prune_arrange": "side", "prune_levels": "auto"})
    # Splits page: the charted feature by name ("" = the algorithm's choice at the node)
    d[FEATURE_KEY] = ""
    for algo in ALGORITHMS:
        for task_name in (R.CLASSIFICATION, R.REGRESSION):
            crits = criteria(algo, task_name)
            if crits:
                d[criterion_key(algo, task_name)] = crits[0]
        for p in PARAMS[algo]:
            d[param_key(algo, p.name)] = p.default
    return d


def encode_url_value(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def decode_url_value(text: str, default):
    """URL text → a value of the default's type; ValueError when it does not parse.
    A default of "" marks free text (a feature name, which may look like a number)."""
    if default == "":
        return text
    if isinstance(default, bool):
        if text not in ("1", "0", "true", "false"):
            raise ValueError(text)
        return text in ("1", "true")
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    if isinstance(default, list):
        return [int(v) for v in text.split(",") if v.strip()]
    if default is None:          # node id
        return int(text)
    if text.isdigit():           # levels: "auto", "all" or a number
        return int(text)
    return text


def seed_from_url() -> None:
    """Once per session, before any widget: copy the URL's settings into session state."""
    if st.session_state.get("_url_seeded"):
        return
    st.session_state["_url_seeded"] = True
    defaults = url_defaults()
    for key in st.query_params:
        if key not in defaults:
            continue
        try:
            st.session_state[key] = decode_url_value(st.query_params[key], defaults[key])
        except ValueError:
            continue


def url_params(session) -> dict[str, str]:
    """The query parameters for a session's settings: those that differ from their defaults."""
    want = {}
    for key, default in url_defaults().items():
        if key in session:
            value = session[key]
            if value != default and value is not None and value != []:
                want[key] = encode_url_value(value)
    return want


def write_url() -> None:
    """After the page ran: the URL shows every bound setting that differs from its default."""
    defaults = url_defaults()
    want = url_params(st.session_state)
    current = {k: st.query_params[k] for k in st.query_params}
    for key in [k for k in current if k in defaults and k not in want]:
        del st.query_params[key]
    for key, text in want.items():
        if current.get(key) != text:
            st.query_params[key] = text


def fixed_labels(options, label):
    """A widget's ``format_func`` whose labels are computed now, during the run.

    Streamlit (and AppTest, between runs) may call ``format_func`` outside the script run, where
    session state, and so the language, cannot be read: a label computed lazily then comes out
    English while the widget drew Chinese options (AppTest: "'auto (all)' is not in list").
    Options stay stable ids; only their labels are frozen in this run's language."""
    table = {o: label(o) for o in options}
    return lambda v: table[v] if v in table else str(v)


def default(key: str) -> None:
    """Give a URL-bound widget its default before it is drawn (widgets take no value= argument,
    so a value from the URL or an earlier page never clashes with a default)."""
    if key not in st.session_state:
        st.session_state[key] = url_defaults()[key]


# ---------------------------------------------------------------------------------------------
# the frame

def require_frame(page: str) -> None:
    """Run a page only inside app.py's frame.

    Until some session has run app.py (which calls ``st.navigation``), Streamlit serves a
    ``pages/`` folder the legacy way: a shared link to ``/data`` on a freshly started server would
    run pages/data.py alone, without the sidebar, defaults or URL seeding. Detour through the frame
    and let it come back here.
    """
    if not st.session_state.get("_frame"):
        st.session_state["_want_page"] = page
        st.switch_page("app.py", query_params={k: st.query_params[k] for k in st.query_params})


def enter_frame(pages: dict) -> None:
    """Called by app.py after ``st.navigation``: mark the frame, finish a detour from a page."""
    st.session_state["_frame"] = True
    wanted = st.session_state.pop("_want_page", None)
    if wanted in pages:
        st.switch_page(pages[wanted], query_params={k: st.query_params[k] for k in st.query_params})


# ---------------------------------------------------------------------------------------------
# language

def lang() -> str:
    value = st.session_state.get("lang", i18n.DEFAULT_LANG)
    return value if value in i18n.LANGS else i18n.DEFAULT_LANG


def on_language_change() -> None:
    """Selectboxes show translated labels, and the browser reports a selection by its label: on
    the rerun after a language switch those labels are stale. Writing each view setting back to
    session state here (where the old labels still decode) makes the new run keep every value."""
    for key in [*url_defaults(), "cm_split"]:
        if key != "lang" and key in st.session_state:
            st.session_state[key] = st.session_state[key]
    # the Data page's target/task widgets are keyed by this version: a new version, fresh widgets
    st.session_state["roles_version"] = st.session_state.get("roles_version", 0) + 1


def t(key: str, **values) -> str:
    return i18n.translate(key, lang(), **values)


def setting(key: str):
    """A URL-bound setting wherever its widget is drawn: session state, else the default."""
    value = st.session_state.get(key)
    return url_defaults()[key] if value is None else value


def split() -> Split:
    return Split(valid=int(setting("valid")), test=int(setting("test")), seed=int(setting("seed")))


# ---------------------------------------------------------------------------------------------
# data

def data() -> LoadedData | None:
    return st.session_state.get("data")


def set_data(loaded: LoadedData, target: str | None = None, ignore=(), reset_view: bool = True) -> None:
    """Make ``loaded`` the current data with fresh default roles; forget the old model.

    ``reset_view``: forget the selected node and folded subtrees (not when the URL set them).
    """
    st.session_state["data"] = loaded
    roles = R.infer_roles(loaded.df, target, ignore, loaded.declared_kinds)
    st.session_state["roles"] = roles
    tgt = R.target_of(roles)
    st.session_state["task"] = R.infer_task(loaded.df, tgt) if tgt else R.CLASSIFICATION
    st.session_state["roles_version"] = st.session_state.get("roles_version", 0) + 1
    st.session_state.pop("result", None)
    st.session_state.pop("train_error", None)
    if reset_view:
        st.session_state["node"] = None
        st.session_state["collapse"] = []


def load_sample_into_state(sample_id: str, set_split: bool = True) -> None:
    sample = sample_catalogue()[sample_id]
    set_data(load_sample(sample_id), sample.target, sample.ignore)
    if set_split:
        st.session_state["valid"], st.session_state["test"] = sample.valid, sample.test


def ensure_data() -> None:
    """First run of a session: load the sample the URL names (or the default one)."""
    if "data" in st.session_state:
        return
    catalogue = sample_catalogue()
    sample_id = setting("sample")
    if sample_id not in catalogue:
        sample_id = st.session_state["sample"] = DEFAULT_SAMPLE
    # keep split values the URL carries; otherwise use the sample's own default
    sample = catalogue[sample_id]
    set_data(load_sample(sample_id), sample.target, sample.ignore, reset_view=False)
    for key, value in (("valid", sample.valid), ("test", sample.test)):
        if key not in st.session_state:  # the URL did not set it
            st.session_state[key] = value


def data_title(loaded: LoadedData) -> str:
    """A sample's title in the current language, an upload's file name."""
    if loaded.source == "sample":
        sample = sample_catalogue().get(loaded.name)
        if sample is not None:
            return sample.title(lang())
    return loaded.name


def target() -> str | None:
    return R.target_of(roles())


def roles() -> dict[str, str]:
    return st.session_state.get("roles", {})


def set_roles(new_roles: dict[str, str]) -> None:
    old_target = R.target_of(roles())
    st.session_state["roles"] = new_roles
    tgt = R.target_of(new_roles)
    if tgt and tgt != old_target:
        st.session_state["task"] = R.infer_task(data().df, tgt)


def task() -> str:
    return st.session_state.get("task", R.CLASSIFICATION)


# ---------------------------------------------------------------------------------------------
# the model

def result() -> TrainResult | None:
    """The current model, with the user's forced splits (Splits page) applied when there are."""
    res = st.session_state.get("result")
    ops = forced_ops(res)
    if res is None or not ops:
        return res
    sig = (res.key, repr(ops))
    cached = st.session_state.get("_forced_result")
    if cached is None or cached[0] != sig:
        from .forced import apply_forced
        out, nodes = apply_forced(res, data().df, ops)
        cached = st.session_state["_forced_result"] = (sig, out, nodes)
    return cached[1]


def base_result() -> TrainResult | None:
    """The trained model without forced splits."""
    return st.session_state.get("result")


# forced splits: [(node, test), …] for the trained model whose key they carry (another model,
# e.g. after retraining with new settings, starts with none)

def forced_ops(res=None) -> list:
    res = st.session_state.get("result") if res is None else res
    forced = st.session_state.get("forced")
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
    st.session_state["forced"] = {"key": res.key, "ops": forced_ops(res) + [(int(node), test)]}


def pop_forced() -> None:
    res = st.session_state.get("result")
    ops = forced_ops(res)
    st.session_state["forced"] = {"key": res.key, "ops": ops[:-1]}


@st.cache_resource(max_entries=32, show_spinner=False)
def _train_cached(digest: str, roles_key: tuple, task: str, algorithm: str, criterion: str,
                  values_key: tuple, split_key: tuple, _df) -> TrainResult:
    # cache_resource: the estimator is returned as is (never pickled); nothing mutates it later
    res = train(_df, dict(roles_key), task, algorithm, criterion, dict(values_key), Split(*split_key))
    res.key = (digest, roles_key, task, algorithm, criterion, values_key, split_key)
    return res


def training_key(algorithm: str, criterion: str, values: dict) -> tuple:
    d = data()
    sp = split()
    return (d.digest, tuple(roles().items()), task(), algorithm, criterion,
            tuple(sorted(values.items())), (sp.valid, sp.test, sp.seed))


def train_current(algorithm: str, criterion: str, values: dict) -> TrainResult:
    """Train (or fetch from the cache) and remember the result; TrainingError propagates."""
    key = training_key(algorithm, criterion, values)
    res = _train_cached(*key, _df=data().df)
    st.session_state["result"] = res
    st.session_state.pop("train_error", None)
    return res
