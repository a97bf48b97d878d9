"""The app on a free local port and the system Chromium, as the browser tests and the browser
benchmark start them: one home for the command line, the health wait, the stop and Chromium's
flags and launch (``tests/browser/conftest.py``, ``tests/browser/test_abandoned_jobs.py``,
``bench/bench_browser.py``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: headless as root on a closed network: without the background-networking flags Chromium keeps
#: calling hosts this machine cannot reach
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: features of Chromium's own window that headless Chromium 156 still runs for every new tab: the
#: omnibox popup and its AI-mode variant, two WebUI renderers that nothing on a page shows or
#: waits for. They cost ~0.5 s of CPU per tab, 14 % of the browser tests' CPU on this 2-core
#: machine, and the browser benchmark counted them in a cold first visit's browser CPU.
CHROME_UI_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
DISABLE_FEATURES = "--disable-features="


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppDidNotStart(RuntimeError):
    """The server exited or did not answer its health check in time; the message ends with the
    tail of its log."""


def start_app(
    port: int,
    log: Path | None = None,
    env: Mapping[str, str] | None = None,
    extra_args: Sequence[str] = (),
    seconds: float = 60,
) -> subprocess.Popen:
    """``streamlit run app.py`` on 127.0.0.1:``port`` (headless, no usage statistics; the rest,
    no file watcher among it, from .streamlit/config.toml as ``make run`` reads it), its output
    to ``log`` (None: discarded), once its health check answers."""
    command = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    command += ["--browser.gatherUsageStats", "false", *extra_args]
    out = open(log, "wb") if log is not None else subprocess.DEVNULL  # noqa: SIM115 (the child holds it)
    try:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        )
    finally:
        if log is not None:
            out.close()
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            tail = log.read_text(errors="replace")[-3000:] if log is not None else "(no log kept)"
            raise AppDidNotStart(f"the app did not start; log:\n{tail}")
        time.sleep(0.3)


def stop_app(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def launch_chromium(playwright: Any, args: Sequence[str] = CHROMIUM_ARGS) -> Any:
    """The system Chromium, headless, with ``args`` and :data:`CHROME_UI_OFF` turned off.

    Chromium reads only the last ``--disable-features`` switch, and Playwright passes its own
    list (features that break automation): a first launch reads that list off the browser's
    command line, and the second passes it merged with ours in its place."""
    import psutil

    probe = playwright.chromium.launch(executable_path=CHROMIUM, args=list(args), headless=True)
    try:
        browsers = [
            p
            for p in psutil.Process().children(recursive=True)
            if "chrom" in p.name().lower() and not any(a.startswith("--type=") for a in p.cmdline())
        ]
        newest = max(browsers, key=lambda p: p.create_time())
        theirs = [a for a in newest.cmdline() if a.startswith(DISABLE_FEATURES)]
    finally:
        probe.close()
    features = [f for a in theirs for f in a[len(DISABLE_FEATURES) :].split(",") if f]
    features += [f for f in CHROME_UI_OFF if f not in features]
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=[*args, DISABLE_FEATURES + ",".join(features)],
        ignore_default_args=theirs,
        headless=True,
    )
