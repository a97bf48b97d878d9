"""The Train page's what-if section in AppTest: the sample editor drives the path drawn in the
tree (bold edges, C4.5 shares on the edges for a missing value on watermelon 2.0α), filling in a
data row, the counterfactual table, the node data figure, and the code downloads built lazily."""

import re

import pytest

from dtcore import export
from dtcore.explain.prediction import explain_prediction
from tests.app.apptest import start
from tests.app.frame_pictures import frame_data, html_tables, whatif_frame
from tests.app.test_flows import direct_fit, score_charts
from ui.sections import whatif
from ui.views.text import TABLE_CSS


def whatif_svg(at) -> str:
    """The what-if path as the server's ``dot`` drew it for the page's frame (issue 26)."""
    frame = whatif_frame(at)
    assert frame is not None, "no what-if picture"
    return frame_data(frame)["svg"]


def bold_edges(svg) -> set[tuple[int, int]]:
    edge = r'<g id="dtedge(\d+)_(\d+)" class="edge">\s*<title>[^<]*</title>\s*<path [^>]*stroke-width="2\.5"'
    return {(int(a), int(b)) for a, b in re.findall(edge, svg)}


def bold_text(svg, text: str) -> bool:
    """``text`` is one of the picture's bold lines (``<B>`` in the DOT)."""
    return re.search(r'<text [^>]*font-weight="bold"[^>]*>' + re.escape(text) + "</text>", svg) is not None


def open_node_data(at) -> None:
    """Open the node data section (drawn only while open, issue 26) and run."""
    at.session_state[whatif.NODE_DATA_OPEN] = True
    at.run()


def drawn_inputs(at):
    """The sample editor's inputs on the page now (keys whatif_<generation>_<feature>)."""
    return [
        w for w in list(at.selectbox) + list(at.number_input) if re.fullmatch(r"whatif_\d+_\d+", str(w.key))
    ]


def editor_inputs(at):
    """The sample editor's inputs, its section opened first (drawn only while open, issue 26)."""
    if not drawn_inputs(at):
        at.session_state[whatif.EDITOR_OPEN] = True
        at.run()
    return drawn_inputs(at)


def editor(at, name):
    """The editor input labelled with feature ``name``."""
    for w in editor_inputs(at):
        if w.label == name:
            return w
    raise AssertionError(f"no editor input for {name}")


def test_editor_change_moves_the_bold_path():
    at = start(sample="watermelon_3.0", algo="cart")
    assert not at.exception
    # the tables' look comes with the page, once: their cells carry no style of their own
    assert [h.proto.body for h in at.get("html")].count(f"<style>{TABLE_CSS}</style>") == 1
    before = bold_edges(whatif_svg(at))
    assert before and (0, min(b for a, b in before if a == 0)) in before
    first_edge = next(e for e in before if e[0] == 0)
    # another texture sends the sample down the root's other branch
    w = editor(at, "纹理")
    other = next(o for o in w.options if o not in (w.value, "missing"))
    w.select(other).run()
    assert not at.exception
    after = bold_edges(whatif_svg(at))
    assert after and next(e for e in after if e[0] == 0) != first_edge
    assert at.metric[-1].label in ("Prediction", "预测")
    tables = html_tables(at)
    assert len(tables) == 3, "counterfactuals, probabilities, reached leaves"
    counterfactuals, probabilities, leaves = tables
    assert counterfactuals[0][:2] == ["Feature", "Value"] and any(r[0] == "纹理" for r in counterfactuals)
    assert sorted(r[0] for r in probabilities[1:]) == ["否", "是"]
    assert abs(sum(float(r[1]) for r in probabilities[1:]) - 1) < 0.002  # shares to 3 decimals
    assert len(leaves) == 2 and leaves[1][0].startswith("#")  # one leaf: no missing value here
    assert not at.get("arrow_data_frame") and not at.get("dataframe")  # no grid on Train & tree


def mixing_text(at) -> str:
    """The what-if's mixing lines as the browser shows them: the text of its preformatted block."""
    import html
    import re

    (block,) = [m.value for m in at.markdown if m.value.startswith('<div class="dt-pre"')]
    inner = re.fullmatch(r'<div class="dt-pre" style="[^"]*">(.*)</div>', block, re.S).group(1)
    assert "<" not in inner  # only text inside: user labels arrive escaped
    return html.unescape(inner)


def test_c45_missing_value_shows_shares_on_the_edges_and_the_mixing():
    at = start(sample="watermelon_2.0_missing", algo="c45")
    assert not at.exception
    editor(at, "纹理").select_index(0).run()  # "missing"
    assert not at.exception
    svg = whatif_svg(at)
    for share in ("7/15", "1/3", "1/5"):
        assert bold_text(svg, f"missing · {share}")
    assert len({b for a, b in bold_edges(svg) if a == 0}) == 3  # every branch of the root
    mixing = mixing_text(at)
    assert mixing.startswith("w(#") and "7/15 ×" in mixing


