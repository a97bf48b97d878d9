"""The Data page's "Open a model": an XGBoost, LightGBM or PMML file (or a dtcore model) opened
in the app is drawn on the Train page instead of a trained tree, with what its leaves hold; a
file that is not a model is one error line; closing goes back to training; a link names the file."""

from __future__ import annotations

from pathlib import Path

import xgboost as xgb
from sklearn.datasets import load_iris

from tests.app.apptest import start
from tests.app.frame_pictures import drawn_text
from tests.app.test_flows import DATA, TRAIN, no_exception

PMML = Path(__file__).resolve().parents[1] / "data" / "pmml"


def xgboost_file() -> bytes:
    X, y = load_iris(return_X_y=True, as_frame=True)
    X.columns = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
    model = xgb.XGBClassifier(n_estimators=2, max_depth=2, n_jobs=1).fit(X, y)
    return bytes(model.get_booster().save_raw("json"))  # what save_model("m.json") writes


def open_file(at, name: str, data: bytes, tree: int = 0):
    at.switch_page(DATA).run()
    at.number_input(key="opened_tree").set_value(tree).run()
    at.file_uploader(key="open_model_0").set_value((name, data, "application/octet-stream")).run()
    no_exception(at)
    return at


def test_an_xgboost_tree_opens_on_the_train_page_and_says_its_leaves_are_raw_scores():
    at = open_file(start(), "iris-xgb.json", xgboost_file(), tree=4)
    assert any("iris\\-xgb" in m.value and "XGBoost JSON model, tree 4 of 6" in m.value for m in at.markdown)
    at.switch_page(TRAIN).run()
    no_exception(at)
    assert "petal" in drawn_text(at)  # the file's feature names on the drawn tree
    assert any("raw score" in i.value and "not a probability" in i.value for i in at.info)
    assert any("It scores class 1" in i.value for i in at.info)
    assert not at.get("metric")  # no scores: the file has no data
    labels = [b.proto.label for b in at.get("download_button")]  # the file's tree, also as a page
    assert labels == ["Download as a dtcore model (JSON)", "HTML page", "SVG", "PNG", "Graphviz DOT"], labels
    assert "iris-xgb.json" in at.query_params["model"]  # the link names the file to open again


def test_a_pmml_tree_opens_and_closing_returns_to_training():
    at = open_file(start(), "golf.pmml", (PMML / "golf_multiway.pmml").read_bytes())
    at.switch_page(TRAIN).run()
    no_exception(at)
    assert "outlook" in drawn_text(at) and "humidity" in drawn_text(at)
    at.button(key="opened_close_train").click().run()
    no_exception(at)
    assert "opened_model" not in at.session_state
    assert not any("golf" in m.value for m in at.markdown)
    assert at.get("metric")  # trained on the current data again


def test_a_file_that_is_no_model_is_one_error_and_keeps_the_open_model():
    at = open_file(start(), "golf.pmml", (PMML / "golf_multiway.pmml").read_bytes())
    at.file_uploader(key="open_model_0").set_value(("notes.json", b'{"hello": 1}', "application/json")).run()
    no_exception(at)
    assert any("notes\\.json" in e.value and "not a dtcore model" in e.value for e in at.error)
    at.file_uploader(key="open_model_0").set_value(
        ("bad.pmml", (PMML / "last_prediction.pmml").read_bytes(), "text/xml")
    ).run()
    no_exception(at)
    assert any("lastPrediction" in e.value for e in at.error)
    assert at.session_state["opened_model"].name == "golf.pmml"  # what was open stays open


def test_a_link_made_with_a_model_open_says_which_file_to_open():
    at = start(DATA, direct=True, model="m.json")
    no_exception(at)
    assert any("**m\\.json**" in i.value and "open it again" in i.value for i in at.info)  # name escaped


def test_a_pickle_is_refused_in_words():
    at = open_file(start(), "model.json", b"\x80\x04\x95\x00\x00")
    assert any("is not UTF" in e.value and "pickles are not opened" in e.value for e in at.error)


def test_in_chinese_the_source_note_is_chinese_with_the_files_own_words():
    at = open_file(start(lang="zh"), "iris-xgb.json", xgboost_file(), tree=4)
    at.switch_page(TRAIN).run()
    no_exception(at)
    note = next(c.value for c in at.caption if c.value.startswith("来源说明"))
    # every clause worded in 中文, the objective and base_score as the file gives them
    assert "目标函数 multi\\:softprob：叶节点保存边际贡献" in note and "base\\_score" in note, (
        note
    )  # Markdown-escaped
    assert "leaves hold" not in note and "the model adds" not in note, note
