"""The column profiles of a Dask frame, for dtcore's role and task rules (``dtcore.data.roles``):
each partition summarises its cells (``column_part``, as the in-memory profile does for the
whole column), the client merges the summaries (``profile_of_parts``), so a table gets the same
roles and task on Dask as in memory.

A partition keeps at most ``DISTINCT_KEPT`` distinct values per column; when one holds more and
the exact count decides whether a column is an identifier, the workers count it (a tree of set
unions: only the distinct values travel, never the rows).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask
import numpy as np
import pandas as pd

from dtcore.data.roles import DISTINCT_KEPT, ColumnPart, ColumnProfile, column_part, profile_of_parts
from dtdask.summary import cells


def profile_cells(col: pd.Series) -> np.ndarray:
    """A column's cells as dtcore profiles them: numbers (not booleans) as float64 with NaN
    where missing, anything else as objects with None where missing."""
    if pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype):
        return col.to_numpy(dtype=np.float64, na_value=np.nan)
    return cells(col)


def _parts(df: pd.DataFrame, names: Sequence[str]) -> list[ColumnPart]:
    return [column_part(n, profile_cells(df[n]), keep=DISTINCT_KEPT) for n in names]


def _distinct(df: pd.DataFrame, name: str) -> set[Any]:
    """One partition's distinct known values of a column, as the profile compares them."""
    part = column_part(name, profile_cells(df[name]))
    return set(part.labels or ()) if part.numbers is None else set(part.numbers.tolist())


def _union(a: set[Any], b: set[Any]) -> set[Any]:
    return a | b


def _gather(client: Any, objs: list[Any]) -> list[Any]:
    return list(dask.compute(*objs)) if client is None else list(client.gather(client.compute(objs)))


def profile_frame(ddf: Any, names: Sequence[str], client: Any = None) -> dict[str, ColumnProfile]:
    """``{name: ColumnProfile}`` of the columns ``names`` of the Dask frame ``ddf``, in order,
    from one pass over its partitions (``client``: a ``distributed.Client``; None: dask's
    default scheduler)."""
    names = list(names)
    parts = ddf[names].to_delayed()
    got: list[list[ColumnPart]] = _gather(client, [dask.delayed(_parts)(p, names) for p in parts])

    def count_distinct(name: str) -> int:
        sets = [dask.delayed(_distinct)(p, name) for p in ddf[[name]].to_delayed()]
        while len(sets) > 1:  # a tree of unions on the workers
            pairs = [dask.delayed(_union)(sets[i], sets[i + 1]) for i in range(0, len(sets) - 1, 2)]
            sets = pairs + sets[len(pairs) * 2 :]
        return int(_gather(client, [dask.delayed(len)(sets[0])])[0])

    return {n: profile_of_parts([g[j] for g in got], count_distinct) for j, n in enumerate(names)}
