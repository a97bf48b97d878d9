"""The server's queue of heavy jobs (no Streamlit): admission, each waiter's place and estimate,
and cancellation when a job's owner is gone.

One Streamlit server runs every session's script in a thread of one process; on a 2-core machine
two fits at once slow each other and every click. At most ``slots`` jobs run at once; the others
wait in arrival order (first come, first served) and are told their place and an estimate.

* **Place**: 1 + the live waiting jobs that arrived before (a waiter whose owner is gone is not
  counted, and is dropped).
* **Estimate**: each running job's remaining time from its progress (elapsed · (1 − f) / f once
  it has reported some progress, else the usual duration of its kind less its elapsed time), then
  each job ahead as long as the usual duration of its kind (the mean of its last runs); None
  while nothing is known to estimate from.
* **Cancellation**: a job whose owner is gone (``alive()`` false, checked on every poll of a
  waiter and every stop check of the job itself) is marked cancelled; its own next stop check
  raises :class:`JobCancelled`. A cancelled job stops counting against the slots ``GRACE`` s
  after it was cancelled even if its thread has not reached a stop point yet, so no one waits
  behind work nobody will see.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

#: how long a cancelled job may still hold its slot before the next one is admitted anyway
GRACE = 1.0
#: how often a waiter looks again (its own stop check runs each time)
POLL = 0.2
#: the runs of a kind its usual duration is the mean of
HISTORY = 5


class JobCancelled(Exception):
    """The job's owner is gone: the job ends at its next stop point."""


class QueueTimeout(Exception):
    """No slot came free within the wait's timeout."""

    def __init__(self, seconds: float):
        super().__init__(f"no heavy-job slot came free in {seconds:.0f} s")
        self.seconds = seconds


@dataclass
class Ticket:
    """One job in the queue: queued, then running (``started`` set), then done."""

    id: int
    kind: str
    owner: str
    alive: Callable[[], bool]
    queued: float
    started: float | None = None
    fraction: float = 0.0
    cancelled: float | None = None  # when it was cancelled
    done: bool = False


@dataclass(frozen=True)
class Place:
    """What a waiting job's owner is told: its place in the queue (1: next), the jobs running,
    the seconds it has waited, the estimated seconds left to wait (None: not known yet) and the
    running jobs' kinds and progress (fractions)."""

    position: int
    running: int
    waited: float
    estimate: float | None
    ahead: tuple[tuple[str, float], ...] = field(default=())


