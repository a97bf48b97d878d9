"""dtcore.export: JSON models that round-trip exactly, DOT pictures (escaping, options,
determinism, real Graphviz rendering), text rules."""

import json
import re
import shutil
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dtcore.base import BaseTreeEstimator
from dtcore.export import (
    FORMAT,
    GraphvizMissing,
    branches,
    condition_text,
    dumps_model,
    fmt_num,
    fmt_weight,
    html_escape,
    load_model,
    model_from_dict,
    model_to_dict,
    render,
    save_model,
    to_dot,
    to_text,
)
from dtcore.schema import Feature, Schema
from dtcore.tree import TreeAssembler
from tests.datasets import DATA

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")
SVG_NS = "{http://www.w3.org/2000/svg}"


# ---------------------------------------------------------------------------------------------
# hand-built trees covering every test encoding


def melon_tree(
    names=("纹理", "密度", "色泽"),
    classes=("是", "否"),
    cats=(("清晰", "稍糊", "模糊"), ("青绿", "乌黑", "浅白")),
    target="好瓜",
):
    """Multiway categorical root; a binary continuous test whose missing values go right; a
    categorical test where one category (浅白) has no branch; an empty leaf; fractional weights.

    #0 纹理 → (#1 清晰, #4 稍糊, #7 模糊); #1 密度 ≤ 0.3815 → (#2, #3); #4 色泽 → (#5 青绿, #6 乌黑)
    """
    schema = Schema(
        (
            Feature(names[0], "categorical", cats[0]),
            Feature(names[1], "continuous"),
            Feature(names[2], "categorical", cats[1]),
        ),
        target,
        classes,
    )
    a = TreeAssembler(2, 2)
    r = a.add_node(-1, [8, 9], 17, 17, 0.998)
    a.set_split(r, 0, cat_branch=[0, 1, 2])
    c0 = a.add_node(r, [7, 2], 9, 9, 0.764)
    c1 = a.add_node(r, [1, 4], 5, 5, 0.722)
    a.add_node(r, [0, 3], 3, 3, 0.0)
    a.set_split(c0, 1, cuts=[0.3815], missing_branch=1)
    a.add_node(c0, [0, 2], 2, 2, 0.0)
    a.add_node(c0, [7, 0], 7, 7, 0.0)
    a.set_split(c1, 2, cat_branch=[0, 1, -1])
    a.add_node(c1, [1, 0.93], 1.93, 2, 0.99)
    a.add_node(c1, [0, 0], 0, 0, 0.0)
    return a.build(), schema


def interval_subset_tree():
    """Root: x in three intervals (cuts 0.2, 0.5); its middle child a CART subset split on c
    ({a, c} left, {b} right), missing values of c going left."""
    schema = Schema(
        (Feature("x", "continuous"), Feature("c", "categorical", ("a", "b", "c"))), "y", ("p", "q", "r")
    )
    t = TreeAssembler(3, 3)
    r = t.add_node(-1, [4, 4, 4], 12, 12, 0.667)
    t.set_split(r, 0, cuts=[0.2, 0.5])
    t.add_node(r, [4, 0, 0], 4, 4, 0.0)
    m = t.add_node(r, [0, 4, 1], 5, 5, 0.32)
    t.add_node(r, [0, 0, 3], 3, 3, 0.0)
    t.set_split(m, 1, cat_branch=[0, 1, 0], missing_branch=0)
    t.add_node(m, [0, 4, 0], 4, 4, 0.0)
    t.add_node(m, [0, 0, 1], 1, 1, 0.0)
    return t.build(), schema


def regression_tree():
    schema = Schema((Feature("x", "continuous"),), "y", None)
    t = TreeAssembler(1, 0)
    r = t.add_node(-1, [3.2], 5, 5, 3.76)
    t.set_split(r, 0, cuts=[3.5])
    t.add_node(r, [2.0], 3, 3, 0.889)
    t.add_node(r, [5.0], 2, 2, 1.0)
    return t.build(), schema


class HandModel(BaseTreeEstimator):
    """A test-only estimator whose 'growing' returns a given tree: exercises the JSON format
    with every encoding, independent of the learning algorithms."""

    algorithm = "hand"

    def __init__(self, tree=None, criterion="entropy", max_depth=None, min_impurity_decrease=0.0):
        self.tree = tree
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_impurity_decrease = min_impurity_decrease

    def get_params(self, deep=True):  # the tree is not a parameter worth saving
        return {k: v for k, v in super().get_params(deep).items() if k != "tree"}

    def _grow(self, X, y, w):
        return self.tree


