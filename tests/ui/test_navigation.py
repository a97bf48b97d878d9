"""Navigating big trees without a browser: the focused view's window and DOT (breadcrumb, fold
boxes, unfolded paths, escaping, real ``dot``), search, the node budget, the layout rule and
the overview map."""

import re
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dtcore import export
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from ui.figures.overview import (
    LIGHT,
    MAX_DEPTH,
    MIN_SECTOR,
    OVERVIEW_WIDTH,
    node_purity,
    overview_svg,
    sector_layout,
    start_sector,
)
from ui.figures.static_charts import mix
from ui.services import find
from ui.views import focus
from ui.views import tree as treeview

CLASSES = np.array(["<b>a</b>", "b & c", "北京"], dtype=object)


def big_classifier(n=6000, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = CLASSES[(X[:, 0] + rng.normal(size=n) > 0).astype(int) + (X[:, 1] > 1)]
    est = CARTClassifier().fit(X, y, feature_names=["x0", "<x1>", "x2", "x3"])
    return est, X, y


@pytest.fixture(scope="module")
def big():
    return big_classifier()


def test_the_generated_tree_is_big(big):
    est, _, _ = big
    assert est.tree_.node_count > 1000
    assert focus.is_big(est.tree_)


def test_window_unfolds_the_path_to_a_deep_selected_node(big):
    est, _, _ = big
    tree = est.tree_
    deep = int(np.argmax(tree.depth))
    w = focus.window(tree, 0, 3, selected=deep)
    nodes = set(focus.window_nodes(tree, w).tolist())
    assert set(tree.path_to(deep)) <= nodes
    # without the selection only three levels are drawn
    plain = focus.window_nodes(tree, focus.window(tree, 0, 3))
    assert tree.depth[plain].max() == 3
    assert set(plain.tolist()) < nodes


def test_window_of_a_node_outside_the_focus_unfolds_nothing(big):
    est, _, _ = big
    tree = est.tree_
    left, right = tree.children_of(0)[:2]
    deep_right = int(tree.subtree(int(right))[-1])
    w = focus.window(tree, int(left), 2, selected=deep_right)
    assert w.unfolded == frozenset()


def test_focus_dot_has_breadcrumbs_fold_boxes_and_escaped_text(big):
    est, _, _ = big
    tree = est.tree_
    deep = int(np.argmax(tree.depth))
    node = tree.path_to(deep)[4]
    w = focus.window(tree, node, 2)
    dot = focus.focus_dot(est, w, selected=node)
    for a in tree.path_to(node)[:-1]:
        assert f'id="dtcrumb{a}"' in dot
    assert f'id="dtnode{node}"' in dot
    assert 'id="dtnode0"' not in dot  # the root is a breadcrumb here, not a drawn node
    assert re.search(r'id="dtmore\d+"', dot)
    assert "&lt;b&gt;a&lt;/b&gt;" in dot and "<b>a</b>" not in dot  # class names escaped in fold boxes
    assert "&lt;x1&gt;" in dot and "<x1>" not in dot
    svg = export.render(dot, "svg").decode()
    assert f'id="dtnode{node}"' in svg and f'id="dtcrumb{tree.path_to(node)[0]}"' in svg


def test_long_breadcrumbs_are_shortened(big):
    est, _, _ = big
    tree = est.tree_
    deep = int(np.argmax(tree.depth))
    assert tree.depth[deep] > focus.CRUMBS_SHOWN + 2
    lines = focus.breadcrumb_lines(est, deep)
    boxes = [ln for ln in lines if re.match(r"crumb(\d+|_top) \[", ln)]
    assert len(boxes) == focus.CRUMBS_SHOWN + 1  # the shown ancestors and one "…" box


def test_opened_fold_box_shows_its_children(big):
    est, _, _ = big
    tree = est.tree_
    w = focus.window(tree, 0, 1)
    folded = [int(i) for i in tree.children_of(0) if tree.feature[i] >= 0]
    assert f'id="dtmore{folded[0]}"' in focus.focus_dot(est, w)
    opened = focus.window(tree, 0, 1, opened=[folded[0]])
    dot = focus.focus_dot(est, opened)
    assert f'id="dtmore{folded[0]}"' not in dot
    for c in tree.children_of(folded[0]):
        assert f'id="dtnode{int(c)}"' in dot


def test_fold_detail_names_classes_or_value_range_and_is_off_by_default(big):
    est, _, _ = big
    plain = export.to_dot(est, max_depth=1)
    assert "×" not in plain
    detailed = export.to_dot(est, max_depth=1, fold_detail=True)
    assert re.search(r"&lt;b&gt;a&lt;/b&gt; ×\d+", detailed)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(500, 2))
    reg = CARTRegressor(max_depth=4).fit(X, X[:, 0] * 3)
    assert re.search(r"<BR/>-?[\d.]+ … -?[\d.]+>", export.to_dot(reg, max_depth=1, fold_detail=True))


