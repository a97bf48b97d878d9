"""Running recursive tree walks without Python recursion (deep trees: thousands of levels).

A walk written as a generator yields the arguments of each sub-call and receives its result,
``total += yield (child, rows)``; :func:`run` drives the generators on an explicit stack, so the
order of every step and of every floating-point operation is that of the recursive version while
the depth of the tree no longer reaches Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, TypeVar

R = TypeVar("R")

#: a walk step: yields sub-call arguments (a tuple), receives each result, returns its own
Step = Generator[tuple[Any, ...], Any, R]


def run(step: Callable[..., Step[R]], *args: Any) -> R:
    """``step(*args)`` run to completion, every ``yield args2`` evaluated as ``step(*args2)``."""
    stack: list[Step[Any]] = [step(*args)]
    value: Any = None
    while True:
        try:
            call = stack[-1].send(value)
        except StopIteration as stop:
            stack.pop()
            if not stack:
                return stop.value
            value = stop.value
            continue
        stack.append(step(*call))
        value = None
