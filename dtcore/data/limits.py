"""How big a data file may be: the configured size limits, one table for the app and the CLI.

Each limit has a default and an environment variable that overrides it (a positive integer).
Files past a limit are refused with one line naming the limit, before the data they declare is
built (``dtcore.data.readers.SizeLimits`` does the checking). The library's readers take no caps
unless given some; the app and the ``dtcore`` command read with ``configured()`` (the command's
``--no-limits`` lifts them). README "Limits" lists the table.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from dtcore.data.readers import SizeLimits


@dataclass(frozen=True)
class Limit:
    name: str  # the SizeLimits field it sets
    env: str  # environment variable that overrides the default
    default: int
    what: str  # for the README and error messages


LIMIT_TABLE = (
    Limit("rows", "DTREE_MAX_ROWS", 200_000, "data rows"),
    Limit("columns", "DTREE_MAX_COLUMNS", 1_000, "columns"),
    Limit("cells", "DTREE_MAX_CELLS", 20_000_000, "cells (rows × columns)"),
    Limit("cell_chars", "DTREE_MAX_CELL_CHARS", 10_000, "characters in one cell"),
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
