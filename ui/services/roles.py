"""Column roles (continuous, categorical, ignore, target): inferred, checked and edited as plain data.

The role table on the Data page only displays and edits what these functions return, so every
rule here (identifier columns are ignored, exactly one target, what the task is) is tested without
a browser. Issues carry a catalogue key and parameters, never English text.

The rules themselves live in :mod:`dtcore.data.roles` (the command line uses the same ones); this module
only hands it DataFrame columns as raw cells.
"""

from __future__ import annotations

import weakref
from collections.abc import Collection, Mapping

import numpy as np
import pandas as pd

from dtcore.data import roles as engine
from dtcore.data.roles import (  # noqa: F401
    CATEGORICAL,
    CLASS_LIKE_MAX,
    CLASSIFICATION,
    CONTINUOUS,
    FEATURE_ROLES,
    IGNORE,
    MANY_CATEGORIES,
    REGRESSION,
    ROLES,
    TARGET,
    ColumnProfile,
    Issue,
    features_of,
    target_of,
)


def _cells(col: pd.Series) -> np.ndarray:
    """A DataFrame column as the cells dtcore profiles: numbers as a numeric array (NaN =
    missing), anything else as an object array (None/NaN = missing)."""
    if pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype):
        return col.to_numpy(dtype=np.float64, na_value=np.nan)
    return col.to_numpy(dtype=object)


#: profiles of the frames seen lately, by identity: the loaded data is never changed in place,
#: and every page run asks for its profile (0.16 s for 10⁵ × 20) up to three times
_PROFILES: dict[int, tuple[weakref.ref, dict[str, ColumnProfile]]] = {}


def profile(df: pd.DataFrame) -> dict[str, ColumnProfile]:
    """Each column's profile (``dtcore.data.roles.profile_column``), computed once per frame."""
    hit = _PROFILES.get(id(df))
    if hit is not None and hit[0]() is df:
        return hit[1]
    out = {str(name): engine.profile_column(str(name), _cells(col)) for name, col in df.items()}
    key = id(df)

    def forget(_ref: object) -> None:
        _PROFILES.pop(key, None)

    _PROFILES[key] = (weakref.ref(df, forget), out)
    return out


def column_profile(df: pd.DataFrame, column: str) -> ColumnProfile:
    """One column's profile: from the frame's profile when it was computed (a column's profile
    is the same in any frame), else from that column alone."""
    hit = _PROFILES.get(id(df))
    if hit is not None and hit[0]() is df and column in hit[1]:
        return hit[1][column]
    return profile(df[[column]])[column]


def infer_task(df: pd.DataFrame, target: str) -> str:
    """Labels → classification; numbers → regression, unless a few recurring whole numbers
    (0/1, grades): ``dtcore.data.roles.infer_task``."""
    return engine.infer_task(column_profile(df, target))


def infer_roles(
    df: pd.DataFrame,
    target: str | None = None,
    ignore: Collection[str] = (),
    declared: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Default roles: target = the given column, else the last; identifiers and constants ignored.

    ``declared``: column → kind a file declares (ARFF nominal {1,2,3} stays categorical).
    """
    return engine.infer_roles(profile(df), target, ignore, declared)


def natural_role(df: pd.DataFrame, column: str) -> str:
    """The feature role a column would get on its own (used when it stops being the target)."""
    return column_profile(df, column).kind


def apply_edits(roles: dict[str, str], edits: dict[str, str], df: pd.DataFrame) -> dict[str, str]:
    """New roles after the user changed some: a new target demotes the old one to a feature."""
    out = dict(roles)
    new_targets = [c for c, r in edits.items() if r == TARGET and roles.get(c) != TARGET]
    for col, role in edits.items():
        if col in out and role in ROLES:
            out[col] = role
    if new_targets:
        keep = new_targets[-1]
        for col, role in out.items():
            if role == TARGET and col != keep:
                out[col] = natural_role(df, col)
    return out


def warnings(df: pd.DataFrame, roles: dict[str, str]) -> list[Issue]:
    """Things worth a second look; training still works."""
    return engine.role_warnings(profile(df), roles)


def errors(df: pd.DataFrame, roles: dict[str, str], task: str | None = None) -> list[Issue]:
    """Reasons the data cannot be trained as typed (each one a message, never a traceback)."""
    return engine.role_errors(profile(df), roles, task)
