"""How the row split divides the current table, for the Data page (the rows training will use)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import roles as R
from .training import Split, split_rows


def split_counts(df: pd.DataFrame, target: str, task: str, split: Split) -> dict[str, int]:
    """Rows per split name (train / valid / test) among those whose target is known; classes
    stratify the split of a classification task, as in training."""
    keep = np.nonzero(df[target].notna().to_numpy())[0]
    strata = df[target].to_numpy(dtype=object)[keep] if task == R.CLASSIFICATION else None
    rows = split_rows(keep, split, strata, df)
    return {name: int(idx.size) for name, idx in rows.items()}


#: an upload of at least this many rows holds out validation and test rows by default (seeded),
#: so the headline accuracy is not the training rows' 100 %
HOLDOUT_MIN_ROWS = 100
HOLDOUT = {"valid": 15, "test": 15}
#: above this many rows an upload grows the algorithms that do not prune by default (CART, ID3)
#: to DEFAULT_DEPTH, not to purity (C4.5 keeps its error-based pruning); the Train page says so
LIMIT_DEPTH_ABOVE_ROWS = 500
DEFAULT_DEPTH = 8
UNPRUNED_BY_DEFAULT = ("cart", "id3")


def upload_defaults(n_rows: int) -> dict[str, object]:
    """The settings an upload of ``n_rows`` rows starts with (the textbook samples keep theirs):
    ``valid``/``test`` percentages, and ``max_depth`` for the algorithms in UNPRUNED_BY_DEFAULT."""
    out: dict[str, object] = dict(HOLDOUT) if n_rows >= HOLDOUT_MIN_ROWS else {"valid": 0, "test": 0}
    if n_rows > LIMIT_DEPTH_ABOVE_ROWS:
        out["max_depth"] = DEFAULT_DEPTH
    return out


def split_columns(df: pd.DataFrame) -> list[str]:
    """Columns that can decide the split: every value names a set (train / valid / test, or
    训练 / 验证 / 测试), a training set among them; the role rules' own flag
    (``dtcore.data.roles.ColumnProfile.split_marks``), read from the table's cached profile."""
    return [name for name, p in R.profile(df).items() if p.split_marks]
