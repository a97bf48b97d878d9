"""The app's size limits: dtcore's configured table (``dtcore.data.limits``), read once at start-up.

Files past a limit are refused with one line naming the limit, before the data they declare is
built; the previously loaded data stays.
"""

from __future__ import annotations

from dtcore.data.limits import ENV, LIMIT_TABLE, Limit, configured, limits_from

__all__ = ["ENV", "LIMITS", "LIMIT_TABLE", "Limit", "limits_from"]

#: the configured limits (defaults overridden by the DTREE_MAX_* environment variables)
LIMITS = configured()
