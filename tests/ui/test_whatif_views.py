"""What-if views and the node data figures, on their DOT / tables / figure JSON (no Streamlit)."""

import re

import numpy as np
import pytest

from dtcore import explain
from dtcore.export.thresholds import node_thresholds
from dtcore.numbers import fmt_weight
from tests.dtcore.whatif_models import fitted
from ui.figures.node_data import node_children_svg, node_feature_svg
from ui.figures.style import plain
from ui.views import whatif as W
from ui.views.text import TABLE_CSS, TextTable, table_html

TEXTS = {
    "count": "w",
    "threshold": "t",
    "mean": "mean",
    "value": "v",
    "missing": "?",
    "rows": "rows",
    "median": "median",
    "quartiles": "quartiles",
    "whiskers": "whiskers",
}


def tr(key, **values):
    return key


def test_editor_values_from_a_row_and_back():
    est, X, Xe = fitted("watermelon_2.0_missing", "c45")
    values = W.field_values(est, X[7])
    assert values[3] is None and values[0] == "乌黑"
    row = W.sample_row(est, values)
    np.testing.assert_array_equal(np.isnan(explain.explain_prediction(est, row).x), np.isnan(Xe[7]))


def test_whatif_dot_folds_off_path_and_escapes_notes():
    est, X, Xe = fitted("credit-g", "cart")
    ex = explain.explain_prediction(est, Xe[0])
    dot = W.whatif_dot(est, ex, "en", missing="<missing>")
    path = set(ex.path_nodes)
    tree = est.tree_
    beside = {int(c) for p in path for c in tree.children_of(p)} - path  # drawn, off the path
    for i in beside:
        if tree.feature[i] >= 0:
            assert f'id="dtmore{i}"' in dot  # folded: a summary box
    drawn = {int(n) for n in re.findall(r"^node(\d+) \[", dot, re.M)}
    assert drawn == path | beside
    ex2 = explain.explain_prediction(est, np.full(Xe.shape[1], np.nan))
    assert "&lt;missing&gt; →" in W.whatif_dot(est, ex2, "en", missing="<missing>")


def test_tables():
    est, X, Xe = fitted("watermelon_2.0_missing", "c45")
    ex = explain.explain_prediction(est, Xe[7])
    leaves = W.leaves_table(ex, tr)
    assert leaves.column("whatif.col.weight") == ["7/15", "1/3", "1/5"]
    assert leaves.columns[2:] == tuple(str(c) for c in ex.classes)
    for row, r in zip(leaves.rows, ex.leaves):  # "count (share)" per class, shares to 3 decimals
        assert row[2:] == tuple(f"{fmt_weight(n)} ({p:.3f})" for n, p in zip(r.counts, r.distribution))
    cf = W.counterfactual_table(ex, tr)
    first = dict(zip(cf.columns, cf.rows[0]))
    assert first["whatif.col.value"] == "whatif.missing" and "→" in first["whatif.col.flips"]
    probs = W.probabilities_table(ex, tr)
    assert abs(sum(ex.proba) - 1) < 1e-12
    assert probs.column("whatif.col.class") == [str(c) for c in ex.classes]
    assert probs.column("whatif.col.probability") == [f"{p:.3f}" for p in ex.proba]
    reg, _, Xr = fitted("diabetes", "cart")
    ex = explain.explain_prediction(reg, Xr[0])
    assert W.probabilities_table(ex, tr) is None
    (row,) = W.leaves_table(ex, tr).rows
    assert row[2] == f"{ex.leaves[0].distribution[0]:.6g}"


def test_table_html_escapes_user_text():
    """Headers and cells are user data (column names, labels): escaped, never markup."""
    table = TextTable(("<b>x</b>", "a:b"), (("<script>alert(1)</script>", '" onmouseover="x'),))
    html = table_html(table)
    assert "<script>" not in html and "<b>" not in html and '" onmouseover' not in html
    assert "&lt;script&gt;" in html and "a&#58;b" in html
    assert html.count("<tr>") == 2 and html.count("<td>") == 2 and "\n" not in html


def test_a_table_of_rows_keeps_their_order_and_a_tall_one_scrolls_under_its_header():
    rows = [{"rank": 1, "feature": "纹理", "gain": "0.3809"}, {"rank": "", "feature": "a<b", "gain": "–"}]
    table = TextTable.of_rows(rows)
    assert table.columns == ("rank", "feature", "gain")
    assert table.rows == (("1", "纹理", "0.3809"), ("", "a<b", "–"))
    assert TextTable.of_rows([]) == TextTable((), ())
    boxed = table_html(table, max_height="24rem")
    assert boxed.startswith('<div class="dt-table-box" style="max-height: 24rem"><table class="dt-table">')
    assert "a&lt;b" in boxed and "dt-table-box" not in table_html(table)
    # the look is one stylesheet, not a style per cell: the boxed table's header sticks, scrolls
    rules = dict(r.split("{") for r in TABLE_CSS.rstrip("}").split("}"))
    assert (
        "position:sticky" in rules[".dt-table-box .dt-table th"] and "overflow:auto" in rules[".dt-table-box"]
    )
    assert "style=" not in table_html(table)


