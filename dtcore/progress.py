"""Progress of long work (growing, pruning), reported to whoever listens: the app's progress bar.

A listener is installed for a block with ``reporting(callback)``; the builders call ``report``
once per level (or per split in the one-node-at-a-time builders). The listener is held in a
context variable, so the estimators keep scikit-learn's signatures and a fit with no listener
pays one lookup per level. An exception raised by the listener ends the work where it stands:
that is how the app cancels a fit whose session has gone or asked for another run (Streamlit
raises at its next call, which the listener makes).
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
    ``total`` = all rows, or splits made under ``max_leaf_nodes``) or ``"cv"`` (folds of a
    cross-validation started). ``nodes`` and ``depth`` describe the tree so far.
    """

    stage: str
    done: float
    total: float
    nodes: int = 0
    depth: int = 0

    @property
    def fraction(self) -> float:
        return min(max(self.done / self.total, 0.0), 1.0) if self.total > 0 else 0.0


Listener = Callable[[Progress], None]
_LISTENER: ContextVar[Listener | None] = ContextVar("dtcore_progress", default=None)


def report(stage: str, done: float, total: float, nodes: int = 0, depth: int = 0) -> None:
    """Tell the listener, if any, where the work stands (its exceptions propagate)."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(Progress(stage, float(done), float(total), int(nodes), int(depth)))


@contextlib.contextmanager
def reporting(listener: Listener) -> Iterator[None]:
    """Send the ``report`` calls made in this block (this thread or task) to ``listener``."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
