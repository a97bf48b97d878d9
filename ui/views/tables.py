"""Tables the Data page shows: the editable role table and how its edits map back to roles."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ui.i18n import translate
from ui.services import roles as R

ISSUE_ICONS = {
    "identifier": "⚠️",
    "constant": "⚠️",
    "decimal_comma": "⚠️",
    "all_missing": "⚠️",
    "many_categories": "⚠️",
    "missing": "◌",
    "target_missing": "◌",
    "not_numeric": "⛔",
    "regression_labels": "⛔",
    "single_class": "⛔",
}


def short_note(code: str, lang: str) -> str:
    return f"{ISSUE_ICONS[code]} {translate('note.' + code, lang)}"


def role_table(df: pd.DataFrame, roles: dict[str, str], issues: Iterable[R.Issue], lang: str) -> pd.DataFrame:
    """One row per column: name, role (editable), what its values are, distinct, missing, note."""
    profiles = R.profile(df)
    notes: dict[str, list[str]] = {}
    for issue in issues:
        if issue.column in profiles and issue.code in ISSUE_ICONS:
            notes.setdefault(issue.column, []).append(short_note(issue.code, lang))
    rows = []
    for name in df.columns:
        p = profiles[str(name)]
        kind = "integer" if p.integer else "numeric" if p.numeric else "labels"
        rows.append(
            {
                "column": str(name),
                "role": roles.get(str(name), R.IGNORE),
                "values": translate(f"data.type.{kind}", lang),
                "distinct": p.n_distinct,
                "missing": p.n_missing,
                "example": p.example,
                "note": " · ".join(notes.get(str(name), [])),
            }
        )
    return pd.DataFrame(rows, columns=["column", "role", "values", "distinct", "missing", "example", "note"])


def role_edits(table: pd.DataFrame, edited: pd.DataFrame) -> dict[str, str]:
    """Roles the user changed in the editor: ``{column: new role}`` (invalid values dropped)."""
    out = {}
    for (_, before), (_, after) in zip(table.iterrows(), edited.iterrows()):
        if after["role"] != before["role"] and after["role"] in R.ROLES:
            out[str(before["column"])] = str(after["role"])
    return out


#: Streamlit's grid row height (px) and the most rows the role grid shows without scrolling
GRID_ROW_PX = 35
ROLE_GRID_ROWS = 30


def role_grid_height(n_columns: int) -> int:
    """Height of the role grid: every column of the table in view up to ROLE_GRID_ROWS of them
    (Streamlit's default showed 10 of 12 in an inner scroll)."""
    return GRID_ROW_PX * (min(n_columns, ROLE_GRID_ROWS) + 1) + 3
