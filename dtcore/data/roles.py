"""Column roles and the task, as plain data: the one rule set the command line and the app share.

A column is profiled from its raw cells (a list, or an object array: what a file reader or a
DataFrame column gives); from the profiles come the default roles (the target, features of a
natural kind, ignored identifier and constant columns), the task a target implies, and the
warnings and errors about a set of roles. Issues are typed records (a ``code`` and the column),
never English text, so each caller words them its own way (the CLI on stderr, the app from its
catalogue). numpy and the standard library only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dtcore.data.rowsplit import SET_MARKS, is_split_column
from dtcore.schema import CATEGORICAL, CONTINUOUS, MISSING_TOKENS, is_missing, label_of, to_float

IGNORE, TARGET = "ignore", "target"
ROLES = (CONTINUOUS, CATEGORICAL, IGNORE, TARGET)
FEATURE_ROLES = (CONTINUOUS, CATEGORICAL)
CLASSIFICATION, REGRESSION = "classification", "regression"
TASKS = (CLASSIFICATION, REGRESSION)

TINY_TABLE = 4  # on this few rows, the only feature is never ignored as an identifier
MANY_CATEGORIES = 20  # more labels than this in a categorical feature deserves a warning
CLASS_LIKE_MAX = 10  # an integer target with at most this many values may be classes

#: Column names that mean "row identifier" (compared case-insensitively, outer blanks dropped).
ID_NAME = re.compile(
    r"^(id|rid|uid|key|index|idx|no|no\.|nr|#|row|row_?id|编号|序号|学号|工号|id号)$"
    r"|([_ ]id|id_|编号)$",
    re.IGNORECASE,
)


#: a number written with a decimal comma ("1,5", "-2,25"): labels to Python, numbers to a person
DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")


def id_name(name: str) -> bool:
    """Whether a column name says "row identifier" (ID, RID, idx, 编号, customer_id, …)."""
    return bool(ID_NAME.search(str(name).strip()))


@dataclass(frozen=True)
class ColumnProfile:
    """What the role rules need to know about one column."""

    name: str
    numeric: bool  # every known cell is a number (and there is at least one)
    integer: bool  # numeric and every known value is a whole number
    n_distinct: int  # distinct known values (numbers compared as numbers, labels as text)
    n_missing: int
    n_rows: int
    example: str  # the first known value as a label ("" when none)
    decimal_comma: bool = False  # labels that are all numbers written with a decimal comma
    split_marks: bool = False  # every label names a row set (train / valid / test: a split column)
    longest_label: int = 0  # characters in the longest cell given as text (the cell_chars limit)

    @property
    def constant(self) -> bool:
        """At most one distinct known value (an all-missing column too): it can never split."""
        return self.n_distinct <= 1

    @property
    def kind(self) -> str:
        """The natural feature kind: continuous for numbers, categorical for labels."""
        return CONTINUOUS if self.numeric else CATEGORICAL

    @property
    def identifier(self) -> bool:
        """One distinct value per row: labels always, integers only when the name says ID.

        Many numeric features are distinct per row too (areas, densities, Li Hang's x = 1…10),
        so a number column counts only when its name is an ID name (编号, RID, idx, …).
        """
        if self.n_rows <= 2 or self.n_missing or self.n_distinct != self.n_rows or self.decimal_comma:
            return False
        if not self.numeric:
            return True
        return self.integer and id_name(self.name)

    @property
    def class_like(self) -> bool:
        """A target read as classes: labels, or a few whole numbers that each recur on average
        (0/1, grades 1–5); a handful of distinct numbers on a handful of rows (1, 3, 3, 6, 6) is
        read as values."""
        if not self.numeric:
            return True
        known = self.n_rows - self.n_missing
        return self.integer and self.n_distinct <= CLASS_LIKE_MAX and 2 * self.n_distinct <= known


@dataclass(frozen=True)
class Issue:
    """A warning or error about the roles: ``code`` is its catalogue key suffix."""

    code: str
    column: str | None = None
    count: int = 0


#: distinct values a block of rows keeps per column (``column_part``'s ``keep``) when blocks are
#: merged (Dask partitions); beyond it a block says "more" and the count comes from ``count_distinct``
DISTINCT_KEPT = 4096


@dataclass(frozen=True, eq=False)
class ColumnPart:
    """One block of a column's rows (a Dask partition, or the whole column), summarised so that
    blocks merge into one ``ColumnProfile`` (``profile_of_parts``): the facts ``profile_column``
    counts, with the distinct values kept instead of counted."""

    name: str
    n_rows: int
    n_known: int
    n_distinct: int  # distinct known values in this block
    numeric: bool | None  # every known cell a number; None: no known cell in a block of cells
    integer: bool  # numeric and every known value a whole number (False when none is known)
    numbers: np.ndarray | None  # numeric: the distinct known numbers, sorted (None: more than kept)
    labels: tuple[str, ...] | None  # not numeric: the distinct known labels (None: more than kept)
    example: str  # the first known value as a label ("" when none)
    decimal_comma: bool  # known cells, all numbers written with a decimal comma ("1,5")
    longest_label: int = 0  # characters in this block's longest cell given as text (0: none)


_TEXT_OR_NONE = frozenset({str, type(None)})


def column_part(
    name: str, values: ArrayLike, tokens: Sequence[str] = MISSING_TOKENS, keep: int | None = None
) -> ColumnPart:
    """Summarise one block of a column's raw cells (strings from a file, numbers, None/NaN).

    A numeric array (a typed DataFrame column) is numeric by its type, NaN being missing; other
    cells are looked at once per distinct cell, so the work grows with the labels, not the rows.
    ``keep``: the most distinct values to keep (None: all of them).
    """
    arr = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
    arr = arr.ravel()
    n = int(arr.size)
    if arr.dtype.kind in "fiu":
        a = np.asarray(arr, dtype=np.float64)
        known = a[~np.isnan(a)]
        u = np.unique(known)
        with np.errstate(invalid="ignore"):  # inf % 1 is NaN: not a whole number
            integer = bool(known.size and np.all(np.mod(u, 1) == 0))  # the values of the cells
        example = label_of(float(known[0])) if known.size else ""
        kept = u if keep is None or u.size <= keep else None
        return ColumnPart(
            str(name), n, int(known.size), int(u.size), True, integer, kept, None, example, False
        )
    listed = arr.tolist()
    counted: Callable[[object], int] | None
    try:
        if set(map(type, listed)) <= _TEXT_OR_NONE:  # no text equals None: count the cells
            by_cell = Counter(listed)
            cells, counted = list(by_cell), by_cell.__getitem__
        else:  # (type, cell): 1, 1.0 and True stay apart; dicts keep the first row's order
            counts = Counter((type(v), v) for v in listed)
            cells = [v for _, v in counts]
            counted = lambda v: counts[(type(v), v)]  # noqa: E731
    except TypeError:  # unhashable cells: one look per row
        counted, cells = None, listed
    known_cells = [v for v in cells if not is_missing(v, tokens)]
    n_known = len(known_cells) if counted is None else sum(map(counted, known_cells))
    example = label_of(known_cells[0]) if known_cells else ""
    longest = max((len(v) for v in cells if isinstance(v, str)), default=0)  # text as written
    numbers: list[float] | None = None
    if known_cells and not any(isinstance(v, (bool, np.bool_)) for v in known_cells):
        nums = [to_float(v) for v in known_cells]
        if all(x is not None for x in nums):
            numbers = [x for x in nums if x is not None]
    if numbers is not None:
        integer = all(float(x).is_integer() for x in numbers)
        u = np.unique(np.asarray(numbers, dtype=np.float64))
        kept = u if keep is None or u.size <= keep else None
        return ColumnPart(
            str(name), n, n_known, int(u.size), True, integer, kept, None, example, False, longest
        )
    labels = tuple(dict.fromkeys(label_of(v) for v in known_cells))
    comma = bool(known_cells)
    comma = comma and all(isinstance(v, str) and DECIMAL_COMMA.match(v.strip()) for v in known_cells)
    return ColumnPart(
        str(name),
        n,
        n_known,
        len(labels),
        False if known_cells else None,
        False,
        None,
        labels if keep is None or len(labels) <= keep else None,
        example,
        comma,
        longest,
    )


def profile_of_parts(
    parts: Sequence[ColumnPart], count_distinct: Callable[[str], int] | None = None
) -> ColumnProfile:
    """The profile of a column from its blocks' summaries (in row order).

    When a block kept too many distinct values to merge them, ``count_distinct(name)`` gives the
    column's exact count if it can decide the identifier rule (no missing cell; labels, or whole
    numbers under an ID name); otherwise (or without it) it is the largest block's count, more
    than the values kept, which decides every other rule (constant, class-like, many categories)
    as the exact count would. Numbers are compared as numbers and labels as text, as in one ``profile_column``."""
    name = parts[0].name
    n_rows = sum(p.n_rows for p in parts)
    n_known = sum(p.n_known for p in parts)
    said = [p.numeric for p in parts if p.numeric is not None]
    numeric = bool(said) and all(said)
    known = [p for p in parts if p.n_known]
    integer = numeric and bool(known) and all(p.integer for p in known)
    example = known[0].example if known else ""
    numbers = [p.numbers for p in known] if numeric else []
    labels = [] if numeric else [_labels_of(p) for p in known]
    complete = all(x is not None for x in numbers) and all(x is not None for x in labels)
    comma = not numeric and bool(known) and all(p.decimal_comma for p in known)
    if complete:
        marks = False
        if numeric:
            kept = [x for x in numbers if x is not None]
            n_distinct = (
                int(np.unique(np.concatenate(kept)).size) if len(kept) > 1 else sum(x.size for x in kept)
            )
        else:
            distinct = {label for x in labels if x is not None for label in x}
            n_distinct = len(distinct)
            marks = n_distinct <= len(SET_MARKS) and is_split_column(sorted(distinct))
    else:
        marks = False
        n_distinct = max(p.n_distinct for p in known)
        could_be_id = n_known == n_rows and (not numeric or (integer and id_name(name)))
        if count_distinct is not None and could_be_id:
            n_distinct = int(count_distinct(name))
    longest = max((p.longest_label for p in parts), default=0)
    return ColumnProfile(
        name, numeric, bool(integer), n_distinct, n_rows - n_known, n_rows, example, comma, marks, longest
    )


def _labels_of(part: ColumnPart) -> tuple[str, ...] | None:
    """A block's distinct labels; a numeric block's are its numbers' (a column numeric in one
    block and not in another)."""
    if part.numbers is not None:
        return tuple(label_of(float(x)) for x in part.numbers)
    return part.labels if part.numeric is not True else None


def profile_column(name: str, values: ArrayLike, tokens: Sequence[str] = MISSING_TOKENS) -> ColumnProfile:
    """Profile one column from its raw cells (strings from a file, numbers, None/NaN): the
    whole column as one block (``column_part``), so memory and Dask share every rule."""
    return profile_of_parts([column_part(name, values, tokens)])


def profile_columns(
    columns: Mapping[str, ArrayLike] | Iterable[tuple[str, ArrayLike]], tokens: Sequence[str] = MISSING_TOKENS
) -> dict[str, ColumnProfile]:
    """``{name: cells}`` (or ``(name, cells)`` pairs) → ``{name: ColumnProfile}``, in order."""
    items = columns.items() if hasattr(columns, "items") else columns
    return {str(n): profile_column(n, v, tokens) for n, v in items}


def infer_task(target: ColumnProfile, declared: str | None = None) -> str:
    """Classification for labels and for a few recurring whole numbers, else regression.

    ``declared``: the kind the file gives the target (an ARFF nominal target is classes).
    """
    if declared == CATEGORICAL:
        return CLASSIFICATION
    return CLASSIFICATION if target.class_like else REGRESSION


def infer_roles(
    profiles: dict[str, ColumnProfile],
    target: str | None = None,
    ignore: Collection[str] = (),
    declared: Mapping[str, str] | None = None,
    keep: Collection[str] = (),
) -> dict[str, str]:
    """Default roles: target = the given column, else the last; identifiers, constants and split
    columns (every value train / valid / test: they say which set a row is in) ignored.

    ``declared``: column → kind a file declares (ARFF nominal {1,2,3} stays categorical).
    ``keep``: columns used as features even when they look like identifiers or are constant.
    """
    declared = declared or {}
    names = list(profiles)
    if target not in names:
        target = names[-1] if names else None
    roles = {}
    for name in names:
        p = profiles[name]
        if name == target:
            roles[name] = TARGET
        elif name in ignore or ((p.identifier or p.constant or p.split_marks) and name not in keep):
            roles[name] = IGNORE
        else:
            roles[name] = declared.get(name) or p.kind
    spared = _tiny_table_identifiers(profiles, roles, ignore)
    roles.update({n: declared.get(n) or profiles[n].kind for n in spared})
    return roles


def _tiny_table_identifiers(
    profiles: Mapping[str, ColumnProfile],
    roles: Mapping[str, str],
    ignore: Collection[str] = (),
) -> list[str]:
    """On a table of at most TINY_TABLE rows every label differs by chance (dates, names): when the
    identifier rule would leave no feature, the one identifier-like column stays a feature."""
    if features_of(dict(roles)):
        return []
    ids = [
        n
        for n, r in roles.items()
        if r == IGNORE
        and n not in ignore
        and profiles[n].identifier
        and not id_name(n)
        and profiles[n].n_rows <= TINY_TABLE
    ]
    return ids if len(ids) == 1 else []


def ignored_issues(
    profiles: dict[str, ColumnProfile], roles: dict[str, str], ignore: Collection[str] = ()
) -> list[Issue]:
    """Why the rules (not the user, who named ``ignore``) left columns out: ``identifier`` or
    ``constant``, one issue per column."""
    out = []
    for name, role in roles.items():
        p = profiles.get(name)
        if role != IGNORE or name in ignore or p is None:
            continue
        if p.identifier:
            out.append(Issue("identifier", name, p.n_distinct))
        elif p.n_rows and p.n_missing == p.n_rows:
            out.append(Issue("all_missing", name, p.n_missing))
        elif p.constant:
            out.append(Issue("constant", name, p.n_distinct))
    return out


def target_of(roles: dict[str, str]) -> str | None:
    targets = [c for c, r in roles.items() if r == TARGET]
    return targets[0] if len(targets) == 1 else None


def features_of(roles: dict[str, str]) -> list[str]:
    return [c for c, r in roles.items() if r in FEATURE_ROLES]


def role_warnings(profiles: dict[str, ColumnProfile], roles: dict[str, str]) -> list[Issue]:
    """Things worth a second look; training still works."""
    out = []
    for name, role in roles.items():
        p = profiles.get(name)
        if p is None:
            continue
        if role == IGNORE and p.n_rows and p.n_missing == p.n_rows:
            out.append(Issue("all_missing", name, p.n_missing))
        if role in FEATURE_ROLES:
            if p.identifier and not _tiny_table_identifiers(profiles, {**roles, name: IGNORE}):
                out.append(Issue("identifier", name))
            if p.decimal_comma:
                out.append(Issue("decimal_comma", name))
            if p.n_rows and p.n_missing == p.n_rows:
                out.append(Issue("all_missing", name, p.n_missing))
                continue
            if p.constant:
                out.append(Issue("constant", name))
            if role == CATEGORICAL and p.n_distinct > MANY_CATEGORIES:
                out.append(Issue("many_categories", name, p.n_distinct))
            if p.n_missing:
                out.append(Issue("missing", name, p.n_missing))
        elif role == TARGET and p.n_missing:
            out.append(Issue("target_missing", name, p.n_missing))
    return out


def role_errors(
    profiles: dict[str, ColumnProfile], roles: dict[str, str], task: str | None = None
) -> list[Issue]:
    """Reasons the data cannot be trained as typed."""
    out = []
    targets = [c for c, r in roles.items() if r == TARGET]
    if not targets:
        out.append(Issue("no_target"))
    elif len(targets) > 1:
        out.append(Issue("many_targets", ", ".join(targets), len(targets)))
    if not features_of(roles):
        out.append(Issue("no_features"))
    for name, role in roles.items():
        p = profiles.get(name)
        if p is not None and role == CONTINUOUS and not p.numeric:
            out.append(Issue("not_numeric", name))
    if len(targets) == 1:
        p = profiles[targets[0]]
        if task == REGRESSION and not p.numeric:
            out.append(Issue("regression_labels", targets[0]))
        if p.n_distinct < 2:
            out.append(Issue("single_class", targets[0], p.n_distinct))
    return out
