"""A big tree on the Train page (diabetes with CART unlimited: 615 nodes): search replaces the
node selectors, the overview map focuses the view, boxes fold and unfold, and the whole-tree
picture obeys the node budget; small trees keep their selectors."""

import re

import numpy as np

from tests.app.apptest import start
from tests.app.frame_pictures import frame_data, node_ids, overview_frame, tree_frames
from ui.figures.overview import MAX_DEPTH, sector_layout, start_sector
from ui.sections import navigation
from ui.views import focus


def focused(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Focused on node"))


def tree_charts(at) -> list:
    """The pictures the browser lays out itself (``st.graphviz_chart``): none on a server with
    ``dot``, which lays out every picture (issue 26)."""
    return list(at.get("graphviz_chart"))


def fitted(at) -> bool:
    """Whether the run's one tree frame opens fitted to the column without pan/zoom (a picture
    within the browser's budget) rather than in the pan/zoom frame (the server's, past it)."""
    (el,) = tree_frames(at)
    return bool(frame_data(el)["fixed"])


def frame_svg(at) -> str:
    """The SVG the pan/zoom frame was given this run (drawn by the server's ``dot``)."""
    (el,) = tree_frames(at)
    return frame_data(el)["svg"]


def big_app():
    at = start(sample="diabetes", algo="cart")
    assert not at.exception
    return at


def test_big_tree_has_search_instead_of_node_selectors():
    at = big_app()
    keys = {s.key for s in at.selectbox}
    assert "node" not in keys and "find_query" in keys and "find_hit" in keys
    assert not [m for m in at.multiselect if m.key == "collapse"]
    assert focused(at).startswith("**Focused on node #0:**")
    # every result list stays short: no selector holds hundreds of labels
    assert all(len(s.options) <= 60 for s in at.selectbox)


def test_small_tree_keeps_its_selectors():
    at = start()  # watermelon 3.0, C4.5
    assert not at.exception
    assert {"node", "levels"} <= {s.key for s in at.selectbox}
    assert fitted(at) and not tree_charts(at)  # within the budget: fitted to the column
    assert not any("Drawn on the server by Graphviz" in c.value for c in at.caption)  # no pan/zoom


def test_search_result_focuses_the_view():
    at = big_app()
    at.selectbox(key="find_query").select("fewest").run()
    hits = at.selectbox(key="find_hit").options
    assert len(hits) == 50
    first = int(re.match(r"#(\d+)", hits[0]).group(1))
    at.selectbox(key="find_hit").select_index(0).run()
    assert not at.exception
    assert at.session_state["node"] == first
    assert focused(at).startswith(f"**Focused on node #{first}:**")
    # the URL carries the focus
    assert str(at.query_params["node"]) in (str(first), str([str(first)]))


def test_search_by_feature_lists_nodes_testing_it():
    at = big_app()
    at.selectbox(key="find_query").select("nodes testing a feature").run()
    at.selectbox(key="find_feature").select("bmi").run()
    hits = at.selectbox(key="find_hit").options
    assert hits and all("bmi" in h for h in hits)


def test_largest_validation_error_is_searchable():
    at = big_app()
    at.selectbox(key="find_query").select("largest error on validation").run()
    assert not at.exception
    assert at.selectbox(key="find_hit").options  # diabetes' sample split has validation rows


def test_the_overview_map_is_a_frame_of_the_sectors_it_shows():
    """The overview is an SVG in a tree frame (no Plotly): every sector it shows is a ``dtnodeN``
    group the frame sends as "node:N" when clicked (the browser tests click one), and it opens
    above the focused node, framing it."""
    at = big_app()
    tree = at.session_state["result"].estimator.tree_
    ov = overview_frame(at)
    assert ov is not None and ov.key == navigation.overview_key(0)
    assert not [c for c in at.get("plotly_chart") if "overview" in str(c.key)]
    svg = frame_data(ov)["svg"]
    nodes, rows, _, _ = sector_layout(tree, 0)
    assert set(re.findall(r'id="dtnode(\d+)"', svg)) == {str(i) for i in nodes}
    assert rows.max() == MAX_DEPTH - 1 < tree.depth.max()
    deep = int(np.argmax(tree.depth))
    at.session_state["node"] = deep  # what a click's focus_on does
    at.run()
    ov = overview_frame(at)
    assert ov.key == navigation.overview_key(deep)
    svg = frame_data(ov)["svg"]
    start = start_sector(tree, deep)
    assert start == tree.path_to(deep)[-4]
    # the path to the opening sector as clickable boxes: the root and the nearest ancestors
    # (those between elided, "…", when the path is longer than the map is wide)
    above = tree.path_to(start)[:-1]
    assert f'id="dtnode{above[0]}"' in svg and f'id="dtnode{above[-1]}"' in svg
    assert all(f'id="dtnode{p}"' in svg for p in above) or ">…</text>" in svg
    assert re.search(rf'<g id="dtnode{deep}" class="sector"><a [^>]*><rect [^>]*stroke="#111111"', svg)


def test_up_and_root_buttons():
    at = big_app()
    at.session_state["node"] = 5
    at.run()
    up = next(b for b in at.button if b.label == "Up one level")
    up.click().run()
    assert at.session_state["node"] == 4
    next(b for b in at.button if b.label == "Back to the root").click().run()
    assert at.session_state["node"] == 0


def test_fold_and_unfold():
    at = big_app()
    at.session_state["node"] = 1
    at.selectbox(key="focus_levels").select(1).run()
    tree = at.session_state["result"].estimator.tree_
    box = int(tree.children_of(1)[0])
    svg = frame_svg(at)
    assert f'id="dtmore{box}"' in svg
    assert f'id="dtnode{int(tree.children_of(box)[0])}"' not in svg
    # what a click on the summary box ("more:N" from the frame) does
    kind, node = focus.frame_click(f"more:{box}")
    assert (kind, node) == ("more", box)
    at.session_state["focus_opened"] = [box]
    at.run()
    svg = frame_svg(at)
    assert f'id="dtmore{box}"' not in svg
    for c in tree.children_of(box):
        assert f'id="dtnode{int(c)}"' in svg
    # focusing another node closes the opened boxes (a click on "node:N")
    assert focus.frame_click("node:7") == ("node", 7)
    at.button[[b.label for b in at.button].index("Back to the root")].click().run()
    assert at.session_state["focus_opened"] == []


def test_frame_events_are_parsed_strictly():
    assert focus.frame_click("crumb:3") == ("crumb", 3)
    for bad in (None, "", "node:", "node:-1", "node:1e3", "script:1", "node:1:2"):
        assert focus.frame_click(bad) is None


def test_whole_tree_above_the_browser_budget_is_drawn_by_the_server():
    at = big_app()
    at.button_group(key="focus_show").set_value("whole").run()
    assert not at.exception
    tree = at.session_state["result"].estimator.tree_
    assert focus.whole_tree_mode(tree) == "server"
    svg = frame_svg(at)
    assert svg.count('class="node"') >= tree.node_count


def test_all_levels_past_the_browser_budget_go_to_the_server():
    """credit-g with CART: 269 nodes, under the search threshold but over the browser's budget."""
    at = start(sample="credit-g", algo="cart", levels="all")
    assert not at.exception
    tree = at.session_state["result"].estimator.tree_
    assert focus.BROWSER_NODE_BUDGET < tree.node_count <= focus.SELECTOR_LIMIT
    assert not tree_charts(at) and not fitted(at)  # the pan/zoom frame
    assert frame_svg(at).count('class="node"') >= tree.node_count
    at.selectbox(key="levels").select("auto").run()
    assert fitted(at) and not tree_charts(at)


def test_selected_deep_node_is_drawn_with_its_path():
    at = start(sample="credit-g", algo="cart")
    tree = at.session_state["result"].estimator.tree_
    deep = int(tree.depth.argmax())
    at.selectbox(key="node").select(deep).run()
    assert not at.exception
    assert deep in node_ids(frame_svg(at))


def test_splits_page_of_a_big_tree_lists_the_neighbourhood_only():
    at = start("pages/splits.py", direct=True, node=40, **{"sample": "diabetes", "algo": "cart"})
    assert not at.exception
    tree = at.session_state["result"].estimator.tree_
    (sel,) = [s for s in at.selectbox if s.key == "split_node"]
    listed = [int(re.match(r"#(\d+)", o).group(1)) for o in sel.options]
    assert listed == focus.nearby_nodes(tree, 40)
    assert set(tree.path_to(40)) <= set(listed) and len(listed) < 40
    assert at.session_state["split_node"] == 40
    # picking a child moves the neighbourhood with it
    child = int(tree.children_of(40)[0])
    sel.select(sel.options[listed.index(child)]).run()
    assert not at.exception
    (sel,) = [s for s in at.selectbox if s.key == "split_node"]
    assert [int(re.match(r"#(\d+)", o).group(1)) for o in sel.options] == focus.nearby_nodes(tree, child)


def test_splits_page_of_a_big_tree_shows_the_focused_view_the_page_holds():
    """Going from Train & tree to Splits on a big tree sends no picture: the Splits tree is the
    focused view Train drew (same window, boxes, layout), so its frame gets the digest only;
    the node chosen there is Train's focus, on every visit."""
    import json

    at = big_app()
    at.selectbox(key="focus_levels").select(2).run()
    (train,) = tree_frames(at)
    held = json.loads(train.proto.json)["digest"]
    at.switch_page("pages/splits.py").run()
    assert not at.exception
    (split,) = [c for c in tree_frames(at) if c.key == "split_frame"]
    data = json.loads(split.proto.json)
    assert data["digest"] == held and data["svg"] is None
    tree = at.session_state["result"].estimator.tree_
    child = int(tree.children_of(0)[1])
    # what a click on a node there does (``splits.on_frame_click``, checked below): both pages'
    # selection moves, the boxes opened close
    at.session_state["split_node"] = at.session_state["node"] = at.session_state["_split_node_seen"] = child
    at.session_state["focus_opened"] = []
    at.run()
    assert not at.exception
    at.switch_page("pages/train.py").run()
    assert focused(at).startswith(f"**Focused on node #{child}:**")
    (train,) = tree_frames(at)
    at.switch_page("pages/splits.py").run()
    (split,) = [c for c in tree_frames(at) if c.key == "split_frame"]
    # a second visit keeps the node (the selector's own state went while Train ran)
    assert at.session_state["node"] == at.session_state["split_node"] == child
    assert json.loads(split.proto.json)["digest"] == json.loads(train.proto.json)["digest"]


def clicks_script() -> None:
    import streamlit as st

    from ui.sections.splits import on_frame_click

    for value, big in st.session_state["clicks"]:
        on_frame_click(value, big=big)


def test_a_click_in_the_splits_tree_selects_and_opens_in_the_view_it_shows():
    from streamlit.testing.v1 import AppTest

    def after(*clicks):
        at = AppTest.from_function(clicks_script)
        at.session_state["clicks"] = list(clicks)
        at.run()
        assert not at.exception
        return at.session_state

    state = after(("more:9", True), ("more:9", True))
    assert state["focus_opened"] == [9] and "split_opened" not in state
    state = after(("more:9", True), ("crumb:3", True))
    assert (state["node"], state["split_node"], state["focus_opened"]) == (3, 3, [])
    state = after(("more:9", False), ("crumb:3", False))  # a small tree: no breadcrumbs, own boxes
    assert state["split_opened"] == [9] and "node" not in state
    assert after(("node:4", False))["split_node"] == 4


def generated_app(rows: int = 20_000):
    """The Train page on a generated table (CART unlimited: thousands of nodes), as an upload."""
    import numpy as np
    import pandas as pd

    from ui.services import roles as R
    from ui.services.loading import LoadedData

    rng = np.random.default_rng(0)
    X = rng.normal(size=(rows, 4)).round(3)
    y = np.array(["a", "b", "c"])[(X[:, 0] + rng.normal(size=rows) > 0).astype(int) + (X[:, 1] > 1)]
    df = pd.DataFrame(X, columns=["x0", "x1", "x2", "x3"]).assign(cls=y)
    at = start(algo="cart")
    at.session_state["data"] = LoadedData(df, "big.csv", "upload", "csv", "UTF-8", f"generated-{rows}")
    at.session_state["roles"] = R.infer_roles(df, "cls")
    at.session_state["task"] = R.CLASSIFICATION
    at.session_state["result"] = None  # as set_data does: the old model goes
    at.run()
    assert not at.exception
    return at


def test_thousands_of_nodes_stay_quick_and_whole_picture_is_refused():
    import time

    at = generated_app()
    tree = at.session_state["result"].estimator.tree_
    assert tree.node_count > focus.SERVER_NODE_LIMIT
    assert all(len(s.options) <= 60 for s in at.selectbox)
    at.selectbox(key="find_query").select("least pure leaves").run()
    trained = at.session_state["result"]
    t0 = time.perf_counter()
    at.selectbox(key="find_hit").select_index(0).run()
    took = time.perf_counter() - t0
    assert not at.exception
    assert at.session_state["node"] > 0
    assert at.session_state["result"] is trained  # a focus change reruns without retraining
    assert took < 100  # a hang guard, not a speed test: the rerun takes about a second
    at.button_group(key="focus_show").set_value("whole").run()
    assert not at.exception
    assert any("more than can be drawn at once" in w.value for w in at.warning)
    assert not tree_charts(at) and not tree_frames(at)


def test_pruning_page_draws_big_trees_on_the_server():
    """Pruning's "Show levels: all" on a 615-node tree: both pictures come from the server's dot
    in the frame (at one common scale, small trees too: issue 16.6)."""
    at = start("pages/prune.py", direct=True, prune_levels="all", **{"sample": "diabetes", "algo": "cart"})
    assert not at.exception
    frames, charts = tree_frames(at), tree_charts(at)
    assert len(frames) == 2 and not charts
    at.selectbox(key="prune_levels").select("auto").run()
    assert not at.exception
    assert len(tree_frames(at)) == 2 and not tree_charts(at)


def test_picture_downloads_of_a_tree_too_big_to_lay_out_are_disabled_with_the_reason():
    """Above DOWNLOAD_NODE_LIMIT nodes the SVG, PNG, PDF and HTML page buttons would make Graphviz
    lay out the whole tree on the click (30 s for 6 121 nodes): they are disabled, the page says
    why and offers the .dot file, which stays enabled with the model and code downloads."""
    from ui.sections.downloads import DOWNLOAD_NODE_LIMIT

    at = generated_app(40_000)
    nodes = at.session_state["result"].estimator.tree_.node_count
    assert nodes > DOWNLOAD_NODE_LIMIT
    state = {b.proto.label: b.proto.disabled for b in at.get("download_button")}
    assert all(state[k] for k in ("SVG", "PNG", "PDF", "HTML page")), state
    assert not any(state[k] for k in ("Model (JSON)", "Graphviz DOT", "Rules (text)", "Python function")), (
        state
    )
    assert any(f"{nodes:,} nodes" in c.value and "dot -Tsvg" in c.value for c in at.caption)
    small = start(sample="watermelon_3.0", algo="c45")  # a textbook tree: every button enabled
    assert not any(b.proto.disabled for b in small.get("download_button"))
