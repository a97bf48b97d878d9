"""The Splits page as a user drives it (streamlit AppTest): the report of a node, the worked
arithmetic with the SPEC numbers, forcing an alternative split, seeing it on the Train page, and
undoing it. Expected values come from dtcore directly or from the SPEC."""

from streamlit.testing.v1 import AppTest

from dtcore import explain
from tests.app import apptest
from tests.app.frame_pictures import BOLD, html_tables, styled_lines, svg_node, tree_svg
from tests.dtcore.test_explain import fit
from ui.views.text import md_escape

SPLITS = "pages/splits.py"
TRAIN = "pages/train.py"


def start(**query) -> AppTest:
    """Open the Splits page first (a shared link to /splits): it trains the model itself."""
    return apptest.start(SPLITS, direct=True, **query)


def ok(at):
    assert not at.exception, [e.value for e in at.exception]


def latex(at) -> str:
    return "\n".join(m.value for m in at.latex)


def select(at, label):
    return next(s for s in at.selectbox if s.label == label)


def test_buys_computer_id3_root_prints_the_spec_arithmetic():
    at = start(sample="buys_computer", algo="id3")
    ok(at)
    text = latex(at)
    # SPEC's 0.247 and 0.156 print with four decimals: at three the gain line is false as printed
    for number in ("0.940", "0.2467", "1.577", "0.1564"):
        assert f"&= {number}" in text, number
    assert r"\mathrm{Gain\_ratio}(D,\text{age})" in text
    md = "\n".join(m.value for m in at.markdown)
    assert "age \\= ?" in md  # the tree's test and the algorithm's choice


def test_watermelon_c45_density_curve_and_cart_in_chinese():
    at = start(sample="watermelon_3.0", algo="c45")
    ok(at)
    select(at, "Feature").set_value("密度").run()
    ok(at)
    cand = select(at, "Candidate to preview (or click the chart)")
    assert "0.3815" in cand.format_func(cand.value)
    assert r"\frac{\log_2 14}{17}" in latex(at)  # C4.5's MDL penalty over 14 eligible cuts
    at = start(sample="watermelon_3.0", algo="cart", lang="zh")
    ok(at)
    assert at.title[0].value == "划分探索"
    assert any("计算过程" in m.value for m in at.markdown)


def test_forcing_a_split_shows_on_the_train_page_and_undo_restores_the_tree():
    at = start(sample="buys_computer", algo="id3")
    ok(at)
    est, X, y = fit("buys_computer", "id3")
    select(at, "Feature").set_value("student").run()
    ok(at)
    force = next(b for b in at.button if b.key == "split_force")
    assert not force.disabled
    force.click().run()
    ok(at)
    md = "\n".join(m.value for m in at.markdown)
    assert "student \\= ?" in md.split("The tree tests here:")[1].splitlines()[0]
    # the Train page draws the forced tree, the forced root in bold
    at.switch_page(TRAIN).run()
    ok(at)
    root = svg_node(tree_svg(at), 0)
    assert "student" in styled_lines(root, BOLD) and 'stroke-width="3"' in root
    assert any("forced splits" in c.value.lower() for c in at.caption)
    # undo on the Splits page gives back the trained tree
    at.switch_page(SPLITS).run()
    undo = next(b for b in at.button if b.key == "split_undo")
    undo.click().run()
    ok(at)
    md = "\n".join(m.value for m in at.markdown)
    assert "age \\= ?" in md.split("The tree tests here:")[1].splitlines()[0]
    assert not any(b.key == "split_undo" for b in at.button)
    at.switch_page(TRAIN).run()
    assert "age" in styled_lines(svg_node(tree_svg(at), 0), BOLD)


def test_node_from_the_url_and_the_report_it_shows():
    est, X, y = fit("watermelon_3.0", "cart")
    node = int((est.tree_.feature >= 0).nonzero()[0][1])
    rep = explain.split_report(est, X, y, None, node)
    at = start(sample="watermelon_3.0", algo="cart", node=str(node))
    ok(at)
    md = "\n".join(m.value for m in at.markdown)
    assert f"node #{node}" in md
    assert f"**{explain.jsonable(rep.weighted_n):g}**" in md or f"**{int(rep.weighted_n)}**" in md
    ranking = html_tables(at)[0]  # header, then the features best first
    assert ranking[1][1] == rep.features[rep.chosen].name


def test_picked_node_and_feature_are_in_the_url_at_the_end_of_the_same_run():
    """The address bar names the view the run drew (not the previous one): node and feature."""
    at = start(sample="watermelon_3.0", algo="c45")
    ok(at)
    at.selectbox(key="split_node").set_value(1).run()
    ok(at)
    assert at.query_params.get("node") == "1"
    assert at.query_params.get("split_feature") == at.session_state["split_feature"]
    select(at, "Feature").set_value("密度").run()
    ok(at)
    assert at.query_params.get("split_feature") == "密度" and at.query_params.get("node") == "1"
    # the Train page's node selector too
    at.switch_page(TRAIN).run()
    at.selectbox(key="node").set_value(2).run()
    ok(at)
    assert at.query_params.get("node") == "2"


def test_a_link_naming_a_feature_opens_its_chart():
    est, X, y = fit("watermelon_3.0", "c45")
    rep = explain.split_report(est, X, y, None, 0)
    assert rep.features[rep.chosen].name != "密度"  # not what the page shows by itself
    at = start(sample="watermelon_3.0", algo="c45", split_feature="密度")
    ok(at)
    assert select(at, "Feature").value == "密度"
    assert r"\frac{\log_2 14}{17}" in latex(at)  # 密度's C4.5 cut: MDL penalty over 14 eligible cuts
    at.selectbox(key="split_node").set_value(1).run()  # another node: the algorithm's choice there
    ok(at)
    rep1 = explain.split_report(est, X, y, None, 1)
    assert select(at, "Feature").value == rep1.features[rep1.chosen].name


