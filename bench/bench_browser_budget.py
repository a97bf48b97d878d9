"""How big a whole-tree picture Chromium lays out in about a second with ``st.graphviz_chart``
(Graphviz in WebAssembly in the page): the measurement behind ``ui.views.focus.BROWSER_NODE_BUDGET``.

    .venv/bin/python bench/bench_browser_budget.py [leaves ...]

Starts bench/graphviz_budget_page.py on a free port, opens it in /usr/bin/chromium per tree size
(a fresh page each time, the tree's DOT cached on the server after a warm-up) and prints the time
from the chart element's appearance in the page (the DOT has arrived) to its SVG holding every
node, timed inside the page. Takes the best of 2 (the machine is shared).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]


def main(sizes: list[int]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "bench/graphviz_budget_page.py"),
            "--server.port",
            str(port),
            "--server.headless",
            "true",
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            print("nodes  seconds (chart element → SVG with every node)")
            for leaves in sizes:
                n = 2 * leaves - 1
                best = float("inf")
                for attempt in range(3):
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    page.goto(f"{url}/?leaves={leaves}", wait_until="commit")
                    took = page.evaluate(
                        """(n) => new Promise((done) => {
                          let t0 = null;
                          const tick = () => {
                            const chart = document.querySelector('[data-testid=stGraphVizChart]');
                            if (chart && t0 === null) t0 = performance.now();
                            if (chart && chart.querySelectorAll('svg g.node').length >= n) {
                              done((performance.now() - t0) / 1000);
                            } else {
                              setTimeout(tick, 5);
                            }
                          };
                          tick();
                        })""",
                        n,
                    )
                    if attempt:  # the first one warms the server's cache
                        best = min(best, took)
                    page.close()
                print(f"{n:5d}  {best:.2f}", flush=True)
            browser.close()
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [8, 64, 128, 200, 300, 400, 600])
