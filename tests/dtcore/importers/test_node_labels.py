"""What an imported tree's picture says of its nodes is true of the file: a boosting library's node
weight is a sum of hessians (XGBoost's ``sum_hessian``, LightGBM's ``internal_weight``), not a count
of rows, and files that keep no impurities get no impurity line (the tree holds 0 there, which the
boxes printed as "squared_error = 0"). Rows recounted from data (``restate``) are samples again."""

from __future__ import annotations

import json
import re

import lightgbm as lgb
import pytest
import xgboost as xgb
from sklearn.ensemble import HistGradientBoostingClassifier

import dtcore
from dtcore.export import dumps_model, to_dot
from dtcore.export.model_json import model_from_dict
from dtcore.export.origin import HESSIAN, ROWS
from dtcore.importers import restate
from tests.dtcore.importers import boosted_data as D


def loads_model(text: str):
    return model_from_dict(json.loads(text))


def node_rows(dot: str, node: int) -> list[str]:
    """The text rows of one node's box, markup removed."""
    line = next(l for l in dot.splitlines() if l.startswith(f"node{node} ["))
    return [re.sub(r"<[^>]+>", "", r) for r in re.findall(r"<TR><TD>(.*?)</TD></TR>", line)]


def xgboost_tree(tmp_path):
    X, y = D.cancer()
    path = tmp_path / "xgb.json"
    xgb.XGBClassifier(n_estimators=2, max_depth=3, n_jobs=1).fit(X, y).save_model(path)
    return dtcore.load_model(path, tree=0), X


def lightgbm_tree(tmp_path):
    X, y = D.cancer()
    path = tmp_path / "m.txt"
    lgb.LGBMClassifier(n_estimators=2, num_leaves=6, verbose=-1, n_jobs=1).fit(X, y).booster_.save_model(path)
    return dtcore.load_model(path, tree=0), X


@pytest.mark.parametrize("make", [xgboost_tree, lightgbm_tree], ids=["xgboost", "lightgbm"])
def test_a_boosted_trees_weight_is_a_hessian_sum_and_it_has_no_impurity_line(make, tmp_path):
    est, X = make(tmp_path)
    assert est.origin_.node_weight == HESSIAN and not est.origin_.impurities
    dot = to_dot(est)
    root = node_rows(dot, 0)
    hessian = f"hessian sum = {est.tree_.weighted_n[0]:.2f}"
    assert hessian in root, root
    assert not any(r.startswith(("squared_error", "gini", "entropy")) for r in root), root
    rows = [r for r in root if r.startswith("samples = ")]
    # LightGBM's file keeps each node's rows too; XGBoost's keeps none
    assert rows == ([f"samples = {len(X)}"] if make is lightgbm_tree else []), root
    # the model file keeps what the picture needs, and loads back to the same picture
    again = loads_model(dumps_model(est))
    assert again.origin_ == est.origin_ and to_dot(again) == dot
    # rows counted from data: the weight is theirs; the file still kept no impurity
    counted = restate(est, X, None)
    assert counted.origin_.node_weight == ROWS and not counted.origin_.impurities
    root = node_rows(to_dot(counted), 0)
    assert f"samples = {len(X)}" in root and not any("hessian" in r or "squared_error" in r for r in root)


def test_a_histogram_gradient_boosting_tree_counts_rows_and_has_no_impurity_line():
    X, y = D.cancer()
    hgb = HistGradientBoostingClassifier(max_iter=2, max_leaf_nodes=6, random_state=0).fit(X, y)
    est = dtcore.from_sklearn(hgb, tree=0)
    assert est.origin_.node_weight == ROWS and not est.origin_.impurities
    root = node_rows(to_dot(est), 0)
    assert f"samples = {len(X)}" in root and not any(r.startswith("squared_error") for r in root), root


def test_a_plain_tree_keeps_its_impurity_line_and_an_older_file_reads_as_before():
    X, y = D.iris()
    from sklearn.tree import DecisionTreeClassifier

    est = dtcore.from_sklearn(DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y))
    root = node_rows(to_dot(est), 0)
    assert root[1] == f"samples = {len(X)}" and root[-2].startswith("gini = ")
    text = dumps_model(est)
    assert '"node_weight"' not in text and '"impurities"' not in text  # defaults are not written
    assert loads_model(text).origin_ == est.origin_
    with pytest.raises(ValueError, match="node_weight"):
        loads_model(text.replace('"leaf_values"', '"node_weight": "bytes", "leaf_values"', 1))
