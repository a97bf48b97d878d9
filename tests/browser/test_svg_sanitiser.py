"""The pan/zoom frame's SVG cleaner (dtcore/export/assets/frame.js, ``cleanSvg``) in
Chromium: each known SVG XSS vector (script, event attributes, SMIL ``<animate>``/``<set>``
rewriting a link into ``javascript:``, ``<foreignObject>``, ``<use>``/``<image>`` loading from
elsewhere, ``javascript:`` links plain and entity-encoded, ``url()`` in styles and paints) comes
out with nothing dangerous left, mounted in a page it runs nothing and requests nothing, and
the app's own Graphviz pictures come out as they went in (less Graphviz's ``<title>`` names).

The script is frame.js itself (with the opening scale it imports: ``inline_script``), loaded as a
module with ``cleanSvg`` exported for the test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dtcore.export.html import inline_script

ROOT = Path(__file__).resolve().parents[2]

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100">'
B64_SVG = (
    "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIGlkPSJ4Ij48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+"
)

#: name → SVG document; each would run script, load from elsewhere or link to javascript:
VECTORS = {
    "script": HEAD + "<script>alert(1)</script><script><![CDATA[alert(2)]]></script></svg>",
    "onload": HEAD.replace("<svg ", '<svg onload="alert(1)" ') + "</svg>",
    "onclick/onmouseover": HEAD
    + '<g id="dtnode1" onclick="alert(1)"><polygon points="0,0 9,9" onmouseover="alert(2)"/>'
    + '<text onfocus="alert(3)" ONLOAD="alert(4)">t</text></g></svg>',
    "animate href": HEAD
    + '<a><animate attributeName="href" to="javascript:alert(1)" begin="0s" dur="0.01s" fill="freeze"/>'
    + "<text>click</text></a></svg>",
    "animate xlink:href values": HEAD
    + '<a xlink:title="tip"><animate attributeName="xlink:href" values="javascript:alert(1)" '
    + 'begin="0s" dur="0.01s" fill="freeze"/><text>click</text></a></svg>',
    "set": HEAD
    + '<a><set attributeName="href" to="javascript:alert(1)" begin="0s"/><text>click</text></a></svg>',
    "animateTransform/animateMotion": HEAD
    + '<g><animateTransform attributeName="transform" type="scale" to="9" begin="0s"/>'
    + '<animateMotion path="M0,0 L9,9" onbegin="alert(1)"/></g></svg>',
    "foreignObject": HEAD
    + '<foreignObject width="9" height="9"><body xmlns="http://www.w3.org/1999/xhtml">'
    + '<img src="http://example.org/f.png" onerror="alert(1)"/><script>alert(2)</script></body>'
    + "</foreignObject></svg>",
    "xhtml elements": HEAD
    + '<g><html:script xmlns:html="http://www.w3.org/1999/xhtml">alert(1)</html:script>'
    + '<html:iframe xmlns:html="http://www.w3.org/1999/xhtml" src="http://example.org/i"/></g></svg>',
    "use data:": HEAD + f'<use href="data:image/svg+xml;base64,{B64_SVG}#x"/></svg>',
    "use xlink:href remote": HEAD + '<use xlink:href="http://example.org/u.svg#x"/></svg>',
    "a href javascript": HEAD + '<a href="javascript:alert(1)"><text>x</text></a></svg>',
    "a xlink:href javascript": HEAD + '<a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    "a href remote, target": HEAD
    + '<a href="https://example.org/a" target="_blank"><text>x</text></a></svg>',
    "entity-encoded javascript": HEAD
    + '<a href="&#106;avascript:alert(1)"><text>a</text></a>'
    + '<a xlink:href="jav&#x09;ascript:alert(2)"><text>b</text></a>'
    + '<a href=" &#x6A;&#x61;vascript&#58;alert(3)"><text>c</text></a></svg>',
    "image": HEAD
    + '<image href="http://example.org/i.png" width="9" height="9"/>'
    + '<image xlink:href="http://example.org/j.png" width="9" height="9"/></svg>',
    "style url()": HEAD
    + '<g style="background:url(http://example.org/s.png)"><polygon points="0,0 9,9" '
    + 'fill="url(http://example.org/p.svg#g)" filter="url(http://example.org/f.svg#f)"/></g>'
    + "<style>@import url(http://example.org/c.css); g { fill: url(http://example.org/q.png) }</style></svg>",
    "handler/event elements": HEAD
    + '<handler xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="load">alert(1)</handler>'
    + '<listener event="load" handler="#h"/></svg>',
    "iframe in html root": '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
    "parse error": HEAD + '<g><script>alert(1)</script><a href="javascript:alert(2)"></svg>',
}

LOAD_JS = """async (src) => {
  const url = URL.createObjectURL(new Blob([src + '\\nexport { cleanSvg };'], {type: 'text/javascript'}));
  window.frameModule = await import(url);
  return typeof window.frameModule.cleanSvg;
}"""

#: what is left of a cleaned picture that could run, link or load: a list of findings
DANGER_JS = """(text) => {
  const svg = window.frameModule.cleanSvg(text);
  if (svg === null) return {root: null, bad: []};
  const OK = new Set(['svg', 'g', 'a', 'polygon', 'polyline', 'path', 'ellipse', 'circle', 'rect',
    'line', 'text', 'tspan', 'defs', 'linearGradient', 'radialGradient', 'stop']);
  const bad = [];
  for (const el of [svg, ...svg.querySelectorAll('*')]) {
    if (el.namespaceURI !== 'http://www.w3.org/2000/svg' || !OK.has(el.localName))
      bad.push('element ' + el.nodeName);
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase(), value = attr.value.replace(/\\s+/g, '').toLowerCase();
      if (name.startsWith('on')) bad.push('event ' + attr.name);
      if (name === 'style' || name === 'target' || name === 'attributename') bad.push(attr.name);
      if (name.endsWith('href') && !value.startsWith('#')) bad.push(attr.name + '=' + attr.value);
      if (/javascript|data:|example\\.org|alert|url\\((?!#)/.test(value)) bad.push(attr.name + '=' + attr.value);
    }
  }
  for (const node of svg.querySelectorAll('*')) {
    for (const c of node.childNodes) if (c.nodeType === 4 || c.nodeType === 8) bad.push('cdata/comment');
  }
  return {root: svg.localName, bad, html: svg.outerHTML.slice(0, 300)};
}"""

#: every cleaned vector in the document, animations run, every link clicked
MOUNT_JS = """async (texts) => {
  for (const text of texts) {
    const svg = window.frameModule.cleanSvg(text);
    if (svg) document.body.appendChild(document.importNode(svg, true));
  }
  await new Promise((r) => setTimeout(r, 300));
  const live = [];
  for (const a of document.querySelectorAll('a')) {
    const href = a.href && a.href.animVal !== undefined ? a.href.animVal : a.getAttribute('href');
    if (href) live.push(href);
    a.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  }
  await new Promise((r) => setTimeout(r, 300));
  return live;
}"""

#: the raw picture less its <title> elements and comments, and the cleaned one, serialised;
#: nodes and texts
SAME_JS = """(text) => {
  const raw = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
  raw.querySelectorAll('title').forEach((t) => t.remove());
  const comments = document.createTreeWalker(raw, NodeFilter.SHOW_COMMENT);
  const found = [];
  while (comments.nextNode()) found.push(comments.currentNode);
  found.forEach((c) => c.remove());
  const clean = window.frameModule.cleanSvg(text);
  const ser = (el) => new XMLSerializer().serializeToString(el);
  const texts = (el) => [...el.querySelectorAll('text')].map((t) => t.textContent);
  return {
    same: ser(raw) === ser(clean),
    nodes: [raw.querySelectorAll('g.node').length, clean.querySelectorAll('g.node').length],
    texts: [texts(raw), texts(clean)],
    tooltips: clean.querySelectorAll('a').length,
    titled: [...clean.querySelectorAll('a')].filter((a) => a.getAttributeNS(
      'http://www.w3.org/1999/xlink', 'title')).length,
  };
}"""


@pytest.fixture
def frame_page(fresh_page):
    """A blank page holding frame.js as a module; every request from it is recorded and aborted,
    every dialog recorded (a tab of its own: its listeners stay with it)."""
    page = fresh_page
    seen: list[str] = []
    page.route("**/*", lambda route: (seen.append(route.request.url), route.abort()))
    page.on("dialog", lambda d: (seen.append(f"dialog {d.message}"), d.dismiss()))
    page.on("pageerror", lambda exc: seen.append(f"pageerror {exc}"))
    page.set_content("<!doctype html><html><body></body></html>")
    assert page.evaluate(LOAD_JS, inline_script("frame.js")) == "function"
    page.seen = seen  # type: ignore[attr-defined]
    return page


@pytest.mark.parametrize("name", list(VECTORS))
def test_vector_leaves_nothing_dangerous(frame_page, name):
    out = frame_page.evaluate(DANGER_JS, VECTORS[name])
    assert out["root"] in ("svg", None)
    assert not out["bad"], f"{name}: {out['bad']} in {out.get('html')}"


def test_cleaned_vectors_run_and_load_nothing_in_a_page(frame_page):
    live = frame_page.evaluate(MOUNT_JS, list(VECTORS.values()))
    assert all(h.startswith("#") for h in live), live
    assert not frame_page.seen, frame_page.seen
    assert frame_page.evaluate("document.querySelectorAll('script, img, iframe, image, use').length") == 0


def app_svgs() -> dict[str, str]:
    """SVGs the app's frames show: Train & tree's C4.5 tree with its midpoint tooltips, a focused
    CART view with breadcrumbs and summary boxes (dot -Tsvg, as ``tree_frame.svg_of``)."""
    sys.path.insert(0, str(ROOT))
    from dtcore import export
    from tests.app.test_flows import direct_fit
    from ui.views import focus

    c45 = direct_fit("watermelon_3.0", "c45", ["编号"], "好瓜")
    cart = direct_fit("watermelon_3.0", "cart", ["编号"], "好瓜")
    window = focus.window(cart.tree_, 4, 1, selected=4)
    dots = {
        "c45 tooltips": export.to_dot(c45, tooltips=True),
        "cart ghost/highlight": export.to_dot(
            cart, ghost=[1, 2], highlight=[0], collapsed=[3], tooltips=True
        ),
        "cart focus": focus.focus_dot(cart, window, selected=4, lang="zh"),
    }
    try:
        return {k: export.render(d, "svg").decode("utf-8") for k, d in dots.items()}
    except export.GraphvizMissing:
        pytest.skip("no Graphviz dot on this machine")


def test_app_pictures_pass_unchanged(frame_page):
    svgs = app_svgs()
    for name, svg in svgs.items():
        out = frame_page.evaluate(SAME_JS, svg)
        assert out["same"], f"{name}: the cleaned picture differs from Graphviz's (less <title>, comments)"
        assert out["nodes"][0] == out["nodes"][1] > 0, (name, out["nodes"])
        assert out["texts"][0] == out["texts"][1] and out["texts"][0], name
    c45 = frame_page.evaluate(SAME_JS, svgs["c45 tooltips"])
    assert c45["tooltips"] == c45["titled"] > 0, "the midpoint tooltips survive"
    focused = svgs["cart focus"]
    assert 'id="dtcrumb' in focused and 'id="dtmore' in focused, "the focused view has crumbs and boxes"
