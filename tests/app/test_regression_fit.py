"""A regression tree shows how it fits (issue 16, item 17): predicted against actual, residuals,
and the actual values in each leaf, for the split the user picks (held-out rows first). The
charts are the server's SVG (ui/figures/regression.py, whose drawing tests/ui/test_regression_svg.py
checks): here, that the page draws them from the model's own predictions on the chosen rows."""

from __future__ import annotations

import numpy as np

from tests.app.apptest import start
from tests.ui.test_regression_svg import TEXTS as SVG_TEXTS
from ui.figures.regression import leaf_values_svg, predicted_actual_svg, residuals_svg

#: the page's English words (the drawing tests' own, but the whiskers' full label)
TEXTS = {**SVG_TEXTS, "whiskers": "whiskers (within 1.5 × IQR)"}


def svgs(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("<svg") and "dt-static-chart" in m.value]


def test_diabetes_regression_fit_charts_match_the_model():
    at = start(sample="diabetes", algo="cart", cart_max_depth="4")
    assert not at.exception
    assert not at.get("plotly_chart")  # no Plotly on the page: static SVG from the server
    res = at.session_state["result"]
    radio = at.radio(key="regfit_split")
    assert radio.value == "test"  # held-out rows first
    df = at.session_state["data"].df
    est = res.estimator

    def expected(split: str) -> list[str]:
        rows = res.rows[split]
        truth = df[res.target].to_numpy(dtype=float)[rows]
        X = df[res.features].to_numpy(dtype=object)[rows]
        pred, leaf = est.predict(X), est.apply(X)
        values = dict(enumerate(est.tree_.value[:, 0].tolist()))
        return [
            predicted_actual_svg(truth, pred, TEXTS),
            residuals_svg(truth, pred, TEXTS),
            leaf_values_svg(leaf, truth, values, TEXTS),
        ]

    shown = svgs(at)
    for chart in expected("test"):
        assert chart in shown
    # every point of the held-out rows has its tooltip (fewer than TIP_POINTS), every box a leaf's
    assert expected("test")[0].count("<circle") == res.rows["test"].size
    leaves = set(np.flatnonzero(est.tree_.is_leaf).tolist())
    boxes = [int(t.split(" ·")[0]) for t in expected("test")[2].split("<title>#")[1:]]
    assert boxes and set(boxes) <= leaves
    radio.set_value("train").run()
    assert not at.exception
    shown = svgs(at)
    for chart in expected("train"):
        assert chart in shown


def test_classification_has_no_regression_charts():
    at = start(sample="iris", algo="cart")
    assert not at.exception
    assert not [r for r in at.radio if r.key == "regfit_split"]
