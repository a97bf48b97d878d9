"""An imported tree's origin note is made of clauses (a key of ``NOTE_CLAUSES`` and the source's
own words as fields), so that the app can word it in 中文: the note is their English joined, the
model file keeps them, and a damaged clause is refused in words. Files written before the clauses
load as before (their English note, no clauses)."""

from __future__ import annotations

import json
from pathlib import Path

import lightgbm as lgb
import pytest
import xgboost as xgb
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.ensemble import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
)

import dtcore
from dtcore.export import dumps_model
from dtcore.export.model_json import model_from_dict
from dtcore.export.origin import NOTE_CLAUSES, clause, clause_fields
from tests.dtcore.importers import boosted_data as D

CANCER = lambda: load_breast_cancer(return_X_y=True)  # noqa: E731 (GradientBoosting takes no NaN)
IRIS = lambda: load_iris(return_X_y=True)  # noqa: E731
DIABETES = lambda: load_diabetes(return_X_y=True)  # noqa: E731

PMML = Path(__file__).resolve().parents[2] / "data" / "pmml"


def from_sklearn(model, data):
    X, y = data()
    return dtcore.from_sklearn(model.fit(X, y), tree=1)


def from_file(tmp_path, name, save, data):
    X, y = data()
    path = tmp_path / name
    save(X, y, path)
    return dtcore.load_model(path, tree=0)


IMPORTS = {
    "forest": lambda tmp: from_sklearn(RandomForestClassifier(3, max_depth=3, random_state=0), D.iris),
    "gb_binary": lambda tmp: from_sklearn(GradientBoostingClassifier(n_estimators=2, max_depth=2), CANCER),
    "gb_multiclass": lambda tmp: from_sklearn(GradientBoostingClassifier(n_estimators=2, max_depth=2), IRIS),
    "gb_regression": lambda tmp: from_sklearn(
        GradientBoostingRegressor(n_estimators=2, max_depth=2), DIABETES
    ),
    "hgb_binary": lambda tmp: from_sklearn(
        HistGradientBoostingClassifier(max_iter=2, max_leaf_nodes=4), D.cancer
    ),
    "hgb_regression": lambda tmp: from_sklearn(
        HistGradientBoostingRegressor(max_iter=2, max_leaf_nodes=4), D.diabetes
    ),
    "xgboost_dart": lambda tmp: from_file(
        tmp,
        "m.json",
        lambda X, y, p: (
            xgb.XGBClassifier(n_estimators=2, max_depth=2, booster="dart", n_jobs=1).fit(X, y).save_model(p)
        ),
        D.cancer,
    ),
    "lightgbm": lambda tmp: from_file(
        tmp,
        "m.txt",
        lambda X, y, p: (
            lgb.LGBMClassifier(n_estimators=2, num_leaves=4, verbose=-1, n_jobs=1)
            .fit(X, y)
            .booster_.save_model(p)
        ),
        D.cancer,
    ),
    "pmml": lambda tmp: dtcore.load_model(PMML / "golf_multiway.pmml"),
}


@pytest.mark.parametrize("kind", list(IMPORTS))
def test_the_note_is_its_clauses_in_english_and_the_file_keeps_them(kind, tmp_path):
    est = IMPORTS[kind](tmp_path)
    origin = est.origin_
    assert origin.clauses and all(c.key in NOTE_CLAUSES for c in origin.clauses)
    assert origin.note == "; ".join(NOTE_CLAUSES[c.key].format(**dict(c.values)) for c in origin.clauses)
    again = model_from_dict(json.loads(dumps_model(est)))
    assert again.origin_ == origin


def test_the_clauses_hold_the_sources_own_words(tmp_path):
    keys = {
        kind: [c.key for c in IMPORTS[kind](tmp_path).origin_.clauses]
        for kind in ("gb_binary", "xgboost_dart")
    }
    assert keys["gb_binary"] == ["gb_log_odds", "gb_learning_rate"]
    assert keys["xgboost_dart"] == ["xgb_leaves", "xgb_sum", "xgb_dart", "xgb_statistics"]
    gb = IMPORTS["gb_binary"](tmp_path).origin_.clauses
    assert dict(gb[0].values) == {"label": "'1'"} and dict(gb[1].values) == {"rate": "0.1"}
    assert dict(IMPORTS["xgboost_dart"](tmp_path).origin_.clauses[0].values) == {
        "objective": "binary:logistic"
    }


def test_a_file_without_clauses_reads_its_english_note(tmp_path):
    est = IMPORTS["forest"](tmp_path)
    d = json.loads(dumps_model(est))
    del d["origin"]["clauses"]
    old = model_from_dict(d)
    assert old.origin_.clauses == () and old.origin_.note == est.origin_.note


@pytest.mark.parametrize(
    ("clauses", "words"),
    [
        ({"key": "xgb_leaves"}, "objective"),  # a field missing
        ({"key": "xgb_dart", "objective": "x"}, "no fields"),  # a field too many
        ({"key": "xgb_leaves", "objective": 3}, "as text"),
        ({"key": "no_such_clause"}, "known key"),
        ({"key": ["xgb_dart"]}, "known key"),  # not text (a list cannot even be looked up)
        ("xgb_dart", "known key"),
    ],
)
def test_a_damaged_clause_is_refused_in_words(clauses, words, tmp_path):
    d = json.loads(dumps_model(IMPORTS["forest"](tmp_path)))
    d["origin"]["clauses"] = [clauses]
    with pytest.raises(ValueError, match=words):
        model_from_dict(d)
    d["origin"]["clauses"] = {"key": "xgb_dart"}
    with pytest.raises(ValueError, match="must be a list"):
        model_from_dict(d)


def test_a_clause_takes_exactly_its_fields():
    assert clause_fields("xgb_sum") == ("base",)
    assert clause("xgb_sum", base=0.5).text() == NOTE_CLAUSES["xgb_sum"].format(base="0.5")
    with pytest.raises(ValueError, match="takes"):
        clause("xgb_sum")
    with pytest.raises(ValueError, match="takes"):
        clause("xgb_dart", base=1)