def test_the_previewed_candidate_is_ringed_on_the_curve():
    """Issue 16, item 11: picking a candidate (here in the selector; a click on the chart sets
    the same value, ``splits.on_curve_pick``) rings it on the gain curve, next to the chosen star:
    the page's frame shows the curve drawn with that candidate picked (where the ring is drawn:
    tests/ui/test_split_curve.py)."""
    from tests.app.frame_pictures import all_frames, frame_data
    from ui.commands.report import node_report
    from ui.figures.split_curve import threshold_curve_svg
    from ui.views.focus import frame_click

    at = start(sample="watermelon_3.0", algo="c45", split_feature="密度")
    ok(at)
    est = at.session_state["result"].estimator
    df = at.session_state["data"].df
    res = at.session_state["result"]
    nd, rep = node_report(est, df[res.features].to_numpy(dtype=object), df[res.target].to_numpy(dtype=object))
    j = [f.name for f in rep.features].index("密度")

    def curve() -> str:
        (frame,) = [c for c in all_frames(at) if str(c.key).startswith("split_curve_")]
        return frame_data(frame)["svg"]

    assert not at.get("plotly_chart")  # the curve is the server's SVG: no Plotly on the page
    assert any(c.value.startswith("Top: the score of every cut") for c in at.caption)  # how to read it
    # the best candidate is previewed: the star already marks it, no ring
    assert curve() == threshold_curve_svg(nd, rep, j, "en", picked=rep.features[j].best)
    box = at.selectbox(key="split_candidate")
    box.select_index(3).run()  # past the best and the runner-up, which have their own marks
    ok(at)
    picked = at.selectbox(key="split_candidate").value
    assert picked == at.session_state["split_candidate"]
    assert curve() == threshold_curve_svg(nd, rep, j, "en", picked=picked)
    assert f'id="dtpick{picked}"' in curve() and frame_click(f"pick:{picked}") == ("pick", picked)


def pick_script() -> None:
    import streamlit as st

    from ui.sections.splits import on_curve_pick

    for value in st.session_state["picks"]:
        on_curve_pick(value)


def test_a_click_on_the_curve_previews_that_candidate():
    """The curve's frame sends ``"pick:K"`` for a click in the column of candidate K; anything
    else (a node of a tree picture, garbage) leaves the preview alone."""
    for picks, expected in ((["pick:7"], 7), (["pick:7", "node:3", "pick:x", None], 7), (["node:3"], None)):
        at = AppTest.from_function(pick_script)
        at.session_state["picks"] = picks
        at.run()
        assert not at.exception
        if expected is None:
            assert "split_candidate" not in at.session_state
        else:
            assert at.session_state["split_candidate"] == expected


def test_the_choice_names_the_number_the_algorithm_ranks_by():
    """C4.5 ranks by gain ratio: the choice and the runner-up print it, named (they printed the
    gain as "score"); ID3 on gain prints the gain."""
    est, X, y = fit("watermelon_3.0", "c45")
    rep = explain.split_report(est, X, y, None, 0)
    at = start(sample="watermelon_3.0", algo="c45")
    ok(at)
    md = "\n".join(m.value for m in at.markdown)
    ch, ru = rep.features[rep.chosen], rep.features[rep.runner_up]
    assert f"(gain ratio {ch.gain_ratio:.4f})" in md and f"(gain ratio {ru.gain_ratio:.4f})" in md
    at = start(sample="buys_computer", algo="id3")
    ok(at)
    assert "(information gain 0.2467)" in "\n".join(m.value for m in at.markdown)


def test_c45_threshold_shows_the_textbook_midpoint_beside_it():
    """Issue 16 item 4: C4.5 stores release 8's 0.36 (a training value); the explorer prints the
    midpoint 0.3815 the textbook uses beside it, in English and 中文."""
    at = start(sample="watermelon_3.0", algo="c45")
    ok(at)
    select(at, "Feature").set_value("密度").run()
    ok(at)
    md = "\n".join(m.value for m in at.markdown)
    assert "#### Preview: " + md_escape("密度 ≤ 0.36 (midpoint 0.3815)") in md, md
    at = start(sample="watermelon_3.0", algo="c45", lang="zh")
    ok(at)
    select(at, "特征").set_value("密度").run()
    ok(at)
    md = "\n".join(m.value for m in at.markdown)
    assert md_escape("密度 ≤ 0.36（中点 0.3815）") in md, md


def test_a_multiway_tests_branches_are_a_static_chart_with_each_branchs_entropy():
    """ID3 at the root of buys_computer charts age (three branches): the class counts per branch
    with each branch's entropy, drawn by the server (no Plotly on the page)."""
    from dtcore.criteria import entropy
    from ui.views.splits import num

    at = start(sample="buys_computer", algo="id3")
    ok(at)
    est, X, y = fit("buys_computer", "id3")
    rep = explain.split_report(est, X, y, None, 0)
    rec = rep.features[rep.chosen]
    assert rec.mode == "multiway" and len(rec.branch_counts) == 3
    assert not at.get("plotly_chart")
    (chart,) = [m.value for m in at.markdown if m.value.startswith("<svg") and ">Ent " in m.value]
    for e in entropy(rec.branch_counts):
        assert f">Ent {num(e, 3)} · = " in chart
