"""Issue 27 item 4 in the app: the "Node charts" toggle of Train & tree draws the tree with the
histograms, by the server's Graphviz in the pan/zoom frame; off, the picture is the plain one."""

from __future__ import annotations

from dtcore.export.node_charts import SPLIT_COLOR, node_charts
from tests.app.apptest import start
from tests.app.frame_pictures import frame_data, tree_frames
from ui.services.forcing import training_arrays


def frame_svgs(at) -> list[str]:
    return [frame_data(f)["svg"] for f in tree_frames(at)]


def test_the_toggle_draws_the_charts_and_keeps_them_in_the_url():
    at = start(sample="watermelon_3.0", algo="c45")
    assert not at.exception
    (plain,) = frame_svgs(at)  # a small tree: the plain picture, fitted to the column
    assert frame_data(tree_frames(at)[0])["fixed"]
    assert SPLIT_COLOR.lower() not in plain.lower()
    at.toggle(key="node_charts").set_value(True).run()
    assert not at.exception and not at.error
    (svg,) = frame_svgs(at)
    assert SPLIT_COLOR.lower() in svg.lower()
    res = at.session_state["result"]
    X, y = training_arrays(res, at.session_state["data"].df)
    charts = node_charts(res.estimator, X, y)
    # one split line per continuous cut of the training rows: C4.5's 密度 ≤ 0.36 under 纹理 = 清晰
    assert sum(len(c.marks) for c in charts.tests.values() if not c.labels) == 1
    assert svg.count(f'fill="{SPLIT_COLOR}"') == 1
    assert at.query_params.get("node_charts") in (["1"], "1")


def test_a_link_with_node_charts_opens_with_them():
    at = start(sample="iris", algo="cart", node_charts="1")
    assert not at.exception
    assert at.toggle(key="node_charts").value is True
    (svg,) = frame_svgs(at)
    assert SPLIT_COLOR.lower() in svg.lower()
