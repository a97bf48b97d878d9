"""Node charts in the DOT picture (issue 27 item 4): the split feature's class-stacked histogram
inside each test, leaf bars sized by samples, regression grids, drawn as HTML-like tables of
coloured cells; off by default, and then the DOT is what it was."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dtcore import C45Classifier, CARTClassifier, CARTRegressor
from dtcore.export import PALETTE, render, to_dot
from dtcore.export.node_charts import (
    CHART_HEIGHT,
    CHART_WIDTH,
    LEAF_HEIGHT,
    SPLIT_COLOR,
    node_charts,
    sturges_bins,
)
from dtcore.schema import encode_target
from tests.cli_runner import run_cli
from tests.datasets import DATA

ROOT = Path(__file__).resolve().parents[2]
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")


def melon(name: str = "watermelon_3.0.csv") -> tuple[pd.DataFrame, pd.Series]:
    df = pd.read_csv(DATA / name, dtype={"编号": str})
    return df.drop(columns=["编号", "好瓜"]), df["好瓜"]


def fitted(cls, X, y, **params):
    est = cls(**params).fit(X, y, target_name=y.name)
    y_enc = (
        encode_target(est.schema_, y.to_numpy(dtype=object))
        if est.schema_.classes is not None
        else y.to_numpy(float)
    )
    return est, est.encode(X), y_enc


def stack_cell(height: int, color: str, width: int) -> str:
    return f'<TD WIDTH="{width}" HEIGHT="{height}" FIXEDSIZE="TRUE" BGCOLOR="{color}"></TD>'


def test_c45_on_watermelon_3_root_texture_bars_hold_the_datas_counts():
    X, y = melon()
    est, Xe, ye = fitted(C45Classifier, X, y)
    tree, schema = est.tree_, est.schema_
    assert schema.features[int(tree.feature[0])].name == "纹理"
    charts = node_charts(est, Xe, ye)
    root = charts.tests[0]
    # one bar per category, every category its own branch: a line between each
    cats = list(schema.features[int(tree.feature[0])].categories)
    assert list(root.labels) == cats == ["清晰", "稍糊", "模糊"]
    assert root.marks == (0, 1)
    classes = list(schema.classes)  # 是, 否
    expected = pd.crosstab(X["纹理"], y).reindex(index=cats, columns=classes).to_numpy()
    assert expected.tolist() == [[7, 2], [1, 4], [0, 3]]
    assert root.counts.tolist() == expected.tolist()
    # in the DOT: the tallest bar (清晰, 9 rows) is CHART_HEIGHT high, 是 7/9 of it at the bottom
    dot = to_dot(est, charts=charts)
    blue, orange = PALETTE[0], PALETTE[1]
    w = root.widths[0]
    assert w == 30
    assert stack_cell(28, blue, w) + "</TR><TR>" not in dot  # class 0 is the bottom cell
    assert f"<TR>{stack_cell(8, orange, w)}</TR><TR>{stack_cell(28, blue, w)}</TR>" in dot  # 清晰
    assert f"<TR>{stack_cell(16, orange, w)}</TR><TR>{stack_cell(4, blue, w)}</TR>" in dot  # 稍糊: 5/9·36
    assert f"<TR>{stack_cell(12, orange, w)}</TR>" in dot  # 模糊: 3/9·36, all 否


def test_c45_density_under_clear_texture_split_line_between_the_nodes_rows():
    """纹理 = 清晰 → 密度 ≤ 0.36 (release 8's threshold; the cut 0.3815): the 2 rows at or below
    are 否, the 7 above 是; the split line sits at 0.3815, between 0.360 and 0.403."""
    X, y = melon()
    est, Xe, ye = fitted(C45Classifier, X, y)
    tree = est.tree_
    node = int(tree.children_of(0)[0])
    assert est.schema_.features[int(tree.feature[node])].name == "密度"
    chart = node_charts(est, Xe, ye).tests[node]
    clear = X["纹理"] == "清晰"
    assert clear.sum() == 9
    assert sturges_bins(9) == 5
    (mark,) = chart.marks
    left, right = chart.counts[: mark + 1].sum(axis=0), chart.counts[mark + 1 :].sum(axis=0)
    dens, good = X.loc[clear, "密度"], y[clear] == "是"
    assert left.tolist() == [float((good & (dens <= 0.36)).sum()), float((~good & (dens <= 0.36)).sum())]
    assert left.tolist() == [0, 2] and right.tolist() == [7, 0]
    assert (chart.low, chart.high) == (dens.min(), dens.max())
    # the columns' widths follow the value axis: the split line at 0.3815 of [0.243, 0.774]
    assert sum(chart.widths) == CHART_WIDTH
    at = sum(chart.widths[: mark + 1]) / CHART_WIDTH
    assert abs(at - (0.3815 - 0.243) / (0.774 - 0.243)) < 0.02
    dot = to_dot(est, charts=charts_of(est, Xe, ye))
    assert f'<TD WIDTH="2" HEIGHT="{CHART_HEIGHT}" FIXEDSIZE="TRUE" BGCOLOR="{SPLIT_COLOR}"></TD>' in dot


def charts_of(est, Xe, ye):
    return node_charts(est, Xe, ye)


def test_cart_on_watermelon_3_groups_the_categories_by_branch():
    X, y = melon()
    est, Xe, ye = fitted(CARTClassifier, X, y)
    tree, schema = est.tree_, est.schema_
    chart = node_charts(est, Xe, ye).tests[0]
    feat = schema.features[int(tree.feature[0])]
    branch = tree.cat_branch_of(0)
    groups = [
        [feat.categories.index(c) for c in chart.labels if branch[feat.categories.index(c)] == b]
        for b in (0, 1)
    ]
    # left branch's categories first, a line after them, then the right branch's
    assert len(groups[0]) + len(groups[1]) == len(chart.labels)
    assert chart.marks == (len(groups[0]) - 1,)
    for k, cat in enumerate(chart.labels):
        rows = X[feat.name] == cat
        assert chart.counts[k].tolist() == [float((y[rows] == c).sum()) for c in schema.classes]


def test_leaves_bars_are_sized_by_samples():
    X, y = melon()
    est, Xe, ye = fitted(C45Classifier, X, y)
    tree = est.tree_
    charts = node_charts(est, Xe, ye)
    leaves = np.flatnonzero(tree.is_leaf)
    largest = tree.weighted_n[leaves].max()
    assert charts.largest_leaf == largest
    dot = to_dot(est, charts=charts)
    for i in leaves:
        box = re.search(rf"^node{i} \[.*\];$", dot, re.MULTILINE).group(0)
        widths = [int(w) for w in re.findall(rf'WIDTH="(\d+)" HEIGHT="{LEAF_HEIGHT}"', box)]
        assert sum(widths) == max(4, round(CHART_WIDTH * tree.weighted_n[i] / largest))


def test_missing_values_the_histograms_hold_the_weights_of_known_values():
    """watermelon 2.0 with missing values (C4.5's shares): every test's chart holds the weight of
    the rows at the node whose tested value is known."""
    X, y = melon("watermelon_2.0_missing.csv")
    est, Xe, ye = fitted(C45Classifier, X, y)
    tree = est.tree_
    charts = node_charts(est, Xe, ye)
    assert set(charts.tests) == set(np.flatnonzero(~tree.is_leaf).tolist())
    for node, chart in charts.tests.items():
        rows, w = tree.reach(Xe, node)
        known = ~np.isnan(Xe[rows, int(tree.feature[node])])
        assert chart.counts.sum() == pytest.approx(w[known].sum())
    assert charts.tests[0].counts.sum() == 15  # 纹理 known in 15 of 17 rows


def test_regression_grid_and_leaf_histograms():
    df = pd.read_csv(DATA / "regression_toy10.csv")
    est, Xe, ye = fitted(CARTRegressor, df[["x1"]], df["y"], max_depth=2)
    tree = est.tree_
    charts = node_charts(est, Xe, ye)
    assert charts.regression
    root = charts.tests[0]
    assert root.counts.sum() == 10 and root.counts.shape[1] == 8
    (mark,) = root.marks
    left = int(root.counts[: mark + 1].sum())
    assert left == int((df["x1"] <= tree.cuts_of(0)[0]).sum())
    for i in np.flatnonzero(tree.is_leaf):
        assert charts.leaves[i].sum() == tree.weighted_n[i]
    dot = to_dot(est, charts=charts)
    assert dot.count(SPLIT_COLOR) == sum(len(c.marks) for c in charts.tests.values()) * 8  # a line per row


def test_off_by_default_the_dot_is_unchanged_and_on_it_is_deterministic():
    X, y = melon()
    est, Xe, ye = fitted(C45Classifier, X, y)
    plain = to_dot(est)
    assert to_dot(est, charts=None) == plain
    assert SPLIT_COLOR not in plain and f'HEIGHT="{CHART_HEIGHT}"' not in plain
    on = to_dot(est, charts=node_charts(est, Xe, ye))
    assert on != plain
    assert on == to_dot(est, charts=node_charts(est, Xe.copy(), ye.copy()))


def test_category_labels_are_escaped():
    X = pd.DataFrame({"f": ["<a&b>", "<a&b>", "x", "x", "y", "y"] * 2})
    y = pd.Series(["p", "p", "n", "n", "p", "n"] * 2, name="t")
    est, Xe, ye = fitted(C45Classifier, X, y, min_cases=1)
    dot = to_dot(est, charts=node_charts(est, Xe, ye))
    assert "&lt;a&amp;b&gt;" in dot
    assert "<a&b>" not in dot


@needs_dot
def test_the_svg_holds_the_charts_as_elements_the_frame_keeps():
    X, y = melon()
    est, Xe, ye = fitted(C45Classifier, X, y)
    svg = render(to_dot(est, charts=node_charts(est, Xe, ye)), "svg").decode()
    assert render(to_dot(est, charts=node_charts(est, Xe, ye)), "svg").decode() == svg
    assert f'fill="{SPLIT_COLOR}"' in svg
    assert f'fill="{PALETTE[0]}"' in svg
    frame = (ROOT / "dtcore/export/assets/frame.js").read_text()
    allowed = set(re.findall(r'"(\w+)"', frame[frame.index("const ELEMENTS") : frame.index("]);")]))
    used = set(re.findall(r"<(\w+)[\s>]", svg)) - {"title", "svg"}
    assert used <= allowed, used - allowed
    assert "<image" not in svg and "href" not in svg.replace('xmlns:xlink="http://www.w3.org/1999/xlink"', "")


def test_cli_train_node_charts_flag(tmp_path):
    out, plain = tmp_path / "t.dot", tmp_path / "p.dot"
    args = [str(DATA / "watermelon_3.0.csv"), "--target", "好瓜", "--ignore", "编号", "--algorithm", "c45"]
    assert run_cli("train", *args, "--out", out, "--node-charts").returncode == 0
    assert run_cli("train", *args, "--out", plain).returncode == 0
    X, y = melon()
    est, Xe, ye = fitted(C45Classifier, X, y)
    assert plain.read_text(encoding="utf-8") == to_dot(est)
    assert out.read_text(encoding="utf-8") == to_dot(est, charts=node_charts(est, Xe, ye))


def test_sturges_rule():
    import math

    assert [sturges_bins(n) for n in (0, 1, 2, 3, 4, 5, 8, 9, 17, 150)] == [1, 1, 2, 3, 3, 4, 4, 5, 6, 9]
    assert all(sturges_bins(n) == min(12, math.ceil(math.log2(n)) + 1) for n in range(2, 5000))
