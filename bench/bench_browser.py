"""The app where the user sits: each step of a user's journey in the real Chromium, against issue
26's targets.

    .venv/bin/python -m bench.bench_browser              # every step, trees of ~1 000, 10 000, 30 000 nodes
    .venv/bin/python -m bench.bench_browser --quick      # the ~1 000-node tree, the cheap steps
    .venv/bin/python -m bench.bench_browser --train      # the ~1 000-node tree, Train & tree's steps
    .venv/bin/python -m bench.bench_browser --write-doc  # also rewrite docs/speed-browser.md
    .venv/bin/python -m bench.bench_browser --sizes 0 --steps search growth  # only those steps
    .venv/bin/python -m bench.bench_browser --sizes 0 --skip compare          # all but that one
    .venv/bin/python -m bench.bench_browser --large      # large data: 10⁶ rows of Parquet to a drawn tree

A fresh Streamlit server per run (a free port, or ``--port``), driven through Playwright with the
system Chromium (/usr/bin/chromium), a new browser context (a new session) per tree size. The
data is generated here (seeded): 10⁵ rows × 20 numeric columns and a yes/no target whose labels
are flipped at random for a share of the rows; the share sets the tree's size.

Per step it prints: the wall time from the action to the page settled; the CPU seconds of the
Streamlit process (and the ``dot`` it ran) and of the Chromium process tree (psutil); the bytes
the page's websocket received (CDP ``Network.webSocketFrameReceived``); each against its target,
with the ratio (≤ 1 meets it). "Settled": the script is not running (``stApp``'s script state and
no ``stStatusWidget``), no spinner or progress bar, no stale (greyed) element, two animation
frames painted, and the websocket quiet for 300 ms. The browser CPU target of a step that does not
retrain is 1.5× that of the switch to the Data page in the same session (the floor of a rerun);
its bytes target (50 KB) holds unless a new picture is shown: a step whose messages send a tree
frame a picture it did not hold (not only its digest) has none.

A step that fails or never settles prints why (what it waited for, what kept the page busy) and
the path of a screenshot of the page then (``--shots``), and the journey goes on. ``--steps`` and
``--skip`` pick steps by words of their labels; the visit, the Data switch, the upload and the
training always run (the other steps need them).

The machine is shared: CPU seconds move less with load than wall time does.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import io
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psutil

from scripts.app_server import AppDidNotStart, free_port, launch_chromium, start_app

ROOT = Path(__file__).resolve().parents[1]
VIEWPORT = {"width": 1400, "height": 1000}
DOC = ROOT / "docs" / "speed-browser.md"
#: the websocket may stay quiet this long before a step counts as settled
QUIET = 0.3
#: targets (issue 26)
RERUN_WALL = 0.8
RERUN_BYTES = 50_000
BROWSER_FACTOR = 1.5


@dataclass(frozen=True)
class Tree:
    """A tree size of the journey: the data's flipped share and the settings that grow it."""

    name: str
    flip: float
    algorithm: str
    max_depth: int | None  # None: the upload's default; 0: unlimited


TREES = (
    Tree("~1 000 nodes, C4.5", 0.22, "c45", None),
    Tree("~10 000 nodes, CART", 0.05, "cart", 0),
    Tree("~30 000 nodes, CART", 0.45, "cart", 0),
)


@dataclass
class Step:
    """One measured step and its targets (None: none); ``picture``: a new picture is shown."""

    label: str
    wall: float
    server_cpu: float
    browser_cpu: float
    ws_bytes: int
    wall_target: float | None = None
    browser_target: float | None = None
    bytes_target: int | None = None
    note: str = ""
    largest: list[int] = field(default_factory=list)

    def ratios(self) -> list[tuple[str, float, float | None]]:
        return [
            ("wall", self.wall, self.wall_target),
            ("browser", self.browser_cpu, self.browser_target),
            ("bytes", float(self.ws_bytes), None if self.bytes_target is None else float(self.bytes_target)),
        ]

    def met(self) -> bool:
        return all(target is None or value <= target for _, value, target in self.ratios())


