"""What every dtcore estimator shares: scikit-learn's conventions without importing scikit-learn.

A concrete estimator sets ``_task`` ("classification" or "regression"), lists its constructor
parameters in ``__init__`` (stored unchanged, as scikit-learn requires) and implements
``_grow(X, y, sample_weight) -> Tree`` on already-encoded arrays: X float64 (category codes,
NaN = missing), y int64 class codes or float64 values, weights float64 > 0.
"""

from __future__ import annotations

import ctypes
import inspect
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from dtcore.conventions import (
    ClassifierMethod,
    NotFittedError,
    check_class_target,
    check_feature_names,
    check_X_shape,
    estimator_tags,
    frame_feature_names,
    not_fitted,
    refuse_sparse,
    target_array,
    text_label_order,
    typed_classes,
)
from dtcore.node_rows import missing_seen, record_neighbours
from dtcore.progress import checkpoint
from dtcore.schema import (
    CATEGORICAL,
    DataError,
    Schema,
    encode_features,
    encode_regression_target,
    infer_schema,
    label_of,
    target_encoding,
)
from dtcore.tree import Tree

__all__ = ["BaseTreeEstimator", "NotFittedError"]

_Est = TypeVar("_Est", bound="BaseTreeEstimator")  # fit/set_params return the estimator itself

#: Just under glibc's largest dynamic mmap threshold (32 MB on 64-bit). glibc serves a request
#: of at least its mmap threshold (128 KB in a fresh process) with a new mapping whose pages fault
#: in on first touch, and gives a freed heap top above its trim threshold back to the system; a
#: builder's level scans make thousands of temporaries of 0.1-10 MB, so each would pay its page
#: faults again (exact CART on 10⁴ rows: 0.24 s instead of 0.14 s, depending on what the process
#: happened to free before). Freeing one mapped block of this size raises both thresholds for
#: the rest of the process (to this size and twice it), as freeing any big array does.
HEAP_WARMUP_BYTES = (1 << 25) - (1 << 16)
_heap_warmed = [False]


def warm_heap() -> None:
    """Make the C allocator keep a fit's temporaries on the heap (once per process). The block
    comes from the C library's own malloc, never touched (no page is faulted in) and invisible to
    ``tracemalloc``, which numpy's buffers would not be; without a C library to call (not glibc,
    not found), nothing is done."""
    if _heap_warmed[0]:
        return
    _heap_warmed[0] = True
    try:
        libc = ctypes.CDLL(None)
        libc.malloc.restype = ctypes.c_void_p
        libc.free.argtypes = [ctypes.c_void_p]
        libc.free(libc.malloc(HEAP_WARMUP_BYTES))
    except (OSError, AttributeError, TypeError):
        pass


