"""The server's settings as ``make run`` reads them (``.streamlit/config.toml``, from the
repository's folder): what the browser tests and benchmarks measure is what a user gets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

READ = """
import json
from streamlit import config
config.get_config_options(force_reparse=True)
print(json.dumps({k: config.get_option(k) for k in ("server.fileWatcherType", "global.maxCachedMessageAge")}))
"""


def test_make_run_watches_no_source_file_and_keeps_messages_16_runs():
    """Streamlit's own reader, in the folder ``make run`` starts in: no file watcher (watching
    every imported module was set up again per session: 1.15 s of server CPU for a first visit
    against 0.33 s), and the message cache the picture resend relies on. A misspelt key or section
    would leave Streamlit's defaults ("auto", 2) and fail here."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    out = subprocess.run(
        [sys.executable, "-c", READ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"server.fileWatcherType": "none", "global.maxCachedMessageAge": 16}
