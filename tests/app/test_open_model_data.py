"""An opened model with data: when the Data page's data hold the model's features and target,
the Train page shows it with the trained tree's own sections (scores on every split, node data,
what-if, downloads) on statistics recomputed from the training rows, and the Pruning page prunes
it; without its columns it is drawn as the file holds it and the page says what is lacking."""

from __future__ import annotations

import numpy as np
from sklearn.tree import DecisionTreeClassifier

import dtcore
from dtcore.export import dumps_model
from tests.app.apptest import start
from tests.app.frame_pictures import drawn_text
from tests.app.test_flows import DATA, TRAIN, metrics, no_exception, score_charts
from tests.app.test_open_model import open_file, xgboost_file
from ui.services.loading import load_sample

PRUNE = "pages/prune.py"


def iris_model(max_depth=None, shifted=False) -> tuple[bytes, DecisionTreeClassifier]:
    """A scikit-learn tree fitted on the iris sample's own columns, saved as a dtcore model;
    ``shifted``: fitted on labels moved one class along (other rows than the sample's)."""
    df = load_sample("iris").df
    X, y = df.drop(columns="class"), df["class"]
    if shifted:
        y = y.map({"setosa": "versicolor", "versicolor": "virginica", "virginica": "setosa"})
    sk = DecisionTreeClassifier(random_state=0, max_depth=max_depth).fit(X, y)
    return dumps_model(dtcore.from_sklearn(sk, target="class")).encode(), sk


def test_with_its_training_data_the_opened_tree_gets_scikit_learns_counts_and_the_trained_views():
    data, sk = iris_model()
    at = open_file(start(sample="iris", valid="0", test="0"), "iris-tree.json", data)
    at.switch_page(TRAIN).run()
    no_exception(at)
    res = at.session_state["_opened_on_data"][1].result
    assert res is not None and res.rows["train"].size == 150  # no rows held out: every row trains
    t = res.estimator.tree_
    np.testing.assert_array_equal(t.n_samples, sk.tree_.n_node_samples)
    np.testing.assert_allclose(t.impurity, sk.tree_.impurity, rtol=0, atol=1e-15)
    assert res.estimator.origin_.statistics_rows == 150
    assert any(
        "recomputed from the 150 rows" in c.value and "no rows are held out" in c.value for c in at.caption
    )
    assert not any("predict differently" in w.value for w in at.warning)  # its own training rows
    assert metrics(at)["Accuracy · training"] == "100.0%"  # a full-depth tree on its training rows
    assert "150" in drawn_text(at)  # the root's row count, drawn
    # petal length and width tie at the root; scikit-learn broke the tie, not dtcore's column order
    assert not any(" tie at " in c.value for c in at.caption)
    charts = score_charts(at)  # importances (a bar per feature the tree uses) and the confusion matrix
    assert charts["importances"].count("<rect") == int((res.estimator.feature_importances_ > 0).sum()) > 0
    assert "<title>setosa → setosa: 50 (100.0%)</title>" in charts["confusion"]
    assert metrics(at)["Prediction"] == "setosa"  # the what-if section, on the first training row
    assert any(b.label == "Close the model and train on the data" for b in at.button)
    assert not at.error  # no section fell back to its error line
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert not at.error
    assert len(at.get("bidi_component")) == 2  # the pan frames of the tree before and after pruning
    assert "prune_method" in at.session_state  # the Pruning page runs on the opened tree
    assert at.session_state["prune_method"] == "ccp"  # CART's own method


def test_held_out_rows_score_the_restated_tree_and_a_different_fit_is_said():
    data, _ = iris_model(max_depth=3, shifted=True)
    at = open_file(start(sample="iris", valid="0", test="30", seed="3"), "iris-tree.json", data)
    at.switch_page(TRAIN).run()
    no_exception(at)
    od = at.session_state["_opened_on_data"][1]
    res = od.result
    assert res.rows["test"].size == 45 and res.rows["train"].size == 105
    assert res.estimator.tree_.n_samples[0] == 105  # counts from the training rows only
    assert "Accuracy · test" in metrics(at)
    assert any("recomputed from the 105 training rows" in c.value for c in at.caption)
    # the file's leaves say "versicolor" where the sample's setosa rows land, and so on
    assert od.changed == res.estimator.get_n_leaves()
    assert any(f"predict differently from the file: {od.changed}." in w.value for w in at.warning)


