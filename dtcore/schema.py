"""Feature kinds, category codes and missing markers: raw columns in, float64 arrays out.

Every learner in dtcore works on one float64 matrix: a continuous column holds its values, a
categorical column holds the integer code of its label (position in ``Feature.categories``), and
NaN is a missing value in both.  A label never seen in training encodes to NaN, so it is handled
exactly like a missing value (SPEC §5) instead of crashing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from dtcore.progress import checkpoint

CONTINUOUS = "continuous"
CATEGORICAL = "categorical"
KINDS = (CONTINUOUS, CATEGORICAL)

#: Cells that mean "missing" (SPEC §1); compared after stripping white space.
MISSING_TOKENS = ("", "nan", "NaN", "?", "NA", "N/A", "null", "None")


class DataError(ValueError):
    """Bad input data: the message names the column and says how to fix it."""


@dataclass(frozen=True)
class Feature:
    name: str
    kind: str
    categories: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DataError(f"column {self.name!r}: kind must be one of {KINDS}, not {self.kind!r}")

    @property
    def is_categorical(self) -> bool:
        return self.kind == CATEGORICAL

    def to_dict(self) -> dict:
        d: dict[str, object] = {"name": self.name, "kind": self.kind}
        if self.is_categorical:
            d["categories"] = list(self.categories or ())
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Feature:
        return cls(d["name"], d["kind"], tuple(d.get("categories", ())))


@dataclass(frozen=True)
class Schema:
    """The features a model was trained on, its target, and (for classification) its classes."""

    features: tuple[Feature, ...]
    target: str = "y"
    classes: tuple[str, ...] | None = None  # None: regression
    missing_tokens: tuple[str, ...] = field(default=MISSING_TOKENS)

    @property
    def is_classifier(self) -> bool:
        return self.classes is not None

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.features]

    def index(self, name: str) -> int:
        for i, f in enumerate(self.features):
            if f.name == name:
                return i
        raise DataError(f"no feature named {name!r}; the features are {self.names}")

    def to_dict(self) -> dict:
        return {
            "features": [f.to_dict() for f in self.features],
            "target": self.target,
            "classes": None if self.classes is None else list(self.classes),
            "missing_tokens": list(self.missing_tokens),
        }

    @classmethod
    def from_dict(cls, d: dict) -> Schema:
        classes = d.get("classes")
        return cls(
            tuple(Feature.from_dict(f) for f in d["features"]),
            d.get("target", "y"),
            None if classes is None else tuple(classes),
            tuple(d.get("missing_tokens", MISSING_TOKENS)),
        )


# ---------------------------------------------------------------------------------------------
# cell level


def is_missing(value: object, tokens: Sequence[str] = MISSING_TOKENS) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    if isinstance(value, (np.floating,)) and np.isnan(value):
        return True
    if isinstance(value, str):
        return value.strip() in tokens
    return False


def label_of(value: object) -> str:
    """The text of a category label: strings as written (outer blanks dropped), 3.0 as '3'."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return str(int(v)) if v.is_integer() and abs(v) < 2**53 else repr(v)
    return str(value)


