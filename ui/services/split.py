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
    rows = split_rows(keep, split, strata)
    return {name: int(idx.size) for name, idx in rows.items()}
