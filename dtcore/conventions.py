"""scikit-learn's conventions kept without importing scikit-learn at module level: the input
checks its estimator checks expect (with its messages), label types, tags and ``Bunch``.

``BaseTreeEstimator`` calls these; scikit-learn itself is only imported (lazily, through
``importlib``) when scikit-learn asks an estimator for its tags, and then it is already loaded.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
import warnings
from collections.abc import Callable, Iterable
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar, cast, overload

import numpy as np

from dtcore.schema import DataError, label_of, to_float


class NotFittedError(ValueError, AttributeError):
    """An estimator was used before ``fit``; like scikit-learn's, a ValueError and an
    AttributeError (so ``hasattr`` and scikit-learn's checks see an unfitted estimator)."""

    def __reduce__(
        self,
    ) -> tuple[Any, tuple[str]]:  # the scikit-learn flavour is made at run time: rebuild it by name
        return (not_fitted, (str(self),))


_SKLEARN_FLAVOURED: dict[type, type] = {}


def not_fitted(message: str) -> NotFittedError:
    """A NotFittedError; when scikit-learn is loaded (it is what calls us then), one that is also
    ``sklearn.exceptions.NotFittedError``, so ``except`` clauses for either catch it."""
    sk = sys.modules.get("sklearn.exceptions")
    sk_error = getattr(sk, "NotFittedError", None) if sk is not None else None
    if not isinstance(sk_error, type):
        return NotFittedError(message)
    if sk_error not in _SKLEARN_FLAVOURED:
        _SKLEARN_FLAVOURED[sk_error] = type("NotFittedError", (NotFittedError, sk_error), {})
    return _SKLEARN_FLAVOURED[sk_error](message)


_P = ParamSpec("_P")
_R = TypeVar("_R")


class ClassifierMethod(Generic[_P, _R]):
    """A method only a classifier has (``predict_proba``), as scikit-learn's ``available_if``
    makes one: on a regressor the attribute raises AttributeError (``hasattr`` is False), on a
    classifier it is the plain bound method, whose ``__name__`` scikit-learn's scorers read to pick
    the positive class's column (a property returning another method broke binary ``roc_auc``)."""

    def __init__(self, fn: Callable[Concatenate[Any, _P], _R]) -> None:
        self.fn = fn
        functools.update_wrapper(cast(Any, self), fn)  # its docstring and name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Callable[Concatenate[Any, _P], _R]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> Callable[_P, _R]: ...

    def __get__(self, obj: object, owner: type | None = None) -> Callable[..., _R]:
        if obj is None:  # on the class: the function itself (its docstring, monkeypatching)
            return self.fn
        if getattr(obj, "_task", None) != "classification":
            raise AttributeError(f"{type(obj).__name__} has no {self.fn.__name__}: it is a regressor")
        return types.MethodType(self.fn, obj)


class Bunch(dict):
    """A dict whose keys are also attributes, like ``sklearn.utils.Bunch``."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value

    def __dir__(self) -> list[str]:
        return list(self.keys())


def refuse_sparse(X: Any) -> None:
    """A numpy-only package cannot read scipy's sparse matrices: say so (TypeError, as
    scikit-learn's dense-only estimators do)."""
    if type(X).__module__.startswith("scipy.sparse"):
        raise TypeError(
            "sparse input is not supported: dtcore works on dense arrays only; "
            "pass X.toarray() (a dense array) instead"
        )


def frame_feature_names(X: Any) -> list[str] | None:
    """The column names of a DataFrame (duck-typed: a ``columns`` attribute), or None for an array
    or a frame whose columns are not all strings (scikit-learn's ``_get_feature_names`` rule: only
    string names are names)."""
    columns = getattr(X, "columns", None)
    if columns is None:
        return None
    names = list(columns)
    if not names or not all(isinstance(n, str) for n in names):
        return None
    return names


def _listed_names(names: list[str]) -> str:
    """At most five names, one ``- name`` line each, as scikit-learn lists them."""
    lines = [f"- {n}\n" for n in names[:5]]
    return "".join(lines) + ("- ...\n" if len(names) > 5 else "")


def check_feature_names(fitted: list[str], given: list[str]) -> None:
    """Refuse a frame whose columns are not the fitted features in their order, with
    scikit-learn's message (unseen names, missing names, or the order): a tree reads columns by
    position, so other columns would be read as the wrong features without a word."""
    if fitted == given:
        return
    message = "The feature names should match those that were passed during fit.\n"
    unexpected = sorted(set(given) - set(fitted))
    missing = sorted(set(fitted) - set(given))
    if unexpected:
        message += "Feature names unseen at fit time:\n" + _listed_names(unexpected)
    if missing:
        message += "Feature names seen at fit time, yet now missing:\n" + _listed_names(missing)
    if not unexpected and not missing:
        message += "Feature names must be in the same order as they were in fit.\n"
    raise ValueError(message)


def check_X_shape(X_arr: np.ndarray, *, fitting: bool) -> None:
    """1-D, empty and complex X, with the messages scikit-learn's checks match."""
    if X_arr.ndim == 1:
        raise DataError(
            f"X must be 2-D (rows × columns); expected 2D array, got 1D array instead (shape "
            f"{X_arr.shape}). Reshape your data either using array.reshape(-1, 1) if your data has "
            "a single feature or array.reshape(1, -1) if it contains a single sample."
        )
    if X_arr.ndim != 2:
        raise DataError(f"X must be 2-D (rows × columns), got shape {X_arr.shape}")
    if X_arr.dtype.kind == "c":
        raise DataError("Complex data not supported: X holds complex numbers")
    if fitting and X_arr.shape[0] == 0:
        raise DataError(
            "no rows to train on: the data is empty (a header only?); found array with 0 sample(s) "
            f"(shape={X_arr.shape}) while a minimum of 1 is required."
        )
    if fitting and X_arr.shape[1] == 0:
        raise DataError(
            "no feature columns to train on: mark at least one column as a feature; found array "
            f"with 0 feature(s) (shape={X_arr.shape}) while a minimum of 1 is required."
        )


def target_array(y: Any, name: str) -> np.ndarray:
    """y as a 1-D array of its own type: an array keeps its dtype, a list of numbers or of
    strings becomes a numeric or string array, a list mixing types an object array (each value
    kept). A column vector is flattened with a warning (scikit-learn's DataConversionWarning
    when scikit-learn is loaded)."""
    if y is None:
        raise DataError(f"{name} requires y to be passed, but the target y is None")
    if isinstance(y, np.ndarray):
        y_arr = y
    else:
        y_arr = np.asarray(y)
        if y_arr.dtype.kind in "USO" or y_arr.dtype.kind == "V":
            as_obj = np.asarray(y, dtype=object)
            if y_arr.dtype.kind != "U" or not all(isinstance(v, str) for v in as_obj.ravel().tolist()):
                y_arr = as_obj
    if y_arr.ndim == 2 and y_arr.shape[1] == 1:
        sk = sys.modules.get("sklearn.exceptions")
        category = getattr(sk, "DataConversionWarning", UserWarning) if sk is not None else UserWarning
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected: y is flattened to shape "
            f"({y_arr.shape[0]},); pass y.ravel() to silence this",
            category,
            stacklevel=3,
        )
        y_arr = y_arr.ravel()
    if y_arr.ndim != 1:
        raise DataError(f"y must be 1-D (one target per row), got shape {y_arr.shape}")
    return y_arr


