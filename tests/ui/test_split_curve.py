"""The Splits page's score curve as the server's SVG (``ui.figures.split_curve``): its marks sit
at their candidates' coordinates, every candidate is reachable by a click column whose tooltip
states true numbers, user text is escaped, big curves stay small, the same input gives the same
bytes."""

import re
import xml.etree.ElementTree as ET

import numpy as np

from dtcore import explain
from tests.dtcore.test_explain import fit
from ui.figures import split_curve as C
from ui.figures.splits import Histogram, class_histogram, decimate
from ui.views.splits import num

SVG = "{http://www.w3.org/2000/svg}"
XLINK_TITLE = "{http://www.w3.org/1999/xlink}title"
TEXTS = {
    "score": "gain",
    "threshold": "x",
    "count": "rows",
    "chosen": "best",
    "runner": "second",
    "ineligible": "not eligible",
    "candidates": "cuts",
    "picked": "previewed",
    "best": "a click picks",
}


def melon(picked=None, texts=TEXTS):
    est, X, y = fit("watermelon_3.0", "c45")
    nd = explain.explainer_data(est, X, y, None, 0)
    rep = explain.report_for(nd)
    j = est.schema_.index("密度")
    rec = rep.features[j]
    c = rec.candidates
    runner = 9 if rec.best != 9 else 8
    svg = C.curve_svg(
        c.threshold,
        c.score,
        c.eligible,
        rec.best,
        runner,
        class_histogram(nd.X[:, j], nd.y, nd.w, nd.C),
        np.arange(len(c.score)),
        classes=list(est.schema_.classes),
        texts=texts,
        stored=rec.test.cuts[0],
        picked=picked,
    )
    return svg, rec, runner


def columns(svg: str) -> list[tuple[int, str, float, float]]:
    """(candidate, tooltip, x, width) of every click column."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(SVG + "g"):
        gid = g.get("id") or ""
        if gid.startswith(C.PICK_PREFIX):
            a = g.find(SVG + "a")
            rect = a.find(SVG + "rect")
            out.append(
                (
                    int(gid[len(C.PICK_PREFIX) :]),
                    a.get(XLINK_TITLE),
                    float(rect.get("x")),
                    float(rect.get("width")),
                )
            )
    return out


def test_every_candidate_is_its_own_column_with_its_true_numbers():
    svg, rec, _ = melon()
    c = rec.candidates
    cols = columns(svg)
    assert sorted(k for k, *_ in cols) == list(range(len(c.score)))
    for k, tip, _, _ in cols:
        assert tip.startswith(f"x ≤ {C.plain(c.threshold[k], 6)} · gain {num(c.score[k], 4)}")
        assert tip.endswith("(not eligible)") == (not c.eligible[k])
    # the columns tile the plot left to right without gaps or overlaps
    spans = sorted((x0, x0 + w) for _, _, x0, w in cols)
    assert all(abs(b0 - a1) < 0.11 for (_, a1), (b0, _) in zip(spans, spans[1:]))


def test_marks_sit_on_their_candidates():
    svg, rec, runner = melon(picked=5)
    c = rec.candidates
    # the labels name the cut and its score; the star, diamond and ring are drawn once each
    assert f"{C.plain(c.threshold[rec.best])} · {num(c.score[rec.best], 3)}" in svg
    assert f"{C.plain(c.threshold[runner])} · {num(c.score[runner], 3)}" in svg
    assert svg.count(f'stroke="{C.PICKED}" stroke-width="2"') == 2  # the ring and its legend swatch
    # the dashed marks cross both panels at the chosen and runner-up thresholds, in threshold order
    lines = re.findall(
        r'<line x1="([\d.]+)" y1="[\d.]+" x2="\1" y2="[\d.]+" stroke="(#d62728|#9467bd)" stroke-width="1" stroke-dasharray',
        svg,
    )
    xs = {color: float(x) for x, color in lines}
    assert (xs[C.CHOSEN] < xs[C.RUNNER]) == (c.threshold[rec.best] < c.threshold[runner])
    # no ring when the previewed one is the chosen cut (its star marks it)
    svg, _, _ = melon(picked=rec.best)
    assert f'stroke="{C.PICKED}"' not in svg


def test_user_text_is_escaped():
    texts = {**TEXTS, "threshold": '<script>alert(1)</script> & "x"'}
    svg, _, _ = melon(texts=texts)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ET.fromstring(svg)  # well-formed XML, tooltips included


def test_a_big_curve_keeps_its_maximum_and_few_columns_that_each_pick_their_best():
    rng = np.random.default_rng(3)
    n = 100_000
    thr = np.sort(rng.normal(size=n))
    score = np.exp(-(thr**2)) + rng.normal(scale=0.01, size=n)
    ok = rng.random(n) > 0.05
    best = int(np.argmax(np.where(ok, score, -np.inf)))
    hist = Histogram(np.linspace(-4, 4, 40), np.full(40, 0.2), rng.random((2, 40)) * 100, False)
    args = (thr, score, ok, best, None, hist, decimate(score, keep=(best,)))
    svg = C.curve_svg(*args, classes=["a", "b"], texts=TEXTS)
    assert svg == C.curve_svg(*args, classes=["a", "b"], texts=TEXTS)  # byte-identical
    assert len(svg) < 60_000
    cols = columns(svg)
    assert len(cols) <= C.MAX_COLUMNS
    assert best in {k for k, *_ in cols}
    picks = np.array([k for k, *_ in cols])
    assert np.all(ok[picks])
    # a column's pick is the best eligible candidate among those it holds (named in its tooltip)
    for k, tip, _, _ in cols:
        span = re.match(r"x ≤ (\S+) … (\S+) \(", tip)
        if span is None:  # a column of one candidate
            assert tip.startswith(f"x ≤ {C.plain(thr[k], 6)} · gain {num(score[k], 4)}")
            continue
        lo, hi = (float(v) for v in span.groups())
        slack = 5e-6 * max(abs(lo), abs(hi))  # the range is printed to six significant digits
        inside = (thr >= lo - slack) & (thr <= hi + slack) & ok
        assert score[k] >= score[inside].max() - 1e-12


def rotated_titles(svg: str) -> list[tuple[float, float, str]]:
    """(x, y, text) of every rotated text: the y axis titles' lines."""
    root = ET.fromstring(svg)
    return [
        (float(t.get("x")), float(t.get("y")), t.text or "")
        for t in root.iter(SVG + "text")
        if (t.get("transform") or "").startswith("rotate(-90")
    ]