def make_csv(n: int, flip: float, seed: int = 0) -> bytes:
    """20 numeric columns and a yes/no target on a smooth rule, ``flip`` of the labels flipped."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 20)), 3)
    y = X[:, 0] + X[:, 1] * X[:, 2] - 0.5 * X[:, 3] > 0.2
    y = np.where(rng.random(n) < flip, ~y, y)
    out = io.StringIO()
    out.write(",".join([f"x{i}" for i in range(20)] + ["y"]) + "\n")
    cols = np.column_stack([X.astype(object), np.where(y, "yes", "no")])
    np.savetxt(out, cols, fmt="%s", delimiter=",")
    return out.getvalue().encode()


def rows_of(csv: Path) -> int:
    """The data rows of a generated CSV (its lines less the header)."""
    with csv.open("rb") as f:
        return sum(1 for _ in f) - 1


def start_server(port: int) -> subprocess.Popen:
    try:
        return start_app(port, extra_args=("--server.maxUploadSize", "400"), seconds=90)
    except AppDidNotStart as exc:
        raise SystemExit(str(exc)) from None


def cpu_of(proc: psutil.Process) -> float:
    """User + system seconds of a process and of the children it waited for (``dot``)."""
    c = proc.cpu_times()
    return c.user + c.system + c.children_user + c.children_system


class BrowserCpu:
    """CPU seconds of every Chromium process under this one (Playwright's driver starts them);
    a process that ended keeps the seconds last seen."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}

    def total(self) -> float:
        for p in psutil.Process().children(recursive=True):
            try:
                if "chrom" in p.name().lower():
                    self.seen[p.pid] = max(self.seen.get(p.pid, 0.0), cpu_of(p))
            except psutil.Error:
                pass
        return sum(self.seen.values())


#: "" once the DOM is at rest, else what is still going on (a failed step's reason)
SETTLED_JS = """async () => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app) return 'no app on the page';
  if (app.getAttribute('data-test-script-state') === 'running') return 'the script still running';
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  if (status && /running|stop/i.test(status.textContent || '')) return 'the status widget says running';
  if (document.querySelector('[data-testid="stSpinner"]')) return 'a spinner shown';
  if (document.querySelector('[data-testid="stProgress"]')) return 'a progress bar shown';
  if (document.querySelector('[data-stale="true"]')) return 'stale (greyed) elements shown';
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return '';
}"""
#: two animation frames painted (the events of a scroll just made have been dispatched)
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def reason_of(exc: Exception) -> str:
    """A failed step's reason in one line: the error's first line and, for Playwright's, what it
    was waiting for (its call log's first "waiting for" line)."""
    text = str(exc) or type(exc).__name__
    first = text.splitlines()[0]
    waited = next((ln.strip(" -") for ln in text.splitlines()[1:] if "waiting for" in ln), "")
    return (first + (f" ({waited})" if waited else ""))[:240]


class Session:
    """One browser context on the app: a page, its websocket's frames and the CPU meters."""

    def __init__(self, browser, url: str, server: psutil.Process, cpu: BrowserCpu) -> None:
        self.ctx = browser.new_context(viewport=VIEWPORT, locale="en-US", timezone_id="UTC")
        self.page = self.ctx.new_page()
        self.url = url
        self.server = server
        self.cpu = cpu
        self.frames: list[tuple[float, int, bytes]] = []
        cdp = self.ctx.new_cdp_session(self.page)
        cdp.send("Network.enable")
        cdp.on("Network.webSocketFrameReceived", self._frame)
        self.steps: list[Step] = []
        self.floor: float | None = None  # browser CPU of the switch to Data
        self.only: list[str] = []  # --steps: run only steps whose label holds one of these
        self.skip: list[str] = []  # --skip: leave out steps whose label holds one of these
        self.shots: Path | None = None  # where a failed step's screenshot goes

    def wanted(self, label: str) -> bool:
        """Whether the step of ``label`` runs under --steps and --skip (case-insensitive parts of
        labels)."""
        low = label.lower()
        if any(w.lower() in low for w in self.skip):
            return False
        return not self.only or any(w.lower() in low for w in self.only)

    def shot(self, label: str) -> Path | None:
        """A screenshot of the page now, named after ``label``; None if it could not be taken."""
        if self.shots is None:
            return None
        self.shots.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")[:60]
        path = self.shots / f"{len(self.steps):02d}-{name}.png"
        try:
            self.page.screenshot(path=str(path), full_page=True, timeout=15_000)
        except Exception:
            return None
        return path

    def _frame(self, event) -> None:
        resp = event["response"]
        payload = resp.get("payloadData", "")
        if resp.get("opcode") == 2:  # binary: base64
            raw = base64.b64decode(payload)
        else:
            raw = payload.encode()
        self.frames.append((time.perf_counter(), len(raw), raw))

    def settle(self, t0: float, timeout: float, rerun: bool = True) -> float:
        """Wait for the page to settle; the time it did (the last frame or the DOM at rest).
        ``rerun``: the action reruns the script, so a frame must arrive after ``t0`` first (the
        server may take longer than the quiet time to answer)."""
        deadline = t0 + timeout
        dom_ok_since: float | None = None
        while True:
            self.page.wait_for_timeout(50)
            now = time.perf_counter()
            busy = self.page.evaluate(SETTLED_JS)
            ok = not busy
            if not ok:
                dom_ok_since = None
            elif dom_ok_since is None:
                dom_ok_since = now
            last = max((f[0] for f in self.frames if f[0] >= t0), default=t0)
            answered = not rerun or any(f[0] >= t0 for f in self.frames[-50:])
            if ok and answered and now - last >= QUIET and now - t0 >= QUIET and dom_ok_since is not None:
                return max(last, dom_ok_since if dom_ok_since > last else last)
            if now > deadline:
                why = (
                    busy
                    or ("no frame from the server since the action" if not answered else "")
                    or f"the websocket busy (last frame {now - last:.1f} s ago)"
                )
                raise TimeoutError(f"not settled after {timeout:.0f} s: {why}")

    def step(
        self,
        label: str,
        action: Callable[[], object],
        *,
        wall: float | None = RERUN_WALL,
        browser: str | float | None = "floor",
        picture: bool = False,
        timeout: float = 120.0,
        note: str = "",
        rerun: bool = True,
        setup: bool = False,
    ) -> Step | None:
        """Run ``action``, wait until settled, record and print the step. ``browser``: "floor"
        (1.5× the Data switch), a number of seconds, or None. ``picture``: a new picture is
        shown (no bytes target; also none when a frame was sent a picture, ``new_picture``). ``setup``: the journey needs it (--steps and --skip keep it).
        A step that fails prints why and the path of a screenshot of the page, and the journey
        goes on."""
        if not setup and not self.wanted(label):
            return None
        s0, b0 = cpu_of(self.server), self.cpu.total()
        n0 = len(self.frames)
        t0 = time.perf_counter()
        try:
            action()
            end = self.settle(t0, timeout, rerun)
        except Exception as exc:  # a step that fails or never settles is reported, not fatal
            path = self.shot(label)
            print(f"{label:<52} FAILED: {reason_of(exc)}", flush=True)
            print(f"{'':<52} screenshot: {path or '(none taken)'}", flush=True)
            with contextlib.suppress(Exception):  # a menu left open would catch the next step's clicks
                self.page.keyboard.press("Escape")
            self.steps.append(
                Step(label, float("inf"), 0.0, 0.0, 0, wall, None, None, note=f"failed: {type(exc).__name__}")
            )
            return None
        frames = self.frames[n0:]
        got = Step(
            label,
            end - t0,
            cpu_of(self.server) - s0,
            self.cpu.total() - b0,
            sum(f[1] for f in frames),
            wall_target=wall,
            browser_target=(
                None
                if browser is None
                else (BROWSER_FACTOR * self.floor if self.floor else None)
                if browser == "floor"
                else float(browser)
            ),
            bytes_target=None if picture or new_picture(frames) else RERUN_BYTES,
            note=note
            + ("" if picture or not new_picture(frames) else ("; " if note else "") + "a new picture"),
            largest=sorted((f[1] for f in frames), reverse=True)[:3],
        )
        self.steps.append(got)
        print(format_step(got), flush=True)
        return got

    def close(self) -> None:
        self.ctx.close()


#: a tree frame's message that carries a picture, not only the digest of one the page holds
#: (``ui/sections/tree_frame.py``: ``"svg": null`` then)
_PICTURE_SENT = re.compile(rb'"svg"\s*:\s*"')


def new_picture(frames: list[tuple[float, int, bytes]]) -> bool:
    """Whether the page was sent a picture it did not hold (a language switch's first visit to a
    language, say): issue 26's bytes target holds "unless a new picture is shown"."""
    return any(_PICTURE_SENT.search(raw) for _, _, raw in frames)


def format_step(s: Step) -> str:
    parts = [f"{s.label:<52}"]
    for name, value, target in s.ratios()[:1] + [("server", s.server_cpu, None)] + s.ratios()[1:]:
        shown = f"{value / 1000:7.1f} KB" if name == "bytes" else f"{value:6.2f} s"
        if target is None:
            parts.append(f"{name} {shown}" + ("" if name == "server" else f"{'':>16}"))
        else:
            limit = f"{target / 1000:.0f} KB" if name == "bytes" else f"{target:.2f} s"
            parts.append(f"{name} {shown} ≤{limit:>8} {value / target:4.1f}×")
    return "  ".join(parts) + (f"  ({s.note})" if s.note else "")


# --- what the user does (selectors by data-testid, st-key-<key> classes and hrefs: robust to
# the settings moving into a sidebar or a compact panel) ---------------------------------------

#: the tree's frame (not the what-if section's path, drawn in a frame of its own)
TREE_FRAME = ":is(.st-key-focus_frame, .st-key-whole_frame, .st-key-small_frame) .dt-frame"
FRAME_NODE = f"{TREE_FRAME} svg g[id^=dtnode]"


def goto_page(page, stem: str) -> None:
    """Click the sidebar's link to a page (the default page, Train & tree, links to "/")."""
    links = page.locator(f'[data-testid="stSidebarNav"] a[href$="/{stem}"]:visible')
    if stem == "train" and not links.count():
        links = page.locator('[data-testid="stSidebarNav"] a[href$="/"]:visible')
    links.first.click()


def pick_option(page, key: str, index: int | None = None, text: str | None = None) -> None:
    """Open the selectbox of ``key`` and pick an option by position or text. The box is scrolled
    into view before the click, as a user sees it before clicking: a click that itself scrolls
    the page up to the box (after a click in the tree frame below) left the menu closed, no
    option ever shown (the scroll closes the menu it opened, it seems); a second click opened it."""
    box = page.locator(f'.st-key-{key} [role="combobox"]').first
    box.scroll_into_view_if_needed()
    page.evaluate(TWO_FRAMES)
    box.click()
    options = page.locator('[role="option"]')
    try:
        options.first.wait_for(state="visible", timeout=30_000)
    except Exception as exc:
        raise RuntimeError(
            f"the selectbox {key!r} ({box.get_attribute('aria-label')!r}) listed no option 30 s after"
            f" a click (aria-expanded={box.get_attribute('aria-expanded')})"
        ) from exc
    (options.filter(has_text=text).first if text else options.nth(index or 0)).click()


def tree_drawn(page, timeout: float = 120_000) -> None:
    page.locator(f"{FRAME_NODE}, [data-testid=stGraphVizChart] svg g.node").first.wait_for(
        state="attached", timeout=timeout
    )


def node_count(page) -> str:
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Nodes").first
    try:
        return metric.locator('[data-testid="stMetricValue"]').inner_text(timeout=2_000).strip()
    except Exception:
        return "?"


def needs_retrain(tree: Tree) -> bool:
    """Whether the tree size is grown by other settings than the upload's default (C4.5)."""
    return tree.algorithm != "c45" or tree.max_depth is not None


def retrain(s: Session, tree: Tree) -> None:
    """Grow ``tree``'s size on the Train page: its algorithm, then its depth limit (0: none)."""
    page = s.page
    if tree.algorithm != "c45":
        t0 = time.perf_counter()
        pick_option(page, "algo", text="CART")
        s.settle(t0, 300)
    if tree.max_depth is not None:
        box = page.locator(f".st-key-{tree.algorithm}_max_depth input").first
        box.fill(str(tree.max_depth))
        page.locator('[data-testid="stFormSubmitButton"] button').first.click()
    tree_drawn(page, 300_000)


def journey(s: Session, tree: Tree, csv: Path, *, quick: bool, first: bool, train_only: bool = False) -> None:
    page = s.page
    label = f"[{tree.name.split(',')[0]}] "
    if first:
        s.step(
            "cold first visit, a new session (textbook tree drawn)",
            lambda: (page.goto(s.url + "/", wait_until="commit"), tree_drawn(page)),
            wall=2.0,
            browser=None,
            picture=True,
            setup=True,
        )
    else:
        t0 = time.perf_counter()
        page.goto(s.url + "/", wait_until="commit")
        tree_drawn(page)
        s.settle(t0, 120)
    s.step(label + "switch to the Data page", lambda: goto_page(page, "data"), browser=None, setup=True)
    floor = s.steps[-1]
    s.floor = floor.browser_cpu if floor.wall != float("inf") else None

    def upload() -> None:
        page.locator('[data-testid="stFileUploaderDropzoneInput"][accept*=".csv"]').set_input_files(str(csv))
        # read by the server: the sidebar names its rows (a settle alone can end on a late frame
        # of the page before, and the next step then leaves the upload behind)
        rows = re.compile(rf"{rows_of(csv):,} rows".replace(",", "[, ]?"))
        page.locator('[data-testid="stSidebar"]').get_by_text(rows).first.wait_for(timeout=180_000)

    up = s.step(
        label + "upload → roles",
        upload,
        wall=1.5,
        browser=None,
        picture=True,
        timeout=180,
        setup=True,
    )
    train = s.step(
        label + "→ Train: default tree drawn",
        lambda: (goto_page(page, "train"), tree_drawn(page, 300_000)),
        wall=None,
        browser=None,
        picture=True,
        timeout=300,
        setup=True,
    )
    if up and train:
        total = up.wall + train.wall
        s.steps.append(
            Step(
                label + "upload → drawn default tree (sum)",
                total,
                up.server_cpu + train.server_cpu,
                up.browser_cpu + train.browser_cpu,
                up.ws_bytes + train.ws_bytes,
                wall_target=3.0,
                browser_target=1.0,
                note="C4.5",
            )
        )
        print(format_step(s.steps[-1]), flush=True)
    if needs_retrain(tree):
        s.step(
            label + "train the bigger tree",
            lambda: retrain(s, tree),
            wall=None,
            browser=None,
            picture=True,
            timeout=400,
            setup=True,
        )
    nodes = node_count(page)
    print(f"   tree: {nodes} nodes", flush=True)
    s.steps[-1].note = (s.steps[-1].note + " " if s.steps[-1].note else "") + f"{nodes} nodes"

    def lang(code: str) -> Callable[[], None]:
        return lambda: page.locator(".st-key-lang label").filter(has_text=code).first.click()

    s.step(label + "language switch → 中文", lang("中文"))
    s.step(label + "language switch → English", lang("English"))
    s.step(label + "page switch to Data", lambda: goto_page(page, "data"))
    s.step(label + "… and back to Train & tree", lambda: (goto_page(page, "train"), tree_drawn(page)))
    s.step(
        label + "layout change (left to right)", lambda: pick_option(page, "layout", index=2), picture=True
    )
    if quick:
        return

    def click_node() -> None:
        nodes = page.locator(FRAME_NODE)
        nodes.nth(min(2, nodes.count() - 1)).click()

    s.step(label + "focus: click a node in the picture", click_node, picture=True)
    s.step(label + "focus: search hit", lambda: pick_option(page, "find_hit", index=0), picture=True)

    def overview_click() -> None:
        sectors = page.locator('[class*="st-key-tree_overview_"] .dt-frame svg g.sector')
        sectors.nth(min(3, sectors.count() - 1)).click()

    s.step(label + "focus: a sector of the overview", overview_click, picture=True)

    def pan_zoom() -> None:
        frame = page.locator(TREE_FRAME).first
        frame.scroll_into_view_if_needed()
        box = frame.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        for _ in range(3):
            page.mouse.wheel(0, -200)
        page.mouse.down()
        page.mouse.move(x + 150, y + 80, steps=10)
        page.mouse.up()

    s.step(label + "pan and zoom the picture", pan_zoom, rerun=False)

    def whatif() -> None:
        box = page.locator(".st-key-whatif_row input").first
        box.scroll_into_view_if_needed()
        box.fill("7")
        box.press("Enter")

    s.step(label + "what-if: another row", whatif)
    if train_only:
        return
    s.step(label + "Splits at a node", lambda: goto_page(page, "splits"), wall=3.0, picture=True, timeout=300)
    s.step(label + "Pruning page", lambda: goto_page(page, "prune"), wall=3.0, picture=True, timeout=300)
    s.step(
        label + "Pruning method change (→ REP)",
        lambda: pick_option(page, "prune_method", text="(REP)"),
        wall=3.0,
        picture=True,
        timeout=300,
    )
    s.step(label + "Compare", lambda: goto_page(page, "compare"), wall=15.0, picture=True, timeout=300)
    s.step(label + "Growth page", lambda: goto_page(page, "growth"), wall=3.0, picture=True, timeout=300)

    def growth_step() -> None:
        # Streamlit's slider is an <input type=range> (its role implicit, no role attribute); the
        # page opens on the last step (the fitted tree), so one step back is the step a user takes
        slider = page.locator(".st-key-growth_step").get_by_role("slider").first
        before = slider.input_value(timeout=30_000)
        if slider.is_disabled():
            raise RuntimeError("the Growth slider is disabled (the model has no growth steps)")
        slider.focus()
        slider.press("ArrowLeft")
        if slider.input_value() == before:
            raise RuntimeError(f"the Growth slider did not move from step {before} on the left arrow")

    s.step(label + "a Growth step", growth_step, picture=True)
    s.step(label + "back to Train & tree", lambda: (goto_page(page, "train"), tree_drawn(page)), picture=True)


def write_doc(sessions: list[tuple[str, list[Step]]], args: argparse.Namespace) -> None:
    lines = [
        "# Speed in the browser",
        "",
        "Generated by `python -m bench.bench_browser"
        + (" --quick" if args.quick else "")
        + (" --train" if args.train else "")
        + (f" --sizes {' '.join(map(str, args.sizes))}" if args.sizes else "")
        + " --write-doc` (bench/bench_browser.py; `make bench` runs it): every step of a user's",
        "journey in headless Chromium on this machine (2 cores shared with other work), a fresh",
        "server per run, 10⁵ rows × 20 numeric columns with a yes/no target. Wall: from the action",
        "to the page settled; server: CPU seconds of the Streamlit process (and its `dot`); browser:",
        "CPU seconds of the Chromium processes; bytes: what the page's websocket received. A target",
        "in brackets; ✗ marks a miss. The browser target of a rerun is 1.5× the switch to the Data",
        "page in the same session. Server-side figures: `python -m bench.bench_app`. Where the browser's",
        "CPU goes on the Train & tree page (JS by library, the renderer's own work): `python -m",
        "bench.profile_train_page`.",
        "",
        f"Load average when written: {' / '.join(f'{x:.1f}' for x in os.getloadavg())} (1 / 5 / 15 min).",
        "",
        "| step | wall (s) | server CPU (s) | browser CPU (s) | bytes in (KB) |",
        "| --- | --- | --- | --- | --- |",
    ]

    def cell(value: float, target: float | None, scale: float = 1.0, digits: int = 2) -> str:
        if value == float("inf"):
            return "—"
        text = f"{value / scale:.{digits}f}"
        if target is not None:
            text += f" [{target / scale:.{digits}f}]" + ("" if value <= target else " ✗")
        return text

    for name, steps in sessions:
        lines.append(f"| **{name}** | | | | |")
        for st in steps:
            label = st.label.replace("|", "\\|") + (f" ({st.note})" if st.note else "")
            if st.wall == float("inf"):  # failed or never settled: nothing measured
                lines.append(f"| {label} | — | — | — | — |")
                continue
            lines.append(
                f"| {label} | {cell(st.wall, st.wall_target)} | {cell(st.server_cpu, None)} | "
                f"{cell(st.browser_cpu, st.browser_target)} | {cell(st.ws_bytes, st.bytes_target, 1000, 0)} |"
            )
    DOC.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the ~1 000-node tree and the cheap steps only")
    ap.add_argument(
        "--train", action="store_true", help="the ~1 000-node tree and the Train & tree page's steps only"
    )
    ap.add_argument("--rows", type=int, default=None, help="rows of the data (default 10⁵; --large 10⁶)")
    ap.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    ap.add_argument("--sizes", type=int, nargs="*", help="which tree sizes (0, 1, 2) to run")
    ap.add_argument(
        "--steps",
        nargs="+",
        default=[],
        metavar="WORD",
        help="run only the steps whose label holds a WORD "
        "(case-insensitive; the visit, Data switch, upload and training always run)",
    )
    ap.add_argument(
        "--skip", nargs="+", default=[], metavar="WORD", help="leave out the steps whose label holds a WORD"
    )
    ap.add_argument(
        "--shots",
        type=Path,
        default=Path(tempfile.gettempdir()) / "bench_browser",
        help="where a failed step's screenshot goes (default: %(default)s)",
    )
    ap.add_argument(
        "--large",
        action="store_true",
        help="only the large-data journey (bench/browser_large.py): Parquet files (--rows, default 10⁶) "
        "opened on the Data page, CART on Dask to a drawn tree",
    )
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="--large: seconds on the Data page before the files are opened (the cluster starts meanwhile)",
    )
    ap.add_argument("--write-doc", action="store_true", help=f"write the table to {DOC.relative_to(ROOT)}")
    args = ap.parse_args()
    if args.large:
        from bench.browser_large import run

        steps = run(args.rows or 1_000_000, args.port or free_port(), args.shots, args.think)
        missed = [st.label for st in steps if not st.met()]
        print(
            f"\n{len(steps) - len(missed)} of {len(steps)} steps within target"
            + (f"; missed: {missed}" if missed else "")
        )
        return
    args.rows = args.rows or 100_000
    small = args.quick or args.train
    trees = [TREES[i] for i in (args.sizes if args.sizes else ([0] if small else range(len(TREES))))]
    from playwright.sync_api import sync_playwright

    port = args.port or free_port()
    proc = start_server(port)
    server = psutil.Process(proc.pid)
    url = f"http://127.0.0.1:{port}"
    results: list[tuple[str, list[Step]]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
            browser = launch_chromium(pw)
            cpu = BrowserCpu()
            warm = Session(browser, url, server, cpu)  # the server's first script run imports everything
            warm.shots = args.shots / "start"
            warm.step(
                "first visit after the server started",
                lambda: (warm.page.goto(url + "/", wait_until="commit"), tree_drawn(warm.page)),
                wall=None,
                browser=None,
                picture=True,
            )
            warm.close()
            results.append(("server start", warm.steps))
            for i, tree in enumerate(trees):
                csv = Path(tmp) / f"bench_{i}.csv"
                csv.write_bytes(make_csv(args.rows, tree.flip))
                print(f"\n== {tree.name}: {args.rows:,} rows × 20, {csv.stat().st_size / 1e6:.1f} MB of CSV")
                s = Session(browser, url, server, cpu)
                s.only, s.skip, s.shots = args.steps, args.skip, args.shots / f"tree{i}"
                try:
                    journey(s, tree, csv, quick=args.quick, first=i == 0, train_only=args.train)
                finally:
                    s.close()
                results.append((tree.name, s.steps))
                if args.write_doc:  # after each tree: a long run that is stopped keeps its table
                    write_doc(results, args)
            browser.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    steps = [st for _, ss in results for st in ss]
    missed = [st.label for st in steps if not st.met()]
    print(
        f"\n{len(steps) - len(missed)} of {len(steps)} steps within target"
        + (f"; missed: {missed}" if missed else "")
    )


if __name__ == "__main__":
    main()
