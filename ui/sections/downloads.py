"""The Train page's download buttons: one table of formats, every payload built only when its
button is clicked (a 30 000-node tree's JSON and DOT take seconds to write). The pictures (DOT,
SVG, PNG, PDF, the HTML page's tree) say their words (samples, class, …) in the page's language,
as the tree on the page does."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dtcore import export
from dtcore.base import BaseTreeEstimator
from ui.state import state
from ui.state.state import t
from ui.views import tree as treeview


@dataclass(frozen=True)
class Download:
    label: str  # catalogue key of the button's label
    build: Callable[[BaseTreeEstimator, dict[str, str] | None], str | bytes]  # (est, DOT words) → content
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
    "dot": Download("download.dot", lambda e, w: export.to_dot(e, words=w), ".dot", "text/vnd.graphviz"),
    "svg": Download(
        "download.svg",
        lambda e, w: export.render(export.to_dot(e, words=w), "svg"),
        ".svg",
        "image/svg+xml",
        ":material/image:",
        True,
    ),
    "png": Download(
        "download.png",
        lambda e, w: export.render(export.to_dot(e, words=w), "png", dpi=144),
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
        lambda e, w: export.render(export.to_dot(e, words=w), "pdf"),
        ".pdf",
        "application/pdf",
        ":material/picture_as_pdf:",
        True,
    ),
    "html": Download(
        "download.html",
        lambda e, w: export.to_html(e, export.render(export.to_dot(e, words=w), "svg").decode("utf-8")),
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


def graphviz_missing() -> bool:
    return shutil.which("dot") is None


def download_row(cells: Sequence, est, stem: str, formats: Sequence[str]) -> None:
    """One button per format in ``cells``; each payload is written when its button is clicked."""
    no_dot = graphviz_missing()
    words = treeview.download_words(state.lang())
    for cell, name in zip(cells, formats):
        d = FORMATS[name]
        cell.download_button(
            t(d.label),
            lambda d=d: d.build(est, words),
            f"{stem}{d.suffix}",
            d.mime,
            on_click="ignore",
            icon=d.icon,
            disabled=d.needs_dot and no_dot,
            help=t(d.help) if d.help else None,
        )
