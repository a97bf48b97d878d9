"""The registry of estimators by algorithm name, for the CLI, the app and model files: which class
grows which task, its criteria per task (the default first) and the parameters a UI shows.

Each class declares its criteria (``_criteria``) and UI parameters (``ui_params``); for classes
that do not declare them yet, :data:`DECLARATIONS` holds them by algorithm name. Imports are lazy
so that each algorithm's module loads only when it is asked for.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from .params import GROWTH_LIMITS, Param

CLASSIFICATION, REGRESSION = "classification", "regression"

#: algorithm name → (module, classifier class, regressor class or None)
ALGORITHMS = {
    "cart": ("dtcore.cart", "CARTClassifier", "CARTRegressor"),
    "id3": ("dtcore.id3", "ID3Classifier", None),
    "c45": ("dtcore.c45", "C45Classifier", None),
}


@dataclass(frozen=True)
class Declaration:
    """What an estimator class would declare itself: criteria per task and its UI parameters."""

    criteria: dict = field(default_factory=dict)   # task → criteria, the default first
    params: tuple[Param, ...] = ()


#: declarations of the classes that do not carry them yet (to move onto ``ID3Classifier`` and
#: ``C45Classifier`` as ``_criteria``/``ui_params``)
DECLARATIONS: dict[str, Declaration] = {
    # ID3 proper has no continuous features; the app's default is the binary threshold (SPEC §4)
    # because "intervals" (one branch per distinct value) makes unreadably wide trees on real data
    "id3": Declaration(
        {CLASSIFICATION: ("gain", "gain_ratio")},
        (Param("continuous", "select", "threshold", ("threshold", "intervals", "equal_width",
                                                     "equal_frequency", "kmeans")),
         Param("n_bins", "int", 5, lo=2, hi=20, step=1)) + GROWTH_LIMITS),
    "c45": Declaration(
        {CLASSIFICATION: ("gain_ratio", "gain")},
        (Param("threshold", "select", "c45", ("c45", "midpoint")),
         Param("mdl_penalty", "bool", True),
         Param("min_cases", "int", 2, lo=1, hi=1000, step=1),
         Param("prune", "bool", True),
         Param("confidence_factor", "float", 0.25, lo=0.001, hi=0.5, step=0.01),
         Param("z", "select", "c45", ("c45", "normal")),
         Param("subtree_raising", "bool", True),
         Param("collapse", "bool", True))),
}


def estimator_class(algorithm: str, task: str = "classification"):
    """The class for an algorithm name ("cart", "id3", "c45") and task."""
    try:
        module, clf, reg = ALGORITHMS[algorithm.lower()]
    except KeyError:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {sorted(ALGORITHMS)}") from None
    name = clf if task == "classification" else reg
    if name is None:
        raise ValueError(f"{algorithm} builds classification trees only; use cart for a continuous target")
    return getattr(importlib.import_module(module), name)


def make_estimator(algorithm: str, task: str = "classification", **params):
    return estimator_class(algorithm, task)(**params)


def tasks_of(algorithm: str) -> tuple[str, ...]:
    """The tasks an algorithm has a class for (none for an unknown name)."""
    entry = ALGORITHMS.get(algorithm.lower())
    if entry is None:
        return ()
    return tuple(t for t, cls in ((CLASSIFICATION, entry[1]), (REGRESSION, entry[2])) if cls)


def criteria(algorithm: str, task: str) -> tuple[str, ...]:
    """The criteria of an algorithm for a task, the default first; () when it has no such task."""
    if task not in tasks_of(algorithm):
        return ()
    declared = DECLARATIONS.get(algorithm.lower())
    if declared is not None:
        return tuple(declared.criteria.get(task, ()))
    return tuple(estimator_class(algorithm, task)._criteria)


def ui_params(algorithm: str) -> tuple[Param, ...]:
    """The parameters a UI shows for an algorithm (besides criterion), in display order."""
    declared = DECLARATIONS.get(algorithm.lower())
    if declared is not None:
        return declared.params
    tasks = tasks_of(algorithm)
    if not tasks:
        return ()
    return tuple(estimator_class(algorithm, tasks[0]).ui_params)


def algorithms_for(task: str) -> tuple[str, ...]:
    """The algorithm names (sorted) that grow trees for ``task``."""
    return tuple(a for a in sorted(ALGORITHMS) if task in tasks_of(a))
