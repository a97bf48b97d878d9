"""The registry of estimators by algorithm name, for the CLI, the app and model files: which class
grows which task, its criteria per task (the default first) and the parameters a UI shows.

Each class declares its criteria (``_criteria``, the default first) and the parameters a UI shows
(``ui_params``, :class:`dtcore.params.Param` records); this module only finds the class for a
name. It is part of the public API, so it imports the algorithms' packages (plain imports: the
architecture tests forbid loading the project's modules by name); no algorithm imports it.
"""

from __future__ import annotations

from typing import Any

from dtcore.base import BaseTreeEstimator
from dtcore.c45.estimator import C45Classifier
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.id3.estimator import ID3Classifier
from dtcore.params import Param

CLASSIFICATION, REGRESSION = "classification", "regression"

#: algorithm name → (classifier class, regressor class or None)
ALGORITHMS: dict[str, tuple[type[BaseTreeEstimator], type[BaseTreeEstimator] | None]] = {
    "cart": (CARTClassifier, CARTRegressor),
    "id3": (ID3Classifier, None),
    "c45": (C45Classifier, None),
}


def estimator_class(algorithm: str, task: str = "classification") -> type[BaseTreeEstimator]:
    """The class for an algorithm name ("cart", "id3", "c45") and task."""
    try:
        clf, reg = ALGORITHMS[algorithm.lower()]
    except KeyError:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {sorted(ALGORITHMS)}") from None
    cls = clf if task == "classification" else reg
    if cls is None:
        raise ValueError(f"{algorithm} builds classification trees only; use cart for a continuous target")
    return cls


def make_estimator(algorithm: str, task: str = "classification", **params: Any) -> BaseTreeEstimator:
    return estimator_class(algorithm, task)(**params)


def tasks_of(algorithm: str) -> tuple[str, ...]:
    """The tasks an algorithm has a class for (none for an unknown name)."""
    entry = ALGORITHMS.get(algorithm.lower())
    if entry is None:
        return ()
    return tuple(t for t, cls in ((CLASSIFICATION, entry[0]), (REGRESSION, entry[1])) if cls)


def criteria(algorithm: str, task: str) -> tuple[str, ...]:
    """The criteria of an algorithm for a task, the default first; () when it has no such task."""
    if task not in tasks_of(algorithm):
        return ()
    # Any: ``_criteria`` is declared by each algorithm's class, not by BaseTreeEstimator
    cls: Any = estimator_class(algorithm, task)
    return tuple(cls._criteria)


def ui_params(algorithm: str) -> tuple[Param, ...]:
    """The parameters a UI shows for an algorithm (besides criterion), in display order."""
    tasks = tasks_of(algorithm)
    if not tasks:
        return ()
    # Any: ``ui_params`` is declared by each algorithm's class, not by BaseTreeEstimator
    cls: Any = estimator_class(algorithm, tasks[0])
    return tuple(cls.ui_params)


def algorithms_for(task: str) -> tuple[str, ...]:
    """The algorithm names (sorted) that grow trees for ``task``."""
    return tuple(a for a in sorted(ALGORITHMS) if task in tasks_of(a))
