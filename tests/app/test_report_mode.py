"""Report mode (``?report=1``) through Streamlit's AppTest: the pages draw their output without
their controls, from the URL's settings, and the parameter survives the frame's URL rewriting."""

import json

from streamlit.testing.v1 import AppTest

from dtcore.estimators import make_estimator
from tests.app import apptest
from tests.app.frame_pictures import frame_data, node_ids, node_xy, tree_svg
from ui.services.loading import load_sample
from ui.state.report_mode import CSS


def start(page=None, **query) -> AppTest:
    at = apptest.start(page, **query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def inputs(at) -> dict:
    """Input widgets drawn in the main area (the sidebar's language switch is hidden by CSS)."""
    found = {
        "selectbox": at.main.selectbox,
        "multiselect": at.main.multiselect,
        "radio": at.main.radio,
        "slider": at.main.slider,
        "number_input": at.main.number_input,
        "button": at.main.button,
        "checkbox": at.main.checkbox,
    }
    return {k: len(v) for k, v in found.items() if len(v)}


def styles(at) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def test_train_page_report_has_the_tree_and_no_controls():
    at = start(report="1", sample="buys_computer", algo="cart", layout="LR")
    assert inputs(at) == {}
    assert not at.get("download_button")
    assert CSS in styles(at)
    # the tree the URL's settings define: CART (gini, defaults) on buys_computer
    df = load_sample("buys_computer").df
    X = df.drop(columns=["RID", "buys_computer"])
    est = make_estimator("cart", "classification", criterion="gini").fit(
        X.to_numpy(dtype=object), df["buys_computer"].to_numpy(dtype=object), feature_names=list(X.columns)
    )
    svg = tree_svg(at)
    assert sorted(node_ids(svg)) == list(range(est.tree_.node_count))
    root_x = node_xy(svg, 0)[0]  # laid out left to right: every other box right of the root
    assert all(node_xy(svg, i)[0] > root_x for i in range(1, est.tree_.node_count))
    assert at.query_params["report"] == "1"  # write_url (which drops default settings) keeps it


def test_normal_mode_keeps_controls_and_no_report_css():
    at = start(sample="buys_computer", algo="cart")
    assert inputs(at).get("selectbox", 0) >= 2 and at.get("download_button")
    assert CSS not in styles(at)


def test_data_page_report_is_read_only():
    at = start("pages/data.py", report="1", lang="zh", sample="watermelon_2.0")
    assert inputs(at) == {}
    assert not at.get("arrow_data_editor") and not at.get("file_uploader")
    assert len(at.dataframe) == 2  # the preview and the role table
    assert any("17" in c.value for c in at.caption)  # the split counts stay


def test_splits_page_report_draws_the_feature_the_url_names_without_controls():
    at = start("pages/splits.py", report="1", lang="zh", sample="watermelon_3.0", split_feature="密度")
    assert inputs(at) == {}  # no selectors, no force/undo buttons
    assert not at.get("page_link")
    assert at.session_state["split_feature"] == "密度"
    assert r"\frac{\log_2 14}{17}" in "\n".join(m.value for m in at.latex)  # 密度's C4.5 arithmetic
    # the curve of 密度 at the root, drawn by the server (no Plotly chart on the page)
    curves = [c for c in at.get("bidi_component") if str(c.key).startswith("split_curve_0_")]
    assert len(curves) == 1 and 'id="dtpick' in frame_data(curves[0])["svg"]


def test_prune_page_report_takes_arrangement_and_levels_from_the_url():
    query = dict(
        lang="zh",
        sample="watermelon_2.0",
        c45_prune="0",
        prune_method="ccp",
        prune_arrange="stacked",
        prune_levels="1",
    )
    at = start("pages/prune.py", report="1", **query)
    assert inputs(at) == {}  # no method/α/CV/1-SE, no "use α" buttons
    assert not at.get("page_link")
    dots = [json.loads(c.proto.json)["svg"] for c in at.get("bidi_component")]  # server-drawn
    assert len(dots) == 2
    assert any("1" in i.value and "层" in i.value for i in at.info)  # "shown to depth 1" (URL's levels)
    normal = start("pages/prune.py", **query)  # the same URL with its controls
    assert normal.radio(key="prune_arrange").value == "stacked"
    assert normal.selectbox(key="prune_levels").value == 1
    assert normal.button(key="prune_use_cv") is not None
    assert [json.loads(c.proto.json)["svg"] for c in normal.get("bidi_component")] == dots
