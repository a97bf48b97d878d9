"""Progress of long work (growing, pruning, comparing), reported to whoever listens: the app's
progress bars, and its stop points.

A listener is installed for a block with ``reporting(callback, stop_check)``; the builders call
``report`` once per level (or per split in the one-node-at-a-time builders), the comparison once
per fit and per fold, and the long loops between reports (routing rows down a tree, assembling
it, encoding columns) call ``checkpoint``. Both are held in context variables, so the estimators
keep scikit-learn's signatures and work with no listener pays one lookup per call.

An exception raised by the listener or by ``stop_check`` ends the work where it stands: that is
how the app cancels work whose session has gone or asked for another run. ``stop_check`` is
called at every ``report`` and every ``checkpoint``, so it must be cheap (a flag read); the
listener is called at ``report`` only and may draw.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Progress:
    """Where the work stands: ``done`` of ``total`` units of ``stage``.

    ``stage`` is ``"grow"`` (units: training rows that have reached a leaf, so the bar ends at
    ``total`` = all rows, or splits made under ``max_leaf_nodes``), ``"cv"`` (folds of a
    cross-validation started), ``"compare"`` (fits of a comparison started: every contender on
    the training rows and on each fold) or ``"cf"`` (confidence factors of a grid pruned).
    ``nodes`` and ``depth`` describe the tree so far; ``label`` names the part of the work
    under way (a contender's key; its fold as ``key/fold``).
    """

    stage: str
    done: float
    total: float
    nodes: int = 0
    depth: int = 0
    label: str = ""

    @property
    def fraction(self) -> float:
        return min(max(self.done / self.total, 0.0), 1.0) if self.total > 0 else 0.0


Listener = Callable[[Progress], None]
StopCheck = Callable[[], None]
_LISTENER: ContextVar[Listener | None] = ContextVar("dtcore_progress", default=None)
_STOP: ContextVar[StopCheck | None] = ContextVar("dtcore_stop_check", default=None)


def report(stage: str, done: float, total: float, nodes: int = 0, depth: int = 0, label: str = "") -> None:
    """Tell the listener, if any, where the work stands (a stop point: its exceptions and the
    stop check's propagate)."""
    stop = _STOP.get()
    if stop is not None:
        stop()
    listener = _LISTENER.get()
    if listener is not None:
        listener(Progress(stage, float(done), float(total), int(nodes), int(depth), label))


def checkpoint() -> None:
    """A stop point with nothing to report: the stop check, if any, may raise here."""
    stop = _STOP.get()
    if stop is not None:
        stop()


def _nothing(_progress: Progress) -> None:
    pass


@contextlib.contextmanager
def reporting(listener: Listener | None, stop_check: StopCheck | None = None) -> Iterator[None]:
    """Send the ``report`` calls made in this block (this thread or task) to ``listener`` and
    call ``stop_check`` at every ``report`` and ``checkpoint`` (None: keep the enclosing one)."""
    token = _LISTENER.set(listener or _nothing)
    stop_token = _STOP.set(stop_check) if stop_check is not None else None
    try:
        yield
    finally:
        _LISTENER.reset(token)
        if stop_token is not None:
            _STOP.reset(stop_token)
