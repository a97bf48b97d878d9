"""Heavy jobs (training, Compare, cross-validation, EBP runs and curves, Growth replays) in the
server's one queue, with their progress bars and stop points.

One Streamlit server runs every session's script in a thread of one process; on a 2-core machine
a session that trains for a minute slowed every other session's clicks. The queue
(``ui/services/job_queue.py``: admission, place, estimate, cancellation) admits at most
``DTREE_MAX_HEAVY_JOBS`` jobs at once (default 1); a session that finds every slot busy shows
its place in the queue and an estimate (``WaitNotice``, redrawn at most once a second and only
when its text changes), for at most ``DTREE_HEAVY_JOB_TIMEOUT`` seconds (default 300), then
``JobTimeout`` (a ``TrainingError`` with key ``train.err.busy``) is raised and shown.

The guard sits *inside* the cached functions, so a cache hit never waits; the notice and the
bars are written to placeholders made outside the cache and kept out of the cache's replay.

How a job stops
---------------
A job stops when its session has gone (the tab closed) or asked for another run (a rerun, a
page switch). Streamlit marks the run (``request_script_stop`` / ``request_rerun``) and ends it
by raising ``StopException`` / ``RerunException`` at its next Streamlit call, or, with no call,
at the run's ``yield_check`` (``ScriptRunContext.yield_check``). ``heavy_job`` installs that
check, and the queue's own (the owner's session no longer active: ``JobCancelled``), as
dtcore's stop check (``dtcore.progress``): it runs at every progress report and every
``checkpoint`` of the work (each level of a fit, each step down a tree, each field of a tree's
build, each fit and fold of a comparison), a fraction of a second apart at 10⁵ rows.

* **Waiting is cancellable**: the wait polls every ``job_queue.POLL`` s and runs the stop check.
* **The slot is always released**: ``heavy_job`` leaves the queue in ``finally``, whatever ends
  the block, and a cancelled job stops counting against the slots ``job_queue.GRACE`` s after
  its owner left even before it reaches a stop point.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dtcore.progress import Progress, reporting
from ui.services.job_queue import JobCancelled, JobQueue, Place, QueueTimeout, Ticket
from ui.services.training import TrainingError

from .state import t


def _env_number(name: str, default: float, minimum: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return max(minimum, value)


MAX_JOBS = int(_env_number("DTREE_MAX_HEAVY_JOBS", 1, 1))
TIMEOUT = _env_number("DTREE_HEAVY_JOB_TIMEOUT", 300.0, 0.0)

#: the server's one queue of heavy jobs
QUEUE = JobQueue(MAX_JOBS)

# the job this thread runs (its queue and ticket), for the progress bars' share done
_CURRENT: ContextVar[tuple[JobQueue, Ticket] | None] = ContextVar("heavy_job", default=None)


class JobTimeout(TrainingError):
    """No slot came free in time: the message says so and asks to try again."""

    def __init__(self, seconds: float):
        super().__init__("train.err.busy", seconds=round(seconds))


def _owner() -> tuple[str, Callable[[], bool], Callable[[], None]]:
    """(owner id, whether the owner's session is still connected, the run's stop check) of the
    calling script thread; outside a script run: the thread, always alive, no check."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
    except ImportError:  # another Streamlit: the queue's own checks only
        return f"thread-{threading.get_ident()}", lambda: True, lambda: None
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return f"thread-{threading.get_ident()}", lambda: True, lambda: None
    session = ctx.session_id

    def alive() -> bool:
        return not Runtime.exists() or Runtime.instance().is_active_session(session)

    check = getattr(ctx, "yield_check", None)
    return session, alive, check if callable(check) else (lambda: None)


def _stop_on_cancel() -> BaseException:
    """What a cancelled job raises: Streamlit's stop of the run (ends it quietly)."""
    try:
        from streamlit.runtime.scriptrunner_utils.exceptions import StopException
    except ImportError:
        return JobCancelled()
    return StopException()


@contextlib.contextmanager
def heavy_job(
    on_wait: Callable[[Place], None] | None = None,
    timeout: float | None = None,
    slots: JobQueue | None = None,
    kind: str = "train",
) -> Iterator[Ticket]:
    """Run the block as a heavy job of ``kind`` in the queue (``slots``: another queue, for
    tests). While it waits, ``on_wait(place)`` is called at once and on every poll; after
    ``timeout`` s ``JobTimeout``. Inside, dtcore's stop check ends the work when the session
    has gone or asked for another run. The slot is released however the block ends."""
    queue = QUEUE if slots is None else slots
    limit = TIMEOUT if timeout is None else timeout
    owner, alive, run_check = _owner()
    ticket = queue.enqueue(kind, owner, alive)

    def stop_check() -> None:
        run_check()
        queue.check(ticket)

    def waiting(place: Place) -> None:
        stop_check()
        if on_wait is not None:
            on_wait(place)

    try:
        queue.wait(ticket, limit, waiting)
    except QueueTimeout:
        raise JobTimeout(limit) from None
    except JobCancelled:
        raise _stop_on_cancel() from None
    token = _CURRENT.set((queue, ticket))
    try:
        with reporting(None, stop_check):
            yield ticket
        queue.finish(ticket)
    except JobCancelled:
        raise _stop_on_cancel() from None
    finally:
        _CURRENT.reset(token)
        queue.leave(ticket)


