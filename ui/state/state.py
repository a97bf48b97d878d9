"""Session state shared by every page: language, the loaded data, its roles and task, the split.

These non-widget keys (``data``, ``roles``, ``task``…) hold what must survive page switches and
errors. Pages read them through the helpers below and never create widgets with these keys. The
view settings that travel in the URL are ``ui.state.url``'s; the model is ``ui.state.model``'s.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, TypeGuard

import streamlit as st

from ui import i18n
from ui.services import roles as R
from ui.services.loading import LoadedData, LoadError, load_sample, read_bytes, sample_catalogue
from ui.services.split import UNPRUNED_BY_DEFAULT, upload_defaults
from ui.services.training import Split

from .url import DEFAULT_SAMPLE, param_key, setting, url_defaults

if TYPE_CHECKING:
    from streamlit.runtime.uploaded_file_manager import UploadedFile


def fixed_labels(options, label, key: str | None = None):
    """A widget's ``format_func`` whose labels are computed now, during the run.

    Streamlit (and AppTest, between runs) may call ``format_func`` outside the script run, where
    session state, and so the language, cannot be read: a label computed lazily then comes out
    English while the widget drew Chinese options (AppTest: "'auto (all)' is not in list").
    Options stay stable ids; only their labels are frozen in this run's language.

    ``key``: the widget's key, for labels that depend on the data or the model ("auto (≤ 3)",
    "#4 密度 ≤ 0.382"). A keyed widget keeps its identity across runs, and the browser keeps
    showing the label it last drew for the selected option; when the labels change (a new
    tree), the value is written back so that the browser is sent, and shows, the new label."""
    table = {o: label(o) for o in options}
    if key is not None:
        seen = f"_labels_of_{key}"
        labels = hash(tuple(table.items()))
        if st.session_state.get(seen, labels) != labels and key in st.session_state:
            st.session_state[key] = st.session_state[key]
        st.session_state[seen] = labels
    return lambda v: table[v] if v in table else str(v)


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


def split() -> Split:
    column = str(setting("split_column") or "")
    d = data()
    if column and (d is None or column not in d.df.columns):
        column = ""  # a column of other data (a link, the previous table): the random split
    return Split(
        valid=int(setting("valid")), test=int(setting("test")), seed=int(setting("seed")), column=column
    )


# ---------------------------------------------------------------------------------------------
# data


def data() -> LoadedData | None:
    return st.session_state.get("data")


def current_data() -> LoadedData:
    """The loaded data, for code that runs once a page has data (app.py calls ``ensure_data``
    before any page; a page without data returns before calling this)."""
    d = data()
    if d is None:
        raise RuntimeError("no data is loaded: ensure_data() runs before the pages")
    return d


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
        st.session_state["split_column"] = sample.split_column


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
    for key, value in (("valid", sample.valid), ("test", sample.test), ("split_column", sample.split_column)):
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
        st.session_state["task"] = R.infer_task(current_data().df, tgt)


def task() -> str:
    return st.session_state.get("task", R.CLASSIFICATION)


# ---------------------------------------------------------------------------------------------
# the Data page: its callbacks, the uploaded file, the role widgets' version


def on_split_column_change() -> None:
    """A column now names each row's set: it is no feature (its role becomes ignore)."""
    column = st.session_state.get("split_column")
    current = roles()
    if column and current.get(column) not in (None, R.IGNORE):
        set_roles({**current, column: R.IGNORE})
        renew_role_widgets()


def on_sample_change() -> None:
    """A sample picked: load it, and empty the upload box (a new widget key) so it no longer
    lists the file the sample replaces."""
    if st.session_state.get("sample") is None:
        return
    load_sample_into_state(st.session_state["sample"])
    st.session_state.pop("load_error", None)
    st.session_state["upload_version"] = st.session_state.get("upload_version", 0) + 1


def upload_widget_key() -> str:
    """The upload box's key: a new one after each sample pick (which is how it is emptied)."""
    version = st.session_state.get("upload_version", 0)
    return "upload" if version == 0 else f"upload_{version}"


@st.cache_resource(max_entries=8, show_spinner=False)
def _shared_read(digest: str, name: str, _data: bytes) -> LoadedData:
    """One parsed copy of an uploaded file for every session that uploads the same bytes under
    the same name (keyed by their SHA-256): the frame is never changed in place, so sharing is
    safe, and ten analysts opening one 10⁵-row file hold one frame, not ten."""
    return read_bytes(_data, name, sha256=digest)


def is_new_upload(uploaded: UploadedFile | None) -> TypeGuard[UploadedFile]:
    """Whether the upload box holds a file this session has not read yet."""
    return uploaded is not None and st.session_state.get("upload_id") != uploaded.file_id


def take_upload(uploaded: UploadedFile | None) -> None:
    """Read a newly uploaded file once; on failure keep the previous data and remember why."""
    if not is_new_upload(uploaded):
        return
    st.session_state["upload_id"] = uploaded.file_id
    data = uploaded.getvalue()
    try:
        loaded = _shared_read(hashlib.sha256(data).hexdigest(), uploaded.name, data)
    except LoadError as exc:
        st.session_state["load_error"] = (uploaded.name, exc.key, exc.params)
        return
    st.session_state.pop("load_error", None)
    set_data(loaded)
    st.session_state["sample"] = None  # the sample box shows its placeholder: no sample is loaded
    apply_upload_defaults(loaded.df.shape[0])
    st.session_state.pop("_url_upload", None)  # a link's "upload this file" notice is answered


def apply_upload_defaults(n_rows: int) -> None:
    """An upload's starting settings (``ui.services.split.upload_defaults``): held-out rows, and
    a depth limit for the algorithms that do not prune by default; remembered so the Train page
    can say the depth limit is a default."""
    defaults = upload_defaults(n_rows)
    st.session_state["valid"], st.session_state["test"] = defaults["valid"], defaults["test"]
    st.session_state["split_column"] = ""
    depth = defaults.get("max_depth")
    for algo in UNPRUNED_BY_DEFAULT:
        key = param_key(algo, "max_depth")
        st.session_state[key] = depth if depth is not None else url_defaults()[key]
    st.session_state["upload_depth_default"] = depth


def upload_depth_default() -> int | None:
    """The depth limit the current upload started with (None: none, or not an upload)."""
    d = data()
    return st.session_state.get("upload_depth_default") if d is not None and d.source == "upload" else None


def load_error() -> tuple | None:
    """(file name, catalogue key, its values) of the last upload that failed, if it did."""
    return st.session_state.get("load_error")


def roles_version() -> int:
    """The Data page's target/task widgets and role editor are keyed by this version."""
    return st.session_state.get("roles_version", 0)


def renew_role_widgets() -> None:
    """A new version: the role widgets are drawn fresh (their edit state would otherwise pile up)."""
    st.session_state["roles_version"] = roles_version() + 1


def on_target_change(key: str) -> None:
    set_roles(R.apply_edits(roles(), {st.session_state[key]: R.TARGET}, current_data().df))
    renew_role_widgets()


def on_task_change(key: str) -> None:
    st.session_state["task"] = st.session_state[key]
