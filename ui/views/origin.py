"""An imported tree's origin in the page's language, as plain text (callers escape it for
Markdown or HTML): which source and member, what its leaves hold, and its note worded clause by
clause from the catalogue (``origin.*``; a file written before notes had clauses gives its
English note)."""

from __future__ import annotations

from dtcore.export.origin import ModelOrigin
from ui import i18n


def source_text(origin: ModelOrigin, lang: str) -> str:
    """``XGBoost JSON model, tree 4 of 6`` (中文: ``…, 共 6 棵中的第 4 棵``)."""
    text = origin.source
    if origin.member is not None and origin.n_members is not None:
        text += ", " + i18n.translate("opened.member", lang, member=origin.member, n=origin.n_members)
    return text


def note_text(origin: ModelOrigin, lang: str) -> str:
    if not origin.clauses:
        return origin.note
    join = i18n.translate("origin.join", lang)
    return join.join(i18n.translate("origin." + c.key, lang, **dict(c.values)) for c in origin.clauses)


def about_lines(origin: ModelOrigin, lang: str) -> list[str]:
    """What a page outside the app says under its heading (``ModelOrigin.sentences``' lines)."""
    out = []
    if origin.is_raw_score:
        out.append(i18n.translate("opened.raw_score", lang))
    if origin.output is not None:
        out.append(i18n.translate("opened.output", lang, output=origin.output))
    if origin.note:
        out.append(i18n.translate("opened.note", lang, note=note_text(origin, lang)))
    return out