class HandRegressor(HandModel):
    _task = "regression"


def fitted(tree, schema, **params):
    est = (HandModel if schema.is_classifier else HandRegressor)(tree, **params)
    n = 4
    X = np.zeros((n, len(schema.features)))
    y = np.zeros(n, dtype=np.int64) if schema.is_classifier else np.zeros(n)
    est.fit_encoded(X, y, schema)
    return est


# ---------------------------------------------------------------------------------------------
# number formats and conditions


def test_number_formats():
    assert fmt_num(0.3815, 3) == "0.382"
    assert fmt_num(0.126, 3) == "0.126"
    assert fmt_num(12345.6, 3) == "12346"  # no exponent for large values
    assert fmt_num(3.0) == "3" and fmt_num(0.1 + 0.2) == "0.30000000000000004"
    assert fmt_weight(17.0) == "17" and fmt_weight(7.9333) == "7.93" and fmt_weight(0.5) == "0.50"


def test_branch_conditions_of_every_kind():
    tree, schema = melon_tree()
    assert [condition_text(b) for b in branches(tree, schema, 0)] == ["= 清晰", "= 稍糊", "= 模糊"]
    assert [condition_text(b) for b in branches(tree, schema, 1, 3)] == ["≤ 0.382", "> 0.382"]
    assert [b.missing for b in branches(tree, schema, 1)] == [False, True]
    assert [condition_text(b) for b in branches(tree, schema, 4)] == ["= 青绿", "= 乌黑"]
    tree, schema = interval_subset_tree()
    assert [condition_text(b) for b in branches(tree, schema, 0)] == ["≤ 0.2", "∈ (0.2, 0.5]", "> 0.5"]
    sub = int(tree.children_of(0)[1])
    assert [condition_text(b) for b in branches(tree, schema, sub)] == ["∈ {a, c}", "= b"]
    assert [b.missing for b in branches(tree, schema, sub)] == [True, False]


# ---------------------------------------------------------------------------------------------
# DOT


def edge_label_lines(dot: str, parent: int, child: int) -> list[str]:
    """The lines of the label on the edge parent → child (its table's non-empty cells)."""
    line = re.search(rf"^node{parent} -> node{child} \[.*$", dot, re.M).group(0)
    return [c for c in re.findall(r"<TD[^>]*>(.*?)</TD>", line) if c]


def test_dot_shows_tests_counts_impurity_and_prediction():
    tree, schema = melon_tree()
    dot = to_dot(tree, schema, criterion="entropy")
    node0 = re.search(r"^node0 \[.*$", dot, re.M).group(0)
    for piece in ("<B>纹理</B>", "samples = 17", "是 8 · 否 9", "entropy = 0.998", "class = 否"):
        assert piece in node0
    node1 = re.search(r"^node1 \[.*$", dot, re.M).group(0)
    assert "<B>密度 ≤ 0.382</B>" in node1 and "class = 是" in node1
    assert edge_label_lines(dot, 0, 1) == ["= 清晰"]
    assert edge_label_lines(dot, 1, 2) == ["≤ 0.382"]
    # the missing-value direction is marked on the right edge only, on its own line
    assert edge_label_lines(dot, 1, 3) == ["&gt; 0.382", '<FONT POINT-SIZE="9"><I>missing →</I></FONT>']
    assert dot.count("missing →") == 1


def test_dot_fractional_weights_and_empty_branch():
    tree, schema = melon_tree()
    dot = to_dot(tree, schema)
    node5 = re.search(r"^node5 \[.*$", dot, re.M).group(0)
    assert "samples = 1.93" in node5 and "是 1 · 否 0.93" in node5
    assert "samples = 17<" in dot and "17.00" not in dot
    node6 = re.search(r"^node6 \[.*$", dot, re.M).group(0)
    assert "empty" in node6 and "parent's majority: 否" in node6 and "dashed" in node6


def test_dot_colour_bar_is_proportional():
    tree, schema = melon_tree()
    dot = to_dot(tree, schema)
    node1 = re.search(r"^node1 \[.*$", dot, re.M).group(0)
    widths = [int(w) for w in re.findall(r'<TD WIDTH="(\d+)" HEIGHT="6"', node1)]
    assert widths == [78, 22]  # 7:2 of 100 px
    node3 = re.search(r"^node3 \[.*$", dot, re.M).group(0)
    assert re.findall(r'<TD WIDTH="(\d+)" HEIGHT="6" FIXEDSIZE="TRUE" BGCOLOR="([^"]+)"', node3) == [
        ("100", "#4e79a7")
    ]