class BaseTreeEstimator:
    _task = "classification"
    algorithm = "?"
    _n_samples_fit: int  # the rows fractional limits are shares of (set by ``fit_encoded``)
    #: where an imported tree came from (``dtcore.export.origin.ModelOrigin``, which this kernel
    #: cannot import); None for a tree dtcore grew itself
    origin_: Any = None

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's tags (≥ 1.6): classifier or regressor, missing values allowed."""
        return estimator_tags(self)

    def _more_tags(self) -> dict[str, Any]:
        """The same tags for scikit-learn < 1.6 (which reads ``_more_tags`` and
        ``_estimator_type``; later versions read ``__sklearn_tags__`` only)."""
        return {"allow_nan": True, "requires_y": True, "X_types": ["2darray", "categorical", "string"]}

    @property
    def _estimator_type(self) -> str:
        return "classifier" if self._task == "classification" else "regressor"

    # -- parameters ----------------------------------------------------------------------------
    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [p for p in sig.parameters if p != "self"]

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self: _Est, **params: Any) -> _Est:
        valid = self._param_names()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(f"{type(self).__name__} has no parameter {key!r}; it has {valid}")
            setattr(self, key, value)
        return self

    #: the notebook view of a fitted estimator (``dtcore.export.notebook.repr_html``), set by
    #: ``import dtcore``: this kernel cannot import the export layer, which imports it
    html_view: ClassVar[Callable[[BaseTreeEstimator], str | None] | None] = None

    def _repr_html_(self) -> str | None:
        """Jupyter's rich display: the pan/zoom tree (None before fit: the text repr shows)."""
        view = BaseTreeEstimator.html_view
        return None if view is None else view(self)

    def __repr__(self) -> str:
        defaults = {p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values()}
        changed = [f"{k}={v!r}" for k, v in self.get_params().items() if defaults.get(k) != v]
        return f"{type(self).__name__}({', '.join(changed)})"

    # -- fitting -------------------------------------------------------------------------------
    def fit(
        self: _Est,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        *,
        feature_names: Iterable[str] | None = None,
        feature_kinds: Sequence[str | None] | dict[str, str] | None = None,
        categories: Mapping[str, Iterable[str]] | None = None,
        classes: Iterable[str] | None = None,
        target_name: str = "y",
    ) -> _Est:
        """Fit on raw rows.

        X: 2-D array; numeric arrays are all-continuous unless ``feature_kinds`` says otherwise,
        object arrays may mix numbers and labels. ``feature_kinds``: list or dict of
        "continuous"/"categorical" (inferred where absent). ``categories``: dict name → labels in
        declared order. ``classes``: class labels in declared order (default: sorted numbers, or
        first appearance); that order, as text, is ``schema_.classes`` (display, C4.5's ties),
        while ``classes_`` holds y's own values sorted as ``np.unique`` sorts them (the columns of
        ``predict_proba``). y may be any 1-D array or list of labels (or numbers, for a regressor).
        """
        refuse_sparse(X)
        named = feature_names is not None or frame_feature_names(X) is not None
        if feature_names is None and hasattr(X, "columns"):  # a DataFrame, without importing pandas
            frame: Any = X  # pandas' types are not imported here: its attributes are read untyped
            feature_names = [str(c) for c in frame.columns]
            X = frame.to_numpy(dtype=object)
        X_arr = np.asarray(X) if isinstance(X, np.ndarray) else np.asarray(X, dtype=object)
        check_X_shape(X_arr, fitting=True)
        n = X_arr.shape[0]
        y_arr = target_array(y, type(self).__name__)
        if y_arr.shape[0] != n:
            raise DataError(f"X has {n} rows but y has {y_arr.shape[0]}")
        if self._task == "classification":
            check_class_target(y_arr)
        schema = infer_schema(X_arr, feature_names, feature_kinds, categories, target=target_name)
        Xe = encode_features(X_arr, schema)
        y_enc, cls = target_encoding(y_arr, self._task, classes, schema.missing_tokens, target_name)
        if self._task == "classification":
            schema = Schema(schema.features, target_name, cls, schema.missing_tokens)
        w = self._check_weight(sample_weight, n)
        keep = w > 0  # a row of weight 0 is no training case, as in scikit-learn: no threshold
        # snaps to its value, no bin edge or row count includes it (its label is still a class)
        # fractional ``min_samples_*`` are shares of every row, zero weights included (scikit-learn)
        y_fit = np.asarray(y_enc)
        if not keep.all():  # a copy of the table only when some row goes
            Xe, y_fit, w = Xe[keep], y_fit[keep], w[keep]
        self.fit_encoded(Xe, y_fit, schema, w, n_samples=n)
        self._fitted_with_names = named
        if self._task == "classification":
            self._class_values, self._proba_columns = typed_classes(y_arr, y_enc, cls or ())
            self.classes_ = self._class_values[self._proba_columns]
        return self

    def fit_encoded(
        self: _Est,
        X: np.ndarray,
        y: np.ndarray,
        schema: Schema,
        sample_weight: ArrayLike | None = None,
        *,
        n_samples: int | None = None,
    ) -> _Est:
        """Fit on arrays already encoded against ``schema``.

        Unlike :meth:`fit`, rows of weight 0 stay part of the training set here: growth ignores
        them, but C4.5 snaps thresholds to (and ID3 bins over) all its values. ``dtcore.analysis.forcing``
        relies on this when it regrows one child of a node with the other rows at weight 0.
        ``n_samples``: the row count fractional limits are shares of (default: X's rows; ``fit``
        passes its own count, the rows of weight 0 it dropped included, as scikit-learn counts)."""
        w = self._check_weight(sample_weight, X.shape[0])
        self._validate_params()
        warm_heap()
        self._set_schema(schema)
        self._n_samples_fit = X.shape[0] if n_samples is None else int(n_samples)
        self.tree_ = self._grow(np.ascontiguousarray(X, dtype=np.float64), y, w)
        checkpoint()  # what the tree learns of its rows below: stop points too (dtcore.progress)
        self.tree_.saw_missing = missing_seen(self.tree_, X, w)
        for tree in {
            id(t): t for t in (self.tree_, getattr(self, "grown_tree_", None)) if t is not None
        }.values():
            if tree.cut_below is None or tree.cut_above is None:  # exact CART's scan gives them
                record_neighbours(tree, X, w)
        return self

    def _set_schema(self, schema: Schema) -> None:
        """The fitted attributes that follow from the schema (also used when loading a model)."""
        self.schema_ = schema
        # a model file or the app's schema names its features; ``fit`` says whether X had names
        self._fitted_with_names = True
        self.n_features_in_ = len(schema.features)
        self.feature_names_in_ = np.array(schema.names, dtype=object)
        if schema.is_classifier:
            # the text labels (a loaded model, the app's ``fit_encoded``), sorted as ``fit`` sorts
            # the labels they stand for; ``fit`` replaces them by y's own values
            self._class_values = np.array(schema.classes, dtype=object)
            self._proba_columns = text_label_order(schema.classes or ())
            self.classes_ = self._class_values[self._proba_columns]
            self.n_classes_ = len(schema.classes or ())

    @staticmethod
    def _check_weight(sample_weight: ArrayLike | None, n: int) -> np.ndarray:
        if sample_weight is None:
            return np.ones(n)
        w = np.asarray(sample_weight, dtype=np.float64).ravel()
        if w.shape[0] != n:
            raise DataError(f"sample_weight has {w.shape[0]} entries for {n} rows")
        if not np.all(np.isfinite(w)) or (w < 0).any():
            raise DataError("sample_weight must be finite and non-negative")
        if not (w > 0).any():
            raise DataError("every sample weight is zero: nothing to train on")
        return w

    def _validate_params(self) -> None:
        """Subclasses check their parameters here and raise ValueError with the fix."""

    def _grow(
        self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray
    ) -> Tree:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- prediction ----------------------------------------------------------------------------
    def _check_fitted(self) -> None:
        if not hasattr(self, "tree_"):
            raise not_fitted(f"this {type(self).__name__} is not fitted yet: call fit first")

    def encode(self, X: ArrayLike) -> np.ndarray:
        """Raw rows → the float64 matrix the tree reads (unseen labels become missing).

        A DataFrame's columns must be the fitted features in their order (ValueError otherwise,
        as in scikit-learn): the tree reads columns by position. An array is read by position."""
        self._check_fitted()
        refuse_sparse(X)
        given = frame_feature_names(X)
        if given is not None:
            if getattr(self, "_fitted_with_names", True):
                check_feature_names(list(self.schema_.names), given)
            else:
                warnings.warn(
                    f"X has feature names, but {type(self).__name__} was fitted without feature names",
                    UserWarning,
                    stacklevel=3,
                )
        if hasattr(X, "columns"):  # a DataFrame (pandas' types are not imported: read untyped)
            frame: Any = X
            X = frame.to_numpy(dtype=object)
        X_arr = X if isinstance(X, np.ndarray) else np.asarray(X, dtype=object)
        check_X_shape(X_arr, fitting=False)
        if X_arr.shape[1] != self.n_features_in_:
            raise DataError(
                f"X has {X_arr.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input ({', '.join(self.schema_.names)})"
            )
        return encode_features(X_arr, self.schema_)

    @ClassifierMethod
    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities of each row, columns in the order of ``classes_``.

        A classifier's method only: a regressor has no such attribute (``hasattr`` is False, as
        scikit-learn expects)."""
        Xe = self.encode(X)
        return self.tree_.predict_proba(Xe)[:, self._proba_columns]

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class (of y's own type) or the value of each row."""
        Xe = self.encode(X)
        if self._task == "classification":
            # argmax of the probabilities in the schema's order: ties give the class declared first
            return self._class_values[self.tree_.predict_column(Xe)]
        return self.tree_.predict_value(Xe)

    def score(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
        """Accuracy for classifiers, R² for regressors (scikit-learn's choices)."""
        pred = self.predict(X)
        w = self._check_weight(sample_weight, len(pred))
        if self._task == "classification":  # labels compare as text: 1, 1.0 and "1" are one class
            truth = [label_of(v) for v in np.asarray(y, dtype=object).ravel()]
            said = [label_of(v) for v in pred.tolist()]
            return float(np.average(np.array(said, dtype=object) == np.array(truth, dtype=object), weights=w))
        y = encode_regression_target(y)
        ss_res = np.sum(w * (y - pred) ** 2)
        ss_tot = np.sum(w * (y - np.average(y, weights=w)) ** 2)
        return float(1 - ss_res / ss_tot) if ss_tot > 0 else 0.0

    def apply(self, X: ArrayLike) -> np.ndarray:
        return self.tree_.apply(self.encode(X))

    def decision_path(self, X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """The nodes each row visits, as the ``(indptr, indices)`` arrays of a CSR indicator
        matrix (paths root first); scikit-learn's sparse matrix is one line with scipy:
        ``scipy.sparse.csr_matrix((np.ones(len(indices)), indices, indptr),
        shape=(len(X), est.node_count))``."""
        return self.tree_.decision_path(self.encode(X))

    @property
    def feature_importances_(self) -> np.ndarray:
        self._check_fitted()
        return self.tree_.feature_importances(self.n_features_in_)

    def get_depth(self) -> int:
        self._check_fitted()
        return self.tree_.get_depth()

    def get_n_leaves(self) -> int:
        self._check_fitted()
        return self.tree_.get_n_leaves()

    @property
    def node_count(self) -> int:
        self._check_fitted()
        return self.tree_.node_count

    @property
    def categorical_features(self) -> list[int]:
        return [i for i, f in enumerate(self.schema_.features) if f.kind == CATEGORICAL]
