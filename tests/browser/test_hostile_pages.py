"""Every page of the real app, with column names, category labels and class labels that are
HTML and Markdown payloads (tests/data/bad/payload_names.csv: Markdown images, ``<img src=https://…>``,
``javascript:`` links, ``<b>``, ``**md**``, the target among them): the browser asks no server but
the app's for anything (each request leaving 127.0.0.1 is recorded and aborted, never fetched),
and the document holds no element or link made from the user's text. One browser, one app
server, one session: the file is uploaded on Data, trained on Train & tree, then Splits,
Pruning, Compare and Growth are opened through the sidebar (a new URL would lose the upload)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from tests.browser.test_screenshots import script_done

PAYLOAD = Path(__file__).resolve().parents[1] / "data" / "bad" / "payload_names.csv"
LOCAL_HOSTS = {"127.0.0.1", "localhost"}

#: elements and attributes the payloads would make if rendered as HTML or Markdown, anywhere in
#: the document (shadow roots, SVG and same-origin frames included)
INJECTED_JS = """
() => {
  const bad = [];
  const texts = new Set(['bold', 'B', 'md', 'it', 'x', 'c', 'link', 'k']);
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const tag = el.tagName.toLowerCase();
      for (const attr of el.attributes) {
        const v = attr.value.trim().toLowerCase();
        if ((attr.name.endsWith('href') || attr.name === 'src' || attr.name === 'srcset')
            && (v.includes('example.org') || v.startsWith('javascript:')))
          bad.push(tag + ' ' + attr.name + '=' + attr.value);
      }
      if (tag === 'img' && /example\\.org/.test(el.getAttribute('src') || ''))
        bad.push('img ' + el.getAttribute('src'));
      const text = (el.textContent || '').trim();
      if (['b', 'strong', 'i', 'em', 'a'].includes(tag) && texts.has(text))
        bad.push('<' + tag + '>' + text);
      // Plotly turns <b> and <i> into styled tspans
      if (tag === 'tspan' && texts.has(text) && /bold|italic/.test(el.getAttribute('style') || ''))
        bad.push('styled tspan ' + text);
      if (el.shadowRoot) walk(el.shadowRoot);
      if (tag === 'iframe') {
        try { if (el.contentDocument) walk(el.contentDocument); } catch (e) { /* cross-origin */ }
      }
    }
  };
  walk(document);
  return bad;
}
"""

WHERE_JS = """() => [...document.querySelectorAll(
  'img[src*="example.org"], a[href*="example.org"], a[href^="javascript:"], b, strong, i, em')]
  .filter(a => a.tagName === 'IMG' || a.tagName === 'A'
    || ['bold', 'B', 'md', 'it'].includes((a.textContent || '').trim()))
  .map(a => (a.parentElement || a).outerHTML.slice(0, 400))"""


class Outbound:
    """Requests leaving the app's host: recorded and aborted (nothing is fetched)."""

    def __init__(self, page):
        self.urls: list[str] = []
        page.route("**/*", self._route)

    def _route(self, route):
        url = route.request.url
        host = urlsplit(url).hostname or ""
        if url.startswith(("http:", "https:", "ws:", "wss:")) and host not in LOCAL_HOSTS:
            self.urls.append(url)
            route.abort()
        else:
            route.continue_()


def settle(page) -> None:
    page.wait_for_timeout(300)
    script_done(page, timeout=90_000)


def go(page, name: str) -> None:
    page.get_by_test_id("stSidebarNavItems").get_by_role("link", name=name).click()
    page.wait_for_timeout(300)
    settle(page)


def open_expanders(page) -> None:
    """Every expander's content shown (some render their body only when opened)."""
    for summary in page.get_by_test_id("stExpander").locator("summary").all():
        if summary.is_visible():
            summary.click()
    settle(page)


def problems(page, outbound: Outbound, where: str) -> list[str]:
    """What ``page`` shows of the payloads as markup, and the requests it made elsewhere."""
    page.wait_for_timeout(300)  # an <img> asks for its source once inserted: the route sees it by then
    found = [f"{where}: the browser asked another server for {url}" for url in outbound.urls]
    outbound.urls.clear()
    injected = page.evaluate(INJECTED_JS)
    if injected:
        found.append(f"{where}: elements made from user text: {injected} in {page.evaluate(WHERE_JS)}")
    exc = page.get_by_test_id("stException")
    if exc.count():
        found.append(f"{where}: {exc.first.inner_text()}")
    return found


def test_payload_names_on_every_page_stay_text(page, app_url):
    outbound = Outbound(page)
    found: list[str] = []
    page.goto(f"{app_url}/data?lang=en", wait_until="domcontentloaded")
    settle(page)
    page.locator('input[type=file][accept*=".csv"]').set_input_files(str(PAYLOAD))
    page.get_by_text("payload_names", exact=False).first.wait_for(state="visible", timeout=30_000)
    settle(page)
    open_expanders(page)
    found += problems(page, outbound, "Data")

    go(page, "Train & tree")
    tree = ".dt-frame svg"  # the tree first, the what-if path below it
    page.locator(f"{tree} .node").first.wait_for(state="attached", timeout=90_000)
    settle(page)
    open_expanders(page)
    found += problems(page, outbound, "Train & tree")
    # the payload is in the tree, as text
    shown = page.locator(tree).first.text_content() or ""
    assert "example.org" in shown and "bold" in shown, shown[:500]

    for name in ("Splits", "Pruning", "Compare", "Growth"):
        go(page, name)
        if name == "Compare":
            page.locator(".dt-frame svg .node").first.wait_for(state="attached", timeout=120_000)
            settle(page)
        open_expanders(page)
        found += problems(page, outbound, name)
    # Growth: the first split's caption (feature, branches, runner-up), then the last step's
    thumb = page.get_by_role("slider").first
    for keys in (["Home", "ArrowRight"], ["End"]):
        for key in keys:
            thumb.press(key)
        settle(page)
        found += problems(page, outbound, f"Growth after {keys}")
    assert not found, "\n".join(found)
