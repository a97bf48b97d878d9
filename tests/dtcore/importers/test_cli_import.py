"""The command line takes other libraries' model files as MODEL (told apart by content) and
``--tree`` picks the member: ``show``, ``predict`` and ``export`` on XGBoost, LightGBM and PMML."""

from __future__ import annotations

import json
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
import xgboost as xgb

import dtcore
from tests.cli_runner import run_cli
from tests.dtcore.importers import boosted_data as D
from tests.dtcore.test_cli import assert_user_error

PMML = Path(__file__).resolve().parents[2] / "data" / "pmml"


def test_show_names_the_origin_of_an_xgboost_tree(tmp_path):
    X, y = D.iris()
    path = tmp_path / "x.json"
    xgb.XGBClassifier(n_estimators=2, max_depth=2, n_jobs=1).fit(X, y).save_model(path)
    proc = run_cli("show", path, "--tree", "4", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert info["origin"]["source"] == "XGBoost JSON model"
    assert info["origin"]["member"] == 4 and info["origin"]["n_members"] == 6
    assert info["origin"]["output"] == "1" and info["origin"]["leaf_values"] == "raw score"
    assert info["task"] == "regression" and info["features"][0]["name"] == "f0"
    text = run_cli("show", path, "--tree", "4")
    est = dtcore.load_model(path, tree=4)
    assert text.returncode == 0 and est.schema_.names[est.tree_.feature[0]] in text.stdout
    # the rules say first which tree they are and that its leaves are raw scores
    head = text.stdout.splitlines()[:4]
    assert head[:3] == [
        "# XGBoost JSON model, tree 4 of 6",
        "# Its leaves hold a raw score (a log-odds or margin contribution), not a probability.",
        "# It scores class 1.",
    ], head
    assert head[3] == f"# Source: {est.origin_.note}." and text.stdout.split("\n", 4)[4].startswith("|--- ")


def test_predict_with_a_lightgbm_text_model_member(tmp_path):
    X, y = D.diabetes()
    names = [f"c{j}" for j in range(X.shape[1])]
    df = pd.DataFrame(X, columns=names)
    booster = lgb.LGBMRegressor(n_estimators=3, num_leaves=5, verbose=-1, n_jobs=1).fit(df, y).booster_
    model = tmp_path / "l.txt"
    booster.save_model(model)
    data = tmp_path / "d.csv"
    df.to_csv(data, index=False)
    proc = run_cli("predict", model, data, "--tree", "2")
    assert proc.returncode == 0, proc.stderr
    got = np.array([float(v) for v in proc.stdout.split()[1:]])
    ref = booster.predict(df, start_iteration=2, num_iteration=1, raw_score=True)
    np.testing.assert_allclose(got, ref, rtol=1e-3)  # the CSV prints 4 significant digits


def test_export_a_pmml_tree_to_dot(tmp_path):
    out = tmp_path / "t.dot"
    proc = run_cli("export", PMML / "golf_multiway.pmml", "--out", out)
    assert proc.returncode == 0, proc.stderr
    dot = out.read_text(encoding="utf-8")
    assert "outlook" in dot and "humidity" in dot and "overcast" in dot


def test_a_bad_tree_index_and_an_unmappable_file_are_one_line_errors(tmp_path):
    assert_user_error(run_cli("show", PMML / "golf_multiway.pmml", "--tree", "3"), "1 TreeModel")
    assert_user_error(
        run_cli("show", PMML / "two_fields_in_one_node.pmml"), "a dtcore test reads one feature"
    )
