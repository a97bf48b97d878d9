"""The settings that travel in the URL: their defaults, their text form, and the binding.

URL-bound widget keys (:func:`url_defaults`) define a view: language, sample, split, algorithm,
criterion, limits, shown levels, selected node. The frame seeds them from the URL once per session
(:func:`seed_from_url`) and writes them back after every run (:func:`write_url`), so the address
bar can be copied and reopened. Their widgets keep their value across page switches
(``persist_state="session"``, :data:`KEEP`); a page that needs one whose widget is on another
page reads it with :func:`setting`.
"""

from __future__ import annotations

import math
from typing import Literal, TypedDict

import streamlit as st

from ui import i18n
from ui.services import roles as R
from ui.services.training import ALGORITHMS, PARAMS, criteria

DEFAULT_SAMPLE = "watermelon_3.0"
DEFAULT_ALGORITHM = "c45"


class Keep(TypedDict):
    """``**KEEP``'s one keyword, typed as Streamlit's widgets declare it."""

    persist_state: Literal["page", "session"]


#: widgets that define a view keep their value across page switches (see module docstring)
KEEP: Keep = {"persist_state": "session"}
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
    d = {
        "lang": i18n.DEFAULT_LANG,
        "sample": DEFAULT_SAMPLE,
        "valid": 0,
        "test": 0,
        "seed": 0,
        "split_column": "",  # a column naming each row's set ("" = the seeded random split)
        "algo": DEFAULT_ALGORITHM,
        "levels": "auto",
        "layout": "auto",
        "collapse": [],
        "node": None,
        "node_charts": False,  # Train & tree: histograms inside the tree's boxes
    }
    # Pruning page: method, CCP's α / CV folds / 1-SE rule, EBP's confidence factor, REP's tie
    # rule, the trees' layout
    d.update(
        {
            "prune_method": "ebp",
            "prune_alpha": 0.0,
            "prune_cv": 10,
            "prune_one_se": True,
            "prune_cf": 0.25,
            "prune_rep_ties": "prune",  # SPEC §8's rule; "keep" is the textbook's figure 4.7
            "prune_arrange": "auto",
            "prune_levels": "auto",
        }
    )
    # Splits page: the charted feature by name ("" = the algorithm's choice at the node)
    d[FEATURE_KEY] = ""
    d["growth_step"] = -1  # Growth page: the step shown (-1: the last, the fitted tree)
    for algo in ALGORITHMS:
        for task_name in (R.CLASSIFICATION, R.REGRESSION):
            crits = criteria(algo, task_name)
            if crits:
                d[criterion_key(algo, task_name)] = crits[0]
        for p in PARAMS[algo]:
            d[param_key(algo, p.name)] = p.default
    return d


#: significant digits of a number in the URL (prune_alpha=0.0442032418, not 0.044203241800809576);
#: values read back snap to the α path within this precision (``services.pruning.snap_alpha``)
URL_DIGITS = 9


def encode_url_value(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, float):
        return f"{value:.{URL_DIGITS}g}"
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
    if default is None:  # node id
        return int(text)
    if text.isdigit():  # levels: "auto", "all" or a number
        return int(text)
    return text


#: numeric URL settings whose widgets have a range: key → (lowest, highest), as drawn
RANGES: dict[str, tuple[float, float]] = {
    "valid": (0, 50),  # Data page sliders (percent of rows)
    "test": (0, 50),
    "seed": (0, 2**31 - 1),
    "prune_alpha": (0.0, math.inf),
    "prune_cv": (0, 50),
    "prune_cf": (0.01, 0.5),  # the CF slider; C4.5 needs 0 < CF < 1
}


def value_rule(key: str, value) -> str | None:
    """Why ``value`` cannot be URL setting ``key`` (a short rule such as "0 … 50"), None if it can.

    Numbers must be finite and within their widget's range (:data:`RANGES`, or the estimator's
    declared ``Param`` range), choices among their options, the language among the catalogue's.
    """
    if key == "lang":
        return None if value in i18n.LANGS else "/".join(i18n.LANGS)
    if key in ("node", "collapse"):
        values = value if isinstance(value, list) else [value]
        return None if all(isinstance(v, int) and v >= 0 for v in values) else "≥ 0"
    lo_hi = RANGES.get(key)
    for algo, params in PARAMS.items():
        for p in params:
            if param_key(algo, p.name) != key:
                continue
            if p.kind == "select":
                return None if value in p.options else "/".join(map(str, p.options))
            if p.kind in ("int", "float") and p.lo is not None and p.hi is not None:
                lo_hi = (p.lo, p.hi)
    if lo_hi is not None and isinstance(value, (int, float)) and not isinstance(value, bool):
        lo, hi = lo_hi
        if not (math.isfinite(value) and lo <= value <= hi):
            return f"{_plain(lo)} … {_plain(hi)}" if math.isfinite(hi) else f"≥ {_plain(lo)}"
    return None


