"""The app as a user drives it (streamlit AppTest): first visit, samples, roles, the three
algorithms, uploads (GBK, broken files), errors as messages, language and URL settings.

Expected trees and scores are computed here through ``dtcore`` directly (not through ``ui``),
so the tests check that the page shows the model the data and settings define."""

import pytest

from dtcore import export
from dtcore.estimators import make_estimator
from tests.app.apptest import start
from tests.app.frame_pictures import (
    BOLD,
    ITALIC,
    styled_lines,
    svg_node,
    svg_of,
    svg_text,
    tree_svg,
    tree_svgs,
)
from ui.services.loading import load_sample

DATA = "pages/data.py"
TRAIN = "pages/train.py"


#: the containers that hold a static SVG chart (``ui.figures.static_charts``), by key
STATIC_CHARTS = (
    "importances",
    "confusion",
    "nodedata_feature",
    "nodedata_children",
    "split_children",
    "prune_alpha_error",
    "prune_leaves_alpha",
    "prune_cf_chart",
)


def score_charts(at) -> dict[str, str]:
    """The static SVG charts of a run (the Train page's scores, a test's children, the Pruning
    page's curves) by the key of
    the container that holds each (:data:`STATIC_CHARTS`)."""
    out: dict[str, str] = {}

    def walk(node, key=None):
        for child in getattr(node, "children", {}).values():
            k = getattr(child, "key", None) if getattr(child, "type", "") != "markdown" else None
            if getattr(child, "type", "") == "markdown" and key and 'class="dt-static-chart"' in child.value:
                out[key] = child.value
            walk(child, k if k in STATIC_CHARTS else key)

    walk(at.main)
    return out


def no_exception(at):
    assert not at.exception, [e.value for e in at.exception]


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def direct_fit(sample, algo, drop, target, **params):
    """Fit with dtcore alone, on every row, kinds as the app would infer them."""
    df = load_sample(sample).df
    feats = [c for c in df.columns if c not in drop and c != target]
    kinds = ["continuous" if df[c].dtype.kind in "fi" else "categorical" for c in feats]
    est = make_estimator(algo, "classification", **params)
    cats = {
        c: tuple(dict.fromkeys(str(v) for v in df[c] if v is not None))
        for c, k in zip(feats, kinds)
        if k == "categorical"
    }
    est.fit(
        df[feats].to_numpy(dtype=object),
        df[target].to_numpy(dtype=object),
        feature_names=feats,
        feature_kinds=kinds,
        categories=cats,
        target_name=target,
    )
    return est


def test_first_visit_shows_c45_on_watermelon_and_a_hint():
    at = start()
    no_exception(at)
    # the app's pictures carry C4.5's midpoint tooltip (密度 ≤ 0.36, midpoint 0.3815)
    expected = export.to_dot(
        direct_fit("watermelon_3.0", "c45", ["编号"], "好瓜"), highlight=(), tooltips=True
    )
    assert tree_svg(at) == svg_of(expected)  # the server's layout of exactly this DOT
    assert "纹理" in expected  # Zhou's C4.5 root test
    assert 'tooltip="密度 ≤ 0.36 (midpoint 0.3815)"' in expected
    assert at.info and "C4.5" in at.info[0].value  # what to try next
    m = metrics(at)
    assert m["Accuracy · training"] == "94.1%"  # 16 of 17: C4.5's pruned leaf errs once
    assert m["Nodes"] == "6"


@pytest.mark.parametrize("algo, params", [("cart", {}), ("id3", {"continuous": "threshold"}), ("c45", {})])
def test_each_algorithm_trains_and_shows_its_tree(algo, params):
    at = start()
    at.selectbox(key="algo").select(algo).run()
    no_exception(at)
    est = direct_fit("watermelon_3.0", algo, ["编号"], "好瓜", **params)
    assert tree_svg(at) == svg_of(export.to_dot(est, tooltips=True))
    m = metrics(at)
    assert m["Nodes"] == str(est.node_count) and m["Leaves"] == str(est.get_n_leaves())
    df = load_sample("watermelon_3.0").df
    acc = est.score(
        df.drop(columns=["编号", "好瓜"]).to_numpy(dtype=object), df["好瓜"].to_numpy(dtype=object)
    )
    assert m["Accuracy · training"] == f"{acc:.1%}"


