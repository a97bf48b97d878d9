"""The words an imported tree's origin is said in on this page (``dtcore.export.origin``'s
``ORIGIN_WORDS`` and note clauses, from the catalogue: ``opened.*`` and ``origin.*``), for
``ModelOrigin.title``, ``note_text`` and ``sentences``, which word it."""

from __future__ import annotations

from dtcore.export.origin import NOTE_CLAUSES
from ui import i18n

#: ORIGIN_WORDS key → its catalogue key
_KEYS = {
    "member": "opened.member",
    "raw_score": "opened.raw_score",
    "output": "opened.output",
    "note": "opened.note",
    "join": "origin.join",
}


def origin_words(lang: str) -> dict[str, str]:
    return {
        **{k: i18n.translate(key, lang) for k, key in _KEYS.items()},
        **{k: i18n.translate("origin." + k, lang) for k in NOTE_CLAUSES},
    }
