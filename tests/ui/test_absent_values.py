"""The absent values the type checker made explicit: what each builder does when a number, a
record's candidates or the loaded data is not there (a clear text or a clear error, never an
AttributeError on None)."""

import numpy as np
import pytest

from dtcore.explain import FeatureSplits
from dtcore.explain.records import Candidates
from dtcore.schema import Schema
from ui.services.loading import load_sample
from ui.services.training import Split, TrainingError, columns_to_train, train
from ui.views.splits import candidate_label, num


def test_num_prints_a_dash_for_an_absent_value_as_for_a_non_finite_one():
    assert num(None) == num(float("nan")) == "–"
    assert num(0.2468, 3) == "0.247"
    assert num(np.float64(-1e-17), 3) == "0.000"


def test_candidate_label_without_candidates_is_a_clear_error():
    rec = FeatureSplits(feature=0, name="密度", kind="continuous", mode="threshold")
    with pytest.raises(ValueError, match="密度"):
        candidate_label(rec, 0, Schema(features=()), "c45")


def test_candidate_label_of_a_candidate_without_a_test_shows_a_dash():
    rec = FeatureSplits(
        feature=0, name="x", kind="categorical", mode="multiway", candidates=Candidates(score=np.array([0.5]))
    )
    assert candidate_label(rec, 0, Schema(features=()), "id3") == "– · 0.5000"


def test_training_without_a_target_names_the_missing_target():
    df = load_sample("watermelon_3.0").df
    roles = {c: "categorical" for c in df.columns}
    with pytest.raises(TrainingError) as err:
        columns_to_train(df, roles, "classification")
    assert err.value.key == "roles.no_target"
    with pytest.raises(TrainingError):
        train(df, roles, "classification", "c45", "gain_ratio", {}, Split())