def _plain(x: float) -> str:
    """A range end as people write it: 2147483647, 0.01."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def seed_from_url() -> None:
    """Once per session, before any widget: copy the URL's settings into session state. A value
    that does not parse or is out of range leaves the setting at its default and is kept as a
    notice (:func:`pop_url_notices`) for the page to show."""
    if st.session_state.get("_url_seeded"):
        return
    st.session_state["_url_seeded"] = True
    defaults = url_defaults()
    notices = []
    for key in st.query_params:
        if key not in defaults:
            continue
        text = st.query_params[key]
        try:
            value = decode_url_value(text, defaults[key])
            rule = value_rule(key, value)
        except ValueError:
            rule = type(defaults[key]).__name__ if defaults[key] is not None else "int"
        if rule is None:
            st.session_state[key] = value
            mark_chosen(key)
        else:
            notices.append(
                {"name": key, "value": text, "rule": rule, "default": encode_url_value(defaults[key])}
            )
    # values that need the data or the model first: kept raw until they can be applied
    for key in EXTRA_KEYS:
        if key in st.query_params:
            st.session_state[f"_url_{key}"] = st.query_params[key]
    st.session_state["_url_notices"] = notices


def pop_url_notices() -> list[dict]:
    """The notices of :func:`seed_from_url` for bad link values, once."""
    return st.session_state.pop("_url_notices", [])


def url_params(session) -> dict[str, str]:
    """The query parameters for a session's settings: those that differ from their defaults."""
    want = {}
    for key, default in url_defaults().items():
        if key in session:
            value = session[key]
            if value != default and value is not None and value != []:
                want[key] = encode_url_value(value)
    return want


#: URL keys beyond the widget settings, written from the session's model and data
#: (``ui.state.model.url_extras``): the splits forced on the tree, and the name of an uploaded
#: file (which cannot travel: the receiver is told so)
#: large: a large-data pattern (ui/state/large_data.py); model: the name of an opened model file
EXTRA_KEYS = ("forced", "upload", "large", "model")


def pending(key: str) -> str | None:
    """The raw value of an EXTRA_KEYS entry the link carried, until :func:`done` is called."""
    return st.session_state.get(f"_url_{key}")


def done(key: str) -> None:
    st.session_state.pop(f"_url_{key}", None)


def write_url(extras: dict[str, str] | None = None) -> None:
    """After the page ran: the URL shows every bound setting that differs from its default, and
    ``extras`` (EXTRA_KEYS → text)."""
    defaults = url_defaults()
    want = url_params(st.session_state)
    want.update(extras or {})
    current = {k: st.query_params[k] for k in st.query_params}
    for key in [k for k in current if (k in defaults or k in EXTRA_KEYS) and k not in want]:
        del st.query_params[key]
    for key, text in want.items():
        if current.get(key) != text:
            st.query_params[key] = text


def default(key: str) -> None:
    """Give a URL-bound widget its default before it is drawn (widgets take no value= argument,
    so a value from the URL or an earlier page never clashes with a default)."""
    if key not in st.session_state:
        st.session_state[key] = url_defaults()[key]


def setting(key: str):
    """A URL-bound setting wherever its widget is drawn: session state, else the default."""
    value = st.session_state.get(key)
    return url_defaults()[key] if value is None else value


def keep_valid(key: str, options, fallback):
    """Give URL-bound widget ``key`` its default, then ``fallback`` when its value (from the URL,
    another model or another tree) is not among ``options``. Returns the value."""
    default(key)
    if st.session_state[key] not in options:
        st.session_state[key] = fallback
    return st.session_state[key]


def mark_chosen(key: str) -> None:
    """Remember that the user (a widget) or the link set ``key``: :func:`follow` leaves it alone."""
    st.session_state.setdefault("_chosen", set()).add(key)


def follow(key: str, options, natural):
    """A URL-bound setting whose default depends on the model (the pruning method native to its
    algorithm): ``natural`` until the user or the link chooses, then their choice while it is
    among ``options``. Returns the value."""
    if key not in st.session_state.get("_chosen", set()) or st.session_state.get(key) not in options:
        st.session_state[key] = natural
    return st.session_state[key]


def keep_only(key: str, options) -> list:
    """A list-valued URL-bound setting (folded nodes) without the items not among ``options``."""
    st.session_state[key] = [i for i in st.session_state[key] if i in options]
    return st.session_state[key]