# -- search -----------------------------------------------------------------------------------


def test_find_by_feature_and_class(big):
    est, _, _ = big
    tree = est.tree_
    hits = find.by_feature(tree, 1)
    assert hits and all(tree.feature[i] == 1 for i in hits)
    w = tree.weighted_n[hits]
    assert np.all(w[:-1] >= w[1:])
    for k in range(3):
        for i in find.by_class(tree, k):
            assert tree.is_leaf[i] and np.argmax(tree.value[i]) == k


def test_find_leaves_by_samples_and_purity(big):
    est, _, _ = big
    tree = est.tree_
    fewest = find.fewest_samples(tree, limit=10)
    leaves = np.flatnonzero(tree.is_leaf & (tree.weighted_n > 0))
    assert tree.weighted_n[fewest[0]] == tree.weighted_n[leaves].min()
    assert list(tree.weighted_n[fewest]) == sorted(tree.weighted_n[fewest])
    assert tree.impurity[find.purest(tree)[0]] == tree.impurity[leaves].min()
    worst = find.least_pure(tree, limit=5)
    assert tree.impurity[worst[0]] == tree.impurity[leaves].max()
    assert len(find.fewest_samples(tree)) == find.LIMIT


def test_find_by_value_range():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(800, 3))
    est = CARTRegressor(min_samples_leaf=5).fit(X, X[:, 0] * 10)
    tree = est.tree_
    hits = find.by_value(tree, 0.0, 5.0)
    assert hits and all(tree.is_leaf[i] and 0.0 <= tree.value[i, 0] <= 5.0 for i in hits)


def test_validation_error_counts_each_misclassified_row_in_its_leaf():
    est, X, y = big_classifier(3000, seed=3)
    rng = np.random.default_rng(4)
    Xv = rng.normal(size=(700, 4))
    yv = CLASSES[(Xv[:, 0] + rng.normal(size=700) > 0).astype(int) + (Xv[:, 1] > 1)]
    errors = find.validation_error(est, Xv, yv)
    wrong = est.predict(Xv) != yv
    assert errors.sum() == pytest.approx(wrong.sum())
    leaves = est.apply(Xv)
    expect = np.bincount(leaves[wrong], minlength=est.tree_.node_count)
    assert np.allclose(errors, expect)
    top = find.largest_error(est.tree_, errors)
    assert errors[top[0]] == errors.max()
    assert find.validation_error(est, Xv[:0], yv[:0]) is None


# -- budgets and layout -----------------------------------------------------------------------


def test_node_budget_decides_how_the_whole_tree_is_drawn(big):
    est, _, _ = big
    tree = est.tree_
    assert focus.whole_tree_mode(tree) == "refuse"  # > SERVER_NODE_LIMIT nodes
    assert focus.shown_nodes(tree, None) == tree.node_count
    assert focus.whole_tree_mode(tree, 2) == "browser"
    # a depth whose picture passes the browser's budget but not the server's limit
    d = next(d for d in range(tree.get_depth()) if focus.shown_nodes(tree, d) > focus.BROWSER_NODE_BUDGET)
    expected = "server" if focus.shown_nodes(tree, d) <= focus.SERVER_NODE_LIMIT else "refuse"
    assert focus.whole_tree_mode(tree, d) == expected
    assert not focus.whole_tree_allowed(tree, None)
    assert focus.SELECTOR_LIMIT < focus.SERVER_NODE_LIMIT