def test_a_long_score_title_is_drawn_whole_on_two_lines_clear_of_the_tick_labels():
    """CART regression's "impurity decrease at this node" is longer than the score panel's
    220 px: it was cut to "impurity decrease at this n…"; it now reads whole on two lines, and the
    plot moves right to make room for them."""
    short, _, _ = melon()
    long_title = "impurity decrease at this node"
    svg, _, _ = melon(texts={**TEXTS, "score": long_title})
    lines = [t for _, _, t in rotated_titles(svg)]
    assert "…" not in "".join(lines)
    assert " ".join(lines[:2]) == long_title and lines[2] == "rows"
    first, second = rotated_titles(svg)[:2]
    assert first[1] == second[1] and first[0] < second[0]  # side by side, first line on the left
    assert all(C.text_width(t) <= C.SCORE_HEIGHT for t in lines[:2])
    # every tick label (right-aligned left of the plot) begins right of the second line's band
    ticks = [t for t in ET.fromstring(svg).iter(SVG + "text") if t.get("text-anchor") == "end"]
    assert ticks and all(float(t.get("x")) - C.text_width(t.text) > second[0] + 8 for t in ticks)
    # a title that fits keeps its one line where it was
    assert [(x, t) for x, _, t in rotated_titles(short)] == [(14.0, "gain"), (14.0, "rows")]


def test_y_title_lines_split_near_the_middle_and_cut_only_what_still_does_not_fit():
    from ui.figures.static_charts import text_width, y_title_lines

    assert y_title_lines("gain", 220) == ["gain"]
    assert y_title_lines("impurity decrease at this node", 220) == ["impurity decrease", "at this node"]
    # a Chinese title has no spaces: it splits between characters, each half as wide as it can be
    zh = "本节点的不纯度下降量加权平均值"
    lines = y_title_lines(zh, 120)
    assert "".join(lines) == zh and len(lines) == 2
    assert abs(text_width(lines[0]) - text_width(lines[1])) <= 13
    # too long even on two lines: the second line is cut, the first is whole
    lines = y_title_lines("a b " + "x" * 80, 100)
    assert len(lines) == 2 and not lines[0].endswith("…") and lines[1].endswith("…")
    assert all(text_width(t) <= 100 for t in lines)
