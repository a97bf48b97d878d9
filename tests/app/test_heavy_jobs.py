"""The heavy-job slot in the running app: a session that finds it busy says it is waiting, then
gives a clear message after the timeout; once the slot is free the same session trains."""

from __future__ import annotations

import time

from ui.sections.pruning import _alpha_curves
from ui.state import jobs
from ui.state.model import _train_cached

from .apptest import start


def _texts(els) -> str:
    return "\n".join(str(e.value) for e in els)


def _hold_slot():
    """Another session's job holding the server's one slot (its ticket, to leave later)."""
    ticket = jobs.QUEUE.enqueue("train", "another session")
    deadline = time.monotonic() + 30
    while not jobs.QUEUE.try_admit(ticket):
        assert time.monotonic() < deadline, "another test held the slot"
        time.sleep(0.05)
    return ticket


def _slot_free() -> bool:
    return jobs.QUEUE.snapshot() == (0, 0)


def test_busy_slot_waits_then_times_out_then_trains(monkeypatch):
    monkeypatch.setattr(jobs, "TIMEOUT", 1.2)
    _train_cached.clear()
    _alpha_curves.clear()
    holder = _hold_slot()
    try:
        at = start("pages/train.py")
        errors = _texts(at.error)
        assert "other sessions kept the server busy" in errors, errors
        assert "The server is busy" not in _texts(at.info), "the notice goes once done"
    finally:
        jobs.QUEUE.leave(holder)
    at.run()
    assert not at.error, _texts(at.error)
    assert not at.exception
    # the slot was given back by the run that trained: it is free again
    assert _slot_free()


def test_waiting_notice_is_shown_while_queued(monkeypatch):
    """The notice is written on the first wait (AppTest shows the final tree, so it is captured
    by replacing WaitNotice's text with a recorder)."""
    seen: list[float] = []
    monkeypatch.setattr(jobs, "TIMEOUT", 0.6)
    orig = jobs.WaitNotice.__call__

    def record(self, place):
        seen.append(place.waited)
        orig(self, place)

    monkeypatch.setattr(jobs.WaitNotice, "__call__", record)
    _train_cached.clear()
    holder = _hold_slot()
    try:
        start("pages/train.py")
    finally:
        jobs.QUEUE.leave(holder)
    assert seen and seen[0] < 0.2 and seen[-1] >= 0.6


def test_pruning_runs_and_cf_curves_take_a_slot_too(monkeypatch):
    """EBP on the Pruning page (the run and its CF curves) waits for a free slot like training,
    and says so when none comes free."""
    from ui.sections.pruning import _cf_curves, _prune

    at = start()
    at.switch_page("pages/prune.py").run()  # the default C4.5 model: EBP, with its CF curves
    assert not at.exception and not at.error, _texts(at.error)
    monkeypatch.setattr(jobs, "TIMEOUT", 0.6)
    _prune.clear()
    _cf_curves.clear()
    holder = _hold_slot()
    try:
        at.run()
        assert "other sessions kept the server busy" in _texts(at.error), _texts(at.error)
        assert not at.exception
    finally:
        jobs.QUEUE.leave(holder)
    at.run()
    assert not at.error and not at.exception
    assert _slot_free()


def test_training_shows_progress_and_a_stopped_run_gives_the_slot_back(monkeypatch):
    """The fit reports its levels to the page's progress bar; an exception raised there (as
    Streamlit raises StopException/RerunException at that call when the session has gone or
    asked for another run) ends the fit at once, caches nothing and frees the slot."""
    reports = []
    orig = jobs.ProgressBar.__call__

    def record(self, progress):
        reports.append(progress)
        orig(self, progress)

    monkeypatch.setattr(jobs, "BAR_AFTER", 0.0)
    monkeypatch.setattr(jobs, "BAR_EVERY", 0.0)
    monkeypatch.setattr(jobs.ProgressBar, "__call__", record)
    _train_cached.clear()
    at = start("pages/train.py")
    assert not at.exception
    grow = [p for p in reports if p.stage == "grow"]
    n_train = at.session_state["result"].rows["train"].size
    assert grow and grow[0].done == 0 and {p.total for p in grow} == {n_train}
    assert [p.done for p in grow] == sorted(p.done for p in grow)

    class Stopped(Exception):
        pass

    def stop(self, progress):
        if progress.depth >= 1:
            raise Stopped

    monkeypatch.setattr(jobs.ProgressBar, "__call__", stop)
    _train_cached.clear()
    try:
        _train_cached(
            *at.session_state["result"].key, _df=at.session_state["data"].df, _progress=jobs.ProgressBar(str)
        )
    except Stopped:
        pass
    else:
        raise AssertionError("the fit did not stop at the progress call")
    assert _slot_free(), "the stopped fit kept its slot"


def test_cross_validation_shows_which_fold_is_growing(monkeypatch):
    """The Pruning page's k-fold choice of α draws a bar per fold (only the folds: each fold's
    own growth stays quiet), and its redraws are where an abandoned run stops."""
    drawn = []
    orig = jobs.ProgressBar.__call__

    def record(self, progress):
        if self._stages is None or progress.stage in self._stages:
            drawn.append((progress.stage, progress.done, progress.total))
        orig(self, progress)

    monkeypatch.setattr(jobs, "BAR_AFTER", 0.0)
    monkeypatch.setattr(jobs, "BAR_EVERY", 0.0)
    monkeypatch.setattr(jobs.ProgressBar, "__call__", record)
    _alpha_curves.clear()
    at = start("pages/prune.py", sample="breast_cancer", algo="cart", prune_method="ccp", prune_cv="3")
    assert not at.exception and not at.error
    folds = [d for d in drawn if d[0] == "cv"]
    assert [(done, total) for _, done, total in folds] == [(0, 3), (1, 3), (2, 3)]


def test_sessions_uploading_the_same_file_share_one_parsed_copy():
    text = "a,b,y\n" + "".join(f"{i},{i % 3},{'xy'[i % 2]}\n" for i in range(60))
    frames = []
    for _ in range(2):
        at = start()
        at.switch_page("pages/data.py").run()
        at.file_uploader(key="upload").set_value(("same.csv", text.encode(), "text/csv")).run()
        assert not at.exception
        frames.append(at.session_state["data"].df)
    assert frames[0] is frames[1]