def test_shown_nodes_counts_summary_boxes():
    est = CARTClassifier(max_depth=3).fit(np.arange(40.0).reshape(-1, 1), np.arange(40) % 2)
    tree = est.tree_
    inner_at_1 = int(((tree.depth == 1) & (tree.feature >= 0)).sum())
    assert focus.shown_nodes(tree, 1) == int((tree.depth <= 1).sum()) + inner_at_1


def test_layout_rule():
    assert treeview.layout_rule(3, 8) == "LR"  # wide rows
    assert treeview.layout_rule(12, 2) == "LR"  # deep and narrow
    assert treeview.layout_rule(4, 4) == "TB"
    assert treeview.layout_rule(7, 4) == "TB"


def test_focused_view_of_a_chain_is_drawn_left_to_right():
    X = np.arange(200.0).reshape(-1, 1)
    y = (np.arange(200) % 7 == 0).astype(int)  # a staircase: a long narrow tree
    est = CARTClassifier(max_depth=10).fit(X, y)
    w = focus.window(est.tree_, 0, 6)
    levels, widest = focus.levels_and_widest(est.tree_, w)
    assert treeview.layout_rule(levels, widest) == ("LR" if levels > treeview.DEEP and widest <= 2 else "TB")
    assert f"rankdir={treeview.layout_rule(levels, widest)}" in focus.focus_dot(est, w)


# -- overview map -----------------------------------------------------------------------------


SVG_NS = "{http://www.w3.org/2000/svg}"


def sectors(svg: str) -> dict[int, dict]:
    """node id → its rectangle's attributes and its tooltip, from the overview's SVG."""
    out = {}
    for g in ET.fromstring(svg).iter(SVG_NS + "g"):
        gid = g.get("id", "")
        if gid.startswith("dtnode"):
            a = g.find(SVG_NS + "a")
            rect = a.find(SVG_NS + "rect")
            out[int(gid[6:])] = {**rect.attrib, "tip": a.get("{http://www.w3.org/1999/xlink}title")}
    return out


def test_overview_is_laid_out_from_the_arrays(big):
    est, _, _ = big
    tree = est.tree_
    nodes, rows, x0, width = sector_layout(tree, 0)
    assert tree.node_count > nodes.size and rows.max() == MAX_DEPTH - 1  # only the levels shown
    at = {int(i): k for k, i in enumerate(nodes)}
    assert rows.tolist() == [int(tree.depth[i]) for i in nodes]
    for i in nodes:  # areas stay true: children share their parent's width by training weight
        kids = [int(c) for c in tree.children_of(int(i)) if int(c) in at]
        if len(kids) == tree.children_of(int(i)).size and kids:
            assert sum(width[at[c]] for c in kids) == pytest.approx(width[at[int(i)]])
            assert x0[at[kids[0]]] == pytest.approx(x0[at[int(i)]])
            share = tree.weighted_n[kids[0]] / tree.weighted_n[kids].sum()
            assert width[at[kids[0]]] == pytest.approx(width[at[int(i)]] * share)
    assert width[0] == OVERVIEW_WIDTH and (width >= MIN_SECTOR).all()
    # a drawn sector's parent is drawn: sectors too narrow to see are left out with their subtrees
    assert all(int(tree.parent[i]) in at for i in nodes[1:])


def test_overview_svg_escapes_names_colours_by_class_and_tells_each_node(big):
    est, _, _ = big
    tree = est.tree_
    svg = overview_svg(est, texts={"samples": "samples"})
    assert svg == overview_svg(est, texts={"samples": "samples"})  # deterministic
    assert "<x1>" not in svg and "<b>a</b>" not in svg and "&lt;x1&gt;" in svg
    got = sectors(svg)
    assert set(got) == {int(i) for i in sector_layout(tree, 0)[0]}
    k, purity = node_purity(tree)
    colors = export.class_palette(list(CLASSES))
    for i, sec in got.items():
        assert sec["fill"] == mix(LIGHT + (1 - LIGHT) * purity[i], colors[k[i]])
        lines = sec["tip"].split("\n")
        assert lines[1] == f"samples: {tree.weighted_n[i]:.4g}"
        assert lines[2:] == [f"{c}: {tree.value[i, j]:.4g}" for j, c in enumerate(CLASSES)]
    name = est.schema_.features[int(tree.feature[0])].name
    assert got[0]["tip"].split("\n")[0] == f"#0 · {name} ≤ {tree.cuts[tree.cut_ptr[0]]:.4g}"


