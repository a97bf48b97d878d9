"""The heavy-job slot in the running app: a session that finds it busy says it is waiting, then
gives a clear message after the timeout; once the slot is free the same session trains."""

from __future__ import annotations

from ui.session import jobs
from ui.session.model import _train_cached
from ui.session.pruning import _alpha_curves

from .apptest import start


def _texts(els) -> str:
    return "\n".join(str(e.value) for e in els)


def test_busy_slot_waits_then_times_out_then_trains(monkeypatch):
    monkeypatch.setattr(jobs, "TIMEOUT", 1.2)
    _train_cached.clear()
    _alpha_curves.clear()
    assert jobs._SLOTS.acquire(timeout=30), "another test held the slot"
    try:
        at = start("pages/train.py")
        errors = _texts(at.error)
        assert "other sessions kept the server busy" in errors, errors
        assert "Waiting for another session" not in _texts(at.info), "the notice goes once done"
    finally:
        jobs._SLOTS.release()
    at.run()
    assert not at.error, _texts(at.error)
    assert not at.exception
    # the slot was given back by the run that trained: it is free again
    assert jobs._SLOTS.acquire(blocking=False)
    jobs._SLOTS.release()


def test_waiting_notice_is_shown_while_queued(monkeypatch):
    """The notice is written on the first wait (AppTest shows the final tree, so it is captured
    by replacing WaitNotice's text with a recorder)."""
    seen: list[float] = []
    monkeypatch.setattr(jobs, "TIMEOUT", 0.6)
    orig = jobs.WaitNotice.__call__

    def record(self, waited):
        seen.append(waited)
        orig(self, waited)

    monkeypatch.setattr(jobs.WaitNotice, "__call__", record)
    _train_cached.clear()
    assert jobs._SLOTS.acquire(timeout=30)
    try:
        start("pages/train.py")
    finally:
        jobs._SLOTS.release()
    assert seen and seen[0] < 0.2 and seen[-1] >= 0.6