def _fill(dot, i):
    return re.search(rf'^node{i} \[.*fillcolor="(#[0-9a-f]{{6}})"', dot, re.M).group(1)


def _whiteness(hex_color):
    return sum(int(hex_color[k : k + 2], 16) for k in (1, 3, 5))


def test_node_fill_is_majority_colour_with_purity_strength():
    tree, schema = melon_tree()
    dot = to_dot(tree, schema)
    # node3 is pure 是 (blue), node5 is 1 : 0.93 (nearly uniform): same hue family, weaker fill
    assert _whiteness(_fill(dot, 5)) > _whiteness(_fill(dot, 3))
    r, g, b = (int(_fill(dot, 3)[k : k + 2], 16) for k in (1, 3, 5))
    assert b > r  # blue-ish: class 0's palette colour
    r, g, b = (int(_fill(dot, 2)[k : k + 2], 16) for k in (1, 3, 5))
    assert r > b  # orange-ish: class 1
    custom = to_dot(tree, schema, class_colors={"是": "#00ff00"})
    assert 'BGCOLOR="#00ff00"' in custom
    with pytest.raises(ValueError, match="colour"):
        to_dot(tree, schema, class_colors={"是": 'red" onload="x'})


def test_dot_max_depth_and_collapsed_fold_subtrees():
    tree, schema = melon_tree()
    dot = to_dot(tree, schema, max_depth=1)
    assert re.search(r"^node1_more .*label=<2 more nodes<BR/>\(2 leaves\)>", dot, re.M)
    assert re.search(r"^node4_more .*label=<2 more nodes<BR/>\(2 leaves\)>", dot, re.M)
    for hidden in (2, 3, 5, 6):
        assert f"node{hidden} [" not in dot
    assert "node7 [" in dot  # a leaf at the window's edge is drawn as itself
    dot = to_dot(tree, schema, collapsed={0})
    assert re.search(r"^node0_more .*label=<7 more nodes<BR/>\(5 leaves\)>", dot, re.M)
    assert "node1 [" not in dot


def test_dot_ghost_and_highlight():
    tree, schema = melon_tree()
    dot = to_dot(tree, schema, ghost={2, 3}, highlight={1})
    for i in (2, 3):
        line = re.search(rf"^node{i} \[.*$", dot, re.M).group(0)
        assert "dashed" in line and 'color="#9e9e9e"' in line
    assert "penwidth=3" in re.search(r"^node1 \[.*$", dot, re.M).group(0)
    assert "penwidth=3" not in re.search(r"^node0 \[.*$", dot, re.M).group(0)


def test_dot_regression_tree():
    tree, schema = regression_tree()
    dot = to_dot(tree, schema, criterion="squared_error")
    assert "<B>value = 2</B>" in dot and "<B>value = 5</B>" in dot
    assert "squared_error = 3.76" in dot and "legend" not in dot
    assert _whiteness(_fill(dot, 2)) < _whiteness(_fill(dot, 1))  # larger value, stronger fill


def test_dot_is_byte_identical_for_the_same_input():
    a = to_dot(*melon_tree(), precision=3, max_depth=2, highlight={1})
    b = to_dot(*melon_tree(), precision=3, max_depth=2, highlight={1})
    assert a == b
    assert a.encode("utf-8") == b.encode("utf-8")


HOSTILE_FEATURE = 'a"b<c>&]{x}'
HOSTILE_CATEGORY = "</TD></TABLE>"
HOSTILE_CLASS = "x|y'z[0]"


def hostile_tree():
    return melon_tree(
        names=(HOSTILE_FEATURE, "d\\e\nf", "g"),
        classes=(HOSTILE_CLASS, "<b>no</b>"),
        cats=((HOSTILE_CATEGORY, "s", "m"), ("u", "v", "w")),
        target="[t]{}",
    )


def test_html_escape_covers_markup_and_record_characters():
    assert html_escape(HOSTILE_FEATURE) == "a&quot;b&lt;c&gt;&amp;&#93;&#123;x&#125;"
    assert html_escape("|[\\]'") == "&#124;&#91;&#92;&#93;&#39;"
    assert html_escape("a\nb\x00") == "a b "