def test_without_the_models_columns_it_is_drawn_as_the_file_holds_it_and_says_what_is_lacking():
    data, _ = iris_model()
    at = open_file(start(), "iris-tree.json", data)  # the watermelon sample: no iris columns
    at.switch_page(TRAIN).run()
    no_exception(at)
    assert any("lack the model's columns" in i.value and "petal length" in i.value for i in at.info)
    assert not at.get("metric")  # no scores without the rows
    assert "petal" in drawn_text(at)
    assert at.session_state["_opened_on_data"][1].result is None
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert "prune_method" not in at.session_state  # no tree to prune: the page says so


def test_a_boosted_member_on_data_gets_row_counts_and_keeps_its_raw_scores():
    at = start()
    # the XGBoost file names its features sepal_length…: the same rows under those names
    df = load_sample("iris").df
    df.columns = ["sepal_length", "sepal_width", "petal_length", "petal_width", "class"]
    at.switch_page(DATA).run()
    at.file_uploader(key="upload").set_value(("iris.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    no_exception(at)
    at = open_file(at, "iris-xgb.json", xgboost_file(), tree=4)
    at.switch_page(TRAIN).run()
    no_exception(at)
    od = at.session_state["_opened_on_data"][1]
    assert od.result is None and od.rows == 150  # counted; no scores of a raw score
    assert od.estimator.tree_.n_samples[0] == 150
    opened = at.session_state["opened_model"].estimator
    np.testing.assert_array_equal(od.estimator.tree_.value, opened.tree_.value)  # raw scores kept
    assert any("Rows per node counted from the 150 rows" in c.value for c in at.caption)
    assert not at.get("metric")


def test_the_splits_page_explores_the_opened_tree_and_growth_says_it_has_no_history():
    data, sk = iris_model(max_depth=2)
    at = open_file(start(sample="iris", valid="0", test="0"), "iris-tree.json", data)
    at.switch_page("pages/splits.py").run()
    no_exception(at)
    assert not at.error
    assert any(
        f"{sk.tree_.node_count} nodes" in c.value for c in at.caption
    )  # the opened tree, not a trained one
    at.switch_page("pages/growth.py").run()
    no_exception(at)
    assert not at.error and at.info  # an imported tree has no growth history to step through


def test_in_chinese_the_opened_model_says_where_its_statistics_come_from():
    data, _ = iris_model(max_depth=2)
    at = open_file(start(sample="iris", valid="0", test="0", lang="zh"), "iris-tree.json", data)
    at.switch_page(TRAIN).run()
    no_exception(at)
    assert any("由数据中的 150 行重新计算" in c.value for c in at.caption)
    at = open_file(start(lang="zh"), "iris-tree.json", data)
    at.switch_page(TRAIN).run()
    assert any("缺少模型的列" in i.value for i in at.info)


def test_a_tree_saved_without_its_target_name_reads_the_data_pages_target():
    """``from_sklearn`` without ``target=`` names the target y; on the iris sample (target
    ``class``) the Train page scores the tree on ``class`` and says that column stands in for y."""
    df = load_sample("iris").df
    sk = DecisionTreeClassifier(random_state=0, max_depth=2).fit(df.drop(columns="class"), df["class"])
    data = dumps_model(dtcore.from_sklearn(sk)).encode()
    at = open_file(start(sample="iris", valid="0", test="0"), "iris-tree.json", data)
    at.switch_page(TRAIN).run()
    no_exception(at)
    assert any("calls its target y" in c.value and "target class stands in" in c.value for c in at.caption)
    assert not any("lack the model's columns" in i.value for i in at.info)
    assert at.session_state["_opened_on_data"][1].result.target == "class"
    assert (
        metrics(at)["Accuracy · training"] == f"{100 * sk.score(df.drop(columns='class'), df['class']):.1f}%"
    )
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert not at.error and "prune_method" in at.session_state  # prunable on the stand-in's rows
