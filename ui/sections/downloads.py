"""The Train page's download buttons: one table of formats, every payload built only when its
button is clicked (a 30 000-node tree's JSON and DOT take seconds to write). The pictures (DOT,
SVG, PNG, PDF) and the HTML page say their words (samples, class, …; the page's own) in the
page's language, as the tree on the page does."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

from dtcore import export
from dtcore.base import BaseTreeEstimator
from ui import i18n
from ui.state import state
from ui.state.state import t
from ui.views import tree as treeview
from ui.views.origin import origin_words


@dataclass(frozen=True)
class Wording:
    """A download's words in the page's language ``lang``: the picture's (``to_dot``'s ``words``)
    and the HTML page's (``to_html``'s ``words``, ``title``, ``about``). None where dtcore's own
    English is meant, so that an English download is byte for byte what ``dtcore export`` writes."""

    lang: str = i18n.DEFAULT_LANG
    dot: dict[str, str] | None = None
    page: dict[str, str] | None = None
    title: str | None = None
    about: list[str] | None = None


def wording(est: BaseTreeEstimator, lang: str) -> Wording:
    dot = treeview.download_words(lang)
    if dot is None:
        return Wording(lang)
    target = est.schema_.target
    origin = est.origin_
    if origin is not None:
        words = origin_words(lang)
        title, about = f"{target}: {origin.title(words)}", origin.sentences(words)
    else:
        task = "classification" if est.schema_.is_classifier else "regression"
        title = i18n.translate(
            "standalone.heading",
            lang,
            target=target,
            algorithm=i18n.translate("algo." + est.algorithm, lang),
            task=i18n.translate("task." + task, lang),
        )
        about = None
    return Wording(
        lang, dot, {k: i18n.translate("standalone." + k, lang) for k in export.PAGE_WORDS}, title, about
    )


def _html(e: BaseTreeEstimator, w: Wording) -> str:
    svg = export.render(export.to_dot(e, words=w.dot), "svg").decode("utf-8")
    return export.to_html(e, svg, title=w.title, about=w.about, words=w.page, lang=w.lang)


@dataclass(frozen=True)
class Download:
    label: str  # catalogue key of the button's label
    build: Callable[[BaseTreeEstimator, Wording], str | bytes]  # (est, its words) → the file's content
    suffix: str
    mime: str
    icon: str | None = None
    needs_dot: bool = False  # drawn by Graphviz's dot: disabled where it is missing
    help: str | None = None  # catalogue key


# the builders look ``export`` up when called, so a test may watch them
FORMATS = {
    "json": Download(
        "download.json",
        lambda e, w: export.dumps_model(e),
        ".json",
        "application/json",
        ":material/data_object:",
    ),
    "dot": Download("download.dot", lambda e, w: export.to_dot(e, words=w.dot), ".dot", "text/vnd.graphviz"),
    "svg": Download(
        "download.svg",
        lambda e, w: export.render(export.to_dot(e, words=w.dot), "svg"),
        ".svg",
        "image/svg+xml",
        ":material/image:",
        True,
    ),
    "png": Download(
        "download.png",
        lambda e, w: export.render(export.to_dot(e, words=w.dot), "png", dpi=144),
        ".png",
        "image/png",
        ":material/image:",
        True,
    ),
    "rules": Download(
        "download.rules", lambda e, w: export.to_text(e), "-rules.txt", "text/plain", ":material/list:"
    ),
    "pdf": Download(
        "download.pdf",
        lambda e, w: export.render(export.to_dot(e, words=w.dot), "pdf"),
        ".pdf",
        "application/pdf",
        ":material/picture_as_pdf:",
        True,
    ),
    "html": Download(
        "download.html",
        _html,
        ".html",
        "text/html",
        ":material/web:",
        True,
        help="download.html_help",
    ),
    "python": Download(
        "download.python",
        lambda e, w: export.to_python(e),
        ".py",
        "text/x-python",
        ":material/code:",
        help="download.code_help",
    ),
    "sql": Download(
        "download.sql",
        lambda e, w: export.to_sql(e),
        ".sql",
        "application/sql",
        ":material/database:",
        help="download.code_help",
    ),
}


#: The most nodes a picture download (SVG, PNG, PDF, the HTML page) lays out. Graphviz's ``dot``
#: took 12 s for 4 183 nodes and 30 s for a 6 121-node tree on this machine, on the click and with
#: nothing shown meanwhile; above this those buttons are disabled and the page points to the .dot
#: file (the page's own whole-tree picture stops at ``focus.SERVER_NODE_LIMIT``).
DOWNLOAD_NODE_LIMIT = 5000


def graphviz_missing() -> bool:
    return shutil.which("dot") is None


def too_big_to_draw(est: BaseTreeEstimator) -> bool:
    return est.tree_.node_count > DOWNLOAD_NODE_LIMIT


def pictures_note(est: BaseTreeEstimator) -> None:
    """Why the picture buttons are disabled, if they are: no Graphviz, or too many nodes."""
    if graphviz_missing():
        st.caption(t("download.no_graphviz", message="dot"))
    elif too_big_to_draw(est):
        st.caption(t("download.too_big", nodes=f"{est.tree_.node_count:,}", limit=f"{DOWNLOAD_NODE_LIMIT:,}"))


def download_row(cells: Sequence, est, stem: str, formats: Sequence[str]) -> None:
    """One button per format in ``cells``; each payload is written when its button is clicked."""
    no_picture = graphviz_missing() or too_big_to_draw(est)
    words = wording(est, state.lang())
    for cell, name in zip(cells, formats):
        d = FORMATS[name]
        cell.download_button(
            t(d.label),
            lambda d=d: d.build(est, words),
            f"{stem}{d.suffix}",
            d.mime,
            on_click="ignore",
            icon=d.icon,
            disabled=d.needs_dot and no_picture,
            help=t(d.help) if d.help else None,
        )
