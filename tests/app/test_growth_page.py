"""The Growth page (AppTest): the step slider shows the tree after k splits (the picture has
exactly k tests while growing), then the pruning steps; play advances without retraining: on the
picture's report that the browser drew the step (the server's SVG in the frame), or on a 1 s
clock where the server has no ``dot`` and the browser draws the picture."""

import re

import pytest

from dtcore.analysis import growth_steps as gs
from tests.app.apptest import start
from tests.app.frame_pictures import frame_data, tree_frames

GROWTH = "pages/growth.py"


def no_exception(at):
    assert not at.exception, [e.value for e in at.exception]


def drawn_tests(dot: str) -> int:
    """Nodes with an edge out of them: the tests of the drawn tree (in its DOT, or in the SVG
    ``dot`` drew, whose edges are titled ``node3&#45;&gt;node7``)."""
    return len(set(re.findall(r"^\s*(\w+)\s*->|<title>(\w+)&#45;&gt;", dot, flags=re.M)))


def dot(at) -> str:
    """The step's picture: the frame's SVG (the server has ``dot``), else the chart's DOT."""
    frames, charts = tree_frames(at), at.get("graphviz_chart")
    assert len(frames) + len(charts) == 1
    return frame_data(frames[0])["svg"] if frames else charts[0].proto.spec


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    """A server without Graphviz's ``dot``: the browser lays the picture out, a clock plays."""
    monkeypatch.setenv("PATH", str(tmp_path))


def test_step_slider_walks_growth_then_pruning():
    at = start(GROWTH, algo="c45", sample="credit-g")
    no_exception(at)
    est = at.session_state["result"].estimator
    splits, total = gs.n_growth_steps(est), gs.n_steps(est)
    assert splits > 3 and total > splits  # C4.5 collapses and prunes credit-g
    assert at.slider(key="growth_step").value == total  # opens on the fitted tree
    for k in (0, 1, 2, 3, splits // 2):
        at.slider(key="growth_step").set_value(k).run()
        no_exception(at)
        st_tree = gs.step_tree(est, k)
        if st_tree.tree.node_count <= 63:
            assert drawn_tests(dot(at)) == k
        assert int((~st_tree.tree.is_leaf).sum()) == k
    at.slider(key="growth_step").set_value(1).run()
    text = " ".join(m.value for m in at.markdown)
    assert "Split 1 of" in text and "gain ratio" in text and "Runner-up" in text
    at.slider(key="growth_step").set_value(splits + 1).run()
    no_exception(at)
    text = " ".join(m.value for m in at.markdown)
    assert "Pruning step 1 of" in text and "collapse" in text
    at.slider(key="growth_step").set_value(total).run()
    final = gs.step_tree(est, total).tree
    assert final.node_count == est.tree_.node_count


def test_small_tree_dot_counts_exactly_k_tests():
    at = start(GROWTH, algo="cart", sample="watermelon_2.0")
    no_exception(at)
    est = at.session_state["result"].estimator
    for k in range(gs.n_growth_steps(est) + 1):
        at.slider(key="growth_step").set_value(k).run()
        assert drawn_tests(dot(at)) == k
    assert at.session_state["result"].estimator is est  # no retraining


def test_play_advances_one_step_per_run(no_dot):
    at = start(GROWTH, algo="id3", sample="watermelon_2.0")
    total = gs.n_steps(at.session_state["result"].estimator)
    at.button(key="growth_play").click().run()  # at the end: play starts again from 0
    no_exception(at)
    assert at.session_state["growth_playing"] is True
    first = at.slider(key="growth_step").value
    at.run()
    assert at.slider(key="growth_step").value == first + 1
    at.button(key="growth_play").click().run()
    assert at.session_state["growth_playing"] is False
    assert 0 < at.slider(key="growth_step").value <= total


def test_explore_button_opens_the_splits_page_at_that_node():
    at = start(GROWTH, algo="cart", sample="watermelon_2.0")
    at.slider(key="growth_step").set_value(2).run()
    at.button(key="growth_explore").click().run()
    no_exception(at)
    est = at.session_state["result"].estimator
    node = int(gs.step_tree(est, 2).node)
    assert at.session_state["node"] == node  # CART: the grown tree is the fitted tree


def test_play_shows_every_step_from_the_first(no_dot):
    """Issue 27: Play from the end went 0 → 1 → 2 before any picture was drawn (the click's run
    and its full rerun both advanced): step 0 is drawn first, then 1, 2, … one per timed run."""
    at = start(GROWTH, algo="id3", sample="watermelon_2.0")
    at.button(key="growth_play").click().run()
    no_exception(at)
    assert at.slider(key="growth_step").value == 0 and drawn_tests(dot(at)) == 0
    for k in (1, 2):
        at.run()
        assert at.slider(key="growth_step").value == k and drawn_tests(dot(at)) == k


def test_play_waits_for_the_picture_not_a_clock():
    """Issue 27: Play advanced the slider on a 1 s clock while the browser was still drawing
    (slider at k, picture at k - 3). With ``dot`` the frame is told the step it shows and, while
    playing, to report it drawn after a second; reruns in between do not move the slider."""
    at = start(GROWTH, algo="id3", sample="watermelon_2.0")
    total = gs.n_steps(at.session_state["result"].estimator)
    data = frame_data(tree_frames(at)[0])
    assert data["step"] == total and data["advance_ms"] is None  # not playing
    at.button(key="growth_play").click().run()  # at the end: play starts again from 0
    no_exception(at)
    assert at.session_state["growth_playing"] is True
    for _ in range(2):
        data = frame_data(tree_frames(at)[0])
        assert at.slider(key="growth_step").value == data["step"] == 0 and drawn_tests(data["svg"]) == 0
        assert data["advance_ms"] == 1000
        at.run()
    assert not at.get("graphviz_chart")


def test_each_step_is_replayed_once(monkeypatch):
    """A run replays the fitted tree's step (the history check, the caption's node in the fitted
    tree) and the step shown once, and a rerun on the same step replays nothing: opening the page
    replayed the fitted tree three times, 0.6 s of a 2 000-node C4.5 tree's run (issue 26). (The
    trained estimator is cached across sessions, and so are its steps: an earlier test may have
    replayed some of them already.)"""
    at = start(algo="c45", sample="credit-g")
    est = at.session_state["result"].estimator
    total = gs.n_steps(est)
    replayed = []
    real = gs.step_tree
    monkeypatch.setattr(gs, "step_tree", lambda e, k: replayed.append(int(k)) or real(e, k))
    at.switch_page(GROWTH).run()
    no_exception(at)
    assert at.slider(key="growth_step").value == total
    assert replayed in ([total], [])
    at.slider(key="growth_step").set_value(total - 1).run()
    at.run()
    at.slider(key="growth_step").set_value(total).run()
    no_exception(at)
    assert set(replayed) <= {total, total - 1} and len(replayed) == len(set(replayed)), replayed