def test_overview_opens_above_the_selected_node_and_frames_it(big):
    est, _, _ = big
    tree = est.tree_
    deep = int(np.argmax(tree.depth))
    start = start_sector(tree, deep)
    assert start == tree.path_to(deep)[-4] and start_sector(tree, None) == 0
    got = sectors(overview_svg(est, selected=deep, texts={"samples": "samples"}))
    assert deep in got and start in got and 0 in got  # the root: first box of the path above
    assert got[deep]["stroke"] == "#111111" and got[deep]["stroke-width"] == "3"
    assert sum(sec.get("stroke") == "#111111" for sec in got.values()) == 1
    assert float(got[start]["width"]) == OVERVIEW_WIDTH


def test_overview_of_a_regression_tree_is_coloured_by_its_mean():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(3000, 3))
    est = CARTRegressor(max_depth=8).fit(X, X[:, 0] * 3 + rng.normal(size=3000))
    got = sectors(overview_svg(est, texts={"samples": "samples", "mean": "mean"}))
    v = est.tree_.value[:, 0]
    lightest, darkest = int(np.argmin(v)), int(np.argmax(v))
    assert got[0]["tip"].split("\n")[2] == f"mean: {v[0]:.4g}"
    if lightest in got and darkest in got:
        assert got[lightest]["fill"] == "#fff5eb" and got[darkest]["fill"] == "#7f2704"


def test_overview_of_thirty_thousand_nodes_builds_quickly():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60_000, 4))
    y = (X[:, 0] + rng.normal(size=60_000) > 0).astype(int)
    est = CARTClassifier().fit(X, y)
    assert est.tree_.node_count > 10_000
    t0 = time.perf_counter()
    svg = overview_svg(est, selected=int(np.argmax(est.tree_.depth)), texts={"samples": "samples"})
    # a hang guard, not a speed test (the speed is bench/bench_views.py's)
    assert time.perf_counter() - t0 < 60 and len(svg) < 200_000


def test_selected_node_inside_a_folded_subtree_unfolds_its_path(big):
    est, _, _ = big
    tree = est.tree_
    deep = int(np.argmax(tree.depth))
    dot = treeview.tree_dot(est, 2, selected=deep)
    for p in tree.path_to(deep):
        assert f'id="dtnode{p}"' in dot
    assert re.search(rf'node{deep} \[id="dtnode{deep}".*penwidth=3', dot)  # highlighted
    # the rest stays folded at level 2
    plain = treeview.tree_dot(est, 2)
    # the path and one sibling per level below the window: no more
    assert dot.count('id="dtnode') <= plain.count('id="dtnode') + 2 * len(tree.path_to(deep))
    for i in np.flatnonzero((tree.depth == 2) & (tree.feature >= 0)):
        if int(i) not in tree.path_to(deep):
            assert f'id="dtmore{int(i)}"' in dot


def test_svg_of_hostile_names_has_no_markup():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(400, 2))
    y = np.array(["<script>alert(1)</script>", '" onload="x'], dtype=object)[(X[:, 0] > 0).astype(int)]
    est = CARTClassifier(max_depth=3).fit(X, y, feature_names=["<img src=x onerror=alert(1)>", "a&b"])
    w = focus.window(est.tree_, 1, 2)
    svg = export.render(focus.focus_dot(est, w), "svg").decode()
    assert "<script" not in svg and "<img" not in svg and 'onload="' not in svg
    assert "&lt;script&gt;" in svg or "&#60;script&#62;" in svg


def test_nearby_nodes(big):
    est, _, _ = big
    tree = est.tree_
    node = int(tree.children_of(int(tree.children_of(0)[0]))[1])
    near = focus.nearby_nodes(tree, node)
    assert near == sorted(near)
    assert set(tree.path_to(node)) | set(tree.children_of(node).tolist()) <= set(near)
    assert set(tree.children_of(int(tree.parent[node])).tolist()) <= set(near)
    assert focus.nearby_nodes(tree, None) == sorted({0, *tree.children_of(0).tolist()})
    small = CARTClassifier(max_depth=2).fit(np.arange(20.0).reshape(-1, 1), np.arange(20) % 2).tree_
    assert focus.nearby_nodes(small, 1) == list(range(small.node_count))
