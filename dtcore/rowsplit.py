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
