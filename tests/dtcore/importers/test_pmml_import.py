"""PMML 4.4 TreeModel files (hand-written fixtures in tests/data/pmml, from the spec) read into
dtcore: the tree predicts what an independent PMML engine (pypmml, on Java) predicts, missing
values included; what cannot map is refused with a message naming it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pypmml import Model

import dtcore
from dtcore.export import load_model as load_dtcore_json
from dtcore.export import save_model
from dtcore.importers import PMMLError
from dtcore.routing import DISTRIBUTE

PMML = Path(__file__).resolve().parents[2] / "data" / "pmml"


def engine(name):
    return Model.fromFile(str(PMML / name))


def test_binary_continuous_tree_with_default_children():
    rows = pd.DataFrame(
        {
            "petal_length": [1.0, 2.45, 2.4500001, 3.0, None, 5.0, None, 6.0],
            "petal_width": [1.0, 2.0, 1.75, 1.7499999, 1.0, None, None, 1.75],
        }
    )
    est = dtcore.load_model(PMML / "iris_binary.pmml")
    ref = engine("iris_binary.pmml").predict(rows)
    assert list(est.predict(rows)) == list(ref["predicted_species"])
    proba = est.predict_proba(rows)
    cols = [f"probability_{c}" for c in est.classes_]
    np.testing.assert_allclose(proba, ref[cols].to_numpy(), rtol=1e-12)
    # ``lessThan 1.75`` became ``x ≤`` the float64 just below 1.75; the root's defaultChild is branch 1
    assert est.tree_.cuts.tolist() == [2.45, np.nextafter(1.75, -np.inf)]
    assert est.tree_.missing_branch[0] == 1
    assert est.schema_.classes == ("setosa", "versicolor", "virginica")
    assert est.tree_.value[0].tolist() == [50, 50, 50]


def test_multiway_categorical_and_interval_splits_with_aggregate_nodes(tmp_path):
    rows = pd.DataFrame(
        {
            "outlook": ["sunny", "sunny", "sunny", "sunny", "overcast", "rain", "rain", None, None, "sunny"],
            "humidity": [65.0, 70.0, 80.0, 90.0, 85.0, 70.0, 80.0, 80.0, None, None],
            "windy": ["true", "false", "true", "false", "false", "true", "false", "true", None, "false"],
        }
    )
    est = dtcore.load_model(PMML / "golf_multiway.pmml")
    ref = engine("golf_multiway.pmml").predict(rows)
    assert list(est.predict(rows)) == list(ref["predicted_play"])
    known = rows.notna().all(axis=1).to_numpy()  # pypmml gives probabilities where no value is missing
    cols = [f"probability_{c}" for c in est.classes_]
    np.testing.assert_allclose(est.predict_proba(rows)[known], ref[cols].to_numpy()[known], rtol=1e-12)
    # root: a three-way categorical split; "sunny": humidity in three intervals; missing values are shared
    assert est.tree_.split_test(0).cat_branch == (0, 1, 2)
    sunny = int(est.tree_.children_of(0)[0])
    assert est.tree_.cuts_of(sunny).tolist() == [70.0, 85.0]
    assert est.tree_.missing_branch[sunny] == DISTRIBUTE
    # the ``True`` child takes missing outlooks: the root sends them to "rain", not everywhere
    assert est.tree_.missing_branch[0] == 2
    # PMML keeps no impurity: a node gets the Gini impurity of its counts, as CART measures it
    assert est.tree_.impurity[0] == pytest.approx(1 - (9 / 14) ** 2 - (5 / 14) ** 2)
    # a missing humidity under "sunny" mixes its leaves by record count: 2/5·(1,0) + 2/5·(.25,.75) + 1/5·(0,1)
    p = est.predict_proba(pd.DataFrame({"outlook": ["sunny"], "humidity": [None], "windy": ["true"]}))
    assert dict(zip(est.classes_, p[0])) == pytest.approx({"yes": 0.5, "no": 0.5})
    path = tmp_path / "m.json"
    save_model(est, path)
    back = load_dtcore_json(path)
    np.testing.assert_array_equal(back.predict_proba(rows), est.predict_proba(rows))
    assert back.origin_.source == "PMML 4.4 TreeModel 'golf'"


def test_regression_with_subsets_surrogates_and_a_replacement_value():
    rows = pd.DataFrame(
        {
            "colour": ["red", "green", "dark blue", None, "blue", "red", "red"],
            "size": [1.0, None, 5.0, 3.4, 2.0, None, 3.5],
        }
    )
    est = dtcore.load_model(PMML / "regression_subsets.pmml")
    ref = engine("regression_subsets.pmml").predict(rows)
    np.testing.assert_array_equal(est.predict(rows), ref["predicted_price"].to_numpy())
    assert est.tree_.split_test(0).cat_branch == (0, 1, 1, 0)  # red and "dark blue" go first
    assert est.schema_.features[0].categories == ("red", "green", "blue", "dark blue")
    assert est.origin_.leaf_values == "mean target"


def test_weighted_confidence_shares_missing_values_out():
    text = (PMML / "golf_multiway.pmml").read_text().replace('"aggregateNodes"', '"weightedConfidence"')
    est = dtcore.importers.model_from_text(text)
    sunny = int(est.tree_.children_of(0)[0])
    assert est.tree_.missing_branch[sunny] == DISTRIBUTE


@pytest.mark.parametrize(
    "name, phrase",
    [
        ("two_fields_in_one_node.pmml", "its children test the fields a, b"),
        ("last_prediction.pmml", "missingValueStrategy is 'lastPrediction'"),
    ],
)
def test_what_cannot_map_is_refused_by_name(name, phrase):
    with pytest.raises(PMMLError, match=phrase):
        dtcore.load_model(PMML / name)


def test_other_unmappable_constructs_are_named():
    base = (PMML / "iris_binary.pmml").read_text()
    gap = base.replace('operator="greaterThan" value="2.45"', 'operator="greaterThan" value="3"')
    with pytest.raises(PMMLError, match="take no child"):
        dtcore.importers.model_from_text(gap)
    derived = base.replace(
        "<DataDictionary",
        '<TransformationDictionary><DerivedField name="d"/></TransformationDictionary><DataDictionary',
    )
    with pytest.raises(PMMLError, match="derived fields"):
        dtcore.importers.model_from_text(derived)
    with pytest.raises(PMMLError, match="holds no TreeModel"):
        dtcore.importers.model_from_text('<PMML version="4.4"><Header/><RegressionModel/></PMML>')
    with pytest.raises(PMMLError, match="1 TreeModel"):
        dtcore.importers.model_from_text(base, tree=1)
