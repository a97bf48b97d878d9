"""The Compare page's cross-validation chart as static SVG (``ui.figures.compare.cv_svg``): every
fold's point and each box's numbers in their tooltips, labels escaped, the same bytes each time."""

import xml.etree.ElementTree as ET

import numpy as np

from ui.figures.compare import cv_svg
from ui.figures.style import plain

SVG = "{http://www.w3.org/2000/svg}"


def test_the_cv_chart_states_every_fold_and_each_box():
    words = {
        "fold": "fold {k}",
        "mean": "mean",
        "median": "median",
        "quartiles": "quartiles",
        "range": "folds from",
    }
    scores = [[0.8, 0.82, 0.79, 0.9, 0.85], [0.7, 0.72, np.nan, 0.71, 0.69]]
    svg = cv_svg(["C4.5", "<i>CART</i>"], scores, "accuracy", words)
    assert svg == cv_svg(["C4.5", "<i>CART</i>"], scores, "accuracy", words)
    tips = [t.text for t in ET.fromstring(svg).iter(SVG + "title")]
    boxes = [t for t in tips if "\n" in t]
    assert len(boxes) == 2 and "<i>CART</i>" in boxes[1] and "<i>" not in svg
    folds = [t for t in tips if "\n" not in t]
    assert folds[:5] == [f"C4.5 · fold {k + 1}: {plain(v)}" for k, v in enumerate(scores[0])]
    assert len(folds) == 9  # a fold without a score is not drawn
    q1, med, q3 = np.percentile(scores[0], [25, 50, 75])
    assert boxes[0].split("\n")[1:] == [
        f"mean {plain(np.mean(scores[0]))}",
        f"median {plain(med)}",
        f"quartiles {plain(q1)} – {plain(q3)}",
        "folds from 0.79 – 0.9",
    ]