def test_node_data_charts_classification_and_regression():
    """The node data's charts are static SVG: the root's histogram holds the root's weight, its
    threshold is marked where the tree cuts, the children's bars add up to it; for regression
    the rows are points and each child's mean a segment."""
    import xml.etree.ElementTree as ET

    svg_ns = "{http://www.w3.org/2000/svg}"
    est, X, Xe = fitted("iris", "c45")
    y = np.array([list(est.schema_.classes).index(v) for v in fitted_y("iris")])
    nd = explain.explainer_data(est, Xe, y, None, 0)
    svg = node_feature_svg(nd, texts=TEXTS)
    root = ET.fromstring(svg)
    bars = [float(t.text.rsplit(": ", 1)[1]) for t in root.iter(svg_ns + "title")]
    assert sum(bars) == pytest.approx(est.tree_.weighted_n[0])
    shown = node_thresholds(est.tree_, 0, 4)[0]
    assert f"{TEXTS['threshold']} {shown}" in svg and "stroke-dasharray" in svg
    children = node_children_svg(est.tree_, est.schema_, 0, texts=TEXTS)
    # every segment's tooltip ends with its count: together the root's weight
    counts = [float(c) for c in re.findall(r"<title>[^<]* · [^<]*: ([\d.]+)</title>", children)]
    assert len(counts) >= 2 and sum(counts) == pytest.approx(est.tree_.weighted_n[0])
    assert svg == node_feature_svg(nd, texts=TEXTS)  # byte-identical
    reg, Xr, Xre = fitted("diabetes", "cart")
    nd = explain.explainer_data(reg, Xre, np.asarray(fitted_y("diabetes"), float), None, 0)
    root = ET.fromstring(node_feature_svg(nd, texts=TEXTS))
    segments = [t.text for t in root.iter(svg_ns + "title") if TEXTS["mean"] in (t.text or "")]
    kids = reg.tree_.children_of(0)
    assert segments == [f"#{int(k)} {TEXTS['mean']} {plain(reg.tree_.value[k, 0])}" for k in kids]
    # 442 rows: more than get a tooltip each, drawn as one path of a dot per row
    dots = [el.get("d") for el in root.iter(svg_ns + "path") if (el.get("d") or "").endswith("h0")]
    assert len(dots) == 1 and dots[0].count("h0") == int(reg.tree_.weighted_n[0])


def fitted_y(sample):
    from dtcore.cli import prepare_training
    from dtcore.data.readers import read_table
    from tests.datasets import DATA
    from tests.dtcore.whatif_models import samples

    s = next(s for s in samples() if s["id"] == sample)
    return prepare_training(read_table(DATA / s["file"]), s["target"], ignore=s["ignore"])[1]


def test_node_data_tooltips_name_a_bars_value_or_its_bin_and_thinning_is_told():
    """A bar per distinct value names that value (its drawn width is no range of values); a bar
    of equal-width bins names its bin. A regression node's points are thinned past
    ``MAX_POINTS`` rows, and ``points_thinned`` gives the rows the caption then counts."""
    import xml.etree.ElementTree as ET

    from dtcore import CARTClassifier, CARTRegressor
    from ui.figures.node_data import points_thinned
    from ui.figures.regression import MAX_POINTS

    svg_ns = "{http://www.w3.org/2000/svg}"
    est, X, Xe = fitted("iris", "c45")  # petal width: 22 distinct values at the root
    y = np.array([list(est.schema_.classes).index(v) for v in fitted_y("iris")])
    nd = explain.explainer_data(est, Xe, y, None, 0)
    tips = [t.text for t in ET.fromstring(node_feature_svg(nd, texts=TEXTS)).iter(svg_ns + "title")]
    values = set(np.unique(nd.X[:, int(est.tree_.feature[0])]).tolist())
    assert tips and all(float(t.split(" = ")[1].split(":")[0]) in values for t in tips)
    rng = np.random.default_rng(0)
    Xn = rng.normal(size=(MAX_POINTS + 500, 1))
    yc = (Xn[:, 0] > 0).astype(int)
    clf = CARTClassifier(max_depth=1).fit(Xn, yc)
    nd = explain.explainer_data(clf, Xn, yc, None, 0)
    tips = [t.text for t in ET.fromstring(node_feature_svg(nd, texts=TEXTS)).iter(svg_ns + "title")]
    assert tips and all(" … " in t for t in tips) and points_thinned(nd) is None
    yr = Xn[:, 0] * 2 + rng.normal(size=Xn.shape[0])
    reg = CARTRegressor(max_depth=1).fit(Xn, yr)
    assert points_thinned(explain.explainer_data(reg, Xn, yr, None, 0)) == MAX_POINTS + 500
    small, Xs, Xse = fitted("diabetes", "cart")  # 442 rows: every one drawn
    assert (
        points_thinned(explain.explainer_data(small, Xse, np.asarray(fitted_y("diabetes"), float), None, 0))
        is None
    )
