"""Markup in user data stays text, in the real app in Chromium.

A CSV whose column names, category labels and class labels carry HTML, Markdown, DOT/format
metacharacters, a newline and U+FFFF is uploaded through the Data page, then Train & tree (tree,
score figures, rules, the SVG download and the standalone page opened from disk), Splits and Pruning are opened through the sidebar (a new
URL would start a new session and lose the upload). On every page: no dialog opened, no console
or page error about scripts, no request for the injected image, no element or link made from the
user's text anywhere in the document (Graphviz and Plotly SVG included), and a name is shown
literally, as typed.
"""

from __future__ import annotations

import csv
import io
import random
import re
import xml.etree.ElementTree as ET

IMG = "<img src=x onerror=alert(1)>"
LINK = '<a href="https://example.org/x">feat</a>'
BOLD = "<b>bold</b>"
MD = "**md** [link](https://example.org)"
COLUMNS = [IMG, LINK, 'q"uote|{', "new\nline\uffff", "class " + BOLD]
CATEGORIES = [BOLD, MD, "{", "|", '"', IMG]
CLASSES = [IMG, LINK, MD + ' |{"']

#: every element or attribute user markup could have created, found anywhere in the document
#: (shadow roots and SVG included; ``xlink:href`` as well as ``href``)
INJECTED_JS = """
() => {
  const bad = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const tag = el.tagName.toLowerCase();
      if (tag === 'img' && el.getAttribute('src') === 'x') bad.push('img src=x');
      for (const attr of el.attributes) {
        if (attr.name.endsWith('href') && attr.value.startsWith('https://example.org'))
          bad.push(tag + ' ' + attr.name + '=' + attr.value);
        if (attr.name.startsWith('on') && attr.value.includes('alert'))
          bad.push(tag + ' ' + attr.name + '=' + attr.value);
      }
      const text = (el.textContent || '').trim();
      if ((tag === 'b' || tag === 'strong') && (text === 'bold' || text === 'md'))
        bad.push('<' + tag + '>' + text);
      // Plotly turns <b> into a bold tspan
      if (tag === 'tspan' && text === 'bold' && /bold/.test(el.getAttribute('style') || ''))
        bad.push('bold tspan');
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return bad;
}
"""


WHERE_JS = """() => [...document.querySelectorAll('a[href^="https://example.org"], img[src="x"]')]
  .map(a => a.parentElement.outerHTML.slice(0, 600))"""


def svg_injections(svg: str) -> list[str]:
    """Elements and attributes of a standalone SVG that user markup could have created."""
    bad = []
    root = ET.fromstring(svg.encode("utf-8"))
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1].lower()
        if tag in {"img", "a", "script", "foreignobject", "b", "iframe"}:
            bad.append(tag)
        for name, value in el.attrib.items():
            local = name.rsplit("}", 1)[-1].lower()
            if local.startswith("on") or (local == "href" and value.startswith("https://example.org")):
                bad.append(f"{tag} {local}={value}")
    return bad


def markup_csv() -> bytes:
    """120 rows a tree splits on both the numeric <img> column and the categorical <a> column."""
    rng = random.Random(0)
    rows = []
    for i in range(120):
        x = rng.random() * 10
        cat = CATEGORIES[i % len(CATEGORIES)]
        if x < 4:
            label = CLASSES[0]
        elif cat in (BOLD, MD, "{"):
            label = CLASSES[1]
        else:
            label = CLASSES[2]
        rows.append([round(x, 3), cat, round(rng.random(), 3), rng.choice(["p\nq", "r\uffff"]), label])
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return buf.getvalue().encode()


class Watch:
    """Dialogs, script-related console and page errors, and requests for the injected image."""

    SCRIPTY = re.compile(r"script|alert|onerror|content security policy|unsafe", re.I)

    def __init__(self, page):
        self.events: list[str] = []
        page.on("dialog", self._dialog)
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self._error("pageerror", str(exc)))
        page.on("request", self._request)

    def _dialog(self, dialog):
        self.events.append(f"dialog {dialog.type}: {dialog.message}")
        dialog.dismiss()

    def _console(self, msg):
        if msg.type == "error":
            self._error("console", msg.text)

    def _error(self, kind, text):
        if self.SCRIPTY.search(text):
            self.events.append(f"{kind}: {text}")

    def _request(self, request):
        if re.search(r"/x(\?|$)", request.url):
            self.events.append(f"request for the injected image: {request.url}")


def script_done(page, timeout=60_000):
    page.wait_for_timeout(300)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout)


def go(page, name):
    page.get_by_test_id("stSidebarNavItems").get_by_role("link", name=name).click()
    page.wait_for_url(re.compile(r"."), timeout=10_000)
    script_done(page)


def check(page, watch, where):
    page.wait_for_timeout(500)  # let a would-be onerror / dialog fire
    assert not watch.events, f"{where}: {watch.events}"
    injected = page.evaluate(INJECTED_JS)
    if injected:  # where: the links' paragraphs (GFM autolinked a bare URL in Markdown once)
        injected += page.evaluate(WHERE_JS)
    assert not injected, f"{where}: elements made from user text: {injected}"
    exc = page.get_by_test_id("stException")
    assert exc.count() == 0, f"{where}: {exc.first.inner_text()}"


def literal_visible(page, text, where):
    """``text`` shown as typed somewhere on the page (HTML text, or SVG text of a figure)."""
    shown = page.evaluate(
        """(t) => {
          // U+2060: the word joiner md_escape puts in URLs so Markdown does not autolink them
          const norm = (s) => s.replace(/\u2060/g, '').replace(/\\s+/g, ' ');
          const want = norm(t);
          for (const el of document.querySelectorAll('body *')) {
            if (el.children.length > 0 && !['text', 'tspan'].includes(el.tagName)) continue;
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) continue;
            if (norm(el.textContent || '').includes(want)) return true;
          }
          return false;
        }""",
        text,
    )
    assert shown, f"{where}: {text!r} is not shown literally"