def test_fill_from_a_row_and_node_data():
    at = start(sample="watermelon_2.0_missing", algo="c45")
    at.number_input(key="whatif_row").set_value(7).run()
    at.button(key="whatif_fill").click().run()
    assert not at.exception
    assert editor(at, "纹理").value is None  # data row 8: 纹理 missing
    values = at.session_state["_whatif_values"]
    assert values[0] == "乌黑" and values[3] is None  # 色泽 (not tested by the tree: not shown)
    assert bold_text(whatif_svg(at), "missing · 7/15")
    assert "nodedata_node" not in {w.key for w in at.selectbox}  # closed: not drawn
    open_node_data(at)
    assert not at.exception
    assert at.selectbox(key="nodedata_node").value is not None
    assert not at.get("plotly_chart")  # the section is static SVG: no Plotly
    assert score_charts(at)["nodedata_feature"].count("<rect") > 2  # the node's feature, by class
    assert score_charts(at)["nodedata_children"].count("<rect") > 2  # its children: static SVG bars
    assert score_charts(at)["importances"].count("<rect") > 0  # the importances: static SVG bars


def test_code_downloads_are_built_only_on_click(monkeypatch):
    calls = []
    for name in ("to_python", "to_sql"):
        real = getattr(export, name)
        monkeypatch.setattr(export, name, lambda est, _r=real, _n=name: calls.append(_n) or _r(est))
    at = start(sample="watermelon_3.0", algo="cart")
    labels = [b.proto.label for b in at.get("download_button")]
    assert {"PDF", "HTML page", "Python function", "SQL query"} <= set(labels), labels
    editor(at, "色泽").select("浅白").run()
    assert not at.exception and calls == []


def test_the_page_explains_like_dtcore():
    """The prediction, probabilities and mixing shown are dtcore's for the edited sample."""
    at = start(sample="watermelon_3.0", algo="cart")
    editor(at, "密度").set_value(0.2).run()
    assert not at.exception
    assert bold_text(whatif_svg(at), "0.2")
    est = direct_fit("watermelon_3.0", "cart", ["编号"], "好瓜")
    names = [f.name for f in est.schema_.features]
    row = dict(zip(names, at.session_state["_whatif_values"]))  # the filled-in row
    row.update({w.label: w.value for w in editor_inputs(at)})
    assert set(row) == set(names)
    ex = explain_prediction(est, row)
    assert at.metric[-1].value == ex.prediction
    assert mixing_text(at) == "\n".join(ex.mixing)


@pytest.mark.parametrize(
    ("sample", "algo"), [("diabetes", "cart"), ("iris", "id3"), ("labor", "c45"), ("penguins", "cart")]
)
def test_every_kind_of_tree_and_node(sample, algo):
    """Regression, ID3's intervals, C4.5 with many missing values, CART's learned direction: the
    section draws, and the node data figure draws for every test node."""
    at = start(sample=sample, algo=algo)
    assert not at.exception, [e.value for e in at.exception]
    assert bold_edges(whatif_svg(at))
    open_node_data(at)
    nodes = at.selectbox(key="nodedata_node").options
    for k in range(min(4, len(nodes))):
        at.selectbox(key="nodedata_node").select_index(k).run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.selectbox(key="nodedata_node").index == k
    w = editor_inputs(at)[0]
    if hasattr(w, "set_value"):
        w.set_value(None).run()
    else:
        w.select_index(0).run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_row_number_beyond_a_shorter_split_is_clamped():
    at = start(sample="iris", algo="cart")
    at.number_input(key="whatif_row").set_value(100).run()
    assert not at.exception
    at.selectbox(key="whatif_split").select("test").run()
    assert not at.exception, [e.value for e in at.exception]
    row = at.number_input(key="whatif_row")
    assert row.value == row.max < 100
    at.button(key="whatif_fill").click().run()
    assert not at.exception


def test_the_editor_is_drawn_when_opened_and_its_values_outlive_closing_it():
    """Closed at first on a tree that tests many features (its inputs were a tenth of the
    browser's work on Train & tree, issue 26), open on a textbook tree's few; a value typed in it
    still holds once it is closed, and is there again when reopened."""
    at = start(sample="diabetes", algo="cart")
    assert not at.exception
    assert not drawn_inputs(at)  # ten features tested: closed
    at = start(sample="watermelon_3.0", algo="cart")
    assert 0 < len(drawn_inputs(at)) <= whatif.EDITOR_OPEN_UP_TO  # a few: open
    editor(at, "密度").set_value(0.2).run()
    assert bold_text(whatif_svg(at), "0.2")
    at.session_state[whatif.EDITOR_OPEN] = False
    at.run()
    assert not at.exception and not drawn_inputs(at)
    assert bold_text(whatif_svg(at), "0.2")  # the sample still has the typed value
    at.session_state[whatif.EDITOR_OPEN] = True
    at.run()
    assert editor(at, "密度").value == 0.2
