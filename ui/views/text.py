"""Text the pages write: user text made safe for Markdown, training errors as text (numbers are
``dtcore.numbers``').

User text (file names, column names, labels): Streamlit Markdown also reads ``:color[...]`` directives, ``$`` maths and emoji shortcodes, so
every punctuation character Markdown could act on is backslash-escaped and ``<`` becomes an entity.

GitHub-flavoured Markdown also turns bare ``https://…``, ``www.…`` and ``a@b.c`` into links, and
does so on the text *after* escapes are decoded, so backslashes cannot stop it: an invisible
WORD JOINER (U+2060) is put inside ``://``, ``www.`` and before ``@``, which the autolinker then
no longer recognises; the text still reads exactly as typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

#: the pages' translation function: ``t(key, **values)`` → text in the user's language
Translate = Callable[..., str]


class KeyedError(Protocol):
    """A ``TrainingError`` or ``LoadError``: a catalogue key and the values that fill it in."""

    key: str
    params: dict[str, object]


_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~:$>=])")
WJ = "\u2060"
_AUTOLINK = re.compile(r"(:)(?=//)|(?i:(www))(?=\.)|()(?=@)")


def md_escape(text: object) -> str:
    """``text`` shown literally inside Markdown (newlines become spaces)."""
    s = re.sub(r"[\r\n\t]+", " ", str(text))
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    s = _AUTOLINK.sub(lambda m: (m.group(1) or m.group(2) or "") + WJ, s)
    return _SPECIAL.sub(r"\\\1", s)


def training_error(exc: KeyedError, t: Translate) -> str:
    """A ``TrainingError`` in the user's language (``t``: translation): its values escaped, an
    algorithm or task named by its title."""
    params = {k: md_escape(v) if isinstance(v, str) else v for k, v in exc.params.items()}
    if "algorithm" in params:
        params["algorithm"] = t(f"algo.{exc.params['algorithm']}")
    if "task" in params:
        params["task"] = t(f"task.{exc.params['task']}")
    return t(exc.key, **params)


def sentence(text: str) -> str:
    """``text`` ending with a full stop (messages from the library often have none, and the app
    puts another sentence after them)."""
    text = str(text).rstrip()
    return text if not text or text[-1] in ".!?。！？…" else text + "."