def check_class_target(y_arr: np.ndarray) -> None:
    """A classifier refuses a continuous target (floats that are not all integers), complex
    labels and infinite ones, with scikit-learn's "Unknown label type" message."""
    if y_arr.dtype.kind == "c":
        raise DataError("Complex data not supported: y holds complex numbers")
    if y_arr.dtype.kind == "f" and y_arr.size:
        finite = y_arr[~np.isnan(y_arr)]
        if np.isinf(finite).any():
            raise DataError("Input y contains infinity: a class label must be finite")
        if np.any(finite != np.round(finite)):
            raise DataError(
                "Unknown label type: continuous. A classifier needs class labels; y holds "
                "non-integer numbers: use a regressor, or bin the target into classes"
            )


def typed_classes(
    y_arr: np.ndarray, codes: np.ndarray, labels: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """The class labels in y's own type: (values by class code, column order of ``classes_``).

    Class ``k`` is represented by y's value in the first row coded ``k``; a declared class no row
    holds takes its text label (in y's dtype when it converts). ``classes_`` is
    ``values[order]``: sorted as ``np.unique`` sorts, or in code order when the values do not
    compare (an object column mixing numbers and text)."""
    n = len(labels)
    present, first = np.unique(codes, return_index=True)
    values: list[Any] = list(labels)
    for k, row in zip(present.tolist(), first.tolist()):
        values[k] = y_arr[row]
    out = _in_dtype(values, labels, y_arr.dtype)
    try:
        order = np.argsort(out, kind="stable")
    except TypeError:
        order = np.arange(n)
    return out, order.astype(np.int64)


def _in_dtype(values: list[Any], labels: tuple[str, ...], dtype: np.dtype) -> np.ndarray:
    """``values`` as an array of ``dtype``; an object array when a declared label does not
    convert to that dtype and back to its own text (e.g. "maybe" among booleans)."""
    if dtype.kind in "US":
        return np.asarray(values)
    if dtype.kind != "O":
        try:
            out = np.asarray(values, dtype=dtype)
        except (TypeError, ValueError, OverflowError):
            pass
        else:
            if [label_of(v) for v in out.tolist()] == list(labels):
                return out
    obj = np.empty(len(values), dtype=object)
    obj[:] = values
    return obj


def text_label_order(labels: Iterable[str]) -> np.ndarray:
    """The order ``fit`` gives classes whose values are lost (a model file keeps their text):
    numerically when every label is a number, else as text; the positions, as ``typed_classes``."""
    labels = list(labels)
    nums = [to_float(v) for v in labels]
    if all(x is not None for x in nums):
        keys: list[Any] = nums
    else:
        keys = labels
    return np.array(sorted(range(len(labels)), key=lambda i: keys[i]), dtype=np.int64)


class _Tasked(Protocol):
    """What the tags read of an estimator (``BaseTreeEstimator`` imports this module)."""

    @property
    def _task(self) -> str: ...


def estimator_tags(estimator: _Tasked) -> Any:
    """``sklearn.utils.Tags`` for a dtcore estimator (scikit-learn ≥ 1.6 asks for them; its
    classes are loaded by name, so the result is untyped here)."""
    name = "sklearn.utils"
    tags_module = sys.modules.get(name) or importlib.import_module(name)
    classifier = estimator._task == "classification"
    return tags_module.Tags(
        estimator_type="classifier" if classifier else "regressor",
        target_tags=tags_module.TargetTags(required=True),
        classifier_tags=tags_module.ClassifierTags() if classifier else None,
        regressor_tags=None if classifier else tags_module.RegressorTags(),
        input_tags=tags_module.InputTags(allow_nan=True, categorical=True, string=True),
    )