class JobQueue:
    """At most ``slots`` jobs at once; the rest wait first come, first served (module docstring)."""

    def __init__(self, slots: int = 1, clock: Callable[[], float] = time.monotonic):
        self.slots = max(1, int(slots))
        self._clock = clock
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self._waiting: list[Ticket] = []
        self._running: list[Ticket] = []
        self._durations: dict[str, deque[float]] = {}

    # -- the lifecycle of a job ------------------------------------------------------------------
    def enqueue(self, kind: str, owner: str, alive: Callable[[], bool] = lambda: True) -> Ticket:
        with self._cond:
            ticket = Ticket(next(self._ids), kind, owner, alive, self._clock())
            self._waiting.append(ticket)
            return ticket

    def try_admit(self, ticket: Ticket) -> bool:
        """Start ``ticket`` when a slot is free and no live job arrived before it."""
        with self._cond:
            self._reap()
            if ticket.started is not None:
                return True
            if ticket not in self._waiting or ticket.cancelled is not None:
                raise JobCancelled
            if self._busy() < self.slots and self._waiting[0] is ticket:
                self._waiting.pop(0)
                ticket.started = self._clock()
                self._running.append(ticket)
                self._cond.notify_all()
                return True
            return False

    def wait(
        self,
        ticket: Ticket,
        timeout: float,
        on_wait: Callable[[Place], None] | None = None,
        poll: float = POLL,
    ) -> None:
        """Block until ``ticket`` runs. ``on_wait(place)`` is called at once and on every poll
        (its exceptions, e.g. the session's stop, take the ticket out of the queue);
        :class:`QueueTimeout` after ``timeout`` s; :class:`JobCancelled` when the owner is gone."""
        try:
            while not self.try_admit(ticket):
                place = self.place(ticket)
                if on_wait is not None:
                    on_wait(place)
                if place.waited >= timeout:
                    raise QueueTimeout(timeout)
                with self._cond:
                    self._cond.wait(max(min(poll, timeout - place.waited), 0.001))
        except BaseException:
            self.leave(ticket)
            raise

    def progress(self, ticket: Ticket, fraction: float) -> None:
        """The running job's share done (0..1), for the others' estimates."""
        ticket.fraction = min(max(float(fraction), 0.0), 1.0)

    def check(self, ticket: Ticket) -> None:
        """The job's stop check: :class:`JobCancelled` once its owner is gone."""
        if ticket.cancelled is None and not _alive(ticket):
            with self._cond:
                self._cancel(ticket)
        if ticket.cancelled is not None:
            raise JobCancelled

    def leave(self, ticket: Ticket) -> None:
        """The job ends (done, failed, stopped or cancelled): its slot goes to the next. The
        duration of a job that ran to its end feeds its kind's usual duration."""
        with self._cond:
            if ticket.done:
                return
            ticket.done = True
            if ticket in self._waiting:
                self._waiting.remove(ticket)
            if ticket in self._running:
                self._running.remove(ticket)
                if ticket.cancelled is None and ticket.started is not None and ticket.fraction >= 1.0:
                    self.record(ticket.kind, self._clock() - ticket.started)
            self._cond.notify_all()

    def finish(self, ticket: Ticket) -> None:
        """The job ran to its end: its progress is complete, then it leaves."""
        ticket.fraction = 1.0
        self.leave(ticket)

    def record(self, kind: str, seconds: float) -> None:
        with self._cond:
            self._durations.setdefault(kind, deque(maxlen=HISTORY)).append(float(seconds))

    # -- what a waiter is told ----------------------------------------------------------------------
    def usual(self, kind: str) -> float | None:
        runs = self._durations.get(kind)
        return sum(runs) / len(runs) if runs else None

    def place(self, ticket: Ticket) -> Place:
        with self._cond:
            self._reap()
            now = self._clock()
            ahead = [w for w in self._waiting if w.id < ticket.id and w.cancelled is None]
            running = [r for r in self._running if self._counts(r, now)]
            free = [self._remaining(r, now) for r in running]
            free += [0.0] * max(self.slots - len(free), 0)
            estimate: float | None = None
            if all(f is not None for f in free):
                slots = sorted(f for f in free if f is not None)
                for w in ahead:
                    usual = self.usual(w.kind)
                    if usual is None:
                        slots = []
                        break
                    slots[0] += usual
                    slots.sort()
                estimate = slots[0] if slots else None
            return Place(
                position=len(ahead) + 1,
                running=len(running),
                waited=now - ticket.queued,
                estimate=estimate,
                ahead=tuple((r.kind, r.fraction) for r in running),
            )

    def snapshot(self) -> tuple[int, int]:
        """(jobs running, jobs waiting), counting live jobs only."""
        with self._cond:
            self._reap()
            now = self._clock()
            return sum(self._counts(r, now) for r in self._running), len(self._waiting)

    # -- inside the lock ------------------------------------------------------------------------
    def _remaining(self, job: Ticket, now: float) -> float | None:
        elapsed = now - (job.started or now)
        if job.fraction >= 0.02:
            return max(elapsed * (1 - job.fraction) / job.fraction, 0.0)
        usual = self.usual(job.kind)
        return None if usual is None else max(usual - elapsed, 1.0)

    def _counts(self, job: Ticket, now: float) -> bool:
        """Whether a running job holds its slot: cancelled jobs stop counting after GRACE s."""
        return job.cancelled is None or now - job.cancelled < GRACE

    def _busy(self) -> int:
        now = self._clock()
        return sum(self._counts(r, now) for r in self._running)

    def _cancel(self, ticket: Ticket) -> None:
        if ticket.cancelled is None:
            ticket.cancelled = self._clock()
            self._cond.notify_all()

    def _reap(self) -> None:
        """Cancel the jobs whose owners are gone; drop such waiters from the queue."""
        for t in self._running:
            if t.cancelled is None and not _alive(t):
                self._cancel(t)
        for t in [w for w in self._waiting if not _alive(w)]:
            self._cancel(t)
            self._waiting.remove(t)


def _alive(ticket: Ticket) -> bool:
    try:
        return bool(ticket.alive())
    except Exception:  # an owner check that fails says nothing: the job goes on
        return True