def test_markup_in_labels_stays_text(fresh_page, app_url, tmp_path):
    page = fresh_page  # it listens to the page's events (conftest.fresh_page)
    watch = Watch(page)
    page.goto(f"{app_url}/data", wait_until="domcontentloaded")
    script_done(page)
    page.locator('input[type=file][accept*=".csv"]').set_input_files(
        files=[{"name": "markup.csv", "mimeType": "text/csv", "buffer": markup_csv()}]
    )
    page.get_by_text("markup", exact=False).first.wait_for(state="visible", timeout=30_000)
    script_done(page)
    check(page, watch, "Data")
    # the target's name in the sidebar, shown as typed (the tables are drawn on a canvas)
    literal_visible(page, "class " + BOLD, "Data")

    go(page, "Train & tree")
    page.locator(".st-key-small_frame .dt-frame svg .node").first.wait_for(state="visible", timeout=60_000)
    page.locator(".st-key-importances svg.dt-static-chart").first.wait_for(state="visible", timeout=60_000)
    page.get_by_test_id("stExpander").filter(has_text="Rules").locator("summary").click()
    code = page.get_by_test_id("stExpander").filter(has_text="Rules").get_by_test_id("stCode").first
    code.wait_for(state="visible", timeout=10_000)
    assert IMG in code.inner_text() and BOLD in code.inner_text(), "the rules show the names as typed"
    check(page, watch, "Train & tree")
    # the score charts: static SVG from the server (full labels in the bars' and cells' tooltips)
    figures = "".join(page.locator("svg.dt-static-chart").all_text_contents())
    assert IMG in figures and LINK in figures and MD in figures, "the score charts show the labels as typed"
    assert page.locator("svg.dt-static-chart :is(script, a, img, b, foreignObject)").count() == 0
    svg_text = page.locator(".st-key-small_frame .dt-frame svg").first.text_content() or ""
    assert IMG in svg_text or "onerror" in svg_text, "the tree names the <img> column as typed"
    assert "bold" in svg_text, "the <b> category or class is shown in the tree"
    literal_visible(page, IMG, "Train & tree")

    svg_button = page.get_by_role("button", name=re.compile("SVG"))
    if svg_button.count() and svg_button.first.is_enabled():
        with page.expect_download(timeout=60_000) as dl:
            svg_button.first.click()
        path = tmp_path / "tree.svg"
        dl.value.save_as(path)
        svg = path.read_text(encoding="utf-8")
        assert not svg_injections(svg), svg_injections(svg)
        assert "&lt;img src=x onerror=alert(1)&gt;" in svg, "the <img> name is in the picture, escaped"
        # opened on its own, the downloaded picture runs nothing and links nowhere
        viewer = page.context.new_page()
        seen = Watch(viewer)
        viewer.set_content(svg)
        viewer.wait_for_timeout(500)
        assert not seen.events, seen.events
        assert not viewer.evaluate(INJECTED_JS)
        viewer.close()

        # the standalone page, opened from disk: the names are its text, nothing runs but its own
        with page.expect_download(timeout=60_000) as dl:
            page.get_by_role("button", name="HTML page").first.click()
        path = tmp_path / "tree.html"
        dl.value.save_as(path)
        viewer = page.context.new_page()
        seen = Watch(viewer)
        viewer.goto(path.as_uri())
        viewer.wait_for_selector("body[data-ready='1']", timeout=15_000)
        assert not viewer.evaluate(INJECTED_JS)
        assert IMG in viewer.inner_text("#dt-fields"), "the page's form names the <img> column as typed"
        viewer.locator("#dt-form button[type=submit]").click()
        assert viewer.inner_text("#dt-result").startswith("predicted class "), viewer.inner_text("#dt-result")
        assert not seen.events, seen.events
        viewer.close()

    go(page, "Splits")
    # the root's chart: the <img> column's score curve, the server's SVG in the tree frame
    curve = page.locator('[class*="st-key-split_curve_"] .dt-frame svg').first
    curve.wait_for(state="visible", timeout=60_000)
    check(page, watch, "Splits")
    figures = curve.text_content() or ""
    assert IMG in figures and LINK in figures and MD in figures, "the curve shows the labels as typed"
    stage = '[class*="st-key-split_curve_"] .dt-stage'
    assert page.locator(f"{stage} :is(script, img, b, foreignObject, title)").count() == 0
    assert page.locator(f"{stage} a[href], {stage} a[*|href]").count() == 0  # tooltips, no links
    tips = page.locator(f"{stage} a").evaluate_all(
        "els => els.map(a => a.getAttributeNS('http://www.w3.org/1999/xlink', 'title'))"
    )
    assert tips and all(IMG in tip for tip in tips), "each column's tooltip names the <img> column as typed"
    literal_visible(page, IMG, "Splits")

    go(page, "Pruning")
    page.locator("svg.dt-static-chart").first.wait_for(state="visible", timeout=60_000)  # its curves
    check(page, watch, "Pruning")
    assert page.locator("svg.dt-static-chart :is(script, a, img, b, foreignObject)").count() == 0
    literal_visible(page, "class " + BOLD, "Pruning")


def test_csv_round_trips_the_markup():
    """The fixture itself: the names and labels reach the app unchanged."""
    rows = list(csv.reader(io.StringIO(markup_csv().decode(), newline="")))
    assert rows[0] == COLUMNS
    assert {r[1] for r in rows[1:]} == set(CATEGORIES)
    assert {r[4] for r in rows[1:]} == set(CLASSES)
