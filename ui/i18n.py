"""The languages and the lookup of the text catalogue (``ui.catalogue``: the words themselves).

Pages never write user-facing text inline: they call ``t("key", **values)``. A key missing from
the catalogue raises ``KeyError`` (tests walk every key and both languages), so a half-translated
screen cannot ship. A page or view adds its words in ``ui/catalogue/<prefix>.py``.
"""

from __future__ import annotations

from ui.catalogue import CATALOGUE

LANGS = ("en", "zh")
LANG_NAMES = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"


def translate(key: str, lang: str, **values) -> str:
    """The text for ``key`` in ``lang`` with ``values`` filled in (KeyError if the key is unknown)."""
    en, zh = CATALOGUE[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


def option_label(kind: str, value, lang: str) -> str:
    """Label of a select option: catalogue ``opt.<kind>.<value>`` or ``opt.<value>``, else the value."""
    for key in (f"opt.{kind}.{value}", f"opt.{value}"):
        if key in CATALOGUE:
            return translate(key, lang)
    return str(value)
