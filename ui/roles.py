"""Column roles (continuous, categorical, ignore, target): inferred, checked and edited as plain data.

The role table on the Data page only displays and edits what these functions return, so every
rule here (identifier columns are ignored, exactly one target, what the task is) is tested without
a browser. Issues carry a catalogue key and parameters, never English text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dtcore.schema import label_of

CONTINUOUS, CATEGORICAL, IGNORE, TARGET = "continuous", "categorical", "ignore", "target"
ROLES = (CONTINUOUS, CATEGORICAL, IGNORE, TARGET)
FEATURE_ROLES = (CONTINUOUS, CATEGORICAL)
CLASSIFICATION, REGRESSION = "classification", "regression"

MANY_CATEGORIES = 20        # more labels than this in a categorical feature deserves a warning
CLASS_LIKE_MAX = 10         # an integer target with at most this many values is read as classes
_ID_NAME = re.compile(r"^(id|rid|no|index|编号|序号|row|key)$|(_id|id_|编号)$", re.IGNORECASE)


@dataclass(frozen=True)
class ColumnProfile:
    name: str
    numeric: bool
    integer: bool
    n_distinct: int
    n_missing: int
    n_rows: int
    example: str

    @property
    def constant(self) -> bool:
        return self.n_distinct <= 1

    @property
    def identifier(self) -> bool:
        """One distinct value per row: labels always, integers only when the name says ID.

        Many numeric features are distinct per row too (areas, densities, Li Hang's x = 1…10),
        so a number column counts only when its name is an ID name (编号, RID, id, …).
        """
        if self.n_rows <= 2 or self.n_missing or self.n_distinct != self.n_rows:
            return False
        if not self.numeric:
            return True
        return self.integer and bool(_ID_NAME.search(self.name))


@dataclass(frozen=True)
class Issue:
    """A warning or error about the roles: ``code`` is its catalogue key suffix."""

    code: str
    column: str | None = None
    count: int = 0


def profile(df: pd.DataFrame) -> dict[str, ColumnProfile]:
    out = {}
    n = int(df.shape[0])
    for name, col in df.items():
        numeric = pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype)
        known = col.dropna()
        integer = bool(numeric and len(known) and np.all(np.mod(known.to_numpy(dtype=float), 1) == 0))
        distinct = int(known.nunique())
        example = "" if not len(known) else label_of(known.iloc[0])
        out[str(name)] = ColumnProfile(str(name), numeric, integer, distinct, int(col.isna().sum()), n,
                                       example)
    return out


def infer_task(df: pd.DataFrame, target: str) -> str:
    """Labels → classification; numbers → regression, unless few integer values (0/1, grades)."""
    p = profile(df[[target]])[target]
    if not p.numeric:
        return CLASSIFICATION
    if p.integer and p.n_distinct <= CLASS_LIKE_MAX:
        return CLASSIFICATION
    return REGRESSION


def infer_roles(df: pd.DataFrame, target: str | None = None, ignore=(), declared=None) -> dict[str, str]:
    """Default roles: target = the given column, else the last; identifiers and constants ignored.

    ``declared``: column → kind a file declares (ARFF nominal {1,2,3} stays categorical).
    """
    declared = declared or {}
    names = [str(c) for c in df.columns]
    if target not in names:
        target = names[-1] if names else None
    profiles = profile(df)
    roles = {}
    for name in names:
        p = profiles[name]
        if name == target:
            roles[name] = TARGET
        elif name in ignore or p.identifier or p.constant:
            roles[name] = IGNORE
        else:
            roles[name] = declared.get(name) or (CONTINUOUS if p.numeric else CATEGORICAL)
    return roles


def natural_role(df: pd.DataFrame, column: str) -> str:
    """The feature role a column would get on its own (used when it stops being the target)."""
    p = profile(df[[column]])[column]
    return CONTINUOUS if p.numeric else CATEGORICAL


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


def target_of(roles: dict[str, str]) -> str | None:
    targets = [c for c, r in roles.items() if r == TARGET]
    return targets[0] if len(targets) == 1 else None


def features_of(roles: dict[str, str]) -> list[str]:
    return [c for c, r in roles.items() if r in FEATURE_ROLES]


def warnings(df: pd.DataFrame, roles: dict[str, str]) -> list[Issue]:
    """Things worth a second look; training still works."""
    profiles = profile(df)
    out = []
    for name, role in roles.items():
        p = profiles.get(name)
        if p is None:
            continue
        if role in FEATURE_ROLES:
            if p.identifier:
                out.append(Issue("identifier", name))
            if p.constant:
                out.append(Issue("constant", name))
            if role == CATEGORICAL and p.n_distinct > MANY_CATEGORIES:
                out.append(Issue("many_categories", name, p.n_distinct))
            if p.n_missing:
                out.append(Issue("missing", name, p.n_missing))
        elif role == TARGET and p.n_missing:
            out.append(Issue("target_missing", name, p.n_missing))
    return out


def errors(df: pd.DataFrame, roles: dict[str, str], task: str | None = None) -> list[Issue]:
    """Reasons the data cannot be trained as typed (each one a message, never a traceback)."""
    out = []
    targets = [c for c, r in roles.items() if r == TARGET]
    if not targets:
        out.append(Issue("no_target"))
    elif len(targets) > 1:
        out.append(Issue("many_targets", ", ".join(targets), len(targets)))
    if not features_of(roles):
        out.append(Issue("no_features"))
    profiles = profile(df)
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
