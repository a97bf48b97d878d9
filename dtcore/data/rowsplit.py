"""The seeded train / validation / test split of rows that the app's training service and the
command line's ``compare`` share (percentages of the rows, stratified by class when given)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def split_rows(
    positions: ArrayLike, valid: float = 0, test: float = 0, seed: int = 0, strata: ArrayLike | None = None
) -> dict[str, np.ndarray]:
    """Seeded train/validation/test split of row positions, stratified by class when given.

    Each class (or the whole set) is shuffled with ``default_rng(seed)`` and cut by rounding its
    size times the percentages; the training set keeps at least one row per class.
    """
    positions = np.asarray(positions, dtype=np.int64)
    rng = np.random.default_rng(int(seed))
    order = rng.permutation(positions.size)
    perm = positions[order]
    groups = [perm]
    if strata is not None:
        lab = np.asarray([str(v) for v in np.asarray(strata, dtype=object)], dtype=object)
        _, first, inv = np.unique(lab[order], return_index=True, return_inverse=True)
        groups = [perm[inv == k] for k in np.argsort(first)]
    out: dict[str, list[np.ndarray]] = {"train": [], "valid": [], "test": []}
    for g in groups:
        n = g.size
        n_test = int(round(n * test / 100))
        n_valid = int(round(n * valid / 100))
        while n_test + n_valid >= n and (n_test or n_valid):  # keep a training row
            if n_valid >= n_test and n_valid:
                n_valid -= 1
            else:
                n_test -= 1
        out["test"].append(g[:n_test])
        out["valid"].append(g[n_test : n_test + n_valid])
        out["train"].append(g[n_test + n_valid :])
    return {k: np.sort(np.concatenate(v)) if v else np.array([], np.int64) for k, v in out.items()}


#: the values a split column may hold, per set (case and outer blanks ignored)
SET_MARKS = {
    "train": ("train", "training", "训练", "训练集"),
    "valid": ("valid", "validation", "验证", "验证集"),
    "test": ("test", "测试", "测试集"),
}


def rows_from_marks(positions: ArrayLike, marks: ArrayLike, column: str = "split") -> dict[str, np.ndarray]:
    """The split a column gives: each row's set named by its value (SET_MARKS), e.g. the
    textbook's own training and validation rows of watermelon 2.0. ``marks``: the column's
    value for every row (indexed by position). ValueError naming the first value it cannot read."""
    positions = np.asarray(positions, dtype=np.int64)
    values = np.asarray(marks, dtype=object)[positions]
    text = np.where(values == None, "", values).astype(str)  # noqa: E711 (elementwise)
    names = np.char.lower(np.char.strip(text))
    out = {}
    known = np.zeros(positions.size, dtype=bool)
    for name, words in SET_MARKS.items():
        hit = np.isin(names, words)
        out[name] = np.sort(positions[hit])
        known |= hit
    if not known.all():
        bad = str(values[np.flatnonzero(~known)[0]])
        raise ValueError(
            f"split column {column!r} holds {bad!r}; each row must say train, valid or test "
            "(or 训练, 验证, 测试)"
        )
    return out


def is_split_column(values: ArrayLike) -> bool:
    """Whether every value of a column names a set (SET_MARKS) and it names a training set."""
    words = {w for ws in SET_MARKS.values() for w in ws}
    names = {str(v).strip().lower() for v in np.asarray(values, dtype=object).ravel() if v is not None}
    return bool(names) and names <= words and bool(names & set(SET_MARKS["train"]))
