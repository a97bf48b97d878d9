"""The app on a free local port and the system Chromium, as the browser tests and the browser
benchmark start them: one home for the command line, the health wait, the stop and Chromium's
flags (``tests/browser/conftest.py``, ``tests/browser/test_abandoned_jobs.py``,
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
    """``streamlit run app.py`` on 127.0.0.1:``port`` (headless, no file watcher, no usage
    statistics), its output to ``log`` (None: discarded), once its health check answers."""
    command = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    command += ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none", *extra_args]
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
