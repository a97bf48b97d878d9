"""At most N heavy jobs (training, the Pruning page's cross-validation) at once, process-wide.

One Streamlit server runs every session's script in its own thread of one process; on this
2-core machine a session that trains for a minute slowed every other session's clicks. A
process-wide ``threading.BoundedSemaphore(N)`` (N from ``DTREE_MAX_HEAVY_JOBS``, default 1)
now admits heavy work: a session that finds every slot busy shows ``jobs.waiting`` and waits,
for at most ``DTREE_HEAVY_JOB_TIMEOUT`` seconds (default 300), then ``JobTimeout`` (a
``TrainingError`` with key ``train.err.busy``) is raised and shown as a clear message.

The guard sits *inside* the cached functions, so a cache hit never waits; the waiting notice is
written to a placeholder made outside the cache and is kept out of the cache's replay.

What is cancellable and what is not
-----------------------------------
Streamlit stops a script run (its session ended, the tab closed, or a new rerun started) by
raising ``StopException`` / ``RerunException`` in the script thread at its next Streamlit call.

* **Waiting for a slot is cancellable**: the wait polls every ``POLL`` seconds and refreshes the
  notice each time, a Streamlit call, so a stopped session leaves the queue within ``POLL`` s.
* **The slot is always released**: ``heavy_job`` releases it in ``finally``, whatever ends the
  block (the result, a ``TrainingError``, ``MemoryError``, ``StopException``, ``RerunException``),
  so a cancelled run never blocks the others.
* **A fit is cancellable between levels**: the builders report their progress once per level
  (per split in the one-node-at-a-time builders) through ``dtcore.progress``; ``ProgressBar``
  turns a report into a Streamlit call (drawing the bar, at most every ``BAR_EVERY`` s), which is
  where Streamlit stops a run whose session has gone or asked for another run. The numpy work of
  one level still runs to its end (well under a second at 10⁵ rows).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dtcore.progress import Progress
from ui.services.training import TrainingError

POLL = 0.5


def _env_number(name: str, default: float, minimum: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return max(minimum, value)


MAX_JOBS = int(_env_number("DTREE_MAX_HEAVY_JOBS", 1, 1))
TIMEOUT = _env_number("DTREE_HEAVY_JOB_TIMEOUT", 300.0, 0.0)

_SLOTS = threading.BoundedSemaphore(MAX_JOBS)


class JobTimeout(TrainingError):
    """No slot came free in time: the message says so and asks to try again."""

    def __init__(self, seconds: float):
        super().__init__("train.err.busy", seconds=round(seconds))


@contextlib.contextmanager
def heavy_job(
    on_wait: Callable[[float], None] | None = None,
    timeout: float | None = None,
    slots: threading.Semaphore | None = None,
) -> Iterator[None]:
    """Hold one heavy-job slot for the block. When none is free, ``on_wait(seconds waited)`` is
    called at once and then every ``POLL`` s (a Streamlit call there lets a stopped session
    leave the queue); after ``timeout`` s ``JobTimeout`` is raised. The slot is released
    however the block ends."""
    sem = _SLOTS if slots is None else slots
    limit = TIMEOUT if timeout is None else timeout
    if not sem.acquire(blocking=False):
        start = time.monotonic()
        while True:
            waited = time.monotonic() - start
            if on_wait is not None:
                on_wait(waited)
            if waited >= limit:
                raise JobTimeout(limit)
            if sem.acquire(timeout=max(min(POLL, limit - waited), 0.001)):
                break
    try:
        yield
    finally:
        sem.release()


@contextlib.contextmanager
def _outside_cache_replay() -> Iterator[None]:
    """Streamlit elements written here are not recorded for a cached function's replay."""
    try:
        from streamlit.runtime.caching.cached_message_replay import in_cached_function
    except ImportError:  # another Streamlit: the notice may then be replayed, harmless
        yield
        return
    token = in_cached_function.set(False)
    try:
        yield
    finally:
        in_cached_function.reset(token)


class _Slot:
    """A placeholder made on first use (none while nothing is shown) and kept out of any
    cache's replay; ``clear()`` removes what it shows."""

    def __init__(self) -> None:
        self._slot: DeltaGenerator | None = None

    def _show(self, draw: Callable[[DeltaGenerator], object]) -> None:
        with _outside_cache_replay():
            if self._slot is None:
                self._slot = st.empty()
            draw(self._slot)

    def clear(self) -> None:
        if self._slot is not None:
            with _outside_cache_replay():
                self._slot.empty()


class WaitNotice(_Slot):
    """The ``jobs.waiting`` notice, shown from the first wait; cleared once the slot is held."""

    def __init__(self, text: Callable[[float], str]):
        super().__init__()
        self._text = text

    def __call__(self, waited: float) -> None:
        self._show(lambda slot: slot.info(self._text(waited), icon=":material/hourglass_top:"))


#: a fit shorter than BAR_AFTER s shows no bar; after that the bar is redrawn at most every BAR_EVERY s
BAR_AFTER = 0.4
BAR_EVERY = 0.25


class ProgressBar(_Slot):
    """A ``dtcore.progress`` listener: a progress bar shown from the first report after
    ``BAR_AFTER`` s (none for quick work). Each redraw is a Streamlit call: the point where a
    stopped or superseded run ends its fit."""

    def __init__(self, text: Callable[[Progress], str], stages: tuple[str, ...] | None = None):
        super().__init__()
        self._text = text
        self._stages = stages  # the stages drawn (None: all); a fold's own growth stays quiet
        self._start = time.monotonic()
        self._last = 0.0

    def __call__(self, progress: Progress) -> None:
        if self._stages is not None and progress.stage not in self._stages:
            return
        now = time.monotonic()
        if now - self._start < BAR_AFTER or now - self._last < BAR_EVERY:
            return
        self._last = now
        self._show(lambda slot: slot.progress(progress.fraction, text=self._text(progress)))
