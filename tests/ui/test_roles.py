"""Role inference and checks (SPEC §1: identifiers must not be used silently; exactly one target)."""

import numpy as np
import pandas as pd

from ui.services import roles as R
from ui.services.loading import load_sample


def test_watermelon_defaults():
    df = load_sample("watermelon_3.0").df
    roles = R.infer_roles(df, "好瓜")
    assert roles["编号"] == R.IGNORE  # 1..17: an identifier
    assert roles["好瓜"] == R.TARGET
    assert roles["色泽"] == R.CATEGORICAL and roles["密度"] == R.CONTINUOUS
    assert R.infer_task(df, "好瓜") == R.CLASSIFICATION
    assert R.errors(df, roles, R.CLASSIFICATION) == []


def test_identifier_as_feature_is_warned():
    df = load_sample("buys_computer").df
    roles = R.infer_roles(df, "buys_computer")
    assert roles["RID"] == R.IGNORE
    roles = R.apply_edits(roles, {"RID": R.CATEGORICAL}, df)
    assert R.Issue("identifier", "RID") in R.warnings(df, roles)


def test_measurements_distinct_per_row_are_not_identifiers():
    df = pd.DataFrame(
        {
            "area": np.linspace(1.5, 9.3, 30),
            "x": np.arange(1, 31),
            "id": np.arange(30)[::-1],
            "y": ["a", "b"] * 15,
        }
    )
    roles = R.infer_roles(df)
    assert roles["area"] == R.CONTINUOUS  # floats, all distinct: still a feature
    assert roles["x"] == R.CONTINUOUS  # 1…n like Li Hang's x1, but not named an ID
    assert roles["id"] == R.IGNORE  # named id
    assert roles["y"] == R.TARGET  # last column by default


def test_constant_many_categories_and_missing_warnings():
    df = pd.DataFrame(
        {
            "k": ["same"] * 30,
            "c": [f"v{i % 25}" for i in range(30)],
            "m": [None, "a"] * 15,
            "y": ["p", "q", "r"] * 10,
        }
    )
    roles = {"k": R.CATEGORICAL, "c": R.CATEGORICAL, "m": R.CATEGORICAL, "y": R.TARGET}
    codes = {(i.code, i.column) for i in R.warnings(df, roles)}
    assert ("constant", "k") in codes
    assert ("many_categories", "c") in codes
    assert ("missing", "m") in codes
    assert R.infer_roles(df, "y")["k"] == R.IGNORE


def test_new_target_demotes_old_one_to_its_natural_kind():
    df = load_sample("watermelon_3.0").df
    roles = R.infer_roles(df, "好瓜")
    new = R.apply_edits(roles, {"密度": R.TARGET}, df)
    assert [c for c, r in new.items() if r == R.TARGET] == ["密度"]
    assert new["好瓜"] == R.CATEGORICAL
    assert R.infer_task(df, "密度") == R.REGRESSION


def test_errors_no_target_no_features_labels_as_continuous():
    df = pd.DataFrame({"a": ["x", "y", "z"], "b": [1, 2, 3], "y": ["p", "q", "p"]})
    codes = lambda roles, task=None: [i.code for i in R.errors(df, roles, task)]
    assert "no_target" in codes({"a": R.CATEGORICAL, "b": R.CONTINUOUS, "y": R.IGNORE})
    assert "many_targets" in codes({"a": R.TARGET, "b": R.CONTINUOUS, "y": R.TARGET})
    assert "no_features" in codes({"a": R.IGNORE, "b": R.IGNORE, "y": R.TARGET})
    assert "not_numeric" in codes({"a": R.CONTINUOUS, "b": R.CONTINUOUS, "y": R.TARGET})
    assert "regression_labels" in codes({"a": R.CATEGORICAL, "b": R.CONTINUOUS, "y": R.TARGET}, R.REGRESSION)
    single = pd.DataFrame({"a": [1, 2, 3], "y": ["p", "p", "p"]})
    assert [i.code for i in R.errors(single, {"a": R.CONTINUOUS, "y": R.TARGET})] == ["single_class"]


def test_task_from_target_values():
    df = pd.DataFrame({"g": [0, 1, 1, 0] * 5, "v": np.linspace(0, 1, 20), "s": ["a", "b"] * 10})
    assert R.infer_task(df, "g") == R.CLASSIFICATION
    assert R.infer_task(df, "v") == R.REGRESSION
    assert R.infer_task(df, "s") == R.CLASSIFICATION
    assert R.infer_task(load_sample("diabetes").df, "target") == R.REGRESSION
