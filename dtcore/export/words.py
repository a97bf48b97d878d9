"""The one rule for a table of words an export is written in (a picture's, the standalone page's,
an imported tree's origin): dtcore's English, or the caller's words for every one of its keys.
A key left out is refused rather than filled in English: a half-translated picture mixes
languages without anyone noticing."""

from __future__ import annotations

from collections.abc import Mapping


def complete_words(english: Mapping[str, str], words: Mapping[str, str] | None) -> dict[str, str]:
    """``english``, or ``words`` for each of its keys (as text); ValueError naming what lacks."""
    if words is None:
        return dict(english)
    missing = sorted(set(english) - set(words))
    if missing:
        raise ValueError(f"words= lacks {missing}")
    return {k: str(words[k]) for k in english}