def to_float(value: object) -> float | None:
    """The number a cell holds, or None when it is not a number."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


# ---------------------------------------------------------------------------------------------
# column level


def _as_2d(X: ArrayLike) -> np.ndarray:
    arr = np.asarray(X, dtype=object) if not isinstance(X, np.ndarray) else X
    if arr.ndim != 2:
        raise DataError(f"X must be 2-D (rows × columns), got shape {arr.shape}")
    return arr


def infer_kind(column: ArrayLike, tokens: Sequence[str] = MISSING_TOKENS) -> str:
    """Continuous when every non-missing cell is a number, else categorical."""
    col = np.asarray(column)
    if col.dtype.kind in "fiu":
        return CONTINUOUS
    if col.dtype.kind == "b":
        return CATEGORICAL
    seen = False
    for v in col:
        if is_missing(v, tokens):
            continue
        seen = True
        if to_float(v) is None:
            return CATEGORICAL
    return CONTINUOUS if seen else CATEGORICAL


def categories_of(column: ArrayLike, tokens: Sequence[str] = MISSING_TOKENS) -> tuple[str, ...]:
    """Distinct labels in order of first appearance (the order users wrote them in).

    Each distinct cell is looked at once (keyed by type too, so True and 1 stay apart)."""
    cells = np.asarray(column, dtype=object).ravel().tolist()
    try:
        distinct = [v for _, v in dict.fromkeys(zip(map(type, cells), cells))]
    except TypeError:  # an unhashable cell: look at every cell
        distinct = cells
    out: dict[str, None] = {}
    for v in distinct:
        if not is_missing(v, tokens):
            out.setdefault(label_of(v), None)
    return tuple(out)


def infer_schema(
    X: ArrayLike,
    feature_names: Iterable[str] | None = None,
    feature_kinds: Sequence[str | None] | dict[str, str] | None = None,
    categories: Mapping[str, Iterable[str]] | None = None,
    target: str = "y",
    classes: Iterable[str] | None = None,
    tokens: Sequence[str] = MISSING_TOKENS,
) -> Schema:
    """Build a Schema from raw data; ``feature_kinds`` and ``categories`` override the guesses.

    ``feature_kinds`` is a list (one kind per column) or a dict by name; ``categories`` a dict
    name → labels in their declared order (ARFF), else labels come in first-appearance order.
    """
    arr = _as_2d(X)
    p = arr.shape[1]
    names = list(feature_names) if feature_names is not None else [f"x{i}" for i in range(p)]
    if len(names) != p:
        raise DataError(f"{len(names)} feature names for {p} columns")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise DataError(f"duplicate column names {dup}: rename them so each column is unique")
    if isinstance(feature_kinds, dict):
        kinds = [feature_kinds.get(n) for n in names]
    elif feature_kinds is None:
        kinds = [None] * p
    else:
        kinds = list(feature_kinds)
        if len(kinds) != p:
            raise DataError(f"{len(kinds)} feature kinds for {p} columns")
    categories = categories or {}
    feats = []
    for j, name in enumerate(names):
        checkpoint()
        col = arr[:, j]
        kind = kinds[j] or infer_kind(col, tokens)
        if kind == CATEGORICAL:
            cats = tuple(categories[name]) if name in categories else categories_of(col, tokens)
            feats.append(Feature(name, CATEGORICAL, cats))
        else:
            feats.append(Feature(name, kind))
    return Schema(tuple(feats), target, None if classes is None else tuple(classes), tuple(tokens))


def encode_features(X: ArrayLike, schema: Schema) -> np.ndarray:
    """Raw rows → float64 matrix (values, category codes, NaN for missing and unseen labels)."""
    if (
        isinstance(X, np.ndarray)
        and X.dtype.kind in "fiub"
        and not any(f.is_categorical for f in schema.features)
    ):
        out = np.asarray(X, dtype=np.float64)
        if out.ndim != 2 or out.shape[1] != len(schema.features):
            raise DataError(f"X has shape {out.shape}; the model expects {len(schema.features)} columns")
        # a finite sum rules out ±inf (and NaN) in one pass without a mask: the common case
        if not np.isfinite(out.sum()) and np.isinf(out).any():
            j = int(np.nonzero(np.isinf(out).any(axis=0))[0][0])
            raise DataError(
                f"column {schema.features[j].name!r} holds an infinite value; "
                "replace it with a finite number or leave the cell empty"
            )
        return np.ascontiguousarray(out)
    arr = _as_2d(X)
    if arr.shape[1] != len(schema.features):
        raise DataError(
            f"X has {arr.shape[1]} columns; the model expects {len(schema.features)} "
            f"({', '.join(schema.names)})"
        )
    out = np.empty(arr.shape, dtype=np.float64)
    tokens = schema.missing_tokens
    for j, feat in enumerate(schema.features):
        checkpoint()  # a column at a time: a stop point in long work (dtcore.progress)
        col = arr[:, j]
        if feat.is_categorical:
            code = {c: float(i) for i, c in enumerate(feat.categories)}

            def code_of(v: object, code: dict[str, float] = code) -> object:
                return np.nan if is_missing(v, tokens) else code.get(label_of(v), np.nan)

            out[:, j] = _per_cell(col, code_of)
        elif col.dtype.kind in "fiu":
            out[:, j] = col
        elif (numbers := _numbers_only(col)) is not None:
            out[:, j] = numbers
        else:
            vals = _per_cell(col, lambda v: np.nan if is_missing(v, tokens) else to_float(v))
            bad = np.flatnonzero(vals == None)  # noqa: E711  (elementwise on an object array)
            if bad.size:
                i = int(bad[0])
                raise DataError(
                    f"column {feat.name!r} is continuous but row {i + 1} holds {col[i]!r}; "
                    "mark the column categorical, or fix or blank that cell"
                )
            out[:, j] = vals.astype(np.float64)
        if np.isinf(out[:, j]).any():
            i = int(np.nonzero(np.isinf(out[:, j]))[0][0])
            raise DataError(
                f"column {feat.name!r} row {i + 1} is infinite; "
                "replace it with a finite number or leave the cell empty"
            )
    return out


_NUMBER_TYPES = frozenset({float, int, np.float64, np.float32, np.int64, np.int32, type(None)})


def _numbers_only(col: np.ndarray) -> np.ndarray | None:
    """An object column holding only numbers and None/NaN (what a DataFrame's numeric column
    gives) as float64, converted at C speed; None when some cell needs the per-cell rules
    (text, booleans, other objects). Gives what ``to_float``/``is_missing`` give cell by cell."""
    cells = col.tolist()
    kinds = set(map(type, cells))
    if not kinds <= _NUMBER_TYPES:
        return None
    if type(None) in kinds:
        cells = [np.nan if v is None else v for v in cells]
    return np.array(cells, dtype=np.float64)


def _per_cell(col: np.ndarray, fn: Callable[[object], object]) -> np.ndarray:
    """``fn`` of every cell, as an object array. A column of strings (what files give) is mapped
    once per distinct string, so the Python work grows with the labels, not the rows."""
    cells = col.tolist()
    if len(cells) > 64 and all(type(v) is str for v in cells):
        uniq, inv = distinct_strings(cells)
        mapped = np.empty(len(uniq), dtype=object)
        mapped[:] = [fn(u) for u in uniq]
        return mapped[inv]
    out = np.empty(len(cells), dtype=object)
    out[:] = [fn(v) for v in cells]
    return out


def distinct_strings(cells: list[str]) -> tuple[list[str], np.ndarray]:
    """(the distinct strings in order of first appearance, each cell's index into them).

    Hashing, not ``np.unique(col.astype(str))``: a fixed-width copy is as wide as the longest
    string in every cell, so one 40 KB label repeated on 40 000 rows (a few bytes in a
    dictionary-encoded Parquet file) would need 6.4 GB; here the cells share the string objects."""
    index: dict[str, int] = {}
    inv = np.fromiter((index.setdefault(v, len(index)) for v in cells), dtype=np.intp, count=len(cells))
    return list(index), inv


def encode_classes(
    y: ArrayLike,
    classes: Iterable[str] | None = None,
    tokens: Sequence[str] = MISSING_TOKENS,
    target: str = "target",
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Class labels → (codes int64, classes).

    Classes are sorted when every label is a number (as scikit-learn does), else kept in order of
    first appearance (the order the data declares them, which C4.5 uses to break ties).
    """
    if (
        classes is None
        and isinstance(y, np.ndarray)
        and y.dtype.kind in "iuf"
        and not (y.dtype.kind == "f" and np.isnan(y).any())
    ):
        # fast path for numeric labels (large data): same classes and codes as the loop below
        uniq, codes = np.unique(y.ravel(), return_inverse=True)
        return codes.astype(np.int64).ravel(), tuple(label_of(v) for v in uniq.tolist())
    col = np.asarray(y, dtype=object).ravel()
    if col.size > 64 and all(type(v) is str for v in col.tolist()):
        return _encode_string_classes(col, classes, tokens, target)
    missing = [i for i, v in enumerate(col) if is_missing(v, tokens)]
    if missing:
        raise DataError(
            f"target {target!r} is missing in {len(missing)} row(s) (first: row "
            f"{missing[0] + 1}); drop those rows or fill in the target"
        )
    labels = [label_of(v) for v in col]
    classes = class_order(labels, classes)
    return _class_codes(labels, classes, target), classes


def class_order(labels_in_row_order: Iterable[str], classes: Iterable[str] | None = None) -> tuple[str, ...]:
    """The declared classes, else the labels sorted as numbers when all are numbers, else in
    order of first appearance."""
    if classes is None:
        classes = tuple(dict.fromkeys(labels_in_row_order))
        nums = [to_float(c) for c in classes]
        if all(x is not None for x in nums):
            classes = tuple(c for _, c in sorted(zip(nums, classes)))
    return tuple(classes)


def _class_codes(labels: Sequence[str], classes: Sequence[str], target: str) -> np.ndarray:
    index = {c: i for i, c in enumerate(classes)}
    unknown = sorted({lab for lab in labels if lab not in index})
    if unknown:
        raise DataError(f"target {target!r} has labels {unknown} not among the classes {list(classes)}")
    return np.fromiter((index[lab] for lab in labels), dtype=np.int64, count=len(labels))


def _encode_string_classes(
    col: np.ndarray, classes: Iterable[str] | None, tokens: Sequence[str], target: str
) -> tuple[np.ndarray, tuple[str, ...]]:
    """``encode_classes`` for a column of str: the per-label work runs once per distinct
    string (``distinct_strings``), with the same classes, codes and errors as the loop."""
    ulist, inv = distinct_strings(col.tolist())
    miss = np.array([is_missing(v, tokens) for v in ulist], dtype=bool)
    if miss.any():
        first_missing = int(np.flatnonzero(miss[inv])[0])
        raise DataError(
            f"target {target!r} is missing in {int(miss[inv].sum())} row(s) (first: "
            f"row {first_missing + 1}); drop those rows or fill in the target"
        )
    labels = [label_of(v) for v in ulist]  # in order of first appearance
    classes = class_order(labels, classes)
    return _class_codes(labels, classes, target)[inv], classes


def encode_regression_target(
    y: ArrayLike, tokens: Sequence[str] = MISSING_TOKENS, target: str = "target"
) -> np.ndarray:
    col = np.asarray(y)
    if col.dtype.kind in "fiu":
        out = col.astype(np.float64).ravel()
    else:
        out = np.empty(col.size, dtype=np.float64)
        for i, v in enumerate(col.ravel()):
            x = np.nan if is_missing(v, tokens) else to_float(v)
            if x is None:
                raise DataError(
                    f"target {target!r} row {i + 1} holds {v!r}, not a number; "
                    "a regression target must be numeric"
                )
            out[i] = x
    bad = ~np.isfinite(out)
    if bad.any():
        i = int(np.nonzero(bad)[0][0])
        raise DataError(
            f"target {target!r} is missing or infinite in {int(bad.sum())} row(s) "
            f"(first: row {i + 1}); drop those rows or fill in the target"
        )
    return out


def target_encoding(
    y: ArrayLike,
    task: str,
    classes: Iterable[str] | None = None,
    tokens: Sequence[str] = MISSING_TOKENS,
    target: str = "target",
) -> tuple[np.ndarray, tuple[str, ...] | None]:
    """The target encoded for ``task``: (class codes, classes) for classification (``classes``
    fixed, or found from the labels when None), (float values, None) for regression."""
    if task == "classification":
        return encode_classes(y, classes, tokens, target)
    return encode_regression_target(y, tokens, target), None


def encode_target(schema: Schema, y_raw: ArrayLike) -> np.ndarray:
    """A raw target column encoded against a fitted model's schema: class codes (its classes) for
    a classifier, float values for a regressor; the errors name ``schema.target``."""
    task = "classification" if schema.is_classifier else "regression"
    return target_encoding(y_raw, task, schema.classes, schema.missing_tokens, schema.target)[0]


def check_columns(available: Iterable[str], names: Iterable[str], what: str) -> None:
    """DataError naming ``what`` (a flag, a file) when some of ``names`` are not columns."""
    available = list(available)
    unknown = [n for n in names if n not in available]
    if unknown:
        raise DataError(
            f"{what}: no column named {', '.join(map(repr, unknown))}; the columns are {available}"
        )


def lacking_columns(available: Iterable[str], needed: Iterable[str]) -> list[str]:
    """The ``needed`` column names that ``available`` lacks, in the order needed."""
    have = set(available)
    return [n for n in needed if n not in have]
