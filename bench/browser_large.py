"""``bench_browser --large``: the large-data journey in the real Chromium (issue 26: 10⁶ rows to a
drawn tree in ≤ 20 s).

Seeded Parquet files (``make_csv``'s rule: 20 numeric columns rounded to 3 decimals, a yes/no
target, a share of the labels flipped) are written to a temporary folder; a fresh server is
started with ``DTREE_LARGE_DATA_DIR`` on it (its Dask cluster: the app's own, a ``LocalCluster``
of ``DTREE_DASK_WORKERS`` worker processes, default 2). In a new session the Data page's "Large
data" box opens the files, then Train & tree trains CART (histogram splitter, the large source's
depth limit) on Dask until the tree is drawn. The server's CPU counts the Dask worker processes
too (every process under the server: ``ProcessTree``).

    .venv/bin/python -m bench.bench_browser --large                 # 10⁶ rows in 8 files
    .venv/bin/python -m bench.bench_browser --large --rows 200000   # fewer rows
    .venv/bin/python -m bench.bench_browser --large --think 10      # 10 s on the Data page first
"""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psutil

#: issue 26: opening the files to a drawn tree
LARGE_WALL = 20.0
LARGE_FILES = 8
LARGE_FLIP = 0.22


def make_parquet(
    folder: Path, n: int, files: int = LARGE_FILES, flip: float = LARGE_FLIP, seed: int = 0
) -> None:
    """``n`` rows of ``make_csv``'s table (the same columns, rule and seed) as ``files`` Parquet files."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 20)), 3)
    y = X[:, 0] + X[:, 1] * X[:, 2] - 0.5 * X[:, 3] > 0.2
    y = np.where(rng.random(n) < flip, ~y, y)
    df = pd.DataFrame(X, columns=[f"x{i}" for i in range(20)])
    df["y"] = np.where(y, "yes", "no")
    for i, idx in enumerate(np.array_split(np.arange(n), files)):
        df.iloc[idx].to_parquet(folder / f"part-{i:02d}.parquet", index=False)


@dataclass
class _Times:
    user: float
    system: float
    children_user: float = 0.0
    children_system: float = 0.0


class ProcessTree:
    """A process and every process under it (the Dask nannies' worker processes), as one process
    to ``cpu_of``: its ``cpu_times`` sum theirs; a process that ended keeps the seconds last seen."""

    def __init__(self, proc: psutil.Process) -> None:
        self.proc = proc
        self.seen: dict[int, float] = {}

    def cpu_times(self) -> _Times:
        for p in [self.proc, *self.proc.children(recursive=True)]:
            try:
                c = p.cpu_times()
                self.seen[p.pid] = max(
                    self.seen.get(p.pid, 0.0), c.user + c.system + c.children_user + c.children_system
                )
            except psutil.Error:
                pass
        return _Times(sum(self.seen.values()), 0.0)

    def workers(self) -> float:
        """CPU seconds of the processes under the server (the Dask workers)."""
        self.cpu_times()
        return sum(v for pid, v in self.seen.items() if pid != self.proc.pid)


def run(rows: int, port: int, shots: Path, think: float = 0.0) -> list:
    """The journey; its steps (``bench_browser.Step``). ``think``: seconds on the Data page before
    the files are named (a user reading the box; the cluster starts meanwhile)."""
    from playwright.sync_api import sync_playwright

    from bench.bench_browser import BrowserCpu, Session, Step, format_step, goto_page, tree_drawn
    from scripts.app_server import launch_chromium, start_app

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "large"
        folder.mkdir()
        t0 = time.perf_counter()
        make_parquet(folder, rows)
        size = sum(f.stat().st_size for f in folder.iterdir()) / 1e6
        print(
            f"\n== large data: {rows:,} rows × 20 in {LARGE_FILES} Parquet files, {size:.1f} MB"
            f" (written in {time.perf_counter() - t0:.1f} s)",
            flush=True,
        )
        proc = start_app(port, env={"DTREE_LARGE_DATA_DIR": str(folder)}, seconds=90)
        tree = ProcessTree(psutil.Process(proc.pid))
        try:
            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                s = Session(browser, f"http://127.0.0.1:{port}", tree, BrowserCpu())  # type: ignore[arg-type]
                s.shots = shots / "large"
                page = s.page
                s.step(
                    "[large] first visit (textbook tree drawn)",
                    lambda: (page.goto(s.url + "/", wait_until="commit"), tree_drawn(page)),
                    wall=None,
                    browser=None,
                    picture=True,
                    setup=True,
                )
                s.step(
                    "[large] switch to the Data page",
                    lambda: goto_page(page, "data"),
                    browser=None,
                    setup=True,
                )

                def open_files() -> None:
                    box = page.locator(".st-key-large_pattern input").first
                    if not box.is_visible():
                        page.get_by_text("Large data: Parquet files on the server").first.click()
                    box.fill("*.parquet")
                    page.locator('[data-testid="stFormSubmitButton"] button').filter(
                        has_text="Open"
                    ).first.click()
                    page.get_by_text(f"{rows:,}").first.wait_for(timeout=120_000)

                page.wait_for_timeout(think * 1000)
                w0 = tree.workers()
                opened = s.step(
                    "[large] open the Parquet files (sample shown)",
                    open_files,
                    wall=None,
                    browser=None,
                    picture=True,
                    timeout=180,
                    setup=True,
                )
                w1 = tree.workers()
                train = s.step(
                    "[large] → Train: CART on Dask, tree drawn",
                    lambda: (goto_page(page, "train"), tree_drawn(page, 600_000)),
                    wall=None,
                    browser=None,
                    picture=True,
                    timeout=600,
                    setup=True,
                )
                w2 = tree.workers()
                if opened and train:
                    total = Step(
                        "[large] open → drawn tree (sum)",
                        opened.wall + train.wall,
                        opened.server_cpu + train.server_cpu,
                        opened.browser_cpu + train.browser_cpu,
                        opened.ws_bytes + train.ws_bytes,
                        wall_target=LARGE_WALL,
                        note=f"{rows:,} rows, {think:g} s on the Data page first; Dask workers {w2 - w0:.1f} s "
                        f"of the server's (open {w1 - w0:.1f}, train {w2 - w1:.1f}; {w0:.1f} s starting up before)",
                    )
                    s.steps.append(total)
                    print(format_step(total), flush=True)
                s.close()
                browser.close()
                return s.steps
        finally:
            under = tree.proc.children(recursive=True)
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
            for p in under:  # the Dask workers the server started
                with contextlib.suppress(psutil.Error):
                    p.kill()
