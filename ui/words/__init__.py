"""More of the catalogue, one module per area (``WORDS: dict[key, (English, 中文)]``).

``ui.i18n`` merges every module of this package into its CATALOGUE, so a new page or view adds
its words in a file of its own instead of growing one shared dict. A key defined twice raises.
"""

from __future__ import annotations

import importlib
import pkgutil


def collected() -> dict[str, tuple[str, str]]:
    """Every module's WORDS, merged in module-name order (ValueError on a duplicate key)."""
    words: dict[str, tuple[str, str]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for key, pair in module.WORDS.items():
            if key in words:
                raise ValueError(f"catalogue key {key!r} is defined twice (ui.words.{info.name})")
            words[key] = pair
    return words