@contextlib.contextmanager
def stoppable() -> Iterator[None]:
    """Work that takes no place in the queue (under a second even on big trees: a Growth
    replay, whose play reruns every second and must not wait behind another session's job) but
    ends at dtcore's next stop point when its session has gone or asked for another run."""
    _, _, run_check = _owner()
    with reporting(None, run_check):
        yield


def job_progress(fraction: float) -> None:
    """The running job's share done, for the waiters' estimates (no-op outside a job)."""
    current = _CURRENT.get()
    if current is not None:
        current[0].progress(current[1], fraction)


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


#: the waiting notice is redrawn at most every NOTICE_EVERY s, and only when its text changed
NOTICE_EVERY = 1.0


class WaitNotice(_Slot):
    """The notice of a queued job: its place and estimate (``text(place)``), shown from the
    first wait; redrawn at most every ``NOTICE_EVERY`` s and only when the text changed (not
    twice a second); cleared once the job runs."""

    def __init__(self, text: Callable[[Place], str]):
        super().__init__()
        self._text = text
        self._shown: str | None = None
        self._last = 0.0
        self.draws = 0

    def __call__(self, place: Place) -> None:
        now = time.monotonic()
        if self._shown is not None and now - self._last < NOTICE_EVERY:
            return
        text = self._text(place)
        if text == self._shown:
            return
        self._shown, self._last = text, now
        self.draws += 1
        self._show(lambda slot: slot.info(text, icon=":material/hourglass_top:"))


#: a job shorter than BAR_AFTER s shows no bar; after that the bar is redrawn at most every BAR_EVERY s
BAR_AFTER = 0.4
BAR_EVERY = 0.25


class ProgressBar(_Slot):
    """A ``dtcore.progress`` listener: a progress bar shown from the first report after
    ``BAR_AFTER`` s (none for quick work), redrawn at most every ``BAR_EVERY`` s.

    ``stages``: the stages of the job's own bar (None: every stage). With ``detail``, reports
    of the other stages (a fold's or a contender's growth) draw a second bar below it, the
    current fit's; the job's share done (``job_progress``) counts the current fit's share."""

    def __init__(
        self,
        text: Callable[[Progress], str],
        stages: tuple[str, ...] | None = None,
        detail: Callable[[Progress, Progress | None], str] | None = None,
    ):
        super().__init__()
        self._text = text
        self._stages = stages
        self._detail = detail
        self._start = time.monotonic()
        self._last = 0.0
        self._outer: Progress | None = None
        self._inner: Progress | None = None

    def __call__(self, progress: Progress) -> None:
        mine = self._stages is None or progress.stage in self._stages
        if mine:
            self._outer, self._inner = progress, None
        elif self._stages is not None:
            self._inner = progress
        job_progress(self.fraction())
        if not mine and self._detail is None:
            return
        now = time.monotonic()
        if now - self._start < BAR_AFTER or now - self._last < BAR_EVERY:
            return
        self._last = now
        self._show(self._draw)

    def fraction(self) -> float:
        """The job's share done: its own stage's, plus the current fit's share of one unit."""
        outer, inner = self._outer, self._inner
        if outer is None:
            return inner.fraction if inner is not None else 0.0
        part = inner.fraction if inner is not None else 0.0
        return min((outer.done + part) / outer.total, 1.0) if outer.total > 0 else 0.0

    def _draw(self, slot: DeltaGenerator) -> None:
        outer = self._outer
        if self._detail is None or outer is None:
            if outer is not None:
                slot.progress(outer.fraction, text=self._text(outer))
            return
        with slot.container():
            st.progress(self.fraction(), text=self._text(outer))
            inner = self._inner
            st.progress(inner.fraction if inner is not None else 0.0, text=self._detail(outer, inner))


def waiting_text(place: Place, kind: str) -> str:
    """The notice's words: the job running, this job's place and the wait, rounded (to 5 s,
    then to minutes) so the text changes seldom."""
    running = ", ".join(
        t("jobs.running_share", kind=t("jobs.kind." + k), share=f"{share:.0%}") for k, share in place.ahead
    ) or t("jobs.kind.train")
    eta = place.estimate
    if eta is None:
        wait = t("jobs.wait_unknown")
    elif eta < 10:
        wait = t("jobs.wait_soon")
    elif eta < 120:
        wait = t("jobs.wait_seconds", seconds=int(5 * round(eta / 5)))
    else:
        wait = t("jobs.wait_minutes", minutes=int(round(eta / 60)))
    key = "jobs.queued_next" if place.position == 1 else "jobs.queued"
    return t(key, running=running, kind=t("jobs.kind." + kind), position=place.position, wait=wait)


def wait_notice(kind: str = "train") -> WaitNotice:
    """The notice a session shows while other sessions' heavy jobs hold the slots."""
    return WaitNotice(lambda place: waiting_text(place, kind))
