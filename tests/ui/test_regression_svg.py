"""The regression fit charts as static SVG (``ui.figures.regression``): the boxes' numbers are the
rows' true quartiles and whiskers, each point sits where its values put it, big splits are thinned
to one path, user text is escaped, the same input gives the same bytes."""

import re
import xml.etree.ElementTree as ET

import numpy as np

from ui.figures import regression as R
from ui.figures.static_charts import box_stats
from ui.figures.style import plain

SVG = "{http://www.w3.org/2000/svg}"
TEXTS = {
    "actual": "actual",
    "predicted": "predicted",
    "residual": "actual − predicted",
    "leaf": "leaf",
    "leaf_value": "prediction",
    "rows": "rows",
    "median": "median",
    "quartiles": "quartiles",
    "whiskers": "whiskers",
}


def test_box_stats_are_the_quartiles_and_the_whiskers_within_one_and_a_half_iqr():
    v = np.array([1.0, 2, 3, 4, 5, 6, 7, 8, 100])
    low, q1, med, q3, high = box_stats(v)
    assert (q1, med, q3) == tuple(np.percentile(v, [25, 50, 75]))
    assert low == 1.0 and high == 8.0  # 100 lies past Q3 + 1.5 IQR: the whisker stops at 8
    assert box_stats(np.array([2.5])) == (2.5, 2.5, 2.5, 2.5, 2.5)


def test_each_leaf_box_states_its_rows_numbers():
    rng = np.random.default_rng(0)
    leaf = rng.integers(0, 40, size=5000) * 2 + 1  # 40 leaves, odd ids
    truth = rng.normal(size=5000) + leaf / 10
    values = {int(i): float(truth[leaf == i].mean()) for i in np.unique(leaf)}
    svg = R.leaf_values_svg(leaf, truth, values, TEXTS)
    tips = [t.text for t in ET.fromstring(svg).iter(SVG + "title")]
    top = R.largest_leaves(leaf)
    assert len(tips) == len(top) == R.MAX_LEAVES
    counts = {int(i): int((leaf == i).sum()) for i in top}
    assert min(counts.values()) >= max(int((leaf == i).sum()) for i in set(values) - set(counts))
    for tip, i in zip(tips, top.tolist()):
        low, q1, med, q3, high = box_stats(truth[leaf == i])
        assert tip.split("\n") == [
            f"#{i} · {counts[i]:,} rows",
            f"prediction {plain(values[i])}",
            f"median {plain(med)}",
            f"quartiles {plain(q1)} – {plain(q3)}",
            f"whiskers {plain(low)} – {plain(high)}",
        ]


def test_points_sit_at_their_values_and_big_splits_are_one_thinned_path():
    truth = np.array([0.0, 1.0, 2.0, 4.0])
    pred = np.array([0.0, 1.5, 2.0, 3.0])
    svg = R.predicted_actual_svg(truth, pred, TEXTS)
    circles = list(ET.fromstring(svg).iter(SVG + "circle"))
    assert [c.find(SVG + "title").text for c in circles] == [
        f"actual {plain(a)} · predicted {plain(b)}" for a, b in zip(truth, pred)
    ]
    cx = [float(c.get("cx")) for c in circles]
    cy = [float(c.get("cy")) for c in circles]
    # x grows with the true value, y (downwards on screen) falls as the prediction grows
    assert cx == sorted(cx) and cy[0] > cy[1] > cy[2] > cy[3]
    # evenly spaced true values land evenly spaced (to the 0.1 px the picture is written in)
    assert abs((cx[1] - cx[0]) - (cx[2] - cx[1])) <= 0.11
    big = np.arange(50_000, dtype=float)
    svg = R.residuals_svg(big, big + np.sin(big), TEXTS)
    assert "<circle" not in svg and len(re.findall(r"h0", svg)) == R.MAX_POINTS
    assert len(svg) < 70_000
    assert svg == R.residuals_svg(big, big + np.sin(big), TEXTS)  # byte-identical


def test_missing_values_are_left_out_and_labels_escaped():
    texts = {**TEXTS, "actual": "<b>y</b> & z"}
    svg = R.predicted_actual_svg([1.0, np.nan, 3.0], [1.0, 2.0, np.inf], texts)
    root = ET.fromstring(svg)  # well-formed
    assert len(list(root.iter(SVG + "circle"))) == 1
    assert "<b>" not in svg and "&lt;b&gt;y&lt;/b&gt; &amp; z" in svg