def test_hostile_names_are_escaped_in_dot():
    dot = to_dot(*hostile_tree())
    assert HOSTILE_FEATURE not in dot and HOSTILE_CATEGORY not in dot and HOSTILE_CLASS not in dot
    assert "&lt;/TD&gt;&lt;/TABLE&gt;" in dot
    # every label is one well-formed HTML-like string: markup tags balance
    assert dot.count("<TABLE") == dot.count("</TABLE>")
    assert dot.count("<TD") == dot.count("</TD>")


@needs_dot
def test_hostile_names_render_as_written():
    svg = render(to_dot(*hostile_tree()), "svg")
    root = ET.fromstring(svg)  # well-formed XML
    texts = " ".join(t.text or "" for t in root.iter(SVG_NS + "text"))
    for s in (HOSTILE_FEATURE, HOSTILE_CATEGORY, HOSTILE_CLASS, "<b>no</b>", "[t]{}", "d\\e f"):
        assert s in texts, s


@needs_dot
def test_svg_keeps_chinese_labels_and_is_deterministic():
    dot = to_dot(*melon_tree())
    svg = render(dot, "svg")
    assert svg == render(dot, "svg")
    assert b"Generated by graphviz" not in svg
    text = svg.decode("utf-8")
    for label in ("纹理", "清晰", "稍糊", "模糊", "密度", "好瓜", "是", "否"):
        assert label in text
    assert 'font-family="Noto Sans CJK SC' in text
    root = ET.fromstring(svg)
    ids = {g.get("id") for g in root.iter(SVG_NS + "g")}
    assert {"dtnode0", "dtnode7", "dtedge0_1", "dtlegend"} <= ids  # stable ids for the app


