"""A rerun that does not retrain sends no tree picture again (issue 26): the server-drawn SVG of a
big tree (diabetes with CART: 615 nodes, the focused view in the pan/zoom frame) reaches the page
once per session; back on Train & tree after a few runs elsewhere, the page draws it from its own
cache and the websocket carries only the picture's digest. Counted on the page's websocket frames
(CDP ``Network.webSocketFrameReceived``)."""

from __future__ import annotations

import base64
import re
import time
from pathlib import Path

import tomllib

from tests.browser.test_screenshots import open_page, script_done

#: the focused view's frame (the what-if section's path is drawn in a frame of its own)
FRAME = ".st-key-focus_frame .dt-frame"


class Frames:
    """Every websocket frame the page receives, decoded, with its arrival time."""

    def __init__(self, page) -> None:
        self.got: list[tuple[float, bytes]] = []
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.webSocketFrameReceived", self._frame)

    def _frame(self, event) -> None:
        r = event["response"]
        data = r.get("payloadData", "")
        raw = base64.b64decode(data) if r.get("opcode") == 2 else data.encode()
        self.got.append((time.monotonic(), raw))

    def since(self, mark: int) -> list[bytes]:
        return [raw for _, raw in self.got[mark:]]


def settle(page, frames: Frames, quiet: float = 0.5, timeout: float = 60.0) -> None:
    """The script has finished and the websocket has been quiet for ``quiet`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        script_done(page)
        page.wait_for_timeout(100)
        last = frames.got[-1][0] if frames.got else 0.0
        if time.monotonic() - last >= quiet:
            return
        assert time.monotonic() < deadline, "the page kept receiving"


#: runs after which Streamlit sends a message whole again instead of a reference to the page's
#: copy (.streamlit/config.toml): the frame's own record of held pictures must outlast it
MESSAGE_AGE = tomllib.loads((Path(__file__).parents[2] / ".streamlit" / "config.toml").read_text())["global"][
    "maxCachedMessageAge"
]


def nav(page, stem: str) -> None:
    links = page.locator(f'[data-testid="stSidebarNav"] a[href$="/{stem}"]:visible')
    if stem == "train" and not links.count():  # the default page links to "/"
        links = page.locator('[data-testid="stSidebarNav"] a[href$="/"]:visible')
    links.first.click()


#: a tree frame's data carrying a picture (its JSON's "svg" a string; null when only the digest of
#: a picture the page holds is sent)
PICTURE = re.compile(rb'"svg"\s*:\s*"')


def pictures_in(blobs: list[bytes]) -> list[int]:
    """Sizes of the frames that carry a drawn tree (a frame's picture with the app's node ids,
    JSON-escaped in the message: ``id=\\"dtnode0\\"``)."""
    return [len(b) for b in blobs if PICTURE.search(b) and b"dtnode" in b]


def test_back_on_train_the_tree_picture_is_not_sent_again(fresh_page, app_url):
    page = fresh_page  # it listens to the page's events (conftest.fresh_page)
    frames = Frames(page)
    open_page(page, app_url, "", lang="en", sample="diabetes", algo="cart")
    page.locator(f"{FRAME} svg g#dtnode0").wait_for(state="attached", timeout=60_000)
    settle(page, frames)
    assert pictures_in(frames.since(0)), "the first visit sends the picture"
    # away to Data, more reruns there (Streamlit's "r" key: a rerun that changes nothing, at half
    # the browser's work of a language switch) than Streamlit keeps a sent message for (past that
    # its own cache would send the frame's message whole again), then back
    nav(page, "data")
    settle(page, frames)
    for run in range(MESSAGE_AGE + 1):
        before = len(frames.got)
        page.locator('[data-testid="stMain"] h1').first.click()
        page.keyboard.press("r")
        # the server answered before the page counts as settled: a settle that began before the
        # rerun did left the next key to land mid-rerun (once, with language switches, no
        # clickable label was found for 30 s in a full run)
        deadline = time.monotonic() + 30
        while len(frames.got) == before:
            assert time.monotonic() < deadline, f"no answer to rerun {run}"
            page.wait_for_timeout(50)
        settle(page, frames, quiet=0.15)  # the answer came: the run has ended once the script is done
    mark = len(frames.got)
    nav(page, "train")
    page.locator(f"{FRAME} svg g#dtnode0").wait_for(state="attached", timeout=60_000)
    settle(page, frames)
    back = frames.since(mark)
    assert back, "the return to Train & tree reran the script"
    assert not pictures_in(back), f"the tree picture was sent again: frames of {pictures_in(back)} bytes"
    # and the picture shown is the whole focused view, clickable
    assert page.locator(f"{FRAME} svg g[id^=dtnode]").count() > 3
    page.locator(f"{FRAME} g#dtnode2").click()
    page.get_by_text("Focused on node #2:").first.wait_for(state="visible", timeout=30_000)
    page.locator(f"{FRAME} svg g#dtnode2").wait_for(state="attached", timeout=30_000)


def test_a_page_that_lost_its_pictures_asks_for_them(fresh_page, app_url):
    """The page's cache emptied behind the server's back: the frame asks, the picture comes."""
    page = fresh_page  # it listens to the page's events (conftest.fresh_page)
    frames = Frames(page)
    open_page(page, app_url, "", lang="en", sample="diabetes", algo="cart")
    page.locator(f"{FRAME} svg g#dtnode0").wait_for(state="attached", timeout=60_000)
    settle(page, frames)
    nav(page, "data")
    settle(page, frames)
    assert page.evaluate("() => window.__dtTreePictures.size") >= 1
    page.evaluate("() => window.__dtTreePictures.clear()")
    nav(page, "train")
    page.locator(f"{FRAME} svg g#dtnode0").wait_for(state="attached", timeout=60_000)
    settle(page, frames)
    assert page.locator(f"{FRAME} svg g[id^=dtnode]").count() > 3
