"""How big a data file may be: the configured size limits, one table for the app and the CLI.

Each limit has a default and an environment variable that overrides it (a positive integer).
Files past a limit are refused with one line naming the limit, before the data they declare is
built (:class:`SizeLimits` does the checking, and the readers call it). The library's readers take no caps
unless given some; the app and the ``dtcore`` command read with ``configured()`` (the command's
``--no-limits`` lifts them). docs/operators.md ("Limits") lists the table.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from dtcore.schema import DataError


class LimitError(DataError):
    """A file larger than a configured limit: ``what`` names the limit (rows, columns, cells,
    cell_chars, name_chars, bytes), ``value`` is what the file has (or the count at which reading stopped)."""

    def __init__(self, what: str, value: int, limit: int, source: str = "the file") -> None:
        super().__init__(f"{source}: {value} {what} is over the limit of {limit}")
        self.what, self.value, self.limit = what, value, limit


@dataclass(frozen=True)
class SizeLimits:
    """Caps checked while reading, before anything grows with them (None = no cap).

    The library reads without caps; the app and the CLI pass the configured ones (:func:`configured`).
    ``cells`` caps rows × columns, ``cell_chars`` one cell's text, ``name_chars`` a column name or a
    declared label (names are copied into every model, message and drawing), ``bytes`` the file's text.
    """

    rows: int | None = None
    columns: int | None = None
    cells: int | None = None
    cell_chars: int | None = None
    name_chars: int | None = None
    bytes: int | None = None

    def check(self, what: str, value: int, source: str = "the file") -> None:
        """Raise LimitError when ``value`` is over the cap named ``what``."""
        limit = getattr(self, what)
        if limit is not None and value > limit:
            raise LimitError(what, value, limit, source)

    def check_shape(self, rows: int, columns: int, source: str = "the file") -> None:
        """Columns, rows and rows × columns against their caps (in that order)."""
        self.check("columns", columns, source)
        self.check("rows", rows, source)
        self.check("cells", rows * columns, source)


NO_LIMITS = SizeLimits()


@dataclass(frozen=True)
class Limit:
    name: str  # the SizeLimits field it sets
    env: str  # environment variable that overrides the default
    default: int
    what: str  # for the docs and error messages


LIMIT_TABLE = (
    Limit("rows", "DTREE_MAX_ROWS", 200_000, "data rows"),
    Limit("columns", "DTREE_MAX_COLUMNS", 1_000, "columns"),
    Limit("cells", "DTREE_MAX_CELLS", 20_000_000, "cells (rows × columns)"),
    Limit("cell_chars", "DTREE_MAX_CELL_CHARS", 10_000, "characters in one cell"),
    Limit("name_chars", "DTREE_MAX_NAME_CHARS", 1_000, "characters in a column name or declared label"),
    Limit("bytes", "DTREE_MAX_BYTES", 500_000_000, "bytes of text after decoding or unzipping"),
)
ENV = {lim.name: lim.env for lim in LIMIT_TABLE}


def limits_from(env: Mapping[str, str]) -> SizeLimits:
    """The limits with any overrides from ``env`` (unset, empty or invalid values: the default)."""
    values = {}
    for lim in LIMIT_TABLE:
        raw = env.get(lim.env, "").strip().replace("_", "")
        values[lim.name] = int(raw) if raw.isdigit() and int(raw) > 0 else lim.default
    return SizeLimits(**values)


def configured() -> SizeLimits:
    """The limits now: defaults overridden by the DTREE_MAX_* environment variables."""
    return limits_from(os.environ)
