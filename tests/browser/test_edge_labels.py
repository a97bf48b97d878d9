"""Edge labels in the tree as the browser draws it (issue 16, item 9): the lines of one label
never overprint each other ("= 沉闷" over the italic "清脆 →" below it), and no edge runs
through a label's text. Measured on the real page with the glyphs' own boxes (``getBBox``), not
estimated from the DOT."""

from __future__ import annotations

import pytest

from tests.browser.test_screenshots import TRAIN_TREE, open_page, script_done

# every edge label's text boxes, and the points along every edge, in the SVG's coordinates
MEASURE = """(svg) => {
  const edges = [...svg.querySelectorAll('g.edge')];
  const labels = edges.map(g => ({
    id: g.id,
    boxes: [...g.querySelectorAll('text')].map(t => {
      const b = t.getBBox();
      return {text: t.textContent, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height};
    }),
  }));
  const lines = edges.map(g => {
    const p = g.querySelector('path');
    const n = Math.ceil(p.getTotalLength());
    const pts = [];
    for (let k = 0; k <= n; k++) { const q = p.getPointAtLength(k); pts.push([q.x, q.y]); }
    return {id: g.id, pts};
  });
  return {labels, lines};
}"""

# a glyph's box includes its font's line gap; a pixel of it may touch the next line's
SLACK = 1.0

CASES = [
    # CART's 敲声 test sends the unseen 清脆 with 沉闷: a two-line label on an edge that slants
    {"sample": "watermelon_3.0", "algo": "cart", "lang": "zh"},
    {"sample": "watermelon_3.0", "algo": "cart", "lang": "en"},
    # missing values at tests: "missing →" under tests of every level
    {"sample": "watermelon_2.0_missing", "algo": "cart", "lang": "zh"},
    {"sample": "watermelon_2.0_missing", "algo": "cart", "lang": "en"},
]


def _overlap(a: dict, b: dict, slack: float) -> bool:
    return (
        a["x0"] + slack < b["x1"] - slack
        and b["x0"] + slack < a["x1"] - slack
        and a["y0"] + slack < b["y1"] - slack
        and b["y0"] + slack < a["y1"] - slack
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(c.values()))
def test_edge_labels_are_clear_of_edges_and_of_each_other(page, app_url, case):
    open_page(page, app_url, "", report=1, **case)
    svg = page.locator(f"{TRAIN_TREE} svg").first
    svg.locator("g.edge").first.wait_for(state="attached", timeout=60_000)
    script_done(page)
    page.evaluate("() => document.fonts.ready.then(() => true)")
    got = svg.evaluate(MEASURE)
    assert got["labels"], "no edges drawn"
    assert any(len(lab["boxes"]) > 1 for lab in got["labels"]), "no two-line label: the case tests nothing"
    problems = []
    for lab in got["labels"]:
        boxes = lab["boxes"]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                if _overlap(a, b, SLACK):
                    problems.append(f"{lab['id']}: {a['text']!r} overprints {b['text']!r}")
    every_box = [(lab["id"], b) for lab in got["labels"] for b in lab["boxes"]]
    for line in got["lines"]:
        for owner, b in every_box:
            through = [
                p
                for p in line["pts"]
                if b["x0"] + SLACK < p[0] < b["x1"] - SLACK and b["y0"] + SLACK < p[1] < b["y1"] - SLACK
            ]
            if through:
                problems.append(f"edge {line['id']} runs through {owner}'s {b['text']!r} at {through[0]}")
    assert not problems, "\n".join(problems)
