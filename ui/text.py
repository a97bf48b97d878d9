"""User text (file names, column names, labels) made safe for Streamlit Markdown.

Streamlit Markdown also reads ``:color[...]`` directives, ``$`` maths and emoji shortcodes, so
every punctuation character Markdown could act on is backslash-escaped and ``<`` becomes an entity.
"""
from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~:$>=])")


def md_escape(text) -> str:
    """``text`` shown literally inside Markdown (newlines become spaces)."""
    s = re.sub(r"[\r\n\t]+", " ", str(text))
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    return _SPECIAL.sub(r"\\\1", s)