def test_settings_sit_in_a_form_and_apply_on_train():
    at = start()
    at.selectbox(key="algo").select("cart").run()
    depth = at.number_input(key="cart_max_depth")
    # inside the form, so the browser sends a changed limit only with the Train button
    # (AppTest itself does not hold form values back, so the deferral is checked in the browser)
    assert depth.form_id and depth.form_id == at.selectbox(key="cart_criterion").form_id
    depth.set_value(1)
    [b for b in at.button if b.label == "Train"][0].click().run()
    no_exception(at)
    expected = export.to_dot(direct_fit("watermelon_3.0", "cart", ["编号"], "好瓜", max_depth=1))
    assert tree_svg(at) == svg_of(expected)
    assert metrics(at)["Depth"] == "1"


def test_sample_change_roles_and_id3_picks_the_identifier():
    at = start()
    at.switch_page(DATA).run()
    at.selectbox(key="sample").select("watermelon_2.0").run()
    no_exception(at)
    editor = at.data_editor[0]
    rows = list(editor.value["column"])
    at.session_state[editor.key] = {
        "edited_rows": {rows.index("编号"): {"role": "categorical"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert any("编号" in w.value for w in at.warning)  # identifier warning
    at.switch_page(TRAIN).run()
    at.selectbox(key="algo").select("id3").run()
    no_exception(at)
    assert "编号" in styled_lines(svg_node(tree_svg(at), 0), BOLD)  # SPEC §1: gain = Ent(D), chosen first
    at.switch_page(DATA).run()  # typing survives page switches
    assert at.session_state["roles"]["编号"] == "categorical"
    assert at.selectbox(key="sample").value == "watermelon_2.0"


def test_change_target_to_numeric_makes_regression_with_cart_only():
    at = start()
    at.switch_page(DATA).run()
    at.selectbox(key="sample").select("regression_toy10").run()
    at.switch_page(TRAIN).run()
    no_exception(at)
    assert at.selectbox(key="algo").options == ["CART"]
    m = metrics(at)
    assert "RMSE · training" in m and m["RMSE · training"] == "0"  # grown to purity: exact fit
    assert "6.5" in svg_text(tree_svg(at))  # Li Hang: first cut x1 ≤ 6.5


def test_iris_split_scores_and_confusion():
    at = start(sample="iris", algo="cart")
    no_exception(at)
    m = metrics(at)
    assert {"Accuracy · training", "Accuracy · validation", "Accuracy · test"} <= set(m)
    captions = " ".join(c.value for c in at.caption)
    assert "Rows: 102" in captions and "Rows: 24" in captions  # 15 % + 15 % stratified
    assert at.radio(key="cm_split").value == "test"


def test_gbk_upload_then_bad_file_keeps_data():
    text = "编号,色泽,根蒂,好瓜\n1,青绿,蜷缩,是\n2,乌黑,蜷缩,是\n3,浅白,硬挺,否\n4,青绿,稍蜷,否\n5,乌黑,硬挺,否\n6,浅白,蜷缩,是\n"
    at = start()
    at.switch_page(DATA).run()
    at.file_uploader(key="upload").set_value(("瓜.csv", text.encode("gbk"), "text/csv")).run()
    no_exception(at)
    assert any("GBK" in c.value for c in at.caption)
    assert at.session_state["data"].df["色泽"].tolist()[:3] == ["青绿", "乌黑", "浅白"]
    at.file_uploader(key="upload").set_value(("broken.xlsx", b"not a spreadsheet", "application/zip")).run()
    no_exception(at)
    assert at.error and "broken" in at.error[0].value and "Excel" in at.error[0].value
    assert at.session_state["data"].name == "瓜.csv"  # previous data kept
    at.switch_page(TRAIN).run()
    no_exception(at)
    assert "色泽" in svg_text(tree_svg(at)) or "根蒂" in svg_text(tree_svg(at))


def test_untrainable_data_gives_a_message_not_a_traceback():
    at = start()
    at.switch_page(DATA).run()
    at.file_uploader(key="upload").set_value(("one.csv", b"a,b,y\n1,x,k\n2,y,k\n3,x,k\n", "text/csv")).run()
    no_exception(at)
    assert any("only 1 distinct" in e.value for e in at.error)
    at.switch_page(TRAIN).run()
    no_exception(at)
    assert at.error and not tree_svgs(at)
    at.switch_page(DATA).run()
    assert at.session_state["data"].name == "one.csv"  # data survives the error


def test_chinese_ui_and_settings_from_the_url():
    at = start(lang="zh", sample="penguins", algo="c45", c45_confidence_factor="0.1")
    no_exception(at)
    assert at.title[0].value == "训练与决策树"
    assert any("准确率" in m.label for m in at.metric)
    assert at.number_input(key="c45_confidence_factor").value == pytest.approx(0.1)
    assert at.session_state["data"].name == "penguins"
    qp = {k: at.query_params[k] for k in at.query_params}
    assert qp.get("sample") in ("penguins", ["penguins"])


def test_changed_settings_travel_in_the_url():
    # (AppTest re-sends its own query parameters on every run, and formats options outside the
    # session: the address bar itself and language round trips are checked in a browser)
    from ui.state.url import url_params

    at = start(sample="iris")
    at.selectbox(key="algo").select("cart").run()
    at.selectbox(key="node").select(2).run()
    no_exception(at)
    session = {k: at.session_state[k] for k in ("sample", "algo", "node", "valid", "test", "cart_criterion")}
    assert url_params(session) == {"sample": "iris", "algo": "cart", "node": "2", "valid": "15", "test": "15"}
    reopened = start(**url_params(session))  # the shared link shows the same view
    assert tree_svg(reopened) == tree_svg(at)
    assert 'stroke-width="3"' in svg_node(tree_svg(at), 2)  # the selected node is drawn bold
    assert 'stroke-width="3"' not in svg_node(tree_svg(at), 1)


@pytest.mark.parametrize("page", [None, DATA, "pages/splits.py", "pages/prune.py"])
def test_chinese_pages_survive_their_next_run(page):
    """Widget labels are computed during the run: AppTest formats the options between runs,
    outside the session, where the language would read as the default English ("'auto (all)' is
    not in list" on the second run of a fresh zh session)."""
    at = start(lang="zh")
    if page:
        at.switch_page(page).run()
    no_exception(at)
    at.run()
    no_exception(at)
    assert at.session_state["lang"] == "zh"


def test_folding_takes_exactly_the_picked_subtree_and_says_what_is_folded():
    """Issue 16, item 7: one pick folds one subtree (the multiselect folded a dozen on one Enter);
    picking it again unfolds it; the folded nodes are listed and travel in the URL."""
    at = start(sample="breast_cancer", algo="cart")
    no_exception(at)
    inner = [n for n in at.selectbox(key="fold_pick").options]
    assert len(inner) > 5
    at.selectbox(key="fold_pick").select_index(2).run()
    no_exception(at)
    folded = at.session_state["collapse"]
    assert len(folded) == 1
    assert at.query_params.get("collapse") == str(folded[0])
    assert any(f"Folded: #{folded[0]}" in c.value for c in at.caption)
    assert at.selectbox(key="fold_pick").value is None  # ready for the next pick
    at.selectbox(key="fold_pick").select_index(2).run()  # the same node again: unfolded
    no_exception(at)
    assert at.session_state["collapse"] == []


def test_the_routed_values_notation_is_explained_when_drawn():
    """Issue 16, item 9: "missing, 清脆 →" under an edge's test is explained next to the tree."""
    at = start(sample="watermelon_2.0_missing", algo="cart")
    no_exception(at)
    routed = styled_lines(tree_svg(at), ITALIC)  # the edge's "missing, 清脆 →" line, in italics
    assert any("missing" in line and line.endswith(" →") for line in routed), routed
    assert any("names what else goes down that edge" in c.value for c in at.caption)
    at = start(sample="iris", algo="cart")  # complete data, no categories: nothing to explain
    no_exception(at)
    assert not any("names what else goes down that edge" in c.value for c in at.caption)
