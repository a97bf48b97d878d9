"""The estimators by algorithm name, for the CLI, the app and model files.

Imports are lazy so that each algorithm's module loads only when it is asked for.
"""
from __future__ import annotations

import importlib

#: algorithm name → (module, classifier class, regressor class or None)
ALGORITHMS = {
    "cart": ("dtcore.cart", "CARTClassifier", "CARTRegressor"),
    "id3": ("dtcore.id3", "ID3Classifier", None),
    "c45": ("dtcore.c45", "C45Classifier", None),
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