@needs_dot
def test_png_render():
    png = render(to_dot(*interval_subset_tree()), "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000


def test_render_without_graphviz_says_so():
    with pytest.raises(GraphvizMissing, match="install graphviz"):
        render("digraph { a }", "svg", dot="dtcore-no-such-dot-binary")
    with pytest.raises(ValueError, match="format"):
        render("digraph { a }", "gif")


# ---------------------------------------------------------------------------------------------
# text rules


def test_text_rules_in_export_text_style():
    tree, schema = melon_tree()
    expected = (
        "|--- 纹理 = 清晰\n"
        "|   |--- 密度 <= 0.3815\n"
        "|   |   |--- class: 否\n"
        "|   |--- 密度 >  0.3815 or missing\n"
        "|   |   |--- class: 是\n"
        "|--- 纹理 = 稍糊\n"
        "|   |--- 色泽 = 青绿\n"
        "|   |   |--- class: 是\n"
        "|   |--- 色泽 = 乌黑\n"
        "|   |   |--- class: 否 (empty: parent's majority)\n"
        "|--- 纹理 = 模糊\n"
        "|   |--- class: 否\n"
    )
    assert to_text(tree, schema) == expected
    truncated = to_text(tree, schema, max_depth=1, show_weights=True)
    assert truncated.splitlines() == [
        "|--- 纹理 = 清晰",
        "|   |--- truncated branch of depth 1",
        "|--- 纹理 = 稍糊",
        "|   |--- truncated branch of depth 1",
        "|--- 纹理 = 模糊",
        "|   |--- weights: [0, 3] class: 否",
    ]


def test_text_rules_intervals_subsets_and_regression():
    tree, schema = interval_subset_tree()
    lines = to_text(tree, schema).splitlines()
    assert lines[0] == "|--- x <= 0.2"
    assert lines[2] == "|--- x in (0.2, 0.5]"
    assert lines[3] == "|   |--- c in {a, c} or missing"
    assert lines[5] == "|   |--- c = b"
    assert to_text(*regression_tree()).splitlines() == [
        "|--- x <= 3.5",
        "|   |--- value: [2]",
        "|--- x >  3.5",
        "|   |--- value: [5]",
    ]


def test_text_rules_keep_hostile_names_on_one_line():
    text = to_text(*hostile_tree())
    assert f"|--- {HOSTILE_FEATURE} = {HOSTILE_CATEGORY}" in text.splitlines()
    assert "d\\e f <= 0.3815" in text


# ---------------------------------------------------------------------------------------------
# JSON model


@pytest.mark.parametrize("make", [melon_tree, interval_subset_tree, regression_tree])
def test_model_json_round_trips_exactly(make, tmp_path):
    tree, schema = make()
    est = fitted(tree, schema, max_depth=4, min_impurity_decrease=0.1 + 0.2)
    path = tmp_path / "m.json"
    save_model(est, path)
    back = load_model(path, estimator_class=type(est))
    for name, arr in vars(est.tree_).items():
        if isinstance(arr, np.ndarray):
            got = getattr(back.tree_, name)
            assert got.dtype == arr.dtype and np.array_equal(got, arr), name
    assert back.schema_ == est.schema_
    assert back.get_params() == est.get_params()
    assert back.min_impurity_decrease == 0.30000000000000004  # floats exact
    X = np.array([[0, 0.3, 0], [0, 0.4, 1], [1, np.nan, 2], [1, 0.1, np.nan], [2, 0.9, 1], [np.nan, 0.5, 0]])
    X = X[:, : len(schema.features)]
    if schema.is_classifier:
        assert np.array_equal(back.tree_.predict_proba(X), est.tree_.predict_proba(X))
    else:
        assert np.array_equal(back.tree_.predict_value(X), est.tree_.predict_value(X))
    assert dumps_model(back) == dumps_model(est)  # byte-identical after a round trip


def test_model_json_schema_and_readable_nodes():
    tree, schema = melon_tree()
    d = json.loads(dumps_model(fitted(tree, schema)))
    assert d["format"] == FORMAT == "dtcore-model" and d["version"] == 1
    assert d["algorithm"] == "hand" and d["task"] == "classification"
    assert d["params"] == {"criterion": "entropy", "max_depth": None, "min_impurity_decrease": 0.0}
    assert d["summary"] == {"n_nodes": 8, "n_leaves": 5, "depth": 2}
    assert d["schema"]["classes"] == ["是", "否"]
    nodes = d["nodes"]
    assert len(nodes) == 8
    root = nodes[0]
    assert root["feature"] == "纹理" and root["test"]["kind"] == "categorical"
    assert root["test"]["branches"] == [["清晰"], ["稍糊"], ["模糊"]]
    assert root["missing"] == "distribute"
    assert [c["condition"] for c in root["children"]] == ["纹理 = 清晰", "纹理 = 稍糊", "纹理 = 模糊"]
    assert root["distribution"] == {"是": 8.0, "否": 9.0} and root["prediction"] == "否"
    n1 = nodes[1]
    assert n1["test"] == {"kind": "continuous", "cuts": [0.3815]}
    assert n1["missing"] == {"branch": 1}
    assert n1["children"][0]["condition"] == "密度 ≤ 0.3815"  # exact, not rounded
    n4 = nodes[4]
    assert n4["test"]["no_branch"] == ["浅白"]
    assert nodes[5]["weighted_n"] == 1.93 and nodes[5]["leaf"]
    assert nodes[6]["empty"] is True and nodes[6]["prediction"] == "否"
    assert "dtcore-model" in dumps_model(fitted(tree, schema))


def test_model_json_regression_nodes():
    d = model_to_dict(fitted(*regression_tree()))
    assert d["task"] == "regression" and d["schema"]["classes"] is None
    assert d["nodes"][1]["value"] == [2.0] and d["nodes"][1]["prediction"] == 2.0


def test_model_from_dict_refuses_other_files():
    good = model_to_dict(fitted(*melon_tree()))
    with pytest.raises(ValueError, match="not a dtcore model"):
        model_from_dict({"format": "something"})
    with pytest.raises(ValueError, match="upgrade dtcore"):
        model_from_dict({**good, "version": 2}, HandModel)
    bad = dict(good)
    del bad["tree"]
    with pytest.raises(ValueError, match="'tree'"):
        model_from_dict(bad, HandModel)
    with pytest.raises(ValueError, match="unknown algorithm"):
        model_from_dict(good)  # "hand" is not a registered algorithm


def test_unsaveable_parameter_is_refused():
    est = fitted(*melon_tree())
    est.max_depth = object()
    with pytest.raises(ValueError, match="max_depth"):
        model_to_dict(est)


def test_categories_without_branch_are_named_on_the_missing_branch():
    schema = Schema((Feature("c", "categorical", ("a", "b", "z&<")),), "y", ("p", "q"))
    t = TreeAssembler(2, 2)
    r = t.add_node(-1, [2, 2], 4, 4, 0.5)
    t.set_split(r, 0, cat_branch=[0, 1, -1], missing_branch=1)
    t.add_node(r, [2, 0], 2, 2, 0.0)
    t.add_node(r, [0, 2], 2, 2, 0.0)
    tree = t.build()
    assert "|--- c = b or missing (also z&<)" in to_text(tree, schema).splitlines()
    assert "<I>missing, z&amp;&lt; →</I>" in to_dot(tree, schema)


# ---------------------------------------------------------------------------------------------
# real estimators (CART): JSON round trip, pictures of real trees


def _cart():
    return pytest.importorskip("dtcore.cart.estimator")


def _csv(name):
    from dtcore.data.readers import read_table

    return read_table(DATA / name)


@pytest.mark.parametrize(
    "name,target,regression",
    [
        ("penguins.csv", "species", False),  # mixed kinds, missing values, subset splits
        ("watermelon_3.0.csv", "好瓜", False),
        ("diabetes.csv", "target", True),
    ],
)
def test_cart_model_round_trip_predicts_identically(name, target, regression, tmp_path):
    mod = _cart()
    t = _csv(name)
    feats = [n for n in t.names if n not in (target, "编号")]
    X = t.rows[:, [t.column_index(n) for n in feats]]
    y = t.column(target)
    est = (mod.CARTRegressor if regression else mod.CARTClassifier)(max_depth=6, min_samples_leaf=2)
    est.fit(X, y, feature_names=feats, target_name=target)
    path = tmp_path / "m.json"
    save_model(est, path)
    back = load_model(path)  # looked up by algorithm + task: a real CART again
    assert type(back) is type(est) and back.get_params() == est.get_params()
    if regression:
        assert np.array_equal(back.predict(X), est.predict(X))
    else:
        assert back.predict(X).tolist() == est.predict(X).tolist()
        assert np.array_equal(back.predict_proba(X), est.predict_proba(X))
    assert np.array_equal(back.tree_.impurity, est.tree_.impurity)
    assert path.read_text(encoding="utf-8") == dumps_model(back)
    d = json.loads(path.read_text(encoding="utf-8"))
    assert d["summary"]["n_leaves"] == est.get_n_leaves() and d["summary"]["depth"] == est.get_depth()


@needs_dot
def test_dot_of_a_real_deep_tree_renders_and_windows():
    mod = _cart()
    t = _csv("breast_cancer.csv")
    feats = t.names[:-1]
    X = t.rows[:, :-1].astype(float)
    est = mod.CARTClassifier().fit(X, t.rows[:, -1], feature_names=feats, target_name=t.names[-1])
    full = to_dot(est)
    assert "gini = " in full  # criterion name from the estimator
    n_nodes = est.tree_.node_count
    assert len(re.findall(r"^node\d+ \[", full, re.M)) == n_nodes
    window = to_dot(est, max_depth=2)
    shown = [i for i in range(n_nodes) if est.tree_.depth[i] <= 2]
    for i in range(n_nodes):
        assert (f"node{i} [" in window) == (i in shown)
    folded = [i for i in shown if est.tree_.depth[i] == 2 and est.tree_.feature[i] >= 0]
    assert len(re.findall(r"^node\d+_more \[", window, re.M)) == len(folded)
    svg = render(window, "svg")
    ET.fromstring(svg)


def test_missing_alone_split_reads_well_and_survives_strict_json(tmp_path):
    # CART's third missing-value variant: all known values left (cut +inf), missing right
    schema = Schema((Feature("x", "continuous"),), "y", ("p", "q"))
    t = TreeAssembler(2, 2)
    r = t.add_node(-1, [3, 2], 5, 5, 0.48)
    t.set_split(r, 0, cuts=[np.inf], missing_branch=1)
    t.add_node(r, [3, 0], 3, 3, 0.0)
    t.add_node(r, [0, 2], 2, 2, 0.0)
    tree = t.build()
    assert to_text(tree, schema).splitlines()[::2] == ["|--- x is known", "|--- x is missing"]
    dot = to_dot(tree, schema)
    assert edge_label_lines(dot, 0, 1) == ["is known"] and edge_label_lines(dot, 0, 2) == ["is missing"]
    assert "missing →" not in dot
    est = fitted(tree, schema)
    text = dumps_model(est)
    assert '"Infinity"' in text and "Infinity," not in text.replace('"Infinity",', "")
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    path = tmp_path / "m.json"
    save_model(est, path)
    back = load_model(path, estimator_class=HandModel)
    assert back.tree_.cuts.tolist() == [np.inf]
    X = np.array([[1.0], [np.nan], [1e300]])
    assert np.array_equal(back.tree_.predict_proba(X), [[1, 0], [0, 1], [1, 0]])


@needs_dot
def test_single_leaf_trees_draw():
    schema = Schema((Feature("x", "continuous"),), "y", ("p",))
    t = TreeAssembler(1, 1)
    t.add_node(-1, [5], 5, 5, 0.0)
    tree = t.build()
    dot = to_dot(tree, schema)
    assert "<B>class = p</B>" in dot and "->" not in dot
    ET.fromstring(render(dot, "svg"))
    assert to_text(tree, schema) == "|--- class: p\n"
    schema = Schema((Feature("x", "continuous"),), "y", None)
    t = TreeAssembler(1, 0)
    t.add_node(-1, [2.5], 4, 4, 0.0)
    assert "<B>value = 2.5</B>" in to_dot(t.build(), schema)


def test_dot_words_translate_and_escape():
    """The picture's own words come from the caller (the app's language) and are escaped."""
    import numpy as np

    from dtcore.cart.estimator import CARTClassifier
    from dtcore.export import DOT_WORDS, to_dot

    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    clf = CARTClassifier().fit(X, ["a", "a", "b", "b", "a", "b"], feature_names=["x"])
    zh = dict(
        DOT_WORDS, samples="样本数", **{"class": "类别<b>"}, more="还有 {n} 个节点<BR/>（{leaves} 个叶）"
    )
    dot = to_dot(clf, words=zh, max_depth=1)
    assert "样本数 = 6" in dot and "samples =" not in dot
    assert "类别&lt;b&gt; = " in dot and "<b>" not in dot
    t = clf.tree_
    folded = [int(c) for c in t.children_of(0) if t.feature[c] >= 0]
    assert folded, "the test needs a subtree below depth 1"
    for c in folded:
        sub = t.subtree(c)[1:]
        assert f"还有 {sub.size} 个节点<BR/>（{int(t.is_leaf[sub].sum())} 个叶）" in dot
    with pytest.raises(ValueError, match="lacks"):
        to_dot(clf, words={"samples": "n"})


@needs_dot
def test_code_points_xml_forbids_are_replaced_so_graphviz_draws_the_tree():
    """U+FFFE / U+FFFF in a name or label made ``dot`` fail "not well-formed" and the in-page
    tree lose its labels; they become U+FFFD in DOT and text rules."""
    from dtcore.cart.estimator import CARTClassifier
    from dtcore.export import render, to_dot, to_text

    X = np.array([["x\ufffe", 1.0], ["y", 2.0], ["x\ufffe", 3.0], ["y", 4.0]], dtype=object)
    est = CARTClassifier().fit(
        X, ["ok\uffff", "no", "ok\uffff", "no"], feature_names=["f\ufffe", "g"], target_name="t\uffff"
    )
    dot = to_dot(est)
    rules = to_text(est)
    for text in (dot, rules):
        assert "\ufffe" not in text and "\uffff" not in text and "\ufffd" in text
    svg = render(dot, "svg").decode("utf-8")
    assert "\ufffd" in svg


def test_model_files_with_the_old_threshold_name_load_as_r8():
    """C4.5 models written when threshold="c45" was the default load with its new name "r8"."""
    from pathlib import Path

    d = json.loads((Path(__file__).parents[1] / "snapshots/dtcore/watermelon3-c45/model.json").read_text())
    d["params"]["threshold"] = "c45"
    assert model_from_dict(d).get_params()["threshold"] == "r8"


def test_a_two_valued_multiway_test_is_titled_by_its_feature():
    """Issue 27: ID3's multiway test on 触感 (two values) was titled "触感 = 硬滑" like a binary
    test; a multiway test names its feature, its branches carry the values. CART's subset test on
    a two-valued feature stays a binary question."""
    from tests.dtcore.test_explain import fit

    for algo, multiway in (("id3", True), ("cart", False)):
        est, _, _ = fit("watermelon_2.0_missing", algo)
        tree, schema = est.tree_, est.schema_
        dot = to_dot(est)
        nodes = [
            i
            for i in range(tree.node_count)
            if tree.feature[i] >= 0
            and tree.is_categorical_test(i)
            and len(schema.features[int(tree.feature[i])].categories) == 2
        ]
        assert nodes, algo
        for i in nodes:
            name = schema.features[int(tree.feature[i])].name
            header = re.search(rf'id="dtnode{i}".*?<B>(.*?)</B>', dot).group(1)
            assert (header == name) is multiway, (algo, i, header)


def test_a_categorical_tests_branches_name_each_code_of_their_branch_in_order():
    """``branches`` groups a test's category table in one sort: each branch names exactly the
    codes the table sends it, ascending (as a scan of the table per branch did), on CART's
    subsets (several codes a branch, codes with no branch) and on a multiway ID3 test."""
    from dtcore.cart.estimator import CARTClassifier
    from dtcore.id3 import ID3Classifier

    rng = np.random.default_rng(3)
    labels = np.array([f"v{i}" for i in range(40)], dtype=object)
    x = rng.choice(labels, size=3000)
    y = np.where(np.isin(x, labels[rng.random(40) < 0.5]), "a", "b")
    y[rng.random(3000) < 0.2] = "c"
    X = x[:, None]
    for est in (CARTClassifier(max_depth=4).fit(X, y), ID3Classifier().fit(X, y)):
        tree, schema = est.tree_, est.schema_
        cats = schema.features[0].categories
        tests = [i for i in range(tree.node_count) if tree.feature[i] >= 0]
        assert tests
        for node in tests:
            cb = tree.cat_branch_of(node)
            for b in branches(tree, schema, node):
                assert b.values == tuple(cats[c] for c in np.flatnonzero(cb == b.index)), (node, b.index)


def test_a_leaf_whose_weights_tie_as_probabilities_names_the_class_it_predicts():
    """Two class weights an ulp apart can divide to the same probability: the tree predicts the
    first class, and every export and the pruning losses name that class (``Tree.node_classes``
    is the one rule; ``argmax(value)`` says the other)."""
    import dataclasses

    from dtcore import CARTClassifier
    from dtcore.export import describe_nodes, to_pmml
    from dtcore.pruning.losses import node_prediction

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    est = CARTClassifier(max_depth=2).fit(X, np.array(["a", "b", "c"])[rng.integers(0, 3, 300)])
    leaf = int(est.tree_.apply(X[:1])[0])
    value = est.tree_.value.copy()
    value[leaf] = [7.588758, np.nextafter(7.588758, np.inf), 7.0]
    est.tree_ = dataclasses.replace(est.tree_, value=value)
    tree = est.tree_
    assert np.argmax(value[leaf]) == 1  # the case: the larger weight is the second class
    assert tree.node_classes()[leaf] == tree.node_classes([leaf])[0] == 0
    first, second = est.schema_.classes[:2]  # the tree's columns: the schema's class order
    assert est.predict(X[:1])[0] == first
    assert node_prediction(tree)[leaf] == 0
    line = next(ln for ln in to_dot(est).splitlines() if f'id="dtnode{leaf}"' in ln)
    assert f"class = {first}" in line and f"class = {second}" not in line
    assert describe_nodes(tree, est.schema_)[leaf]["prediction"] == first
    node = ET.fromstring(to_pmml(est)).find(f".//{{*}}Node[@id='{leaf}']")
    assert node is not None and node.get("score") == first


def test_every_nodes_class_at_once_is_each_nodes_own_with_empty_nodes_taking_their_parents():
    """``node_prediction_indices`` (what the per-node exports read) equals
    ``node_prediction_index`` node by node; a node of no weight (its counts zeroed here, two
    levels of them) predicts its nearest non-empty ancestor's class."""
    import dataclasses

    from dtcore import CARTClassifier
    from dtcore.export import node_prediction_index, node_prediction_indices

    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 3))
    est = CARTClassifier(max_depth=4).fit(X, rng.integers(0, 3, 400))
    tree = est.tree_
    inner = int(np.flatnonzero((tree.feature >= 0) & (tree.depth == 2))[0])
    value = tree.value.copy()
    value[tree.subtree(inner)] = 0.0  # the test at depth 2 and all below it: empty
    tree = dataclasses.replace(tree, value=value)
    indices = node_prediction_indices(tree)
    assert indices.tolist() == [node_prediction_index(tree, i) for i in range(tree.node_count)]
    parent = int(tree.parent[inner])
    assert (indices[tree.subtree(inner)] == tree.node_classes(parent)).all()
