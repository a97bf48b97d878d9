"""ui/state/jobs: at most N heavy jobs at once (the queue, ui/services/job_queue.py), the others
wait (with a notice) or time out, and the slot is released however the guarded block ends (a
stopped session included)."""

from __future__ import annotations

import threading
import time

import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException

from ui.services.job_queue import JobQueue
from ui.state import jobs


def _hold(sem, started, release, errors):
    try:
        with jobs.heavy_job(slots=sem):
            started.set()
            release.wait(5)
    except Exception as exc:  # pragma: no cover - reported below
        errors.append(exc)


def test_second_job_waits_for_the_first():
    sem = JobQueue(1)
    started, release, errors = threading.Event(), threading.Event(), []
    first = threading.Thread(target=_hold, args=(sem, started, release, errors))
    first.start()
    assert started.wait(5)
    waits: list[float] = []
    entered = threading.Event()

    def second():
        with jobs.heavy_job(on_wait=waits.append, timeout=10, slots=sem):
            entered.set()

    t2 = threading.Thread(target=second)
    t2.start()
    time.sleep(0.8)
    assert not entered.is_set(), "the second job ran while the only slot was held"
    assert waits and waits[0].waited == pytest.approx(0, abs=0.2), "the waiting notice is shown at once"
    release.set()
    assert entered.wait(5)
    first.join(5)
    t2.join(5)
    assert not errors
    assert sem.snapshot() == (0, 0), "both slots' holders released"


def test_two_slots_run_two_jobs_at_once():
    sem = JobQueue(2)
    with jobs.heavy_job(slots=sem), jobs.heavy_job(on_wait=lambda s: pytest.fail("waited"), slots=sem):
        pass


def test_timeout_raises_a_training_error_and_takes_no_slot():
    sem = JobQueue(1)
    holder = sem.enqueue("train", "other")
    assert sem.try_admit(holder)
    waits = []
    with pytest.raises(jobs.JobTimeout) as info, jobs.heavy_job(on_wait=waits.append, timeout=0.3, slots=sem):
        pytest.fail("ran without a slot")
    assert info.value.key == "train.err.busy"
    assert waits[-1].waited >= 0.3
    assert sem.snapshot() == (1, 0), "the waiter left the queue; the holder still runs"
    sem.leave(holder)


@pytest.mark.parametrize(
    "exc", [RuntimeError("fit failed"), MemoryError(), StopException(), RerunException(None)]
)
def test_slot_released_however_the_block_ends(exc):
    sem = JobQueue(1)
    with pytest.raises(type(exc)), jobs.heavy_job(slots=sem):
        raise exc
    assert sem.snapshot() == (0, 0)


def test_stopped_waiter_leaves_the_queue_and_keeps_the_slot_free():
    """A session stopped while queued: Streamlit raises StopException at its next Streamlit call,
    here the notice refresh; it leaves without taking (or releasing) the slot."""
    sem = JobQueue(1)
    holder = sem.enqueue("train", "other")
    assert sem.try_admit(holder)

    def stopped(place):
        if place.waited > 0.2:
            raise StopException()

    with pytest.raises(StopException), jobs.heavy_job(on_wait=stopped, timeout=10, slots=sem):
        pytest.fail("ran without a slot")
    sem.leave(holder)
    assert sem.snapshot() == (0, 0)


def test_a_stopped_session_in_another_thread_does_not_block_the_next():
    """The shared process-wide semaphore: a script thread stopped inside its job (StopException
    at the next Streamlit call) releases the slot for the next session's thread."""
    inside, outcome = threading.Event(), []

    def session_a():
        try:
            with jobs.heavy_job():
                inside.set()
                time.sleep(0.2)
                raise StopException()
        except StopException:
            outcome.append("stopped")

    a = threading.Thread(target=session_a)
    a.start()
    assert inside.wait(5)
    with jobs.heavy_job(on_wait=lambda s: None, timeout=5):
        outcome.append("b ran")
    a.join(5)
    assert outcome == ["stopped", "b ran"]


def test_env_settings(monkeypatch):
    assert jobs._env_number("NOPE_UNSET", 1, 1) == 1
    monkeypatch.setenv("DTREE_X", "3")
    assert jobs._env_number("DTREE_X", 1, 1) == 3
    monkeypatch.setenv("DTREE_X", "0")
    assert jobs._env_number("DTREE_X", 1, 1) == 1
    monkeypatch.setenv("DTREE_X", "many")
    assert jobs._env_number("DTREE_X", 1, 1) == 1
