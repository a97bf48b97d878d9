"""The server's queue of heavy jobs (ui/services/job_queue.py), without a browser: first come
first served, each waiter's place and estimate, and cancellation when a job's owner is gone;
and through ui/state/jobs.heavy_job, a fit whose owner left stops at dtcore's next stop point."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import StopException

from dtcore.cart.estimator import CARTClassifier
from dtcore.progress import Progress, reporting
from ui.services import job_queue as Q
from ui.services.job_queue import JobCancelled, JobQueue
from ui.state import jobs


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Owner:
    """A session that can leave (its tab closed)."""

    def __init__(self) -> None:
        self.here = True

    def __call__(self) -> bool:
        return self.here


def test_first_come_first_served_and_each_waiters_place():
    q = JobQueue(1)
    a, b, c = (q.enqueue("train", name) for name in "abc")
    assert not q.try_admit(b), "b arrived after a: it does not jump the queue"
    assert q.try_admit(a)
    assert not q.try_admit(c)
    assert (q.place(b).position, q.place(c).position) == (1, 2)
    assert q.place(b).running == 1
    q.leave(a)
    assert not q.try_admit(c), "b is next, not c"
    assert q.try_admit(b)
    assert q.place(c).position == 1
    q.leave(b)
    assert q.try_admit(c)
    q.leave(c)
    assert q.snapshot() == (0, 0)


def test_two_slots_admit_two():
    q = JobQueue(2)
    a, b, c = (q.enqueue("train", name) for name in "abc")
    assert q.try_admit(a) and q.try_admit(b) and not q.try_admit(c)
    assert q.place(c).running == 2


def test_the_estimate_from_the_running_jobs_progress_then_the_usual_duration_of_those_ahead():
    clock = Clock()
    q = JobQueue(1, clock=clock)
    a = q.enqueue("compare", "a")
    assert q.try_admit(a)
    b, c = q.enqueue("train", "b"), q.enqueue("train", "c")
    assert q.place(b).estimate is None, "nothing is known yet: no estimate, not a guess"
    clock.now += 10
    q.progress(a, 0.25)  # a quarter in 10 s: 30 s left
    assert q.place(b).estimate == pytest.approx(30)
    assert q.place(b).ahead == (("compare", 0.25),)
    assert q.place(c).estimate is None, "b's duration is not known yet"
    q.record("train", 40)
    q.record("train", 20)  # usual training: 30 s
    assert q.place(c).estimate == pytest.approx(60)
    assert q.place(b).waited == pytest.approx(10)


def test_a_running_job_with_no_progress_yet_is_estimated_from_its_kinds_usual_duration():
    clock = Clock()
    q = JobQueue(1, clock=clock)
    q.record("cv", 50)
    a = q.enqueue("cv", "a")
    assert q.try_admit(a)
    b = q.enqueue("train", "b")
    clock.now += 20
    assert q.place(b).estimate == pytest.approx(30)


def test_only_finished_jobs_feed_the_usual_duration():
    clock = Clock()
    q = JobQueue(1, clock=clock)
    a = q.enqueue("train", "a")
    q.try_admit(a)
    clock.now += 5
    q.leave(a)  # stopped half-way: says nothing of how long a training takes
    assert q.usual("train") is None
    b = q.enqueue("train", "b")
    q.try_admit(b)
    clock.now += 8
    q.finish(b)
    assert q.usual("train") == pytest.approx(8)


def test_a_job_whose_owner_is_gone_is_cancelled_and_frees_its_slot_after_the_grace():
    clock = Clock()
    q = JobQueue(1, clock=clock)
    owner = Owner()
    a = q.enqueue("compare", "a", owner)
    assert q.try_admit(a)
    b = q.enqueue("train", "b")
    q.check(a)  # the owner is here: nothing happens
    owner.here = False
    with pytest.raises(JobCancelled):
        q.check(a)  # the job's next stop point ends it
    assert not q.try_admit(b), "within the grace the cancelled job still counts"
    clock.now += Q.GRACE
    assert q.try_admit(b), "a job nobody will see no longer blocks the queue"
    q.leave(a)  # its thread reached a stop point at last
    assert q.snapshot() == (1, 0)


def test_waiters_whose_owner_is_gone_leave_the_queue():
    q = JobQueue(1)
    a = q.enqueue("train", "a")
    q.try_admit(a)
    gone = Owner()
    b = q.enqueue("train", "b", gone)
    c = q.enqueue("train", "c")
    assert q.place(c).position == 2
    gone.here = False
    assert q.place(c).position == 1, "the left session's job is no longer ahead"
    with pytest.raises(JobCancelled):
        q.try_admit(b)
    q.leave(a)
    assert q.try_admit(c)


def test_wait_admits_when_the_holder_leaves_and_reports_the_place():
    q = JobQueue(1)
    a = q.enqueue("train", "a")
    q.try_admit(a)
    b = q.enqueue("train", "b")
    places: list[Q.Place] = []
    threading.Timer(0.3, q.leave, args=(a,)).start()
    t0 = time.monotonic()
    q.wait(b, timeout=10, on_wait=places.append, poll=0.05)
    assert time.monotonic() - t0 < 1.0, "admitted as soon as the slot came free"
    assert places and places[0].position == 1
    q.leave(b)


def test_wait_times_out_and_leaves_the_queue():
    q = JobQueue(1)
    a = q.enqueue("train", "a")
    q.try_admit(a)
    b = q.enqueue("train", "b")
    with pytest.raises(Q.QueueTimeout):
        q.wait(b, timeout=0.2, poll=0.05)
    assert q.snapshot() == (1, 0)


def _data(n: int = 20000) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(n, 5))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=n) > 0).astype(int)
    return X, y


def test_a_fit_whose_owner_left_stops_at_the_next_stop_point_and_the_next_job_runs(monkeypatch):
    """heavy_job installs the queue's check as dtcore's stop check: the owner's tab closes while
    its fit runs; the fit ends (StopException, Streamlit's quiet end of a run) within a fraction
    of a second, and a waiting job starts."""
    q = JobQueue(1)
    owner = Owner()
    monkeypatch.setattr(jobs, "_owner", lambda: ("tab", owner, lambda: None))
    X, y = _data()
    growing, outcome = threading.Event(), {}

    def first():  # its listener never draws: the stop comes from the queue's check, not Streamlit
        try:
            with jobs.heavy_job(slots=q), reporting(lambda p: growing.set()):
                CARTClassifier(max_depth=None, min_samples_leaf=1).fit(X, y)
                outcome["first"] = "finished"
        except StopException:
            outcome["first"] = "stopped"
            outcome["stopped_at"] = time.monotonic()

    thread = threading.Thread(target=first)
    thread.start()
    assert growing.wait(10)
    owner.here = False
    gone_at = time.monotonic()
    monkeypatch.setattr(jobs, "_owner", lambda: ("other", lambda: True, lambda: None))
    with jobs.heavy_job(slots=q, timeout=10):
        started = time.monotonic() - gone_at
    thread.join(10)
    assert outcome["first"] == "stopped"
    assert outcome["stopped_at"] - gone_at < 1.0
    assert started < 1.5
    assert q.snapshot() == (0, 0)


def test_the_waiting_notice_is_redrawn_at_most_once_a_second_and_only_when_its_text_changes(monkeypatch):
    drawn: list[str] = []
    clock = Clock()
    monkeypatch.setattr(jobs.time, "monotonic", clock)
    notice = jobs.WaitNotice(lambda place: f"number {place.position}")
    monkeypatch.setattr(notice, "_show", lambda draw: drawn.append("draw"))

    def place(position: int) -> Q.Place:
        return Q.Place(position=position, running=1, waited=0.0, estimate=None)

    for _ in range(10):  # polled five times a second for two seconds, the same text
        notice(place(2))
        clock.now += 0.2
    assert len(drawn) == 1, "the same text is not sent again"
    notice(place(1))
    notice(place(2))  # changed twice within a second: the second change waits
    assert len(drawn) == 2
    clock.now += 1.0
    notice(place(2))
    assert len(drawn) == 3


def test_a_comparison_reports_its_fits_and_folds():
    from dtcore.analysis import compare as C

    X, y = _data(600)
    seen: list[Progress] = []
    idx = np.arange(600)
    with reporting(seen.append):
        C.compare(
            X.astype(object), y.astype(object), {"train": idx[:400], "test": idx[400:]}, keys=["cart", "c45"]
        )
    mine = [(p.done, p.total, p.label) for p in seen if p.stage == "compare"]
    assert mine[0] == (0, 12, "cart") and mine[1] == (1, 12, "cart/0") and mine[6] == (6, 12, "c45")
    assert mine[-1][:2] == (12, 12)
    assert [d for d, _, _ in mine] == sorted(d for d, _, _ in mine)
