"""A regression tree shows how it fits (issue 16, item 17): predicted against actual, residuals,
and the actual values in each leaf, for the split the user picks (held-out rows first)."""

from __future__ import annotations

import json

import numpy as np

from tests.app.apptest import start


def _titled(specs, axis: str, title: str) -> dict:
    return next(s for s in specs if s["layout"].get(axis, {}).get("title", {}).get("text") == title)


def test_diabetes_regression_fit_charts_match_the_model():
    at = start(sample="diabetes", algo="cart", cart_max_depth="4")
    assert not at.exception
    res = at.session_state["result"]
    radio = at.radio(key="regfit_split")
    assert radio.value == "test"  # held-out rows first
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    scatter = _titled(specs, "yaxis", "predicted")
    points = scatter["data"][1]
    df = at.session_state["data"].df
    test_rows = res.rows["test"]
    truth = df[res.target].to_numpy(dtype=float)[test_rows]
    pred = res.estimator.predict(df[res.features].to_numpy(dtype=object)[test_rows])
    np.testing.assert_allclose(points["x"], truth)
    np.testing.assert_allclose(points["y"], pred)
    boxes = _titled(specs, "xaxis", "leaf")
    leaves = {t["name"] for t in boxes["data"] if t["type"] == "box"}
    assert leaves and all(int(n[1:]) in set(np.flatnonzero(res.estimator.tree_.is_leaf)) for n in leaves)
    diamonds = boxes["data"][-1]
    values = res.estimator.tree_.value[:, 0]
    assert diamonds["y"] == [round(float(values[int(n[1:])]), 10) for n in diamonds["x"]]
    radio.set_value("train").run()
    assert not at.exception


def test_classification_has_no_regression_charts():
    at = start(sample="iris", algo="cart")
    assert not at.exception
    assert not [r for r in at.radio if r.key == "regfit_split"]
