"""``ui.services.opened.on_data``: an opened model on a table (no Streamlit): the columns it
lacks, a dtcore model file scored with its own statistics, labels that do not fit refused in words."""

from __future__ import annotations

import numpy as np

from dtcore import CARTClassifier
from dtcore.export import dumps_model
from ui.services.loading import load_sample
from ui.services.opened import needed_columns, on_data, open_model
from ui.services.training import Split
from ui.views import tree as treeview


def iris_file() -> tuple[bytes, CARTClassifier]:
    df = load_sample("iris").df
    est = CARTClassifier(max_depth=2).fit(df.drop(columns="class"), df["class"], target_name="class")
    return dumps_model(est).encode(), est


def test_a_table_without_the_models_columns_names_them():
    data, _ = iris_file()
    om = open_model("m.json", data)
    df = load_sample("iris").df.drop(columns=["class", "petal width (cm)"])
    od = on_data(om, df, Split())
    assert od.result is None and od.lacking == ("petal width (cm)", "class")
    assert needed_columns(om.estimator)[-1] == "class"
    assert on_data(om, None, Split()).lacking == ()  # no data at all: nothing to compare


def test_a_dtcore_model_file_keeps_its_statistics_and_is_scored_on_every_split():
    data, est = iris_file()
    om = open_model("m.json", data)
    od = on_data(om, load_sample("iris").df, Split(valid=20, test=20, seed=1))
    assert od.rows == 0 and od.changed == 0  # its own training statistics, as saved
    np.testing.assert_array_equal(od.estimator.tree_.value, est.tree_.value)
    assert set(od.result.scores) == {"train", "valid", "test"}
    assert od.result.scores["test"].n == 30


def test_labels_the_model_does_not_know_are_an_error_in_words():
    from sklearn.tree import DecisionTreeClassifier

    import dtcore

    df = load_sample("iris").df
    sk = DecisionTreeClassifier(max_depth=2).fit(df.drop(columns="class"), df["class"])
    om = open_model("m.json", dumps_model(dtcore.from_sklearn(sk, target="class")).encode())
    other = df.assign(**{"class": df["class"].replace("setosa", "bristly")})
    od = on_data(om, other, Split())
    assert od.result is None and od.error is not None
    key, params = od.error
    assert key == "opened.data_failed" and "bristly" in params["detail"]


def test_the_data_pages_target_stands_in_for_a_target_name_the_data_lack():
    """scikit-learn keeps no target name: a tree fitted on iris' class column is saved as
    predicting ``y``. On the iris table, whose target (chosen on the Data page) is ``class``, that
    column stands in for ``y``: the tree is restated and scored on it, and says so."""
    from sklearn.tree import DecisionTreeClassifier

    import dtcore

    df = load_sample("iris").df
    sk = DecisionTreeClassifier(max_depth=2, random_state=0).fit(df.drop(columns="class"), df["class"])
    om = open_model("m.json", dumps_model(dtcore.from_sklearn(sk)).encode())
    assert om.estimator.schema_.target == "y"
    assert on_data(om, df, Split()).lacking == ("y",)  # no target chosen: the model's own name
    od = on_data(om, df, Split(), data_target="class")
    assert od.lacking == () and od.target == "class" and od.error is None
    assert od.result is not None and od.result.target == "class"
    np.testing.assert_array_equal(od.estimator.tree_.n_samples, sk.tree_.n_node_samples)
    assert od.result.scores["train"].n == 150
    # the restated tree is named after the column it now predicts (its legend said "y"); the
    # opened file's model keeps its own name
    named = on_data(om, df.rename(columns={"class": "species"}), Split(), data_target="species")
    assert named.estimator.schema_.target == "species" and om.estimator.schema_.target == "y"
    legend = treeview.tree_dot(named.estimator, 3, lang="en").split('legend [id="dtlegend"', 1)[1]
    assert "<B>species</B>" in legend.split("\n", 1)[0]
    # a target that is one of the model's features, or a table lacking a feature, stands in for nothing
    assert on_data(om, df, Split(), data_target="petal width (cm)").lacking == ("y",)
    lacking = on_data(om, df.drop(columns="sepal width (cm)"), Split(), data_target="class").lacking
    assert lacking == ("sepal width (cm)", "y")
    # labels the model does not know are refused in words, naming the stand-in
    od = on_data(om, df.assign(**{"class": "bristly"}), Split(), data_target="class")
    assert od.error is not None and od.target == "class" and "bristly" in od.error[1]["detail"]
