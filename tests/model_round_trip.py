"""Every fit the test suite makes is saved and opened again (``tests/conftest.py`` turns it on).

A model file that ``dumps_model`` writes must load: a release-8 C4.5 tree once could not
(nested subtree raising, refused by the growth check). So the fitting methods of every
estimator are wrapped: after each successful outermost fit the model goes through
``dumps_model``'s document (``model_text``) → ``model_from_dict``, and the loaded tree's arrays,
its growth history and its grown tree must equal the fitted ones. A difference is recorded, not raised inside the fit (the
CLI and the app catch errors and would hide it), and the test that made the fit fails with it.
Nothing is skipped: every estimator dtcore has is one the JSON format holds.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from dtcore.base import BaseTreeEstimator
from dtcore.cart.estimator import CARTBase
from dtcore.tree import TREE_ARRAYS, Tree

#: (class, method name) wrapped: ``fit`` calls ``fit_encoded``; the Dask engine calls ``fit_histograms``
FIT_METHODS = ((BaseTreeEstimator, "fit"), (BaseTreeEstimator, "fit_encoded"), (CARTBase, "fit_histograms"))

failures: list[str] = []
_depth = threading.local()


def tree_differences(label: str, fitted: Tree, loaded: Tree) -> list[str]:
    """What differs between two trees, array by array (NaN equals NaN; none is expected)."""
    out = []
    for name in TREE_ARRAYS:
        a, b = getattr(fitted, name), getattr(loaded, name)
        if a.shape != b.shape or not np.array_equal(a, b, equal_nan=a.dtype.kind == "f"):
            out.append(f"{label}.{name}")
    if fitted.n_classes != loaded.n_classes:
        out.append(f"{label}.n_classes")
    for name in ("saw_missing", "cut_below", "cut_above"):
        a, b = getattr(fitted, name), getattr(loaded, name)
        if (a is None) != (b is None) or (a is not None and not np.array_equal(a, b)):
            out.append(f"{label}.{name}")
    return out


def model_text(est: Any) -> str:
    """The document ``dumps_model`` writes, without its indentation: ``indent`` makes ``json.dumps``
    use its pure-Python encoder, a third of this check's time on every fit of the suite; without it
    the C encoder writes the same document (tests/test_model_round_trip.py holds that the two texts
    differ in whitespace only)."""
    from dtcore.export.model_json import model_to_dict

    return json.dumps(model_to_dict(est), ensure_ascii=False, allow_nan=False)


def round_trip_differences(est: Any) -> list[str]:
    """Save ``est`` as JSON, load it back: what the loaded model lost or changed."""
    from dtcore.export.model_json import model_from_dict

    try:
        back = model_from_dict(json.loads(model_text(est)), type(est))
    except Exception as exc:  # the point: a saved model that does not open again
        return [f"the saved model does not load: {type(exc).__name__}: {exc}"]
    out = tree_differences("tree_", est.tree_, back.tree_)
    if not hasattr(est, "build_order_"):
        return out
    if not hasattr(back, "build_order_"):
        return [*out, "the growth history was not saved (it does not replay to tree_)"]
    if back.build_rule_ != est.build_rule_ or not np.array_equal(back.build_order_, est.build_order_):
        out.append("build_order_/build_rule_")
    if [s.to_dict() for s in back.prune_steps_] != [s.to_dict() for s in est.prune_steps_]:
        out.append("prune_steps_")
    return out + tree_differences("grown_tree_", est.grown_tree_, back.grown_tree_)


def checked(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def fit(self: Any, *args: Any, **kwargs: Any) -> Any:
        depth = getattr(_depth, "n", 0)
        _depth.n = depth + 1
        try:
            result = method(self, *args, **kwargs)
        finally:
            _depth.n = depth
        if depth == 0:
            diffs = round_trip_differences(self)
            if diffs:
                failures.append(f"{self!r}.{method.__name__}: {'; '.join(diffs)}")
        return result

    return fit


@contextmanager
def every_fit_round_tripped() -> Iterator[None]:
    """Wrap the fitting methods for the duration (the test session)."""
    saved = [(cls, name, cls.__dict__[name]) for cls, name in FIT_METHODS]
    for cls, name, method in saved:
        setattr(cls, name, checked(method))
    try:
        yield
    finally:
        for cls, name, method in saved:
            setattr(cls, name, method)


def take_failures() -> list[str]:
    """The differences recorded since the last call (and forget them)."""
    out = failures[:]
    del failures[: len(out)]
    return out
