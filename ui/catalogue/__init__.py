"""The text catalogue: every string the app shows, in English and 中文, one module per key prefix.

A key is ``<prefix>.<rest>`` and lives in ``ui/catalogue/<prefix>.py`` as an entry of that
module's ``WORDS: dict[key, (English, 中文)]``; a new page or view adds its prefix as a module
here and one line to MODULES. :data:`CATALOGUE` is every module's words; a key defined twice
raises at import. The lookup (``translate``, ``option_label``) and the languages are ``ui.i18n``'s.
"""

from __future__ import annotations

from types import ModuleType

from ui.catalogue import (
    algo,
    app,
    compare,
    cv,
    data,
    defaults,
    dot,
    download,
    growth,
    help,
    jobs,
    large,
    load,
    metrics,
    nav,
    nodedata,
    note,
    opened,
    opt,
    origin,
    param,
    progress,
    prune,
    regfit,
    role,
    roles,
    rules,
    side,
    splits,
    standalone,
    table,
    task,
    thresholds,
    train,
    tree,
    url,
    whatif,
)

#: every module of the catalogue, in name order
MODULES: tuple[ModuleType, ...] = (
    algo,
    app,
    compare,
    cv,
    data,
    defaults,
    dot,
    download,
    growth,
    help,
    jobs,
    large,
    load,
    metrics,
    nav,
    nodedata,
    note,
    opened,
    opt,
    origin,
    param,
    progress,
    prune,
    regfit,
    role,
    roles,
    rules,
    side,
    splits,
    standalone,
    table,
    task,
    thresholds,
    train,
    tree,
    url,
    whatif,
)


def prefix(key: str) -> str:
    """The part of a key before its first dot: the name of the module it lives in."""
    return key.split(".", 1)[0]


def assembled(modules: tuple[ModuleType, ...]) -> dict[str, tuple[str, str]]:
    """Every module's WORDS in one dict (ValueError on a key defined twice)."""
    catalogue: dict[str, tuple[str, str]] = {}
    for module in modules:
        for key, pair in module.WORDS.items():
            if key in catalogue:
                raise ValueError(f"catalogue key {key!r} is defined twice ({module.__name__})")
            catalogue[key] = pair
    return catalogue


#: key → (English, 中文)
CATALOGUE: dict[str, tuple[str, str]] = assembled(MODULES)
